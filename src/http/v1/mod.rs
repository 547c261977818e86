//! pretalx's versioned API (`Pretalx-Version: v1`, pretalx-v1.md), answered
//! on the same paths as the legacy API: the resource modules hand a v1
//! request to the handlers here, which render `domain::views_v1` over the
//! same catalog and `domain::access` rules. What v1 shares across lists
//! lives here too: its pagination, `o` (ordering), `q`, `fields`, `omit`
//! and `lang`.
//!
//! Served: events, submissions, speakers, slots, schedules, rooms, tracks,
//! submission types, tags, questions, question options, answers and reviews. The other v1 endpoints answer 404 for
//! v1 requests (docs/api.md, "The versioned API").

use axum::extract::{Path, State};
use serde::Serialize;

use super::context::{Caller, EventContext};
use super::endpoint::{json, ApiResult, Endpoint};
use super::error::ApiError;
use super::pagination::{Pagination, V1_MAX_PAGE_SIZE, V1_PAGE_SIZE};
use super::params::{digits_id, Params};
use crate::domain::access::{Access, Role};
use crate::domain::views_v1::{self as views, V1Renderer};
use crate::model::{I18n, Question, QuestionTarget, QuestionVariant};

pub mod doc;
pub mod reviews;
pub mod schedule;
pub mod submissions;
pub mod teams;

/// Rooms page by `limit` and `offset` only, 100 at a time.
const ROOM_PAGE_SIZE: usize = 100;

// ---------------------------------------------------------------------------
// Shared mechanics

/// `fields` and `omit` (top-level fields only, as pretalx's
/// drf-flex-fields reads them; comma lists, repeated parameters merged),
/// where pretalx's serializers have flex fields: questions and options
/// (not events, rooms, tracks, submission types, tags).
struct Shape {
    fields: Option<Vec<String>>,
    omit: Vec<String>,
}

impl Shape {
    fn of(params: &Params) -> Self {
        let names = |name: &str| -> Vec<String> {
            params
                .pairs
                .iter()
                .filter(|(k, _)| k == name)
                .flat_map(|(_, v)| v.split(','))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let fields = names("fields");
        Shape {
            fields: (!fields.is_empty()).then_some(fields),
            omit: names("omit"),
        }
    }

    fn is_whole(&self) -> bool {
        self.fields.is_none() && self.omit.is_empty()
    }

    /// The object with only the fields asked for, in its own key order
    /// (a `serde_json` map would sort the keys): its top-level fields are
    /// kept as raw JSON text, in order.
    fn apply<T: Serialize>(&self, item: &T) -> Shaped {
        let text = sonic_rs::to_string(item).unwrap_or_default();
        let mut fields = Vec::new();
        for entry in sonic_rs::to_object_iter(text.as_str()) {
            let Ok((key, value)) = entry else {
                break;
            };
            let key = key.to_string();
            let wanted =
                self.fields.as_ref().is_none_or(|f| f.contains(&key)) && !self.omit.contains(&key);
            if wanted {
                fields.push((key, sonic_rs::OwnedLazyValue::from(value)));
            }
        }
        Shaped(fields)
    }
}

/// An object's fields in their order, each value as its JSON text.
struct Shaped(Vec<(String, sonic_rs::OwnedLazyValue)>);

impl Serialize for Shaped {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// One object, shaped.
pub(crate) fn one<T: Serialize>(params: &Params, item: &T) -> ApiResult {
    let shape = Shape::of(params);
    Ok(if shape.is_whole() {
        json(item)
    } else {
        json(&shape.apply(item))
    })
}

/// A page of `items`, each rendered and shaped.
pub(crate) fn page<T, R: Serialize>(
    caller: &Caller,
    params: &Params,
    pagination: Pagination,
    items: &[T],
    render: impl Fn(&T) -> R,
) -> ApiResult {
    page_prepared(caller, params, pagination, items, |_| {}, render)
}

/// `page`, handing the page's items to `prepare` first (`Caller::page_prepared`).
pub(crate) fn page_prepared<T, R: Serialize>(
    caller: &Caller,
    params: &Params,
    pagination: Pagination,
    items: &[T],
    prepare: impl FnOnce(&[T]),
    render: impl Fn(&T) -> R,
) -> ApiResult {
    let shape = Shape::of(params);
    if shape.is_whole() {
        caller.page_prepared(params, pagination, items, prepare, render)
    } else {
        caller.page_prepared(params, pagination, items, prepare, |item| {
            shape.apply(&render(item))
        })
    }
}

/// `page_prepared` for items that can be written as JSON without a view:
/// `write` appends an item's JSON as serialising `render`'s view would,
/// and is used unless `fields` or `omit` shape the items (they need the
/// view's fields).
pub(crate) fn page_written<T: Copy, R: Serialize>(
    caller: &Caller,
    params: &Params,
    pagination: Pagination,
    items: &[T],
    prepare: impl FnOnce(&[T]),
    write: impl Fn(&mut Vec<u8>, &T),
    render: impl Fn(&T) -> R,
) -> ApiResult {
    if Shape::of(params).is_whole() {
        let write = &write;
        caller.page_prepared(params, pagination, items, prepare, move |&item| {
            crate::json::Direct(move |out: &mut Vec<u8>| write(out, &item))
        })
    } else {
        page_prepared(caller, params, pagination, items, prepare, render)
    }
}

pub(crate) fn pagination(ctx: &EventContext, params: &Params) -> Result<Pagination, ApiError> {
    pagination_within(params, ctx.max_page_size)
}

/// v1's page or offset pagination, with pages of at most v1's 250 or the
/// server's `--max-page-size`, whichever is smaller.
pub(crate) fn pagination_within(
    params: &Params,
    max_page_size: usize,
) -> Result<Pagination, ApiError> {
    Pagination::v1(
        params,
        V1_PAGE_SIZE,
        V1_MAX_PAGE_SIZE.min(max_page_size),
        false,
    )
}

/// A sort key of one field.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Key {
    Int(Option<i64>),
    Text(String),
}

/// `o=field` or `o=-field` among `fields`; an unknown field is ignored
/// (the list keeps its default order), as pretalx's OrderingFilter does.
/// Ties keep the default order.
/// The fields a list may be ordered by, each with its sort key.
type Orderings<'f, T> = &'f [(&'f str, fn(&T) -> Key)];

fn order<T>(params: &Params, items: &mut [T], fields: Orderings<T>) {
    let Some(wanted) = params.get("o") else {
        return;
    };
    let (descending, name) = match wanted.strip_prefix('-') {
        Some(name) => (true, name),
        None => (false, wanted),
    };
    let Some((_, key)) = fields.iter().find(|(field, _)| *field == name) else {
        return;
    };
    sort_by(items, descending, key);
}

/// Sorts by `key`, descending when asked; equal keys keep their order.
pub(crate) fn sort_by<T, K: Ord>(items: &mut [T], descending: bool, key: impl Fn(&T) -> K) {
    items.sort_by(|a, b| {
        let ordering = key(a).cmp(&key(b));
        if descending {
            ordering.reverse()
        } else {
            ordering
        }
    });
}

/// The first text of a translated value, for ordering by it.
fn first_text(value: &I18n) -> Key {
    Key::Text(value.texts().next().unwrap_or("").to_lowercase())
}

/// `q`: the value, ignoring case, in any of `texts` (pretalx's
/// SearchFilter over one field is a case-insensitive "contains").
pub(crate) fn search<'t>(params: &Params, texts: impl IntoIterator<Item = &'t str>) -> bool {
    matches_q(params.get("q").map(str::to_lowercase).as_deref(), texts)
}

/// `q` already lower-cased (None: no search).
pub(crate) fn matches_q<'t>(q: Option<&str>, texts: impl IntoIterator<Item = &'t str>) -> bool {
    match q {
        None => true,
        Some(q) => texts.into_iter().any(|t| t.to_lowercase().contains(q)),
    }
}

/// A boolean filter as django-filter's BooleanWidget reads it:
/// `true`/`false` (any case), `1`/`0`; anything else is no filter.
pub(super) fn boolean(params: &Params, name: &str) -> Option<bool> {
    match params.get(name)?.to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// Anonymous callers are asked to authenticate, others are refused (as
/// pretalx answers for what a role may not read).
pub(crate) fn refused(caller: &Caller) -> ApiError {
    if caller.user_code.is_none() {
        ApiError::NotAuthenticated
    } else {
        ApiError::EventNotVisible
    }
}

/// `expand`, every value of the parameter.
pub(crate) fn expansion(params: &Params) -> views::Expansion {
    views::Expansion::parse(params.get_all("expand"))
}

/// A numeric id in a path; anything else is not found.
fn path_id(segment: &str) -> Result<i64, ApiError> {
    digits_id(segment).ok_or(ApiError::NotFound)
}

// ---------------------------------------------------------------------------
// Events: a bare array (v1 does not page events) and the detail

pub fn events(caller: Caller, params: Params) -> ApiResult {
    let mut params = params;
    let is_public = boolean(&params, "is_public");
    params.check()?;
    let user = caller.user();
    let mut events: Vec<_> = caller
        .catalog
        .events
        .iter()
        .filter(|e| Access::new(e, user, caller.now).event_visible())
        .filter(|e| is_public.is_none_or(|p| e.event.is_public == p))
        .filter(|e| search(&params, e.event.name.texts()))
        .collect();
    order(
        &params,
        &mut events,
        &[
            ("date_from", |e| Key::Text(e.event.date_from.to_string())),
            ("date_to", |e| {
                Key::Text(e.event.date_to.map(|d| d.to_string()).unwrap_or_default())
            }),
            ("name", |e| first_text(&e.event.name)),
            ("slug", |e| Key::Text(e.event.slug.to_lowercase())),
        ],
    );
    // No `lang` (pretalx applies it inside an event only), and no
    // `fields`/`omit` (its event serializers have no flex fields).
    let items: Vec<_> = events
        .iter()
        .map(|e| views::event(&e.event, false, None))
        .collect();
    Ok(json(&items))
}

/// The event by its slug as the path spells it: in the detail path the
/// slug is case-sensitive (in sub-paths it is not).
pub fn event(ctx: EventContext, params: Params, slug: &str) -> ApiResult {
    let event = &ctx.event.event;
    if slug != event.slug {
        return Err(ApiError::NotFound);
    }
    let lang = views::lang_of(event, params.get("lang"));
    Ok(json(&views::event(event, true, lang)))
}

// ---------------------------------------------------------------------------
// Rooms, tracks, submission types: organisers always, everyone else while
// the schedule is public

fn sees_schedule_data(ctx: &EventContext, access: &Access) -> Result<(), ApiError> {
    if access.role == Role::Organiser || access.schedule_visible() {
        Ok(())
    } else {
        Err(refused(&ctx.caller))
    }
}

pub fn rooms(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let pagination = Pagination::v1(&params, ROOM_PAGE_SIZE, ctx.max_page_size, true)?;
    params.check()?;
    let mut rooms: Vec<_> = ctx
        .event
        .event
        .rooms
        .iter()
        .filter(|r| search(&params, r.name.texts()))
        .collect();
    rooms.sort_by_key(|r| (r.position.is_none(), r.position, r.id));
    order(
        &params,
        &mut rooms,
        &[
            ("id", |r| Key::Int(Some(r.id))),
            ("name", |r| first_text(&r.name)),
            ("position", |r| Key::Int(r.position)),
            ("capacity", |r| Key::Int(r.capacity)),
        ],
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &rooms, |r| renderer.room(r))
}

pub fn room(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let room = ctx.event.room(path_id(id)?).ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang")).room(room),
    ))
}

pub fn tracks(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let pagination = pagination(&ctx, &params)?;
    params.check()?;
    let mut tracks: Vec<_> = ctx
        .event
        .event
        .tracks
        .iter()
        .filter(|t| search(&params, t.name.texts()))
        .collect();
    tracks.sort_by_key(|t| t.id);
    order(
        &params,
        &mut tracks,
        &[
            ("id", |t| Key::Int(Some(t.id))),
            ("name", |t| first_text(&t.name)),
        ],
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &tracks, |t| renderer.track(t))
}

pub fn track(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let track = ctx.event.track(path_id(id)?).ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang")).track(track),
    ))
}

pub fn submission_types(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let pagination = pagination(&ctx, &params)?;
    params.check()?;
    let mut kinds: Vec<_> = ctx
        .event
        .event
        .submission_types
        .iter()
        .filter(|t| search(&params, t.name.texts()))
        .collect();
    kinds.sort_by_key(|t| t.id);
    order(
        &params,
        &mut kinds,
        &[
            ("id", |t| Key::Int(Some(t.id))),
            ("name", |t| first_text(&t.name)),
            ("default_duration", |t| Key::Int(Some(t.default_duration))),
        ],
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &kinds, |t| renderer.submission_type(t))
}

pub fn submission_type(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedule_data(&ctx, &access)?;
    let kind = ctx
        .event
        .submission_type(path_id(id)?)
        .ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
            .submission_type(kind),
    ))
}

// ---------------------------------------------------------------------------
// Tags: organisers and reviewers, by id

fn sees_tags(ctx: &EventContext, access: &Access) -> Result<(), ApiError> {
    if access.sees_tags() {
        Ok(())
    } else {
        Err(refused(&ctx.caller))
    }
}

pub fn tags(ctx: EventContext, mut params: Params) -> ApiResult {
    let access = ctx.access();
    sees_tags(&ctx, &access)?;
    let pagination = pagination(&ctx, &params)?;
    params.check()?;
    let mut tags: Vec<_> = ctx
        .event
        .event
        .tags
        .iter()
        .filter(|t| search(&params, [t.tag.as_str()]))
        .collect();
    tags.sort_by_key(|t| t.id);
    order(
        &params,
        &mut tags,
        &[
            ("id", |t| Key::Int(Some(t.id))),
            ("tag", |t| Key::Text(t.tag.to_lowercase())),
        ],
    );
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"));
    ctx.caller
        .page(&params, pagination, &tags, |t| renderer.tag(t))
}

pub fn tag(ctx: EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_tags(&ctx, &access)?;
    let tag = ctx.event.tag(path_id(id)?).ok_or(ApiError::NotFound)?;
    Ok(json(
        &V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang")).tag(tag),
    ))
}

// ---------------------------------------------------------------------------
// Questions and their options

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
    order(
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

/// For the legacy dialect, the paths only v1 has do not exist.
pub fn only_in_v1(caller: &Caller) -> Result<(), ApiError> {
    match caller.api {
        crate::model::ApiVersion::V1 => Ok(()),
        crate::model::ApiVersion::Legacy => Err(ApiError::NotFound),
    }
}

// ---------------------------------------------------------------------------
// The paths only v1 has

pub fn endpoints() -> Vec<Endpoint> {
    // The legacy dialect answers 404 on these paths.
    macro_rules! v1_only {
        ($path:literal, $doc:expr, $handler:expr) => {
            Endpoint {
                path: $path,
                legacy: None,
                v1: Some($doc),
                handler: axum::routing::get($handler),
            }
        };
    }
    vec![
        v1_only!(
            "/api/events/{event}/slots",
            doc::SLOTS,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                ctx.off_workers("v1-slots", params, schedule::slots).await
            }
        ),
        v1_only!(
            "/api/events/{event}/slots/{id}",
            doc::SLOT,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                schedule::slot(&ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/schedules",
            doc::SCHEDULES,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                schedule::schedules(&ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/schedules/{id}",
            doc::SCHEDULE,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                schedule::schedule(&ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/organisers/{organiser}/teams",
            doc::TEAMS,
            |State(state): State<super::state::AppState>,
             caller: Caller,
             Path(organiser): Path<String>,
             params: Params| async move {
                only_in_v1(&caller)?;
                teams::teams(caller, params, &organiser, state.config.max_page_size)
            }
        ),
        v1_only!(
            "/api/organisers/{organiser}/teams/{id}",
            doc::TEAM,
            |caller: Caller, Path((organiser, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&caller)?;
                teams::team(caller, params, &organiser, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/tracks",
            doc::TRACKS,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                tracks(ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/tracks/{id}",
            doc::TRACK,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                track(ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/submission-types",
            doc::SUBMISSION_TYPES,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                submission_types(ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/submission-types/{id}",
            doc::SUBMISSION_TYPE,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                submission_type(ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/question-options",
            doc::QUESTION_OPTIONS,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                question_options(ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/question-options/{id}",
            doc::QUESTION_OPTION,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                question_option(ctx, params, &id)
            }
        ),
    ]
}
