//! `/answers` (behaviour.md §6 "Answers"). Which answers: exactly those
//! `Access::sees_answer_at` allows, the rule nested answers use too.

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::{matches_all_terms, path_id, Params};
use crate::domain::catalog::AnswerIx;

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/answers",
            legacy: Some(Doc {
                summary: "Answers the caller may see, by id",
                params: &[
                    ("q", "Search terms in the answer text"),
                    ("question", "Question id"),
                    ("submission", "Submission code"),
                    ("review", "Review id"),
                    ("person", "Speaker code"),
                ],
                shape: Shape::Page,
                body: super::openapi::view::<crate::domain::views::AnswerView<'static>>,
            }),
            v1: Some(super::v1::doc::ANSWERS),
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}/answers/{id}",
            legacy: Some(Doc {
                summary: "One answer",
                params: &[],
                shape: Shape::One,
                body: super::openapi::view::<crate::domain::views::AnswerView<'static>>,
            }),
            v1: Some(super::v1::doc::ANSWER),
            handler: get(detail),
        },
    ]
}

/// Codes are ASCII, so comparing them ignoring ASCII case is exact.
fn same_code(value: &Option<crate::model::ArcStr>, wanted: &Option<String>) -> bool {
    match wanted {
        None => true,
        Some(wanted) => value
            .as_ref()
            .is_some_and(|v| v.eq_ignore_ascii_case(wanted)),
    }
}

/// Off the async workers for big events (`EventContext::off_workers`).
async fn list(ctx: EventContext, params: Params) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return ctx
            .off_workers("v1-answers", params, super::v1::answers::answers)
            .await;
    }
    ctx.off_workers("answers", params, list_now).await
}

fn list_now(ctx: &EventContext, mut params: Params) -> ApiResult {
    let terms = params.search_terms();
    let question = params.id("question");
    let review = params.id("review");
    let submission = params.get("submission").map(str::to_lowercase);
    let person = params.get("person").map(str::to_lowercase);
    let pagination = ctx.pagination(&mut params, DEFAULT_PAGE_SIZE);
    params.check()?;
    let access = ctx.access();
    let data = &*ctx.event;
    let catalog = &ctx.caller.catalog;
    let filters = format!("{terms:?} {question:?} {review:?} {submission:?} {person:?}");
    let items = ctx.visible_set(&access, "answers", filters, || {
        let answers = &data.event.answers;
        let indexed: Option<Vec<AnswerIx>> = terms.as_ref().and_then(|terms| {
            let ranks = catalog.answer_index(data)?.candidates(terms)?;
            Some(
                ranks
                    .into_iter()
                    .map(|r| data.answers_by_id[r as usize])
                    .collect(),
            )
        });
        indexed
            .as_deref()
            .unwrap_or_else(|| access.answer_candidates())
            .iter()
            .copied()
            .filter(|&i| access.sees_answer_at(i))
            .filter(|&i| {
                let a = &answers[i];
                question.is_none_or(|q| q == a.question)
                    && review.is_none_or(|r| Some(r) == a.review)
                    && same_code(&a.submission, &submission)
                    && same_code(&a.person, &person)
                    && terms
                        .as_ref()
                        .is_none_or(|t| matches_all_terms(t, std::iter::once(a.answer.as_str())))
            })
            .collect()
    });
    let renderer = ctx.renderer(&access);
    let answers = &data.event.answers;
    ctx.caller.page(&params, pagination, &items, |&i| {
        renderer.answer(&answers[i], false)
    })
}

async fn detail(
    ctx: EventContext,
    Path((_, id)): Path<(String, String)>,
    params: Params,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::answers::answer(&ctx, params, &id);
    }
    let access = ctx.access();
    let id = path_id(&id)?;
    let answer = ctx
        .event
        .answer_position(id)
        .filter(|&i| access.sees_answer_at(i))
        .map(|i| &ctx.event.event.answers[i])
        .ok_or(ApiError::NotFound)?;
    let view = ctx
        .renderer(&access)
        .answer(answer, false)
        .ok_or(ApiError::NotFound)?;
    Ok(json(&view))
}
