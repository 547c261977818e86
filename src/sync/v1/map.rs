//! Mapping what `read` read to the dataset document.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::read::{releases, RawEvent, Releases, ScheduleDetail};
use crate::sync::error::SyncError;
use crate::sync::mapping;
use crate::sync::upstream::{codes, Fetched, Item, SeenUser};

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
            continue; // a break: see the exports call site in sync::run_once
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
            // pretalx 2026.1 shows organisers `created`; older releases
            // only in the legacy format.
            created: item
                .value
                .get("created")
                .filter(|v| v.is_string())
                .or_else(|| created.get(&code))
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
        pretalx_2026_submission_fields(&item, &mut submission)?;
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
            option["identifier"] = identifier(&raw);
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
        question.insert("identifier".into(), identifier(&item));
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
            "attendee_signup_required": or(&item, "attendee_signup_required", json!(false)),
        }));
    }

    for item in raw.submission_types.items() {
        lists.types.push(json!({
            "id": item.i64("id")?,
            "name": item.raw("name")?,
            "default_duration": item.i64("default_duration")?,
            "deadline": or(&item, "deadline", Value::Null),
            "requires_access_code": or(&item, "requires_access_code", json!(false)),
            "attendee_signup_required": or(&item, "attendee_signup_required", json!(false)),
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
    for key in ["logo", "header_image", "og_image", "custom_domain"] {
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

/// A question's or option's `identifier` (pretalx 2026.1; null before, or "").
fn identifier(item: &Item) -> Value {
    match item.value.get("identifier") {
        Some(Value::String(s)) if !s.is_empty() => json!(s),
        _ => Value::Null,
    }
}

/// What pretalx 2026 added to a submission (absent before: the defaults):
/// `updated` and `invitations` (the organisers' view; objects, as the
/// sync expands them, or bare ids, whose emails the mirror cannot know and
/// so leaves out) and the attendee sign-up.
fn pretalx_2026_submission_fields(item: &Item, submission: &mut Value) -> Result<(), SyncError> {
    if let Some(updated) = item.value.get("updated").filter(|v| v.is_string()) {
        submission["updated"] = updated.clone();
    }
    if let Some(Value::Array(invitations)) = item.value.get("invitations") {
        let objects: Vec<Value> = invitations
            .iter()
            .filter(|i| i.is_object())
            .map(|i| {
                json!({"id": i.get("id"), "email": i.get("email"),
                       "created": i.get("created").cloned().unwrap_or(Value::Null),
                       "updated": i.get("updated").cloned().unwrap_or(Value::Null)})
            })
            .collect();
        if !objects.is_empty() {
            submission["invitations"] = Value::Array(objects);
        }
    }
    let keys = [
        "attendee_signup_required",
        "attendee_signup_capacity",
        "signup_status",
    ];
    if keys
        .iter()
        .any(|k| item.value.get(*k).is_some_and(|v| !v.is_null()))
    {
        submission["attendee_signup"] = json!({
            "required": or(item, "attendee_signup_required", Value::Null),
            "capacity": or(item, "attendee_signup_capacity", Value::Null),
            "status": or(item, "signup_status", Value::Null),
        });
    }
    Ok(())
}
