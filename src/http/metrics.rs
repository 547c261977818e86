//! `/metrics`: request counts by status and a latency histogram, in the
//! Prometheus text format.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::response_cache::ResponseCache;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5,
];
const CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

#[derive(Default)]
pub struct Metrics {
    by_class: [AtomicU64; 5],
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
    connections_open: AtomicU64,
    connections_refused: AtomicU64,
    connections_reclaimed: AtomicU64,
    throttled: AtomicU64,
    feed_requests: AtomicU64,
    streams_open: AtomicU64,
    streams_cut: AtomicU64,
}

impl Metrics {
    pub fn record(&self, status: StatusCode, elapsed: Duration) {
        let class = (status.as_u16() / 100).clamp(1, 5) as usize - 1;
        self.by_class[class].fetch_add(1, Ordering::Relaxed);
        let seconds = elapsed.as_secs_f64();
        for (bound, bucket) in BUCKETS.iter().zip(&self.buckets) {
            if seconds <= *bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros
            .fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    }

    pub fn connection_opened(&self) {
        self.connections_open.fetch_add(1, Ordering::Relaxed);
    }

    pub fn connection_closed(&self) {
        self.connections_open.fetch_sub(1, Ordering::Relaxed);
    }

    /// A connection over `--max-connections`.
    pub fn connection_refused(&self) {
        self.connections_refused.fetch_add(1, Ordering::Relaxed);
    }

    /// An idle connection closed to make room for a new one.
    pub fn connection_reclaimed(&self) {
        self.connections_reclaimed.fetch_add(1, Ordering::Relaxed);
    }

    /// A request over `--rate-limit`.
    pub fn throttled(&self) {
        self.throttled.fetch_add(1, Ordering::Relaxed);
    }

    /// A change feed asked for (a page, or a stream opened).
    pub fn feed_requested(&self) {
        self.feed_requests.fetch_add(1, Ordering::Relaxed);
    }

    pub fn stream_opened(&self) {
        self.streams_open.fetch_add(1, Ordering::Relaxed);
    }

    pub fn stream_closed(&self) {
        self.streams_open.fetch_sub(1, Ordering::Relaxed);
    }

    /// A stream whose reader fell too far behind, closed.
    pub fn stream_cut(&self) {
        self.streams_cut.fetch_add(1, Ordering::Relaxed);
    }

    /// The `/metrics` answer (`meta::metrics`).
    pub fn render(
        &self,
        cache: &crate::cache::CatalogCache,
        responses: &ResponseCache,
        webhooks: &crate::webhooks::Stats,
    ) -> Response {
        let generation = cache.cached_generation();
        let mut text = self.text(generation, cache, responses);
        webhook_text(webhooks, &mut text);
        let mut response = text.into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        );
        response
    }

    fn text(
        &self,
        generation: i64,
        cache: &crate::cache::CatalogCache,
        responses: &ResponseCache,
    ) -> String {
        let mut out = String::new();
        out.push_str("# HELP confapi_requests_total HTTP requests answered, by status class.\n");
        out.push_str("# TYPE confapi_requests_total counter\n");
        for (class, counter) in CLASSES.iter().zip(&self.by_class) {
            let _ = writeln!(
                out,
                "confapi_requests_total{{status=\"{class}\"}} {}",
                counter.load(Ordering::Relaxed)
            );
        }
        out.push_str("# HELP confapi_request_duration_seconds Time to answer a request.\n");
        out.push_str("# TYPE confapi_request_duration_seconds histogram\n");
        for (bound, bucket) in BUCKETS.iter().zip(&self.buckets) {
            let _ = writeln!(
                out,
                "confapi_request_duration_seconds_bucket{{le=\"{bound}\"}} {}",
                bucket.load(Ordering::Relaxed)
            );
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "confapi_request_duration_seconds_bucket{{le=\"+Inf\"}} {count}"
        );
        let _ = writeln!(
            out,
            "confapi_request_duration_seconds_sum {}",
            self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6
        );
        let _ = writeln!(out, "confapi_request_duration_seconds_count {count}");
        out.push_str(
            "# HELP confapi_data_generation Storage generation of the data being served.\n",
        );
        out.push_str("# TYPE confapi_data_generation gauge\n");
        let _ = writeln!(out, "confapi_data_generation {generation}");
        let stats = &cache.stats;
        let counters = [
            (
                "confapi_reloads_total",
                "Catalog reloads (each loads what changed).",
                &stats.reloads,
            ),
            (
                "confapi_reload_events_rebuilt_total",
                "Events rebuilt by reloads.",
                &stats.events_rebuilt,
            ),
            (
                "confapi_reload_events_patched_total",
                "Events rebuilt from only the records changed since the last snapshot.",
                &stats.events_patched,
            ),
            (
                "confapi_storage_poll_failures_total",
                "Storage polls that failed.",
                &stats.poll_failures,
            ),
        ];
        let response_counters = [
            (
                "confapi_response_cache_hits_total",
                "Answers sent from the response cache.",
                &responses.hits,
            ),
            (
                "confapi_response_cache_misses_total",
                "Cacheable answers that had to be rendered.",
                &responses.misses,
            ),
        ];
        let transport_counters = [
            (
                "confapi_connections_refused_total",
                "Connections answered 503 or closed at once: over --max-connections.",
                &self.connections_refused,
            ),
            (
                "confapi_connections_reclaimed_total",
                "Connections with no request in flight closed to make room for a new one.",
                &self.connections_reclaimed,
            ),
            (
                "confapi_requests_throttled_total",
                "Requests answered 429: over --rate-limit.",
                &self.throttled,
            ),
            (
                "confapi_feed_requests_total",
                "Change feed requests (pages and streams).",
                &self.feed_requests,
            ),
            (
                "confapi_feed_streams_cut_total",
                "Change feed streams closed because their reader fell behind.",
                &self.streams_cut,
            ),
        ];
        for (name, help, counter) in counters
            .into_iter()
            .chain(response_counters)
            .chain(transport_counters)
        {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter");
            let _ = writeln!(out, "{name} {}", counter.load(Ordering::Relaxed));
        }
        out.push_str("# HELP confapi_last_reload_seconds Duration of the last reload.\n");
        out.push_str("# TYPE confapi_last_reload_seconds gauge\n");
        let _ = writeln!(
            out,
            "confapi_last_reload_seconds {}",
            stats.last_reload_micros.load(Ordering::Relaxed) as f64 / 1e6
        );
        out.push_str(
            "# HELP confapi_response_cache_bytes Memory held by cached answers (weighted).\n",
        );
        out.push_str("# TYPE confapi_response_cache_bytes gauge\n");
        let _ = writeln!(
            out,
            "confapi_response_cache_bytes {}",
            responses.weighted_size()
        );
        out.push_str("# HELP confapi_connections_open Connections being served.\n");
        out.push_str("# TYPE confapi_connections_open gauge\n");
        let _ = writeln!(
            out,
            "confapi_connections_open {}",
            self.connections_open.load(Ordering::Relaxed)
        );
        out.push_str(
            "# HELP confapi_feed_streams_open Change feed streams (Server-Sent Events) open.\n",
        );
        out.push_str("# TYPE confapi_feed_streams_open gauge\n");
        let _ = writeln!(
            out,
            "confapi_feed_streams_open {}",
            self.streams_open.load(Ordering::Relaxed)
        );
        if let Some(age) = cache.snapshot_age() {
            out.push_str(
                "# HELP confapi_snapshot_age_seconds Time since the served data was last confirmed current.\n",
            );
            out.push_str("# TYPE confapi_snapshot_age_seconds gauge\n");
            let _ = writeln!(out, "confapi_snapshot_age_seconds {age}");
        }
        out
    }
}

/// The webhook sender's figures, one series per subscription.
fn webhook_text(stats: &crate::webhooks::Stats, out: &mut String) {
    let all = stats.snapshot();
    if all.is_empty() {
        return;
    }
    out.push_str("# HELP confapi_webhook_deliveries_total Webhook deliveries by outcome (sent; failed attempts; dropped after failing for 72 hours).\n");
    out.push_str("# TYPE confapi_webhook_deliveries_total counter\n");
    for (id, s) in &all {
        for (outcome, n) in [
            ("sent", s.sent),
            ("failed", s.failed),
            ("dropped", s.dropped),
        ] {
            let _ = writeln!(
                out,
                "confapi_webhook_deliveries_total{{subscription=\"{id}\",event=\"{}\",outcome=\"{outcome}\"}} {n}",
                s.event
            );
        }
    }
    out.push_str("# HELP confapi_webhook_pending Generations with changes not yet delivered.\n");
    out.push_str("# TYPE confapi_webhook_pending gauge\n");
    for (id, s) in &all {
        let _ = writeln!(
            out,
            "confapi_webhook_pending{{subscription=\"{id}\",event=\"{}\"}} {}",
            s.event, s.pending
        );
    }
    out.push_str("# HELP confapi_webhook_oldest_pending_seconds Age of the oldest generation not yet delivered.\n");
    out.push_str("# TYPE confapi_webhook_oldest_pending_seconds gauge\n");
    for (id, s) in &all {
        let _ = writeln!(
            out,
            "confapi_webhook_oldest_pending_seconds{{subscription=\"{id}\",event=\"{}\"}} {}",
            s.event, s.oldest_pending_seconds
        );
    }
}
