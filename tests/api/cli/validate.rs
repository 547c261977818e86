//! `confapi validate`: valid documents, then one test per rule family;
//! every problem named with its JSON path.

use super::*;

#[test]
fn validate_accepts_the_shared_and_base_datasets() {
    let cli = Cli::new();
    for file in [democon_path(), client_friendly_path()] {
        let run = cli.validate(&[&file]);
        assert_eq!(run.code, Some(0), "{}: {run:?}", file.display());
        assert!(run.stderr.contains("valid"), "{run:?}");
    }
    let base_file = cli.write("base.json", &base());
    let run = cli.validate(&[&base_file]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let mut two = base();
    set(&mut two, "/events/1", second_event());
    let two = cli.write("two.json", &two);
    let run = cli.validate(&[&two, &democon_path()]);
    assert_eq!(run.code, Some(0), "{run:?}");
    // validate writes no database.
    assert!(!cli.path("x.db").exists());
    assert!(
        !cli.path("confapi.db").exists(),
        "validate created the default database"
    );
}

// ---------------------------------------------------------------------------
// validate: one test per rule family
// ---------------------------------------------------------------------------

#[test]
fn unknown_fields_are_problems_at_every_level() {
    assert_problems(
        &with(&[
            ("/extra", json!(1)),
            ("/users/0/tokenz", json!([])),
            ("/events/0/colour", json!("red")),
            ("/events/0/submissions/0/colour", json!("red")),
            ("/events/0/submissions/0/slots/0/visible", json!(true)),
        ]),
        &[
            ("users[0].tokenz", "unknown field"),
            ("events[0].submissions[0].slots[0].visible", "unknown field"),
            ("events[0].submissions[0].colour", "unknown field"),
            ("events[0].colour", "unknown field"),
            ("extra", "unknown field"),
        ],
    );
}

#[test]
fn missing_required_fields_are_problems() {
    let mut doc = base();
    remove(&mut doc, "/users/2/email");
    remove(&mut doc, "/events/0/date_from");
    remove(&mut doc, "/events/0/submissions/2/created");
    remove(&mut doc, "/events/0/reviews/0/created");
    assert_problems(
        &doc,
        &[
            ("users[2].email", "required field is missing"),
            ("events[0].date_from", "required field is missing"),
            (
                "events[0].submissions[2].created",
                "required field is missing",
            ),
            ("events[0].reviews[0].created", "required field is missing"),
        ],
    );
    let mut doc = base();
    remove(&mut doc, "/format");
    assert_problems(&doc, &[("format", "required field is missing")]);
}

#[test]
fn wrong_types_are_problems() {
    assert_problems(
        &with(&[
            ("/users/2/name", json!(5)),
            ("/events/0/is_public", json!("yes")),
            ("/events/0/rooms/0/capacity", json!("many")),
            ("/events/0/tags/0/is_public", json!(1)),
            ("/events/0/submissions/2/duration", json!(12.5)),
            ("/events/0/reviews/0/score", json!("2")),
        ]),
        &[
            ("users[2].name", "must be a string, got 5"),
            ("events[0].is_public", "must be a boolean, got \"yes\""),
            (
                "events[0].rooms[0].capacity",
                "must be an integer, got \"many\"",
            ),
            ("events[0].tags[0].is_public", "must be a boolean, got 1"),
            ("events[0].submissions[2].duration", "must be an integer"),
            ("events[0].reviews[0].score", "must be a number"),
        ],
    );
}

#[test]
fn codes_must_be_one_to_sixteen_alphanumerics() {
    for bad in ["NO-BODY", "", "ABCDEFGHIJKLMNOPQ", "NÖBODY"] {
        assert_problems(
            &with(&[("/users/2/code", json!(bad))]),
            &[("users[2].code", "invalid code")],
        );
        assert_problems(
            &with(&[("/events/0/submissions/2/code", json!(bad))]),
            &[("events[0].submissions[2].code", "(1 to 16 of [A-Za-z0-9])")],
        );
    }
    // Sixteen is fine.
    let cli = Cli::new();
    let file = cli.write(
        "ok.json",
        &with(&[("/events/0/submissions/2/code", json!("ABCDEFGHIJKLMNOP"))]),
    );
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn slugs_must_have_their_shape() {
    for bad in [
        "-mini",
        "mini.",
        ".mini",
        "mini_conf",
        "mini conf",
        "mini/conf",
        "",
    ] {
        assert_problems(
            &with(&[("/events/0/slug", json!(bad))]),
            &[("events[0].slug", "invalid slug")],
        );
    }
    let cli = Cli::new();
    for good in ["mini.conf-2026", "M", "a.b-c.D9"] {
        let file = cli.write("ok.json", &with(&[("/events/0/slug", json!(good))]));
        let run = cli.validate(&[&file]);
        assert!(run.ok(), "{good}: {run:?}");
    }
}

#[test]
fn duplicate_slugs_and_codes_are_problems() {
    let mut two = second_event();
    two["slug"] = json!("MINI");
    assert_problems(
        &with(&[("/events/1", two)]),
        &[(
            "events[1].slug",
            "duplicate slug \"MINI\" (also at events[0])",
        )],
    );
    assert_problems(
        &with(&[("/users/2/code", json!("ORGA"))]),
        &[(
            "users[2].code",
            "duplicate user code \"ORGA\" (also at users[0])",
        )],
    );
    assert_problems(
        &with(&[("/events/0/submissions/2/code", json!("SUB2"))]),
        &[(
            "events[0].submissions[2].code",
            "duplicate submission code \"SUB2\"",
        )],
    );
}

#[test]
fn duplicate_ids_are_problems_within_and_across_events() {
    let mut two = second_event();
    two["rooms"][0]["id"] = json!(1);
    assert_problems(
        &with(&[
            ("/events/0/tracks/1", json!({"id": 1, "name": "Other"})),
            ("/events/1", two),
        ]),
        &[
            (
                "events[0].tracks[1].id",
                "duplicate track id 1 (also at events[0].tracks[0].id)",
            ),
            (
                "events[1].rooms[0].id",
                "duplicate room id 1 (also at events[0].rooms[0].id)",
            ),
        ],
    );
    // Different kinds may share numbers (base() has track 1, room 1, tag 1 ...).
    let cli = Cli::new();
    let file = cli.write("ok.json", &base());
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn duplicate_emails_are_problems_case_insensitively() {
    assert_problems(
        &with(&[("/users/4/email", json!("ADA@Mini.Example"))]),
        &[(
            "users[4].email",
            "duplicate e-mail \"ADA@Mini.Example\" (also at users[3])",
        )],
    );
}

#[test]
fn references_must_exist_in_the_same_event() {
    assert_problems(
        &with(&[
            ("/events/0/submissions/0/track", json!(99)),
            ("/events/0/submissions/1/submission_type", json!(7)),
            ("/events/0/submissions/0/slots/0/room", json!(7)),
            ("/events/0/submissions/0/tags", json!([5])),
            ("/events/0/teams/0/members/1", json!("GHOST")),
            ("/events/0/reviews/0/submission", json!("NOPE")),
            ("/events/0/answers/0/question", json!(9)),
        ]),
        &[
            (
                "events[0].teams[0].members[1]",
                "user \"GHOST\" does not exist",
            ),
            (
                "events[0].submissions[0].track",
                "track 99 does not exist in event \"mini\"",
            ),
            (
                "events[0].submissions[0].tags[0]",
                "tag 5 does not exist in event \"mini\"",
            ),
            (
                "events[0].submissions[0].slots[0].room",
                "room 7 does not exist in event \"mini\"",
            ),
            (
                "events[0].submissions[1].submission_type",
                "submission type 7 does not exist in event \"mini\"",
            ),
            (
                "events[0].reviews[0].submission",
                "submission \"NOPE\" does not exist in event \"mini\"",
            ),
            (
                "events[0].answers[0].question",
                "question 9 does not exist in event \"mini\"",
            ),
        ],
    );
}

/// Lists and objects where an id or code belongs are reported at their
/// path, like `shared/conformance/validate_dataset.py` reports them (the
/// oracle's validator once crashed on these: they are unhashable in Python).
#[test]
fn lists_and_objects_where_references_belong_are_problems() {
    assert_problems(
        &with(&[
            ("/events/0/answers/0/options", json!([[1]])),
            ("/events/0/submissions/0/track", json!({"a": 1})),
            ("/events/0/reviews/0/id", json!([1])),
            ("/events/0/reviews/0/submission", json!({"a": 1})),
            ("/events/0/submissions/1/speakers", json!([["SPK2"]])),
            ("/events/0/submissions/0/tags", json!([[1]])),
            ("/events/0/teams/0/members/1", json!({"x": 1})),
            ("/events/0/answers/2/question", json!([3])),
        ]),
        &[
            (
                "events[0].answers[0].options[0]",
                "must be an integer, got a list",
            ),
            (
                "events[0].submissions[0].track",
                "must be an integer, got an object",
            ),
            ("events[0].reviews[0].id", "got a list"),
            ("events[0].reviews[0].submission", "got an object"),
            (
                "events[0].submissions[1].speakers[0]",
                "must be a user code, got a list",
            ),
            (
                "events[0].submissions[0].tags[0]",
                "must be an integer, got a list",
            ),
            (
                "events[0].teams[0].members[1]",
                "must be a user code, got an object",
            ),
            (
                "events[0].answers[2].question",
                "must be an integer, got a list",
            ),
            // Answer 3 belongs to review 1, whose id is now broken.
            (
                "events[0].answers[2].review",
                "review 1 does not exist in event \"mini\"",
            ),
        ],
    );
}

/// The optional fields of the schedule exports (dataset.md): upstream ids,
/// slot guids, breaks, the event colour, track descriptions and positions.
#[test]
fn schedule_export_fields_are_checked() {
    let breaks = json!([
        {"id": 7, "room": 99, "start": "2026-06-01T12:00:00Z", "end": "2026-06-01T12:00:00Z"},
        {"id": 5, "start": "2026-06-01T15:00:00Z", "end": "2026-06-01T15:30:00Z", "x": 1},
        {"end": "2026-06-01T15:30:00Z", "description": "Coffee"}
    ]);
    assert_problems(
        &with(&[
            ("/users/0/id", json!(1)),
            ("/users/1/id", json!(1)),
            ("/users/2/id", json!("2")),
            ("/events/0/primary_color", json!("red")),
            ("/events/0/tracks/0/position", json!("1")),
            ("/events/0/tracks/0/description", json!(5)),
            ("/events/0/submissions/0/id", json!(3)),
            ("/events/0/submissions/1/id", json!(3)),
            ("/events/0/submissions/0/slots/0/id", json!(5)),
            ("/events/0/submissions/0/slots/0/guid", json!("nope")),
            ("/events/0/schedule/breaks", breaks),
        ]),
        &[
            ("users[1].id", "duplicate user id 1 (also at users[0].id)"),
            (
                "users[2].id",
                "must be a positive integer or null, got \"2\"",
            ),
            (
                "events[0].primary_color",
                "must be a colour #rrggbb or null, got \"red\"",
            ),
            ("events[0].tracks[0].position", "must be an integer"),
            ("events[0].tracks[0].description", "must be"),
            ("events[0].submissions[1].id", "duplicate submission id 3"),
            (
                "events[0].submissions[0].slots[0].guid",
                "must be a UUID string",
            ),
            (
                "events[0].schedule.breaks[0].room",
                "room 99 does not exist in event \"mini\"",
            ),
            ("events[0].schedule.breaks[0].end", "must be after start"),
            (
                "events[0].schedule.breaks[1].id",
                "duplicate slot id 5 (also at events[0].submissions[0].slots[0].id)",
            ),
            ("events[0].schedule.breaks[1].x", "unknown field"),
            (
                "events[0].schedule.breaks[2].start",
                "required field is missing",
            ),
        ],
    );
}

#[test]
fn schedule_export_fields_round_trip() {
    let doc = with(&[
        ("/users/0/id", json!(41)),
        ("/events/0/primary_color", json!("#3aA57c")),
        ("/events/0/tracks/0/position", json!(2)),
        (
            "/events/0/tracks/0/description",
            json!({"en": "Main track", "de": "Hauptprogramm"}),
        ),
        ("/events/0/submissions/0/id", json!(17)),
        ("/events/0/submissions/0/slots/0/id", json!(301)),
        (
            "/events/0/submissions/0/slots/0/guid",
            json!("6f1c2e0a-4b7d-4c55-9a6e-2f3b1d0c9e8a"),
        ),
        (
            "/events/0/schedule/breaks",
            json!([{"id": 302, "room": 1, "start": "2026-06-01T12:00:00+02:00",
                    "end": "2026-06-01T13:00:00+02:00", "description": "Lunch"}]),
        ),
    ]);
    let cli = Cli::new();
    let file = cli.write("fields.json", &doc);
    cli.import_ok(&[&file]);
    let exported = cli.export();
    assert_eq!(exported, normalised(&doc));
    let event = event_by_slug(&exported, "mini");
    assert_eq!(event["primary_color"], json!("#3aA57c"));
    assert_eq!(
        event["schedule"]["breaks"],
        json!([{"id": 302, "room": 1, "start": "2026-06-01T10:00:00Z", "end": "2026-06-01T11:00:00Z",
                "description": {"en": "Lunch"}}])
    );
    assert_eq!(
        event["submissions"][0]["slots"][0]["guid"],
        json!("6f1c2e0a-4b7d-4c55-9a6e-2f3b1d0c9e8a")
    );
    assert_eq!(user_by_code(&exported, "ORGA").unwrap()["id"], json!(41));
    assert_eq!(user_by_code(&exported, "REV").unwrap()["id"], Value::Null);
}

#[test]
fn texts_never_set_stay_null_through_import_and_export() {
    // pretalx's nullable texts keep null apart from {} and {"en": ""}.
    let doc = with(&[
        ("/events/0/rooms/0/description", Value::Null),
        ("/events/0/rooms/0/speaker_info", json!({"en": ""})),
        ("/events/0/tracks/0/description", Value::Null),
        ("/events/0/tags/0/description", json!({})),
    ]);
    let cli = Cli::new();
    let file = cli.write("nulls.json", &doc);
    cli.import_ok(&[&file]);
    let event = event_by_slug(&cli.export(), "mini").clone();
    assert_eq!(event["rooms"][0]["description"], Value::Null);
    assert_eq!(event["rooms"][0]["speaker_info"], json!({"en": ""}));
    assert_eq!(event["tracks"][0]["description"], Value::Null);
    assert_eq!(event["tags"][0]["description"], json!({}));
    // The export imports again to the same export.
    let first = cli.export();
    let again = cli.write("again.json", &first);
    cli.import_ok(&[&again]);
    assert_eq!(cli.export(), first);
}

#[test]
fn references_into_another_event_are_problems() {
    // Track 1 and submission type 1 exist, but in event "mini", not "mini2".
    let mut two = second_event();
    two["submissions"][0]["track"] = json!(1);
    two["submissions"][0]["submission_type"] = json!(1);
    two["reviews"] =
        json!([{"id": 2, "submission": "PUB1", "user": "REV", "created": "2026-04-01T10:00:00Z"}]);
    assert_problems(
        &with(&[("/events/1", two)]),
        &[
            (
                "events[1].submissions[0].submission_type",
                "submission type 1 does not exist in event \"mini2\"",
            ),
            (
                "events[1].submissions[0].track",
                "track 1 does not exist in event \"mini2\"",
            ),
            (
                "events[1].reviews[0].submission",
                "submission \"PUB1\" does not exist in event \"mini2\"",
            ),
        ],
    );
}

#[test]
fn answers_must_match_their_questions_target() {
    assert_problems(
        &with(&[(
            "/events/0/answers/0",
            json!({"id": 1, "question": 2, "person": "SPK1", "answer": "x"}),
        )]),
        &[(
            "events[0].answers[0].person",
            "question 2 has target \"submission\", so the answer must set \"submission\"",
        )],
    );
    assert_problems(
        &with(&[(
            "/events/0/answers/1",
            json!({"id": 2, "question": 1, "review": 1}),
        )]),
        &[(
            "events[0].answers[1].review",
            "question 1 has target \"speaker\", so the answer must set \"person\"",
        )],
    );
    assert_problems(
        &with(&[("/events/0/answers/2", json!({"id": 3, "question": 3}))]),
        &[(
            "events[0].answers[2]",
            "exactly one of submission, person, review must be set (got none)",
        )],
    );
    assert_problems(
        &with(&[(
            "/events/0/answers/2",
            json!({"id": 3, "question": 3, "review": 1, "submission": "SUB2"}),
        )]),
        &[(
            "events[0].answers[2]",
            "exactly one of submission, person, review must be set (got submission, review)",
        )],
    );
    assert_problems(
        &with(&[("/events/0/answers/0/options", json!([2, 7]))]),
        &[(
            "events[0].answers[0].options[1]",
            "option 7 is not an option of question 2",
        )],
    );
}

#[test]
fn speakers_need_a_profile_in_the_event() {
    assert_problems(
        &with(&[(
            "/events/0/submissions/2/speakers",
            json!(["SPK1", "SPK2", "NOBODY"]),
        )]),
        &[(
            "events[0].submissions[2].speakers[2]",
            "speaker \"NOBODY\" has no speaker profile in event \"mini\"",
        )],
    );
    assert_problems(
        &with(&[("/events/0/answers/1/person", json!("REV"))]),
        &[(
            "events[0].answers[1].person",
            "user \"REV\" has no speaker profile in event \"mini\"",
        )],
    );
}

#[test]
fn slots_need_a_released_schedule() {
    assert_problems(
        &with(&[("/events/0/schedule", Value::Null)]),
        &[(
            "events[0].submissions[0].slots",
            "event \"mini\" has no released schedule, so no slots are allowed",
        )],
    );
    // Without slots, no schedule is fine.
    let mut doc = with(&[("/events/0/schedule", Value::Null)]);
    set(&mut doc, "/events/0/submissions/0/slots", json!([]));
    let cli = Cli::new();
    let file = cli.write("ok.json", &doc);
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn time_zones_must_be_iana_names() {
    assert_problems(
        &with(&[
            ("/events/0/timezone", json!("Europe/Atlantis")),
            ("/users/0/timezone", json!("Mars/Olympus")),
        ]),
        &[
            ("users[0].timezone", "unknown time zone \"Mars/Olympus\""),
            (
                "events[0].timezone",
                "unknown time zone \"Europe/Atlantis\"",
            ),
        ],
    );
}

#[test]
fn datetimes_need_an_offset() {
    assert_problems(
        &with(&[
            (
                "/events/0/submissions/0/created",
                json!("2026-03-01T12:00:00"),
            ),
            (
                "/events/0/submissions/0/slots/0/start",
                json!("2026-06-01 10:00"),
            ),
            ("/events/0/reviews/0/updated", json!("2026-04-01")),
            ("/events/0/schedule/published", json!(1234567890)),
        ]),
        &[
            (
                "events[0].schedule.published",
                "must be a datetime string with offset",
            ),
            (
                "events[0].submissions[0].created",
                "invalid datetime \"2026-03-01T12:00:00\" (RFC 3339 with offset required)",
            ),
            (
                "events[0].submissions[0].slots[0].start",
                "invalid datetime \"2026-06-01 10:00\"",
            ),
            (
                "events[0].reviews[0].updated",
                "invalid datetime \"2026-04-01\"",
            ),
        ],
    );
}

#[test]
fn token_hashes_must_be_sha256_hex() {
    let upper = format!("sha256:{}", sha256_hex("abc").to_uppercase());
    let short = format!("sha256:{}", &sha256_hex("abc")[1..]);
    let other = format!("md5:{}", sha256_hex("abc"));
    let good = format!("sha256:{}", sha256_hex("abc"));
    assert_problems(
        &with(&[(
            "/users/2/token_hashes",
            json!([good, upper, short, other, 12]),
        )]),
        &[
            (
                "users[2].token_hashes[1]",
                "must be sha256:<64 lower-case hex digits>",
            ),
            (
                "users[2].token_hashes[2]",
                "must be sha256:<64 lower-case hex digits>",
            ),
            (
                "users[2].token_hashes[3]",
                "must be sha256:<64 lower-case hex digits>",
            ),
            (
                "users[2].token_hashes[4]",
                "must be sha256:<64 lower-case hex digits>",
            ),
        ],
    );
    // A clear token and the hash of the same token are one token twice.
    assert_problems(
        &with(&[(
            "/users/2/token_hashes",
            json!([format!("sha256:{}", sha256_hex("orga-token"))]),
        )]),
        &[(
            "users[2].token_hashes[0]",
            "duplicate token hash (also at users[0].tokens[0])",
        )],
    );
}

#[test]
fn one_user_may_review_a_submission_only_once() {
    assert_problems(
        &with(&[(
            "/events/0/reviews/1",
            json!({"id": 2, "submission": "SUB2", "user": "REV", "created": "2026-04-02T10:00:00Z"}),
        )]),
        &[(
            "events[0].reviews[1]",
            "second review by \"REV\" of \"SUB2\" (also at events[0].reviews[0])",
        )],
    );
    // Another reviewer, or another submission, is fine.
    let cli = Cli::new();
    let file = cli.write(
        "ok.json",
        &with(&[(
            "/events/0/reviews/1",
            json!({"id": 2, "submission": "SUB3", "user": "REV", "created": "2026-04-02T10:00:00Z"}),
        )]),
    );
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn invalid_json_is_one_problem_at_the_root() {
    let cli = Cli::new();
    let file = cli.path("syntax.json");
    std::fs::write(&file, "{\"format\": \"cfp-dataset\",\n \"version\": 1,,}").unwrap();
    let run = cli.validate(&[&file]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let lines = problem_lines(&run, &file);
    assert_eq!(lines.len(), 1, "{run:?}");
    assert!(lines[0].starts_with("$: invalid JSON at line 2"), "{run:?}");
}

#[test]
fn validate_lists_every_problem_of_every_file() {
    let cli = Cli::new();
    let mut first = base();
    set(&mut first, "/events/0/submissions/0/track", json!(99));
    set(&mut first, "/users/4/email", json!("ada@MINI.example"));
    set(&mut first, "/events/0/timezone", json!("Nowhere"));
    set(
        &mut first,
        "/events/0/submissions/1/created",
        json!("2026-03-02T12:00"),
    );
    remove(&mut first, "/events/0/name");
    let first = cli.write("first.json", &first);
    let mut second = helpers::democon();
    set(&mut second, "/events/0/submissions/3/track", json!(4242));
    set(&mut second, "/events/1/slug", json!("bad slug"));
    let second = cli.write("second.json", &second);
    let good = client_friendly_path();

    let run = cli.validate(&[&first, &good, &second]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let first_lines = problem_lines(&run, &first);
    for expected in [
        "users[4].email: duplicate e-mail",
        "events[0].name: required field is missing",
        "events[0].timezone: unknown time zone \"Nowhere\"",
        "events[0].submissions[0].track: track 99 does not exist in event \"mini\"",
        "events[0].submissions[1].created: invalid datetime",
    ] {
        assert!(
            first_lines.iter().any(|l| l.starts_with(expected)),
            "{expected:?} missing: {run:?}"
        );
    }
    assert_eq!(first_lines.len(), 5, "{run:?}");
    let second_lines = problem_lines(&run, &second);
    for expected in [
        "events[0].submissions[3].track: track 4242 does not exist in event \"democon\"",
        "events[1].slug: invalid slug \"bad slug\"",
    ] {
        assert!(
            second_lines.iter().any(|l| l.starts_with(expected)),
            "{expected:?} missing: {run:?}"
        );
    }
    assert_eq!(second_lines.len(), 2, "{run:?}");
    assert!(problem_lines(&run, &good).is_empty(), "{run:?}");
}
