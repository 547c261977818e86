//! `/api/`, `/api/me`, `/api/openapi.json`, `/healthz` and `/readyz`.

use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::{json, Map, Value};

use super::context::Caller;
use super::{json, ApiResult, Endpoint};

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api",
            summary: "The endpoints of this API",
            params: &[],
            list: false,
            handler: get(root),
        },
        Endpoint {
            path: "/api/me",
            summary: "The caller (nulls when anonymous)",
            params: &[],
            list: false,
            handler: get(me),
        },
        Endpoint {
            path: "/api/openapi.json",
            summary: "This API as an OpenAPI 3.1 document",
            params: &[],
            list: false,
            handler: get(openapi_handler),
        },
    ]
}

async fn root() -> ApiResult {
    let endpoints: Vec<Value> = super::endpoints()
        .iter()
        .map(|e| json!({"path": format!("{}/", e.path), "summary": e.summary}))
        .collect();
    Ok(json(&json!({
        "name": "confapi",
        "version": env!("CARGO_PKG_VERSION"),
        "documentation": "/api/openapi.json",
        "endpoints": endpoints,
    })))
}

async fn me(caller: Caller) -> ApiResult {
    let body = match caller.user() {
        Some(user) => {
            json!({"name": user.name, "email": user.email, "locale": user.locale, "timezone": user.timezone})
        }
        None => json!({"name": null, "email": null, "locale": null, "timezone": null}),
    };
    Ok(json(&body))
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

const PAGINATION: [(&str, &str); 4] = [
    ("page", "1-based page number (page style)"),
    ("page_size", "Items per page in the page style"),
    ("limit", "Items per page (limit/offset style)"),
    ("offset", "Items to skip (limit/offset style)"),
];

/// The schema of a filter parameter, as the handlers read it
/// (`Params::id` and `Params::boolean`); the others are free text.
fn query_schema(name: &str) -> Value {
    match name {
        "question" | "review" | "submission_type" => json!({"type": "integer", "minimum": 0}),
        "is_public" | "is_visible_to_reviewers" | "is_featured" => json!({"type": "boolean"}),
        "target" => json!({"type": "string", "enum": crate::model::QuestionTarget::NAMES}),
        "variant" => json!({"type": "string", "enum": crate::model::QuestionVariant::NAMES}),
        "questions" => json!({"type": "string", "pattern": "^(|all|[0-9]+(,[0-9]+)*)$"}),
        "state" => {
            json!({"type": "array", "items": {"type": "string", "enum": crate::model::SubmissionState::NAMES}})
        }
        _ => json!({"type": "string"}),
    }
}

/// Builds the OpenAPI document from the endpoint list.
pub fn openapi(endpoints: &[Endpoint]) -> Value {
    let mut paths = Map::new();
    for endpoint in endpoints {
        let mut parameters: Vec<Value> = Vec::new();
        for segment in endpoint.path.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                parameters.push(json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}));
            }
        }
        for (name, description) in endpoint.params {
            parameters.push(json!({"name": name, "in": "query", "required": false,
                                   "description": description, "schema": query_schema(name)}));
        }
        if endpoint.list {
            // The server reads these as non-negative integers (`Params::natural`);
            // declared so, clients and fuzzers send what it accepts.
            for (name, description) in PAGINATION {
                parameters.push(json!({"name": name, "in": "query", "required": false,
                                       "description": description,
                                       "schema": {"type": "integer", "minimum": 0}}));
            }
        }
        let ok_schema = if endpoint.list {
            json!({"$ref": "#/components/schemas/Page"})
        } else {
            json!({"type": "object"})
        };
        paths.insert(
            format!("{}/", endpoint.path),
            json!({"get": {
                "summary": endpoint.summary,
                "parameters": parameters,
                "responses": {
                    "200": {"description": "OK", "content": {"application/json": {"schema": ok_schema}}},
                    "400": {"$ref": "#/components/responses/BadParameters"},
                    "401": {"$ref": "#/components/responses/Error"},
                    "403": {"$ref": "#/components/responses/Error"},
                    "404": {"$ref": "#/components/responses/Error"},
                    // Any request answers 503 while the database is unreachable.
                    "503": {"$ref": "#/components/responses/Error"},
                }
            }}),
        );
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "confapi",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Read API of a conference call-for-proposals and scheduling system, compatible with the pretalx API. Every path also works without its trailing slash.",
        },
        "components": {
            "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "Authorization",
                                           "description": "`Token <key>`, `Bearer <key>` or the bare key"}},
            "schemas": {
                "Page": {"type": "object", "required": ["count", "next", "previous", "results"], "properties": {
                    "count": {"type": "integer"},
                    "next": {"type": ["string", "null"], "format": "uri"},
                    "previous": {"type": ["string", "null"], "format": "uri"},
                    "results": {"type": "array", "items": {"type": "object"}},
                }},
                "Error": {"type": "object", "required": ["detail"], "properties": {"detail": {"type": "string"}}},
            },
            "responses": {
                "Error": {"description": "Error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                "BadParameters": {"description": "Bad query parameters, one key each",
                    "content": {"application/json": {"schema": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}}}},
            },
        },
        "security": [{}, {"token": []}],
        "paths": paths,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn pagination_parameters_are_declared_as_non_negative_integers() {
        let document = super::super::openapi_document();
        assert_eq!(
            document["paths"]["/api/events/{event}/submissions/"]["get"]["responses"]["503"]
                ["$ref"],
            "#/components/responses/Error"
        );
        let parameters =
            &document["paths"]["/api/events/{event}/submissions/"]["get"]["parameters"];
        for name in ["page", "page_size", "limit", "offset"] {
            let parameter = parameters
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap_or_else(|| panic!("{name} is not declared"));
            assert_eq!(parameter["in"], "query");
            assert_eq!(parameter["required"], false);
            assert_eq!(
                parameter["schema"],
                serde_json::json!({"type": "integer", "minimum": 0})
            );
        }
    }
}
