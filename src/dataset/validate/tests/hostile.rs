//! Many problems at once, and hostile input: junk everywhere, random mutations.

use super::*;

#[test]
fn every_problem_is_reported() {
    let doc = json!({
        "format": "cfp",
        "version": 2,
        "extra": true,
        "users": [
            {"code": "A-1", "name": 5, "email": "x@example.org", "is_administrator": "no"},
            {"code": "B", "name": "B", "email": "X@example.org", "timezone": "Nowhere"}
        ],
        "events": [
            {"slug": "-bad", "name": "", "date_from": "2026-99-01", "is_public": 1,
             "tracks": [{"id": 1, "name": "T"}, {"id": 1, "name": "U", "colour": "red"}],
             "submissions": [{"code": "S1", "title": "S", "submission_type": 3, "track": 4,
                              "speakers": ["B"], "created": "2026-01-01T00:00:00",
                              "slots": [{"is_visible": true}]}]}
        ]
    });
    assert_eq!(
        problems(&doc),
        vec![
            "format: must be \"cfp-dataset\"",
            "version: must be 1",
            "users[0].code: invalid code \"A-1\" (1 to 16 of [A-Za-z0-9])",
            "users[0].name: must be a string, got 5",
            "users[0].is_administrator: must be a boolean, got \"no\"",
            "users[1].email: duplicate e-mail \"X@example.org\" (also at users[0])",
            "users[1].timezone: unknown time zone \"Nowhere\"",
            "events[0].slug: invalid slug \"-bad\"",
            "events[0].name: required i18n value is empty",
            "events[0].is_public: must be a boolean, got 1",
            "events[0].date_from: invalid date \"2026-99-01\"",
            "events[0].tracks[1].id: duplicate track id 1 (also at events[0].tracks[0].id)",
            "events[0].tracks[1].colour: unknown field",
            "events[0].submissions[0].speakers[0]: speaker \"B\" has no speaker profile in event \"-bad\"",
            "events[0].submissions[0].submission_type: submission type 3 does not exist in event \"-bad\"",
            "events[0].submissions[0].track: track 4 does not exist in event \"-bad\"",
            "events[0].submissions[0].created: invalid datetime \"2026-01-01T00:00:00\" (RFC 3339 with offset required)",
            "events[0].submissions[0].slots: event \"-bad\" has no released schedule, so no slots are allowed",
            "extra: unknown field",
        ]
    );
}

/// Values that are wrong wherever they stand: no field takes a list of
/// objects with an unknown key, nor an object whose value is a list.
fn wrong_everywhere() -> [Value; 2] {
    [json!([{"junk": 1}]), json!({"junk": [1]})]
}

fn junk() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("x\u{0}☃ \u{202e}"),
        json!("2026-01-01T00:00:00Z"),
        json!([]),
        json!({}),
        json!([null, [], {}]),
    ]
}

#[test]
fn junk_at_every_level_gives_problems_not_panics() {
    junk_everywhere(&base());
}

/// Junk at every node of `doc`: problems, never a panic; values that are
/// wrong everywhere are refused everywhere.
pub(super) fn junk_everywhere(doc: &Value) {
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    for pointer in &all {
        for value in junk() {
            let mut changed = doc.clone();
            match changed.pointer_mut(pointer) {
                Some(slot) => *slot = value,
                None => unreachable!("pointers come from the document"),
            }
            let _ = parse_value(&changed); // must not panic
        }
        for value in wrong_everywhere() {
            let mut changed = doc.clone();
            if let Some(slot) = changed.pointer_mut(pointer) {
                *slot = value;
            }
            assert!(parse_value(&changed).is_err(), "{pointer} accepted junk");
        }
        if !pointer.is_empty() {
            let mut changed = doc.clone();
            remove(&mut changed, pointer);
            let _ = parse_value(&changed);
        }
    }
}

#[test]
fn random_mutations_never_panic() {
    // xorshift64: deterministic, no dependency.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let junk = junk();
    let start = base();
    for _ in 0..1500 {
        let mut doc = start.clone();
        for _ in 0..1 + next(4) {
            let mut all = Vec::new();
            pointers(&doc, String::new(), &mut all);
            let pointer = all[next(all.len())].clone();
            if pointer.is_empty() {
                continue;
            }
            match next(3) {
                0 => remove(&mut doc, &pointer),
                1 => {
                    // Copy another node here: right types, wrong places.
                    let other = all[next(all.len())].clone();
                    let value = doc.pointer(&other).cloned().unwrap_or(Value::Null);
                    set(&mut doc, &pointer, value);
                }
                _ => set(&mut doc, &pointer, junk[next(junk.len())].clone()),
            }
        }
        let _ = parse_value(&doc);
    }
}

#[test]
fn hostile_text_never_panics() {
    let text = democon_text();
    // Cut the document at many places: every cut is a syntax error.
    for cut in (1..text.len()).step_by(997) {
        if text.is_char_boundary(cut) {
            let found = parse_str(&text[..cut]).expect_err("a cut document");
            assert_eq!(found.len(), 1);
            assert_eq!(found[0].path, "$");
        }
    }
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(parse_str(&deep).expect_err("too deep")[0].path, "$");
    for text in [
        "null",
        "1",
        "\"x\"",
        "[]",
        "{}",
        "{\"format\": {\"a\": 1}}",
        "\u{feff}{}",
    ] {
        assert!(parse_str(text).is_err(), "{text}");
    }
}

#[test]
fn a_token_may_name_its_api_version() {
    let mut doc = base();
    set(
        &mut doc,
        "/users/0/tokens",
        json!(["plain-token", {"token": "v1-token", "api_version": "v1"},
                                            {"token": "old-token", "api_version": "legacy"},
                                            {"token": "v2-token", "api_version": "v2"},
                                            {"token": "next-token", "api_version": "v-next"}]),
    );
    let hash = hash_token("hashed-v1");
    set(
        &mut doc,
        "/users/1/token_hashes",
        json!([{"hash": format!("sha256:{hash}"), "api_version": "v1"}]),
    );
    let d = parse_ok(&doc);
    assert_eq!(
        d.users[0].token_hashes,
        vec![
            TokenHash::plain(hash_token("plain-token")),
            TokenHash {
                hash: hash_token("v1-token"),
                api_version: Some(ApiVersion::V1)
            },
            TokenHash {
                hash: hash_token("old-token"),
                api_version: Some(ApiVersion::Legacy)
            },
            TokenHash {
                hash: hash_token("v2-token"),
                api_version: Some(ApiVersion::V2)
            },
            TokenHash {
                hash: hash_token("next-token"),
                api_version: Some(ApiVersion::VNext)
            },
        ]
    );
    assert_eq!(
        d.users[1].token_hashes,
        vec![TokenHash {
            hash: hash.clone(),
            api_version: Some(ApiVersion::V1)
        }]
    );
    // Exported as hashes, the version kept; a token without one stays a string.
    let exported = export::to_json(&d);
    assert_eq!(
        exported["users"][0]["token_hashes"],
        json!([
            format!("sha256:{}", hash_token("plain-token")),
            {"hash": format!("sha256:{}", hash_token("v1-token")), "api_version": "v1"},
            {"hash": format!("sha256:{}", hash_token("old-token")), "api_version": "legacy"},
            {"hash": format!("sha256:{}", hash_token("v2-token")), "api_version": "v2"},
            {"hash": format!("sha256:{}", hash_token("next-token")), "api_version": "v-next"},
        ])
    );
    assert_eq!(parse_ok(&exported), d, "the export reads back the same");
}

#[test]
fn a_bad_token_entry_is_named_with_its_path() {
    assert_eq!(
        with(
            "/users/0/tokens",
            json!([{"token": "t", "api_version": "v3"}])
        ),
        vec![
            r#"users[0].tokens[0].api_version: must be "legacy", "v1", "v2" or "v-next", got "v3""#
        ]
    );
    assert_eq!(
        with("/users/0/tokens", json!([{"token": "t", "colour": "red"}])),
        vec!["users[0].tokens[0].colour: unknown field"]
    );
    assert_eq!(
        with("/users/0/tokens", json!([{"api_version": "v1"}])),
        vec!["users[0].tokens[0].token: token must be a non-empty string without whitespace"]
    );
    assert_eq!(
        with("/users/0/token_hashes", json!([{"hash": "md5:abc"}])),
        vec!["users[0].token_hashes[0].hash: must be sha256:<64 lower-case hex digits>"]
    );
}
