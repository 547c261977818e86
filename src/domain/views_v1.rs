//! The JSON objects of pretalx's versioned API (`Pretalx-Version: v1`),
//! per role (`shared/spec/pretalx-v1.md` §6, with §13's differences): a
//! second set of views over the same catalog and the same visibility rules
//! (`access`) as the legacy views in `views`. Related objects are ids;
//! organiser-only fields are `Option`s left out for everyone else.

use serde::ser::{Serialize, Serializer};
use serde::Serialize as DeriveSerialize;
use utoipa::ToSchema;

use crate::model::*;

use super::access::{Access, Role};
use super::time::{format_in, is_midnight_in};

/// A translated text as v1 writes it: the object of its locales, or with
/// `lang` (one of the event's locales) that locale's text as a plain
/// string, `""` when it has none.
#[derive(Clone, Copy)]
pub struct Text<'a> {
    value: &'a I18n,
    lang: Option<&'a str>,
}

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
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
    /// The detail's fields; the list shows the six above.
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
            email: "",
            primary_color: event.primary_color.as_deref(),
            custom_domain: None,
            logo: None,
            header_image: None,
            locale: &event.locale,
            locales: vec![event.locale.as_str()],
            content_locales: vec![event.locale.as_str()],
        }),
    }
}

/// `lang` as v1 reads it: a locale the event offers, else ignored.
pub fn lang_of<'a>(event: &Event, asked: Option<&'a str>) -> Option<&'a str> {
    asked.filter(|lang| *lang == event.locale)
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
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<i64>,
    pub answer: Text<'a>,
    pub position: i64,
}

/// A question's options: ids for the public, objects for organisers.
#[derive(DeriveSerialize, ToSchema)]
#[serde(untagged)]
#[schema(as = v1::QuestionOptions)]
pub enum Options<'a> {
    Ids(Vec<i64>),
    Objects(Vec<OptionView<'a>>),
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
    pub tracks: Vec<i64>,
    pub submission_types: Vec<i64>,
    pub options: Options<'a>,
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
pub struct V1Renderer<'a> {
    pub access: &'a Access<'a>,
    /// `lang`, when the event offers it.
    pub lang: Option<&'a str>,
}

impl<'a> V1Renderer<'a> {
    pub fn new(access: &'a Access<'a>, lang: Option<&'a str>) -> Self {
        V1Renderer {
            access,
            lang: lang_of(&access.data.event, lang),
        }
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

    fn is_orga(&self) -> bool {
        self.access.role == Role::Organiser
    }

    fn availabilities(&self, list: &[Availability]) -> Vec<AvailabilityView> {
        let tz = &self.access.data.tz;
        let mut sorted: Vec<&Availability> = list.iter().collect();
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
        TrackView {
            id: track.id,
            name: self.text(&track.name),
            description: self.text(&track.description),
            color: &track.color,
            position: track.position,
            requires_access_code: false,
        }
    }

    pub fn submission_type(&self, kind: &'a SubmissionType) -> SubmissionTypeView<'a> {
        SubmissionTypeView {
            id: kind.id,
            name: self.text(&kind.name),
            default_duration: kind.default_duration,
            deadline: None,
            requires_access_code: false,
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
            question: in_list.then_some(question.id),
            answer: self.text(&option.answer),
            position: index as i64,
        }
    }

    pub fn question(&self, q: &'a Question) -> QuestionView<'a> {
        let orga = self.is_orga();
        let mut tracks = q.tracks.clone();
        tracks.sort_unstable();
        let mut submission_types = q.submission_types.clone();
        submission_types.sort_unstable();
        let options = if orga {
            Options::Objects(
                (0..q.options.len())
                    .map(|i| self.option(q, i, false))
                    .collect(),
            )
        } else {
            Options::Ids(q.options.iter().map(|o| o.id).collect())
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
            options,
            min_length: q.min_length,
            max_length: q.max_length,
            min_number: None,
            max_number: None,
            min_date: None,
            max_date: None,
            min_datetime: None,
            max_datetime: None,
            icon: None,
            active: orga.then_some(q.active),
            is_public: orga.then_some(q.is_public),
            contains_personal_data: orga.then_some(q.contains_personal_data),
            is_visible_to_reviewers: orga.then_some(q.is_visible_to_reviewers),
        }
    }
}
