//! `/questions` (behaviour.md §6 "Questions").

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::{matches_all_terms, path_id, Params};
use crate::model::{Question, QuestionTarget, QuestionVariant};

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/questions",
            legacy: Some(Doc {
                summary: "Questions the caller may see, by position",
                params: &[
                    ("q", "Search terms in the question text, any language"),
                    ("target", "submission, speaker or reviewer"),
                    ("variant", "The question variant"),
                    ("is_public", "true or false"),
                    ("is_visible_to_reviewers", "true or false"),
                ],
                shape: Shape::Page,
                body: super::openapi::view::<crate::domain::views::QuestionView<'static>>,
            }),
            v1: Some(super::v1::doc::QUESTIONS),
            handler: get(list),
        },
        Endpoint {
            path: "/api/events/{event}/questions/{id}",
            legacy: Some(Doc {
                summary: "One question",
                params: &[],
                shape: Shape::One,
                body: super::openapi::view::<crate::domain::views::QuestionView<'static>>,
            }),
            v1: Some(super::v1::doc::QUESTION),
            handler: get(detail),
        },
    ]
}

/// The caller's questions, by position then id; with search terms, only
/// the index's candidates are looked at (and then checked exactly).
fn visible<'a>(
    ctx: &'a EventContext,
    access: &crate::domain::access::Access,
    terms: Option<&[String]>,
) -> Vec<&'a Question> {
    let all = &ctx.event.event.questions;
    let candidates: Option<Vec<u32>> = terms.and_then(|terms| {
        ctx.caller
            .catalog
            .question_text_index(&ctx.event)?
            .candidates(terms)
    });
    let mut questions: Vec<&Question> = match candidates {
        Some(ranks) => ranks.into_iter().map(|r| &all[r as usize]).collect(),
        None => all.iter().collect(),
    };
    questions.retain(|q| {
        access.sees_question(q) && terms.is_none_or(|t| matches_all_terms(t, q.question.texts()))
    });
    questions.sort_by_key(|q| (q.position, q.id));
    questions
}

/// Off the async workers for big events (`EventContext::off_workers`).
async fn list(ctx: EventContext, params: Params) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::questions::questions(ctx, params);
    }
    ctx.off_workers("questions", params, list_now).await
}

fn list_now(ctx: &EventContext, mut params: Params) -> ApiResult {
    let terms = params.search_terms();
    let target = params.choice("target", QuestionTarget::ALL);
    let variant = params.choice("variant", QuestionVariant::ALL);
    let is_public = params.boolean("is_public");
    let to_reviewers = params.boolean("is_visible_to_reviewers");
    let pagination = ctx.pagination(&mut params, DEFAULT_PAGE_SIZE);
    params.check()?;
    let access = ctx.access();
    let items: Vec<&Question> = visible(ctx, &access, terms.as_deref())
        .into_iter()
        .filter(|q| target.is_none_or(|t| t == q.target))
        .filter(|q| variant.is_none_or(|v| v == q.variant))
        .filter(|q| is_public.is_none_or(|p| p == q.is_public))
        .filter(|q| to_reviewers.is_none_or(|r| r == q.is_visible_to_reviewers))
        .collect();
    let renderer = ctx.renderer(&access);
    ctx.caller
        .page(&params, pagination, &items, |q| renderer.question(q))
}

async fn detail(
    ctx: EventContext,
    Path((_, id)): Path<(String, String)>,
    params: Params,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return super::v1::questions::question(ctx, params, &id);
    }
    let access = ctx.access();
    let id = path_id(&id)?;
    let question = ctx
        .event
        .question(id)
        .filter(|q| access.sees_question(q))
        .ok_or(ApiError::NotFound)?;
    Ok(json(&ctx.renderer(&access).question(question)))
}
