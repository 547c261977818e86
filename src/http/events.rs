//! `/api/events/` and `/api/events/{event}/`.

use axum::extract::State;
use axum::routing::get;

use super::context::{Caller, EventContext};
use super::pagination::{Pagination, DEFAULT_PAGE_SIZE};
use super::params::Params;
use super::{json, ApiResult, AppState, Endpoint};
use crate::domain::access::Access;
use crate::domain::views::event_view;

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events",
            summary: "Events visible to the caller, newest first",
            params: &[],
            list: true,
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}",
            summary: "One event",
            params: &[],
            list: false,
            handler: get(detail),
        },
    ]
}

fn base_url(state: &AppState, caller: &Caller) -> String {
    // Event URLs point at the web frontend: the configured base URL, else
    // the origin of the request.
    match &state.config.base_url {
        Some(base) => base.trim_end_matches('/').to_string(),
        None => origin_of(&caller.link_base),
    }
}

fn origin_of(url: &str) -> String {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url[..after_scheme + i].to_string(),
        None => url.to_string(),
    }
}

async fn list(State(state): State<AppState>, caller: Caller, mut params: Params) -> ApiResult {
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
    let base = base_url(&state, &caller);
    caller.page(&params, pagination, &visible, |e| {
        event_view(&e.event, &base)
    })
}

async fn detail(State(state): State<AppState>, ctx: EventContext) -> ApiResult {
    Ok(json(&event_view(
        &ctx.event.event,
        &base_url(&state, &ctx.caller),
    )))
}
