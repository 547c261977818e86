//! Webhooks: each subscription gets its view's feed, signed (verified here
//! with the `standardwebhooks` crate; scripts/e2e/webhooks_e2e.py verifies with
//! the PyPI package), in order, nothing lost while the receiver is down,
//! one sender among replicas, nothing to private addresses unless allowed.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use serde_json::{json, Value};

use confapi::webhooks::{self, Options, Stats};

use confapi::dataset::{demo, export, validate};

use crate::helpers::{mini, TestServer};

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Received {
    path: String,
    id: String,
    body: Value,
}

/// What the receiver answers next.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Ok,
    Down,
    /// 410 to `/public`, the others as `Ok`.
    PublicGone,
    /// 200 with a body that never ends (a hostile receiver).
    EndlessAnswer,
}

#[derive(Clone)]
struct Receiver {
    base: String,
    got: Arc<Mutex<Vec<Received>>>,
    attempts: Arc<Mutex<Vec<Received>>>,
    mode: Arc<Mutex<Mode>>,
}

impl Receiver {
    async fn start() -> Receiver {
        let receiver = Receiver {
            base: String::new(),
            got: Arc::default(),
            attempts: Arc::default(),
            mode: Arc::new(Mutex::new(Mode::Ok)),
        };
        let state = receiver.clone();
        let app = axum::Router::new().route(
            "/{hook}",
            axum::routing::post(
                move |axum::extract::Path(hook): axum::extract::Path<String>,
                      headers: HeaderMap,
                      body: Bytes| {
                    let state = state.clone();
                    async move {
                        let verifier = standardwebhooks::Webhook::new(SECRET).unwrap();
                        verifier
                            .verify(&body, &headers)
                            .expect("every delivery is signed with the subscription's secret");
                        let received = Received {
                            path: hook,
                            id: headers["webhook-id"].to_str().unwrap().to_string(),
                            body: serde_json::from_slice(&body).unwrap(),
                        };
                        state.attempts.lock().unwrap().push(received.clone());
                        let mode = *state.mode.lock().unwrap();
                        match mode {
                            Mode::PublicGone if received.path == "public" => {
                                StatusCode::GONE.into_response()
                            }
                            Mode::Ok | Mode::PublicGone => {
                                state.got.lock().unwrap().push(received);
                                StatusCode::NO_CONTENT.into_response()
                            }
                            Mode::EndlessAnswer => {
                                state.got.lock().unwrap().push(received);
                                let chunk = Bytes::from(vec![b'x'; 64 * 1024]);
                                let endless = futures_util::stream::repeat_with(move || {
                                    Ok::<_, std::convert::Infallible>(chunk.clone())
                                });
                                axum::body::Body::from_stream(endless).into_response()
                            }
                            Mode::Down => (
                                StatusCode::SERVICE_UNAVAILABLE,
                                [("retry-after", "1")],
                                "down",
                            )
                                .into_response(),
                        }
                    }
                },
            ),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Receiver { base, ..receiver }
    }

    fn set(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    fn got(&self, path: &str) -> Vec<Received> {
        self.got
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }

    async fn wait_for(&self, path: &str, count: usize, within: Duration) -> Vec<Received> {
        let deadline = Instant::now() + within;
        loop {
            let got = self.got(path);
            if got.len() >= count || Instant::now() > deadline {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// mini with webhooks for the public, the organiser, the reviewer, and
/// one for talks only.
fn with_hooks(receiver: &Receiver) -> Value {
    let mut data = mini();
    data["events"][0]["webhooks"] = json!([
        {"url": format!("{}/public", receiver.base), "secret": SECRET},
        {"url": format!("{}/orga", receiver.base), "secret": SECRET, "as": "ORGA"},
        {"url": format!("{}/rev", receiver.base), "secret": SECRET, "as": "REV"},
        {"url": format!("{}/talks", receiver.base), "secret": SECRET, "kinds": ["talk"]}
    ]);
    data
}

async fn start(receiver: &Receiver) -> (TestServer, Arc<Stats>) {
    let server = TestServer::start(&[with_hooks(receiver)]).await;
    let stats = server.webhooks.clone();
    webhooks::start(
        server.cache.clone(),
        stats.clone(),
        Options {
            allow_private: true,
            ..Options::default()
        },
    );
    // The subscriptions start from the generation they were first seen at.
    tokio::time::sleep(Duration::from_millis(600)).await;
    (server, stats)
}

async fn feed_item(server: &TestServer, token: Option<&str>, generation: i64) -> Value {
    let client = match token {
        Some(token) => server.token(token),
        None => server.anon(),
    };
    let page = client
        .ok(&format!(
            "/api/events/mini/changes/?since={}",
            generation - 1
        ))
        .await;
    page["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["generation"] == json!(generation))
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn each_view_receives_its_own_feed_signed_within_two_seconds() {
    let receiver = Receiver::start().await;
    let (server, _) = start(&receiver).await;
    let mut data = with_hooks(&receiver);

    // An internal note: the organisers' view only.
    data["events"][0]["submissions"][1]["internal_notes"] = json!("budget");
    let started = Instant::now();
    server.import(&data).await;
    let orga = receiver.wait_for("orga", 1, Duration::from_secs(5)).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    let notes = server.cache.cached_generation();
    assert_eq!(orga.len(), 1);
    assert_eq!(
        orga[0].body,
        feed_item(&server, Some("orga-token"), notes).await
    );
    assert_eq!(
        orga[0].body["changes"],
        json!([{"kind": "submission", "code": "SUB2", "action": "updated"}])
    );

    // A public talk retitled: everyone who sees it.
    data["events"][0]["submissions"][0]["title"] = json!("Renamed");
    server.import(&data).await;
    let renamed = server.cache.cached_generation();
    for (path, token, count) in [
        ("public", None, 1),
        ("orga", Some("orga-token"), 2),
        ("rev", Some("rev-token"), 1),
    ] {
        let got = receiver.wait_for(path, count, Duration::from_secs(5)).await;
        assert_eq!(got.len(), count, "{path}: {got:?}");
        let last = got.last().unwrap();
        assert_eq!(
            last.body,
            feed_item(&server, token, renamed).await,
            "{path}"
        );
        assert!(
            last.id.ends_with(&format!("_{renamed}")),
            "{path}: {}",
            last.id
        );
    }
    let talks = receiver.wait_for("talks", 1, Duration::from_secs(5)).await;
    assert_eq!(
        talks[0].body["changes"],
        json!([{"kind": "talk", "code": "PUB1", "action": "updated"}]),
        "kinds filters the changes"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        receiver.got("public").len(),
        1,
        "the internal note never reached the public"
    );
    assert_eq!(receiver.got("rev").len(), 1, "nor the reviewer");
}

#[tokio::test]
async fn a_receiver_that_is_down_gets_everything_in_order_with_stable_ids() {
    let receiver = Receiver::start().await;
    let (server, stats) = start(&receiver).await;
    receiver.set(Mode::Down);
    let mut data = with_hooks(&receiver);
    let mut generations = Vec::new();
    for title in ["One", "Two", "Three"] {
        data["events"][0]["submissions"][0]["title"] = json!(title);
        server.import(&data).await;
        generations.push(server.cache.cached_generation());
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let failed: Vec<String> = receiver
        .attempts
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r.path == "public")
        .map(|r| r.id.clone())
        .collect();
    assert!(!failed.is_empty(), "the sender tried");
    // Only the oldest is tried while it fails: order is kept.
    assert!(
        failed
            .iter()
            .all(|id| id.ends_with(&format!("_{}", generations[0]))),
        "{failed:?}"
    );
    assert!(stats
        .snapshot()
        .iter()
        .any(|(_, s)| s.failed > 0 && s.pending == 3));
    let metrics = server.anon().get("/metrics").await.text;
    let public_id = confapi::webhooks::Subscription::new(
        "mini",
        serde_json::from_value(with_hooks(&receiver)["events"][0]["webhooks"][0].clone()).unwrap(),
    )
    .id;
    for line in [
        format!("confapi_webhook_pending{{subscription=\"{public_id}\",event=\"mini\"}} 3"),
        format!("confapi_webhook_deliveries_total{{subscription=\"{public_id}\",event=\"mini\",outcome=\"sent\"}} 0"),
    ] {
        assert!(metrics.lines().any(|l| l == line), "{line} in {metrics}");
    }
    assert!(metrics.contains("confapi_webhook_oldest_pending_seconds{subscription="));

    receiver.set(Mode::Ok);
    let got = receiver
        .wait_for("public", 3, Duration::from_secs(15))
        .await;
    let delivered: Vec<i64> = got
        .iter()
        .map(|r| r.body["generation"].as_i64().unwrap())
        .collect();
    assert_eq!(delivered, generations, "in generation order, each once");
    assert_eq!(
        got[0].id, failed[0],
        "the retried delivery keeps its webhook-id"
    );
}

#[tokio::test]
async fn a_410_ends_the_subscription() {
    let receiver = Receiver::start().await;
    let (server, _) = start(&receiver).await;
    receiver.set(Mode::PublicGone);
    let mut data = with_hooks(&receiver);
    data["events"][0]["submissions"][0]["title"] = json!("One");
    server.import(&data).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    receiver.set(Mode::Ok);
    data["events"][0]["submissions"][0]["title"] = json!("Two");
    server.import(&data).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(
        receiver.got("public").is_empty(),
        "{:?}",
        receiver.got("public")
    );
    assert!(
        !receiver.got("orga").is_empty(),
        "the other subscriptions go on"
    );
}

#[tokio::test]
async fn private_addresses_are_refused_unless_allowed() {
    let receiver = Receiver::start().await;
    let server = TestServer::start(&[with_hooks(&receiver)]).await;
    let stats = Arc::new(Stats::default());
    webhooks::start(server.cache.clone(), stats.clone(), Options::default());
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut data = with_hooks(&receiver);
    data["events"][0]["submissions"][0]["title"] = json!("One");
    server.import(&data).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(
        receiver.attempts.lock().unwrap().is_empty(),
        "nothing reached 127.0.0.1"
    );
    assert!(stats.snapshot().iter().all(|(_, s)| s.sent == 0));
    assert!(stats.snapshot().iter().any(|(_, s)| s.failed > 0));
}

/// Two senders on one database (two replicas): every delivery is made once.
#[tokio::test]
async fn two_senders_deliver_each_generation_once() {
    let receiver = Receiver::start().await;
    let (server, _) = start(&receiver).await;
    webhooks::start(
        server.cache.clone(),
        Arc::new(Stats::default()),
        Options {
            allow_private: true,
            ..Options::default()
        },
    );
    let mut data = with_hooks(&receiver);
    for i in 0..5 {
        data["events"][0]["submissions"][0]["title"] = json!(format!("Title {i}"));
        server.import(&data).await;
    }
    let got = receiver
        .wait_for("public", 5, Duration::from_secs(10))
        .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let ids: Vec<String> = receiver
        .got("public")
        .iter()
        .map(|r| r.id.clone())
        .collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(got.len(), 5);
    assert_eq!(ids, unique, "no delivery twice");
}

#[tokio::test]
async fn the_dataset_refuses_bad_webhooks_with_their_paths() {
    let mut data = mini();
    data["events"][0]["webhooks"] = json!([
        {"url": "ftp://example.org/x", "secret": SECRET},
        {"url": "https://example.org/x", "secret": "not base64!"},
        {"url": "https://example.org/x", "secret": SECRET, "as": "NOSUCHUSER"},
        {"url": "https://example.org/x", "secret": SECRET, "kinds": ["talk", "talk", "slot"]},
        {"url": "https://example.org/x", "secret": SECRET, "colour": "red"}
    ]);
    let problems = confapi::dataset::validate::parse_value(&data).unwrap_err();
    let paths: Vec<String> = problems.iter().map(|p| p.path.clone()).collect();
    for path in [
        "events[0].webhooks[0].url",
        "events[0].webhooks[1].secret",
        "events[0].webhooks[2].as",
        "events[0].webhooks[3].kinds",
        "events[0].webhooks[3].kinds[2]",
        "events[0].webhooks[4].colour",
    ] {
        assert!(paths.iter().any(|p| p == path), "{path} in {problems:?}");
    }
}

/// The API never shows a webhook's URL or secret.
#[tokio::test]
async fn webhooks_are_never_shown() {
    let receiver = Receiver::start().await;
    let server = TestServer::start(&[with_hooks(&receiver)]).await;
    for (token, version) in [
        (None, "LEGACY"),
        (Some("orga-token"), "LEGACY"),
        (Some("orga-token"), "v1"),
    ] {
        let client = match token {
            Some(t) => server.token(t),
            None => server.anon(),
        };
        for path in [
            "/api/events/",
            "/api/events/mini/",
            "/api/events/mini/submissions/",
        ] {
            let reply = client
                .request("GET", path, &[("Pretalx-Version", version)])
                .await;
            assert!(
                !reply.text.contains("whsec_") && !reply.text.contains(&receiver.base),
                "{path}: {}",
                reply.text
            );
        }
    }
}

/// https receivers: a private CA's certificate trusted with
/// `--webhooks-ca-cert`, refused without it.
#[tokio::test]
async fn https_receivers_are_checked_against_the_trusted_roots() {
    let receiver = Receiver::start().await;
    let ca = crate::sync_https::Ca::new("confapi webhook test CA");
    let proxy =
        crate::sync_https::TlsProxy::before(&receiver.base, ca.server_cert(&["127.0.0.1"], false))
            .await;
    let mut data = mini();
    data["events"][0]["webhooks"] = json!([
        {"url": format!("{}/public", proxy.url), "secret": SECRET}
    ]);
    let trusted = TestServer::start(&[data.clone()]).await;
    let pem = reqwest::Certificate::from_pem(ca.pem().as_bytes()).unwrap();
    webhooks::start(
        trusted.cache.clone(),
        trusted.webhooks.clone(),
        Options {
            allow_private: true,
            ca_certs: vec![pem],
            ..Options::default()
        },
    );
    let untrusted = TestServer::start(&[data.clone()]).await;
    webhooks::start(
        untrusted.cache.clone(),
        untrusted.webhooks.clone(),
        Options {
            allow_private: true,
            ..Options::default()
        },
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    data["events"][0]["submissions"][0]["title"] = json!("Over TLS");
    trusted.import(&data).await;
    untrusted.import(&data).await;
    let got = receiver.wait_for("public", 1, Duration::from_secs(5)).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(
        receiver.got("public").len(),
        1,
        "{got:?}: only the trusting sender delivered"
    );
    assert!(trusted.webhooks.snapshot().iter().any(|(_, s)| s.sent == 1));
    assert!(untrusted
        .webhooks
        .snapshot()
        .iter()
        .any(|(_, s)| s.sent == 0 && s.failed > 0));
}

/// Issue 75: the demo, written by its generator, then exported, one public
/// talk's title changed in democonf, imported. Each of democonf's
/// subscriptions gets one delivery naming that submission and talk; none of
/// democonf2's gets anything (its records are not written: no generation,
/// no feed item, no delivery).
#[tokio::test]
async fn one_changed_title_is_one_delivery_per_view_and_none_in_other_events() {
    let receiver = Receiver::start().await;
    let (mut dataset, _) = demo::generate(&demo::DemoOptions::default());
    let orga = dataset
        .users
        .iter()
        .find(|u| u.email == "orga@demo.example")
        .map(|u| u.code.to_string())
        .unwrap();
    for (event, name) in dataset.events.iter_mut().zip(["one", "two"]) {
        event.webhooks = ["public", "orga"]
            .into_iter()
            .map(|view| confapi::model::Webhook {
                url: format!("{}/{name}-{view}", receiver.base),
                secret: SECRET.into(),
                as_user: (view == "orga").then(|| orga.clone()),
                kinds: Vec::new(),
            })
            .collect();
    }
    let server = TestServer::start(&[]).await;
    server.store.import(&dataset, None).await.expect("demo");
    server.cache.refresh().await.expect("reload");
    webhooks::start(
        server.cache.clone(),
        server.webhooks.clone(),
        Options {
            allow_private: true,
            ..Options::default()
        },
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    let talk = server.anon().all("/api/events/democonf/talks/").await[0]["code"]
        .as_str()
        .unwrap()
        .to_string();
    let exported = server.store.export(&[]).await.expect("export");
    let mut doc = export::to_json(&exported);
    let submission = doc["events"][0]["submissions"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["code"] == talk.as_str())
        .unwrap();
    submission["title"] = json!("A title changed by hand");
    let read = validate::parse_value(&doc).expect("valid");
    server.store.import(&read, None).await.expect("import");
    server.cache.refresh().await.expect("reload");
    let generation = server.cache.cached_generation();
    let expected = json!([
        {"kind": "submission", "code": talk, "action": "updated"},
        {"kind": "talk", "code": talk, "action": "updated"}
    ]);
    for path in ["one-public", "one-orga"] {
        let got = receiver.wait_for(path, 1, Duration::from_secs(5)).await;
        assert_eq!(got.len(), 1, "{path}: {got:?}");
        assert_eq!(got[0].body["generation"], json!(generation), "{path}");
        assert_eq!(got[0].body["changes"], expected, "{path}");
    }
    // Time for any further delivery to arrive.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for (path, count) in [
        ("one-public", 1),
        ("one-orga", 1),
        ("two-public", 0),
        ("two-orga", 0),
    ] {
        let attempts: Vec<Received> = receiver
            .attempts
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect();
        assert_eq!(attempts.len(), count, "{path}: {attempts:?}");
    }
}

/// The sender reads a receiver's status and headers, never its body: a
/// receiver that answers 200 with a body that never ends has its delivery
/// counted once, and the next generation follows as soon as it is made
/// (issue 74).
#[tokio::test]
async fn a_receiver_answering_an_endless_body_is_not_read() {
    let receiver = Receiver::start().await;
    let (server, _) = start(&receiver).await;
    receiver.set(Mode::EndlessAnswer);
    let mut data = with_hooks(&receiver);
    for (n, title) in ["One", "Two"].into_iter().enumerate() {
        data["events"][0]["submissions"][0]["title"] = json!(title);
        server.import(&data).await;
        let got = receiver
            .wait_for("orga", n + 1, Duration::from_secs(5))
            .await;
        assert_eq!(got.len(), n + 1, "{got:?}");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let attempts = receiver
        .attempts
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r.path == "orga")
        .count();
    assert_eq!(attempts, 2, "each delivery once, none retried");
}
