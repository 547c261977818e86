//! behaviour.md §6 "Submissions and talks" (with the parts of §1-§5 and §8
//! that concern these endpoints), over HTTP: which submissions each role
//! gets, field sets and key order, values, the anonymised view, `questions`,
//! filters (alone, combined, paginated), lookups and errors.
//!
//! Small datasets derived from `mini()` pin full JSON bodies; democon.json
//! and edge.json check the same rules on realistic data, with expectations
//! computed from the dataset documents in this file.

use crate::helpers::{self, assert_bad_parameters};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use helpers::{democon, democon_tokens as tok, edge, mini, Client, Reply, TestServer};
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

fn page_of(results: Vec<Value>) -> Value {
    json!({"count": results.len(), "next": null, "previous": null, "results": results})
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
// Which submissions: organisers all, reviewers their access plus public
// talks, the public only public talks; talks are the caller's submissions
// that are talks
// ===========================================================================

#[tokio::test]
async fn each_role_gets_its_submissions_with_full_bodies() {
    let server = TestServer::start(&[base()]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        let role = caller.role;
        let expected: Vec<Value> = match role {
            Public => vec![view(&mini_pub1(), role)],
            _ => vec![
                view(&mini_pub1(), role),
                view(&mini_sub2(), role),
                view(&mini_sub3(), role),
            ],
        };
        let list = client.ok(&format!("{EV}/submissions/")).await;
        assert_json(
            &list,
            &page_of(expected.clone()),
            &format!("{}: /submissions", caller.name),
        );
        for obj in &expected {
            let code = obj["code"].as_str().unwrap();
            let detail = client.ok(&format!("{EV}/submissions/{code}/")).await;
            assert_json(
                &detail,
                obj,
                &format!("{}: /submissions/{code}", caller.name),
            );
        }
        // Only PUB1 is a talk.
        let talks = client.ok(&format!("{EV}/talks/")).await;
        assert_json(
            &talks,
            &page_of(vec![view(&mini_pub1(), role)]),
            &format!("{}: /talks", caller.name),
        );
        let talk = client.ok(&format!("{EV}/talks/PUB1/")).await;
        assert_json(
            &talk,
            &view(&mini_pub1(), role),
            &format!("{}: /talks/PUB1", caller.name),
        );
        for code in ["SUB2", "SUB3"] {
            let reply = client.get(&format!("{EV}/talks/{code}/")).await;
            assert_detail(&reply, 404, &format!("{}: /talks/{code}", caller.name));
            let reply = client.get(&format!("{EV}/submissions/{code}/")).await;
            if role == Public {
                assert_detail(
                    &reply,
                    404,
                    &format!("{}: /submissions/{code}", caller.name),
                );
            } else {
                assert_eq!(reply.status, 200, "{}: /submissions/{code}", caller.name);
            }
        }
        let reply = client.get(&format!("{EV}/submissions/NOPE/")).await;
        assert_detail(&reply, 404, &format!("{}: unknown code", caller.name));
    }
}

#[tokio::test]
async fn talks_are_the_callers_submissions_with_a_visible_slot() {
    let mut d = base();
    add_side_track(&mut d);
    // SUB2: a talk that is not public (submitted), on a visible slot without a start.
    sub_mut(&mut d, "SUB2")["slots"] =
        json!([{"room": null, "start": null, "end": null, "is_visible": true}]);
    // SUB3: only an invisible slot, so not a talk, not even for organisers.
    sub_mut(&mut d, "SUB3")["slots"] = json!([{"room": 1, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:30:00+02:00", "is_visible": false}]);
    // A second reviewer whose only team covers the other track.
    users(&mut d).push(json!({"code": "REV2", "name": "Rolf Side", "email": "rev2@mini.example", "tokens": ["rev2-token"]}));
    list_of(mini_event(&mut d), "teams")
        .push(json!({"name": "Side reviewers", "members": ["REV2"], "is_reviewer": true, "limit_tracks": [2]}));
    let server = TestServer::start(&[d]).await;
    let side = Caller {
        name: "reviewer of another track",
        token: Some("rev2-token"),
        role: Reviewer,
    };

    for (caller, submissions, talks) in [
        (ANONYMOUS, vec!["PUB1"], vec!["PUB1"]),
        (NOBODY, vec!["PUB1"], vec!["PUB1"]),
        (HELPER, vec!["PUB1"], vec!["PUB1"]),
        (REVIEWER, vec!["PUB1", "SUB2", "SUB3"], vec!["PUB1", "SUB2"]),
        (side, vec!["PUB1"], vec!["PUB1"]),
        (
            ORGANISER,
            vec!["PUB1", "SUB2", "SUB3"],
            vec!["PUB1", "SUB2"],
        ),
        (ADMIN, vec!["PUB1", "SUB2", "SUB3"], vec!["PUB1", "SUB2"]),
    ] {
        let client = caller.client(&server);
        assert_eq!(
            codes(&client, &format!("{EV}/submissions/")).await,
            strings(&submissions),
            "{}",
            caller.name
        );
        assert_eq!(
            codes(&client, &format!("{EV}/talks/")).await,
            strings(&talks),
            "{}",
            caller.name
        );
        for code in ["PUB1", "SUB2", "SUB3"] {
            let reply = client.get(&format!("{EV}/talks/{code}")).await;
            let expected = if talks.contains(&code) { 200 } else { 404 };
            assert_eq!(
                reply.status, expected,
                "{}: /talks/{code}: {}",
                caller.name, reply.text
            );
            let reply = client.get(&format!("{EV}/submissions/{code}")).await;
            let expected = if submissions.contains(&code) {
                200
            } else {
                404
            };
            assert_eq!(
                reply.status, expected,
                "{}: /submissions/{code}: {}",
                caller.name, reply.text
            );
        }
    }
    // The talk without a start shows its slot with null times; the reviewer
    // gets the same object from /talks and /submissions.
    let reviewer = REVIEWER.client(&server);
    let talk = reviewer.ok(&format!("{EV}/talks/SUB2")).await;
    assert_json(
        &talk["slot"],
        &json!({"start": null, "end": null, "room": null, "room_id": null}),
        "slot without a start",
    );
    assert_json(
        &talk,
        &reviewer.ok(&format!("{EV}/submissions/SUB2")).await,
        "/talks and /submissions agree",
    );
}

/// Every condition of a public talk, failing one at a time (§3): the
/// public sees it only when all hold; a reviewer without access to its
/// track sees it only as a public talk; organisers always see it.
#[tokio::test]
async fn a_public_talk_needs_every_condition() {
    type Change = fn(&mut Value);
    let cases: [(&str, Change, bool, bool); 10] = [
        ("baseline", |_| {}, true, true),
        (
            "event not public",
            |d| mini_event(d)["is_public"] = json!(false),
            false,
            true,
        ),
        (
            "show_schedule off",
            |d| mini_event(d)["show_schedule"] = json!(false),
            false,
            true,
        ),
        (
            "no released schedule",
            |d| {
                mini_event(d)["schedule"] = Value::Null;
                sub_mut(d, "PUB1")["slots"] = json!([]);
            },
            false,
            false,
        ),
        (
            "invisible slot",
            |d| sub_mut(d, "PUB1")["slots"][0]["is_visible"] = json!(false),
            false,
            false,
        ),
        (
            "accepted",
            |d| sub_mut(d, "PUB1")["state"] = json!("accepted"),
            false,
            true,
        ),
        (
            "submitted",
            |d| sub_mut(d, "PUB1")["state"] = json!("submitted"),
            false,
            true,
        ),
        (
            "rejected",
            |d| sub_mut(d, "PUB1")["state"] = json!("rejected"),
            false,
            true,
        ),
        (
            "canceled",
            |d| sub_mut(d, "PUB1")["state"] = json!("canceled"),
            false,
            true,
        ),
        (
            "withdrawn",
            |d| sub_mut(d, "PUB1")["state"] = json!("withdrawn"),
            false,
            true,
        ),
    ];
    for (name, change, public, talk) in cases {
        let mut d = base();
        add_side_track(&mut d);
        // The reviewer covers only the other track: no reviewer access to PUB1.
        team_mut(&mut d, "Reviewers")["limit_tracks"] = json!([2]);
        change(&mut d);
        let event_public = d["events"][0]["is_public"] == true;
        let server = TestServer::start(&[d]).await;

        for caller in [ANONYMOUS, NOBODY, HELPER] {
            let client = caller.client(&server);
            for path in ["submissions/", "talks/", "submissions/PUB1/", "talks/PUB1/"] {
                let reply = client.get(&format!("{EV}/{path}")).await;
                let context = format!("{name}: {} {path}", caller.name);
                if !event_public {
                    assert_detail(&reply, 403, &context);
                } else if path.ends_with("PUB1/") {
                    if public {
                        assert_eq!(reply.status, 200, "{context}");
                    } else {
                        assert_detail(&reply, 404, &context);
                    }
                } else {
                    let expected: Vec<String> = if public { strings(&["PUB1"]) } else { vec![] };
                    assert_eq!(reply.status, 200, "{context}: {}", reply.text);
                    assert_eq!(
                        code_list(reply.body["results"].as_array().unwrap()),
                        expected,
                        "{context}"
                    );
                }
            }
        }
        let reviewer = REVIEWER.client(&server);
        let expected: Vec<String> = if public { strings(&["PUB1"]) } else { vec![] };
        assert_eq!(
            codes(&reviewer, &format!("{EV}/submissions/")).await,
            expected,
            "{name}: reviewer /submissions"
        );
        assert_eq!(
            codes(&reviewer, &format!("{EV}/talks/")).await,
            expected,
            "{name}: reviewer /talks"
        );
        for caller in [ORGANISER, ADMIN] {
            let client = caller.client(&server);
            assert!(
                codes(&client, &format!("{EV}/submissions/"))
                    .await
                    .contains(&"PUB1".to_string()),
                "{name}: {} /submissions",
                caller.name
            );
            let expected: Vec<String> = if talk { strings(&["PUB1"]) } else { vec![] };
            assert_eq!(
                codes(&client, &format!("{EV}/talks/")).await,
                expected,
                "{name}: {} /talks",
                caller.name
            );
        }
    }
}

/// Reviewer access (§3): assignment, `proposal_visibility`, the tracks of
/// their `is_reviewer` teams, and no active phase meaning the defaults.
#[tokio::test]
async fn reviewers_get_what_they_have_access_to_plus_public_talks() {
    type Change = fn(&mut Value);
    // PUB1: track 1, public talk. SUB2: track 1. SUB3: no track. SUB4: track 2.
    let cases: [(&str, Change, &[&str]); 13] = [
        (
            "no active phase: the defaults",
            |_| {},
            &["PUB1", "SUB2", "SUB3", "SUB4"],
        ),
        (
            "phase with proposal_visibility all",
            |d| mini_event(d)["review_phase"] = json!({"proposal_visibility": "all"}),
            &["PUB1", "SUB2", "SUB3", "SUB4"],
        ),
        (
            "team limited to track 1",
            |d| team_mut(d, "Reviewers")["limit_tracks"] = json!([1]),
            &["PUB1", "SUB2"],
        ),
        (
            "team limited to track 2",
            |d| team_mut(d, "Reviewers")["limit_tracks"] = json!([2]),
            &["PUB1", "SUB4"],
        ),
        (
            "team limited to both tracks",
            |d| team_mut(d, "Reviewers")["limit_tracks"] = json!([2, 1]),
            &["PUB1", "SUB2", "SUB4"],
        ),
        (
            "limited to track 2, assigned a trackless one",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                sub_mut(d, "SUB3")["assigned_reviewers"] = json!(["REV"]);
            },
            &["PUB1", "SUB3", "SUB4"],
        ),
        (
            "proposal_visibility assigned, nothing assigned",
            |d| mini_event(d)["review_phase"] = json!({"proposal_visibility": "assigned"}),
            &["PUB1"],
        ),
        (
            "proposal_visibility assigned, one assigned",
            |d| {
                mini_event(d)["review_phase"] = json!({"proposal_visibility": "assigned"});
                sub_mut(d, "SUB2")["assigned_reviewers"] = json!(["REV", "ORGA"]);
            },
            &["PUB1", "SUB2"],
        ),
        (
            "proposal_visibility assigned, the public talk not public",
            |d| {
                mini_event(d)["review_phase"] = json!({"proposal_visibility": "assigned"});
                sub_mut(d, "PUB1")["state"] = json!("accepted");
            },
            &[],
        ),
        (
            "two reviewer teams: track 2 and track 1",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                list_of(mini_event(d), "teams")
                    .push(json!({"name": "Main reviewers", "members": ["REV"], "is_reviewer": true, "limit_tracks": [1]}));
            },
            &["PUB1", "SUB2", "SUB4"],
        ),
        (
            "two reviewer teams: track 2 and unlimited",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                list_of(mini_event(d), "teams").push(
                    json!({"name": "All reviewers", "members": ["REV"], "is_reviewer": true}),
                );
            },
            &["PUB1", "SUB2", "SUB3", "SUB4"],
        ),
        (
            "a team without is_reviewer covers nothing",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                team_mut(d, "Helpers")["members"] = json!(["HELPER", "REV"]);
            },
            &["PUB1", "SUB4"],
        ),
        (
            "assigned another reviewer's submission does not count",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                sub_mut(d, "SUB2")["assigned_reviewers"] = json!(["NOBODY"]);
            },
            &["PUB1", "SUB4"],
        ),
    ];
    for (name, change, expected) in cases {
        let mut d = base();
        add_side_track(&mut d);
        list_of(mini_event(&mut d), "submissions").push(json!({
            "code": "SUB4", "title": "Side Proposal", "speakers": ["SPK2"], "submission_type": 1,
            "track": 2, "created": "2026-03-04T12:00:00Z"}));
        change(&mut d);
        let server = TestServer::start(&[d]).await;
        let reviewer = REVIEWER.client(&server);
        assert_eq!(
            codes(&reviewer, &format!("{EV}/submissions/")).await,
            strings(expected),
            "{name}"
        );
        let talks: Vec<&str> = expected.iter().copied().filter(|c| *c == "PUB1").collect();
        assert_eq!(
            codes(&reviewer, &format!("{EV}/talks/")).await,
            strings(&talks),
            "{name}: talks"
        );
        for code in ["PUB1", "SUB2", "SUB3", "SUB4"] {
            let reply = reviewer.get(&format!("{EV}/submissions/{code}")).await;
            if expected.contains(&code) {
                assert_eq!(reply.status, 200, "{name}: {code}");
                assert_submission_keys(
                    &Ordered::parse(&reply.text),
                    Reviewer,
                    &format!("{name}: {code}"),
                );
            } else {
                assert_detail(&reply, 404, &format!("{name}: {code}"));
            }
        }
        // Organisers are never limited.
        assert_eq!(
            codes(&ORGANISER.client(&server), &format!("{EV}/submissions/")).await,
            strings(&["PUB1", "SUB2", "SUB3", "SUB4"]),
            "{name}: organiser"
        );
    }
}

#[tokio::test]
async fn organiser_teams_win_over_reviewer_teams() {
    let mut d = base();
    // A team with both rights, and the organiser also in a reviewer team that hides names.
    team_mut(&mut d, "Reviewers")["members"] = json!(["REV", "ORGA"]);
    team_mut(&mut d, "Reviewers")["force_hide_speaker_names"] = json!(true);
    team_mut(&mut d, "Reviewers")["limit_tracks"] = json!([1]);
    users(&mut d).push(json!({"code": "BOTH", "name": "Bo Both", "email": "both@mini.example", "tokens": ["both-token"]}));
    list_of(mini_event(&mut d), "teams").push(json!({"name": "Both", "members": ["BOTH"],
        "can_change_submissions": true, "is_reviewer": true, "limit_tracks": [1]}));
    let server = TestServer::start(&[d]).await;
    for token in ["orga-token", "both-token"] {
        let list = server.token(token).ok(&format!("{EV}/submissions/")).await;
        assert_json(
            &list,
            &page_of(vec![mini_pub1(), mini_sub2(), mini_sub3()]),
            &format!("{token}: an organiser sees everything, named, with organiser fields"),
        );
    }
}

// ===========================================================================
// Field sets and key order per role
// ===========================================================================

#[tokio::test]
async fn field_sets_and_key_order_per_role() {
    let mut d = base();
    sub_mut(&mut d, "SUB2")["tags"] = json!([1]);
    sub_mut(&mut d, "SUB2")["resources"] =
        json!([{"resource": "https://files.mini.example/s.pdf", "description": "S"}]);
    list_of(mini_event(&mut d), "questions")
        .push(json!({"id": 1, "question": {"en": "Level"}, "is_public": true}));
    list_of(mini_event(&mut d), "answers").extend([
        json!({"id": 1, "question": 1, "answer": "High", "submission": "PUB1"}),
        json!({"id": 2, "question": 1, "answer": "Low", "submission": "SUB2"}),
    ]);
    let server = TestServer::start(&[d]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        for query in ["", "?questions=all", "?anon=1", "?questions=all&anon=yes"] {
            for path in ["submissions/", "talks"] {
                let reply = client.get(&format!("{EV}/{path}{query}")).await;
                assert_eq!(reply.status, 200, "{}", reply.text);
                let page = Ordered::parse(&reply.text);
                assert_eq!(page.keys(), ["count", "next", "previous", "results"]);
                for obj in page.get("results").items() {
                    assert_submission_keys(
                        obj,
                        caller.role,
                        &format!("{} {path}{query}", caller.name),
                    );
                }
            }
            let mut details = vec!["submissions/PUB1", "talks/PUB1/"];
            if caller.role != Public {
                details.push("submissions/SUB2/");
            }
            for path in details {
                let reply = client.get(&format!("{EV}/{path}{query}")).await;
                assert_eq!(reply.status, 200, "{}", reply.text);
                assert_submission_keys(
                    &Ordered::parse(&reply.text),
                    caller.role,
                    &format!("{} {path}{query}", caller.name),
                );
            }
        }
        // The nested answers really are there with questions=all (so their keys were checked).
        let pub1 = client
            .ok(&format!("{EV}/submissions/PUB1?questions=all"))
            .await;
        assert_eq!(
            pub1["answers"].as_array().unwrap().len(),
            1,
            "{}",
            caller.name
        );
    }
    // One organiser object, character for character in its key order.
    let reply = ORGANISER
        .client(&server)
        .get(&format!("{EV}/submissions/SUB2"))
        .await;
    let keys = Ordered::parse(&reply.text).keys().join(",");
    assert_eq!(
        keys,
        "code,speakers,title,submission_type,submission_type_id,track,track_id,state,abstract,\
         description,duration,slot_count,do_not_record,is_featured,content_locale,slot,image,\
         resources,answers,created,pending_state,notes,internal_notes,tags,tag_ids"
    );
}

#[tokio::test]
async fn a_reviewer_never_receives_organiser_fields() {
    // Even with organiser data present (notes, pending state) and in the anonymised view.
    let mut d = base();
    mini_event(&mut d)["review_phase"] = json!({"can_see_speaker_names": false});
    for code in ["PUB1", "SUB2", "SUB3"] {
        let s = sub_mut(&mut d, code);
        s["notes"] = json!("speaker note");
        s["internal_notes"] = json!("internal");
        s["pending_state"] = json!("accepted");
        s["tags"] = json!([1]);
    }
    let server = TestServer::start(&[d]).await;
    let reviewer = REVIEWER.client(&server);
    for path in ["submissions/", "submissions/SUB2", "talks/", "talks/PUB1"] {
        let reply = reviewer.get(&format!("{EV}/{path}")).await;
        for word in [
            "created",
            "pending_state",
            "notes",
            "internal_notes",
            "email",
            "speaker note",
            "internal",
        ] {
            assert!(
                !reply.text.contains(&format!("\"{word}")),
                "{path}: {word} in {}",
                reply.text
            );
        }
        assert!(
            reply.text.contains("\"tag_ids\":[1]"),
            "{path}: {}",
            reply.text
        );
        assert!(
            reply.text.contains("\"tags\":[\"hot.topic\"]"),
            "{path}: {}",
            reply.text
        );
    }
    // The public gets neither tags nor organiser fields.
    let reply = ANONYMOUS
        .client(&server)
        .get(&format!("{EV}/submissions/PUB1"))
        .await;
    for word in [
        "tags",
        "tag_ids",
        "created",
        "notes",
        "email",
        "pending_state",
    ] {
        assert!(
            !reply.text.contains(&format!("\"{word}\"")),
            "{word} in {}",
            reply.text
        );
    }
}

// ===========================================================================
// Values
// ===========================================================================

/// Multi-lingual objects (also from plain strings), duration fallbacks, the
/// slot rule, resources, image, tags, speakers in dataset order with this
/// event's biography, datetimes in the event's time zone.
fn values_dataset() -> Value {
    let mut d = base();
    users(&mut d)[3]["avatar"] = json!("https://img.mini.example/ada.png");
    let e = mini_event(&mut d);
    e["submission_types"] = json!([
        {"id": 1, "name": {"en": "Talk", "de": "Vortrag"}, "default_duration": 40},
        {"id": 2, "name": "Workshop", "default_duration": 90},
        {"id": 3, "name": {"en": "Panel"}}
    ]);
    e["tracks"] =
        json!([{"id": 1, "name": {"en": "Main", "de": "Haupt"}}, {"id": 2, "name": "Side"}]);
    e["rooms"] =
        json!([{"id": 1, "name": {"en": "Hall", "de": "Halle"}}, {"id": 2, "name": "Annex"}]);
    e["tags"] = json!([{"id": 1, "tag": "hot.topic"}, {"id": 2, "tag": "Alpha"}]);
    e["submissions"] = json!([
        {"code": "PUB1", "title": "Public Talk", "speakers": ["SPK2", "SPK1"], "submission_type": 1,
         "track": 1, "state": "confirmed", "abstract": "Short.", "description": "Long.",
         "notes": "Speaker note", "internal_notes": "Orga note", "slot_count": 2,
         "do_not_record": true, "is_featured": true, "content_locale": "de",
         "image": "https://img.mini.example/pub1.png", "created": "2026-05-01T10:00:00Z", "tags": [2, 1],
         "resources": [{"resource": "https://files.mini.example/slides.pdf", "description": "Slides"},
                       {"resource": "https://files.mini.example/code.zip"}],
         // listed: a later slot, the earliest (no end: start + the type default 40), one without a start
         "slots": [{"room": 2, "start": "2026-06-02T09:00:00+02:00", "end": "2026-06-02T09:45:00+02:00", "is_visible": true},
                   {"room": 1, "start": "2026-06-01T08:00:00Z", "end": null, "is_visible": true},
                   {"room": 1, "start": null, "end": null, "is_visible": true}]},
        {"code": "SUB2", "title": "Workshop Without Start", "speakers": ["SPK2"], "submission_type": 2,
         "track": 2, "state": "confirmed", "duration": 45, "pending_state": "withdrawn",
         "created": "2026-01-15T08:30:00.5Z",
         // the public sees only the visible one, without a start; organisers the earlier invisible one
         "slots": [{"room": null, "start": null, "end": null, "is_visible": true},
                   {"room": 1, "start": "2026-06-01T07:00:00Z", "end": null, "is_visible": false}]},
        {"code": "SUB3", "title": "Panel", "speakers": ["SPK1"], "submission_type": 3,
         "state": "confirmed", "created": "2026-03-03T12:00:00.000001Z",
         "slots": [{"room": 2, "start": "2026-06-01T12:00:00.25+02:00", "end": null, "is_visible": true}]}
    ]);
    // The same speaker in another event, with another biography.
    d["events"].as_array_mut().unwrap().push(json!({
        "slug": "elsewhere", "name": "Elsewhere", "is_public": true, "date_from": "2026-07-01",
        "schedule": {"version": "1", "published": "2026-06-01T00:00:00Z"},
        "submission_types": [{"id": 9, "name": "Talk"}],
        "speakers": [{"user": "SPK1", "biography": "Ada elsewhere"}],
        "submissions": [{"code": "ELS1", "title": "Elsewhere", "speakers": ["SPK1"], "submission_type": 9,
                         "state": "confirmed", "created": "2026-06-01T00:00:00Z",
                         "slots": [{"start": "2026-07-01T09:00:00+02:00", "is_visible": true}]}]
    }));
    d
}

fn ada_with_avatar() -> Value {
    speaker_json(
        "SPK1",
        "Ada Speaker",
        "ada@mini.example",
        "Ada's bio",
        Some("https://img.mini.example/ada.png"),
    )
}

fn values_pub1() -> Value {
    json!({
        "code": "PUB1", "speakers": [bob(), ada_with_avatar()], "title": "Public Talk",
        "submission_type": {"en": "Talk", "de": "Vortrag"}, "submission_type_id": 1,
        "track": {"en": "Main", "de": "Haupt"}, "track_id": 1, "state": "confirmed",
        "abstract": "Short.", "description": "Long.", "duration": 40, "slot_count": 2,
        "do_not_record": true, "is_featured": true, "content_locale": "de",
        "slot": {"start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:40:00+02:00",
                 "room": {"en": "Hall", "de": "Halle"}, "room_id": 1},
        "image": "https://img.mini.example/pub1.png",
        "resources": [{"resource": "https://files.mini.example/slides.pdf", "description": "Slides"},
                      {"resource": "https://files.mini.example/code.zip", "description": ""}],
        "answers": [],
        "created": "2026-05-01T12:00:00+02:00", "pending_state": null, "notes": "Speaker note",
        "internal_notes": "Orga note", "tags": ["hot.topic", "Alpha"], "tag_ids": [1, 2]
    })
}

fn values_sub2(role: Role) -> Value {
    let slot = if role == Organiser {
        json!({"start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T09:45:00+02:00",
               "room": {"en": "Hall", "de": "Halle"}, "room_id": 1})
    } else {
        json!({"start": null, "end": null, "room": null, "room_id": null})
    };
    view(
        &json!({
            "code": "SUB2", "speakers": [bob()], "title": "Workshop Without Start",
            "submission_type": {"en": "Workshop"}, "submission_type_id": 2,
            "track": {"en": "Side"}, "track_id": 2, "state": "confirmed",
            "abstract": "", "description": "", "duration": 45, "slot_count": 1,
            "do_not_record": false, "is_featured": false, "content_locale": "en",
            "slot": slot, "image": null, "resources": [], "answers": [],
            "created": "2026-01-15T09:30:00.500000+01:00", "pending_state": "withdrawn", "notes": "",
            "internal_notes": "", "tags": [], "tag_ids": []
        }),
        role,
    )
}

fn values_sub3() -> Value {
    json!({
        "code": "SUB3", "speakers": [ada_with_avatar()], "title": "Panel",
        "submission_type": {"en": "Panel"}, "submission_type_id": 3,
        "track": null, "track_id": null, "state": "confirmed",
        "abstract": "", "description": "", "duration": 30, "slot_count": 1,
        "do_not_record": false, "is_featured": false, "content_locale": "en",
        "slot": {"start": "2026-06-01T12:00:00.250000+02:00", "end": "2026-06-01T12:30:00.250000+02:00",
                 "room": {"en": "Annex"}, "room_id": 2},
        "image": null, "resources": [], "answers": [],
        "created": "2026-03-03T13:00:00.000001+01:00", "pending_state": null, "notes": "",
        "internal_notes": "", "tags": [], "tag_ids": []
    })
}

#[tokio::test]
async fn values_for_every_role_on_submissions_and_talks() {
    let server = TestServer::start(&[values_dataset()]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        let role = caller.role;
        let expected = vec![
            view(&values_pub1(), role),
            values_sub2(role),
            view(&values_sub3(), role),
        ];
        for resource in ["submissions", "talks"] {
            let list = client.ok(&format!("{EV}/{resource}/")).await;
            assert_json(
                &list,
                &page_of(expected.clone()),
                &format!("{}: /{resource}", caller.name),
            );
            for obj in &expected {
                let code = obj["code"].as_str().unwrap();
                let detail = client.ok(&format!("{EV}/{resource}/{code}")).await;
                assert_json(
                    &detail,
                    obj,
                    &format!("{}: /{resource}/{code}", caller.name),
                );
            }
        }
    }
    // The speaker's biography is the one of the event asked about.
    let talk = server.anon().ok("/api/events/elsewhere/talks/ELS1").await;
    assert_json(
        &talk["speakers"],
        &json!([{"code": "SPK1", "name": "Ada Speaker", "biography": "Ada elsewhere",
                 "avatar": "https://img.mini.example/ada.png"}]),
        "biography of the other event",
    );
    assert_json(
        &talk["submission_type"],
        &json!({"en": "Talk"}),
        "plain-string type name",
    );
    assert_json(
        &talk["slot"],
        &json!({"start": "2026-07-01T07:00:00Z", "end": "2026-07-01T07:30:00Z", "room": null, "room_id": null}),
        "UTC event: Z, end from the type's default duration",
    );
}

#[tokio::test]
async fn datetimes_are_shown_in_the_event_time_zone() {
    let mut d = base();
    let other = |slug: &str,
                 n: i64,
                 timezone: Option<&str>,
                 created: &str,
                 start: &str,
                 end: Value| {
        let mut event = json!({
            "slug": slug, "name": {"en": slug}, "is_public": true, "date_from": "2026-07-01",
            "schedule": {"version": "1", "published": "2026-06-01T00:00:00Z"},
            "teams": [{"name": "Orga", "members": ["ORGA"], "can_change_submissions": true}],
            "submission_types": [{"id": n, "name": {"en": "Talk"}, "default_duration": 30}],
            "rooms": [{"id": n, "name": {"en": "Room"}}],
            "speakers": [{"user": "SPK1"}],
            "submissions": [{"code": format!("T{n}"), "title": "Timed", "speakers": ["SPK1"],
                             "submission_type": n, "state": "confirmed", "created": created,
                             "slots": [{"room": n, "start": start, "end": end, "is_visible": true}]}]
        });
        if let Some(tz) = timezone {
            event["timezone"] = json!(tz);
        }
        event
    };
    let events = d["events"].as_array_mut().unwrap();
    // No time zone: UTC, shown with Z; fractional seconds only when non-zero.
    events.push(other(
        "utc-conf",
        11,
        None,
        "2026-07-01T12:00:00+02:00",
        "2026-07-02T09:00:00.123456+02:00",
        Value::Null,
    ));
    // Half-hour offsets, winter and summer.
    events.push(other(
        "nl-conf",
        12,
        Some("America/St_Johns"),
        "2026-01-10T12:00:00Z",
        "2026-07-01T12:00:00Z",
        json!("2026-07-01T12:45:00.000001Z"),
    ));
    let server = TestServer::start(&[d]).await;
    let orga = ORGANISER.client(&server);
    for (path, created, slot) in [
        (
            "/api/events/utc-conf/talks/T11",
            "2026-07-01T10:00:00Z",
            json!({"start": "2026-07-02T07:00:00.123456Z", "end": "2026-07-02T07:30:00.123456Z",
                   "room": {"en": "Room"}, "room_id": 11}),
        ),
        (
            "/api/events/nl-conf/talks/T12",
            "2026-01-10T08:30:00-03:30",
            json!({"start": "2026-07-01T09:30:00-02:30", "end": "2026-07-01T10:15:00.000001-02:30",
                   "room": {"en": "Room"}, "room_id": 12}),
        ),
        (
            // Berlin: created in winter (+01:00), slot in summer (+02:00).
            "/api/events/mini/talks/PUB1",
            "2026-03-01T13:00:00+01:00",
            json!({"start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:30:00+02:00",
                   "room": {"en": "Hall"}, "room_id": 1}),
        ),
    ] {
        let obj = orga.ok(path).await;
        assert_eq!(obj["created"], created, "{path}");
        assert_json(&obj["slot"], &slot, path);
        assert_json(
            &server.anon().ok(path).await["slot"],
            &slot,
            &format!("{path} (public)"),
        );
    }
}

#[tokio::test]
async fn slot_choice_earliest_visible_start_first_and_organisers_see_invisible_ones() {
    let mut d = base();
    // Equal starts keep dataset order (an open point: conformance README [A16]);
    // an invisible earlier slot only for organisers.
    sub_mut(&mut d, "PUB1")["slots"] = json!([
        {"room": 1, "start": "2026-06-01T15:00:00+02:00", "end": "2026-06-01T15:30:00+02:00", "is_visible": true},
        {"room": null, "start": null, "end": null, "is_visible": true},
        {"room": 1, "start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T09:20:00+02:00", "is_visible": false},
        {"room": null, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:10:00+02:00", "is_visible": true},
        {"room": 1, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:50:00+02:00", "is_visible": true}
    ]);
    // Only slots without a start: still a talk; the slot has no times.
    sub_mut(&mut d, "SUB2")["state"] = json!("confirmed");
    sub_mut(&mut d, "SUB2")["slots"] =
        json!([{"room": 1, "start": null, "end": null, "is_visible": true}]);
    // Only an invisible slot: organisers see it, nobody else does.
    sub_mut(&mut d, "SUB3")["slots"] = json!([
        {"room": 1, "start": "2026-06-02T10:00:00+02:00", "end": null, "is_visible": false}]);
    let server = TestServer::start(&[d]).await;
    let visible = json!({"start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:10:00+02:00", "room": null, "room_id": null});
    let invisible = json!({"start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T09:20:00+02:00", "room": {"en": "Hall"}, "room_id": 1});
    let no_start = json!({"start": null, "end": null, "room": {"en": "Hall"}, "room_id": 1});
    let hidden = json!({"start": "2026-06-02T10:00:00+02:00", "end": "2026-06-02T10:30:00+02:00", "room": {"en": "Hall"}, "room_id": 1});
    for caller in CALLERS {
        let client = caller.client(&server);
        let orga = caller.role == Organiser;
        for resource in ["submissions", "talks"] {
            let pub1 = client.ok(&format!("{EV}/{resource}/PUB1")).await;
            assert_json(
                &pub1["slot"],
                if orga { &invisible } else { &visible },
                &format!("{}: PUB1", caller.name),
            );
            let sub2 = client.ok(&format!("{EV}/{resource}/SUB2")).await;
            assert_json(&sub2["slot"], &no_start, &format!("{}: SUB2", caller.name));
        }
        let sub3 = client.get(&format!("{EV}/submissions/SUB3")).await;
        match caller.role {
            Organiser => assert_json(&sub3.body["slot"], &hidden, "organiser: SUB3"),
            Reviewer => assert_json(&sub3.body["slot"], &Value::Null, "reviewer: SUB3"),
            Public => assert_eq!(sub3.status, 404),
        }
        assert_eq!(
            client.get(&format!("{EV}/talks/SUB3")).await.status,
            404,
            "{}",
            caller.name
        );
    }
}

// ===========================================================================
// The anonymised view
// ===========================================================================

/// base() with anonymised texts: SUB2 has an anonymised title and
/// description (its anonymised abstract is empty: the real one stays); SUB3
/// an empty anonymised title and an anonymised abstract; PUB1,
/// a public talk, has an anonymised title that must never be used; SUB4 is
/// a talk that is not public.
fn anon_dataset() -> Value {
    let mut d = base();
    let s = sub_mut(&mut d, "SUB2");
    s["abstract"] = json!("Real abstract");
    s["description"] = json!("Real description by Bob");
    s["anonymised"] = json!({"title": "Anonymous Proposal", "abstract": "", "description": "Redacted description"});
    sub_mut(&mut d, "PUB1")["anonymised"] = json!({"title": "Hidden public title"});
    // An empty anonymised title: the real one is shown.
    sub_mut(&mut d, "SUB3")["anonymised"] = json!({"title": "", "abstract": "Anonymous abstract"});
    list_of(mini_event(&mut d), "submissions").push(json!({
        "code": "SUB4", "title": "Accepted Talk", "speakers": ["SPK1"], "submission_type": 1, "track": 1,
        "state": "accepted", "created": "2026-03-04T12:00:00Z", "anonymised": {"title": "Anonymous Talk"},
        "slots": [visible_slot("2026-06-01T11:00:00+02:00", "2026-06-01T11:30:00+02:00")]}));
    d
}

fn anon_sub2() -> Value {
    let mut obj = mini_sub2();
    obj["abstract"] = json!("Real abstract");
    obj["description"] = json!("Real description by Bob");
    obj
}

fn anon_sub4() -> Value {
    json!({
        "code": "SUB4", "speakers": [ada()], "title": "Accepted Talk",
        "submission_type": {"en": "Talk"}, "submission_type_id": 1,
        "track": {"en": "Main"}, "track_id": 1, "state": "accepted",
        "abstract": "", "description": "", "duration": 30, "slot_count": 1,
        "do_not_record": false, "is_featured": false, "content_locale": "en",
        "slot": {"start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:30:00+02:00",
                 "room": {"en": "Hall"}, "room_id": 1},
        "image": null, "resources": [], "answers": [],
        "created": "2026-03-04T13:00:00+01:00", "pending_state": null, "notes": "",
        "internal_notes": "", "tags": [], "tag_ids": []
    })
}

/// The four submissions of anon_dataset() as shown anonymised to `role`.
fn anonymised_view(role: Role) -> Vec<Value> {
    vec![
        view(&mini_pub1(), role),
        anonymised(
            &view(&anon_sub2(), role),
            "Anonymous Proposal",
            "Real abstract",
            "Redacted description",
        ),
        anonymised(
            &view(&mini_sub3(), role),
            "Trackless Idea",
            "Anonymous abstract",
            "",
        ),
        anonymised(&view(&anon_sub4(), role), "Anonymous Talk", "", ""),
    ]
}

#[tokio::test]
async fn a_reviewer_without_speaker_names_gets_the_anonymised_view() {
    let mut d = anon_dataset();
    mini_event(&mut d)["review_phase"] = json!({"can_see_speaker_names": false});
    let server = TestServer::start(&[d]).await;
    let reviewer = REVIEWER.client(&server);
    let expected = anonymised_view(Reviewer);
    assert_json(
        &reviewer.ok(&format!("{EV}/submissions/")).await,
        &page_of(expected.clone()),
        "reviewer list",
    );
    for obj in &expected {
        let code = obj["code"].as_str().unwrap();
        assert_json(
            &reviewer.ok(&format!("{EV}/submissions/{code}")).await,
            obj,
            code,
        );
    }
    assert_json(
        &reviewer.ok(&format!("{EV}/talks/")).await,
        &page_of(vec![expected[0].clone(), expected[3].clone()]),
        "reviewer talks",
    );
    assert_json(
        &reviewer.ok(&format!("{EV}/talks/SUB4")).await,
        &expected[3],
        "reviewer talk detail",
    );
    // Organisers and the public are not affected by the phase.
    let orga = ORGANISER
        .client(&server)
        .ok(&format!("{EV}/submissions/"))
        .await;
    assert_json(
        &orga,
        &page_of(vec![mini_pub1(), anon_sub2(), mini_sub3(), anon_sub4()]),
        "organiser",
    );
    let public = NOBODY
        .client(&server)
        .ok(&format!("{EV}/submissions/"))
        .await;
    assert_json(
        &public,
        &page_of(vec![view(&mini_pub1(), Public)]),
        "public",
    );
}

/// `names` is false only when every one of the reviewer's `is_reviewer`
/// teams hides names (or the phase does).
#[tokio::test]
async fn force_hide_speaker_names_hides_only_when_every_reviewer_team_hides() {
    type Change = fn(&mut Value);
    let cases: [(&str, Change, bool); 8] = [
        ("no team hides", |_| {}, true),
        (
            "the only team hides",
            |d| team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true),
            false,
        ),
        (
            "one team hides, another does not",
            |d| {
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
                list_of(mini_event(d), "teams")
                    .push(json!({"name": "Second", "members": ["REV"], "is_reviewer": true}));
            },
            true,
        ),
        (
            "the first team does not hide, the second does",
            |d| {
                list_of(mini_event(d), "teams").push(json!({"name": "Second", "members": ["REV"],
                    "is_reviewer": true, "force_hide_speaker_names": true}));
            },
            true,
        ),
        (
            "both teams hide",
            |d| {
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
                list_of(mini_event(d), "teams").push(json!({"name": "Second", "members": ["REV"],
                    "is_reviewer": true, "force_hide_speaker_names": true}));
            },
            false,
        ),
        (
            "a team without is_reviewer does not count",
            |d| {
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
                team_mut(d, "Helpers")["members"] = json!(["HELPER", "REV"]);
            },
            false,
        ),
        (
            "the phase hides",
            |d| mini_event(d)["review_phase"] = json!({"can_see_speaker_names": false}),
            false,
        ),
        (
            "the phase shows, the team hides",
            |d| {
                mini_event(d)["review_phase"] = json!({"can_see_speaker_names": true});
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
            },
            false,
        ),
    ];
    for (name, change, names) in cases {
        let mut d = anon_dataset();
        change(&mut d);
        let server = TestServer::start(&[d]).await;
        let reviewer = REVIEWER.client(&server);
        let expected = if names {
            vec![
                view(&mini_pub1(), Reviewer),
                view(&anon_sub2(), Reviewer),
                view(&mini_sub3(), Reviewer),
                view(&anon_sub4(), Reviewer),
            ]
        } else {
            anonymised_view(Reviewer)
        };
        assert_json(
            &reviewer.ok(&format!("{EV}/submissions/")).await,
            &page_of(expected),
            name,
        );
    }
}

#[tokio::test]
async fn anon_parameter_anonymises_for_every_role_but_never_public_talks() {
    let server = TestServer::start(&[anon_dataset()]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        let role = caller.role;
        let named = match role {
            Public => vec![view(&mini_pub1(), role)],
            _ => vec![
                view(&mini_pub1(), role),
                view(&anon_sub2(), role),
                view(&mini_sub3(), role),
                view(&anon_sub4(), role),
            ],
        };
        let hidden = match role {
            Public => vec![view(&mini_pub1(), role)],
            _ => anonymised_view(role),
        };
        // Any non-empty value anonymises; an empty one counts as absent; the last value counts.
        for (query, anon) in [
            ("", false),
            ("?anon=", false),
            ("?anon=1&anon=", false),
            ("?anon=1", true),
            ("?anon=false", true),
            ("?anon=0", true),
            ("?anon=&anon=yes", true),
        ] {
            let expected = if anon { &hidden } else { &named };
            let list = client.ok(&format!("{EV}/submissions/{query}")).await;
            assert_json(
                &list,
                &page_of(expected.clone()),
                &format!("{}: {query}", caller.name),
            );
            for obj in expected {
                let code = obj["code"].as_str().unwrap();
                let detail = client.ok(&format!("{EV}/submissions/{code}{query}")).await;
                assert_json(
                    &detail,
                    obj,
                    &format!("{}: /submissions/{code}{query}", caller.name),
                );
            }
            // /talks and /talks/{code} too (§8).
            let talks: Vec<Value> = expected
                .iter()
                .filter(|o| ["PUB1", "SUB4"].contains(&o["code"].as_str().unwrap()))
                .cloned()
                .collect();
            assert_json(
                &client.ok(&format!("{EV}/talks{query}")).await,
                &page_of(talks.clone()),
                &format!("{}: talks {query}", caller.name),
            );
            for obj in &talks {
                let code = obj["code"].as_str().unwrap();
                assert_json(
                    &client.ok(&format!("{EV}/talks/{code}/{query}")).await,
                    obj,
                    &format!("{}: /talks/{code}{query}", caller.name),
                );
            }
        }
    }
}

/// `q` in the anonymised view matches the shown title and never a speaker's name (§6, §8).
#[tokio::test]
async fn search_in_the_anonymised_view_uses_the_shown_title_and_no_names() {
    let server = TestServer::start(&[anon_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("q=bob", vec!["SUB2", "SUB3"]),
        ("q=bob&anon=1", vec![]),
        ("q=ada&anon=1", vec!["PUB1"]), // the public talk keeps its speakers
        ("q=secret", vec!["SUB2"]),
        ("q=secret&anon=1", vec![]), // the real title is not shown
        ("q=anonymous", vec![]),
        ("q=anonymous&anon=1", vec!["SUB2", "SUB4"]),
        ("q=hidden&anon=1", vec![]), // a public talk never shows its anonymised title
        ("q=trackless&anon=1", vec!["SUB3"]), // empty anonymised title: the real one is shown
        ("q=public%20talk&anon=1", vec!["PUB1"]),
    ] {
        assert_eq!(
            codes(&orga, &format!("{EV}/submissions?{query}")).await,
            strings(&expected),
            "{query}"
        );
    }
    let mut d = anon_dataset();
    mini_event(&mut d)["review_phase"] = json!({"can_see_speaker_names": false});
    let server = TestServer::start(&[d]).await;
    let reviewer = REVIEWER.client(&server);
    for (query, expected) in [
        ("q=bob", vec![]),
        ("q=ada", vec!["PUB1"]),
        ("q=talker", vec![]),
        ("q=proposal", vec!["SUB2"]),
        ("q=secret", vec![]),
        ("q=idea", vec!["SUB3"]),
    ] {
        assert_eq!(
            codes(&reviewer, &format!("{EV}/submissions?{query}")).await,
            strings(&expected),
            "reviewer {query}"
        );
    }
}

// ---------------------------------------------------------------------------
// Property: an anonymised submission never reveals its speakers
// ---------------------------------------------------------------------------

/// The clear token of edge.json's `hashonly` user (make_edge.py `HASHONLY_TOKEN`).
const EDGE_HASHONLY_TOKEN: &str = "d079b0a24a225e93bd92d5cb44651dab7fefce88";

#[tokio::test]
async fn anonymised_submissions_never_reveal_their_speakers() {
    let mut checked = 0usize;
    for (name, doc, extra_tokens) in [
        ("democon", democon(), vec![]),
        ("edge", edge(), vec![EDGE_HASHONLY_TOKEN]),
    ] {
        let server = TestServer::start(std::slice::from_ref(&doc)).await;
        let admin = doc["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["is_administrator"] == true && u["tokens"][0].is_string())
            .map(|u| u["tokens"][0].as_str().unwrap().to_string())
            .expect("an administrator with a token");
        let mut callers: Vec<Option<String>> = vec![None];
        for user in doc["users"].as_array().unwrap() {
            if let Some(token) = user["tokens"][0].as_str() {
                callers.push(Some(token.to_string()));
            }
        }
        callers.extend(extra_tokens.iter().map(|t| Some(t.to_string())));
        assert_eq!(
            server
                .token(EDGE_HASHONLY_TOKEN)
                .get("/api/me")
                .await
                .status,
            if name == "edge" { 200 } else { 401 }
        );
        for event in doc["events"].as_array().unwrap() {
            let slug = event["slug"].as_str().unwrap();
            // Who speaks in what, as the organiser sees it.
            let orga = server
                .token(&admin)
                .all(&format!("/api/events/{slug}/submissions/?limit=1000"))
                .await;
            let speakers: BTreeMap<String, Vec<Value>> = orga
                .iter()
                .map(|s| {
                    (
                        s["code"].as_str().unwrap().to_string(),
                        s["speakers"].as_array().unwrap().clone(),
                    )
                })
                .collect();
            assert_eq!(
                speakers.len(),
                event["submissions"].as_array().unwrap().len(),
                "{slug}"
            );
            for caller in &callers {
                let client = match caller {
                    Some(token) => server.token(token),
                    None => server.anon(),
                };
                for anon in ["", "&anon=1"] {
                    for resource in ["submissions", "talks"] {
                        let path = format!("/api/events/{slug}/{resource}/?questions=all{anon}");
                        let first = client.get(&path).await;
                        if first.status == 403 {
                            assert_ne!(event["is_public"], true, "{name} {path}");
                            continue;
                        }
                        for (obj, _) in fetch_all(&client, &path).await {
                            let code = obj["code"].as_str().unwrap();
                            let real = &speakers[code];
                            let shown = obj["speakers"].as_array().unwrap();
                            let context = format!("{name} {caller:?} {path} {code}");
                            if !anon.is_empty() && !is_public_talk(event, sub_of(event, code)) {
                                assert!(shown.is_empty(), "{context}: anon must hide the speakers");
                            }
                            if !shown.is_empty() || real.is_empty() {
                                continue;
                            }
                            checked += 1;
                            let text = obj.to_string();
                            for speaker in real {
                                for key in ["name", "code", "email"] {
                                    let value = speaker[key].as_str().unwrap();
                                    assert!(!value.is_empty());
                                    assert!(
                                        !text.contains(value),
                                        "{context}: speaker {key} {value:?} leaks: {text}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} anonymised submissions were checked"
    );
}

// ===========================================================================
// `questions`: nested answers under the single answer-visibility rule
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

#[tokio::test]
async fn questions_all_follows_the_single_answer_visibility_rule() {
    let server = TestServer::start(&[qa_dataset()]).await;
    let callers = [
        ANONYMOUS,
        NOBODY,
        HELPER,
        REVIEWER,
        SIDE_REVIEWER,
        ORGANISER,
        ADMIN,
    ];
    for caller in callers {
        let client = caller.client(&server);
        for resource in ["submissions", "talks"] {
            let results = client.all(&format!("{EV}/{resource}/?questions=all")).await;
            assert!(!results.is_empty());
            for obj in &results {
                let code = obj["code"].as_str().unwrap();
                let expected: Vec<Value> = visible_answers(&caller, code)
                    .into_iter()
                    .map(qa_answer)
                    .collect();
                let context = format!("{}: /{resource} {code}", caller.name);
                assert_json(&obj["answers"], &json!(expected), &context);
                let detail = client
                    .ok(&format!("{EV}/{resource}/{code}?questions=all"))
                    .await;
                assert_json(
                    &detail["answers"],
                    &json!(expected),
                    &format!("{context} (detail)"),
                );
            }
        }
    }
}

#[tokio::test]
async fn questions_absent_or_empty_gives_no_answers() {
    let server = TestServer::start(&[qa_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for query in [
            "",
            "?questions=",
            "?questions=all&questions=",
            "?state=&questions=",
        ] {
            for path in ["submissions/", "talks/"] {
                for obj in client.all(&format!("{EV}/{path}{query}")).await {
                    assert_json(
                        &obj["answers"],
                        &json!([]),
                        &format!("{} {path}{query}", caller.name),
                    );
                }
            }
            let detail = client.ok(&format!("{EV}/submissions/PUB1{query}")).await;
            assert_json(
                &detail["answers"],
                &json!([]),
                &format!("{} detail {query}", caller.name),
            );
        }
    }
}

#[tokio::test]
async fn questions_id_lists_select_answers_and_unknown_ids_give_none() {
    let server = TestServer::start(&[qa_dataset()]).await;
    let answers = |ids: &[i64]| json!(ids.iter().map(|&id| qa_answer(id)).collect::<Vec<_>>());
    for (caller, query, pub1, sub2) in [
        (ORGANISER, "1,3", &[101, 103][..], &[106, 108][..]),
        (ORGANISER, "3,1", &[101, 103], &[106, 108]),
        (ORGANISER, "4", &[104], &[]),
        (ORGANISER, "1,1,5", &[101, 105], &[106, 109]),
        (REVIEWER, "1,3", &[101], &[106]),
        (REVIEWER, "3", &[], &[]),
        (REVIEWER, "5,2", &[102, 105], &[107]),
        (SIDE_REVIEWER, "2,5", &[105], &[]),
        (ANONYMOUS, "1,2,3,4,5", &[101, 105], &[]),
        (ORGANISER, "6", &[], &[]),
        (ORGANISER, "999", &[], &[]),
        (ORGANISER, "0", &[], &[]),
        (ORGANISER, "00001", &[101], &[106]),
        (ORGANISER, "99999999999999999999999", &[], &[]),
    ] {
        let client = caller.client(&server);
        let context = format!("{} questions={query}", caller.name);
        let reply = client
            .get(&format!("{EV}/submissions/PUB1?questions={query}"))
            .await;
        assert_eq!(reply.status, 200, "{context}: {}", reply.text);
        assert_json(&reply.body["answers"], &answers(pub1), &context);
        assert_json(
            &client
                .ok(&format!("{EV}/talks/PUB1/?questions={query}"))
                .await["answers"],
            &answers(pub1),
            &context,
        );
        if caller.role != Public && caller.token != SIDE_REVIEWER.token {
            let sub2_obj = client
                .ok(&format!("{EV}/submissions/SUB2?questions={query}"))
                .await;
            assert_json(&sub2_obj["answers"], &answers(sub2), &context);
        }
        let list = client
            .ok(&format!("{EV}/submissions?questions={query}"))
            .await;
        assert_json(
            &list["results"][0]["answers"],
            &answers(pub1),
            &format!("{context} (list)"),
        );
    }
}

#[tokio::test]
async fn malformed_questions_is_400_on_every_endpoint() {
    let server = TestServer::start(&[qa_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for value in [
            "abc", "1,", " 1", "1 ", "all,1", "-1", ",1", "1,,2", "1.5", "+1", "1;2", "ALL", "al",
            "1,all",
        ] {
            for path in [
                "submissions",
                "submissions/",
                "talks",
                "talks/",
                "submissions/PUB1",
                "talks/PUB1/",
            ] {
                let reply = client
                    .get(&format!("{EV}/{path}?questions={}", enc(value)))
                    .await;
                assert_bad_parameters(
                    &reply,
                    &["questions"],
                    &format!("{} {path}?questions={value:?}", caller.name),
                );
            }
        }
    }
}

// ===========================================================================
// Filters
// ===========================================================================

/// base() with seven submissions of every state, two types, three locales,
/// two featured, and another event whose type id 5 is unknown here.
fn filter_dataset() -> Value {
    let mut d = base();
    let e = mini_event(&mut d);
    list_of(e, "submission_types")
        .push(json!({"id": 2, "name": {"en": "Workshop"}, "default_duration": 90}));
    let subs = list_of(e, "submissions");
    for (code, title, speakers, stype, state, locale, featured) in [
        (
            "SUB4",
            "Rust Workshop",
            vec!["SPK1"],
            2,
            "accepted",
            "de",
            true,
        ),
        (
            "SUB5",
            "Public Speaking Workshop",
            vec!["SPK2"],
            2,
            "rejected",
            "en-GB",
            false,
        ),
        (
            "SUB6",
            "Withdrawn Talk",
            vec!["SPK1"],
            1,
            "withdrawn",
            "en",
            false,
        ),
        (
            "SUB7",
            "Canceled Talk",
            vec!["SPK2"],
            1,
            "canceled",
            "en",
            true,
        ),
    ] {
        subs.push(
            json!({"code": code, "title": title, "speakers": speakers, "submission_type": stype,
                         "state": state, "content_locale": locale, "is_featured": featured,
                         "created": "2026-03-05T12:00:00Z"}),
        );
    }
    d["events"].as_array_mut().unwrap().push(json!({
        "slug": "other", "name": "Other", "is_public": true, "date_from": "2026-07-01",
        "submission_types": [{"id": 5, "name": "Talk"}]}));
    d
}

const ALL7: [&str; 7] = ["PUB1", "SUB2", "SUB3", "SUB4", "SUB5", "SUB6", "SUB7"];

async fn assert_filter(
    client: &Client,
    resource: &str,
    query: &str,
    expected: &[&str],
    context: &str,
) {
    let reply = client.get(&format!("{EV}/{resource}/?{query}")).await;
    assert_eq!(
        reply.status, 200,
        "{context} {resource}?{query}: {}",
        reply.text
    );
    assert_eq!(
        reply.count() as usize,
        expected.len(),
        "{context} {resource}?{query}"
    );
    assert_eq!(
        code_list(reply.body["results"].as_array().unwrap()),
        strings(expected),
        "{context} {resource}?{query}"
    );
}

#[tokio::test]
async fn q_needs_every_term_in_the_title_or_a_speakers_name() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("q=public", &["PUB1", "SUB5"][..]),
        ("q=PUBLIC%20talk", &["PUB1", "SUB5"]), // SUB5's "talk" is in its speaker Bob Talker
        ("q=PUBLIC%20speaking", &["SUB5"]),
        ("q=public%20ADA", &["PUB1"]),
        ("q=ada", &["PUB1", "SUB3", "SUB4", "SUB6"]),
        ("q=ADA%20speaker", &["PUB1", "SUB3", "SUB4", "SUB6"]),
        ("q=ada%20workshop", &["SUB4"]),
        ("q=bob%20ada", &["SUB3"]), // each term may match another speaker
        ("q=talker+public", &["SUB5"]), // a name term and a title term
        ("q=%20%20workshop%20%20rust%20", &["SUB4"]),
        ("q=tal", &["PUB1", "SUB2", "SUB3", "SUB5", "SUB6", "SUB7"]), // substrings: "Talk", "Talker"
        ("q=nothing", &[]),
        ("q=mini", &[]), // not the e-mail
        ("q=SPK1", &[]), // not the speaker code
        ("q=", &ALL7),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    // The public and reviewers search their own set only.
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "q=bob",
        &[],
        "public",
    )
    .await;
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "q=ada",
        &["PUB1"],
        "public",
    )
    .await;
    assert_filter(
        &REVIEWER.client(&server),
        "submissions",
        "q=bob",
        &["SUB2", "SUB3", "SUB5", "SUB7"],
        "reviewer",
    )
    .await;
    assert_filter(
        &REVIEWER.client(&server),
        "talks",
        "q=ada",
        &["PUB1"],
        "reviewer",
    )
    .await;
    assert_filter(&REVIEWER.client(&server), "talks", "q=bob", &[], "reviewer").await;
}

#[tokio::test]
async fn state_is_repeatable_exact_and_validated() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("state=confirmed", &["PUB1"][..]),
        ("state=submitted", &["SUB2", "SUB3"]),
        ("state=accepted", &["SUB4"]),
        ("state=rejected", &["SUB5"]),
        ("state=withdrawn", &["SUB6"]),
        ("state=canceled", &["SUB7"]),
        ("state=confirmed&state=accepted", &["PUB1", "SUB4"]),
        (
            "state=accepted&state=confirmed&state=accepted",
            &["PUB1", "SUB4"],
        ),
        ("state=&state=withdrawn", &["SUB6"]),
        ("state=withdrawn&state=", &["SUB6"]),
        ("state=", &ALL7),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    for query in [
        "state=bogus",
        "state=draft",
        "state=deleted",
        "state=Confirmed",
        "state=CONFIRMED",
        "state=confirmed%20",
        "state=confirmed&state=draft",
        "state=confirmed,accepted",
    ] {
        for path in ["submissions", "talks/"] {
            let reply = orga.get(&format!("{EV}/{path}?{query}")).await;
            assert_bad_parameters(&reply, &["state"], &format!("{path}?{query}"));
            let reply = server.anon().get(&format!("{EV}/{path}?{query}")).await;
            assert_bad_parameters(&reply, &["state"], &format!("anonymous {path}?{query}"));
        }
    }
    // Within the caller's set.
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "state=submitted",
        &[],
        "public",
    )
    .await;
    assert_filter(
        &REVIEWER.client(&server),
        "submissions",
        "state=submitted&state=confirmed",
        &["PUB1", "SUB2", "SUB3"],
        "reviewer",
    )
    .await;
    assert_filter(&orga, "talks", "state=confirmed", &["PUB1"], "organiser").await;
    assert_filter(&orga, "talks", "state=accepted", &[], "organiser").await;
}

#[tokio::test]
async fn submission_type_filters_by_id_of_this_event() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("submission_type=2", &["SUB4", "SUB5"][..]),
        (
            "submission_type=1",
            &["PUB1", "SUB2", "SUB3", "SUB6", "SUB7"],
        ),
        ("submission_type=", &ALL7),
        ("submission_type=99&submission_type=2", &["SUB4", "SUB5"]), // the last value counts
        ("submission_type=1&state=submitted", &["SUB2", "SUB3"]),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    assert_filter(&orga, "talks", "submission_type=2", &[], "organiser").await;
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "submission_type=2",
        &[],
        "public",
    )
    .await;
    for value in ["99", "5", "abc", "-1", "1.0", "%201", "0", "Talk"] {
        for path in ["submissions/", "talks"] {
            let reply = orga
                .get(&format!("{EV}/{path}?submission_type={value}"))
                .await;
            assert_bad_parameters(
                &reply,
                &["submission_type"],
                &format!("{path}?submission_type={value}"),
            );
        }
    }
}

#[tokio::test]
async fn content_locale_matches_exactly() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("content_locale=de", &["SUB4"][..]),
        (
            "content_locale=en",
            &["PUB1", "SUB2", "SUB3", "SUB6", "SUB7"],
        ),
        ("content_locale=en-GB", &["SUB5"]),
        ("content_locale=EN", &[]),
        ("content_locale=en-gb", &[]),
        ("content_locale=e", &[]),
        ("content_locale=xx", &[]),
        ("content_locale=", &ALL7),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    assert_filter(&orga, "talks", "content_locale=en", &["PUB1"], "organiser").await;
    assert_filter(&orga, "talks", "content_locale=de", &[], "organiser").await;
}

#[tokio::test]
async fn is_featured_accepts_booleans_in_any_case() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for value in ["true", "TRUE", "True", "tRuE", "1"] {
        assert_filter(
            &orga,
            "submissions",
            &format!("is_featured={value}"),
            &["SUB4", "SUB7"],
            "organiser",
        )
        .await;
    }
    for value in ["false", "FALSE", "False", "0"] {
        assert_filter(
            &orga,
            "submissions",
            &format!("is_featured={value}"),
            &["PUB1", "SUB2", "SUB3", "SUB5", "SUB6"],
            "organiser",
        )
        .await;
    }
    assert_filter(&orga, "submissions", "is_featured=", &ALL7, "organiser").await;
    assert_filter(
        &orga,
        "submissions",
        "is_featured=maybe&is_featured=true",
        &["SUB4", "SUB7"],
        "organiser",
    )
    .await;
    assert_filter(
        &orga,
        "submissions",
        "is_featured=true&submission_type=2",
        &["SUB4"],
        "organiser",
    )
    .await;
    assert_filter(&orga, "talks", "is_featured=true", &[], "organiser").await;
    assert_filter(&orga, "talks", "is_featured=false", &["PUB1"], "organiser").await;
    for value in ["yes", "no", "2", "t", "f", "truee", "%20true", "01"] {
        for path in ["submissions", "talks/"] {
            let reply = orga.get(&format!("{EV}/{path}?is_featured={value}")).await;
            assert_bad_parameters(
                &reply,
                &["is_featured"],
                &format!("{path}?is_featured={value}"),
            );
        }
    }
}

#[tokio::test]
async fn several_bad_parameters_give_one_400_with_one_key_each() {
    let server = TestServer::start(&[filter_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for path in ["submissions", "talks/"] {
            let reply = client
                .get(&format!("{EV}/{path}?state=nope&state=draft&submission_type=x&is_featured=maybe&questions=abc&q=fine&content_locale=fine"))
                .await;
            assert_bad_parameters(
                &reply,
                &["state", "submission_type", "is_featured", "questions"],
                &format!("{} {path}", caller.name),
            );
            let reply = client
                .get(&format!("{EV}/{path}?state=nope&submission_type=99&is_featured=2&questions=1,&page=x&page_size=-1&limit=y&offset=-3"))
                .await;
            assert_bad_parameters(
                &reply,
                &[
                    "state",
                    "submission_type",
                    "is_featured",
                    "questions",
                    "page",
                    "page_size",
                    "limit",
                    "offset",
                ],
                &format!("{} {path} with pagination", caller.name),
            );
        }
    }
    // Empty values count as absent: no error, no filter.
    let orga = ORGANISER.client(&server);
    assert_filter(
        &orga,
        "submissions",
        "state=&submission_type=&is_featured=&content_locale=&q=&questions=&anon=",
        &ALL7,
        "empty",
    )
    .await;
}

// ---------------------------------------------------------------------------
// Filters with pagination (democon): both styles, `next` keeps the filters
// ---------------------------------------------------------------------------

/// The query pairs of a link other than the pagination ones.
fn filter_pairs(url: &str) -> Vec<(String, String)> {
    reqwest::Url::parse(url)
        .expect("an absolute link")
        .query_pairs()
        .filter(|(k, _)| !["page", "page_size", "limit", "offset"].contains(&k.as_ref()))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Follows `next` from `path`, checking that every link keeps the filters.
async fn follow(client: &Client, path: &str, filters: &[(String, String)]) -> Vec<String> {
    let mut url = format!("{}{path}", client.base);
    let mut out = Vec::new();
    let mut pages = 0;
    loop {
        let reply = client.request_url("GET", &url, &[]).await;
        assert_eq!(reply.status, 200, "GET {url}: {}", reply.text);
        pages += 1;
        out.extend(code_list(reply.body["results"].as_array().unwrap()));
        for link in ["next", "previous"] {
            if let Some(link_url) = reply.body[link].as_str() {
                assert_eq!(filter_pairs(link_url), filters, "{link} of {url}");
            }
        }
        match reply.body["next"].as_str() {
            Some(next) => url = next.to_string(),
            None => break,
        }
    }
    assert!(pages > 1, "{path}: a single page proves nothing");
    out
}

#[tokio::test]
async fn filters_combine_with_both_pagination_styles_and_next_links_keep_them() {
    let doc = democon();
    let server = TestServer::start(&[doc]).await;
    for (token, resource, query) in [
        (
            Some(tok::ORGA),
            "submissions",
            "state=confirmed&state=rejected",
        ),
        (
            Some(tok::ORGA),
            "submissions",
            "submission_type=1&is_featured=false&questions=all&anon=1",
        ),
        (
            Some(tok::TRACK_REVIEWER),
            "submissions",
            "is_featured=0&content_locale=en",
        ),
        (Some(tok::REVIEWER), "submissions", "q=e&state=confirmed"),
        (Some(tok::ADMIN), "talks", "state=confirmed&q=e"),
        (None, "talks", "content_locale=en&questions=1,2"),
        (None, "submissions", "is_featured=FALSE"),
    ] {
        let client = match token {
            Some(t) => server.token(t),
            None => server.anon(),
        };
        let base_path = format!("/api/events/democon/{resource}/");
        let filters: Vec<(String, String)> = filter_pairs(&format!("http://x/?{query}"));
        let full = client.ok(&format!("{base_path}?{query}&limit=1000")).await;
        let all: Vec<String> = code_list(full["results"].as_array().unwrap());
        assert_eq!(full["count"], all.len(), "{query}");
        assert!(
            all.len() > 7,
            "{query}: too few results ({}) to paginate",
            all.len()
        );
        let offset_style = follow(&client, &format!("{base_path}?{query}&limit=7"), &filters).await;
        assert_eq!(offset_style, all, "{resource}?{query} limit/offset");
        let page_style = follow(
            &client,
            &format!("{base_path}?{query}&page_size=7"),
            &filters,
        )
        .await;
        assert_eq!(page_style, all, "{resource}?{query} page/page_size");
        // Direct pages of both styles give the same window.
        let page2 = client
            .ok(&format!("{base_path}?{query}&page=2&page_size=5"))
            .await;
        let window = client
            .ok(&format!("{base_path}?{query}&limit=5&offset=5"))
            .await;
        assert_eq!(
            code_list(page2["results"].as_array().unwrap()),
            all[5..10.min(all.len())].to_vec(),
            "{query} page 2"
        );
        assert_eq!(page2["results"], window["results"], "{query}: both styles");
        assert_eq!(page2["count"], all.len());
        assert_eq!(window["count"], all.len());
        // Each page's objects equal those of the unpaginated list.
        assert_eq!(
            page2["results"].as_array().unwrap()[..],
            full["results"].as_array().unwrap()[5..10.min(all.len())]
        );
    }
}

// ===========================================================================
// Lookups, paths and errors
// ===========================================================================

#[tokio::test]
async fn lookups_are_case_insensitive_and_show_the_stored_code() {
    let mut d = base();
    sub_mut(&mut d, "SUB3")["code"] = json!("aLow7");
    let server = TestServer::start(&[d]).await;
    let anon = server.anon();
    for path in [
        "/api/events/mini/submissions/pub1",
        "/api/events/mini/submissions/Pub1/",
        "/api/events/MINI/talks/pUB1",
        "/api/events/Mini/talks/pub1/",
    ] {
        assert_json(&anon.ok(path).await, &view(&mini_pub1(), Public), path);
    }
    let orga = ORGANISER.client(&server);
    for path in [
        "submissions/alow7",
        "submissions/ALOW7/",
        "submissions/aLow7",
    ] {
        assert_eq!(
            orga.ok(&format!("{EV}/{path}")).await["code"],
            "aLow7",
            "{path}"
        );
    }
    // Case-insensitivity does not widen the caller's set.
    assert_detail(
        &anon.get(&format!("{EV}/submissions/sub2")).await,
        404,
        "sub2 for the public",
    );
    assert_detail(
        &orga.get(&format!("{EV}/talks/Alow7")).await,
        404,
        "not a talk",
    );
    // The list shows stored codes in code-point order (upper case before lower case).
    assert_eq!(
        codes(&orga, &format!("{EV}/submissions")).await,
        strings(&["PUB1", "SUB2", "aLow7"])
    );
}

#[tokio::test]
async fn trailing_slash_is_optional_everywhere() {
    let server = TestServer::start(&[qa_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for path in [
            "submissions",
            "talks",
            "submissions/PUB1",
            "talks/PUB1",
            "submissions/nope",
            "talks/SUB2",
        ] {
            for query in ["", "?questions=all", "?questions=x"] {
                let without = client.get(&format!("{EV}/{path}{query}")).await;
                let with = client.get(&format!("{EV}/{path}/{query}")).await;
                assert_eq!(without.status, with.status, "{} {path}{query}", caller.name);
                assert_eq!(without.body, with.body, "{} {path}{query}", caller.name);
                assert_eq!(with.header("content-type"), Some("application/json"));
            }
        }
    }
    // Links echo the path as requested.
    let orga = ORGANISER.client(&server);
    for (path, query, next_pairs) in [
        (
            "submissions",
            "limit=1&state=submitted",
            vec![("limit", "1"), ("offset", "1"), ("state", "submitted")],
        ),
        (
            "submissions/",
            "page_size=1&state=submitted",
            vec![("page", "2"), ("page_size", "1"), ("state", "submitted")],
        ),
    ] {
        let page = orga.ok(&format!("{EV}/{path}?{query}")).await;
        let next = reqwest::Url::parse(page["next"].as_str().expect("a next link")).unwrap();
        assert_eq!(
            next.as_str().split('?').next().unwrap(),
            format!("{}{EV}/{path}", server.base),
            "{path}?{query}"
        );
        let mut pairs: Vec<(String, String)> = next
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        pairs.sort();
        let expected: Vec<(String, String)> = next_pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(pairs, expected, "{path}?{query}");
    }
}

#[tokio::test]
async fn detail_endpoints_ignore_list_parameters_but_validate_questions() {
    let server = TestServer::start(&[qa_dataset()]).await;
    let ignored =
        "state=bogus&page=99&page_size=-1&limit=x&offset=-1&is_featured=maybe&submission_type=abc\
                   &content_locale=xx&q=no%20such%20words";
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for path in ["submissions/PUB1", "talks/PUB1/"] {
            let plain = client.ok(&format!("{EV}/{path}")).await;
            let reply = client.get(&format!("{EV}/{path}?{ignored}")).await;
            assert_eq!(reply.status, 200, "{} {path}: {}", caller.name, reply.text);
            assert_json(&reply.body, &plain, &format!("{} {path}", caller.name));
            // questions still works and is still validated, alone.
            let with_answers = client
                .ok(&format!("{EV}/{path}?{ignored}&questions=all"))
                .await;
            let expected: Vec<Value> = visible_answers(&caller, "PUB1")
                .into_iter()
                .map(qa_answer)
                .collect();
            assert_json(
                &with_answers["answers"],
                &json!(expected),
                &format!("{} {path} answers", caller.name),
            );
            let reply = client
                .get(&format!("{EV}/{path}?{ignored}&questions=abc"))
                .await;
            assert_bad_parameters(&reply, &["questions"], &format!("{} {path}", caller.name));
        }
        // A code outside the set stays 404 whatever the parameters.
        let reply = client.get(&format!("{EV}/talks/SUB2?{ignored}")).await;
        assert_detail(&reply, 404, &format!("{} talks/SUB2", caller.name));
    }
}

#[tokio::test]
async fn unknown_or_invisible_events_are_403() {
    let mut d = base();
    mini_event(&mut d)["is_public"] = json!(false);
    let server = TestServer::start(&[d]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        for path in [
            "/api/events/nope/submissions/",
            "/api/events/nope/submissions",
            "/api/events/nope/talks/",
            "/api/events/nope/submissions/PUB1/",
            "/api/events/nope/talks/PUB1",
            "/api/events/nope/submissions/?state=bogus",
        ] {
            assert_detail(
                &client.get(path).await,
                403,
                &format!("{} {path}", caller.name),
            );
        }
        for path in [
            "submissions/",
            "talks",
            "submissions/PUB1",
            "talks/PUB1/",
            "submissions/?state=bogus&questions=x",
        ] {
            let reply = client.get(&format!("{EV}/{path}")).await;
            let context = format!("{} {path} of a non-public event", caller.name);
            if caller.role == Public {
                assert_detail(&reply, 403, &context);
            } else if path.contains("bogus") {
                assert_bad_parameters(&reply, &["state", "questions"], &context);
            } else {
                assert_eq!(reply.status, 200, "{context}: {}", reply.text);
            }
        }
    }
    // The same answer for an existing invisible event and a missing one.
    let anon = server.anon();
    assert_eq!(
        anon.get(&format!("{EV}/talks/")).await.body,
        anon.get("/api/events/nope/talks/").await.body
    );
    // In a non-public event nothing is a public talk, but a talk is still a talk.
    assert_eq!(
        codes(&ORGANISER.client(&server), &format!("{EV}/talks")).await,
        strings(&["PUB1"])
    );
}

// ===========================================================================
// democon.json: every role and every object, with the expectation computed
// from the dataset document (behaviour.md §3, §4, §6 restated here)
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

// ---------------------------------------------------------------------------
// Search after users change
// ---------------------------------------------------------------------------

/// Users are global: an import of another event that renames a speaker must
/// change what `q` finds in this event, which is not reloaded.
#[tokio::test]
async fn search_follows_a_speaker_renamed_by_another_import() {
    let server = TestServer::start(&[mini()]).await;
    let found = |body: serde_json::Value| -> Vec<String> {
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["code"].as_str().unwrap().to_string())
            .collect()
    };
    let orga = server.token("orga-token");
    assert_eq!(
        found(orga.ok("/api/events/mini/submissions/?q=ada").await),
        ["PUB1", "SUB3"]
    );

    let mut other = mini();
    other["users"] = json!([{"code": "SPK1", "name": "Zelda Quill", "email": "ada@mini.example"}]);
    other["events"][0]["slug"] = json!("other");
    other["events"][0]["teams"] = json!([]);
    other["events"][0]["submissions"] = json!([]);
    other["events"][0]["speakers"] = json!([{"user": "SPK1"}]);
    server.import(&other).await;

    assert_eq!(
        found(orga.ok("/api/events/mini/submissions/?q=zelda").await),
        ["PUB1", "SUB3"]
    );
    assert!(found(orga.ok("/api/events/mini/submissions/?q=ada").await).is_empty());
}
