//! frab XML (c3voc `schedule.xml.xsd`), frab/c3voc JSON (`schema.json`) and
//! the pentabarf-style xCal, which lists the same slots in the same order.

use serde::Serialize;
use serde_json::{json, Value};

use super::schedule::{ExportSchedule, TalkSlot};
use super::text::{acronym, xml_attr, xml_text};
use super::{GENERATOR_NAME, GENERATOR_VERSION};

const DEFAULT_PRIMARY_COLOR: &str = "#3aa57c";

/// `HH:MM`, `D:HH:MM` from one day on.
pub fn duration_string(minutes: i64) -> String {
    let minutes = minutes.max(0);
    let (days, rest) = (minutes / 1440, minutes % 1440);
    if days > 0 {
        format!("{days}:{:02}:{:02}", rest / 60, rest % 60)
    } else {
        format!("{:02}:{:02}", rest / 60, rest % 60)
    }
}

/// `<tag>text</tag>` with the text escaped, on its own indented line.
fn element(out: &mut String, indent: &str, tag: &str, text: &str) {
    out.push_str(indent);
    out.push('<');
    out.push_str(tag);
    out.push('>');
    xml_text(out, text);
    out.push_str("</");
    out.push_str(tag);
    out.push_str(">\n");
}

pub fn frab_xml(s: &ExportSchedule) -> Vec<u8> {
    let mut out = String::with_capacity(4096 + s.talks.len() * 1500);
    out.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<schedule>\n");
    out.push_str(&format!(
        "  <generator name=\"{GENERATOR_NAME}\" version=\"{GENERATOR_VERSION}\"/>\n"
    ));
    element(&mut out, "  ", "version", s.version);
    out.push_str("  <conference>\n");
    let c = "    ";
    element(&mut out, c, "title", s.tr(&s.event.name));
    element(&mut out, c, "acronym", &acronym(&s.event.slug));
    element(&mut out, c, "start", &s.date_from().to_string());
    element(&mut out, c, "end", &s.date_to().to_string());
    element(&mut out, c, "days", &s.days_count().to_string());
    element(&mut out, c, "timeslot_duration", "00:05");
    element(&mut out, c, "base_url", &s.base_url);
    element(&mut out, c, "time_zone_name", &s.event.timezone);
    for (track, slug) in s.track_slugs() {
        out.push_str("    <track name=\"");
        xml_attr(&mut out, s.tr(&track.name));
        out.push_str("\" slug=\"");
        xml_attr(&mut out, &slug);
        out.push('"');
        if !track.color.is_empty() {
            out.push_str(" color=\"");
            xml_attr(&mut out, &track.color.to_lowercase());
            out.push('"');
        }
        out.push_str("/>\n");
    }
    out.push_str("  </conference>\n");
    for day in s.days() {
        out.push_str(&format!(
            "  <day index=\"{}\" date=\"{}\" start=\"{}\" end=\"{}\">\n",
            day.index, day.date, day.start, day.end
        ));
        for (name, room, talks) in &day.rooms {
            out.push_str("    <room name=\"");
            xml_attr(&mut out, name);
            out.push_str("\" guid=\"");
            xml_attr(&mut out, &s.room_guid(room));
            out.push_str("\">\n");
            for ts in talks {
                xml_event(&mut out, s, ts, name);
            }
            out.push_str("    </room>\n");
        }
        out.push_str("  </day>\n");
    }
    out.push_str("</schedule>\n");
    out.into_bytes()
}

fn xml_event(out: &mut String, s: &ExportSchedule, ts: &TalkSlot, room_name: &str) {
    let sub = ts.sub;
    let Some(start) = ts.start else { return };
    let local = start.with_timezone(&s.data.tz);
    let kind = s.type_name(sub);
    let track = s.track_name(sub).unwrap_or("");
    let url = s.talk_url(&sub.code);
    let e = "        ";
    out.push_str("      <event guid=\"");
    xml_attr(out, &ts.guid);
    out.push_str(&format!("\" id=\"{}\">\n", ts.frab_id));
    element(out, e, "room", room_name);
    element(out, e, "title", &sub.title);
    element(out, e, "subtitle", "");
    element(out, e, "type", kind);
    element(out, e, "date", &super::text::iso(&local));
    element(out, e, "start", &local.format("%H:%M").to_string());
    element(out, e, "duration", &duration_string(s.slot_minutes(ts)));
    element(out, e, "abstract", &sub.abstract_);
    element(out, e, "slug", &ts.slug);
    element(out, e, "track", track);
    if let Some(image) = sub.image.as_deref().filter(|i| !i.is_empty()) {
        element(out, e, "logo", image);
    }
    out.push_str("        <persons>\n");
    for code in &sub.speakers {
        out.push_str(&format!("          <person id=\"{}\">", s.person_id(code)));
        xml_text(out, s.person_name(code));
        out.push_str("</person>\n");
    }
    out.push_str("        </persons>\n");
    if !sub.content_locale.is_empty() {
        element(out, e, "language", &sub.content_locale);
    }
    if !sub.description.is_empty() {
        element(out, e, "description", &sub.description);
    }
    out.push_str("        <recording>\n          <license></license>\n");
    out.push_str(&format!(
        "          <optout>{}</optout>\n        </recording>\n",
        sub.do_not_record
    ));
    let mut resources = s.resources(sub).peekable();
    if resources.peek().is_none() {
        out.push_str("        <links></links>\n");
    } else {
        out.push_str("        <links>\n");
        for res in resources {
            out.push_str("          <link href=\"");
            xml_attr(out, &res.resource);
            out.push_str("\">");
            xml_text(out, &res.description);
            out.push_str("</link>\n");
        }
        out.push_str("        </links>\n");
    }
    out.push_str("        <attachments></attachments>\n");
    element(out, e, "url", &url);
    element(out, e, "feedback_url", &format!("{url}feedback/"));
    out.push_str("      </event>\n");
}

pub fn frab_json(s: &ExportSchedule) -> Vec<u8> {
    let rooms: Vec<Value> = s
        .rooms_sorted()
        .into_iter()
        .map(|r| {
            let description = s.tr(&r.description);
            json!({
                "name": s.tr(&r.name),
                "guid": s.room_guid(r),
                "description": if description.is_empty() { Value::Null } else { description.into() },
                "capacity": r.capacity,
            })
        })
        .collect();
    let tracks: Vec<Value> = s
        .tracks_sorted()
        .into_iter()
        .map(|t| json!({"name": s.tr(&t.name), "color": t.color}))
        .collect();
    let days: Vec<JsonDay> = s
        .days()
        .iter()
        .map(|day| JsonDay {
            index: day.index,
            date: day.date.to_string(),
            day_start: day.start.clone(),
            day_end: day.end.clone(),
            rooms: InOrder(
                day.rooms
                    .iter()
                    .map(|(name, _, talks)| {
                        let list = talks
                            .iter()
                            .filter_map(|ts| json_talk(s, ts, name))
                            .collect();
                        (name.to_string(), list)
                    })
                    .collect(),
            ),
        })
        .collect();
    let primary = s
        .event
        .primary_color
        .as_deref()
        .filter(|c| !c.is_empty())
        .unwrap_or(DEFAULT_PRIMARY_COLOR);
    let doc = JsonDoc {
        schema: "https://c3voc.de/schedule/schema.json",
        generator: json!({"name": GENERATOR_NAME, "version": GENERATOR_VERSION}),
        schedule: JsonSchedule {
            url: s.schedule_url(),
            version: s.version,
            base_url: &s.base_url,
            conference: JsonConference {
                acronym: acronym(&s.event.slug),
                title: s.tr(&s.event.name),
                start: s.date_from().to_string(),
                end: s.date_to().to_string(),
                days_count: s.days_count(),
                timeslot_duration: "00:05",
                time_zone_name: &s.event.timezone,
                colors: json!({ "primary": primary }),
                rooms,
                tracks,
                days,
            },
        },
    };
    crate::json::json_bytes(&doc)
}

// The document's structs keep c3voc's key order (a `Value` would sort
// keys), above all the rooms of a day, which clients list in that order.
#[derive(Serialize)]
struct JsonDoc<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    generator: Value,
    schedule: JsonSchedule<'a>,
}

#[derive(Serialize)]
struct JsonSchedule<'a> {
    url: String,
    version: &'a str,
    base_url: &'a str,
    conference: JsonConference<'a>,
}

#[derive(Serialize)]
struct JsonConference<'a> {
    acronym: String,
    title: &'a str,
    start: String,
    end: String,
    #[serde(rename = "daysCount")]
    days_count: i64,
    timeslot_duration: &'static str,
    time_zone_name: &'a str,
    colors: Value,
    rooms: Vec<Value>,
    tracks: Vec<Value>,
    days: Vec<JsonDay<'a>>,
}

#[derive(Serialize)]
struct JsonDay<'a> {
    index: usize,
    date: String,
    day_start: String,
    day_end: String,
    rooms: InOrder<'a>,
}

/// A JSON object whose keys keep the given order.
struct InOrder<'a>(Vec<(String, Vec<JsonTalk<'a>>)>);

impl Serialize for InOrder<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct JsonTalk<'a> {
    url: String,
    id: i64,
    guid: &'a str,
    date: String,
    start: String,
    logo: Option<&'a str>,
    duration: String,
    room: &'a str,
    slug: &'a str,
    title: &'a str,
    subtitle: &'static str,
    track: Option<&'a str>,
    #[serde(rename = "type")]
    kind: &'a str,
    language: &'a str,
    #[serde(rename = "abstract")]
    abstract_: &'a str,
    description: &'a str,
    recording_license: &'static str,
    do_not_record: bool,
    persons: Vec<JsonPerson<'a>>,
    links: Vec<JsonLink<'a>>,
    attachments: [(); 0],
}

#[derive(Serialize)]
struct JsonPerson<'a> {
    guid: String,
    id: i64,
    code: &'a str,
    public_name: &'a str,
    avatar: Option<&'a str>,
    biography: &'a str,
}

#[derive(Serialize)]
struct JsonLink<'a> {
    url: &'a str,
    title: &'a str,
}

/// A placed slot as a frab JSON talk.
fn json_talk<'a>(
    s: &ExportSchedule<'a>,
    ts: &'a TalkSlot<'a>,
    room_name: &'a str,
) -> Option<JsonTalk<'a>> {
    let sub = ts.sub;
    let local = ts.start?.with_timezone(&s.data.tz);
    let kind = s.type_name(sub);
    let track = s.track_name(sub);
    let persons = sub
        .speakers
        .iter()
        .map(|code| {
            let user = s.user(code);
            JsonPerson {
                guid: user.map_or_else(
                    || super::text::derive_uuid(&["person", code]),
                    |u| super::text::person_guid(&u.email),
                ),
                id: s.person_id(code),
                code,
                public_name: s.person_name(code),
                avatar: user.and_then(|u| u.avatar.as_deref()),
                biography: s.data.profile(code).map_or("", |p| p.biography.as_str()),
            }
        })
        .collect();
    let links = s
        .resources(sub)
        .map(|r| JsonLink {
            url: &r.resource,
            title: &r.description,
        })
        .collect();
    Some(JsonTalk {
        url: s.talk_url(&sub.code),
        id: ts.frab_id,
        guid: &ts.guid,
        date: super::text::iso(&local),
        start: local.format("%H:%M").to_string(),
        logo: sub.image.as_deref(),
        duration: duration_string(s.slot_minutes(ts)),
        room: room_name,
        slug: &ts.slug,
        title: &sub.title,
        subtitle: "",
        track,
        kind,
        language: &sub.content_locale,
        abstract_: &sub.abstract_,
        description: &sub.description,
        recording_license: "",
        do_not_record: sub.do_not_record,
        persons,
        links,
        attachments: [],
    })
}

pub fn xcal(s: &ExportSchedule) -> Vec<u8> {
    let mut out = String::with_capacity(4096 + s.talks.len() * 1000);
    out.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    out.push_str("<iCalendar xmlns:pentabarf=\"http://pentabarf.org\" xmlns:xCal=\"urn:ietf:params:xml:ns:xcal\">\n");
    out.push_str("  <vcalendar>\n    <version>2.0</version>\n");
    out.push_str("    <prodid>-//Pentabarf//Schedule//EN</prodid>\n");
    let name = s.tr(&s.event.name);
    element(&mut out, "    ", "x-wr-caldesc", name);
    element(&mut out, "    ", "x-wr-calname", name);
    let e = "      ";
    for day in s.days() {
        for (room_name, _, talks) in &day.rooms {
            for ts in talks {
                let sub = ts.sub;
                let (Some(start), Some(end)) = (ts.start, s.slot_end(ts)) else {
                    continue;
                };
                let minutes = s.slot_minutes(ts).max(0);
                let kind = s.type_name(sub);
                out.push_str("    <vevent>\n      <method>PUBLISH</method>\n");
                element(
                    &mut out,
                    e,
                    "uid",
                    &format!("{}{}@{}@{}", sub.code, ts.suffix, s.event.slug, s.host),
                );
                element(&mut out, e, "pentabarf:event-id", &ts.frab_id.to_string());
                element(&mut out, e, "pentabarf:event-slug", &ts.slug);
                element(&mut out, e, "pentabarf:title", &sub.title);
                element(&mut out, e, "pentabarf:subtitle", "");
                element(&mut out, e, "pentabarf:language", &sub.content_locale);
                element(&mut out, e, "pentabarf:language-code", &sub.content_locale);
                element(&mut out, e, "dtstart", &s.local_compact(&start));
                element(&mut out, e, "dtend", &s.local_compact(&end));
                element(
                    &mut out,
                    e,
                    "duration",
                    &format!("{:02}{:02}00", minutes / 60, minutes % 60),
                );
                element(&mut out, e, "summary", &sub.title);
                element(&mut out, e, "description", &sub.description);
                out.push_str("      <class>PUBLIC</class>\n      <status>CONFIRMED</status>\n");
                element(&mut out, e, "category", kind);
                element(&mut out, e, "url", &s.talk_url(&sub.code));
                element(&mut out, e, "location", room_name);
                for code in &sub.speakers {
                    element(&mut out, e, "attendee", s.person_name(code));
                }
                out.push_str("    </vevent>\n");
            }
        }
    }
    out.push_str("  </vcalendar>\n</iCalendar>\n");
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration_string(30), "00:30");
        assert_eq!(duration_string(90), "01:30");
        assert_eq!(duration_string(1440 + 61), "1:01:01");
    }
}
