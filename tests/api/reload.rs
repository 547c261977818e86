//! Reloads run in the background, once, and never on a request: a fresh
//! process refuses requests with 503 until its first catalog is loaded (and
//! says so on /readyz), impatient clients cancel nothing, and a committed
//! import is served within the poll interval.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use confapi::dataset::{demo, to_json};

use crate::helpers;

struct Serve {
    child: Child,
    base: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn serve(db: &str) -> Serve {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_confapi"))
        .args([
            "serve",
            "--db",
            db,
            "--listen",
            &format!("127.0.0.1:{port}"),
        ])
        .args(["--poll-interval-ms", "100"])
        .env("CONFAPI_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while reqwest::blocking::get(format!("{base}/healthz")).is_err() {
        assert!(Instant::now() < deadline, "serve did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    Serve { child, base }
}

fn import(db: &str, dataset: &serde_json::Value, dir: &std::path::Path, name: &str) {
    let file = dir.join(name);
    std::fs::write(&file, dataset.to_string()).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_confapi"))
        .args(["import", "--db", db])
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
}

fn metric(base: &str, name: &str) -> f64 {
    let text = reqwest::blocking::get(format!("{base}/metrics"))
        .unwrap()
        .text()
        .unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
        .parse()
        .unwrap()
}

#[test]
fn a_fresh_server_loads_once_in_the_background_and_refuses_requests_until_ready() {
    let db = helpers::TestDatabase::new();
    let dir = tempfile::tempdir().unwrap();
    let (big, _) = demo::generate(&demo::DemoOptions {
        events: 1,
        submissions: 4000,
        seed: 3,
    });
    import(&db.url, &to_json(&big), dir.path(), "big.json");
    let server = serve(&db.url);
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_millis(500))
        .build()
        .unwrap();
    let url = format!("{}/api/events/democonf/talks/", server.base);

    // Impatient clients while the first catalog loads: each is refused
    // (503, JSON, Retry-After) rather than kept waiting for the load, or
    // gives up; neither restarts the load. No bound on how fast the 503
    // comes: on a busy CI machine it can take longer than the client waits.
    let mut refused = 0;
    for _ in 0..8 {
        match client.get(&url).send() {
            Ok(reply) if reply.status() == 503 => {
                assert_eq!(reply.headers()["retry-after"], "1");
                let body: serde_json::Value = reply.json().unwrap();
                assert!(body["detail"].is_string(), "{body}");
                refused += 1;
            }
            Ok(reply) => {
                assert_eq!(reply.status(), 200, "ready already");
                break;
            }
            Err(err) => assert!(err.is_timeout(), "{err}"),
        }
    }
    assert!(refused > 0, "the first load was too quick to observe");
    let ready = format!("{}/readyz", server.base);
    let deadline = Instant::now() + Duration::from_secs(60);
    while reqwest::blocking::get(&ready).unwrap().status() != 200 {
        assert!(Instant::now() < deadline, "never ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(reqwest::blocking::get(&url).unwrap().status(), 200);
    assert_eq!(metric(&server.base, "confapi_reloads_total"), 1.0);
    assert_eq!(
        metric(&server.base, "confapi_reload_events_rebuilt_total"),
        1.0
    );
}

#[test]
fn a_committed_import_is_served_within_a_second_and_only_changed_events_reload() {
    let db = helpers::TestDatabase::new();
    let dir = tempfile::tempdir().unwrap();
    let democon = helpers::democon();
    import(&db.url, &democon, dir.path(), "democon.json");
    let server = serve(&db.url);
    let talks = format!("{}/api/events/democon/talks/?limit=1000", server.base);
    let deadline = Instant::now() + Duration::from_secs(20);
    while reqwest::blocking::get(&talks).unwrap().status() != 200 {
        assert!(Instant::now() < deadline, "never ready");
        std::thread::sleep(Duration::from_millis(20));
    }
    let events_before = metric(&server.base, "confapi_reload_events_rebuilt_total");
    assert_eq!(events_before, 2.0, "democon and privcon, once");

    let mut changed = democon.clone();
    for submission in changed["events"][0]["submissions"].as_array_mut().unwrap() {
        let title = submission["title"].as_str().unwrap().to_string();
        submission["title"] = format!("{title} (v2)").into();
    }
    // Users too: a replica reads only the users written since its snapshot.
    for user in changed["users"].as_array_mut().unwrap() {
        let name = user["name"].as_str().unwrap().to_string();
        user["name"] = format!("{name} [renamed]").into();
    }
    import(&db.url, &changed, dir.path(), "changed.json");
    let committed = Instant::now();
    loop {
        let body = reqwest::blocking::get(&talks).unwrap().text().unwrap();
        if body.contains("(v2)") {
            assert!(
                body.contains("[renamed]"),
                "titles and names come in one reload"
            );
            break;
        }
        assert!(
            committed.elapsed() < Duration::from_secs(1),
            "the import was not served within a second"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // Only democon changed: privcon's snapshot was kept, and democon was
    // patched from its changed records, not read whole.
    assert_eq!(
        metric(&server.base, "confapi_reload_events_rebuilt_total"),
        events_before + 1.0
    );
    assert_eq!(
        metric(&server.base, "confapi_reload_events_patched_total"),
        1.0
    );
}

/// The access log follows `RUST_LOG` (EnvFilter syntax) before `CONFAPI_LOG`.
#[test]
fn rust_log_decides_what_is_logged() {
    let db = helpers::TestDatabase::new();
    let dir = tempfile::tempdir().unwrap();
    import(&db.url, &helpers::mini(), dir.path(), "mini.json");
    let run = |rust_log: &str| -> String {
        let port = free_port();
        let log = dir.path().join(format!("serve-{port}.log"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_confapi"))
            .args([
                "serve",
                "--db",
                &db.url,
                "--listen",
                &format!("127.0.0.1:{port}"),
            ])
            .env("RUST_LOG", rust_log)
            .env("CONFAPI_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        crate::helpers::wait_until_ok(&format!("{base}/api/events/mini/"));
        // SIGTERM, not SIGKILL: the log is written by a background thread,
        // flushed on exit.
        // SAFETY: kill only sends a signal to our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        let _ = child.wait();
        std::fs::read_to_string(&log).unwrap()
    };
    let quiet = run("warn");
    assert!(!quiet.contains(" INFO "), "{quiet}");
    let chatty = run("warn,confapi::http=info");
    assert!(
        chatty.contains("path=/api/events/mini/ status=200"),
        "{chatty}"
    );
    assert!(!chatty.contains("catalog loaded"), "{chatty}");
}
