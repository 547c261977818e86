//! The v1 reader's tests: an organiser's view of a small event, mapped.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::map::*;
use super::read::*;
use crate::sync::access;
use crate::sync::client::Client;
use crate::sync::upstream::Fetched;

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
            "logo": "http://up/media/conf/logo.png", "header_image": null, "og_image": null,
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
                                  "requires_access_code": true, "attendee_signup_required": false}],
            "tracks": [{"id": 2, "name": {"en": "Web"}, "description": {"en": "All about the web"},
                        "color": "#0b1914", "position": 3, "requires_access_code": true, "attendee_signup_required": false}],
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
                           "options": [{"id": 11, "answer": {"en": "Easy"}, "position": 1, "identifier": null},
                                       {"id": 12, "answer": {"en": "Hard"}, "position": 0, "identifier": null}],
                           "default_answer": null, "contains_personal_data": false,
                           "min_length": null, "max_length": null, "is_public": true,
                           "min_number": "1.000000", "max_number": "10.500000",
                           "min_date": "2025-01-01", "max_date": null,
                           "min_datetime": "2025-06-01T00:00:00+02:00", "max_datetime": null,
                           "icon": "http://up/media/conf/questions/6/icon.png", "identifier": null,
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
    let document = access::merge(&json!({}), users, vec![event]).unwrap();
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
    let document = access::merge(&json!({}), users, vec![event]).unwrap();
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
    let client = Client::new(
        &origin,
        "t",
        std::time::Duration::from_secs(5),
        &[],
        &Default::default(),
    )
    .unwrap();
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
    let document = access::merge(&json!({}), users, vec![event]).unwrap();
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

#[test]
fn pretalx_2026s_fields_are_mirrored() {
    let mut raw = raw();
    raw.event.1["og_image"] = json!("http://up/media/conf/og.png");
    let sub = &mut raw.submissions.pages[0].1[0];
    sub["created"] = json!("2025-03-01T10:00:00+01:00");
    sub["updated"] = json!("2025-03-02T10:00:00+01:00");
    sub["invitations"] = json!([{"id": 4, "email": "co@example.org",
                                 "created": "2025-03-01T11:00:00+01:00",
                                 "updated": "2025-03-01T11:00:00+01:00"}]);
    sub["attendee_signup_required"] = json!(null);
    sub["attendee_signup_capacity"] = json!(25);
    sub["signup_status"] = json!("open");
    raw.tracks.pages[0].1[0]["attendee_signup_required"] = json!(true);
    raw.submission_types.pages[0].1[0]["attendee_signup_required"] = json!(true);
    raw.questions.pages[0].1[0]["identifier"] = json!("LEVELQ12");
    if let Some(option) = raw.questions.pages[0].1[0]["options"].get_mut(0) {
        option["identifier"] = json!("OPT1");
    }
    let mut users = BTreeMap::new();
    let event = map_event(&raw, None, &mut users).unwrap();
    let document = access::merge(&json!({}), users, vec![event]).unwrap();
    let dataset = crate::dataset::validate::parse_value(&document).expect("valid");
    let event = &dataset.events[0];
    assert_eq!(
        event.og_image.as_deref(),
        Some("http://up/media/conf/og.png")
    );
    let sub = &event.submissions[0];
    assert_eq!(sub.created.to_rfc3339(), "2025-03-01T09:00:00+00:00");
    assert_eq!(
        sub.updated.map(|t| t.to_rfc3339()),
        Some("2025-03-02T09:00:00+00:00".to_string())
    );
    assert_eq!(
        (
            sub.invitations.len(),
            sub.invitations[0].id,
            sub.invitations[0].email.as_str()
        ),
        (1, 4, "co@example.org")
    );
    assert_eq!(
        sub.attendee_signup.as_deref(),
        Some(&crate::model::AttendeeSignup {
            required: None,
            capacity: Some(25),
            status: Some(crate::model::SignupStatus::Open)
        })
    );
    assert!(event.tracks[0].attendee_signup_required);
    assert!(event.submission_types[0].attendee_signup_required);
    let question = &event.questions[0];
    assert_eq!(question.identifier.as_deref(), Some("LEVELQ12"));
    if let Some(option) = question.options.first() {
        assert_eq!(option.identifier.as_deref(), Some("OPT1"));
    }
    // pretalx 2025 shows none of them: the defaults (the test above).
}
