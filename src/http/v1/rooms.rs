//! v1 `/rooms/`: organisers always, everyone else while the schedule is
//! public; paged by `limit` and `offset` only.

use super::common::{first_text, order_ties_by_id, path_id, search, sees_schedule_data, Key};
use crate::domain::views_v1::V1Renderer;
use crate::http::context::EventContext;
use crate::http::endpoint::{json, ApiResult};
use crate::http::error::ApiError;
use crate::http::pagination::Pagination;
use crate::http::params::Params;

/// Rooms page by `limit` and `offset` only, 100 at a time.
const ROOM_PAGE_SIZE: usize = 100;

pub fn rooms(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let pagination = Pagination::v1(&params, ROOM_PAGE_SIZE, ctx.max_page_size, true)?;
    params.check()?;
    let mut rooms: Vec<_> = ctx
        .event
        .event
        .rooms
        .iter()
        .filter(|r| search(&params, r.name.texts()))
        .collect();
    rooms.sort_by_key(|r| (r.position.is_none(), r.position, r.id));
    order_ties_by_id(
        &params,
        &mut rooms,
        &[
            ("id", |r| Key::Int(Some(r.id))),
            ("name", |r| first_text(&r.name)),
            ("position", |r| Key::Int(r.position)),
            ("capacity", |r| Key::Int(r.capacity)),
        ],
        |r| r.id,
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &rooms, |r| renderer.room(r))
}

pub fn room(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let room = ctx.event.room(path_id(id)?).ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang")).room(room),
    ))
}
