//! v1 `/submission-types/`: organisers always, everyone else while the
//! schedule is public (the legacy dialect has no such path).

use super::common::{first_text, order, pagination, path_id, search, sees_schedule_data, Key};
use crate::domain::views_v1::V1Renderer;
use crate::http::context::EventContext;
use crate::http::endpoint::{json, ApiResult};
use crate::http::error::ApiError;
use crate::http::params::Params;

pub fn submission_types(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let pagination = pagination(&ctx, &params)?;
    params.check()?;
    let mut kinds: Vec<_> = ctx
        .event
        .event
        .submission_types
        .iter()
        .filter(|t| search(&params, t.name.texts()))
        .collect();
    kinds.sort_by_key(|t| t.id);
    order(
        &params,
        &mut kinds,
        &[
            ("id", |t| Key::Int(Some(t.id))),
            ("name", |t| first_text(&t.name)),
            ("default_duration", |t| Key::Int(Some(t.default_duration))),
        ],
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &kinds, |t| renderer.submission_type(t))
}

pub fn submission_type(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let kind = ctx
        .event
        .submission_type(path_id(id)?)
        .ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
            .submission_type(kind),
    ))
}
