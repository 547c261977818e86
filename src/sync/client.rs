//! HTTP and HTTPS to the upstream: timeouts, retries with backoff, and
//! errors that name the URL. The token goes only into the `Authorization`
//! header; it is never part of a URL, a message or a log line.
//!
//! HTTPS is rustls: the system's roots, webpki's (Mozilla's) roots and the
//! `--ca-cert` file's certificates are trusted. A refused certificate ends
//! the round at once (`certificate_problem`): retrying cannot help.

use std::path::Path;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::CertificateError;

use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::Value;

use super::error::SyncError;

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
}

impl Client {
    /// `ca_certs` are trusted besides the built-in roots (`read_ca_certs`).
    pub fn new(
        origin: &str,
        token: &str,
        timeout: Duration,
        ca_certs: &[reqwest::Certificate],
    ) -> Result<Self, SyncError> {
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
            builder
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
            origin: origin.trim_end_matches('/').to_string(),
            backoff: Duration::from_millis(
                std::env::var("CONFAPI_SYNC_BACKOFF_MS")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(500),
            ),
            version: None,
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
        let request = client.get(url).header("Accept", "application/json");
        match self.version {
            Some(version) => request.header("Pretalx-Version", version),
            None => request,
        }
    }

    /// One GET of `url`, without retries, for a question the upstream may
    /// not answer at all (`GET /api/`: pretalx 2025.2.2 answers a 404 page,
    /// or a 500 where that page cannot be rendered): the JSON of a 2xx
    /// answer, else `None`, also for a network error or timeout (the next
    /// request meets it again, with retries). A refused certificate is
    /// still an error, at once.
    pub async fn probe_json(&self, url: &str, anonymous: bool) -> Result<Option<Value>, SyncError> {
        match self.request(url, anonymous).send().await {
            Err(err) => match certificate_problem(&err) {
                Some(problem) => Err(SyncError::at(url, problem)),
                None => {
                    tracing::debug!(url, problem = %without_url(&err), "probe failed");
                    Ok(None)
                }
            },
            Ok(response) if response.status().is_success() => Ok(response
                .bytes()
                .await
                .ok()
                .and_then(|body| serde_json::from_slice(&body).ok())),
            Ok(response) => {
                tracing::debug!(url, status = %response.status(), "probe not answered");
                Ok(None)
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
        let mut last = String::new();
        for attempt in 0..ATTEMPTS {
            let mut delay = self.backoff * 2u32.pow(attempt);
            match self.request(url, anonymous).send().await {
                Err(err) => match certificate_problem(&err) {
                    Some(problem) => return Err(SyncError::at(url, problem)),
                    None => last = format!("request failed: {}", without_url(&err)),
                },
                Ok(response) => {
                    let status = response.status();
                    if status.is_success() {
                        match response.bytes().await {
                            Err(err) => last = format!("body cut off: {}", without_url(&err)),
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
                            delay = wait;
                        }
                        last = format!("answered {status}");
                    } else if refused.contains(&status) {
                        return Ok(None);
                    } else {
                        let body = response.text().await.unwrap_or_default();
                        let detail: String = body.chars().take(200).collect();
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
