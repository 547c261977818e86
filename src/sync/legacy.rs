//! Reads an event through the legacy pretalx API (pretalx 2024.x, and
//! confapi itself) and maps it to the dataset format.
//!
//! What the legacy API shows an organiser, and what it does not, is listed
//! in docs/sync.md; the gaps are filled from the access
//! file (`super::access`).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::client::Client;
use super::error::SyncError;
use super::mapping;
use super::upstream::{codes, fetch_event, fetch_list, Fetched, Item, SeenUser};

/// Everything read about one event.
pub struct RawEvent {
    pub event: (String, Value),
    pub submissions: Fetched,
    pub anonymised: Fetched,
    pub talks: Fetched,
    pub public_talks: Fetched,
    /// The anonymous questions list (of a public event): what tells which
    /// public questions are active.
    pub public_questions: Fetched,
    pub speakers: Fetched,
    pub questions: Fetched,
    pub answers: Fetched,
    pub reviews: Fetched,
    pub rooms: Fetched,
    pub tags: Fetched,
}

pub async fn read_event(
    client: &Client,
    slug: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<RawEvent, SyncError> {
    let base = format!("/api/events/{slug}");
    let (event_url, event) = fetch_event(client, &base, requests).await?;
    let list = |name: &str, anonymous: bool| {
        let path = format!("{base}/{name}");
        async move { fetch_list(client, &path, anonymous, requests).await }
    };
    // What the public sees tells whether the schedule is shown; a
    // non-public event shows the public nothing (403).
    let is_public = event.get("is_public").and_then(serde_json::Value::as_bool) == Some(true);
    let public = |name: &'static str| async move {
        if is_public {
            list(name, true).await
        } else {
            Ok(Fetched { pages: Vec::new() })
        }
    };
    // A few lists at a time: fast, and gentle on a slow upstream.
    let (submissions, anonymised, talks, public_talks, public_questions) = tokio::try_join!(
        // Every answer, also to inactive questions (shown only here).
        list("submissions/?questions=all", false),
        list("submissions/?anon=1", false),
        list("talks/", false),
        public("talks/"),
        public("questions/"),
    )?;
    let (speakers, questions, answers, reviews, rooms, tags) = tokio::try_join!(
        list("speakers/", false),
        list("questions/", false),
        list("answers/", false),
        list("reviews/", false),
        list("rooms/", false),
        list("tags/", false),
    )?;
    Ok(RawEvent {
        event: (event_url, event),
        submissions,
        anonymised,
        talks,
        public_talks,
        public_questions,
        speakers,
        questions,
        answers,
        reviews,
        rooms,
        tags,
    })
}

/// The answers pretalx 2024 shows only nested: its answers/ leaves out the
/// answers to inactive questions and to questions for reviewers, which
/// appear in the organisers' submissions (`?questions=all`) and in each
/// review. So a listed question that is not for reviewers and has such an
/// answer is inactive. A question not listed at all (a token that may not
/// see it) is known by id and text only: the rest takes the safe defaults
/// (not public, not shown to reviewers, optional; `choices` when its
/// answers name options, else `text`), inactive unless it asks reviewers.
fn nested_answers(raw: &RawEvent, lists: &mut mapping::Lists) -> Result<(), SyncError> {
    let mut answers: HashSet<i64> = HashSet::new();
    for answer in &lists.answers {
        answers.extend(answer["id"].as_i64());
    }
    let mut questions: BTreeMap<i64, Value> = BTreeMap::new();
    let listed: HashSet<i64> = lists
        .questions
        .iter()
        .filter_map(|q| q["id"].as_i64())
        .collect();
    let nested = raw
        .submissions
        .items()
        .map(|item| (item, "submission"))
        .chain(raw.reviews.items().map(|item| (item, "reviewer")));
    for (owner, target) in nested {
        if owner.value.get("answers").is_none() {
            continue;
        }
        for item in owner.list("answers")? {
            let id = item.i64("id")?;
            if !answers.insert(id) {
                continue;
            }
            let question = item.object("question")?;
            let question_id = question.i64("id")?;
            let mut option_ids = Vec::new();
            let mut options = Vec::new();
            for option in item.list("options")? {
                option_ids.push(option.i64("id")?);
                options.push(json!({"id": option.i64("id")?, "answer": option.raw("answer")?}));
            }
            if listed.contains(&question_id) {
                let listed = lists
                    .questions
                    .iter_mut()
                    .find(|q| q["id"] == question_id)
                    .expect("a listed question");
                if listed["target"] != "reviewer" {
                    listed["active"] = json!(false);
                }
            } else {
                let entry = questions.entry(question_id).or_insert_with(|| {
                    json!({"id": question_id, "variant": "text", "target": target,
                           "question": question.value["question"].clone(),
                           "question_required": "optional", "options": [],
                           "is_public": false, "is_visible_to_reviewers": false,
                           "active": target == "reviewer"})
                });
                let known = entry["options"].as_array_mut().expect("options is a list");
                for option in options {
                    if !known.iter().any(|o| o["id"] == option["id"]) {
                        known.push(option);
                    }
                }
                if !known.is_empty() {
                    entry["variant"] = json!("choices");
                }
            }
            let mut answer = mapping::answer(
                &item,
                id,
                question_id,
                item.str("answer")?.into(),
                item.opt_str("answer_file")?.map(str::to_string),
            )?;
            answer.insert("options".into(), json!(option_ids));
            lists.answers.push(Value::Object(answer));
        }
    }
    // After the listed ones, in the position order pretalx would give them.
    let next = lists.questions.len();
    for (offset, mut question) in questions.into_values().enumerate() {
        question["position"] = json!(next + offset);
        lists.questions.push(question);
    }
    Ok(())
}

/// Maps one event to its dataset document. `users` collects the speakers
/// seen; `reviewer_codes` resolves the reviewer names the API shows.
pub fn map_event(
    raw: &RawEvent,
    users: &mut BTreeMap<String, SeenUser>,
    reviewer_codes: &HashMap<String, Vec<String>>,
) -> Result<Map<String, Value>, SyncError> {
    let event = Item::event(&raw.event);
    let slug = event.str("slug")?.to_string();

    let visible_slot: HashSet<String> = codes(&raw.talks)?;
    let public_talks: HashSet<String> = codes(&raw.public_talks)?;
    let public_resources = shown_resources(&raw.public_talks)?;
    let is_public = event.bool("is_public")?;

    let mut types: BTreeMap<i64, Value> = BTreeMap::new();
    let mut tracks: BTreeMap<i64, Value> = BTreeMap::new();
    let mut anonymised: HashMap<String, (String, String, String)> = HashMap::new();
    for item in raw.anonymised.items() {
        anonymised.insert(
            item.str("code")?.to_string(),
            (
                item.str("title")?.into(),
                item.text("abstract")?,
                item.text("description")?,
            ),
        );
    }

    let public_questions: HashSet<i64> = raw
        .public_questions
        .items()
        .map(|item| item.i64("id"))
        .collect::<Result<_, _>>()?;

    let mut has_slots = false;
    let mut confirmed_visible = false;
    let mut lists = mapping::Lists::default();
    for item in raw.submissions.items() {
        let code = item.str("code")?.to_string();
        let duration = item.i64("duration")?;
        let type_id = item.i64("submission_type_id")?;
        types.entry(type_id).or_insert_with(|| {
            json!({"id": type_id, "name": item.value["submission_type"].clone(), "default_duration": duration})
        });
        let track_id = item.opt_i64("track_id")?;
        if let Some(id) = track_id {
            tracks
                .entry(id)
                .or_insert_with(|| json!({"id": id, "name": item.value["track"].clone()}));
        }
        let mut speakers = Vec::new();
        for speaker in item.list("speakers")? {
            let speaker_code = speaker.str("code")?.to_string();
            users.entry(speaker_code.clone()).or_insert(SeenUser {
                name: speaker.str("name")?.into(),
                email: speaker
                    .value
                    .get("email")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                avatar: speaker.opt_url("avatar")?,
                ..SeenUser::default()
            });
            speakers.push(Value::String(speaker_code));
        }
        let mut slots = Vec::new();
        if let Value::Object(_) = item.get("slot")? {
            let slot = item.object("slot")?;
            has_slots = true;
            let visible = visible_slot.contains(&code);
            if visible && item.str("state")? == "confirmed" {
                confirmed_visible = true;
            }
            slots.push(json!({
                "room": slot.opt_i64("room_id")?,
                "start": slot.raw("start")?,
                "end": slot.raw("end")?,
                "is_visible": visible,
            }));
        }
        let mut resources = Vec::new();
        for resource in item.list("resources")? {
            let link = resource.str("resource")?;
            let description = resource.text("description")?;
            // Public only where the public is shown it: the legacy API does
            // not say, and a resource no anonymous caller sees yet (of a
            // proposal, of a non-public event) stays private until it is.
            let shown = public_resources.contains(&(code.as_str(), link, description.clone()));
            resources.push(json!({
                "resource": link,
                "description": description,
                "is_public": shown,
            }));
        }
        // The anonymised texts, where they differ from the real ones
        // (an equal text and "not anonymised" look the same to every reader).
        let real = (
            item.str("title")?.to_string(),
            item.text("abstract")?,
            item.text("description")?,
        );
        let anon = anonymised.get(&code).and_then(|(t, a, d)| {
            let pick = |anon: &str, real: &str| {
                if anon == real {
                    String::new()
                } else {
                    anon.to_string()
                }
            };
            let texts = (pick(t, &real.0), pick(a, &real.1), pick(d, &real.2));
            (!(texts.0.is_empty() && texts.1.is_empty() && texts.2.is_empty()))
                .then(|| json!({"title": texts.0, "abstract": texts.1, "description": texts.2}))
        });
        let submission = mapping::Submission {
            code,
            title: real.0,
            speakers,
            submission_type: type_id,
            track: json!(track_id),
            state: item.str("state")?.into(),
            pending_state: item.raw("pending_state")?,
            abstract_: real.1,
            description: real.2,
            notes: item.text("notes")?,
            internal_notes: item.text("internal_notes")?,
            duration,
            slot_count: item.i64("slot_count")?,
            do_not_record: item.raw("do_not_record")?,
            is_featured: item.raw("is_featured")?,
            content_locale: item.str("content_locale")?.into(),
            image: item.opt_str("image")?.map(str::to_string),
            created: json!(item.str("created")?),
            tags: item.ids("tag_ids")?,
            resources,
            anonymised: anon.unwrap_or(Value::Null),
            slots,
        };
        lists.submissions.push(submission.into_value());
    }

    for item in raw.speakers.items() {
        lists.speakers.push(mapping::speaker(
            &item,
            users,
            |item| item.opt_url("avatar"),
            |item| item.text("biography"),
            availabilities,
        )?);
    }

    for (position, item) in raw.questions.items().enumerate() {
        let options = mapping::question_options(&item)?;
        // pretalx 2024 does not show them (confapi does): no limits.
        let question_tracks = item.ids_or_none("tracks")?;
        let question_types = item.ids_or_none("submission_types")?;
        for id in &question_tracks {
            tracks
                .entry(*id)
                .or_insert_with(|| json!({"id": id, "name": {}}));
        }
        for id in &question_types {
            types
                .entry(*id)
                .or_insert_with(|| json!({"id": id, "name": {}}));
        }
        let mut question = mapping::question(&item, options)?;
        // Organisers are shown questions in position order; the numbers
        // themselves are not shown.
        question.insert("position".into(), json!(position));
        // Whether a question is active is not shown either; the public is
        // shown the active public questions of a public event (while its
        // schedule is public), so a public one it is not shown is inactive.
        // Of a non-public event the public sees nothing: active, as pretalx
        // makes questions, unless the access file says otherwise.
        if is_public && item.bool("is_public")? {
            let id = item.i64("id")?;
            question.insert("active".into(), json!(public_questions.contains(&id)));
        }
        question.insert("tracks".into(), json!(question_tracks));
        question.insert("submission_types".into(), json!(question_types));
        lists.questions.push(Value::Object(question));
    }

    for item in raw.answers.items() {
        let mut options = Vec::new();
        for option in item.list("options")? {
            options.push(option.i64("id")?);
        }
        let mut answer = mapping::answer(
            &item,
            item.i64("id")?,
            item.object("question")?.i64("id")?,
            item.str("answer")?.into(),
            item.opt_str("answer_file")?.map(str::to_string),
        )?;
        answer.insert("options".into(), json!(options));
        lists.answers.push(Value::Object(answer));
    }

    nested_answers(raw, &mut lists)?;

    for item in raw.reviews.items() {
        // The legacy API names the reviewer, it does not give their code.
        let name = item.opt_str("user")?.ok_or_else(|| {
            SyncError::at_path(
                item.url,
                &format!("{}.user", item.path),
                "the reviewer's name is hidden from this token",
            )
        })?;
        let code = match reviewer_codes.get(name).map(Vec::as_slice) {
            Some([code]) => code.clone(),
            Some([]) | None => {
                return Err(SyncError::at_path(
                    item.url,
                    &format!("{}.user", item.path),
                    &format!("no user named {name:?}: add the reviewer to the access file's users"),
                ))
            }
            Some(_) => {
                return Err(SyncError::at_path(
                    item.url,
                    &format!("{}.user", item.path),
                    &format!("several users are named {name:?}; reviews cannot be attributed"),
                ))
            }
        };
        lists.reviews.push(mapping::review(
            item.i64("id")?,
            item.str("submission")?,
            code,
            item.text("text")?,
            mapping::decimal(&item, "score")?,
            json!(item.str("created")?),
            json!(item.str("updated")?),
        ));
    }

    for item in raw.rooms.items() {
        lists.rooms.push(mapping::room(
            &item,
            |item| item.opt_str("guid"),
            |item, key| item.raw(key),
            availabilities,
        )?);
    }

    for item in raw.tags.items() {
        // pretalx 2024 does not show whether a tag is public: not public.
        lists.tags.push(mapping::tag(
            &item,
            |item, key| item.raw(key),
            |item| Ok(json!(item.bool_or("is_public", false)?)),
        )?);
    }

    // The schedule's version and release time are not in the legacy API;
    // its existence shows in the slots, its publicity in what the public sees.
    let schedule = has_slots.then(|| json!({"version": "mirrored", "published": format!("{}T00:00:00Z", event.str("date_from").unwrap_or("2000-01-01"))}));
    let show_schedule = !(public_talks.is_empty() && is_public && confirmed_visible);

    lists.types = types.into_values().collect();
    lists.tracks = tracks.into_values().collect();
    mapping::event(
        &event,
        slug,
        is_public,
        Map::new(),
        show_schedule,
        schedule.unwrap_or(Value::Null),
        lists,
    )
}

/// The resources a list shows, by submission code, link and description
/// (`null`, as pretalx 2024 sends an empty one, is `""`).
fn shown_resources(list: &Fetched) -> Result<HashSet<(&str, &str, String)>, SyncError> {
    let mut shown = HashSet::new();
    for item in list.items() {
        let code = item.str("code")?;
        for resource in item.list("resources")? {
            shown.insert((
                code,
                resource.str("resource")?,
                resource.text("description")?,
            ));
        }
    }
    Ok(shown)
}

/// The legacy API shows the availabilities' ids.
fn availabilities(item: &Item) -> Result<Vec<Value>, SyncError> {
    mapping::availabilities(item, |a| a.i64("id"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(name: &str, results: Value) -> Fetched {
        let Value::Array(results) = results else {
            panic!("results must be a list")
        };
        Fetched {
            pages: vec![(format!("http://up/api/events/conf/{name}/"), results)],
        }
    }

    fn question(id: i64, is_public: bool) -> Value {
        json!({
            "id": id, "variant": "string", "target": "submission", "question": {"en": "Q?"},
            "help_text": {}, "question_required": "optional", "deadline": null,
            "freeze_after": null, "options": [], "default_answer": null,
            "contains_personal_data": false, "min_length": null, "max_length": null,
            "is_public": is_public, "is_visible_to_reviewers": true,
            "tracks": [], "submission_types": [],
        })
    }

    /// A public event as the legacy API shows it to an organiser: one talk
    /// with a public and a private resource, one proposal with a resource,
    /// and three questions (public and shown, public and not shown, not
    /// public), and what the public is shown of it.
    fn raw() -> RawEvent {
        let submission = |code: &str, state: &str, resources: Value| {
            json!({
                "code": code, "title": "T", "speakers": [], "submission_type": {"en": "Talk"},
                "submission_type_id": 1, "track": null, "track_id": null, "state": state,
                "pending_state": null, "abstract": "", "description": "", "notes": "",
                "internal_notes": "", "duration": 30, "slot_count": 1, "do_not_record": false,
                "is_featured": false, "content_locale": "en", "image": null,
                "created": "2025-01-01T00:00:00Z", "tag_ids": [], "resources": resources,
                "slot": null,
            })
        };
        let slides = json!({"resource": "http://up/slides.pdf", "description": "Slides"});
        let notes = json!({"resource": "http://up/notes", "description": "Notes"});
        let talk = submission("TALK1", "confirmed", json!([slides, notes]));
        let proposal = submission("PROP1", "submitted", json!([slides]));
        let mut public_talk = talk.clone();
        public_talk["resources"] = json!([slides]);
        RawEvent {
            event: (
                "http://up/api/events/conf/".into(),
                json!({"name": {"en": "Conf"}, "slug": "conf", "is_public": true,
                       "date_from": "2025-06-01", "date_to": "2025-06-02", "timezone": "UTC"}),
            ),
            submissions: list("submissions", json!([talk.clone(), proposal])),
            anonymised: list("submissions", json!([])),
            talks: list("talks", json!([talk])),
            public_talks: list("talks", json!([public_talk])),
            public_questions: list("questions", json!([question(1, true)])),
            speakers: list("speakers", json!([])),
            questions: list(
                "questions",
                json!([question(1, true), question(2, true), question(3, false)]),
            ),
            answers: list("answers", json!([])),
            reviews: list("reviews", json!([])),
            rooms: list("rooms", json!([])),
            tags: list("tags", json!([])),
        }
    }

    fn map(raw: &RawEvent) -> Map<String, Value> {
        map_event(raw, &mut BTreeMap::new(), &HashMap::new()).unwrap()
    }

    fn field(event: &Map<String, Value>, list: &str, key: &str) -> Vec<Value> {
        event[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item[key].clone())
            .collect()
    }

    #[test]
    fn a_resource_is_public_only_where_the_public_is_shown_it() {
        let event = map(&raw());
        assert_eq!(
            field(&event, "submissions", "resources"),
            vec![
                json!([
                    {"resource": "http://up/slides.pdf", "description": "Slides", "is_public": true},
                    {"resource": "http://up/notes", "description": "Notes", "is_public": false},
                ]),
                // The same link on a proposal the public does not see.
                json!([{"resource": "http://up/slides.pdf", "description": "Slides", "is_public": false}]),
            ]
        );
    }

    #[test]
    fn a_public_question_the_public_is_not_shown_is_inactive() {
        let event = map(&raw());
        // Question 3 is not public: the public view tells nothing about it.
        assert_eq!(
            field(&event, "questions", "active"),
            vec![json!(true), json!(false), Value::Null]
        );
        // Of a non-public event the public sees nothing, so nothing is inferred.
        let mut raw = raw();
        raw.event.1["is_public"] = json!(false);
        raw.public_talks = list("talks", json!([]));
        raw.public_questions = list("questions", json!([]));
        let event = map(&raw);
        assert_eq!(
            field(&event, "questions", "active"),
            vec![Value::Null, Value::Null, Value::Null]
        );
        assert_eq!(
            field(&event, "submissions", "resources")[0][0]["is_public"],
            json!(false)
        );
    }

    #[test]
    fn the_mapped_event_validates_like_an_import() {
        let document = json!({"format": "cfp-dataset", "version": 1, "events": [map(&raw())]});
        let dataset = crate::dataset::validate::parse_value(&document).unwrap_or_else(|problems| {
            panic!(
                "{:?}",
                problems.iter().map(|p| p.to_string()).collect::<Vec<_>>()
            )
        });
        let questions = &dataset.events[0].questions;
        assert_eq!(
            questions
                .iter()
                .map(|q| (q.id, q.active))
                .collect::<Vec<_>>(),
            vec![(1, true), (2, false), (3, true)]
        );
    }

    /// A small event as pretalx 2024.3.1's legacy API shows it to an
    /// administrator (shapes from shared/spec/reference-behaviour.md,
    /// appendix A and sections 3.6-3.13): `null` for empty notes, texts,
    /// biographies and review texts, decimal strings for scores, `""` for a
    /// speaker without avatar, questions without `tracks` and
    /// `submission_types`, tags without `is_public`, plain strings for the
    /// names of types, tracks and rooms, and `favourite_count`.
    fn raw_2024() -> RawEvent {
        let speaker = json!({"code": "DMSZJB", "name": "Jane Speaker", "biography": null,
                             "avatar": null, "email": "jane@speaker.org"});
        let talk = json!({
            "code": "A9WPEM", "speakers": [speaker], "title": "Lametta im Wandel der Zeiten",
            "submission_type": "Workshop", "submission_type_id": 2, "track": "Test Track",
            "track_id": 1, "state": "confirmed", "abstract": null,
            "description": "Früher war es mehr.", "duration": 60, "slot_count": 1,
            "do_not_record": false, "is_featured": false, "content_locale": "en",
            "slot": {"room_id": 1, "room": "Testroom", "start": "2026-11-21T00:00:00Z",
                     "end": "2026-11-21T01:00:00Z"},
            "image": null,
            "resources": [{"resource": "http://up/media/conf/r.txt", "description": null}],
            "answers": [],
        });
        // The organiser's view adds these.
        let mut submission = talk.clone();
        submission.as_object_mut().unwrap().extend(
            json!({"created": "2026-11-21T05:23:26.953942+00:00", "pending_state": null,
                   "notes": null,
                   "internal_notes": "Ich habe gestern mit dem Redner telefoniert.",
                   "tags": ["testtag"], "tag_ids": [1], "favourite_count": 0})
            .as_object()
            .unwrap()
            .clone(),
        );
        RawEvent {
            event: (
                "http://up/api/events/conf/".into(),
                json!({"name": {"en": "Conf"}, "slug": "conf", "is_public": true,
                       "date_from": "2026-11-21", "date_to": "2026-11-24", "timezone": "UTC",
                       "urls": {"base": "http://up/conf/", "schedule": "http://up/conf/schedule/",
                                "login": "http://up/conf/login/",
                                "feed": "http://up/conf/schedule/feed.xml"}}),
            ),
            submissions: list("submissions", json!([submission])),
            anonymised: list(
                "submissions",
                json!([{"code": "A9WPEM", "title": "Lametta im Wandel der Zeiten",
                        "abstract": null, "description": "Früher war es mehr."}]),
            ),
            talks: list("talks", json!([talk])),
            public_talks: list("talks", json!([talk])),
            // The question is not public: the public is shown none.
            public_questions: list("questions", json!([])),
            speakers: list(
                "speakers",
                json!([{"code": "DMSZJB", "name": "Jane Speaker", "biography": null,
                        "submissions": ["A9WPEM"], "avatar": "", "answers": [],
                        "email": "jane@speaker.org",
                        "availabilities": [{"id": 1, "start": "2026-11-21T00:00:00Z",
                                            "end": "2026-11-21T08:00:00Z", "allDay": false}]},
                       // A profile without a submission: only seen here.
                       {"code": "SOLO12", "name": "Solo Speaker", "biography": "Hi.",
                        "submissions": [], "avatar": "", "answers": [],
                        "email": "solo@speaker.org", "availabilities": []}]),
            ),
            questions: list(
                "questions",
                json!([{"id": 2, "variant": "choices",
                        "question": {"en": "So, on a scale from 1–100, how much do you like red?"},
                        "question_required": "optional", "deadline": null, "required": false,
                        "read_only": null, "freeze_after": null, "target": "submission",
                        "options": [{"id": 1, "answer": {"en": "very"}}], "help_text": null,
                        "default_answer": null, "contains_personal_data": true,
                        "min_length": null, "max_length": null, "is_public": false,
                        "is_visible_to_reviewers": true}]),
            ),
            answers: list(
                "answers",
                json!([{"id": 3, "question": {"id": 2, "question": {"en": "How much?"}},
                        "answer": "", "answer_file": null, "submission": "A9WPEM",
                        "review": null, "person": null,
                        "options": [{"id": 1, "answer": {"en": "very"}}]}]),
            ),
            reviews: list(
                "reviews",
                json!([{"id": 1, "submission": "A9WPEM", "text": null, "score": "1.00",
                        "created": "2026-11-21T05:24:11.649651Z",
                        "updated": "2026-11-21T05:24:11.649662Z",
                        "answers": [], "user": "Review User"}]),
            ),
            rooms: list(
                "rooms",
                json!([{"id": 1, "guid": "77b84fa7-cecf-5b70-baf9-7cd0a9675106",
                        "name": {"en": "Testroom"}, "description": null, "capacity": null,
                        "position": 0, "url": "/orga/event/conf/schedule/rooms/1/",
                        "speaker_info": null, "availabilities": []}]),
            ),
            tags: list(
                "tags",
                json!([{"id": 1, "tag": "testtag", "description": {"en": ""}, "color": "#00ff00"}]),
            ),
        }
    }

    fn reviewers_2024() -> HashMap<String, Vec<String>> {
        HashMap::from([("Review User".to_string(), vec!["REV1".to_string()])])
    }

    #[test]
    fn maps_what_pretalx_2024_sends() {
        let mut users = BTreeMap::new();
        let event = map_event(&raw_2024(), &mut users, &reviewers_2024()).unwrap();
        let submission = &event["submissions"][0];
        // null where the dataset has an empty text: the empty text.
        assert_eq!(
            (
                &submission["notes"],
                &submission["internal_notes"],
                &submission["abstract"]
            ),
            (
                &json!(""),
                &json!("Ich habe gestern mit dem Redner telefoniert."),
                &json!("")
            )
        );
        assert_eq!(submission["anonymised"], json!(null));
        assert_eq!(
            submission["resources"],
            json!([{"resource": "http://up/media/conf/r.txt", "description": "",
                    "is_public": true}])
        );
        assert_eq!(
            event["reviews"][0],
            json!({"id": 1, "submission": "A9WPEM", "user": "REV1", "text": "", "score": 1.0,
                   "created": "2026-11-21T05:24:11.649651Z",
                   "updated": "2026-11-21T05:24:11.649662Z"})
        );
        assert_eq!(
            event["speakers"][0],
            json!({"user": "DMSZJB", "biography": "",
                   "availabilities": [{"id": 1, "start": "2026-11-21T00:00:00Z",
                                       "end": "2026-11-21T08:00:00Z"}]})
        );
        // Fields pretalx 2024 does not send take the dataset's defaults: a
        // question limited to no track or type, a tag that is not public.
        let question = &event["questions"][0];
        assert_eq!(
            (&question["tracks"], &question["submission_types"]),
            (&json!([]), &json!([]))
        );
        assert_eq!(event["tags"][0]["is_public"], json!(false));
        assert_eq!(event["tags"][0]["description"], json!({"en": ""}));
        // The speakers endpoint's "" is no avatar.
        assert_eq!(
            (
                users["SOLO12"].avatar.as_deref(),
                users["SOLO12"].name.as_str()
            ),
            (None, "Solo Speaker")
        );
        assert_eq!(
            event["submission_types"],
            json!([{"id": 2, "name": "Workshop", "default_duration": 60}])
        );
    }

    #[test]
    fn the_mapped_2024_event_validates_like_an_import() {
        let mut users = BTreeMap::new();
        let event = map_event(&raw_2024(), &mut users, &reviewers_2024()).unwrap();
        let access = json!({"users": [{"code": "REV1", "name": "Review User",
                                       "email": "review@example.org"}]});
        let document = super::super::access::merge(&access, users, vec![event]).unwrap();
        crate::dataset::validate::parse_value(&document).unwrap_or_else(|problems| {
            panic!(
                "{:?}",
                problems.iter().map(|p| p.to_string()).collect::<Vec<_>>()
            )
        });
    }

    /// pretalx 2024's questions/ and answers/ leave out inactive questions
    /// and questions to reviewers; their answers it shows only nested: in
    /// the organisers' submissions (`?questions=all`) and in each review.
    #[test]
    fn answers_pretalx_2024_shows_only_nested_are_mirrored_with_their_questions() {
        let mut raw = raw_2024();
        let inactive = json!({"id": 7, "question": {"id": 5, "question": {"en": "Retired?"}},
                              "answer": "yes", "answer_file": null, "submission": "A9WPEM",
                              "review": null, "person": null, "options": []});
        let listed = raw.answers.pages[0].1[0].clone();
        // An answer to the listed question 2 that answers/ leaves out: 2 is inactive.
        let mut to_listed = listed.clone();
        to_listed["id"] = json!(9);
        raw.submissions.pages[0].1[0]["answers"] = json!([listed, inactive, to_listed]);
        let on_review = json!({"id": 8, "question": {"id": 6, "question": {"en": "Confident?"}},
                               "answer": "Very", "answer_file": null, "submission": null,
                               "review": 1, "person": null,
                               "options": [{"id": 4, "answer": {"en": "Very"}}]});
        raw.reviews.pages[0].1[0]["answers"] = json!([on_review]);
        let mut users = BTreeMap::new();
        let event = map_event(&raw, &mut users, &reviewers_2024()).unwrap();
        assert_eq!(
            field(&event, "answers", "id"),
            vec![json!(3), json!(7), json!(9), json!(8)]
        );
        assert_eq!(
            event["answers"][1],
            json!({"id": 7, "question": 5, "answer": "yes", "answer_file": null,
                   "submission": "A9WPEM", "person": null, "review": null, "options": []})
        );
        assert_eq!(
            event["answers"][3],
            json!({"id": 8, "question": 6, "answer": "Very", "answer_file": null,
                   "submission": null, "person": null, "review": 1, "options": [4]})
        );
        // What the nesting does not say is the safe default: not public,
        // not shown to reviewers, optional.
        let questions: Vec<&Value> = event["questions"].as_array().unwrap().iter().collect();
        assert_eq!(
            field(&event, "questions", "id"),
            vec![json!(2), json!(5), json!(6)]
        );
        assert_eq!(questions[0]["active"], json!(false));
        assert_eq!(
            (
                &questions[1]["target"],
                &questions[1]["active"],
                &questions[1]["variant"]
            ),
            (&json!("submission"), &json!(false), &json!("text"))
        );
        assert_eq!(
            (
                &questions[2]["target"],
                &questions[2]["active"],
                &questions[2]["variant"]
            ),
            (&json!("reviewer"), &json!(true), &json!("choices"))
        );
        assert_eq!(
            questions[2]["options"],
            json!([{"id": 4, "answer": {"en": "Very"}}])
        );
        for question in &questions[1..] {
            assert_eq!(
                (&question["is_public"], &question["is_visible_to_reviewers"]),
                (&json!(false), &json!(false)),
                "{question}"
            );
        }
        // And it validates as an import.
        let access = json!({"users": [{"code": "REV1", "name": "Review User",
                                       "email": "review@example.org"}]});
        let document = super::super::access::merge(&access, users, vec![event]).unwrap();
        crate::dataset::validate::parse_value(&document).unwrap_or_else(|problems| {
            panic!(
                "{:?}",
                problems.iter().map(|p| p.to_string()).collect::<Vec<_>>()
            )
        });
    }

    #[test]
    fn a_null_anonymised_text_is_no_anonymised_text() {
        let mut raw = raw_2024();
        raw.anonymised.pages[0].1[0] = json!({"code": "A9WPEM", "title": "Anonymous talk", "abstract": null,
                   "description": null});
        let event = map_event(&raw, &mut BTreeMap::new(), &reviewers_2024()).unwrap();
        assert_eq!(
            event["submissions"][0]["anonymised"],
            json!({"title": "Anonymous talk", "abstract": "", "description": ""})
        );
    }

    #[test]
    fn malformed_answers_still_name_the_url_and_json_path() {
        type Spoil = fn(&mut RawEvent);
        let cases: [(&str, Spoil, &str); 7] = [
            (
                "notes that are neither text nor null",
                |raw| raw.submissions.pages[0].1[0]["notes"] = json!(3),
                "GET http://up/api/events/conf/submissions/: results[0].notes: expected a string or null",
            ),
            (
                "notes left out: not an organiser's view",
                |raw| {
                    raw.submissions.pages[0].1[0]
                        .as_object_mut()
                        .unwrap()
                        .remove("notes");
                },
                "GET http://up/api/events/conf/submissions/: results[0].notes: missing",
            ),
            (
                "a review text that is no text",
                |raw| raw.reviews.pages[0].1[0]["text"] = json!(["good"]),
                "GET http://up/api/events/conf/reviews/: results[0].text: expected a string or null",
            ),
            (
                "a score that is no number",
                |raw| raw.reviews.pages[0].1[0]["score"] = json!("high"),
                "GET http://up/api/events/conf/reviews/: results[0].score: expected a decimal number",
            ),
            (
                "question tracks that are no list",
                |raw| raw.questions.pages[0].1[0]["tracks"] = json!("all"),
                "GET http://up/api/events/conf/questions/: results[0].tracks: expected a list",
            ),
            (
                "a tag's is_public that is no boolean",
                |raw| raw.tags.pages[0].1[0]["is_public"] = json!("yes"),
                "GET http://up/api/events/conf/tags/: results[0].is_public: expected a boolean",
            ),
            (
                "an avatar that is no URL",
                |raw| raw.speakers.pages[0].1[0]["avatar"] = json!(false),
                "GET http://up/api/events/conf/speakers/: results[0].avatar: expected a URL, \"\" or null",
            ),
        ];
        for (what, spoil, expected) in cases {
            let mut raw = raw_2024();
            spoil(&mut raw);
            let err = map_event(&raw, &mut BTreeMap::new(), &reviewers_2024()).unwrap_err();
            assert_eq!(err.message, expected, "{what}");
        }
    }
}
