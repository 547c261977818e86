//! The router: every resource's endpoints (each with and without its
//! trailing slash), the exports, the probes, and around them the guards
//! and the transport layer.

use std::time::Duration;

use axum::response::{IntoResponse, Response};
use axum::Router;

use super::endpoint::Endpoint;
use super::error::ApiError;
use super::state::AppState;
use super::{
    answers, changes, context, events, exports, meta, questions, reviews, rooms, speakers,
    submissions, tags, transport, v1,
};

/// Every endpoint, in the order `GET /api/` lists them.
pub fn endpoints() -> Vec<Endpoint> {
    let mut all = Vec::new();
    all.extend(meta::endpoints(endpoints));
    all.extend(events::endpoints());
    all.extend(submissions::endpoints());
    all.extend(speakers::endpoints());
    all.extend(questions::endpoints());
    all.extend(answers::endpoints());
    all.extend(reviews::endpoints());
    all.extend(rooms::endpoints());
    all.extend(tags::endpoints());
    all.extend(changes::endpoints());
    all.extend(v1::endpoints());
    all
}

pub fn router(state: AppState) -> Router {
    let mut router = Router::new();
    for endpoint in endpoints() {
        // Every path answers with and without its trailing slash, the same
        // way and without a redirect (clients use both shapes).
        router = router
            .route(endpoint.path, endpoint.handler.clone())
            .route(&format!("{}/", endpoint.path), endpoint.handler);
    }
    let router = router
        .merge(exports::routes())
        .route("/healthz", axum::routing::get(meta::healthz))
        .route("/healthz/", axum::routing::get(meta::healthz))
        .route("/readyz", axum::routing::get(meta::readyz))
        .route("/readyz/", axum::routing::get(meta::readyz))
        .route("/metrics", axum::routing::get(meta::metrics))
        .route("/metrics/", axum::routing::get(meta::metrics))
        .fallback(context::fallback);
    // Inside `transport`, so that these answers are logged and counted too.
    with_guards(router, state.config.request_timeout)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            transport::transport,
        ))
        .with_state(state)
}

/// Around every handler: a panic answers 500 and a handler running longer
/// than `timeout` answers 503, both as JSON from the error table. (A
/// timeout can cut a handler only where it awaits.)
pub(super) fn with_guards<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
    timeout: Duration,
) -> Router<S> {
    async fn on_error(err: tower::BoxError) -> Response {
        if err.is::<tower::timeout::error::Elapsed>() {
            ApiError::Timeout.into_response()
        } else {
            ApiError::Internal(err.to_string()).into_response()
        }
    }
    router.layer(
        tower::ServiceBuilder::new()
            .layer(axum::error_handling::HandleErrorLayer::new(on_error))
            .timeout(timeout)
            .layer(tower_http::catch_panic::CatchPanicLayer::custom(
                |_: Box<dyn std::any::Any + Send>| {
                    ApiError::Internal("a handler panicked".into()).into_response()
                },
            )),
    )
}

/// The OpenAPI 3.1 document of one dialect: every endpoint it serves, as
/// a caller whose default dialect it is reads it.
pub fn openapi_document(api: crate::model::Dialect) -> serde_json::Value {
    super::document::document(&endpoints(), api, api)
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{header, HeaderValue, Request, StatusCode};
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;
    use crate::http::endpoint::json;

    async fn call(router: Router, path: &str) -> (StatusCode, HeaderValue, serde_json::Value) {
        let response = router
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE].clone();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, content_type, serde_json::from_slice(&body).unwrap())
    }

    /// A handler that runs past the request timeout answers 503 in JSON; a
    /// handler that panics answers 500 in JSON (and the server goes on).
    #[tokio::test]
    async fn slow_and_panicking_handlers_get_json_errors() {
        async fn slow() -> &'static str {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        }
        async fn panics() -> &'static str {
            panic!("a bug")
        }
        let router = with_guards(
            Router::new()
                .route("/slow", get(slow))
                .route("/panics", get(panics))
                .route(
                    "/fast",
                    get(|| async { json(&serde_json::json!({"ok": true})) }),
                ),
            Duration::from_millis(50),
        );
        let started = std::time::Instant::now();
        assert_eq!(
            call(router.clone(), "/slow").await,
            (
                StatusCode::SERVICE_UNAVAILABLE,
                HeaderValue::from_static("application/json"),
                serde_json::json!({"detail": "The request took too long."})
            )
        );
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(
            call(router.clone(), "/panics").await,
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                HeaderValue::from_static("application/json"),
                serde_json::json!({"detail": "Internal server error."})
            )
        );
        assert_eq!(
            call(router, "/fast").await,
            (
                StatusCode::OK,
                HeaderValue::from_static("application/json"),
                serde_json::json!({"ok": true})
            )
        );
    }
}
