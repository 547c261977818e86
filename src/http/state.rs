//! What a running server holds: its settings (`Config`) and the state
//! every handler and layer shares (`AppState`).

use std::num::NonZeroU32;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::metrics::Metrics;
use super::response_cache::ResponseCache;
use crate::cache::CatalogCache;
use crate::domain::visible::VisibleSets;

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
            stream_buffer: STREAM_BUFFER,
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
    pub metrics: Arc<Metrics>,
    /// Rendered answers by data version, visibility class and request.
    pub responses: Arc<ResponseCache>,
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
            responses: Arc::new(ResponseCache::new(config.response_cache_bytes)),
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

/// Events a stream holds by default for a reader that does not keep up
/// (`Config::stream_buffer`); one more and the connection is closed (the
/// reader reconnects with `Last-Event-ID`).
pub const STREAM_BUFFER: usize = 64;
