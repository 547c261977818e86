//! v1 `/questions/` and `/question-options/`: the questions the caller may
//! see, and the options of the choice questions among them.

use super::common::{
    boolean, expansion, first_text, one, order, order_ties_by_id, page, pagination, path_id,
    search, Key,
};
use crate::domain::access::Access;
use crate::domain::views_v1::V1Renderer;
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::Params;
use crate::model::{Question, QuestionTarget, QuestionVariant};

/// The questions the caller may see, in v1's default order (position, id).
fn visible_questions<'a>(access: &Access<'a>) -> Vec<&'a Question> {
    let mut questions: Vec<&Question> = access
        .data
        .event
        .questions
        .iter()
        .filter(|q| access.sees_question(q))
        .collect();
    questions.sort_by_key(|q| (q.position, q.id));
    questions
}

pub fn questions(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    let pagination = pagination(&ctx, &params)?;
    let target = params.choice("target", QuestionTarget::ALL);
    let variant = params.choice("variant", QuestionVariant::ALL);
    let is_public = boolean(&params, "is_public");
    let for_reviewers = boolean(&params, "is_visible_to_reviewers");
    params.check()?;
    let mut questions: Vec<_> = visible_questions(&access)
        .into_iter()
        .filter(|q| target.is_none_or(|t| q.target == t))
        .filter(|q| variant.is_none_or(|v| q.variant == v))
        .filter(|q| is_public.is_none_or(|p| q.is_public == p))
        .filter(|q| for_reviewers.is_none_or(|r| q.is_visible_to_reviewers == r))
        .filter(|q| search(&params, q.question.texts()))
        .collect();
    order_ties_by_id(
        &params,
        &mut questions,
        &[
            ("id", |q| Key::Int(Some(q.id))),
            ("question", |q| first_text(&q.question)),
            ("position", |q| Key::Int(Some(q.position))),
            ("is_public", |q| Key::Int(Some(q.is_public as i64))),
            ("is_visible_to_reviewers", |q| {
                Key::Int(Some(q.is_visible_to_reviewers as i64))
            }),
        ],
        |q| q.id,
    );
    let expansion = expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion);
    page(&ctx.caller, &params, pagination, &questions, |q| {
        renderer.question(q)
    })
}

pub fn question(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    let id = path_id(id)?;
    let question = visible_questions(&access)
        .into_iter()
        .find(|q| q.id == id)
        .ok_or(ApiError::NotFound)?;
    let expansion = expansion(&params);
    one(
        &params,
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
            .expanding(&expansion)
            .question(question),
    )
}

/// The options of the choice questions the caller may see: (question,
/// index of the option), by option id.
fn visible_options<'a>(access: &Access<'a>) -> Vec<(&'a Question, usize)> {
    let mut options: Vec<(&Question, usize)> = visible_questions(access)
        .into_iter()
        .filter(|q| {
            matches!(
                q.variant,
                QuestionVariant::Choices | QuestionVariant::MultipleChoice
            )
        })
        .flat_map(|q| (0..q.options.len()).map(move |i| (q, i)))
        .collect();
    options.sort_by_key(|(q, i)| q.options[*i].id);
    options
}

/// `question` of the options list: the id of one of the event's active
/// questions not for reviewers (pretalx's ModelChoiceFilter over the
/// default manager of questions), visible to the caller or not; anything
/// else is a 400.
fn option_question(access: &Access, params: &mut Params) -> Option<i64> {
    let value = params.get("question")?;
    let id = value.parse::<i64>().ok().filter(|id| {
        access
            .data
            .event
            .questions
            .iter()
            .any(|q| q.id == *id && q.active && q.target != QuestionTarget::Reviewer)
    });
    if id.is_none() {
        params.error(
            "question",
            "Select a valid choice. That choice is not one of the available choices.",
        );
    }
    id
}

pub fn question_options(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    let pagination = pagination(&ctx, &params)?;
    let question = option_question(&access, &mut params);
    params.check()?;
    let mut options: Vec<_> = visible_options(&access)
        .into_iter()
        .filter(|(q, _)| question.is_none_or(|id| q.id == id))
        .filter(|(q, i)| search(&params, q.options[*i].answer.texts()))
        .collect();
    order(
        &params,
        &mut options,
        &[
            ("id", |(q, i)| Key::Int(Some(q.options[*i].id))),
            ("answer", |(q, i)| first_text(&q.options[*i].answer)),
        ],
    );
    let expansion = expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion);
    page(&ctx.caller, &params, pagination, &options, |(q, i)| {
        renderer.option(q, *i, true)
    })
}

pub fn question_option(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    let id = path_id(id)?;
    let (question, index) = visible_options(&access)
        .into_iter()
        .find(|(q, i)| q.options[*i].id == id)
        .ok_or(ApiError::NotFound)?;
    let expansion = expansion(&params);
    one(
        &params,
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
            .expanding(&expansion)
            .option(question, index, true),
    )
}
