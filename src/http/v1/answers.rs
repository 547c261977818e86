//! v1 `/answers/` (organisers only), pretalx-v1.md §2, §6.

use super::common::{matches_q, number, one, page, pagination, refused, refused_detail, Key};
use crate::domain::access::Role;
use crate::domain::views_v1::{Memo, V1Renderer};
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::{digits_id, Params};

pub fn answers(ctx: &EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    if access.role != Role::Organiser {
        return Err(refused(&ctx.caller));
    }
    let pagination = pagination(ctx, &params)?;
    let question = number(&mut params, "question");
    let review = number(&mut params, "review");
    params.check()?;
    let submission = params.get("submission").map(str::to_lowercase);
    // pretalx 2026 renamed the filter `person` to `speaker`; both filter.
    let person = params.get("person").map(str::to_lowercase);
    let speaker = params.get("speaker").map(str::to_lowercase);
    let q = params.get("q").map(str::to_lowercase);
    let data = &*ctx.event;
    let o = params.get("o");
    // Ordered once with the set (`o` is part of its key): a copy of the
    // shared set per request to sort was half of a page's time on an event
    // of 640,000 answers (perf, docs/bench-log.md).
    let filters =
        format!("{question:?} {review:?} {submission:?} {person:?} {speaker:?} {q:?} {o:?}");
    let items = ctx.visible_set(&access, "v1-answers", filters, || {
        let mut items: Vec<_> = data
            .answers_by_id
            .iter()
            .copied()
            .filter(|&a| access.sees_answer_at(a))
            .filter(|&a| {
                let answer = &data.event.answers[a];
                question.is_none_or(|q| q.keeps(answer.question))
                    && review.is_none_or(|r| answer.review.is_some_and(|id| r.keeps(id)))
                    && submission.as_ref().is_none_or(|code| {
                        answer
                            .submission
                            .as_ref()
                            .is_some_and(|s| s.to_lowercase() == *code)
                    })
                    && [&person, &speaker].into_iter().all(|wanted| {
                        wanted.as_ref().is_none_or(|code| {
                            answer
                                .person
                                .as_ref()
                                .is_some_and(|p| p.to_lowercase() == *code)
                        })
                    })
                    && matches_q(q.as_deref(), [answer.answer.as_str()])
            })
            .collect();
        if let Some(o) = o {
            let (descending, field) = o.strip_prefix('-').map_or((false, o), |f| (true, f));
            if matches!(field, "id" | "answer") {
                let key = |&a: &crate::domain::catalog::AnswerIx| {
                    let answer = &data.event.answers[a];
                    match field {
                        "id" => Key::Int(Some(answer.id)),
                        _ => Key::Text(answer.answer.to_lowercase()),
                    }
                };
                super::common::sort_by(&mut items, descending, key);
            }
        }
        items
    });
    let expansion = super::common::expansion(&params);
    let memo = Memo::default();
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion)
        .memoizing(&memo);
    page(&ctx.caller, &params, pagination, &items, |&a| {
        renderer.answer(a)
    })
}

pub fn answer(ctx: &EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    if access.role != Role::Organiser {
        // The public gets a 404 as for no object: pretalx 2026's 401 for an
        // answer to a public question would tell that the id exists.
        return Err(refused_detail(&ctx.caller));
    }
    let id = digits_id(id).ok_or(ApiError::NotFound)?;
    let position = ctx
        .event
        .answer_position(id)
        .filter(|&a| access.sees_answer_at(a))
        .ok_or(ApiError::NotFound)?;
    one(
        &params,
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
            .expanding(&super::common::expansion(&params))
            .answer(position),
    )
}
