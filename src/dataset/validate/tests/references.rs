//! References between records, tokens, and the smaller records.

use super::*;

#[test]
fn references_must_exist_in_the_same_event() {
    let democon = "in event \"democon\"";
    // Track 99 exists, but in the other event.
    let cases = [
        ("/events/0/submissions/0/track", json!(99), format!("events[0].submissions[0].track: track 99 does not exist {democon}")),
        ("/events/0/teams/1/limit_tracks/0", json!(99), format!("events[0].teams[1].limit_tracks[0]: track 99 does not exist {democon}")),
        ("/events/0/questions/0/tracks/0", json!(7), format!("events[0].questions[0].tracks[0]: track 7 does not exist {democon}")),
        ("/events/0/questions/0/submission_types/0", json!(7), format!("events[0].questions[0].submission_types[0]: submission type 7 does not exist {democon}")),
        ("/events/0/submissions/1/submission_type", json!(7), format!("events[0].submissions[1].submission_type: submission type 7 does not exist {democon}")),
        ("/events/0/submissions/0/tags/0", json!(7), format!("events[0].submissions[0].tags[0]: tag 7 does not exist {democon}")),
        ("/events/0/submissions/0/slots/0/room", json!(7), format!("events[0].submissions[0].slots[0].room: room 7 does not exist {democon}")),
        ("/events/0/submissions/0/speakers/1", json!("NOBODY"), "events[0].submissions[0].speakers[1]: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/submissions/0/assigned_reviewers/0", json!("NOBODY"), "events[0].submissions[0].assigned_reviewers[0]: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/teams/0/members/0", json!("NOBODY"), "events[0].teams[0].members[0]: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/teams/0/members/0", json!(1), "events[0].teams[0].members[0]: must be a user code, got 1".to_string()),
        ("/events/0/speakers/2", json!({"user": "NOBODY"}), "events[0].speakers[2].user: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/reviews/0/user", json!("NOBODY"), "events[0].reviews[0].user: user \"NOBODY\" does not exist".to_string()),
        ("/events/0/answers/2/review", json!(5), format!("events[0].answers[2].review: review 5 does not exist {democon}")),
        ("/events/0/answers/0/options/0", json!(9), "events[0].answers[0].options[0]: option 9 is not an option of question 1".to_string()),
        ("/events/0/answers/0/options/0", json!("1"), "events[0].answers[0].options[0]: must be an integer, got \"1\"".to_string()),
        ("/events/0/answers/0/question", json!(9), format!("events[0].answers[0].question: question 9 does not exist {democon}")),
        ("/events/0/answers/0/submission", json!("NOPE"), format!("events[0].answers[0].submission: submission \"NOPE\" does not exist {democon}")),
        ("/events/0/reviews/0/submission", json!("NOPE"), format!("events[0].reviews[0].submission: submission \"NOPE\" does not exist {democon}")),
        ("/events/0/reviews/0/submission", json!(1), "events[0].reviews[0].submission: must be a submission code, got 1".to_string()),
    ];
    for (pointer, value, expected) in cases {
        assert_eq!(with(pointer, value), vec![expected], "{pointer}");
    }
    // Option 2 belongs to question 1 but not to question 3.
    assert_eq!(
        with("/events/0/answers/2/options", json!([2])),
        vec!["events[0].answers[2].options[0]: option 2 is not an option of question 3"]
    );
}

#[test]
fn references_into_another_event_are_rejected() {
    let mut doc = base();
    doc["events"][1] = json!({
        "slug": "other", "name": "Other", "date_from": "2027-01-01",
        "submission_types": [{"id": 5, "name": "Talk"}],
        "speakers": [{"user": "SPK2"}],
        "submissions": [{"code": "OTHER1", "title": "T", "submission_type": 1,
                         "speakers": ["SPK1"], "created": "2026-09-02T12:00:00Z"}],
        "reviews": [{"id": 7, "submission": "TALK1", "user": "REV1",
                     "created": "2026-10-01T10:00:00Z"}],
        "answers": [{"id": 8, "question": 1, "submission": "OTHER1"}]
    });
    assert_eq!(
        problems(&doc),
        vec![
            "events[1].submissions[0].speakers[0]: speaker \"SPK1\" has no speaker profile in event \"other\"",
            "events[1].submissions[0].submission_type: submission type 1 does not exist in event \"other\"",
            "events[1].reviews[0].submission: submission \"TALK1\" does not exist in event \"other\"",
            "events[1].answers[0].question: question 1 does not exist in event \"other\"",
        ]
    );
}

#[test]
fn speakers_need_a_profile_in_the_event() {
    assert_eq!(
        with("/events/0/submissions/1/speakers/0", json!("REV1")),
        vec!["events[0].submissions[1].speakers[0]: speaker \"REV1\" has no speaker profile in event \"democon\""]
    );
}

#[test]
fn at_most_one_profile_per_user_and_event() {
    assert_eq!(
        with("/events/0/speakers/2", json!({"user": "SPK1"})),
        vec!["events[0].speakers[2].user: second profile for user \"SPK1\" in event \"democon\" (also at events[0].speakers[0])"]
    );
}

#[test]
fn answers_have_exactly_one_owner_matching_the_target() {
    assert_eq!(
        without("/events/0/answers/0/submission"),
        vec!["events[0].answers[0]: exactly one of submission, person, review must be set (got none)"]
    );
    assert_eq!(
        with("/events/0/answers/0/review", json!(1)),
        vec!["events[0].answers[0]: exactly one of submission, person, review must be set (got submission, review)"]
    );
    // A null owner counts as not set.
    assert!(with("/events/0/answers/0/person", json!(null)).is_empty());
    let mut doc = base();
    remove(&mut doc, "/events/0/answers/0/submission");
    set(&mut doc, "/events/0/answers/0/person", json!("SPK1"));
    assert_eq!(
        problems(&doc),
        vec!["events[0].answers[0].person: question 1 has target \"submission\", so the answer must set \"submission\""]
    );
    let mut doc = base();
    remove(&mut doc, "/events/0/answers/1/person");
    set(&mut doc, "/events/0/answers/1/review", json!(1));
    assert_eq!(
        problems(&doc),
        vec!["events[0].answers[1].review: question 2 has target \"speaker\", so the answer must set \"person\""]
    );
    let mut doc = base();
    remove(&mut doc, "/events/0/answers/2/review");
    set(&mut doc, "/events/0/answers/2/submission", json!("TALK2"));
    assert_eq!(
        problems(&doc),
        vec!["events[0].answers[2].submission: question 3 has target \"reviewer\", so the answer must set \"review\""]
    );
}

#[test]
fn answer_person_needs_a_profile() {
    assert_eq!(
        with("/events/0/answers/1/person", json!("REV1")),
        vec!["events[0].answers[1].person: user \"REV1\" has no speaker profile in event \"democon\""]
    );
}

#[test]
fn at_most_one_review_per_user_and_submission() {
    assert_eq!(
        with(
            "/events/0/reviews/1",
            json!({"id": 2, "submission": "TALK1", "user": "REV1", "created": "2026-10-02T10:00:00Z"})
        ),
        vec!["events[0].reviews[1]: second review by \"REV1\" of \"TALK1\" (also at events[0].reviews[0])"]
    );
    // Another submission by the same reviewer is fine.
    assert!(with(
        "/events/0/reviews/1",
        json!({"id": 2, "submission": "TALK2", "user": "REV1", "created": "2026-10-02T10:00:00Z"})
    )
    .is_empty());
}

#[test]
fn slots_only_with_a_released_schedule() {
    assert_eq!(
        with("/events/0/schedule", json!(null)),
        vec!["events[0].submissions[0].slots: event \"democon\" has no released schedule, so no slots are allowed"]
    );
    let mut doc = base();
    set(&mut doc, "/events/0/schedule", json!(null));
    set(&mut doc, "/events/0/submissions/0/slots", json!([]));
    assert!(problems(&doc).is_empty());
}

#[test]
fn schedule_version_must_not_be_empty() {
    assert_eq!(
        with("/events/0/schedule/version", json!("")),
        vec!["events[0].schedule.version: must not be empty"]
    );
    assert_eq!(
        with("/events/0/schedule", json!("1.0")),
        vec!["events[0].schedule: must be an object, got \"1.0\""]
    );
}

#[test]
fn counts_and_durations_have_lower_limits() {
    assert_eq!(
        with("/events/0/submissions/0/slot_count", json!(0)),
        vec!["events[0].submissions[0].slot_count: must be at least 1"]
    );
    assert!(with("/events/0/submissions/0/slot_count", json!(2)).is_empty());
    assert_eq!(
        with("/events/0/submissions/0/duration", json!(-1)),
        vec!["events[0].submissions[0].duration: must not be negative"]
    );
    assert!(with("/events/0/submissions/0/duration", json!(0)).is_empty());
    assert_eq!(
        with("/events/0/submission_types/0/default_duration", json!(-5)),
        vec!["events[0].submission_types[0].default_duration: must not be negative"]
    );
    assert_eq!(
        with("/events/0/rooms/0/capacity", json!(-1)),
        vec!["events[0].rooms[0].capacity: must not be negative"]
    );
    assert_eq!(
        with("/events/0/questions/0/min_length", json!(-1)),
        vec!["events[0].questions[0].min_length: must not be negative"]
    );
    assert_eq!(
        with("/events/0/questions/0/max_length", json!(-1)),
        vec!["events[0].questions[0].max_length: must not be negative"]
    );
    // Positions may be negative.
    assert!(with("/events/0/rooms/0/position", json!(-3)).is_empty());
}

// ---- tokens ---------------------------------------------------------------------------------

#[test]
fn tokens_are_hashed_and_hashes_checked() {
    let hash = hash_token("abc");
    let mut doc = base();
    set(&mut doc, "/users/2/tokens", json!(["abc"]));
    set(
        &mut doc,
        "/users/3/token_hashes",
        json!([format!("sha256:{}", hash_token("xyz"))]),
    );
    let d = parse_ok(&doc);
    assert_eq!(d.users[2].token_hashes, vec![TokenHash::plain(hash)]);
    assert_eq!(
        d.users[3].token_hashes,
        vec![TokenHash::plain(hash_token("xyz"))]
    );

    for bad in [
        json!(hash_token("abc")), // no prefix
        json!(format!("sha256:{}", hash_token("abc").to_uppercase())),
        json!(format!("sha256:{}", &hash_token("abc")[1..])), // 63 digits
        json!(format!("SHA256:{}", hash_token("abc"))),
        json!(5),
    ] {
        assert_eq!(
            with("/users/2/token_hashes", json!([bad])),
            vec!["users[2].token_hashes[0]: must be sha256:<64 lower-case hex digits>"]
        );
    }
    for bad in [json!(""), json!("two words"), json!(null)] {
        assert_eq!(
            with("/users/2/tokens", json!([bad])),
            vec!["users[2].tokens[0]: token must be a non-empty string without whitespace"]
        );
    }
}

#[test]
fn tokens_are_unique_across_users() {
    assert_eq!(
        with("/users/2/tokens", json!(["secret-token"])),
        vec!["users[2].tokens[0]: duplicate token (also at users[0].tokens[0])"]
    );
    assert_eq!(
        with(
            "/users/2/token_hashes",
            json!([format!("sha256:{}", hash_token("other-token"))])
        ),
        vec!["users[2].token_hashes[0]: duplicate token hash (also at users[1].token_hashes[0])"]
    );
    // A clear token and the hash of the same token are the same token.
    assert_eq!(
        with(
            "/users/2/token_hashes",
            json!([format!("sha256:{}", hash_token("secret-token"))])
        ),
        vec!["users[2].token_hashes[0]: duplicate token hash (also at users[0].tokens[0])"]
    );
}

// ---- smaller records ----------------------------------------------------------------------

#[test]
fn anonymised_is_null_or_an_object_of_texts() {
    let mut doc = base();
    set(&mut doc, "/events/0/submissions/1/anonymised", json!({}));
    let d = parse_ok(&doc);
    let empty = d.events[0].submissions[1]
        .anonymised
        .as_ref()
        .expect("anonymised");
    assert!(empty.title.is_empty() && empty.abstract_.is_empty() && empty.description.is_empty());
    assert!(d.events[0].submissions[0]
        .anonymised
        .as_ref()
        .is_some_and(|a| a.title == "A talk"));

    let mut doc = base();
    set(&mut doc, "/events/0/submissions/1/anonymised", json!(null));
    assert!(parse_ok(&doc).events[0].submissions[1].anonymised.is_none());

    assert_eq!(
        with("/events/0/submissions/0/anonymised/abstract", json!(null)),
        vec!["events[0].submissions[0].anonymised.abstract: must be a string, not null"]
    );
    assert_eq!(
        with("/events/0/submissions/0/anonymised/notes", json!("x")),
        vec!["events[0].submissions[0].anonymised.notes: unknown field"]
    );
    assert_eq!(
        with("/events/0/submissions/0/anonymised", json!("x")),
        vec!["events[0].submissions[0].anonymised: must be an object, got \"x\""]
    );
}

#[test]
fn review_updated_defaults_to_created() {
    let d = parse_ok(&base());
    assert_eq!(d.events[0].reviews[0].updated, ts("2026-10-01T10:00:00Z"));
    let mut doc = base();
    set(&mut doc, "/events/0/reviews/0/updated", json!(null));
    assert_eq!(
        parse_ok(&doc).events[0].reviews[0].updated,
        ts("2026-10-01T10:00:00Z")
    );
    set(
        &mut doc,
        "/events/0/reviews/0/updated",
        json!("2026-10-03T10:00:00Z"),
    );
    assert_eq!(
        parse_ok(&doc).events[0].reviews[0].updated,
        ts("2026-10-03T10:00:00Z")
    );
}

#[test]
fn urls_must_be_absolute() {
    assert_eq!(
        with("/users/1/avatar", json!("example.org/a.png")),
        vec!["users[1].avatar: must be an absolute URL, got \"example.org/a.png\""]
    );
    assert_eq!(
        with("/events/0/submissions/0/image", json!("https:///x")),
        vec!["events[0].submissions[0].image: must be an absolute URL, got \"https:///x\""]
    );
    assert_eq!(
        with("/events/0/answers/0/answer_file", json!("http://x/a b")),
        vec!["events[0].answers[0].answer_file: must be an absolute URL, got \"http://x/a b\""]
    );
    assert_eq!(
        with("/events/0/submissions/0/resources/0/resource", json!(null)),
        vec!["events[0].submissions[0].resources[0].resource: must be an absolute URL, got null"]
    );
    assert!(with("/users/1/avatar", json!("http://example.org")).is_empty());
    assert!(with("/users/1/avatar", json!(null)).is_empty());
}

#[test]
fn room_guid_is_a_uuid() {
    assert_eq!(
        with("/events/0/rooms/0/guid", json!("not-a-uuid")),
        vec!["events[0].rooms[0].guid: must be a UUID string, got \"not-a-uuid\""]
    );
    assert_eq!(
        with("/events/0/rooms/0/guid", json!(12)),
        vec!["events[0].rooms[0].guid: must be a UUID string, got 12"]
    );
    assert!(with(
        "/events/0/rooms/0/guid",
        json!("FDC7B5B37EF759A881B69B603297B8A1")
    )
    .is_empty());
    assert!(with("/events/0/rooms/0/guid", json!(null)).is_empty());
}
