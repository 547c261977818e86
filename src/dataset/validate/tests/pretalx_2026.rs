//! What pretalx 2026 added (issue 62): optional, with defaults.

use super::*;

#[test]
fn pretalx_2026_fields_are_read_and_exported() {
    let mut doc = base();
    let e = &mut doc["events"][0];
    e["og_image"] = json!("https://democon.example/og.png");
    e["tracks"][0]["attendee_signup_required"] = json!(true);
    e["submission_types"][0]["attendee_signup_required"] = json!(true);
    e["questions"][0]["identifier"] = json!("LEVEL.1");
    e["questions"][0]["options"][0]["identifier"] = json!("beg_1");
    e["submissions"][0]["updated"] = json!("2026-10-02T10:00:00+02:00");
    e["submissions"][0]["invitations"] =
        json!([{"id": 3, "email": "co@democon.example", "created": "2026-10-01T10:00:00Z"}]);
    e["submissions"][0]["attendee_signup"] =
        json!({"required": null, "capacity": 40, "status": "open"});
    let d = parse_ok(&doc);
    let e = &d.events[0];
    assert_eq!(
        e.og_image.as_deref(),
        Some("https://democon.example/og.png")
    );
    assert!(e.tracks[0].attendee_signup_required && e.submission_types[0].attendee_signup_required);
    assert_eq!(e.questions[0].identifier.as_deref(), Some("LEVEL.1"));
    assert_eq!(
        e.questions[0].options[0].identifier.as_deref(),
        Some("beg_1")
    );
    let sub = &e.submissions[0];
    assert_eq!(
        sub.updated.map(|t| t.to_rfc3339()),
        Some("2026-10-02T08:00:00+00:00".into())
    );
    assert_eq!(sub.invitations.len(), 1);
    assert_eq!(
        sub.attendee_signup.as_deref(),
        Some(&AttendeeSignup {
            required: None,
            capacity: Some(40),
            status: Some(SignupStatus::Open)
        })
    );
    assert_eq!(
        parse_ok(&export::to_json(&d)),
        d,
        "the export reads back the same"
    );
    // Without them: the defaults, and nothing written.
    let plain = parse_ok(&base());
    let e = &plain.events[0];
    assert_eq!(e.og_image, None);
    assert!(!e.tracks[0].attendee_signup_required);
    assert!(e
        .questions
        .iter()
        .all(|q| q.identifier.is_none() && q.options.iter().all(|o| o.identifier.is_none())));
    assert!(e
        .submissions
        .iter()
        .all(|s| s.updated.is_none() && s.invitations.is_empty() && s.attendee_signup.is_none()));
    let exported = export::to_json(&plain);
    for sub in exported["events"][0]["submissions"].as_array().unwrap() {
        assert!(sub.get("updated").is_none(), "updated written");
    }
    let exported = exported.to_string();
    for key in ["og_image", "attendee_signup", "identifier", "invitations"] {
        assert!(!exported.contains(key), "{key} written");
    }
}

#[test]
fn bad_pretalx_2026_fields_are_named_with_their_paths() {
    let mut doc = base();
    let e = &mut doc["events"][0];
    e["og_image"] = json!("not a url");
    e["questions"][0]["identifier"] = json!("has space");
    e["questions"][1]["identifier"] = json!("SAME");
    e["questions"][2]["identifier"] = json!("SAME");
    e["questions"][0]["options"][0]["identifier"] = json!("o");
    e["questions"][0]["options"][1]["identifier"] = json!("o");
    e["tracks"][0]["attendee_signup_required"] = json!("yes");
    e["submissions"][0]["updated"] = json!("yesterday");
    e["submissions"][0]["invitations"] =
        json!([{"id": 1}, {"id": 1, "email": "a@b.example", "extra": 1}]);
    e["submissions"][0]["attendee_signup"] = json!({"capacity": 0, "status": "closed"});
    let found = problems(&doc);
    for expected in [
        "events[0].og_image",
        "events[0].questions[0].identifier: must be 1 to 190 letters, digits, dots, dashes and underscores, got \"has space\"",
        "events[0].questions[2].identifier: duplicate identifier \"SAME\" in the event (also at events[0].questions[1].identifier)",
        "events[0].questions[0].options[1].identifier: duplicate identifier \"o\" of the question (also at events[0].questions[0].options[0].identifier)",
        "events[0].tracks[0].attendee_signup_required",
        "events[0].submissions[0].updated",
        "events[0].submissions[0].invitations[0].email",
        "events[0].submissions[0].invitations[1].id: duplicate invitation id 1",
        "events[0].submissions[0].invitations[1].extra",
        "events[0].submissions[0].attendee_signup.capacity",
        "events[0].submissions[0].attendee_signup.status: must be \"open\", \"full\" or null, got \"closed\"",
    ] {
        assert!(
            found.iter().any(|p| p.starts_with(expected)),
            "{expected} not in {found:#?}"
        );
    }
}
