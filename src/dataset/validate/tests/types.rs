//! JSON types, multi-lingual texts, datetimes and dates.

use super::*;

#[test]
fn booleans_must_be_json_booleans() {
    assert_eq!(
        with("/users/0/is_administrator", json!("yes")),
        vec!["users[0].is_administrator: must be a boolean, got \"yes\""]
    );
    assert_eq!(
        with("/events/0/show_schedule", json!(1)),
        vec!["events[0].show_schedule: must be a boolean, got 1"]
    );
    assert_eq!(
        with("/events/0/questions/0/active", json!(null)),
        vec!["events[0].questions[0].active: must be a boolean, not null"]
    );
    assert_eq!(
        with("/events/0/review_phase/can_see_speaker_names", json!([])),
        vec!["events[0].review_phase.can_see_speaker_names: must be a boolean, got a list"]
    );
}

#[test]
fn integers_must_be_json_integers() {
    assert_eq!(
        with("/events/0/submission_types/0/default_duration", json!(30.0)),
        vec!["events[0].submission_types[0].default_duration: must be an integer, got 30.0"]
    );
    assert_eq!(
        with("/events/0/questions/0/position", json!(true)),
        vec!["events[0].questions[0].position: must be an integer, got true"]
    );
    assert_eq!(
        with("/events/0/questions/0/position", json!(null)),
        vec!["events[0].questions[0].position: must be an integer, not null"]
    );
    assert_eq!(
        with("/events/0/rooms/0/position", json!(u64::MAX)),
        vec!["events[0].rooms[0].position: integer 18446744073709551615 is out of range"]
    );
    assert_eq!(
        with("/events/0/submissions/0/duration", json!("45")),
        vec!["events[0].submissions[0].duration: must be an integer, got \"45\""]
    );
    // Nullable integers take null.
    assert!(with("/events/0/rooms/0/capacity", json!(null)).is_empty());
}

#[test]
fn score_is_any_number_or_null() {
    assert!(with("/events/0/reviews/0/score", json!(3)).is_empty());
    assert!(with("/events/0/reviews/0/score", json!(-1.25)).is_empty());
    assert!(with("/events/0/reviews/0/score", json!(null)).is_empty());
    assert_eq!(
        with("/events/0/reviews/0/score", json!("3")),
        vec!["events[0].reviews[0].score: must be a number, got \"3\""]
    );
    assert_eq!(
        with("/events/0/reviews/0/score", json!(false)),
        vec!["events[0].reviews[0].score: must be a number, got false"]
    );
    let mut doc = base();
    set(&mut doc, "/events/0/reviews/0/score", json!(3));
    assert_eq!(parse_ok(&doc).events[0].reviews[0].score, Some(3.0));
}

#[test]
fn strings_and_lists_must_have_their_type() {
    assert_eq!(
        with("/events/0/submissions/0/title", json!(null)),
        vec!["events[0].submissions[0].title: must be a string, not null"]
    );
    assert_eq!(
        with("/users/1/locale", json!(5)),
        vec!["users[1].locale: must be a string, got 5"]
    );
    assert_eq!(
        with("/events/0/tracks/0/color", json!({"r": 1})),
        vec!["events[0].tracks[0].color: must be a string, got an object"]
    );
    assert_eq!(
        with("/events/0/questions/0/default_answer", json!(1)),
        vec!["events[0].questions[0].default_answer: must be a string, got 1"]
    );
    assert_eq!(
        with("/events/0/teams", json!(null)),
        vec!["events[0].teams: must be a list, not null"]
    );
    assert_eq!(
        with("/events/0/submissions/1/speakers", json!("SPK2")),
        vec!["events[0].submissions[1].speakers: must be a list, got \"SPK2\""]
    );
    assert_eq!(
        with("/events/0/reviews/1", json!("review")),
        vec!["events[0].reviews[1]: must be an object, got \"review\""]
    );
}

#[test]
fn long_values_are_cut_in_messages() {
    let long = "x".repeat(100);
    assert_eq!(
        with("/events/0/submissions/0/state", json!(long)),
        vec![format!(
            "events[0].submissions[0].state: must be one of {}, got \"{}\"…",
            listing(SubmissionState::NAMES),
            "x".repeat(60)
        )]
    );
}

// ---- i18n ------------------------------------------------------------------------

#[test]
fn i18n_accepts_objects_strings_and_null() {
    let mut doc = base();
    set(&mut doc, "/events/0/rooms/0/description", json!(""));
    set(&mut doc, "/events/0/rooms/0/speaker_info", json!(null));
    set(&mut doc, "/events/0/tags/0/description", json!({}));
    set(
        &mut doc,
        "/events/0/questions/0/help_text",
        json!({"en": "Pick one", "fr": ""}),
    );
    let d = parse_ok(&doc);
    let e = &d.events[0];
    assert_eq!(e.rooms[0].name, I18n::en("Hall"));
    assert_eq!(e.rooms[0].description, I18n::default());
    // null is kept apart from {}: pretalx's "never set", null in v1.
    assert_eq!(e.rooms[0].speaker_info, I18n::null());
    assert!(!e.rooms[0].description.is_null());
    assert_eq!(e.tags[0].description, I18n::default());
    assert_eq!(
        e.questions[0].help_text,
        I18n(
            vec![("en".into(), "Pick one".into()), ("fr".into(), "".into())],
            false
        )
    );
}

#[test]
fn i18n_rejects_other_shapes() {
    assert_eq!(
        with("/events/0/rooms/0/description", json!(5)),
        vec!["events[0].rooms[0].description: must be an i18n object (or a plain string)"]
    );
    assert_eq!(
        with("/events/0/rooms/0/description", json!({"en": 5})),
        vec!["events[0].rooms[0].description.en: translation must be a string"]
    );
    assert_eq!(
        with("/events/0/rooms/0/description", json!({"": "x"})),
        vec!["events[0].rooms[0].description: locale key \"\" must be a non-empty string"]
    );
}

#[test]
fn required_i18n_must_have_text() {
    assert_eq!(
        with("/events/0/name", json!("")),
        vec!["events[0].name: required i18n value is empty"]
    );
    assert_eq!(
        with("/events/0/name", json!({"en": ""})),
        vec!["events[0].name: required i18n value is empty"]
    );
    assert_eq!(
        with("/events/0/tracks/0/name", json!(null)),
        vec!["events[0].tracks[0].name: required i18n value is null"]
    );
    assert_eq!(
        with(
            "/events/0/questions/0/options/0/answer",
            json!({"en": null})
        ),
        vec![
            "events[0].questions[0].options[0].answer.en: translation must be a string",
            "events[0].questions[0].options[0].answer: required i18n value is empty",
        ]
    );
}

// ---- datetimes and dates -----------------------------------------------------------

#[test]
fn datetimes_need_an_offset() {
    assert_eq!(
        with(
            "/events/0/submissions/1/created",
            json!("2026-09-02T12:00:00")
        ),
        vec![
            "events[0].submissions[1].created: invalid datetime \"2026-09-02T12:00:00\" \
             (RFC 3339 with offset required)"
        ]
    );
    assert_eq!(
        with("/events/0/reviews/0/updated", json!("yesterday")),
        vec!["events[0].reviews[0].updated: invalid datetime \"yesterday\" (RFC 3339 with offset required)"]
    );
    assert_eq!(
        with("/events/0/questions/1/deadline", json!("2026-02-30T10:00:00Z")),
        vec!["events[0].questions[1].deadline: invalid datetime \"2026-02-30T10:00:00Z\" (RFC 3339 with offset required)"]
    );
    assert_eq!(
        with("/events/0/questions/1/deadline", json!("2026-06-30T23:59:60Z")),
        vec!["events[0].questions[1].deadline: invalid datetime \"2026-06-30T23:59:60Z\" (RFC 3339 with offset required)"]
    );
    // An instant that export could not write back (year 10000 in UTC).
    assert_eq!(
        with("/events/0/questions/1/deadline", json!("9999-12-31T23:00:00-02:00")),
        vec!["events[0].questions[1].deadline: invalid datetime \"9999-12-31T23:00:00-02:00\" (RFC 3339 with offset required)"]
    );
    assert_eq!(
        with("/events/0/rooms/0/availabilities/0/end", json!(1700000000)),
        vec!["events[0].rooms[0].availabilities[0].end: must be a datetime string with offset"]
    );
    assert_eq!(
        with("/events/0/submissions/1/created", json!(null)),
        vec!["events[0].submissions[1].created: must be a datetime string with offset"]
    );
    assert_eq!(
        with("/events/0/schedule/published", json!(null)),
        vec!["events[0].schedule.published: must be a datetime string with offset"]
    );
}

#[test]
fn datetime_forms_of_the_reference_validator_are_accepted() {
    let cases = [
        ("2026-09-02T14:00:00+02:00", "2026-09-02T12:00:00Z"),
        ("2026-09-02t12:00:00z", "2026-09-02T12:00:00Z"),
        ("2026-09-02 12:00:00Z", "2026-09-02T12:00:00Z"),
        ("2026-09-02T12:00Z", "2026-09-02T12:00:00Z"),
        (
            "2026-09-02T12:00:00.1234567Z",
            "2026-09-02T12:00:00.123456Z",
        ),
    ];
    for (text, expected) in cases {
        let mut doc = base();
        set(&mut doc, "/events/0/submissions/1/created", json!(text));
        assert_eq!(
            parse_ok(&doc).events[0].submissions[1].created,
            ts(expected),
            "{text}"
        );
    }
}

#[test]
fn dates_are_year_month_day() {
    assert_eq!(
        with("/events/0/date_from", json!("2026-13-01")),
        vec!["events[0].date_from: invalid date \"2026-13-01\""]
    );
    assert_eq!(
        with("/events/0/date_from", json!("20261120")),
        vec!["events[0].date_from: invalid date \"20261120\" (YYYY-MM-DD)"]
    );
    assert_eq!(
        with("/events/0/date_to", json!(20261122)),
        vec!["events[0].date_to: invalid date 20261122 (YYYY-MM-DD)"]
    );
    assert_eq!(
        with("/events/0/date_to", json!("2026-11-19")),
        vec!["events[0].date_to: is before date_from"]
    );
    assert!(with("/events/0/date_to", json!(null)).is_empty());
}

#[test]
fn ends_must_not_precede_starts() {
    assert_eq!(
        with(
            "/events/0/rooms/0/availabilities/0/end",
            json!("2026-11-20T07:00:00Z")
        ),
        vec!["events[0].rooms[0].availabilities[0].end: is before start"]
    );
    assert_eq!(
        with(
            "/events/0/submissions/0/slots/0/end",
            json!("2026-11-20T08:00:00+01:00")
        ),
        vec!["events[0].submissions[0].slots[0].end: is before start"]
    );
}
