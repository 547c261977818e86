//! behaviour.md §6 "Submissions and talks" (with the parts of §1-§5 and §8
//! that concern these endpoints), over HTTP: which submissions each role
//! gets, field sets and key order, values, the anonymised view, `questions`,
//! filters (alone, combined, paginated), lookups and errors.
//!
//! Small datasets derived from `mini()` pin full JSON bodies; democon.json
//! and edge.json check the same rules on realistic data, with expectations
//! computed from the dataset documents. One module per concern; the helpers
//! they share are here.

mod anonymised;
mod democon;
mod fields;
mod filters;
mod lookups;
mod nested_answers;
mod values;
mod visibility;

use crate::helpers::bodies::page_of;
use crate::helpers::{self, assert_bad_parameters};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use helpers::{
    democon, democon_tokens as tok, edge, mini, Client, Reply, TestServer, EDGE_HASHONLY_TOKEN,
};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Value};

// ===========================================================================
// JSON with its key order (serde_json keeps maps sorted, so the order of
// keys as sent is read from the raw text with this small visitor)
// ===========================================================================

#[derive(Debug, Clone)]
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Array(Vec<Ordered>),
    Scalar,
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_str<E>(self, _: &str) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_unit<E>(self) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Ordered::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut entries = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Ordered>()? {
            entries.push((key, value));
        }
        Ok(Ordered::Object(entries))
    }
}

impl Ordered {
    fn parse(text: &str) -> Ordered {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    }

    fn keys(&self) -> Vec<&str> {
        match self {
            Ordered::Object(entries) => entries.iter().map(|(k, _)| k.as_str()).collect(),
            other => panic!("not an object: {other:?}"),
        }
    }

    fn get(&self, key: &str) -> &Ordered {
        match self {
            Ordered::Object(entries) => entries
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no key {key:?}")),
            other => panic!("not an object: {other:?}"),
        }
    }

    fn items(&self) -> &[Ordered] {
        match self {
            Ordered::Array(items) => items,
            other => panic!("not an array: {other:?}"),
        }
    }

    fn is_object(&self) -> bool {
        matches!(self, Ordered::Object(_))
    }
}

// ===========================================================================
// Field sets (behaviour.md §6: "Fields (all roles, in this order)")
// ===========================================================================

const PUBLIC_FIELDS: [&str; 19] = [
    "code",
    "speakers",
    "title",
    "submission_type",
    "submission_type_id",
    "track",
    "track_id",
    "state",
    "abstract",
    "description",
    "duration",
    "slot_count",
    "do_not_record",
    "is_featured",
    "content_locale",
    "slot",
    "image",
    "resources",
    "answers",
];

fn fields_for(role: Role) -> Vec<&'static str> {
    let mut keys = PUBLIC_FIELDS.to_vec();
    match role {
        Role::Public => {}
        Role::Reviewer => keys.extend(["tags", "tag_ids"]),
        Role::Organiser => keys.extend([
            "created",
            "pending_state",
            "notes",
            "internal_notes",
            "tags",
            "tag_ids",
        ]),
    }
    keys
}

fn sorted_keys(obj: &Ordered) -> Vec<&str> {
    let mut keys = obj.keys();
    keys.sort_unstable();
    keys
}

/// The exact top-level keys in order, and the key sets of the nested objects.
#[track_caller]
fn assert_submission_keys(obj: &Ordered, role: Role, context: &str) {
    assert_eq!(obj.keys(), fields_for(role), "{context}: top-level keys");
    let speaker_keys: Vec<&str> = match role {
        Role::Organiser => vec!["avatar", "biography", "code", "email", "name"],
        _ => vec!["avatar", "biography", "code", "name"],
    };
    for speaker in obj.get("speakers").items() {
        assert_eq!(
            sorted_keys(speaker),
            speaker_keys,
            "{context}: speaker keys"
        );
    }
    let slot = obj.get("slot");
    if slot.is_object() {
        assert_eq!(
            sorted_keys(slot),
            ["end", "room", "room_id", "start"],
            "{context}: slot keys"
        );
    }
    for resource in obj.get("resources").items() {
        assert_eq!(
            sorted_keys(resource),
            ["description", "resource"],
            "{context}: resource keys"
        );
    }
    for answer in obj.get("answers").items() {
        assert_eq!(
            sorted_keys(answer),
            [
                "answer",
                "answer_file",
                "id",
                "options",
                "person",
                "question",
                "review",
                "submission"
            ],
            "{context}: answer keys"
        );
        assert_eq!(
            sorted_keys(answer.get("question")),
            ["id", "options", "question", "required", "target"],
            "{context}: nested question keys"
        );
    }
}

// ===========================================================================
// Callers of the small datasets
// ===========================================================================

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Public,
    Reviewer,
    Organiser,
}

use Role::{Organiser, Public, Reviewer};

#[derive(Clone, Copy, Debug)]
struct Caller {
    name: &'static str,
    token: Option<&'static str>,
    role: Role,
}

const ANONYMOUS: Caller = Caller {
    name: "anonymous",
    token: None,
    role: Public,
};
const NOBODY: Caller = Caller {
    name: "user without a role",
    token: Some("nobody-token"),
    role: Public,
};
const HELPER: Caller = Caller {
    name: "member of a team without rights",
    token: Some("helper-token"),
    role: Public,
};
const REVIEWER: Caller = Caller {
    name: "reviewer",
    token: Some("rev-token"),
    role: Reviewer,
};
const ORGANISER: Caller = Caller {
    name: "organiser",
    token: Some("orga-token"),
    role: Organiser,
};
const ADMIN: Caller = Caller {
    name: "administrator",
    token: Some("admin-token"),
    role: Organiser,
};
const CALLERS: [Caller; 6] = [ANONYMOUS, NOBODY, HELPER, REVIEWER, ORGANISER, ADMIN];

impl Caller {
    fn client(&self, server: &TestServer) -> Client {
        match self.token {
            Some(token) => server.token(token),
            None => server.anon(),
        }
    }
}

const EV: &str = "/api/events/mini";

// ===========================================================================
// Dataset helpers
// ===========================================================================

/// `mini()` plus an administrator (`admin-token`, in no team) and a member of
/// a team without any right (`helper-token`).
fn base() -> Value {
    let mut d = mini();
    users(&mut d).push(
        json!({"code": "ADMIN", "name": "Adam Admin", "email": "admin@mini.example",
                              "is_administrator": true, "tokens": ["admin-token"]}),
    );
    users(&mut d).push(
        json!({"code": "HELPER", "name": "Helga Helper", "email": "helper@mini.example",
                              "tokens": ["helper-token"]}),
    );
    list_of(mini_event(&mut d), "teams").push(json!({"name": "Helpers", "members": ["HELPER"]}));
    d
}

fn users(d: &mut Value) -> &mut Vec<Value> {
    d["users"].as_array_mut().expect("users")
}

fn event_mut<'a>(d: &'a mut Value, slug: &str) -> &'a mut Value {
    d["events"]
        .as_array_mut()
        .expect("events")
        .iter_mut()
        .find(|e| e["slug"] == slug)
        .unwrap_or_else(|| panic!("no event {slug}"))
}

fn mini_event(d: &mut Value) -> &mut Value {
    event_mut(d, "mini")
}

/// The list under `key` of a JSON object, created when absent.
fn list_of<'a>(obj: &'a mut Value, key: &str) -> &'a mut Vec<Value> {
    obj.as_object_mut()
        .expect("an object")
        .entry(key)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .expect("a list")
}

fn sub_mut<'a>(d: &'a mut Value, code: &str) -> &'a mut Value {
    list_of(mini_event(d), "submissions")
        .iter_mut()
        .find(|s| s["code"] == code)
        .unwrap_or_else(|| panic!("no submission {code}"))
}

fn team_mut<'a>(d: &'a mut Value, name: &str) -> &'a mut Value {
    list_of(mini_event(d), "teams")
        .iter_mut()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no team {name}"))
}

/// Adds a second track (`{"id": 2, "name": "Side"}`) to mini.
fn add_side_track(d: &mut Value) {
    list_of(mini_event(d), "tracks").push(json!({"id": 2, "name": {"en": "Side"}}));
}

fn visible_slot(start: &str, end: &str) -> Value {
    json!({"room": 1, "start": start, "end": end, "is_visible": true})
}

// ===========================================================================
// Expected objects
// ===========================================================================

fn speaker_json(
    code: &str,
    name: &str,
    email: &str,
    biography: &str,
    avatar: Option<&str>,
) -> Value {
    json!({"code": code, "name": name, "biography": biography, "avatar": avatar, "email": email})
}

fn ada() -> Value {
    speaker_json("SPK1", "Ada Speaker", "ada@mini.example", "Ada's bio", None)
}

fn bob() -> Value {
    speaker_json("SPK2", "Bob Talker", "bob@mini.example", "Bob's bio", None)
}

/// A caller's view of a full organiser object: reviewers lose the
/// organiser-only fields but keep `tags`/`tag_ids`, the public loses both,
/// and only organisers see the speakers' e-mail.
fn view(full: &Value, role: Role) -> Value {
    let mut obj = full.clone();
    let map = obj.as_object_mut().expect("an object");
    if role != Organiser {
        for key in ["created", "pending_state", "notes", "internal_notes"] {
            map.remove(key);
        }
        for speaker in map["speakers"].as_array_mut().expect("speakers") {
            speaker.as_object_mut().expect("a speaker").remove("email");
        }
    }
    if role == Public {
        map.remove("tags");
        map.remove("tag_ids");
    }
    obj
}

/// The anonymised form of an object: no speakers, these texts.
fn anonymised(obj: &Value, title: &str, abstract_: &str, description: &str) -> Value {
    let mut obj = obj.clone();
    obj["speakers"] = json!([]);
    obj["title"] = json!(title);
    obj["abstract"] = json!(abstract_);
    obj["description"] = json!(description);
    obj
}

fn mini_pub1() -> Value {
    json!({
        "code": "PUB1", "speakers": [ada()], "title": "Public Talk",
        "submission_type": {"en": "Talk"}, "submission_type_id": 1,
        "track": {"en": "Main"}, "track_id": 1, "state": "confirmed",
        "abstract": "", "description": "", "duration": 30, "slot_count": 1,
        "do_not_record": false, "is_featured": false, "content_locale": "en",
        "slot": {"start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:30:00+02:00",
                 "room": {"en": "Hall"}, "room_id": 1},
        "image": null, "resources": [], "answers": [],
        "created": "2026-03-01T13:00:00+01:00", "pending_state": null, "notes": "",
        "internal_notes": "", "tags": [], "tag_ids": []
    })
}

fn mini_sub2() -> Value {
    json!({
        "code": "SUB2", "speakers": [bob()], "title": "Secret Proposal",
        "submission_type": {"en": "Talk"}, "submission_type_id": 1,
        "track": {"en": "Main"}, "track_id": 1, "state": "submitted",
        "abstract": "", "description": "", "duration": 30, "slot_count": 1,
        "do_not_record": false, "is_featured": false, "content_locale": "en",
        "slot": null, "image": null, "resources": [], "answers": [],
        "created": "2026-03-02T13:00:00+01:00", "pending_state": null, "notes": "",
        "internal_notes": "", "tags": [], "tag_ids": []
    })
}

fn mini_sub3() -> Value {
    json!({
        "code": "SUB3", "speakers": [ada(), bob()], "title": "Trackless Idea",
        "submission_type": {"en": "Talk"}, "submission_type_id": 1,
        "track": null, "track_id": null, "state": "submitted",
        "abstract": "", "description": "", "duration": 30, "slot_count": 1,
        "do_not_record": false, "is_featured": false, "content_locale": "en",
        "slot": null, "image": null, "resources": [], "answers": [],
        "created": "2026-03-03T13:00:00+01:00", "pending_state": null, "notes": "",
        "internal_notes": "", "tags": [], "tag_ids": []
    })
}

// ===========================================================================
// Request helpers and assertions
// ===========================================================================

#[track_caller]
fn assert_json(actual: &Value, expected: &Value, context: &str) {
    if actual != expected {
        panic!(
            "{context}\n--- actual\n{}\n--- expected\n{}",
            serde_json::to_string_pretty(actual).unwrap(),
            serde_json::to_string_pretty(expected).unwrap()
        );
    }
}

fn code_list(results: &[Value]) -> Vec<String> {
    results
        .iter()
        .map(|s| s["code"].as_str().expect("a code").to_string())
        .collect()
}

fn strings(codes: &[&str]) -> Vec<String> {
    codes.iter().map(|c| c.to_string()).collect()
}

/// The codes of every page of a list (following `next`).
async fn codes(client: &Client, path: &str) -> Vec<String> {
    code_list(&client.all(path).await)
}

/// Every result of every page, as JSON and with its key order.
async fn fetch_all(client: &Client, path: &str) -> Vec<(Value, Ordered)> {
    let mut url = format!("{}{path}", client.base);
    let mut out = Vec::new();
    loop {
        let reply = client.request_url("GET", &url, &[]).await;
        assert_eq!(reply.status, 200, "GET {url}: {}", reply.text);
        let ordered = Ordered::parse(&reply.text);
        let values = reply.body["results"].as_array().expect("results").clone();
        out.extend(
            values
                .into_iter()
                .zip(ordered.get("results").items().iter().cloned()),
        );
        match reply.body["next"].as_str() {
            Some(next) => url = next.to_string(),
            None => return out,
        }
    }
}

/// `{"detail": "<text>"}` with this status.
#[track_caller]
fn assert_detail(reply: &Reply, status: u16, context: &str) {
    assert_eq!(reply.status, status, "{context}: {}", reply.text);
    let map = reply
        .body
        .as_object()
        .unwrap_or_else(|| panic!("{context}: not an object: {}", reply.text));
    assert_eq!(
        map.keys().collect::<Vec<_>>(),
        ["detail"],
        "{context}: {}",
        reply.text
    );
    assert!(
        map["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{context}: {}",
        reply.text
    );
}

/// Percent-encodes a query value (so that ` 1` or `+` arrive as written).
fn enc(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

// ===========================================================================
// The `questions` datasets (nested_answers.rs and lookups.rs)
// ===========================================================================

/// base() with questions of every visibility and answers on PUB1 and SUB2
/// (listed out of id order), plus REV2, a reviewer of track 2 only (no
/// reviewer access to PUB1, which they see as a public talk).
fn qa_dataset() -> Value {
    let mut d = base();
    add_side_track(&mut d);
    users(&mut d).push(json!({"code": "REV2", "name": "Rolf Side", "email": "rev2@mini.example", "tokens": ["rev2-token"]}));
    let e = mini_event(&mut d);
    list_of(e, "teams").push(json!({"name": "Side reviewers", "members": ["REV2"], "is_reviewer": true, "limit_tracks": [2]}));
    e["questions"] = json!([
        // public, visible to reviewers; options listed out of id order
        {"id": 1, "variant": "choices", "question": {"en": "Level", "de": "Stufe"}, "question_required": "required",
         "is_public": true, "position": 2,
         "options": [{"id": 12, "answer": {"en": "Expert"}}, {"id": 11, "answer": "Beginner"}]},
        // reviewers only; required since its deadline has passed
        {"id": 2, "variant": "text", "question": "Notes for reviewers", "question_required": "after_deadline",
         "deadline": "2020-01-01T00:00:00Z", "position": 1},
        // organisers only; frozen, so not required
        {"id": 3, "question": {"en": "Internal"}, "question_required": "required",
         "freeze_after": "2020-01-01T00:00:00Z", "is_visible_to_reviewers": false},
        // inactive public question
        {"id": 4, "variant": "number", "question": {"en": "Attendees"}, "is_public": true, "active": false},
        // public but hidden from reviewers
        {"id": 5, "variant": "boolean", "question": {"en": "Record?"}, "is_public": true, "is_visible_to_reviewers": false},
        // a speaker question: its answers never nest in submissions
        {"id": 6, "target": "speaker", "question": {"en": "Handle"}, "is_public": true}
    ]);
    e["answers"] = json!([
        {"id": 105, "question": 5, "answer": "True", "submission": "PUB1"},
        {"id": 101, "question": 1, "answer": "Expert, Beginner", "submission": "PUB1", "options": [12, 11]},
        {"id": 102, "question": 2, "answer": "Be kind", "answer_file": "https://files.mini.example/a102.pdf", "submission": "PUB1"},
        {"id": 103, "question": 3, "answer": "orga only", "submission": "PUB1"},
        {"id": 104, "question": 4, "answer": "250", "submission": "PUB1"},
        {"id": 110, "question": 6, "answer": "@ada", "person": "SPK1"},
        {"id": 109, "question": 5, "answer": "False", "submission": "SUB2"},
        {"id": 106, "question": 1, "answer": "Beginner", "submission": "SUB2", "options": [11]},
        {"id": 107, "question": 2, "answer": "Shorten it", "submission": "SUB2"},
        {"id": 108, "question": 3, "answer": "orga only too", "submission": "SUB2"}
    ]);
    d
}

fn nested_question(id: i64) -> Value {
    let options =
        json!([{"id": 11, "answer": {"en": "Beginner"}}, {"id": 12, "answer": {"en": "Expert"}}]);
    match id {
        1 => {
            json!({"id": 1, "question": {"en": "Level", "de": "Stufe"}, "required": true, "target": "submission", "options": options})
        }
        2 => {
            json!({"id": 2, "question": {"en": "Notes for reviewers"}, "required": true, "target": "submission", "options": []})
        }
        3 => {
            json!({"id": 3, "question": {"en": "Internal"}, "required": false, "target": "submission", "options": []})
        }
        4 => {
            json!({"id": 4, "question": {"en": "Attendees"}, "required": false, "target": "submission", "options": []})
        }
        5 => {
            json!({"id": 5, "question": {"en": "Record?"}, "required": false, "target": "submission", "options": []})
        }
        _ => unreachable!(),
    }
}

fn qa_answer(id: i64) -> Value {
    let answer = |question: i64,
                  text: &str,
                  file: Option<&str>,
                  submission: &str,
                  options: Value| {
        json!({"id": id, "question": nested_question(question), "answer": text, "answer_file": file,
               "submission": submission, "review": null, "person": null, "options": options})
    };
    match id {
        101 => answer(
            1,
            "Expert, Beginner",
            None,
            "PUB1",
            json!([{"id": 11, "answer": {"en": "Beginner"}}, {"id": 12, "answer": {"en": "Expert"}}]),
        ),
        102 => answer(
            2,
            "Be kind",
            Some("https://files.mini.example/a102.pdf"),
            "PUB1",
            json!([]),
        ),
        103 => answer(3, "orga only", None, "PUB1", json!([])),
        104 => answer(4, "250", None, "PUB1", json!([])),
        105 => answer(5, "True", None, "PUB1", json!([])),
        106 => answer(
            1,
            "Beginner",
            None,
            "SUB2",
            json!([{"id": 11, "answer": {"en": "Beginner"}}]),
        ),
        107 => answer(2, "Shorten it", None, "SUB2", json!([])),
        108 => answer(3, "orga only too", None, "SUB2", json!([])),
        109 => answer(5, "False", None, "SUB2", json!([])),
        _ => unreachable!(),
    }
}

const SIDE_REVIEWER: Caller = Caller {
    name: "reviewer of track 2",
    token: Some("rev2-token"),
    role: Reviewer,
};

/// The answers each caller sees per submission with `questions=all`.
fn visible_answers(caller: &Caller, code: &str) -> Vec<i64> {
    match (caller.role, caller.token, code) {
        // public rule: active public questions on public talks
        (Public, _, "PUB1") => vec![101, 105],
        // the reviewer of track 2 has no reviewer access to PUB1: the public rule only
        (Reviewer, Some("rev2-token"), "PUB1") => vec![101, 105],
        // reviewer rule (active, visible to reviewers, access) or the public rule
        (Reviewer, _, "PUB1") => vec![101, 102, 105],
        (Reviewer, _, "SUB2") => vec![106, 107],
        (Organiser, _, "PUB1") => vec![101, 102, 103, 104, 105],
        (Organiser, _, "SUB2") => vec![106, 107, 108, 109],
        _ => vec![],
    }
}

// ===========================================================================
// What the contract says of a submission in a dataset document
// ===========================================================================

fn sub_of<'a>(event: &'a Value, code: &str) -> &'a Value {
    event["submissions"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["code"] == code))
        .unwrap_or_else(|| panic!("no submission {code} in {}", event["slug"]))
}

fn state_of(sub: &Value) -> &str {
    sub["state"].as_str().unwrap_or("submitted")
}

fn is_talk(event: &Value, sub: &Value) -> bool {
    !event["schedule"].is_null()
        && sub["slots"]
            .as_array()
            .is_some_and(|slots| slots.iter().any(|s| s["is_visible"] == true))
}

fn is_public_talk(event: &Value, sub: &Value) -> bool {
    event["is_public"] == true
        && event["show_schedule"] != false
        && is_talk(event, sub)
        && state_of(sub) == "confirmed"
}
