//! `/speakers` (behaviour.md §6 "Speakers").

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::{matches_all_terms, Params};
use crate::domain::access::Role;
use crate::domain::catalog::ProfileIx;

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/speakers",
            legacy: Some(Doc {
                summary: "Speakers the caller may see",
                params: &[
                    (
                        "q",
                        "Search terms in the name (organisers: also the e-mail)",
                    ),
                    (
                        "questions",
                        "`all` or comma-separated question ids: include those answers",
                    ),
                ],
                shape: Shape::Page,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::SpeakerView<'static>>(
                        s,
                        &crate::domain::views::SPEAKER_ROLE_FIELDS,
                    )
                },
            }),
            v1: Some(super::v1::doc::SPEAKERS),
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}/speakers/{code}",
            legacy: Some(Doc {
                summary: "One speaker",
                params: &[(
                    "questions",
                    "`all` or comma-separated question ids: include those answers",
                )],
                shape: Shape::One,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::SpeakerView<'static>>(
                        s,
                        &crate::domain::views::SPEAKER_ROLE_FIELDS,
                    )
                },
            }),
            v1: Some(super::v1::doc::SPEAKER),
            handler: get(detail),
        },
    ]
}

/// Off the async workers for big events (`EventContext::off_workers`).
async fn list(ctx: EventContext, params: Params) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return ctx
            .off_workers("v1-speakers", params, super::v1::speakers::speakers)
            .await;
    }
    ctx.off_workers("speakers", params, list_now).await
}

fn list_now(ctx: &EventContext, mut params: Params) -> ApiResult {
    let selector = params.question_selector();
    let terms = params.search_terms();
    let pagination = ctx.pagination(&mut params, DEFAULT_PAGE_SIZE);
    params.check()?;
    let access = ctx.access();
    let data = &*ctx.event;
    let catalog = &ctx.caller.catalog;
    let items = ctx.visible_set(&access, "speakers", format!("{terms:?}"), || {
        let profiles = &data.event.speakers;
        let indexed: Option<Vec<ProfileIx>> = terms.as_ref().and_then(|terms| {
            let ranks = catalog.speaker_index(data)?.candidates(terms)?;
            Some(
                ranks
                    .into_iter()
                    .map(|r| data.profiles_by_code[r as usize])
                    .collect(),
            )
        });
        indexed
            .as_deref()
            .unwrap_or_else(|| access.speaker_candidates())
            .iter()
            .copied()
            .filter(|&p| access.sees_speaker_at(p))
            .filter(
                |&p| match (&terms, catalog.users.get(profiles[p].user.as_str())) {
                    (None, _) => true,
                    (Some(terms), Some(user)) => {
                        let email = (access.role == Role::Organiser).then_some(user.email.as_str());
                        matches_all_terms(terms, std::iter::once(user.name.as_str()).chain(email))
                    }
                    (Some(_), None) => false,
                },
            )
            .collect()
    });
    let renderer = ctx.renderer(&access);
    ctx.caller.page(&params, pagination, &items, |p| {
        renderer.speaker(*p, &selector)
    })
}

async fn detail(
    ctx: EventContext,
    mut params: Params,
    Path((_, code)): Path<(String, String)>,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::speakers::speaker(&ctx, params, &code);
    }
    let selector = params.question_selector();
    params.check()?;
    let access = ctx.access();
    let profile = ctx
        .event
        .profile_lookup(&code)
        .filter(|&p| access.sees_speaker_at(p))
        .ok_or(ApiError::NotFound)?;
    let view = ctx
        .renderer(&access)
        .speaker(profile, &selector)
        .ok_or(ApiError::NotFound)?;
    Ok(json(&view))
}
