//! What pretalx's API does not show but its public schedule exports do:
//! pretalx's ids (submissions, slots, speakers), the slots' guids, every
//! visible slot of a talk (the API shows only the first), the release's
//! breaks, version and publication time, the event's colour and the tracks'
//! descriptions and colours. Apps key favourites on these ids and guids, so
//! a mirror that carries them keeps the apps' state when the URL changes.
//!
//! Read per event, with the sync's client (retries, timeouts, the URL and
//! JSON path in every error): the frab JSON
//! (`/{event}/schedule/export/schedule.json`), the widget data
//! (`/{event}/schedule/widgets/schedule.json`) and the Atom feed
//! (`/{event}/schedule/feed.xml`). With an organiser's token pretalx (and
//! confapi) answer them also while the schedule is hidden; organisers' frab
//! JSON also carries the speakers' answers, which are never read here (the
//! API gives answers, with their visibility). A 404 (no schedule the token
//! may see, or an upstream without exports) or an export without a release
//! (version `""`) leaves the fields empty. Only the current release and its
//! visible slots are in the exports: invisible slots keep no id or guid.
//!
//! [`fill_event`] works on a mapped event (a dataset event document), so
//! every upstream reader (legacy API, v1 API) can call it.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{DateTime, FixedOffset};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use reqwest::StatusCode;

use super::client::Client;
use super::error::SyncError;

/// pretalx's colour when the event sets none (frab JSON `colors.primary`).
const DEFAULT_PRIMARY_COLOR: &str = "#3aa57c";

/// The frab / c3voc JSON, as far as it is read.
#[derive(Debug, Deserialize)]
struct FrabDocument {
    schedule: FrabSchedule,
}

#[derive(Debug, Deserialize)]
struct FrabSchedule {
    version: Option<String>,
    conference: FrabConference,
}

#[derive(Debug, Deserialize)]
struct FrabConference {
    #[serde(default)]
    colors: Option<FrabColors>,
    days: Vec<FrabDay>,
}

#[derive(Debug, Deserialize)]
struct FrabColors {
    primary: Option<String>,
}

#[derive(Debug, Deserialize)]
struct FrabDay {
    /// Room name → the talks in it.
    rooms: BTreeMap<String, Vec<FrabTalk>>,
}

#[derive(Debug, Deserialize)]
struct FrabTalk {
    /// `{base}/{event}/talk/{code}/`: the only place the code is.
    url: String,
    id: i64,
    guid: Option<String>,
    date: DateTime<FixedOffset>,
    slug: String,
    #[serde(default)]
    persons: Vec<FrabPerson>,
}

#[derive(Debug, Deserialize)]
struct FrabPerson {
    code: Option<String>,
    id: Option<i64>,
}

/// The schedule widget's data, as far as it is read.
#[derive(Debug, Deserialize)]
struct WidgetDocument {
    version: Option<String>,
    talks: Vec<WidgetEntry>,
    #[serde(default)]
    tracks: Vec<WidgetTrack>,
}

/// A talk's slot (with a `code`) or a break (without).
#[derive(Debug, Deserialize)]
struct WidgetEntry {
    code: Option<String>,
    id: Option<i64>,
    #[serde(default)]
    title: Value,
    start: Option<DateTime<FixedOffset>>,
    end: Option<DateTime<FixedOffset>>,
    room: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct WidgetTrack {
    id: i64,
    #[serde(default)]
    name: Value,
    #[serde(default)]
    description: Value,
    color: Option<String>,
}

/// The releases in the Atom feed: version (from the entry title
/// `New … schedule released (VERSION)`) → published.
#[derive(Debug, Default)]
struct Feed {
    releases: Vec<(String, DateTime<FixedOffset>)>,
}

/// The three exports of one event, as read.
#[derive(Debug)]
pub struct Exports {
    frab: (String, FrabDocument),
    widget: (String, WidgetDocument),
    feed: Option<Feed>,
}

/// What a filled event tells about users (who are not part of an event).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Filled {
    /// Speaker code → pretalx's user id (frab `person id`).
    pub person_ids: BTreeMap<String, i64>,
}

/// Reads the exports of `slug` and fills `event` (a mapped dataset event)
/// with what they show. Nothing is changed when they are not there (404)
/// or show no release; any other failure is an error, and the caller writes
/// nothing.
pub async fn fill_event(
    client: &Client,
    slug: &str,
    event: &mut Map<String, Value>,
    requests: &(dyn Fn() + Sync),
) -> Result<Filled, SyncError> {
    match fetch(client, slug, requests).await? {
        Some(exports) => exports.fill(event),
        None => Ok(Filled::default()),
    }
}

/// The exports of `slug`, or `None` when the frab JSON or the widget is 404.
pub async fn fetch(
    client: &Client,
    slug: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<Option<Exports>, SyncError> {
    let frab_url = client.url(&format!("/{slug}/schedule/export/schedule.json"));
    let widget_url = client.url(&format!("/{slug}/schedule/widgets/schedule.json"));
    let feed_url = client.url(&format!("/{slug}/schedule/feed.xml"));
    let (frab, widget, feed) = tokio::try_join!(
        typed::<FrabDocument>(client, &frab_url, requests),
        typed::<WidgetDocument>(client, &widget_url, requests),
        async {
            let feed = client
                .get_parsed(&feed_url, false, &[StatusCode::NOT_FOUND], parse_feed)
                .await;
            requests();
            feed
        },
    )?;
    Ok(match (frab, widget) {
        (Some(frab), Some(widget)) => Some(Exports {
            frab: (frab_url, frab),
            widget: (widget_url, widget),
            feed,
        }),
        _ => None,
    })
}

/// GETs a JSON export (404: `None`) and reads it as `T`; a value of the
/// wrong form is an error naming the URL and the JSON path.
async fn typed<T: DeserializeOwned>(
    client: &Client,
    url: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<Option<T>, SyncError> {
    let value = client.get_json_if_found(url, false).await?;
    requests();
    value.map(|value| read(url, value)).transpose()
}

/// `value` as a `T`, or an error with the URL and the JSON path.
fn read<T: DeserializeOwned>(url: &str, value: Value) -> Result<T, SyncError> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        SyncError::at_path(url, &path, &err.into_inner().to_string())
    })
}

/// The Atom feed's releases; malformed XML is retried like malformed JSON.
fn parse_feed(body: &[u8]) -> Result<Feed, String> {
    let text = std::str::from_utf8(body).map_err(|e| format!("the feed is not UTF-8: {e}"))?;
    let document = roxmltree::Document::parse(text)
        .map_err(|e| format!("malformed XML ({} bytes): {e}", body.len()))?;
    let mut feed = Feed::default();
    for entry in document.descendants().filter(|n| n.has_tag_name("entry")) {
        let text_of = |tag: &str| {
            entry
                .children()
                .find(|n| n.has_tag_name(tag))
                .and_then(|n| n.text())
                .map(str::trim)
        };
        let (Some(title), Some(published)) = (text_of("title"), text_of("published")) else {
            continue;
        };
        let Some(version) = title
            .strip_suffix(')')
            .and_then(|t| t.rsplit_once(" ("))
            .map(|(_, v)| v.to_string())
        else {
            continue;
        };
        let published = DateTime::parse_from_rfc3339(published)
            .map_err(|e| format!("entry {version:?}: published {published:?}: {e}"))?;
        feed.releases.push((version, published));
    }
    Ok(feed)
}

/// A frab talk, as found by its code.
struct FrabAt<'a> {
    talk: &'a FrabTalk,
}

impl Exports {
    /// Fills `event` from these exports; see the module's documentation.
    pub fn fill(&self, event: &mut Map<String, Value>) -> Result<Filled, SyncError> {
        let (frab_url, frab) = &self.frab;
        let (widget_url, widget) = &self.widget;
        let version = frab.schedule.version.as_deref().unwrap_or_default();
        if version.is_empty() {
            return Ok(Filled::default()); // nothing released
        }
        if widget.version.as_deref() != Some(version) {
            return Err(SyncError::at_path(
                widget_url,
                "version",
                &format!(
                    "{:?}, but the frab JSON shows {version:?} (a release between two requests: the next round gets it)",
                    widget.version.as_deref().unwrap_or_default()
                ),
            ));
        }

        // The frab talks by code, and the speakers' ids.
        let mut filled = Filled::default();
        let mut frab_talks: HashMap<String, Vec<FrabAt>> = HashMap::new();
        for (d, day) in frab.schedule.conference.days.iter().enumerate() {
            for (room, talks) in &day.rooms {
                for (t, talk) in talks.iter().enumerate() {
                    let path = format!("schedule.conference.days[{d}].rooms.{room}[{t}]");
                    let code = talk
                        .url
                        .trim_end_matches('/')
                        .rsplit_once("/talk/")
                        .map(|(_, code)| code.to_string())
                        .filter(|code| !code.is_empty() && !code.contains('/'))
                        .ok_or_else(|| {
                            SyncError::at_path(
                                frab_url,
                                &format!("{path}.url"),
                                "expected a talk URL ending in /talk/{code}/",
                            )
                        })?;
                    for person in &talk.persons {
                        if let (Some(code), Some(id)) = (&person.code, person.id) {
                            filled.person_ids.insert(code.clone(), id);
                        }
                    }
                    frab_talks.entry(code).or_default().push(FrabAt { talk });
                }
            }
        }
        let mut widget_slots: HashMap<&str, Vec<(usize, &WidgetEntry)>> = HashMap::new();
        let mut breaks = Vec::new();
        for (i, entry) in widget.talks.iter().enumerate() {
            match &entry.code {
                Some(code) => widget_slots.entry(code).or_default().push((i, entry)),
                None => {
                    let (Some(start), Some(end)) = (entry.start, entry.end) else {
                        return Err(SyncError::at_path(
                            widget_url,
                            &format!("talks[{i}]"),
                            "a break needs a start and an end",
                        ));
                    };
                    breaks.push(json!({
                        "id": entry.id,
                        "room": entry.room,
                        "start": start.to_rfc3339(),
                        "end": end.to_rfc3339(),
                        "description": if entry.title.is_null() { json!({}) } else { entry.title.clone() },
                    }));
                }
            }
        }

        if let Some(Value::Array(submissions)) = event.get_mut("submissions") {
            for submission in submissions.iter_mut().filter_map(Value::as_object_mut) {
                let Some(code) = submission
                    .get("code")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                else {
                    continue;
                };
                let talks = frab_talks.get(&code).map_or(&[][..], Vec::as_slice);
                if let Some(id) = submission_id(talks) {
                    submission.insert("id".into(), json!(id));
                }
                let entries = widget_slots
                    .get(code.as_str())
                    .map_or(&[][..], Vec::as_slice);
                fill_slots(submission, entries, talks);
            }
        }

        let published = self
            .feed
            .as_ref()
            .and_then(|feed| feed.releases.iter().find(|(v, _)| v == version))
            .map(|(_, published)| published.to_rfc3339());
        let fallback = format!(
            "{}T00:00:00Z",
            event
                .get("date_from")
                .and_then(Value::as_str)
                .unwrap_or("2000-01-01")
        );
        let schedule = event.entry("schedule").or_insert(Value::Null);
        if !schedule.is_object() {
            *schedule = json!({"published": fallback});
        }
        schedule["version"] = json!(version);
        if let Some(published) = published {
            schedule["published"] = json!(published);
        }
        schedule["breaks"] = Value::Array(breaks);

        if let Some(colors) = &frab.schedule.conference.colors {
            let color = colors.primary.as_deref().filter(|c| !c.is_empty());
            if let Some(color) = color {
                if !is_hex_color(color) {
                    return Err(SyncError::at_path(
                        frab_url,
                        "schedule.conference.colors.primary",
                        "expected a colour #rrggbb",
                    ));
                }
            }
            // pretalx shows its own colour where the event has none.
            let color = color.filter(|c| !c.eq_ignore_ascii_case(DEFAULT_PRIMARY_COLOR));
            event.insert("primary_color".into(), json!(color));
        }

        fill_tracks(event, &widget.tracks);
        Ok(filled)
    }
}

/// A submission's pretalx id: the frab `id` of its talk. pretalx gives every
/// slot of a talk the submission's id; confapi gives each slot of a talk
/// with several its own id and keeps the submission's in the slug
/// (`{acronym}-{id}-{n}-…`).
fn submission_id(talks: &[FrabAt]) -> Option<i64> {
    let first = talks.first()?.talk;
    if talks.iter().all(|t| t.talk.id == first.id) {
        return Some(first.id);
    }
    let (_, rest) = first.slug.split_once('-')?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|id| *id >= 1)
}

fn instant(value: Option<&Value>) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(value?.as_str()?).ok()
}

/// The slot ids from the widget (matched by start and room), the guids
/// from the frab JSON (matched by start), and the visible slots the API
/// did not show (second and further slots of a talk) added.
fn fill_slots(
    submission: &mut Map<String, Value>,
    entries: &[(usize, &WidgetEntry)],
    talks: &[FrabAt],
) {
    let slots = submission
        .entry("slots")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(slots) = slots else { return };
    let mut used = HashSet::new();
    for slot in slots.iter_mut().filter_map(Value::as_object_mut) {
        if slot.get("is_visible") != Some(&Value::Bool(true)) {
            continue; // not in the exports
        }
        let start = instant(slot.get("start"));
        let room = slot.get("room").and_then(Value::as_i64);
        let found = entries
            .iter()
            .find(|(i, e)| !used.contains(i) && e.start == start && e.room == room);
        if let Some((i, entry)) = found {
            used.insert(*i);
            if let Some(id) = entry.id {
                slot.insert("id".into(), json!(id));
            }
        }
    }
    for (i, entry) in entries {
        if used.contains(i) {
            continue;
        }
        slots.push(json!({
            "id": entry.id,
            "room": entry.room,
            "start": entry.start.map(|s| s.to_rfc3339()),
            "end": entry.end.map(|s| s.to_rfc3339()),
            "is_visible": true,
        }));
    }
    let mut guids_used = HashSet::new();
    for slot in slots.iter_mut().filter_map(Value::as_object_mut) {
        if slot.get("is_visible") != Some(&Value::Bool(true)) {
            continue;
        }
        let Some(start) = instant(slot.get("start")) else {
            continue;
        };
        let found = talks
            .iter()
            .enumerate()
            .find(|(n, t)| !guids_used.contains(n) && t.talk.date == start);
        if let Some((n, talk)) = found {
            guids_used.insert(n);
            if let Some(guid) = &talk.talk.guid {
                slot.insert("guid".into(), json!(guid));
            }
        }
    }
}

/// Descriptions and colours of the tracks the widget shows (those in use).
fn fill_tracks(event: &mut Map<String, Value>, shown: &[WidgetTrack]) {
    let tracks = event
        .entry("tracks")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(tracks) = tracks else { return };
    for track in shown {
        let position = tracks
            .iter()
            .position(|t| t.get("id").and_then(Value::as_i64) == Some(track.id));
        let target = match position {
            Some(i) => &mut tracks[i],
            None => {
                tracks.push(json!({"id": track.id, "name": track.name}));
                tracks.last_mut().expect("just pushed")
            }
        };
        // The API's own description (v1) wins: the widget writes an unset
        // one as {} where the API keeps `{"en": ""}` or null.
        if !track.description.is_null() && target.get("description").is_none() {
            target["description"] = track.description.clone();
        }
        if let Some(color) = &track.color {
            target["color"] = json!(color);
        }
    }
}

fn is_hex_color(text: &str) -> bool {
    text.len() == 7 && text.starts_with('#') && text[1..].chars().all(|c| c.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAB: &str = "http://up/conf/schedule/export/schedule.json";
    const WIDGET: &str = "http://up/conf/schedule/widgets/schedule.json";

    /// What the legacy mapping makes of an event with three submissions:
    /// one with a visible slot, one with a visible first slot of two (the
    /// API shows only the first), one with an invisible slot.
    fn mapped() -> Map<String, Value> {
        json!({
            "slug": "conf",
            "date_from": "2026-05-01",
            "schedule": {"version": "mirrored", "published": "2026-05-01T00:00:00Z"},
            "tracks": [{"id": 1, "name": {"en": "Main"}}],
            "submissions": [
                {"code": "AAA", "slots": [{"room": 1, "start": "2026-05-01T10:00:00+02:00",
                                           "end": "2026-05-01T10:30:00+02:00", "is_visible": true}]},
                {"code": "BBB", "slots": [{"room": 1, "start": "2026-05-01T09:00:00Z",
                                           "end": "2026-05-01T09:30:00Z", "is_visible": true}]},
                {"code": "CCC", "slots": [{"room": null, "start": null, "end": null, "is_visible": false}]},
            ],
        })
        .as_object()
        .unwrap()
        .clone()
    }

    fn talk(code: &str, id: i64, guid: &str, date: &str, slug: &str, persons: Value) -> Value {
        json!({"url": format!("http://public.example/conf/talk/{code}/"), "id": id, "guid": guid,
               "date": date, "slug": slug, "persons": persons, "answers": ["never read"]})
    }

    /// pretalx's shape: both slots of BBB carry the submission's id.
    fn exports(bbb_ids: (i64, i64)) -> Exports {
        let frab = json!({"schedule": {"version": "v2", "conference": {
        "colors": {"primary": "#83faad"},
        "days": [{"rooms": {"Hall": [
            talk("AAA", 7, "11111111-1111-1111-1111-111111111111", "2026-05-01T10:00:00+02:00",
                 "conf-7-a", json!([{"code": "SPK1", "id": 41, "answers": []}])),
            talk("BBB", bbb_ids.0, "22222222-2222-2222-2222-222222222222", "2026-05-01T11:00:00+02:00",
                 "conf-9-0-b", json!([{"code": "SPK2", "id": 42}])),
            talk("BBB", bbb_ids.1, "33333333-3333-3333-3333-333333333333", "2026-05-02T11:00:00+02:00",
                 "conf-9-1-b", json!([{"code": "SPK2", "id": 42}])),
        ]}}]}}});
        let widget = json!({"version": "v2", "talks": [
            {"code": "AAA", "id": 70, "start": "2026-05-01T10:00:00+02:00", "end": "2026-05-01T10:30:00+02:00", "room": 1},
            {"code": "BBB", "id": 90, "start": "2026-05-01T11:00:00+02:00", "end": "2026-05-01T11:30:00+02:00", "room": 1},
            {"code": "BBB", "id": 91, "start": "2026-05-02T11:00:00+02:00", "end": "2026-05-02T11:30:00+02:00", "room": 2},
            {"id": 99, "title": "Lunch break", "start": "2026-05-01T10:00:00Z", "end": "2026-05-01T12:45:00+02:00", "room": 1},
        ], "tracks": [{"id": 1, "name": "Main", "description": {"en": "The big one"}, "color": "#112233"}]});
        let feed = parse_feed(br#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Conf schedule updates</title>
<entry><title>New Conf schedule released (v2)</title><published>2026-04-20T08:00:00.5+00:00</published></entry>
<entry><title>New Conf schedule released (v1)</title><published>2026-04-01T08:00:00+00:00</published></entry>
</feed>"#)
        .unwrap();
        Exports {
            frab: (FRAB.into(), read(FRAB, frab).unwrap()),
            widget: (WIDGET.into(), read(WIDGET, widget).unwrap()),
            feed: Some(feed),
        }
    }

    #[test]
    fn the_exports_fill_ids_guids_slots_breaks_release_colour_and_tracks() {
        let mut event = mapped();
        let filled = exports((9, 9)).fill(&mut event).unwrap();
        assert_eq!(
            filled.person_ids,
            BTreeMap::from([("SPK1".to_string(), 41), ("SPK2".to_string(), 42)])
        );
        assert_eq!(
            Value::Object(event),
            json!({
                "slug": "conf",
                "date_from": "2026-05-01",
                "schedule": {"version": "v2", "published": "2026-04-20T08:00:00.500+00:00",
                             "breaks": [{"id": 99, "room": 1, "start": "2026-05-01T10:00:00+00:00",
                                         "end": "2026-05-01T12:45:00+02:00",
                                         "description": "Lunch break"}]},
                "tracks": [{"id": 1, "name": {"en": "Main"}, "description": {"en": "The big one"},
                            "color": "#112233"}],
                "primary_color": "#83faad",
                "submissions": [
                    {"code": "AAA", "id": 7, "slots": [{"room": 1, "start": "2026-05-01T10:00:00+02:00",
                        "end": "2026-05-01T10:30:00+02:00", "is_visible": true, "id": 70,
                        "guid": "11111111-1111-1111-1111-111111111111"}]},
                    // The API's first slot (the same instant in UTC) gets
                    // its id and guid; the second, which only the exports
                    // show, is added.
                    {"code": "BBB", "id": 9, "slots": [
                        {"room": 1, "start": "2026-05-01T09:00:00Z", "end": "2026-05-01T09:30:00Z",
                         "is_visible": true, "id": 90,
                         "guid": "22222222-2222-2222-2222-222222222222"},
                        {"id": 91, "room": 2, "start": "2026-05-02T11:00:00+02:00",
                         "end": "2026-05-02T11:30:00+02:00", "is_visible": true,
                         "guid": "33333333-3333-3333-3333-333333333333"}]},
                    // Invisible: not in the exports, so no id or guid.
                    {"code": "CCC", "slots": [{"room": null, "start": null, "end": null, "is_visible": false}]},
                ],
            })
        );
    }

    #[test]
    fn a_talk_with_one_id_per_slot_takes_the_submission_id_from_the_slug() {
        // confapi's shape: each slot of a talk its own id, the slug
        // `{acronym}-{submission id}-{n}-…` keeps the submission's.
        let mut event = mapped();
        exports((501, 502)).fill(&mut event).unwrap();
        assert_eq!(event["submissions"][1]["id"], json!(9));
        // pretalx's default colour is no colour of the event's own.
        let mut exports = exports((9, 9));
        exports.frab.1.schedule.conference.colors = Some(FrabColors {
            primary: Some("#3AA57C".into()),
        });
        let mut event = mapped();
        exports.fill(&mut event).unwrap();
        assert_eq!(event["primary_color"], Value::Null);
    }

    #[test]
    fn no_release_changes_nothing() {
        let mut exports = exports((9, 9));
        exports.frab.1.schedule.version = Some(String::new());
        let mut event = mapped();
        assert_eq!(exports.fill(&mut event).unwrap(), Filled::default());
        assert_eq!(event, mapped());
    }

    #[test]
    fn bad_exports_are_errors_with_url_and_path() {
        let mut frab = json!({"schedule": {"version": "v2", "conference": {"days": [
            {"rooms": {"Hall": [talk("AAA", 7, "g", "tomorrow", "s", json!([]))]}}]}}});
        let err = read::<FrabDocument>(FRAB, frab.clone()).unwrap_err();
        assert!(
            err.message.starts_with(&format!(
                "GET {FRAB}: schedule.conference.days[0].rooms.Hall[0].date: "
            )),
            "{}",
            err.message
        );
        frab["schedule"]["conference"]["days"][0]["rooms"]["Hall"][0]["date"] =
            json!("2026-05-01T10:00:00+02:00");
        frab["schedule"]["conference"]["days"][0]["rooms"]["Hall"][0]["url"] = json!("http://x/");
        let mut exports = exports((9, 9));
        exports.frab.1 = read(FRAB, frab).unwrap();
        let err = exports.fill(&mut mapped()).unwrap_err();
        assert_eq!(
            err.message,
            format!("GET {FRAB}: schedule.conference.days[0].rooms.Hall[0].url: expected a talk URL ending in /talk/{{code}}/")
        );
        let mut exports = self::exports((9, 9));
        exports.widget.1.version = Some("v3".into());
        let err = exports.fill(&mut mapped()).unwrap_err();
        assert!(
            err.message.starts_with(&format!(
                "GET {WIDGET}: version: \"v3\", but the frab JSON shows \"v2\""
            )),
            "{}",
            err.message
        );
        assert!(parse_feed(b"<feed><entry>")
            .unwrap_err()
            .starts_with("malformed XML"));
    }

    /// An upstream whose exports answer `status` and `body` (the frab JSON
    /// is fine; the widget is the one that fails).
    async fn upstream(status: u16, body: &'static str) -> String {
        use axum::routing::get;
        let frab = exports_frab_body();
        let app =
            axum::Router::new()
                .route(
                    "/conf/schedule/export/schedule.json",
                    get(move || async move { frab }),
                )
                .route(
                    "/conf/schedule/widgets/schedule.json",
                    get(move || async move {
                        (axum::http::StatusCode::from_u16(status).unwrap(), body)
                    }),
                );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        url
    }

    fn exports_frab_body() -> String {
        json!({"schedule": {"version": "v2", "conference": {"days": []}}}).to_string()
    }

    #[tokio::test]
    async fn a_failing_or_truncated_export_fails_and_leaves_the_event_unchanged() {
        for (status, body, expected) in [
            (
                500,
                "{}",
                "answered 500 Internal Server Error (after 5 attempts)",
            ),
            (
                200,
                r#"{"version": "v2", "talks": ["#,
                "malformed JSON (28 bytes)",
            ),
            (
                403,
                r#"{"detail": "no"}"#,
                "answered 403 Forbidden: {\"detail\": \"no\"}",
            ),
        ] {
            let origin = upstream(status, body).await;
            let client = Client::new(
                &origin,
                "secret-token",
                std::time::Duration::from_secs(5),
                &[],
                &Default::default(),
            )
            .unwrap()
            .with_backoff(std::time::Duration::from_millis(1));
            let mut event = mapped();
            let err = fill_event(&client, "conf", &mut event, &|| {})
                .await
                .unwrap_err();
            let widget = format!("GET {origin}/conf/schedule/widgets/schedule.json: ");
            assert!(
                err.message.starts_with(&widget) && err.message.contains(expected),
                "{}",
                err.message
            );
            assert!(!err.message.contains("secret-token"));
            assert_eq!(event, mapped());
        }
        // Not there (a schedule the token may not see): nothing filled.
        let origin = upstream(404, r#"{"detail": "Not found."}"#).await;
        let client = Client::new(
            &origin,
            "t",
            std::time::Duration::from_secs(5),
            &[],
            &Default::default(),
        )
        .unwrap();
        let mut event = mapped();
        let filled = fill_event(&client, "conf", &mut event, &|| {})
            .await
            .unwrap();
        assert_eq!((filled, event), (Filled::default(), mapped()));
    }
}
