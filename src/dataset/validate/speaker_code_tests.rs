//! pretalx 2026's per-event speaker codes: a profile may go by a code of
//! its own, which its event's submissions and answers name.

use super::*;
use serde_json::{json, Value};

/// Two events: Ada goes by `ADA26` in `one` and by her user code in `two`.
fn doc() -> Value {
    let event = |slug: &str, code: Value| {
        json!({
            "slug": slug, "name": slug, "date_from": "2026-06-01",
            "submission_types": [{"id": if slug == "one" { 1 } else { 2 }, "name": "Talk"}],
            "questions": [{"id": if slug == "one" { 1 } else { 2 }, "target": "speaker",
                           "question": "Shirt?"}],
            "speakers": [{"user": "ADA", "code": code}, {"user": "BOB"}],
        })
    };
    let mut one = event("one", json!("ADA26"));
    one["submissions"] = json!([{"code": "S1", "title": "T", "speakers": ["ADA26", "BOB"],
                                 "submission_type": 1, "created": "2026-03-01T10:00:00Z"}]);
    one["answers"] = json!([{"id": 1, "question": 1, "answer": "M", "person": "ADA26"}]);
    let mut two = event("two", Value::Null);
    two["submissions"] = json!([{"code": "S2", "title": "T", "speakers": ["ADA"],
                                 "submission_type": 2, "created": "2026-03-01T10:00:00Z"}]);
    json!({
        "format": "cfp-dataset", "version": 1,
        "users": [{"code": "ADA", "name": "Ada", "email": "ada@example.org"},
                  {"code": "BOB", "name": "Bob", "email": "bob@example.org"}],
        "events": [one, two],
    })
}

fn problems(doc: &Value) -> Vec<String> {
    match parse_value(doc) {
        Ok(_) => Vec::new(),
        Err(found) => found.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_profile_goes_by_its_own_code_in_its_event() {
    let dataset = parse_value(&doc()).expect("valid");
    let one = &dataset.events[0];
    assert_eq!(one.speakers[0].user.as_str(), "ADA");
    assert_eq!(one.speakers[0].code.as_deref(), Some("ADA26"));
    assert_eq!(one.speakers[0].speaker_code().as_str(), "ADA26");
    assert_eq!(one.speakers[1].speaker_code().as_str(), "BOB");
    assert_eq!(dataset.events[1].speakers[0].code, None);
    // Its own user's code is no code of its own.
    let mut same = doc();
    same["events"][1]["speakers"][0]["code"] = json!("ADA");
    assert_eq!(
        parse_value(&same).expect("valid").events[1].speakers[0].code,
        None
    );
}

#[test]
fn references_name_the_code_the_profile_goes_by() {
    let mut by_user = doc();
    by_user["events"][0]["submissions"][0]["speakers"] = json!(["ADA", "BOB"]);
    by_user["events"][0]["answers"][0]["person"] = json!("ADA");
    assert_eq!(
        problems(&by_user),
        vec![
            "events[0].submissions[0].speakers[0]: speaker \"ADA\" goes by the speaker code \"ADA26\" in event \"one\"",
            "events[0].answers[0].person: user \"ADA\" goes by the speaker code \"ADA26\" in event \"one\"",
        ]
    );
    // In the other event the code is nobody's.
    let mut elsewhere = doc();
    elsewhere["events"][1]["submissions"][0]["speakers"] = json!(["ADA26"]);
    assert_eq!(
        problems(&elsewhere),
        vec!["events[1].submissions[0].speakers[0]: user \"ADA26\" does not exist"]
    );
}

#[test]
fn a_code_names_one_person() {
    // Another user's code.
    let mut taken = doc();
    taken["events"][0]["speakers"][0]["code"] = json!("BOB");
    taken["events"][0]["submissions"][0]["speakers"] = json!(["BOB"]);
    taken["events"][0]["answers"][0]["person"] = json!("BOB");
    assert_eq!(
        problems(&taken),
        vec!["events[0].speakers[0].code: speaker code \"BOB\" is another user's code"]
    );
    // Another person's in another event.
    let mut twice = doc();
    twice["events"][1]["speakers"][1]["code"] = json!("ADA26");
    assert_eq!(
        problems(&twice),
        vec![
            "events[1].speakers[1].code: speaker code \"ADA26\" is user \"ADA\"'s in another event"
        ]
    );
    // Not a code.
    let mut bad = doc();
    bad["events"][0]["speakers"][0]["code"] = json!("no spaces");
    assert_eq!(
        problems(&bad)[0],
        "events[0].speakers[0].code: invalid code \"no spaces\" (1 to 16 of [A-Za-z0-9])"
    );
}
