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
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Question)]
pub struct QuestionView<'a> {
    pub id: i64,
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
/// body: `http::json`) and sonic-rs (`Shape::apply`), which both write a
/// struct of sonic-rs's lazy-value token verbatim, as sonic-rs serialises
/// its own `LazyValue`: parsing the text again to build one was a tenth
/// of an expanded page (perf, BENCHMARKS.md).
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Serving {
    #[default]
    Submissions,
    Speakers,
    Reviews,
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
                    .map(|i| self.option(q, i, false))
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

// ---------------------------------------------------------------------------
// Submissions and speakers

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Submission)]
pub struct SubmissionView<'a> {
    pub code: &'a str,
    pub title: &'a str,
    /// Speaker codes (none where the submission is anonymised for the caller).
    #[schema(schema_with = many_refs)]
    pub speakers: SpeakerRefs<'a>,
    #[schema(schema_with = one_ref)]
    pub submission_type: Ref<i64, Expanded<SubmissionTypeView<'a>>>,
    #[schema(schema_with = nullable_ref)]
    pub track: Option<Ref<i64, Expanded<TrackView<'a>>>>,
    /// Tag ids: the public ones for the public, all for organisers and reviewers.
    #[schema(schema_with = many_refs)]
    pub tags: Refs<i64, Expanded<TagView<'a>>>,
    pub state: SubmissionState,
    #[serde(rename = "abstract")]
    pub abstract_: &'a str,
    pub description: &'a str,
    pub duration: i64,
    pub slot_count: i64,
    pub content_locale: &'a str,
    pub do_not_record: bool,
    pub image: Option<&'a str>,
    /// Ids of the resources the caller may see.
    #[schema(schema_with = many_refs)]
    pub resources: Refs<i64, ResourceView<'a>>,
    /// Ids of the submission's slots in the released schedule (the visible
    /// ones; organisers all); left out where nested in a slot.
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = many_refs)]
    pub slots: Option<Refs<i64, SlotView<'a>>>,
    /// Ids of the answers the caller may see.
    #[schema(schema_with = many_refs)]
    pub answers: AnswerRefs<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_state: Option<Option<SubmissionState>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_featured: Option<bool>,
    /// null when empty, as pretalx's nullable field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_notes: Option<Option<&'a str>>,
    /// Organisers only (pretalx shows reviewers these too: section 13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invitation_token: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_code: Option<Option<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_code: Option<Option<&'a str>>,
    /// The organisers' anonymised texts as a JSON string (`"{}"` when none).
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anonymised_data: Option<std::borrow::Cow<'static, str>>,
    /// Ids of the reviews the caller may see.
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviews: Option<Vec<i64>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_reviewers: Option<Vec<&'a str>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_anonymised: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median_score: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_score: Option<Option<f64>>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Speaker)]
pub struct SpeakerView<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub biography: &'a str,
    /// Codes of the speaker's submissions the caller sees with names
    /// (nested in a submission: none, unless expanded).
    #[schema(schema_with = many_refs)]
    pub submissions: Refs<&'a str, SubmissionView<'a>>,
    /// `""` when the speaker has none.
    pub avatar_url: &'a str,
    #[schema(schema_with = many_refs)]
    pub answers: AnswerRefs<'a>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timezone: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_arrived: Option<bool>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availabilities: Option<Vec<AvailabilityView>>,
    /// null when empty, as pretalx's nullable field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_notes: Option<Option<&'a str>>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Resource)]
pub struct ResourceView<'a> {
    pub id: i64,
    pub resource: &'a str,
    pub description: &'a str,
}

impl<'a> V1Renderer<'a> {
    /// Brings what the views of `positions` (one page) will read into the
    /// CPU's caches, level by level: each submission and where its groups
    /// start, then its texts and groups, then its answers, reviews,
    /// speakers and their users, then their texts, then the speakers'
    /// answers. Every level's addresses are known once the level before
    /// has arrived, so each waits for one round of misses instead of the
    /// views waiting for every pointer in turn: on an event larger than
    /// the caches those misses were most of a page's time (perf,
    /// BENCHMARKS.md).
    pub fn prefetch_submissions(&self, positions: &[super::catalog::SubmissionIx]) {
        use crate::memory::{prefetch, prefetch_arcstr, prefetch_value};
        let data: &'a super::catalog::EventData = self.access.data;
        let event = &data.event;
        let speakers = self.child("speakers").is_some();
        let speaker_answers = self
            .child("speakers")
            .is_some_and(|child| child.child("answers").is_some());
        for &i in positions {
            prefetch_value(&event.submissions[i]);
            data.answers_of_submission.prefetch_start(i);
            data.reviews_of_submission.prefetch_start(i);
            data.speaker_profiles.prefetch_start(i);
            if let Some(table) = self.speaker_users {
                table.prefetch_start(i);
            }
        }
        for &i in positions {
            let sub = &event.submissions[i];
            for text in [
                &sub.title,
                &sub.abstract_,
                &sub.description,
                &sub.notes,
                &sub.internal_notes,
            ] {
                prefetch(text);
            }
            for text in [
                Some(&sub.code),
                Some(&sub.content_locale),
                sub.invitation_token.as_ref(),
                sub.review_code.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                prefetch_arcstr(text);
            }
            prefetch_value(sub.speakers.as_slice());
            prefetch_value(sub.tags.as_slice());
            prefetch_value(sub.resources.as_slice());
            prefetch_value(sub.slots.as_slice());
            prefetch_value(sub.assigned_reviewers.as_slice());
            data.answers_of_submission.prefetch_group(i);
            data.reviews_of_submission.prefetch_group(i);
            data.speaker_profiles.prefetch_group(i);
            if let Some(table) = self.speaker_users {
                table.prefetch_group(i);
            }
        }
        let answer = |a| prefetch_answer(data, a);
        let answer_texts = |a| prefetch_answer_texts(data, a);
        let profiles = |i| data.speaker_profiles.of(i).iter().flatten().copied();
        for &i in positions {
            data.answers_of_submission
                .of(i)
                .iter()
                .copied()
                .for_each(answer);
            for &r in data.reviews_of_submission.of(i) {
                prefetch_value(&event.reviews[r]);
                prefetch_value(&data.review_submission[r]);
            }
            let sub = &event.submissions[i];
            sub.speakers.iter().for_each(prefetch_arcstr);
            for resource in &sub.resources {
                prefetch(&resource.resource);
                prefetch(&resource.description);
            }
            sub.slots
                .iter()
                .filter_map(|slot| slot.guid.as_deref())
                .for_each(prefetch);
            sub.assigned_reviewers
                .iter()
                .map(String::as_str)
                .for_each(prefetch);
            if speakers {
                for p in profiles(i) {
                    prefetch_value(&event.speakers[p]);
                    data.answers_of_person.prefetch_start(p);
                }
                if let Some(table) = self.speaker_users {
                    table
                        .of(i)
                        .iter()
                        .flatten()
                        .for_each(|user| prefetch_value(&**user));
                }
            }
        }
        for &i in positions {
            data.answers_of_submission
                .of(i)
                .iter()
                .copied()
                .for_each(answer_texts);
            if speakers {
                for p in profiles(i) {
                    prefetch_profile_texts(&event.speakers[p]);
                    data.answers_of_person.prefetch_group(p);
                }
                if let Some(table) = self.speaker_users {
                    table
                        .of(i)
                        .iter()
                        .flatten()
                        .for_each(|user| prefetch_user_texts(user));
                }
            }
        }
        if speaker_answers {
            for &i in positions {
                for p in profiles(i) {
                    data.answers_of_person
                        .of(p)
                        .iter()
                        .copied()
                        .for_each(answer);
                }
            }
            for &i in positions {
                for p in profiles(i) {
                    data.answers_of_person
                        .of(p)
                        .iter()
                        .copied()
                        .for_each(answer_texts);
                }
            }
        }
    }
}

impl<'a> V1Renderer<'a> {
    /// `prefetch_submissions` for a page of speakers: each profile and
    /// where its groups start, then its texts, user code and groups, then
    /// its user, submissions and answers, then their texts.
    pub fn prefetch_speakers(&self, positions: &[super::catalog::ProfileIx]) {
        use crate::memory::{prefetch_arcstr, prefetch_value};
        let data: &'a super::catalog::EventData = self.access.data;
        let event = &data.event;
        for &p in positions {
            prefetch_value(&event.speakers[p]);
            data.profile_submissions.prefetch_start(p);
            data.answers_of_person.prefetch_start(p);
        }
        for &p in positions {
            let profile = &event.speakers[p];
            prefetch_arcstr(&profile.user);
            prefetch_profile_texts(profile);
            data.profile_submissions.prefetch_group(p);
            data.answers_of_person.prefetch_group(p);
        }
        for &p in positions {
            if let Some(user) = self.users.get(event.speakers[p].user.as_str()) {
                prefetch_value(&**user);
            }
            for &i in data.profile_submissions.of(p) {
                prefetch_value(&event.submissions[i]);
            }
            for &a in data.answers_of_person.of(p) {
                prefetch_answer(data, a);
            }
        }
        for &p in positions {
            if let Some(user) = self.users.get(event.speakers[p].user.as_str()) {
                prefetch_user_texts(user);
            }
            for &i in data.profile_submissions.of(p) {
                prefetch_arcstr(&event.submissions[i].code);
            }
            for &a in data.answers_of_person.of(p) {
                prefetch_answer_texts(data, a);
            }
        }
    }
}

/// An answer's record and the catalog's facts on it (`V1Renderer::prefetch_submissions`).
fn prefetch_answer(data: &super::catalog::EventData, a: super::catalog::AnswerIx) {
    use crate::memory::prefetch_value;
    prefetch_value(&data.event.answers[a]);
    prefetch_value(&data.answer_question[a]);
    prefetch_value(&data.answer_owner[a]);
}

/// An answer's texts and chosen options, once its record has arrived
/// (the options were a sixth of an expanded page in misses: perf).
fn prefetch_answer_texts(data: &super::catalog::EventData, a: super::catalog::AnswerIx) {
    let answer = &data.event.answers[a];
    crate::memory::prefetch_value(answer.options.as_ref());
    std::iter::once(&answer.answer)
        .chain(
            [&answer.submission, &answer.person, &answer.answer_file]
                .into_iter()
                .flatten(),
        )
        .for_each(crate::memory::prefetch_arcstr);
}

/// A speaker profile's texts and availabilities, once the profile has arrived.
fn prefetch_profile_texts(profile: &SpeakerProfile) {
    crate::memory::prefetch(&profile.biography);
    crate::memory::prefetch(&profile.internal_notes);
    crate::memory::prefetch_value(profile.availabilities.as_slice());
}

/// A user's texts, once the user has arrived.
fn prefetch_user_texts(user: &User) {
    use crate::memory::{prefetch, prefetch_arcstr};
    [&user.code, &user.locale, &user.timezone]
        .into_iter()
        .for_each(prefetch_arcstr);
    for text in [Some(&user.name), Some(&user.email), user.avatar.as_ref()]
        .into_iter()
        .flatten()
    {
        prefetch(text);
    }
}

impl SubmissionView<'_> {
    /// Its texts, requested from memory before the page is serialised.
    fn prefetch_texts(&self) {
        let texts = [self.code, self.title, self.abstract_, self.description]
            .into_iter()
            .chain(self.image)
            .chain(self.notes.flatten())
            .chain(self.internal_notes.flatten())
            .chain(self.invitation_token.flatten())
            .chain(self.review_code.flatten());
        texts.for_each(crate::memory::prefetch);
    }
}

impl SpeakerView<'_> {
    /// Its texts, requested from memory before the page is serialised.
    fn prefetch_texts(&self) {
        [self.code, self.name, self.biography, self.avatar_url]
            .into_iter()
            .chain(self.email)
            .chain(self.internal_notes.flatten())
            .for_each(crate::memory::prefetch);
    }
}

/// A resource's id: pretalx's where the dataset has it, else one derived
/// from the event, the submission and the resource's place.
pub fn resource_id(event: &Event, sub: &Submission, index: usize) -> i64 {
    sub.resources[index].id.unwrap_or_else(|| {
        derived_id(&[
            "resource",
            &event.slug.to_lowercase(),
            &sub.code,
            &index.to_string(),
        ])
    })
}

/// A slot's id: pretalx's where the dataset has it, else one derived from
/// the event, the submission and the slot's place.
pub fn slot_id(event: &Event, sub: &Submission, index: usize) -> i64 {
    sub.slots[index].id.unwrap_or_else(|| {
        derived_id(&[
            "slot",
            &event.slug.to_lowercase(),
            &sub.code,
            &index.to_string(),
        ])
    })
}

/// What a submission's view and `write_submission` start from.
struct SubmissionBasics<'a> {
    data: &'a super::catalog::EventData,
    event: &'a Event,
    sub: &'a Submission,
    /// The caller sees the organiser fields.
    orga: bool,
    /// The caller sees the reviewer fields.
    reviewer: bool,
    /// The submission is anonymised to the caller.
    anonymised: bool,
    texts: super::views::ShownTexts<'a>,
}

/// The median and the mean (to a tenth) of the reviews' scores.
fn review_scores(reviews: &[&Review]) -> (Option<f64>, Option<f64>) {
    let mut scores: SmallVec<[f64; 8]> = reviews.iter().filter_map(|r| r.score).collect();
    scores.sort_by(f64::total_cmp);
    let mean = (!scores.is_empty()).then(|| scores.iter().sum::<f64>() / scores.len() as f64);
    (median(&scores), mean.map(round_tenth))
}

/// Whether the submission has anonymised texts.
fn is_anonymised(sub: &Submission) -> bool {
    sub.anonymised.as_ref().is_some_and(|a| {
        !(a.title.is_empty() && a.abstract_.is_empty() && a.description.is_empty())
    })
}

fn median(sorted: &[f64]) -> Option<f64> {
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[n / 2]),
        n => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

impl<'a> V1Renderer<'a> {
    /// The submission at `position`, as the caller sees it.
    pub fn submission(
        &self,
        position: super::catalog::SubmissionIx,
        users: &'a super::catalog::Users,
    ) -> SubmissionView<'a> {
        self.submission_in(position, users, true)
    }

    /// `with_slots`: false where nested in a slot, which leaves out its
    /// slots and answers and shows only public resources (pretalx's public
    /// serializer there).
    fn submission_in(
        &self,
        position: super::catalog::SubmissionIx,
        users: &'a super::catalog::Users,
        with_slots: bool,
    ) -> SubmissionView<'a> {
        let SubmissionBasics {
            data,
            event,
            sub,
            orga,
            reviewer,
            anonymised,
            texts,
        } = self.basics(position);
        let shown_speakers = self.shown_speakers(position, users, anonymised);
        let speakers = match self.speakers_child(with_slots) {
            None => SpeakerRefs::Ids(shown_speakers.map(|(code, _, _)| code).collect()),
            Some(child) => SpeakerRefs::Objects(SpeakerList {
                renderer: child,
                users,
                speakers: self.expanded_speakers(shown_speakers, users).collect(),
            }),
        };
        let tag_ids = self.shown_tag_ids(sub);
        let tags = match self.child("tags") {
            None => Refs::Ids(tag_ids.into_vec()),
            Some(child) => Refs::Objects(
                tag_ids
                    .iter()
                    .filter_map(|id| data.tag(*id))
                    .map(|t| child.memoized(Memoized::Tag, t.id, || child.tag(t)))
                    .collect(),
            ),
        };
        let shown_resources = self.shown_resources(sub, with_slots);
        let resources = match self.child("resources") {
            None => Refs::Ids(
                shown_resources
                    .map(|(i, _)| resource_id(event, sub, i))
                    .collect(),
            ),
            Some(_) => Refs::Objects(
                shown_resources
                    .map(|(i, r)| ResourceView {
                        id: resource_id(event, sub, i),
                        resource: &r.resource,
                        description: &r.description,
                    })
                    .collect(),
            ),
        };
        let slot_indexes = self.slot_indexes(sub);
        let slots = with_slots.then(|| match self.child("slots") {
            _ if !self.knows_schedule() => Refs::Ids(Vec::new()),
            None => Refs::Ids(
                slot_indexes
                    .iter()
                    .map(|&i| slot_id(event, sub, i))
                    .collect(),
            ),
            Some(child) => Refs::Objects(
                slot_indexes
                    .iter()
                    .map(|&index| {
                        child.slot_in(
                            SlotRef::Talk {
                                sub: position,
                                index,
                            },
                            SlotPlace::InSubmission,
                        )
                    })
                    .collect(),
            ),
        });
        let answer_positions = self.shown_answers(position, with_slots);
        let answers = match self.child("answers") {
            None => AnswerRefs::Ids(answer_positions.map(|a| event.answers[a].id).collect()),
            Some(child) => AnswerRefs::Objects(child.answer_list(answer_positions)),
        };
        let submission_type = match (
            self.child("submission_type"),
            data.submission_type(sub.submission_type),
        ) {
            (Some(child), Some(kind)) => {
                Ref::Object(child.memoized(Memoized::SubmissionType, kind.id, || {
                    child.submission_type(kind)
                }))
            }
            _ => Ref::Id(sub.submission_type),
        };
        let track = sub
            .track
            .map(|id| match (self.child("track"), data.track(id)) {
                (Some(child), Some(track)) => {
                    Ref::Object(child.memoized(Memoized::Track, track.id, || child.track(track)))
                }
                _ => Ref::Id(id),
            });
        let reviews = if orga || reviewer {
            self.shown_reviews(position)
        } else {
            SmallVec::new()
        };
        let (median, mean) = review_scores(&reviews);
        let view = SubmissionView {
            code: &sub.code,
            title: texts.title,
            speakers,
            submission_type,
            track,
            tags,
            state: sub.state,
            abstract_: texts.abstract_,
            description: texts.description,
            duration: data.duration(sub),
            slot_count: sub.slot_count,
            content_locale: &sub.content_locale,
            do_not_record: sub.do_not_record,
            image: sub.image.as_deref(),
            resources,
            slots,
            answers,
            pending_state: (orga || reviewer).then_some(sub.pending_state),
            is_featured: (orga || reviewer).then_some(sub.is_featured),
            notes: orga.then(|| nullable(&sub.notes)),
            internal_notes: orga.then(|| nullable(&sub.internal_notes)),
            invitation_token: orga.then_some(sub.invitation_token.as_deref()),
            access_code: orga.then_some(sub.access_code),
            review_code: orga.then_some(sub.review_code.as_deref()),
            anonymised_data: orga.then(|| anonymised_data(sub.anonymised.as_deref())),
            reviews: (orga || reviewer).then(|| reviews.iter().map(|r| r.id).collect()),
            assigned_reviewers: (orga || reviewer)
                .then(|| sub.assigned_reviewers.iter().map(String::as_str).collect()),
            is_anonymised: (orga || reviewer).then(|| is_anonymised(sub)),
            median_score: orga.then_some(median),
            mean_score: orga.then_some(mean),
        };
        view.prefetch_texts();
        view
    }

    /// The submission at `position` as JSON appended to `out`, byte for
    /// byte as serialising `submission(position, users)` writes it
    /// (`submissions_listed_read_as_their_details_for_each_expansion` holds
    /// the two equal),
    /// from the same parts, without the view: building, serialising and
    /// dropping a page's views and their lists was a sixth of a page with
    /// pytanis's expansion (perf, BENCHMARKS.md).
    pub fn write_submission(
        &self,
        out: &mut Vec<u8>,
        position: super::catalog::SubmissionIx,
        users: &'a super::catalog::Users,
    ) {
        use crate::json::ObjectText;
        let SubmissionBasics {
            data,
            event,
            sub,
            orga,
            reviewer,
            anonymised,
            texts,
        } = self.basics(position);
        let mut object = ObjectText::open(out);
        object.string("code", &sub.code);
        object.string("title", texts.title);
        let shown_speakers = self.shown_speakers(position, users, anonymised);
        match self.speakers_child(true) {
            None => object.array("speakers", |elements| {
                shown_speakers.for_each(|(code, _, _)| elements.string(code));
            }),
            Some(child) => object.value("speakers", |out| {
                write_array(
                    out,
                    self.expanded_speakers(shown_speakers, users),
                    |out, (profile, user)| child.write_speaker_nested(out, profile, user, users),
                );
            }),
        }
        match (
            self.child("submission_type"),
            data.submission_type(sub.submission_type),
        ) {
            (Some(child), Some(kind)) => object.raw(
                "submission_type",
                &child.memoized_json(Memoized::SubmissionType, kind.id, || {
                    child.submission_type(kind)
                }),
            ),
            _ => object.integer("submission_type", sub.submission_type),
        }
        match sub.track {
            None => object.null("track"),
            Some(id) => match (self.child("track"), data.track(id)) {
                (Some(child), Some(track)) => object.raw(
                    "track",
                    &child.memoized_json(Memoized::Track, track.id, || child.track(track)),
                ),
                _ => object.integer("track", id),
            },
        }
        let tag_ids = self.shown_tag_ids(sub);
        object.array("tags", |elements| match self.child("tags") {
            None => tag_ids.iter().for_each(|&id| elements.integer(id)),
            Some(child) => {
                for tag in tag_ids.iter().filter_map(|&id| data.tag(id)) {
                    elements.raw(&child.memoized_json(Memoized::Tag, tag.id, || child.tag(tag)));
                }
            }
        });
        object.value("state", |out| {
            // A unit variant: serialising cannot fail.
            let _ = crate::json::append(out, &sub.state);
        });
        object.string("abstract", texts.abstract_);
        object.string("description", texts.description);
        object.integer("duration", data.duration(sub));
        object.integer("slot_count", sub.slot_count);
        object.string("content_locale", &sub.content_locale);
        object.boolean("do_not_record", sub.do_not_record);
        object.optional_string("image", sub.image.as_deref());
        let shown_resources = self.shown_resources(sub, true);
        match self.child("resources") {
            None => object.array("resources", |elements| {
                shown_resources.for_each(|(i, _)| elements.integer(resource_id(event, sub, i)));
            }),
            Some(_) => object.value("resources", |out| {
                write_array(out, shown_resources, |out, (i, resource)| {
                    let mut object = ObjectText::open(out);
                    object.integer("id", resource_id(event, sub, i));
                    object.string("resource", &resource.resource);
                    object.string("description", &resource.description);
                    object.close();
                });
            }),
        }
        let slot_indexes = self.slot_indexes(sub);
        match self.child("slots") {
            _ if !self.knows_schedule() => object.raw("slots", "[]"),
            None => object.array("slots", |elements| {
                slot_indexes
                    .iter()
                    .for_each(|&i| elements.integer(slot_id(event, sub, i)));
            }),
            Some(child) => object.value("slots", |out| {
                write_array(out, slot_indexes.iter(), |out, &index| {
                    let slot = child.slot_in(
                        SlotRef::Talk {
                            sub: position,
                            index,
                        },
                        SlotPlace::InSubmission,
                    );
                    // A view: serialising into a Vec cannot fail.
                    let _ = crate::json::append(out, &slot);
                });
            }),
        }
        let answer_positions = self.shown_answers(position, true);
        match self.child("answers") {
            None => object.array("answers", |elements| {
                answer_positions.for_each(|a| elements.integer(event.answers[a].id));
            }),
            Some(child) => {
                let question = child.child("question");
                let options = child.child("options");
                object.value("answers", |out| {
                    write_array(out, answer_positions, |out, a| {
                        child.write_answer(out, a, question.as_ref(), options.as_ref());
                    });
                });
            }
        }
        if orga || reviewer {
            object.value("pending_state", |out| {
                let _ = crate::json::append(out, &sub.pending_state);
            });
            object.boolean("is_featured", sub.is_featured);
        }
        if orga {
            object.optional_string("notes", nullable(&sub.notes));
            object.optional_string("internal_notes", nullable(&sub.internal_notes));
            object.optional_string("invitation_token", sub.invitation_token.as_deref());
            object.optional_integer("access_code", sub.access_code);
            object.optional_string("review_code", sub.review_code.as_deref());
            object.string(
                "anonymised_data",
                &anonymised_data(sub.anonymised.as_deref()),
            );
        }
        if orga || reviewer {
            let reviews = self.shown_reviews(position);
            object.array("reviews", |elements| {
                reviews.iter().for_each(|r| elements.integer(r.id));
            });
            object.array("assigned_reviewers", |elements| {
                sub.assigned_reviewers
                    .iter()
                    .for_each(|code| elements.string(code));
            });
            object.boolean("is_anonymised", is_anonymised(sub));
            if orga {
                let (median, mean) = review_scores(&reviews);
                object.value("median_score", |out| {
                    let _ = crate::json::append(out, &median);
                });
                object.value("mean_score", |out| {
                    let _ = crate::json::append(out, &mean);
                });
            }
        }
        object.close();
    }

    // The parts of a submission its view and `write_submission` show.

    fn basics(&self, position: super::catalog::SubmissionIx) -> SubmissionBasics<'a> {
        let access = self.access;
        let data: &'a super::catalog::EventData = access.data;
        let sub: &'a Submission = &data.event.submissions[position];
        let anonymised = access.anonymised_at(position, false);
        SubmissionBasics {
            data,
            event: &data.event,
            sub,
            orga: self.is_orga(),
            reviewer: access.role == Role::Reviewer && !self.nested,
            anonymised,
            texts: super::views::shown_texts(sub, anonymised),
        }
    }

    /// Only the submissions view knows the schedule: a nested submission's
    /// slots are `[]` elsewhere.
    fn knows_schedule(&self) -> bool {
        !(self.nested && self.serving != Serving::Submissions)
    }

    /// Each speaker of the submission at `position` the caller is shown
    /// (none where it is anonymised to them): their code, profile, and
    /// user where the catalog's table has it (None: look it up in `users`).
    fn shown_speakers(
        &self,
        position: super::catalog::SubmissionIx,
        users: &'a super::catalog::Users,
        anonymised: bool,
    ) -> impl Iterator<Item = (&'a str, Option<super::catalog::ProfileIx>, Option<&'a User>)> + 'a
    {
        let data: &'a super::catalog::EventData = self.access.data;
        let sub: &'a Submission = &data.event.submissions[position];
        // The speakers' users and profiles as the catalog found them once
        // (a lookup by code per speaker and page was a seventh of an
        // expanded page: perf, BENCHMARKS.md).
        let known = self.speaker_users.map(|table| table.of(position));
        sub.speakers
            .iter()
            .zip(data.speaker_profiles.of(position))
            .enumerate()
            .filter(move |_| !anonymised)
            .filter_map(move |(i, (code, profile))| match known {
                Some(users) => users
                    .get(i)
                    .and_then(Option::as_deref)
                    .map(|user| (code.as_str(), *profile, Some(user))),
                None => {
                    users
                        .contains_key(code.as_str())
                        .then_some((code.as_str(), *profile, None))
                }
            })
    }

    /// The renderer of a submission's expanded speakers, if expanded.
    fn speakers_child(&self, with_slots: bool) -> Option<V1Renderer<'a>> {
        let mut child = self.child("speakers")?;
        // Organisers' expanded speakers keep the organiser fields, unless
        // the submission is itself nested (pretalx's public submission
        // serializer nests public speakers, as in a slot).
        child.nested = self.access.role != Role::Organiser || self.nested || !with_slots;
        Some(child)
    }

    /// Of `shown` speakers, those whose user is known, with their profile.
    fn expanded_speakers(
        &self,
        shown: impl Iterator<Item = (&'a str, Option<super::catalog::ProfileIx>, Option<&'a User>)> + 'a,
        users: &'a super::catalog::Users,
    ) -> impl Iterator<Item = (super::catalog::ProfileIx, &'a User)> + 'a {
        let data: &'a super::catalog::EventData = self.access.data;
        shown
            .filter_map(|(_, profile, user)| Some((profile?, user)))
            .filter_map(move |(p, user)| {
                // Taken from the catalog's table where it has them (a hash
                // lookup by code was a tenth of an expanded page, in misses).
                let user = match user {
                    Some(user) => user,
                    None => users.get(data.event.speakers[p].user.as_str())?,
                };
                Some((p, user))
            })
    }

    /// The submission's tag ids the caller sees, in order.
    fn shown_tag_ids(&self, sub: &Submission) -> SmallVec<[i64; 8]> {
        let access = self.access;
        let mut ids: SmallVec<[i64; 8]> = sub
            .tags
            .iter()
            .copied()
            .filter(|id| access.sees_tags() || access.data.tag(*id).is_some_and(|t| t.is_public))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The submission's resources the caller is shown, with their places.
    fn shown_resources(
        &self,
        sub: &'a Submission,
        with_slots: bool,
    ) -> impl Iterator<Item = (usize, &'a Resource)> + 'a {
        let access = self.access;
        // Nested outside the submissions view, and in a slot (to organisers
        // too), pretalx's public serializer shows the public ones.
        let public_serializer = !self.knows_schedule() || !with_slots;
        sub.resources
            .iter()
            .enumerate()
            .filter(move |(_, r)| access.sees_resource(r))
            .filter(move |(_, r)| !public_serializer || resource_visible_to(Role::Public, r))
    }

    /// The places of the submission's slots in the released schedule the
    /// caller sees (organisers all).
    fn slot_indexes(&self, sub: &Submission) -> SmallVec<[usize; 4]> {
        let sees_all = self.access.role == Role::Organiser;
        if self.access.data.event.schedule.is_none() {
            return SmallVec::new();
        }
        (0..sub.slots.len())
            .filter(|&i| sees_all || sub.slots[i].is_visible)
            .collect()
    }

    /// The positions of the submission's answers the caller sees.
    fn shown_answers(
        &self,
        position: super::catalog::SubmissionIx,
        with_slots: bool,
    ) -> impl Iterator<Item = super::catalog::AnswerIx> + 'a {
        let access = self.access;
        // The reviews view has no questions: a nested submission's answers
        // are empty there; and in a slot none, as pretalx's slots view
        // gives its submissions no questions to answer.
        let none = !with_slots || (self.nested && self.serving == Serving::Reviews);
        access
            .data
            .answers_of_submission
            .of(position)
            .iter()
            .copied()
            .filter(move |&a| !none && access.sees_answer_at(a))
    }

    /// The submission's reviews the caller sees.
    fn shown_reviews(&self, position: super::catalog::SubmissionIx) -> SmallVec<[&'a Review; 8]> {
        let access = self.access;
        let event = &access.data.event;
        access
            .data
            .reviews_of_submission
            .of(position)
            .iter()
            .copied()
            .filter(|&r| access.sees_review_at(r))
            .map(|r| &event.reviews[r])
            .collect()
    }

    /// The speaker whose profile is at `position`; None when their user is
    /// unknown.
    pub fn speaker(
        &self,
        position: super::catalog::ProfileIx,
        users: &'a super::catalog::Users,
    ) -> Option<SpeakerView<'a>> {
        let access = self.access;
        let data: &'a super::catalog::EventData = access.data;
        let profile = &data.event.speakers[position];
        let user = users.get(profile.user.as_str())?;
        let orga = self.is_orga();
        let named = || self.named_submissions(position);
        let submissions = match self.child("submissions") {
            Some(child) => Refs::Objects(
                named()
                    .into_iter()
                    .map(|i| child.submission(i, users))
                    .collect(),
            ),
            None => Refs::Ids(
                named()
                    .into_iter()
                    .map(|i| data.event.submissions[i].code.as_str())
                    .collect(),
            ),
        };
        let answer_positions = self.speaker_answers(position);
        let answers = match self.child("answers") {
            Some(child) => AnswerRefs::Objects(child.answer_list(answer_positions)),
            None => AnswerRefs::Ids(answer_positions.map(|a| data.event.answers[a].id).collect()),
        };
        let view = SpeakerView {
            code: &user.code,
            name: &user.name,
            biography: &profile.biography,
            submissions,
            avatar_url: user.avatar.as_deref().unwrap_or(""),
            answers,
            email: orga.then_some(user.email.as_str()),
            timezone: orga.then_some(user.timezone.as_str()),
            locale: orga.then_some(user.locale.as_str()),
            has_arrived: orga.then_some(profile.has_arrived),
            availabilities: orga.then(|| self.availabilities(&profile.availabilities)),
            internal_notes: orga.then(|| nullable(&profile.internal_notes)),
        };
        view.prefetch_texts();
        Some(view)
    }
}

/// A submission's speakers: their codes, or with `expand` the speakers
/// (written by `SpeakerList`).
#[derive(DeriveSerialize)]
#[serde(untagged)]
pub enum SpeakerRefs<'a> {
    Ids(Vec<&'a str>),
    Objects(SpeakerList<'a>),
}

/// Expanded speakers of a submission, written as JSON when the list is
/// serialised: a speaker's fields as `speaker` shows them, in the same
/// order, except that a nested speaker's submissions and answers are empty
/// lists unless expanded too, as pretalx shows them
/// (`speakers_nested_read_as_their_detail` holds the two equal). Written
/// without views: with their answers they were a fifth of a page with
/// pytanis's expansion (callgrind, BENCHMARKS.md).
pub struct SpeakerList<'a> {
    renderer: V1Renderer<'a>,
    users: &'a super::catalog::Users,
    /// Each speaker's profile and user.
    speakers: Vec<(super::catalog::ProfileIx, &'a User)>,
}

impl Serialize for SpeakerList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_array_text(serializer, &self.speakers, |text, &(position, user)| {
            self.renderer
                .write_speaker_nested(text, position, user, self.users);
        })
    }
}

impl<'a> V1Renderer<'a> {
    /// The speaker at `position`, whose user is `user`, nested in a
    /// submission, as JSON appended to `out` (`SpeakerList`).
    fn write_speaker_nested(
        &self,
        out: &mut Vec<u8>,
        position: super::catalog::ProfileIx,
        user: &'a User,
        users: &'a super::catalog::Users,
    ) {
        let access = self.access;
        let data: &'a super::catalog::EventData = access.data;
        let profile = &data.event.speakers[position];
        let orga = self.is_orga();
        let mut object = crate::json::ObjectText::open(out);
        object.string("code", &user.code);
        object.string("name", &user.name);
        object.string("biography", &profile.biography);
        match self.child("submissions") {
            // Expanded submissions below a submission's speakers: rare,
            // rendered as their views.
            Some(child) => {
                let submissions: Refs<&str, SubmissionView> = Refs::Objects(
                    self.named_submissions(position)
                        .into_iter()
                        .map(|i| child.submission(i, users))
                        .collect(),
                );
                object.value("submissions", |out| {
                    // Writing views into a Vec cannot fail.
                    let _ = crate::json::append(out, &submissions);
                });
            }
            // Only the speakers and reviews views give nested speakers theirs.
            None if self.serving == Serving::Submissions => object.raw("submissions", "[]"),
            None => object.value("submissions", |out| {
                let codes: Vec<&str> = self
                    .named_submissions(position)
                    .into_iter()
                    .map(|i| data.event.submissions[i].code.as_str())
                    .collect();
                let _ = crate::json::append(out, &codes);
            }),
        }
        object.string("avatar_url", user.avatar.as_deref().unwrap_or(""));
        match self.child("answers") {
            Some(child) => {
                let question = child.child("question");
                let options = child.child("options");
                object.value("answers", |out| {
                    write_array(out, self.speaker_answers(position), |out, a| {
                        child.write_answer(out, a, question.as_ref(), options.as_ref());
                    });
                });
            }
            None => object.raw("answers", "[]"),
        }
        if orga {
            object.string("email", &user.email);
            object.string("timezone", &user.timezone);
            object.string("locale", &user.locale);
            object.boolean("has_arrived", profile.has_arrived);
            // Most speakers have none: `[]` without a list and its writer
            // (0.4 % of an expanded page's instructions: callgrind).
            if profile.availabilities.is_empty() {
                object.raw("availabilities", "[]");
            } else {
                let availabilities = self.availabilities(&profile.availabilities);
                object.value("availabilities", |out| {
                    let _ = crate::json::append(out, &availabilities);
                });
            }
            object.optional_string("internal_notes", nullable(&profile.internal_notes));
        }
        object.close();
    }

    /// The positions of the speaker's answers the caller sees.
    fn speaker_answers(
        &self,
        position: super::catalog::ProfileIx,
    ) -> impl Iterator<Item = super::catalog::AnswerIx> + 'a {
        let access = self.access;
        access
            .data
            .answers_of_person
            .of(position)
            .iter()
            .copied()
            .filter(move |&a| access.sees_answer_at(a))
    }

    /// The speaker's submissions the caller sees with names, in pretalx's order.
    fn named_submissions(
        &self,
        position: super::catalog::ProfileIx,
    ) -> Vec<super::catalog::SubmissionIx> {
        let access = self.access;
        let data: &'a super::catalog::EventData = access.data;
        let mut named: Vec<super::catalog::SubmissionIx> = data
            .profile_submissions
            .of(position)
            .iter()
            .copied()
            .filter(|&i| access.sees_submission_named_at(i))
            .collect();
        named.sort_by_key(|&i| upstream_order(&data.event.submissions[i]));
        named
    }
}

/// The anonymised texts as pretalx's `anonymised_data`: a JSON object in a
/// string, `"{}"` when the submission is not anonymised.
fn anonymised_data(texts: Option<&crate::model::Anonymised>) -> std::borrow::Cow<'static, str> {
    /// The object pretalx keeps, its keys in the order serde_json's map
    /// writes them (sorted): a struct, not a `Map` of `Value`s, which cost
    /// 5,000 instructions a submission (callgrind).
    #[derive(serde::Serialize)]
    struct Anonymised<'t> {
        #[serde(rename = "_anonymised")]
        anonymised: bool,
        #[serde(rename = "abstract", skip_serializing_if = "str::is_empty")]
        abstract_: &'t str,
        #[serde(skip_serializing_if = "str::is_empty")]
        description: &'t str,
        #[serde(skip_serializing_if = "str::is_empty")]
        title: &'t str,
    }
    let Some(texts) = texts else {
        return "{}".into();
    };
    if texts.title.is_empty() && texts.abstract_.is_empty() && texts.description.is_empty() {
        return "{}".into();
    }
    let fields = Anonymised {
        anonymised: true,
        abstract_: &texts.abstract_,
        description: &texts.description,
        title: &texts.title,
    };
    // Strings and a bool: serialising cannot fail.
    serde_json::to_string(&fields).map_or("{}".into(), Into::into)
}

// ---------------------------------------------------------------------------
// The schedule: slots and releases

/// One slot of one of the event's schedules: a talk's slot or a break of
/// the current release (kept on the submissions and the schedule), or a
/// slot of an older release or the WIP schedule.
#[derive(Clone, Copy)]
pub enum SlotRef<'a> {
    Talk {
        sub: super::catalog::SubmissionIx,
        index: usize,
    },
    Break {
        index: usize,
        item: &'a Break,
    },
    Other {
        release: Release,
        index: usize,
        item: &'a ScheduleSlot,
    },
}

/// What lists filter and sort slots by, whichever schedule they are of.
pub struct SlotFacts {
    pub release: Release,
    /// The talk's submission; None for a break.
    pub sub: Option<super::catalog::SubmissionIx>,
    pub room: Option<i64>,
    pub start: Option<Timestamp>,
    /// The end, else the start plus the submission's duration.
    pub end: Option<Timestamp>,
    pub is_visible: bool,
}

impl SlotRef<'_> {
    pub fn facts(&self, data: &super::catalog::EventData) -> SlotFacts {
        let event = &data.event;
        let talk_end = |sub: super::catalog::SubmissionIx,
                        start: Option<Timestamp>,
                        end: Option<Timestamp>| {
            end.or_else(|| {
                start.map(|s| s + chrono::Duration::minutes(data.duration(&event.submissions[sub])))
            })
        };
        match *self {
            SlotRef::Talk { sub, index } => {
                let item = &event.submissions[sub].slots[index];
                SlotFacts {
                    release: Release::Current,
                    sub: Some(sub),
                    room: item.room,
                    start: item.start,
                    end: talk_end(sub, item.start, item.end),
                    is_visible: item.is_visible,
                }
            }
            SlotRef::Break { item, .. } => SlotFacts {
                release: Release::Current,
                sub: None,
                room: item.room,
                start: Some(item.start),
                end: Some(item.end),
                is_visible: true,
            },
            SlotRef::Other { release, item, .. } => {
                let sub = item
                    .submission
                    .as_deref()
                    .and_then(|code| data.submission_position(code));
                SlotFacts {
                    release,
                    sub,
                    room: item.room,
                    start: item.start,
                    end: match sub {
                        Some(sub) => talk_end(sub, item.start, item.end),
                        None => item.end,
                    },
                    is_visible: item.is_visible,
                }
            }
        }
    }
}

/// Where a slot is rendered: what it leaves out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SlotPlace {
    /// A list or detail of slots: every field.
    Own,
    /// Expanded in its submission: without `submission` and `schedule`.
    InSubmission,
    /// Expanded in its schedule: without `schedule`.
    InSchedule,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Slot)]
pub struct SlotView<'a> {
    pub id: i64,
    #[schema(schema_with = nullable_ref)]
    pub room: Option<Ref<i64, Expanded<RoomView<'a>>>>,
    #[schema(format = DateTime)]
    pub start: Option<String>,
    #[schema(format = DateTime)]
    pub end: Option<String>,
    /// The talk's code, null for a break; left out where nested in its
    /// submission. Expanded: the submission (without its slots).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = nullable_ref)]
    pub submission: Option<Option<Ref<&'a str, Box<SubmissionView<'a>>>>>,
    /// The schedule's id; expanded, the schedule (without its slots). Left
    /// out where nested in a submission or a schedule.
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = one_ref)]
    pub schedule: Option<Ref<i64, Box<ScheduleView<'a>>>>,
    /// A break's text; null for a talk.
    pub description: Option<Text<'a>>,
    /// Minutes.
    pub duration: Option<i64>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_visible: Option<bool>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Schedule)]
pub struct ScheduleView<'a> {
    pub id: i64,
    /// The release's version; `wip` for the work-in-progress schedule.
    pub version: &'a str,
    /// Null for the work-in-progress schedule.
    #[schema(format = DateTime)]
    pub published: Option<String>,
    /// The detail's fields; the comment is null when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<Option<Text<'a>>>,
    /// Ids of the caller's slots; with `expand=slots` the slots.
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = many_refs)]
    pub slots: Option<Refs<i64, SlotView<'a>>>,
}

/// The version, publication and release note of one of the event's
/// schedules, where the data has it.
fn release_parts(event: &Event, release: Release) -> Option<(&str, Option<Timestamp>, &I18n)> {
    Some(match release {
        Release::Current => {
            let s = event.schedule.as_ref()?;
            (s.version.as_str(), s.published, &s.comment)
        }
        Release::Older(i) => {
            let s = event.older_schedules.get(i)?;
            (s.version.as_str(), Some(s.published), &s.comment)
        }
        // pretalx's `version_with_fallback`.
        Release::Wip => ("wip", None, &event.wip_schedule.as_ref()?.comment),
    })
}

/// A schedule's id: pretalx's where the dataset has it, else one derived
/// from the event and the version (`wip` for the WIP schedule).
pub fn release_id(event: &Event, release: Release) -> Option<i64> {
    let stored = match release {
        Release::Current => event.schedule.as_ref()?.id,
        Release::Older(i) => event.older_schedules.get(i)?.id,
        Release::Wip => event.wip_schedule.as_ref()?.id,
    };
    let (version, ..) = release_parts(event, release)?;
    Some(stored.unwrap_or_else(|| derived_id(&["schedule", &event.slug.to_lowercase(), version])))
}

/// The released schedule's id (see `release_id`).
pub fn schedule_id(event: &Event) -> Option<i64> {
    release_id(event, Release::Current)
}

/// The slots of an older release or the WIP schedule.
pub fn release_slots(event: &Event, release: Release) -> &[ScheduleSlot] {
    match release {
        Release::Current => &[],
        Release::Older(i) => event.older_schedules.get(i).map_or(&[], |s| &s.slots),
        Release::Wip => event.wip_schedule.as_ref().map_or(&[], |s| &s.slots),
    }
}

/// A break's id, as the schedule exports give it.
pub fn break_id(event: &Event, index: usize, item: &Break) -> i64 {
    item.id
        .unwrap_or_else(|| derived_id(&["break", &event.slug.to_lowercase(), &index.to_string()]))
}

impl<'a> V1Renderer<'a> {
    pub fn slot_id(&self, slot: SlotRef<'a>) -> i64 {
        let event = &self.access.data.event;
        match slot {
            SlotRef::Talk { sub, index } => slot_id(event, &event.submissions[sub], index),
            SlotRef::Break { index, item } => break_id(event, index, item),
            SlotRef::Other {
                release,
                index,
                item,
            } => item.id.unwrap_or_else(|| {
                let (version, ..) = release_parts(event, release).unwrap_or(("", None, &NO_TEXT));
                derived_id(&[
                    "slot",
                    &event.slug.to_lowercase(),
                    version,
                    &index.to_string(),
                ])
            }),
        }
    }

    pub fn slot(&self, slot: SlotRef<'a>) -> SlotView<'a> {
        self.slot_in(slot, SlotPlace::Own)
    }

    fn slot_in(&self, slot: SlotRef<'a>, place: SlotPlace) -> SlotView<'a> {
        let data: &'a super::catalog::EventData = self.access.data;
        let event = &data.event;
        let facts = slot.facts(data);
        let description = match slot {
            SlotRef::Talk { .. } => None,
            SlotRef::Break { item, .. } => Some(self.text(&item.description)),
            SlotRef::Other { item, .. } => item
                .submission
                .is_none()
                .then(|| self.text(&item.description)),
        };
        // A slot of a submission the data no longer has keeps its code.
        let code = match slot {
            SlotRef::Other { item, .. } => item.submission.as_deref(),
            _ => facts.sub.map(|i| event.submissions[i].code.as_str()),
        };
        let submission = code.map(|code| match (self.child("submission"), facts.sub) {
            (Some(child), Some(sub)) => {
                Ref::Object(Box::new(child.submission_in(sub, self.users, false)))
            }
            _ => Ref::Id(code),
        });
        let schedule = release_id(event, facts.release).map(|id| match self.child("schedule") {
            None => Ref::Id(id),
            Some(child) => match child.schedule(facts.release, None) {
                Some(view) => Ref::Object(Box::new(view)),
                None => Ref::Id(id),
            },
        });
        let minutes = match (facts.start, facts.end) {
            (Some(s), Some(e)) => Some((e - s).num_minutes()),
            _ => None,
        };
        SlotView {
            id: self.slot_id(slot),
            room: self.room_ref(facts.room),
            start: self.opt_dt(&facts.start),
            end: self.opt_dt(&facts.end),
            submission: (place != SlotPlace::InSubmission).then_some(submission),
            schedule: match place {
                SlotPlace::Own => schedule,
                SlotPlace::InSubmission | SlotPlace::InSchedule => None,
            },
            description,
            duration: minutes,
            is_visible: self.is_orga().then_some(facts.is_visible),
        }
    }

    /// A room id, or the room where `room` is expanded.
    fn room_ref(&self, room: Option<i64>) -> Option<Ref<i64, Expanded<RoomView<'a>>>> {
        let id = room?;
        Some(match (self.child("room"), self.access.data.room(id)) {
            (Some(child), Some(room)) => {
                Ref::Object(child.memoized(Memoized::Room, room.id, || child.room(room)))
            }
            _ => Ref::Id(id),
        })
    }

    /// One of the event's schedules; `slots` (the detail) with the
    /// caller's slots of it, ids or with `expand=slots` the slots.
    pub fn schedule(
        &self,
        release: Release,
        slots: Option<&[SlotRef<'a>]>,
    ) -> Option<ScheduleView<'a>> {
        let event: &'a Event = &self.access.data.event;
        let (version, published, comment) = release_parts(event, release)?;
        let detail = slots.is_some() || self.nested;
        let slots = slots.map(|slots| match self.child("slots") {
            None => Refs::Ids(slots.iter().map(|&s| self.slot_id(s)).collect()),
            Some(child) => Refs::Objects(
                slots
                    .iter()
                    .map(|&s| child.slot_in(s, SlotPlace::InSchedule))
                    .collect(),
            ),
        });
        Some(ScheduleView {
            id: release_id(event, release)?,
            version,
            published: self.opt_dt(&published),
            comment: detail.then(|| (!comment.is_empty()).then(|| self.text(comment))),
            slots,
        })
    }
}

static NO_TEXT: I18n = I18n(Vec::new(), false);

// ---------------------------------------------------------------------------
// Answers and reviews

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Answer)]
pub struct AnswerView<'a> {
    pub id: i64,
    #[schema(schema_with = one_ref)]
    pub question: Ref<i64, Expanded<QuestionView<'a>>>,
    pub answer: &'a str,
    pub answer_file: Option<&'a str>,
    pub submission: Option<&'a str>,
    pub review: Option<i64>,
    pub person: Option<&'a str>,
    #[schema(schema_with = many_refs)]
    pub options: Refs<i64, Expanded<OptionView<'a>>>,
}

/// A review score category, as `expand=scores.category` shows it.
#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::ReviewScoreCategory)]
pub struct ScoreCategoryView<'a> {
    pub id: i64,
    pub name: Text<'a>,
    /// A decimal string (`"1.0"`).
    pub weight: &'a str,
    pub required: bool,
    pub active: bool,
    pub limit_tracks: Vec<i64>,
    pub is_independent: bool,
}

/// A review's author, as `expand=user` shows it.
#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Reviewer)]
pub struct ReviewerView<'a> {
    pub code: &'a str,
    pub name: &'a str,
    /// Organisers only: reviewers get no e-mail addresses (section 13).
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'a str>,
}

/// One score of a review, in one of the event's score categories.
#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::ReviewScore)]
pub struct ScoreView<'a> {
    pub id: i64,
    #[schema(schema_with = one_ref)]
    pub category: Ref<i64, ScoreCategoryView<'a>>,
    /// A decimal string (`"1.00"`).
    pub value: &'a str,
    pub label: Option<&'a str>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Review)]
pub struct ReviewView<'a> {
    pub id: i64,
    /// The code; expanded, the submission (without its slots).
    #[schema(schema_with = one_ref)]
    pub submission: Ref<&'a str, Box<SubmissionView<'a>>>,
    /// null when empty, as pretalx's nullable field.
    pub text: Option<&'a str>,
    /// A decimal string (`"2.00"`), as pretalx writes it.
    pub score: Option<String>,
    pub scores: Vec<ScoreView<'a>>,
    /// The answers the caller may see, always nested.
    pub answers: Vec<AnswerView<'a>>,
    /// The reviewer's code, where the caller may know it.
    #[schema(schema_with = nullable_ref)]
    pub user: Option<Ref<&'a str, ReviewerView<'a>>>,
}

impl AnswerView<'_> {
    /// Its texts, requested from memory before the page is serialised.
    fn prefetch_texts(&self) {
        std::iter::once(self.answer)
            .chain(self.answer_file)
            .chain(self.submission)
            .chain(self.person)
            .for_each(crate::memory::prefetch);
    }
}

/// A submission's or speaker's answers: their ids, or with `expand` the
/// answers (`AnswerView`s, written by `AnswerList`).
#[derive(DeriveSerialize)]
#[serde(untagged)]
pub enum AnswerRefs<'a> {
    Ids(Vec<i64>),
    Objects(AnswerList<'a>),
}

/// Expanded answers, written as JSON when the list is serialised, each as
/// serialising its `AnswerView` writes it (`answers_nested_read_as_listed`
/// holds them equal), without building the views: a page with pytanis's
/// expansion shows about 280 answers, a quarter of its instructions, and
/// building, collecting and dropping their views was a fifth of that
/// (callgrind, BENCHMARKS.md).
pub struct AnswerList<'a> {
    renderer: V1Renderer<'a>,
    positions: SmallVec<[super::catalog::AnswerIx; 8]>,
}

impl Serialize for AnswerList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let question = self.renderer.child("question");
        let options = self.renderer.child("options");
        serialize_array_text(serializer, &self.positions, |text, &position| {
            self.renderer
                .write_answer(text, position, question.as_ref(), options.as_ref());
        })
    }
}

/// A JSON array of `items`, each written by `write`, serialised as the
/// JSON text it makes (`AnswerList`, `SpeakerList`): straight into the
/// body (`json::Direct`).
fn serialize_array_text<S: Serializer, T>(
    serializer: S,
    items: &[T],
    write: impl Fn(&mut Vec<u8>, &T),
) -> Result<S::Ok, S::Error> {
    crate::json::Direct(|out: &mut Vec<u8>| write_array(out, items, &write)).serialize(serializer)
}

/// Appends a JSON array of `items`, each written by `write`.
fn write_array<T>(
    out: &mut Vec<u8>,
    items: impl IntoIterator<Item = T>,
    mut write: impl FnMut(&mut Vec<u8>, T),
) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(out, item);
    }
    out.push(b']');
}

impl<'a> V1Renderer<'a> {
    /// The answers at `positions`, expanded as this renderer's expansion says.
    fn answer_list(
        &self,
        positions: impl Iterator<Item = super::catalog::AnswerIx>,
    ) -> AnswerList<'a> {
        AnswerList {
            renderer: *self,
            positions: positions.collect(),
        }
    }

    /// `answer(position)` as JSON, appended to `out`; `question` and
    /// `options` are this renderer's children of those names.
    fn write_answer(
        &self,
        out: &mut Vec<u8>,
        position: super::catalog::AnswerIx,
        question_child: Option<&V1Renderer<'a>>,
        options_child: Option<&V1Renderer<'a>>,
    ) {
        let data: &'a super::catalog::EventData = self.access.data;
        let answer = &data.event.answers[position];
        // By the catalog's position, read already (`Access::sees_answer_at`):
        // a lookup by id hashed it, 2 % of an expanded page (callgrind).
        let question = data.answer_question[position].map(|q| &data.event.questions[q]);
        let mut object = crate::json::ObjectText::open(out);
        object.integer("id", answer.id);
        match (question_child, question) {
            (Some(child), Some(q)) => {
                object.raw(
                    "question",
                    &child.memoized_json(Memoized::Question, q.id, || child.question(q)),
                );
            }
            _ => object.integer("question", answer.question),
        }
        object.string("answer", &answer.answer);
        object.optional_string("answer_file", answer.answer_file.as_deref());
        object.optional_string("submission", answer.submission.as_deref());
        object.optional_integer("review", answer.review);
        object.optional_string("person", answer.person.as_deref());
        object.array("options", |elements| match (options_child, question) {
            (Some(child), Some(q)) => {
                for i in answer
                    .options
                    .iter()
                    .filter_map(|id| q.options.iter().position(|o| o.id == *id))
                {
                    elements.raw(&child.memoized_json(Memoized::Option, q.options[i].id, || {
                        child.option(q, i, false)
                    }));
                }
            }
            _ => answer.options.iter().for_each(|&id| elements.integer(id)),
        });
        object.close();
    }
}

impl<'a> V1Renderer<'a> {
    pub fn answer(&self, position: super::catalog::AnswerIx) -> AnswerView<'a> {
        let data: &'a super::catalog::EventData = self.access.data;
        let answer = &data.event.answers[position];
        let question = data.question(answer.question);
        let view = AnswerView {
            id: answer.id,
            question: match (self.child("question"), question) {
                (Some(child), Some(q)) => {
                    Ref::Object(child.memoized(Memoized::Question, q.id, || child.question(q)))
                }
                _ => Ref::Id(answer.question),
            },
            answer: &answer.answer,
            answer_file: answer.answer_file.as_deref(),
            submission: answer.submission.as_deref(),
            review: answer.review,
            person: answer.person.as_deref(),
            options: match (self.child("options"), question) {
                (Some(child), Some(q)) => Refs::Objects(
                    answer
                        .options
                        .iter()
                        .filter_map(|id| q.options.iter().position(|o| o.id == *id))
                        .map(|i| {
                            child.memoized(Memoized::Option, q.options[i].id, || {
                                child.option(q, i, false)
                            })
                        })
                        .collect(),
                ),
                _ => Refs::Ids(answer.options.to_vec()),
            },
        };
        view.prefetch_texts();
        view
    }

    pub fn review(&self, position: super::catalog::ReviewIx) -> ReviewView<'a> {
        let access = self.access;
        let data: &'a super::catalog::EventData = access.data;
        let review = &data.event.reviews[position];
        let submission = match (self.child("submission"), data.review_submission[position]) {
            // Expanded only where the caller sees the submission itself.
            (Some(child), Some(i)) if access.sees_submission_at(i) => {
                Ref::Object(Box::new(child.submission_in(i, self.users, false)))
            }
            _ => Ref::Id(review.submission.as_str()),
        };
        let user = access.shows_reviewer_name(review).then(|| {
            match (self.child("user"), self.users.get(review.user.as_str())) {
                (Some(_), Some(user)) => Ref::Object(ReviewerView {
                    code: &user.code,
                    name: &user.name,
                    email: (access.role == Role::Organiser).then_some(user.email.as_str()),
                }),
                _ => Ref::Id(review.user.as_str()),
            }
        });
        let category = self
            .child("scores")
            .and_then(|scores| scores.child("category"));
        ReviewView {
            id: review.id,
            submission,
            text: nullable(&review.text),
            score: review.score.map(|s| format!("{s:.2}")),
            scores: review
                .scores
                .iter()
                .map(|score| ScoreView {
                    id: score.id,
                    category: match (
                        &category,
                        data.event
                            .score_categories
                            .iter()
                            .find(|c| c.id == score.category),
                    ) {
                        (Some(child), Some(c)) => Ref::Object(child.score_category(c)),
                        _ => Ref::Id(score.category),
                    },
                    value: score.value.as_str(),
                    label: score.label.as_deref(),
                })
                .collect(),
            answers: data
                .answers_of_review
                .of(position)
                .iter()
                .filter(|&&a| access.sees_answer_at(a))
                .map(|&a| self.answer(a))
                .collect(),
            user,
        }
    }

    pub fn score_category(&self, category: &'a ScoreCategory) -> ScoreCategoryView<'a> {
        let mut limit_tracks = category.limit_tracks.clone();
        limit_tracks.sort_unstable();
        ScoreCategoryView {
            id: category.id,
            name: self.text(&category.name),
            weight: category.weight.as_str(),
            required: category.required,
            active: category.active,
            limit_tracks,
            is_independent: category.is_independent,
        }
    }
}

// ---------------------------------------------------------------------------
// Teams (organiser level)

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::TeamMember)]
pub struct TeamMemberView<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub email: &'a str,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Team)]
pub struct TeamView<'a> {
    pub id: i64,
    pub name: &'a str,
    /// User codes; with `expand=members`, {code, name, email}.
    #[schema(schema_with = many_refs)]
    pub members: Refs<&'a str, TeamMemberView<'a>>,
    /// Invite ids: the dataset holds no invites, so always empty.
    pub invites: Vec<i64>,
    pub all_events: bool,
    pub limit_events: Vec<&'a str>,
    /// Track ids; with `expand=limit_tracks`, the tracks.
    #[schema(schema_with = many_refs)]
    pub limit_tracks: Refs<i64, TrackView<'a>>,
    pub can_create_events: bool,
    pub can_change_teams: bool,
    pub can_change_organiser_settings: bool,
    pub can_change_event_settings: bool,
    pub can_change_submissions: bool,
    pub is_reviewer: bool,
    pub force_hide_speaker_names: bool,
}

/// One of an organiser's teams: the team as one of its events lists it,
/// the slugs of every event that lists it, and the track limits of all of
/// them (each event lists only its own tracks).
pub struct OrganiserTeam<'a> {
    pub id: i64,
    pub team: &'a Team,
    pub events: Vec<&'a str>,
    pub limit_tracks: Vec<i64>,
}

/// A team's id: pretalx's where the dataset has it, else one derived from
/// the organiser and the team's name.
pub fn team_id(organiser: &str, team: &Team) -> i64 {
    team.id
        .unwrap_or_else(|| derived_id(&["team", &organiser.to_lowercase(), &team.name]))
}

/// A team as the v1 API shows it; `expand` may name `members` and
/// `limit_tracks` (tracks are looked up in the organiser's events).
pub fn team<'a>(
    item: &OrganiserTeam<'a>,
    users: &'a super::catalog::Users,
    tracks: impl Fn(i64) -> Option<&'a Track>,
    expand: &Expansion,
) -> TeamView<'a> {
    let team = item.team;
    let members = match expand.get("members") {
        None => Refs::Ids(team.members.iter().map(String::as_str).collect()),
        Some(_) => Refs::Objects(
            team.members
                .iter()
                .filter_map(|code| users.get(code.as_str()))
                .map(|u| TeamMemberView {
                    code: &u.code,
                    name: &u.name,
                    email: &u.email,
                })
                .collect(),
        ),
    };
    let mut track_ids = item.limit_tracks.clone();
    track_ids.sort_unstable();
    track_ids.dedup();
    let limit_tracks = match expand.get("limit_tracks") {
        None => Refs::Ids(track_ids),
        Some(_) => Refs::Objects(
            track_ids
                .into_iter()
                .filter_map(&tracks)
                .map(|t| track_view(t, None))
                .collect(),
        ),
    };
    let limit_events = if team.all_events {
        Vec::new()
    } else if team.limit_events.is_empty() {
        item.events.clone()
    } else {
        team.limit_events.iter().map(String::as_str).collect()
    };
    TeamView {
        id: item.id,
        name: &team.name,
        members,
        invites: Vec::new(),
        all_events: team.all_events,
        limit_events,
        limit_tracks,
        can_create_events: team.can_create_events,
        can_change_teams: team.can_change_teams,
        can_change_organiser_settings: team.can_change_organiser_settings,
        can_change_event_settings: team.can_change_event_settings,
        can_change_submissions: team.can_change_submissions,
        is_reviewer: team.is_reviewer,
        force_hide_speaker_names: team.force_hide_speaker_names,
    }
}

#[cfg(test)]
mod round_tenth_tests {
    use super::round_tenth;

    #[test]
    fn rounds_as_formatting_to_one_decimal_does() {
        let exact = |v: f64| -> f64 { format!("{v:.1}").parse().unwrap() };
        let mut values = vec![
            0.05, 0.15, 0.25, 2.25, 2.35, -0.04, -2.25, 1e16, 3.0, 0.0, -0.05, -0.15, 0.45, 1.05,
            4.95, 9.95, 12.25, -12.35, 0.35, 0.65, 0.75, 0.85, 0.95,
        ];
        // Every tenth and every tie near them, and the doubles beside each.
        for k in -2000..2000 {
            for base in [f64::from(k) / 10.0, (f64::from(k) + 0.5) / 10.0] {
                values.extend([base, base.next_up(), base.next_down()]);
            }
        }
        // Doubles of every magnitude from a thousandth to a million, by a
        // fixed pseudo-random walk.
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..100_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let mantissa = (state >> 11) as f64 / (1u64 << 53) as f64;
            let sign = if state & 1 == 0 { 1.0 } else { -1.0 };
            values.push(sign * mantissa * 10f64.powi((state >> 3 & 7) as i32 - 3));
        }
        // Means of up to 12 scores of 0..=10 in steps of a half.
        for count in 1..=12 {
            for sum in 0..=(20 * count) {
                values.push(f64::from(sum) / 2.0 / f64::from(count));
            }
        }
        for value in values {
            assert_eq!(
                round_tenth(value).to_bits(),
                exact(value).to_bits(),
                "{value}"
            );
        }
    }
}

#[cfg(test)]
mod anonymised_data_tests {
    use super::anonymised_data;
    use crate::model::Anonymised;

    #[test]
    fn is_the_json_of_pretalxs_object_with_its_keys_sorted() {
        let with = |title: &str, abstract_: &str, description: &str| {
            let texts = Anonymised {
                title: title.into(),
                abstract_: abstract_.into(),
                description: description.into(),
            };
            anonymised_data(Some(&texts)).into_owned()
        };
        assert_eq!(anonymised_data(None), "{}");
        assert_eq!(with("", "", ""), "{}");
        assert_eq!(with("T", "", ""), r#"{"_anonymised":true,"title":"T"}"#);
        assert_eq!(
            with("A \"quoted\"\ntitle", "Ab\\stract", "Déscription\u{1}"),
            r#"{"_anonymised":true,"abstract":"Ab\\stract","description":"Déscription\u0001","title":"A \"quoted\"\ntitle"}"#
        );
    }
}
