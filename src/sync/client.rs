//! HTTP to the upstream: timeouts, retries with backoff, and errors that
//! name the URL. The token goes only into the `Authorization` header; it is
//! never part of a URL, a message or a log line.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::Value;

use super::SyncError;

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
    pub fn new(origin: &str, token: &str, timeout: Duration) -> Result<Self, SyncError> {
        let mut headers = HeaderMap::new();
        if !token.is_empty() {
            let mut value = HeaderValue::from_str(&format!("Token {token}")).map_err(|_| {
                SyncError::plain("the token contains characters not allowed in an HTTP header")
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("confapi-sync/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| SyncError::plain(format!("cannot build the HTTP client: {e}")))?;
        let anonymous = reqwest::Client::builder()
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
            let client = if anonymous {
                &self.anonymous
            } else {
                &self.http
            };
            let mut request = client.get(url).header("Accept", "application/json");
            if let Some(version) = self.version {
                request = request.header("Pretalx-Version", version);
            }
            match request.send().await {
                Err(err) => last = format!("request failed: {}", without_url(&err)),
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
