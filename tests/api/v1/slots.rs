//! v1 slots and schedules of the current release, for every role, and the
//! order of slots by the title each caller is shown (the other schedules
//! are in schedules.rs).

use super::{get, submissions_dataset, V1};
use crate::helpers::TestServer;
use serde_json::{json, Value};

/// A reviewer who gets the anonymised view orders slots by the titles they
/// are shown: the order of the real one would tell them something of it.
#[tokio::test]
async fn v1_slots_order_by_the_title_the_reviewer_is_shown() {
    let mut dataset = submissions_dataset();
    let event = &mut dataset["events"][0];
    event["review_phase"] = json!({"name": "Review", "can_see_speaker_names": false});
    // SUB2 (submitted, so no public talk) has a visible slot after PUB1's.
    event["submissions"][1]["slots"] = json!([{"room": 1, "start": "2026-06-01T11:00:00+02:00",
                                              "end": "2026-06-01T11:30:00+02:00", "is_visible": true}]);
    let server = TestServer::start(&[dataset]).await;
    for (o, order) in [
        ("submission__title", ["Anonymous Proposal", "Public Talk"]),
        ("-submission__title", ["Public Talk", "Anonymous Proposal"]),
    ] {
        let path = format!("/api/events/mini/slots/?o={o}&expand=submission");
        let list = get(&server, Some("rev-token"), &path, &[V1]).await;
        assert_eq!(list.status, 200, "{}", list.text);
        let titles: Vec<_> = list.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|slot| slot["submission"]["title"].clone())
            .collect();
        assert_eq!(titles, order.map(|t| json!(t)), "o={o}");
    }
}

#[tokio::test]
async fn v1_slots_and_schedules_for_every_role() {
    let mut dataset = submissions_dataset();
    let event = &mut dataset["events"][0];
    event["schedule"]["breaks"] = json!([{"room": 1, "start": "2026-06-01T12:00:00+02:00",
                                          "end": "2026-06-01T13:00:00+02:00", "description": {"en": "Lunch"}}]);
    // A slot not (yet) on the public schedule.
    event["submissions"][1]["state"] = json!("accepted");
    event["submissions"][1]["slots"] = json!([{"room": 1, "start": "2026-06-02T10:00:00+02:00",
                                               "end": "2026-06-02T10:30:00+02:00", "is_visible": false}]);
    let server = TestServer::start(&[dataset]).await;
    let schedules = get(&server, None, "/api/events/mini/schedules/", &[V1]).await;
    assert_eq!(schedules.body["count"], 1, "{}", schedules.text);
    let schedule = &schedules.body["results"][0];
    let schedule_id = schedule["id"].as_i64().unwrap();
    assert_eq!(
        schedule,
        &json!({"id": schedule_id, "version": "1.0", "published": "2026-05-01T12:00:00+02:00"})
    );
    for token in [None, Some("nobody-token"), Some("rev-token")] {
        let slots = get(&server, token, "/api/events/mini/slots/", &[V1]).await;
        let results = slots.body["results"].as_array().unwrap();
        assert_eq!(
            results.len(),
            2,
            "{token:?}: the talk and the break: {}",
            slots.text
        );
        let talk_id = results[0]["id"].as_i64().unwrap();
        let break_id = results[1]["id"].as_i64().unwrap();
        assert_eq!(
            slots.body["results"],
            json!([
                {"id": talk_id, "room": 1, "start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:30:00+02:00",
                 "submission": "PUB1", "schedule": schedule_id, "description": null, "duration": 30},
                {"id": break_id, "room": 1, "start": "2026-06-01T12:00:00+02:00", "end": "2026-06-01T13:00:00+02:00",
                 "submission": null, "schedule": schedule_id, "description": {"en": "Lunch"}, "duration": 60},
            ]),
            "{token:?}"
        );
        let latest = get(&server, token, "/api/events/mini/schedules/latest/", &[V1]).await;
        assert_eq!(latest.body["slots"], json!([talk_id, break_id]));
        assert_eq!(latest.body["comment"], Value::Null);
        let one = get(
            &server,
            token,
            &format!("/api/events/mini/slots/{talk_id}/"),
            &[V1],
        )
        .await;
        assert_eq!(one.body, slots.body["results"][0]);
        let pub1 = get(&server, token, "/api/events/mini/submissions/PUB1/", &[V1]).await;
        assert_eq!(pub1.body["slots"], json!([talk_id]));
    }
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/slots/",
        &[V1],
    )
    .await;
    let visible: Vec<_> = orga.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["submission"].clone(), s["is_visible"].clone()))
        .collect();
    assert_eq!(
        visible,
        vec![
            (json!("PUB1"), json!(true)),
            (Value::Null, json!(true)),
            (json!("SUB2"), json!(false))
        ]
    );
    let filtered = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/slots/?is_visible=false",
        &[V1],
    )
    .await;
    assert_eq!(filtered.body["count"], 1);
    let by_code = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/slots/?submission=pub1",
        &[V1],
    )
    .await;
    assert_eq!(by_code.body["count"], 1);
    let searched = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/slots/?q=secret",
        &[V1],
    )
    .await;
    assert_eq!(searched.body["results"][0]["submission"], "SUB2");
    let by_start = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/slots/?o=-start",
        &[V1],
    )
    .await;
    assert_eq!(by_start.body["results"][0]["submission"], "SUB2");
    // (is_visible=maybe is no filter: v1_boolean_filters_ignore_values_that_are_no_booleans)
    for (query, parameter) in [("room=9", "room"), ("schedule=1", "schedule")] {
        let reply = get(
            &server,
            None,
            &format!("/api/events/mini/slots/?{query}"),
            &[V1],
        )
        .await;
        assert_eq!(reply.status, 400, "{query}");
        assert!(
            reply.body.get(parameter).is_some(),
            "{query}: {}",
            reply.text
        );
    }
    assert_eq!(
        get(&server, None, "/api/events/mini/schedules/wip/", &[V1])
            .await
            .status,
        404
    );
    assert_eq!(
        get(&server, None, "/api/events/mini/slots/1/", &[V1])
            .await
            .status,
        404
    );
}
