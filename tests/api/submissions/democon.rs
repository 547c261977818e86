//! democon.json: every role and every object, with the expectation computed
//! from the dataset document (behaviour.md §3, §4, §6 restated here).

use super::*;

/// The caller's role in the event, and their user code.
fn role_in(doc: &Value, event: &Value, token: Option<&str>) -> (Role, Option<String>) {
    let Some(token) = token else {
        return (Public, None);
    };
    let user = doc["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| {
            u["tokens"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == token))
        })
        .expect("a user with this token");
    let code = user["code"].as_str().unwrap().to_string();
    let teams: Vec<&Value> = my_teams(event, &code);
    let role = if user["is_administrator"] == true
        || teams.iter().any(|t| t["can_change_submissions"] == true)
    {
        Organiser
    } else if teams.iter().any(|t| t["is_reviewer"] == true) {
        Reviewer
    } else {
        Public
    };
    (role, Some(code))
}

fn my_teams<'a>(event: &'a Value, user: &str) -> Vec<&'a Value> {
    event["teams"]
        .as_array()
        .map(|teams| {
            teams
                .iter()
                .filter(|t| {
                    t["members"]
                        .as_array()
                        .is_some_and(|m| m.iter().any(|m| m == user))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn has_reviewer_access(event: &Value, sub: &Value, user: &str) -> bool {
    if sub["assigned_reviewers"]
        .as_array()
        .is_some_and(|a| a.iter().any(|a| a == user))
    {
        return true;
    }
    let visibility = event["review_phase"]["proposal_visibility"]
        .as_str()
        .unwrap_or("all");
    visibility == "all"
        && my_teams(event, user)
            .iter()
            .filter(|t| t["is_reviewer"] == true)
            .any(|t| {
                let limit = t["limit_tracks"].as_array().cloned().unwrap_or_default();
                limit.is_empty() || (!sub["track"].is_null() && limit.contains(&sub["track"]))
            })
}

/// The caller's submissions of the event, by code.
fn expected_set<'a>(event: &'a Value, role: Role, user: Option<&str>) -> Vec<&'a Value> {
    let mut subs: Vec<&Value> = event["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| match role {
            Organiser => true,
            Reviewer => has_reviewer_access(event, s, user.unwrap()) || is_public_talk(event, s),
            Public => is_public_talk(event, s),
        })
        .collect();
    subs.sort_by(|a, b| a["code"].as_str().cmp(&b["code"].as_str()));
    subs
}

fn i18n(value: &Value) -> Value {
    match value {
        Value::Null => json!({}),
        Value::String(s) if s.is_empty() => json!({}),
        Value::String(s) => json!({"en": s}),
        other => other.clone(),
    }
}

fn find_by<'a>(list: &'a Value, key: &str, value: &Value) -> &'a Value {
    list.as_array()
        .and_then(|items| items.iter().find(|item| &item[key] == value))
        .unwrap_or_else(|| panic!("nothing with {key} = {value}"))
}

/// RFC 3339 in the time zone, `Z` for a zero offset, microseconds only when non-zero.
fn local_time(text: &str, timezone: &str, plus_minutes: i64) -> String {
    let tz: chrono_tz::Tz = timezone.parse().expect("a time zone");
    let t = chrono::DateTime::parse_from_rfc3339(text)
        .expect("RFC 3339")
        .with_timezone(&tz)
        + chrono::Duration::minutes(plus_minutes);
    t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        .replacen(".000000", "", 1)
}

fn start_key(slot: &Value) -> (bool, i64) {
    match slot["start"].as_str() {
        Some(start) => (
            false,
            chrono::DateTime::parse_from_rfc3339(start)
                .unwrap()
                .timestamp_micros(),
        ),
        None => (true, 0),
    }
}

fn expected_object(doc: &Value, event: &Value, sub: &Value, role: Role) -> Value {
    let timezone = event["timezone"].as_str().unwrap_or("UTC");
    let speakers: Vec<Value> = sub["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|code| {
            let user = find_by(&doc["users"], "code", code);
            let profile = find_by(&event["speakers"], "user", code);
            json!({"code": code, "name": user["name"], "biography": profile["biography"].as_str().unwrap_or(""),
                   "avatar": user["avatar"], "email": user["email"]})
        })
        .collect();
    let stype = find_by(&event["submission_types"], "id", &sub["submission_type"]);
    let duration = sub["duration"]
        .as_i64()
        .or(stype["default_duration"].as_i64())
        .unwrap_or(30);
    let track = if sub["track"].is_null() {
        Value::Null
    } else {
        i18n(&find_by(&event["tracks"], "id", &sub["track"])["name"])
    };
    let slot = if event["schedule"].is_null() {
        Value::Null
    } else {
        let mut slots: Vec<&Value> = sub["slots"]
            .as_array()
            .map(|s| s.iter().collect())
            .unwrap_or_default();
        slots.retain(|s| role == Organiser || s["is_visible"] == true);
        slots.sort_by_key(|s| start_key(s)); // stable: ties keep dataset order
        match slots.first() {
            None => Value::Null,
            Some(slot) => {
                let start = slot["start"].as_str().map(|s| local_time(s, timezone, 0));
                let end = match (slot["end"].as_str(), slot["start"].as_str()) {
                    (Some(end), _) => Some(local_time(end, timezone, 0)),
                    (None, Some(start)) => Some(local_time(start, timezone, duration)),
                    (None, None) => None,
                };
                let room = if slot["room"].is_null() {
                    Value::Null
                } else {
                    i18n(&find_by(&event["rooms"], "id", &slot["room"])["name"])
                };
                json!({"start": start, "end": end, "room": room, "room_id": slot["room"]})
            }
        }
    };
    let mut tag_ids: Vec<i64> = sub["tags"]
        .as_array()
        .map(|t| t.iter().map(|t| t.as_i64().unwrap()).collect())
        .unwrap_or_default();
    tag_ids.sort_unstable();
    let tags: Vec<Value> = tag_ids
        .iter()
        .map(|id| find_by(&event["tags"], "id", &json!(id))["tag"].clone())
        .collect();
    let resources: Vec<Value> = sub["resources"]
        .as_array()
        .map(|r| {
            r.iter()
                .map(|r| json!({"resource": r["resource"], "description": r["description"].as_str().unwrap_or("")}))
                .collect()
        })
        .unwrap_or_default();
    let text = |key: &str| sub[key].as_str().unwrap_or("").to_string();
    let full = json!({
        "code": sub["code"], "speakers": speakers, "title": sub["title"],
        "submission_type": i18n(&stype["name"]), "submission_type_id": sub["submission_type"],
        "track": track, "track_id": sub["track"], "state": state_of(sub),
        "abstract": text("abstract"), "description": text("description"), "duration": duration,
        "slot_count": sub["slot_count"].as_i64().unwrap_or(1),
        "do_not_record": sub["do_not_record"].as_bool().unwrap_or(false),
        "is_featured": sub["is_featured"].as_bool().unwrap_or(false),
        "content_locale": sub["content_locale"].as_str().unwrap_or("en"),
        "slot": slot, "image": sub["image"], "resources": resources, "answers": [],
        "created": local_time(sub["created"].as_str().unwrap(), timezone, 0),
        "pending_state": sub["pending_state"], "notes": text("notes"), "internal_notes": text("internal_notes"),
        "tags": tags, "tag_ids": tag_ids
    });
    view(&full, role)
}

/// democon's callers; in privcon the reviewers have no role (403, like anonymous).
const DEMOCON_CALLERS: [(&str, Option<&str>); 5] = [
    ("anonymous", None),
    ("administrator", Some(tok::ADMIN)),
    ("organiser", Some(tok::ORGA)),
    ("reviewer", Some(tok::REVIEWER)),
    ("track reviewer", Some(tok::TRACK_REVIEWER)),
];

#[tokio::test]
async fn democon_every_role_gets_the_expected_objects() {
    let doc = democon();
    let server = TestServer::start(std::slice::from_ref(&doc)).await;
    let mut seen_roles = BTreeSet::new();
    for event in doc["events"].as_array().unwrap() {
        let slug = event["slug"].as_str().unwrap();
        for (name, token) in DEMOCON_CALLERS {
            let (role, user) = role_in(&doc, event, token);
            seen_roles.insert(format!("{slug}:{role:?}"));
            let client = match token {
                Some(t) => server.token(t),
                None => server.anon(),
            };
            let context = format!("{slug} {name}");
            if event["is_public"] != true && role == Public {
                for path in ["submissions/", "talks/", "submissions/TX8P3E"] {
                    assert_detail(
                        &client.get(&format!("/api/events/{slug}/{path}")).await,
                        403,
                        &context,
                    );
                }
                continue;
            }
            let subs = expected_set(event, role, user.as_deref());
            for resource in ["submissions", "talks"] {
                let expected: Vec<Value> = subs
                    .iter()
                    .filter(|s| resource == "submissions" || is_talk(event, s))
                    .map(|s| expected_object(&doc, event, s, role))
                    .collect();
                let got = fetch_all(&client, &format!("/api/events/{slug}/{resource}/")).await;
                let got_codes: Vec<String> = got
                    .iter()
                    .map(|(v, _)| v["code"].as_str().unwrap().to_string())
                    .collect();
                assert_eq!(got_codes, code_list(&expected), "{context} /{resource}");
                for ((value, ordered), exp) in got.iter().zip(&expected) {
                    let code = exp["code"].as_str().unwrap();
                    assert_json(value, exp, &format!("{context} /{resource} {code}"));
                    assert_submission_keys(ordered, role, &format!("{context} /{resource} {code}"));
                }
                // Every detail agrees with the list.
                if resource == "submissions"
                    && matches!(name, "anonymous" | "organiser" | "track reviewer")
                {
                    for exp in &expected {
                        let code = exp["code"].as_str().unwrap();
                        let detail = client
                            .ok(&format!(
                                "/api/events/{slug}/submissions/{}",
                                code.to_lowercase()
                            ))
                            .await;
                        assert_json(&detail, exp, &format!("{context} detail {code}"));
                    }
                }
            }
        }
    }
    assert_eq!(
        seen_roles.into_iter().collect::<Vec<_>>(),
        [
            "democon:Organiser",
            "democon:Public",
            "democon:Reviewer",
            "privcon:Organiser",
            "privcon:Public"
        ]
    );
}

/// The sets of democon, spelled out as counts from the dataset: the public
/// sees the confirmed talks, the track reviewer their track plus those.
#[tokio::test]
async fn democon_counts_per_role() {
    let doc = democon();
    let event = &doc["events"][0];
    let subs = event["submissions"].as_array().unwrap();
    let public: BTreeSet<&str> = subs
        .iter()
        .filter(|s| is_public_talk(event, s))
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    let talks: BTreeSet<&str> = subs
        .iter()
        .filter(|s| is_talk(event, s))
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    let track1: BTreeSet<&str> = subs
        .iter()
        .filter(|s| s["track"] == 1)
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    let track_reviewer: BTreeSet<&str> = public.union(&track1).copied().collect();
    // The dataset makes these sets differ, so the counts below mean something
    // (democon's talks all happen to be confirmed: talks == public talks).
    assert!(!public.is_empty() && public.len() == talks.len() && talks.len() < subs.len());
    assert!(track_reviewer.len() > public.len() && track_reviewer.len() < subs.len());

    let server = TestServer::start(std::slice::from_ref(&doc)).await;
    let count = |client: Client, path: &'static str| async move {
        client.ok(path).await["count"].as_u64().unwrap() as usize
    };
    let s = "/api/events/democon/submissions/";
    let t = "/api/events/democon/talks/";
    assert_eq!(count(server.token(tok::ADMIN), s).await, subs.len());
    assert_eq!(count(server.token(tok::ORGA), s).await, subs.len());
    assert_eq!(count(server.token(tok::ORGA), t).await, talks.len());
    assert_eq!(count(server.token(tok::REVIEWER), s).await, subs.len());
    assert_eq!(count(server.token(tok::REVIEWER), t).await, talks.len());
    assert_eq!(
        count(server.token(tok::TRACK_REVIEWER), s).await,
        track_reviewer.len()
    );
    assert_eq!(
        count(server.token(tok::TRACK_REVIEWER), t).await,
        track_reviewer.intersection(&talks).count()
    );
    assert_eq!(count(server.anon(), s).await, public.len());
    assert_eq!(count(server.anon(), t).await, public.len());
    // A realistic object, with the Berlin offsets of September (+02:00) and November (+01:00).
    let tx = server
        .token(tok::ORGA)
        .ok("/api/events/democon/submissions/tx8p3e/")
        .await;
    assert_eq!(tx["created"], "2026-09-04T14:54:47.808658+02:00");
    assert_json(
        &tx["slot"],
        &json!({"start": "2026-11-20T09:15:00+01:00", "end": "2026-11-20T10:45:00+01:00",
                "room": {"en": "Mint Cream Room"}, "room_id": 1}),
        "TX8P3E slot",
    );
    assert_eq!(tx["duration"], 90, "the Workshop type's default");
    assert_json(
        &tx["resources"],
        &json!([{"resource": "https://example.org/slides/tx8p3e.pdf", "description": "Slides"}]),
        "resources",
    );
}
