//! The `world()` dataset that speakers.rs, questions.rs and answers.rs run
//! most of their tests on, its callers, and the helpers those files share:
//! `mini()` grown by a few callers, speakers, questions, answers and
//! reviews so that every visibility rule has a case that separates it from
//! its neighbours. Expected bodies are written out in full from the literal
//! values of that dataset.

use super::{assert_bad_parameters, mini, Client, TestServer, EDGE_HASHONLY_TOKEN};
use serde_json::{json, Value};

// ==========================================================================
// Callers of world() (mini()'s three plus three more)
// ==========================================================================

pub const ORGA: &str = "orga-token";
pub const REV: &str = "rev-token";
pub const NOBODY: &str = "nobody-token";
/// An administrator without any team: an organiser of every event.
pub const ADMIN: &str = "admin-token";
/// A reviewer whose only team is limited to track 2 ("Side").
pub const TRACK: &str = "track-token";
/// A reviewer whose only team has `force_hide_speaker_names`.
pub const BLIND: &str = "blind-token";

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
pub fn world() -> Value {
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
pub fn world_with(change: impl FnOnce(&mut Value)) -> Value {
    let mut d = world();
    change(&mut d["events"][0]);
    d
}

// ---- expected objects of world() -----------------------------------------------

pub fn question_text(id: i64) -> Value {
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

pub fn option(id: i64) -> Value {
    match id {
        11 => json!({"id": 11, "answer": {"en": "Beginner", "de": "Anfänger"}}),
        12 => json!({"id": 12, "answer": {"en": "Expert"}}),
        _ => panic!("no option {id}"),
    }
}

/// An answer of world() as `/answers` shows it.
pub fn a(id: i64) -> Value {
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
pub fn sub_a(id: i64) -> Value {
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

pub fn answers(ids: &[i64]) -> Vec<Value> {
    ids.iter().map(|&id| a(id)).collect()
}

/// A question of world() as `/questions` shows it (now: no deadline and
/// no freeze date in world(), so `required` is `question_required == required`).
pub fn q(id: i64) -> Value {
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

pub fn questions(ids: &[i64]) -> Vec<Value> {
    ids.iter().map(|&id| q(id)).collect()
}

/// A speaker of world(): `submissions` and answer ids as the caller sees
/// them; `orga` adds `email` and `availabilities`.
pub fn speaker(code: &str, submissions: &[&str], answer_ids: &[i64], orga: bool) -> Value {
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
pub fn merge(mut base: Value, overrides: Value) -> Value {
    for (k, v) in overrides.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

/// `GET path` is a 400 naming exactly these parameters.
pub async fn assert_bad_params(client: &Client, path: &str, keys: &[&str]) {
    assert_bad_parameters(&client.get(path).await, keys, &format!("GET {path}"));
}

/// A single-page list envelope.
pub fn page(results: Vec<Value>) -> Value {
    json!({"count": results.len(), "next": null, "previous": null, "results": results})
}

pub fn ids_of(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|x| x["id"].as_i64().unwrap())
        .collect()
}

pub fn result_ids(body: &Value) -> Vec<i64> {
    ids_of(&body["results"])
}

pub fn result_codes(body: &Value) -> Vec<String> {
    body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["code"].as_str().unwrap().to_string())
        .collect()
}

/// Asserts `404 {"detail": <string>}`.
pub async fn assert_not_found(client: &Client, path: &str) {
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
pub async fn assert_forbidden(client: &Client, path: &str) {
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
pub fn assert_link(actual: &Value, base: &str, expected: Option<&str>) {
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
pub async fn assert_same(client: &Client, a: &str, b: &str) -> Value {
    let first = client.get(a).await;
    let second = client.get(b).await;
    assert_eq!(first.status, 200, "GET {a}: {}", first.text);
    assert_eq!(second.status, 200, "GET {b}: {}", second.text);
    assert_eq!(first.body, second.body, "{a} vs {b}");
    first.body
}

pub const EVENT: &str = "/api/events/mini";

pub fn p(rest: &str) -> String {
    format!("{EVENT}/{rest}")
}

// ==========================================================================
// Callers of the shared datasets (democon, edge, world)
// ==========================================================================

/// A caller of a dataset: who (e-mail), user code, token (None: anonymous).
pub struct Caller {
    pub who: String,
    pub code: Option<String>,
    pub token: Option<String>,
}

impl Caller {
    pub fn client(&self, server: &TestServer) -> Client {
        match &self.token {
            Some(t) => server.token(t),
            None => server.anon(),
        }
    }
}

/// Every caller of a dataset: anonymous plus the first token of each user,
/// plus `extra` (e-mail, user code, token) for users stored with hashes only.
pub fn callers(dataset: &Value, extra: &[(&str, &str, &str)]) -> Vec<Caller> {
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

pub const EDGE_HASHONLY: (&str, &str, &str) =
    ("hashonly@edge.example", "EDGHASH", EDGE_HASHONLY_TOKEN);
