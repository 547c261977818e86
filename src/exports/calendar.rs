//! iCalendar (RFC 5545): the whole event, one talk, one speaker's talks.

use super::schedule::{ExportSchedule, TalkSlot};
use super::text::{ical_line, ical_text, vtimezone};

/// A VCALENDAR of `talks` (placed slots), by start, with a VTIMEZONE named
/// by the event's IANA time zone.
pub fn ical(s: &ExportSchedule, talks: &[&TalkSlot], prodid: &str) -> Vec<u8> {
    let mut talks: Vec<&TalkSlot> = talks.to_vec();
    talks.sort_by(|a, b| (a.start, &a.sub.code, a.index).cmp(&(b.start, &b.sub.code, b.index)));
    let mut out = String::with_capacity(1024 + talks.len() * 600);
    ical_line(&mut out, "BEGIN:VCALENDAR");
    ical_line(&mut out, "VERSION:2.0");
    ical_line(&mut out, &format!("PRODID:{prodid}"));
    let tzid = &s.event.timezone;
    if let Some(years) = s.years_of(&talks) {
        vtimezone(&mut out, &s.data.tz, tzid, years);
    }
    let stamp = s.published.map_or_else(
        || "19700101T000000Z".to_string(),
        |p| p.format("%Y%m%dT%H%M%SZ").to_string(),
    );
    for ts in talks {
        let sub = ts.sub;
        let (Some(start), Some(end)) = (ts.start, s.slot_end(ts)) else {
            continue;
        };
        let names: Vec<&str> = sub
            .speakers
            .iter()
            .map(|c| s.user(c).map_or(c.as_str(), |u| u.name.as_str()))
            .collect();
        let room = ts
            .room
            .and_then(|r| s.data.room(r))
            .map_or("", |r| s.tr(&r.name));
        for line in [
            "BEGIN:VEVENT".to_string(),
            format!(
                "UID:pretalx-{}-{}{}@{}",
                s.event.slug, sub.code, ts.suffix, s.host
            ),
            format!("DTSTART;TZID={tzid}:{}", s.local_compact(&start)),
            format!("DTEND;TZID={tzid}:{}", s.local_compact(&end)),
            format!("DESCRIPTION:{}", ical_text(&sub.abstract_)),
            format!("DTSTAMP:{stamp}"),
            format!("LOCATION:{}", ical_text(room)),
            format!(
                "SUMMARY:{}",
                ical_text(&format!("{} - {}", sub.title, names.join(", ")))
            ),
            format!("URL:{}", s.talk_url(&sub.code)),
            "END:VEVENT".to_string(),
        ] {
            ical_line(&mut out, &line);
        }
    }
    ical_line(&mut out, "END:VCALENDAR");
    out.into_bytes()
}

/// The whole event: every placed slot.
pub fn event_ical(s: &ExportSchedule) -> Vec<u8> {
    let talks = s.placed(s.talks.iter());
    ical(s, &talks, &format!("-//pretalx//{}//", s.host))
}

/// One talk's placed slots.
pub fn talk_ical(s: &ExportSchedule, code: &str) -> Vec<u8> {
    let talks = s.placed(s.talks.iter().filter(|t| t.sub.code == code));
    ical(s, &talks, &format!("-//pretalx//{}//{code}", s.host))
}

/// One speaker's placed slots.
pub fn speaker_ical(s: &ExportSchedule, user: &str) -> Vec<u8> {
    let talks = s.placed(
        s.talks
            .iter()
            .filter(|t| t.sub.speakers.iter().any(|c| c == user)),
    );
    ical(
        s,
        &talks,
        &format!("-//pretalx//{}//{}//{user}", s.host, s.event.slug),
    )
}
