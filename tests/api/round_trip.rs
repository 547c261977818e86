//! Export then import is the identity (issue 75): whatever wrote an event
//! (the demo generator, an import, text edits, a sync, which imports what it
//! maps), exporting it and importing the file writes nothing and makes no
//! generation; changing one field of the file writes one record, in that
//! event alone, and the change feed shows each role only what its own lists
//! show changed, in that event alone.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use confapi::dataset::{demo, export, validate};
use confapi::model::Dataset;

use crate::changes::{difference, feed_of_event, lists_of_event, Arg, Raw, Rng};
use crate::helpers::{democon, mini, TestServer};

/// The file `confapi export` writes.
fn file_of(dataset: &Dataset) -> String {
    serde_json::to_string_pretty(&export::Document::new(dataset)).expect("JSON")
}

/// The lines where two texts differ, at most 20.
fn differing_lines(a: &str, b: &str) -> Vec<String> {
    let mut lines: Vec<String> = a
        .lines()
        .zip(b.lines())
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .take(20)
        .map(|(n, (x, y))| format!("line {n}: {x} | {y}"))
        .collect();
    if lines.is_empty() && a != b {
        lines.push("the texts differ in length".into());
    }
    lines
}

fn demos() -> Vec<demo::DemoOptions> {
    vec![
        demo::DemoOptions::default(),
        demo::DemoOptions {
            events: 3,
            submissions: 30,
            seed: 7,
        },
        demo::DemoOptions {
            events: 1,
            submissions: 12,
            seed: 0xdead_beef,
        },
    ]
}

/// The demo's records are written as an import reads them back: the
/// export of a demo, read, is written out byte for byte the same.
#[test]
fn the_demo_is_what_its_export_reads_back_as() {
    for options in demos() {
        let (dataset, _) = demo::generate(&options);
        let file = file_of(&dataset);
        let read = validate::parse_str(&file).expect("the demo's export is valid");
        let lines = differing_lines(&file, &file_of(&read));
        assert!(lines.is_empty(), "{options:?}:\n{}", lines.join("\n"));
    }
}

/// The records (kind, key) and users written in `generation`.
async fn written_in(server: &TestServer, generation: i64) -> Vec<String> {
    let db = Raw::open(&server.db_url).await;
    let mut written = db
        .texts(&format!(
            "SELECT kind || ' ' || key FROM records WHERE generation = {generation}"
        ))
        .await;
    written.extend(
        db.texts(&format!(
            "SELECT 'user ' || code FROM users WHERE generation = {generation}"
        ))
        .await,
    );
    written.sort();
    written
}

/// What `confapi export` then `confapi import` of the file do: the records
/// written (summary: each written event's own row, which carries its
/// generation, counts as one), the events written, the generations made.
async fn export_import(
    server: &TestServer,
    edit: impl FnOnce(&mut Value),
) -> (u64, Vec<String>, i64) {
    let before = server.store.version().await.expect("version").generation;
    let exported = server.store.export(&[]).await.expect("export");
    let mut doc: Value = serde_json::from_str(&file_of(&exported)).expect("JSON");
    edit(&mut doc);
    let text = serde_json::to_string_pretty(&doc).expect("JSON");
    let read = validate::parse_str(&text).expect("the export is valid");
    let summary = server.store.import(&read, None).await.expect("import");
    server.cache.refresh().await.expect("reload");
    let after = server.store.version().await.expect("version").generation;
    assert_eq!(summary.generation, after);
    (
        summary.records_written,
        summary.changed_events,
        after - before,
    )
}

/// Export then import writes nothing; with one field changed, one record.
async fn round_trips(server: &TestServer, source: &str, rng: &mut Rng) {
    let (written, events, generations) = export_import(server, |_| {}).await;
    assert_eq!(
        (written, events, generations),
        (0, vec![], 0),
        "{source}: export then import writes nothing and makes no generation"
    );
    // One field of one submission of one event.
    let mut changed = (String::new(), String::new());
    let (written, events, generations) = export_import(server, |doc| {
        let events = doc["events"].as_array_mut().unwrap();
        let with_submissions: Vec<usize> = (0..events.len())
            .filter(|&e| !events[e]["submissions"].as_array().unwrap().is_empty())
            .collect();
        let event = &mut events[with_submissions[rng.next(with_submissions.len())]];
        let slug = event["slug"].as_str().unwrap().to_string();
        let submissions = event["submissions"].as_array_mut().unwrap();
        let n = submissions.len();
        let submission = &mut submissions[rng.next(n)];
        let field = ["title", "abstract", "description"][rng.next(3)];
        let old = submission[field].as_str().unwrap_or("").to_string();
        submission[field] = json!(format!("{old} (changed)"));
        changed = (slug, submission["code"].as_str().unwrap().to_string());
    })
    .await;
    // The event's own row (its generation) and the one record.
    assert_eq!(
        (written, events, generations),
        (2, vec![changed.0.clone()], 1),
        "{source}: one changed field ({changed:?}) is one record written"
    );
    let generation = server.store.version().await.unwrap().generation;
    assert_eq!(
        written_in(server, generation).await,
        [format!("submission {}", changed.1)],
        "{source}"
    );
    let (written, _, generations) = export_import(server, |_| {}).await;
    assert_eq!(
        (written, generations),
        (0, 0),
        "{source}: and then nothing again"
    );
}

#[tokio::test]
async fn export_then_import_writes_nothing_whatever_wrote_the_events() {
    let mut rng = Rng(0x75_75_75);
    // The demo generator, written without a file.
    for options in demos() {
        let server = TestServer::start(&[]).await;
        let (dataset, _) = demo::generate(&options);
        server.store.import(&dataset, None).await.expect("demo");
        server.cache.refresh().await.expect("reload");
        round_trips(&server, &format!("demo {options:?}"), &mut rng).await;
    }
    // Imports of files.
    for (name, data) in [("mini", mini()), ("democon", democon())] {
        let server = TestServer::start(&[data]).await;
        round_trips(&server, name, &mut rng).await;
    }
    // A mirror of an upstream (`confapi sync`: another confapi serving the
    // demo, read through pretalx's v1 API, which names reviewers).
    let (dataset, logins) = demo::generate(&demo::DemoOptions {
        events: 2,
        submissions: 25,
        seed: 75,
    });
    let upstream = TestServer::start(&[]).await;
    upstream.store.import(&dataset, None).await.expect("demo");
    upstream.cache.refresh().await.expect("reload");
    let admin = logins.iter().find(|l| l.role == "administrator").unwrap();
    for api in [confapi::sync::Api::V1] {
        let mirror = TestServer::start(&[]).await;
        let options = confapi::sync::Options {
            from: upstream.base.clone(),
            token: admin.token.clone(),
            // One event: a mirror of both through v1 repeats availability
            // ids across events (noticed in issue 75, left to its own issue).
            events: vec!["democonf".into()],
            access: None,
            timeout: std::time::Duration::from_secs(30),
            api,
            organiser: None,
            ca_certs: Vec::new(),
            max_body: confapi::sync::client::DEFAULT_MAX_BODY,
            round_timeout: confapi::sync::client::DEFAULT_ROUND_TIMEOUT,
            redirect_hosts: Vec::new(),
        };
        let round = confapi::sync::run_once(&options, &*mirror.store, &|_| {})
            .await
            .unwrap_or_else(|e| panic!("sync {api:?}: {e}"));
        assert!(round.import.records_written > 0, "{api:?}");
        // A second round finds nothing to write.
        let again = confapi::sync::run_once(&options, &*mirror.store, &|_| {})
            .await
            .unwrap();
        assert_eq!(again.import.records_written, 0, "sync {api:?}");
        mirror.cache.refresh().await.expect("reload");
        round_trips(&mirror, &format!("sync {api:?}"), &mut rng).await;
    }
    // Text edits (`storage::edits`: a submission's texts rewritten alone).
    let server = TestServer::start(&[]).await;
    let mut data = mini();
    assert!(!server.import_file(&data).await);
    data["events"][0]["submissions"][0]["title"] = json!("An edited title");
    assert!(
        server.import_file(&data).await,
        "the edit took the shortcut"
    );
    round_trips(&server, "edits", &mut rng).await;
}

/// The event's own row's generation.
async fn event_generation(server: &TestServer, slug: &str) -> i64 {
    let db = Raw::open(&server.db_url).await;
    db.integers(&format!(
        "SELECT generation FROM events WHERE slug_lower = '{slug}'"
    ))
    .await[0]
}

/// Issue 75's quick start: `serve --demo`, export, change one confirmed
/// talk's title, import. One record is written, in democonf alone; the
/// public hears of one submission and one talk, every role of exactly what
/// its own lists show changed, and democonf2 of nothing.
#[tokio::test]
async fn the_quick_start_changes_one_title_and_nothing_else() {
    let server = TestServer::start(&[]).await;
    let (dataset, logins) = demo::generate(&demo::DemoOptions::default());
    server.store.import(&dataset, None).await.expect("demo");
    server.cache.refresh().await.expect("reload");
    let mut roles = vec![("anonymous".to_string(), server.anon())];
    for login in &logins {
        roles.push((login.role.to_string(), server.token(&login.token)));
    }
    let mut befores = Vec::new();
    for (_, client) in &roles {
        befores.push((
            lists_of_event(client, "democonf").await,
            lists_of_event(client, "democonf2").await,
        ));
    }
    let since = server.store.version().await.unwrap().generation;
    let other_generation = event_generation(&server, "democonf2").await;
    let talk = server.anon().all("/api/events/democonf/talks/").await[0]["code"]
        .as_str()
        .unwrap()
        .to_string();
    let (written, events, generations) = export_import(&server, |doc| {
        let event = &mut doc["events"][0];
        assert_eq!(event["slug"], "democonf");
        let submission = event["submissions"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|s| s["code"] == talk.as_str())
            .unwrap();
        assert_eq!(submission["state"], "confirmed");
        submission["title"] = json!("A title changed by hand");
    })
    .await;
    assert_eq!(
        (written, events, generations),
        (2, vec!["democonf".to_string()], 1)
    );
    assert_eq!(
        written_in(&server, since + 1).await,
        [format!("submission {talk}")]
    );
    let expected: BTreeSet<(String, String, String)> = ["submission", "talk"]
        .into_iter()
        .map(|kind| (kind.to_string(), format!("{talk:?}"), "updated".to_string()))
        .collect();
    let (public, _) = feed_of_event(&server.anon(), "democonf", since).await;
    assert_eq!(public, expected, "the public feed");
    for ((role, client), (before, before2)) in roles.iter().zip(befores) {
        let after = lists_of_event(client, "democonf").await;
        let (feed, _) = feed_of_event(client, "democonf", since).await;
        assert_eq!(feed, difference(&before, &after), "{role}: democonf");
        assert!(!feed.is_empty() || role != "anonymous");
        let after2 = lists_of_event(client, "democonf2").await;
        assert_eq!(before2, after2, "{role}: democonf2 looks the same");
        let reply = client
            .get(&format!("/api/events/democonf2/changes/?since={since}"))
            .await;
        if reply.status == 200 {
            assert_eq!(reply.body["results"], json!([]), "{role}: democonf2's feed");
        }
    }
    assert_eq!(
        event_generation(&server, "democonf2").await,
        other_generation,
        "democonf2 keeps its generation"
    );
}

/// A record rewritten with equal content (a body another writer or an
/// older confapi stored in another form: here a room's translations in
/// another key order) is written again, but no role sees anything change:
/// the feed has no item.
#[tokio::test]
async fn a_record_rewritten_with_equal_content_makes_no_feed_item() {
    let server = TestServer::start(&[]).await;
    let (dataset, logins) = demo::generate(&demo::DemoOptions::default());
    server.store.import(&dataset, None).await.expect("demo");
    server.cache.refresh().await.expect("reload");
    let db = Raw::open(&server.db_url).await;
    // Every room body with two translations, put in the other order.
    let keys = db
        .texts("SELECT key FROM records WHERE kind = 'room' ORDER BY event, key")
        .await;
    let mut rewritten = 0;
    for key in keys {
        let body = db
            .texts(&format!(
                "SELECT CAST(body AS TEXT) FROM records WHERE kind = 'room' AND key = '{key}'"
            ))
            .await
            .remove(0);
        let value: Value = serde_json::from_str(&body).unwrap();
        let Some(name) = value["name"].as_object() else {
            continue;
        };
        if name.len() < 2 {
            continue;
        }
        let pairs: Vec<String> = name
            .iter()
            .map(|(locale, text)| format!("{}:{}", json!(locale), text))
            .collect();
        let forward = format!("{{{}}}", pairs.join(","));
        let backward = format!(
            "{{{}}}",
            pairs.iter().rev().cloned().collect::<Vec<_>>().join(",")
        );
        let reordered = if body.contains(&forward) {
            body.replacen(&forward, &backward, 1)
        } else {
            body.replacen(&backward, &forward, 1)
        };
        assert_ne!(reordered, body, "{body}");
        let hash = confapi::storage::records::fingerprint(&reordered);
        let set = if db.is_postgres() {
            "UPDATE records SET body = CAST($1 AS json), hash = $2 WHERE kind = 'room' AND key = $3"
        } else {
            "UPDATE records SET body = $1, hash = $2 WHERE kind = 'room' AND key = $3"
        };
        db.execute(
            set,
            vec![Arg::Text(reordered), Arg::Int(hash), Arg::Text(key)],
        )
        .await;
        rewritten += 1;
    }
    assert!(rewritten > 0, "the demo's rooms have translated names");
    let mut roles = vec![("anonymous".to_string(), server.anon())];
    for login in &logins {
        roles.push((login.role.to_string(), server.token(&login.token)));
    }
    let since = server.store.version().await.unwrap().generation;
    let summary = server.store.import(&dataset, None).await.expect("import");
    server.cache.refresh().await.expect("reload");
    assert_eq!(
        written_in(&server, since + 1).await.len(),
        rewritten,
        "the rooms are written again, in the canonical form"
    );
    assert_eq!(summary.generation, since + 1);
    for slug in ["democonf", "democonf2"] {
        for (role, client) in &roles {
            let reply = client
                .get(&format!("/api/events/{slug}/changes/?since={since}"))
                .await;
            if reply.status == 200 {
                assert_eq!(reply.body["results"], json!([]), "{role}: {slug}'s feed");
            }
        }
    }
    // And the form stored now is the one every writer writes.
    let (written, _, generations) = export_import(&server, |_| {}).await;
    assert_eq!((written, generations), (0, 0));
}

/// The canonical form of a translated text, whoever made it: each locale
/// once (its last text), in locale order, as the dataset's reader reads an
/// object, and read back from a body in the same form.
#[test]
fn a_translated_text_is_written_and_read_in_one_form() {
    use confapi::model::I18n;
    let pair = |l: &str, t: &str| (l.to_string(), t.to_string());
    let made = I18n(
        vec![pair("en", "a"), pair("de", "b"), pair("en", "c")],
        false,
    );
    assert!(!made.is_canonical());
    let written = serde_json::to_string(&made).unwrap();
    assert_eq!(written, r#"{"de":"b","en":"c"}"#);
    let read: I18n = serde_json::from_str(r#"{"en":"a","de":"b","en":"c"}"#).unwrap();
    assert_eq!(read, I18n(vec![pair("de", "b"), pair("en", "c")], false));
    assert!(read.is_canonical());
    // The dataset's reader agrees.
    let (mut dataset, _) = demo::generate(&demo::DemoOptions {
        events: 1,
        submissions: 4,
        seed: 1,
    });
    dataset.events[0].name = made;
    let file = file_of(&dataset);
    let parsed = validate::parse_str(&file).expect("valid");
    assert_eq!(parsed.events[0].name, read);
}
