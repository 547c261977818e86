//! The data of pretalx's schedule widget, and the Atom feed of releases.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::schedule::ExportSchedule;
use super::text::{iso, iso_in, xml_attr_escaped, xml_escaped};
use crate::model::{ArcStr, Timestamp};

pub fn widget(s: &ExportSchedule) -> Vec<u8> {
    let tz = &s.data.tz;
    let local = |t: &Option<Timestamp>| t.map(|t| iso_in(&t, tz));
    let updated = s.published.map(|p| iso(&p));
    // (start, talks before breaks, code or break id, entry)
    let mut items: Vec<(Option<Timestamp>, u8, String, Value)> = Vec::new();
    for ts in &s.talks {
        let sub = ts.sub;
        items.push((
            ts.start,
            0,
            sub.code.to_string(),
            json!({
                "code": sub.code,
                "id": ts.widget_id,
                "title": sub.title,
                "abstract": sub.abstract_,
                "speakers": sub.speakers,
                "track": sub.track,
                "start": local(&ts.start),
                "end": local(&ts.end),
                "room": ts.room,
                "duration": s.sub_duration(sub),
                "updated": updated,
                "state": Value::Null,
                "do_not_record": sub.do_not_record,
            }),
        ));
    }
    for br in &s.breaks {
        items.push((
            Some(br.start),
            1,
            br.id.to_string(),
            json!({
                "id": br.id,
                "title": br.description,
                "start": iso_in(&br.start, tz),
                "end": iso_in(&br.end, tz),
                "room": br.room,
            }),
        ));
    }
    items.sort_by(|a, b| (a.0.is_none(), a.0, a.1, &a.2).cmp(&(b.0.is_none(), b.0, b.1, &b.2)));
    let talks: Vec<Value> = items.into_iter().map(|(_, _, _, v)| v).collect();

    let track_ids: BTreeSet<i64> = s.talks.iter().filter_map(|t| t.sub.track).collect();
    let room_ids: BTreeSet<i64> = s
        .talks
        .iter()
        .filter_map(|t| t.room)
        .chain(s.breaks.iter().filter_map(|b| b.room))
        .collect();
    let speaker_codes: BTreeSet<&str> = s
        .talks
        .iter()
        .flat_map(|t| t.sub.speakers.iter().map(ArcStr::as_str))
        .collect();
    let tracks: Vec<Value> = s
        .tracks_sorted()
        .into_iter()
        .filter(|t| track_ids.contains(&t.id))
        .map(
            |t| json!({"id": t.id, "name": t.name, "description": t.description, "color": t.color}),
        )
        .collect();
    let rooms: Vec<Value> = s
        .rooms_sorted()
        .into_iter()
        .filter(|r| room_ids.contains(&r.id))
        .map(|r| json!({"id": r.id, "name": r.name, "description": r.description}))
        .collect();
    let speakers: Vec<Value> = speaker_codes
        .into_iter()
        .map(|code| {
            let user = s.user(code);
            let avatar = user.and_then(|u| u.avatar.clone());
            json!({
                "code": code,
                "name": user.map_or("", |u| u.name.as_str()),
                "avatar": avatar,
                "avatar_thumbnail_default": avatar,
                "avatar_thumbnail_tiny": avatar,
            })
        })
        .collect();
    let doc = json!({
        "talks": talks,
        "version": s.version,
        "timezone": s.event.timezone,
        "event_start": s.date_from().to_string(),
        "event_end": s.date_to().to_string(),
        "tracks": tracks,
        "rooms": rooms,
        "speakers": speakers,
    });
    crate::json::json_bytes(&doc)
}

/// Atom: one entry for the current release.
pub fn feed(s: &ExportSchedule) -> Vec<u8> {
    let name = s.tr(&s.event.name);
    let schedule_url = s.schedule_url();
    let feed_url = format!("{schedule_url}feed.xml");
    let updated = match s.published {
        Some(p) => iso(&p),
        None => format!("{}T00:00:00+00:00", s.date_from()),
    };
    let mut out = String::with_capacity(2048);
    out.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    out.push_str(&format!(
        "<feed xml:lang=\"{}\" xmlns=\"http://www.w3.org/2005/Atom\">\n",
        xml_attr_escaped(&s.event.locale)
    ));
    out.push_str(&format!(
        "<title>{} schedule updates</title>\n",
        xml_escaped(name)
    ));
    out.push_str(&format!(
        "<link href=\"{}\" rel=\"alternate\"/>\n<link href=\"{}\" rel=\"self\"/>\n",
        xml_attr_escaped(&schedule_url),
        xml_attr_escaped(&feed_url)
    ));
    out.push_str(&format!(
        "<id>{}</id>\n<updated>{updated}</updated>\n",
        xml_escaped(&feed_url)
    ));
    if s.released {
        // pretalx's entry id, kept so that feed readers know the entry.
        let entry_id = format!("{schedule_url}changelog/#{}", s.version);
        let summary = format!(
            "<p>A new {name} schedule has been released: version {}.</p>",
            s.version
        );
        out.push_str("<entry>\n");
        out.push_str(&format!(
            "<title>New {} schedule released ({})</title>\n",
            xml_escaped(name),
            xml_escaped(s.version)
        ));
        out.push_str(&format!(
            "<link href=\"{}\" rel=\"alternate\"/>\n",
            xml_attr_escaped(&schedule_url)
        ));
        out.push_str(&format!(
            "<published>{updated}</published>\n<updated>{updated}</updated>\n"
        ));
        out.push_str(&format!("<id>{}</id>\n", xml_escaped(&entry_id)));
        out.push_str(&format!(
            "<summary type=\"html\">{}</summary>\n",
            xml_escaped(&summary)
        ));
        out.push_str("</entry>\n");
    }
    out.push_str("</feed>\n");
    out.into_bytes()
}
