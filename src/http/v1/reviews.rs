//! v1 `/answers/` (organisers only) and `/reviews/` (organisers, and
//! reviewers whose phase shows them every review), pretalx-v1.md §2, §6.

use super::{matches_q, one, page, pagination, refused, Key};
use crate::domain::access::Role;
use crate::domain::catalog::ReviewIx;
use crate::domain::views_v1::{Memo, Serving, V1Renderer};
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::{digits_id, Params};

/// A detail the caller may not read: 404 for the public (pretalx finds
/// no object in their empty set before it asks for credentials), else
/// what the list answers.
fn refused_detail(caller: &crate::http::context::Caller) -> ApiError {
    if caller.user_code.is_none() {
        ApiError::NotFound
    } else {
        refused(caller)
    }
}

pub fn answers(ctx: &EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    if access.role != Role::Organiser {
        return Err(refused(&ctx.caller));
    }
    let pagination = pagination(ctx, &params)?;
    let question = params.id("question");
    let review = params.id("review");
    params.check()?;
    let submission = params.get("submission").map(str::to_lowercase);
    let person = params.get("person").map(str::to_lowercase);
    let q = params.get("q").map(str::to_lowercase);
    let data = &*ctx.event;
    let o = params.get("o");
    // Ordered once with the set (`o` is part of its key): a copy of the
    // shared set per request to sort was half of a page's time on an event
    // of 640,000 answers (perf, BENCHMARKS.md).
    let filters = format!("{question:?} {review:?} {submission:?} {person:?} {q:?} {o:?}");
    let items = ctx.visible_set(&access, "v1-answers", filters, || {
        let mut items: Vec<_> = data
            .answers_by_id
            .iter()
            .copied()
            .filter(|&a| access.sees_answer_at(a))
            .filter(|&a| {
                let answer = &data.event.answers[a];
                question.is_none_or(|id| answer.question == id)
                    && review.is_none_or(|id| answer.review == Some(id))
                    && submission.as_ref().is_none_or(|code| {
                        answer
                            .submission
                            .as_ref()
                            .is_some_and(|s| s.to_lowercase() == *code)
                    })
                    && person.as_ref().is_none_or(|code| {
                        answer
                            .person
                            .as_ref()
                            .is_some_and(|p| p.to_lowercase() == *code)
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
                super::sort_by(&mut items, descending, key);
            }
        }
        items
    });
    let expansion = super::expansion(&params);
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
            .expanding(&super::expansion(&params))
            .answer(position),
    )
}

/// The reviews the caller sees, by id.
fn visible_reviews(ctx: &EventContext, access: &crate::domain::access::Access) -> Vec<ReviewIx> {
    let reviews = &ctx.event.event.reviews;
    let mut items: Vec<ReviewIx> = ReviewIx::all(reviews.len())
        .filter(|&r| access.sees_review_at(r))
        .collect();
    items.sort_by_key(|&r| reviews[r].id);
    items
}

pub fn reviews(ctx: &EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    if !access.may_list_reviews() {
        return Err(refused(&ctx.caller));
    }
    let pagination = pagination(ctx, &params)?;
    params.check()?;
    let submission = params.get("submission").map(str::to_lowercase);
    let user = params.get("user").map(str::to_lowercase);
    // pretalx answers 500 for a speaker of several submissions; here, the
    // reviews of any submission the speaker is shown in.
    let speaker = params.get("speaker").map(str::to_lowercase);
    let q = params.get("q").map(str::to_lowercase);
    let data = &*ctx.event;
    let users = &ctx.caller.catalog.users;
    let o = params.get("o").map(str::to_string);
    let key = format!("{submission:?} {user:?} {speaker:?} {q:?} {o:?}");
    let items = ctx.visible_set(&access, "v1-reviews", key, || {
        let mut items: Vec<ReviewIx> = visible_reviews(ctx, &access)
            .into_iter()
            .filter(|&r| {
                let review = &data.event.reviews[r];
                let names_reviewer = access.shows_reviewer_name(review);
                submission
                    .as_ref()
                    .is_none_or(|code| review.submission.to_lowercase() == *code)
                    && user
                        .as_ref()
                        .is_none_or(|code| names_reviewer && review.user.to_lowercase() == *code)
                    && speaker.as_ref().is_none_or(|code| {
                        // Only speakers the caller is shown: of a
                        // submission they see, not anonymised for them.
                        data.review_submission[r].is_some_and(|i| {
                            access.sees_submission_at(i)
                                && !access.anonymised_at(i, false)
                                && data.event.submissions[i]
                                    .speakers
                                    .iter()
                                    .any(|s| s.to_lowercase() == *code)
                        })
                    })
                    && q.as_ref().is_none_or(|_| {
                        // The title the caller is shown: none where they
                        // do not see the submission (their own review of
                        // one outside their tracks), the anonymised one
                        // where they get the anonymised view.
                        let title = data.review_submission[r]
                            .filter(|&i| access.sees_submission_at(i))
                            .map(|i| crate::domain::views::shown_title(&access, i));
                        let name = users
                            .get(review.user.as_str())
                            .filter(|_| names_reviewer)
                            .map(|u| u.name.as_str());
                        matches_q(q.as_deref(), title.into_iter().chain(name))
                    })
            })
            .collect();
        if let Some(o) = params.get("o") {
            let (descending, field) = o.strip_prefix('-').map_or((false, o), |f| (true, f));
            if matches!(field, "id" | "created") {
                let key = |&r: &ReviewIx| {
                    let review = &data.event.reviews[r];
                    match field {
                        "id" => Key::Int(Some(review.id)),
                        _ => Key::Text(review.created.to_rfc3339()),
                    }
                };
                super::sort_by(&mut items, descending, key);
            }
        }
        items
    });
    let expansion = super::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion)
        .serving(Serving::Reviews);
    page(&ctx.caller, &params, pagination, &items, |&r| {
        renderer.review(r)
    })
}

pub fn review(ctx: &EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    if !access.may_list_reviews() {
        return Err(refused_detail(&ctx.caller));
    }
    let id = digits_id(id).ok_or(ApiError::NotFound)?;
    let position = ctx
        .event
        .review_position(id)
        .filter(|&r| access.sees_review_at(r))
        .ok_or(ApiError::NotFound)?;
    one(
        &params,
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
            .expanding(&super::expansion(&params))
            .serving(Serving::Reviews)
            .review(position),
    )
}
