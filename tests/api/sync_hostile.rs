//! `confapi sync` against a hostile upstream (issue 74): a real confapi
//! serving `mini` stands behind a small proxy of our own that misbehaves on
//! one list (`/api/events/mini/speakers/`) in one scripted way per test and
//! passes everything else through. The real binary syncs into a mirror
//! (SQLite, or PostgreSQL under CONFAPI_TEST_POSTGRES) that a good round
//! filled first. Each hostile round must fail with a clear error naming the
//! URL, change nothing (the mirror's export is what it was), and stay
//! inside its bounds of memory (peak RSS, read from `wait4`) and time.

use std::convert::Infallible;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde_json::{json, Value};

use crate::helpers::{http_client, mini, TestDatabase, TestServer};

/// The list the proxy misbehaves on.
const HOSTILE_PATH: &str = "/api/events/mini/speakers/";
/// confapi's default `--max-response-size`.
const DEFAULT_MAX_BODY: u64 = 256 * 1024 * 1024;
const MIB: u64 = 1024 * 1024;

/// How the proxy answers the hostile list.
#[derive(Clone, Debug)]
enum Mode {
    /// Everything as the upstream answers it.
    PassThrough,
    /// A JSON string that never ends.
    EndlessBody,
    /// One byte every 200 ms, forever.
    SlowDrip,
    /// A small gzip body that expands to `expands_to` bytes.
    GzipBomb { expands_to: usize },
    /// A redirect to itself.
    RedirectLoop,
    /// A redirect to the same list under another query, once.
    RedirectOnce,
    /// A redirect to the same path at another origin.
    RedirectTo(String),
    /// A byte that is not UTF-8 inside a string.
    InvalidUtf8,
    /// Arrays nested deeper than any parser allows.
    DeepNesting,
    /// The upstream's list one item a page; then how the pages lie.
    Pages(Paging),
    /// `fails` answers of `status` (with `Retry-After: retry_after`, if
    /// any), then the upstream's own.
    FailFirst {
        status: StatusCode,
        fails: usize,
        retry_after: Option<u64>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Paging {
    /// A `next` after the last page, forever, to pages of new items.
    NeverEnding,
    /// The same, with no `count` to tell.
    NeverEndingUncounted,
    /// A `next` after the last page, forever, to empty pages.
    NeverEndingEmpty,
    /// The last page links to itself.
    Looping,
    /// A `count` of 5 for a list of 2.
    LyingCount,
    /// The second page repeats the first one's item.
    Duplicates,
    /// The second page counts one more item than the first (the list
    /// changed between the requests).
    Changing,
}

struct Proxy {
    url: String,
    /// Requests of the hostile list.
    hits: Arc<AtomicUsize>,
    /// Whether each request of the hostile list carried an `Authorization` header.
    authorized: Arc<Mutex<Vec<bool>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

struct ProxyState {
    upstream: String,
    own: String,
    mode: Mode,
    hits: Arc<AtomicUsize>,
    authorized: Arc<Mutex<Vec<bool>>>,
}

impl Proxy {
    async fn start(upstream: &str, mode: Mode) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let hits = Arc::new(AtomicUsize::new(0));
        let authorized = Arc::new(Mutex::new(Vec::new()));
        let state = Arc::new(ProxyState {
            upstream: upstream.to_string(),
            own: url.clone(),
            mode,
            hits: hits.clone(),
            authorized: authorized.clone(),
        });
        let app = axum::Router::new().fallback(answer).with_state(state);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Proxy {
            url,
            hits,
            authorized,
            task,
        }
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

async fn answer(State(proxy): State<Arc<ProxyState>>, request: Request) -> Response {
    let headers = request.headers().clone();
    let path = request.uri().path().to_string();
    let path_and_query = request
        .uri()
        .path_and_query()
        .map_or(path.clone(), |p| p.to_string());
    if path != HOSTILE_PATH {
        return forward(&proxy.upstream, &path_and_query, &headers).await;
    }
    let hit = proxy.hits.fetch_add(1, Ordering::SeqCst);
    proxy
        .authorized
        .lock()
        .unwrap()
        .push(headers.contains_key("authorization"));
    let json_start = Bytes::from_static(br#"{"count": 2, "next": null, "results": [""#);
    match &proxy.mode {
        Mode::PassThrough => forward(&proxy.upstream, &path_and_query, &headers).await,
        Mode::EndlessBody => {
            let chunk = Bytes::from(vec![b'a'; 64 * 1024]);
            let body = futures_util::stream::iter(std::iter::once(Ok::<_, Infallible>(json_start)))
                .chain(futures_util::stream::repeat_with(move || {
                    Ok::<_, Infallible>(chunk.clone())
                }));
            json_response(Body::from_stream(body))
        }
        Mode::SlowDrip => {
            let drip = futures_util::stream::unfold(0u8, |n| async move {
                tokio::time::sleep(Duration::from_millis(200)).await;
                Some((Ok::<_, Infallible>(Bytes::from_static(b" ")), n))
            });
            json_response(Body::from_stream(drip))
        }
        Mode::GzipBomb { expands_to } => {
            let mut json = json_start.to_vec();
            json.resize(*expands_to, b'a');
            json.extend_from_slice(br#""]}"#);
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut encoder, &json).unwrap();
            let gzip = encoder.finish().unwrap();
            let mut response = json_response(Body::from(gzip));
            response
                .headers_mut()
                .insert("content-encoding", "gzip".parse().unwrap());
            response
        }
        Mode::RedirectLoop => redirect(&format!("{}{path_and_query}", proxy.own)),
        Mode::RedirectOnce => match request.uri().query() {
            Some(query) if query.starts_with("redirected=1&") => {
                let query = query.trim_start_matches("redirected=1&");
                forward(&proxy.upstream, &format!("{path}?{query}"), &headers).await
            }
            query => redirect(&format!(
                "{}{path}?redirected=1&{}",
                proxy.own,
                query.unwrap_or_default()
            )),
        },
        Mode::RedirectTo(origin) => redirect(&format!("{origin}{path_and_query}")),
        Mode::InvalidUtf8 => json_response(Body::from(
            &b"{\"count\": 1, \"next\": null, \"results\": [{\"code\": \"\xff\"}]}"[..],
        )),
        Mode::DeepNesting => json_response(Body::from("[".repeat(100_000))),
        Mode::Pages(paging) => {
            let list = forward(&proxy.upstream, HOSTILE_PATH, &headers).await;
            let body = axum::body::to_bytes(list.into_body(), usize::MAX)
                .await
                .unwrap();
            let items = serde_json::from_slice::<Value>(&body).unwrap()["results"]
                .as_array()
                .cloned()
                .unwrap();
            let number: usize = request
                .uri()
                .query()
                .and_then(|q| q.strip_prefix("page="))
                .and_then(|n| n.parse().ok())
                .unwrap_or(1);
            axum::Json(page(&proxy.own, &items, number, *paging)).into_response()
        }
        Mode::FailFirst {
            status,
            fails,
            retry_after,
        } => {
            if hit < *fails {
                let mut response =
                    (*status, axum::Json(json!({"detail": "try again"}))).into_response();
                if let Some(seconds) = retry_after {
                    response
                        .headers_mut()
                        .insert("retry-after", seconds.to_string().parse().unwrap());
                }
                response
            } else {
                forward(&proxy.upstream, &path_and_query, &headers).await
            }
        }
    }
}

/// Page `number` (from 1) of `items`, one item a page, lying as `paging`
/// says.
fn page(own: &str, items: &[Value], number: usize, paging: Paging) -> Value {
    let link = |n: usize| json!(format!("{own}{HOSTILE_PATH}?page={n}"));
    let last = number >= items.len();
    let results = match (items.get(number - 1), paging) {
        (_, Paging::Duplicates) if number == 2 => vec![items[0].clone()],
        (Some(item), _) => vec![item.clone()],
        (None, Paging::NeverEnding | Paging::NeverEndingUncounted) => {
            vec![json!({"code": format!("EXTRA{number}")})]
        }
        (None, _) => Vec::new(),
    };
    let next = match paging {
        Paging::NeverEnding | Paging::NeverEndingEmpty | Paging::NeverEndingUncounted => {
            link(number + 1)
        }
        Paging::Looping if last => link(number),
        _ if last => Value::Null,
        _ => link(number + 1),
    };
    let count = match paging {
        Paging::LyingCount => 5,
        Paging::Changing if number >= 2 => items.len() + 1,
        _ => items.len(),
    };
    let count = match paging {
        Paging::NeverEndingUncounted => Value::Null,
        _ => json!(count),
    };
    json!({"count": count, "next": next, "previous": null, "results": results})
}

fn json_response(body: Body) -> Response {
    let mut response = Response::new(body);
    response
        .headers_mut()
        .insert("content-type", "application/json".parse().unwrap());
    response
}

fn redirect(location: &str) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::FOUND;
    response
        .headers_mut()
        .insert("location", location.parse().unwrap());
    response
}

/// The upstream's answer to `path_and_query`, with the caller's token and
/// API version, its body read whole (so without its transfer headers).
async fn forward(upstream: &str, path_and_query: &str, headers: &HeaderMap) -> Response {
    let mut request = http_client().get(format!("{upstream}{path_and_query}"));
    for name in ["authorization", "pretalx-version", "accept"] {
        if let Some(value) = headers.get(name) {
            request = request.header(name, value.as_bytes());
        }
    }
    let reply = request.send().await.expect("the upstream answers");
    let status = StatusCode::from_u16(reply.status().as_u16()).unwrap();
    let content_type = reply
        .headers()
        .get("content-type")
        .map(|v| v.as_bytes().to_vec());
    let body = reply.bytes().await.expect("the upstream's body");
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    if let Some(content_type) = content_type {
        response
            .headers_mut()
            .insert("content-type", content_type.try_into().unwrap());
    }
    response
}

// ---------------------------------------------------------------------------
// Running the real binary, measured
// ---------------------------------------------------------------------------

struct Measured {
    code: Option<i32>,
    stderr: String,
    /// Peak resident memory of the sync process, as it logs it (`VmHWM`;
    /// `wait4`'s `ru_maxrss` would count the test's own pages, which a
    /// spawned child starts with until it runs confapi).
    peak_rss: u64,
    took: Duration,
}

impl std::fmt::Debug for Measured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?} after {:.2?}, peak RSS {} MiB\n--- stderr ---\n{}",
            self.code,
            self.took,
            self.peak_rss / MIB,
            self.stderr
        )
    }
}

/// `confapi ARGS`, with the peak memory it logs at the end of a sync round.
async fn confapi(args: Vec<String>) -> Measured {
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_confapi"))
            .args(&args)
            .args(["--log-level", "warn,confapi::memory=debug"])
            .env_remove("CONFAPI_DB")
            .env_remove("CONFAPI_LOG")
            .env_remove("CONFAPI_SYNC_TOKEN")
            .env_remove("CONFAPI_SYNC_CA_CERT")
            .env("CONFAPI_SYNC_BACKOFF_MS", "10")
            .output()
            .expect("run confapi");
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let peak_rss = stderr
            .split("peak_resident_bytes=")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        Measured {
            code: output.status.code(),
            stderr,
            peak_rss,
            took,
        }
    })
    .await
    .unwrap()
}

async fn sync(from: &str, db: &str, extra: &[&str]) -> Measured {
    let args: Vec<String> = [
        "sync",
        "--from",
        from,
        "--token",
        "orga-token",
        "--api",
        "legacy",
        "--event",
        "mini",
        "--db",
        db,
    ]
    .iter()
    .chain(extra)
    .map(|s| s.to_string())
    .collect();
    confapi(args).await
}

async fn export(db: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("export.json");
    let run = confapi(vec![
        "export".into(),
        "--db".into(),
        db.into(),
        "-o".into(),
        file.display().to_string(),
    ])
    .await;
    assert_eq!(run.code, Some(0), "export: {run:?}");
    read_json(&file)
}

fn read_json(file: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).expect("the export is JSON")
}

/// An upstream serving `mini`, a mirror a good round filled, and that
/// mirror's export.
struct Setup {
    upstream: TestServer,
    mirror: TestDatabase,
    before: Value,
}

async fn setup() -> Setup {
    let upstream = TestServer::start(&[mini()]).await;
    let mirror = TestDatabase::new();
    let good = Proxy::start(&upstream.base, Mode::PassThrough).await;
    let run = sync(&good.url, &mirror.url, &[]).await;
    assert_eq!(run.code, Some(0), "the good round: {run:?}");
    assert_eq!(good.hits(), 1, "the speakers list is read once");
    let before = export(&mirror.url).await;
    assert_eq!(before["events"][0]["speakers"].as_array().unwrap().len(), 2);
    Setup {
        upstream,
        mirror,
        before,
    }
}

impl Setup {
    /// A round through a proxy in `mode`: it fails, names the hostile URL
    /// and `expected`, and changes nothing.
    async fn fails(&self, mode: Mode, extra: &[&str], expected: &str) -> (Measured, Proxy) {
        let proxy = Proxy::start(&self.upstream.base, mode.clone()).await;
        let run = sync(&proxy.url, &self.mirror.url, extra).await;
        assert_eq!(run.code, Some(1), "{mode:?}: {run:?}");
        assert!(
            run.stderr.contains("nothing changed")
                && run
                    .stderr
                    .contains(&format!("GET {}{HOSTILE_PATH}", proxy.url))
                && run.stderr.contains(expected),
            "{mode:?}: expected {expected:?} in {run:?}"
        );
        assert!(!run.stderr.contains("orga-token"), "{run:?}");
        assert_eq!(export(&self.mirror.url).await, self.before, "{mode:?}");
        (run, proxy)
    }
}

// ---------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------

/// The issue's figure: an endless body costs the limit and a little, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_body_stops_at_the_limit_once_within_its_memory_and_time() {
    let setup = setup().await;
    // The time to read the limit once, from the same proxy.
    let proxy = Proxy::start(&setup.upstream.base, Mode::EndlessBody).await;
    let started = Instant::now();
    let mut reply = http_client()
        .get(format!("{}{HOSTILE_PATH}", proxy.url))
        .send()
        .await
        .unwrap();
    let mut read = 0u64;
    while read < DEFAULT_MAX_BODY {
        read += reply.chunk().await.unwrap().unwrap().len() as u64;
    }
    let read_once = started.elapsed();
    drop(reply);

    let (run, proxy) = setup
        .fails(
            Mode::EndlessBody,
            &[],
            &format!("larger than the limit of {DEFAULT_MAX_BODY} bytes (--max-response-size); not retried"),
        )
        .await;
    assert_eq!(proxy.hits(), 1, "no retry: {run:?}");
    assert!(run.peak_rss > 0, "the round logs its peak memory: {run:?}");
    assert!(
        run.peak_rss <= DEFAULT_MAX_BODY + 100 * MIB,
        "peak RSS {} MiB over the limit + 100 MiB: {run:?}",
        run.peak_rss / MIB
    );
    assert!(
        run.took <= read_once + Duration::from_secs(5),
        "{run:?} (reading the limit once took {read_once:.2?})"
    );
    eprintln!(
        "endless body: failed after {:.2?} (the limit read once: {read_once:.2?}), peak RSS {} MiB",
        run.took,
        run.peak_rss / MIB
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_smaller_limit_is_the_operators_choice() {
    let setup = setup().await;
    let (run, proxy) = setup
        .fails(
            Mode::EndlessBody,
            &["--max-response-size", "1048576"],
            "larger than the limit of 1048576 bytes",
        )
        .await;
    assert_eq!(proxy.hits(), 1, "{run:?}");
    assert!(run.peak_rss <= 100 * MIB, "{run:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gzip_bomb_is_counted_as_it_expands() {
    let setup = setup().await;
    let (run, proxy) = setup
        .fails(
            Mode::GzipBomb {
                expands_to: 16 * MIB as usize,
            },
            &["--max-response-size", "1048576"],
            "larger than the limit of 1048576 bytes",
        )
        .await;
    assert_eq!(proxy.hits(), 1, "{run:?}");
    // Under the limit, a gzip answer is read as the upstream meant it.
    let proxy = Proxy::start(
        &setup.upstream.base,
        Mode::GzipBomb {
            expands_to: 64 * 1024,
        },
    )
    .await;
    let run = sync(
        &proxy.url,
        &setup.mirror.url,
        &["--max-response-size", "1048576"],
    )
    .await;
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.contains("count: 2, but the pages hold 1 items"),
        "the decompressed body was read as JSON: {run:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_drip_ends_at_the_rounds_deadline() {
    let setup = setup().await;
    let (run, _proxy) = setup
        .fails(
            Mode::SlowDrip,
            &["--timeout", "2", "--round-timeout", "4s"],
            "the round's deadline passed (4s, --round-timeout)",
        )
        .await;
    assert!(run.took < Duration::from_secs(12), "{run:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_utf8_and_deep_nesting_are_malformed_json() {
    let setup = setup().await;
    setup.fails(Mode::InvalidUtf8, &[], "malformed JSON").await;
    let (run, _) = setup.fails(Mode::DeepNesting, &[], "malformed JSON").await;
    assert!(run.stderr.contains("recursion limit exceeded"), "{run:?}");
}

// ---------------------------------------------------------------------------
// Redirects
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_loop_fails_without_retries() {
    let setup = setup().await;
    let (run, proxy) = setup
        .fails(Mode::RedirectLoop, &[], "more than 10 redirects")
        .await;
    assert_eq!(proxy.hits(), 11, "one request and ten redirects: {run:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_to_another_origin_is_refused_unless_its_host_is_allowed() {
    let setup = setup().await;
    let elsewhere = Proxy::start(&setup.upstream.base, Mode::PassThrough).await;
    let (run, proxy) = setup
        .fails(
            Mode::RedirectTo(elsewhere.url.clone()),
            &[],
            "another origin (allow its host with --allow-redirect-host)",
        )
        .await;
    assert!(
        run.stderr.contains(&format!(
            "redirected from the upstream's origin {} to {}",
            proxy.url, elsewhere.url
        )),
        "{run:?}"
    );
    assert_eq!(proxy.hits(), 1, "{run:?}");
    assert_eq!(elsewhere.hits(), 0, "{run:?}");
    // Allowed: followed, without the token.
    let run = sync(
        &proxy.url,
        &setup.mirror.url,
        &["--allow-redirect-host", "127.0.0.1"],
    )
    .await;
    assert_eq!(elsewhere.hits(), 1, "{run:?}");
    assert_eq!(
        *elsewhere.authorized.lock().unwrap(),
        vec![false],
        "{run:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_within_the_origin_is_followed_with_the_token() {
    let setup = setup().await;
    let proxy = Proxy::start(&setup.upstream.base, Mode::RedirectOnce).await;
    let run = sync(&proxy.url, &setup.mirror.url, &[]).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("nothing changed"), "{run:?}");
    assert_eq!(proxy.hits(), 2, "the list and its redirect: {run:?}");
    assert!(
        proxy.authorized.lock().unwrap().iter().all(|&token| token),
        "{run:?}"
    );
}

// ---------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_that_lie_fail_the_round() {
    let setup = setup().await;
    for (paging, expected) in [
        (
            Paging::NeverEnding,
            "count: 2, but the pages hold at least 3 items",
        ),
        (
            Paging::NeverEndingEmpty,
            "next: an empty page links to another: the pages would never end",
        ),
        (
            Paging::Looping,
            "next: the pages loop back to an earlier page",
        ),
        (Paging::LyingCount, "count: 5, but the pages hold 2 items"),
        (
            Paging::Changing,
            "count: 3, where the list's first page said 2: the list changed while it was read",
        ),
        (
            Paging::Duplicates,
            "?page=2: results[0].code: \"SPK1\" is listed twice",
        ),
    ] {
        let (run, proxy) = setup.fails(Mode::Pages(paging), &[], expected).await;
        assert!(proxy.hits() <= 3, "{paging:?}: {run:?}");
    }
    // Nothing to count against: the round's deadline ends it.
    let (run, _) = setup
        .fails(
            Mode::Pages(Paging::NeverEndingUncounted),
            &["--round-timeout", "3s"],
            "the round's deadline passed (3s, --round-timeout)",
        )
        .await;
    assert!(run.took < Duration::from_secs(10), "{run:?}");
}

// ---------------------------------------------------------------------------
// Refusals to retry and to wait
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_then_success_and_retry_after_within_its_bound() {
    let setup = setup().await;
    let proxy = Proxy::start(
        &setup.upstream.base,
        Mode::FailFirst {
            status: StatusCode::SERVICE_UNAVAILABLE,
            fails: 2,
            retry_after: None,
        },
    )
    .await;
    let run = sync(&proxy.url, &setup.mirror.url, &[]).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("nothing changed"), "{run:?}");
    assert_eq!(proxy.hits(), 3, "{run:?}");

    let proxy = Proxy::start(
        &setup.upstream.base,
        Mode::FailFirst {
            status: StatusCode::TOO_MANY_REQUESTS,
            fails: 1,
            retry_after: Some(1),
        },
    )
    .await;
    let run = sync(&proxy.url, &setup.mirror.url, &[]).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(proxy.hits(), 2, "{run:?}");
    assert!(
        run.took >= Duration::from_secs(1),
        "Retry-After honoured: {run:?}"
    );

    let (run, proxy) = setup
        .fails(
            Mode::FailFirst {
                status: StatusCode::TOO_MANY_REQUESTS,
                fails: 1,
                retry_after: Some(3600),
            },
            &[],
            "Retry-After 3600s is too long to wait",
        )
        .await;
    assert_eq!(proxy.hits(), 1, "{run:?}");
    let (run, proxy) = setup
        .fails(
            Mode::FailFirst {
                status: StatusCode::TOO_MANY_REQUESTS,
                fails: 1,
                retry_after: Some(60),
            },
            &["--round-timeout", "10s"],
            "Retry-After 60s would pass the round's deadline (10s, --round-timeout)",
        )
        .await;
    assert_eq!(proxy.hits(), 1, "{run:?}");
}
