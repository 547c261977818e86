//! v1 `/submissions/` (pretalx-v1.md §2, §6): the same set as the legacy
//! list (`domain::access`), in v1's shape; and v1's answer to `/talks/`.

use super::common::{known_id, matches_q, one, page_written, pagination, states, Key};
use crate::domain::views_v1::{upstream_order, Memo, V1Renderer};
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::Params;
use crate::model::SubmissionState;

#[derive(Debug)]
struct Filters {
    states: Vec<SubmissionState>,
    pending_states: Vec<SubmissionState>,
    content_locale: Option<String>,
    submission_type: Option<i64>,
    track: Option<i64>,
    is_featured: Option<bool>,
    q: Option<String>,
    o: Option<String>,
}

pub fn submissions(ctx: &EventContext, mut params: Params) -> ApiResult {
    let pagination = pagination(ctx, &params)?;
    let data = &*ctx.event;
    let filters = Filters {
        states: states(&mut params, "state"),
        pending_states: states(&mut params, "pending_state"),
        content_locale: params.get("content_locale").map(str::to_string),
        submission_type: known_id(&mut params, "submission_type", |id| {
            data.type_index.contains_key(&id)
        }),
        track: known_id(&mut params, "track", |id| {
            data.track_index.contains_key(&id)
        }),
        is_featured: super::common::boolean(&params, "is_featured"),
        q: params.get("q").map(str::to_lowercase),
        o: params.get("o").map(str::to_string),
    };
    params.check()?;
    let access = ctx.access().reviewing_only();
    let users = &ctx.caller.catalog.users;
    let subs = &data.event.submissions;
    let items = ctx.visible_set(&access, "v1-submissions", format!("{filters:?}"), || {
        let mut items: Vec<_> = access
            .submission_candidates(false)
            .iter()
            .copied()
            .filter(|&i| access.sees_submission_at(i))
            .filter(|&i| {
                let sub = &subs[i];
                (filters.states.is_empty() || filters.states.contains(&sub.state))
                    && (filters.pending_states.is_empty()
                        || sub
                            .pending_state
                            .is_some_and(|s| filters.pending_states.contains(&s)))
                    && filters
                        .content_locale
                        .as_ref()
                        .is_none_or(|l| **l == *sub.content_locale)
                    && filters
                        .submission_type
                        .is_none_or(|t| t == sub.submission_type)
                    && filters.track.is_none_or(|t| Some(t) == sub.track)
                    && filters.is_featured.is_none_or(|f| f == sub.is_featured)
            })
            .filter(|&i| {
                // The title and the speakers' names the caller is shown.
                let anonymised = access.anonymised_at(i, false);
                let title = crate::domain::views::shown_texts(&subs[i], anonymised).title;
                let names = subs[i]
                    .speakers
                    .iter()
                    .filter(|_| !anonymised)
                    .filter_map(|code| users.get(data.speaker_user_code(code)))
                    .map(|user| user.name.as_str());
                matches_q(filters.q.as_deref(), std::iter::once(title).chain(names))
            })
            .collect();
        let shown_title = |i| crate::domain::views::shown_title(&access, i);
        sort(&mut items, filters.o.as_deref(), |i| &subs[i], shown_title);
        items
    });
    let expansion = super::common::expansion(&params);
    let memo = Memo::default();
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion)
        .with_speaker_users(ctx.caller.catalog.speaker_users(&ctx.event))
        .memoizing(&memo);
    page_written(
        &ctx.caller,
        &params,
        pagination,
        &items,
        |page| renderer.prefetch_submissions(page),
        |out, &i| renderer.write_submission(out, i, users),
        |&i| renderer.submission(i, users),
    )
}

/// `o` for submissions: code, title (as `title` gives it), state, created
/// or is_featured, `-` for descending; anything else keeps the order by
/// code.
fn sort<'s, I: Copy>(
    items: &mut [I],
    o: Option<&str>,
    sub: impl Fn(I) -> &'s crate::model::Submission,
    title: impl Fn(I) -> &'s str,
) {
    let Some(o) = o else { return };
    let (descending, field) = o.strip_prefix('-').map_or((false, o), |f| (true, f));
    let key = |i: I| -> Key {
        let s = sub(i);
        match field {
            "title" => Key::Text(title(i).to_lowercase()),
            "state" => Key::Text(s.state.as_str().to_string()),
            "created" => Key::Text(s.created.to_rfc3339()),
            "is_featured" => Key::Int(Some(s.is_featured as i64)),
            _ => Key::Text(s.code.to_string()),
        }
    };
    if !matches!(
        field,
        "code" | "title" | "state" | "created" | "is_featured"
    ) {
        return;
    }
    // Ties keep pretalx's database order (by primary key).
    items.sort_by(|&a, &b| upstream_order(sub(a)).cmp(&upstream_order(sub(b))));
    super::common::sort_by(items, descending, |&x| key(x));
}

pub fn submission(ctx: &EventContext, params: Params, code: &str) -> ApiResult {
    let access = ctx.access().reviewing_only();
    let position = ctx
        .event
        .submission_lookup(code)
        .filter(|&i| access.sees_submission_at(i))
        .ok_or(ApiError::NotFound)?;
    let expansion = super::common::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion);
    one(
        &params,
        &renderer.submission(position, &ctx.caller.catalog.users),
    )
}

/// v1's answer to `/talks/{code}/`: a permanent redirect to the
/// submission, keeping the query.
pub fn redirect_to_submission(
    ctx: &EventContext,
    code: &str,
    params: &Params,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let mut location = format!(
        "/api/events/{}/submissions/{}/",
        ctx.event.event.slug,
        percent_encoding::utf8_percent_encode(code, percent_encoding::NON_ALPHANUMERIC)
    );
    if !params.pairs.is_empty() {
        let mut query = form_urlencoded::Serializer::new(String::new());
        query.extend_pairs(params.pairs.iter());
        location.push('?');
        location.push_str(&query.finish());
    }
    (
        axum::http::StatusCode::MOVED_PERMANENTLY,
        [(axum::http::header::LOCATION, location)],
    )
        .into_response()
}
