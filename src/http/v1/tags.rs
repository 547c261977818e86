//! v1 `/tags/`: organisers and reviewers, by id.

use super::common::{order, pagination, path_id, refused, search, Key};
use crate::domain::access::Access;
use crate::domain::views_v1::V1Renderer;
use crate::http::context::EventContext;
use crate::http::endpoint::{json, ApiResult};
use crate::http::error::ApiError;
use crate::http::params::Params;

fn sees_tags(ctx: &EventContext, access: &Access) -> Result<(), ApiError> {
    if access.sees_tags() {
        Ok(())
    } else {
        Err(refused(&ctx.caller))
    }
}

pub fn tags(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_tags(&ctx, &access)?;
    let pagination = pagination(&ctx, &params)?;
    params.check()?;
    let mut tags: Vec<_> = ctx
        .event
        .event
        .tags
        .iter()
        .filter(|t| search(&params, [t.tag.as_str()]))
        .collect();
    tags.sort_by_key(|t| t.id);
    order(
        &params,
        &mut tags,
        &[
            ("id", |t| Key::Int(Some(t.id))),
            ("tag", |t| Key::Text(t.tag.to_lowercase())),
        ],
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &tags, |t| renderer.tag(t))
}

pub fn tag(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_tags(&ctx, &access)?;
    let tag = ctx.event.tag(path_id(id)?).ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang")).tag(tag),
    ))
}
