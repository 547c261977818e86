//! The HTTP layer: routing, the transport rules every response follows
//! (behaviour.md §1, §2), and one module per resource.
//!
//! Each resource module exposes `endpoints()`: the path, its documentation
//! and its handler together. The router, `GET /api/` and the OpenAPI
//! document are all built from that one list, so they cannot disagree.

mod answers;
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
mod speakers;
mod submissions;
mod tags;
mod transport;

use std::net::SocketAddr;
use std::sync::Arc;

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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            base_url: None,
            max_page_size: 1000,
            response_cache_bytes: 192 << 20,
            list_cache_bytes: 64 << 20,
            cpu_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

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
            config: Arc::new(config),
            metrics: Default::default(),
        }
    }
}

/// One documented endpoint.
pub struct Endpoint {
    /// The path without its trailing slash, in axum syntax (`/api/events/{event}`).
    pub path: &'static str,
    pub summary: &'static str,
    /// Query parameters: (name, description).
    pub params: &'static [(&'static str, &'static str)],
    /// A paginated list (adds the pagination parameters and envelope).
    pub list: bool,
    /// The schema of the 200 body (of each result, for a list), from the
    /// view type the handler serialises.
    pub body: openapi::Body,
    pub handler: MethodRouter<AppState>,
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
    router
        .merge(exports::routes())
        .route("/healthz", axum::routing::get(meta::healthz))
        .route("/healthz/", axum::routing::get(meta::healthz))
        .route("/readyz", axum::routing::get(meta::readyz))
        .route("/readyz/", axum::routing::get(meta::readyz))
        .route("/metrics", axum::routing::get(metrics::render))
        .route("/metrics/", axum::routing::get(metrics::render))
        .fallback(context::fallback)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            transport::transport,
        ))
        .with_state(state)
}

/// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down");
}

pub fn json_bytes<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value)
        .unwrap_or_else(|_| b"{\"detail\": \"Internal server error.\"}".to_vec())
}

/// A 200 JSON response.
pub fn json<T: Serialize + ?Sized>(value: &T) -> Response {
    let mut response = json_bytes(value).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

pub type ApiResult = Result<Response, error::ApiError>;

/// The OpenAPI 3.1 document of every endpoint.
pub fn openapi_document() -> serde_json::Value {
    openapi::document(&endpoints())
}
