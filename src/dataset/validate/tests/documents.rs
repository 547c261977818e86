//! Whole documents and their top level.

use super::*;

#[test]
fn base_document_is_valid_and_converted() {
    let d = parse_ok(&base());
    assert_eq!(d.users.len(), 5);
    assert_eq!(
        d.users[0].token_hashes,
        vec![TokenHash::plain(hash_token("secret-token"))]
    );
    assert_eq!(
        d.users[1].token_hashes,
        vec![TokenHash::plain(hash_token("other-token"))]
    );
    assert_eq!(
        d.users[1].avatar.as_deref(),
        Some("https://example.org/a.png")
    );
    let e = &d.events[0];
    assert_eq!(
        e.name.0,
        vec![
            ("de".into(), "DemoKon".into()),
            ("en".into(), "DemoCon".into())
        ]
    );
    assert_eq!(e.date_to, NaiveDate::from_ymd_opt(2026, 11, 22));
    let schedule = e.schedule.as_ref().expect("schedule");
    assert_eq!(schedule.published, Some(ts("2026-11-01T09:00:00Z")));
    let phase = e.review_phase.as_ref().expect("phase");
    assert_eq!(phase.name, "Second round");
    assert_eq!(phase.can_see_other_reviews, OtherReviews::Always);
    assert_eq!(phase.proposal_visibility, ProposalVisibility::Assigned);
    assert_eq!(e.teams[1].limit_tracks, vec![1]);
    assert_eq!(e.tracks[1].name, I18n::en("Ops"));
    assert_eq!(e.questions[0].options[1].id, 2);
    let s = &e.submissions[0];
    assert_eq!(s.speakers, vec!["SPK1", "SPK2"]);
    assert_eq!(s.created, ts("2026-09-01T12:00:00.500Z"));
    let anonymised = s.anonymised.as_ref().expect("anonymised");
    assert_eq!(
        (anonymised.title.as_str(), anonymised.abstract_.as_str()),
        ("A talk", "")
    );
    assert_eq!(s.slots[0].start, Some(ts("2026-11-20T08:00:00Z")));
    assert_eq!(e.answers[2].review, Some(1));
    assert_eq!(e.reviews[0].score, Some(2.5));
    assert_eq!(d.events[1].tracks[0].id, 99);
}

#[test]
fn defaults_are_applied() {
    let doc = json!({
        "format": "cfp-dataset", "version": 1,
        "users": [{"code": "U1", "name": "U", "email": "u@example.org"}],
        "events": [{
            "slug": "e", "name": "E", "date_from": "2026-01-01", "review_phase": {},
            "teams": [{"name": "T"}],
            "submission_types": [{"id": 1, "name": "Talk"}],
            "tracks": [{"id": 1, "name": "Tr"}],
            "rooms": [{"id": 1, "name": "R"}],
            "tags": [{"id": 1, "tag": "t"}],
            "questions": [{"id": 1, "question": "Q?"}],
            "speakers": [{"user": "U1"}],
            "submissions": [{"code": "S1", "title": "S", "submission_type": 1,
                             "created": "2026-01-01T00:00:00Z"}],
            "answers": [{"id": 1, "question": 1, "submission": "S1"}],
            "reviews": [{"id": 1, "submission": "S1", "user": "U1",
                         "created": "2026-01-02T00:00:00Z"}]
        }]
    });
    let d = parse_ok(&doc);
    let u = &d.users[0];
    assert_eq!(
        (u.avatar.clone(), u.locale.as_str(), u.timezone.as_str()),
        (None, "en", "UTC")
    );
    assert!(!u.is_administrator && u.token_hashes.is_empty());
    let e = &d.events[0];
    assert!(!e.is_public && e.show_schedule);
    assert_eq!(
        (e.date_to, e.timezone.as_str(), e.locale.as_str()),
        (None, "UTC", "en")
    );
    assert!(e.schedule.is_none());
    let phase = e.review_phase.as_ref().expect("phase");
    let default = ReviewPhase::default();
    assert_eq!(phase.name, "Review");
    assert!(phase.can_see_speaker_names && phase.can_see_reviewer_names);
    assert_eq!(phase.can_see_other_reviews, default.can_see_other_reviews);
    assert_eq!(phase.proposal_visibility, ProposalVisibility::All);
    let t = &e.teams[0];
    assert!(t.members.is_empty() && t.limit_tracks.is_empty());
    assert!(!t.can_change_submissions && !t.is_reviewer && !t.force_hide_speaker_names);
    assert_eq!(e.submission_types[0].default_duration, 30);
    assert_eq!(e.tracks[0].color, "");
    let r = &e.rooms[0];
    assert_eq!((r.guid.clone(), r.capacity, r.position), (None, None, None));
    assert!(
        r.description.0.is_empty() && r.speaker_info.0.is_empty() && r.availabilities.is_empty()
    );
    let tag = &e.tags[0];
    assert!(tag.description.0.is_empty() && tag.color.is_empty() && !tag.is_public);
    let q = &e.questions[0];
    assert_eq!(
        (q.variant.as_str(), q.target.as_str()),
        ("string", "submission")
    );
    assert_eq!(q.question_required, QuestionRequired::Optional);
    assert!(q.help_text.0.is_empty() && q.options.is_empty());
    assert_eq!(
        (q.deadline, q.freeze_after, q.default_answer.clone()),
        (None, None, None)
    );
    assert!(q.contains_personal_data && !q.is_public && q.is_visible_to_reviewers && q.active);
    assert_eq!((q.min_length, q.max_length, q.position), (None, None, 0));
    assert!(q.tracks.is_empty() && q.submission_types.is_empty());
    let p = &e.speakers[0];
    assert!(p.biography.is_empty() && p.availabilities.is_empty());
    let s = &e.submissions[0];
    assert!(s.speakers.is_empty());
    assert_eq!(
        (s.track, s.state.as_str(), s.pending_state),
        (None, "submitted", None)
    );
    assert!(s.abstract_.is_empty() && s.description.is_empty());
    assert!(s.notes.is_empty() && s.internal_notes.is_empty());
    assert_eq!((s.duration, s.slot_count), (None, 1));
    assert!(!s.do_not_record && !s.is_featured);
    assert_eq!((s.content_locale.as_str(), s.image.clone()), ("en", None));
    assert!(s.tags.is_empty() && s.resources.is_empty() && s.assigned_reviewers.is_empty());
    assert!(s.anonymised.is_none() && s.slots.is_empty());
    let a = &e.answers[0];
    assert_eq!((a.answer.as_str(), a.answer_file.clone()), ("", None));
    assert_eq!((a.person.clone(), a.review), (None, None));
    assert!(a.options.is_empty());
    let rv = &e.reviews[0];
    assert_eq!((rv.text.as_str(), rv.score), ("", None));
    assert_eq!(rv.updated, ts("2026-01-02T00:00:00Z"));

    // users and events default to [].
    let empty = parse_ok(&json!({"format": "cfp-dataset", "version": 1}));
    assert!(empty.users.is_empty() && empty.events.is_empty());
}

#[test]
fn democon_parses_and_round_trips() {
    let first = match parse_str(&democon_text()) {
        Ok(d) => d,
        Err(found) => panic!("democon.json has problems: {found:#?}"),
    };
    assert_eq!((first.users.len(), first.events.len()), (110, 2));
    assert_eq!(
        first.users[0].token_hashes,
        vec![TokenHash::plain(hash_token(
            "30369046a1da256c935d698c4b3f61808ddfc13b"
        ))]
    );
    let exported = export::to_json(&first);
    let second = parse_ok(&exported);
    assert_eq!(export::to_json(&second), exported);
}

#[test]
fn client_friendly_parses_and_round_trips() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/client-friendly.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/data/client-friendly.json");
    let first = match parse_str(&text) {
        Ok(d) => d,
        Err(found) => panic!("client-friendly.json has problems: {found:#?}"),
    };
    let exported = export::to_json(&first);
    assert_eq!(export::to_json(&parse_ok(&exported)), exported);
}

#[test]
fn base_document_round_trips() {
    let mut doc = base();
    // Cover the nullable branches of slots too.
    set(
        &mut doc,
        "/events/0/submissions/0/slots/1",
        json!({"is_visible": false}),
    );
    let exported = export::to_json(&parse_ok(&doc));
    assert_eq!(export::to_json(&parse_ok(&exported)), exported);
}

#[test]
fn problem_displays_path_and_message() {
    let p = Problem {
        path: "events[0].slug".into(),
        message: "unknown field".into(),
    };
    assert_eq!(p.to_string(), "events[0].slug: unknown field");
}

#[test]
fn json_syntax_error_is_one_problem_at_the_root() {
    let found = parse_str("{\n  \"format\": ,\n}").expect_err("invalid JSON");
    assert_eq!(
        found,
        vec![Problem {
            path: "$".into(),
            message: "invalid JSON at line 2, column 13: expected value".into(),
        }]
    );
    let found = parse_str("").expect_err("empty text");
    assert_eq!(
        found[0].message,
        "invalid JSON at line 1, column 0: EOF while parsing a value"
    );
}

// ---- top level ---------------------------------------------------------------

#[test]
fn top_level_format_and_version() {
    assert_eq!(
        with("/format", json!("cfp")),
        vec!["format: must be \"cfp-dataset\""]
    );
    assert_eq!(with("/version", json!(2)), vec!["version: must be 1"]);
    assert_eq!(with("/version", json!(1.0)), vec!["version: must be 1"]);
    assert_eq!(with("/version", json!(true)), vec!["version: must be 1"]);
    assert_eq!(
        without("/format"),
        vec!["format: required field is missing"]
    );
    assert_eq!(
        without("/version"),
        vec!["version: required field is missing"]
    );
    assert_eq!(
        problems(&json!([1])),
        vec!["$: must be an object, got a list"]
    );
    assert_eq!(
        with("/events", json!(null)),
        vec!["events: must be a list, not null"]
    );
    assert_eq!(
        problems(&json!({"format": "cfp-dataset", "version": 1, "users": "all"})),
        vec!["users: must be a list, got \"all\""]
    );
    assert_eq!(
        with("/events", json!({})),
        vec!["events: must be a list, got an object"]
    );
}

#[test]
fn unknown_keys_are_reported_at_every_level() {
    let places = [
        ("", "colour"),
        ("/users/0", "users[0].colour"),
        ("/events/0", "events[0].colour"),
        ("/events/0/schedule", "events[0].schedule.colour"),
        ("/events/0/review_phase", "events[0].review_phase.colour"),
        ("/events/0/teams/1", "events[0].teams[1].colour"),
        (
            "/events/0/submission_types/0",
            "events[0].submission_types[0].colour",
        ),
        ("/events/0/tracks/0", "events[0].tracks[0].colour"),
        ("/events/0/rooms/0", "events[0].rooms[0].colour"),
        (
            "/events/0/rooms/0/availabilities/0",
            "events[0].rooms[0].availabilities[0].colour",
        ),
        ("/events/0/tags/0", "events[0].tags[0].colour"),
        ("/events/0/questions/0", "events[0].questions[0].colour"),
        (
            "/events/0/questions/0/options/1",
            "events[0].questions[0].options[1].colour",
        ),
        ("/events/0/speakers/0", "events[0].speakers[0].colour"),
        (
            "/events/0/speakers/0/availabilities/0",
            "events[0].speakers[0].availabilities[0].colour",
        ),
        ("/events/0/submissions/0", "events[0].submissions[0].colour"),
        (
            "/events/0/submissions/0/resources/0",
            "events[0].submissions[0].resources[0].colour",
        ),
        (
            "/events/0/submissions/0/anonymised",
            "events[0].submissions[0].anonymised.colour",
        ),
        (
            "/events/0/submissions/0/slots/0",
            "events[0].submissions[0].slots[0].colour",
        ),
        ("/events/0/answers/2", "events[0].answers[2].colour"),
        ("/events/0/reviews/0", "events[0].reviews[0].colour"),
    ];
    for (pointer, path) in places {
        assert_eq!(
            with(&format!("{pointer}/colour"), json!("red")),
            vec![format!("{path}: unknown field")],
            "at {pointer:?}"
        );
    }
}

#[test]
fn required_fields_are_reported_when_missing() {
    let cases = [
        ("/users/4/code", "users[4].code"),
        ("/users/4/name", "users[4].name"),
        ("/users/4/email", "users[4].email"),
        ("/events/1/slug", "events[1].slug"),
        ("/events/1/name", "events[1].name"),
        ("/events/1/date_from", "events[1].date_from"),
        ("/events/0/schedule/version", "events[0].schedule.version"),
        (
            "/events/0/schedule/published",
            "events[0].schedule.published",
        ),
        ("/events/0/teams/0/name", "events[0].teams[0].name"),
        (
            "/events/0/submission_types/0/name",
            "events[0].submission_types[0].name",
        ),
        ("/events/0/tracks/1/name", "events[0].tracks[1].name"),
        ("/events/0/rooms/0/name", "events[0].rooms[0].name"),
        (
            "/events/0/rooms/0/availabilities/0/start",
            "events[0].rooms[0].availabilities[0].start",
        ),
        ("/events/0/tags/0/tag", "events[0].tags[0].tag"),
        (
            "/events/0/questions/1/question",
            "events[0].questions[1].question",
        ),
        (
            "/events/0/questions/0/options/1/answer",
            "events[0].questions[0].options[1].answer",
        ),
        (
            "/events/0/submissions/1/title",
            "events[0].submissions[1].title",
        ),
        (
            "/events/0/submissions/1/submission_type",
            "events[0].submissions[1].submission_type",
        ),
        (
            "/events/0/submissions/1/created",
            "events[0].submissions[1].created",
        ),
        (
            "/events/0/submissions/0/resources/0/resource",
            "events[0].submissions[0].resources[0].resource",
        ),
        (
            "/events/0/submissions/0/slots/0/is_visible",
            "events[0].submissions[0].slots[0].is_visible",
        ),
        (
            "/events/0/reviews/0/created",
            "events[0].reviews[0].created",
        ),
        ("/events/0/reviews/0/text", ""), // optional
    ];
    for (pointer, path) in cases {
        let expected: Vec<String> = if path.is_empty() {
            Vec::new()
        } else {
            vec![format!("{path}: required field is missing")]
        };
        assert_eq!(without(pointer), expected, "without {pointer}");
    }
    // A missing id or code also drops what refers to it, so check a few
    // with their consequences spelled out.
    assert_eq!(
        without("/events/0/tracks/1/id"),
        vec!["events[0].tracks[1].id: required field is missing"]
    );
    assert_eq!(
        without("/users/2/code"),
        vec![
            "users[2].code: required field is missing",
            "events[0].speakers[1].user: user \"SPK2\" does not exist",
            "events[0].submissions[0].speakers[1]: user \"SPK2\" does not exist",
            "events[0].submissions[1].speakers[0]: user \"SPK2\" does not exist",
        ]
    );
    assert_eq!(
        without("/events/0/answers/1/question"),
        vec!["events[0].answers[1].question: required field is missing"]
    );
    assert_eq!(
        without("/events/0/reviews/0/user"),
        vec!["events[0].reviews[0].user: required field is missing"]
    );
}
