//! The change feed (`/api/events/{event}/changes/`) and its stream: each
//! role's feed is exactly the difference of that role's own lists before
//! and after an import, never a rule of its own.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::helpers::{assert_bad_parameters, http_client, mini, TestServer};

pub(crate) const FEED: &str = "/api/events/mini/changes/";

/// Everything a role sees in the lists the feed reports on: for each
/// (kind, key), the object in the legacy list and in the v1 list.
pub(crate) type Lists = BTreeMap<(String, String), (Value, Value)>;

pub(crate) async fn lists_of(client: &crate::helpers::Client) -> Lists {
    lists_of_event(client, "mini").await
}

/// `lists_of` in the event `slug`.
pub(crate) async fn lists_of_event(client: &crate::helpers::Client, slug: &str) -> Lists {
    let mut seen: Lists = BTreeMap::new();
    let legacy: [(&str, &str, &str); 8] = [
        ("submission", "submissions", "code"),
        ("talk", "talks", "code"),
        ("speaker", "speakers", "code"),
        ("room", "rooms", "id"),
        ("question", "questions", "id"),
        ("answer", "answers", "id"),
        ("review", "reviews", "id"),
        ("tag", "tags", "id"),
    ];
    let event = client.get(&format!("/api/events/{slug}/")).await;
    if event.status != 200 {
        return seen; // the event is not visible: no lists at all
    }
    for (kind, list, key) in legacy {
        for item in client.all(&format!("/api/events/{slug}/{list}/")).await {
            let id = item[key].to_string();
            seen.entry((kind.into(), id))
                .or_insert((Value::Null, Value::Null))
                .0 = item;
        }
    }
    let v1: [(&str, &str, &str); 7] = [
        ("submission", "submissions", "code"),
        ("speaker", "speakers", "code"),
        ("room", "rooms", "id"),
        ("question", "questions", "id"),
        ("answer", "answers", "id"),
        ("review", "reviews", "id"),
        ("schedule", "schedules", "id"),
    ];
    for (kind, list, key) in v1 {
        let url = format!("{}/api/events/{slug}/{list}/", client.base);
        let mut next = Some(url);
        while let Some(url) = next.take() {
            let reply = client
                .request_url("GET", &url, &[("Pretalx-Version", "v1")])
                .await;
            if reply.status != 200 {
                break; // v1 refuses some lists to some roles (reviews)
            }
            for item in reply.body["results"]
                .as_array()
                .cloned()
                .unwrap_or_default()
            {
                let id = item[key].to_string();
                let entry = seen
                    .entry((kind.into(), id))
                    .or_insert((Value::Null, Value::Null));
                entry.1 = item.clone();
            }
            next = reply.body["next"].as_str().map(str::to_string);
        }
    }
    seen
}

/// The changes the lists say happened, as the feed writes them. What is
/// in a list comes from the legacy lists (and v1's schedules); an object
/// is updated when its legacy view changed, or its v1 view where the v1
/// list shows it both times (v1 keeps some lists from some roles, as
/// pretalx does).
pub(crate) fn difference(before: &Lists, after: &Lists) -> BTreeSet<(String, String, String)> {
    let mut changes = BTreeSet::new();
    let listed = |lists: &Lists, key: &(String, String)| {
        lists
            .get(key)
            .is_some_and(|(legacy, v1)| !legacy.is_null() || (key.0 == "schedule" && !v1.is_null()))
    };
    let keys: BTreeSet<&(String, String)> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let action = match (listed(before, key), listed(after, key)) {
            (false, true) => "created",
            (true, false) => "deleted",
            (true, true) => {
                let (a, b) = (&before[key], &after[key]);
                let v1_differs = !a.1.is_null() && !b.1.is_null() && a.1 != b.1;
                if a.0 != b.0 || v1_differs {
                    "updated"
                } else {
                    continue;
                }
            }
            (false, false) => continue,
        };
        changes.insert((key.0.clone(), key.1.clone(), action.to_string()));
    }
    changes
}

/// The feed's changes after `since`, in the same form, and the generation.
pub(crate) async fn feed_of(
    client: &crate::helpers::Client,
    since: i64,
) -> (BTreeSet<(String, String, String)>, i64) {
    feed_of_event(client, "mini", since).await
}

/// `feed_of` in the event `slug`.
pub(crate) async fn feed_of_event(
    client: &crate::helpers::Client,
    slug: &str,
    since: i64,
) -> (BTreeSet<(String, String, String)>, i64) {
    let page = client
        .ok(&format!(
            "/api/events/{slug}/changes/?since={since}&page_size=1000"
        ))
        .await;
    let mut changes = BTreeSet::new();
    for item in page["results"].as_array().unwrap() {
        for change in item["changes"].as_array().unwrap() {
            let key = match (&change["code"], &change["id"]) {
                (Value::String(code), Value::Null) => Value::String(code.clone()).to_string(),
                (Value::Null, id) if id.is_i64() => id.to_string(),
                other => panic!("a change names a code or an id: {other:?} in {change}"),
            };
            changes.insert((
                change["kind"].as_str().unwrap().to_string(),
                key,
                change["action"].as_str().unwrap().to_string(),
            ));
        }
    }
    (changes, page["generation"].as_i64().unwrap())
}

pub(crate) fn roles(server: &TestServer) -> Vec<(&'static str, crate::helpers::Client)> {
    vec![
        ("public", server.anon()),
        ("no role", server.token("nobody-token")),
        ("organiser", server.token("orga-token")),
        ("reviewer", server.token("rev-token")),
    ]
}

pub(crate) async fn generation(server: &TestServer) -> i64 {
    server.token("orga-token").ok(FEED).await["generation"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
async fn without_since_the_feed_is_empty_and_gives_the_generation_to_start_from() {
    let server = TestServer::start(&[mini()]).await;
    let current = server.cache.cached_generation();
    for (role, client) in roles(&server) {
        let reply = client.get(FEED).await;
        assert_eq!(reply.status, 200, "{role}: {}", reply.text);
        assert_eq!(
            reply.body,
            json!({"count": 0, "next": null, "previous": null, "generation": current, "results": []}),
            "{role}"
        );
        assert!(
            reply.header("etag").is_some(),
            "{role}: the feed is cached like the lists"
        );
    }
}

/// An internal note is the organisers' business only; a withdrawn talk
/// leaves the public's lists (deleted, never "withdrawn").
#[tokio::test]
async fn each_role_reads_only_what_changed_in_its_own_lists() {
    let server = TestServer::start(&[mini()]).await;
    let start = generation(&server).await;
    let mut data = mini();
    data["events"][0]["submissions"][1]["internal_notes"] = json!("ask about the budget");
    server.import(&data).await;
    let notes = generation(&server).await;
    assert_eq!(notes, start + 1);
    let expect_notes = [
        ("public", json!([])),
        ("no role", json!([])),
        (
            "organiser",
            json!([{"generation": notes, "changes": [{"kind": "submission", "code": "SUB2", "action": "updated"}]}]),
        ),
        ("reviewer", json!([])),
    ];
    for ((role, client), (_, expected)) in roles(&server).into_iter().zip(expect_notes) {
        let page = client.ok(&format!("{FEED}?since={start}")).await;
        let results: Vec<Value> = page["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| json!({"generation": item["generation"], "changes": item["changes"]}))
            .collect();
        assert_eq!(Value::Array(results), expected, "{role}");
        assert_eq!(page["generation"], json!(notes), "{role}");
    }

    data["events"][0]["submissions"][0]["state"] = json!("withdrawn");
    server.import(&data).await;
    let withdrawn = generation(&server).await;
    let public = server.anon().ok(&format!("{FEED}?since={notes}")).await;
    assert_eq!(
        public["results"][0]["changes"],
        json!([
            {"kind": "submission", "code": "PUB1", "action": "deleted"},
            {"kind": "talk", "code": "PUB1", "action": "deleted"},
            {"kind": "speaker", "code": "SPK1", "action": "deleted"}
        ]),
        "{public}"
    );
    assert_eq!(public["results"][0]["generation"], json!(withdrawn));
    let at = public["results"][0]["at"].as_str().unwrap();
    assert!(
        chrono::DateTime::parse_from_rfc3339(at).is_ok() && at.ends_with('Z'),
        "at is RFC 3339 UTC: {at}"
    );
}

/// The property: over a series of imports that change anything (review
/// phases, withdrawals, deletions, new submissions, speaker edits, a
/// schedule release, reviews, the event going private), every role's feed
/// equals the difference of its own lists, legacy and v1. The writes take
/// every path (`Writer`): an import, a file's text edits, and a writer that
/// makes its records in memory in another form (translations in another
/// order, as the demo did: issue 75), which must change nothing anyone
/// sees by itself.
#[tokio::test]
async fn every_roles_feed_is_the_difference_of_its_lists_over_random_imports() {
    for seed in [0x5eed_cafe, 0x0dd_ba11] {
        random_imports(seed, 40).await;
    }
}

async fn random_imports(seed: u64, steps: usize) {
    let mut data = mini();
    // Texts in two languages, which writers may order differently.
    let event = &mut data["events"][0];
    event["name"] = json!({"en": "Mini Conf", "de": "Mini-Konferenz"});
    event["rooms"][0]["name"] = json!({"en": "Hall", "de": "Saal"});
    event["tracks"][0]["name"] = json!({"en": "Main", "de": "Haupt"});
    event["submission_types"][0]["name"] = json!({"en": "Talk", "de": "Vortrag"});
    let server = TestServer::start(&[data.clone()]).await;
    let mut rng = Rng(seed);
    for step in 0..steps {
        let mut befores = Vec::new();
        for (role, client) in roles(&server) {
            befores.push((role, lists_of(&client).await));
        }
        let since = generation(&server).await;
        let mut what = mutate(&mut data, &mut rng, step);
        let writer = [Writer::Import, Writer::File, Writer::InMemory][rng.next(3)];
        writer.write(&server, &data).await;
        what.push_str(&format!(", written by {writer:?}"));
        for ((role, client), (_, before)) in roles(&server).into_iter().zip(befores) {
            let after = lists_of(&client).await;
            let expected = difference(&before, &after);
            let (feed, _) = if client.get("/api/events/mini/").await.status == 200 {
                feed_of(&client, since).await
            } else {
                // A private event's feed is as hidden as its lists.
                let reply = client.get(&format!("{FEED}?since={since}")).await;
                assert_eq!(
                    reply.status, 403,
                    "step {step} ({what}), {role}: {}",
                    reply.text
                );
                (expected.clone(), 0)
            };
            assert_eq!(
                feed, expected,
                "seed {seed:x}, step {step} ({what}), {role}"
            );
        }
    }
}

/// How a test writes a dataset into the store.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Writer {
    /// Validated and imported, as `confapi import` imports files.
    Import,
    /// As `confapi import` imports one file: its changed texts alone when
    /// only texts changed (`storage::edits`).
    File,
    /// Made in memory by another writer (the demo, a mirror): the same
    /// content, every translated text with its locales in another order.
    InMemory,
}

impl Writer {
    pub(crate) async fn write(self, server: &TestServer, data: &Value) {
        match self {
            Writer::Import => server.import(data).await,
            Writer::File => {
                server.import_file(data).await;
            }
            Writer::InMemory => {
                let mut parsed = confapi::dataset::validate::parse_value(data)
                    .unwrap_or_else(|problems| panic!("test dataset invalid: {problems:?}"));
                for event in &mut parsed.events {
                    reverse(&mut event.name);
                    for room in &mut event.rooms {
                        reverse(&mut room.name);
                        reverse(&mut room.description);
                    }
                    for track in &mut event.tracks {
                        reverse(&mut track.name);
                    }
                    for kind in &mut event.submission_types {
                        reverse(&mut kind.name);
                    }
                    for question in &mut event.questions {
                        reverse(&mut question.question);
                    }
                }
                server.store.import(&parsed, None).await.expect("import");
                server
                    .cache
                    .refresh()
                    .await
                    .expect("reload after the import");
            }
        }
    }
}

fn reverse(text: &mut confapi::model::I18n) {
    text.0.reverse();
}

/// A small deterministic generator (xorshift), so that a failure repeats.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }
}

pub(crate) fn mutate(data: &mut Value, rng: &mut Rng, step: usize) -> String {
    let event = &mut data["events"][0];
    let subs = event["submissions"].as_array_mut().unwrap();
    let states = [
        "submitted",
        "accepted",
        "confirmed",
        "rejected",
        "withdrawn",
    ];
    match (step + rng.next(17)) % 17 {
        0 => {
            let i = rng.next(subs.len());
            let state = states[rng.next(states.len())];
            subs[i]["state"] = json!(state);
            format!("submission {i} {state}")
        }
        1 => {
            let code = format!("NEW{step}");
            subs.push(json!({"code": code, "title": format!("New {step}"), "speakers": ["SPK2"],
                "submission_type": 1, "track": 1, "state": "confirmed",
                "created": "2026-03-05T12:00:00Z",
                "slots": [{"room": 1, "start": "2026-06-02T10:00:00+02:00", "end": "2026-06-02T10:30:00+02:00", "is_visible": true}]}));
            format!("new talk {code}")
        }
        2 if subs.len() > 1 => {
            let i = rng.next(subs.len());
            let gone = subs.remove(i);
            let code = gone["code"].as_str().unwrap().to_string();
            if let Some(reviews) = event.get_mut("reviews").and_then(Value::as_array_mut) {
                reviews.retain(|r| r["submission"] != json!(code));
            }
            if let Some(answers) = event.get_mut("answers").and_then(Value::as_array_mut) {
                answers.retain(|a| a["submission"] != json!(code));
            }
            format!("deleted {code}")
        }
        3 => {
            let users = data["users"].as_array_mut().unwrap();
            let i = 3 + rng.next(2);
            users[i]["name"] = json!(format!("Renamed {step}"));
            format!("user {i} renamed")
        }
        4 => {
            let i = rng.next(subs.len());
            subs[i]["internal_notes"] = json!(format!("note {step}"));
            format!("internal notes of {i}")
        }
        5 => {
            let version = format!("{}.0", step + 2);
            event["schedule"] = json!({"version": version, "published": "2026-05-20T10:00:00Z"});
            format!("release {version}")
        }
        6 => {
            let i = rng.next(subs.len());
            let code = subs[i]["code"].clone();
            let mut reviews = event["reviews"].as_array().cloned().unwrap_or_default();
            let id = 100 + step as i64;
            let free = ["REV", "ORGA"].into_iter().find(|user| {
                !reviews
                    .iter()
                    .any(|r| r["submission"] == code && r["user"] == json!(user))
            });
            let Some(user) = free else {
                return "no review left to write".into();
            };
            reviews.push(
                json!({"id": id, "submission": code, "user": user, "score": 3.0,
                "text": format!("review {step}"), "created": "2026-04-01T10:00:00Z",
                "updated": "2026-04-01T10:00:00Z"}),
            );
            event["reviews"] = Value::Array(reviews);
            format!("review {id}")
        }
        7 => {
            let phases = [
                json!({"name": "open", "can_see_speaker_names": true, "can_see_reviewer_names": true,
                    "can_see_other_reviews": "always", "proposal_visibility": "all"}),
                json!({"name": "blind", "can_see_speaker_names": false, "can_see_reviewer_names": false,
                    "can_see_other_reviews": "never", "proposal_visibility": "assigned"}),
                json!({"name": "after", "can_see_speaker_names": true, "can_see_reviewer_names": false,
                    "can_see_other_reviews": "after_review", "proposal_visibility": "all"}),
            ];
            let phase = phases[rng.next(3)].clone();
            event["review_phase"] = phase;
            "review phase".into()
        }
        8 => {
            let public = !event["is_public"].as_bool().unwrap_or(true);
            event["is_public"] = json!(public);
            format!("is_public {public}")
        }
        9 => {
            let i = rng.next(subs.len());
            subs[i]["title"] = json!(format!("Title {step}"));
            format!("title of {i}")
        }
        15 => {
            // The reviewer speaks in a submission, or no longer does, under
            // a speaker code of the profile's own (pretalx 2026).
            let i = rng.next(subs.len());
            let speakers = subs[i]["speakers"].as_array_mut().unwrap();
            if speakers.contains(&json!("REVSPK")) && speakers.len() > 1 {
                speakers.retain(|s| s != "REVSPK");
            } else if !speakers.contains(&json!("REVSPK")) {
                speakers.push(json!("REVSPK"));
                let profiles = event["speakers"].as_array_mut().unwrap();
                if !profiles.iter().any(|p| p["user"] == "REV") {
                    profiles.push(json!({"user": "REV", "code": "REVSPK",
                                         "biography": "Reviewer and speaker"}));
                }
            }
            format!("speakers of {i}")
        }
        16 => {
            let i = rng.next(subs.len());
            let assigned = subs[i]
                .as_object_mut()
                .unwrap()
                .entry("assigned_reviewers")
                .or_insert(json!([]));
            if assigned.as_array().unwrap().is_empty() {
                *assigned = json!(["REV"]);
            } else {
                *assigned = json!([]);
            }
            format!("assignment of {i}")
        }
        13 => {
            let Some(reviews) = event.get_mut("reviews").and_then(Value::as_array_mut) else {
                return "no review to edit".into();
            };
            if reviews.is_empty() {
                return "no review to edit".into();
            }
            let i = rng.next(reviews.len());
            reviews[i]["text"] = json!(format!("edited {step}"));
            reviews[i]["score"] = json!(rng.next(5) as f64);
            format!("review {i} edited")
        }
        14 => {
            let Some(questions) = event.get_mut("questions").and_then(Value::as_array_mut) else {
                return "no question to edit".into();
            };
            let i = rng.next(questions.len());
            questions[i]["question"] = json!({"en": format!("Edited {step}")});
            questions[i]["is_public"] = json!(rng.next(2) == 0);
            format!("question {i} edited")
        }
        11 => {
            // A question, public or not, visible to reviewers or not.
            let id = 200 + step as i64;
            let questions = event
                .as_object_mut()
                .unwrap()
                .entry("questions")
                .or_insert(json!([]));
            questions
                .as_array_mut()
                .unwrap()
                .push(json!({"id": id, "variant": "text",
                "target": "submission", "question": {"en": format!("Question {step}")},
                "help_text": {}, "question_required": "optional", "options": [],
                "contains_personal_data": false, "is_public": rng.next(2) == 0,
                "is_visible_to_reviewers": rng.next(2) == 0, "active": true, "position": id,
                "tracks": [], "submission_types": []}));
            format!("question {id}")
        }
        12 => {
            let Some(question) = event
                .get("questions")
                .and_then(Value::as_array)
                .and_then(|q| q.first())
                .map(|q| q["id"].clone())
            else {
                return "no question to answer yet".into();
            };
            let count = event["submissions"].as_array().unwrap().len();
            let code = event["submissions"][rng.next(count)]["code"].clone();
            let id = 300 + step as i64;
            let answers = event
                .as_object_mut()
                .unwrap()
                .entry("answers")
                .or_insert(json!([]));
            answers
                .as_array_mut()
                .unwrap()
                .push(json!({"id": id, "question": question,
                "answer": format!("Answer {step}"), "submission": code, "options": []}));
            format!("answer {id}")
        }
        _ => {
            let speakers = event["speakers"].as_array_mut().unwrap();
            let i = rng.next(speakers.len());
            speakers[i]["biography"] = json!(format!("bio {step}"));
            format!("biography of {i}")
        }
    }
}

#[tokio::test]
async fn since_must_be_a_non_negative_integer() {
    let server = TestServer::start(&[mini()]).await;
    for (role, client) in roles(&server) {
        for bad in ["-1", "abc", "1.5", "1e3"] {
            let reply = client.get(&format!("{FEED}?since={bad}")).await;
            assert_bad_parameters(&reply, &["since"], &format!("{role}, since={bad}"));
        }
        let reply = client.get(&format!("{FEED}?since=0&page=0")).await;
        assert_eq!(reply.status, 404, "{role}: {}", reply.text);
    }
}

/// A generation newer than the server's (another replica is ahead) is no
/// error: nothing after it yet.
#[tokio::test]
async fn a_since_ahead_of_the_server_is_an_empty_page() {
    let server = TestServer::start(&[mini()]).await;
    let current = server.cache.cached_generation();
    let body = server
        .token("orga-token")
        .ok(&format!("{FEED}?since={}", current + 5))
        .await;
    assert_eq!(
        body,
        json!({"count": 0, "next": null, "previous": null, "generation": current, "results": []})
    );
}

#[tokio::test]
async fn a_private_event_has_no_public_feed() {
    let mut data = mini();
    data["events"][0]["is_public"] = json!(false);
    let server = TestServer::start(&[data]).await;
    let reply = server.anon().get(&format!("{FEED}?since=0")).await;
    assert_eq!(reply.status, 403, "{}", reply.text);
    assert_eq!(
        reply.body,
        json!({"detail": "You do not have permission to perform this action."})
    );
    let orga = server
        .token("orga-token")
        .ok(&format!("{FEED}?since=0"))
        .await;
    assert!(orga["count"].as_u64().unwrap() >= 1, "{orga}");
}

/// A `since` older than the history kept is 410 with the oldest generation
/// that may be asked for (here the history was pruned up to generation 2).
#[tokio::test]
async fn a_since_older_than_the_history_kept_is_gone() {
    let server = TestServer::start(&[mini()]).await;
    let mut data = mini();
    data["events"][0]["submissions"][0]["title"] = json!("Renamed");
    server.import(&data).await;
    set_feed_from(&server.db_url, 1).await;
    data["events"][0]["submissions"][0]["title"] = json!("Renamed again");
    server.import(&data).await;
    let reply = server.anon().get(&format!("{FEED}?since=0")).await;
    assert_eq!(reply.status, 410, "{}", reply.text);
    assert_eq!(reply.body["oldest"], json!(1));
    assert!(reply.body["detail"]
        .as_str()
        .unwrap()
        .contains("no longer kept"));
    let ok = server.anon().ok(&format!("{FEED}?since=1")).await;
    assert_eq!(ok["count"], json!(2), "{ok}");
    let stream = server
        .anon()
        .request(
            "GET",
            &format!("{FEED}?since=0"),
            &[("Accept", "text/event-stream")],
        )
        .await;
    assert_eq!(stream.status, 410, "{}", stream.text);
}

/// The test's database, for what no command does (a history pruned long
/// ago, rows of an old generation).
pub(crate) enum Raw {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

pub(crate) enum Arg {
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
}

impl Raw {
    pub(crate) async fn open(url: &str) -> Raw {
        if url.starts_with("sqlite:") {
            Raw::Sqlite(sqlx::SqlitePool::connect(url).await.unwrap())
        } else {
            Raw::Postgres(sqlx::PgPool::connect(url).await.unwrap())
        }
    }

    /// Runs `sql`, written with `$1`, `$2`… for its arguments.
    pub(crate) async fn execute(&self, sql: &str, args: Vec<Arg>) {
        match self {
            Raw::Sqlite(pool) => {
                let sql = sql.replace('$', "?");
                let mut query = sqlx::query(&sql);
                for arg in args {
                    query = match arg {
                        Arg::Int(n) => query.bind(n),
                        Arg::Text(t) => query.bind(t),
                        Arg::Bytes(b) => query.bind(b),
                    };
                }
                query.execute(pool).await.unwrap();
            }
            Raw::Postgres(pool) => {
                let mut query = sqlx::query(sql);
                for arg in args {
                    query = match arg {
                        Arg::Int(n) => query.bind(n),
                        Arg::Text(t) => query.bind(t),
                        Arg::Bytes(b) => query.bind(b),
                    };
                }
                query.execute(pool).await.unwrap();
            }
        }
    }

    /// The first column of every row of `sql`, a text.
    pub(crate) async fn texts(&self, sql: &str) -> Vec<String> {
        match self {
            Raw::Sqlite(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
            Raw::Postgres(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
        }
    }

    pub(crate) fn is_postgres(&self) -> bool {
        matches!(self, Raw::Postgres(_))
    }

    /// The first column of every row of `sql`, an integer.
    pub(crate) async fn integers(&self, sql: &str) -> Vec<i64> {
        match self {
            Raw::Sqlite(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
            Raw::Postgres(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
        }
    }
}

async fn set_feed_from(url: &str, generation: i64) {
    // What pruning does (see `storage_prunes_the_feed_past_its_retention`).
    let db = Raw::open(url).await;
    db.execute(
        "UPDATE store SET feed_from = $1",
        vec![Arg::Int(generation)],
    )
    .await;
    db.execute(
        "DELETE FROM changes WHERE generation <= $1",
        vec![Arg::Int(generation)],
    )
    .await;
}

/// Pruning keeps at least the last 1,000 generations and the last 30 days:
/// a row goes only when both say so, and `feed_from` moves past it.
#[tokio::test]
async fn storage_prunes_the_feed_past_its_retention() {
    let server = TestServer::start(&[mini()]).await;
    let db = Raw::open(&server.db_url).await;
    db.execute("UPDATE store SET generation = 2000", Vec::new())
        .await;
    for (generation, at) in [
        (5, "2020-01-01T00:00:00.000000Z"),
        (900, "2099-01-01T00:00:00.000000Z"),
        (1500, "2020-01-01T00:00:00.000000Z"),
    ] {
        for (audience, body) in stored_nothing() {
            db.execute(
                "INSERT INTO changes (event, audience, generation, at, body) \
                 VALUES ('mini', $1, $2, $3, $4)",
                vec![
                    Arg::Text(audience),
                    Arg::Int(generation),
                    Arg::Text(at.into()),
                    Arg::Bytes(body),
                ],
            )
            .await;
        }
    }
    let mut data = mini();
    data["events"][0]["submissions"][0]["title"] = json!("Renamed");
    server.import(&data).await;
    let kept = db
        .integers("SELECT generation FROM changes WHERE audience = 'public' ORDER BY generation")
        .await;
    // 5 is old on both counts; 900 is recent; 1500 is within 1,000.
    assert_eq!(kept, vec![900, 1500, 2001]);
    let from = db.integers("SELECT feed_from FROM store").await;
    assert_eq!(
        from,
        vec![5],
        "feed_from moves past the last generation dropped"
    );
}

/// The stored rows of a generation that changed nothing visible: the
/// (empty) changed objects, and the public's (empty) actions.
fn stored_nothing() -> Vec<(String, Vec<u8>)> {
    use confapi::domain::feed::{encode, Audience, UNIVERSE};
    let (universe, audiences) = encode(&[(Audience::Public, Vec::new())]);
    std::iter::once((UNIVERSE.to_string(), universe))
        .chain(audiences)
        .collect()
}

// ---------------------------------------------------------------------------
// The stream

/// Reads Server-Sent Events from a raw connection.
struct Stream {
    response: reqwest::Response,
    buffer: String,
}

impl Stream {
    async fn open(
        server: &TestServer,
        token: Option<&str>,
        headers: &[(&str, &str)],
        query: &str,
    ) -> Stream {
        let client = http_client();
        let mut request = client
            .get(format!("{}{FEED}{query}", server.base))
            .header("Accept", "text/event-stream");
        if let Some(token) = token {
            request = request.header("Authorization", format!("Token {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        assert_eq!(
            response.headers()["cache-control"].to_str().unwrap(),
            "no-cache"
        );
        Stream {
            response,
            buffer: String::new(),
        }
    }

    /// The next event's (id, data), skipping comments; None on timeout.
    async fn next(&mut self, within: Duration) -> Option<(i64, Value)> {
        let deadline = Instant::now() + within;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut id = None;
                let mut data = None;
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        id = Some(v.parse().unwrap());
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data = Some(serde_json::from_str(v).unwrap());
                    }
                }
                if let (Some(id), Some(data)) = (id, data) {
                    return Some((id, data));
                }
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            match tokio::time::timeout(left, self.response.chunk()).await {
                Ok(Ok(Some(chunk))) => self.buffer.push_str(std::str::from_utf8(&chunk).unwrap()),
                _ => return None,
            }
        }
    }
}

#[tokio::test]
async fn a_stream_sends_each_new_generation_within_a_second() {
    let server = TestServer::start(&[mini()]).await;
    let mut public = Stream::open(&server, None, &[], "").await;
    let mut orga = Stream::open(&server, Some("orga-token"), &[], "").await;
    let before = generation(&server).await;

    let mut data = mini();
    data["events"][0]["submissions"][1]["internal_notes"] = json!("secret");
    let started = Instant::now();
    server
        .store
        .import(
            &confapi::dataset::validate::parse_value(&data).unwrap(),
            None,
        )
        .await
        .unwrap();
    let (id, item) = orga
        .next(Duration::from_secs(5))
        .await
        .expect("the organiser hears of it");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(id, before + 1);
    assert_eq!(item["generation"], json!(before + 1));
    assert_eq!(
        item["changes"],
        json!([{"kind": "submission", "code": "SUB2", "action": "updated"}])
    );
    // The same JSON as the page.
    let page = server
        .token("orga-token")
        .ok(&format!("{FEED}?since={before}"))
        .await;
    assert_eq!(page["results"][0], item);

    data["events"][0]["submissions"][0]["title"] = json!("Public, renamed");
    server.import(&data).await;
    let (id, item) = public
        .next(Duration::from_secs(5))
        .await
        .expect("the public hears of the rename");
    // The internal note was never sent to the public.
    assert_eq!(id, before + 2, "{item}");
    assert_eq!(
        item["changes"],
        json!([
            {"kind": "submission", "code": "PUB1", "action": "updated"},
            {"kind": "talk", "code": "PUB1", "action": "updated"}
        ])
    );
}

#[tokio::test]
async fn a_stream_resumes_after_last_event_id_or_since() {
    let server = TestServer::start(&[mini()]).await;
    let start = generation(&server).await;
    let mut data = mini();
    for title in ["One", "Two", "Three"] {
        data["events"][0]["submissions"][0]["title"] = json!(title);
        server.import(&data).await;
    }
    let last_event_id = (start + 1).to_string();
    let mut resumed = Stream::open(&server, None, &[("Last-Event-ID", &last_event_id)], "").await;
    let ids = [
        resumed.next(Duration::from_secs(5)).await.unwrap().0,
        resumed.next(Duration::from_secs(5)).await.unwrap().0,
    ];
    assert_eq!(ids, [start + 2, start + 3]);
    let mut since = Stream::open(&server, None, &[], &format!("?since={start}")).await;
    assert_eq!(
        since.next(Duration::from_secs(5)).await.unwrap().0,
        start + 1
    );
    // Last-Event-ID wins over since: it is where the reader really is.
    let mut both = Stream::open(
        &server,
        None,
        &[("Last-Event-ID", &(start + 2).to_string())],
        &format!("?since={start}"),
    )
    .await;
    assert_eq!(
        both.next(Duration::from_secs(5)).await.unwrap().0,
        start + 3
    );
    assert!(both.next(Duration::from_millis(300)).await.is_none());

    let bad = server
        .anon()
        .request(
            "GET",
            FEED,
            &[("Accept", "text/event-stream"), ("Last-Event-ID", "x")],
        )
        .await;
    assert_bad_parameters(
        &bad,
        &["Last-Event-ID"],
        "a Last-Event-ID that is no generation",
    );
}

/// A reader that stops reading is cut once the stream holds
/// `--stream-buffer` events for it: nothing is buffered without bound.
#[tokio::test]
async fn a_reader_that_does_not_read_is_cut() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut data = mini();
    // Big generations fill the socket buffers quickly: every submission
    // retitled each time.
    let subs = data["events"][0]["submissions"].as_array_mut().unwrap();
    for i in 0..2000 {
        subs.push(
            json!({"code": format!("BULK{i:04}"), "title": "Bulk", "speakers": ["SPK2"],
            "submission_type": 1, "state": "submitted", "created": "2026-03-05T12:00:00Z"}),
        );
    }
    let config = confapi::http::Config {
        stream_buffer: 2,
        ..confapi::http::Config::default()
    };
    let server = TestServer::start_with(&[data.clone()], config).await;
    let address: std::net::SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    // A small receive window, as a reader on a slow link has.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut socket = socket.connect(address).await.unwrap();
    socket
        .write_all(b"GET /api/events/mini/changes/ HTTP/1.1\r\nHost: x\r\nAuthorization: Token orga-token\r\nAccept: text/event-stream\r\n\r\n")
        .await
        .unwrap();
    let mut head = [0u8; 64];
    let n = socket.read(&mut head).await.unwrap();
    assert!(std::str::from_utf8(&head[..n])
        .unwrap()
        .starts_with("HTTP/1.1 200"));
    // Now never read again.
    let mut cut = false;
    for round in 0..60 {
        let subs = data["events"][0]["submissions"].as_array_mut().unwrap();
        for sub in subs.iter_mut() {
            sub["title"] = json!(format!("Bulk {round}"));
        }
        server.import(&data).await;
        let metrics = server.anon().get("/metrics").await.text;
        if metrics.contains("confapi_feed_streams_cut_total 1") {
            cut = true;
            break;
        }
    }
    assert!(cut, "the stream was never cut");
    // The connection is closed: reading finds its end (after what the
    // socket still held).
    let mut sink = vec![0u8; 1 << 20];
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match socket.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the connection stays open");
    let metrics = server.anon().get("/metrics").await.text;
    assert!(metrics.contains("confapi_feed_streams_open 0"), "{metrics}");
}

/// A stream ends when its reader may no longer see the event.
#[tokio::test]
async fn a_stream_ends_when_the_event_turns_private() {
    let server = TestServer::start(&[mini()]).await;
    let mut public = Stream::open(&server, None, &[], "").await;
    let mut data = mini();
    data["events"][0]["is_public"] = json!(false);
    server.import(&data).await;
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match public.response.chunk().await {
                Ok(Some(chunk)) => {
                    let text = String::from_utf8_lossy(&chunk).to_string();
                    assert!(
                        !text.contains("data:"),
                        "nothing of a private event: {text}"
                    );
                }
                _ => return,
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the stream stays open");
}
