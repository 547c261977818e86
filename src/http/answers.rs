//! `/answers` (behaviour.md §6 "Answers"). Which answers: exactly those
//! `Access::sees_answer_at` allows, the rule nested answers use too.

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::{matches_all_terms, path_id, Params};
use super::{json, ApiResult, Endpoint};
use crate::model::Answer;

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/answers",
            summary: "Answers the caller may see, by id",
            params: &[
                ("q", "Search terms in the answer text"),
                ("question", "Question id"),
                ("submission", "Submission code"),
                ("review", "Review id"),
                ("person", "Speaker code"),
            ],
            list: true,
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}/answers/{id}",
            summary: "One answer",
            params: &[],
            list: false,
            handler: get(detail),
        },
    ]
}

/// Codes are ASCII, so comparing them ignoring ASCII case is exact.
fn same_code(value: &Option<String>, wanted: &Option<String>) -> bool {
    match wanted {
        None => true,
        Some(wanted) => value
            .as_ref()
            .is_some_and(|v| v.eq_ignore_ascii_case(wanted)),
    }
}

async fn list(ctx: EventContext, mut params: Params) -> ApiResult {
    let terms = params.search_terms();
    let question = params.id("question");
    let review = params.id("review");
    let submission = params.get("submission").map(str::to_lowercase);
    let person = params.get("person").map(str::to_lowercase);
    let pagination = ctx.pagination(&mut params, DEFAULT_PAGE_SIZE);
    params.check()?;
    let access = ctx.access();
    let answers = &ctx.event.event.answers;
    let items: Vec<&Answer> = access
        .answer_candidates()
        .iter()
        .copied()
        .filter(|&i| access.sees_answer_at(i))
        .map(|i| &answers[i])
        .filter(|a| question.is_none_or(|q| q == a.question))
        .filter(|a| review.is_none_or(|r| Some(r) == a.review))
        .filter(|a| same_code(&a.submission, &submission) && same_code(&a.person, &person))
        .filter(|a| {
            terms
                .as_ref()
                .is_none_or(|t| matches_all_terms(t, std::iter::once(a.answer.as_str())))
        })
        .collect();
    let renderer = ctx.renderer(&access);
    ctx.caller
        .page(&params, pagination, &items, |a| renderer.answer(a, false))
}

async fn detail(ctx: EventContext, Path((_, id)): Path<(String, String)>) -> ApiResult {
    let access = ctx.access();
    let id = path_id(&id)?;
    let answer = ctx
        .event
        .answer_index
        .get(&id)
        .copied()
        .filter(|&i| access.sees_answer_at(i))
        .map(|i| &ctx.event.event.answers[i])
        .ok_or(ApiError::NotFound)?;
    let view = ctx
        .renderer(&access)
        .answer(answer, false)
        .ok_or(ApiError::NotFound)?;
    Ok(json(&view))
}
