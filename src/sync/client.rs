//! HTTP and HTTPS to the upstream: timeouts, retries with backoff, and
//! errors that name the URL. The token goes only into the `Authorization`
//! header; it is never part of a URL, a message or a log line.
//!
//! What an upstream sends is bounded (`Limits`): no body is read past
//! `max_body` bytes (decompressed, so a gzip bomb is caught like an endless
//! body, and without retries), no request outlives the round's deadline,
//! and redirects stay on the upstream's origin unless the operator names
//! another host.
//!
//! HTTPS is rustls: the system's roots, webpki's (Mozilla's) roots and the
//! `--ca-cert` file's certificates are trusted. A refused certificate ends
//! the round at once (`certificate_problem`): retrying cannot help.

use std::path::Path;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::CertificateError;

use reqwest::header::{
    HeaderMap, HeaderValue, ACCEPT_ENCODING, AUTHORIZATION, CONTENT_ENCODING, RETRY_AFTER,
};
use reqwest::StatusCode;
use serde_json::Value;

use super::error::SyncError;

/// The largest body read from the upstream by default, decompressed: well
/// above the largest real answer (the frab JSON of a 20,000-submission
/// event is about 60 MB; a page of 1,000 submissions a few MB).
pub const DEFAULT_MAX_BODY: u64 = 256 * 1024 * 1024;
/// How long a whole round may read the upstream by default.
pub const DEFAULT_ROUND_TIMEOUT: Duration = Duration::from_secs(30 * 60);
/// Redirects followed for one request; more is a loop, or near enough.
const MAX_REDIRECTS: usize = 10;

/// What the sync accepts from an upstream (docs/sync.md, "Limits").
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest body read, counted decompressed (`--max-response-size`).
    pub max_body: u64,
    /// When the round must have read everything, and the budget it was
    /// given (`--round-timeout`, for messages). `None`: no deadline.
    pub deadline: Option<(tokio::time::Instant, Duration)>,
    /// Hosts besides the upstream's own that a redirect may lead to
    /// (`--allow-redirect-host`).
    pub redirect_hosts: Vec<String>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: DEFAULT_MAX_BODY,
            deadline: None,
            redirect_hosts: Vec::new(),
        }
    }
}

impl Limits {
    /// The limits of a round that starts now and may take `round_timeout`.
    pub fn for_round(max_body: u64, round_timeout: Duration, redirect_hosts: Vec<String>) -> Self {
        Limits {
            max_body,
            deadline: Some((tokio::time::Instant::now() + round_timeout, round_timeout)),
            redirect_hosts,
        }
    }
}

/// Attempts per request before the sync gives up.
const ATTEMPTS: u32 = 5;
/// The longest `Retry-After` honoured; a longer one fails the round.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);
/// What an upstream answers for an event the token may not read: pretalx
/// 403s a token not bound to the event, 401s a token it does not know,
/// and 404s what the token may not even learn exists.
const REFUSALS: [StatusCode; 3] = [
    StatusCode::UNAUTHORIZED,
    StatusCode::FORBIDDEN,
    StatusCode::NOT_FOUND,
];

pub struct Client {
    http: reqwest::Client,
    /// Without the token: what the public sees.
    anonymous: reqwest::Client,
    /// The upstream's origin, without a trailing slash.
    pub origin: String,
    /// Base delay of the exponential backoff.
    backoff: Duration,
    /// The `Pretalx-Version` header sent with every request, if any
    /// (pretalx 2025+ answers in the API version it names).
    version: Option<&'static str>,
    max_body: u64,
    deadline: Option<(tokio::time::Instant, Duration)>,
}

/// A body being read: as it comes, or through a gzip decoder.
enum Sink {
    Plain(Capped),
    Gzip(Box<flate2::write::GzDecoder<Capped>>),
}

impl Sink {
    fn write(&mut self, chunk: bytes::Bytes) -> Result<(), BodyError> {
        match self {
            Sink::Plain(capped) => capped.push(chunk),
            Sink::Gzip(decoder) => match std::io::Write::write_all(decoder, &chunk) {
                Ok(()) => Ok(()),
                Err(_) if decoder.get_ref().over => {
                    Err(BodyError::TooLarge(decoder.get_ref().limit))
                }
                Err(err) => Err(BodyError::Cut(format!("not valid gzip: {err}"))),
            },
        }
    }

    fn finish(self) -> Result<Vec<u8>, BodyError> {
        match self {
            Sink::Plain(capped) => Ok(capped.whole()),
            Sink::Gzip(decoder) => match decoder.finish() {
                Ok(capped) => Ok(capped.whole()),
                Err(err) => Err(BodyError::Cut(format!("not valid gzip: {err}"))),
            },
        }
    }
}

/// A body that refuses to grow past `limit`, held as the chunks it came
/// in until it is whole: a buffer grown by doubling would copy it into
/// ever larger blocks, and an endless body would then cost several times
/// the limit (745 MiB for 256 MiB) instead of the limit.
struct Capped {
    chunks: Vec<bytes::Bytes>,
    len: u64,
    limit: u64,
    over: bool,
}

impl Capped {
    fn new(limit: u64) -> Self {
        Capped {
            chunks: Vec::new(),
            len: 0,
            limit,
            over: false,
        }
    }

    fn push(&mut self, chunk: bytes::Bytes) -> Result<(), BodyError> {
        if self.len + chunk.len() as u64 > self.limit {
            self.over = true;
            return Err(BodyError::TooLarge(self.limit));
        }
        self.len += chunk.len() as u64;
        self.chunks.push(chunk);
        Ok(())
    }

    /// The body in one piece, each chunk freed as it is copied.
    fn whole(self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.len as usize);
        for chunk in self.chunks {
            body.extend_from_slice(&chunk);
        }
        body
    }
}

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.push(bytes::Bytes::copy_from_slice(buf))
            .map_err(|_| std::io::Error::other("over the limit"))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Why a body was not read whole.
enum BodyError {
    /// Longer than the limit: final, a retry would read it again.
    TooLarge(u64),
    /// Cut off or unreadable: worth another attempt.
    Cut(String),
}

impl Client {
    /// `ca_certs` are trusted besides the built-in roots (`read_ca_certs`).
    pub fn new(
        origin: &str,
        token: &str,
        timeout: Duration,
        ca_certs: &[reqwest::Certificate],
        limits: &Limits,
    ) -> Result<Self, SyncError> {
        let origin = origin.trim_end_matches('/').to_string();
        let upstream = reqwest::Url::parse(&origin)
            .map_err(|e| SyncError::plain(format!("--from {origin}: not a URL: {e}")))?;
        let mut headers = HeaderMap::new();
        if !token.is_empty() {
            let mut value = HeaderValue::from_str(&format!("Token {token}")).map_err(|_| {
                SyncError::plain("the token contains characters not allowed in an HTTP header")
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let with_roots = |mut builder: reqwest::ClientBuilder| {
            for cert in ca_certs {
                builder = builder.add_root_certificate(cert.clone());
            }
            builder.redirect(redirect_policy(&upstream, &limits.redirect_hosts))
        };
        let http = with_roots(reqwest::Client::builder())
            .default_headers(headers)
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("confapi-sync/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| SyncError::plain(format!("cannot build the HTTP client: {e}")))?;
        let anonymous = with_roots(reqwest::Client::builder())
            .timeout(timeout)
            .build()
            .map_err(|e| SyncError::plain(format!("cannot build the HTTP client: {e}")))?;
        Ok(Client {
            http,
            anonymous,
            origin,
            backoff: Duration::from_millis(
                std::env::var("CONFAPI_SYNC_BACKOFF_MS")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(500),
            ),
            version: None,
            max_body: limits.max_body,
            deadline: limits.deadline,
        })
    }

    /// The same client with another base delay between retries (tests).
    pub fn with_backoff(mut self, backoff: Duration) -> Self {
        self.backoff = backoff;
        self
    }

    /// Sends `Pretalx-Version: version` from now on.
    pub fn set_version(&mut self, version: &'static str) {
        self.version = Some(version);
    }

    /// The URL of `path_and_query` on the upstream. `next` links are
    /// absolute and may name another host (the upstream's own idea of its
    /// base URL); only their path and query are kept, so every request goes
    /// where `--from` says.
    pub fn url(&self, link: &str) -> String {
        let path = match link.find("://") {
            Some(scheme_end) => {
                let rest = &link[scheme_end + 3..];
                rest.find('/').map_or("/", |i| &rest[i..])
            }
            None => link,
        };
        format!("{}{}", self.origin, path)
    }

    /// GETs `url` as JSON, retrying network errors, timeouts, 5xx, 429 and
    /// unreadable bodies with exponential backoff (or `Retry-After`).
    pub async fn get_json(&self, url: &str, anonymous: bool) -> Result<Value, SyncError> {
        let value = self.get_parsed(url, anonymous, &[], parse_json).await?;
        Ok(value.expect("no status is let through"))
    }

    /// `get_json`, but a 404 is `None`: for what an upstream may not have
    /// (an export of a schedule the token may not see, an endpoint of
    /// another API generation).
    pub async fn get_json_if_found(
        &self,
        url: &str,
        anonymous: bool,
    ) -> Result<Option<Value>, SyncError> {
        self.get_parsed(url, anonymous, &[StatusCode::NOT_FOUND], parse_json)
            .await
    }

    /// Like `get_json`, but an answer with one of the `refused` statuses is
    /// `None` (what an upstream does not offer, as opposed to a failure).
    pub async fn get_json_unless(
        &self,
        url: &str,
        anonymous: bool,
        refused: &[StatusCode],
    ) -> Result<Option<Value>, SyncError> {
        self.get_parsed(url, anonymous, refused, parse_json).await
    }

    /// A GET of `url` asking for JSON, with the token unless `anonymous`,
    /// and the API version when one is set.
    fn request(&self, url: &str, anonymous: bool) -> reqwest::RequestBuilder {
        let client = if anonymous {
            &self.anonymous
        } else {
            &self.http
        };
        // No compression asked for: on the loopback or a LAN it costs more
        // than it saves (a 20,000-submission round reads ~150 MB of JSON).
        // An upstream that compresses anyway is read all the same.
        let request = client
            .get(url)
            .header("Accept", "application/json")
            .header(ACCEPT_ENCODING, "identity");
        match self.version {
            Some(version) => request.header("Pretalx-Version", version),
            None => request,
        }
    }

    /// One GET of `url`, without retries, for a question the upstream may
    /// not answer at all (`GET /api/`: pretalx 2025.2.2 answers a 404 page,
    /// or a 500 where that page cannot be rendered): the JSON of a 2xx
    /// answer, else `None`, also for a network error or timeout (the next
    /// request meets it again, with retries). A refused certificate, a
    /// redirect off the upstream, a body over the limit and the round's
    /// deadline are still errors, at once.
    pub async fn probe_json(&self, url: &str, anonymous: bool) -> Result<Option<Value>, SyncError> {
        let attempt = async {
            match self.request(url, anonymous).send().await {
                Err(err) => match final_problem(&err) {
                    Some(problem) => Err(SyncError::at(url, problem)),
                    None => {
                        tracing::debug!(url, problem = %without_url(&err), "probe failed");
                        Ok(None)
                    }
                },
                Ok(response) if response.status().is_success() => {
                    match self.read_body(response).await {
                        Ok(body) => Ok(serde_json::from_slice(&body).ok()),
                        Err(BodyError::TooLarge(limit)) => Err(too_large(url, limit)),
                        Err(BodyError::Cut(_)) => Ok(None),
                    }
                }
                Ok(response) => {
                    tracing::debug!(url, status = %response.status(), "probe not answered");
                    Ok(None)
                }
            }
        };
        self.before_deadline(url, attempt).await?
    }

    /// `work`, unless the round's deadline passes first: then an error
    /// naming the URL being read and the budget.
    async fn before_deadline<T>(
        &self,
        url: &str,
        work: impl std::future::Future<Output = T>,
    ) -> Result<T, SyncError> {
        match self.deadline {
            None => Ok(work.await),
            Some((deadline, budget)) => tokio::time::timeout_at(deadline, work)
                .await
                .map_err(|_| past_deadline(url, budget)),
        }
    }

    /// The body of `response`, decompressed, unless it is longer than
    /// `max_body`: then it is read no further (a declared length over the
    /// limit is not read at all). A gzip body (sent though not asked for)
    /// is decompressed here rather than by reqwest, so that the limit
    /// counts what it expands to.
    async fn read_body(&self, mut response: reqwest::Response) -> Result<Vec<u8>, BodyError> {
        let limit = self.max_body;
        let gzip = match response
            .headers()
            .get(CONTENT_ENCODING)
            .map(HeaderValue::as_bytes)
        {
            None => false,
            Some(coding) if coding.eq_ignore_ascii_case(b"identity") => false,
            Some(coding)
                if coding.eq_ignore_ascii_case(b"gzip")
                    || coding.eq_ignore_ascii_case(b"x-gzip") =>
            {
                true
            }
            Some(coding) => {
                return Err(BodyError::Cut(format!(
                    "an encoding that was not asked for ({})",
                    String::from_utf8_lossy(coding)
                )))
            }
        };
        if !gzip
            && response
                .content_length()
                .is_some_and(|length| length > limit)
        {
            return Err(BodyError::TooLarge(limit));
        }
        let capped = Capped::new(limit);
        let mut sink = if gzip {
            Sink::Gzip(Box::new(flate2::write::GzDecoder::new(capped)))
        } else {
            Sink::Plain(capped)
        };
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => sink.write(chunk)?,
                Ok(None) => return sink.finish(),
                Err(err) => return Err(BodyError::Cut(without_url(&err))),
            }
        }
    }

    /// GETs `url` and reads the body with `parse` (an unreadable body is
    /// retried like a failed request); an answer with one of the `refused`
    /// statuses is `None`.
    pub async fn get_parsed<T>(
        &self,
        url: &str,
        anonymous: bool,
        refused: &[StatusCode],
        parse: impl Fn(&[u8]) -> Result<T, String>,
    ) -> Result<Option<T>, SyncError> {
        self.before_deadline(
            url,
            self.get_parsed_with_retries(url, anonymous, refused, parse),
        )
        .await?
    }

    async fn get_parsed_with_retries<T>(
        &self,
        url: &str,
        anonymous: bool,
        refused: &[StatusCode],
        parse: impl Fn(&[u8]) -> Result<T, String>,
    ) -> Result<Option<T>, SyncError> {
        let mut last = String::new();
        for attempt in 0..ATTEMPTS {
            let mut delay = self.backoff * 2u32.pow(attempt);
            match self.request(url, anonymous).send().await {
                Err(err) => match final_problem(&err) {
                    Some(problem) => return Err(SyncError::at(url, problem)),
                    None => last = format!("request failed: {}", without_url(&err)),
                },
                Ok(response) => {
                    let status = response.status();
                    if status.is_success() {
                        match self.read_body(response).await {
                            Err(BodyError::TooLarge(limit)) => return Err(too_large(url, limit)),
                            Err(BodyError::Cut(err)) => last = format!("body cut off: {err}"),
                            Ok(body) => match parse(&body) {
                                Ok(value) => return Ok(Some(value)),
                                Err(err) => last = err,
                            },
                        }
                    } else if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
                        if let Some(wait) = retry_after(response.headers()) {
                            if wait > MAX_RETRY_AFTER {
                                return Err(SyncError::at(
                                    url,
                                    format!(
                                        "{status}, Retry-After {}s is too long to wait",
                                        wait.as_secs()
                                    ),
                                ));
                            }
                            if let Some((deadline, budget)) = self.deadline {
                                if tokio::time::Instant::now() + wait > deadline {
                                    return Err(SyncError::at(
                                        url,
                                        format!(
                                            "{status}, Retry-After {}s would pass the round's deadline ({}s, --round-timeout)",
                                            wait.as_secs(),
                                            budget.as_secs()
                                        ),
                                    ));
                                }
                            }
                            delay = wait;
                        }
                        last = format!("answered {status}");
                    } else if refused.contains(&status) {
                        return Ok(None);
                    } else {
                        let detail = match self.read_body(response).await {
                            Ok(body) => String::from_utf8_lossy(&body).chars().take(200).collect(),
                            Err(_) => String::new(),
                        };
                        if REFUSALS.contains(&status) {
                            return Err(SyncError::refused(url, status, &detail));
                        }
                        return Err(SyncError::at(url, format!("answered {status}: {detail}")));
                    }
                }
            }
            if attempt + 1 < ATTEMPTS {
                tracing::debug!(url, attempt, ?delay, problem = %last, "retrying");
                tokio::time::sleep(delay).await;
            }
        }
        Err(SyncError::at(
            url,
            format!("{last} (after {ATTEMPTS} attempts)"),
        ))
    }
}

/// Redirects that stay on the upstream's origin, or go from http to https
/// on its host, are followed; so are those to a host the operator allows.
/// Any other is an error naming both origins: the answer would be another
/// server's, mirrored as the upstream's.
fn redirect_policy(upstream: &reqwest::Url, allowed: &[String]) -> reqwest::redirect::Policy {
    let upstream = upstream.clone();
    let allowed: Vec<String> = allowed.iter().map(|h| h.to_ascii_lowercase()).collect();
    reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() > MAX_REDIRECTS {
            return attempt.error(format!(
                "more than {MAX_REDIRECTS} redirects (a redirect loop?)"
            ));
        }
        let next = attempt.url();
        let same_origin = next.origin() == upstream.origin();
        let upgraded = upstream.scheme() == "http"
            && next.scheme() == "https"
            && next.host_str() == upstream.host_str();
        let allowed_host = next
            .host_str()
            .is_some_and(|host| allowed.iter().any(|a| a == &host.to_ascii_lowercase()));
        if same_origin || upgraded || allowed_host {
            attempt.follow()
        } else {
            let to = next.origin().ascii_serialization();
            attempt.error(format!(
                "redirected from the upstream's origin {} to {to}, another origin \
                 (allow its host with --allow-redirect-host)",
                upstream.origin().ascii_serialization()
            ))
        }
    })
}

fn too_large(url: &str, limit: u64) -> SyncError {
    SyncError::at(
        url,
        format!(
            "the answer is larger than the limit of {limit} bytes (--max-response-size); not retried"
        ),
    )
}

fn past_deadline(url: &str, budget: Duration) -> SyncError {
    SyncError::at(
        url,
        format!(
            "the round's deadline passed ({}s, --round-timeout) while this was read",
            budget.as_secs()
        ),
    )
}

/// Why a failed request must not be retried: a refused certificate, or a
/// redirect the policy refused (another origin, a loop).
fn final_problem(err: &reqwest::Error) -> Option<String> {
    if err.is_redirect() {
        // reqwest's own words ("error following redirect for url") add
        // nothing to the policy's reason, which is its source.
        let mut reason = std::error::Error::source(err);
        while let Some(inner) = reason.and_then(std::error::Error::source) {
            reason = Some(inner);
        }
        return Some(reason.map_or_else(|| without_url(err), ToString::to_string));
    }
    certificate_problem(err)
}

/// The certificates of a PEM file (`--ca-cert`), each checked to be a
/// certificate rustls can use as a root, so that a wrong file is an error
/// naming it before anything is requested.
pub fn read_ca_certs(path: &Path) -> Result<Vec<reqwest::Certificate>, SyncError> {
    let name = path.display();
    let pem = std::fs::read(path)
        .map_err(|e| SyncError::plain(format!("--ca-cert {name}: cannot read: {e}")))?;
    let ders = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| SyncError::plain(format!("--ca-cert {name}: not a PEM file: {e}")))?;
    if ders.is_empty() {
        return Err(SyncError::plain(format!(
            "--ca-cert {name}: holds no certificate (expected PEM \"-----BEGIN CERTIFICATE-----\" blocks)"
        )));
    }
    let mut certs = Vec::with_capacity(ders.len());
    for (n, der) in ders.into_iter().enumerate() {
        rustls::RootCertStore::empty()
            .add(der.clone())
            .map_err(|e| {
                let why = match e {
                    rustls::Error::InvalidCertificate(CertificateError::BadEncoding) => {
                        "not X.509 (bad encoding)".to_string()
                    }
                    other => other.to_string(),
                };
                SyncError::plain(format!(
                    "--ca-cert {name}: certificate {}: not usable as a CA certificate: {why}",
                    n + 1
                ))
            })?;
        certs.push(reqwest::Certificate::from_der(&der).map_err(|e| {
            SyncError::plain(format!("--ca-cert {name}: certificate {}: {e}", n + 1))
        })?);
    }
    Ok(certs)
}

/// Why the upstream's certificate was refused, for the operator, or `None`
/// when the failure is something else.
fn certificate_problem(err: &reqwest::Error) -> Option<String> {
    match find_rustls_error(err)? {
        rustls::Error::InvalidCertificate(problem) => Some(describe_certificate_problem(problem)),
        _ => None,
    }
}

/// rustls's error in reqwest's chain. It sits inside `io::Error`s (two, in
/// hyper-rustls), whose `source()` skips the error they wrap: look inside
/// them with `get_ref`.
fn find_rustls_error<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut next = Some(err);
    while let Some(current) = next {
        if let Some(tls) = current.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        next = match current
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
        {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => current.source(),
        };
    }
    None
}

fn describe_certificate_problem(problem: &CertificateError) -> String {
    const THE_CERT: &str = "the upstream's certificate";
    let date = |time: &rustls::pki_types::UnixTime| {
        i64::try_from(time.as_secs())
            .ok()
            .and_then(|secs| chrono::DateTime::from_timestamp(secs, 0))
            .map_or_else(
                || "an unreadable date".to_string(),
                |t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
            )
    };
    match problem {
        CertificateError::UnknownIssuer => {
            format!("{THE_CERT} is not trusted (unknown issuer); give its CA with --ca-cert")
        }
        CertificateError::NotValidForName => format!("{THE_CERT} is for another host name"),
        CertificateError::NotValidForNameContext { presented, .. } if presented.is_empty() => {
            format!("{THE_CERT} is for another host name (it names none)")
        }
        CertificateError::NotValidForNameContext { presented, .. } => format!(
            "{THE_CERT} is for another host name (it names {})",
            presented
                .iter()
                .map(|name| bare_name(name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        CertificateError::Expired => format!("{THE_CERT} has expired"),
        CertificateError::ExpiredContext { not_after, .. } => {
            format!(
                "{THE_CERT} has expired (it was valid until {})",
                date(not_after)
            )
        }
        CertificateError::NotValidYet => {
            format!("{THE_CERT} is not valid yet (is this machine's clock right?)")
        }
        CertificateError::NotValidYetContext { not_before, .. } => format!(
            "{THE_CERT} is not valid yet (it is valid from {}; is this machine's clock right?)",
            date(not_before)
        ),
        CertificateError::Revoked => format!("{THE_CERT} has been revoked"),
        CertificateError::BadSignature => {
            format!("{THE_CERT} is not correctly signed by its issuer")
        }
        other => format!(
            "{THE_CERT} is refused: {}",
            rustls::Error::InvalidCertificate(other.clone())
        ),
    }
}

/// webpki shows a certificate's names as `DnsName("a.example")` and
/// `IpAddress(192.0.2.1)`: the operator wants the names.
fn bare_name(presented: &str) -> &str {
    presented
        .strip_prefix("DnsName(\"")
        .and_then(|name| name.strip_suffix("\")"))
        .or_else(|| {
            presented
                .strip_prefix("IpAddress(")
                .and_then(|name| name.strip_suffix(')'))
        })
        .unwrap_or(presented)
}

fn parse_json(body: &[u8]) -> Result<Value, String> {
    serde_json::from_slice::<Value>(body)
        .map_err(|err| format!("malformed JSON ({} bytes): {err}", body.len()))
}

/// reqwest's messages repeat the URL; it is already named once.
fn without_url(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    if let Some(url) = err.url() {
        text = text
            .replace(&format!(" ({url})"), "")
            .replace(url.as_str(), "");
    }
    let mut source = std::error::Error::source(err);
    while let Some(inner) = source {
        text.push_str(&format!(": {inner}"));
        source = inner.source();
    }
    text
}

fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificate_problems_are_worded_for_the_operator() {
        let wrong_name = CertificateError::NotValidForNameContext {
            expected: rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap(),
            presented: vec![
                "DnsName(\"a.example\")".into(),
                "IpAddress(192.0.2.1)".into(),
                "DirectoryName".into(),
            ],
        };
        assert_eq!(
            describe_certificate_problem(&wrong_name),
            "the upstream's certificate is for another host name (it names a.example, 192.0.2.1, DirectoryName)"
        );
        let expired = CertificateError::ExpiredContext {
            time: rustls::pki_types::UnixTime::since_unix_epoch(Duration::from_secs(1_700_000_000)),
            not_after: rustls::pki_types::UnixTime::since_unix_epoch(Duration::from_secs(
                1_600_000_000,
            )),
        };
        assert_eq!(
            describe_certificate_problem(&expired),
            "the upstream's certificate has expired (it was valid until 2020-09-13 12:26:40 UTC)"
        );
        assert_eq!(
            describe_certificate_problem(&CertificateError::UnknownIssuer),
            "the upstream's certificate is not trusted (unknown issuer); give its CA with --ca-cert"
        );
        assert_eq!(
            describe_certificate_problem(&CertificateError::UnhandledCriticalExtension),
            "the upstream's certificate is refused: invalid peer certificate: UnhandledCriticalExtension"
        );
    }

    #[test]
    fn rustls_errors_are_found_inside_nested_io_errors() {
        // As hyper-rustls hands them on: io::Error::other(io::Error(rustls)).
        let inner = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer),
        );
        let outer = std::io::Error::other(inner);
        assert!(matches!(
            find_rustls_error(&outer),
            Some(rustls::Error::InvalidCertificate(
                CertificateError::UnknownIssuer
            ))
        ));
        let plain = std::io::Error::other("connection refused");
        assert!(find_rustls_error(&plain).is_none());
    }
}
