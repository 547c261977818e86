//! `/api/events/` and `/api/events/{event}/`.

use axum::extract::State;
use axum::routing::get;

use super::context::{Caller, EventContext};
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::pagination::{Pagination, DEFAULT_PAGE_SIZE};
use super::params::Params;
use super::state::AppState;
use crate::domain::access::Access;
use crate::domain::views::event_view;

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events",
            legacy: Some(Doc {
                summary: "Events visible to the caller, newest first",
                params: &[],
                shape: Shape::Page,
                body: super::openapi::view::<crate::domain::views::EventView<'static>>,
            }),
            v1: Some(super::v1::doc::EVENTS),
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}",
            legacy: Some(Doc {
                summary: "One event",
                params: &[],
                shape: Shape::One,
                body: super::openapi::view::<crate::domain::views::EventView<'static>>,
            }),
            v1: Some(super::v1::doc::EVENT),
            handler: get(detail),
        },
    ]
}

async fn list(State(state): State<AppState>, caller: Caller, mut params: Params) -> ApiResult {
    if caller.api == crate::model::Dialect::Versioned {
        return super::v1::events::events(caller, params);
    }
    let pagination =
        Pagination::from_params(&mut params, DEFAULT_PAGE_SIZE, state.config.max_page_size);
    params.check()?;
    let user = caller.user();
    let visible: Vec<_> = caller
        .catalog
        .events
        .iter()
        .filter(|e| Access::new(e, user, caller.now).event_visible())
        .collect();
    caller.page(&params, pagination, &visible, |e| {
        event_view(&e.event, &caller.base_url)
    })
}

async fn detail(
    ctx: EventContext,
    axum::extract::Path(slug): axum::extract::Path<String>,
    params: Params,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::events::event(ctx, params, &slug);
    }
    Ok(json(&event_view(&ctx.event.event, &ctx.caller.base_url)))
}
