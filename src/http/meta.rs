//! `/api/`, `/api/me`, `/api/openapi.json`, `/healthz`, `/readyz` and
//! `/metrics`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::context::Caller;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::params::Params;
use super::state::AppState;
use crate::model::ApiVersion;

/// `/api/`, `/api/me` and the document answer alike in both dialects.
/// `all` gives every endpoint of the API (`router::endpoints`), which
/// `/api/` lists and the document describes.
pub fn endpoints(all: fn() -> Vec<Endpoint>) -> Vec<Endpoint> {
    let both = |path, doc: Doc, handler| Endpoint {
        path,
        legacy: Some(doc),
        v1: Some(doc),
        handler,
    };
    vec![
        both(
            "/api",
            Doc {
                summary: "The endpoints of this API",
                params: &[],
                shape: Shape::One,
                body: super::openapi::view::<Root>,
            },
            get(move || root(all)),
        ),
        both(
            "/api/me",
            Doc {
                summary: "The caller (nulls when anonymous)",
                params: &[],
                shape: Shape::One,
                body: super::openapi::view::<Me>,
            },
            get(me),
        ),
        both(
            "/api/openapi.json",
            Doc {
                summary: "This API as an OpenAPI 3.1 document: the caller's dialect (`Pretalx-Version`), or the one `version` names",
                params: &[(
                    "version",
                    "The dialect to describe: `v1` (or `DEV_PREVIEW`) or `LEGACY`; default: the caller's",
                )],
                shape: Shape::One,
                body: |_| {
                    json!({"type": "object", "required": ["openapi", "info", "paths", "components"],
                           "properties": {"openapi": {"const": "3.1.0"}},
                           "description": "An OpenAPI 3.1 document"})
                },
            },
            get(move |caller: Caller, params: Params| openapi_handler(all, caller, params)),
        ),
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

async fn root(all: fn() -> Vec<Endpoint>) -> ApiResult {
    let endpoints = all()
        .iter()
        .map(|e| EndpointSummary {
            path: format!("{}/", e.path),
            summary: e.legacy.or(e.v1).map_or("", |doc| doc.summary),
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

/// The document of the dialect `version` names (the header's values),
/// else of the caller's dialect.
async fn openapi_handler(
    all: fn() -> Vec<Endpoint>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let api = match params.get("version") {
        None => caller.api,
        Some("v1" | "DEV_PREVIEW") => ApiVersion::V1,
        Some("LEGACY") => ApiVersion::Legacy,
        Some(other) => {
            let message =
                format!("Select a valid choice. {other} is not one of the available choices.");
            params.error("version", message);
            caller.api
        }
    };
    params.check()?;
    Ok(json(&super::document::document(&all(), api)))
}

pub async fn healthz() -> impl IntoResponse {
    (StatusCode::OK, "ok\n")
}

/// Readiness, for load balancers: 200 once the first catalog is loaded and
/// while storage answers; otherwise 503 with the reason. 503 from the
/// moment a shutdown starts, so that a load balancer stops sending new
/// clients while the process drains.
pub async fn readyz(State(state): State<AppState>) -> Response {
    if state.draining.load(std::sync::atomic::Ordering::Relaxed) {
        return ApiError::ShuttingDown.into_response();
    }
    match state.cache.ready() {
        Ok(()) => json(&json!({"status": "ready"})),
        Err(err) => ApiError::from(err).into_response(),
    }
}

/// `/metrics`: request counts by status and a latency histogram, in the
/// Prometheus text format (`metrics`).
pub async fn metrics(State(state): State<AppState>) -> Response {
    state
        .metrics
        .render(&state.cache, &state.responses, &state.webhooks)
}
