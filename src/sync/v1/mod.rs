//! Reads an event through pretalx's versioned API (`Pretalx-Version: v1`,
//! pretalx 2025.1 and later) and maps it to the same dataset document as
//! `legacy`.
//!
//! Differences from the legacy API that matter here: lists are paged with
//! `page_size` (rooms with `limit`), reviews name the reviewer's code,
//! questions show `active` and `position`, the released schedule has its own
//! endpoint (`schedules`, with version and release time) and its slots
//! theirs (`slots`, with `is_visible` for organisers), and track and
//! submission-type lists exist. What v1 does not show is listed in
//! README.md ("Mirroring a pretalx").

use std::collections::{BTreeMap, HashMap, HashSet};

use reqwest::StatusCode;
use serde_json::{json, Map, Value};

use super::client::Client;
use super::upstream::{codes, fetch_event, fetch_pages, Fetched, Item, SeenUser};
use super::mapping;
use super::error::SyncError;

/// The version every request names: answers keep this shape whatever the
/// token's own default version is.
pub const VERSION: &str = "v1";
/// pretalx 2025 still answers its submission and review lists in the
/// legacy format when asked; only there do they show when they were made.
pub const LEGACY_VERSION: &str = "LEGACY";
/// The legacy format pages by limit and offset (both must be given).
const LEGACY_PAGE: &str = "limit=250&offset=0";
/// pretalx caps `page_size` at its `max_pagination_limit` (250 by default).
const PAGE: &str = "page_size=250";
/// Rooms are paged by limit and offset, without a cap.
const ROOM_PAGE: &str = "limit=1000";
/// Schedules whose details (and slots) are read at once.
const SCHEDULES_AT_ONCE: usize = 3;

/// Everything read about one event.
pub struct RawEvent {
    pub event: (String, Value),
    pub submissions: Fetched,
    pub public_submissions: Fetched,
    pub schedules: Fetched,
    pub slots: Fetched,
    pub speakers: Fetched,
    pub questions: Fetched,
    pub answers: Fetched,
    pub reviews: Fetched,
    pub rooms: Fetched,
    pub tags: Fetched,
    pub tracks: Fetched,
    pub submission_types: Fetched,
    /// The legacy-format submissions and reviews, for `created` and
    /// `updated`; `None` where the upstream no longer offers that format.
    pub legacy_times: Option<(Fetched, Fetched)>,
    /// The detail of every schedule `schedules` lists (for its comment),
    /// with the slots of the older releases and the work in progress (the
    /// current release's are `slots`).
    pub schedule_details: Vec<ScheduleDetail>,
}

/// One schedule's detail (`schedules/{id}/`), and its slots
/// (`slots/?schedule={id}`) unless it is the current release.
pub struct ScheduleDetail {
    pub id: i64,
    pub detail: (String, Value),
    pub slots: Option<Fetched>,
}

/// The schedules `schedules` lists, by role.
#[derive(Debug, Default, PartialEq)]
struct Releases {
    /// The newest release: id (if shown), version, published.
    current: Option<(Option<i64>, String, String)>,
    /// Earlier releases, oldest first.
    older: Vec<(i64, String, String)>,
    /// The work-in-progress schedule (version `wip`, not published).
    wip: Option<i64>,
}

/// Which schedule is which: the newest one with a version and a release
/// time is the current release; the one without (`"wip"`) is the work in
/// progress. Schedules without an id have no history to read.
fn releases(list: &Fetched) -> Result<Releases, SyncError> {
    let mut released = Vec::new();
    let mut out = Releases::default();
    for item in list.items() {
        let id = item.value.get("id").and_then(Value::as_i64);
        let version = item.opt_str("version")?.filter(|v| *v != "wip");
        match (version, item.opt_str("published")?) {
            (Some(version), Some(published)) => {
                released.push((id, version.to_string(), published.to_string()));
            }
            _ => out.wip = out.wip.or(id),
        }
    }
    // pretalx's times are in one zone: as text they sort by instant.
    released.sort_by(|a, b| a.2.cmp(&b.2));
    out.current = released.pop();
    out.older = released
        .into_iter()
        .filter_map(|(id, version, published)| Some((id?, version, published)))
        .collect();
    Ok(out)
}

/// Whether the upstream speaks the versioned API: its submission types
/// have an endpoint of their own only there (pretalx 2024.x and confapi
/// answer 404). `None` when the event refuses the token (the event itself
/// answers 401, 403 or 404): another event must tell.
pub async fn speaks_v1(client: &Client, slug: &str) -> Result<Option<bool>, SyncError> {
    let refusals = [
        StatusCode::UNAUTHORIZED,
        StatusCode::FORBIDDEN,
        StatusCode::NOT_FOUND,
    ];
    let event = client.url(&format!("/api/events/{slug}/"));
    if client
        .get_json_unless(&event, false, &refusals)
        .await?
        .is_none()
    {
        return Ok(None);
    }
    let url = client.url(&format!("/api/events/{slug}/submission-types/?page_size=1"));
    match client.get_json_if_found(&url, false).await {
        Ok(found) => Ok(Some(found.is_some())),
        Err(err) if err.refused.is_some() => Ok(None),
        Err(err) => Err(err),
    }
}

/// `legacy` is a client that asks for the legacy format (`LEGACY_VERSION`).
pub async fn read_event(
    client: &Client,
    legacy: &Client,
    slug: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<RawEvent, SyncError> {
    let base = format!("/api/events/{slug}");
    let (event_url, event) = fetch_event(client, &base, requests).await?;
    let list = |name: &str, page: &'static str, anonymous: bool| {
        let path = format!("{base}/{name}");
        async move { fetch_pages(client, &path, page, anonymous, requests).await }
    };
    // What the public sees tells whether the schedule is shown.
    let is_public = event.get("is_public").and_then(Value::as_bool) == Some(true);
    let public_submissions = async {
        if is_public {
            list("submissions/", PAGE, true).await
        } else {
            Ok(Fetched { pages: Vec::new() })
        }
    };
    // The times, where the legacy format is still offered (pretalx answers
    // 400 "API version not supported" once it is not); read beside the rest.
    let legacy_times = async {
        let probe = legacy.url(&format!("{base}/submissions/?limit=1&offset=0"));
        let offered = legacy
            .get_json_unless(
                &probe,
                false,
                &[StatusCode::BAD_REQUEST, StatusCode::NOT_FOUND],
            )
            .await?
            .is_some();
        requests();
        if !offered {
            return Ok(None);
        }
        let legacy_list = |name: &str| {
            let path = format!("{base}/{name}");
            async move { fetch_pages(legacy, &path, LEGACY_PAGE, false, requests).await }
        };
        let both = tokio::try_join!(legacy_list("submissions/"), legacy_list("reviews/"))?;
        Ok::<_, SyncError>(Some(both))
    };
    // A few lists at a time: fast, and gentle on a slow upstream.
    let (submissions, public_submissions, schedules, slots, speakers) = tokio::try_join!(
        list("submissions/?expand=resources", PAGE, false),
        public_submissions,
        list("schedules/", PAGE, false),
        // Without a filter: the slots of the current released schedule.
        list("slots/", PAGE, false),
        list("speakers/", PAGE, false),
    )?;
    let (questions, answers, reviews, rooms, legacy_times) = tokio::try_join!(
        list("questions/?expand=options", PAGE, false),
        list("answers/", PAGE, false),
        // With the reviewer's code, name and e-mail (a user like a speaker),
        // and the score categories of their scores.
        list("reviews/?expand=user,scores.category", PAGE, false),
        list("rooms/", ROOM_PAGE, false),
        legacy_times,
    )?;
    let (tags, tracks, submission_types) = tokio::try_join!(
        list("tags/", PAGE, false),
        list("tracks/", PAGE, false),
        list("submission-types/", PAGE, false),
    )?;
    let schedule_details = read_schedules(client, &base, &releases(&schedules)?, requests).await?;
    Ok(RawEvent {
        event: (event_url, event),
        legacy_times,
        submissions,
        public_submissions,
        schedules,
        slots,
        speakers,
        questions,
        answers,
        reviews,
        rooms,
        tags,
        tracks,
        submission_types,
        schedule_details,
    })
}

/// The details of the current release (its id and comment), and details
/// and slots of the older releases and the work in progress, a few at once.
async fn read_schedules(
    client: &Client,
    base: &str,
    releases: &Releases,
    requests: &(dyn Fn() + Sync),
) -> Result<Vec<ScheduleDetail>, SyncError> {
    use futures_util::{StreamExt, TryStreamExt};
    let current = releases.current.as_ref().and_then(|(id, _, _)| *id);
    let wanted = current
        .map(|id| (id, false))
        .into_iter()
        .chain(releases.older.iter().map(|(id, _, _)| (*id, true)))
        .chain(releases.wip.map(|id| (id, true)));
    futures_util::stream::iter(wanted)
        .map(|(id, with_slots)| async move {
            let url = client.url(&format!("{base}/schedules/{id}/"));
            let detail = client.get_json(&url, false).await?;
            requests();
            let slots = if with_slots {
                let path = format!("{base}/slots/?schedule={id}");
                Some(fetch_pages(client, &path, PAGE, false, requests).await?)
            } else {
                None
            };
            Ok::<_, SyncError>(ScheduleDetail {
                id,
                detail: (url, detail),
                slots,
            })
        })
        .buffered(SCHEDULES_AT_ONCE)
        .try_collect()
        .await
}

/// The teams of a pretalx organiser, with their members' codes, names and
/// e-mail addresses. Teams are not under the event, and no event answer
/// names its organiser: it is given with `--organiser`.
pub async fn read_teams(
    client: &Client,
    organiser: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<Fetched, SyncError> {
    let path = format!("/api/organisers/{organiser}/teams/?expand=members");
    fetch_pages(client, &path, PAGE, false, requests).await
}

/// The organiser's teams that cover `slug` (all events, or it among their
/// events), in the dataset's form; their members join `users`. A team's
/// track limits keep only this event's tracks.
fn map_teams(
    teams: &Fetched,
    slug: &str,
    tracks: &HashSet<i64>,
    users: &mut BTreeMap<String, SeenUser>,
) -> Result<Vec<Value>, SyncError> {
    let mut out = Vec::new();
    for team in teams.items() {
        let all_events = team.bool("all_events")?;
        let covers = all_events
            || team
                .ids_or_codes("limit_events")?
                .iter()
                .any(|event| event.eq_ignore_ascii_case(slug));
        if !covers {
            continue;
        }
        let mut members = Vec::new();
        for member in team.list("members")? {
            if !member.value.is_object() {
                return Err(SyncError::at_path(
                    team.url,
                    &member.path,
                    "expected an object (the list was read with expand=members)",
                ));
            }
            let code = member.str("code")?.to_string();
            mapping::see_user(users, &code, member.str("name")?.into(), None, &member);
            members.push(Value::String(code));
        }
        let upstream_limits = team.ids("limit_tracks")?;
        let limit_tracks: Vec<i64> = upstream_limits
            .iter()
            .copied()
            .filter(|id| tracks.contains(id))
            .collect();
        // Limited to other events' tracks only, pretalx's reviewer sees
        // nothing of this event; `[]` would mean every track here, so the
        // team reviews nothing here (fail closed).
        let is_reviewer = if !upstream_limits.is_empty() && limit_tracks.is_empty() {
            json!(false)
        } else {
            team.raw("is_reviewer")?
        };
        let mut mapped = json!({
            "name": team.str("name")?,
            "members": members,
            "can_change_submissions": team.raw("can_change_submissions")?,
            "is_reviewer": is_reviewer,
            "force_hide_speaker_names": team.raw("force_hide_speaker_names")?,
            "limit_tracks": limit_tracks,
            "id": team.i64("id")?,
            "all_events": all_events,
            "limit_events": team.ids_or_codes("limit_events")?,
        });
        // The organiser-level rights, where this pretalx shows them.
        for right in [
            "can_create_events",
            "can_change_teams",
            "can_change_organiser_settings",
            "can_change_event_settings",
        ] {
            if let Some(value) = team.value.get(right) {
                mapped[right] = value.clone();
            }
        }
        out.push(mapped);
    }
    Ok(out)
}

/// A text the v1 API may show as null, or leave out when the CfP does not
/// ask for it (`abstract`, `notes`, ...): the dataset's empty text.
fn text(item: &Item, key: &str) -> Result<String, SyncError> {
    match item.value.get(key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(item.wrong(key, "a string or null")),
    }
}

/// An optional field the upstream may leave out: its value, or `default`.
fn or(item: &Item, key: &str, default: Value) -> Value {
    item.value.get(key).cloned().unwrap_or(default)
}

/// A URL that pretalx shows as "" when there is none.
fn url(item: &Item, key: &str) -> Result<Option<String>, SyncError> {
    Ok(match item.value.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.is_empty() => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(item.wrong(key, "a URL, \"\" or null")),
    })
}

/// The v1 API gives availabilities without ids; the dataset numbers them
/// (rooms' and speakers' share one sequence per event) in upstream order.
fn availabilities(item: &Item, next_id: &mut i64) -> Result<Vec<Value>, SyncError> {
    mapping::availabilities(item, |_| {
        *next_id += 1;
        Ok(*next_id)
    })
}

/// Maps one event to its dataset document. `users` collects the speakers,
/// reviewers and team members seen; `teams` are the organiser's, if read.
pub fn map_event(
    raw: &RawEvent,
    teams: Option<&Fetched>,
    users: &mut BTreeMap<String, SeenUser>,
) -> Result<Map<String, Value>, SyncError> {
    let event = Item::event(&raw.event);
    let slug = event.str("slug")?.to_string();
    let is_public = event.bool("is_public")?;
    // Neither submissions nor reviews show when they were made in v1: the
    // legacy format does, where still offered; else the event's first day.
    let unknown_time = format!("{}T00:00:00Z", event.str("date_from")?);
    let mut created: HashMap<String, Value> = HashMap::new();
    let mut reviewed: HashMap<i64, (Value, Value)> = HashMap::new();
    if let Some((submissions, reviews)) = &raw.legacy_times {
        for item in submissions.items() {
            created.insert(item.str("code")?.to_string(), json!(item.str("created")?));
        }
        for item in reviews.items() {
            reviewed.insert(
                item.i64("id")?,
                (json!(item.str("created")?), json!(item.str("updated")?)),
            );
        }
    }

    // The current released schedule: the newest one with a version (the
    // work-in-progress one has none), with its id and release note.
    let releases = releases(&raw.schedules)?;
    let details: HashMap<i64, &ScheduleDetail> =
        raw.schedule_details.iter().map(|d| (d.id, d)).collect();
    let mut schedule = Value::Null;
    if let Some((id, version, published)) = &releases.current {
        schedule = json!({"id": id, "version": version, "published": published});
        if let Some(detail) = id.and_then(|id| details.get(&id)) {
            schedule["comment"] = i18n(&Item::event(&detail.detail), "comment");
        }
    }

    // Slots of the current schedule, by submission (breaks have none).
    let mut slots: HashMap<String, Vec<Value>> = HashMap::new();
    for item in raw.slots.items() {
        let Some(code) = item.opt_str("submission")? else {
            continue; // a break: see the exports call site in super::run_once
        };
        slots.entry(code.to_string()).or_default().push(json!({
            "room": item.opt_i64("room")?,
            "start": item.raw("start")?,
            "end": item.raw("end")?,
            "is_visible": item.bool("is_visible")?,
        }));
    }
    if schedule.is_null() && !slots.is_empty() {
        return Err(SyncError::at_path(
            &raw.schedules
                .pages
                .first()
                .map_or(String::new(), |p| p.0.clone()),
            "results",
            "slots exist but no released schedule is listed",
        ));
    }
    let public: HashSet<String> = codes(&raw.public_submissions)?;
    let public_resources = shown_resources(&raw.public_submissions)?;

    let mut lists = mapping::Lists::default();
    let mut next_availability = 0;
    for item in raw.speakers.items() {
        let mut speaker = mapping::speaker(
            &item,
            users,
            |item| url(item, "avatar_url"),
            |item| text(item, "biography"),
            |item| availabilities(item, &mut next_availability),
        )?;
        // Organiser fields.
        speaker["has_arrived"] = or(&item, "has_arrived", json!(false));
        speaker["internal_notes"] = json!(text(&item, "internal_notes")?);
        lists.speakers.push(speaker);
    }

    let mut confirmed_visible = false;
    for item in raw.submissions.items() {
        let code = item.str("code")?.to_string();
        let mut speaker_codes = Vec::new();
        for (i, speaker) in item.ids_or_codes("speakers")?.into_iter().enumerate() {
            if !users.contains_key(&speaker) {
                return Err(SyncError::at_path(
                    item.url,
                    &format!("{}.speakers[{i}]", item.path),
                    &format!("speaker {speaker:?} is not in the speakers list"),
                ));
            }
            speaker_codes.push(Value::String(speaker));
        }
        let state = item.str("state")?;
        let slots = slots.remove(&code).unwrap_or_default();
        if state == "confirmed" && slots.iter().any(|s| s["is_visible"] == true) {
            confirmed_visible = true;
        }
        let mut resources = Vec::new();
        for resource in item.list("resources")? {
            if !resource.value.is_object() {
                return Err(SyncError::at_path(
                    item.url,
                    &resource.path,
                    "expected an object (the list was read with expand=resources)",
                ));
            }
            let link = resource.str("resource")?;
            let description = text(&resource, "description")?;
            // pretalx shows the public only its public resources; what it
            // has not shown the public (yet) stays private.
            let key = match resource.value.get("id").and_then(Value::as_i64) {
                Some(id) => ResourceKey::Id(id),
                None => ResourceKey::Link(link.to_string(), description.clone()),
            };
            let shown = public_resources.contains(&(code.clone(), key));
            resources.push(json!({
                "id": resource.value.get("id").and_then(Value::as_i64),
                "resource": link,
                "description": description,
                "is_public": shown,
            }));
        }
        let real = (
            text(&item, "title")?,
            text(&item, "abstract")?,
            text(&item, "description")?,
        );
        let submission = mapping::Submission {
            code: code.clone(),
            title: real.0.clone(),
            speakers: speaker_codes,
            submission_type: item.i64("submission_type")?,
            // Left out when the event does not use tracks.
            track: or(&item, "track", Value::Null),
            state: state.into(),
            pending_state: item.raw("pending_state")?,
            abstract_: real.1.clone(),
            description: real.2.clone(),
            notes: text(&item, "notes")?,
            internal_notes: text(&item, "internal_notes")?,
            duration: item.i64("duration")?,
            slot_count: item.i64("slot_count")?,
            do_not_record: or(&item, "do_not_record", json!(false)),
            is_featured: item.raw("is_featured")?,
            content_locale: item.str("content_locale")?.into(),
            image: url(&item, "image")?,
            created: created
                .get(&code)
                .cloned()
                .unwrap_or_else(|| json!(unknown_time)),
            tags: item.ids("tags")?,
            resources,
            anonymised: anonymised(&item, &real)?,
            slots,
        };
        let mut submission = submission.into_value();
        // Organiser-only codes ("" or null: none); the access code is its id.
        for key in ["invitation_token", "review_code"] {
            let code = text(&item, key)?;
            submission[key] = if code.is_empty() {
                Value::Null
            } else {
                json!(code)
            };
        }
        submission["access_code"] = or(&item, "access_code", Value::Null);
        lists.submissions.push(submission);
    }
    if let Some(code) = slots.keys().next() {
        return Err(SyncError::at_path(
            &raw.slots
                .pages
                .first()
                .map_or(String::new(), |p| p.0.clone()),
            "results",
            &format!("a slot of submission {code:?}, which is not in the submissions list"),
        ));
    }

    let history = history(raw, &releases, &details)?;

    for item in raw.questions.items() {
        let mut options = mapping::question_options(&item)?;
        for (option, raw) in options.iter_mut().zip(item.list("options")?) {
            option["position"] = or(&raw, "position", Value::Null);
        }
        let mut question = mapping::question(&item, options)?;
        question.insert("active".into(), item.raw("active")?);
        let position = item.opt_i64("position")?.unwrap_or(0);
        question.insert("position".into(), json!(position));
        question.insert("tracks".into(), json!(item.ids("tracks")?));
        let types = item.ids("submission_types")?;
        question.insert("submission_types".into(), json!(types));
        // Limits (numbers as pretalx's decimal strings) and the icon.
        for key in [
            "min_number",
            "max_number",
            "min_date",
            "max_date",
            "min_datetime",
            "max_datetime",
        ] {
            question.insert(key.into(), or(&item, key, Value::Null));
        }
        question.insert("icon".into(), json!(url(&item, "icon")?));
        lists.questions.push(Value::Object(question));
    }

    for item in raw.answers.items() {
        let mut answer = mapping::answer(
            &item,
            item.i64("id")?,
            item.i64("question")?,
            text(&item, "answer")?,
            url(&item, "answer_file")?,
        )?;
        answer.insert("options".into(), json!(item.ids("options")?));
        lists.answers.push(Value::Object(answer));
    }

    // Score categories by id, as the reviews' scores show them.
    let mut categories: BTreeMap<i64, Value> = BTreeMap::new();
    for item in raw.reviews.items() {
        // v1 gives the reviewer's code (the legacy API only a name); with
        // expand=user also their name and e-mail.
        let reviewer = item.object("user")?;
        let user = reviewer.str("code")?.to_string();
        mapping::see_user(users, &user, reviewer.str("name")?.into(), None, &reviewer);
        let id = item.i64("id")?;
        let (made, changed) = reviewed
            .remove(&id)
            .unwrap_or_else(|| (json!(unknown_time), json!(unknown_time)));
        let mut review = mapping::review(
            id,
            item.str("submission")?,
            user,
            text(&item, "text")?,
            mapping::decimal(&item, "score")?,
            made,
            changed,
        );
        review["scores"] = Value::Array(scores(&item, &mut categories)?);
        lists.reviews.push(review);
    }

    for item in raw.rooms.items() {
        // `uuid` is the guid where one is set, else pretalx's stable
        // computed one (what its exports and legacy API show as the guid):
        // kept where it differs from the guid.
        let guid = match item.value.get("guid") {
            None | Some(Value::Null) => None,
            Some(_) => Some(item.str("guid")?),
        };
        let uuid = match item.value.get("uuid") {
            None | Some(Value::Null) => None,
            Some(_) => Some(item.str("uuid")?).filter(|uuid| Some(*uuid) != guid),
        };
        let mut room = mapping::room(
            &item,
            |_| Ok(guid),
            |item, key| Ok(nullable_i18n(item, key)),
            |item| availabilities(item, &mut next_availability),
        )?;
        room["uuid"] = json!(uuid);
        lists.rooms.push(room);
    }

    for item in raw.tags.items() {
        lists.tags.push(mapping::tag(
            &item,
            |item, key| Ok(nullable_i18n(item, key)),
            |item| item.raw("is_public"),
        )?);
    }

    let mut track_ids = HashSet::new();
    for item in raw.tracks.items() {
        track_ids.insert(item.i64("id")?);
        lists.tracks.push(json!({
            "id": item.i64("id")?,
            "name": item.raw("name")?,
            "description": nullable_i18n(&item, "description"),
            "color": item.opt_str("color")?.unwrap_or_default(),
            "position": item.opt_i64("position")?,
            "requires_access_code": or(&item, "requires_access_code", json!(false)),
        }));
    }

    for item in raw.submission_types.items() {
        lists.types.push(json!({
            "id": item.i64("id")?,
            "name": item.raw("name")?,
            "default_duration": item.i64("default_duration")?,
            "deadline": or(&item, "deadline", Value::Null),
            "requires_access_code": or(&item, "requires_access_code", json!(false)),
        }));
    }

    let show_schedule = !(public.is_empty() && is_public && confirmed_visible);

    let mut extra = Map::new();
    extra.insert("locale".into(), or(&event, "locale", json!("en")));
    if let Some(color) = event.opt_str("primary_color").ok().flatten() {
        extra.insert("primary_color".into(), json!(color));
    }
    // The event detail's languages, address and images.
    for key in ["locales", "content_locales"] {
        if let Some(list) = event.value.get(key).filter(|v| !v.is_null()) {
            extra.insert(key.into(), list.clone());
        }
    }
    extra.insert("email".into(), json!(text(&event, "email")?));
    for key in ["logo", "header_image", "custom_domain"] {
        extra.insert(key.into(), json!(url(&event, key)?));
    }
    if !categories.is_empty() {
        extra.insert(
            "score_categories".into(),
            Value::Array(categories.into_values().collect()),
        );
    }
    extra.extend(history);
    let mut out = mapping::event(
        &event,
        slug.clone(),
        is_public,
        extra,
        show_schedule,
        schedule,
        lists,
    )?;
    if let Some(teams) = teams {
        out.insert(
            "teams".into(),
            Value::Array(map_teams(teams, &slug, &track_ids, users)?),
        );
    }
    Ok(out)
}

/// The older releases (oldest first) and the work-in-progress schedule,
/// each with its slots, as `older_schedules` and `wip_schedule`. A slot of
/// a submission the organisers' list does not show (deleted since) is left
/// out.
fn history(
    raw: &RawEvent,
    releases: &Releases,
    details: &HashMap<i64, &ScheduleDetail>,
) -> Result<Map<String, Value>, SyncError> {
    let mut known = HashSet::new();
    for item in raw.submissions.items() {
        known.insert(item.str("code")?.to_string());
    }
    let slots = |detail: &ScheduleDetail| -> Result<Vec<Value>, SyncError> {
        let mut out = Vec::new();
        for item in detail.slots.iter().flat_map(Fetched::items) {
            let submission = item.opt_str("submission")?;
            if submission.is_some_and(|code| !known.contains(code)) {
                continue;
            }
            out.push(json!({
                "id": item.i64("id")?,
                "submission": submission,
                "room": item.opt_i64("room")?,
                "start": item.raw("start")?,
                "end": item.raw("end")?,
                "is_visible": item.bool("is_visible")?,
                "description": i18n(&item, "description"),
            }));
        }
        Ok(out)
    };
    let mut out = Map::new();
    let mut older = Vec::new();
    for (id, version, published) in &releases.older {
        let Some(detail) = details.get(id) else {
            continue;
        };
        older.push(json!({
            "id": id,
            "version": version,
            "published": published,
            "comment": i18n(&Item::event(&detail.detail), "comment"),
            "slots": slots(detail)?,
        }));
    }
    if !older.is_empty() {
        out.insert("older_schedules".into(), Value::Array(older));
    }
    if let Some(detail) = releases.wip.and_then(|id| details.get(&id)) {
        out.insert(
            "wip_schedule".into(),
            json!({
                "id": detail.id,
                "comment": i18n(&Item::event(&detail.detail), "comment"),
                "slots": slots(detail)?,
            }),
        );
    }
    Ok(out)
}

/// How a resource is recognised in the public's view: by its id (v1
/// lists resources as ids unless expanded), else by link and description.
#[derive(PartialEq, Eq, Hash)]
enum ResourceKey {
    Id(i64),
    Link(String, String),
}

/// The resources the anonymous submissions list shows, by submission code.
fn shown_resources(list: &Fetched) -> Result<HashSet<(String, ResourceKey)>, SyncError> {
    let mut shown = HashSet::new();
    for item in list.items() {
        let code = item.str("code")?;
        let Some(resources) = item.value.get("resources") else {
            continue;
        };
        if resources.is_null() {
            continue;
        }
        for resource in item.list("resources")? {
            let key = match resource.value {
                Value::Number(_) => ResourceKey::Id(resource.value.as_i64().ok_or_else(|| {
                    SyncError::at_path(item.url, &resource.path, "expected a resource id")
                })?),
                Value::Object(_) => match resource.value.get("id").and_then(Value::as_i64) {
                    Some(id) => ResourceKey::Id(id),
                    None => ResourceKey::Link(
                        resource.str("resource")?.to_string(),
                        text(&resource, "description")?,
                    ),
                },
                _ => {
                    return Err(SyncError::at_path(
                        item.url,
                        &resource.path,
                        "expected a resource id or object",
                    ))
                }
            };
            shown.insert((code.to_string(), key));
        }
    }
    Ok(shown)
}

/// An i18n text pretalx shows as null when empty (or leaves out).
fn i18n(item: &Item, key: &str) -> Value {
    match item.value.get(key) {
        None | Some(Value::Null) => json!({}),
        Some(v) => v.clone(),
    }
}

/// An i18n text of a nullable column (pretalx's `null=True`: rooms'
/// description and speaker info, tracks' and tags' description,
/// questions' help text): null kept as null (a text never set, which v1
/// shows as null; dataset.md), absent as `{}`.
fn nullable_i18n(item: &Item, key: &str) -> Value {
    item.value.get(key).cloned().unwrap_or_else(|| json!({}))
}

/// A review's scores, `[{id, category, value, label}]`, their categories
/// (expanded: `expand=scores.category`) collected by id.
fn scores(review: &Item, categories: &mut BTreeMap<i64, Value>) -> Result<Vec<Value>, SyncError> {
    let Some(list) = review.value.get("scores").filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    if !list.is_array() {
        return Err(review.wrong("scores", "a list"));
    }
    let mut out = Vec::new();
    for score in review.list("scores")? {
        let category = score.get("category")?;
        if !category.is_object() {
            return Err(score.wrong(
                "category",
                "an object (the list was read with expand=scores.category)",
            ));
        }
        let category = score.object("category")?;
        let id = category.i64("id")?;
        categories.entry(id).or_insert(json!({
            "id": id,
            "name": category.raw("name")?,
            "weight": or(&category, "weight", json!("1.0")),
            "required": or(&category, "required", json!(false)),
            "active": or(&category, "active", json!(true)),
            "limit_tracks": category.ids("limit_tracks")?,
            "is_independent": or(&category, "is_independent", json!(false)),
        }));
        out.push(json!({
            "id": score.i64("id")?,
            "category": id,
            "value": score.raw("value")?,
            "label": or(&score, "label", Value::Null),
        }));
    }
    Ok(out)
}

/// The organisers' anonymised texts: `anonymised_data` is a JSON object in
/// a string (`"{}"` when not anonymised), with the anonymised fields and
/// `"_anonymised": true`. Only texts that differ from the real ones count.
fn anonymised(item: &Item, real: &(String, String, String)) -> Result<Value, SyncError> {
    let data = match item.value.get("anonymised_data") {
        None | Some(Value::Null) => return Ok(Value::Null),
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(Value::Null),
        Some(Value::String(s)) => serde_json::from_str::<Value>(s)
            .ok()
            .filter(Value::is_object)
            .ok_or_else(|| item.wrong("anonymised_data", "a JSON object in a string"))?,
        Some(Value::Object(_)) => item.value["anonymised_data"].clone(),
        Some(_) => return Err(item.wrong("anonymised_data", "a JSON object in a string")),
    };
    if data.get("_anonymised") != Some(&Value::Bool(true)) {
        return Ok(Value::Null);
    }
    let pick = |key: &str, real: &str| match data.get(key).and_then(Value::as_str) {
        Some(anon) if anon != real => anon.to_string(),
        _ => String::new(),
    };
    let texts = (
        pick("title", &real.0),
        pick("abstract", &real.1),
        pick("description", &real.2),
    );
    if texts.0.is_empty() && texts.1.is_empty() && texts.2.is_empty() {
        return Ok(Value::Null);
    }
    Ok(json!({"title": texts.0, "abstract": texts.1, "description": texts.2}))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One page of `results` at a made-up URL.
    fn list(name: &str, results: Value) -> Fetched {
        let Value::Array(results) = results else {
            panic!("results must be a list")
        };
        Fetched {
            pages: vec![(format!("http://up/api/events/conf/{name}/"), results)],
        }
    }

    /// A schedule's detail, with its slots (`slots/?schedule=ID`).
    fn detail(id: i64, detail: Value, slots: Option<Value>) -> ScheduleDetail {
        ScheduleDetail {
            id,
            detail: (format!("http://up/api/events/conf/schedules/{id}/"), detail),
            slots: slots.map(|slots| list("slots", slots)),
        }
    }

    /// A small event as pretalx 2025.2.2 shows it to an organiser.
    fn raw() -> RawEvent {
        RawEvent {
            event: (
                "http://up/api/events/conf/".into(),
                json!({"name": {"en": "Conf"}, "slug": "conf", "is_public": true,
                       "date_from": "2025-06-01", "date_to": "2025-06-02",
                       "timezone": "Europe/Berlin", "email": "orga@example.org",
                       "primary_color": "#3b64d1", "custom_domain": null,
                       "logo": "http://up/media/conf/logo.png", "header_image": null,
                       "locale": "en", "locales": ["en", "de"], "content_locales": ["en"]}),
            ),
            submissions: list(
                "submissions",
                json!([{
                    "code": "ABC123", "title": "Talk", "speakers": ["SPK1"],
                    "submission_type": 1, "track": 2, "tags": [5], "state": "confirmed",
                    "abstract": "A", "description": "D", "duration": 30, "slot_count": 1,
                    "content_locale": "en", "do_not_record": false, "image": null,
                    "resources": [{"id": 1, "resource": "http://up/r.pdf", "description": "Slides"},
                                  {"id": 2, "resource": "http://up/notes", "description": "Notes"}],
                    "slots": [], "answers": [7], "pending_state": null, "is_featured": true,
                    "notes": null, "internal_notes": "inside",
                    "invitation_token": "AVUPRXJ8J7HVVLHUHW8PFV8HJWJYFUD7", "access_code": 2,
                    "review_code": "AKDGFUAUHYXA9EYAKWANHXEXSH8YFC9Y",
                    "anonymised_data": "{\"_anonymised\": true, \"title\": \"Anon talk\", \"abstract\": \"A\"}",
                    "reviews": [3], "assigned_reviewers": [], "is_anonymised": true,
                }]),
            ),
            // The public is shown the slides (resources as ids), not the notes.
            public_submissions: list("submissions", json!([{"code": "ABC123", "resources": [1]}])),
            schedules: list(
                "schedules",
                json!([
                    {"id": 2, "version": "wip", "published": null},
                    {"id": 1, "version": "v1.0", "published": "2025-06-01T10:00:00+02:00"},
                    {"id": 3, "version": "v0.9", "published": "2025-05-01T10:00:00+02:00"},
                ]),
            ),
            slots: list(
                "slots",
                json!([
                    {"id": 9, "room": 4, "start": "2025-06-01T11:00:00+02:00",
                     "end": "2025-06-01T11:30:00+02:00", "submission": "ABC123",
                     "schedule": 1, "description": null, "duration": 30, "is_visible": true},
                    {"id": 10, "room": 4, "start": "2025-06-01T12:00:00+02:00",
                     "end": "2025-06-01T13:00:00+02:00", "submission": null,
                     "schedule": 1, "description": {"en": "Lunch"}, "duration": 60, "is_visible": true},
                ]),
            ),
            speakers: list(
                "speakers",
                json!([{"code": "SPK1", "name": "Ada", "biography": null, "submissions": ["ABC123"],
                        "avatar_url": "", "answers": [], "email": "ada@example.org",
                        "timezone": "UTC", "locale": "en", "has_arrived": true,
                        "internal_notes": "Vegan",
                        "availabilities": [{"start": "2025-06-01T09:00:00+02:00",
                                            "end": "2025-06-01T18:00:00+02:00", "allDay": false}]}]),
            ),
            questions: list(
                "questions",
                json!([{"id": 6, "question": {"en": "Level?"}, "help_text": {}, "default_answer": null,
                        "variant": "choices", "target": "submission", "deadline": null,
                        "freeze_after": null, "question_required": "optional", "position": 3,
                        "tracks": [], "submission_types": [1],
                        "options": [{"id": 11, "answer": {"en": "Easy"}, "position": 1},
                                    {"id": 12, "answer": {"en": "Hard"}, "position": 0}],
                        "min_length": null, "max_length": null, "min_number": "1.000000",
                        "max_number": "10.500000", "min_date": "2025-01-01", "max_date": null,
                        "min_datetime": "2025-06-01T00:00:00+02:00", "max_datetime": null,
                        "icon": "http://up/media/conf/questions/6/icon.png",
                        "active": false, "is_public": true, "contains_personal_data": false,
                        "is_visible_to_reviewers": true}]),
            ),
            answers: list(
                "answers",
                json!([{"id": 7, "question": 6, "answer": "Easy", "answer_file": null,
                        "submission": "ABC123", "review": null, "person": null, "options": [11]}]),
            ),
            reviews: list(
                "reviews",
                json!([{"id": 3, "submission": "ABC123", "text": null, "score": "1.50",
                        "scores": [
                            {"id": 1, "category": {"id": 1, "name": {"en": "Score"}, "weight": "1.0",
                                                   "required": false, "active": true,
                                                   "limit_tracks": [], "is_independent": false},
                             "value": "1.00", "label": "Maybe"},
                            {"id": 5, "category": {"id": 2, "name": {"en": "Fit"}, "weight": "0.0",
                                                   "required": false, "active": true,
                                                   "limit_tracks": [2], "is_independent": true},
                             "value": "2.50", "label": null}],
                        "answers": [],
                        "user": {"code": "REV1", "name": "Rita", "email": "rita@example.org"}}]),
            ),
            rooms: list(
                "rooms",
                json!([{"id": 4, "name": {"en": "Hall"}, "description": null,
                        "uuid": "41b9257f-c393-5661-8135-298ffbdea1b2", "guid": null,
                        "capacity": 100, "position": 0, "speaker_info": null,
                        "availabilities": [{"start": "2025-06-01T08:00:00+02:00",
                                            "end": "2025-06-01T20:00:00+02:00", "allDay": false}]},
                       {"id": 7, "name": {"en": "Annex"}, "description": null,
                        "uuid": "0b63f4ae-55e4-4a8d-a1d4-1b4ea4c2f9f1",
                        "guid": "0b63f4ae-55e4-4a8d-a1d4-1b4ea4c2f9f1",
                        "capacity": null, "position": 1, "speaker_info": null,
                        "availabilities": []}]),
            ),
            tags: list(
                "tags",
                json!([{"id": 5, "tag": "keynote", "description": {}, "color": "#aa3300", "is_public": true}]),
            ),
            tracks: list(
                "tracks",
                json!([{"id": 2, "name": {"en": "Web"}, "description": {"en": "All about the web"},
                        "color": "#0b1914", "position": 3, "requires_access_code": true}]),
            ),
            submission_types: list(
                "submission-types",
                json!([{"id": 1, "name": {"en": "Talk"}, "default_duration": 30,
                        "deadline": "2025-05-01T00:00:00+02:00", "requires_access_code": true}]),
            ),
            // As from a pretalx that no longer offers the legacy format.
            legacy_times: None,
            schedule_details: vec![
                detail(
                    1,
                    json!({"id": 1, "version": "v1.0", "comment": {"en": "Final"}}),
                    None,
                ),
                detail(
                    3,
                    json!({"id": 3, "version": "v0.9", "comment": null}),
                    Some(json!([
                        {"id": 5, "room": 4, "start": "2025-06-01T10:00:00+02:00",
                         "end": "2025-06-01T10:30:00+02:00", "submission": "ABC123",
                         "schedule": 3, "description": null, "duration": 30, "is_visible": true},
                        // A submission deleted since.
                        {"id": 6, "room": 4, "start": "2025-06-01T11:00:00+02:00",
                         "end": "2025-06-01T11:30:00+02:00", "submission": "GONE99",
                         "schedule": 3, "description": null, "duration": 30, "is_visible": true},
                    ])),
                ),
                detail(
                    2,
                    json!({"id": 2, "version": "wip", "comment": null}),
                    Some(json!([
                        {"id": 11, "room": null, "start": null, "end": null,
                         "submission": "ABC123", "schedule": 2, "description": null,
                         "duration": 30, "is_visible": false},
                        {"id": 12, "room": 4, "start": "2025-06-01T12:00:00+02:00",
                         "end": "2025-06-01T13:00:00+02:00", "submission": null,
                         "schedule": 2, "description": {"en": "Lunch"}, "duration": 60,
                         "is_visible": true},
                    ])),
                ),
            ],
        }
    }

    #[test]
    fn maps_an_organisers_view_to_the_dataset() {
        let mut users = BTreeMap::new();
        let event = Value::Object(map_event(&raw(), None, &mut users).unwrap());
        let stamp = "2025-06-01T00:00:00Z";
        // In parts: one json! of it all is too deep for the macro.
        let mut expected = Map::new();
        expected.extend(
            json!({
                "slug": "conf", "name": {"en": "Conf"}, "is_public": true,
                "date_from": "2025-06-01", "date_to": "2025-06-02", "timezone": "Europe/Berlin",
                "locale": "en", "primary_color": "#3b64d1", "show_schedule": true,
                "email": "orga@example.org", "locales": ["en", "de"], "content_locales": ["en"],
                "logo": "http://up/media/conf/logo.png", "header_image": null,
                "custom_domain": null,
                "score_categories": [
                    {"id": 1, "name": {"en": "Score"}, "weight": "1.0", "required": false,
                     "active": true, "limit_tracks": [], "is_independent": false},
                    {"id": 2, "name": {"en": "Fit"}, "weight": "0.0", "required": false,
                     "active": true, "limit_tracks": [2], "is_independent": true}],
                "schedule": {"id": 1, "version": "v1.0", "published": "2025-06-01T10:00:00+02:00",
                             "comment": {"en": "Final"}},
                "older_schedules": [{
                    "id": 3, "version": "v0.9", "published": "2025-05-01T10:00:00+02:00",
                    "comment": {},
                    "slots": [{"id": 5, "submission": "ABC123", "room": 4,
                               "start": "2025-06-01T10:00:00+02:00",
                               "end": "2025-06-01T10:30:00+02:00", "is_visible": true,
                               "description": {}}]}],
                "wip_schedule": {"id": 2, "comment": {}, "slots": [
                    {"id": 11, "submission": "ABC123", "room": null, "start": null, "end": null,
                     "is_visible": false, "description": {}},
                    {"id": 12, "submission": null, "room": 4,
                     "start": "2025-06-01T12:00:00+02:00", "end": "2025-06-01T13:00:00+02:00",
                     "is_visible": true, "description": {"en": "Lunch"}}]}
            })
            .as_object()
            .unwrap()
            .clone(),
        );
        expected.extend(
            json!({
                "submission_types": [{"id": 1, "name": {"en": "Talk"}, "default_duration": 30,
                                      "deadline": "2025-05-01T00:00:00+02:00",
                                      "requires_access_code": true}],
                "tracks": [{"id": 2, "name": {"en": "Web"}, "description": {"en": "All about the web"},
                            "color": "#0b1914", "position": 3, "requires_access_code": true}],
                // pretalx's computed uuid of a room without a guid is kept as
                // its uuid; a room's guid is its uuid.
                "rooms": [{"id": 4, "guid": null, "uuid": "41b9257f-c393-5661-8135-298ffbdea1b2",
                           "name": {"en": "Hall"}, "description": null, "speaker_info": null,
                           "capacity": 100, "position": 0,
                           "availabilities": [{"id": 2, "start": "2025-06-01T08:00:00+02:00",
                                               "end": "2025-06-01T20:00:00+02:00"}]},
                          {"id": 7, "guid": "0b63f4ae-55e4-4a8d-a1d4-1b4ea4c2f9f1", "uuid": null,
                           "name": {"en": "Annex"}, "description": null, "speaker_info": null,
                           "capacity": null, "position": 1, "availabilities": []}],
                "tags": [{"id": 5, "tag": "keynote", "description": {}, "color": "#aa3300",
                          "is_public": true}]
            })
            .as_object()
            .unwrap()
            .clone(),
        );
        expected.extend(
            json!({
                "questions": [{"id": 6, "variant": "choices", "target": "submission",
                               "question": {"en": "Level?"}, "help_text": {},
                               "question_required": "optional", "deadline": null,
                               "freeze_after": null,
                               "options": [{"id": 11, "answer": {"en": "Easy"}, "position": 1},
                                           {"id": 12, "answer": {"en": "Hard"}, "position": 0}],
                               "default_answer": null, "contains_personal_data": false,
                               "min_length": null, "max_length": null, "is_public": true,
                               "min_number": "1.000000", "max_number": "10.500000",
                               "min_date": "2025-01-01", "max_date": null,
                               "min_datetime": "2025-06-01T00:00:00+02:00", "max_datetime": null,
                               "icon": "http://up/media/conf/questions/6/icon.png",
                               "is_visible_to_reviewers": true, "active": false, "position": 3,
                               "tracks": [], "submission_types": [1]}],
                "speakers": [{"user": "SPK1", "biography": "",
                              "availabilities": [{"id": 1, "start": "2025-06-01T09:00:00+02:00",
                                                  "end": "2025-06-01T18:00:00+02:00"}],
                              "has_arrived": true, "internal_notes": "Vegan"}]
            })
            .as_object()
            .unwrap()
            .clone(),
        );
        expected.extend(
            json!({
                "submissions": [{
                    "code": "ABC123", "title": "Talk", "speakers": ["SPK1"],
                    "submission_type": 1, "track": 2, "state": "confirmed",
                    "pending_state": null, "abstract": "A", "description": "D",
                    "notes": "", "internal_notes": "inside", "duration": 30, "slot_count": 1,
                    "do_not_record": false, "is_featured": true, "content_locale": "en",
                    "image": null, "created": stamp, "tags": [5],
                    "resources": [
                        {"id": 1, "resource": "http://up/r.pdf", "description": "Slides", "is_public": true},
                        {"id": 2, "resource": "http://up/notes", "description": "Notes", "is_public": false},
                    ],
                    "invitation_token": "AVUPRXJ8J7HVVLHUHW8PFV8HJWJYFUD7", "access_code": 2,
                    "review_code": "AKDGFUAUHYXA9EYAKWANHXEXSH8YFC9Y",
                    // Only the title differs from the real text.
                    "anonymised": {"title": "Anon talk", "abstract": "", "description": ""},
                    "slots": [{"room": 4, "start": "2025-06-01T11:00:00+02:00",
                               "end": "2025-06-01T11:30:00+02:00", "is_visible": true}],
                }]
            })
            .as_object()
            .unwrap()
            .clone(),
        );
        expected.extend(
            json!({
                "answers": [{"id": 7, "question": 6, "answer": "Easy", "answer_file": null,
                             "submission": "ABC123", "person": null, "review": null,
                             "options": [11]}],
                "reviews": [{"id": 3, "submission": "ABC123", "user": "REV1", "text": "",
                             "score": 1.5, "created": stamp, "updated": stamp,
                             "scores": [{"id": 1, "category": 1, "value": "1.00", "label": "Maybe"},
                                        {"id": 5, "category": 2, "value": "2.50", "label": null}]}]
            })
            .as_object()
            .unwrap()
            .clone(),
        );
        assert_eq!(event, Value::Object(expected));
        let seen: Vec<_> = users
            .iter()
            .map(|(code, u)| {
                (
                    code.as_str(),
                    u.name.as_str(),
                    u.email.as_deref(),
                    u.avatar.clone(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("REV1", "Rita", Some("rita@example.org"), None),
                ("SPK1", "Ada", Some("ada@example.org"), None),
            ]
        );
    }

    #[test]
    fn the_mapped_event_validates_like_an_import() {
        let mut users = BTreeMap::new();
        let event = map_event(&raw(), None, &mut users).unwrap();
        let document = super::super::access::merge(&json!({}), users, vec![event]).unwrap();
        let dataset = crate::dataset::validate::parse_value(&document).unwrap_or_else(|problems| {
            panic!(
                "{:?}",
                problems.iter().map(|p| p.to_string()).collect::<Vec<_>>()
            )
        });
        // What v1 shows beyond the older dataset, as the model holds it.
        let event = &dataset.events[0];
        assert_eq!(event.locales(), ["en", "de"]);
        assert!(event.content_locales.is_empty(), "[locale] is the default");
        assert_eq!(event.email, "orga@example.org");
        assert_eq!(event.score_categories[1].limit_tracks, [2]);
        assert_eq!(
            event.rooms[0].guid_or_derived("conf"),
            "41b9257f-c393-5661-8135-298ffbdea1b2"
        );
        assert_eq!(
            event.rooms[1].guid_or_derived("conf"),
            "0b63f4ae-55e4-4a8d-a1d4-1b4ea4c2f9f1"
        );
        let options = &event.questions[0].options;
        assert_eq!(
            (options[0].position_at(0), options[1].position_at(1)),
            (1, 0)
        );
        assert_eq!(
            event.questions[0].max_number.as_ref().map(|n| n.to_f64()),
            Some(10.5)
        );
        let submission = &event.submissions[0];
        assert_eq!(submission.access_code, Some(2));
        assert_eq!(submission.resources[1].id, Some(2));
        assert_eq!(event.reviews[0].scores.len(), 2);
        assert!(event.speakers[0].has_arrived);
    }

    #[test]
    fn schedules_by_role() {
        let schedules = list(
            "schedules",
            json!([
                {"id": 9, "version": "wip", "published": null},
                {"id": 4, "version": "v2", "published": "2025-06-02T10:00:00+02:00"},
                {"id": 1, "version": "v0", "published": "2025-04-01T10:00:00+02:00"},
                {"id": 2, "version": "v1", "published": "2025-05-01T10:00:00+02:00"},
                // Without an id there is no detail to read.
                {"version": "v1.5", "published": "2025-05-15T10:00:00+02:00"},
            ]),
        );
        assert_eq!(
            releases(&schedules).unwrap(),
            Releases {
                current: Some((Some(4), "v2".into(), "2025-06-02T10:00:00+02:00".into())),
                older: vec![
                    (1, "v0".into(), "2025-04-01T10:00:00+02:00".into()),
                    (2, "v1".into(), "2025-05-01T10:00:00+02:00".into()),
                ],
                wip: Some(9),
            }
        );
        // Nothing released yet: only the work in progress.
        let wip_only = list(
            "schedules",
            json!([{"id": 1, "version": "wip", "published": null}]),
        );
        assert_eq!(
            releases(&wip_only).unwrap(),
            Releases {
                wip: Some(1),
                ..Releases::default()
            }
        );
    }

    #[test]
    fn the_history_in_the_model() {
        let mut users = BTreeMap::new();
        let event = map_event(&raw(), None, &mut users).unwrap();
        let document = super::super::access::merge(&json!({}), users, vec![event]).unwrap();
        let dataset = crate::dataset::validate::parse_value(&document).expect("valid");
        let event = &dataset.events[0];
        let schedule = event.schedule.as_ref().unwrap();
        assert_eq!(
            (schedule.id, schedule.comment.texts().next()),
            (Some(1), Some("Final"))
        );
        let older = &event.older_schedules[0];
        assert_eq!(
            (older.id, older.version.as_str(), older.slots.len()),
            (Some(3), "v0.9", 1)
        );
        let wip = event.wip_schedule.as_ref().unwrap();
        assert_eq!(wip.slots[0].start, None);
        assert_eq!(wip.slots[1].description.texts().next(), Some("Lunch"));
        // Without the details (an upstream that lists no ids): no history.
        let mut raw = raw();
        raw.schedule_details.clear();
        let event = map_event(&raw, None, &mut BTreeMap::new()).unwrap();
        assert!(event.get("older_schedules").is_none() && event.get("wip_schedule").is_none());
        assert_eq!(event["schedule"].get("comment"), None);
    }

    #[tokio::test]
    async fn schedule_details_and_their_slots_are_read() {
        use std::sync::{Arc, Mutex};
        let asked = Arc::new(Mutex::new(Vec::new()));
        let log = asked.clone();
        let app = axum::Router::new().fallback(move |uri: axum::http::Uri| {
            let log = log.clone();
            async move {
                let path = uri.path_and_query().map_or("", |p| p.as_str()).to_string();
                log.lock().unwrap().push(path.clone());
                let slot = |id: i64, schedule: i64| {
                    json!({"id": id, "room": 4, "start": "2025-06-01T10:00:00+02:00",
                           "end": "2025-06-01T10:30:00+02:00", "submission": "ABC123",
                           "schedule": schedule, "description": null, "duration": 30,
                           "is_visible": true})
                };
                axum::Json(match path.as_str() {
                    "/api/events/conf/schedules/1/" => json!({"id": 1, "comment": {"en": "Now"}}),
                    "/api/events/conf/schedules/3/" => json!({"id": 3, "comment": null}),
                    "/api/events/conf/schedules/2/" => json!({"id": 2, "comment": null}),
                    // `next` names the public host: only its path is used.
                    "/api/events/conf/slots/?schedule=3&page_size=250" => json!({
                        "count": 2, "previous": null, "results": [slot(5, 3)],
                        "next": "https://public.example/api/events/conf/slots/?page=2&page_size=250&schedule=3"}),
                    "/api/events/conf/slots/?page=2&page_size=250&schedule=3" => {
                        json!({"count": 2, "next": null, "previous": null, "results": [slot(6, 3)]})
                    }
                    "/api/events/conf/slots/?schedule=2&page_size=250" => {
                        json!({"count": 1, "next": null, "previous": null, "results": [slot(11, 2)]})
                    }
                    _ => json!({"unexpected": path}),
                })
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let client = Client::new(&origin, "t", std::time::Duration::from_secs(5), &[]).unwrap();
        let requests = std::sync::atomic::AtomicUsize::new(0);
        let count = || {
            requests.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let details = read_schedules(
            &client,
            "/api/events/conf",
            &releases(&raw().schedules).unwrap(),
            &count,
        )
        .await
        .unwrap();
        let read: Vec<(i64, usize)> = details
            .iter()
            .map(|d| (d.id, d.slots.iter().flat_map(Fetched::items).count()))
            .collect();
        // The current release (its slots are the unfiltered list), the
        // older one, the work in progress.
        assert_eq!(read, [(1, 0), (3, 2), (2, 1)]);
        assert!(details[0].slots.is_none());
        assert_eq!(details[0].detail.1["comment"], json!({"en": "Now"}));
        assert_eq!(requests.into_inner(), 6);
        assert_eq!(asked.lock().unwrap().len(), 6);
    }

    #[test]
    fn what_an_older_pretalx_or_the_cfp_leaves_out_takes_its_default() {
        let mut raw = raw();
        let strip = |value: &mut Value, keys: &[&str]| {
            for key in keys {
                value.as_object_mut().unwrap().remove(*key);
            }
        };
        strip(
            &mut raw.event.1,
            &[
                "email",
                "logo",
                "header_image",
                "custom_domain",
                "locales",
                "content_locales",
            ],
        );
        strip(
            &mut raw.speakers.pages[0].1[0],
            &["has_arrived", "internal_notes"],
        );
        strip(
            &mut raw.submissions.pages[0].1[0],
            &["invitation_token", "access_code", "review_code"],
        );
        strip(&mut raw.tracks.pages[0].1[0], &["requires_access_code"]);
        strip(
            &mut raw.submission_types.pages[0].1[0],
            &["deadline", "requires_access_code"],
        );
        strip(&mut raw.questions.pages[0].1[0], &["min_number", "icon"]);
        raw.reviews.pages[0].1[0]["scores"] = json!([]);
        let mut users = BTreeMap::new();
        let event = map_event(&raw, None, &mut users).unwrap();
        assert!(event.get("score_categories").is_none());
        assert!(event.get("locales").is_none());
        let document = super::super::access::merge(&json!({}), users, vec![event]).unwrap();
        let dataset = crate::dataset::validate::parse_value(&document).expect("valid");
        let event = &dataset.events[0];
        assert_eq!((event.email.as_str(), &event.logo), ("", &None));
        assert!(!event.speakers[0].has_arrived && event.speakers[0].internal_notes.is_empty());
        assert_eq!(event.submissions[0].invitation_token, None);
        assert!(!event.tracks[0].requires_access_code);
        assert_eq!(event.submission_types[0].deadline, None);
        assert_eq!(
            (&event.questions[0].min_number, &event.questions[0].icon),
            (&None, &None)
        );
        assert!(event.reviews[0].scores.is_empty() && event.score_categories.is_empty());
    }

    #[test]
    fn a_hidden_schedule_and_fields_the_cfp_does_not_ask_for() {
        let mut raw = raw();
        // The public sees no talk although a confirmed one has a visible slot.
        raw.public_submissions = list("submissions", json!([]));
        // Without tracks, abstracts and notes in the CfP, pretalx leaves them out.
        for key in ["track", "abstract", "notes"] {
            raw.submissions.pages[0].1[0]
                .as_object_mut()
                .unwrap()
                .remove(key);
        }
        let event = map_event(&raw, None, &mut BTreeMap::new()).unwrap();
        assert_eq!(event["show_schedule"], false);
        let submission = &event["submissions"][0];
        assert_eq!(
            (
                &submission["track"],
                &submission["abstract"],
                &submission["notes"]
            ),
            (&json!(null), &json!(""), &json!(""))
        );
    }

    #[test]
    fn resources_the_public_is_not_shown_are_private() {
        let is_public = |raw: &RawEvent| -> Vec<Value> {
            let event = map_event(raw, None, &mut BTreeMap::new()).unwrap();
            event["submissions"][0]["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["is_public"].clone())
                .collect()
        };
        let mut raw = raw();
        // Not a public talk (yet): nothing is known to be public.
        raw.public_submissions = list("submissions", json!([]));
        assert_eq!(is_public(&raw), vec![json!(false), json!(false)]);
        // Expanded public resources are matched by id too.
        raw.public_submissions = list(
            "submissions",
            json!([{"code": "ABC123", "resources": [{"id": 2, "resource": "http://up/notes", "description": "Notes"}]}]),
        );
        assert_eq!(is_public(&raw), vec![json!(false), json!(true)]);
        // Without ids, by link and description.
        for resource in raw.submissions.pages[0].1[0]["resources"]
            .as_array_mut()
            .unwrap()
        {
            resource.as_object_mut().unwrap().remove("id");
        }
        raw.public_submissions = list(
            "submissions",
            json!([{"code": "ABC123", "resources": [{"resource": "http://up/r.pdf", "description": "Slides"}]}]),
        );
        assert_eq!(is_public(&raw), vec![json!(true), json!(false)]);
        // Another submission's public resource does not make this one public.
        raw.public_submissions = list(
            "submissions",
            json!([{"code": "OTHER1", "resources": [{"resource": "http://up/r.pdf", "description": "Slides"}]}]),
        );
        assert_eq!(is_public(&raw), vec![json!(false), json!(false)]);
        // A public list with something else where the resources are is an error with its path.
        raw.public_submissions = list(
            "submissions",
            json!([{"code": "ABC123", "resources": ["x"]}]),
        );
        let err = map_event(&raw, None, &mut BTreeMap::new()).unwrap_err();
        assert_eq!(
            err.message,
            "GET http://up/api/events/conf/submissions/: results[0].resources[0]: expected a resource id or object"
        );
    }

    #[test]
    fn times_from_the_legacy_format_where_offered() {
        let mut raw = raw();
        raw.legacy_times = Some((
            list(
                "submissions",
                json!([{"code": "ABC123", "created": "2025-03-01T10:00:00+01:00"}]),
            ),
            list(
                "reviews",
                json!([{"id": 3, "created": "2025-04-01T10:00:00+02:00",
                        "updated": "2025-04-02T10:00:00+02:00"}]),
            ),
        ));
        let event = map_event(&raw, None, &mut BTreeMap::new()).unwrap();
        assert_eq!(
            event["submissions"][0]["created"],
            "2025-03-01T10:00:00+01:00"
        );
        assert_eq!(
            (
                &event["reviews"][0]["created"],
                &event["reviews"][0]["updated"]
            ),
            (
                &json!("2025-04-01T10:00:00+02:00"),
                &json!("2025-04-02T10:00:00+02:00")
            )
        );
    }

    #[test]
    fn teams_that_cover_the_event_with_their_members() {
        let teams = list(
            "teams",
            json!([
                {"id": 1, "name": "Orga", "all_events": false, "limit_events": ["CONF"],
                 "limit_tracks": [2, 99], "can_change_submissions": true, "is_reviewer": false,
                 "force_hide_speaker_names": false, "invites": [], "can_change_teams": true,
                 "can_create_events": false,
                 "members": [{"code": "ORG1", "name": "Olga", "email": "olga@example.org"},
                             {"code": "SPK1", "name": "Ada", "email": "ada@example.org"}]},
                {"id": 2, "name": "Other event", "all_events": false, "limit_events": ["other"],
                 "limit_tracks": [], "can_change_submissions": true, "is_reviewer": true,
                 "force_hide_speaker_names": false, "invites": [],
                 "members": [{"code": "NOPE", "name": "No", "email": "no@example.org"}]},
                {"id": 3, "name": "Reviewers", "all_events": true, "limit_events": [],
                 "limit_tracks": [], "can_change_submissions": false, "is_reviewer": true,
                 "force_hide_speaker_names": true, "invites": [], "members": []},
            ]),
        );
        let mut users = BTreeMap::new();
        let event = map_event(&raw(), Some(&teams), &mut users).unwrap();
        assert_eq!(
            event["teams"],
            json!([
                // Track 99 belongs to another of the organiser's events.
                {"name": "Orga", "members": ["ORG1", "SPK1"], "can_change_submissions": true,
                 "is_reviewer": false, "force_hide_speaker_names": false, "limit_tracks": [2],
                 "id": 1, "all_events": false, "limit_events": ["CONF"],
                 "can_change_teams": true, "can_create_events": false},
                {"name": "Reviewers", "members": [], "can_change_submissions": false,
                 "is_reviewer": true, "force_hide_speaker_names": true, "limit_tracks": [],
                 "id": 3, "all_events": true, "limit_events": []},
            ])
        );
        assert_eq!(
            users.keys().collect::<Vec<_>>(),
            ["ORG1", "REV1", "SPK1"],
            "members of teams of other events are not users of this one"
        );
        let mut unexpanded = teams;
        unexpanded.pages[0].1[0]["members"] = json!(["ORG1"]);
        assert_eq!(
            map_event(&raw(), Some(&unexpanded), &mut BTreeMap::new())
                .unwrap_err()
                .message,
            "GET http://up/api/events/conf/teams/: results[0].members[0]: expected an object (the list was read with expand=members)"
        );
    }

    #[test]
    fn a_reviewer_team_limited_to_other_events_tracks_reviews_nothing_here() {
        // pretalx shows such a reviewer only submissions of those tracks:
        // none of this event's. An empty `limit_tracks` would mean every
        // track, so the team is no reviewer team here (fail closed).
        let teams = list(
            "teams",
            json!([
                {"id": 4, "name": "Other track", "all_events": true, "limit_events": [],
                 "limit_tracks": [99], "can_change_submissions": false, "is_reviewer": true,
                 "force_hide_speaker_names": false, "invites": [],
                 "members": [{"code": "REV1", "name": "Rita", "email": "rita@example.org"}]},
            ]),
        );
        let event = map_event(&raw(), Some(&teams), &mut BTreeMap::new()).unwrap();
        assert_eq!(event["teams"][0]["is_reviewer"], json!(false));
        assert_eq!(event["teams"][0]["limit_tracks"], json!([]));
    }

    #[test]
    fn malformed_answers_name_the_url_and_json_path() {
        type Spoil = fn(&mut RawEvent);
        let cases: [(&str, Spoil, &str); 8] = [
            (
                "a slot of an older release without its visibility",
                |raw| {
                    let slots = raw.schedule_details[1].slots.as_mut().unwrap();
                    slots.pages[0].1[0]["is_visible"] = json!(null);
                },
                "GET http://up/api/events/conf/slots/: results[0].is_visible: expected a boolean",
            ),
            (
                "scores without their categories expanded",
                |raw| raw.reviews.pages[0].1[0]["scores"][0]["category"] = json!(1),
                "GET http://up/api/events/conf/reviews/: results[0].scores[0].category: expected an object (the list was read with expand=scores.category)",
            ),
            (
                "a room uuid that is no string",
                |raw| raw.rooms.pages[0].1[0]["uuid"] = json!(4),
                "GET http://up/api/events/conf/rooms/: results[0].uuid: expected a string",
            ),
            (
                "a review without its reviewer expanded",
                |raw| raw.reviews.pages[0].1[0]["user"] = json!("REV1"),
                "GET http://up/api/events/conf/reviews/: results[0].user: expected an object",
            ),
            (
                "a score that is no number",
                |raw| raw.reviews.pages[0].1[0]["score"] = json!("high"),
                "GET http://up/api/events/conf/reviews/: results[0].score: expected a decimal number",
            ),
            (
                "a speaker missing from the speakers list",
                |raw| raw.submissions.pages[0].1[0]["speakers"] = json!(["SPK1", "GHOST"]),
                "GET http://up/api/events/conf/submissions/: results[0].speakers[1]: speaker \"GHOST\" is not in the speakers list",
            ),
            (
                "anonymised data that is no JSON",
                |raw| raw.submissions.pages[0].1[0]["anonymised_data"] = json!("{oops"),
                "GET http://up/api/events/conf/submissions/: results[0].anonymised_data: expected a JSON object in a string",
            ),
            (
                "a slot of an unknown submission",
                |raw| raw.slots.pages[0].1[0]["submission"] = json!("NOPE"),
                "GET http://up/api/events/conf/slots/: results: a slot of submission \"NOPE\", which is not in the submissions list",
            ),
        ];
        for (what, spoil, expected) in cases {
            let mut raw = raw();
            spoil(&mut raw);
            let err = map_event(&raw, None, &mut BTreeMap::new()).unwrap_err();
            assert_eq!(err.message, expected, "{what}");
        }
    }
}
