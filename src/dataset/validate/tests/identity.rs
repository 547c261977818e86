//! Codes, ids and what must be unique.

use super::*;

#[test]
fn codes_are_short_and_alphanumeric() {
    assert_eq!(
        with("/users/3/code", json!("REV-1")),
        vec![
            "users[3].code: invalid code \"REV-1\" (1 to 16 of [A-Za-z0-9])",
            // The references to the user fail too.
            "events[0].teams[1].members[0]: user \"REV1\" does not exist",
            "events[0].submissions[0].assigned_reviewers[0]: user \"REV1\" does not exist",
            "events[0].reviews[0].user: user \"REV1\" does not exist",
        ]
    );
    assert_eq!(
        with("/events/0/submissions/1/code", json!("")),
        vec!["events[0].submissions[1].code: invalid code \"\" (1 to 16 of [A-Za-z0-9])"]
    );
    assert_eq!(
        with("/events/0/submissions/1/code", json!("A".repeat(17))),
        vec![format!(
            "events[0].submissions[1].code: invalid code \"{}\" (1 to 16 of [A-Za-z0-9])",
            "A".repeat(17)
        )]
    );
    assert!(with("/events/0/submissions/1/code", json!("A".repeat(16))).is_empty());
    assert_eq!(
        with("/events/0/submissions/1/code", json!(7)),
        vec!["events[0].submissions[1].code: invalid code 7 (1 to 16 of [A-Za-z0-9])"]
    );
}

#[test]
fn user_codes_are_unique() {
    assert_eq!(
        with("/users/4/code", json!("SPK1")),
        vec!["users[4].code: duplicate user code \"SPK1\" (also at users[1])"]
    );
}

#[test]
fn submission_codes_are_unique_across_events() {
    let mut doc = base();
    set(
        &mut doc,
        "/events/1/submission_types",
        json!([{"id": 5, "name": "Talk"}]),
    );
    set(
        &mut doc,
        "/events/1/submissions",
        json!([{"code": "TALK2", "title": "Again", "submission_type": 5,
                "created": "2026-09-02T12:00:00Z"}]),
    );
    assert_eq!(
        problems(&doc),
        vec!["events[1].submissions[0].code: duplicate submission code \"TALK2\" (also at events[0].submissions[1])"]
    );
}

#[test]
fn ids_are_positive_integers() {
    assert_eq!(
        with("/events/0/tracks/1/id", json!(0)),
        vec!["events[0].tracks[1].id: id must be a positive integer, got 0"]
    );
    assert_eq!(
        with("/events/0/tracks/1/id", json!(-2)),
        vec!["events[0].tracks[1].id: id must be a positive integer, got -2"]
    );
    assert_eq!(
        with("/events/0/tracks/1/id", json!("2")),
        vec!["events[0].tracks[1].id: id must be a positive integer, got \"2\""]
    );
    assert_eq!(
        with("/events/0/tracks/1/id", json!(2.0)),
        vec!["events[0].tracks[1].id: id must be a positive integer, got 2.0"]
    );
}

#[test]
fn ids_are_unique_per_kind_across_the_document() {
    // A track id used in another event.
    assert_eq!(
        with("/events/1/tracks/0/id", json!(2)),
        vec!["events[1].tracks[0].id: duplicate track id 2 (also at events[0].tracks[1].id)"]
    );
    // Every other kind, each once more in the second event.
    let mut doc = base();
    doc["events"][1] = json!({
        "slug": "other", "name": "Other", "date_from": "2027-01-01",
        "submission_types": [{"id": 1, "name": "Talk"}],
        "rooms": [{"id": 1, "name": "Hall"}],
        "tags": [{"id": 1, "tag": "keynote"}],
        "questions": [{"id": 3, "question": "Q?", "options": [{"id": 2, "answer": "A"}]}],
        "speakers": [{"user": "SPK2"}],
        "submissions": [{"code": "OTHER1", "title": "T", "submission_type": 1,
                         "speakers": ["SPK2"], "created": "2026-09-02T12:00:00Z"}],
        "reviews": [{"id": 1, "submission": "OTHER1", "user": "REV1",
                     "created": "2026-10-01T10:00:00Z"}],
        "answers": [{"id": 2, "question": 3, "submission": "OTHER1"}]
    });
    assert_eq!(
        problems(&doc),
        vec![
            "events[1].submission_types[0].id: duplicate submission type id 1 (also at events[0].submission_types[0].id)",
            "events[1].rooms[0].id: duplicate room id 1 (also at events[0].rooms[0].id)",
            "events[1].tags[0].id: duplicate tag id 1 (also at events[0].tags[0].id)",
            "events[1].questions[0].id: duplicate question id 3 (also at events[0].questions[2].id)",
            "events[1].questions[0].options[0].id: duplicate option id 2 (also at events[0].questions[0].options[1].id)",
            "events[1].reviews[0].id: duplicate review id 1 (also at events[0].reviews[0].id)",
            "events[1].answers[0].id: duplicate answer id 2 (also at events[0].answers[1].id)",
        ]
    );
}

#[test]
fn room_and_speaker_availabilities_share_one_id_sequence() {
    assert_eq!(
        with("/events/0/speakers/0/availabilities/0/id", json!(1)),
        vec!["events[0].speakers[0].availabilities[0].id: duplicate availability id 1 (also at events[0].rooms[0].availabilities[0].id)"]
    );
}

#[test]
fn different_id_kinds_may_share_numbers() {
    // The base document uses 1 as a track, room, tag, question, option,
    // review, answer and availability id.
    assert!(problems(&base()).is_empty());
}

#[test]
fn emails_are_unique_case_insensitively() {
    assert_eq!(
        with("/users/3/email", json!("Amira@Example.org")),
        vec!["users[3].email: duplicate e-mail \"Amira@Example.org\" (also at users[1])"]
    );
    assert_eq!(
        with("/users/3/email", json!("")),
        vec!["users[3].email: must not be empty"]
    );
}

#[test]
fn slugs_have_a_shape_and_are_unique_case_insensitively() {
    for bad in ["-demo", "demo-", "de mo", "", "démo"] {
        assert_eq!(
            with("/events/1/slug", json!(bad)),
            vec![format!("events[1].slug: invalid slug {}", quote(bad))]
        );
    }
    for good in ["d", "demo.con-2026", "A1"] {
        assert!(with("/events/1/slug", json!(good)).is_empty(), "{good}");
    }
    assert_eq!(
        with("/events/1/slug", json!("DemoCon")),
        vec!["events[1].slug: duplicate slug \"DemoCon\" (also at events[0])"]
    );
}

#[test]
fn tags_are_unique_per_event_case_insensitively() {
    assert_eq!(
        with("/events/0/tags/1", json!({"id": 2, "tag": "KeyNote"})),
        vec!["events[0].tags[1].tag: duplicate tag \"KeyNote\" in event \"democon\" (also at events[0].tags[0])"]
    );
    // The same tag in another event is fine.
    assert!(with("/events/1/tags", json!([{"id": 2, "tag": "keynote"}])).is_empty());
    assert_eq!(
        with("/events/0/tags/0/tag", json!("a/b")),
        vec!["events[0].tags[0].tag: must be non-empty and must not contain '/'"]
    );
}

#[test]
fn lists_must_not_repeat_members_speakers_or_tags() {
    assert_eq!(
        with("/events/0/teams/0/members", json!(["ORGA", "ORGA"])),
        vec!["events[0].teams[0].members: duplicate member"]
    );
    assert_eq!(
        with("/events/0/submissions/1/speakers", json!(["SPK2", "SPK2"])),
        vec!["events[0].submissions[1].speakers: duplicate speaker"]
    );
    assert_eq!(
        with("/events/0/submissions/0/tags", json!([1, 1])),
        vec!["events[0].submissions[0].tags: duplicate tag"]
    );
}

#[test]
fn timezones_are_iana_names() {
    assert_eq!(
        with("/users/1/timezone", json!("Mars/Olympus")),
        vec!["users[1].timezone: unknown time zone \"Mars/Olympus\""]
    );
    assert_eq!(
        with("/events/0/timezone", json!("europe/berlin")),
        vec!["events[0].timezone: unknown time zone \"europe/berlin\""]
    );
    assert_eq!(
        with("/events/0/timezone", json!(1)),
        vec!["events[0].timezone: must be a string, got 1"]
    );
    assert!(with(
        "/events/0/timezone",
        json!("America/Argentina/Buenos_Aires")
    )
    .is_empty());
}

#[test]
fn enums_take_only_their_values() {
    let other_reviews: Vec<&str> = OtherReviews::ALL.iter().map(|(n, _)| *n).collect();
    let visibility: Vec<&str> = ProposalVisibility::ALL.iter().map(|(n, _)| *n).collect();
    let cases: [(&str, &str, &[&str]); 7] = [
        (
            "/events/0/submissions/0/state",
            "events[0].submissions[0].state",
            SubmissionState::NAMES,
        ),
        (
            "/events/0/submissions/0/pending_state",
            "events[0].submissions[0].pending_state",
            SubmissionState::NAMES,
        ),
        (
            "/events/0/questions/0/variant",
            "events[0].questions[0].variant",
            QuestionVariant::NAMES,
        ),
        (
            "/events/0/questions/0/target",
            "events[0].questions[0].target",
            QuestionTarget::NAMES,
        ),
        (
            "/events/0/questions/0/question_required",
            "events[0].questions[0].question_required",
            QuestionRequired::NAMES,
        ),
        (
            "/events/0/review_phase/can_see_other_reviews",
            "events[0].review_phase.can_see_other_reviews",
            &other_reviews,
        ),
        (
            "/events/0/review_phase/proposal_visibility",
            "events[0].review_phase.proposal_visibility",
            &visibility,
        ),
    ];
    for (pointer, path, allowed) in cases {
        let found = with(pointer, json!("bogus"));
        assert_eq!(
            found,
            vec![format!(
                "{path}: must be one of {}, got \"bogus\"",
                listing(allowed)
            )],
            "{pointer}"
        );
        // Setting every allowed value is accepted (target aside, which
        // changes which owner answers need).
        if !pointer.ends_with("target") {
            for value in allowed {
                assert!(
                    with(pointer, json!(value)).is_empty(),
                    "{pointer} = {value}"
                );
            }
        }
    }
    assert!(with("/events/0/submissions/0/pending_state", json!(null)).is_empty());
}
