//! `/rooms` (behaviour.md §6 "Rooms"): every room, to every caller.

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::params::{path_id, Params};
use crate::model::Room;

/// Rooms are few and listed whole by schedule apps.
const ROOM_PAGE_SIZE: usize = 100;

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/rooms",
            legacy: Some(Doc {
                summary: "Rooms by position (default page size 100)",
                params: &[],
                shape: Shape::Page,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::RoomView<'static>>(
                        s,
                        &crate::domain::views::ROOM_ROLE_FIELDS,
                    )
                },
            }),
            v1: Some(super::v1::doc::ROOMS),
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}/rooms/{id}",
            legacy: Some(Doc {
                summary: "One room",
                params: &[],
                shape: Shape::One,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::RoomView<'static>>(
                        s,
                        &crate::domain::views::ROOM_ROLE_FIELDS,
                    )
                },
            }),
            v1: Some(super::v1::doc::ROOM),
            handler: get(detail),
        },
    ]
}

async fn list(ctx: EventContext, mut params: Params) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::rooms::rooms(ctx, params);
    }
    let pagination = ctx.pagination(&mut params, ROOM_PAGE_SIZE);
    params.check()?;
    let access = ctx.access();
    let mut items: Vec<&Room> = ctx.event.event.rooms.iter().collect();
    // By position, rooms without one last, then by id.
    items.sort_by_key(|r| (r.position.is_none(), r.position, r.id));
    let renderer = ctx.renderer(&access);
    ctx.caller
        .page(&params, pagination, &items, |r| renderer.room(r))
}

async fn detail(
    ctx: EventContext,
    Path((_, id)): Path<(String, String)>,
    params: Params,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::rooms::room(ctx, params, &id);
    }
    let access = ctx.access();
    let id = path_id(&id)?;
    let room = ctx.event.room(id).ok_or(ApiError::NotFound)?;
    Ok(json(&ctx.renderer(&access).room(room)))
}
