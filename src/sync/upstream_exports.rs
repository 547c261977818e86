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

use super::client::Client;
use super::SyncError;

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
            let feed = client.get_parsed(&feed_url, false, true, parse_feed).await;
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
    value
        .map(|value| {
            serde_path_to_error::deserialize(value).map_err(|err| {
                let path = err.path().to_string();
                SyncError::at_path(url, &path, &err.into_inner().to_string())
            })
        })
        .transpose()
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
        if !track.description.is_null() {
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
