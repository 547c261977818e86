//! The rules every response follows (behaviour.md §1, §2, §7), applied once
//! around all handlers: OPTIONS preflight, authentication before anything
//! else, 405 for other methods, HEAD, the common headers, `ETag` with
//! `If-None-Match`, metrics and one log line per request.

use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use std::sync::Arc;

use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::Uri;
use governor::clock::Clock;

use super::context::{event_slug, wants_stream, Caller};
use super::error::{ApiError, VARY};
use super::response_cache::{Rendered, ResponseKey, Revalidation};
use super::state::{AppState, RateKey};
use crate::domain::access::{Access, Role, ViewerClass};
use crate::domain::catalog::Catalog;
use crate::model::{ApiVersion, Dialect, Timestamp};

/// No endpoint takes a request body; one announced larger than this is
/// refused with 413 before anything else.
const MAX_BODY_BYTES: u64 = 64 * 1024;
/// How long a body of unknown length (chunked) may take to arrive whole.
const BODY_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

pub async fn transport(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();

    let mut response = without_body_for_head(&method, handle(&state, request, next).await);

    let headers = response.headers_mut();
    headers.insert(header::VARY, HeaderValue::from_static(VARY));
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    if state.draining.load(std::sync::atomic::Ordering::Relaxed) {
        // Shutting down: the client opens its next connection elsewhere.
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }

    let status = response.status();
    let elapsed = started.elapsed();
    state.metrics.record(status, elapsed);
    let micros = elapsed.as_micros() as u64;
    if is_probe(&path) {
        // Load balancers probe often; a 503 from /readyz is an answer, not a fault.
        tracing::debug!(%method, %path, status = status.as_u16(), micros, "probe");
    } else if status == StatusCode::SERVICE_UNAVAILABLE {
        tracing::warn!(%method, %path, status = status.as_u16(), micros, "request refused: not ready or storage unavailable");
    } else if status.is_server_error() {
        tracing::error!(%method, %path, status = status.as_u16(), micros = elapsed.as_micros() as u64, "request failed");
    } else {
        // The access line: written without generic formatting (access_log).
        crate::access_log::request(method.as_str(), &path, status.as_u16(), micros);
    }
    response
}

/// A probe's route exactly (with or without its one trailing slash): a
/// path with more slashes is no route of the router's, and goes through
/// the rules every other path does (a 404).
fn is_probe(path: &str) -> bool {
    matches!(
        path.strip_suffix('/').unwrap_or(path),
        "/healthz" | "/readyz" | "/metrics"
    )
}

async fn handle(state: &AppState, mut request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let announced_body = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced_body.is_some_and(|length| length > MAX_BODY_BYTES) {
        return ApiError::PayloadTooLarge.into_response();
    }
    if let Err(err) = discard_chunked_body(&mut request).await {
        // The rest of the body is never read: the connection closes.
        let mut response = err.into_response();
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    if method == Method::OPTIONS {
        // Preflight: always allowed, never authenticated.
        let mut response = StatusCode::NO_CONTENT.into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("Authorization, Content-Type"),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, HEAD, OPTIONS"),
        );
        headers.insert(
            header::ALLOW,
            HeaderValue::from_static("GET, HEAD, OPTIONS"),
        );
        return response;
    }
    if is_probe(request.uri().path()) {
        // Probes need no token, and are never throttled.
        if method != Method::GET && method != Method::HEAD {
            return ApiError::MethodNotAllowed(method.to_string()).into_response();
        }
        *request.method_mut() = Method::GET;
        return next.run(request).await;
    }

    let catalog = match state.cache.current() {
        Ok(catalog) => catalog,
        Err(err) => return ApiError::from(err).into_response(),
    };
    let authenticated = authenticate(request.headers(), &catalog);
    if let Some(limiter) = &state.limiter {
        // One budget per user; anonymous callers and bad tokens per address.
        let key = match &authenticated {
            Ok(Some((user, _))) => RateKey::User(user.clone()),
            _ => request
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(RateKey::Unknown, |info| RateKey::Address(info.0.ip())),
        };
        if let Err(not_until) = limiter.check_key(&key) {
            state.metrics.throttled();
            let wait = not_until.wait_time_from(limiter.clock().now());
            let retry_after_secs = (wait.as_secs_f64().ceil() as u64).max(1);
            return ApiError::Throttled { retry_after_secs }.into_response();
        }
    }
    // Authentication comes first: a bad token is 401 even on a POST.
    let (user_code, token_version) = match authenticated {
        Ok(Some((user, version))) => (Some(user), version),
        Ok(None) => (None, None),
        Err(err) => return err.into_response(),
    };
    if method != Method::GET && method != Method::HEAD {
        return ApiError::MethodNotAllowed(method.to_string()).into_response();
    }
    let path = request.uri().path();
    let api = if path.starts_with("/api/") || path == "/api" {
        match api_version(request.headers(), token_version, state.config.api_version) {
            Ok(api) => api,
            // pretalx's root reads no version: it answers whatever is asked.
            Err(_) if path == "/api/" || path == "/api" => Dialect::Versioned,
            Err(err) => return err.into_response(),
        }
    } else {
        // The schedule exports and probes have one shape.
        Dialect::Legacy
    };
    if api == Dialect::Versioned && asks_other_renderer(request.uri().query()) {
        return ApiError::NotFound.into_response();
    }
    let base_url = base_url(state, request.headers());
    let link_base = format!("{base_url}{}", request.uri().path());
    let now = chrono::Utc::now();
    // An event stream is an answer that never ends: neither cached nor
    // collected, whatever its path.
    let streaming = wants_stream(request.headers());
    let key = response_key(
        &catalog,
        user_code.as_deref(),
        request.uri(),
        &base_url,
        now,
        api,
    )
    .filter(|_| !streaming);
    let revalidation = Revalidation::of(request.headers());
    if let Some(hit) = key.as_ref().and_then(|key| state.responses.get(key)) {
        return hit.respond(&revalidation);
    }
    request.extensions_mut().insert(Caller {
        catalog,
        user_code,
        api,
        default_api: token_version.unwrap_or(state.config.api_version).dialect(),
        now,
        base_url,
        link_base,
    });
    // HEAD runs the GET handler, so status and headers (ETag included) match.
    *request.method_mut() = Method::GET;

    let response = next.run(request).await;
    let is_stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    let response = if is_stream {
        response
    } else if response.status() == StatusCode::OK {
        match rendered(response).await {
            Ok(rendered) => {
                let rendered = Arc::new(rendered);
                if let Some(key) = key {
                    state.responses.insert(key, rendered.clone());
                }
                rendered.respond(&revalidation)
            }
            Err(err) => err.into_response(),
        }
    } else {
        as_json_error(response).await
    };
    response
}

/// A body of unknown length (`Transfer-Encoding: chunked`; a
/// `Content-Length` is checked above): no endpoint takes one, so up to
/// `MAX_BODY_BYTES` of it are read within `BODY_READ_TIMEOUT` and dropped.
/// A longer body is 413, a slower one 408, a broken one 400, instead of
/// reading without bound or holding the connection.
async fn discard_chunked_body(request: &mut Request) -> Result<(), ApiError> {
    use axum::body::HttpBody;
    use http_body_util::BodyExt;
    let body = request.body();
    if body.is_end_stream() || body.size_hint().exact().is_some() {
        return Ok(());
    }
    let body = std::mem::take(request.body_mut());
    let limited = http_body_util::Limited::new(body, MAX_BODY_BYTES as usize);
    match tokio::time::timeout(BODY_READ_TIMEOUT, limited.collect()).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(err)) if err.is::<http_body_util::LengthLimitError>() => {
            Err(ApiError::PayloadTooLarge)
        }
        Ok(Err(_)) => Err(ApiError::MalformedRequest),
        Err(_) => Err(ApiError::BodyTimeout),
    }
}

/// HEAD: GET's answer without its body. Its `Content-Length` must be the
/// length GET sends, or absent (RFC 9110 §8.6), so it is set here from the
/// body dropped: hyper and axum would count the empty one. A 304 (or a body
/// of unknown length) sends none, as GET does.
fn without_body_for_head(method: &Method, response: Response) -> Response {
    use axum::body::HttpBody;
    if method != Method::HEAD {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let has_body = !matches!(
        parts.status,
        StatusCode::NO_CONTENT | StatusCode::NOT_MODIFIED
    );
    match body.size_hint().exact().filter(|_| has_body) {
        Some(length) => {
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
            Response::from_parts(parts, Body::empty())
        }
        None => {
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::new(NoLength))
        }
    }
}

/// An empty body of no known length: axum gives one of known length
/// `Content-Length: 0`, which on a HEAD answer would describe GET's body.
struct NoLength;

impl axum::body::HttpBody for NoLength {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
        std::task::Poll::Ready(None)
    }

    fn is_end_stream(&self) -> bool {
        true
    }
}

/// What the answer to a request depends on, for the response cache; None
/// for requests into an event that does not exist or that the caller may
/// not see (their errors are cheap, and not worth an entry).
fn response_key(
    catalog: &Catalog,
    user_code: Option<&str>,
    uri: &Uri,
    base_url: &str,
    now: Timestamp,
    api: Dialect,
) -> Option<ResponseKey> {
    let user = user_code.and_then(|code| catalog.user(code));
    if let Some(slug) = super::export_paths::event_slug(uri) {
        // The exports differ only between organisers and everyone else.
        let event = catalog.event(&slug)?;
        return Some(ResponseKey {
            version: catalog.version.clone(),
            class: Access::new(event, user, now).export_class(),
            clock_epoch: 0,
            api,
            base_url: base_url.to_string(),
            target: target_of(uri),
        });
    }
    let (class, clock_epoch) = match event_slug(uri) {
        Some(slug) => {
            let event = catalog.event(&slug)?;
            let access = Access::new(event, user, now);
            if !access.event_visible() {
                return None;
            }
            (access.viewer_class(), access.clock_epoch())
        }
        // Outside events only the list of events depends on the caller:
        // a signed-in caller's list is their own.
        None => match user {
            None => (ViewerClass::Public, 0),
            Some(user) => (
                ViewerClass::Personal {
                    user: user.code.clone(),
                    role: Role::Public,
                },
                0,
            ),
        },
    };
    Some(ResponseKey {
        version: catalog.version.clone(),
        class,
        clock_epoch,
        api,
        base_url: base_url.to_string(),
        target: target_of(uri),
    })
}

/// Path and query as sent.
fn target_of(uri: &Uri) -> String {
    uri.path_and_query()
        .map_or_else(|| uri.path().to_string(), |pq| pq.as_str().to_string())
}

/// Headers of a handler's answer that belong to its bytes and are sent
/// with every copy (the exports' file name, release time and privacy).
const KEPT_HEADERS: [header::HeaderName; 3] = [
    header::CONTENT_DISPOSITION,
    header::LAST_MODIFIED,
    header::CACHE_CONTROL,
];

/// A handler's `200` answer, read whole, ready to be sent in any encoding.
async fn rendered(response: Response) -> Result<Rendered, ApiError> {
    let (parts, body) = response.into_parts();
    let bytes: Bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .map_err(|err| ApiError::Internal(format!("reading a response body: {err}")))?;
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .cloned()
        .unwrap_or_else(|| HeaderValue::from_static("application/json"));
    let mut kept = HeaderMap::new();
    for name in KEPT_HEADERS {
        if let Some(value) = parts.headers.get(&name) {
            kept.insert(name, value.clone());
        }
    }
    Ok(Rendered::new(content_type, bytes).with_headers(kept))
}

/// `Token <key>`, `Bearer <key>` (keyword in any case) or a bare key.
/// No header: anonymous. Anything else: 401.
/// The caller's user code and the API version configured on their token.
type Authenticated = Option<(crate::model::ArcStr, Option<ApiVersion>)>;

fn authenticate(headers: &HeaderMap, catalog: &Catalog) -> Result<Authenticated, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().map_err(|_| ApiError::InvalidToken)?;
    let parts: Vec<&str> = text.split_whitespace().collect();
    let is_keyword =
        |word: &str| word.eq_ignore_ascii_case("token") || word.eq_ignore_ascii_case("bearer");
    let key = match parts.as_slice() {
        [key] if !is_keyword(key) => *key,
        [keyword, key] if is_keyword(keyword) => *key,
        _ => return Err(ApiError::InvalidToken),
    };
    catalog
        .user_by_token(key)
        .map(|(user, version)| Some((user.code.clone(), version)))
        .ok_or(ApiError::InvalidToken)
}

/// The dialect of an API request (pretalx-v1.md §13, item 1, and
/// pretalx-2026.md): the `Pretalx-Version` header (`v2`, `v-next`, `v1`
/// and `LEGACY`, case-sensitive as in pretalx; empty counts as absent),
/// else the token's configured version, else the server's default. Unlike
/// pretalx, a first request never pins a token's version: a replica does
/// not write on reads.
fn api_version(
    headers: &HeaderMap,
    token: Option<ApiVersion>,
    default: ApiVersion,
) -> Result<Dialect, ApiError> {
    let version = match headers.get("pretalx-version").map(HeaderValue::as_bytes) {
        None | Some(b"") => token.unwrap_or(default),
        Some(value) => ApiVersion::from_header(value).ok_or(ApiError::UnsupportedVersion)?,
    };
    Ok(version.dialect())
}

/// `?format=` naming a renderer other than JSON (`api`, `xml`, ...): the
/// versioned API of pretalx 2025 and 2026 has only the JSON renderer, and
/// DRF answers any other format 404. The legacy API ignores the parameter
/// (behaviour.md: never an HTML page). An empty value counts as absent;
/// of several, the last counts (Django's `QueryDict.get`).
fn asks_other_renderer(query: Option<&str>) -> bool {
    let format = form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .filter(|(name, _)| name == "format")
        .map(|(_, value)| value)
        .last();
    format.is_some_and(|value| !value.is_empty() && value != "json")
}

/// The configured base URL, else the request's scheme and Host.
fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(base) = &state.config.base_url {
        return base.trim_end_matches('/').to_string();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let scheme = headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
        .filter(|p| *p == "https" || *p == "http")
        .unwrap_or("http");
    format!("{scheme}://{host}")
}

/// Errors produced outside our handlers (axum's extractor rejections, e.g.
/// a path that is not valid UTF-8) become JSON too: `{"detail": <text>}`.
async fn as_json_error(response: Response) -> Response {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json || !(response.status().is_client_error() || response.status().is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let detail = match String::from_utf8_lossy(&text).trim() {
        "" => parts
            .status
            .canonical_reason()
            .unwrap_or("Error")
            .to_string(),
        text => text.to_string(),
    };
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = crate::json::json_bytes(&serde_json::json!({ "detail": detail }));
    Response::from_parts(parts, Body::from(body))
}
