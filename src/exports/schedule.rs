//! The schedule the exports show: the current release's visible slots with
//! their ids, guids and slugs, and its breaks (exports.md "What goes in").

use chrono::{Datelike, Duration, NaiveDate, Timelike};

use super::text::{acronym, derive_int, derive_uuid, local_at, title_slug};
use crate::domain::access::{resource_visible_to, Role};
use crate::domain::catalog::{EventData, Users};
use crate::model::{Break, Event, I18n, Resource, Room, Submission, Timestamp, Track, User};

/// One visible slot of a talk.
pub struct TalkSlot<'a> {
    pub sub: &'a Submission,
    /// Position among the talk's visible slots, by start.
    pub index: usize,
    /// `-0`, `-1`, … when the talk has several visible slots, else empty.
    pub suffix: String,
    pub start: Option<Timestamp>,
    pub end: Option<Timestamp>,
    pub room: Option<i64>,
    /// frab `event id`: the submission's upstream id (one slot), else derived.
    pub frab_id: i64,
    /// frab talk guid: the slot's, unless missing or shared by several slots.
    pub guid: String,
    /// Widget entry id: the slot's upstream id, else derived.
    pub widget_id: i64,
    /// frab slug: `{acronym}-{id}{suffix}-{title slug}`.
    pub slug: String,
}

pub struct BreakSlot<'a> {
    pub id: i64,
    pub room: Option<i64>,
    pub start: Timestamp,
    pub end: Timestamp,
    pub description: &'a I18n,
}

/// One frab day: 04:00 local to 03:59 the next date.
pub struct Day<'s, 'a> {
    pub index: usize,
    pub date: NaiveDate,
    pub start: String,
    pub end: String,
    /// Rooms with talks that day (by position, then id; rooms of one name
    /// together), each with its talks by start.
    pub rooms: Vec<(&'a str, &'a Room, Vec<&'s TalkSlot<'a>>)>,
}

/// Everything an export renders from, for one event and one base URL.
pub struct ExportSchedule<'a> {
    pub data: &'a EventData,
    pub event: &'a Event,
    pub users: &'a Users,
    /// `https://host[:port]`, no trailing slash.
    pub base_url: String,
    /// The base URL's host (and port).
    pub host: String,
    pub released: bool,
    pub version: &'a str,
    pub published: Option<Timestamp>,
    /// Visible slots, by start (slots without a start last), code, index.
    pub talks: Vec<TalkSlot<'a>>,
    pub breaks: Vec<BreakSlot<'a>>,
    /// Whose export this is: organisers' show private resources. The
    /// public's by default, so that a forgotten call leaks nothing.
    pub viewer: Role,
}

impl<'a> ExportSchedule<'a> {
    pub fn new(data: &'a EventData, users: &'a Users, base_url: &str) -> Self {
        Self::of(data, users, base_url, |_| true)
    }

    /// The same, with the slots of only the submissions `wanted` keeps
    /// (one talk's or speaker's calendar, or none for the feed): each slot's
    /// ids, guids and slug depend on its own submission only.
    pub fn of(
        data: &'a EventData,
        users: &'a Users,
        base_url: &str,
        wanted: impl Fn(&Submission) -> bool,
    ) -> Self {
        let event = &data.event;
        let base_url = base_url.trim_end_matches('/').to_string();
        let host = base_url
            .split_once("://")
            .map_or(base_url.as_str(), |(_, rest)| rest)
            .split('/')
            .next()
            .unwrap_or("")
            .to_string();
        let slug = event.slug.to_lowercase();
        let prefix = acronym(&event.slug);
        let mut talks = Vec::new();
        let mut breaks = Vec::new();
        if let Some(schedule) = &event.schedule {
            // The talks in the store's order, whatever the snapshot's.
            for sub in data.stored_submissions().into_iter().filter(|s| wanted(s)) {
                let mut visible: Vec<_> = sub.slots.iter().filter(|s| s.is_visible).collect();
                if visible.is_empty() {
                    continue;
                }
                visible.sort_by_key(|s| (s.start.is_none(), s.start, s.room.unwrap_or(0)));
                let count = visible.len();
                let base_id = sub
                    .id
                    .unwrap_or_else(|| derive_int(&["submission", &slug, &sub.code]));
                let tslug = title_slug(&sub.title);
                for (i, slot) in visible.iter().enumerate() {
                    let suffix = if count > 1 {
                        format!("-{i}")
                    } else {
                        String::new()
                    };
                    let own = format!("{}{suffix}", sub.code);
                    let frab_id = if count == 1 {
                        base_id
                    } else {
                        derive_int(&["slot", &slug, &own])
                    };
                    let guid = match &slot.guid {
                        Some(g)
                            if !g.is_empty()
                                && visible
                                    .iter()
                                    .filter(|s| s.guid.as_ref() == Some(g))
                                    .count()
                                    == 1 =>
                        {
                            g.clone()
                        }
                        _ => derive_uuid(&[&slug, "talk", &own]),
                    };
                    let widget_id = slot.id.unwrap_or_else(|| {
                        derive_int(&["widget-slot", &slug, &format!("{}-{i}", sub.code)])
                    });
                    let mut frab_slug = format!("{prefix}-{base_id}{suffix}");
                    if !tslug.is_empty() {
                        frab_slug.push('-');
                        frab_slug.push_str(&tslug);
                    }
                    talks.push(TalkSlot {
                        sub,
                        index: i,
                        suffix,
                        start: slot.start,
                        end: slot.end,
                        room: slot.room,
                        frab_id,
                        guid,
                        widget_id,
                        slug: frab_slug,
                    });
                }
            }
            talks.sort_by(|a, b| {
                (a.start.is_none(), a.start, &a.sub.code, a.index).cmp(&(
                    b.start.is_none(),
                    b.start,
                    &b.sub.code,
                    b.index,
                ))
            });
            for (i, raw) in schedule.breaks.iter().enumerate() {
                let Break {
                    id,
                    room,
                    start,
                    end,
                    description,
                } = raw;
                breaks.push(BreakSlot {
                    id: id.unwrap_or_else(|| derive_int(&["break", &slug, &i.to_string()])),
                    room: *room,
                    start: *start,
                    end: *end,
                    description,
                });
            }
        }
        ExportSchedule {
            data,
            event,
            users,
            base_url,
            host,
            released: event.schedule.is_some(),
            version: event.schedule.as_ref().map_or("", |s| s.version.as_str()),
            published: event.schedule.as_ref().and_then(|s| s.published),
            talks,
            breaks,
            viewer: Role::Public,
        }
    }

    /// The same schedule as `viewer` sees it.
    pub fn for_viewer(mut self, viewer: Role) -> Self {
        self.viewer = viewer;
        self
    }

    /// The resources of `sub` that the viewer may see, in dataset order.
    pub fn resources<'s>(&self, sub: &'s Submission) -> impl Iterator<Item = &'s Resource> {
        let viewer = self.viewer;
        sub.resources
            .iter()
            .filter(move |r| resource_visible_to(viewer, r))
    }

    /// An i18n value in the event's language, else its first translation.
    /// The name of a submission's type ("" when the type is unknown).
    pub fn type_name(&self, sub: &Submission) -> &'a str {
        self.data
            .submission_type(sub.submission_type)
            .map_or("", |t| self.tr(&t.name))
    }

    /// The name of a submission's track, if it has one.
    pub fn track_name(&self, sub: &Submission) -> Option<&'a str> {
        sub.track
            .and_then(|t| self.data.track(t))
            .map(|t| self.tr(&t.name))
    }

    pub fn tr<'v>(&self, value: &'v I18n) -> &'v str {
        value
            .0
            .iter()
            .find(|(locale, text)| *locale == self.event.locale && !text.is_empty())
            .or_else(|| value.0.first())
            .map_or("", |(_, text)| text.as_str())
    }

    /// The person a speaker code names: the user of the event's profile
    /// that goes by it (pretalx 2026: a code of the profile's own), else
    /// the user of that code.
    pub fn user(&self, code: &str) -> Option<&'a User> {
        let user = self.data.profile(code).map_or(code, |p| p.user.as_str());
        self.users.get(user).map(|user| &**user)
    }

    /// A speaker's name as the frab formats show it.
    pub fn person_name(&self, code: &str) -> &'a str {
        match self.user(code) {
            Some(u) if !u.name.is_empty() => u.name.as_str(),
            _ => "Unnamed user",
        }
    }

    pub fn person_id(&self, code: &str) -> i64 {
        self.user(code)
            .and_then(|u| u.id)
            .unwrap_or_else(|| derive_int(&["user", code]))
    }

    /// The room's guid: its uuid as pretalx shows it
    /// ([`Room::guid_or_derived`]).
    pub fn room_guid(&self, room: &Room) -> String {
        room.guid_or_derived(&self.event.slug)
    }

    pub fn talk_url(&self, code: &str) -> String {
        format!("{}/{}/talk/{code}/", self.base_url, self.event.slug)
    }

    pub fn schedule_url(&self) -> String {
        format!("{}/{}/schedule/", self.base_url, self.event.slug)
    }

    pub fn date_from(&self) -> NaiveDate {
        self.event.date_from
    }

    pub fn date_to(&self) -> NaiveDate {
        self.event.date_to.unwrap_or(self.event.date_from)
    }

    /// Slots with a start and an existing room (frab XML/JSON, xCal, iCal).
    pub fn placed<'s>(
        &'s self,
        talks: impl Iterator<Item = &'s TalkSlot<'a>>,
    ) -> Vec<&'s TalkSlot<'a>> {
        talks
            .filter(|t| t.start.is_some() && t.room.is_some_and(|r| self.data.room(r).is_some()))
            .collect()
    }

    /// The submission's length: its own duration, else its type's default.
    pub fn sub_duration(&self, sub: &Submission) -> i64 {
        sub.duration
            .or_else(|| {
                self.data
                    .submission_type(sub.submission_type)
                    .map(|t| t.default_duration)
            })
            .unwrap_or(30)
    }

    /// The slot's length in minutes (end − start), else the submission's.
    pub fn slot_minutes(&self, ts: &TalkSlot) -> i64 {
        match (ts.start, ts.end) {
            (Some(start), Some(end)) => (end - start).num_seconds().div_euclid(60),
            _ => self.sub_duration(ts.sub),
        }
    }

    /// The slot's end, else start + the submission's length.
    pub fn slot_end(&self, ts: &TalkSlot) -> Option<Timestamp> {
        ts.end.or_else(|| {
            ts.start
                .map(|s| s + Duration::minutes(self.slot_minutes(ts)))
        })
    }

    /// Tracks by position (none as 0), then id.
    pub fn tracks_sorted(&self) -> Vec<&'a Track> {
        let mut tracks: Vec<&Track> = self.event.tracks.iter().collect();
        tracks.sort_by_key(|t| (t.position.unwrap_or(0), t.id));
        tracks
    }

    /// Rooms by position (none last), then id.
    pub fn rooms_sorted(&self) -> Vec<&'a Room> {
        let mut rooms: Vec<&Room> = self.event.rooms.iter().collect();
        rooms.sort_by_key(|r| (r.position.is_none(), r.position.unwrap_or(0), r.id));
        rooms
    }

    /// Track slugs valid for the c3voc XSD (`[a-z][a-z0-9-]+`) and unique.
    pub fn track_slugs(&self) -> Vec<(&'a Track, String)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for track in self.tracks_sorted() {
            let mut base = title_slug(self.tr(&track.name));
            if base.len() < 2 || !base.starts_with(|c: char| c.is_ascii_lowercase()) {
                base = format!("track-{base}").trim_matches('-').to_string();
            }
            if base == "track" || seen.contains(&base) {
                base = format!("{base}-{}", track.id);
            }
            seen.insert(base.clone());
            out.push((track, base));
        }
        out
    }

    /// The frab days: one per date from `date_from` to `date_to`; a slot
    /// belongs to its local start date, or to the previous date when it
    /// starts before 03:00 (not on `date_from`); slots outside the dates
    /// are left out.
    pub fn days<'s>(&'s self) -> Vec<Day<'s, 'a>> {
        let tz = &self.data.tz;
        let (from, to) = (self.date_from(), self.date_to());
        let mut by_date: std::collections::BTreeMap<NaiveDate, Vec<&TalkSlot>> = Default::default();
        for ts in self.placed(self.talks.iter()) {
            let Some(start) = ts.start else { continue };
            let local = start.with_timezone(tz);
            let mut day = local.date_naive();
            if local.hour() < 3 && day != from {
                day = day.pred_opt().unwrap_or(day);
            }
            if from <= day && day <= to {
                by_date.entry(day).or_default().push(ts);
            }
        }
        let count = (to - from).num_days().max(-1) + 1;
        let rooms_sorted = self.rooms_sorted();
        (0..count)
            .map(|i| {
                let date = from + Duration::days(i);
                let next = date.succ_opt().unwrap_or(date);
                let talks = by_date.remove(&date).unwrap_or_default();
                let mut rooms: Vec<(&str, &Room, Vec<&TalkSlot>)> = Vec::new();
                for room in rooms_sorted
                    .iter()
                    .filter(|r| talks.iter().any(|t| t.room == Some(r.id)))
                {
                    let name = self.tr(&room.name);
                    let here = talks.iter().copied().filter(|t| t.room == Some(room.id));
                    match rooms.iter_mut().find(|(n, _, _)| *n == name) {
                        Some((_, _, list)) => list.extend(here),
                        None => rooms.push((name, room, here.collect())),
                    }
                }
                for (_, _, list) in &mut rooms {
                    list.sort_by(|a, b| {
                        (a.start, &a.sub.code, a.index).cmp(&(b.start, &b.sub.code, b.index))
                    });
                }
                Day {
                    index: i as usize + 1,
                    date,
                    start: super::text::iso(&local_at(tz, date, 4, 0)),
                    end: super::text::iso(&local_at(tz, next, 3, 59)),
                    rooms,
                }
            })
            .collect()
    }

    pub fn days_count(&self) -> i64 {
        (self.date_to() - self.date_from()).num_days() + 1
    }

    /// Local `YYYYMMDDTHHMMSS`.
    pub fn local_compact(&self, t: &Timestamp) -> String {
        t.with_timezone(&self.data.tz)
            .format("%Y%m%dT%H%M%S")
            .to_string()
    }

    /// Years the VTIMEZONE covers for these slots: one either side.
    pub fn years_of(&self, talks: &[&TalkSlot]) -> Option<std::ops::RangeInclusive<i32>> {
        let years = talks.iter().filter_map(|t| t.start).map(|s| s.year());
        let (min, max) = years.fold((None, None), |(lo, hi): (Option<i32>, Option<i32>), y| {
            (
                Some(lo.map_or(y, |l| l.min(y))),
                Some(hi.map_or(y, |h| h.max(y))),
            )
        });
        Some(min? - 1..=max? + 1)
    }
}
