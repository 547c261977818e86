//! v1 `/reviews/` (organisers, and reviewers whose phase shows them every
//! review), pretalx-v1.md §2, §6.

use super::common::{
    known_code, known_id, matches_q, one, page, pagination, refused, refused_detail, states, Key,
};
use crate::domain::access::Access;
use crate::domain::catalog::{EventData, ReviewIx};
use crate::domain::views_v1::{Serving, V1Renderer};
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::{digits_id, Params};
use crate::model::{Submission, SubmissionState};

/// The reviews the caller sees, by id.
fn visible_reviews(ctx: &EventContext, access: &Access) -> Vec<ReviewIx> {
    let reviews = &ctx.event.event.reviews;
    let mut items: Vec<ReviewIx> = ReviewIx::all(reviews.len())
        .filter(|&r| access.sees_review_at(r))
        .collect();
    items.sort_by_key(|&r| reviews[r].id);
    items
}

/// The reviews' filters (pretalx 2026 added those of the submission's
/// state, pending state, track, type and content locale). The code
/// filters' choices are what the caller is shown (`known_code`).
#[derive(Debug, Clone)]
struct SubmissionFilters {
    submission: Option<String>,
    user: Option<String>,
    /// pretalx answers 500 for a speaker of several submissions; here, the
    /// reviews of any submission the speaker is shown in.
    speaker: Option<String>,
    states: Vec<SubmissionState>,
    pending_states: Vec<SubmissionState>,
    track: Option<i64>,
    submission_type: Option<i64>,
    content_locale: Option<String>,
}

impl SubmissionFilters {
    fn of(params: &mut Params, data: &EventData, access: &Access) -> Self {
        let event = &data.event;
        // pretalx's choices: the event's reviewers (members of a reviewer
        // team), or only the caller where they may not see the others'
        // names.
        let reviewers = |code: &str| {
            let is_caller = access.user.is_some_and(|u| u.code.to_lowercase() == code);
            (access.reviewer_names || is_caller)
                && event
                    .teams
                    .iter()
                    .any(|t| t.is_reviewer && t.members.iter().any(|m| m.to_lowercase() == code))
        };
        SubmissionFilters {
            submission: known_code(params, "submission", |code| {
                access.shows_submission_code(code)
            }),
            user: known_code(params, "user", reviewers),
            speaker: known_code(params, "speaker", |code| access.shows_speaker_code(code)),
            states: states(params, "submission__state"),
            pending_states: states(params, "submission__pending_state"),
            track: known_id(params, "submission__track", |id| {
                data.track_index.contains_key(&id)
            }),
            submission_type: known_id(params, "submission__submission_type", |id| {
                data.type_index.contains_key(&id)
            }),
            content_locale: params.get("submission__content_locale").map(str::to_string),
        }
    }

    /// Whether a review of `sub` passes the submission filters.
    fn keeps(&self, sub: &Submission) -> bool {
        (self.states.is_empty() || self.states.contains(&sub.state))
            && (self.pending_states.is_empty()
                || sub
                    .pending_state
                    .is_some_and(|s| self.pending_states.contains(&s)))
            && self.track.is_none_or(|t| Some(t) == sub.track)
            && self
                .submission_type
                .is_none_or(|t| t == sub.submission_type)
            && self
                .content_locale
                .as_ref()
                .is_none_or(|l| **l == *sub.content_locale)
    }
}

pub fn reviews(ctx: &EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    if !access.may_list_reviews() {
        return Err(refused(&ctx.caller));
    }
    let pagination = pagination(ctx, &params)?;
    let data = &*ctx.event;
    let filters = SubmissionFilters::of(&mut params, data, &access);
    params.check()?;
    let SubmissionFilters {
        submission,
        user,
        speaker,
        ..
    } = filters.clone();
    let q = params.get("q").map(str::to_lowercase);
    let users = &ctx.caller.catalog.users;
    let o = params.get("o").map(str::to_string);
    let key = format!("{filters:?} {q:?} {o:?}");
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
                    && data.review_submission[r]
                        .is_none_or(|i| filters.keeps(&data.event.submissions[i]))
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
