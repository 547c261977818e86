//! What v1 shares across lists: its pagination, `o` (ordering), `q`,
//! `fields`, `omit` and `expand`, and its refusals.

use serde::Serialize;

use crate::domain::access::{Access, Role};
use crate::domain::views_v1 as views;
use crate::http::context::{Caller, EventContext};
use crate::http::endpoint::{json, ApiResult};
use crate::http::error::ApiError;
use crate::http::pagination::{Pagination, V1_MAX_PAGE_SIZE, V1_PAGE_SIZE};
use crate::http::params::{digits_id, Params};
use crate::model::{I18n, SubmissionState};

/// `fields` and `omit` (top-level fields only, as pretalx's
/// drf-flex-fields reads them; comma lists, repeated parameters merged),
/// where pretalx's serializers have flex fields: questions and options
/// (not events, rooms, tracks, submission types, tags).
pub(super) struct Shape {
    fields: Option<Vec<String>>,
    omit: Vec<String>,
}

impl Shape {
    pub(super) fn of(params: &Params) -> Self {
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

    pub(super) fn is_whole(&self) -> bool {
        self.fields.is_none() && self.omit.is_empty()
    }

    /// The object with only the fields asked for, in its own key order
    /// (a `serde_json` map would sort the keys): its top-level fields are
    /// kept as raw JSON text, in order.
    pub(super) fn apply<T: Serialize>(&self, item: &T) -> Shaped {
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
pub(super) struct Shaped(Vec<(String, sonic_rs::OwnedLazyValue)>);

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
pub(super) type Orderings<'f, T> = &'f [(&'f str, fn(&T) -> Key)];

pub(super) fn order<T>(params: &Params, items: &mut [T], fields: Orderings<T>) {
    if let Some((descending, key)) = ordering(params, fields) {
        sort_by(items, descending, key);
    }
}

/// `order` for a list whose default order is not by id (rooms and
/// questions, by position): pretalx orders by the field alone, so ties
/// come as the database gives them, by primary key (pretalx 2026.2.1 on
/// rooms of equal capacity).
pub(super) fn order_ties_by_id<T>(
    params: &Params,
    items: &mut [T],
    fields: Orderings<T>,
    id: fn(&T) -> i64,
) {
    if let Some((descending, key)) = ordering(params, fields) {
        items.sort_by_key(id);
        sort_by(items, descending, key);
    }
}

/// Descending or not, and the sort key.
type Ordering<T> = (bool, fn(&T) -> Key);

/// The direction and key `o` asks for, if it names one of `fields`.
fn ordering<T>(params: &Params, fields: Orderings<T>) -> Option<Ordering<T>> {
    let wanted = params.get("o")?;
    let (descending, name) = match wanted.strip_prefix('-') {
        Some(name) => (true, name),
        None => (false, wanted),
    };
    let (_, key) = fields.iter().find(|(field, _)| *field == name)?;
    Some((descending, *key))
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
pub(super) fn first_text(value: &I18n) -> Key {
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

/// django-filter's error for a value that names none of a filter's
/// choices (a ModelChoiceFilter's, which does not repeat the value).
pub(super) const INVALID_CHOICE: &str =
    "Select a valid choice. That choice is not one of the available choices.";

/// Every value of a repeatable state filter (django-filter's
/// MultipleChoiceFilter), each checked: an empty value is a value too,
/// and not a state.
pub(super) fn states(params: &mut Params, name: &str) -> Vec<SubmissionState> {
    let values: Vec<String> = params
        .pairs
        .iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .collect();
    let mut states = Vec::new();
    for value in values {
        match SubmissionState::from_name(&value) {
            Some(state) => states.push(state),
            None => params.error(
                name,
                format!("Select a valid choice. {value} is not one of the available choices."),
            ),
        }
    }
    states
}

/// An id filter among the `known` ids (a ModelChoiceFilter): anything
/// else, digits or not, is [`INVALID_CHOICE`].
pub(super) fn known_id(
    params: &mut Params,
    name: &str,
    known: impl Fn(i64) -> bool,
) -> Option<i64> {
    let id = digits_id(params.get(name)?).filter(|&id| known(id));
    if id.is_none() {
        params.error(name, INVALID_CHOICE);
    }
    id
}

/// A code filter (a ModelChoiceFilter by code), in lower case, among the
/// codes `known` answers for (given in lower case): the choices are what
/// the caller is shown, so that the error tells nothing about the rest.
pub(super) fn known_code(
    params: &mut Params,
    name: &str,
    known: impl Fn(&str) -> bool,
) -> Option<String> {
    let code = params.get(name)?.to_lowercase();
    if known(&code) {
        Some(code)
    } else {
        params.error(name, INVALID_CHOICE);
        None
    }
}

/// A number filter (django-filter's NumberFilter, a decimal): an id, or
/// none for a number no id has (`1.5`); "Enter a number." otherwise.
pub(super) fn number(params: &mut Params, name: &str) -> Option<NumberFilter> {
    let value = params.get(name)?.trim().to_string();
    if let Ok(id) = value.parse::<i64>() {
        return Some(NumberFilter::Id(id));
    }
    match value.parse::<f64>() {
        Ok(n) if n.is_finite() && n.fract() == 0.0 && n.abs() < 9.0e15 => {
            Some(NumberFilter::Id(n as i64))
        }
        Ok(n) if n.is_finite() => Some(NumberFilter::Nothing),
        _ => {
            params.error(name, "Enter a number.");
            None
        }
    }
}

/// What a [`number`] filter keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NumberFilter {
    Id(i64),
    /// A number that is no id: nothing matches.
    Nothing,
}

impl NumberFilter {
    pub(super) fn keeps(self, id: i64) -> bool {
        self == NumberFilter::Id(id)
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
pub(super) fn path_id(segment: &str) -> Result<i64, ApiError> {
    digits_id(segment).ok_or(ApiError::NotFound)
}

/// A detail the caller may not read: 404 for the public (pretalx finds
/// no object in their empty set before it asks for credentials), else
/// what the list answers.
pub(super) fn refused_detail(caller: &Caller) -> ApiError {
    if caller.user_code.is_none() {
        ApiError::NotFound
    } else {
        refused(caller)
    }
}

/// For the legacy dialect, the paths only v1 has do not exist.
pub fn only_in_v1(caller: &Caller) -> Result<(), ApiError> {
    match caller.api {
        crate::model::Dialect::Versioned => Ok(()),
        crate::model::Dialect::Legacy => Err(ApiError::NotFound),
    }
}

/// Rooms, tracks and submission types: organisers always, everyone else
/// while the schedule is public.
pub(super) fn sees_schedule_data(ctx: &EventContext, access: &Access) -> Result<(), ApiError> {
    if access.role == Role::Organiser || access.schedule_visible() {
        Ok(())
    } else {
        Err(refused(&ctx.caller))
    }
}
