//! The validator's unit tests, by what they check; the helpers here build
//! and change documents.

use super::*;
use crate::dataset::export;
use crate::model::{ApiVersion, TokenHash};
use serde_json::{json, Value};

// ---- helpers, shared by the modules below ---------------------------------

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

mod documents;
mod hostile;
mod identity;
mod pretalx_2026;
mod pretalx_v1;
mod references;
mod types;
