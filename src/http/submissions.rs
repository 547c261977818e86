//! `/submissions` and `/talks` (behaviour.md §6 "Submissions and talks"):
//! one implementation, talks being the caller's submissions that are talks.

use axum::extract::Path;
use axum::routing::get;

use super::context::EventContext;
use super::endpoint::{json, ApiResult, Doc, Endpoint, Shape};
use super::error::ApiError;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::params::{digits_id, matches_all_terms, Params};
use crate::domain::access::Access;
use crate::domain::catalog::{SpeakerUsers, SubmissionIx};
use crate::model::SubmissionState;

const LIST_PARAMS: &[(&str, &str)] = &[
    (
        "q",
        "Search terms; each must occur in the title or a speaker's name",
    ),
    ("state", "Only these states (repeatable)"),
    ("submission_type", "Only this submission type id"),
    ("content_locale", "Only this content language"),
    ("is_featured", "true or false"),
    (
        "questions",
        "`all` or comma-separated question ids: include those answers",
    ),
    ("anon", "Any value: show the anonymised view"),
];
const DETAIL_PARAMS: &[(&str, &str)] = &[
    (
        "questions",
        "`all` or comma-separated question ids: include those answers",
    ),
    ("anon", "Any value: show the anonymised view"),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Submissions,
    Talks,
}

impl Kind {
    fn list(self) -> &'static str {
        match self {
            Kind::Submissions => "submissions",
            Kind::Talks => "talks",
        }
    }
}

pub fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            path: "/api/events/{event}/submissions",
            legacy: Some(Doc {
                summary: "Submissions the caller may see",
                params: LIST_PARAMS,
                shape: Shape::Page,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::SubmissionView<'static>>(
                        s,
                        &crate::domain::views::SUBMISSION_ROLE_FIELDS,
                    )
                },
            }),
            v1: Some(super::v1::doc::SUBMISSIONS),
            handler: get(|ctx, params| list(ctx, params, Kind::Submissions)),
        },
        Endpoint {
            path: "/api/events/{event}/submissions/{code}",
            legacy: Some(Doc {
                summary: "One submission",
                params: DETAIL_PARAMS,
                shape: Shape::One,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::SubmissionView<'static>>(
                        s,
                        &crate::domain::views::SUBMISSION_ROLE_FIELDS,
                    )
                },
            }),
            v1: Some(super::v1::doc::SUBMISSION),
            handler: get(|ctx, params, path| detail(ctx, params, path, Kind::Submissions)),
        },
        Endpoint {
            path: "/api/events/{event}/talks",
            legacy: Some(Doc {
                summary: "Scheduled submissions (talks) the caller may see",
                params: LIST_PARAMS,
                shape: Shape::Page,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::SubmissionView<'static>>(
                        s,
                        &crate::domain::views::SUBMISSION_ROLE_FIELDS,
                    )
                },
            }),
            v1: None,
            handler: get(|ctx, params| list(ctx, params, Kind::Talks)),
        },
        Endpoint {
            path: "/api/events/{event}/talks/{code}",
            legacy: Some(Doc {
                summary: "One talk",
                params: DETAIL_PARAMS,
                shape: Shape::One,
                body: |s| {
                    super::openapi::by_role::<crate::domain::views::SubmissionView<'static>>(
                        s,
                        &crate::domain::views::SUBMISSION_ROLE_FIELDS,
                    )
                },
            }),
            v1: Some(super::v1::doc::TALK),
            handler: get(|ctx, params, path| detail(ctx, params, path, Kind::Talks)),
        },
    ]
}

/// Whether the submission at position `i` is in the caller's set for `kind`.
fn in_set(access: &Access, i: SubmissionIx, kind: Kind) -> bool {
    access.sees_submission_at(i) && (kind == Kind::Submissions || access.data.is_talk[i])
}

#[derive(Debug)]
struct Filters {
    terms: Option<Vec<String>>,
    states: Vec<SubmissionState>,
    submission_type: Option<i64>,
    content_locale: Option<String>,
    is_featured: Option<bool>,
}

impl Filters {
    fn parse(params: &mut Params, ctx: &EventContext) -> Self {
        let mut states = Vec::new();
        let mut invalid = Vec::new();
        for name in params.get_all("state") {
            match SubmissionState::from_name(name) {
                Some(state) => states.push(state),
                None => invalid.push(name.to_string()),
            }
        }
        for state in invalid {
            params.error(
                "state",
                format!("Select a valid choice. {state} is not one of the available choices."),
            );
        }
        let submission_type = match params.get("submission_type").map(str::to_string) {
            None => None,
            Some(raw) => match digits_id(&raw).filter(|id| ctx.event.type_index.contains_key(id)) {
                Some(id) => Some(id),
                None => {
                    params.error(
                        "submission_type",
                        format!(
                            "Select a valid choice. {raw} is not one of the available choices."
                        ),
                    );
                    None
                }
            },
        };
        Filters {
            terms: params.search_terms(),
            states,
            submission_type,
            content_locale: params.get("content_locale").map(str::to_string),
            is_featured: params.boolean("is_featured"),
        }
    }

    /// `speaker_users`: the users of each submission's speakers
    /// (`Catalog::speaker_users`), whose names `q` searches.
    fn matches(
        &self,
        access: &Access,
        speaker_users: Option<&SpeakerUsers>,
        i: SubmissionIx,
        anon: bool,
    ) -> bool {
        let sub = &access.data.event.submissions[i];
        if !self.states.is_empty() && !self.states.contains(&sub.state) {
            return false;
        }
        if self
            .submission_type
            .is_some_and(|t| t != sub.submission_type)
        {
            return false;
        }
        if self
            .content_locale
            .as_ref()
            .is_some_and(|l| *l != sub.content_locale)
        {
            return false;
        }
        if self.is_featured.is_some_and(|f| f != sub.is_featured) {
            return false;
        }
        if let Some(terms) = &self.terms {
            // The anonymised view searches what it shows: the shown title, no names.
            let anonymised = access.anonymised_at(i, anon);
            let title = crate::domain::views::shown_texts(sub, anonymised).title;
            let names = speaker_users
                .filter(|_| !anonymised)
                .map_or(&[][..], |users| users.of(i))
                .iter()
                .flatten()
                .map(|user| user.name.as_str());
            if !matches_all_terms(terms, std::iter::once(title).chain(names)) {
                return false;
            }
        }
        true
    }
}

/// Off the async workers for big events (`EventContext::off_workers`).
async fn list(ctx: EventContext, params: Params, kind: Kind) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        // pretalx 2025 has no talks list: the slots are the schedule.
        if kind == Kind::Talks {
            return Err(ApiError::NotFound);
        }
        return ctx
            .off_workers(
                "v1-submissions",
                params,
                super::v1::submissions::submissions,
            )
            .await;
    }
    ctx.off_workers(kind.list(), params, move |ctx, params| {
        list_now(ctx, params, kind)
    })
    .await
}

fn list_now(ctx: &EventContext, mut params: Params, kind: Kind) -> ApiResult {
    let filters = Filters::parse(&mut params, ctx);
    let selector = params.question_selector();
    let pagination = ctx.pagination(&mut params, DEFAULT_PAGE_SIZE);
    params.check()?;
    let anon = params.get("anon").is_some();

    let access = ctx.access();
    let data = &*ctx.event;
    let catalog = &ctx.caller.catalog;
    let items = ctx.visible_set(
        &access,
        kind.list(),
        format!("{filters:?} anon={anon}"),
        || {
            let speaker_users = catalog.speaker_users(data);
            let indexed: Option<Vec<SubmissionIx>> = filters.terms.as_ref().and_then(|terms| {
                let ranks = catalog.submission_index(data)?.candidates(terms)?;
                Some(
                    ranks
                        .into_iter()
                        .map(|r| data.submissions_by_code[r as usize])
                        .collect(),
                )
            });
            indexed
                .as_deref()
                .unwrap_or_else(|| access.submission_candidates(kind == Kind::Talks))
                .iter()
                .copied()
                .filter(|&i| {
                    in_set(&access, i, kind) && filters.matches(&access, speaker_users, i, anon)
                })
                .collect()
        },
    );
    let renderer = ctx.renderer(&access);
    ctx.caller.page(&params, pagination, &items, |&i| {
        renderer.submission(i, anon, &selector)
    })
}

async fn detail(
    ctx: EventContext,
    mut params: Params,
    Path((_, code)): Path<(String, String)>,
    kind: Kind,
) -> ApiResult {
    if ctx.caller.api == crate::model::Dialect::Versioned {
        return match kind {
            Kind::Submissions => super::v1::submissions::submission(&ctx, params, &code),
            // As pretalx 2025: a talk is a submission now.
            Kind::Talks => Ok(super::v1::submissions::redirect_to_submission(
                &ctx, &code, &params,
            )),
        };
    }
    let selector = params.question_selector();
    params.check()?;
    let anon = params.get("anon").is_some();
    let access = ctx.access();
    let position = ctx
        .event
        .submission_lookup(&code)
        .filter(|&i| in_set(&access, i, kind))
        .ok_or(ApiError::NotFound)?;
    Ok(json(
        &ctx.renderer(&access).submission(position, anon, &selector),
    ))
}
