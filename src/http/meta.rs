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
            get(move |State(state): State<AppState>, caller: Caller| root(all, state, caller)),
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
                    "The version to describe: `v2` (or `v-next` or `v1`, alike) or `LEGACY`; default: the caller's",
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

/// `GET /api/`: pretalx 2026's keys (`name`, `version`, `api_version`,
/// `urls`), then confapi's own.
#[derive(Serialize, ToSchema)]
struct Root {
    name: &'static str,
    /// confapi's release.
    version: &'static str,
    /// The newest API version this server speaks, as pretalx names it.
    api_version: &'static str,
    urls: RootUrls,
    /// Every API version this server speaks (`Pretalx-Version`).
    api_versions: Vec<&'static str>,
    /// What a request without a `Pretalx-Version` header whose token names
    /// no version gets (`serve --api-version`).
    default_api_version: &'static str,
    documentation: &'static str,
    endpoints: Vec<EndpointSummary>,
}

#[derive(Serialize, ToSchema)]
struct RootUrls {
    events: String,
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

async fn root(all: fn() -> Vec<Endpoint>, state: AppState, caller: Caller) -> ApiResult {
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
        api_version: ApiVersion::V2.header_value(),
        urls: RootUrls {
            events: format!("{}/api/events/", caller.base_url),
        },
        api_versions: ApiVersion::ALL.map(ApiVersion::header_value).to_vec(),
        default_api_version: state.config.api_version.header_value(),
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
        Some(name) => match ApiVersion::from_header(name.as_bytes()) {
            Some(version) => version.dialect(),
            None => {
                let message =
                    format!("Select a valid choice. {name} is not one of the available choices.");
                params.error("version", message);
                caller.api
            }
        },
    };
    params.check()?;
    Ok(json(&super::document::document(
        &all(),
        api,
        caller.default_api,
    )))
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
