//! What pretalx's v1 API shows (issue 28): optional, with defaults.

use super::hostile::junk_everywhere;
use super::*;

/// `base()` with every field the dataset gained for pretalx's v1 API, none
/// at its default.
fn v1_doc() -> Value {
    let mut doc = base();
    let e = &mut doc["events"][0];
    e["locales"] = json!(["en", "de"]);
    e["content_locales"] = json!(["en", "de", "fr"]);
    e["email"] = json!("orga@democon.example");
    e["logo"] = json!("https://democon.example/logo.png");
    e["header_image"] = json!("https://democon.example/header.jpg");
    e["custom_domain"] = json!("https://democon.example");
    e["schedule"]["id"] = json!(3);
    e["schedule"]["comment"] = json!({"en": "Final", "de": "Endgültig"});
    e["older_schedules"] = json!([{
        "id": 1, "version": "0.9", "published": "2026-10-01T10:00:00+02:00",
        "comment": "First draft",
        "slots": [
            {"id": 11, "submission": "TALK1", "room": 1, "start": "2026-11-20T10:00:00+01:00",
             "end": "2026-11-20T10:45:00+01:00", "is_visible": true},
            {"id": 12, "submission": null, "room": 1, "start": "2026-11-20T12:00:00+01:00",
             "end": "2026-11-20T13:00:00+01:00", "is_visible": true,
             "description": {"en": "Lunch"}}
        ]
    }]);
    e["wip_schedule"] = json!({"id": 4, "comment": {"en": "Moving things"}, "slots": [
        {"id": 21, "submission": "TALK2", "room": null, "start": null, "end": null,
         "is_visible": false}
    ]});
    e["score_categories"] = json!([
        {"id": 1, "name": "Quality", "weight": "2.0", "required": true, "limit_tracks": [1]},
        {"id": 2, "name": {"en": "Fit"}, "active": false, "is_independent": true}
    ]);
    e["organiser"] = json!("democon-org");
    e["teams"][0]["id"] = json!(1);
    e["teams"][0]["can_change_teams"] = json!(true);
    e["teams"][0]["limit_events"] = json!(["democon", "othercon"]);
    e["rooms"][0]["uuid"] = json!("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    e["tracks"][0]["requires_access_code"] = json!(true);
    e["submission_types"][0]["deadline"] = json!("2026-09-15T23:59:00+02:00");
    e["submission_types"][0]["requires_access_code"] = json!(true);
    e["questions"][0]["options"][0]["position"] = json!(5);
    e["questions"][0]["icon"] = json!("https://democon.example/level.svg");
    e["questions"][1]["min_date"] = json!("2026-01-01");
    e["questions"][1]["max_date"] = json!("2026-12-31");
    e["questions"][1]["min_datetime"] = json!("2026-01-01T00:00:00Z");
    e["questions"][1]["max_datetime"] = json!("2026-12-31T12:00:00+01:00");
    e["questions"][2]["min_number"] = json!("1");
    e["questions"][2]["max_number"] = json!("5.50");
    e["speakers"][0]["has_arrived"] = json!(true);
    e["speakers"][0]["internal_notes"] = json!("Needs a ramp");
    e["submissions"][0]["invitation_token"] = json!("inv0token0abc");
    e["submissions"][0]["access_code"] = json!(4);
    e["submissions"][0]["review_code"] = json!("rev0code0xyz");
    e["submissions"][0]["resources"][0]["id"] = json!(7);
    e["reviews"][0]["scores"] = json!([
        {"id": 5, "category": 1, "value": "2", "label": "good"},
        {"id": 8, "category": 2, "value": "-0.5", "label": null}
    ]);
    doc
}

#[test]
fn existing_datasets_export_none_of_the_new_fields() {
    // (What storage writes for democon.json is held by
    // storage::records' `existing_datasets_keep_their_record_bodies`.)
    let d = parse_str(&democon_text()).expect("democon.json");
    let exported = export::to_json(&d).to_string();
    for key in [
        "\"locales\"",
        "\"content_locales\"",
        "\"email\":\"\"",
        "\"logo\"",
        "\"header_image\"",
        "\"custom_domain\"",
        "\"older_schedules\"",
        "\"wip_schedule\"",
        "\"score_categories\"",
        "\"uuid\"",
        "\"requires_access_code\"",
        "\"deadline\":null,\"requires",
        "\"min_number\"",
        "\"icon\"",
        "\"has_arrived\"",
        "\"invitation_token\"",
        "\"scores\"",
        "\"comment\"",
    ] {
        assert!(!exported.contains(key), "{key} written for democon.json");
    }
}

#[test]
fn v1_fields_have_their_defaults() {
    let d = parse_ok(&base());
    let e = &d.events[0];
    assert_eq!(
        (e.locales(), e.content_locales()),
        (&["en".to_string()][..], &["en".to_string()][..])
    );
    assert!(e.locales.is_empty() && e.content_locales.is_empty() && e.email.is_empty());
    assert_eq!(
        (&e.logo, &e.header_image, &e.custom_domain),
        (&None, &None, &None)
    );
    assert!(e.older_schedules.is_empty() && e.wip_schedule.is_none());
    assert!(e.score_categories.is_empty());
    let schedule = e.schedule.as_ref().expect("schedule");
    assert_eq!((schedule.id, schedule.comment.is_empty()), (None, true));
    let room = &e.rooms[0];
    assert_eq!(room.uuid, None);
    assert_eq!(
        room.guid_or_derived("democon"),
        "fdc7b5b3-7ef7-59a8-81b6-9b603297b8a1"
    );
    let track = &e.tracks[0];
    assert!(!track.requires_access_code);
    let kind = &e.submission_types[0];
    assert_eq!((kind.deadline, kind.requires_access_code), (None, false));
    for q in &e.questions {
        assert_eq!((&q.min_number, &q.max_number), (&None, &None));
        assert_eq!((q.min_date, q.max_date), (None, None));
        assert_eq!(
            (q.min_datetime, q.max_datetime, &q.icon),
            (None, None, &None)
        );
        for (i, option) in q.options.iter().enumerate() {
            assert_eq!((option.position, option.position_at(i)), (None, i as i64));
        }
    }
    assert!(e
        .speakers
        .iter()
        .all(|p| !p.has_arrived && p.internal_notes.is_empty()));
    for s in &e.submissions {
        assert_eq!(
            (&s.invitation_token, &s.access_code, &s.review_code),
            (&None, &None, &None)
        );
        assert!(s.resources.iter().all(|r| r.id.is_none()));
    }
    assert!(e.reviews[0].scores.is_empty());

    // A room without a guid: the exports' derived one.
    let mut doc = base();
    remove(&mut doc, "/events/0/rooms/0/guid");
    let room = &parse_ok(&doc).events[0].rooms[0];
    assert_eq!(
        room.guid_or_derived("DemoCon"),
        // exports::text::derive_uuid(&["democon", "room", "1"]), which the
        // exports' test of it holds equal.
        "979c9e48-39ba-509f-9dcd-f7fd199a0521"
    );
}

#[test]
fn v1_fields_are_read() {
    let d = parse_ok(&v1_doc());
    let e = &d.events[0];
    assert_eq!(e.locales(), ["en", "de"]);
    assert_eq!(e.content_locales(), ["en", "de", "fr"]);
    assert_eq!(e.email, "orga@democon.example");
    assert_eq!(e.logo.as_deref(), Some("https://democon.example/logo.png"));
    assert_eq!(e.custom_domain.as_deref(), Some("https://democon.example"));
    let schedule = e.schedule.as_ref().expect("schedule");
    assert_eq!(schedule.id, Some(3));
    // (json! sorts the keys.)
    assert_eq!(
        schedule.comment.texts().collect::<Vec<_>>(),
        ["Endgültig", "Final"]
    );
    let older = &e.older_schedules[0];
    assert_eq!((older.id, older.version.as_str()), (Some(1), "0.9"));
    assert_eq!(older.published, ts("2026-10-01T08:00:00Z"));
    assert_eq!(older.comment, I18n::en("First draft"));
    assert_eq!(older.slots[0].submission.as_deref(), Some("TALK1"));
    assert_eq!(older.slots[1].submission, None);
    assert_eq!(older.slots[1].description, I18n::en("Lunch"));
    let wip = e.wip_schedule.as_ref().expect("wip");
    assert_eq!(
        (wip.id, wip.slots[0].start, wip.slots[0].room),
        (Some(4), None, None)
    );
    let quality = &e.score_categories[0];
    assert_eq!(
        (quality.weight.as_str(), quality.required, quality.active),
        ("2.0", true, true)
    );
    assert_eq!(
        (quality.limit_tracks.as_slice(), quality.is_independent),
        (&[1][..], false)
    );
    let fit = &e.score_categories[1];
    assert_eq!(
        (
            fit.weight.as_str(),
            fit.required,
            fit.active,
            fit.is_independent
        ),
        ("1.0", false, false, true)
    );
    assert_eq!(
        e.rooms[0].guid_or_derived("democon"),
        "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
        "uuid wins over guid"
    );
    assert!(e.tracks[0].requires_access_code && !e.tracks[1].requires_access_code);
    let kind = &e.submission_types[0];
    assert_eq!(kind.deadline, Some(ts("2026-09-15T21:59:00Z")));
    assert!(kind.requires_access_code);
    let options = &e.questions[0].options;
    assert_eq!(
        (options[0].position_at(0), options[1].position_at(1)),
        (5, 1)
    );
    assert_eq!(
        e.questions[0].icon.as_deref(),
        Some("https://democon.example/level.svg")
    );
    let dates = &e.questions[1];
    assert_eq!(dates.min_date, NaiveDate::from_ymd_opt(2026, 1, 1));
    assert_eq!(dates.max_datetime, Some(ts("2026-12-31T11:00:00Z")));
    let numbers = &e.questions[2];
    assert_eq!(
        (
            numbers.min_number.as_ref().map(Decimal::to_f64),
            numbers.max_number.as_ref().map(Decimal::as_str)
        ),
        (Some(1.0), Some("5.50"))
    );
    assert!(e.speakers[0].has_arrived && !e.speakers[1].has_arrived);
    assert_eq!(e.speakers[0].internal_notes, "Needs a ramp");
    let s = &e.submissions[0];
    assert_eq!(s.invitation_token.as_deref(), Some("inv0token0abc"));
    assert_eq!(s.access_code, Some(4));
    assert_eq!(s.review_code.as_deref(), Some("rev0code0xyz"));
    assert_eq!(s.resources[0].id, Some(7));
    assert_eq!(
        e.reviews[0].scores[..],
        [
            ReviewScore {
                id: 5,
                category: 1,
                value: Decimal("2".into()),
                label: Some("good".into())
            },
            ReviewScore {
                id: 8,
                category: 2,
                value: Decimal("-0.5".into()),
                label: None
            },
        ]
    );
}

#[test]
fn v1_fields_round_trip_through_export() {
    let first = parse_ok(&v1_doc());
    let exported = export::to_json(&first);
    let second = parse_ok(&exported);
    assert_eq!(second, first);
    assert_eq!(export::to_json(&second), exported);
    let e = &exported["events"][0];
    assert_eq!(e["locales"], json!(["en", "de"]));
    assert_eq!(e["older_schedules"][0]["published"], "2026-10-01T08:00:00Z");
    assert_eq!(
        e["older_schedules"][0]["slots"][1]["submission"],
        json!(null)
    );
    assert_eq!(e["wip_schedule"]["slots"][0]["description"], json!({}));
    assert_eq!(e["score_categories"][1]["weight"], "1.0");
    assert_eq!(e["reviews"][0]["scores"][1]["label"], json!(null));
    assert_eq!(e["questions"][0]["options"][0]["position"], 5);
    // An option at its index has no position written.
    assert!(e["questions"][0]["options"][1].get("position").is_none());
    assert_eq!(e["submissions"][0]["resources"][0]["id"], 7);
    assert!(e["submissions"][1].get("invitation_token").is_none());
    assert_eq!(e["organiser"], "democon-org");
    assert_eq!(e["teams"][0]["id"], 1);
    assert_eq!(e["teams"][0]["can_change_teams"], true);
    assert_eq!(
        e["teams"][0]["limit_events"],
        json!(["democon", "othercon"])
    );
    assert!(e["teams"][0].get("can_create_events").is_none());
}

#[test]
fn v1_fields_at_their_defaults_are_not_written() {
    let mut doc = base();
    let explicit = [
        ("/events/0/locales", json!(["en"])),
        ("/events/0/content_locales", json!(["en"])),
        ("/events/0/email", json!("")),
        ("/events/0/logo", json!(null)),
        ("/events/0/header_image", json!(null)),
        ("/events/0/custom_domain", json!(null)),
        ("/events/0/schedule/id", json!(null)),
        ("/events/0/schedule/comment", json!({})),
        ("/events/0/older_schedules", json!([])),
        ("/events/0/wip_schedule", json!(null)),
        ("/events/0/organiser", json!(null)),
        ("/events/0/teams/0/id", json!(null)),
        ("/events/0/teams/0/all_events", json!(false)),
        ("/events/0/teams/0/limit_events", json!([])),
        ("/events/0/teams/0/can_create_events", json!(false)),
        ("/events/0/teams/0/can_change_teams", json!(false)),
        (
            "/events/0/teams/0/can_change_organiser_settings",
            json!(false),
        ),
        ("/events/0/teams/0/can_change_event_settings", json!(false)),
        ("/events/0/score_categories", json!([])),
        ("/events/0/rooms/0/uuid", json!(null)),
        ("/events/0/tracks/0/requires_access_code", json!(false)),
        ("/events/0/submission_types/0/deadline", json!(null)),
        (
            "/events/0/submission_types/0/requires_access_code",
            json!(false),
        ),
        ("/events/0/questions/0/options/0/position", json!(0)),
        ("/events/0/questions/0/options/1/position", json!(1)),
        ("/events/0/questions/0/min_number", json!(null)),
        ("/events/0/questions/0/max_datetime", json!(null)),
        ("/events/0/questions/0/icon", json!(null)),
        ("/events/0/speakers/0/has_arrived", json!(false)),
        ("/events/0/speakers/0/internal_notes", json!("")),
        ("/events/0/submissions/0/invitation_token", json!(null)),
        ("/events/0/submissions/0/access_code", json!(null)),
        ("/events/0/submissions/0/review_code", json!(null)),
        ("/events/0/submissions/0/resources/0/id", json!(null)),
        ("/events/0/reviews/0/scores", json!([])),
    ];
    for (pointer, value) in explicit {
        set(&mut doc, pointer, value);
    }
    let given = parse_ok(&doc);
    let plain = parse_ok(&base());
    // Equal values: storage writes equal records for them.
    assert_eq!(given, plain);
    assert_eq!(export::to_json(&given), export::to_json(&plain));
}

#[test]
fn v1_fields_name_bad_values_with_their_path() {
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/events/0/locales", json!([]), "events[0].locales: must not be empty (leave it out for the default)"),
        ("/events/0/locales", json!(["de"]), "events[0].locales: must contain the event's locale \"en\""),
        ("/events/0/locales", json!(["en", "de", "en"]), "events[0].locales: duplicate language"),
        ("/events/0/locales", json!("en"), "events[0].locales: must be a list, got \"en\""),
        ("/events/0/content_locales", json!(["e n"]), "events[0].content_locales[0]: must be a language code (\"en\", \"pt-BR\"), got \"e n\""),
        ("/events/0/email", json!(5), "events[0].email: must be a string, got 5"),
        ("/events/0/organiser", json!("no org"), "events[0].organiser: invalid slug \"no org\""),
        ("/events/0/teams/0/id", json!(0), "events[0].teams[0].id: must be a positive integer or null, got 0"),
        ("/events/0/teams/1/id", json!(1), "events[0].teams[1].id: duplicate team id 1 (also at events[0].teams[0].id)"),
        ("/events/0/teams/0/limit_events", json!(["democon", "democon"]), "events[0].teams[0].limit_events: duplicate event"),
        ("/events/0/teams/0/limit_events", json!(["a b"]), "events[0].teams[0].limit_events[0]: invalid slug \"a b\""),
        ("/events/0/teams/0/can_change_teams", json!("yes"), "events[0].teams[0].can_change_teams: must be a boolean, got \"yes\""),
        ("/events/0/teams/0/all_events", json!(null), "events[0].teams[0].all_events: must be a boolean, not null"),
        ("/events/0/logo", json!("logo.png"), "events[0].logo: must be an absolute URL, got \"logo.png\""),
        ("/events/0/header_image", json!(""), "events[0].header_image: must be an absolute URL, got \"\""),
        ("/events/0/custom_domain", json!("democon.example"), "events[0].custom_domain: must be an absolute URL, got \"democon.example\""),
        ("/events/0/schedule/id", json!(0), "events[0].schedule.id: must be a positive integer or null, got 0"),
        ("/events/0/schedule/comment", json!(["x"]), "events[0].schedule.comment: must be an i18n object (or a plain string)"),
        ("/events/0/rooms/0/uuid", json!("x"), "events[0].rooms[0].uuid: must be a UUID string, got \"x\""),
        ("/events/0/tracks/0/requires_access_code", json!("no"), "events[0].tracks[0].requires_access_code: must be a boolean, got \"no\""),
        ("/events/0/submission_types/0/deadline", json!("2026-09-15"), "events[0].submission_types[0].deadline: invalid datetime \"2026-09-15\" (RFC 3339 with offset required)"),
        ("/events/0/submission_types/0/requires_access_code", json!(1), "events[0].submission_types[0].requires_access_code: must be a boolean, got 1"),
        ("/events/0/questions/2/min_number", json!(1.5), "events[0].questions[2].min_number: must be a decimal number as a string (\"1.5\"), got 1.5"),
        ("/events/0/questions/2/max_number", json!("1,5"), "events[0].questions[2].max_number: must be a decimal number as a string (\"1.5\"), got \"1,5\""),
        ("/events/0/questions/2/max_number", json!(".5"), "events[0].questions[2].max_number: must be a decimal number as a string (\"1.5\"), got \".5\""),
        ("/events/0/questions/2/max_number", json!("0.99"), "events[0].questions[2].max_number: is less than min_number"),
        ("/events/0/questions/1/max_date", json!("2025-12-31"), "events[0].questions[1].max_date: is before min_date"),
        ("/events/0/questions/1/min_date", json!("2026-1-1"), "events[0].questions[1].min_date: invalid date \"2026-1-1\" (YYYY-MM-DD)"),
        ("/events/0/questions/1/max_datetime", json!("2025-12-31T23:00:00Z"), "events[0].questions[1].max_datetime: is before min_datetime"),
        ("/events/0/questions/1/min_datetime", json!("2026-01-01"), "events[0].questions[1].min_datetime: invalid datetime \"2026-01-01\" (RFC 3339 with offset required)"),
        ("/events/0/questions/0/icon", json!("level.svg"), "events[0].questions[0].icon: must be an absolute URL, got \"level.svg\""),
        ("/events/0/questions/0/options/1/position", json!("1"), "events[0].questions[0].options[1].position: must be an integer, got \"1\""),
        ("/events/0/speakers/0/has_arrived", json!("yes"), "events[0].speakers[0].has_arrived: must be a boolean, got \"yes\""),
        ("/events/0/speakers/0/internal_notes", json!(null), "events[0].speakers[0].internal_notes: must be a string, not null"),
        ("/events/0/submissions/0/invitation_token", json!(""), "events[0].submissions[0].invitation_token: must be a non-empty string without whitespace, or null, got \"\""),
        ("/events/0/submissions/0/access_code", json!("EARLYBIRD"), "events[0].submissions[0].access_code: must be a positive integer, got \"EARLYBIRD\""),
        ("/events/0/submissions/0/review_code", json!("a b"), "events[0].submissions[0].review_code: must be a non-empty string without whitespace, or null, got \"a b\""),
        ("/events/0/submissions/0/resources/0/id", json!(0), "events[0].submissions[0].resources[0].id: must be a positive integer or null, got 0"),
        ("/events/0/submissions/1/resources", json!([{"id": 7, "resource": "https://example.org/x"}]), "events[0].submissions[1].resources[0].id: duplicate resource id 7 (also at events[0].submissions[0].resources[0].id)"),
        ("/events/0/score_categories/0/limit_tracks", json!([99]), "events[0].score_categories[0].limit_tracks[0]: track 99 does not exist in event \"democon\""),
        ("/events/0/score_categories/0/limit_tracks", json!([1, 1]), "events[0].score_categories[0].limit_tracks: duplicate track"),
        ("/events/0/score_categories/0/weight", json!("heavy"), "events[0].score_categories[0].weight: must be a decimal number as a string (\"1.5\"), got \"heavy\""),
        ("/events/0/score_categories/1/name", json!(""), "events[0].score_categories[1].name: required i18n value is empty"),
        ("/events/0/score_categories/1/active", json!(null), "events[0].score_categories[1].active: must be a boolean, not null"),
        ("/events/0/reviews/0/scores/0/category", json!(9), "events[0].reviews[0].scores[0].category: score category 9 does not exist in event \"democon\""),
        ("/events/0/reviews/0/scores/1/category", json!(1), "events[0].reviews[0].scores[1].category: second score in category 1 (also at events[0].reviews[0].scores[0])"),
        ("/events/0/reviews/0/scores/0/value", json!(2), "events[0].reviews[0].scores[0].value: must be a decimal number as a string (\"1.5\"), got 2"),
        ("/events/0/reviews/0/scores/0/id", json!(-5), "events[0].reviews[0].scores[0].id: must be a positive integer, got -5"),
        ("/events/0/reviews/0/scores/0/label", json!(3), "events[0].reviews[0].scores[0].label: must be a string, got 3"),
        ("/events/0/older_schedules/0/id", json!(3), "events[0].older_schedules[0].id: duplicate schedule id 3 (also at events[0].schedule.id)"),
        ("/events/0/wip_schedule/id", json!(1), "events[0].wip_schedule.id: duplicate schedule id 1 (also at events[0].older_schedules[0].id)"),
        ("/events/0/older_schedules/0/version", json!("1.0"), "events[0].older_schedules[0].version: duplicate schedule version \"1.0\" (also at events[0].schedule.version)"),
        ("/events/0/older_schedules/0/version", json!(""), "events[0].older_schedules[0].version: must not be empty"),
        ("/events/0/older_schedules/0/published", json!(null), "events[0].older_schedules[0].published: must be a datetime string with offset"),
        ("/events/0/older_schedules/0/slots/0/submission", json!("NOPE"), "events[0].older_schedules[0].slots[0].submission: submission \"NOPE\" does not exist in event \"democon\""),
        ("/events/0/older_schedules/0/slots/0/room", json!(9), "events[0].older_schedules[0].slots[0].room: room 9 does not exist in event \"democon\""),
        ("/events/0/older_schedules/0/slots/0/end", json!("2026-11-20T09:00:00+01:00"), "events[0].older_schedules[0].slots[0].end: is before start"),
        ("/events/0/older_schedules/0/slots/1/id", json!(11), "events[0].older_schedules[0].slots[1].id: duplicate slot id 11 (also at events[0].older_schedules[0].slots[0].id)"),
        ("/events/0/wip_schedule/slots/0/id", json!(12), "events[0].wip_schedule.slots[0].id: duplicate slot id 12 (also at events[0].older_schedules[0].slots[1].id)"),
        ("/events/0/wip_schedule/slots/0/submission", json!(5), "events[0].wip_schedule.slots[0].submission: must be a submission code, got 5"),
        ("/events/0/wip_schedule/slots/0/description", json!(["x"]), "events[0].wip_schedule.slots[0].description: must be an i18n object (or a plain string)"),
        ("/events/0/wip_schedule", json!([]), "events[0].wip_schedule: must be an object, got a list"),
    ];
    for (pointer, value, expected) in cases {
        let mut doc = v1_doc();
        set(&mut doc, pointer, value);
        assert_eq!(problems(&doc), vec![expected.to_string()], "at {pointer}");
    }

    // A required field of each new object.
    for (pointer, expected) in [
        (
            "/events/0/older_schedules/0/version",
            "events[0].older_schedules[0].version: required field is missing",
        ),
        (
            "/events/0/older_schedules/0/published",
            "events[0].older_schedules[0].published: required field is missing",
        ),
        (
            "/events/0/wip_schedule/slots/0/is_visible",
            "events[0].wip_schedule.slots[0].is_visible: required field is missing",
        ),
        (
            "/events/0/score_categories/1/name",
            "events[0].score_categories[1].name: required field is missing",
        ),
        (
            "/events/0/reviews/0/scores/0/value",
            "events[0].reviews[0].scores[0].value: required field is missing",
        ),
    ] {
        let mut doc = v1_doc();
        remove(&mut doc, pointer);
        assert_eq!(
            problems(&doc),
            vec![expected.to_string()],
            "without {pointer}"
        );
    }

    // Category ids are one sequence across the document (and a score of
    // the category that lost its id has none to refer to).
    let mut doc = v1_doc();
    set(&mut doc, "/events/0/score_categories/1/id", json!(1));
    assert_eq!(
        problems(&doc),
        vec![
            "events[0].score_categories[1].id: duplicate score category id 1 (also at events[0].score_categories[0].id)",
            "events[0].reviews[0].scores[1].category: score category 2 does not exist in event \"democon\"",
        ]
    );
    // Older releases need a current one.
    let mut doc = v1_doc();
    set(
        &mut doc,
        "/events/1/older_schedules",
        json!([{"version": "0.1", "published": "2026-01-01T00:00:00Z"}]),
    );
    assert_eq!(
        problems(&doc),
        vec!["events[1].older_schedules: event \"other\" has no released schedule, so no older releases are allowed"]
    );
    // A score id is one of its category's values: the same everywhere.
    let mut doc = v1_doc();
    set(
        &mut doc,
        "/events/0/reviews/1",
        json!({"id": 2, "submission": "TALK2", "user": "REV1",
        "created": "2026-10-02T10:00:00Z", "scores": [{"id": 5, "category": 1, "value": "3", "label": "good"}]}),
    );
    assert_eq!(
        problems(&doc),
        vec!["events[0].reviews[1].scores[0]: score 5 differs from the one at events[0].reviews[0].scores[0] (one id, one category, value and label)"]
    );
    set(&mut doc, "/events/0/reviews/1/scores/0/value", json!("2"));
    assert!(problems(&doc).is_empty());
    // Resource ids are unique within an event only.
    let mut doc = v1_doc();
    set(
        &mut doc,
        "/events/1/submission_types",
        json!([{"id": 2, "name": "Talk"}]),
    );
    set(
        &mut doc,
        "/events/1/submissions",
        json!([{"code": "ELSE1", "title": "E", "submission_type": 2,
        "created": "2027-01-01T00:00:00Z", "resources": [{"id": 7, "resource": "https://example.org/y"}]}]),
    );
    assert!(problems(&doc).is_empty());
}

#[test]
fn v1_objects_report_unknown_keys() {
    for (pointer, path) in [
        (
            "/events/0/score_categories/0",
            "events[0].score_categories[0].colour",
        ),
        (
            "/events/0/reviews/0/scores/0",
            "events[0].reviews[0].scores[0].colour",
        ),
        (
            "/events/0/older_schedules/0",
            "events[0].older_schedules[0].colour",
        ),
        (
            "/events/0/older_schedules/0/slots/1",
            "events[0].older_schedules[0].slots[1].colour",
        ),
        ("/events/0/wip_schedule", "events[0].wip_schedule.colour"),
        (
            "/events/0/wip_schedule/slots/0",
            "events[0].wip_schedule.slots[0].colour",
        ),
    ] {
        let mut doc = v1_doc();
        set(&mut doc, &format!("{pointer}/colour"), json!("red"));
        assert_eq!(
            problems(&doc),
            vec![format!("{path}: unknown field")],
            "at {pointer:?}"
        );
    }
}

#[test]
fn junk_in_v1_fields_gives_problems_not_panics() {
    junk_everywhere(&v1_doc());
}
