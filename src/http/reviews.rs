//! `/reviews` (behaviour.md §6 "Reviews").

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::{path_id, Params};

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/reviews",
            legacy: Some(Doc {
                summary: "Reviews the caller may see, by creation time",
                params: &[("submission__code", "Only reviews of this submission")],
                shape: Shape::Page,
                body: super::openapi::view::<crate::domain::views::ReviewView<'static>>,
            }),
            v1: Some(super::v1::doc::REVIEWS),
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}/reviews/{id}",
            legacy: Some(Doc {
                summary: "One review",
                params: &[],
                shape: Shape::One,
                body: super::openapi::view::<crate::domain::views::ReviewView<'static>>,
            }),
            v1: Some(super::v1::doc::REVIEW),
            handler: get(detail),
        },
    ]
}

/// Off the async workers for big events (`EventContext::off_workers`).
async fn list(ctx: EventContext, params: Params) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return ctx
            .off_workers("v1-reviews", params, super::v1::reviews::reviews)
            .await;
    }
    ctx.off_workers("reviews", params, list_now).await
}

fn list_now(ctx: &EventContext, mut params: Params) -> ApiResult {
    let submission = params.get("submission__code").map(str::to_lowercase);
    let pagination = ctx.pagination(&mut params, DEFAULT_PAGE_SIZE);
    params.check()?;
    let access = ctx.access();
    let reviews = &ctx.event.event.reviews;
    let items = ctx.visible_set(&access, "reviews", format!("{submission:?}"), || {
        ctx.event
            .reviews_ordered
            .iter()
            .copied()
            .filter(|&i| {
                submission
                    .as_ref()
                    .is_none_or(|code| reviews[i].submission.to_lowercase() == *code)
            })
            .filter(|&i| access.sees_review_at(i))
            .collect()
    });
    let renderer = ctx.renderer(&access);
    ctx.caller
        .page(&params, pagination, &items, |&i| renderer.review(i))
}

async fn detail(
    ctx: EventContext,
    Path((_, id)): Path<(String, String)>,
    params: Params,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::reviews::review(&ctx, params, &id);
    }
    let access = ctx.access();
    let id = path_id(&id)?;
    let position = ctx
        .event
        .review_position(id)
        .filter(|&i| access.sees_review_at(i))
        .ok_or(ApiError::NotFound)?;
    Ok(json(&ctx.renderer(&access).review(position)))
}
