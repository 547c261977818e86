//! What every resource module is made of: its endpoints (`Endpoint`, with
//! what each dialect answers there, `Doc` and `Shape`), and its handlers'
//! answers (`ApiResult`, `json`).

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use serde::Serialize;

use super::error::ApiError;
use super::openapi;
use super::state::AppState;

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
    pub fn doc(&self, api: crate::model::Dialect) -> Option<&Doc> {
        match api {
            crate::model::Dialect::Legacy => self.legacy.as_ref(),
            crate::model::Dialect::Versioned => self.v1.as_ref(),
        }
    }
}

pub type ApiResult = Result<Response, ApiError>;

/// A 200 JSON response.
pub fn json<T: Serialize + ?Sized>(value: &T) -> Response {
    let mut response = crate::json::json_bytes(value).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
