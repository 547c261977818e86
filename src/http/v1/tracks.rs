//! v1 `/tracks/`: organisers always, everyone else while the schedule is
//! public (the legacy dialect has no such path).

use super::common::{first_text, order, pagination, path_id, search, sees_schedule_data, Key};
use crate::domain::views_v1::V1Renderer;
use crate::http::context::EventContext;
use crate::http::endpoint::{json, ApiResult};
use crate::http::error::ApiError;
use crate::http::params::Params;

pub fn tracks(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let pagination = pagination(&ctx, &params)?;
    params.check()?;
    let mut tracks: Vec<_> = ctx
        .event
        .event
        .tracks
        .iter()
        .filter(|t| search(&params, t.name.texts()))
        .collect();
    tracks.sort_by_key(|t| t.id);
    order(
        &params,
        &mut tracks,
        &[
            ("id", |t| Key::Int(Some(t.id))),
            ("name", |t| first_text(&t.name)),
        ],
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &tracks, |t| renderer.track(t))
}

pub fn track(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let track = ctx.event.track(path_id(id)?).ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang")).track(track),
    ))
}
