//! The event: its own record with every list in it, its webhook
//! subscriptions, and the kinds of change its feed reports.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::*;

/// An event with everything in it. Storage keeps the lists as one record
/// per item (see `storage::records`) and the rest as the event's own record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub slug: String,
    pub name: I18n,
    pub is_public: bool,
    pub date_from: NaiveDate,
    pub date_to: Option<NaiveDate>,
    /// An IANA time zone name, checked on import.
    pub timezone: String,
    pub locale: String,
    /// The languages the event is shown in; empty means `[locale]` (the
    /// default, never written: see [`Event::locales`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locales: Vec<String>,
    /// The languages submissions may be in; empty means `[locale]` (see
    /// [`Event::content_locales`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub content_locales: Vec<String>,
    /// The organisers' contact address; "" when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    pub show_schedule: bool,
    pub schedule: Option<Schedule>,
    /// Releases before the current one, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub older_schedules: Vec<ScheduleVersion>,
    /// The organisers' work-in-progress schedule, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wip_schedule: Option<WipSchedule>,
    pub review_phase: Option<ReviewPhase>,
    /// What reviewers score submissions on (pretalx's score categories).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub score_categories: Vec<ScoreCategory>,
    pub teams: Vec<Team>,
    pub submission_types: Vec<SubmissionType>,
    pub tracks: Vec<Track>,
    pub rooms: Vec<Room>,
    pub tags: Vec<Tag>,
    pub questions: Vec<Question>,
    pub speakers: Vec<std::sync::Arc<SpeakerProfile>>,
    pub submissions: Vec<std::sync::Arc<Submission>>,
    pub answers: Vec<std::sync::Arc<Answer>>,
    pub reviews: Vec<std::sync::Arc<Review>>,
    /// `#rrggbb`, for the schedule exports.
    pub primary_color: Option<String>,
    /// Absolute URLs of the event's logo and header image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header_image: Option<String>,
    /// The image shown when the event is shared (pretalx 2026.1's `og_image`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub og_image: Option<String>,
    /// The event's own domain (an absolute URL), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_domain: Option<String>,
    /// The slug of the organiser the event belongs to (pretalx's
    /// `/api/organisers/{organiser}/`), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organiser: Option<String>,
    /// Where to POST the event's change feed (never shown by the API).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Webhook>,
}

/// A webhook subscription: one view's change feed of an event, each new
/// generation POSTed to `url`, signed as Standard Webhooks specifies.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Webhook {
    /// An absolute `http` or `https` URL.
    pub url: String,
    /// The signing secret: base64, optionally after `whsec_`.
    pub secret: String,
    /// The code of the user whose view it receives; None: the public's.
    #[serde(rename = "as", default, skip_serializing_if = "Option::is_none")]
    pub as_user: Option<String>,
    /// Only changes of these kinds; empty: all of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<FeedKind>,
}

/// The lists a change feed reports on (`domain::feed`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FeedKind {
    Submission,
    Talk,
    Speaker,
    Room,
    Question,
    Answer,
    Review,
    Tag,
    Schedule,
}

impl FeedKind {
    pub const ALL: [FeedKind; 9] = [
        FeedKind::Submission,
        FeedKind::Talk,
        FeedKind::Speaker,
        FeedKind::Room,
        FeedKind::Question,
        FeedKind::Answer,
        FeedKind::Review,
        FeedKind::Tag,
        FeedKind::Schedule,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FeedKind::Submission => "submission",
            FeedKind::Talk => "talk",
            FeedKind::Speaker => "speaker",
            FeedKind::Room => "room",
            FeedKind::Question => "question",
            FeedKind::Answer => "answer",
            FeedKind::Review => "review",
            FeedKind::Tag => "tag",
            FeedKind::Schedule => "schedule",
        }
    }

    pub fn from_name(name: &str) -> Option<FeedKind> {
        FeedKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl Event {
    /// The event's schedules: the current release, the older ones (oldest
    /// first), the work-in-progress one; each only where the data has it.
    pub fn releases(&self) -> impl Iterator<Item = Release> + '_ {
        let current = self.schedule.as_ref().map(|_| Release::Current);
        let older = (0..self.older_schedules.len()).map(Release::Older);
        let wip = self.wip_schedule.as_ref().map(|_| Release::Wip);
        current.into_iter().chain(older).chain(wip)
    }

    /// The languages the event is shown in (`locales`, else `[locale]`).
    pub fn locales(&self) -> &[String] {
        if self.locales.is_empty() {
            std::slice::from_ref(&self.locale)
        } else {
            &self.locales
        }
    }

    /// The languages submissions may be in (`content_locales`, else
    /// `[locale]`).
    pub fn content_locales(&self) -> &[String] {
        if self.content_locales.is_empty() {
            std::slice::from_ref(&self.locale)
        } else {
            &self.content_locales
        }
    }

    /// Gives back the room that a load's lists grew into: items arrive one
    /// at a time, so each list ends with up to twice the room it needs
    /// (some 55 MiB for the 100,000-submission event, most of it never
    /// touched). Items' own lists are read exact (`exact_list`).
    /// A copy of the event without its big lists (speakers, submissions,
    /// answers, reviews): its own record and its small lists, to compare.
    pub fn without_records(&self) -> Event {
        // Spelled out, so that a new field is a decision here.
        let Event {
            slug,
            name,
            is_public,
            date_from,
            date_to,
            timezone,
            locale,
            locales,
            content_locales,
            email,
            show_schedule,
            schedule,
            older_schedules,
            wip_schedule,
            review_phase,
            score_categories,
            teams,
            submission_types,
            tracks,
            rooms,
            tags,
            questions,
            speakers: _,
            submissions: _,
            answers: _,
            reviews: _,
            primary_color,
            logo,
            header_image,
            og_image,
            custom_domain,
            organiser,
            webhooks,
        } = self;
        Event {
            slug: slug.clone(),
            name: name.clone(),
            is_public: *is_public,
            date_from: *date_from,
            date_to: *date_to,
            timezone: timezone.clone(),
            locale: locale.clone(),
            locales: locales.clone(),
            content_locales: content_locales.clone(),
            email: email.clone(),
            show_schedule: *show_schedule,
            schedule: schedule.clone(),
            older_schedules: older_schedules.clone(),
            wip_schedule: wip_schedule.clone(),
            review_phase: review_phase.clone(),
            score_categories: score_categories.clone(),
            teams: teams.clone(),
            submission_types: submission_types.clone(),
            tracks: tracks.clone(),
            rooms: rooms.clone(),
            tags: tags.clone(),
            questions: questions.clone(),
            speakers: Vec::new(),
            submissions: Vec::new(),
            answers: Vec::new(),
            reviews: Vec::new(),
            primary_color: primary_color.clone(),
            logo: logo.clone(),
            header_image: header_image.clone(),
            og_image: og_image.clone(),
            custom_domain: custom_domain.clone(),
            organiser: organiser.clone(),
            webhooks: webhooks.clone(),
        }
    }

    pub fn shrink_to_fit(&mut self) {
        exact(&mut self.submission_types);
        exact(&mut self.tracks);
        exact(&mut self.rooms);
        exact(&mut self.tags);
        exact(&mut self.questions);
        exact(&mut self.speakers);
        exact(&mut self.submissions);
        exact(&mut self.answers);
        exact(&mut self.reviews);
    }
}
