//! v1 `/reviews/` (organisers, and reviewers whose phase shows them every
//! review), pretalx-v1.md §2, §6.

use super::common::{matches_q, one, page, pagination, refused, refused_detail, Key};
use crate::domain::catalog::ReviewIx;
use crate::domain::views_v1::{Serving, V1Renderer};
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::{digits_id, Params};

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
                super::common::sort_by(&mut items, descending, key);
            }
        }
        items
    });
    let expansion = super::common::expansion(&params);
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
            .expanding(&super::common::expansion(&params))
            .serving(Serving::Reviews)
            .review(position),
    )
}
