//! `/api/events/{event}/changes/`: the change feed (`domain::feed`), as a
//! page of generations, or with `Accept: text/event-stream` as a stream of
//! Server-Sent Events, one per new generation. Both show a caller only the
//! feed of their own viewer class: what changed in the lists they may see.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;

use super::connections::ThisConnection;
use super::context::{wants_stream, EventContext};
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::Params;
use super::state::AppState;
use crate::domain::access::Access;
use crate::domain::feed::{Audience, FeedEntry, FeedItem};
use crate::model::ArcStr;

const PARAMS: &[(&str, &str)] = &[(
    "since",
    "A generation: the changes after it, oldest first (without it, none: \
     `generation` says where to start)",
)];

const DOC: Doc = Doc {
    summary: "What changed in the lists the caller may see, per generation",
    params: PARAMS,
    shape: Shape::Feed,
    body: super::openapi::view::<FeedItem>,
};

pub fn endpoints() -> Vec<Endpoint> {
    vec![Endpoint {
        path: "/api/events/{event}/changes",
        legacy: Some(DOC),
        v1: Some(DOC),
        handler: get(changes),
    }]
}

/// A comment this often keeps proxies from closing a quiet stream.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A page of the feed: the list envelope plus the current generation.
#[derive(Serialize)]
struct FeedPage {
    count: usize,
    next: Option<String>,
    previous: Option<String>,
    generation: i64,
    results: Vec<Arc<FeedItem>>,
}

async fn changes(
    State(state): State<AppState>,
    ctx: EventContext,
    mut params: Params,
    request: Request,
) -> ApiResult {
    state.metrics.feed_requested();
    let since = params
        .natural("since")
        .map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    let streaming = wants_stream(request.headers());
    let last_event_id = match request.headers().get("last-event-id") {
        None => None,
        Some(value) => match value
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<i64>().ok())
        {
            Some(id) if id >= 0 => Some(id),
            _ => {
                params.error("Last-Event-ID", "A valid non-negative integer is required.");
                None
            }
        },
    };
    let pagination = (!streaming).then(|| ctx.pagination(&mut params, DEFAULT_PAGE_SIZE));
    params.check()?;
    let catalog = &ctx.caller.catalog;
    let feed = &catalog.feed;
    let generation = catalog.version.generation;
    let start = last_event_id.or(since);
    if let Some(start) = start {
        if start < feed.from {
            return Err(ApiError::Gone { oldest: feed.from });
        }
    }
    let slug = ctx.event.event.slug.to_lowercase();
    if streaming {
        let connection = request.extensions().get::<ThisConnection>().cloned();
        let user = ctx.caller.user_code.clone();
        return Ok(stream(
            state,
            user,
            slug,
            start.unwrap_or(generation),
            connection,
        ));
    }
    let audience = Audience::of(&ctx.access().viewer_class());
    let items: &[Arc<FeedEntry>] = match start {
        Some(since) => feed.after(&slug, &audience, since),
        None => &[],
    };
    let pagination = pagination.expect("pages when not streaming");
    let window = pagination.window(items.len())?;
    let page = pagination.page(
        items.len(),
        items[window].iter().map(|entry| entry.item()).collect(),
        &ctx.caller.link_base,
        &params,
    );
    Ok(json(&FeedPage {
        count: page.count,
        next: page.next,
        previous: page.previous,
        generation,
        results: page.results,
    }))
}

/// The stream's answer; a task per stream sends its events.
fn stream(
    state: AppState,
    user: Option<ArcStr>,
    slug: String,
    last: i64,
    connection: Option<ThisConnection>,
) -> Response {
    let (sender, receiver) = tokio::sync::mpsc::channel::<Bytes>(state.config.stream_buffer.max(1));
    tokio::spawn(send_events(state, user, slug, last, sender, connection));
    let body = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let bytes = receiver.recv().await?;
        Some((Ok::<_, std::convert::Infallible>(bytes), receiver))
    });
    let mut response = (StatusCode::OK, Body::from_stream(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // nginx buffers answers unless told not to.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// Counts the stream as open while it lives.
struct OpenStream(Arc<super::metrics::Metrics>);

impl Drop for OpenStream {
    fn drop(&mut self) {
        self.0.stream_closed();
    }
}

/// Sends the caller's generations after `last` as they are served, and a
/// comment every `KEEP_ALIVE`. Re-checks who the caller is on every new
/// catalog: the stream ends when their token, the event or their right to
/// see it is gone, when the server drains, or when the reader falls
/// `Config::stream_buffer` events behind (then the connection is cut: nothing is
/// buffered without bound).
async fn send_events(
    state: AppState,
    user: Option<ArcStr>,
    slug: String,
    mut last: i64,
    sender: tokio::sync::mpsc::Sender<Bytes>,
    connection: Option<ThisConnection>,
) {
    state.metrics.stream_opened();
    let _open = OpenStream(state.metrics.clone());
    let mut served = state.cache.subscribe();
    let cut = |reason: &str| {
        state.metrics.stream_cut();
        tracing::info!(event = %slug, reason, "change stream closed: its reader fell behind");
        if let Some(ThisConnection(slot)) = &connection {
            slot.cut();
        }
    };
    let send = |bytes: Bytes| match sender.try_send(bytes) {
        Ok(()) => Ok(()),
        Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => Err(true),
        Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => Err(false),
    };
    let mut quiet = Duration::ZERO;
    const TICK: Duration = Duration::from_secs(1);
    loop {
        if state.draining.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        if let Ok(catalog) = state.cache.current() {
            let Some(event) = catalog.event(&slug) else {
                return;
            };
            let caller = match &user {
                None => None,
                // A user who is gone (their token with them) reads no more.
                Some(code) => match catalog.user(code) {
                    Some(user) => Some(user),
                    None => return,
                },
            };
            let access = Access::new(event, caller, chrono::Utc::now());
            if !access.event_visible() || last < catalog.feed.from {
                return;
            }
            let audience = Audience::of(&access.viewer_class());
            for entry in catalog.feed.after(&slug, &audience, last) {
                let item = entry.item();
                let data = String::from_utf8(crate::json::json_bytes(&*item)).unwrap_or_default();
                let frame = format!("id: {}\ndata: {data}\n\n", item.generation);
                match send(Bytes::from(frame)) {
                    Ok(()) => last = item.generation,
                    Err(true) => return cut("buffer full"),
                    Err(false) => return,
                }
            }
        }
        tokio::select! {
            changed = served.changed() => if changed.is_err() { return },
            () = tokio::time::sleep(TICK) => {
                quiet += TICK;
                if quiet >= KEEP_ALIVE {
                    quiet = Duration::ZERO;
                    match send(Bytes::from_static(b": keep-alive\n\n")) {
                        Ok(()) => {}
                        Err(true) => return cut("buffer full"),
                        Err(false) => return,
                    }
                }
            }
            () = sender.closed() => return,
        }
    }
}
