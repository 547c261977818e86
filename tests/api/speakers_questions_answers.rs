//! behaviour.md §6 "Speakers", "Questions" and "Answers" (with the §1, §4,
//! §5 and §8 rules they share), over HTTP, for every role.
//!
//! Most tests run on `world()`: `mini()` grown by a few callers, speakers,
//! questions, answers and reviews so that every visibility rule has a case
//! that separates it from its neighbours. Expected bodies are written out in
//! full from the literal values of that dataset.

use crate::helpers::{self, assert_bad_parameters};

/// `GET path` is a 400 naming exactly these parameters.
async fn assert_bad_params(client: &Client, path: &str, keys: &[&str]) {
    assert_bad_parameters(&client.get(path).await, keys, &format!("GET {path}"));
}

use std::collections::{BTreeMap, BTreeSet};

use helpers::{democon, edge, mini, Client, TestServer};
use serde_json::{json, Value};

// ==========================================================================
// Callers of world() (mini()'s three plus three more)
// ==========================================================================

const ORGA: &str = "orga-token";
const REV: &str = "rev-token";
const NOBODY: &str = "nobody-token";
/// An administrator without any team: an organiser of every event.
const ADMIN: &str = "admin-token";
/// A reviewer whose only team is limited to track 2 ("Side").
const TRACK: &str = "track-token";
/// A reviewer whose only team has `force_hide_speaker_names`.
const BLIND: &str = "blind-token";

/// The clear token of edge.json's `hashonly` user (organiser of
/// edge-private), which the dataset stores only hashed: make_edge.py's
/// `token("hashonly")`.
const EDGE_HASHONLY_TOKEN: &str = "d079b0a24a225e93bd92d5cb44651dab7fefce88";

// ==========================================================================
// The world() dataset
// ==========================================================================

/// mini() plus:
/// - callers ADMIN (administrator), TRACKREV (reviewer limited to track 2),
///   BLIND (reviewer in a team that hides speaker names);
/// - speakers SPK3 (a profile without submissions) and SPK4 (speaker of
///   SUB4, track 2); SPK1 with availabilities; profiles out of code order;
/// - submissions SUB4 (submitted, track 2) and APUB (a second public talk
///   of SPK1, listed last but first by code);
/// - questions 1-9, answers 101-116, reviews 201-203 (see the tables below).
///
/// Per caller (worked out from behaviour.md):
///
/// | caller  | submissions                 | speakers            | answers |
/// |---------|-----------------------------|---------------------|---------|
/// | public  | APUB PUB1                   | SPK1                | 101 105 109 |
/// | REV     | all five                    | SPK1 SPK2 SPK4      | 101-103 105 108-111 113 114 116 |
/// | TRACK   | APUB PUB1 SUB4              | SPK1 SPK4           | 101 105 108 109 113 116 |
/// | BLIND   | all five, anonymised        | SPK1 (public set)   | 101-103 105 108 109 114 116 |
/// | orga    | all five                    | SPK1-SPK4           | 101-116 |
fn world() -> Value {
    let mut d = mini();
    d["users"].as_array_mut().unwrap().extend([
        json!({"code": "ADMIN", "name": "Ann Admin", "email": "admin@mini.example",
               "is_administrator": true, "tokens": [ADMIN]}),
        json!({"code": "TRACKREV", "name": "Tim Track", "email": "track@mini.example", "tokens": [TRACK]}),
        json!({"code": "BLIND", "name": "Bea Blind", "email": "blind@mini.example", "tokens": [BLIND]}),
        json!({"code": "SPK3", "name": "Cy Profile", "email": "cy@mini.example"}),
        json!({"code": "SPK4", "name": "Dee Fourth", "email": "dee@mini.example",
               "avatar": "https://img.example/dee.png"}),
    ]);
    let e = &mut d["events"][0];
    e["teams"].as_array_mut().unwrap().extend([
        json!({"name": "Side reviewers", "members": ["TRACKREV"], "is_reviewer": true, "limit_tracks": [2]}),
        json!({"name": "Blind reviewers", "members": ["BLIND"], "is_reviewer": true,
               "force_hide_speaker_names": true}),
    ]);
    e["tracks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": 2, "name": {"en": "Side", "de": "Seite"}}));
    e["submission_types"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": 2, "name": {"en": "Workshop"}, "default_duration": 90}));
    e["speakers"] = json!([
        {"user": "SPK4"},
        {"user": "SPK1", "biography": "Ada's bio", "availabilities": [
            // starts at local midnight (22:00Z is 00:00 in Berlin), ends at noon
            {"id": 3, "start": "2026-05-31T22:00:00Z", "end": "2026-06-01T12:00:00+02:00"},
            // midnight UTC is 02:00 in Berlin: not all-day
            {"id": 1, "start": "2026-06-01T00:00:00Z", "end": "2026-06-02T00:00:00Z"},
            // local midnight to local midnight: all-day
            {"id": 2, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-03T00:00:00+02:00"},
            // local midnight in winter time (+01:00), written in UTC: all-day
            {"id": 4, "start": "2026-01-10T23:00:00Z", "end": "2026-01-11T23:00:00Z"}
        ]},
        {"user": "SPK3", "biography": "Cy's bio", "availabilities": [
            {"id": 5, "start": "2026-06-01T09:30:00.25+02:00", "end": "2026-06-01T10:00:00+02:00"}
        ]},
        {"user": "SPK2", "biography": "Bob's bio"}
    ]);
    e["submissions"].as_array_mut().unwrap().extend([
        json!({"code": "SUB4", "title": "Side Proposal", "speakers": ["SPK4"], "submission_type": 1,
               "track": 2, "state": "submitted", "created": "2026-03-04T12:00:00Z"}),
        json!({"code": "APUB", "title": "Another Public Talk", "speakers": ["SPK1"], "submission_type": 1,
               "track": 1, "state": "confirmed", "created": "2026-03-05T12:00:00Z",
               "slots": [{"room": 1, "start": "2026-06-02T10:00:00+02:00",
                          "end": "2026-06-02T10:30:00+02:00", "is_visible": true}]}),
    ]);
    e["questions"] = json!([
        // public, visible to reviewers, required
        {"id": 1, "variant": "multiple_choice", "target": "submission",
         "question": {"en": "Audience level", "de": "Zielgruppe"}, "help_text": {"en": "Who is it for?"},
         "question_required": "required", "is_public": true, "position": 1,
         "contains_personal_data": false, "tracks": [2, 1], "submission_types": [2, 1],
         "options": [{"id": 12, "answer": {"en": "Expert"}},
                     {"id": 11, "answer": {"en": "Beginner", "de": "Anfänger"}}]},
        // visible to reviewers only
        {"id": 2, "variant": "text", "question": {"en": "Notes for reviewers"}, "position": 2,
         "min_length": 5, "max_length": 500},
        // public but hidden from reviewers
        {"id": 3, "variant": "url", "question": {"en": "Slides"}, "is_public": true,
         "is_visible_to_reviewers": false, "position": 2},
        // organisers only
        {"id": 4, "question": "Organiser note", "is_visible_to_reviewers": false, "position": 0,
         "default_answer": "none"},
        // public but inactive
        {"id": 5, "variant": "number", "question": {"en": "Expected audience"}, "is_public": true,
         "active": false, "position": 5},
        {"id": 6, "target": "speaker", "question": {"en": "Social handle"}, "help_text": "e.g. @name",
         "is_public": true, "position": 1},
        {"id": 7, "variant": "boolean", "target": "speaker", "question": {"en": "First time speaking?"},
         "position": 3},
        // public question on reviews: still never public
        {"id": 8, "variant": "number", "target": "reviewer", "question": {"en": "Depth"}, "is_public": true,
         "position": 4},
        {"id": 9, "target": "reviewer", "question": {"en": "Private remark"},
         "is_visible_to_reviewers": false, "position": 4}
    ]);
    e["reviews"] = json!([
        {"id": 201, "submission": "SUB2", "user": "REV", "text": "Good", "score": 4,
         "created": "2026-04-01T10:00:00Z"},
        {"id": 202, "submission": "SUB4", "user": "TRACKREV", "text": "Meh", "score": 2,
         "created": "2026-04-02T10:00:00Z"},
        {"id": 203, "submission": "SUB3", "user": "BLIND", "created": "2026-04-03T10:00:00Z"}
    ]);
    e["answers"] = json!([
        {"id": 101, "question": 1, "answer": "Beginner", "submission": "PUB1", "options": [11]},
        {"id": 102, "question": 1, "answer": "Expert, Beginner", "submission": "SUB2", "options": [12, 11]},
        {"id": 103, "question": 2, "answer": "Notes on the public talk", "submission": "PUB1",
         "answer_file": "https://files.example/notes.pdf"},
        {"id": 104, "question": 3, "answer": "https://slides.example/sub2", "submission": "SUB2"},
        {"id": 105, "question": 3, "answer": "https://slides.example/pub1", "submission": "PUB1"},
        {"id": 106, "question": 4, "answer": "Orga only", "submission": "SUB3"},
        {"id": 107, "question": 5, "answer": "250", "submission": "PUB1"},
        {"id": 108, "question": 2, "answer": "Side track notes", "submission": "SUB4"},
        {"id": 109, "question": 6, "answer": "@ada", "person": "SPK1"},
        {"id": 110, "question": 6, "answer": "@bob", "person": "SPK2"},
        {"id": 111, "question": 7, "answer": "True", "person": "SPK1"},
        {"id": 112, "question": 6, "answer": "@cy", "person": "SPK3"},
        {"id": 113, "question": 7, "answer": "False", "person": "SPK4"},
        {"id": 114, "question": 8, "answer": "4", "review": 201},
        {"id": 115, "question": 9, "answer": "Keep it", "review": 202},
        {"id": 116, "question": 8, "answer": "2", "review": 202}
    ]);
    d
}

/// world() with a change to its only event.
fn world_with(change: impl FnOnce(&mut Value)) -> Value {
    let mut d = world();
    change(&mut d["events"][0]);
    d
}

// ---- expected objects of world() -----------------------------------------------

fn question_text(id: i64) -> Value {
    match id {
        1 => json!({"en": "Audience level", "de": "Zielgruppe"}),
        2 => json!({"en": "Notes for reviewers"}),
        3 => json!({"en": "Slides"}),
        4 => json!({"en": "Organiser note"}),
        5 => json!({"en": "Expected audience"}),
        6 => json!({"en": "Social handle"}),
        7 => json!({"en": "First time speaking?"}),
        8 => json!({"en": "Depth"}),
        9 => json!({"en": "Private remark"}),
        _ => panic!("no question {id}"),
    }
}

fn option(id: i64) -> Value {
    match id {
        11 => json!({"id": 11, "answer": {"en": "Beginner", "de": "Anfänger"}}),
        12 => json!({"id": 12, "answer": {"en": "Expert"}}),
        _ => panic!("no option {id}"),
    }
}

/// An answer of world() as `/answers` shows it.
fn a(id: i64) -> Value {
    type Row = (
        i64,
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        Option<i64>,
        Option<&'static str>,
        Vec<i64>,
    );
    let (q, text, file, sub, review, person, options): Row = match id {
        101 => (1, "Beginner", None, Some("PUB1"), None, None, vec![11]),
        // stored as [12, 11]: shown by option id
        102 => (
            1,
            "Expert, Beginner",
            None,
            Some("SUB2"),
            None,
            None,
            vec![11, 12],
        ),
        103 => (
            2,
            "Notes on the public talk",
            Some("https://files.example/notes.pdf"),
            Some("PUB1"),
            None,
            None,
            vec![],
        ),
        104 => (
            3,
            "https://slides.example/sub2",
            None,
            Some("SUB2"),
            None,
            None,
            vec![],
        ),
        105 => (
            3,
            "https://slides.example/pub1",
            None,
            Some("PUB1"),
            None,
            None,
            vec![],
        ),
        106 => (4, "Orga only", None, Some("SUB3"), None, None, vec![]),
        107 => (5, "250", None, Some("PUB1"), None, None, vec![]),
        108 => (
            2,
            "Side track notes",
            None,
            Some("SUB4"),
            None,
            None,
            vec![],
        ),
        109 => (6, "@ada", None, None, None, Some("SPK1"), vec![]),
        110 => (6, "@bob", None, None, None, Some("SPK2"), vec![]),
        111 => (7, "True", None, None, None, Some("SPK1"), vec![]),
        112 => (6, "@cy", None, None, None, Some("SPK3"), vec![]),
        113 => (7, "False", None, None, None, Some("SPK4"), vec![]),
        114 => (8, "4", None, None, Some(201), None, vec![]),
        115 => (9, "Keep it", None, None, Some(202), None, vec![]),
        116 => (8, "2", None, None, Some(202), None, vec![]),
        _ => panic!("no answer {id}"),
    };
    json!({
        "id": id,
        "question": {"id": q, "question": question_text(q)},
        "answer": text,
        "answer_file": file,
        "submission": sub,
        "review": review,
        "person": person,
        "options": options.into_iter().map(option).collect::<Vec<_>>(),
    })
}

/// An answer of world() as nested in a submission: the question also shows
/// `required` (now), `target` and `options`.
fn sub_a(id: i64) -> Value {
    let mut answer = a(id);
    let q = answer["question"]["id"].as_i64().unwrap();
    answer["question"]["required"] = json!(q == 1);
    answer["question"]["target"] = json!("submission");
    answer["question"]["options"] = if q == 1 {
        json!([option(11), option(12)])
    } else {
        json!([])
    };
    answer
}

fn answers(ids: &[i64]) -> Vec<Value> {
    ids.iter().map(|&id| a(id)).collect()
}

/// A question of world() as `/questions` shows it (now: no deadline and
/// no freeze date in world(), so `required` is `question_required == required`).
fn q(id: i64) -> Value {
    let base = |variant: &str, target: &str| {
        json!({
            "id": id, "variant": variant, "target": target, "question": question_text(id),
            "help_text": {}, "question_required": "optional", "deadline": null, "required": false,
            "read_only": false, "freeze_after": null, "options": [], "default_answer": null,
            "contains_personal_data": true, "min_length": null, "max_length": null,
            "is_public": false, "is_visible_to_reviewers": true, "tracks": [], "submission_types": []
        })
    };
    match id {
        1 => merge(
            base("multiple_choice", "submission"),
            json!({"help_text": {"en": "Who is it for?"}, "question_required": "required", "required": true,
                   "options": [option(11), option(12)], "contains_personal_data": false,
                   "is_public": true, "tracks": [1, 2], "submission_types": [1, 2]}),
        ),
        2 => merge(
            base("text", "submission"),
            json!({"min_length": 5, "max_length": 500}),
        ),
        3 => merge(
            base("url", "submission"),
            json!({"is_public": true, "is_visible_to_reviewers": false}),
        ),
        4 => merge(
            base("string", "submission"),
            json!({"is_visible_to_reviewers": false, "default_answer": "none"}),
        ),
        5 => merge(base("number", "submission"), json!({"is_public": true})),
        6 => merge(
            base("string", "speaker"),
            json!({"help_text": {"en": "e.g. @name"}, "is_public": true}),
        ),
        7 => base("boolean", "speaker"),
        8 => merge(base("number", "reviewer"), json!({"is_public": true})),
        9 => merge(
            base("string", "reviewer"),
            json!({"is_visible_to_reviewers": false}),
        ),
        _ => panic!("no question {id}"),
    }
}

fn questions(ids: &[i64]) -> Vec<Value> {
    ids.iter().map(|&id| q(id)).collect()
}

/// A speaker of world(): `submissions` and answer ids as the caller sees
/// them; `orga` adds `email` and `availabilities`.
fn speaker(code: &str, submissions: &[&str], answer_ids: &[i64], orga: bool) -> Value {
    let (name, bio, avatar, email): (&str, &str, Option<&str>, &str) = match code {
        "SPK1" => ("Ada Speaker", "Ada's bio", None, "ada@mini.example"),
        "SPK2" => ("Bob Talker", "Bob's bio", None, "bob@mini.example"),
        "SPK3" => ("Cy Profile", "Cy's bio", None, "cy@mini.example"),
        "SPK4" => (
            "Dee Fourth",
            "",
            Some("https://img.example/dee.png"),
            "dee@mini.example",
        ),
        _ => panic!("no speaker {code}"),
    };
    let mut s = json!({
        "code": code, "name": name, "biography": bio, "submissions": submissions,
        "avatar": avatar, "answers": answers(answer_ids),
    });
    if orga {
        s["email"] = json!(email);
        s["availabilities"] = match code {
            "SPK1" => json!([
                {"id": 1, "start": "2026-06-01T02:00:00+02:00", "end": "2026-06-02T02:00:00+02:00", "allDay": false},
                {"id": 2, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-03T00:00:00+02:00", "allDay": true},
                {"id": 3, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-01T12:00:00+02:00", "allDay": false},
                {"id": 4, "start": "2026-01-11T00:00:00+01:00", "end": "2026-01-12T00:00:00+01:00", "allDay": true}
            ]),
            "SPK3" => json!([
                {"id": 5, "start": "2026-06-01T09:30:00.250000+02:00", "end": "2026-06-01T10:00:00+02:00", "allDay": false}
            ]),
            _ => json!([]),
        };
    }
    s
}

// ==========================================================================
// Helpers
// ==========================================================================

/// `base` with the keys of `overrides` replaced.
fn merge(mut base: Value, overrides: Value) -> Value {
    for (k, v) in overrides.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

/// A single-page list envelope.
fn page(results: Vec<Value>) -> Value {
    json!({"count": results.len(), "next": null, "previous": null, "results": results})
}

fn ids_of(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|x| x["id"].as_i64().unwrap())
        .collect()
}

fn result_ids(body: &Value) -> Vec<i64> {
    ids_of(&body["results"])
}

fn result_codes(body: &Value) -> Vec<String> {
    body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["code"].as_str().unwrap().to_string())
        .collect()
}

/// Asserts `404 {"detail": <string>}`.
async fn assert_not_found(client: &Client, path: &str) {
    let reply = client.get(path).await;
    assert_eq!(reply.status, 404, "GET {path}: {}", reply.text);
    assert!(
        reply.body["detail"].is_string(),
        "GET {path}: {}",
        reply.text
    );
    assert_eq!(
        reply.body.as_object().unwrap().len(),
        1,
        "GET {path}: {}",
        reply.text
    );
}

/// Asserts `403 {"detail": <string>}`.
async fn assert_forbidden(client: &Client, path: &str) {
    let reply = client.get(path).await;
    assert_eq!(reply.status, 403, "GET {path}: {}", reply.text);
    assert!(
        reply.body["detail"].is_string(),
        "GET {path}: {}",
        reply.text
    );
}

/// Compares a `next`/`previous` link with `base` + `expected` (path and
/// query): scheme, host and path exactly, the query as a multiset of
/// decoded pairs (behaviour.md leaves their order open).
fn assert_link(actual: &Value, base: &str, expected: Option<&str>) {
    match expected {
        None => assert_eq!(actual, &Value::Null),
        Some(expected) => {
            let actual = reqwest::Url::parse(
                actual
                    .as_str()
                    .unwrap_or_else(|| panic!("no link: {actual}")),
            )
            .expect("an absolute URL");
            let wanted = reqwest::Url::parse(&format!("{base}{expected}")).unwrap();
            assert_eq!(
                (
                    actual.scheme(),
                    actual.host_str(),
                    actual.port(),
                    actual.path()
                ),
                (
                    wanted.scheme(),
                    wanted.host_str(),
                    wanted.port(),
                    wanted.path()
                ),
                "{actual} vs {wanted}"
            );
            let pairs = |u: &reqwest::Url| {
                let mut p: Vec<(String, String)> = u.query_pairs().into_owned().collect();
                p.sort();
                p
            };
            assert_eq!(pairs(&actual), pairs(&wanted), "{actual} vs {wanted}");
        }
    }
}

/// Both spellings of a path (with and without the trailing slash, the
/// second also in another letter case where given) answer the same.
async fn assert_same(client: &Client, a: &str, b: &str) -> Value {
    let first = client.get(a).await;
    let second = client.get(b).await;
    assert_eq!(first.status, 200, "GET {a}: {}", first.text);
    assert_eq!(second.status, 200, "GET {b}: {}", second.text);
    assert_eq!(first.body, second.body, "{a} vs {b}");
    first.body
}

const EVENT: &str = "/api/events/mini";

fn p(rest: &str) -> String {
    format!("{EVENT}/{rest}")
}

// ==========================================================================
// Speakers: which, per role
// ==========================================================================

#[tokio::test]
async fn speakers_organisers_and_administrators_see_every_profile_with_email_and_availabilities() {
    let server = TestServer::start(&[world()]).await;
    let expected = page(vec![
        speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[], true),
        speaker("SPK2", &["SUB2", "SUB3"], &[], true),
        // a profile without submissions: organisers only
        speaker("SPK3", &[], &[], true),
        speaker("SPK4", &["SUB4"], &[], true),
    ]);
    for token in [ORGA, ADMIN] {
        assert_eq!(
            server.token(token).ok(&p("speakers/")).await,
            expected,
            "{token}"
        );
    }
}

#[tokio::test]
async fn speakers_reviewers_with_names_see_the_speakers_of_their_submissions_and_public_ones() {
    let server = TestServer::start(&[world()]).await;
    // REV has reviewer access to every submission.
    assert_eq!(
        server.token(REV).ok(&p("speakers/")).await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[], false),
            speaker("SPK2", &["SUB2", "SUB3"], &[], false),
            speaker("SPK4", &["SUB4"], &[], false),
        ])
    );
    // TRACKREV reviews track 2 only (SUB4), and sees the public talks.
    assert_eq!(
        server.token(TRACK).ok(&p("speakers/")).await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1"], &[], false),
            speaker("SPK4", &["SUB4"], &[], false)
        ])
    );
}

#[tokio::test]
async fn speakers_the_public_sees_speakers_of_public_talks_once() {
    let server = TestServer::start(&[world()]).await;
    // SPK1 gives two public talks: listed once, with both codes sorted.
    let expected = page(vec![speaker("SPK1", &["APUB", "PUB1"], &[], false)]);
    assert_eq!(server.anon().ok(&p("speakers/")).await, expected);
    assert_eq!(server.token(NOBODY).ok(&p("speakers/")).await, expected);
}

#[tokio::test]
async fn speakers_reviewers_without_names_see_exactly_the_public_set() {
    let server = TestServer::start(&[world()]).await;
    let public = server.anon().ok(&p("speakers/?questions=all")).await;
    assert_eq!(
        public,
        page(vec![speaker("SPK1", &["APUB", "PUB1"], &[109], false)])
    );
    // a team with force_hide_speaker_names
    assert_eq!(
        server.token(BLIND).ok(&p("speakers/?questions=all")).await,
        public
    );
    // a phase without speaker names: every reviewer is blind
    let server = TestServer::start(&[world_with(|e| {
        e["review_phase"] = json!({"can_see_speaker_names": false});
    })])
    .await;
    for token in [REV, TRACK, BLIND] {
        assert_eq!(
            server.token(token).ok(&p("speakers/?questions=all")).await,
            public,
            "{token}"
        );
    }
    // organisers are never blind
    assert_eq!(server.token(ORGA).ok(&p("speakers/")).await["count"], 4);
}

#[tokio::test]
async fn speakers_a_reviewer_with_one_team_not_hiding_names_sees_names() {
    // BLIND also joins a track-2 team without force_hide_speaker_names:
    // not every one of their teams hides names.
    let server = TestServer::start(&[world_with(|e| {
        assert_eq!(e["teams"][2]["name"], "Side reviewers");
        e["teams"][2]["members"] = json!(["TRACKREV", "BLIND"]);
    })])
    .await;
    assert_eq!(
        server.token(BLIND).ok(&p("speakers/")).await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[], false),
            speaker("SPK2", &["SUB2", "SUB3"], &[], false),
            speaker("SPK4", &["SUB4"], &[], false),
        ])
    );
}

#[tokio::test]
async fn speakers_without_a_public_schedule_the_public_set_is_empty() {
    for change in [
        |e: &mut Value| e["show_schedule"] = json!(false),
        |e: &mut Value| {
            e["schedule"] = Value::Null;
            for s in e["submissions"].as_array_mut().unwrap() {
                s.as_object_mut().unwrap().remove("slots");
            }
        },
    ] {
        let server = TestServer::start(&[world_with(change)]).await;
        for client in [server.anon(), server.token(NOBODY), server.token(BLIND)] {
            assert_eq!(client.ok(&p("speakers/")).await, page(vec![]));
            assert_not_found(&client, &p("speakers/SPK1/")).await;
        }
        // reviewers with names still see their submissions' speakers, but
        // APUB and PUB1 are no longer public talks
        assert_eq!(
            server.token(TRACK).ok(&p("speakers/")).await,
            page(vec![speaker("SPK4", &["SUB4"], &[], false)])
        );
        assert_eq!(server.token(REV).ok(&p("speakers/")).await["count"], 3);
    }
}

// ==========================================================================
// Speakers: fields, answers, search, lookups
// ==========================================================================

#[tokio::test]
async fn speaker_availabilities_are_all_day_only_from_local_midnight_to_local_midnight() {
    let server = TestServer::start(&[world()]).await;
    let body = server.token(ORGA).ok(&p("speakers/SPK1/")).await;
    assert_eq!(
        body["availabilities"],
        json!([
            // midnight UTC is 02:00 in Europe/Berlin
            {"id": 1, "start": "2026-06-01T02:00:00+02:00", "end": "2026-06-02T02:00:00+02:00", "allDay": false},
            {"id": 2, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-03T00:00:00+02:00", "allDay": true},
            // only the start is at midnight
            {"id": 3, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-01T12:00:00+02:00", "allDay": false},
            // winter time: 23:00Z is local midnight
            {"id": 4, "start": "2026-01-11T00:00:00+01:00", "end": "2026-01-12T00:00:00+01:00", "allDay": true}
        ])
    );
    // The same instants in a UTC event: midnight UTC is all-day there.
    let server = TestServer::start(&[world_with(|e| e["timezone"] = json!("UTC"))]).await;
    let body = server.token(ORGA).ok(&p("speakers/spk1")).await;
    assert_eq!(
        body["availabilities"],
        json!([
            {"id": 1, "start": "2026-06-01T00:00:00Z", "end": "2026-06-02T00:00:00Z", "allDay": true},
            {"id": 2, "start": "2026-05-31T22:00:00Z", "end": "2026-06-02T22:00:00Z", "allDay": false},
            {"id": 3, "start": "2026-05-31T22:00:00Z", "end": "2026-06-01T10:00:00Z", "allDay": false},
            {"id": 4, "start": "2026-01-10T23:00:00Z", "end": "2026-01-11T23:00:00Z", "allDay": false}
        ])
    );
}

#[tokio::test]
async fn speaker_availabilities_in_edge_time_zones() {
    let data = edge();
    let orga = helpers::token_of(&data, "orga@edge.example");
    let server = TestServer::start(&[data]).await;
    let orga = server.token(&orga);
    // Asia/Kolkata (+05:30)
    assert_eq!(
        orga.ok("/api/events/edge.conf/speakers/EDGSPK/").await["availabilities"],
        json!([
            {"id": 9409, "start": "2026-12-03T00:00:00+05:30", "end": "2026-12-04T00:00:00+05:30", "allDay": true},
            {"id": 9410, "start": "2026-12-04T09:00:00+05:30", "end": "2026-12-04T13:30:00+05:30", "allDay": false}
        ])
    );
    assert_eq!(
        orga.ok("/api/events/EDGE.CONF/speakers/edgs01").await["availabilities"],
        json!([
            // written in UTC, local midnight to local midnight
            {"id": 9411, "start": "2026-12-03T00:00:00+05:30", "end": "2026-12-06T00:00:00+05:30", "allDay": true},
            {"id": 9412, "start": "2026-12-05T10:15:30.123456+05:30", "end": "2026-12-05T11:00:00+05:30", "allDay": false}
        ])
    );
    // America/St_Johns (-03:30): midnight UTC is 20:30 the day before
    let hashonly = server.token(EDGE_HASHONLY_TOKEN);
    assert_eq!(
        hashonly
            .ok("/api/events/edge-private/speakers/EDGS04/")
            .await["availabilities"],
        json!([
            {"id": 9418, "start": "2026-11-20T00:00:00-03:30", "end": "2026-11-21T00:00:00-03:30", "allDay": true},
            {"id": 9419, "start": "2026-11-19T20:30:00-03:30", "end": "2026-11-20T20:30:00-03:30", "allDay": false}
        ])
    );
    // nobody but organisers gets availabilities or e-mails
    let reviewer = server.token(&helpers::token_of(&edge(), "reviewer@edge.example"));
    let body = reviewer.ok("/api/events/edge.conf/speakers/EDGSPK/").await;
    let keys: BTreeSet<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "code",
            "name",
            "biography",
            "submissions",
            "avatar",
            "answers"
        ])
    );
}

#[tokio::test]
async fn speaker_answers_follow_the_questions_parameter_and_the_answer_rule() {
    let server = TestServer::start(&[world()]).await;
    let list = |token: Option<&'static str>, query: &'static str| {
        let client = match token {
            Some(t) => server.token(t),
            None => server.anon(),
        };
        async move { client.ok(&p(&format!("speakers/{query}"))).await }
    };
    // absent or empty: no answers
    for query in ["", "?questions="] {
        assert_eq!(
            list(Some(ORGA), query).await["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["answers"].clone())
                .collect::<Vec<_>>(),
            vec![json!([]); 4],
            "{query:?}"
        );
    }
    assert_eq!(
        list(Some(ORGA), "?questions=all").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[109, 111], true),
            speaker("SPK2", &["SUB2", "SUB3"], &[110], true),
            speaker("SPK3", &[], &[112], true),
            speaker("SPK4", &["SUB4"], &[113], true),
        ])
    );
    // only the listed questions (an unknown id selects nothing)
    assert_eq!(
        list(Some(ORGA), "?questions=7,99").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[111], true),
            speaker("SPK2", &["SUB2", "SUB3"], &[], true),
            speaker("SPK3", &[], &[], true),
            speaker("SPK4", &["SUB4"], &[113], true),
        ])
    );
    assert_eq!(
        list(Some(REV), "?questions=all").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[109, 111], false),
            speaker("SPK2", &["SUB2", "SUB3"], &[110], false),
            speaker("SPK4", &["SUB4"], &[113], false),
        ])
    );
    // TRACKREV reviews none of SPK1's submissions: only the public answer
    assert_eq!(
        list(Some(TRACK), "?questions=all").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1"], &[109], false),
            speaker("SPK4", &["SUB4"], &[113], false)
        ])
    );
    assert_eq!(
        list(None, "?questions=6,7").await,
        page(vec![speaker("SPK1", &["APUB", "PUB1"], &[109], false)])
    );
    // detail endpoints too
    assert_eq!(
        server
            .token(REV)
            .ok(&p("speakers/spk2/?questions=all"))
            .await,
        speaker("SPK2", &["SUB2", "SUB3"], &[110], false)
    );
    assert_eq!(
        server.token(REV).ok(&p("speakers/SPK2")).await,
        speaker("SPK2", &["SUB2", "SUB3"], &[], false)
    );
}

#[tokio::test]
async fn speaker_questions_parameter_is_validated_on_list_and_detail() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    for value in ["abc", "1,", "all,1", "-1", "%201", "1,,2", "ALL"] {
        assert_bad_params(
            &orga,
            &p(&format!("speakers/?questions={value}")),
            &["questions"],
        )
        .await;
        assert_bad_params(
            &orga,
            &p(&format!("speakers/SPK1/?questions={value}")),
            &["questions"],
        )
        .await;
    }
    // with a bad page parameter as well: one key per bad parameter
    assert_bad_params(
        &orga,
        &p("speakers?questions=x&limit=-1"),
        &["questions", "limit"],
    )
    .await;
}

#[tokio::test]
async fn speaker_search_by_email_is_for_organisers_only() {
    let server = TestServer::start(&[world()]).await;
    for token in [ORGA, ADMIN] {
        let client = server.token(token);
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=bob@mini")).await),
            ["SPK2"]
        );
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=MINI.EXAMPLE")).await),
            ["SPK1", "SPK2", "SPK3", "SPK4"]
        );
        // one term in the e-mail, one in the name
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=dee@ fourth")).await),
            ["SPK4"]
        );
    }
    for client in [
        server.token(REV),
        server.token(TRACK),
        server.token(BLIND),
        server.token(NOBODY),
        server.anon(),
    ] {
        assert_eq!(
            client.ok(&p("speakers/?q=mini.example")).await,
            page(vec![])
        );
        assert_eq!(client.ok(&p("speakers/?q=ada@")).await, page(vec![]));
        // ... while the name alone finds her
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=ada")).await),
            ["SPK1"]
        );
    }
    // a reviewer without names searches the public set only
    assert_eq!(
        result_codes(&server.token(BLIND).ok(&p("speakers/?q=bob")).await),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn speaker_search_needs_every_term_in_the_name() {
    let server = TestServer::start(&[world()]).await;
    let rev = server.token(REV);
    assert_eq!(
        rev.ok(&p("speakers/?q=BOB")).await,
        page(vec![speaker("SPK2", &["SUB2", "SUB3"], &[], false)])
    );
    assert_eq!(
        result_codes(&rev.ok(&p("speakers/?q=talker%20bob")).await),
        ["SPK2"]
    );
    assert_eq!(
        result_codes(&rev.ok(&p("speakers/?q=bob+ada")).await),
        Vec::<String>::new()
    );
    // biography is not searched
    assert_eq!(
        result_codes(&rev.ok(&p("speakers/?q=bio")).await),
        Vec::<String>::new()
    );
    // empty q counts as absent
    assert_eq!(rev.ok(&p("speakers/?q=")).await["count"], 3);
    // the public searches only its own set
    assert_eq!(
        result_codes(&server.anon().ok(&p("speakers/?q=bob")).await),
        Vec::<String>::new()
    );
    assert_eq!(
        result_codes(&server.anon().ok(&p("speakers/?q=ADA")).await),
        ["SPK1"]
    );
    // organisers: the profile without submissions is searchable
    assert_eq!(
        result_codes(&server.token(ORGA).ok(&p("speakers/?q=cy")).await),
        ["SPK3"]
    );
}

#[tokio::test]
async fn speaker_detail_is_case_insensitive_and_404_when_invisible() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    assert_eq!(
        orga.ok(&p("speakers/spk3/")).await,
        speaker("SPK3", &[], &[], true)
    );
    assert_eq!(
        orga.ok(&p("speakers/Spk4")).await,
        speaker("SPK4", &["SUB4"], &[], true)
    );
    // detail endpoints ignore list parameters
    assert_eq!(
        server
            .anon()
            .ok(&p("speakers/spk1/?q=nomatch&page=abc&limit=-3"))
            .await,
        speaker("SPK1", &["APUB", "PUB1"], &[], false)
    );
    for (client, code) in [
        (server.anon(), "SPK2"),
        (server.anon(), "SPK3"),
        (server.token(NOBODY), "spk4"),
        (server.token(BLIND), "SPK2"),
        (server.token(TRACK), "SPK2"),
        (server.token(REV), "SPK3"),
        // users without a profile: organisers, reviewers
        (server.token(ORGA), "ORGA"),
        (server.token(ORGA), "REV"),
        (server.token(ORGA), "NOPE"),
    ] {
        assert_not_found(&client, &p(&format!("speakers/{code}/"))).await;
    }
}

#[tokio::test]
async fn speakers_pagination_in_both_styles() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let base = &server.base;
    let first = orga.ok(&p("speakers/?limit=2")).await;
    assert_eq!(first["count"], 4);
    assert_eq!(result_codes(&first), ["SPK1", "SPK2"]);
    assert_link(
        &first["next"],
        base,
        Some("/api/events/mini/speakers/?limit=2&offset=2"),
    );
    assert_link(&first["previous"], base, None);
    let second = orga.ok(&p("speakers/?limit=2&offset=2")).await;
    assert_eq!(result_codes(&second), ["SPK3", "SPK4"]);
    assert_link(&second["next"], base, None);
    assert_link(
        &second["previous"],
        base,
        Some("/api/events/mini/speakers/?limit=2&offset=0"),
    );
    // page style, without the trailing slash, keeping the other parameters
    let last = orga
        .ok(&p("speakers?questions=all&page=2&page_size=3"))
        .await;
    assert_eq!(last["count"], 4);
    assert_eq!(
        last["results"],
        json!([speaker("SPK4", &["SUB4"], &[113], true)])
    );
    assert_link(&last["next"], base, None);
    assert_link(
        &last["previous"],
        base,
        Some("/api/events/mini/speakers?questions=all&page=1&page_size=3"),
    );
    let reply = orga.get(&p("speakers/?page=3&page_size=3")).await;
    assert_eq!(
        (reply.status, reply.body),
        (404, json!({"detail": "Invalid page."}))
    );
    // past the end with offsets: empty results
    let beyond = orga.ok(&p("speakers/?offset=10")).await;
    assert_eq!(
        (beyond["count"].clone(), beyond["results"].clone()),
        (json!(4), json!([]))
    );
    assert_bad_params(&orga, &p("speakers/?page=abc"), &["page"]).await;
    // following `next` gives everything once
    let all = orga.all(&p("speakers/?limit=1")).await;
    assert_eq!(
        all.iter()
            .map(|s| s["code"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["SPK1", "SPK2", "SPK3", "SPK4"]
    );
    // the public's page of an empty list
    let server = TestServer::start(&[world_with(|e| e["show_schedule"] = json!(false))]).await;
    assert_eq!(server.anon().ok(&p("speakers/?page=1")).await, page(vec![]));
}

#[tokio::test]
async fn speakers_trailing_slash_case_and_unknown_events() {
    let server = TestServer::start(&[world_with(|e| e["is_public"] = json!(false))]).await;
    let rev = server.token(REV);
    assert_same(&rev, &p("speakers/"), "/api/events/MINI/speakers").await;
    assert_same(&rev, &p("speakers/SPK1/"), &p("speakers/spk1")).await;
    assert_same(
        &rev,
        &p("speakers/SPK1?questions=all"),
        &p("speakers/sPk1/?questions=all"),
    )
    .await;
    for client in [server.anon(), server.token(NOBODY), rev] {
        for path in [
            "/api/events/nope/speakers/",
            "/api/events/nope/speakers",
            "/api/events/nope/speakers/SPK1/",
        ] {
            assert_forbidden(&client, path).await;
        }
    }
    // the private event is invisible to the public
    for client in [server.anon(), server.token(NOBODY)] {
        for path in [p("speakers/"), p("speakers"), p("speakers/SPK1")] {
            assert_forbidden(&client, &path).await;
        }
    }
}

// ==========================================================================
// Questions: which, per role
// ==========================================================================

#[tokio::test]
async fn questions_organisers_see_all_by_position_then_id() {
    let server = TestServer::start(&[world()]).await;
    // positions: 4:0, 1:1, 6:1, 2:2, 3:2, 7:3, 8:4, 9:4, 5:5 (inactive)
    let expected = page(questions(&[4, 1, 6, 2, 3, 7, 8, 9, 5]));
    for token in [ORGA, ADMIN] {
        assert_eq!(
            server.token(token).ok(&p("questions/")).await,
            expected,
            "{token}"
        );
    }
}

#[tokio::test]
async fn questions_reviewers_see_active_reviewer_questions_and_public_ones() {
    let server = TestServer::start(&[world()]).await;
    // active and visible to reviewers: 1 2 6 7 8; active and public: 1 3 6 8
    let expected = page(questions(&[1, 6, 2, 3, 7, 8]));
    for token in [REV, TRACK, BLIND] {
        assert_eq!(
            server.token(token).ok(&p("questions/")).await,
            expected,
            "{token}"
        );
    }
    // without a public schedule the public ones go
    let server = TestServer::start(&[world_with(|e| e["show_schedule"] = json!(false))]).await;
    assert_eq!(
        server.token(REV).ok(&p("questions/")).await,
        page(questions(&[1, 6, 2, 7, 8]))
    );
}

#[tokio::test]
async fn questions_the_public_sees_active_public_ones_while_the_schedule_is_public() {
    let server = TestServer::start(&[world()]).await;
    let expected = page(questions(&[1, 6, 3, 8]));
    assert_eq!(server.anon().ok(&p("questions/")).await, expected);
    assert_eq!(server.token(NOBODY).ok(&p("questions")).await, expected);
    for change in [
        |e: &mut Value| e["show_schedule"] = json!(false),
        |e: &mut Value| {
            e["schedule"] = Value::Null;
            for s in e["submissions"].as_array_mut().unwrap() {
                s.as_object_mut().unwrap().remove("slots");
            }
        },
    ] {
        let server = TestServer::start(&[world_with(change)]).await;
        assert_eq!(server.anon().ok(&p("questions/")).await, page(vec![]));
        assert_eq!(
            server
                .token(NOBODY)
                .ok(&p("questions/?is_public=true"))
                .await,
            page(vec![])
        );
        assert_not_found(&server.anon(), &p("questions/1/")).await;
    }
    // a private event: 403 for the public, the reviewer sees its questions
    let server = TestServer::start(&[world_with(|e| e["is_public"] = json!(false))]).await;
    assert_forbidden(&server.anon(), &p("questions/")).await;
    assert_forbidden(&server.token(NOBODY), &p("questions/1")).await;
    assert_eq!(
        server.token(REV).ok(&p("questions/")).await,
        page(questions(&[1, 6, 2, 7, 8]))
    );
}

// ==========================================================================
// Questions: fields computed at request time
// ==========================================================================

/// mini() with questions whose `required`/`read_only` depend on the clock
/// (deadlines and freeze dates far in the past or the future), and answers
/// to them on the public talk.
fn clock_questions() -> Value {
    let mut d = mini();
    let e = &mut d["events"][0];
    e["questions"] = json!([
        {"id": 21, "question": "Past deadline", "question_required": "after_deadline",
         "deadline": "2020-01-01T00:00:00Z", "position": 1},
        {"id": 22, "question": "Future deadline", "question_required": "after_deadline",
         "deadline": "2035-06-30T18:29:59.5+05:30", "position": 2},
        {"id": 23, "question": "No deadline", "question_required": "after_deadline", "position": 3},
        {"id": 24, "question": "Required, frozen", "question_required": "required",
         "freeze_after": "2020-06-01T12:00:00+02:00", "position": 4},
        {"id": 25, "question": "Required, freezes later", "question_required": "required",
         "freeze_after": "2035-01-01T00:00:00Z", "position": 5},
        {"id": 26, "question": "Optional", "position": 6},
        {"id": 27, "question": "Past deadline, frozen", "question_required": "after_deadline",
         "deadline": "2020-01-01T00:00:00Z", "freeze_after": "2020-01-02T00:00:00Z", "position": 7},
        {"id": 28, "question": "Optional, frozen", "freeze_after": "2020-01-02T00:00:00Z", "position": 8}
    ]);
    e["answers"] = json!([
        {"id": 301, "question": 21, "answer": "a", "submission": "PUB1"},
        {"id": 302, "question": 24, "answer": "b", "submission": "PUB1"},
        {"id": 303, "question": 25, "answer": "c", "submission": "PUB1"}
    ]);
    d
}

fn clock_question(id: i64, text: &str, question_required: &str, overrides: Value) -> Value {
    merge(
        json!({
            "id": id, "variant": "string", "target": "submission", "question": {"en": text},
            "help_text": {}, "question_required": question_required, "deadline": null, "required": false,
            "read_only": false, "freeze_after": null, "options": [], "default_answer": null,
            "contains_personal_data": true, "min_length": null, "max_length": null,
            "is_public": false, "is_visible_to_reviewers": true, "tracks": [], "submission_types": []
        }),
        overrides,
    )
}

#[tokio::test]
async fn questions_required_and_read_only_are_computed_at_request_time() {
    let server = TestServer::start(&[clock_questions()]).await;
    let expected = page(vec![
        clock_question(
            21,
            "Past deadline",
            "after_deadline",
            json!({"deadline": "2020-01-01T01:00:00+01:00", "required": true}),
        ),
        // fractional seconds as microseconds, in the event's zone (summer time)
        clock_question(
            22,
            "Future deadline",
            "after_deadline",
            json!({"deadline": "2035-06-30T14:59:59.500000+02:00"}),
        ),
        // after_deadline without a deadline: not required
        clock_question(23, "No deadline", "after_deadline", json!({})),
        // frozen: read-only, and so not required
        clock_question(
            24,
            "Required, frozen",
            "required",
            json!({"freeze_after": "2020-06-01T12:00:00+02:00", "read_only": true}),
        ),
        clock_question(
            25,
            "Required, freezes later",
            "required",
            json!({"freeze_after": "2035-01-01T01:00:00+01:00", "required": true}),
        ),
        clock_question(26, "Optional", "optional", json!({})),
        clock_question(
            27,
            "Past deadline, frozen",
            "after_deadline",
            json!({"deadline": "2020-01-01T01:00:00+01:00", "freeze_after": "2020-01-02T01:00:00+01:00",
                   "read_only": true}),
        ),
        clock_question(
            28,
            "Optional, frozen",
            "optional",
            json!({"freeze_after": "2020-01-02T01:00:00+01:00", "read_only": true}),
        ),
    ]);
    assert_eq!(server.token(ORGA).ok(&p("questions/")).await, expected);
    assert_eq!(server.token(REV).ok(&p("questions/")).await, expected);
    assert_eq!(
        server.token(REV).ok(&p("questions/24/")).await,
        expected["results"][3]
    );
}

#[tokio::test]
async fn questions_nested_in_submission_answers_carry_the_computed_required() {
    let server = TestServer::start(&[clock_questions()]).await;
    let nested = |id: i64, q: i64, text: &str, answer: &str, required: bool| {
        json!({"id": id, "question": {"id": q, "question": {"en": text}, "required": required,
               "target": "submission", "options": []},
               "answer": answer, "answer_file": null, "submission": "PUB1", "review": null, "person": null,
               "options": []})
    };
    let body = server
        .token(REV)
        .ok(&p("submissions/PUB1/?questions=all"))
        .await;
    assert_eq!(
        body["answers"],
        json!([
            nested(301, 21, "Past deadline", "a", true),
            nested(302, 24, "Required, frozen", "b", false),
            nested(303, 25, "Required, freezes later", "c", true)
        ])
    );
    // /answers shows only id and question text
    assert_eq!(
        server.token(REV).ok(&p("answers/302/")).await,
        json!({"id": 302, "question": {"id": 24, "question": {"en": "Required, frozen"}}, "answer": "b",
               "answer_file": null, "submission": "PUB1", "review": null, "person": null, "options": []})
    );
}

// ==========================================================================
// Questions: filters and lookups
// ==========================================================================

async fn question_ids(client: &Client, query: &str) -> Vec<i64> {
    result_ids(&client.ok(&p(&format!("questions/{query}"))).await)
}

#[tokio::test]
async fn questions_filters() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let cases: &[(&str, &[i64])] = &[
        // q: any translation, case-insensitive, every term
        ("?q=zielgruppe", &[1]),
        ("?q=AUDIENCE", &[1, 5]),
        ("?q=audience+ZIEL", &[1]),
        ("?q=audience+nope", &[]),
        // inside words, and terms that only meet across languages
        ("?q=ielgrupp", &[1]),
        ("?q=dience+zielg", &[1]),
        ("?q=pected+ziel", &[]),
        ("?q=first%20time", &[7]),
        ("?q=organiser", &[4]),
        ("?q=", &[4, 1, 6, 2, 3, 7, 8, 9, 5]),
        ("?target=speaker", &[6, 7]),
        ("?target=reviewer", &[8, 9]),
        ("?target=submission", &[4, 1, 2, 3, 5]),
        ("?target=", &[4, 1, 6, 2, 3, 7, 8, 9, 5]),
        // the last value counts
        ("?target=bogus&target=speaker", &[6, 7]),
        ("?variant=number", &[8, 5]),
        ("?variant=multiple_choice", &[1]),
        ("?variant=file", &[]),
        ("?is_public=TRUE", &[1, 6, 3, 8, 5]),
        ("?is_public=1", &[1, 6, 3, 8, 5]),
        ("?is_public=False", &[4, 2, 7, 9]),
        ("?is_public=0", &[4, 2, 7, 9]),
        ("?is_visible_to_reviewers=false", &[4, 3, 9]),
        ("?is_visible_to_reviewers=tRuE", &[1, 6, 2, 7, 8, 5]),
        ("?target=submission&is_public=true", &[1, 3, 5]),
        (
            "?target=submission&is_public=true&is_visible_to_reviewers=0&q=slides",
            &[3],
        ),
    ];
    for (query, expected) in cases {
        assert_eq!(question_ids(&orga, query).await, *expected, "{query}");
    }
    // filters apply within the caller's set
    let rev = server.token(REV);
    assert_eq!(
        question_ids(&rev, "?is_visible_to_reviewers=false").await,
        [3]
    );
    assert_eq!(question_ids(&rev, "?is_public=false").await, [2, 7]);
    assert_eq!(question_ids(&rev, "?q=organiser").await, Vec::<i64>::new());
    assert_eq!(
        question_ids(&server.anon(), "?is_public=false").await,
        Vec::<i64>::new()
    );
    assert_eq!(question_ids(&server.anon(), "?target=reviewer").await, [8]);
    // full objects through a filter
    assert_eq!(
        server.anon().ok(&p("questions/?target=speaker")).await,
        page(questions(&[6]))
    );
}

#[tokio::test]
async fn questions_filter_errors_are_400_with_one_key_per_parameter() {
    let server = TestServer::start(&[world()]).await;
    let client = server.anon();
    assert_bad_params(&client, &p("questions/?target=talk"), &["target"]).await;
    assert_bad_params(&client, &p("questions/?variant=nope"), &["variant"]).await;
    assert_bad_params(&client, &p("questions/?is_public=yes"), &["is_public"]).await;
    assert_bad_params(&client, &p("questions/?is_public=2"), &["is_public"]).await;
    assert_bad_params(
        &client,
        &p("questions/?is_visible_to_reviewers=maybe"),
        &["is_visible_to_reviewers"],
    )
    .await;
    assert_bad_params(
        &client,
        &p("questions?variant=x&is_visible_to_reviewers=maybe&page=0x"),
        &["variant", "is_visible_to_reviewers", "page"],
    )
    .await;
    // the last value counts: a good value after a bad one is fine, not vice versa
    assert_bad_params(
        &client,
        &p("questions/?is_public=true&is_public=nope"),
        &["is_public"],
    )
    .await;
    assert_eq!(
        question_ids(&client, "?is_public=nope&is_public=true").await,
        [1, 6, 3, 8]
    );
}

#[tokio::test]
async fn question_detail_lookups() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    for id in [1, 4, 5, 9] {
        assert_eq!(
            orga.ok(&p(&format!("questions/{id}/"))).await,
            q(id),
            "{id}"
        );
    }
    // detail endpoints ignore list parameters
    assert_eq!(
        orga.ok(&p("questions/6?target=bogus&is_public=maybe&page=x"))
            .await,
        q(6)
    );
    let rev = server.token(REV);
    assert_eq!(rev.ok(&p("questions/3")).await, q(3));
    for id in ["4", "5", "9", "99", "abc", "-1", "1.0", "0"] {
        assert_not_found(&rev, &p(&format!("questions/{id}/"))).await;
    }
    for id in ["2", "7", "4", "5", "9"] {
        assert_not_found(&server.anon(), &p(&format!("questions/{id}"))).await;
    }
    assert_eq!(server.anon().ok(&p("questions/8/")).await, q(8));
    for path in [
        "/api/events/nope/questions/",
        "/api/events/nope/questions",
        "/api/events/nope/questions/1/",
    ] {
        assert_forbidden(&orga, path).await;
    }
}

#[tokio::test]
async fn questions_pagination_and_trailing_slash() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let base = &server.base;
    assert_same(&orga, &p("questions/"), "/api/events/Mini/questions").await;
    assert_same(&orga, &p("questions/1/"), &p("questions/1")).await;
    // limit/offset, without the slash, keeping the filter
    let first = orga.ok(&p("questions?target=submission&limit=2")).await;
    assert_eq!(
        (first["count"].clone(), result_ids(&first)),
        (json!(5), vec![4, 1])
    );
    assert_link(
        &first["next"],
        base,
        Some("/api/events/mini/questions?target=submission&limit=2&offset=2"),
    );
    assert_link(&first["previous"], base, None);
    let middle = orga
        .ok(&p("questions?target=submission&limit=2&offset=2"))
        .await;
    assert_eq!(result_ids(&middle), [2, 3]);
    assert_link(
        &middle["next"],
        base,
        Some("/api/events/mini/questions?target=submission&limit=2&offset=4"),
    );
    assert_link(
        &middle["previous"],
        base,
        Some("/api/events/mini/questions?target=submission&limit=2&offset=0"),
    );
    // page style wins over limit/offset
    let second = orga
        .ok(&p("questions/?page=2&page_size=4&limit=1&offset=7"))
        .await;
    assert_eq!(result_ids(&second), [3, 7, 8, 9]);
    assert_link(
        &second["next"],
        base,
        Some("/api/events/mini/questions/?page=3&page_size=4&limit=1&offset=7"),
    );
    assert_link(
        &second["previous"],
        base,
        Some("/api/events/mini/questions/?page=1&page_size=4&limit=1&offset=7"),
    );
    let all = orga.all(&p("questions/?limit=2")).await;
    assert_eq!(ids_of(&Value::Array(all)), [4, 1, 6, 2, 3, 7, 8, 9, 5]);
    let reply = orga.get(&p("questions/?page=0")).await;
    assert_eq!(
        (reply.status, reply.body),
        (404, json!({"detail": "Invalid page."}))
    );
    assert_bad_params(&orga, &p("questions/?offset=-1"), &["offset"]).await;
}

// ==========================================================================
// Answers: the single visibility rule
// ==========================================================================

#[tokio::test]
async fn answers_per_role_follow_one_rule() {
    let server = TestServer::start(&[world()]).await;
    let public = page(answers(&[101, 105, 109]));
    assert_eq!(server.anon().ok(&p("answers/")).await, public);
    assert_eq!(server.token(NOBODY).ok(&p("answers/")).await, public);
    assert_eq!(
        server.token(REV).ok(&p("answers/")).await,
        page(answers(&[
            101, 102, 103, 105, 108, 109, 110, 111, 113, 114, 116
        ]))
    );
    assert_eq!(
        server.token(TRACK).ok(&p("answers/")).await,
        page(answers(&[101, 105, 108, 109, 113, 116]))
    );
    assert_eq!(
        server.token(BLIND).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 105, 108, 109, 114, 116]))
    );
    let all: Vec<i64> = (101..=116).collect();
    for token in [ORGA, ADMIN] {
        assert_eq!(
            server.token(token).ok(&p("answers/")).await,
            page(answers(&all)),
            "{token}"
        );
    }
}

#[tokio::test]
async fn answers_a_public_question_hidden_from_reviewers_stays_hidden_on_a_reviewer_only_submission(
) {
    // Question 3 is public but not visible to reviewers; SUB2 is no public
    // talk, so REV sees it only as a reviewer: answer 104 is visible by no
    // single rule. Answer 105 (same question, public talk) is public.
    let server = TestServer::start(&[world()]).await;
    let rev = server.token(REV);
    assert_eq!(
        rev.ok(&p("answers/?question=3")).await,
        page(answers(&[105]))
    );
    assert_eq!(
        rev.ok(&p("answers/?submission=sub2")).await,
        page(answers(&[102]))
    );
    assert_not_found(&rev, &p("answers/104/")).await;
    assert_eq!(rev.ok(&p("answers/105/")).await, a(105));
    // nested: the submission, and the talk
    assert_eq!(
        rev.ok(&p("submissions/SUB2/?questions=all")).await["answers"],
        json!([sub_a(102)])
    );
    assert_eq!(
        rev.ok(&p("submissions/SUB2/?questions=3")).await["answers"],
        json!([])
    );
    assert_eq!(
        rev.ok(&p("submissions/PUB1/?questions=all")).await["answers"],
        json!([sub_a(101), sub_a(103), sub_a(105)])
    );
    // the organiser sees both
    assert_eq!(
        server.token(ORGA).ok(&p("answers/?question=3")).await,
        page(answers(&[104, 105]))
    );
}

#[tokio::test]
async fn answers_a_reviewer_question_on_a_public_talk_without_reviewer_access_is_hidden() {
    // Question 2 is visible to reviewers but not public; PUB1 is a public
    // talk in track 1, which TRACKREV does not review: 103 is hidden from
    // them, while the public answers of PUB1 stay visible.
    let server = TestServer::start(&[world()]).await;
    let track = server.token(TRACK);
    assert_eq!(
        track.ok(&p("answers/?submission=PUB1")).await,
        page(answers(&[101, 105]))
    );
    assert_not_found(&track, &p("answers/103")).await;
    assert_eq!(
        track.ok(&p("talks/pub1/?questions=all")).await["answers"],
        json!([sub_a(101), sub_a(105)])
    );
    assert_eq!(
        track.ok(&p("submissions/PUB1?questions=2")).await["answers"],
        json!([])
    );
    // ... but the same question on a submission of their track is theirs
    assert_eq!(
        track.ok(&p("answers/?question=2")).await,
        page(answers(&[108]))
    );
    assert_eq!(
        track.ok(&p("submissions/SUB4/?questions=all")).await["answers"],
        json!([sub_a(108)])
    );
    // speakers: the reviewer-only answer of SPK1 (111) is hidden as well
    assert_eq!(
        track.ok(&p("speakers/SPK1/?questions=all")).await,
        speaker("SPK1", &["APUB", "PUB1"], &[109], false)
    );
    assert_eq!(
        track.ok(&p("answers/?person=spk1")).await,
        page(answers(&[109]))
    );
    // REV reviews track 1: sees 103 and 111
    assert_eq!(
        server.token(REV).ok(&p("answers/?submission=PUB1")).await,
        page(answers(&[101, 103, 105]))
    );
    assert_eq!(
        server.token(REV).ok(&p("answers/?person=SPK1")).await,
        page(answers(&[109, 111]))
    );
}

#[tokio::test]
async fn answers_on_reviews_are_never_public() {
    // Question 8 is public and visible to reviewers; its answers belong to reviews.
    let server = TestServer::start(&[world()]).await;
    for client in [server.anon(), server.token(NOBODY)] {
        assert_eq!(client.ok(&p("answers/?question=8")).await, page(vec![]));
        assert_eq!(client.ok(&p("answers/?review=201")).await, page(vec![]));
        assert_not_found(&client, &p("answers/114/")).await;
        assert_eq!(client.ok(&p("reviews/")).await, page(vec![]));
    }
    // reviewers: by the reviews they may see
    let reviews_answers = |body: Value| -> Vec<(i64, Vec<i64>)> {
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["id"].as_i64().unwrap(), ids_of(&r["answers"])))
            .collect()
    };
    assert_eq!(
        reviews_answers(server.token(REV).ok(&p("reviews/")).await),
        [(201, vec![114]), (202, vec![116]), (203, vec![])]
    );
    assert_eq!(
        server.token(REV).ok(&p("reviews/202/")).await["answers"],
        json!([a(116)])
    );
    // TRACKREV sees only their own review (on SUB4)
    assert_eq!(
        reviews_answers(server.token(TRACK).ok(&p("reviews/")).await),
        [(202, vec![116])]
    );
    assert_eq!(
        server.token(TRACK).ok(&p("answers/?question=8")).await,
        page(answers(&[116]))
    );
    assert_not_found(&server.token(TRACK), &p("answers/114/")).await;
    // question 9 is hidden from reviewers, also on visible reviews
    assert_not_found(&server.token(BLIND), &p("answers/115")).await;
    assert_eq!(
        server.token(BLIND).ok(&p("answers/?review=202")).await,
        page(answers(&[116]))
    );
    assert_eq!(
        reviews_answers(server.token(ORGA).ok(&p("reviews/")).await),
        [(201, vec![114]), (202, vec![115, 116]), (203, vec![])]
    );
}

#[tokio::test]
async fn answers_of_persons_are_shown_to_reviewers_only_with_names() {
    let server = TestServer::start(&[world()]).await;
    // REV (names): every speaker of their submissions
    assert_eq!(
        server.token(REV).ok(&p("answers/?question=6")).await,
        page(answers(&[109, 110]))
    );
    assert_eq!(
        server.token(REV).ok(&p("answers/?question=7")).await,
        page(answers(&[111, 113]))
    );
    // BLIND (no names): only the public answer of the public speaker
    let blind = server.token(BLIND);
    assert_eq!(
        blind.ok(&p("answers/?question=6")).await,
        page(answers(&[109]))
    );
    assert_eq!(blind.ok(&p("answers/?question=7")).await, page(vec![]));
    for id in [110, 111, 113] {
        assert_not_found(&blind, &p(&format!("answers/{id}/"))).await;
    }
    // the same with a phase that hides names from every reviewer
    let server = TestServer::start(&[world_with(|e| {
        e["review_phase"] = json!({"can_see_speaker_names": false});
    })])
    .await;
    assert_eq!(
        server.token(REV).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 105, 108, 109, 114, 116]))
    );
    // the profile without submissions: organisers only
    assert_eq!(
        server.token(ORGA).ok(&p("answers/?person=spk3")).await,
        page(answers(&[112]))
    );
}

#[tokio::test]
async fn answers_without_a_public_schedule_only_the_reviewer_rule_is_left() {
    let server = TestServer::start(&[world_with(|e| e["show_schedule"] = json!(false))]).await;
    assert_eq!(server.anon().ok(&p("answers/")).await, page(vec![]));
    assert_not_found(&server.anon(), &p("answers/101/")).await;
    // 105 (question 3: public, hidden from reviewers) goes
    assert_eq!(
        server.token(REV).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 108, 109, 110, 111, 113, 114, 116]))
    );
    // TRACKREV reviews SUB4 only; PUB1 is no public talk any more
    assert_eq!(
        server.token(TRACK).ok(&p("answers/")).await,
        page(answers(&[108, 113, 116]))
    );
    // BLIND: reviewer rule on submissions and reviews, no persons
    assert_eq!(
        server.token(BLIND).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 108, 114, 116]))
    );
}

#[tokio::test]
async fn answers_nested_in_submissions_follow_the_same_rule() {
    let server = TestServer::start(&[world()]).await;
    let nested = |body: Value| -> BTreeMap<String, Value> {
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["code"].as_str().unwrap().to_string(),
                    s["answers"].clone(),
                )
            })
            .collect()
    };
    let expect = |rows: &[(&str, &[i64])]| -> BTreeMap<String, Value> {
        rows.iter()
            .map(|(code, ids)| {
                (
                    code.to_string(),
                    json!(ids.iter().map(|&i| sub_a(i)).collect::<Vec<_>>()),
                )
            })
            .collect()
    };
    assert_eq!(
        nested(server.anon().ok(&p("submissions/?questions=all")).await),
        expect(&[("APUB", &[]), ("PUB1", &[101, 105])])
    );
    assert_eq!(
        nested(server.token(REV).ok(&p("submissions/?questions=all")).await),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[101, 103, 105]),
            ("SUB2", &[102]),
            ("SUB3", &[]),
            ("SUB4", &[108])
        ])
    );
    assert_eq!(
        nested(
            server
                .token(TRACK)
                .ok(&p("submissions/?questions=all"))
                .await
        ),
        expect(&[("APUB", &[]), ("PUB1", &[101, 105]), ("SUB4", &[108])])
    );
    // anonymised submissions keep the answers the reviewer may see
    assert_eq!(
        nested(
            server
                .token(BLIND)
                .ok(&p("submissions/?questions=all"))
                .await
        ),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[101, 103, 105]),
            ("SUB2", &[102]),
            ("SUB3", &[]),
            ("SUB4", &[108])
        ])
    );
    assert_eq!(
        nested(
            server
                .token(ORGA)
                .ok(&p("submissions/?questions=all"))
                .await
        ),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[101, 103, 105, 107]),
            ("SUB2", &[102, 104]),
            ("SUB3", &[106]),
            ("SUB4", &[108])
        ])
    );
    // a question list selects within the visible ones
    assert_eq!(
        nested(
            server
                .token(ORGA)
                .ok(&p("submissions/?questions=3,5"))
                .await
        ),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[105, 107]),
            ("SUB2", &[104]),
            ("SUB3", &[]),
            ("SUB4", &[])
        ])
    );
}

// ==========================================================================
// Answers: filters, lookups, pagination
// ==========================================================================

async fn answer_ids(client: &Client, query: &str) -> Vec<i64> {
    result_ids(&client.ok(&p(&format!("answers/{query}"))).await)
}

#[tokio::test]
async fn answers_filters() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let cases: &[(&str, &[i64])] = &[
        ("?q=EXPERT", &[102]),
        ("?q=beginner", &[101, 102]),
        ("?q=slides.example+PUB1", &[105]),
        ("?q=slides%20nope", &[]),
        ("?question=6", &[109, 110, 112]),
        ("?question=999", &[]),
        ("?question=0", &[]),
        (
            "?question=",
            &[
                101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116,
            ],
        ),
        ("?submission=pub1", &[101, 103, 105, 107]),
        ("?submission=SUB3", &[106]),
        ("?submission=NOPE", &[]),
        ("?review=202", &[115, 116]),
        ("?review=999", &[]),
        ("?person=spk1", &[109, 111]),
        ("?person=SPK3", &[112]),
        ("?person=ORGA", &[]),
        ("?question=8&review=202", &[116]),
        ("?question=1&submission=Sub2&q=expert", &[102]),
        ("?submission=PUB1&person=SPK1", &[]),
        ("?question=abc&question=6", &[109, 110, 112]),
    ];
    for (query, expected) in cases {
        assert_eq!(answer_ids(&orga, query).await, *expected, "{query}");
    }
    // filters apply within the caller's set
    let anon = server.anon();
    assert_eq!(answer_ids(&anon, "?person=spk2").await, Vec::<i64>::new());
    assert_eq!(
        answer_ids(&anon, "?submission=sub2").await,
        Vec::<i64>::new()
    );
    assert_eq!(answer_ids(&anon, "?submission=pub1").await, [101, 105]);
    assert_eq!(
        anon.ok(&p("answers/?person=Spk1")).await,
        page(answers(&[109]))
    );
}

#[tokio::test]
async fn answers_malformed_numbers_are_400_with_the_parameter_as_key() {
    let server = TestServer::start(&[world()]).await;
    let client = server.token(REV);
    for value in ["abc", "-1", "1.5", "1e3", "0x10"] {
        assert_bad_params(
            &client,
            &p(&format!("answers/?question={value}")),
            &["question"],
        )
        .await;
        assert_bad_params(
            &client,
            &p(&format!("answers/?review={value}")),
            &["review"],
        )
        .await;
    }
    assert_bad_params(
        &client,
        &p("answers?question=abc&review=-1&page=x"),
        &["question", "review", "page"],
    )
    .await;
    // the last value counts
    assert_bad_params(&client, &p("answers/?review=201&review=x"), &["review"]).await;
}

#[tokio::test]
async fn answer_detail_lookups() {
    let server = TestServer::start(&[world()]).await;
    assert_eq!(server.anon().ok(&p("answers/101/")).await, a(101));
    assert_eq!(server.anon().ok(&p("answers/109")).await, a(109));
    // detail endpoints ignore list parameters
    assert_eq!(
        server
            .anon()
            .ok(&p("answers/105/?question=abc&person=nobody"))
            .await,
        a(105)
    );
    for id in [
        "102", "103", "104", "106", "107", "110", "114", "abc", "-1", "99999", "0", "1e2",
    ] {
        assert_not_found(&server.anon(), &p(&format!("answers/{id}/"))).await;
    }
    let orga = server.token(ORGA);
    for id in 101..=116 {
        assert_eq!(orga.ok(&p(&format!("answers/{id}"))).await, a(id), "{id}");
    }
    assert_not_found(&orga, &p("answers/201/")).await;
}

#[tokio::test]
async fn answers_pagination_trailing_slash_and_unknown_events() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let base = &server.base;
    assert_same(&orga, &p("answers/"), "/api/events/MINI/answers").await;
    assert_same(&orga, &p("answers/101/"), &p("answers/101")).await;
    let second = orga.ok(&p("answers/?page=2&page_size=5")).await;
    assert_eq!(second["count"], 16);
    assert_eq!(
        second["results"],
        json!(answers(&[106, 107, 108, 109, 110]))
    );
    assert_link(
        &second["next"],
        base,
        Some("/api/events/mini/answers/?page=3&page_size=5"),
    );
    assert_link(
        &second["previous"],
        base,
        Some("/api/events/mini/answers/?page=1&page_size=5"),
    );
    let tail = orga.ok(&p("answers?question=6&limit=2&offset=2")).await;
    assert_eq!(tail["count"], 3);
    assert_eq!(tail["results"], json!(answers(&[112])));
    assert_link(&tail["next"], base, None);
    assert_link(
        &tail["previous"],
        base,
        Some("/api/events/mini/answers?question=6&limit=2&offset=0"),
    );
    let reply = orga.get(&p("answers/?page=5&page_size=4")).await;
    assert_eq!(
        (reply.status, reply.body),
        (404, json!({"detail": "Invalid page."}))
    );
    // limit=0: the default size
    assert_eq!(
        orga.ok(&p("answers/?limit=0")).await,
        page(answers(&(101..=116).collect::<Vec<_>>()))
    );
    for path in [
        "/api/events/nope/answers/",
        "/api/events/nope/answers",
        "/api/events/nope/answers/101/",
    ] {
        assert_forbidden(&server.anon(), path).await;
        assert_forbidden(&orga, path).await;
    }
    let server = TestServer::start(&[world_with(|e| e["is_public"] = json!(false))]).await;
    assert_forbidden(&server.anon(), &p("answers/")).await;
    assert_forbidden(&server.token(NOBODY), &p("answers/101")).await;
    assert_eq!(server.token(REV).ok(&p("answers/101")).await, a(101));
}

// ==========================================================================
// Consistency over the shared datasets: /answers = the nested answers
// ==========================================================================

/// A caller of a dataset: who (e-mail), user code, token (None: anonymous).
struct Caller {
    who: String,
    code: Option<String>,
    token: Option<String>,
}

impl Caller {
    fn client(&self, server: &TestServer) -> Client {
        match &self.token {
            Some(t) => server.token(t),
            None => server.anon(),
        }
    }
}

/// Every caller of a dataset: anonymous plus the first token of each user,
/// plus `extra` (e-mail, user code, token) for users stored with hashes only.
fn callers(dataset: &Value, extra: &[(&str, &str, &str)]) -> Vec<Caller> {
    let mut out = vec![Caller {
        who: "anonymous".into(),
        code: None,
        token: None,
    }];
    for user in dataset["users"].as_array().unwrap() {
        if let Some(token) = user["tokens"][0].as_str() {
            out.push(Caller {
                who: user["email"].as_str().unwrap().into(),
                code: Some(user["code"].as_str().unwrap().into()),
                token: Some(token.into()),
            });
        }
    }
    for (who, code, token) in extra {
        out.push(Caller {
            who: who.to_string(),
            code: Some(code.to_string()),
            token: Some(token.to_string()),
        });
    }
    out
}

/// behaviour.md §3: an administrator, or a member of a team of the event
/// with `can_change_submissions`.
fn is_organiser(dataset: &Value, event: &Value, code: Option<&str>) -> bool {
    let Some(code) = code else { return false };
    let admin = dataset["users"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["code"] == code && u["is_administrator"] == true);
    admin
        || event["teams"].as_array().into_iter().flatten().any(|t| {
            t["can_change_submissions"] == true
                && t["members"].as_array().unwrap().iter().any(|m| m == code)
        })
}

const EDGE_HASHONLY: (&str, &str, &str) = ("hashonly@edge.example", "EDGHASH", EDGE_HASHONLY_TOKEN);

/// For one caller and event: the answers of `/answers/` (all pages) are
/// exactly those nested in `/submissions/?questions=all`,
/// `/speakers/?questions=all` and `/reviews/`, as the same objects (a
/// submission's also show the question's `required`, `target`, `options`),
/// and every answer id of the event answers its detail iff listed.
async fn check_answer_consistency(client: &Client, slug: &str, event: &Value, who: &str) {
    let base = format!("/api/events/{slug}");
    let visible = client.get(&format!("{base}/")).await;
    if visible.status == 403 {
        for path in ["answers/", "submissions/", "speakers/", "reviews/"] {
            assert_forbidden(client, &format!("{base}/{path}")).await;
        }
        return;
    }
    assert_eq!(visible.status, 200, "{who} {slug}");
    let listed: BTreeMap<i64, Value> = client
        .all(&format!("{base}/answers/?limit=1000"))
        .await
        .into_iter()
        .map(|a| (a["id"].as_i64().unwrap(), a))
        .collect();
    let mut nested: BTreeMap<i64, Value> = BTreeMap::new();
    let mut add = |mut answer: Value, in_submission: bool, owner: &str| {
        let id = answer["id"].as_i64().unwrap();
        if in_submission {
            let question = answer["question"].as_object_mut().unwrap();
            let keys: BTreeSet<&str> = question.keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                BTreeSet::from(["id", "question", "required", "target", "options"]),
                "{who} {owner}"
            );
            question.remove("required");
            question.remove("target");
            question.remove("options");
        }
        if let Some(previous) = nested.insert(id, answer.clone()) {
            assert_eq!(
                previous, answer,
                "{who} {slug}: answer {id} nested twice, differently"
            );
        }
        assert!(
            listed.contains_key(&id),
            "{who} {slug}: answer {id} nested in {owner} but not in /answers/"
        );
    };
    for sub in client
        .all(&format!("{base}/submissions/?questions=all&limit=1000"))
        .await
    {
        for answer in sub["answers"].as_array().unwrap() {
            assert_eq!(answer["submission"], sub["code"], "{who}");
            add(answer.clone(), true, sub["code"].as_str().unwrap());
        }
    }
    for spk in client
        .all(&format!("{base}/speakers/?questions=all&limit=1000"))
        .await
    {
        for answer in spk["answers"].as_array().unwrap() {
            assert_eq!(answer["person"], spk["code"], "{who}");
            add(answer.clone(), false, spk["code"].as_str().unwrap());
        }
    }
    for review in client.all(&format!("{base}/reviews/?limit=1000")).await {
        for answer in review["answers"].as_array().unwrap() {
            assert_eq!(answer["review"], review["id"], "{who}");
            add(answer.clone(), false, &format!("review {}", review["id"]));
        }
    }
    let listed_ids: BTreeSet<i64> = listed.keys().copied().collect();
    let nested_ids: BTreeSet<i64> = nested.keys().copied().collect();
    assert_eq!(
        listed_ids.difference(&nested_ids).collect::<Vec<_>>(),
        Vec::<&i64>::new(),
        "{who} {slug}: in /answers/ but nested nowhere"
    );
    for (id, answer) in &nested {
        assert_eq!(&listed[id], answer, "{who} {slug}: answer {id}");
    }
    // the ids are sorted in /answers/ (by id) and the detail agrees with the list
    for answer in event["answers"].as_array().unwrap() {
        let id = answer["id"].as_i64().unwrap();
        let reply = client.get(&format!("{base}/answers/{id}/")).await;
        match listed.get(&id) {
            Some(expected) => {
                assert_eq!(reply.status, 200, "{who} {slug} answer {id}");
                assert_eq!(&reply.body, expected, "{who} {slug} answer {id}");
            }
            None => assert_eq!(
                reply.status, 404,
                "{who} {slug} answer {id}: {}",
                reply.text
            ),
        }
    }
}

async fn check_dataset_consistency(dataset: Value, extra: &[(&str, &str, &str)]) {
    let server = TestServer::start(std::slice::from_ref(&dataset)).await;
    for caller in callers(&dataset, extra) {
        let client = caller.client(&server);
        for event in dataset["events"].as_array().unwrap() {
            let slug = event["slug"].as_str().unwrap();
            check_answer_consistency(&client, slug, event, &caller.who).await;
        }
    }
}

#[tokio::test]
async fn answers_equal_the_nested_answers_for_every_caller_of_democon() {
    check_dataset_consistency(democon(), &[]).await;
}

#[tokio::test]
async fn answers_equal_the_nested_answers_for_every_caller_of_edge() {
    check_dataset_consistency(edge(), &[EDGE_HASHONLY]).await;
}

#[tokio::test]
async fn answers_equal_the_nested_answers_for_every_caller_of_world() {
    check_dataset_consistency(world(), &[]).await;
}

// ==========================================================================
// Speakers over the shared datasets: the named submissions decide
// ==========================================================================

/// For one caller and event: the speaker list is sorted by code without
/// duplicates; each speaker's `submissions` are exactly the codes of the
/// caller's submissions (not anonymised) that name them, sorted; and the
/// set is every profile (organisers) or the speakers of those submissions.
async fn check_speakers(client: &Client, slug: &str, event: &Value, who: &str, orga: bool) {
    let base = format!("/api/events/{slug}");
    if client.get(&format!("{base}/")).await.status == 403 {
        return;
    }
    let speakers = client.all(&format!("{base}/speakers/?limit=1000")).await;
    let codes: Vec<&str> = speakers
        .iter()
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    let mut sorted = codes.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(codes, sorted, "{who} {slug}: sorted by code, no duplicates");
    let mut named: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for sub in client.all(&format!("{base}/submissions/?limit=1000")).await {
        for spk in sub["speakers"].as_array().unwrap() {
            named
                .entry(spk["code"].as_str().unwrap().to_string())
                .or_default()
                .insert(sub["code"].as_str().unwrap().to_string());
        }
    }
    let profiles: BTreeSet<&str> = event["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["user"].as_str().unwrap())
        .collect();
    let expected_set: BTreeSet<&str> = if orga {
        profiles.clone()
    } else {
        named
            .keys()
            .map(String::as_str)
            .filter(|c| profiles.contains(c))
            .collect()
    };
    assert_eq!(
        codes.iter().copied().collect::<BTreeSet<_>>(),
        expected_set,
        "{who} {slug}: the speaker set"
    );
    for s in &speakers {
        let code = s["code"].as_str().unwrap();
        let expected: Vec<String> = named
            .get(code)
            .map(|set| set.iter().cloned().collect())
            .unwrap_or_default();
        assert_eq!(s["submissions"], json!(expected), "{who} {slug} {code}");
        assert_eq!(s.get("email").is_some(), orga, "{who} {slug} {code}: email");
        assert_eq!(
            s.get("availabilities").is_some(),
            orga,
            "{who} {slug} {code}: availabilities"
        );
        let detail = client
            .ok(&format!("{base}/speakers/{}/", code.to_lowercase()))
            .await;
        assert_eq!(&detail, s, "{who} {slug} {code}: detail");
    }
    // a profile outside the caller's set is 404
    for profile in profiles.difference(&expected_set) {
        assert_not_found(client, &format!("{base}/speakers/{profile}/")).await;
    }
}

async fn check_dataset_speakers(dataset: Value, extra: &[(&str, &str, &str)]) {
    let server = TestServer::start(std::slice::from_ref(&dataset)).await;
    for caller in callers(&dataset, extra) {
        let client = caller.client(&server);
        for event in dataset["events"].as_array().unwrap() {
            let slug = event["slug"].as_str().unwrap();
            let orga = is_organiser(&dataset, event, caller.code.as_deref());
            check_speakers(&client, slug, event, &caller.who, orga).await;
        }
    }
}

#[tokio::test]
async fn speakers_match_the_named_submissions_for_every_caller_of_democon() {
    check_dataset_speakers(democon(), &[]).await;
}

#[tokio::test]
async fn speakers_match_the_named_submissions_for_every_caller_of_edge() {
    check_dataset_speakers(edge(), &[EDGE_HASHONLY]).await;
}

#[tokio::test]
async fn speakers_match_the_named_submissions_for_every_caller_of_world() {
    check_dataset_speakers(world(), &[]).await;
}

#[tokio::test]
async fn edge_hidden_reviewers_without_names_see_no_speakers() {
    // edge-hidden: the schedule is hidden (no public set) and the phase hides names.
    let data = edge();
    let server = TestServer::start(std::slice::from_ref(&data)).await;
    for email in [
        "reviewer@edge.example",
        "assigned@edge.example",
        "limited@edge.example",
    ] {
        let client = server.token(&helpers::token_of(&data, email));
        assert_eq!(
            client.ok("/api/events/edge-hidden/speakers/").await,
            page(vec![]),
            "{email}"
        );
        assert_eq!(
            client
                .ok("/api/events/edge-hidden/answers/?person=EDGSPK")
                .await,
            page(vec![]),
            "{email}"
        );
    }
    // the organiser sees every profile there
    let orga = server.token(&helpers::token_of(&data, "orga@edge.example"));
    assert_eq!(
        orga.ok("/api/events/edge-hidden/speakers/").await["count"],
        9
    );
}
