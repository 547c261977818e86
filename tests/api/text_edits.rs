//! Imports that cost what they change (`storage::edits`): a file that
//! differs from the one imported last only in some submissions' texts is
//! written by those submissions alone, with the same records and the same
//! feed as the whole import would write; anything else takes the whole path.

use serde_json::{json, Value};

use crate::changes::{difference, feed_of, generation, lists_of, mutate, roles, Rng, FEED};
use crate::helpers::{mini, TestServer};

/// mini(), with the organiser speaking in SUB3 and an administrator (in
/// no team) in SUB2: the feeds of both are their own (organisers who
/// speak), whichever submission an edit changes.
fn mini_with_a_speaking_organiser() -> Value {
    let mut data = mini();
    data["users"].as_array_mut().unwrap().push(json!(
        {"code": "ADM", "name": "Ada Min", "email": "adm@mini.example", "is_administrator": true}
    ));
    let event = &mut data["events"][0];
    let speakers = event["speakers"].as_array_mut().unwrap();
    speakers.push(json!({"user": "ORGA", "biography": "Olga's bio"}));
    speakers.push(json!({"user": "ADM"}));
    for (i, code) in [(2, "ORGA"), (1, "ADM")] {
        event["submissions"][i]["speakers"]
            .as_array_mut()
            .unwrap()
            .push(json!(code));
    }
    data
}

const TEXTS: [&str; 5] = [
    "title",
    "abstract",
    "description",
    "notes",
    "internal_notes",
];

/// Changes one to three texts of random submissions; says which.
fn edit_texts(data: &mut Value, rng: &mut Rng, step: usize) -> String {
    let subs = data["events"][0]["submissions"].as_array_mut().unwrap();
    let mut what = Vec::new();
    for n in 0..1 + rng.next(3) {
        let i = rng.next(subs.len());
        let field = TEXTS[rng.next(TEXTS.len())];
        subs[i][field] = json!(format!("{field} {step}.{n}"));
        what.push(format!("submission {i} {field}"));
    }
    what.join(", ")
}

#[tokio::test]
async fn every_roles_feed_is_the_difference_of_its_lists_over_random_text_edits() {
    for seed in [0x7e57_ed17u64, 0x0b5e_55ed] {
        let mut data = mini_with_a_speaking_organiser();
        let server = TestServer::start(&[]).await;
        assert!(!server.import_file(&data).await, "a first import is whole");
        let mut rng = Rng(seed);
        for step in 0..30 {
            let mut befores = Vec::new();
            for (role, client) in roles(&server) {
                befores.push((role, lists_of(&client).await));
            }
            let since = generation(&server).await;
            // Every fifth step changes something else: the whole path, which
            // keeps a new outline for the edits after it.
            let (what, edits) = if step % 5 == 4 {
                (mutate(&mut data, &mut rng, step), false)
            } else {
                (edit_texts(&mut data, &mut rng, step), true)
            };
            let edited = server.import_file(&data).await;
            if edits {
                assert!(edited, "seed {seed:x}, step {step} ({what}): written alone");
            }
            // The stored data is the file's, as the whole import leaves it.
            let parsed = confapi::dataset::validate::parse_value(&data).unwrap();
            let stored = server.store.export(&[]).await.unwrap();
            assert_eq!(
                stored.events, parsed.events,
                "seed {seed:x}, step {step} ({what})"
            );
            for ((role, client), (_, before)) in roles(&server).into_iter().zip(befores) {
                let after = lists_of(&client).await;
                let expected = difference(&before, &after);
                let reply = client.get(&format!("{FEED}?since={since}")).await;
                if reply.status == 403 {
                    continue;
                }
                let (feed, _) = feed_of(&client, since).await;
                assert_eq!(
                    feed, expected,
                    "seed {seed:x}, step {step} ({what}), {role}"
                );
            }
        }
    }
}

#[tokio::test]
async fn an_edit_writes_what_the_whole_import_writes_feed_included() {
    let data = mini_with_a_speaking_organiser();
    let mut edited = data.clone();
    edited["events"][0]["submissions"][0]["title"] = json!("Retitled");
    edited["events"][0]["submissions"][1]["internal_notes"] = json!("for organisers");
    edited["events"][0]["submissions"][2]["abstract"] = json!("a new abstract");
    let fast = TestServer::start(&[]).await;
    let whole = TestServer::start(&[]).await;
    fast.import_file(&data).await;
    whole.import(&data).await;
    assert!(fast.import_file(&edited).await);
    whole.import(&edited).await;
    assert_eq!(
        fast.store.export(&[]).await.unwrap(),
        whole.store.export(&[]).await.unwrap()
    );
    let (a, b) = (
        fast.store.changes(0, 10).await.unwrap(),
        whole.store.changes(0, 10).await.unwrap(),
    );
    let rows = |log: &confapi::storage::ChangeLog| -> Vec<(i64, String, String, Vec<u8>)> {
        log.rows
            .iter()
            .map(|r| {
                (
                    r.generation,
                    r.event.clone(),
                    r.audience.clone(),
                    r.body.clone(),
                )
            })
            .collect()
    };
    assert_eq!(rows(&a), rows(&b));
    for audience in ["user:ORGA", "user:ADM"] {
        assert!(
            rows(&a).iter().any(|r| r.0 == 2 && r.2 == audience),
            "a speaking organiser's own feed: {audience}"
        );
    }
    for client in [fast.anon(), whole.anon()] {
        let talk = client.ok("/api/events/mini/talks/PUB1/").await;
        assert_eq!(talk["title"], "Retitled");
    }
}

#[tokio::test]
async fn anything_but_texts_or_a_stale_outline_takes_the_whole_path() {
    let data = mini();
    let server = TestServer::start(&[]).await;
    server.import_file(&data).await;
    // A bad title is named by the whole validation, with its path.
    let mut bad = data.clone();
    bad["events"][0]["submissions"][1]["title"] = json!(5);
    let text = serde_json::to_string(&bad).unwrap();
    let digest = confapi::storage::import_digest(&[text.as_bytes()], Default::default());
    let mut outline = confapi::dataset::outline::Pending::of(&text);
    let edited = confapi::storage::edits::import_file(&*server.store, &text, digest, &mut outline)
        .await
        .unwrap();
    assert!(matches!(edited, confapi::storage::edits::Edited::Whole));
    let problems = confapi::dataset::validate::parse_str(&text).unwrap_err();
    assert_eq!(problems[0].path, "events[0].submissions[1].title");
    // A state, a speaker, a new submission: whole.
    for change in [
        json!({"state": "accepted"}),
        json!({"speakers": ["SPK1"]}),
        json!({"code": "SUB9"}),
    ] {
        let mut other = data.clone();
        for (key, value) in change.as_object().unwrap() {
            other["events"][0]["submissions"][1][key] = value.clone();
        }
        assert!(!server.import_file(&other).await, "{change}");
        assert!(
            !server.import_file(&data).await,
            "back to the file: {change}"
        );
    }
    // Written by something else since (a sync, the library): the outline
    // no longer says what is stored.
    let mut synced = data.clone();
    synced["events"][0]["submissions"][0]["title"] = json!("Synced");
    server.import(&synced).await;
    let mut retitled = data.clone();
    retitled["events"][0]["submissions"][0]["title"] = json!("Retitled");
    assert!(!server.import_file(&retitled).await);
    assert_eq!(
        server.anon().ok("/api/events/mini/talks/PUB1/").await["title"],
        "Retitled"
    );
    // Once whole, the next edit is written alone again.
    retitled["events"][0]["submissions"][0]["title"] = json!("Retitled again");
    assert!(server.import_file(&retitled).await);
    assert_eq!(
        server.anon().ok("/api/events/mini/talks/PUB1/").await["title"],
        "Retitled again"
    );
}
