//! The schedule: the current release, older releases, the work in
//! progress, their slots and breaks.

use serde::{Deserialize, Serialize};

use super::{timestamp, ArcStr, I18n, Timestamp};

/// The released current schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// Primary key upstream; one id space with the other schedules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    pub version: String,
    #[serde(with = "timestamp::option")]
    pub published: Option<Timestamp>,
    /// The organisers' release note.
    #[serde(default, skip_serializing_if = "I18n::is_empty")]
    pub comment: I18n,
    /// Its visible breaks (slots without a submission).
    pub breaks: Vec<Break>,
}

/// One of an event's schedules: the current release, an older release (its
/// place in `older_schedules`), or the work-in-progress schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Release {
    Current,
    Older(usize),
    Wip,
}

/// An earlier release of the schedule, with every slot it had.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleVersion {
    /// Primary key upstream; one id space with the other schedules.
    pub id: Option<i64>,
    pub version: String,
    #[serde(with = "timestamp")]
    pub published: Timestamp,
    pub comment: I18n,
    pub slots: Vec<ScheduleSlot>,
}

/// The work-in-progress schedule: what the next release would be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WipSchedule {
    pub id: Option<i64>,
    pub comment: I18n,
    pub slots: Vec<ScheduleSlot>,
}

/// A slot of an older or the work-in-progress schedule: a submission's
/// slot, or a break (no submission).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleSlot {
    /// Primary key upstream; one id space with the slots and breaks of
    /// every schedule of the event.
    pub id: Option<i64>,
    /// The submission's code; none for a break.
    pub submission: Option<ArcStr>,
    pub room: Option<i64>,
    #[serde(with = "timestamp::option")]
    pub start: Option<Timestamp>,
    #[serde(with = "timestamp::option")]
    pub end: Option<Timestamp>,
    pub is_visible: bool,
    /// A break's text.
    pub description: I18n,
}

/// A break in the released schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Break {
    /// Primary key upstream; one id space with slot ids.
    pub id: Option<i64>,
    pub room: Option<i64>,
    #[serde(with = "timestamp")]
    pub start: Timestamp,
    #[serde(with = "timestamp")]
    pub end: Timestamp,
    pub description: I18n,
}
