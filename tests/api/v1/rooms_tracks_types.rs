//! v1 rooms, tracks and submission types, for every role.

use super::{dataset, get, V1};
use crate::helpers::TestServer;
use serde_json::{json, Value};

#[tokio::test]
async fn v1_rooms_tracks_and_types_for_every_role() {
    let server = TestServer::start(&[dataset()]).await;
    let room = json!({"id": 1, "name": {"en": "Hall"}, "description": {}, "uuid": null_placeholder(),
                      "guid": null, "capacity": 100, "position": 1});
    for token in [None, Some("nobody-token"), Some("rev-token")] {
        let reply = get(&server, token, "/api/events/mini/rooms/", &[V1]).await;
        assert_eq!(reply.status, 200, "{token:?}");
        let mut got = reply.body["results"][0].clone();
        assert!(
            got["uuid"].as_str().is_some_and(|u| u.len() == 36),
            "{}",
            reply.text
        );
        got["uuid"] = null_placeholder();
        assert_eq!(got, room, "{token:?}");
        assert_eq!(
            (reply.body["count"].clone(), reply.body["next"].clone()),
            (json!(1), Value::Null)
        );
        let track = get(&server, token, "/api/events/mini/tracks/1/", &[V1]).await;
        assert_eq!(
            track.body,
            json!({"id": 1, "name": {"en": "Main"}, "description": {}, "color": "#000000",
                   "position": null, "requires_access_code": false,
                   "attendee_signup_required": false}),
            "{token:?}"
        );
        let kinds = get(&server, token, "/api/events/mini/submission-types/", &[V1]).await;
        assert_eq!(
            kinds.body["results"],
            json!([{"id": 1, "name": {"en": "Talk"}, "default_duration": 30, "deadline": null,
                    "requires_access_code": false, "attendee_signup_required": false}]),
            "{token:?}"
        );
    }
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/rooms/1/",
        &[V1],
    )
    .await;
    assert_eq!(orga.body["speaker_info"], json!({}));
    assert_eq!(orga.body["availabilities"], json!([]));
    // The room's uuid is the one the schedule exports give it.
    let frab = get(&server, None, "/mini/schedule.json", &[]).await;
    let frab: Value = serde_json::from_str(&frab.text).unwrap();
    let guid = &frab["schedule"]["conference"]["rooms"][0]["guid"];
    assert_eq!(&orga.body["uuid"], guid);
    // Unknown ids, and ids that are no numbers.
    for path in [
        "/api/events/mini/rooms/9/",
        "/api/events/mini/tracks/x/",
        "/api/events/mini/submission-types/2/",
    ] {
        assert_eq!(get(&server, None, path, &[V1]).await.status, 404, "{path}");
    }
}

fn null_placeholder() -> Value {
    json!("uuid")
}
