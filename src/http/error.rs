//! The one error type of the HTTP layer. Every failure a handler can meet
//! maps to a status and a JSON body in `into_response`, and nowhere else.

use std::collections::BTreeMap;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::storage::StoreError;

/// The `Vary` header of every answer (`transport`; also of the errors
/// written raw, `to_http1`). `Pretalx-Version` picks the dialect
/// (pretalx sends no `Vary` for it, so a shared cache could mix shapes).
pub const VARY: &str = "Accept, Accept-Encoding, Authorization, Pretalx-Version";

/// The body of every error but bad parameters: `{"detail": "..."}`.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    pub detail: String,
}

#[derive(Debug)]
pub enum ApiError {
    /// A bad or unknown token, or a malformed `Authorization` header.
    InvalidToken,
    /// An event that does not exist or that the caller may not see: the same
    /// answer for both, so existence does not leak.
    EventNotVisible,
    NotFound,
    /// `page=0` or past the last page.
    InvalidPage,
    MethodNotAllowed(String),
    /// One message list per bad query parameter.
    BadParameters(BTreeMap<String, Vec<String>>),
    /// The database is unreachable; retrying later may work.
    Unavailable(String),
    Internal(String),
    /// A request hyper could not parse (a raw space or `<` in the target, a
    /// bad header line); written by `server::JsonParseErrors`.
    MalformedRequest,
    /// A request target longer than hyper's limit (64 KiB).
    UriTooLong,
    /// Request headers over hyper's limits (about 400 KB, or 100 headers).
    HeadersTooLarge,
    /// A request body larger than any endpoint takes (announced, or read).
    PayloadTooLarge,
    /// A request body of unknown length (chunked) that did not end in time.
    BodyTimeout,
    /// Over `--rate-limit`; the caller may retry after this many seconds.
    Throttled {
        retry_after_secs: u64,
    },
    /// The request ran longer than `--request-timeout-ms`.
    Timeout,
    /// More connections than `--max-connections`.
    TooManyConnections,
    /// Draining after SIGTERM: `/readyz` says so.
    ShuttingDown,
    /// A `Pretalx-Version` other than `v2`, `v-next`, `v1` and `LEGACY`.
    UnsupportedVersion,
    /// v1: an anonymous caller asked for what only some roles may read.
    NotAuthenticated,
    /// A change feed asked for since a generation no longer kept.
    Gone {
        oldest: i64,
    },
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Unavailable(m) => ApiError::Unavailable(m),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::InvalidToken | ApiError::NotAuthenticated => StatusCode::UNAUTHORIZED,
            ApiError::EventNotVisible => StatusCode::FORBIDDEN,
            ApiError::Gone { .. } => StatusCode::GONE,
            ApiError::NotFound | ApiError::InvalidPage => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::BadParameters(_) | ApiError::UnsupportedVersion => StatusCode::BAD_REQUEST,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::MalformedRequest => StatusCode::BAD_REQUEST,
            ApiError::UriTooLong => StatusCode::URI_TOO_LONG,
            ApiError::HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::Throttled { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Timeout | ApiError::TooManyConnections | ApiError::ShuttingDown => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        }
    }

    fn body(&self) -> serde_json::Value {
        match self {
            ApiError::InvalidToken => json!({"detail": "Invalid token."}),
            ApiError::EventNotVisible => {
                json!({"detail": "You do not have permission to perform this action."})
            }
            ApiError::NotFound => json!({"detail": "Not found."}),
            ApiError::InvalidPage => json!({"detail": "Invalid page."}),
            ApiError::MethodNotAllowed(method) => {
                json!({"detail": format!("Method \"{method}\" not allowed.")})
            }
            ApiError::BadParameters(errors) => json!(errors),
            ApiError::Unavailable(_) => {
                json!({"detail": "The service is temporarily unavailable, please retry."})
            }
            ApiError::Internal(_) => json!({"detail": "Internal server error."}),
            ApiError::MalformedRequest => json!({"detail": "Malformed request."}),
            ApiError::UriTooLong => json!({"detail": "Request URI too long."}),
            ApiError::HeadersTooLarge => json!({"detail": "Request headers too large."}),
            ApiError::PayloadTooLarge => json!({"detail": "Request body too large."}),
            ApiError::BodyTimeout => json!({"detail": "The request body took too long."}),
            // Django REST framework's wording, which pretalx clients know.
            ApiError::Throttled { retry_after_secs } => json!({"detail": format!(
                "Request was throttled. Expected available in {retry_after_secs} second{}.",
                if *retry_after_secs == 1 { "" } else { "s" }
            )}),
            ApiError::Timeout => json!({"detail": "The request took too long."}),
            ApiError::TooManyConnections => {
                json!({"detail": "Too many connections, please retry."})
            }
            ApiError::ShuttingDown => json!({"detail": "Shutting down."}),
            // pretalx's wording.
            ApiError::UnsupportedVersion => json!({"detail": "API version not supported."}),
            ApiError::NotAuthenticated => {
                json!({"detail": "Authentication credentials were not provided."})
            }
            ApiError::Gone { oldest } => json!({
                "detail": format!(
                    "The changes of that generation are no longer kept; ask since {oldest} or later, after reading the lists again."
                ),
                "oldest": oldest,
            }),
        }
    }

    /// Status, headers and body: what `into_response` sends, also written
    /// raw by the server where no handler runs (`to_http1`).
    fn parts(&self) -> (StatusCode, HeaderMap, Vec<u8>) {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        match self {
            ApiError::InvalidToken | ApiError::NotAuthenticated => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Token"));
            }
            ApiError::MethodNotAllowed(_) => {
                headers.insert(
                    header::ALLOW,
                    HeaderValue::from_static("GET, HEAD, OPTIONS"),
                );
            }
            ApiError::Unavailable(_) | ApiError::TooManyConnections => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            ApiError::Throttled { retry_after_secs } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
            }
            _ => {}
        }
        (
            self.status(),
            headers,
            crate::json::json_bytes(&self.body()),
        )
    }

    /// The whole HTTP/1.1 response, for errors written where no handler
    /// runs (hyper's parse errors, connections over the limit). It closes
    /// the connection, and carries the headers every answer has
    /// (`transport`), with `date` when one is given.
    pub fn to_http1(&self, date: Option<&[u8]>) -> Vec<u8> {
        let (status, headers, body) = self.parts();
        let mut out = format!(
            "HTTP/1.1 {} {}\r\n",
            status.as_u16(),
            status.canonical_reason().unwrap_or("Error")
        )
        .into_bytes();
        let mut line = |name: &[u8], value: &[u8]| {
            out.extend_from_slice(name);
            out.extend_from_slice(b": ");
            out.extend_from_slice(value);
            out.extend_from_slice(b"\r\n");
        };
        for (name, value) in &headers {
            line(name.as_str().as_bytes(), value.as_bytes());
        }
        line(b"vary", VARY.as_bytes());
        line(b"access-control-allow-origin", b"*");
        line(b"connection", b"close");
        line(b"content-length", body.len().to_string().as_bytes());
        if let Some(date) = date {
            line(b"date", date);
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&body);
        out
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match &self {
            ApiError::Internal(m) => tracing::error!(error = %m, "internal error"),
            // Not ready yet, or the database is gone: an operating state that
            // the poller logs once, not a fault per request.
            ApiError::Unavailable(m) => tracing::debug!(error = %m, "unavailable"),
            _ => {}
        }
        let (status, headers, body) = self.parts();
        let mut response = (status, body).into_response();
        for (name, value) in headers {
            if let Some(name) = name {
                response.headers_mut().insert(name, value);
            }
        }
        response
    }
}
