//! `/tags` (behaviour.md §6 "Tags"): organisers and reviewers only.

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::Params;
use crate::model::Tag;

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/tags",
            legacy: Some(Doc {
                summary: "Tags (organisers and reviewers; empty for the public)",
                params: &[],
                shape: Shape::Page,
                body: super::openapi::view::<crate::domain::views::TagView<'static>>,
            }),
            v1: Some(super::v1::doc::TAGS),
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}/tags/{tag}",
            legacy: Some(Doc {
                summary: "One tag, by its name (case-insensitive)",
                params: &[],
                shape: Shape::One,
                body: super::openapi::view::<crate::domain::views::TagView<'static>>,
            }),
            v1: Some(super::v1::doc::TAG),
            handler: get(detail),
        },
    ]
}

fn visible(ctx: &EventContext, sees_tags: bool) -> Vec<&Tag> {
    if !sees_tags {
        return Vec::new();
    }
    let mut tags: Vec<&Tag> = ctx.event.event.tags.iter().collect();
    tags.sort_by_key(|t| t.id);
    tags
}

async fn list(ctx: EventContext, mut params: Params) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::tags::tags(ctx, params);
    }
    let pagination = ctx.pagination(&mut params, DEFAULT_PAGE_SIZE);
    params.check()?;
    let access = ctx.access();
    let items = visible(&ctx, access.sees_tags());
    let renderer = ctx.renderer(&access);
    ctx.caller
        .page(&params, pagination, &items, |t| renderer.tag(t))
}

async fn detail(
    ctx: EventContext,
    Path((_, name)): Path<(String, String)>,
    params: Params,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        // v1 finds tags by id.
        return super::v1::tags::tag(ctx, params, &name);
    }
    let access = ctx.access();
    let name = name.to_lowercase();
    let tag = visible(&ctx, access.sees_tags())
        .into_iter()
        .find(|t| t.tag.to_lowercase() == name)
        .ok_or(ApiError::NotFound)?;
    Ok(json(&ctx.renderer(&access).tag(tag)))
}
