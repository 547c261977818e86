//! The one error type of the HTTP layer. Every failure a handler can meet
//! maps to a status and a JSON body in `into_response`, and nowhere else.

use std::collections::BTreeMap;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::storage::StoreError;

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
            ApiError::InvalidToken => StatusCode::UNAUTHORIZED,
            ApiError::EventNotVisible => StatusCode::FORBIDDEN,
            ApiError::NotFound | ApiError::InvalidPage => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::BadParameters(_) => StatusCode::BAD_REQUEST,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
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
        }
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
        let mut response = (self.status(), super::json_bytes(&self.body())).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        match self {
            ApiError::InvalidToken => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Token"));
            }
            ApiError::MethodNotAllowed(_) => {
                headers.insert(
                    header::ALLOW,
                    HeaderValue::from_static("GET, HEAD, OPTIONS"),
                );
            }
            ApiError::Unavailable(_) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            _ => {}
        }
        response
    }
}
