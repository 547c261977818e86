//! The JSON objects of pretalx's versioned API (`Pretalx-Version: v1`),
//! per role (`shared/spec/pretalx-v1.md` §6, with §13's differences): a
//! second set of views over the same catalog and the same visibility rules
//! (`access`) as the legacy views in `views`. Related objects are ids;
//! organiser-only fields are `Option`s left out for everyone else.

use serde::ser::{Serialize, Serializer};
use serde::Serialize as DeriveSerialize;
use smallvec::SmallVec;
use utoipa::ToSchema;

use crate::model::*;

use super::access::{resource_visible_to, Access, Role};
use crate::model::time::{format_in, is_midnight_in};

/// A translated text as v1 writes it: the object of its locales, or with
/// `lang` (one of the event's locales) that locale's text as a plain
/// string, `""` when it has none (also for a text never set, as pretalx
/// writes it); without `lang`, `null` for a text never set.
#[derive(Clone, Copy)]
pub struct Text<'a> {
    value: &'a I18n,
    lang: Option<&'a str>,
}

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.value.is_null() && self.lang.is_none() {
            return serializer.serialize_none();
        }
        match self.lang {
            None => self.value.serialize(serializer),
            Some(lang) => serializer.serialize_str(
                self.value
                    .0
                    .iter()
                    .find(|(locale, _)| locale == lang)
                    .map_or("", |(_, text)| text.as_str()),
            ),
        }
    }
}

impl utoipa::PartialSchema for Text<'_> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(I18n::schema())
            .item(ObjectBuilder::new().schema_type(Type::String))
            .description(Some(
                "Translated text: locale to text, or with `lang` the text in that locale",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Text<'_> {}

// ---------------------------------------------------------------------------
// `expand`

/// What `expand` asks for (pretalx-v1.md §5.3): comma lists, repeated
/// parameters merged; a dotted name expands its parents too; at most
/// three levels; unknown names expand nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expansion(Vec<(String, Expansion)>);

impl Expansion {
    pub const MAX_DEPTH: usize = 3;

    pub fn parse<'v>(values: impl IntoIterator<Item = &'v str>) -> Self {
        let mut expansion = Expansion::default();
        for path in values.into_iter().flat_map(|v| v.split(',')) {
            let names: Vec<&str> = path.trim().split('.').collect();
            if names.iter().any(|n| n.is_empty()) {
                continue;
            }
            let mut at = &mut expansion;
            for name in names.into_iter().take(Self::MAX_DEPTH) {
                let index = match at.0.iter().position(|(n, _)| n == name) {
                    Some(i) => i,
                    None => {
                        at.0.push((name.to_string(), Expansion::default()));
                        at.0.len() - 1
                    }
                };
                at = &mut at.0[index].1;
            }
        }
        expansion
    }

    /// The expansion below `name`, when `name` is expanded.
    pub fn get(&self, name: &str) -> Option<&Expansion> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, e)| e)
    }
}

/// A related object: its id, or with `expand` the object.
#[derive(DeriveSerialize)]
#[serde(untagged)]
pub enum Ref<I, T> {
    Id(I),
    Object(T),
}

/// Related objects: their ids, or with `expand` the objects.
#[derive(DeriveSerialize)]
#[serde(untagged)]
pub enum Refs<I, T> {
    Ids(Vec<I>),
    Objects(Vec<T>),
}

fn reference_schema(
    description: &str,
    list: bool,
    nullable: bool,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
    let mut one = OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Integer))
        .item(ObjectBuilder::new().schema_type(Type::String))
        .item(ObjectBuilder::new().schema_type(Type::Object));
    if nullable {
        one = one.item(ObjectBuilder::new().schema_type(Type::Null));
    }
    if list {
        ArrayBuilder::new()
            .items(one)
            .description(Some(description))
            .into()
    } else {
        one.description(Some(description)).into()
    }
}

/// The schema of a `Ref` field (`#[schema(schema_with = one_ref)]`).
fn one_ref() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    reference_schema("An id or code; with `expand`, the object", false, false)
}

/// The schema of an `Option<Ref>` field: null where there is none.
fn nullable_ref() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    reference_schema(
        "An id or code, or null; with `expand`, the object",
        false,
        true,
    )
}

/// The schema of a `Refs` field.
fn many_refs() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    reference_schema("Ids or codes; with `expand`, the objects", true, false)
}

// ---------------------------------------------------------------------------
// Events

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Event)]
pub struct EventView<'a> {
    pub name: Text<'a>,
    pub slug: &'a str,
    pub is_public: bool,
    #[schema(format = Date)]
    pub date_from: String,
    #[schema(required = true, format = Date)]
    pub date_to: Option<String>,
    pub timezone: &'a str,
    /// The detail's fields; the list shows the six above. (The detail's
    /// schema is both merged: `openapi::merged`.)
    #[schema(ignore)]
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub detail: Option<EventDetail<'a>>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::EventDetail)]
pub struct EventDetail<'a> {
    pub email: &'a str,
    pub primary_color: Option<&'a str>,
    pub custom_domain: Option<&'a str>,
    pub logo: Option<&'a str>,
    pub header_image: Option<&'a str>,
    /// pretalx 2026.1.
    pub og_image: Option<&'a str>,
    pub locale: &'a str,
    pub locales: Vec<&'a str>,
    pub content_locales: Vec<&'a str>,
}

/// The event in the list (`detail` false) or on its own.
pub fn event<'a>(event: &'a Event, detail: bool, lang: Option<&'a str>) -> EventView<'a> {
    EventView {
        name: Text {
            value: &event.name,
            lang,
        },
        slug: &event.slug,
        is_public: event.is_public,
        date_from: event.date_from.to_string(),
        date_to: event.date_to.map(|d| d.to_string()),
        timezone: &event.timezone,
        detail: detail.then(|| EventDetail {
            email: &event.email,
            primary_color: event.primary_color.as_deref(),
            custom_domain: event.custom_domain.as_deref(),
            logo: event.logo.as_deref(),
            header_image: event.header_image.as_deref(),
            og_image: event.og_image.as_deref(),
            locale: &event.locale,
            locales: event.locales().iter().map(String::as_str).collect(),
            content_locales: event.content_locales().iter().map(String::as_str).collect(),
        }),
    }
}

/// `lang` as v1 reads it: a locale the event offers, else ignored.
pub fn lang_of<'a>(event: &Event, asked: Option<&'a str>) -> Option<&'a str> {
    asked.filter(|lang| event.locales().iter().any(|l| l == lang))
}

// ---------------------------------------------------------------------------
// Objects inside an event

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Availability)]
pub struct AvailabilityView {
    #[schema(format = DateTime)]
    pub start: String,
    #[schema(format = DateTime)]
    pub end: String,
    #[serde(rename = "allDay")]
    pub all_day: bool,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Room)]
pub struct RoomView<'a> {
    pub id: i64,
    pub name: Text<'a>,
    pub description: Text<'a>,
    pub uuid: String,
    pub guid: Option<&'a str>,
    pub capacity: Option<i64>,
    pub position: Option<i64>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speaker_info: Option<Text<'a>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availabilities: Option<Vec<AvailabilityView>>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Track)]
pub struct TrackView<'a> {
    pub id: i64,
    pub name: Text<'a>,
    pub description: Text<'a>,
    pub color: &'a str,
    pub position: Option<i64>,
    pub requires_access_code: bool,
    /// pretalx 2026.2.
    pub attendee_signup_required: bool,
}

/// A track, its texts in `lang` when given.
fn track_view<'a>(track: &'a Track, lang: Option<&'a str>) -> TrackView<'a> {
    let text = |value| Text { value, lang };
    TrackView {
        id: track.id,
        name: text(&track.name),
        description: text(&track.description),
        color: &track.color,
        position: track.position,
        requires_access_code: track.requires_access_code,
        attendee_signup_required: track.attendee_signup_required,
    }
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::SubmissionType)]
pub struct SubmissionTypeView<'a> {
    pub id: i64,
    pub name: Text<'a>,
    pub default_duration: i64,
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    pub requires_access_code: bool,
    /// pretalx 2026.2.
    pub attendee_signup_required: bool,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Tag)]
pub struct TagView<'a> {
    pub id: i64,
    pub tag: &'a str,
    pub description: Text<'a>,
    pub color: &'a str,
    pub is_public: bool,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::QuestionOption)]
pub struct OptionView<'a> {
    pub id: i64,
    /// In the options list; left out where nested in its question.
    /// Expanded: the question (without its options).
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = one_ref)]
    pub question: Option<Ref<i64, Box<QuestionView<'a>>>>,
    pub answer: Text<'a>,
    pub position: i64,
    /// pretalx 2026.1; null when the source gave none. Left out in an
    /// organiser's question (pretalx 2026's organiser serializer nests
    /// options without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifier: Option<Option<&'a str>>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Question)]
pub struct QuestionView<'a> {
    pub id: i64,
    /// pretalx 2026.1; null when the source gave none.
    pub identifier: Option<&'a str>,
    pub question: Text<'a>,
    pub help_text: Text<'a>,
    pub default_answer: Option<&'a str>,
    pub variant: QuestionVariant,
    pub target: QuestionTarget,
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    #[schema(format = DateTime)]
    pub freeze_after: Option<String>,
    pub question_required: QuestionRequired,
    pub position: i64,
    #[schema(schema_with = many_refs)]
    pub tracks: Refs<i64, TrackView<'a>>,
    #[schema(schema_with = many_refs)]
    pub submission_types: Refs<i64, SubmissionTypeView<'a>>,
    /// Ids for the public, objects for organisers and with `expand`; left
    /// out where the question is nested in an answer or an option.
    #[schema(schema_with = many_refs)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Refs<i64, OptionView<'a>>>,
    pub min_length: Option<i64>,
    pub max_length: Option<i64>,
    pub min_number: Option<&'a str>,
    pub max_number: Option<&'a str>,
    #[schema(format = Date)]
    pub min_date: Option<String>,
    #[schema(format = Date)]
    pub max_date: Option<String>,
    #[schema(format = DateTime)]
    pub min_datetime: Option<String>,
    #[schema(format = DateTime)]
    pub max_datetime: Option<String>,
    pub icon: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_public: Option<bool>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contains_personal_data: Option<bool>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_visible_to_reviewers: Option<bool>,
}

/// Renders v1 objects for one caller in one event.
#[derive(Clone, Copy)]
pub struct V1Renderer<'a> {
    pub access: &'a Access<'a>,
    pub users: &'a super::catalog::Users,
    /// `lang`, when the event offers it.
    pub lang: Option<&'a str>,
    /// What to expand below the objects this renders.
    pub expand: &'a Expansion,
    /// Expanded objects show the public field set whatever the caller's
    /// role (what they show still follows the caller's rights).
    nested: bool,
    /// The list or detail being served, which decides what nested objects list.
    serving: Serving,
    /// Per submission, its speakers' users as the catalog found them once
    /// (else each code is looked up in `users`).
    speaker_users: Option<&'a super::catalog::SpeakerUsers>,
    /// Objects a page repeats, serialised once per request.
    memo: Option<&'a Memo>,
}

/// The JSON of objects one page repeats, serialised once per request:
/// expanded questions (pytanis expands every answer's question, the same
/// few questions a hundred times a page) and answers' options, tracks,
/// submission types, tags and rooms. Keyed by what decides their JSON
/// besides the request's caller and `lang`: the kind, the object and the
/// expansion below it (hashed with Fx: SipHash was 3 % of an expanded
/// page, perf).
///
/// Objects not rendered yet in the request are taken from the snapshot's
/// `SharedJson`, keyed by the renderer's context: everything a memoised
/// object's JSON may depend on besides the object.
#[derive(Default)]
pub struct Memo {
    objects: std::cell::RefCell<rustc_hash::FxHashMap<(Memoized, i64, usize), std::rc::Rc<str>>>,
    /// Each renderer's context, by its expansion's address and whether nested.
    contexts: std::cell::RefCell<rustc_hash::FxHashMap<(usize, bool), std::rc::Rc<str>>>,
}

impl Memo {
    /// The context of the objects `renderer` renders, for `SharedJson`:
    /// the caller's role, whether nested, the view served, `lang` and the
    /// expansion below.
    fn context(&self, renderer: &V1Renderer<'_>) -> std::rc::Rc<str> {
        let key = (
            std::ptr::from_ref(renderer.expand) as usize,
            renderer.nested,
        );
        self.contexts
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| {
                format!(
                    "{:?} {} {:?} {:?} {:?}",
                    renderer.access.role,
                    renderer.nested,
                    renderer.serving,
                    renderer.lang,
                    renderer.expand
                )
                .into()
            })
            .clone()
    }
}

/// The kinds of objects a page memoises.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Memoized {
    Question,
    Track,
    SubmissionType,
    Tag,
    Room,
    /// A chosen option, as an answer shows it (without its question).
    Option,
}

/// JSON text written as it is. Serialised only by `crate::json` (every
/// body: `http::endpoint::json`) and sonic-rs (`Shape::apply`), which both write a
/// struct of sonic-rs's lazy-value token verbatim, as sonic-rs serialises
/// its own `LazyValue`: parsing the text again to build one was a tenth
/// of an expanded page (perf, docs/bench-log.md).
pub struct RawJson(std::rc::Rc<str>);

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::json::Raw(&self.0).serialize(serializer)
    }
}

/// An expanded object: rendered here, or its memoised JSON.
#[derive(DeriveSerialize)]
#[serde(untagged)]
pub enum Expanded<T> {
    View(Box<T>),
    Json(RawJson),
}

/// The endpoint a renderer serves. pretalx's views put different things
/// into their serializers' context, and its nested serializers read them
/// (pretalx-v1.md §5.3): only the submissions view has the schedule (a
/// nested submission's `slots` are `[]` elsewhere) and shows private
/// resources to organisers (elsewhere nested submissions show the public
/// ones); the speakers and reviews views give nested speakers their
/// submissions; the reviews view has no questions (nested answers `[]`).
/// pretalx 2026: only the submissions and speakers views give questions,
/// so only there a nested speaker lists their answers; the slots and
/// schedules views (`Schedule`) are the submissions view's otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Serving {
    #[default]
    Submissions,
    Speakers,
    Reviews,
    Schedule,
}

/// The order pretalx lists submissions in where it does not order them (a
/// speaker's submissions, ties of `o=`): by primary key. The mirror knows
/// the keys of scheduled submissions (from the schedule exports); those
/// without one follow, by code.
pub fn upstream_order(sub: &Submission) -> (bool, Option<i64>, &str) {
    (sub.id.is_none(), sub.id, &sub.code)
}

/// A text pretalx stores in a nullable field: null when empty.
fn nullable(text: &str) -> Option<&str> {
    (!text.is_empty()).then_some(text)
}

/// Python's `round(value, 1)`, as pretalx rounds `mean_score`: to the
/// nearest tenth of the exact binary value, ties to even (Rust's
/// formatting rounds the same way).
fn round_tenth(value: f64) -> f64 {
    // The nearest tenth is the nearest integer to the exact product with
    // ten, over ten, and k / 10 is the double nearest to the decimal k/10,
    // as parsing it would give; formatting exactly was 3 % of an
    // organiser's page (perf).
    let tenths = value * 10.0;
    if tenths.is_nan() || tenths.abs() >= 1e15 {
        return format!("{value:.1}").parse().unwrap_or(value);
    }
    let floor = tenths.floor();
    // The product's rounding error, exactly (a fused multiply-add rounds
    // once): near a tie it decides which side the exact product is on, as
    // formatting the value exactly did, at a thousandth of the cost
    // (means of half-point scores are ties often: callgrind).
    let error = value.mul_add(10.0, -tenths);
    // Compared, not subtracted (a difference would round): `floor + 0.5`
    // is exact below 2^50.
    let up = match tenths.partial_cmp(&(floor + 0.5)) {
        Some(std::cmp::Ordering::Equal) => match error.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Equal) => floor % 2.0 != 0.0, // a tie: to even
            side => side == Some(std::cmp::Ordering::Greater),
        },
        side => side == Some(std::cmp::Ordering::Greater),
    };
    let rounded = (if up { floor + 1.0 } else { floor }) / 10.0;
    // -0.04 rounds to -0.0, as Python and formatting round it.
    if rounded == 0.0 {
        rounded.copysign(value)
    } else {
        rounded
    }
}

static NOTHING: Expansion = Expansion(Vec::new());

impl<'a> V1Renderer<'a> {
    pub fn new(
        access: &'a Access<'a>,
        users: &'a super::catalog::Users,
        lang: Option<&'a str>,
    ) -> Self {
        V1Renderer {
            access,
            users,
            lang: lang_of(&access.data.event, lang),
            expand: &NOTHING,
            nested: false,
            serving: Serving::default(),
            speaker_users: None,
            memo: None,
        }
    }

    /// The same renderer, reading speakers' users from the catalog's
    /// per-submission table (`Catalog::speaker_users`).
    pub fn with_speaker_users(self, table: Option<&'a super::catalog::SpeakerUsers>) -> Self {
        V1Renderer {
            speaker_users: table,
            ..self
        }
    }

    /// The same renderer, keeping repeated objects' JSON in `memo`.
    pub fn memoizing(self, memo: &'a Memo) -> Self {
        V1Renderer {
            memo: Some(memo),
            ..self
        }
    }

    /// `render`'s object, serialised once per page where there is a memo.
    fn memoized<T: Serialize>(
        &self,
        kind: Memoized,
        id: i64,
        render: impl FnOnce() -> T,
    ) -> Expanded<T> {
        match self.memo {
            None => Expanded::View(Box::new(render())),
            Some(_) => Expanded::Json(RawJson(self.memoized_json(kind, id, render))),
        }
    }

    /// `render`'s object as JSON: once per page where there is a memo.
    fn memoized_json<T: Serialize>(
        &self,
        kind: Memoized,
        id: i64,
        render: impl FnOnce() -> T,
    ) -> std::rc::Rc<str> {
        // A view always serialises; "null" would only hide a bug.
        let json = |view: T| -> String {
            crate::json::fragment(&view)
                .ok()
                .and_then(|json| String::from_utf8(json).ok())
                .unwrap_or_else(|| "null".into())
        };
        let Some(memo) = self.memo else {
            return json(render()).into();
        };
        // Nothing expanded below: one JSON wherever the object is expanded
        // (a submission's answers' questions and its speakers' are the same
        // objects; keyed apart, each page wrote each question twice).
        let below = match self.expand.0.is_empty() {
            true => 0,
            false => std::ptr::from_ref(self.expand) as usize,
        };
        let key = (kind, id, below);
        if let Some(text) = memo.objects.borrow().get(&key) {
            return text.clone();
        }
        // Then the snapshot's, for this renderer's context. Rendered with
        // the memo released: a view may memoise its own parts.
        let context = memo.context(self);
        let shared = self
            .access
            .data
            .shared_json
            .get_or_render(kind as u8, id, &context, || json(render()));
        let text: std::rc::Rc<str> = std::rc::Rc::from(&*shared);
        memo.objects.borrow_mut().insert(key, text.clone());
        text
    }

    /// The same renderer, for the objects of `serving`.
    pub fn serving(self, serving: Serving) -> Self {
        V1Renderer { serving, ..self }
    }

    /// The same renderer, expanding `expand` below its objects.
    pub fn expanding(self, expand: &'a Expansion) -> Self {
        V1Renderer { expand, ..self }
    }

    /// The renderer of the objects `name` refers to, when `name` is expanded.
    fn child(&self, name: &str) -> Option<V1Renderer<'a>> {
        let expand = self.expand.get(name)?;
        Some(V1Renderer {
            expand,
            nested: true,
            ..*self
        })
    }

    fn text(&self, value: &'a I18n) -> Text<'a> {
        Text {
            value,
            lang: self.lang,
        }
    }

    fn dt(&self, value: &Timestamp) -> String {
        format_in(value, &self.access.data.tz)
    }

    fn opt_dt(&self, value: &Option<Timestamp>) -> Option<String> {
        value.as_ref().map(|v| self.dt(v))
    }

    /// The organiser field set: organisers' own objects, not nested ones.
    fn is_orga(&self) -> bool {
        self.access.role == Role::Organiser && !self.nested
    }

    fn availabilities(&self, list: &[Availability]) -> Vec<AvailabilityView> {
        let tz = &self.access.data.tz;
        let mut sorted: SmallVec<[&Availability; 8]> = list.iter().collect();
        sorted.sort_by_key(|a| (a.start, a.id));
        sorted
            .into_iter()
            .map(|a| AvailabilityView {
                start: self.dt(&a.start),
                end: self.dt(&a.end),
                all_day: is_midnight_in(&a.start, tz) && is_midnight_in(&a.end, tz),
            })
            .collect()
    }

    pub fn room(&self, room: &'a Room) -> RoomView<'a> {
        let orga = self.is_orga();
        RoomView {
            id: room.id,
            name: self.text(&room.name),
            description: self.text(&room.description),
            uuid: room.guid_or_derived(&self.access.data.event.slug),
            guid: room.guid.as_deref(),
            capacity: room.capacity,
            position: room.position,
            speaker_info: orga.then(|| self.text(&room.speaker_info)),
            availabilities: orga.then(|| self.availabilities(&room.availabilities)),
        }
    }

    pub fn track(&self, track: &'a Track) -> TrackView<'a> {
        track_view(track, self.lang)
    }

    pub fn submission_type(&self, kind: &'a SubmissionType) -> SubmissionTypeView<'a> {
        SubmissionTypeView {
            id: kind.id,
            name: self.text(&kind.name),
            default_duration: kind.default_duration,
            deadline: self.opt_dt(&kind.deadline),
            requires_access_code: kind.requires_access_code,
            attendee_signup_required: kind.attendee_signup_required,
        }
    }

    pub fn tag(&self, tag: &'a Tag) -> TagView<'a> {
        TagView {
            id: tag.id,
            tag: &tag.tag,
            description: self.text(&tag.description),
            color: &tag.color,
            is_public: tag.is_public,
        }
    }

    /// The option at `index` of its question (its position); `in_list`
    /// adds the question's id, as the options list shows it.
    pub fn option(&self, question: &'a Question, index: usize, in_list: bool) -> OptionView<'a> {
        let option = &question.options[index];
        OptionView {
            id: option.id,
            question: in_list.then(|| match self.child("question") {
                None => Ref::Id(question.id),
                Some(child) => Ref::Object(Box::new(child.question(question))),
            }),
            answer: self.text(&option.answer),
            position: option.position_at(index),
            identifier: Some(option.identifier.as_deref()),
        }
    }

    pub fn question(&self, q: &'a Question) -> QuestionView<'a> {
        let orga = self.is_orga();
        let mut tracks = q.tracks.clone();
        tracks.sort_unstable();
        let mut submission_types = q.submission_types.clone();
        submission_types.sort_unstable();
        let options = if orga || self.child("options").is_some() {
            Refs::Objects(
                (0..q.options.len())
                    .map(|i| {
                        let mut option = self.option(q, i, false);
                        // Unexpanded, an organiser gets 2026's nested
                        // option serializer, which has no identifier.
                        if orga && self.child("options").is_none() {
                            option.identifier = None;
                        }
                        option
                    })
                    .collect(),
            )
        } else {
            Refs::Ids(q.options.iter().map(|o| o.id).collect())
        };
        let data = self.access.data;
        let tracks = match self.child("tracks") {
            None => Refs::Ids(tracks),
            Some(child) => Refs::Objects(
                tracks
                    .iter()
                    .filter_map(|&id| data.track(id))
                    .map(|t| child.track(t))
                    .collect(),
            ),
        };
        let submission_types = match self.child("submission_types") {
            None => Refs::Ids(submission_types),
            Some(child) => Refs::Objects(
                submission_types
                    .iter()
                    .filter_map(|&id| data.submission_type(id))
                    .map(|t| child.submission_type(t))
                    .collect(),
            ),
        };
        QuestionView {
            id: q.id,
            identifier: q.identifier.as_deref(),
            question: self.text(&q.question),
            help_text: self.text(&q.help_text),
            default_answer: q.default_answer.as_deref(),
            variant: q.variant,
            target: q.target,
            deadline: self.opt_dt(&q.deadline),
            freeze_after: self.opt_dt(&q.freeze_after),
            question_required: q.question_required,
            position: q.position,
            tracks,
            submission_types,
            options: (!self.nested).then_some(options),
            min_length: q.min_length,
            max_length: q.max_length,
            min_number: q.min_number.as_ref().map(Decimal::as_str),
            max_number: q.max_number.as_ref().map(Decimal::as_str),
            min_date: q.min_date.map(|d| d.to_string()),
            max_date: q.max_date.map(|d| d.to_string()),
            min_datetime: self.opt_dt(&q.min_datetime),
            max_datetime: self.opt_dt(&q.max_datetime),
            icon: q.icon.as_deref(),
            active: orga.then_some(q.active),
            is_public: orga.then_some(q.is_public),
            contains_personal_data: orga.then_some(q.contains_personal_data),
            is_visible_to_reviewers: orga.then_some(q.is_visible_to_reviewers),
        }
    }
}

// The views by resource. Each part shares this module's imports and the
// renderer (`use super::*`); their public names are this module's.
mod answers;
mod schedule;
mod speakers;
mod submissions;
mod teams;
#[cfg(test)]
mod tests;

pub use answers::*;
pub use schedule::*;
pub use speakers::*;
pub use submissions::*;
pub use teams::*;
