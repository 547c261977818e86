//! The fuzz targets' bodies (issue 74): what confapi reads from outside,
//! fed arbitrary bytes. `fuzz/` runs them under libFuzzer (`cargo +nightly
//! fuzz run TARGET`, coverage-guided), and `tests/api/fuzz_corpus.rs`
//! replays their committed corpus on stable in every test run. Each
//! function returns normally for any input; a panic (or, for `Requests`,
//! a 5xx) is a finding.
//!
//! - [`dataset`]: the dataset parser and validator (`confapi import`);
//! - [`sync_event`]: the sync's readers of an upstream's answers, legacy
//!   and versioned, as far as the dataset they make (then validated);
//! - [`Requests`]: an HTTP request (path, query string with `expand` and
//!   every filter, headers: `Pretalx-Version`, `Authorization`,
//!   conditional and encoding headers) through the whole router.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use crate::dataset::validate;
use crate::sync::upstream::Fetched;
use crate::sync::{legacy, v1};

/// `confapi import` of `data`: parsed and validated (never written).
pub fn dataset(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = validate::parse_str(text);
    }
}

/// `data` as the answers of an upstream for one event: a JSON object whose
/// `event` is the event's answer and whose other members are its lists,
/// each a list of pages of items. Mapped by the legacy reader and by the
/// versioned one; what either makes is then validated as a sync does.
pub fn sync_event(data: &[u8]) {
    let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let event = (
        "https://up.example/api/events/e/".to_string(),
        doc.get("event").cloned().unwrap_or_default(),
    );
    let list = |name: &str| Fetched {
        pages: match doc.get(name) {
            Some(Value::Array(pages)) => pages
                .iter()
                .enumerate()
                .map(|(n, page)| {
                    let items = match page {
                        Value::Array(items) => items.clone(),
                        other => vec![other.clone()],
                    };
                    (
                        format!("https://up.example/api/events/e/{name}/?page={n}"),
                        items,
                    )
                })
                .collect(),
            _ => Vec::new(),
        },
    };
    let raw = legacy::RawEvent {
        event: event.clone(),
        submissions: list("submissions"),
        anonymised: list("anonymised"),
        talks: list("talks"),
        public_talks: list("public_talks"),
        public_questions: list("public_questions"),
        speakers: list("speakers"),
        questions: list("questions"),
        answers: list("answers"),
        reviews: list("reviews"),
        rooms: list("rooms"),
        tags: list("tags"),
    };
    let mut users = BTreeMap::new();
    if let Ok(mapped) = legacy::map_event(&raw, &mut users, &HashMap::new()) {
        validate_mapped(users, mapped);
    }
    let raw = v1::RawEvent {
        event,
        submissions: list("submissions"),
        public_submissions: list("public_submissions"),
        schedules: list("schedules"),
        slots: list("slots"),
        speakers: list("speakers"),
        questions: list("questions"),
        answers: list("answers"),
        reviews: list("reviews"),
        rooms: list("rooms"),
        tags: list("tags"),
        tracks: list("tracks"),
        submission_types: list("submission_types"),
        legacy_times: doc
            .get("legacy_submissions")
            .map(|_| (list("legacy_submissions"), list("legacy_reviews"))),
        schedule_details: match doc.get("schedule_details") {
            Some(Value::Array(details)) => details
                .iter()
                .filter_map(|detail| {
                    Some(v1::ScheduleDetail {
                        id: detail.get("id")?.as_i64()?,
                        detail: (
                            "https://up.example/api/events/e/schedules/1/".to_string(),
                            detail.get("detail").cloned().unwrap_or_default(),
                        ),
                        slots: detail
                            .get("slots")
                            .and_then(Value::as_array)
                            .map(|pages| Fetched {
                                pages: pages
                                    .iter()
                                    .map(|page| {
                                        (
                                            "https://up.example/api/events/e/slots/".to_string(),
                                            page.as_array().cloned().unwrap_or_default(),
                                        )
                                    })
                                    .collect(),
                            }),
                    })
                })
                .collect(),
            _ => Vec::new(),
        },
    };
    let teams = doc.get("teams").map(|_| list("teams"));
    let mut users = BTreeMap::new();
    if let Ok(mapped) = v1::map_event(&raw, teams.as_ref(), &mut users) {
        validate_mapped(users, mapped);
    }
}

fn validate_mapped(
    users: BTreeMap<String, crate::sync::upstream::SeenUser>,
    event: Map<String, Value>,
) {
    let access = Value::Object(Map::new());
    if let Ok(document) = crate::sync::access::merge(&access, users, vec![event]) {
        let _ = validate::parse_value(&document);
    }
}

/// A server on a fixed dataset, in this process, for [`Requests::send`].
pub struct Requests {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    _dir: TempDir,
}

/// A directory removed when dropped (the fuzzers' SQLite file).
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Requests {
    /// A server holding `dataset` (a dataset document), on SQLite in a
    /// directory of its own.
    pub fn new(dataset: &str) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let dir = std::env::temp_dir().join(format!(
            "confapi-fuzz-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&dir).expect("a directory for the fuzzers' database");
        let dataset = validate::parse_str(dataset).expect("the fuzzers' dataset validates");
        let url = format!("sqlite://{}", dir.join("fuzz.db").display());
        let router = runtime.block_on(async {
            let store = crate::storage::open(&url).await.expect("open the database");
            let options = crate::storage::ImportOptions {
                delete_absent_events: false,
                digest: None,
            };
            store
                .import_with(&dataset, options, None)
                .await
                .expect("import the fuzzers' dataset");
            let cache =
                crate::cache::CatalogCache::start(store, std::time::Duration::from_secs(3600));
            cache.refresh().await.expect("load the catalog");
            let state = crate::http::AppState::new(cache, crate::http::Config::default());
            crate::http::router(state)
        });
        Requests {
            runtime,
            router,
            _dir: TempDir(dir),
        }
    }

    /// `data` as a request: its first line the target (path and query),
    /// each further line a header (`Name: value`). Panics on a 5xx or on
    /// an answer that says it is JSON and is not.
    pub fn send(&self, data: &[u8]) {
        let mut lines = data.split(|&b| b == b'\n');
        let target = lines.next().unwrap_or_default();
        let Ok(target) = std::str::from_utf8(target) else {
            return;
        };
        let target = if target.starts_with('/') {
            target.to_string()
        } else {
            format!("/{target}")
        };
        let Ok(uri) = target.parse::<axum::http::Uri>() else {
            return;
        };
        let mut request = axum::http::Request::get(uri);
        for line in lines {
            let Some(colon) = line.iter().position(|&b| b == b':') else {
                continue;
            };
            let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
            let (Ok(name), Ok(value)) = (
                axum::http::HeaderName::from_bytes(name),
                axum::http::HeaderValue::from_bytes(value),
            ) else {
                continue;
            };
            request = request.header(name, value);
        }
        let Ok(request) = request.body(axum::body::Body::empty()) else {
            return;
        };
        let router = self.router.clone();
        let (status, content_type, body) = self.runtime.block_on(async move {
            use tower::ServiceExt;
            let response = router.oneshot(request).await.expect("infallible");
            let status = response.status();
            let content_type = response
                .headers()
                .get(axum::http::header::CONTENT_TYPE)
                .map(|v| v.as_bytes().to_vec());
            let encoded = response
                .headers()
                .contains_key(axum::http::header::CONTENT_ENCODING);
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("the body");
            (status, content_type.filter(|_| !encoded), body)
        });
        assert!(
            !status.is_server_error(),
            "{status} for {target}: {}",
            String::from_utf8_lossy(&body)
        );
        if content_type.is_some_and(|t| t.starts_with(b"application/json")) && !body.is_empty() {
            assert!(
                serde_json::from_slice::<serde::de::IgnoredAny>(&body).is_ok(),
                "{status} for {target}: not JSON"
            );
        }
    }
}
