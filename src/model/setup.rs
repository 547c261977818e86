//! What an event is set up with: teams, submission types, tracks, rooms
//! (with their availabilities) and tags.

use serde::{Deserialize, Serialize};

use super::*;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Team {
    pub name: String,
    /// User codes.
    pub members: Vec<String>,
    pub can_change_submissions: bool,
    pub is_reviewer: bool,
    pub force_hide_speaker_names: bool,
    /// Track ids; empty means every track.
    pub limit_tracks: Vec<i64>,
    /// The team's upstream id (pretalx's teams are the organiser's): the
    /// same team listed in several events has the same id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// The organiser-level rights and reach pretalx's v1 `teams/` shows.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_events: bool,
    /// Slugs of the organiser's events the team covers; empty: the events
    /// it is listed in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limit_events: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_create_events: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_change_teams: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_change_organiser_settings: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_change_event_settings: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmissionType {
    pub id: i64,
    pub name: I18n,
    pub default_duration: i64,
    /// The CfP deadline for this type, where it differs from the event's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub deadline: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub requires_access_code: bool,
    /// Whether attendees must sign up for its sessions (pretalx 2026.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub attendee_signup_required: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track {
    pub id: i64,
    pub name: I18n,
    pub color: String,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub description: I18n,
    pub position: Option<i64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub requires_access_code: bool,
    /// Whether attendees must sign up for its sessions (pretalx 2026.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub attendee_signup_required: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Availability {
    pub id: i64,
    #[serde(with = "timestamp")]
    pub start: Timestamp,
    #[serde(with = "timestamp")]
    pub end: Timestamp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Room {
    pub id: i64,
    pub guid: Option<String>,
    /// What pretalx's v1 API shows as the room's `uuid`; none means
    /// derived (see [`Room::guid_or_derived`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    pub name: I18n,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub description: I18n,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub speaker_info: I18n,
    pub capacity: Option<i64>,
    pub position: Option<i64>,
    pub availabilities: Vec<Availability>,
}

impl Room {
    /// The room's uuid as pretalx shows it (v1 `uuid`; the schedule
    /// exports' room `guid`; the legacy API's `guid`): the dataset's `uuid`
    /// where given (pretalx's own, for a room without a guid), else its
    /// guid, else a stable one derived from the event and the room id (not
    /// pretalx's): one rule for all of them.
    pub fn guid_or_derived(&self, event_slug: &str) -> String {
        match (&self.uuid, &self.guid) {
            (Some(uuid), _) if !uuid.is_empty() => uuid.clone(),
            (_, Some(guid)) if !guid.is_empty() => guid.clone(),
            _ => {
                let name = format!("confapi:{}:room:{}", event_slug.to_lowercase(), self.id);
                uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes()).to_string()
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tag {
    pub id: i64,
    pub tag: String,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub description: I18n,
    pub color: String,
    pub is_public: bool,
}
