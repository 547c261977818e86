//! Test harness: every test starts the real server on a random port with its
//! own temporary SQLite database, loads datasets through the real import
//! path, and calls it over HTTP with one client per role.
#![allow(dead_code)]

use std::sync::Arc;

use reqwest::header::HeaderMap;
use serde_json::Value;

use confapi::cache::CatalogCache;
use confapi::dataset::validate;
use confapi::http::server::ServeOptions;
use confapi::http::{AppState, Config};
use confapi::storage::{self, Store};

pub mod bodies;
pub mod events;
pub mod model;
pub mod openapi;
pub mod reviews_mini;
pub mod world;

/// A fixture in `tests/data/` (the tests read nothing outside the repository).
pub fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// shared/datasets/democon.json, exported data copied into tests/data.
pub fn democon() -> Value {
    load_json(&data("democon.json"))
}

/// shared/datasets/client-friendly.json, copied into tests/data.
pub fn client_friendly() -> Value {
    load_json(&data("client-friendly.json"))
}

pub fn edge() -> Value {
    load_json(&data("edge.json"))
}

pub fn load_json(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// democon.json's callers (the first token of each user with that e-mail).
pub mod democon_tokens {
    pub const ADMIN: &str = "30369046a1da256c935d698c4b3f61808ddfc13b";
    pub const ORGA: &str = "be5eb0e0341575ee01cf2dbc6bd648e6402529ef";
    pub const REVIEWER: &str = "a6aab3196d27ebb9a24dca47fdb6773ddb346f58";
    pub const TRACK_REVIEWER: &str = "4f086898aabe43ebf3b212fcdb25caf6fafb10a7";
}

/// The clear token of edge.json's `hashonly` user (organiser of
/// edge-private), which the dataset stores only hashed: make_edge.py's
/// `HASHONLY_TOKEN = token("hashonly")`.
pub const EDGE_HASHONLY_TOKEN: &str = "d079b0a24a225e93bd92d5cb44651dab7fefce88";

/// The first clear token of the user with this e-mail in a dataset.
pub fn token_of(dataset: &Value, email: &str) -> String {
    dataset["users"]
        .as_array()
        .and_then(|users| users.iter().find(|u| u["email"] == email))
        .and_then(|u| u["tokens"][0].as_str())
        .unwrap_or_else(|| panic!("no token for {email}"))
        .to_string()
}

/// A fresh, empty database for one test: a SQLite file in a temp dir, or,
/// when `CONFAPI_TEST_POSTGRES` holds an admin URL
/// (`postgres://postgres@127.0.0.1:5432/test`), a new PostgreSQL database
/// that is dropped with this value.
pub struct TestDatabase {
    pub url: String,
    pub dir: tempfile::TempDir,
    postgres: Option<(String, String)>,
}

/// The PostgreSQL admin URL the tests run on, if any.
pub fn postgres_admin_url() -> Option<String> {
    std::env::var("CONFAPI_TEST_POSTGRES")
        .ok()
        .filter(|url| !url.is_empty())
}

fn psql(admin: &str, sql: &str) {
    let output = std::process::Command::new("psql")
        .args(["-q", "-v", "ON_ERROR_STOP=1", admin, "-c", sql])
        .output()
        .expect("run psql");
    assert!(
        output.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

impl TestDatabase {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        match postgres_admin_url() {
            None => TestDatabase {
                url: format!("sqlite://{}", dir.path().join("test.db").display()),
                dir,
                postgres: None,
            },
            Some(admin) => {
                static COUNTER: std::sync::atomic::AtomicUsize =
                    std::sync::atomic::AtomicUsize::new(0);
                let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let name = format!(
                    "confapi_test_{}_{}_{}",
                    std::process::id(),
                    n,
                    fastrand::u32(..)
                );
                psql(&admin, &format!("CREATE DATABASE {name}"));
                let url = format!(
                    "{}/{name}",
                    admin.rsplit_once('/').expect("admin URL has a database").0
                );
                TestDatabase {
                    url,
                    dir,
                    postgres: Some((admin, name)),
                }
            }
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Some((admin, name)) = &self.postgres {
            let _ = std::process::Command::new("psql")
                .args([
                    "-q",
                    admin,
                    "-c",
                    &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                ])
                .output();
        }
    }
}

pub struct TestServer {
    pub base: String,
    pub store: Arc<dyn Store>,
    pub cache: Arc<CatalogCache>,
    pub db_url: String,
    /// The server's webhook figures (`webhooks::start` in tests).
    pub webhooks: Arc<confapi::webhooks::Stats>,
    task: tokio::task::JoinHandle<()>,
    _db: TestDatabase,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestServer {
    /// A server holding these datasets (imported in order).
    pub async fn start(datasets: &[Value]) -> Self {
        Self::start_with(datasets, Config::default()).await
    }

    pub async fn start_with(datasets: &[Value], config: Config) -> Self {
        Self::start_serving(datasets, config, ServeOptions::default()).await
    }

    /// A server with these connection settings too.
    pub async fn start_serving(datasets: &[Value], config: Config, options: ServeOptions) -> Self {
        let db = TestDatabase::new();
        let store = storage::open(&db.url)
            .await
            .expect("open the test database");
        let server = TestServer::serve(store, db, config, options).await;
        for dataset in datasets {
            server.import(dataset).await;
        }
        server
    }

    /// A server on a database something else filled (a mirror that
    /// `confapi sync` wrote).
    pub async fn start_on(db: TestDatabase) -> Self {
        let store = storage::open(&db.url).await.expect("open the database");
        TestServer::serve(store, db, Config::default(), ServeOptions::default()).await
    }

    async fn serve(
        store: Arc<dyn Store>,
        db: TestDatabase,
        config: Config,
        options: ServeOptions,
    ) -> Self {
        // A short poll, so that tests that change the database behind
        // the server's back see it soon; `import` refreshes at once.
        let state = AppState::new(
            CatalogCache::start(store.clone(), std::time::Duration::from_millis(50)),
            config,
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let cache = state.cache.clone();
        let webhooks = state.webhooks.clone();
        let task = tokio::spawn(async move {
            // Stopped by `abort` when the test ends, not by a signal.
            let _ =
                confapi::http::server::serve_with(listener, state, options, std::future::pending())
                    .await;
        });
        // Serve from the first request on, as a load balancer would wait
        // for /readyz.
        cache.refresh().await.expect("the first catalog loads");
        TestServer {
            base,
            store,
            cache,
            db_url: db.url.clone(),
            webhooks,
            task,
            _db: db,
        }
    }

    /// Imports a dataset document through validation, as `confapi import` does.
    pub async fn import(&self, dataset: &Value) {
        let parsed = validate::parse_value(dataset)
            .unwrap_or_else(|problems| panic!("test dataset invalid: {problems:?}"));
        self.store.import(&parsed, None).await.expect("import");
        // Served from the next request on, without waiting for the poll.
        self.cache.refresh().await.expect("reload after the import");
    }

    /// Imports a dataset document as `confapi import` imports one file:
    /// nothing when the stored data is that file's, its changed
    /// submissions alone when only their texts changed since the file
    /// imported last (`storage::edits`; true then), else the whole
    /// document, keeping its outline for the next time.
    pub async fn import_file(&self, dataset: &Value) -> bool {
        use confapi::storage::{self, edits};
        let text = serde_json::to_string_pretty(dataset).expect("JSON");
        let options = storage::ImportOptions {
            digest: Some(storage::import_digest(
                &[text.as_bytes()],
                Default::default(),
            )),
            ..Default::default()
        };
        let digest = options.digest.unwrap();
        let mut edited = false;
        if self
            .store
            .unchanged_import(digest)
            .await
            .expect("digests")
            .is_none()
        {
            let mut outline = confapi::dataset::outline::Pending::of(&text);
            match edits::import_file(&*self.store, &text, digest, &mut outline)
                .await
                .expect("edits")
            {
                edits::Edited::Done(_) => edited = true,
                edits::Edited::Whole => {
                    let parsed = validate::parse_str(&text)
                        .unwrap_or_else(|problems| panic!("test dataset invalid: {problems:?}"));
                    self.store
                        .import_with(&parsed, options, None)
                        .await
                        .expect("import");
                    edits::keep_outline(&*self.store, outline.into_outline(), &parsed, digest)
                        .await
                        .expect("outline kept");
                }
            }
        }
        self.cache.refresh().await.expect("reload after the import");
        edited
    }

    pub fn anon(&self) -> Client {
        Client::new(&self.base, None)
    }

    /// A client sending `Authorization: Token <token>`.
    pub fn token(&self, token: &str) -> Client {
        Client::new(&self.base, Some(format!("Token {token}")))
    }

    /// A client sending this exact `Authorization` header.
    pub fn authorization(&self, header: &str) -> Client {
        Client::new(&self.base, Some(header.to_string()))
    }
}

pub struct Client {
    http: reqwest::Client,
    pub base: String,
    authorization: Option<String>,
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub text: String,
    /// The body as JSON, or Null when it is not JSON (or empty).
    pub body: Value,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The codes (or another key) of a list page's results.
    pub fn result_keys(&self, key: &str) -> Vec<Value> {
        self.body["results"]
            .as_array()
            .unwrap_or_else(|| panic!("not a list page: {}", self.text))
            .iter()
            .map(|item| item[key].clone())
            .collect()
    }

    pub fn count(&self) -> u64 {
        self.body["count"]
            .as_u64()
            .unwrap_or_else(|| panic!("no count: {}", self.text))
    }
}

/// A builder of HTTP clients for the test servers, which speak plain HTTP.
/// It loads no root certificates: `reqwest::Client::new()` parses the
/// system's whole certificate store, which in a debug build took most of
/// the test binary's time (one client per caller and request).
pub fn http_client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder().tls_built_in_root_certs(false)
}

/// A fresh client of `http_client_builder`'s defaults.
pub fn http_client() -> reqwest::Client {
    http_client_builder()
        .build()
        .expect("the test client builds")
}

impl Client {
    fn new(base: &str, authorization: Option<String>) -> Self {
        Client {
            http: http_client(),
            base: base.to_string(),
            authorization,
        }
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.request("GET", path, &[]).await
    }

    /// GET that must answer 200; returns the JSON body.
    pub async fn ok(&self, path: &str) -> Value {
        let reply = self.get(path).await;
        assert_eq!(reply.status, 200, "GET {path}: {}", reply.text);
        reply.body
    }

    /// Follows `next` links from `path` and returns every result.
    pub async fn all(&self, path: &str) -> Vec<Value> {
        let mut url = format!("{}{path}", self.base);
        let mut out = Vec::new();
        loop {
            let reply = self.request_url("GET", &url, &[]).await;
            assert_eq!(reply.status, 200, "GET {url}: {}", reply.text);
            out.extend(
                reply.body["results"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default(),
            );
            match reply.body["next"].as_str() {
                Some(next) => url = next.to_string(),
                None => return out,
            }
        }
    }

    pub async fn request(&self, method: &str, path: &str, headers: &[(&str, &str)]) -> Reply {
        let url = format!("{}{path}", self.base);
        self.request_url(method, &url, headers).await
    }

    pub async fn request_url(&self, method: &str, url: &str, headers: &[(&str, &str)]) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request = self.http.request(method, url);
        if let Some(auth) = &self.authorization {
            request = request.header("Authorization", auth);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            text,
            body,
        }
    }
}

/// A small valid dataset to build edge cases on: one public event `mini`
/// with a released schedule, an organiser (`orga-token`), a reviewer
/// (`rev-token`), a user without a role (`nobody-token`), two speakers,
/// a track, a type, a room, a tag, and three submissions: `PUB1` (a public
/// talk), `SUB2` (submitted, track 1) and `SUB3` (submitted, no track).
pub fn mini() -> Value {
    serde_json::json!({
        "format": "cfp-dataset",
        "version": 1,
        "users": [
            {"code": "ORGA", "name": "Olga Organiser", "email": "orga@mini.example", "tokens": ["orga-token"]},
            {"code": "REV", "name": "Rita Reviewer", "email": "rev@mini.example", "tokens": ["rev-token"]},
            {"code": "NOBODY", "name": "No Body", "email": "nobody@mini.example", "tokens": ["nobody-token"]},
            {"code": "SPK1", "name": "Ada Speaker", "email": "ada@mini.example"},
            {"code": "SPK2", "name": "Bob Talker", "email": "bob@mini.example"}
        ],
        "events": [{
            "slug": "mini",
            "name": {"en": "Mini Conf"},
            "is_public": true,
            "date_from": "2026-06-01",
            "date_to": "2026-06-02",
            "timezone": "Europe/Berlin",
            "schedule": {"version": "1.0", "published": "2026-05-01T10:00:00Z"},
            "teams": [
                {"name": "Organisers", "members": ["ORGA"], "can_change_submissions": true},
                {"name": "Reviewers", "members": ["REV"], "is_reviewer": true}
            ],
            "submission_types": [{"id": 1, "name": {"en": "Talk"}, "default_duration": 30}],
            "tracks": [{"id": 1, "name": {"en": "Main"}, "color": "#000000"}],
            "rooms": [{"id": 1, "name": {"en": "Hall"}, "capacity": 100, "position": 1}],
            "tags": [{"id": 1, "tag": "hot.topic", "color": "#ff0000"}],
            "speakers": [
                {"user": "SPK1", "biography": "Ada's bio"},
                {"user": "SPK2", "biography": "Bob's bio"}
            ],
            "submissions": [
                {"code": "PUB1", "title": "Public Talk", "speakers": ["SPK1"], "submission_type": 1,
                 "track": 1, "state": "confirmed", "created": "2026-03-01T12:00:00Z",
                 "slots": [{"room": 1, "start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:30:00+02:00", "is_visible": true}]},
                {"code": "SUB2", "title": "Secret Proposal", "speakers": ["SPK2"], "submission_type": 1,
                 "track": 1, "state": "submitted", "created": "2026-03-02T12:00:00Z",
                 "anonymised": {"title": "Anonymous Proposal"}},
                {"code": "SUB3", "title": "Trackless Idea", "speakers": ["SPK1", "SPK2"], "submission_type": 1,
                 "state": "submitted", "created": "2026-03-03T12:00:00Z"}
            ]
        }]
    })
}

/// mini()'s callers that are no organisers: anonymous, a user with no role
/// in the event, and a reviewer.
pub const NOT_ORGANISERS: [Option<&str>; 3] = [None, Some("nobody-token"), Some("rev-token")];

/// A 400 naming exactly these parameters: a JSON object with one key per
/// bad parameter, each a non-empty list of non-empty messages.
#[track_caller]
pub fn assert_bad_parameters(reply: &Reply, parameters: &[&str], context: &str) {
    assert_eq!(reply.status, 400, "{context}: {}", reply.text);
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{context}"
    );
    let map = reply
        .body
        .as_object()
        .unwrap_or_else(|| panic!("{context}: not an object: {}", reply.text));
    let keys: std::collections::BTreeSet<&str> = map.keys().map(String::as_str).collect();
    let expected: std::collections::BTreeSet<&str> = parameters.iter().copied().collect();
    assert_eq!(keys, expected, "{context}: {}", reply.text);
    for (key, messages) in map {
        let list = messages
            .as_array()
            .unwrap_or_else(|| panic!("{context}: {key} is not a list"));
        assert!(!list.is_empty(), "{context}: {key} has no message");
        assert!(
            list.iter()
                .all(|m| m.as_str().is_some_and(|m| !m.is_empty())),
            "{context}: {key}: {messages}"
        );
    }
}

/// `404 {"detail": "Invalid page."}` as JSON.
#[track_caller]
pub fn assert_invalid_page(reply: &Reply, context: &str) {
    assert_eq!(reply.status, 404, "{context}: {}", reply.text);
    assert_eq!(
        reply.body,
        serde_json::json!({"detail": "Invalid page."}),
        "{context}"
    );
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{context}"
    );
}

/// Waits (blocking) until `url` answers 200: a `confapi serve` child
/// process has loaded its snapshot. Fails the test after 20 s.
pub fn wait_until_ok(url: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        match reqwest::blocking::get(url) {
            Ok(reply) if reply.status() == 200 => return,
            _ => assert!(
                std::time::Instant::now() < deadline,
                "serve did not get ready"
            ),
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
