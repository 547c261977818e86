//! Slots on the released schedule, laid out by a simple timetable.

use chrono::Duration;

use super::super::helpers::round_up;
use super::super::plan::EventPlan;
use super::super::tables::{
    BREAK_MINUTES, DAY_LENGTH_MINUTES, DAY_START_MINUTES, FORCED_STATES, INVISIBLE,
};
use super::{next_id, Generator};
use crate::model::{Room, Slot, Submission, SubmissionState, SubmissionType, Timestamp};

/// A deterministic UUID for an upstream slot id (pretalx `TalkSlot.uuid`),
/// derived without drawing from the generator, so that adding it changed
/// no other value of a seed's dataset.
fn slot_guid(slot_pk: i64) -> String {
    let bits = xxhash_rust::xxh3::xxh3_128(format!("confapi-demo-slot-{slot_pk}").as_bytes());
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

impl Generator {
    /// Slots on the released schedule: accepted and confirmed submissions,
    /// and about half of the canceled and withdrawn ones (they keep theirs).
    pub(super) fn schedule(
        &mut self,
        plan: &EventPlan,
        rooms: &[Room],
        types: &[SubmissionType],
        submissions: &mut [Submission],
    ) {
        let mut timetable = Timetable::new(plan, rooms);
        for (i, submission) in submissions.iter_mut().enumerate() {
            let placed = match submission.state.as_str() {
                "accepted" | "confirmed" => true,
                "canceled" | "withdrawn" => i < FORCED_STATES.len() || self.rng.bool(),
                _ => false,
            };
            if !placed {
                continue;
            }
            let default = types
                .iter()
                .find(|t| t.id == submission.submission_type)
                .map_or(30, |t| t.default_duration);
            let minutes = submission.duration.unwrap_or(default);
            // Some accepted talks are on the schedule but not visible yet;
            // a few of those are not even placed in a room.
            let invisible = submission.state == SubmissionState::Accepted
                && (i == INVISIBLE || self.chance(0.25));
            if invisible && i != INVISIBLE && self.rng.bool() {
                let id = next_id(&mut self.ids.slot_pk);
                submission.slots.push(Slot {
                    room: None,
                    start: None,
                    end: None,
                    is_visible: false,
                    id: Some(id),
                    guid: Some(slot_guid(id)),
                });
                continue;
            }
            // Later parts of a multi-part session: same room and time on the following days.
            let (room, first_start) = timetable.place(minutes);
            for part in 0..submission.slot_count {
                let start = first_start + Duration::days(part);
                let id = next_id(&mut self.ids.slot_pk);
                submission.slots.push(Slot {
                    room: Some(room),
                    start: Some(start),
                    end: Some(start + Duration::minutes(minutes)),
                    is_visible: !invisible,
                    id: Some(id),
                    guid: Some(slot_guid(id)),
                });
            }
        }
    }
}

/// Lays talks out room by room and day by day from 09:00, with breaks. When
/// the days are full it starts over: huge demos get overlapping slots, which
/// is fine (nothing requires a conflict-free schedule).
struct Timetable<'a> {
    plan: &'a EventPlan,
    rooms: Vec<i64>,
    /// Minutes used since the day's start, per day and room.
    used: Vec<Vec<i64>>,
    day: usize,
    next_room: usize,
}

impl<'a> Timetable<'a> {
    fn new(plan: &'a EventPlan, rooms: &[Room]) -> Self {
        Timetable {
            plan,
            rooms: rooms.iter().map(|r| r.id).collect(),
            used: vec![vec![0; rooms.len()]; plan.days.len()],
            day: 0,
            next_room: 0,
        }
    }

    fn place(&mut self, minutes: i64) -> (i64, Timestamp) {
        let room_count = self.rooms.len();
        loop {
            for step in 0..room_count {
                let room = (self.next_room + step) % room_count;
                let used = self.used[self.day][room];
                // An over-long session still gets an empty room-day.
                if used + minutes <= DAY_LENGTH_MINUTES || used == 0 {
                    self.used[self.day][room] = round_up(used + minutes + BREAK_MINUTES, 5);
                    self.next_room = (room + 1) % room_count;
                    let start = self
                        .plan
                        .at(self.plan.days[self.day], DAY_START_MINUTES + used);
                    return (self.rooms[room], start);
                }
            }
            self.day += 1;
            if self.day == self.plan.days.len() {
                self.day = 0;
                for day in &mut self.used {
                    day.iter_mut().for_each(|used| *used = 0);
                }
            }
        }
    }
}
