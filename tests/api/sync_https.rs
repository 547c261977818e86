//! `confapi sync` from an https upstream (issue 27): another confapi (the
//! legacy API) behind a small TLS proxy, with certificates made here by a
//! throw-away CA (no key is ever written to the repository). The real
//! binary syncs into its own database; a refused certificate must fail the
//! round at once (one connection, no retries), say why, and change nothing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::{json, Value};

use crate::helpers::{mini, TestDatabase, TestServer};

// ---------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------

/// A certificate authority that lives as long as the test.
pub(crate) struct Ca {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

impl Ca {
    pub(crate) fn new(name: &str) -> Self {
        let mut params = CertificateParams::default();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate().expect("CA key");
        Ca {
            issuer: CertifiedIssuer::self_signed(params, key).expect("CA certificate"),
        }
    }

    pub(crate) fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A server certificate for `names` (IP addresses or DNS names), valid
    /// from now on, or, if `expired`, only during 2020.
    pub(crate) fn server_cert(&self, names: &[&str], expired: bool) -> Leaf {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).expect("server names");
        params
            .distinguished_name
            .push(DnType::CommonName, "confapi test upstream");
        if expired {
            params.not_before = rcgen::date_time_ymd(2020, 1, 1);
            params.not_after = rcgen::date_time_ymd(2020, 12, 31);
        }
        let key = KeyPair::generate().expect("server key");
        let cert = params
            .signed_by(&key, &self.issuer)
            .expect("server certificate");
        Leaf {
            chain: vec![cert.der().clone()],
            key: PrivatePkcs8KeyDer::from(key.serialize_der()).into(),
        }
    }
}

pub(crate) struct Leaf {
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

/// Terminates TLS on a loopback port and passes the bytes on to a plain
/// http upstream. Counts the connections it accepts.
pub(crate) struct TlsProxy {
    pub(crate) url: String,
    connections: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TlsProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TlsProxy {
    async fn start(upstream: &TestServer, leaf: Leaf) -> Self {
        Self::before(&upstream.base, leaf).await
    }

    /// TLS before the plain http server at `base` (`http://HOST:PORT`).
    pub(crate) async fn before(base: &str, leaf: Leaf) -> Self {
        let config = rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(leaf.chain, leaf.key)
            .expect("server TLS config");
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let backend = base.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("https://{}", listener.local_addr().expect("address"));
        let connections = Arc::new(AtomicUsize::new(0));
        let counted = connections.clone();
        let task = tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                let acceptor = acceptor.clone();
                let backend = backend.clone();
                tokio::spawn(async move {
                    // A client that refuses the certificate ends the
                    // handshake: nothing to pass on.
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    if let Ok(mut plain) = tokio::net::TcpStream::connect(&backend).await {
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                    }
                });
            }
        });
        TlsProxy {
            url,
            connections,
            task,
        }
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.code,
            self.stderr,
            self.stdout.chars().take(2000).collect::<String>()
        )
    }
}

/// Runs the real binary off the runtime's threads (the upstream and the
/// proxy live on them). Only `env` of the sync's own variables is set.
async fn confapi(args: Vec<String>, env: Vec<(&'static str, String)>) -> Run {
    tokio::task::spawn_blocking(move || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_confapi"));
        command
            .args(&args)
            .env_remove("CONFAPI_DB")
            .env_remove("CONFAPI_LOG")
            .env_remove("CONFAPI_SYNC_TOKEN")
            .env_remove("CONFAPI_SYNC_CA_CERT")
            // Were a refusal retried, the test would still be quick (and
            // the proxy would count the retries).
            .env("CONFAPI_SYNC_BACKOFF_MS", "10");
        for (name, value) in env {
            command.env(name, value);
        }
        let output = command.output().expect("run confapi");
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    })
    .await
    .expect("the confapi run")
}

/// `confapi sync` of the event `mini` as its organiser, from `from` into `db`.
async fn sync(from: &str, db: &str, ca_cert: Option<&Path>) -> Run {
    let mut args: Vec<String> = [
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
    .map(|s| s.to_string())
    .collect();
    if let Some(file) = ca_cert {
        args.push("--ca-cert".into());
        args.push(file.display().to_string());
    }
    confapi(args, Vec::new()).await
}

/// The mirror's contents as `confapi export` writes them.
async fn export(db: &str) -> Value {
    let run = confapi(vec!["export".into(), "--db".into(), db.into()], Vec::new()).await;
    assert_eq!(run.code, Some(0), "export: {run:?}");
    serde_json::from_str(&run.stdout).expect("the export is JSON")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a test file");
    path
}

fn submission_title(export: &Value, code: &str) -> String {
    export["events"][0]["submissions"]
        .as_array()
        .and_then(|list| list.iter().find(|s| s["code"] == code))
        .and_then(|s| s["title"].as_str())
        .unwrap_or_else(|| panic!("no submission {code} in {export}"))
        .to_string()
}

/// The generation a successful round reports, `... (generation N) in ...`.
fn generation(run: &Run) -> u64 {
    run.stderr
        .split("(generation ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no generation in {run:?}"))
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_over_https_trusts_the_ca_cert_and_the_mirror_serves_the_data() {
    let upstream = TestServer::start(&[mini()]).await;
    let ca = Ca::new("confapi test CA");
    let proxy = TlsProxy::start(
        &upstream,
        ca.server_cert(&["127.0.0.1", "localhost"], false),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let ca_file = write(dir.path(), "ca.pem", &ca.pem());
    let mirror = TestDatabase::new();

    let run = sync(&proxy.url, &mirror.url, Some(&ca_file)).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stderr
            .contains("record(s) written, event(s) changed: mini"),
        "{run:?}"
    );
    let first = generation(&run);
    assert!(proxy.connections() > 0, "the sync went past the proxy");

    // The same CA from the environment, in a bundle after another CA:
    // trusted, and an unchanged upstream writes nothing.
    let other = Ca::new("another CA");
    let bundle = write(
        dir.path(),
        "bundle.pem",
        &format!("{}{}", other.pem(), ca.pem()),
    );
    let args = [
        "sync",
        "--from",
        &proxy.url,
        "--token",
        "orga-token",
        "--api",
        "legacy",
        "--event",
        "mini",
        "--db",
        &mirror.url,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let run = confapi(
        args,
        vec![("CONFAPI_SYNC_CA_CERT", bundle.display().to_string())],
    )
    .await;
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("sync: nothing changed"), "{run:?}");
    assert_eq!(generation(&run), first);

    // The mirror answers as the upstream does.
    let mirror = TestServer::start_on(mirror).await;
    for path in [
        "/api/events/mini/talks/",
        "/api/events/mini/speakers/",
        "/api/events/mini/rooms/",
    ] {
        assert_eq!(
            mirror.anon().ok(path).await,
            upstream.anon().ok(path).await,
            "{path}"
        );
    }
    let export = export(&mirror.db_url).await;
    assert_eq!(submission_title(&export, "SUB2"), "Secret Proposal");
    assert_eq!(submission_title(&export, "PUB1"), "Public Talk");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_certificates_fail_at_once_say_why_and_change_nothing() {
    let upstream = TestServer::start(&[mini()]).await;
    let ca = Ca::new("confapi test CA");
    let dir = tempfile::tempdir().unwrap();
    let ca_file = write(dir.path(), "ca.pem", &ca.pem());
    let other_ca_file = write(dir.path(), "other-ca.pem", &Ca::new("another CA").pem());
    let good = TlsProxy::start(&upstream, ca.server_cert(&["127.0.0.1"], false)).await;
    let mirror = TestDatabase::new();
    let run = sync(&good.url, &mirror.url, Some(&ca_file)).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    let first = generation(&run);
    let before = export(&mirror.url).await;

    // Changed upstream: any round that got through would write it.
    let mut changed = mini();
    changed["events"][0]["submissions"][1]["title"] = json!("Retitled Proposal");
    upstream.import(&changed).await;

    let other_name = TlsProxy::start(&upstream, ca.server_cert(&["upstream.example"], false)).await;
    let expired = TlsProxy::start(&upstream, ca.server_cert(&["127.0.0.1"], true)).await;
    let cases: [(&str, &TlsProxy, Option<&Path>, &str); 4] = [
        (
            "no --ca-cert",
            &good,
            None,
            "the upstream's certificate is not trusted (unknown issuer); give its CA with --ca-cert",
        ),
        (
            "another CA",
            &good,
            Some(&other_ca_file),
            "the upstream's certificate is not trusted (unknown issuer); give its CA with --ca-cert",
        ),
        (
            "another host name",
            &other_name,
            Some(&ca_file),
            "the upstream's certificate is for another host name (it names upstream.example)",
        ),
        (
            "expired",
            &expired,
            Some(&ca_file),
            "the upstream's certificate has expired (it was valid until 2020-12-31 00:00:00 UTC)",
        ),
    ];
    for (case, proxy, ca_cert, message) in cases {
        let connections = proxy.connections();
        let run = sync(&proxy.url, &mirror.url, ca_cert).await;
        assert_eq!(run.code, Some(1), "{case}: {run:?}");
        let line = run
            .stderr
            .lines()
            .find(|line| line.starts_with("sync failed after "))
            .unwrap_or_else(|| panic!("{case}: no failure line: {run:?}"));
        let (_, rest) = line.split_once(", nothing changed: ").unwrap();
        assert!(
            rest.starts_with(&format!("GET {}/api/events/mini/", proxy.url))
                && rest.ends_with(&format!(": {message}")),
            "{case}: {line}\nexpected: GET {}/api/events/mini/...: {message}",
            proxy.url
        );
        assert_eq!(
            proxy.connections() - connections,
            1,
            "{case}: a refused certificate is not retried"
        );
        assert_eq!(
            export(&mirror.url).await,
            before,
            "{case}: the mirror changed"
        );
    }

    // The right certificate again: the change arrives, on the generation
    // after the first round's (the failures moved nothing).
    let run = sync(&good.url, &mirror.url, Some(&ca_file)).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stderr
            .contains("record(s) written, event(s) changed: mini"),
        "{run:?}"
    );
    assert_eq!(generation(&run), first + 1, "{run:?}");
    assert_eq!(
        submission_title(&export(&mirror.url).await, "SUB2"),
        "Retitled Proposal"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_ca_cert_file_is_an_error_naming_it_before_any_request() {
    let upstream = TestServer::start(&[mini()]).await;
    let ca = Ca::new("confapi test CA");
    let proxy = TlsProxy::start(&upstream, ca.server_cert(&["127.0.0.1"], false)).await;
    let dir = tempfile::tempdir().unwrap();
    let key_only = KeyPair::generate().unwrap().serialize_pem();
    let cases = [
        ("missing.pem", None, "cannot read: "),
        (
            "not-pem.pem",
            Some("just some text\n".to_string()),
            "holds no certificate (expected PEM \"-----BEGIN CERTIFICATE-----\" blocks)",
        ),
        (
            "key.pem",
            Some(key_only),
            "holds no certificate (expected PEM \"-----BEGIN CERTIFICATE-----\" blocks)",
        ),
        (
            "bad-base64.pem",
            Some("-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n".to_string()),
            "not a PEM file: ",
        ),
        (
            "not-x509.pem",
            Some(format!(
                "{}-----BEGIN CERTIFICATE-----\naGVsbG8K\n-----END CERTIFICATE-----\n",
                ca.pem()
            )),
            "certificate 2: not usable as a CA certificate: not X.509 (bad encoding)",
        ),
    ];
    for (name, text, message) in cases {
        let file = dir.path().join(name);
        if let Some(text) = &text {
            std::fs::write(&file, text).unwrap();
        }
        // A database that does not exist yet: the sync must not create it.
        let db = dir.path().join(format!("{name}.db"));
        let run = sync(
            &proxy.url,
            &format!("sqlite://{}", db.display()),
            Some(&file),
        )
        .await;
        assert_eq!(run.code, Some(1), "{name}: {run:?}");
        let prefix = format!("error: --ca-cert {}: {message}", file.display());
        assert!(
            run.stderr.lines().any(|line| line.starts_with(&prefix)),
            "{name}: expected {prefix:?} in {run:?}"
        );
        assert!(!db.exists(), "{name}: the database was created");
        assert_eq!(proxy.connections(), 0, "{name}: something was requested");
    }
}

/// Plain http is untouched by --ca-cert: the option only adds roots.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_upstreams_work_as_before_with_or_without_a_ca_cert() {
    let upstream = TestServer::start(&[mini()]).await;
    let dir = tempfile::tempdir().unwrap();
    let ca_file = write(dir.path(), "ca.pem", &Ca::new("unused CA").pem());
    let mirror = TestDatabase::new();
    let run = sync(&upstream.base, &mirror.url, None).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    let first = generation(&run);
    let run = sync(&upstream.base, &mirror.url, Some(&ca_file)).await;
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("sync: nothing changed"), "{run:?}");
    assert_eq!(generation(&run), first);
    assert_eq!(
        submission_title(&export(&mirror.url).await, "SUB3"),
        "Trackless Idea"
    );
}
