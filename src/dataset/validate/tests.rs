use super::*;
use crate::dataset::export;
use crate::model::{ApiVersion, TokenHash};
use serde_json::{json, Value};

// ---- helpers ------------------------------------------------------------

/// A valid document that uses every record kind and most fields.
fn base() -> Value {
    // Built in parts: one json! of the whole would exceed the macro
    // recursion limit.
    let users = json!([
        {"code": "ORGA", "name": "Olivia", "email": "orga@example.org",
         "is_administrator": true, "tokens": ["secret-token"]},
        {"code": "SPK1", "name": "Amira", "email": "amira@example.org",
         "avatar": "https://example.org/a.png", "timezone": "Europe/Berlin",
         "token_hashes": [format!("sha256:{}", hash_token("other-token"))]},
        {"code": "SPK2", "name": "Bruno", "email": "bruno@example.org"},
        {"code": "REV1", "name": "Rafael", "email": "rafael@example.org", "locale": "de"},
        // Referenced by nothing, so changing it has no knock-on problems.
        {"code": "LURK", "name": "Lurker", "email": "lurker@example.org"}
    ]);
    let mut democon = json!({
        "slug": "democon",
        "name": {"en": "DemoCon", "de": "DemoKon"},
        "is_public": true,
        "date_from": "2026-11-20",
        "date_to": "2026-11-22",
        "timezone": "Europe/Berlin",
        "schedule": {"version": "1.0", "published": "2026-11-01T10:00:00+01:00"},
        "review_phase": {"name": "Second round", "can_see_other_reviews": "always",
                         "proposal_visibility": "assigned"}
    });
    democon["teams"] = json!([
        {"name": "Orga", "members": ["ORGA"], "can_change_submissions": true},
        {"name": "Reviewers", "members": ["REV1"], "is_reviewer": true, "limit_tracks": [1]}
    ]);
    democon["submission_types"] = json!([{"id": 1, "name": "Talk", "default_duration": 45}]);
    democon["tracks"] = json!([
        {"id": 1, "name": {"en": "Web"}, "color": "#ff0000"},
        {"id": 2, "name": "Ops"}
    ]);
    democon["rooms"] = json!([{
        "id": 1, "guid": "fdc7b5b3-7ef7-59a8-81b6-9b603297b8a1", "name": "Hall",
        "capacity": 100, "position": 1,
        "availabilities": [{"id": 1, "start": "2026-11-20T08:00:00Z",
                            "end": "2026-11-20T18:00:00Z"}]
    }]);
    democon["tags"] = json!([{"id": 1, "tag": "keynote", "description": "Could be a keynote",
                              "color": "#00ff00", "is_public": true}]);
    democon["questions"] = json!([
        {"id": 1, "variant": "choices", "question": "Level?",
         "options": [{"id": 1, "answer": "Beginner"}, {"id": 2, "answer": "Expert"}],
         "tracks": [1], "submission_types": [1]},
        {"id": 2, "target": "speaker", "question": "T-shirt size?",
         "question_required": "required", "deadline": "2026-10-01T00:00:00Z"},
        {"id": 3, "target": "reviewer", "variant": "number", "question": "Confidence?"}
    ]);
    democon["speakers"] = json!([
        {"user": "SPK1", "biography": "Hi",
         "availabilities": [{"id": 2, "start": "2026-11-20T08:00:00Z",
                             "end": "2026-11-20T12:00:00Z"}]},
        {"user": "SPK2"}
    ]);
    democon["submissions"] = json!([
        {"code": "TALK1", "title": "Rust", "speakers": ["SPK1", "SPK2"],
         "submission_type": 1, "track": 1, "state": "confirmed",
         "created": "2026-09-01T12:00:00.5Z", "tags": [1],
         "resources": [{"resource": "https://example.org/slides.pdf", "description": "Slides"}],
         "anonymised": {"title": "A talk"}, "assigned_reviewers": ["REV1"],
         "slots": [{"room": 1, "start": "2026-11-20T09:00:00+01:00",
                    "end": "2026-11-20T09:45:00+01:00", "is_visible": true}]},
        {"code": "TALK2", "title": "Go", "speakers": ["SPK2"], "submission_type": 1,
         "created": "2026-09-02T12:00:00Z"}
    ]);
    democon["answers"] = json!([
        {"id": 1, "question": 1, "answer": "Beginner", "submission": "TALK1", "options": [1]},
        {"id": 2, "question": 2, "answer": "L", "person": "SPK1"},
        {"id": 3, "question": 3, "answer": "5", "review": 1}
    ]);
    democon["reviews"] = json!([{"id": 1, "submission": "TALK1", "user": "REV1", "text": "Good",
                                 "score": 2.5, "created": "2026-10-01T10:00:00Z"}]);
    let other = json!({"slug": "other", "name": "Other", "date_from": "2027-01-01",
                       "tracks": [{"id": 99, "name": "Elsewhere"}]});
    json!({"format": "cfp-dataset", "version": 1, "users": users, "events": [democon, other]})
}

fn problems(doc: &Value) -> Vec<String> {
    let found = match parse_value(doc) {
        Ok(_) => Vec::new(),
        Err(found) => found.iter().map(ToString::to_string).collect(),
    };
    // The same from the document's text (`confapi import`'s path, which
    // borrows its strings from the text), in the file's key order.
    for text in [doc.to_string(), serde_json::to_string_pretty(doc).unwrap()] {
        let from_text: Vec<String> = match parse_str(&text) {
            Ok(_) => Vec::new(),
            Err(found) => found.iter().map(ToString::to_string).collect(),
        };
        assert_eq!(from_text, found, "parse_str and parse_value differ");
    }
    found
}

/// Sets (or adds) the value at a JSON pointer.
fn set(doc: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    match doc.pointer_mut(parent).expect("parent exists") {
        Value::Object(map) => {
            map.insert(key.to_string(), value);
        }
        Value::Array(items) => {
            let i: usize = key.parse().expect("an index");
            if i == items.len() {
                items.push(value);
            } else {
                items[i] = value;
            }
        }
        _ => panic!("{parent} is not a container"),
    }
}

fn remove(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    match doc.pointer_mut(parent).expect("parent exists") {
        Value::Object(map) => {
            map.remove(key).expect("key exists");
        }
        Value::Array(items) => {
            items.remove(key.parse().expect("an index"));
        }
        _ => panic!("{parent} is not a container"),
    }
}

/// Problems of the base document with one value set.
fn with(pointer: &str, value: Value) -> Vec<String> {
    let mut doc = base();
    set(&mut doc, pointer, value);
    problems(&doc)
}

/// Problems of the base document with one value removed.
fn without(pointer: &str) -> Vec<String> {
    let mut doc = base();
    remove(&mut doc, pointer);
    problems(&doc)
}

fn parse_ok(doc: &Value) -> Dataset {
    match parse_value(doc) {
        Ok(dataset) => {
            let from_text = parse_str(&doc.to_string()).expect("the same from the text");
            assert_eq!(
                crate::dataset::to_json(&from_text),
                crate::dataset::to_json(&dataset)
            );
            dataset
        }
        Err(found) => panic!("unexpected problems: {found:#?}"),
    }
}

fn ts(text: &str) -> Timestamp {
    parse_rfc3339(text).expect("a test datetime")
}

fn democon_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/democon.json");
    std::fs::read_to_string(path).expect("tests/data/democon.json")
}

/// JSON pointers of every node of `value` (the root is "").
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                pointers(v, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

// ---- whole documents ------------------------------------------------------

#[test]
fn base_document_is_valid_and_converted() {
    let d = parse_ok(&base());
    assert_eq!(d.users.len(), 5);
    assert_eq!(
        d.users[0].token_hashes,
        vec![TokenHash::plain(hash_token("secret-token"))]
    );
    assert_eq!(
        d.users[1].token_hashes,
        vec![TokenHash::plain(hash_token("other-token"))]
    );
    assert_eq!(
        d.users[1].avatar.as_deref(),
        Some("https://example.org/a.png")
    );
    let e = &d.events[0];
    assert_eq!(
        e.name.0,
        vec![
            ("de".into(), "DemoKon".into()),
            ("en".into(), "DemoCon".into())
        ]
    );
    assert_eq!(e.date_to, NaiveDate::from_ymd_opt(2026, 11, 22));
    let schedule = e.schedule.as_ref().expect("schedule");
    assert_eq!(schedule.published, Some(ts("2026-11-01T09:00:00Z")));
    let phase = e.review_phase.as_ref().expect("phase");
    assert_eq!(phase.name, "Second round");
    assert_eq!(phase.can_see_other_reviews, OtherReviews::Always);
    assert_eq!(phase.proposal_visibility, ProposalVisibility::Assigned);
    assert_eq!(e.teams[1].limit_tracks, vec![1]);
    assert_eq!(e.tracks[1].name, I18n::en("Ops"));
    assert_eq!(e.questions[0].options[1].id, 2);
    let s = &e.submissions[0];
    assert_eq!(s.speakers, vec!["SPK1", "SPK2"]);
    assert_eq!(s.created, ts("2026-09-01T12:00:00.500Z"));
    let anonymised = s.anonymised.as_ref().expect("anonymised");
    assert_eq!(
        (anonymised.title.as_str(), anonymised.abstract_.as_str()),
        ("A talk", "")
    );
    assert_eq!(s.slots[0].start, Some(ts("2026-11-20T08:00:00Z")));
    assert_eq!(e.answers[2].review, Some(1));
    assert_eq!(e.reviews[0].score, Some(2.5));
    assert_eq!(d.events[1].tracks[0].id, 99);
}

#[test]
fn defaults_are_applied() {
    let doc = json!({
        "format": "cfp-dataset", "version": 1,
        "users": [{"code": "U1", "name": "U", "email": "u@example.org"}],
        "events": [{
            "slug": "e", "name": "E", "date_from": "2026-01-01", "review_phase": {},
            "teams": [{"name": "T"}],
            "submission_types": [{"id": 1, "name": "Talk"}],
            "tracks": [{"id": 1, "name": "Tr"}],
            "rooms": [{"id": 1, "name": "R"}],
            "tags": [{"id": 1, "tag": "t"}],
            "questions": [{"id": 1, "question": "Q?"}],
            "speakers": [{"user": "U1"}],
            "submissions": [{"code": "S1", "title": "S", "submission_type": 1,
                             "created": "2026-01-01T00:00:00Z"}],
            "answers": [{"id": 1, "question": 1, "submission": "S1"}],
            "reviews": [{"id": 1, "submission": "S1", "user": "U1",
                         "created": "2026-01-02T00:00:00Z"}]
        }]
    });
    let d = parse_ok(&doc);
    let u = &d.users[0];
    assert_eq!(
        (u.avatar.clone(), u.locale.as_str(), u.timezone.as_str()),
        (None, "en", "UTC")
    );
    assert!(!u.is_administrator && u.token_hashes.is_empty());
    let e = &d.events[0];
    assert!(!e.is_public && e.show_schedule);
    assert_eq!(
        (e.date_to, e.timezone.as_str(), e.locale.as_str()),
        (None, "UTC", "en")
    );
    assert!(e.schedule.is_none());
    let phase = e.review_phase.as_ref().expect("phase");
    let default = ReviewPhase::default();
    assert_eq!(phase.name, "Review");
    assert!(phase.can_see_speaker_names && phase.can_see_reviewer_names);
    assert_eq!(phase.can_see_other_reviews, default.can_see_other_reviews);
    assert_eq!(phase.proposal_visibility, ProposalVisibility::All);
    let t = &e.teams[0];
    assert!(t.members.is_empty() && t.limit_tracks.is_empty());
    assert!(!t.can_change_submissions && !t.is_reviewer && !t.force_hide_speaker_names);
    assert_eq!(e.submission_types[0].default_duration, 30);
    assert_eq!(e.tracks[0].color, "");
    let r = &e.rooms[0];
    assert_eq!((r.guid.clone(), r.capacity, r.position), (None, None, None));
    assert!(
        r.description.0.is_empty() && r.speaker_info.0.is_empty() && r.availabilities.is_empty()
    );
    let tag = &e.tags[0];
    assert!(tag.description.0.is_empty() && tag.color.is_empty() && !tag.is_public);
    let q = &e.questions[0];
    assert_eq!(
        (q.variant.as_str(), q.target.as_str()),
        ("string", "submission")
    );
    assert_eq!(q.question_required, QuestionRequired::Optional);
    assert!(q.help_text.0.is_empty() && q.options.is_empty());
    assert_eq!(
        (q.deadline, q.freeze_after, q.default_answer.clone()),
        (None, None, None)
    );
    assert!(q.contains_personal_data && !q.is_public && q.is_visible_to_reviewers && q.active);
    assert_eq!((q.min_length, q.max_length, q.position), (None, None, 0));
    assert!(q.tracks.is_empty() && q.submission_types.is_empty());
    let p = &e.speakers[0];
    assert!(p.biography.is_empty() && p.availabilities.is_empty());
    let s = &e.submissions[0];
    assert!(s.speakers.is_empty());
    assert_eq!(
        (s.track, s.state.as_str(), s.pending_state),
        (None, "submitted", None)
    );
    assert!(s.abstract_.is_empty() && s.description.is_empty());
    assert!(s.notes.is_empty() && s.internal_notes.is_empty());
    assert_eq!((s.duration, s.slot_count), (None, 1));
    assert!(!s.do_not_record && !s.is_featured);
    assert_eq!((s.content_locale.as_str(), s.image.clone()), ("en", None));
    assert!(s.tags.is_empty() && s.resources.is_empty() && s.assigned_reviewers.is_empty());
    assert!(s.anonymised.is_none() && s.slots.is_empty());
    let a = &e.answers[0];
    assert_eq!((a.answer.as_str(), a.answer_file.clone()), ("", None));
    assert_eq!((a.person.clone(), a.review), (None, None));
    assert!(a.options.is_empty());
    let rv = &e.reviews[0];
    assert_eq!((rv.text.as_str(), rv.score), ("", None));
    assert_eq!(rv.updated, ts("2026-01-02T00:00:00Z"));

    // users and events default to [].
    let empty = parse_ok(&json!({"format": "cfp-dataset", "version": 1}));
    assert!(empty.users.is_empty() && empty.events.is_empty());
}

#[test]
fn democon_parses_and_round_trips() {
    let first = match parse_str(&democon_text()) {
        Ok(d) => d,
        Err(found) => panic!("democon.json has problems: {found:#?}"),
    };
    assert_eq!((first.users.len(), first.events.len()), (110, 2));
    assert_eq!(
        first.users[0].token_hashes,
        vec![TokenHash::plain(hash_token(
            "30369046a1da256c935d698c4b3f61808ddfc13b"
        ))]
    );
    let exported = export::to_json(&first);
    let second = parse_ok(&exported);
    assert_eq!(export::to_json(&second), exported);
}

#[test]
fn client_friendly_parses_and_round_trips() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/client-friendly.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/data/client-friendly.json");
    let first = match parse_str(&text) {
        Ok(d) => d,
        Err(found) => panic!("client-friendly.json has problems: {found:#?}"),
    };
    let exported = export::to_json(&first);
    assert_eq!(export::to_json(&parse_ok(&exported)), exported);
}

#[test]
fn base_document_round_trips() {
    let mut doc = base();
    // Cover the nullable branches of slots too.
    set(
        &mut doc,
        "/events/0/submissions/0/slots/1",
        json!({"is_visible": false}),
    );
    let exported = export::to_json(&parse_ok(&doc));
    assert_eq!(export::to_json(&parse_ok(&exported)), exported);
}

#[test]
fn problem_displays_path_and_message() {
    let p = Problem {
        path: "events[0].slug".into(),
        message: "unknown field".into(),
    };
    assert_eq!(p.to_string(), "events[0].slug: unknown field");
}

#[test]
fn json_syntax_error_is_one_problem_at_the_root() {
    let found = parse_str("{\n  \"format\": ,\n}").expect_err("invalid JSON");
    assert_eq!(
        found,
        vec![Problem {
            path: "$".into(),
            message: "invalid JSON at line 2, column 13: expected value".into(),
        }]
    );
    let found = parse_str("").expect_err("empty text");
    assert_eq!(
        found[0].message,
        "invalid JSON at line 1, column 0: EOF while parsing a value"
    );
}

// ---- top level ---------------------------------------------------------------

#[test]
fn top_level_format_and_version() {
    assert_eq!(
        with("/format", json!("cfp")),
        vec!["format: must be \"cfp-dataset\""]
    );
    assert_eq!(with("/version", json!(2)), vec!["version: must be 1"]);
    assert_eq!(with("/version", json!(1.0)), vec!["version: must be 1"]);
    assert_eq!(with("/version", json!(true)), vec!["version: must be 1"]);
    assert_eq!(
        without("/format"),
        vec!["format: required field is missing"]
    );
    assert_eq!(
        without("/version"),
        vec!["version: required field is missing"]
    );
    assert_eq!(
        problems(&json!([1])),
        vec!["$: must be an object, got a list"]
    );
    assert_eq!(
        with("/events", json!(null)),
        vec!["events: must be a list, not null"]
    );
    assert_eq!(
        problems(&json!({"format": "cfp-dataset", "version": 1, "users": "all"})),
        vec!["users: must be a list, got \"all\""]
    );
    assert_eq!(
        with("/events", json!({})),
        vec!["events: must be a list, got an object"]
    );
}

#[test]
fn unknown_keys_are_reported_at_every_level() {
    let places = [
        ("", "colour"),
        ("/users/0", "users[0].colour"),
        ("/events/0", "events[0].colour"),
        ("/events/0/schedule", "events[0].schedule.colour"),
        ("/events/0/review_phase", "events[0].review_phase.colour"),
        ("/events/0/teams/1", "events[0].teams[1].colour"),
        (
            "/events/0/submission_types/0",
            "events[0].submission_types[0].colour",
        ),
        ("/events/0/tracks/0", "events[0].tracks[0].colour"),
        ("/events/0/rooms/0", "events[0].rooms[0].colour"),
        (
            "/events/0/rooms/0/availabilities/0",
            "events[0].rooms[0].availabilities[0].colour",
        ),
        ("/events/0/tags/0", "events[0].tags[0].colour"),
        ("/events/0/questions/0", "events[0].questions[0].colour"),
        (
            "/events/0/questions/0/options/1",
            "events[0].questions[0].options[1].colour",
        ),
        ("/events/0/speakers/0", "events[0].speakers[0].colour"),
        (
            "/events/0/speakers/0/availabilities/0",
            "events[0].speakers[0].availabilities[0].colour",
        ),
        ("/events/0/submissions/0", "events[0].submissions[0].colour"),
        (
            "/events/0/submissions/0/resources/0",
            "events[0].submissions[0].resources[0].colour",
        ),
        (
            "/events/0/submissions/0/anonymised",
            "events[0].submissions[0].anonymised.colour",
        ),
        (
            "/events/0/submissions/0/slots/0",
            "events[0].submissions[0].slots[0].colour",
        ),
        ("/events/0/answers/2", "events[0].answers[2].colour"),
        ("/events/0/reviews/0", "events[0].reviews[0].colour"),
    ];
    for (pointer, path) in places {
        assert_eq!(
            with(&format!("{pointer}/colour"), json!("red")),
            vec![format!("{path}: unknown field")],
            "at {pointer:?}"
        );
    }
}

#[test]
fn required_fields_are_reported_when_missing() {
    let cases = [
        ("/users/4/code", "users[4].code"),
        ("/users/4/name", "users[4].name"),
        ("/users/4/email", "users[4].email"),
        ("/events/1/slug", "events[1].slug"),
        ("/events/1/name", "events[1].name"),
        ("/events/1/date_from", "events[1].date_from"),
        ("/events/0/schedule/version", "events[0].schedule.version"),
        (
            "/events/0/schedule/published",
            "events[0].schedule.published",
        ),
        ("/events/0/teams/0/name", "events[0].teams[0].name"),
        (
            "/events/0/submission_types/0/name",
            "events[0].submission_types[0].name",
        ),
        ("/events/0/tracks/1/name", "events[0].tracks[1].name"),
        ("/events/0/rooms/0/name", "events[0].rooms[0].name"),
        (
            "/events/0/rooms/0/availabilities/0/start",
            "events[0].rooms[0].availabilities[0].start",
        ),
        ("/events/0/tags/0/tag", "events[0].tags[0].tag"),
        (
            "/events/0/questions/1/question",
            "events[0].questions[1].question",
        ),
        (
            "/events/0/questions/0/options/1/answer",
            "events[0].questions[0].options[1].answer",
        ),
        (
            "/events/0/submissions/1/title",
            "events[0].submissions[1].title",
        ),
        (
            "/events/0/submissions/1/submission_type",
            "events[0].submissions[1].submission_type",
        ),
        (
            "/events/0/submissions/1/created",
            "events[0].submissions[1].created",
        ),
        (
            "/events/0/submissions/0/resources/0/resource",
            "events[0].submissions[0].resources[0].resource",
        ),
        (
            "/events/0/submissions/0/slots/0/is_visible",
            "events[0].submissions[0].slots[0].is_visible",
        ),
        (
            "/events/0/reviews/0/created",
            "events[0].reviews[0].created",
        ),
        ("/events/0/reviews/0/text", ""), // optional
    ];
    for (pointer, path) in cases {
        let expected: Vec<String> = if path.is_empty() {
            Vec::new()
        } else {
            vec![format!("{path}: required field is missing")]
        };
        assert_eq!(without(pointer), expected, "without {pointer}");
    }
    // A missing id or code also drops what refers to it, so check a few
    // with their consequences spelled out.
    assert_eq!(
        without("/events/0/tracks/1/id"),
        vec!["events[0].tracks[1].id: required field is missing"]
    );
    assert_eq!(
        without("/users/2/code"),
        vec![
            "users[2].code: required field is missing",
            "events[0].speakers[1].user: user \"SPK2\" does not exist",
            "events[0].submissions[0].speakers[1]: user \"SPK2\" does not exist",
            "events[0].submissions[1].speakers[0]: user \"SPK2\" does not exist",
        ]
    );
    assert_eq!(
        without("/events/0/answers/1/question"),
        vec!["events[0].answers[1].question: required field is missing"]
    );
    assert_eq!(
        without("/events/0/reviews/0/user"),
        vec!["events[0].reviews[0].user: required field is missing"]
    );
}

// ---- types ---------------------------------------------------------------------

#[test]
fn booleans_must_be_json_booleans() {
    assert_eq!(
        with("/users/0/is_administrator", json!("yes")),
        vec!["users[0].is_administrator: must be a boolean, got \"yes\""]
    );
    assert_eq!(
        with("/events/0/show_schedule", json!(1)),
        vec!["events[0].show_schedule: must be a boolean, got 1"]
    );
    assert_eq!(
        with("/events/0/questions/0/active", json!(null)),
        vec!["events[0].questions[0].active: must be a boolean, not null"]
    );
    assert_eq!(
        with("/events/0/review_phase/can_see_speaker_names", json!([])),
        vec!["events[0].review_phase.can_see_speaker_names: must be a boolean, got a list"]
    );
}

#[test]
fn integers_must_be_json_integers() {
    assert_eq!(
        with("/events/0/submission_types/0/default_duration", json!(30.0)),
        vec!["events[0].submission_types[0].default_duration: must be an integer, got 30.0"]
    );
    assert_eq!(
        with("/events/0/questions/0/position", json!(true)),
        vec!["events[0].questions[0].position: must be an integer, got true"]
    );
    assert_eq!(
        with("/events/0/questions/0/position", json!(null)),
        vec!["events[0].questions[0].position: must be an integer, not null"]
    );
    assert_eq!(
        with("/events/0/rooms/0/position", json!(u64::MAX)),
        vec!["events[0].rooms[0].position: integer 18446744073709551615 is out of range"]
    );
    assert_eq!(
        with("/events/0/submissions/0/duration", json!("45")),
        vec!["events[0].submissions[0].duration: must be an integer, got \"45\""]
    );
    // Nullable integers take null.
    assert!(with("/events/0/rooms/0/capacity", json!(null)).is_empty());
}

#[test]
fn score_is_any_number_or_null() {
    assert!(with("/events/0/reviews/0/score", json!(3)).is_empty());
    assert!(with("/events/0/reviews/0/score", json!(-1.25)).is_empty());
    assert!(with("/events/0/reviews/0/score", json!(null)).is_empty());
    assert_eq!(
        with("/events/0/reviews/0/score", json!("3")),
        vec!["events[0].reviews[0].score: must be a number, got \"3\""]
    );
    assert_eq!(
        with("/events/0/reviews/0/score", json!(false)),
        vec!["events[0].reviews[0].score: must be a number, got false"]
    );
    let mut doc = base();
    set(&mut doc, "/events/0/reviews/0/score", json!(3));
    assert_eq!(parse_ok(&doc).events[0].reviews[0].score, Some(3.0));
}

#[test]
fn strings_and_lists_must_have_their_type() {
    assert_eq!(
        with("/events/0/submissions/0/title", json!(null)),
        vec!["events[0].submissions[0].title: must be a string, not null"]
    );
    assert_eq!(
        with("/users/1/locale", json!(5)),
        vec!["users[1].locale: must be a string, got 5"]
    );
    assert_eq!(
        with("/events/0/tracks/0/color", json!({"r": 1})),
        vec!["events[0].tracks[0].color: must be a string, got an object"]
    );
    assert_eq!(
        with("/events/0/questions/0/default_answer", json!(1)),
        vec!["events[0].questions[0].default_answer: must be a string, got 1"]
    );
    assert_eq!(
        with("/events/0/teams", json!(null)),
        vec!["events[0].teams: must be a list, not null"]
    );
    assert_eq!(
        with("/events/0/submissions/1/speakers", json!("SPK2")),
        vec!["events[0].submissions[1].speakers: must be a list, got \"SPK2\""]
    );
    assert_eq!(
        with("/events/0/reviews/1", json!("review")),
        vec!["events[0].reviews[1]: must be an object, got \"review\""]
    );
}

#[test]
fn long_values_are_cut_in_messages() {
    let long = "x".repeat(100);
    assert_eq!(
        with("/events/0/submissions/0/state", json!(long)),
        vec![format!(
            "events[0].submissions[0].state: must be one of {}, got \"{}\"…",
            listing(SubmissionState::NAMES),
            "x".repeat(60)
        )]
    );
}

// ---- i18n ------------------------------------------------------------------------

#[test]
fn i18n_accepts_objects_strings_and_null() {
    let mut doc = base();
    set(&mut doc, "/events/0/rooms/0/description", json!(""));
    set(&mut doc, "/events/0/rooms/0/speaker_info", json!(null));
    set(&mut doc, "/events/0/tags/0/description", json!({}));
    set(
        &mut doc,
        "/events/0/questions/0/help_text",
        json!({"en": "Pick one", "fr": ""}),
    );
    let d = parse_ok(&doc);
    let e = &d.events[0];
    assert_eq!(e.rooms[0].name, I18n::en("Hall"));
    assert_eq!(e.rooms[0].description, I18n::default());
    // null is kept apart from {}: pretalx's "never set", null in v1.
    assert_eq!(e.rooms[0].speaker_info, I18n::null());
    assert!(!e.rooms[0].description.is_null());
    assert_eq!(e.tags[0].description, I18n::default());
    assert_eq!(
        e.questions[0].help_text,
        I18n(
            vec![("en".into(), "Pick one".into()), ("fr".into(), "".into())],
            false
        )
    );
}

#[test]
fn i18n_rejects_other_shapes() {
    assert_eq!(
        with("/events/0/rooms/0/description", json!(5)),
        vec!["events[0].rooms[0].description: must be an i18n object (or a plain string)"]
    );
    assert_eq!(
        with("/events/0/rooms/0/description", json!({"en": 5})),
        vec!["events[0].rooms[0].description.en: translation must be a string"]
    );
    assert_eq!(
        with("/events/0/rooms/0/description", json!({"": "x"})),
        vec!["events[0].rooms[0].description: locale key \"\" must be a non-empty string"]
    );
}

#[test]
fn required_i18n_must_have_text() {
    assert_eq!(
        with("/events/0/name", json!("")),
        vec!["events[0].name: required i18n value is empty"]
    );
    assert_eq!(
        with("/events/0/name", json!({"en": ""})),
        vec!["events[0].name: required i18n value is empty"]
    );
    assert_eq!(
        with("/events/0/tracks/0/name", json!(null)),
        vec!["events[0].tracks[0].name: required i18n value is null"]
    );
    assert_eq!(
        with(
            "/events/0/questions/0/options/0/answer",
            json!({"en": null})
        ),
        vec![
            "events[0].questions[0].options[0].answer.en: translation must be a string",
            "events[0].questions[0].options[0].answer: required i18n value is empty",
        ]
    );
}

// ---- datetimes and dates -----------------------------------------------------------

#[test]
fn datetimes_need_an_offset() {
    assert_eq!(
        with(
            "/events/0/submissions/1/created",
            json!("2026-09-02T12:00:00")
        ),
        vec![
            "events[0].submissions[1].created: invalid datetime \"2026-09-02T12:00:00\" \
             (RFC 3339 with offset required)"
        ]
    );
    assert_eq!(
        with("/events/0/reviews/0/updated", json!("yesterday")),
        vec!["events[0].reviews[0].updated: invalid datetime \"yesterday\" (RFC 3339 with offset required)"]
    );
    assert_eq!(
        with("/events/0/questions/1/deadline", json!("2026-02-30T10:00:00Z")),
        vec!["events[0].questions[1].deadline: invalid datetime \"2026-02-30T10:00:00Z\" (RFC 3339 with offset required)"]
    );
    assert_eq!(
        with("/events/0/questions/1/deadline", json!("2026-06-30T23:59:60Z")),
        vec!["events[0].questions[1].deadline: invalid datetime \"2026-06-30T23:59:60Z\" (RFC 3339 with offset required)"]
    );
    // An instant that export could not write back (year 10000 in UTC).
    assert_eq!(
        with("/events/0/questions/1/deadline", json!("9999-12-31T23:00:00-02:00")),
        vec!["events[0].questions[1].deadline: invalid datetime \"9999-12-31T23:00:00-02:00\" (RFC 3339 with offset required)"]
    );
    assert_eq!(
        with("/events/0/rooms/0/availabilities/0/end", json!(1700000000)),
        vec!["events[0].rooms[0].availabilities[0].end: must be a datetime string with offset"]
    );
    assert_eq!(
        with("/events/0/submissions/1/created", json!(null)),
        vec!["events[0].submissions[1].created: must be a datetime string with offset"]
    );
    assert_eq!(
        with("/events/0/schedule/published", json!(null)),
        vec!["events[0].schedule.published: must be a datetime string with offset"]
    );
}

#[test]
fn datetime_forms_of_the_reference_validator_are_accepted() {
    let cases = [
        ("2026-09-02T14:00:00+02:00", "2026-09-02T12:00:00Z"),
        ("2026-09-02t12:00:00z", "2026-09-02T12:00:00Z"),
        ("2026-09-02 12:00:00Z", "2026-09-02T12:00:00Z"),
        ("2026-09-02T12:00Z", "2026-09-02T12:00:00Z"),
        (
            "2026-09-02T12:00:00.1234567Z",
            "2026-09-02T12:00:00.123456Z",
        ),
    ];
    for (text, expected) in cases {
        let mut doc = base();
        set(&mut doc, "/events/0/submissions/1/created", json!(text));
        assert_eq!(
            parse_ok(&doc).events[0].submissions[1].created,
            ts(expected),
            "{text}"
        );
    }
}

#[test]
fn dates_are_year_month_day() {
    assert_eq!(
        with("/events/0/date_from", json!("2026-13-01")),
        vec!["events[0].date_from: invalid date \"2026-13-01\""]
    );
    assert_eq!(
        with("/events/0/date_from", json!("20261120")),
        vec!["events[0].date_from: invalid date \"20261120\" (YYYY-MM-DD)"]
    );
    assert_eq!(
        with("/events/0/date_to", json!(20261122)),
        vec!["events[0].date_to: invalid date 20261122 (YYYY-MM-DD)"]
    );
    assert_eq!(
        with("/events/0/date_to", json!("2026-11-19")),
        vec!["events[0].date_to: is before date_from"]
    );
    assert!(with("/events/0/date_to", json!(null)).is_empty());
}

#[test]
fn ends_must_not_precede_starts() {
    assert_eq!(
        with(
            "/events/0/rooms/0/availabilities/0/end",
            json!("2026-11-20T07:00:00Z")
        ),
        vec!["events[0].rooms[0].availabilities[0].end: is before start"]
    );
    assert_eq!(
        with(
            "/events/0/submissions/0/slots/0/end",
            json!("2026-11-20T08:00:00+01:00")
        ),
        vec!["events[0].submissions[0].slots[0].end: is before start"]
    );
}

// ---- codes, ids, uniqueness -----------------------------------------------------------

#[test]
fn codes_are_short_and_alphanumeric() {
    assert_eq!(
        with("/users/3/code", json!("REV-1")),
        vec![
            "users[3].code: invalid code \"REV-1\" (1 to 16 of [A-Za-z0-9])",
            // The references to the user fail too.
            "events[0].teams[1].members[0]: user \"REV1\" does not exist",
            "events[0].submissions[0].assigned_reviewers[0]: user \"REV1\" does not exist",
            "events[0].reviews[0].user: user \"REV1\" does not exist",
        ]
    );
    assert_eq!(
        with("/events/0/submissions/1/code", json!("")),
        vec!["events[0].submissions[1].code: invalid code \"\" (1 to 16 of [A-Za-z0-9])"]
    );
    assert_eq!(
        with("/events/0/submissions/1/code", json!("A".repeat(17))),
        vec![format!(
            "events[0].submissions[1].code: invalid code \"{}\" (1 to 16 of [A-Za-z0-9])",
            "A".repeat(17)
        )]
    );
    assert!(with("/events/0/submissions/1/code", json!("A".repeat(16))).is_empty());
    assert_eq!(
        with("/events/0/submissions/1/code", json!(7)),
        vec!["events[0].submissions[1].code: invalid code 7 (1 to 16 of [A-Za-z0-9])"]
    );
}

#[test]
fn user_codes_are_unique() {
    assert_eq!(
        with("/users/4/code", json!("SPK1")),
        vec!["users[4].code: duplicate user code \"SPK1\" (also at users[1])"]
    );
}

#[test]
fn submission_codes_are_unique_across_events() {
    let mut doc = base();
    set(
        &mut doc,
        "/events/1/submission_types",
        json!([{"id": 5, "name": "Talk"}]),
    );
    set(
        &mut doc,
        "/events/1/submissions",
        json!([{"code": "TALK2", "title": "Again", "submission_type": 5,
                "created": "2026-09-02T12:00:00Z"}]),
    );
    assert_eq!(
        problems(&doc),
        vec!["events[1].submissions[0].code: duplicate submission code \"TALK2\" (also at events[0].submissions[1])"]
    );
}

#[test]
fn ids_are_positive_integers() {
    assert_eq!(
        with("/events/0/tracks/1/id", json!(0)),
        vec!["events[0].tracks[1].id: id must be a positive integer, got 0"]
    );
    assert_eq!(
        with("/events/0/tracks/1/id", json!(-2)),
        vec!["events[0].tracks[1].id: id must be a positive integer, got -2"]
    );
    assert_eq!(
        with("/events/0/tracks/1/id", json!("2")),
        vec!["events[0].tracks[1].id: id must be a positive integer, got \"2\""]
    );
    assert_eq!(
        with("/events/0/tracks/1/id", json!(2.0)),
        vec!["events[0].tracks[1].id: id must be a positive integer, got 2.0"]
    );
}

#[test]
fn ids_are_unique_per_kind_across_the_document() {
    // A track id used in another event.
    assert_eq!(
        with("/events/1/tracks/0/id", json!(2)),
        vec!["events[1].tracks[0].id: duplicate track id 2 (also at events[0].tracks[1].id)"]
    );
    // Every other kind, each once more in the second event.
    let mut doc = base();
    doc["events"][1] = json!({
        "slug": "other", "name": "Other", "date_from": "2027-01-01",
        "submission_types": [{"id": 1, "name": "Talk"}],
        "rooms": [{"id": 1, "name": "Hall"}],
        "tags": [{"id": 1, "tag": "keynote"}],
        "questions": [{"id": 3, "question": "Q?", "options": [{"id": 2, "answer": "A"}]}],
        "speakers": [{"user": "SPK2"}],
        "submissions": [{"code": "OTHER1", "title": "T", "submission_type": 1,
                         "speakers": ["SPK2"], "created": "2026-09-02T12:00:00Z"}],
        "reviews": [{"id": 1, "submission": "OTHER1", "user": "REV1",
                     "created": "2026-10-01T10:00:00Z"}],
        "answers": [{"id": 2, "question": 3, "submission": "OTHER1"}]
    });
    assert_eq!(
        problems(&doc),
        vec![
            "events[1].submission_types[0].id: duplicate submission type id 1 (also at events[0].submission_types[0].id)",
            "events[1].rooms[0].id: duplicate room id 1 (also at events[0].rooms[0].id)",
            "events[1].tags[0].id: duplicate tag id 1 (also at events[0].tags[0].id)",
            "events[1].questions[0].id: duplicate question id 3 (also at events[0].questions[2].id)",
            "events[1].questions[0].options[0].id: duplicate option id 2 (also at events[0].questions[0].options[1].id)",
            "events[1].reviews[0].id: duplicate review id 1 (also at events[0].reviews[0].id)",
            "events[1].answers[0].id: duplicate answer id 2 (also at events[0].answers[1].id)",
        ]
    );
}

#[test]
fn room_and_speaker_availabilities_share_one_id_sequence() {
    assert_eq!(
        with("/events/0/speakers/0/availabilities/0/id", json!(1)),
        vec!["events[0].speakers[0].availabilities[0].id: duplicate availability id 1 (also at events[0].rooms[0].availabilities[0].id)"]
    );
}

#[test]
fn different_id_kinds_may_share_numbers() {
    // The base document uses 1 as a track, room, tag, question, option,
    // review, answer and availability id.
    assert!(problems(&base()).is_empty());
}

#[test]
fn emails_are_unique_case_insensitively() {
    assert_eq!(
        with("/users/3/email", json!("Amira@Example.org")),
        vec!["users[3].email: duplicate e-mail \"Amira@Example.org\" (also at users[1])"]
    );
    assert_eq!(
        with("/users/3/email", json!("")),
        vec!["users[3].email: must not be empty"]
    );
}

#[test]
fn slugs_have_a_shape_and_are_unique_case_insensitively() {
    for bad in ["-demo", "demo-", "de mo", "", "démo"] {
        assert_eq!(
            with("/events/1/slug", json!(bad)),
            vec![format!("events[1].slug: invalid slug {}", quote(bad))]
        );
    }
    for good in ["d", "demo.con-2026", "A1"] {
        assert!(with("/events/1/slug", json!(good)).is_empty(), "{good}");
    }
    assert_eq!(
        with("/events/1/slug", json!("DemoCon")),
        vec!["events[1].slug: duplicate slug \"DemoCon\" (also at events[0])"]
    );
}

#[test]
fn tags_are_unique_per_event_case_insensitively() {
    assert_eq!(
        with("/events/0/tags/1", json!({"id": 2, "tag": "KeyNote"})),
        vec!["events[0].tags[1].tag: duplicate tag \"KeyNote\" in event \"democon\" (also at events[0].tags[0])"]
    );
    // The same tag in another event is fine.
    assert!(with("/events/1/tags", json!([{"id": 2, "tag": "keynote"}])).is_empty());
    assert_eq!(
        with("/events/0/tags/0/tag", json!("a/b")),
        vec!["events[0].tags[0].tag: must be non-empty and must not contain '/'"]
    );
}

#[test]
fn lists_must_not_repeat_members_speakers_or_tags() {
    assert_eq!(
        with("/events/0/teams/0/members", json!(["ORGA", "ORGA"])),
        vec!["events[0].teams[0].members: duplicate member"]
    );
    assert_eq!(
        with("/events/0/submissions/1/speakers", json!(["SPK2", "SPK2"])),
        vec!["events[0].submissions[1].speakers: duplicate speaker"]
    );
    assert_eq!(
        with("/events/0/submissions/0/tags", json!([1, 1])),
        vec!["events[0].submissions[0].tags: duplicate tag"]
    );
}

#[test]
fn timezones_are_iana_names() {
    assert_eq!(
        with("/users/1/timezone", json!("Mars/Olympus")),
        vec!["users[1].timezone: unknown time zone \"Mars/Olympus\""]
    );
    assert_eq!(
        with("/events/0/timezone", json!("europe/berlin")),
        vec!["events[0].timezone: unknown time zone \"europe/berlin\""]
    );
    assert_eq!(
        with("/events/0/timezone", json!(1)),
        vec!["events[0].timezone: must be a string, got 1"]
    );
    assert!(with(
        "/events/0/timezone",
        json!("America/Argentina/Buenos_Aires")
    )
    .is_empty());
}

#[test]
fn enums_take_only_their_values() {
    let other_reviews: Vec<&str> = OtherReviews::ALL.iter().map(|(n, _)| *n).collect();
    let visibility: Vec<&str> = ProposalVisibility::ALL.iter().map(|(n, _)| *n).collect();
    let cases: [(&str, &str, &[&str]); 7] = [
        (
            "/events/0/submissions/0/state",
            "events[0].submissions[0].state",
            SubmissionState::NAMES,
        ),
        (
            "/events/0/submissions/0/pending_state",
            "events[0].submissions[0].pending_state",
            SubmissionState::NAMES,
        ),
        (
            "/events/0/questions/0/variant",
            "events[0].questions[0].variant",
            QuestionVariant::NAMES,
        ),
        (
            "/events/0/questions/0/target",
            "events[0].questions[0].target",
            QuestionTarget::NAMES,
        ),
        (
            "/events/0/questions/0/question_required",
            "events[0].questions[0].question_required",
            QuestionRequired::NAMES,
        ),
        (
            "/events/0/review_phase/can_see_other_reviews",
            "events[0].review_phase.can_see_other_reviews",
            &other_reviews,
        ),
        (
            "/events/0/review_phase/proposal_visibility",
            "events[0].review_phase.proposal_visibility",
            &visibility,
        ),
    ];
    for (pointer, path, allowed) in cases {
        let found = with(pointer, json!("bogus"));
        assert_eq!(
            found,
            vec![format!(
                "{path}: must be one of {}, got \"bogus\"",
                listing(allowed)
            )],
            "{pointer}"
        );
        // Setting every allowed value is accepted (target aside, which
        // changes which owner answers need).
        if !pointer.ends_with("target") {
            for value in allowed {
                assert!(
                    with(pointer, json!(value)).is_empty(),
                    "{pointer} = {value}"
                );
            }
        }
    }
    assert!(with("/events/0/submissions/0/pending_state", json!(null)).is_empty());
}

// ---- references ------------------------------------------------------------------------

#[test]
fn references_must_exist_in_the_same_event() {
    let democon = "in event \"democon\"";
    // Track 99 exists, but in the other event.
    let cases = [
        ("/events/0/submissions/0/track", json!(99), format!("events[0].submissions[0].track: track 99 does not exist {democon}")),
        ("/events/0/teams/1/limit_tracks/0", json!(99), format!("events[0].teams[1].limit_tracks[0]: track 99 does not exist {democon}")),
        ("/events/0/questions/0/tracks/0", json!(7), format!("events[0].questions[0].tracks[0]: track 7 does not exist {democon}")),
        ("/events/0/questions/0/submission_types/0", json!(7), format!("events[0].questions[0].submission_types[0]: submission type 7 does not exist {democon}")),
        ("/events/0/submissions/1/submission_type", json!(7), format!("events[0].submissions[1].submission_type: submission type 7 does not exist {democon}")),
        ("/events/0/submissions/0/tags/0", json!(7), format!("events[0].submissions[0].tags[0]: tag 7 does not exist {democon}")),
        ("/events/0/submissions/0/slots/0/room", json!(7), format!("events[0].submissions[0].slots[0].room: room 7 does not exist {democon}")),
        ("/events/0/submissions/0/speakers/1", json!("NOBODY"), "events[0].submissions[0].speakers[1]: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/submissions/0/assigned_reviewers/0", json!("NOBODY"), "events[0].submissions[0].assigned_reviewers[0]: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/teams/0/members/0", json!("NOBODY"), "events[0].teams[0].members[0]: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/teams/0/members/0", json!(1), "events[0].teams[0].members[0]: must be a user code, got 1".to_string()),
        ("/events/0/speakers/2", json!({"user": "NOBODY"}), "events[0].speakers[2].user: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/reviews/0/user", json!("NOBODY"), "events[0].reviews[0].user: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/answers/2/review", json!(5), format!("events[0].answers[2].review: review 5 does not exist {democon}")),
        ("/events/0/answers/0/options/0", json!(9), "events[0].answers[0].options[0]: option 9 is not an option of question 1".to_string()),
        ("/events/0/answers/0/options/0", json!("1"), "events[0].answers[0].options[0]: must be an integer, got \"1\"".to_string()),
        ("/events/0/answers/0/question", json!(9), format!("events[0].answers[0].question: question 9 does not exist {democon}")),
        ("/events/0/answers/0/submission", json!("NOPE"), format!("events[0].answers[0].submission: submission \"NOPE\" does not exist {democon}")),
        ("/events/0/reviews/0/submission", json!("NOPE"), format!("events[0].reviews[0].submission: submission \"NOPE\" does not exist {democon}")),
        ("/events/0/reviews/0/submission", json!(1), "events[0].reviews[0].submission: must be a submission code, got 1".to_string()),
    ];
    for (pointer, value, expected) in cases {
        assert_eq!(with(pointer, value), vec![expected], "{pointer}");
    }
    // Option 2 belongs to question 1 but not to question 3.
    assert_eq!(
        with("/events/0/answers/2/options", json!([2])),
        vec!["events[0].answers[2].options[0]: option 2 is not an option of question 3"]
    );
}

#[test]
fn references_into_another_event_are_rejected() {
    let mut doc = base();
    doc["events"][1] = json!({
        "slug": "other", "name": "Other", "date_from": "2027-01-01",
        "submission_types": [{"id": 5, "name": "Talk"}],
        "speakers": [{"user": "SPK2"}],
        "submissions": [{"code": "OTHER1", "title": "T", "submission_type": 1,
                         "speakers": ["SPK1"], "created": "2026-09-02T12:00:00Z"}],
        "reviews": [{"id": 7, "submission": "TALK1", "user": "REV1",
                     "created": "2026-10-01T10:00:00Z"}],
        "answers": [{"id": 8, "question": 1, "submission": "OTHER1"}]
    });
    assert_eq!(
        problems(&doc),
        vec![
            "events[1].submissions[0].speakers[0]: speaker \"SPK1\" has no speaker profile in event \"other\"",
            "events[1].submissions[0].submission_type: submission type 1 does not exist in event \"other\"",
            "events[1].reviews[0].submission: submission \"TALK1\" does not exist in event \"other\"",
            "events[1].answers[0].question: question 1 does not exist in event \"other\"",
        ]
    );
}

#[test]
fn speakers_need_a_profile_in_the_event() {
    assert_eq!(
        with("/events/0/submissions/1/speakers/0", json!("REV1")),
        vec!["events[0].submissions[1].speakers[0]: speaker \"REV1\" has no speaker profile in event \"democon\""]
    );
}

#[test]
fn at_most_one_profile_per_user_and_event() {
    assert_eq!(
        with("/events/0/speakers/2", json!({"user": "SPK1"})),
        vec!["events[0].speakers[2].user: second profile for user \"SPK1\" in event \"democon\" (also at events[0].speakers[0])"]
    );
}

#[test]
fn answers_have_exactly_one_owner_matching_the_target() {
    assert_eq!(
        without("/events/0/answers/0/submission"),
        vec!["events[0].answers[0]: exactly one of submission, person, review must be set (got none)"]
    );
    assert_eq!(
        with("/events/0/answers/0/review", json!(1)),
        vec!["events[0].answers[0]: exactly one of submission, person, review must be set (got submission, review)"]
    );
    // A null owner counts as not set.
    assert!(with("/events/0/answers/0/person", json!(null)).is_empty());
    let mut doc = base();
    remove(&mut doc, "/events/0/answers/0/submission");
    set(&mut doc, "/events/0/answers/0/person", json!("SPK1"));
    assert_eq!(
        problems(&doc),
        vec!["events[0].answers[0].person: question 1 has target \"submission\", so the answer must set \"submission\""]
    );
    let mut doc = base();
    remove(&mut doc, "/events/0/answers/1/person");
    set(&mut doc, "/events/0/answers/1/review", json!(1));
    assert_eq!(
        problems(&doc),
        vec!["events[0].answers[1].review: question 2 has target \"speaker\", so the answer must set \"person\""]
    );
    let mut doc = base();
    remove(&mut doc, "/events/0/answers/2/review");
    set(&mut doc, "/events/0/answers/2/submission", json!("TALK2"));
    assert_eq!(
        problems(&doc),
        vec!["events[0].answers[2].submission: question 3 has target \"reviewer\", so the answer must set \"review\""]
    );
}

#[test]
fn answer_person_needs_a_profile() {
    assert_eq!(
        with("/events/0/answers/1/person", json!("REV1")),
        vec!["events[0].answers[1].person: user \"REV1\" has no speaker profile in event \"democon\""]
    );
}

#[test]
fn at_most_one_review_per_user_and_submission() {
    assert_eq!(
        with(
            "/events/0/reviews/1",
            json!({"id": 2, "submission": "TALK1", "user": "REV1", "created": "2026-10-02T10:00:00Z"})
        ),
        vec!["events[0].reviews[1]: second review by \"REV1\" of \"TALK1\" (also at events[0].reviews[0])"]
    );
    // Another submission by the same reviewer is fine.
    assert!(with(
        "/events/0/reviews/1",
        json!({"id": 2, "submission": "TALK2", "user": "REV1", "created": "2026-10-02T10:00:00Z"})
    )
    .is_empty());
}

#[test]
fn slots_only_with_a_released_schedule() {
    assert_eq!(
        with("/events/0/schedule", json!(null)),
        vec!["events[0].submissions[0].slots: event \"democon\" has no released schedule, so no slots are allowed"]
    );
    let mut doc = base();
    set(&mut doc, "/events/0/schedule", json!(null));
    set(&mut doc, "/events/0/submissions/0/slots", json!([]));
    assert!(problems(&doc).is_empty());
}

#[test]
fn schedule_version_must_not_be_empty() {
    assert_eq!(
        with("/events/0/schedule/version", json!("")),
        vec!["events[0].schedule.version: must not be empty"]
    );
    assert_eq!(
        with("/events/0/schedule", json!("1.0")),
        vec!["events[0].schedule: must be an object, got \"1.0\""]
    );
}

#[test]
fn counts_and_durations_have_lower_limits() {
    assert_eq!(
        with("/events/0/submissions/0/slot_count", json!(0)),
        vec!["events[0].submissions[0].slot_count: must be at least 1"]
    );
    assert!(with("/events/0/submissions/0/slot_count", json!(2)).is_empty());
    assert_eq!(
        with("/events/0/submissions/0/duration", json!(-1)),
        vec!["events[0].submissions[0].duration: must not be negative"]
    );
    assert!(with("/events/0/submissions/0/duration", json!(0)).is_empty());
    assert_eq!(
        with("/events/0/submission_types/0/default_duration", json!(-5)),
        vec!["events[0].submission_types[0].default_duration: must not be negative"]
    );
    assert_eq!(
        with("/events/0/rooms/0/capacity", json!(-1)),
        vec!["events[0].rooms[0].capacity: must not be negative"]
    );
    assert_eq!(
        with("/events/0/questions/0/min_length", json!(-1)),
        vec!["events[0].questions[0].min_length: must not be negative"]
    );
    assert_eq!(
        with("/events/0/questions/0/max_length", json!(-1)),
        vec!["events[0].questions[0].max_length: must not be negative"]
    );
    // Positions may be negative.
    assert!(with("/events/0/rooms/0/position", json!(-3)).is_empty());
}

// ---- tokens ---------------------------------------------------------------------------------

#[test]
fn tokens_are_hashed_and_hashes_checked() {
    let hash = hash_token("abc");
    let mut doc = base();
    set(&mut doc, "/users/2/tokens", json!(["abc"]));
    set(
        &mut doc,
        "/users/3/token_hashes",
        json!([format!("sha256:{}", hash_token("xyz"))]),
    );
    let d = parse_ok(&doc);
    assert_eq!(d.users[2].token_hashes, vec![TokenHash::plain(hash)]);
    assert_eq!(
        d.users[3].token_hashes,
        vec![TokenHash::plain(hash_token("xyz"))]
    );

    for bad in [
        json!(hash_token("abc")), // no prefix
        json!(format!("sha256:{}", hash_token("abc").to_uppercase())),
        json!(format!("sha256:{}", &hash_token("abc")[1..])), // 63 digits
        json!(format!("SHA256:{}", hash_token("abc"))),
        json!(5),
    ] {
        assert_eq!(
            with("/users/2/token_hashes", json!([bad])),
            vec!["users[2].token_hashes[0]: must be sha256:<64 lower-case hex digits>"]
        );
    }
    for bad in [json!(""), json!("two words"), json!(null)] {
        assert_eq!(
            with("/users/2/tokens", json!([bad])),
            vec!["users[2].tokens[0]: token must be a non-empty string without whitespace"]
        );
    }
}

#[test]
fn tokens_are_unique_across_users() {
    assert_eq!(
        with("/users/2/tokens", json!(["secret-token"])),
        vec!["users[2].tokens[0]: duplicate token (also at users[0].tokens[0])"]
    );
    assert_eq!(
        with(
            "/users/2/token_hashes",
            json!([format!("sha256:{}", hash_token("other-token"))])
        ),
        vec!["users[2].token_hashes[0]: duplicate token hash (also at users[1].token_hashes[0])"]
    );
    // A clear token and the hash of the same token are the same token.
    assert_eq!(
        with(
            "/users/2/token_hashes",
            json!([format!("sha256:{}", hash_token("secret-token"))])
        ),
        vec!["users[2].token_hashes[0]: duplicate token hash (also at users[0].tokens[0])"]
    );
}

// ---- smaller records ----------------------------------------------------------------------

#[test]
fn anonymised_is_null_or_an_object_of_texts() {
    let mut doc = base();
    set(&mut doc, "/events/0/submissions/1/anonymised", json!({}));
    let d = parse_ok(&doc);
    let empty = d.events[0].submissions[1]
        .anonymised
        .as_ref()
        .expect("anonymised");
    assert!(empty.title.is_empty() && empty.abstract_.is_empty() && empty.description.is_empty());
    assert!(d.events[0].submissions[0]
        .anonymised
        .as_ref()
        .is_some_and(|a| a.title == "A talk"));

    let mut doc = base();
    set(&mut doc, "/events/0/submissions/1/anonymised", json!(null));
    assert!(parse_ok(&doc).events[0].submissions[1].anonymised.is_none());

    assert_eq!(
        with("/events/0/submissions/0/anonymised/abstract", json!(null)),
        vec!["events[0].submissions[0].anonymised.abstract: must be a string, not null"]
    );
    assert_eq!(
        with("/events/0/submissions/0/anonymised/notes", json!("x")),
        vec!["events[0].submissions[0].anonymised.notes: unknown field"]
    );
    assert_eq!(
        with("/events/0/submissions/0/anonymised", json!("x")),
        vec!["events[0].submissions[0].anonymised: must be an object, got \"x\""]
    );
}

#[test]
fn review_updated_defaults_to_created() {
    let d = parse_ok(&base());
    assert_eq!(d.events[0].reviews[0].updated, ts("2026-10-01T10:00:00Z"));
    let mut doc = base();
    set(&mut doc, "/events/0/reviews/0/updated", json!(null));
    assert_eq!(
        parse_ok(&doc).events[0].reviews[0].updated,
        ts("2026-10-01T10:00:00Z")
    );
    set(
        &mut doc,
        "/events/0/reviews/0/updated",
        json!("2026-10-03T10:00:00Z"),
    );
    assert_eq!(
        parse_ok(&doc).events[0].reviews[0].updated,
        ts("2026-10-03T10:00:00Z")
    );
}

#[test]
fn urls_must_be_absolute() {
    assert_eq!(
        with("/users/1/avatar", json!("example.org/a.png")),
        vec!["users[1].avatar: must be an absolute URL, got \"example.org/a.png\""]
    );
    assert_eq!(
        with("/events/0/submissions/0/image", json!("https:///x")),
        vec!["events[0].submissions[0].image: must be an absolute URL, got \"https:///x\""]
    );
    assert_eq!(
        with("/events/0/answers/0/answer_file", json!("http://x/a b")),
        vec!["events[0].answers[0].answer_file: must be an absolute URL, got \"http://x/a b\""]
    );
    assert_eq!(
        with("/events/0/submissions/0/resources/0/resource", json!(null)),
        vec!["events[0].submissions[0].resources[0].resource: must be an absolute URL, got null"]
    );
    assert!(with("/users/1/avatar", json!("http://example.org")).is_empty());
    assert!(with("/users/1/avatar", json!(null)).is_empty());
}

#[test]
fn room_guid_is_a_uuid() {
    assert_eq!(
        with("/events/0/rooms/0/guid", json!("not-a-uuid")),
        vec!["events[0].rooms[0].guid: must be a UUID string, got \"not-a-uuid\""]
    );
    assert_eq!(
        with("/events/0/rooms/0/guid", json!(12)),
        vec!["events[0].rooms[0].guid: must be a UUID string, got 12"]
    );
    assert!(with(
        "/events/0/rooms/0/guid",
        json!("FDC7B5B37EF759A881B69B603297B8A1")
    )
    .is_empty());
    assert!(with("/events/0/rooms/0/guid", json!(null)).is_empty());
}

// ---- many problems and hostile input ---------------------------------------------------------

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
fn junk_everywhere(doc: &Value) {
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

// ---- what pretalx's v1 API shows (issue 28): optional, with defaults -------------------------

/// `base()` with every field the dataset gained for pretalx's v1 API, none
/// at its default.
fn v1_doc() -> Value {
    let mut doc = base();
    let e = &mut doc["events"][0];
    e["locales"] = json!(["en", "de"]);
    e["content_locales"] = json!(["en", "de", "fr"]);
    e["email"] = json!("orga@democon.example");
    e["logo"] = json!("https://democon.example/logo.png");
    e["header_image"] = json!("https://democon.example/header.jpg");
    e["custom_domain"] = json!("https://democon.example");
    e["schedule"]["id"] = json!(3);
    e["schedule"]["comment"] = json!({"en": "Final", "de": "Endgültig"});
    e["older_schedules"] = json!([{
        "id": 1, "version": "0.9", "published": "2026-10-01T10:00:00+02:00",
        "comment": "First draft",
        "slots": [
            {"id": 11, "submission": "TALK1", "room": 1, "start": "2026-11-20T10:00:00+01:00",
             "end": "2026-11-20T10:45:00+01:00", "is_visible": true},
            {"id": 12, "submission": null, "room": 1, "start": "2026-11-20T12:00:00+01:00",
             "end": "2026-11-20T13:00:00+01:00", "is_visible": true,
             "description": {"en": "Lunch"}}
        ]
    }]);
    e["wip_schedule"] = json!({"id": 4, "comment": {"en": "Moving things"}, "slots": [
        {"id": 21, "submission": "TALK2", "room": null, "start": null, "end": null,
         "is_visible": false}
    ]});
    e["score_categories"] = json!([
        {"id": 1, "name": "Quality", "weight": "2.0", "required": true, "limit_tracks": [1]},
        {"id": 2, "name": {"en": "Fit"}, "active": false, "is_independent": true}
    ]);
    e["organiser"] = json!("democon-org");
    e["teams"][0]["id"] = json!(1);
    e["teams"][0]["can_change_teams"] = json!(true);
    e["teams"][0]["limit_events"] = json!(["democon", "othercon"]);
    e["rooms"][0]["uuid"] = json!("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    e["tracks"][0]["requires_access_code"] = json!(true);
    e["submission_types"][0]["deadline"] = json!("2026-09-15T23:59:00+02:00");
    e["submission_types"][0]["requires_access_code"] = json!(true);
    e["questions"][0]["options"][0]["position"] = json!(5);
    e["questions"][0]["icon"] = json!("https://democon.example/level.svg");
    e["questions"][1]["min_date"] = json!("2026-01-01");
    e["questions"][1]["max_date"] = json!("2026-12-31");
    e["questions"][1]["min_datetime"] = json!("2026-01-01T00:00:00Z");
    e["questions"][1]["max_datetime"] = json!("2026-12-31T12:00:00+01:00");
    e["questions"][2]["min_number"] = json!("1");
    e["questions"][2]["max_number"] = json!("5.50");
    e["speakers"][0]["has_arrived"] = json!(true);
    e["speakers"][0]["internal_notes"] = json!("Needs a ramp");
    e["submissions"][0]["invitation_token"] = json!("inv0token0abc");
    e["submissions"][0]["access_code"] = json!(4);
    e["submissions"][0]["review_code"] = json!("rev0code0xyz");
    e["submissions"][0]["resources"][0]["id"] = json!(7);
    e["reviews"][0]["scores"] = json!([
        {"id": 5, "category": 1, "value": "2", "label": "good"},
        {"id": 8, "category": 2, "value": "-0.5", "label": null}
    ]);
    doc
}

#[test]
fn existing_datasets_export_none_of_the_new_fields() {
    // (What storage writes for democon.json is held by
    // storage::records' `existing_datasets_keep_their_record_bodies`.)
    let d = parse_str(&democon_text()).expect("democon.json");
    let exported = export::to_json(&d).to_string();
    for key in [
        "\"locales\"",
        "\"content_locales\"",
        "\"email\":\"\"",
        "\"logo\"",
        "\"header_image\"",
        "\"custom_domain\"",
        "\"older_schedules\"",
        "\"wip_schedule\"",
        "\"score_categories\"",
        "\"uuid\"",
        "\"requires_access_code\"",
        "\"deadline\":null,\"requires",
        "\"min_number\"",
        "\"icon\"",
        "\"has_arrived\"",
        "\"invitation_token\"",
        "\"scores\"",
        "\"comment\"",
    ] {
        assert!(!exported.contains(key), "{key} written for democon.json");
    }
}

#[test]
fn v1_fields_have_their_defaults() {
    let d = parse_ok(&base());
    let e = &d.events[0];
    assert_eq!(
        (e.locales(), e.content_locales()),
        (&["en".to_string()][..], &["en".to_string()][..])
    );
    assert!(e.locales.is_empty() && e.content_locales.is_empty() && e.email.is_empty());
    assert_eq!(
        (&e.logo, &e.header_image, &e.custom_domain),
        (&None, &None, &None)
    );
    assert!(e.older_schedules.is_empty() && e.wip_schedule.is_none());
    assert!(e.score_categories.is_empty());
    let schedule = e.schedule.as_ref().expect("schedule");
    assert_eq!((schedule.id, schedule.comment.is_empty()), (None, true));
    let room = &e.rooms[0];
    assert_eq!(room.uuid, None);
    assert_eq!(
        room.guid_or_derived("democon"),
        "fdc7b5b3-7ef7-59a8-81b6-9b603297b8a1"
    );
    let track = &e.tracks[0];
    assert!(!track.requires_access_code);
    let kind = &e.submission_types[0];
    assert_eq!((kind.deadline, kind.requires_access_code), (None, false));
    for q in &e.questions {
        assert_eq!((&q.min_number, &q.max_number), (&None, &None));
        assert_eq!((q.min_date, q.max_date), (None, None));
        assert_eq!(
            (q.min_datetime, q.max_datetime, &q.icon),
            (None, None, &None)
        );
        for (i, option) in q.options.iter().enumerate() {
            assert_eq!((option.position, option.position_at(i)), (None, i as i64));
        }
    }
    assert!(e
        .speakers
        .iter()
        .all(|p| !p.has_arrived && p.internal_notes.is_empty()));
    for s in &e.submissions {
        assert_eq!(
            (&s.invitation_token, &s.access_code, &s.review_code),
            (&None, &None, &None)
        );
        assert!(s.resources.iter().all(|r| r.id.is_none()));
    }
    assert!(e.reviews[0].scores.is_empty());

    // A room without a guid: the exports' derived one.
    let mut doc = base();
    remove(&mut doc, "/events/0/rooms/0/guid");
    let room = &parse_ok(&doc).events[0].rooms[0];
    assert_eq!(
        room.guid_or_derived("DemoCon"),
        // exports::text::derive_uuid(&["democon", "room", "1"]), which the
        // exports' test of it holds equal.
        "979c9e48-39ba-509f-9dcd-f7fd199a0521"
    );
}

#[test]
fn v1_fields_are_read() {
    let d = parse_ok(&v1_doc());
    let e = &d.events[0];
    assert_eq!(e.locales(), ["en", "de"]);
    assert_eq!(e.content_locales(), ["en", "de", "fr"]);
    assert_eq!(e.email, "orga@democon.example");
    assert_eq!(e.logo.as_deref(), Some("https://democon.example/logo.png"));
    assert_eq!(e.custom_domain.as_deref(), Some("https://democon.example"));
    let schedule = e.schedule.as_ref().expect("schedule");
    assert_eq!(schedule.id, Some(3));
    // (json! sorts the keys.)
    assert_eq!(
        schedule.comment.texts().collect::<Vec<_>>(),
        ["Endgültig", "Final"]
    );
    let older = &e.older_schedules[0];
    assert_eq!((older.id, older.version.as_str()), (Some(1), "0.9"));
    assert_eq!(older.published, ts("2026-10-01T08:00:00Z"));
    assert_eq!(older.comment, I18n::en("First draft"));
    assert_eq!(older.slots[0].submission.as_deref(), Some("TALK1"));
    assert_eq!(older.slots[1].submission, None);
    assert_eq!(older.slots[1].description, I18n::en("Lunch"));
    let wip = e.wip_schedule.as_ref().expect("wip");
    assert_eq!(
        (wip.id, wip.slots[0].start, wip.slots[0].room),
        (Some(4), None, None)
    );
    let quality = &e.score_categories[0];
    assert_eq!(
        (quality.weight.as_str(), quality.required, quality.active),
        ("2.0", true, true)
    );
    assert_eq!(
        (quality.limit_tracks.as_slice(), quality.is_independent),
        (&[1][..], false)
    );
    let fit = &e.score_categories[1];
    assert_eq!(
        (
            fit.weight.as_str(),
            fit.required,
            fit.active,
            fit.is_independent
        ),
        ("1.0", false, false, true)
    );
    assert_eq!(
        e.rooms[0].guid_or_derived("democon"),
        "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
        "uuid wins over guid"
    );
    assert!(e.tracks[0].requires_access_code && !e.tracks[1].requires_access_code);
    let kind = &e.submission_types[0];
    assert_eq!(kind.deadline, Some(ts("2026-09-15T21:59:00Z")));
    assert!(kind.requires_access_code);
    let options = &e.questions[0].options;
    assert_eq!(
        (options[0].position_at(0), options[1].position_at(1)),
        (5, 1)
    );
    assert_eq!(
        e.questions[0].icon.as_deref(),
        Some("https://democon.example/level.svg")
    );
    let dates = &e.questions[1];
    assert_eq!(dates.min_date, NaiveDate::from_ymd_opt(2026, 1, 1));
    assert_eq!(dates.max_datetime, Some(ts("2026-12-31T11:00:00Z")));
    let numbers = &e.questions[2];
    assert_eq!(
        (
            numbers.min_number.as_ref().map(Decimal::to_f64),
            numbers.max_number.as_ref().map(Decimal::as_str)
        ),
        (Some(1.0), Some("5.50"))
    );
    assert!(e.speakers[0].has_arrived && !e.speakers[1].has_arrived);
    assert_eq!(e.speakers[0].internal_notes, "Needs a ramp");
    let s = &e.submissions[0];
    assert_eq!(s.invitation_token.as_deref(), Some("inv0token0abc"));
    assert_eq!(s.access_code, Some(4));
    assert_eq!(s.review_code.as_deref(), Some("rev0code0xyz"));
    assert_eq!(s.resources[0].id, Some(7));
    assert_eq!(
        e.reviews[0].scores[..],
        [
            ReviewScore {
                id: 5,
                category: 1,
                value: Decimal("2".into()),
                label: Some("good".into())
            },
            ReviewScore {
                id: 8,
                category: 2,
                value: Decimal("-0.5".into()),
                label: None
            },
        ]
    );
}

#[test]
fn v1_fields_round_trip_through_export() {
    let first = parse_ok(&v1_doc());
    let exported = export::to_json(&first);
    let second = parse_ok(&exported);
    assert_eq!(second, first);
    assert_eq!(export::to_json(&second), exported);
    let e = &exported["events"][0];
    assert_eq!(e["locales"], json!(["en", "de"]));
    assert_eq!(e["older_schedules"][0]["published"], "2026-10-01T08:00:00Z");
    assert_eq!(
        e["older_schedules"][0]["slots"][1]["submission"],
        json!(null)
    );
    assert_eq!(e["wip_schedule"]["slots"][0]["description"], json!({}));
    assert_eq!(e["score_categories"][1]["weight"], "1.0");
    assert_eq!(e["reviews"][0]["scores"][1]["label"], json!(null));
    assert_eq!(e["questions"][0]["options"][0]["position"], 5);
    // An option at its index has no position written.
    assert!(e["questions"][0]["options"][1].get("position").is_none());
    assert_eq!(e["submissions"][0]["resources"][0]["id"], 7);
    assert!(e["submissions"][1].get("invitation_token").is_none());
    assert_eq!(e["organiser"], "democon-org");
    assert_eq!(e["teams"][0]["id"], 1);
    assert_eq!(e["teams"][0]["can_change_teams"], true);
    assert_eq!(
        e["teams"][0]["limit_events"],
        json!(["democon", "othercon"])
    );
    assert!(e["teams"][0].get("can_create_events").is_none());
}

#[test]
fn v1_fields_at_their_defaults_are_not_written() {
    let mut doc = base();
    let explicit = [
        ("/events/0/locales", json!(["en"])),
        ("/events/0/content_locales", json!(["en"])),
        ("/events/0/email", json!("")),
        ("/events/0/logo", json!(null)),
        ("/events/0/header_image", json!(null)),
        ("/events/0/custom_domain", json!(null)),
        ("/events/0/schedule/id", json!(null)),
        ("/events/0/schedule/comment", json!({})),
        ("/events/0/older_schedules", json!([])),
        ("/events/0/wip_schedule", json!(null)),
        ("/events/0/organiser", json!(null)),
        ("/events/0/teams/0/id", json!(null)),
        ("/events/0/teams/0/all_events", json!(false)),
        ("/events/0/teams/0/limit_events", json!([])),
        ("/events/0/teams/0/can_create_events", json!(false)),
        ("/events/0/teams/0/can_change_teams", json!(false)),
        (
            "/events/0/teams/0/can_change_organiser_settings",
            json!(false),
        ),
        ("/events/0/teams/0/can_change_event_settings", json!(false)),
        ("/events/0/score_categories", json!([])),
        ("/events/0/rooms/0/uuid", json!(null)),
        ("/events/0/tracks/0/requires_access_code", json!(false)),
        ("/events/0/submission_types/0/deadline", json!(null)),
        (
            "/events/0/submission_types/0/requires_access_code",
            json!(false),
        ),
        ("/events/0/questions/0/options/0/position", json!(0)),
        ("/events/0/questions/0/options/1/position", json!(1)),
        ("/events/0/questions/0/min_number", json!(null)),
        ("/events/0/questions/0/max_datetime", json!(null)),
        ("/events/0/questions/0/icon", json!(null)),
        ("/events/0/speakers/0/has_arrived", json!(false)),
        ("/events/0/speakers/0/internal_notes", json!("")),
        ("/events/0/submissions/0/invitation_token", json!(null)),
        ("/events/0/submissions/0/access_code", json!(null)),
        ("/events/0/submissions/0/review_code", json!(null)),
        ("/events/0/submissions/0/resources/0/id", json!(null)),
        ("/events/0/reviews/0/scores", json!([])),
    ];
    for (pointer, value) in explicit {
        set(&mut doc, pointer, value);
    }
    let given = parse_ok(&doc);
    let plain = parse_ok(&base());
    // Equal values: storage writes equal records for them.
    assert_eq!(given, plain);
    assert_eq!(export::to_json(&given), export::to_json(&plain));
}

#[test]
fn v1_fields_name_bad_values_with_their_path() {
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/events/0/locales", json!([]), "events[0].locales: must not be empty (leave it out for the default)"),
        ("/events/0/locales", json!(["de"]), "events[0].locales: must contain the event's locale \"en\""),
        ("/events/0/locales", json!(["en", "de", "en"]), "events[0].locales: duplicate language"),
        ("/events/0/locales", json!("en"), "events[0].locales: must be a list, got \"en\""),
        ("/events/0/content_locales", json!(["e n"]), "events[0].content_locales[0]: must be a language code (\"en\", \"pt-BR\"), got \"e n\""),
        ("/events/0/email", json!(5), "events[0].email: must be a string, got 5"),
        ("/events/0/organiser", json!("no org"), "events[0].organiser: invalid slug \"no org\""),
        ("/events/0/teams/0/id", json!(0), "events[0].teams[0].id: must be a positive integer or null, got 0"),
        ("/events/0/teams/1/id", json!(1), "events[0].teams[1].id: duplicate team id 1 (also at events[0].teams[0].id)"),
        ("/events/0/teams/0/limit_events", json!(["democon", "democon"]), "events[0].teams[0].limit_events: duplicate event"),
        ("/events/0/teams/0/limit_events", json!(["a b"]), "events[0].teams[0].limit_events[0]: invalid slug \"a b\""),
        ("/events/0/teams/0/can_change_teams", json!("yes"), "events[0].teams[0].can_change_teams: must be a boolean, got \"yes\""),
        ("/events/0/teams/0/all_events", json!(null), "events[0].teams[0].all_events: must be a boolean, not null"),
        ("/events/0/logo", json!("logo.png"), "events[0].logo: must be an absolute URL, got \"logo.png\""),
        ("/events/0/header_image", json!(""), "events[0].header_image: must be an absolute URL, got \"\""),
        ("/events/0/custom_domain", json!("democon.example"), "events[0].custom_domain: must be an absolute URL, got \"democon.example\""),
        ("/events/0/schedule/id", json!(0), "events[0].schedule.id: must be a positive integer or null, got 0"),
        ("/events/0/schedule/comment", json!(["x"]), "events[0].schedule.comment: must be an i18n object (or a plain string)"),
        ("/events/0/rooms/0/uuid", json!("x"), "events[0].rooms[0].uuid: must be a UUID string, got \"x\""),
        ("/events/0/tracks/0/requires_access_code", json!("no"), "events[0].tracks[0].requires_access_code: must be a boolean, got \"no\""),
        ("/events/0/submission_types/0/deadline", json!("2026-09-15"), "events[0].submission_types[0].deadline: invalid datetime \"2026-09-15\" (RFC 3339 with offset required)"),
        ("/events/0/submission_types/0/requires_access_code", json!(1), "events[0].submission_types[0].requires_access_code: must be a boolean, got 1"),
        ("/events/0/questions/2/min_number", json!(1.5), "events[0].questions[2].min_number: must be a decimal number as a string (\"1.5\"), got 1.5"),
        ("/events/0/questions/2/max_number", json!("1,5"), "events[0].questions[2].max_number: must be a decimal number as a string (\"1.5\"), got \"1,5\""),
        ("/events/0/questions/2/max_number", json!(".5"), "events[0].questions[2].max_number: must be a decimal number as a string (\"1.5\"), got \".5\""),
        ("/events/0/questions/2/max_number", json!("0.99"), "events[0].questions[2].max_number: is less than min_number"),
        ("/events/0/questions/1/max_date", json!("2025-12-31"), "events[0].questions[1].max_date: is before min_date"),
        ("/events/0/questions/1/min_date", json!("2026-1-1"), "events[0].questions[1].min_date: invalid date \"2026-1-1\" (YYYY-MM-DD)"),
        ("/events/0/questions/1/max_datetime", json!("2025-12-31T23:00:00Z"), "events[0].questions[1].max_datetime: is before min_datetime"),
        ("/events/0/questions/1/min_datetime", json!("2026-01-01"), "events[0].questions[1].min_datetime: invalid datetime \"2026-01-01\" (RFC 3339 with offset required)"),
        ("/events/0/questions/0/icon", json!("level.svg"), "events[0].questions[0].icon: must be an absolute URL, got \"level.svg\""),
        ("/events/0/questions/0/options/1/position", json!("1"), "events[0].questions[0].options[1].position: must be an integer, got \"1\""),
        ("/events/0/speakers/0/has_arrived", json!("yes"), "events[0].speakers[0].has_arrived: must be a boolean, got \"yes\""),
        ("/events/0/speakers/0/internal_notes", json!(null), "events[0].speakers[0].internal_notes: must be a string, not null"),
        ("/events/0/submissions/0/invitation_token", json!(""), "events[0].submissions[0].invitation_token: must be a non-empty string without whitespace, or null, got \"\""),
        ("/events/0/submissions/0/access_code", json!("EARLYBIRD"), "events[0].submissions[0].access_code: must be a positive integer, got \"EARLYBIRD\""),
        ("/events/0/submissions/0/review_code", json!("a b"), "events[0].submissions[0].review_code: must be a non-empty string without whitespace, or null, got \"a b\""),
        ("/events/0/submissions/0/resources/0/id", json!(0), "events[0].submissions[0].resources[0].id: must be a positive integer or null, got 0"),
        ("/events/0/submissions/1/resources", json!([{"id": 7, "resource": "https://example.org/x"}]), "events[0].submissions[1].resources[0].id: duplicate resource id 7 (also at events[0].submissions[0].resources[0].id)"),
        ("/events/0/score_categories/0/limit_tracks", json!([99]), "events[0].score_categories[0].limit_tracks[0]: track 99 does not exist in event \"democon\""),
        ("/events/0/score_categories/0/limit_tracks", json!([1, 1]), "events[0].score_categories[0].limit_tracks: duplicate track"),
        ("/events/0/score_categories/0/weight", json!("heavy"), "events[0].score_categories[0].weight: must be a decimal number as a string (\"1.5\"), got \"heavy\""),
        ("/events/0/score_categories/1/name", json!(""), "events[0].score_categories[1].name: required i18n value is empty"),
        ("/events/0/score_categories/1/active", json!(null), "events[0].score_categories[1].active: must be a boolean, not null"),
        ("/events/0/reviews/0/scores/0/category", json!(9), "events[0].reviews[0].scores[0].category: score category 9 does not exist in event \"democon\""),
        ("/events/0/reviews/0/scores/1/category", json!(1), "events[0].reviews[0].scores[1].category: second score in category 1 (also at events[0].reviews[0].scores[0])"),
        ("/events/0/reviews/0/scores/0/value", json!(2), "events[0].reviews[0].scores[0].value: must be a decimal number as a string (\"1.5\"), got 2"),
        ("/events/0/reviews/0/scores/0/id", json!(-5), "events[0].reviews[0].scores[0].id: must be a positive integer, got -5"),
        ("/events/0/reviews/0/scores/0/label", json!(3), "events[0].reviews[0].scores[0].label: must be a string, got 3"),
        ("/events/0/older_schedules/0/id", json!(3), "events[0].older_schedules[0].id: duplicate schedule id 3 (also at events[0].schedule.id)"),
        ("/events/0/wip_schedule/id", json!(1), "events[0].wip_schedule.id: duplicate schedule id 1 (also at events[0].older_schedules[0].id)"),
        ("/events/0/older_schedules/0/version", json!("1.0"), "events[0].older_schedules[0].version: duplicate schedule version \"1.0\" (also at events[0].schedule.version)"),
        ("/events/0/older_schedules/0/version", json!(""), "events[0].older_schedules[0].version: must not be empty"),
        ("/events/0/older_schedules/0/published", json!(null), "events[0].older_schedules[0].published: must be a datetime string with offset"),
        ("/events/0/older_schedules/0/slots/0/submission", json!("NOPE"), "events[0].older_schedules[0].slots[0].submission: submission \"NOPE\" does not exist in event \"democon\""),
        ("/events/0/older_schedules/0/slots/0/room", json!(9), "events[0].older_schedules[0].slots[0].room: room 9 does not exist in event \"democon\""),
        ("/events/0/older_schedules/0/slots/0/end", json!("2026-11-20T09:00:00+01:00"), "events[0].older_schedules[0].slots[0].end: is before start"),
        ("/events/0/older_schedules/0/slots/1/id", json!(11), "events[0].older_schedules[0].slots[1].id: duplicate slot id 11 (also at events[0].older_schedules[0].slots[0].id)"),
        ("/events/0/wip_schedule/slots/0/id", json!(12), "events[0].wip_schedule.slots[0].id: duplicate slot id 12 (also at events[0].older_schedules[0].slots[1].id)"),
        ("/events/0/wip_schedule/slots/0/submission", json!(5), "events[0].wip_schedule.slots[0].submission: must be a submission code, got 5"),
        ("/events/0/wip_schedule/slots/0/description", json!(["x"]), "events[0].wip_schedule.slots[0].description: must be an i18n object (or a plain string)"),
        ("/events/0/wip_schedule", json!([]), "events[0].wip_schedule: must be an object, got a list"),
    ];
    for (pointer, value, expected) in cases {
        let mut doc = v1_doc();
        set(&mut doc, pointer, value);
        assert_eq!(problems(&doc), vec![expected.to_string()], "at {pointer}");
    }

    // A required field of each new object.
    for (pointer, expected) in [
        (
            "/events/0/older_schedules/0/version",
            "events[0].older_schedules[0].version: required field is missing",
        ),
        (
            "/events/0/older_schedules/0/published",
            "events[0].older_schedules[0].published: required field is missing",
        ),
        (
            "/events/0/wip_schedule/slots/0/is_visible",
            "events[0].wip_schedule.slots[0].is_visible: required field is missing",
        ),
        (
            "/events/0/score_categories/1/name",
            "events[0].score_categories[1].name: required field is missing",
        ),
        (
            "/events/0/reviews/0/scores/0/value",
            "events[0].reviews[0].scores[0].value: required field is missing",
        ),
    ] {
        let mut doc = v1_doc();
        remove(&mut doc, pointer);
        assert_eq!(
            problems(&doc),
            vec![expected.to_string()],
            "without {pointer}"
        );
    }

    // Category ids are one sequence across the document (and a score of
    // the category that lost its id has none to refer to).
    let mut doc = v1_doc();
    set(&mut doc, "/events/0/score_categories/1/id", json!(1));
    assert_eq!(
        problems(&doc),
        vec![
            "events[0].score_categories[1].id: duplicate score category id 1 (also at events[0].score_categories[0].id)",
            "events[0].reviews[0].scores[1].category: score category 2 does not exist in event \"democon\"",
        ]
    );
    // Older releases need a current one.
    let mut doc = v1_doc();
    set(
        &mut doc,
        "/events/1/older_schedules",
        json!([{"version": "0.1", "published": "2026-01-01T00:00:00Z"}]),
    );
    assert_eq!(
        problems(&doc),
        vec!["events[1].older_schedules: event \"other\" has no released schedule, so no older releases are allowed"]
    );
    // A score id is one of its category's values: the same everywhere.
    let mut doc = v1_doc();
    set(
        &mut doc,
        "/events/0/reviews/1",
        json!({"id": 2, "submission": "TALK2", "user": "REV1",
        "created": "2026-10-02T10:00:00Z", "scores": [{"id": 5, "category": 1, "value": "3", "label": "good"}]}),
    );
    assert_eq!(
        problems(&doc),
        vec!["events[0].reviews[1].scores[0]: score 5 differs from the one at events[0].reviews[0].scores[0] (one id, one category, value and label)"]
    );
    set(&mut doc, "/events/0/reviews/1/scores/0/value", json!("2"));
    assert!(problems(&doc).is_empty());
    // Resource ids are unique within an event only.
    let mut doc = v1_doc();
    set(
        &mut doc,
        "/events/1/submission_types",
        json!([{"id": 2, "name": "Talk"}]),
    );
    set(
        &mut doc,
        "/events/1/submissions",
        json!([{"code": "ELSE1", "title": "E", "submission_type": 2,
        "created": "2027-01-01T00:00:00Z", "resources": [{"id": 7, "resource": "https://example.org/y"}]}]),
    );
    assert!(problems(&doc).is_empty());
}

#[test]
fn v1_objects_report_unknown_keys() {
    for (pointer, path) in [
        (
            "/events/0/score_categories/0",
            "events[0].score_categories[0].colour",
        ),
        (
            "/events/0/reviews/0/scores/0",
            "events[0].reviews[0].scores[0].colour",
        ),
        (
            "/events/0/older_schedules/0",
            "events[0].older_schedules[0].colour",
        ),
        (
            "/events/0/older_schedules/0/slots/1",
            "events[0].older_schedules[0].slots[1].colour",
        ),
        ("/events/0/wip_schedule", "events[0].wip_schedule.colour"),
        (
            "/events/0/wip_schedule/slots/0",
            "events[0].wip_schedule.slots[0].colour",
        ),
    ] {
        let mut doc = v1_doc();
        set(&mut doc, &format!("{pointer}/colour"), json!("red"));
        assert_eq!(
            problems(&doc),
            vec![format!("{path}: unknown field")],
            "at {pointer:?}"
        );
    }
}

#[test]
fn junk_in_v1_fields_gives_problems_not_panics() {
    junk_everywhere(&v1_doc());
}

// ---- what pretalx 2026 added (issue 62): optional, with defaults ----------------------------

#[test]
fn pretalx_2026_fields_are_read_and_exported() {
    let mut doc = base();
    let e = &mut doc["events"][0];
    e["og_image"] = json!("https://democon.example/og.png");
    e["tracks"][0]["attendee_signup_required"] = json!(true);
    e["submission_types"][0]["attendee_signup_required"] = json!(true);
    e["questions"][0]["identifier"] = json!("LEVEL.1");
    e["questions"][0]["options"][0]["identifier"] = json!("beg_1");
    e["submissions"][0]["updated"] = json!("2026-10-02T10:00:00+02:00");
    e["submissions"][0]["invitations"] =
        json!([{"id": 3, "email": "co@democon.example", "created": "2026-10-01T10:00:00Z"}]);
    e["submissions"][0]["attendee_signup"] =
        json!({"required": null, "capacity": 40, "status": "open"});
    let d = parse_ok(&doc);
    let e = &d.events[0];
    assert_eq!(
        e.og_image.as_deref(),
        Some("https://democon.example/og.png")
    );
    assert!(e.tracks[0].attendee_signup_required && e.submission_types[0].attendee_signup_required);
    assert_eq!(e.questions[0].identifier.as_deref(), Some("LEVEL.1"));
    assert_eq!(
        e.questions[0].options[0].identifier.as_deref(),
        Some("beg_1")
    );
    let sub = &e.submissions[0];
    assert_eq!(
        sub.updated.map(|t| t.to_rfc3339()),
        Some("2026-10-02T08:00:00+00:00".into())
    );
    assert_eq!(sub.invitations.len(), 1);
    assert_eq!(
        sub.attendee_signup.as_deref(),
        Some(&AttendeeSignup {
            required: None,
            capacity: Some(40),
            status: Some(SignupStatus::Open)
        })
    );
    assert_eq!(
        parse_ok(&export::to_json(&d)),
        d,
        "the export reads back the same"
    );
    // Without them: the defaults, and nothing written.
    let plain = parse_ok(&base());
    let e = &plain.events[0];
    assert_eq!(e.og_image, None);
    assert!(!e.tracks[0].attendee_signup_required);
    assert!(e
        .questions
        .iter()
        .all(|q| q.identifier.is_none() && q.options.iter().all(|o| o.identifier.is_none())));
    assert!(e
        .submissions
        .iter()
        .all(|s| s.updated.is_none() && s.invitations.is_empty() && s.attendee_signup.is_none()));
    let exported = export::to_json(&plain);
    for sub in exported["events"][0]["submissions"].as_array().unwrap() {
        assert!(sub.get("updated").is_none(), "updated written");
    }
    let exported = exported.to_string();
    for key in ["og_image", "attendee_signup", "identifier", "invitations"] {
        assert!(!exported.contains(key), "{key} written");
    }
}

#[test]
fn bad_pretalx_2026_fields_are_named_with_their_paths() {
    let mut doc = base();
    let e = &mut doc["events"][0];
    e["og_image"] = json!("not a url");
    e["questions"][0]["identifier"] = json!("has space");
    e["questions"][1]["identifier"] = json!("SAME");
    e["questions"][2]["identifier"] = json!("SAME");
    e["questions"][0]["options"][0]["identifier"] = json!("o");
    e["questions"][0]["options"][1]["identifier"] = json!("o");
    e["tracks"][0]["attendee_signup_required"] = json!("yes");
    e["submissions"][0]["updated"] = json!("yesterday");
    e["submissions"][0]["invitations"] =
        json!([{"id": 1}, {"id": 1, "email": "a@b.example", "extra": 1}]);
    e["submissions"][0]["attendee_signup"] = json!({"capacity": 0, "status": "closed"});
    let found = problems(&doc);
    for expected in [
        "events[0].og_image",
        "events[0].questions[0].identifier: must be 1 to 190 letters, digits, dots, dashes and underscores, got \"has space\"",
        "events[0].questions[2].identifier: duplicate identifier \"SAME\" in the event (also at events[0].questions[1].identifier)",
        "events[0].questions[0].options[1].identifier: duplicate identifier \"o\" of the question (also at events[0].questions[0].options[0].identifier)",
        "events[0].tracks[0].attendee_signup_required",
        "events[0].submissions[0].updated",
        "events[0].submissions[0].invitations[0].email",
        "events[0].submissions[0].invitations[1].id: duplicate invitation id 1",
        "events[0].submissions[0].invitations[1].extra",
        "events[0].submissions[0].attendee_signup.capacity",
        "events[0].submissions[0].attendee_signup.status: must be \"open\", \"full\" or null, got \"closed\"",
    ] {
        assert!(
            found.iter().any(|p| p.starts_with(expected)),
            "{expected} not in {found:#?}"
        );
    }
}
