//! The values of submissions and talks for every role: datetimes in the
//! event's time zone, and which slot a talk shows.

use super::*;

/// Multi-lingual objects (also from plain strings), duration fallbacks, the
/// slot rule, resources, image, tags, speakers in dataset order with this
/// event's biography, datetimes in the event's time zone.
fn values_dataset() -> Value {
    let mut d = base();
    users(&mut d)[3]["avatar"] = json!("https://img.mini.example/ada.png");
    let e = mini_event(&mut d);
    e["submission_types"] = json!([
        {"id": 1, "name": {"en": "Talk", "de": "Vortrag"}, "default_duration": 40},
        {"id": 2, "name": "Workshop", "default_duration": 90},
        {"id": 3, "name": {"en": "Panel"}}
    ]);
    e["tracks"] =
        json!([{"id": 1, "name": {"en": "Main", "de": "Haupt"}}, {"id": 2, "name": "Side"}]);
    e["rooms"] =
        json!([{"id": 1, "name": {"en": "Hall", "de": "Halle"}}, {"id": 2, "name": "Annex"}]);
    e["tags"] = json!([{"id": 1, "tag": "hot.topic"}, {"id": 2, "tag": "Alpha"}]);
    e["submissions"] = json!([
        {"code": "PUB1", "title": "Public Talk", "speakers": ["SPK2", "SPK1"], "submission_type": 1,
         "track": 1, "state": "confirmed", "abstract": "Short.", "description": "Long.",
         "notes": "Speaker note", "internal_notes": "Orga note", "slot_count": 2,
         "do_not_record": true, "is_featured": true, "content_locale": "de",
         "image": "https://img.mini.example/pub1.png", "created": "2026-05-01T10:00:00Z", "tags": [2, 1],
         "resources": [{"resource": "https://files.mini.example/slides.pdf", "description": "Slides"},
                       {"resource": "https://files.mini.example/code.zip"}],
         // listed: a later slot, the earliest (no end: start + the type default 40), one without a start
         "slots": [{"room": 2, "start": "2026-06-02T09:00:00+02:00", "end": "2026-06-02T09:45:00+02:00", "is_visible": true},
                   {"room": 1, "start": "2026-06-01T08:00:00Z", "end": null, "is_visible": true},
                   {"room": 1, "start": null, "end": null, "is_visible": true}]},
        {"code": "SUB2", "title": "Workshop Without Start", "speakers": ["SPK2"], "submission_type": 2,
         "track": 2, "state": "confirmed", "duration": 45, "pending_state": "withdrawn",
         "created": "2026-01-15T08:30:00.5Z",
         // the public sees only the visible one, without a start; organisers the earlier invisible one
         "slots": [{"room": null, "start": null, "end": null, "is_visible": true},
                   {"room": 1, "start": "2026-06-01T07:00:00Z", "end": null, "is_visible": false}]},
        {"code": "SUB3", "title": "Panel", "speakers": ["SPK1"], "submission_type": 3,
         "state": "confirmed", "created": "2026-03-03T12:00:00.000001Z",
         "slots": [{"room": 2, "start": "2026-06-01T12:00:00.25+02:00", "end": null, "is_visible": true}]}
    ]);
    // The same speaker in another event, with another biography.
    d["events"].as_array_mut().unwrap().push(json!({
        "slug": "elsewhere", "name": "Elsewhere", "is_public": true, "date_from": "2026-07-01",
        "schedule": {"version": "1", "published": "2026-06-01T00:00:00Z"},
        "submission_types": [{"id": 9, "name": "Talk"}],
        "speakers": [{"user": "SPK1", "biography": "Ada elsewhere"}],
        "submissions": [{"code": "ELS1", "title": "Elsewhere", "speakers": ["SPK1"], "submission_type": 9,
                         "state": "confirmed", "created": "2026-06-01T00:00:00Z",
                         "slots": [{"start": "2026-07-01T09:00:00+02:00", "is_visible": true}]}]
    }));
    d
}

fn ada_with_avatar() -> Value {
    speaker_json(
        "SPK1",
        "Ada Speaker",
        "ada@mini.example",
        "Ada's bio",
        Some("https://img.mini.example/ada.png"),
    )
}

fn values_pub1() -> Value {
    json!({
        "code": "PUB1", "speakers": [bob(), ada_with_avatar()], "title": "Public Talk",
        "submission_type": {"en": "Talk", "de": "Vortrag"}, "submission_type_id": 1,
        "track": {"en": "Main", "de": "Haupt"}, "track_id": 1, "state": "confirmed",
        "abstract": "Short.", "description": "Long.", "duration": 40, "slot_count": 2,
        "do_not_record": true, "is_featured": true, "content_locale": "de",
        "slot": {"start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:40:00+02:00",
                 "room": {"en": "Hall", "de": "Halle"}, "room_id": 1},
        "image": "https://img.mini.example/pub1.png",
        "resources": [{"resource": "https://files.mini.example/slides.pdf", "description": "Slides"},
                      {"resource": "https://files.mini.example/code.zip", "description": ""}],
        "answers": [],
        "created": "2026-05-01T12:00:00+02:00", "pending_state": null, "notes": "Speaker note",
        "internal_notes": "Orga note", "tags": ["hot.topic", "Alpha"], "tag_ids": [1, 2]
    })
}

fn values_sub2(role: Role) -> Value {
    let slot = if role == Organiser {
        json!({"start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T09:45:00+02:00",
               "room": {"en": "Hall", "de": "Halle"}, "room_id": 1})
    } else {
        json!({"start": null, "end": null, "room": null, "room_id": null})
    };
    view(
        &json!({
            "code": "SUB2", "speakers": [bob()], "title": "Workshop Without Start",
            "submission_type": {"en": "Workshop"}, "submission_type_id": 2,
            "track": {"en": "Side"}, "track_id": 2, "state": "confirmed",
            "abstract": "", "description": "", "duration": 45, "slot_count": 1,
            "do_not_record": false, "is_featured": false, "content_locale": "en",
            "slot": slot, "image": null, "resources": [], "answers": [],
            "created": "2026-01-15T09:30:00.500000+01:00", "pending_state": "withdrawn", "notes": "",
            "internal_notes": "", "tags": [], "tag_ids": []
        }),
        role,
    )
}

fn values_sub3() -> Value {
    json!({
        "code": "SUB3", "speakers": [ada_with_avatar()], "title": "Panel",
        "submission_type": {"en": "Panel"}, "submission_type_id": 3,
        "track": null, "track_id": null, "state": "confirmed",
        "abstract": "", "description": "", "duration": 30, "slot_count": 1,
        "do_not_record": false, "is_featured": false, "content_locale": "en",
        "slot": {"start": "2026-06-01T12:00:00.250000+02:00", "end": "2026-06-01T12:30:00.250000+02:00",
                 "room": {"en": "Annex"}, "room_id": 2},
        "image": null, "resources": [], "answers": [],
        "created": "2026-03-03T13:00:00.000001+01:00", "pending_state": null, "notes": "",
        "internal_notes": "", "tags": [], "tag_ids": []
    })
}

#[tokio::test]
async fn values_for_every_role_on_submissions_and_talks() {
    let server = TestServer::start(&[values_dataset()]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        let role = caller.role;
        let expected = vec![
            view(&values_pub1(), role),
            values_sub2(role),
            view(&values_sub3(), role),
        ];
        for resource in ["submissions", "talks"] {
            let list = client.ok(&format!("{EV}/{resource}/")).await;
            assert_json(
                &list,
                &page_of(expected.clone()),
                &format!("{}: /{resource}", caller.name),
            );
            for obj in &expected {
                let code = obj["code"].as_str().unwrap();
                let detail = client.ok(&format!("{EV}/{resource}/{code}")).await;
                assert_json(
                    &detail,
                    obj,
                    &format!("{}: /{resource}/{code}", caller.name),
                );
            }
        }
    }
    // The speaker's biography is the one of the event asked about.
    let talk = server.anon().ok("/api/events/elsewhere/talks/ELS1").await;
    assert_json(
        &talk["speakers"],
        &json!([{"code": "SPK1", "name": "Ada Speaker", "biography": "Ada elsewhere",
                 "avatar": "https://img.mini.example/ada.png"}]),
        "biography of the other event",
    );
    assert_json(
        &talk["submission_type"],
        &json!({"en": "Talk"}),
        "plain-string type name",
    );
    assert_json(
        &talk["slot"],
        &json!({"start": "2026-07-01T07:00:00Z", "end": "2026-07-01T07:30:00Z", "room": null, "room_id": null}),
        "UTC event: Z, end from the type's default duration",
    );
}

#[tokio::test]
async fn datetimes_are_shown_in_the_event_time_zone() {
    let mut d = base();
    let other = |slug: &str,
                 n: i64,
                 timezone: Option<&str>,
                 created: &str,
                 start: &str,
                 end: Value| {
        let mut event = json!({
            "slug": slug, "name": {"en": slug}, "is_public": true, "date_from": "2026-07-01",
            "schedule": {"version": "1", "published": "2026-06-01T00:00:00Z"},
            "teams": [{"name": "Orga", "members": ["ORGA"], "can_change_submissions": true}],
            "submission_types": [{"id": n, "name": {"en": "Talk"}, "default_duration": 30}],
            "rooms": [{"id": n, "name": {"en": "Room"}}],
            "speakers": [{"user": "SPK1"}],
            "submissions": [{"code": format!("T{n}"), "title": "Timed", "speakers": ["SPK1"],
                             "submission_type": n, "state": "confirmed", "created": created,
                             "slots": [{"room": n, "start": start, "end": end, "is_visible": true}]}]
        });
        if let Some(tz) = timezone {
            event["timezone"] = json!(tz);
        }
        event
    };
    let events = d["events"].as_array_mut().unwrap();
    // No time zone: UTC, shown with Z; fractional seconds only when non-zero.
    events.push(other(
        "utc-conf",
        11,
        None,
        "2026-07-01T12:00:00+02:00",
        "2026-07-02T09:00:00.123456+02:00",
        Value::Null,
    ));
    // Half-hour offsets, winter and summer.
    events.push(other(
        "nl-conf",
        12,
        Some("America/St_Johns"),
        "2026-01-10T12:00:00Z",
        "2026-07-01T12:00:00Z",
        json!("2026-07-01T12:45:00.000001Z"),
    ));
    let server = TestServer::start(&[d]).await;
    let orga = ORGANISER.client(&server);
    for (path, created, slot) in [
        (
            "/api/events/utc-conf/talks/T11",
            "2026-07-01T10:00:00Z",
            json!({"start": "2026-07-02T07:00:00.123456Z", "end": "2026-07-02T07:30:00.123456Z",
                   "room": {"en": "Room"}, "room_id": 11}),
        ),
        (
            "/api/events/nl-conf/talks/T12",
            "2026-01-10T08:30:00-03:30",
            json!({"start": "2026-07-01T09:30:00-02:30", "end": "2026-07-01T10:15:00.000001-02:30",
                   "room": {"en": "Room"}, "room_id": 12}),
        ),
        (
            // Berlin: created in winter (+01:00), slot in summer (+02:00).
            "/api/events/mini/talks/PUB1",
            "2026-03-01T13:00:00+01:00",
            json!({"start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:30:00+02:00",
                   "room": {"en": "Hall"}, "room_id": 1}),
        ),
    ] {
        let obj = orga.ok(path).await;
        assert_eq!(obj["created"], created, "{path}");
        assert_json(&obj["slot"], &slot, path);
        assert_json(
            &server.anon().ok(path).await["slot"],
            &slot,
            &format!("{path} (public)"),
        );
    }
}

#[tokio::test]
async fn slot_choice_earliest_visible_start_first_and_organisers_see_invisible_ones() {
    let mut d = base();
    // Equal starts keep dataset order (an open point: conformance README [A16]);
    // an invisible earlier slot only for organisers.
    sub_mut(&mut d, "PUB1")["slots"] = json!([
        {"room": 1, "start": "2026-06-01T15:00:00+02:00", "end": "2026-06-01T15:30:00+02:00", "is_visible": true},
        {"room": null, "start": null, "end": null, "is_visible": true},
        {"room": 1, "start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T09:20:00+02:00", "is_visible": false},
        {"room": null, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:10:00+02:00", "is_visible": true},
        {"room": 1, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:50:00+02:00", "is_visible": true}
    ]);
    // Only slots without a start: still a talk; the slot has no times.
    sub_mut(&mut d, "SUB2")["state"] = json!("confirmed");
    sub_mut(&mut d, "SUB2")["slots"] =
        json!([{"room": 1, "start": null, "end": null, "is_visible": true}]);
    // Only an invisible slot: organisers see it, nobody else does.
    sub_mut(&mut d, "SUB3")["slots"] = json!([
        {"room": 1, "start": "2026-06-02T10:00:00+02:00", "end": null, "is_visible": false}]);
    let server = TestServer::start(&[d]).await;
    let visible = json!({"start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:10:00+02:00", "room": null, "room_id": null});
    let invisible = json!({"start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T09:20:00+02:00", "room": {"en": "Hall"}, "room_id": 1});
    let no_start = json!({"start": null, "end": null, "room": {"en": "Hall"}, "room_id": 1});
    let hidden = json!({"start": "2026-06-02T10:00:00+02:00", "end": "2026-06-02T10:30:00+02:00", "room": {"en": "Hall"}, "room_id": 1});
    for caller in CALLERS {
        let client = caller.client(&server);
        let orga = caller.role == Organiser;
        for resource in ["submissions", "talks"] {
            let pub1 = client.ok(&format!("{EV}/{resource}/PUB1")).await;
            assert_json(
                &pub1["slot"],
                if orga { &invisible } else { &visible },
                &format!("{}: PUB1", caller.name),
            );
            let sub2 = client.ok(&format!("{EV}/{resource}/SUB2")).await;
            assert_json(&sub2["slot"], &no_start, &format!("{}: SUB2", caller.name));
        }
        let sub3 = client.get(&format!("{EV}/submissions/SUB3")).await;
        match caller.role {
            Organiser => assert_json(&sub3.body["slot"], &hidden, "organiser: SUB3"),
            Reviewer => assert_json(&sub3.body["slot"], &Value::Null, "reviewer: SUB3"),
            Public => assert_eq!(sub3.status, 404),
        }
        assert_eq!(
            client.get(&format!("{EV}/talks/SUB3")).await.status,
            404,
            "{}",
            caller.name
        );
    }
}
