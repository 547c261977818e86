//! Per-request context: who is calling (set by the transport middleware
//! from the `Authorization` header) and, for `/api/events/{event}/…`, the
//! event with the caller's rights in it.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Uri};
use tokio::sync::Semaphore;

use super::endpoint::{json, ApiResult};
use super::error::ApiError;
use super::pagination::Pagination;
use super::params::Params;
use super::state::AppState;
use crate::domain::access::Access;
use crate::domain::catalog::{Catalog, EventData};
use crate::domain::views::Renderer;
use crate::domain::visible::{SetKey, VisibleSets};
use crate::model::{Timestamp, User};

/// The authenticated caller and the catalog the request is served from.
#[derive(Clone)]
pub struct Caller {
    pub catalog: Arc<Catalog>,
    /// User code; None for anonymous callers.
    pub user_code: Option<crate::model::ArcStr>,
    /// The API dialect the request gets (`Pretalx-Version`).
    pub api: crate::model::Dialect,
    /// The dialect the caller gets without a `Pretalx-Version` header: their
    /// token's configured version, else the server's default.
    pub default_api: crate::model::Dialect,
    pub now: Timestamp,
    /// The public origin: the configured base URL, else the request's
    /// scheme and Host (for event `urls`).
    pub base_url: String,
    /// Absolute URL of the request's own path, for `next`/`previous` links.
    pub link_base: String,
}

impl Caller {
    pub fn user(&self) -> Option<&User> {
        self.user_code
            .as_deref()
            .and_then(|code| self.catalog.user(code))
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        _state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Caller>()
            .cloned()
            .ok_or_else(|| ApiError::Internal("the transport layer set no caller".into()))
    }
}

/// The `{event}` segment of `/api/events/{event}/…`, percent-decoded.
pub(super) fn event_slug(uri: &Uri) -> Option<String> {
    let mut segments = uri.path().split('/').filter(|s| !s.is_empty());
    if segments.next() != Some("api") || segments.next() != Some("events") {
        return None;
    }
    let raw = segments.next()?;
    Some(
        percent_encoding::percent_decode_str(raw)
            .decode_utf8_lossy()
            .into_owned(),
    )
}

/// Whether the request asks for an event stream (`Accept:
/// text/event-stream`): the change feed answers it so (`changes`), and
/// the transport layer neither caches nor collects it.
pub fn wants_stream(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.to_ascii_lowercase().contains("text/event-stream"))
}

/// A request inside one event the caller may see.
pub struct EventContext {
    pub caller: Caller,
    pub event: Arc<EventData>,
    pub max_page_size: usize,
    visible: Arc<VisibleSets>,
    cpu: Arc<Semaphore>,
}

/// Pages of at most this many items are cheap to render.
pub const CHEAP_PAGE_ITEMS: usize = 100;

const PAGINATION_PARAMS: [&str; 4] = ["page", "page_size", "limit", "offset"];

/// The page asks for at most [`CHEAP_PAGE_ITEMS`] items (or an invalid
/// size, which is an error answered at once).
fn cheap_page(params: &Params) -> bool {
    ["page_size", "limit"].iter().all(|name| {
        params
            .get(name)
            .and_then(|v| v.parse::<usize>().ok())
            .is_none_or(|size| size <= CHEAP_PAGE_ITEMS)
    })
}

/// Events with more items than this (submissions, answers, speakers and
/// reviews together) have their lists computed off the async workers.
pub const BIG_EVENT_ITEMS: usize = 2_000;

impl FromRequestParts<AppState> for EventContext {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let slug = event_slug(&parts.uri).ok_or(ApiError::NotFound)?;
        let event = visible_event(&caller, &slug)?;
        Ok(EventContext {
            caller,
            event,
            max_page_size: state.config.max_page_size,
            visible: state.visible.clone(),
            cpu: state.cpu.clone(),
        })
    }
}

/// The event, if it exists and the caller may see it; the same 403
/// otherwise (v1: the same 404, pretalx-v1.md §13 item 3).
fn visible_event(caller: &Caller, slug: &str) -> Result<Arc<EventData>, ApiError> {
    let refused = || match caller.api {
        crate::model::Dialect::Versioned => ApiError::NotFound,
        crate::model::Dialect::Legacy => ApiError::EventNotVisible,
    };
    let event = caller.catalog.event(slug).ok_or_else(refused)?;
    if Access::new(event, caller.user(), caller.now).event_visible() {
        Ok(event.clone())
    } else {
        Err(refused())
    }
}

impl EventContext {
    /// Whether lists of this event are worth computing off the async workers.
    pub fn is_big(&self) -> bool {
        let event = &self.event.event;
        event.submissions.len() + event.answers.len() + event.speakers.len() + event.reviews.len()
            > BIG_EVENT_ITEMS
    }

    /// Runs `work` (filtering, searching, rendering a page: CPU only) so
    /// that it cannot hold up other requests: for a big event, on a
    /// blocking thread, at most `Config::cpu_workers` at once (the others
    /// wait for a permit without occupying an async worker); for a small
    /// one, right here, as handing it off would cost more than it does.
    /// Requests to small events therefore never wait behind big searches.
    ///
    /// A page of a list whose visible set this class has already computed
    /// (same filters and search, this data version) is a slice and at most
    /// [`CHEAP_PAGE_ITEMS`] renders: it runs right here too, since the hop
    /// to a blocking thread would cost a third of its throughput.
    pub async fn off_workers(
        self,
        list: &'static str,
        params: Params,
        work: impl FnOnce(&EventContext, Params) -> ApiResult + Send + 'static,
    ) -> ApiResult {
        if !self.is_big() {
            return work(&self, params);
        }
        let shape = self.list_shape(list, &params);
        if cheap_page(&params) && self.visible.is_computed(&shape) {
            return work(&self, params);
        }
        let permit = self
            .cpu
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::Internal("the CPU pool is closed".into()))?;
        let visible = self.visible.clone();
        let result = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&self, params)
        })
        .await
        .map_err(|err| ApiError::Internal(format!("a list computation failed: {err}")))?;
        if result.is_ok() {
            visible.mark_computed(shape);
        }
        result
    }

    /// The list as this class asks for it, pages aside: the query's pairs
    /// without the pagination parameters, in order.
    fn list_shape(&self, list: &'static str, params: &Params) -> SetKey {
        let filters = params
            .pairs
            .iter()
            .filter(|(k, _)| !PAGINATION_PARAMS.contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&");
        SetKey {
            version: self.caller.catalog.version.clone(),
            event: self.event.event.slug.to_lowercase(),
            class: self.access().viewer_class(),
            list,
            filters,
        }
    }

    pub fn access(&self) -> Access<'_> {
        Access::new(&self.event, self.caller.user(), self.caller.now)
    }

    pub fn renderer<'a>(&'a self, access: &'a Access<'a>) -> Renderer<'a> {
        Renderer {
            access,
            users: &self.caller.catalog.users,
            speaker_users: self.caller.catalog.speaker_users(&self.event),
        }
    }

    /// The list's items that `access` may see, in list order, after
    /// `filters` (their canonical form, which `compute` must apply): kept
    /// per data version and visibility class, so that every page after the
    /// first of a class is a slice.
    pub fn visible_set<I: Send + Sync + 'static>(
        &self,
        access: &Access,
        list: &'static str,
        filters: String,
        compute: impl FnOnce() -> Vec<I>,
    ) -> Arc<Vec<I>> {
        let key = SetKey {
            version: self.caller.catalog.version.clone(),
            event: self.event.event.slug.to_lowercase(),
            class: access.viewer_class(),
            list,
            filters,
        };
        self.visible.get_or_compute(key, compute)
    }

    pub fn pagination(&self, params: &mut Params, default_size: usize) -> Pagination {
        Pagination::from_params(params, default_size, self.max_page_size)
    }
}

/// Unknown paths: 404, except inside an event the caller may not see (403,
/// so that the existence of events does not leak through sub-paths).
pub async fn fallback(caller: Caller, uri: Uri) -> ApiError {
    match event_slug(&uri) {
        Some(slug) => match visible_event(&caller, &slug) {
            Ok(_) => ApiError::NotFound,
            Err(err) => err,
        },
        None => ApiError::NotFound,
    }
}

impl Caller {
    /// Renders the requested page of `items` into the list envelope.
    pub fn page<T, R: serde::Serialize>(
        &self,
        params: &Params,
        pagination: Pagination,
        items: &[T],
        render: impl FnMut(&T) -> R,
    ) -> ApiResult {
        self.page_prepared(params, pagination, items, |_| {}, render)
    }

    /// `page`, handing the page's items to `prepare` before any is
    /// rendered (to prefetch what their views read).
    pub fn page_prepared<T, R: serde::Serialize>(
        &self,
        params: &Params,
        pagination: Pagination,
        items: &[T],
        prepare: impl FnOnce(&[T]),
        render: impl FnMut(&T) -> R,
    ) -> ApiResult {
        let window = pagination.window(items.len())?;
        prepare(&items[window.clone()]);
        let results = Rendered {
            items: &items[window],
            render: std::cell::RefCell::new(render),
        };
        Ok(json(&pagination.page(
            items.len(),
            results,
            &self.link_base,
            params,
        )))
    }
}

/// A page's items, each rendered as it is written: its view is serialised
/// while what it read is still in cache, and the memory of its lists is
/// reused by the next item's (building the whole page's views first cost
/// both: docs/bench-log.md).
struct Rendered<'i, T, F> {
    items: &'i [T],
    render: std::cell::RefCell<F>,
}

impl<T, R: serde::Serialize, F: FnMut(&T) -> R> serde::Serialize for Rendered<'_, T, F> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut render = self.render.borrow_mut();
        serializer.collect_seq(self.items.iter().map(|item| (*render)(item)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_of_up_to_a_hundred_items_are_cheap() {
        for query in [
            "",
            "page=4000",
            "page_size=100",
            "limit=20&offset=99999",
            "page_size=abc",
            "page_size=",
        ] {
            assert!(cheap_page(&Params::parse(query)), "{query}");
        }
        for query in ["page_size=101", "limit=1000", "page_size=20&limit=500"] {
            assert!(!cheap_page(&Params::parse(query)), "{query}");
        }
    }
}
