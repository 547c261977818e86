//! v1 `/speakers/` (pretalx-v1.md §2, §6): the same set as the legacy
//! list (`domain::access`), in v1's shape.

use super::common::{one, page_prepared, pagination, search};
use crate::domain::views_v1::{Memo, Serving, V1Renderer};
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::Params;

pub fn speakers(ctx: &EventContext, mut params: Params) -> ApiResult {
    let pagination = pagination(ctx, &params)?;
    params.check()?;
    let access = ctx.access().reviewing_only();
    let data = &*ctx.event;
    let users = &ctx.caller.catalog.users;
    let orga = access.role == crate::domain::access::Role::Organiser;
    let q = params.get("q").map(str::to_lowercase);
    let items = ctx.visible_set(&access, "v1-speakers", format!("{q:?}"), || {
        access
            .speaker_candidates()
            .iter()
            .copied()
            .filter(|&p| access.sees_speaker_at(p))
            .filter(|&p| match users.get(data.event.speakers[p].user.as_str()) {
                None => false,
                Some(user) => {
                    let email = orga.then_some(user.email.as_str());
                    search(&params, std::iter::once(user.name.as_str()).chain(email))
                }
            })
            .collect()
    });
    let expansion = super::common::expansion(&params);
    let memo = Memo::default();
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion)
        .serving(Serving::Speakers)
        .with_speaker_users(ctx.caller.catalog.speaker_users(&ctx.event))
        .memoizing(&memo);
    page_prepared(
        &ctx.caller,
        &params,
        pagination,
        &items,
        |page| renderer.prefetch_speakers(page),
        |&p| renderer.speaker(p, users),
    )
}

pub fn speaker(ctx: &EventContext, params: Params, code: &str) -> ApiResult {
    let access = ctx.access().reviewing_only();
    let profile = ctx
        .event
        .profile_lookup(code)
        .filter(|&p| access.sees_speaker_at(p))
        .ok_or(ApiError::NotFound)?;
    let expansion = super::common::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion)
        .serving(Serving::Speakers);
    let view = renderer
        .speaker(profile, &ctx.caller.catalog.users)
        .ok_or(ApiError::NotFound)?;
    one(&params, &view)
}
