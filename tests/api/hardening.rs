//! Surviving the open internet (issue 14): errors raised before any handler
//! are JSON too, slow clients are cut off while others are served, the
//! connection limit sheds load with a quick 503, the optional rate limit
//! throttles only the caller over it, SIGTERM drains without failing a
//! request and exits by its deadline, and logs are JSON on request and
//! never show a token.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use confapi::http::server::ServeOptions;
use confapi::http::Config;

use crate::helpers::{self, democon_tokens as tok, http_client_builder, mini, TestServer};

/// An answer read off a raw connection.
#[derive(Debug)]
struct Raw {
    status: u16,
    /// Lower-case names.
    headers: BTreeMap<String, String>,
    body: Value,
    text: String,
}

fn parse(bytes: &[u8]) -> Raw {
    let text = String::from_utf8_lossy(bytes).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no whole head in {text:?}"));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let headers = lines
        .filter_map(|line| line.split_once(": "))
        .map(|(name, value)| (name.to_ascii_lowercase(), value.to_string()))
        .collect();
    Raw {
        status,
        headers,
        body: serde_json::from_str(body).unwrap_or(Value::Null),
        text: body.to_string(),
    }
}

fn address(server: &TestServer) -> String {
    server.base.trim_start_matches("http://").to_string()
}

/// Everything read until the server closes the connection, or until
/// `limit` (then the `Err`).
async fn read_until_closed(
    reader: &mut tokio::net::tcp::OwnedReadHalf,
    limit: Duration,
) -> (Result<(), tokio::time::error::Elapsed>, Vec<u8>) {
    let mut answer = Vec::new();
    let mut buf = [0u8; 16384];
    let read = tokio::time::timeout(limit, async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    (read, answer)
}

/// Sends `request` on a new connection (while reading, so that an early
/// answer is not lost) and reads until the server closes it.
async fn raw(address: &str, request: Vec<u8>) -> Raw {
    let stream = TcpStream::connect(address).await.expect("connect");
    let (mut reader, mut writer) = stream.into_split();
    let writing = tokio::spawn(async move {
        // The server may answer and close before reading it all.
        let _ = writer.write_all(&request).await;
        writer
    });
    let (read, answer) = read_until_closed(&mut reader, Duration::from_secs(10)).await;
    assert!(
        read.is_ok(),
        "no end of answer: {:?}",
        String::from_utf8_lossy(&answer)
    );
    drop(writing.await);
    parse(&answer)
}

#[track_caller]
fn assert_json_error(reply: &Raw, status: u16, detail: &str, context: &str) {
    assert_eq!(reply.status, status, "{context}: {reply:?}");
    assert_eq!(
        reply.headers.get("content-type").map(String::as_str),
        Some("application/json"),
        "{context}: {reply:?}"
    );
    assert_eq!(
        reply.body,
        json!({ "detail": detail }),
        "{context}: {}",
        reply.text
    );
    assert_eq!(
        reply.headers.get("content-length").map(String::as_str),
        Some(reply.text.len().to_string().as_str()),
        "{context}"
    );
    assert_eq!(
        reply.headers.get("vary").map(String::as_str),
        Some("Accept, Accept-Encoding, Authorization, Pretalx-Version"),
        "{context}"
    );
}

/// 400, 404, 405, 413, 414 and 431 all answer `{"detail": ...}` as JSON,
/// those that hyper raises before any handler runs included.
#[tokio::test]
async fn every_error_is_json_even_before_a_handler_runs() {
    let server = TestServer::start(&[mini()]).await;
    let at = address(&server);
    let get = |target: &str| {
        format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes()
    };

    for target in [
        "/api/events/?q=a b",
        "/api/events/<script>",
        "/api/events/mini/talks/?q=<",
    ] {
        let reply = raw(&at, get(target)).await;
        assert_json_error(&reply, 400, "Malformed request.", target);
        assert_eq!(
            reply.headers.get("connection").map(String::as_str),
            Some("close")
        );
    }
    // A header line hyper cannot parse.
    let reply = raw(
        &at,
        b"GET /api/events/ HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n".to_vec(),
    )
    .await;
    assert_json_error(&reply, 400, "Malformed request.", "bad header name");

    let long = format!("/api/events/?q={}", "a".repeat(100 * 1024));
    assert_json_error(
        &raw(&at, get(&long)).await,
        414,
        "Request URI too long.",
        "100 KB URI",
    );

    let mut big = b"GET /api/events/ HTTP/1.1\r\nHost: x\r\n".to_vec();
    big.extend_from_slice(format!("X-Big: {}\r\n\r\n", "a".repeat(1 << 20)).as_bytes());
    assert_json_error(
        &raw(&at, big).await,
        431,
        "Request headers too large.",
        "1 MB header",
    );
    let mut many = b"GET /api/events/ HTTP/1.1\r\nHost: x\r\n".to_vec();
    for i in 0..10_000 {
        many.extend_from_slice(format!("X-H{i}: {}\r\n", "b".repeat(90)).as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    assert_json_error(
        &raw(&at, many).await,
        431,
        "Request headers too large.",
        "1 MB of headers",
    );

    for path in ["/healthz", "/metrics", "/readyz", "/api/events/"] {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        let reply = raw(&at, request.into_bytes()).await;
        assert_json_error(&reply, 405, "Method \"POST\" not allowed.", path);
        assert_eq!(
            reply.headers.get("allow").map(String::as_str),
            Some("GET, HEAD, OPTIONS"),
            "{path}"
        );
    }

    let request = "GET /api/events/ HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\nConnection: close\r\n\r\n";
    assert_json_error(
        &raw(&at, request.as_bytes().to_vec()).await,
        413,
        "Request body too large.",
        "1 MB body",
    );

    assert_json_error(&raw(&at, get("/nowhere")).await, 404, "Not found.", "404");
    // A valid request on the same kind of connection is still answered.
    let reply = raw(&at, get("/api/events/mini/")).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["slug"], "mini");
}

/// A request body of unknown length (`Transfer-Encoding: chunked`) is
/// never read without bound: no endpoint takes a body, so a small one is
/// read and dropped, a huge one is 413, one that stops coming is 408, a
/// broken one 400; each JSON, closing the connection, in bounded time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chunked_request_bodies_are_bounded() {
    let server = TestServer::start(&[mini()]).await;
    let at = address(&server);
    let head = "GET /api/events/mini/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n";

    // A small body: read, dropped, and the request answered.
    let reply = raw(
        &at,
        format!("{head}Connection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n").into_bytes(),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["slug"], "mini");

    // An endless body: 413 at once, and the connection closed under the
    // client, which is still sending.
    let stream = TcpStream::connect(&at).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let head_owned = format!("{head}\r\n");
    let sending = tokio::spawn(async move {
        writer.write_all(head_owned.as_bytes()).await?;
        let chunk = format!("4000\r\n{}\r\n", "a".repeat(0x4000));
        let mut sent = 0usize;
        loop {
            writer.write_all(chunk.as_bytes()).await?;
            sent += 0x4000;
            if sent > 1 << 30 {
                return Ok::<_, std::io::Error>(sent);
            }
        }
    });
    let asked = Instant::now();
    let (closed, answer) = read_until_closed(&mut reader, Duration::from_secs(5)).await;
    assert!(closed.is_ok(), "the connection stayed open");
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
    let reply = parse(&answer);
    assert_json_error(
        &reply,
        413,
        "Request body too large.",
        "endless chunked body",
    );
    assert_eq!(
        reply.headers.get("connection").map(String::as_str),
        Some("close")
    );
    let sent = tokio::time::timeout(Duration::from_secs(5), sending)
        .await
        .expect("the sender is stopped by the closed connection")
        .unwrap();
    assert!(sent.is_err(), "the server read a whole GiB: {sent:?}");

    // A body that stops coming: 408 after a few seconds, not a hang.
    let asked = Instant::now();
    let reply = raw(&at, format!("{head}\r\n10\r\nonly part").into_bytes()).await;
    assert_json_error(
        &reply,
        408,
        "The request body took too long.",
        "stalled chunked body",
    );
    let took = asked.elapsed();
    assert!(
        took >= Duration::from_secs(4) && took < Duration::from_secs(8),
        "{took:?}"
    );

    // A broken chunk size.
    let reply = raw(
        &at,
        format!("{head}\r\nzz\r\nhello\r\n0\r\n\r\n").into_bytes(),
    )
    .await;
    assert_json_error(&reply, 400, "Malformed request.", "bad chunk size");
}

/// Clients that send their head slowly are cut off after
/// `header_read_timeout`, while other callers are answered at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_header_clients_are_cut_off_and_others_still_served() {
    let options = ServeOptions {
        header_read_timeout: Duration::from_millis(800),
        ..ServeOptions::default()
    };
    let server = TestServer::start_serving(&[mini()], Config::default(), options).await;
    let at = address(&server);
    let started = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..50 {
        let at = at.clone();
        slow.push(tokio::spawn(async move {
            let mut stream = TcpStream::connect(&at).await.unwrap();
            let opened = Instant::now();
            // One header line every 100 ms, never ending the head.
            for i in 0..100 {
                let line = if i == 0 {
                    "GET /api/events/ HTTP/1.1\r\n".to_string()
                } else {
                    format!("X-Slow-{i}: y\r\n")
                };
                if stream.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
                let mut byte = [0u8; 1];
                match tokio::time::timeout(Duration::from_millis(100), stream.read(&mut byte)).await
                {
                    Ok(Ok(0)) | Ok(Err(_)) => break,
                    Ok(Ok(_)) => panic!("a slow client got an answer"),
                    Err(_) => {}
                }
            }
            opened.elapsed()
        }));
    }
    // Meanwhile, normal requests are answered quickly.
    let client = server.anon();
    while started.elapsed() < Duration::from_millis(600) {
        let asked = Instant::now();
        let reply = client.get("/api/events/mini/talks/").await;
        assert_eq!(reply.status, 200);
        assert!(
            asked.elapsed() < Duration::from_millis(500),
            "{:?}",
            asked.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for task in slow {
        let lasted = task.await.unwrap();
        assert!(
            lasted >= Duration::from_millis(700) && lasted < Duration::from_secs(4),
            "a slow client was cut after {lasted:?}"
        );
    }
    assert_eq!(client.get("/api/events/mini/").await.status, 200);

    // The same timeout closes a keep-alive connection left idle.
    let mut idle = TcpStream::connect(&at).await.unwrap();
    idle.write_all(b"GET /api/events/mini/ HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let answered = Instant::now();
    let mut buf = vec![0u8; 65536];
    let n = idle.read(&mut buf).await.unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200 OK"));
    let closed = tokio::time::timeout(Duration::from_secs(4), async {
        loop {
            match idle.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "an idle keep-alive connection stayed open");
    assert!(
        answered.elapsed() >= Duration::from_millis(700),
        "{:?}",
        answered.elapsed()
    );
}

/// Over `max_connections`, a new connection gets a quick 503 in JSON and is
/// closed; once a connection closes, new ones are served again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_limit_get_a_quick_503() {
    let options = ServeOptions {
        max_connections: 2,
        ..ServeOptions::default()
    };
    let server = TestServer::start_serving(&[mini()], Config::default(), options).await;
    let at = address(&server);
    let keep_alive = b"GET /api/events/mini/ HTTP/1.1\r\nHost: x\r\n\r\n";
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(&at).await.unwrap();
        stream.write_all(keep_alive).await.unwrap();
        let mut buf = vec![0u8; 65536];
        let n = stream.read(&mut buf).await.unwrap();
        assert!(
            buf[..n].starts_with(b"HTTP/1.1 200 OK"),
            "{}",
            String::from_utf8_lossy(&buf[..n])
        );
        held.push(stream);
    }
    let asked = Instant::now();
    let reply = raw(
        &at,
        b"GET /api/events/ HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
    )
    .await;
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    assert_json_error(
        &reply,
        503,
        "Too many connections, please retry.",
        "third connection",
    );
    assert_eq!(
        reply.headers.get("retry-after").map(String::as_str),
        Some("1")
    );
    assert_eq!(
        reply.headers.get("connection").map(String::as_str),
        Some("close")
    );

    drop(held.pop());
    // Until the server sees the close, new connections are still refused.
    let mut refused = 1;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let reply = raw(
            &at,
            b"GET /api/events/mini/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        )
        .await;
        if reply.status == 200 {
            assert_eq!(reply.body["slug"], "mini");
            break;
        }
        assert_eq!(reply.status, 503, "{reply:?}");
        refused += 1;
        assert!(
            Instant::now() < deadline,
            "a freed slot was never reused: {reply:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // /metrics counts every refusal (raw: it may be refused itself while
    // the server has not yet seen the last connection close).
    drop(held);
    let metrics = loop {
        let reply = raw(
            &at,
            b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        )
        .await;
        if reply.status == 200 {
            break reply.text;
        }
        assert_eq!(reply.status, 503, "{reply:?}");
        refused += 1;
        assert!(Instant::now() < deadline, "{reply:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        metrics.contains(&format!("confapi_connections_refused_total {refused}\n")),
        "{metrics}"
    );
}

/// A client that sends a request head one line every `every`, never
/// ending it; how long its connection lasted, and what it was answered.
async fn slow_client(at: String, every: Duration) -> (Duration, Vec<u8>) {
    let mut stream = TcpStream::connect(&at).await.unwrap();
    let opened = Instant::now();
    let mut answer = Vec::new();
    for i in 0.. {
        let line = if i == 0 {
            "GET /api/events/ HTTP/1.1\r\n".to_string()
        } else {
            format!("X-Slow-{i}: y\r\n")
        };
        if stream.write_all(line.as_bytes()).await.is_err() {
            break;
        }
        let mut buf = [0u8; 4096];
        match tokio::time::timeout(every, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => answer.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if opened.elapsed() > Duration::from_secs(30) {
            break;
        }
    }
    (opened.elapsed(), answer)
}

/// A request on a new connection that must be answered 200 within `bound`.
async fn served_quickly(at: &str, bound: Duration) {
    let asked = Instant::now();
    let reply = raw(
        at,
        b"GET /api/events/mini/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
    )
    .await;
    let took = asked.elapsed();
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["slug"], "mini");
    assert!(took < bound, "answered after {took:?}");
}

/// At the connection limit, a new client is served in the slot of the
/// oldest connection that has no request in flight, so that clients
/// sending their heads slowly cannot lock normal clients out (issue 14):
/// 80 slow clients against 50 slots, and every normal request is still
/// answered 200 at once; every slow client is cut off (to make room, or by
/// the header-read timeout) without an answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_over_the_limit_make_room_for_normal_ones() {
    let options = ServeOptions {
        max_connections: 50,
        header_read_timeout: Duration::from_secs(3),
        ..ServeOptions::default()
    };
    let server = TestServer::start_serving(&[mini()], Config::default(), options).await;
    let at = address(&server);
    let mut slow = Vec::new();
    for _ in 0..80 {
        slow.push(tokio::spawn(slow_client(
            at.clone(),
            Duration::from_millis(200),
        )));
        tokio::time::sleep(Duration::from_millis(12)).await;
    }
    // Every slot is held by a slow client now, each old enough to go.
    tokio::time::sleep(Duration::from_millis(150)).await;
    for _ in 0..20 {
        served_quickly(&at, Duration::from_millis(500)).await;
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    for task in slow {
        let (lasted, answer) = task.await.unwrap();
        assert!(
            answer.is_empty(),
            "a slow client was answered: {}",
            String::from_utf8_lossy(&answer)
        );
        assert!(
            lasted < Duration::from_secs(5),
            "a slow client lasted {lasted:?}"
        );
    }
    let metrics = raw(
        &at,
        b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
    )
    .await
    .text;
    let counter = |name: &str| -> u64 {
        let line = metrics
            .lines()
            .find(|line| line.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} in {metrics}"));
        line.split(' ').nth(1).unwrap().parse().unwrap()
    };
    // 30 slow clients took the slots of older ones, and the first normal
    // request one more (the others found the slot it left free).
    assert!(
        counter("confapi_connections_reclaimed_total") >= 31,
        "{metrics}"
    );
    assert_eq!(counter("confapi_connections_refused_total"), 0, "{metrics}");
}

/// A client bound to another loopback address (a second caller address).
fn client_from(ip: &str) -> reqwest::Client {
    http_client_builder()
        .local_address(ip.parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap()
}

async fn status_and_retry(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
) -> (u16, Option<String>, Value) {
    let mut request = client.get(url);
    if let Some(token) = token {
        request = request.header("Authorization", format!("Token {token}"));
    }
    let reply = request.send().await.unwrap();
    let status = reply.status().as_u16();
    let retry = reply
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let content_type = reply.headers().get("content-type").cloned();
    let body: Value = reply.json().await.unwrap_or(Value::Null);
    if status == 429 {
        assert_eq!(content_type.unwrap(), "application/json");
    }
    (status, retry, body)
}

/// `--rate-limit N`: a caller over N requests per second gets 429 with
/// `Retry-After` and a JSON body; other tokens and other addresses are not
/// throttled, and probes never are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_throttles_only_the_caller_over_it() {
    let config = Config {
        rate_limit: std::num::NonZeroU32::new(5),
        ..Config::default()
    };
    let server = TestServer::start_with(&[helpers::democon()], config).await;
    let url = format!("{}/api/events/democon/talks/", server.base);
    let local = client_from("127.0.0.1");
    let other = client_from("127.0.0.2");

    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(status_and_retry(&local, &url, Some(tok::ORGA)).await);
    }
    assert!(
        statuses[..5].iter().all(|(s, _, _)| *s == 200),
        "{statuses:?}"
    );
    let (status, retry, body) = statuses.last().unwrap().clone();
    assert_eq!(status, 429);
    assert_eq!(retry.as_deref(), Some("1"));
    assert_eq!(
        body,
        json!({"detail": "Request was throttled. Expected available in 1 second."})
    );
    // Caller B (another token, same address) and anonymous callers are untouched.
    assert_eq!(
        status_and_retry(&local, &url, Some(tok::REVIEWER)).await.0,
        200
    );
    assert_eq!(status_and_retry(&local, &url, None).await.0, 200);
    // Probes are never throttled, even for the throttled caller.
    let health = local
        .get(format!("{}/healthz", server.base))
        .header("Authorization", format!("Token {}", tok::ORGA))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);

    // Anonymous callers are told apart by address.
    let mut anonymous = Vec::new();
    for _ in 0..8 {
        anonymous.push(status_and_retry(&local, &url, None).await.0);
    }
    assert_eq!(anonymous.last(), Some(&429), "{anonymous:?}");
    assert_eq!(status_and_retry(&other, &url, None).await.0, 200);
    assert_eq!(
        status_and_retry(&other, &url, Some(tok::ADMIN)).await.0,
        200
    );

    // The budget comes back.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(status_and_retry(&local, &url, Some(tok::ORGA)).await.0, 200);
    let metrics = server.anon().get("/metrics").await;
    assert!(
        metrics.text.contains("confapi_requests_throttled_total"),
        "{}",
        metrics.text
    );
}

#[tokio::test]
async fn there_is_no_rate_limit_by_default() {
    let server = TestServer::start(&[mini()]).await;
    let client = server.anon();
    for _ in 0..60 {
        assert_eq!(client.get("/api/events/mini/").await.status, 200);
    }
}

// ---- the real binary: drain on SIGTERM, shutdown deadline, logs ----

struct Process {
    child: Child,
    base: String,
    log: std::path::PathBuf,
    _dir: tempfile::TempDir,
    _db: helpers::TestDatabase,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    /// `confapi serve` on democon with these extra arguments and environment.
    fn start(args: &[&str], env: &[(&str, &str)]) -> Process {
        Process::start_limited(args, env, None)
    }

    /// Also with at most `open_files` file descriptors (`ulimit -n`).
    fn start_limited(args: &[&str], env: &[(&str, &str)], open_files: Option<u64>) -> Process {
        let db = helpers::TestDatabase::new();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("democon.json");
        std::fs::write(&file, helpers::democon().to_string()).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_confapi"))
            .args(["import", "--db", &db.url])
            .arg(&file)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = dir.path().join("serve.log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_confapi"));
        command
            .args([
                "serve",
                "--db",
                &db.url,
                "--listen",
                &format!("127.0.0.1:{port}"),
            ])
            .args(args)
            .env_remove("RUST_LOG")
            .env("CONFAPI_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap());
        for (name, value) in env {
            command.env(name, value);
        }
        if let Some(limit) = open_files {
            use std::os::unix::process::CommandExt;
            // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit {
                        rlim_cur: limit,
                        rlim_max: limit,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let child = command.spawn().unwrap();
        let base = format!("http://127.0.0.1:{port}");
        crate::helpers::wait_until_ok(&format!("{base}/readyz"));
        Process {
            child,
            base,
            log,
            _dir: dir,
            _db: db,
        }
    }

    fn terminate(&self) {
        // SAFETY: kill only sends a signal to our own child.
        let rc = unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        assert_eq!(rc, 0);
    }

    /// Waits for the exit; how long it took from `since`, and whether it succeeded.
    fn wait_exit(&mut self, since: Instant, limit: Duration) -> (Duration, bool) {
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (since.elapsed(), status.success());
            }
            assert!(since.elapsed() < limit, "still running after {limit:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap()
    }
}

/// One request, retried (as HTTP/1.1 allows for GET) when the connection
/// closes under it; `Err` when every try failed or the status is not 200.
fn fetch(client: &reqwest::blocking::Client, url: &str) -> Result<(u16, Option<String>), String> {
    let mut last = String::new();
    for _ in 0..3 {
        match client.get(url).send() {
            Ok(reply) => {
                let status = reply.status().as_u16();
                let connection = reply
                    .headers()
                    .get("connection")
                    .map(|v| v.to_str().unwrap().to_string());
                let body = reply.bytes().map_err(|e| e.to_string())?;
                if status != 200 || body.is_empty() {
                    return Err(format!("status {status}"));
                }
                return Ok((status, connection));
            }
            Err(err) => last = err.to_string(),
        }
    }
    Err(last)
}

/// CPU time (user and system) a process has used, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // After the command name in parentheses: state is field 3, utime 14.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// With `--max-connections` above the open-file limit, `accept` runs out of
/// file descriptors (EMFILE): the server closes connections that have no
/// request in flight to make room, so normal requests are still answered,
/// and it pauses between failed accepts instead of spinning.
#[test]
fn out_of_file_descriptors_idle_connections_make_room() {
    let server = Process::start_limited(
        &["--max-connections", "10000"],
        &[("RUST_LOG", "warn")],
        Some(200),
    );
    let address: SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    // More connections than the process may hold, never sending a byte.
    let mut silent = Vec::new();
    for _ in 0..400 {
        if let Ok(stream) =
            std::net::TcpStream::connect_timeout(&address, Duration::from_millis(100))
        {
            silent.push(stream);
        }
    }
    assert!(silent.len() > 200, "{} connected", silent.len());
    std::thread::sleep(Duration::from_millis(300));
    let cpu_before = cpu_ticks(server.child.id());
    let started = Instant::now();
    let client = reqwest::blocking::Client::new();
    for _ in 0..10 {
        let asked = Instant::now();
        let reply = client
            .get(format!("{}/api/events/democon/", server.base))
            .header("Connection", "close")
            .send()
            .unwrap();
        assert_eq!(reply.status(), 200);
        assert_eq!(reply.json::<Value>().unwrap()["slug"], "democon");
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "{:?}",
            asked.elapsed()
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    // Not a busy loop: well under a core for the time it took.
    let ticks = cpu_ticks(server.child.id()) - cpu_before;
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let cpu = ticks as f64 / hz;
    assert!(
        cpu < started.elapsed().as_secs_f64() * 0.5,
        "{cpu} s of CPU in {:?}",
        started.elapsed()
    );
    drop(silent);
    let log = server.log();
    assert!(log.contains("cannot accept a connection"), "{log}");
    // At most one warning a second.
    let warnings = log.matches("cannot accept a connection").count();
    assert!(warnings <= 10, "{warnings} warnings:\n{log}");
}

/// SIGTERM under load: `/readyz` turns 503 at once, requests are still
/// served through the drain (each answer with `Connection: close`), no
/// request fails, and the process exits by itself before its deadline.
#[test]
fn sigterm_drains_without_failing_a_request_and_exits_in_time() {
    let mut server = Process::start(&["--drain-seconds", "2", "--shutdown-timeout", "5"], &[]);
    let urls: Vec<String> = ["talks", "speakers", "rooms", "submissions"]
        .iter()
        .map(|list| format!("{}/api/events/democon/{list}/", server.base))
        .collect();
    let terminated = std::sync::Arc::new(std::sync::OnceLock::<Instant>::new());
    let stop = Instant::now() + Duration::from_millis(2500);
    let mut workers = Vec::new();
    for worker in 0..8 {
        let urls = urls.clone();
        let terminated = terminated.clone();
        workers.push(std::thread::spawn(move || {
            let client = reqwest::blocking::Client::new();
            let (mut ok, mut closing, mut failed) = (0, 0, Vec::new());
            let mut i = worker;
            while Instant::now() < stop {
                let sent = Instant::now();
                match fetch(&client, &urls[i % urls.len()]) {
                    Ok((_, connection)) => {
                        ok += 1;
                        let after_term = terminated
                            .get()
                            .is_some_and(|t| sent > *t + Duration::from_millis(50));
                        if after_term && connection.as_deref() == Some("close") {
                            closing += 1;
                        }
                        if after_term {
                            assert_eq!(
                                connection.as_deref(),
                                Some("close"),
                                "an answer during the drain keeps its connection"
                            );
                        }
                    }
                    Err(err) => failed.push(err),
                }
                i += 1;
            }
            (ok, closing, failed)
        }));
    }
    std::thread::sleep(Duration::from_millis(1000));
    let readyz = format!("{}/readyz", server.base);
    assert_eq!(reqwest::blocking::get(&readyz).unwrap().status(), 200);
    let sigterm = Instant::now();
    terminated.set(sigterm).unwrap();
    server.terminate();
    std::thread::sleep(Duration::from_millis(100));
    let reply = reqwest::blocking::get(&readyz).unwrap();
    assert_eq!(reply.status(), 503);
    assert_eq!(
        reply.json::<Value>().unwrap(),
        json!({"detail": "Shutting down."})
    );

    let (mut ok, mut closing) = (0, 0);
    for worker in workers {
        let (o, c, failed) = worker.join().unwrap();
        assert!(failed.is_empty(), "failed requests: {failed:?}");
        ok += o;
        closing += c;
    }
    assert!(ok > 50, "too little load: {ok} requests");
    assert!(closing > 10, "too few answers during the drain: {closing}");
    // Idle connections close at the drain's end; nothing holds the process.
    let (took, success) = server.wait_exit(sigterm, Duration::from_secs(8));
    assert!(success, "{}", server.log());
    assert!(
        took >= Duration::from_millis(1900) && took < Duration::from_millis(3500),
        "exited {took:?} after SIGTERM"
    );
    assert!(
        server.log().contains("shut down: every connection closed"),
        "{}",
        server.log()
    );
}

/// A connection holding a partial request head does not keep the process
/// alive past `--shutdown-timeout`, however long its header-read timeout.
#[test]
fn a_partial_header_cannot_hold_the_shutdown() {
    let mut server = Process::start(
        &[
            "--drain-seconds",
            "1",
            "--shutdown-timeout",
            "3",
            "--header-read-timeout-ms",
            "60000",
        ],
        &[],
    );
    let address: SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let mut partial = std::net::TcpStream::connect(address).unwrap();
    partial
        .write_all(b"GET /api/events/ HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let sigterm = Instant::now();
    server.terminate();
    // Keep looking alive: a byte of header every 200 ms.
    partial
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut cut_at = None;
    while sigterm.elapsed() < Duration::from_secs(6) {
        if partial.write_all(b"X").is_err() {
            cut_at.get_or_insert(sigterm.elapsed());
            break;
        }
        let mut buf = [0u8; 64];
        match partial.read(&mut buf) {
            Ok(0) => {
                cut_at.get_or_insert(sigterm.elapsed());
                break;
            }
            Ok(n) => panic!(
                "an answer to half a request: {:?}",
                String::from_utf8_lossy(&buf[..n])
            ),
            Err(err)
                if err.kind() == std::io::ErrorKind::WouldBlock
                    || err.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => {
                cut_at.get_or_insert(sigterm.elapsed());
                break;
            }
        }
    }
    let (took, success) = server.wait_exit(sigterm, Duration::from_secs(6));
    assert!(success, "{}", server.log());
    assert!(
        took >= Duration::from_millis(2900) && took < Duration::from_millis(4500),
        "exited {took:?} after SIGTERM"
    );
    let cut = cut_at.expect("the partial connection was never closed");
    assert!(cut < Duration::from_millis(4500), "cut after {cut:?}");
    assert!(
        server.log().contains("shutdown deadline reached"),
        "{}",
        server.log()
    );
}

/// The access line, as the binary writes it, in text and JSON (written by
/// confapi::access_log, not tracing_subscriber's generic formatter): exactly
/// the documented line, bar the timestamp and the microseconds; and
/// `RUST_LOG=warn` (or `--log-level warn`) leaves it out.
#[test]
fn access_line_is_exact_and_follows_the_filter() {
    /// The line with its timestamp as `T` and its microseconds as `M`.
    fn masked(line: &str) -> String {
        let start = line
            .find(|c: char| c.is_ascii_digit())
            .expect("a timestamp");
        let end = start + line[start..].find('Z').expect("a timestamp") + 1;
        let time = &line[start..end];
        assert_eq!(time.len(), "2026-11-25T17:34:00.194707Z".len(), "{line}");
        assert!(chrono::DateTime::parse_from_rfc3339(time).is_ok(), "{line}");
        let cut = line.find("micros").expect("micros") + "micros".len();
        let cut = cut
            + line[cut..]
                .find(|c: char| c.is_ascii_digit())
                .expect("micros");
        let digits = line[cut..].bytes().take_while(u8::is_ascii_digit).count();
        format!(
            "{}T{}M{}",
            &line[..start],
            &line[end..cut],
            &line[cut + digits..]
        )
    }
    for (format, env, args, expected) in [
        (
            "text",
            Some("info"),
            &[][..],
            Some("T  INFO confapi::http::transport: request method=GET path=/api/events/democon/talks/ status=200 micros=M"),
        ),
        (
            "json",
            Some("info"),
            &[][..],
            Some(r#"{"timestamp":"T","level":"INFO","message":"request","method":"GET","path":"/api/events/democon/talks/","status":200,"micros":M,"target":"confapi::http::transport"}"#),
        ),
        ("text", Some("warn,confapi::http=info"), &[][..], Some("")),
        ("text", Some("warn"), &[][..], None),
        ("json", Some("warn"), &[][..], None),
        ("json", None, &["--log-level", "warn"][..], None),
    ] {
        let mut flags = vec!["--log-format", format];
        flags.extend_from_slice(args);
        let envs: Vec<(&str, &str)> = env.map(|e| ("RUST_LOG", e)).into_iter().collect();
        let mut server = Process::start(&flags, &envs);
        let reply = reqwest::blocking::get(format!(
            "{}/api/events/democon/talks/?q=not+logged",
            server.base
        ))
        .unwrap();
        assert_eq!(reply.status(), 200);
        let sigterm = Instant::now();
        server.terminate();
        server.wait_exit(sigterm, Duration::from_secs(10));
        let log = server.log();
        assert!(!log.contains("not+logged"), "{log}");
        let access: Vec<&str> = log
            .lines()
            .filter(|line| line.contains("/api/events/democon/talks/"))
            .collect();
        match expected {
            None => assert!(access.is_empty(), "{format} {env:?} {args:?}:\n{log}"),
            Some(expected) => {
                assert_eq!(access.len(), 1, "{format} {env:?}:\n{log}");
                let line = masked(access[0]);
                if expected.is_empty() {
                    assert!(line.contains(" INFO confapi::http::transport: request method=GET"), "{line}");
                } else {
                    assert_eq!(line, expected);
                }
            }
        }
    }
}

/// `--log-format json` writes one JSON object per line, the access log
/// included; no token ever appears in the log, even at trace level.
#[test]
fn json_logs_and_no_token_in_any_log() {
    for (format, filter) in [("json", "trace"), ("text", "trace"), ("json", "info")] {
        let mut server = Process::start(&["--log-format", format], &[("RUST_LOG", filter)]);
        let client = reqwest::blocking::Client::new();
        for (header, path) in [
            (
                format!("Token {}", tok::ORGA),
                "/api/events/democon/submissions/?limit=2",
            ),
            (format!("Bearer {}", tok::ADMIN), "/api/me"),
            (tok::REVIEWER.to_string(), "/api/events/democon/reviews/"),
            (
                "Token 0123456789abcdef0123456789abcdef01234567".to_string(),
                "/api/events/",
            ),
        ] {
            let reply = client
                .get(format!("{}{path}", server.base))
                .header("Authorization", header)
                .send()
                .unwrap();
            assert!(reply.status() == 200 || reply.status() == 401);
        }
        let sigterm = Instant::now();
        server.terminate();
        server.wait_exit(sigterm, Duration::from_secs(10));
        let log = server.log();
        for token in [
            tok::ORGA,
            tok::ADMIN,
            tok::REVIEWER,
            "0123456789abcdef0123456789abcdef01234567",
        ] {
            assert!(
                !log.contains(token),
                "{format}/{filter}: a token is in the log"
            );
        }
        let requests: Vec<&str> = log
            .lines()
            .filter(|line| line.contains("/api/events/democon/submissions/"))
            .collect();
        assert!(
            !requests.is_empty(),
            "{format}/{filter}: no access log line:\n{log}"
        );
        if format == "json" {
            for line in log.lines().filter(|line| line.starts_with('{')) {
                serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            }
            let access: Vec<Value> = log
                .lines()
                .filter_map(|line| serde_json::from_str::<Value>(line).ok())
                .filter(|line| {
                    line["message"] == "request"
                        && line["path"] == "/api/events/democon/submissions/"
                })
                .collect();
            assert_eq!(access.len(), 1, "{log}");
            assert_eq!(access[0]["method"], "GET");
            assert_eq!(access[0]["status"], 200);
            assert_eq!(access[0]["level"], "INFO");
            assert!(access[0]["micros"].is_u64());
        }
    }
}
