//! The HTTP layer: routing, the transport rules every response follows
//! (behaviour.md §1, §2), and one module per resource.
//!
//! Each resource module exposes `endpoints()`: the path, its documentation
//! and its handler together. The router, `GET /api/` and the OpenAPI
//! document are all built from that one list, so they cannot disagree.

mod answers;
mod changes;
pub mod connections;
mod context;
pub mod error;
mod events;
mod exports;
mod meta;
mod metrics;
mod openapi;
pub mod pagination;
pub mod params;
mod questions;
pub mod response_cache;
mod reviews;
mod rooms;
pub mod server;
mod speakers;
mod submissions;
mod tags;
mod transport;
mod v1;

use std::num::NonZeroU32;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Router;
use serde::Serialize;

use crate::cache::CatalogCache;
use crate::domain::visible::VisibleSets;

pub use context::{Caller, EventContext};

/// Settings of a running server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Public base URL for links (`https://cfp.example.org`); None: taken
    /// from each request's Host.
    pub base_url: Option<String>,
    pub max_page_size: usize,
    /// Memory for rendered answers, in bytes (0: every request renders).
    pub response_cache_bytes: u64,
    /// Memory for the lists' visible sets, in bytes (0: every list request
    /// filters its whole list).
    pub list_cache_bytes: u64,
    /// How many lists of big events may be computed at once, each on a
    /// blocking thread off the async workers (`EventContext::off_workers`).
    pub cpu_workers: usize,
    /// Requests per second per token, or per client address for anonymous
    /// callers and bad tokens (None: no limit).
    pub rate_limit: Option<NonZeroU32>,
    /// Longest a handler may take before the request answers 503.
    pub request_timeout: Duration,
    /// The dialect of requests that name none (`Pretalx-Version`) with a
    /// token that has none configured.
    pub api_version: crate::model::ApiVersion,
    /// Change-feed events a stream holds for a reader that does not keep
    /// up; one more and its connection is cut (`--stream-buffer`).
    pub stream_buffer: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            base_url: None,
            max_page_size: 1000,
            response_cache_bytes: 192 << 20,
            list_cache_bytes: 64 << 20,
            cpu_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            rate_limit: None,
            request_timeout: Duration::from_secs(30),
            api_version: crate::model::ApiVersion::Legacy,
            stream_buffer: changes::STREAM_BUFFER,
        }
    }
}

/// Callers as the rate limit tells them apart.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RateKey {
    User(crate::model::ArcStr),
    Address(std::net::IpAddr),
    /// No peer address known (only in tests that call the router directly).
    Unknown,
}

pub type RateLimiter = governor::DefaultKeyedRateLimiter<RateKey>;

#[derive(Clone)]
pub struct AppState {
    pub cache: Arc<CatalogCache>,
    pub config: Arc<Config>,
    pub metrics: Arc<metrics::Metrics>,
    /// Rendered answers by data version, visibility class and request.
    pub responses: Arc<response_cache::ResponseCache>,
    /// Ordered visible sets of the lists, by data version and class.
    pub visible: Arc<VisibleSets>,
    /// Permits for CPU-heavy work off the async workers (`Config::cpu_workers`).
    pub cpu: Arc<tokio::sync::Semaphore>,
    /// `--rate-limit`: one budget per caller.
    pub limiter: Option<Arc<RateLimiter>>,
    /// Set on SIGTERM: `/readyz` answers 503 and every answer closes its
    /// connection (`server::serve_with`).
    pub draining: Arc<AtomicBool>,
    /// The webhook sender's figures (`webhooks::start`), for `/metrics`.
    pub webhooks: Arc<crate::webhooks::Stats>,
}

impl AppState {
    pub fn new(cache: Arc<CatalogCache>, config: Config) -> Self {
        AppState {
            cache,
            responses: Arc::new(response_cache::ResponseCache::new(
                config.response_cache_bytes,
            )),
            visible: Arc::new(VisibleSets::new(config.list_cache_bytes)),
            cpu: Arc::new(tokio::sync::Semaphore::new(config.cpu_workers.max(1))),
            limiter: config
                .rate_limit
                .map(|n| Arc::new(RateLimiter::keyed(governor::Quota::per_second(n)))),
            draining: Arc::new(AtomicBool::new(false)),
            webhooks: Arc::default(),
            config: Arc::new(config),
            metrics: Default::default(),
        }
    }
}

/// One endpoint: its path and handler, and what each dialect of the API
/// (`Pretalx-Version`) answers there. The router, `GET /api/` and both
/// OpenAPI documents come from this one list.
pub struct Endpoint {
    /// The path without its trailing slash, in axum syntax (`/api/events/{event}`).
    pub path: &'static str,
    /// The legacy dialect's answer; None: the path is v1's only (404).
    pub legacy: Option<Doc>,
    /// v1's answer; None: v1 does not serve the path (404).
    pub v1: Option<Doc>,
    pub handler: MethodRouter<AppState>,
}

/// What one dialect answers on an endpoint, for its OpenAPI document.
#[derive(Clone, Copy)]
pub struct Doc {
    pub summary: &'static str,
    /// Query parameters: (name, description).
    pub params: &'static [(&'static str, &'static str)],
    pub shape: Shape,
    /// The schema of the 200 body (of each result, for a list), from the
    /// view type the handler serialises.
    pub body: openapi::Body,
}

/// The form of a 200 answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// One object.
    One,
    /// A list in the pagination envelope, by `page`/`page_size` (and by
    /// `limit`/`offset`).
    Page,
    /// A list in the envelope, by `limit`/`offset` only (v1's rooms).
    Offset,
    /// A bare JSON array (v1's events).
    Array,
    /// No body: `301` to the same object elsewhere (v1's talks).
    MovedPermanently,
    /// The change feed: the page envelope plus `generation`, paged by
    /// `page`/`page_size` (and `limit`/`offset`) in both dialects.
    Feed,
}

impl Endpoint {
    /// The documentation of `api`'s dialect, when it serves the path.
    pub fn doc(&self, api: crate::model::ApiVersion) -> Option<&Doc> {
        match api {
            crate::model::ApiVersion::Legacy => self.legacy.as_ref(),
            crate::model::ApiVersion::V1 => self.v1.as_ref(),
        }
    }
}

fn endpoints() -> Vec<Endpoint> {
    let mut all = Vec::new();
    all.extend(meta::endpoints());
    all.extend(events::endpoints());
    all.extend(submissions::endpoints());
    all.extend(speakers::endpoints());
    all.extend(questions::endpoints());
    all.extend(answers::endpoints());
    all.extend(reviews::endpoints());
    all.extend(rooms::endpoints());
    all.extend(tags::endpoints());
    all.extend(changes::endpoints());
    all.extend(v1::endpoints());
    all
}

pub fn router(state: AppState) -> Router {
    let mut router = Router::new();
    for endpoint in endpoints() {
        // Every path answers with and without its trailing slash, the same
        // way and without a redirect (clients use both shapes).
        router = router
            .route(endpoint.path, endpoint.handler.clone())
            .route(&format!("{}/", endpoint.path), endpoint.handler);
    }
    let router = router
        .merge(exports::routes())
        .route("/healthz", axum::routing::get(meta::healthz))
        .route("/healthz/", axum::routing::get(meta::healthz))
        .route("/readyz", axum::routing::get(meta::readyz))
        .route("/readyz/", axum::routing::get(meta::readyz))
        .route("/metrics", axum::routing::get(metrics::render))
        .route("/metrics/", axum::routing::get(metrics::render))
        .fallback(context::fallback);
    // Inside `transport`, so that these answers are logged and counted too.
    with_guards(router, state.config.request_timeout)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            transport::transport,
        ))
        .with_state(state)
}

/// Around every handler: a panic answers 500 and a handler running longer
/// than `timeout` answers 503, both as JSON from the error table. (A
/// timeout can cut a handler only where it awaits.)
fn with_guards<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
    timeout: Duration,
) -> Router<S> {
    async fn on_error(err: tower::BoxError) -> Response {
        if err.is::<tower::timeout::error::Elapsed>() {
            error::ApiError::Timeout.into_response()
        } else {
            error::ApiError::Internal(err.to_string()).into_response()
        }
    }
    router.layer(
        tower::ServiceBuilder::new()
            .layer(axum::error_handling::HandleErrorLayer::new(on_error))
            .timeout(timeout)
            .layer(tower_http::catch_panic::CatchPanicLayer::custom(
                |_: Box<dyn std::any::Any + Send>| {
                    error::ApiError::Internal("a handler panicked".into()).into_response()
                },
            )),
    )
}

/// Serves until Ctrl-C or SIGTERM with the default connection settings,
/// then drains and stops (`server::serve_with`).
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    server::serve_with(
        listener,
        state,
        server::ServeOptions::default(),
        server::shutdown_signal(),
    )
    .await
}

/// A 200 JSON response.
pub fn json<T: Serialize + ?Sized>(value: &T) -> Response {
    let mut response = crate::json::json_bytes(value).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

pub type ApiResult = Result<Response, error::ApiError>;

/// The OpenAPI 3.1 document of one dialect: every endpoint it serves.
pub fn openapi_document(api: crate::model::ApiVersion) -> serde_json::Value {
    openapi::document(&endpoints(), api)
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    async fn call(router: Router, path: &str) -> (StatusCode, HeaderValue, serde_json::Value) {
        let response = router
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE].clone();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, content_type, serde_json::from_slice(&body).unwrap())
    }

    /// A handler that runs past the request timeout answers 503 in JSON; a
    /// handler that panics answers 500 in JSON (and the server goes on).
    #[tokio::test]
    async fn slow_and_panicking_handlers_get_json_errors() {
        async fn slow() -> &'static str {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        }
        async fn panics() -> &'static str {
            panic!("a bug")
        }
        let router = with_guards(
            Router::new()
                .route("/slow", get(slow))
                .route("/panics", get(panics))
                .route(
                    "/fast",
                    get(|| async { json(&serde_json::json!({"ok": true})) }),
                ),
            Duration::from_millis(50),
        );
        let started = std::time::Instant::now();
        assert_eq!(
            call(router.clone(), "/slow").await,
            (
                StatusCode::SERVICE_UNAVAILABLE,
                HeaderValue::from_static("application/json"),
                serde_json::json!({"detail": "The request took too long."})
            )
        );
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(
            call(router.clone(), "/panics").await,
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                HeaderValue::from_static("application/json"),
                serde_json::json!({"detail": "Internal server error."})
            )
        );
        assert_eq!(
            call(router, "/fast").await,
            (
                StatusCode::OK,
                HeaderValue::from_static("application/json"),
                serde_json::json!({"ok": true})
            )
        );
    }
}
