//! The data confapi serves: one plain Rust value per record of the dataset
//! format (`shared/spec/dataset.md`), with every default applied and every
//! datetime parsed.
//!
//! The same types flow through the whole program: `dataset` parses a JSON
//! document into them and writes them back out, `storage` persists and loads
//! them, and `domain` builds an indexed, read-only snapshot of them that the
//! HTTP layer answers from. Lists keep dataset order; where the API needs
//! another order the domain sorts.

use chrono::{DateTime, NaiveDate, Utc};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// An instant, always kept in UTC with microsecond precision. Responses
/// convert it to the event's time zone.
pub type Timestamp = DateTime<Utc>;

/// A multi-lingual string: locale → text, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct I18n(pub Vec<(String, String)>);

impl I18n {
    pub fn en(text: &str) -> Self {
        if text.is_empty() {
            I18n::default()
        } else {
            I18n(vec![("en".to_string(), text.to_string())])
        }
    }

    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(_, text)| text.as_str())
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("an i18n value always serialises")
    }

    /// Parses the stored JSON object form (`{"en": "Talk"}`).
    pub fn from_json_str(text: &str) -> Result<Self, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        match value {
            serde_json::Value::Object(map) => map
                .into_iter()
                .map(|(locale, text)| match text {
                    serde_json::Value::String(text) => Ok((locale, text)),
                    other => Err(format!("translation {locale:?} is not a string: {other}")),
                })
                .collect::<Result<_, _>>()
                .map(I18n),
            other => Err(format!("not an i18n object: {other}")),
        }
    }

    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).expect("an i18n value always serialises")
    }
}

impl Serialize for I18n {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (locale, text) in &self.0 {
            map.serialize_entry(locale, text)?;
        }
        map.end()
    }
}

/// A whole dataset: global users plus any number of events.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    pub users: Vec<User>,
    pub events: Vec<Event>,
}

#[derive(Debug, Clone)]
pub struct User {
    pub code: String,
    pub name: String,
    pub email: String,
    pub avatar: Option<String>,
    pub locale: String,
    pub timezone: String,
    pub is_administrator: bool,
    /// Lower-case hex SHA-256 digests of the user's API tokens. Clear tokens
    /// are hashed on import and never stored.
    pub token_hashes: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Event {
    pub slug: String,
    pub name: I18n,
    pub is_public: bool,
    pub date_from: NaiveDate,
    pub date_to: Option<NaiveDate>,
    /// An IANA time zone name, checked on import.
    pub timezone: String,
    pub locale: String,
    pub show_schedule: bool,
    pub schedule: Option<Schedule>,
    pub review_phase: Option<ReviewPhase>,
    pub teams: Vec<Team>,
    pub submission_types: Vec<SubmissionType>,
    pub tracks: Vec<Track>,
    pub rooms: Vec<Room>,
    pub tags: Vec<Tag>,
    pub questions: Vec<Question>,
    pub speakers: Vec<SpeakerProfile>,
    pub submissions: Vec<Submission>,
    pub answers: Vec<Answer>,
    pub reviews: Vec<Review>,
}

/// The released current schedule.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub version: String,
    pub published: Option<Timestamp>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherReviews {
    Always,
    AfterReview,
    Never,
}

impl OtherReviews {
    pub const ALL: [(&'static str, OtherReviews); 3] = [
        ("always", OtherReviews::Always),
        ("after_review", OtherReviews::AfterReview),
        ("never", OtherReviews::Never),
    ];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProposalVisibility {
    All,
    Assigned,
}

impl ProposalVisibility {
    pub const ALL: [(&'static str, ProposalVisibility); 2] = [
        ("all", ProposalVisibility::All),
        ("assigned", ProposalVisibility::Assigned),
    ];
}

#[derive(Debug, Clone)]
pub struct ReviewPhase {
    pub name: String,
    pub can_see_speaker_names: bool,
    pub can_see_reviewer_names: bool,
    pub can_see_other_reviews: OtherReviews,
    pub proposal_visibility: ProposalVisibility,
}

impl Default for ReviewPhase {
    /// dataset.md's defaults, which also apply when an event has no active phase.
    fn default() -> Self {
        ReviewPhase {
            name: "Review".into(),
            can_see_speaker_names: true,
            can_see_reviewer_names: true,
            can_see_other_reviews: OtherReviews::AfterReview,
            proposal_visibility: ProposalVisibility::All,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Team {
    pub name: String,
    /// User codes.
    pub members: Vec<String>,
    pub can_change_submissions: bool,
    pub is_reviewer: bool,
    pub force_hide_speaker_names: bool,
    /// Track ids; empty means every track.
    pub limit_tracks: Vec<i64>,
}

#[derive(Debug, Clone)]
pub struct SubmissionType {
    pub id: i64,
    pub name: I18n,
    pub default_duration: i64,
}

#[derive(Debug, Clone)]
pub struct Track {
    pub id: i64,
    pub name: I18n,
    pub color: String,
}

#[derive(Debug, Clone)]
pub struct Availability {
    pub id: i64,
    pub start: Timestamp,
    pub end: Timestamp,
}

#[derive(Debug, Clone)]
pub struct Room {
    pub id: i64,
    pub guid: Option<String>,
    pub name: I18n,
    pub description: I18n,
    pub speaker_info: I18n,
    pub capacity: Option<i64>,
    pub position: Option<i64>,
    pub availabilities: Vec<Availability>,
}

#[derive(Debug, Clone)]
pub struct Tag {
    pub id: i64,
    pub tag: String,
    pub description: I18n,
    pub color: String,
    pub is_public: bool,
}

pub const VARIANTS: [&str; 10] = [
    "number",
    "string",
    "text",
    "url",
    "date",
    "datetime",
    "boolean",
    "file",
    "choices",
    "multiple_choice",
];
pub const TARGETS: [&str; 3] = ["submission", "speaker", "reviewer"];
pub const QUESTION_REQUIRED: [&str; 3] = ["optional", "required", "after_deadline"];
pub const STATES: [&str; 6] = [
    "submitted",
    "accepted",
    "rejected",
    "confirmed",
    "canceled",
    "withdrawn",
];

#[derive(Debug, Clone)]
pub struct QuestionOption {
    pub id: i64,
    pub answer: I18n,
}

#[derive(Debug, Clone)]
pub struct Question {
    pub id: i64,
    /// One of [`VARIANTS`].
    pub variant: String,
    /// One of [`TARGETS`].
    pub target: String,
    pub question: I18n,
    pub help_text: I18n,
    /// One of [`QUESTION_REQUIRED`].
    pub question_required: String,
    pub deadline: Option<Timestamp>,
    pub freeze_after: Option<Timestamp>,
    pub options: Vec<QuestionOption>,
    pub default_answer: Option<String>,
    pub contains_personal_data: bool,
    pub min_length: Option<i64>,
    pub max_length: Option<i64>,
    pub is_public: bool,
    pub is_visible_to_reviewers: bool,
    pub active: bool,
    pub position: i64,
    pub tracks: Vec<i64>,
    pub submission_types: Vec<i64>,
}

/// A user's per-event speaker profile.
#[derive(Debug, Clone)]
pub struct SpeakerProfile {
    pub user: String,
    pub biography: String,
    pub availabilities: Vec<Availability>,
}

#[derive(Debug, Clone, Default)]
pub struct Anonymised {
    pub title: String,
    pub abstract_: String,
    pub description: String,
}

#[derive(Debug, Clone)]
pub struct Resource {
    pub resource: String,
    pub description: String,
}

#[derive(Debug, Clone)]
pub struct Slot {
    pub room: Option<i64>,
    pub start: Option<Timestamp>,
    pub end: Option<Timestamp>,
    pub is_visible: bool,
}

#[derive(Debug, Clone)]
pub struct Submission {
    pub code: String,
    pub title: String,
    /// User codes, in display order.
    pub speakers: Vec<String>,
    pub submission_type: i64,
    pub track: Option<i64>,
    /// One of [`STATES`].
    pub state: String,
    pub pending_state: Option<String>,
    pub abstract_: String,
    pub description: String,
    pub notes: String,
    pub internal_notes: String,
    pub duration: Option<i64>,
    pub slot_count: i64,
    pub do_not_record: bool,
    pub is_featured: bool,
    pub content_locale: String,
    pub image: Option<String>,
    pub created: Timestamp,
    /// Tag ids.
    pub tags: Vec<i64>,
    pub resources: Vec<Resource>,
    /// The organisers' anonymised texts; an empty text means "use the real one".
    pub anonymised: Option<Anonymised>,
    /// User codes.
    pub assigned_reviewers: Vec<String>,
    /// Slots in the released schedule, in dataset order.
    pub slots: Vec<Slot>,
}

#[derive(Debug, Clone)]
pub struct Answer {
    pub id: i64,
    pub question: i64,
    pub answer: String,
    pub answer_file: Option<String>,
    pub submission: Option<String>,
    pub person: Option<String>,
    pub review: Option<i64>,
    /// Option ids of the question.
    pub options: Vec<i64>,
}

#[derive(Debug, Clone)]
pub struct Review {
    pub id: i64,
    pub submission: String,
    /// User code of the reviewer.
    pub user: String,
    pub text: String,
    pub score: Option<f64>,
    pub created: Timestamp,
    pub updated: Timestamp,
}

/// SHA-256 of a clear token, as lower-case hex: the only form stored.
pub fn hash_token(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(token.as_bytes()))
}
