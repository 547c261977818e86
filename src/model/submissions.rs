//! Submissions with their slots, resources, invitations and sign-up,
//! and the speakers' per-event profiles.

use serde::{Deserialize, Serialize};

use super::*;

closed_set! {
    /// A submission's state in the review process.
    SubmissionState {
        Submitted = "submitted",
        Accepted = "accepted",
        Rejected = "rejected",
        Confirmed = "confirmed",
        Canceled = "canceled",
        Withdrawn = "withdrawn",
    }
}

/// A user's per-event speaker profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeakerProfile {
    /// The user's code (the person), shared with the submissions that name
    /// it unless the profile has a `code` of its own.
    #[serde(deserialize_with = "shared::one")]
    pub user: ArcStr,
    /// pretalx 2026's per-event speaker code, where it is not the user's
    /// (a person can have another in each event): this event's submissions
    /// and answers name the speaker by it, and every view shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<ArcStr>,
    pub biography: String,
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub availabilities: Vec<Availability>,
    /// Checked in at the venue.
    #[serde(default, skip_serializing_if = "is_false")]
    pub has_arrived: bool,
    /// The organisers' notes on the speaker.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub internal_notes: String,
}

impl SpeakerProfile {
    /// The code this event knows the speaker by: the profile's own, else
    /// the user's.
    pub fn speaker_code(&self) -> &ArcStr {
        self.code.as_ref().unwrap_or(&self.user)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anonymised {
    pub title: String,
    #[serde(rename = "abstract")]
    pub abstract_: String,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// Primary key upstream; unique within the event when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    pub resource: String,
    pub description: String,
    /// Private resources are for organisers only. Written only when false,
    /// so that the records of datasets without the field keep their bytes.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub is_public: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    pub room: Option<i64>,
    #[serde(with = "timestamp::option")]
    pub start: Option<Timestamp>,
    #[serde(with = "timestamp::option")]
    pub end: Option<Timestamp>,
    pub is_visible: bool,
    /// Primary key upstream; one id space with break ids.
    pub id: Option<i64>,
    /// The talk's guid in frab XML/JSON; several slots of a talk may share it.
    pub guid: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    /// Shared with the answers and reviews that name the submission.
    #[serde(deserialize_with = "shared::one")]
    pub code: ArcStr,
    pub title: String,
    /// User codes, in display order.
    #[serde(deserialize_with = "shared::list")]
    pub speakers: Vec<ArcStr>,
    pub submission_type: i64,
    pub track: Option<i64>,
    pub state: SubmissionState,
    pub pending_state: Option<SubmissionState>,
    #[serde(rename = "abstract")]
    pub abstract_: String,
    pub description: String,
    pub notes: String,
    pub internal_notes: String,
    pub duration: Option<i64>,
    pub slot_count: i64,
    pub do_not_record: bool,
    pub is_featured: bool,
    /// One of the event's few locales, shared (`shared`).
    #[serde(deserialize_with = "shared::one")]
    pub content_locale: ArcStr,
    pub image: Option<String>,
    #[serde(with = "timestamp")]
    pub created: Timestamp,
    /// Tag ids.
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub tags: Vec<i64>,
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub resources: Vec<Resource>,
    /// The organisers' anonymised texts; an empty text means "use the real
    /// one". Boxed: few submissions have them, and every one pays its size.
    pub anonymised: Option<Box<Anonymised>>,
    /// User codes.
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub assigned_reviewers: Vec<String>,
    /// Slots in the released schedule, in dataset order.
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub slots: Vec<Slot>,
    /// The submission's primary key upstream, for the schedule exports.
    pub id: Option<i64>,
    /// Organiser-only: the token that invites co-speakers and the code of
    /// the submission's review link (pretalx gives every submission both).
    /// Shared strings: a thin pointer each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation_token: Option<ArcStr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_code: Option<ArcStr>,
    /// Organiser-only: the upstream id of the access code the submission
    /// was made with (pretalx's v1 API shows the id, not the code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_code: Option<i64>,
    /// When the submission was last changed (pretalx 2026.1 shows it to
    /// organisers and reviewers); None when the source did not say.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub updated: Option<Timestamp>,
    /// Organiser-only: the co-speaker invitations still open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invitations: Vec<Invitation>,
    /// Attendee sign-up (pretalx 2026.2), boxed: few submissions have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_signup: Option<Box<AttendeeSignup>>,
}

/// A submission's attendee sign-up settings and state (pretalx 2026.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AttendeeSignup {
    /// None: the track's and the type's setting apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// None: the room's capacity applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<i64>,
    /// What pretalx computed: None when no sign-up applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<SignupStatus>,
}

/// pretalx's `signup_status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SignupStatus {
    Open,
    Full,
}

impl SignupStatus {
    pub const ALL: [SignupStatus; 2] = [SignupStatus::Open, SignupStatus::Full];
    pub fn name(self) -> &'static str {
        match self {
            SignupStatus::Open => "open",
            SignupStatus::Full => "full",
        }
    }
}

/// An open invitation to co-speak on a submission (organiser-only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invitation {
    pub id: i64,
    pub email: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub created: Option<Timestamp>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub updated: Option<Timestamp>,
}
