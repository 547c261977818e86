//! v1 schedules, slots and releases.

use super::*;

/// One slot of one of the event's schedules: a talk's slot or a break of
/// the current release (kept on the submissions and the schedule), or a
/// slot of an older release or the WIP schedule.
#[derive(Clone, Copy)]
pub enum SlotRef<'a> {
    Talk {
        sub: crate::domain::catalog::SubmissionIx,
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
    pub sub: Option<crate::domain::catalog::SubmissionIx>,
    pub room: Option<i64>,
    pub start: Option<Timestamp>,
    /// The end, else the start plus the submission's duration.
    pub end: Option<Timestamp>,
    pub is_visible: bool,
    /// The upstream's id, where the dataset has one (pretalx's primary
    /// key: ties of its ordering come in that order).
    pub stored_id: Option<i64>,
}

impl SlotRef<'_> {
    pub fn facts(&self, data: &crate::domain::catalog::EventData) -> SlotFacts {
        let event = &data.event;
        let talk_end = |sub: crate::domain::catalog::SubmissionIx,
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
                    stored_id: item.id,
                }
            }
            SlotRef::Break { item, .. } => SlotFacts {
                release: Release::Current,
                sub: None,
                room: item.room,
                start: Some(item.start),
                end: Some(item.end),
                is_visible: true,
                stored_id: item.id,
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
                    stored_id: item.id,
                }
            }
        }
    }
}

/// Where a slot is rendered: what it leaves out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SlotPlace {
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
    /// pretalx 2026: `break` (a visible slot without submission),
    /// `blocker` (a hidden one), null for a talk. Organisers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot_type: Option<Option<SlotType>>,
}

/// What a slot without submission is (pretalx 2026's `SlotType`).
#[derive(Clone, Copy, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SlotType {
    Break,
    Blocker,
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

    pub(super) fn slot_in(&self, slot: SlotRef<'a>, place: SlotPlace) -> SlotView<'a> {
        let data: &'a crate::domain::catalog::EventData = self.access.data;
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
            slot_type: self.is_orga().then_some(match (code, facts.is_visible) {
                (Some(_), _) => None,
                (None, true) => Some(SlotType::Break),
                (None, false) => Some(SlotType::Blocker),
            }),
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
