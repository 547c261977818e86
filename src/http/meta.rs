//! `/api/`, `/api/me`, `/api/openapi.json`, `/healthz` and `/readyz`.

use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::context::Caller;
use super::{json, ApiResult, Endpoint};

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api",
            summary: "The endpoints of this API",
            params: &[],
            list: false,
            body: super::openapi::view::<Root>,
            handler: get(root),
        },
        Endpoint {
            path: "/api/me",
            summary: "The caller (nulls when anonymous)",
            params: &[],
            list: false,
            body: super::openapi::view::<Me>,
            handler: get(me),
        },
        Endpoint {
            path: "/api/openapi.json",
            summary: "This API as an OpenAPI 3.1 document",
            params: &[],
            list: false,
            body: |_| {
                json!({"type": "object", "required": ["openapi", "info", "paths", "components"],
                             "properties": {"openapi": {"const": "3.1.0"}},
                             "description": "An OpenAPI 3.1 document"})
            },
            handler: get(openapi_handler),
        },
    ]
}

/// `GET /api/`.
#[derive(Serialize, ToSchema)]
struct Root {
    name: &'static str,
    version: &'static str,
    documentation: &'static str,
    endpoints: Vec<EndpointSummary>,
}

#[derive(Serialize, ToSchema)]
struct EndpointSummary {
    path: String,
    summary: &'static str,
}

/// `GET /api/me`: the caller, nulls when anonymous.
#[derive(Serialize, ToSchema)]
struct Me<'a> {
    #[schema(required = true)]
    name: Option<&'a str>,
    #[schema(required = true)]
    email: Option<&'a str>,
    #[schema(required = true)]
    locale: Option<&'a str>,
    #[schema(required = true)]
    timezone: Option<&'a str>,
}

async fn root() -> ApiResult {
    let endpoints = super::endpoints()
        .iter()
        .map(|e| EndpointSummary {
            path: format!("{}/", e.path),
            summary: e.summary,
        })
        .collect();
    Ok(json(&Root {
        name: "confapi",
        version: env!("CARGO_PKG_VERSION"),
        documentation: "/api/openapi.json",
        endpoints,
    }))
}

async fn me(caller: Caller) -> ApiResult {
    let user = caller.user();
    Ok(json(&Me {
        name: user.map(|u| u.name.as_str()),
        email: user.map(|u| u.email.as_str()),
        locale: user.map(|u| u.locale.as_str()),
        timezone: user.map(|u| u.timezone.as_str()),
    }))
}

async fn openapi_handler() -> ApiResult {
    Ok(json(&super::openapi_document()))
}

pub async fn healthz() -> impl IntoResponse {
    (StatusCode::OK, "ok\n")
}

/// Readiness, for load balancers: 200 once the first catalog is loaded and
/// while storage answers; otherwise 503 with the reason. 503 from the
/// moment a shutdown starts, so that a load balancer stops sending new
/// clients while the process drains.
pub async fn readyz(
    axum::extract::State(state): axum::extract::State<super::AppState>,
) -> axum::response::Response {
    if state.draining.load(std::sync::atomic::Ordering::Relaxed) {
        return super::error::ApiError::ShuttingDown.into_response();
    }
    match state.cache.ready() {
        Ok(()) => json(&json!({"status": "ready"})),
        Err(err) => super::error::ApiError::from(err).into_response(),
    }
}
