//! Translated texts never set (pretalx's `null`): v1 shows them as null
//! (with `lang` as ""), as pretalx does; the legacy API keeps its
//! contract's `{}`; an empty text stays an object in both.

use super::V1;
use crate::helpers::{mini, TestServer};
use serde_json::{json, Value};

fn dataset() -> Value {
    let mut dataset = mini();
    let event = &mut dataset["events"][0];
    event["rooms"][0]["description"] = Value::Null;
    event["rooms"][0]["speaker_info"] = json!({"en": ""});
    event["tracks"][0]["description"] = Value::Null;
    event["tags"][0]["description"] = json!({"en": ""});
    event["questions"] = json!([
        {"id": 1, "variant": "string", "target": "submission", "question": {"en": "Level?"},
         "help_text": null, "is_public": true},
    ]);
    dataset
}

#[tokio::test]
async fn texts_never_set_are_null_in_v1_and_empty_objects_in_the_legacy_api() {
    let server = TestServer::start(&[dataset()]).await;
    let orga = server.token("orga-token");
    for lang in ["", "?lang=en"] {
        let room = orga
            .request("GET", &format!("/api/events/mini/rooms/1/{lang}"), &[V1])
            .await;
        // With `lang` pretalx writes "" for a text never set too.
        let (never_set, empty) = if lang.is_empty() {
            (Value::Null, json!({"en": ""}))
        } else {
            (json!(""), json!(""))
        };
        assert_eq!(room.status, 200);
        assert_eq!(room.body["description"], never_set, "{lang}");
        assert_eq!(room.body["speaker_info"], empty, "{lang}");
        let track = orga
            .request("GET", &format!("/api/events/mini/tracks/1/{lang}"), &[V1])
            .await;
        assert_eq!(track.body["description"], never_set, "{lang}");
        let question = orga
            .request(
                "GET",
                &format!("/api/events/mini/questions/1/{lang}"),
                &[V1],
            )
            .await;
        assert_eq!(question.body["help_text"], never_set, "{lang}");
    }
    let tag = orga.request("GET", "/api/events/mini/tags/1/", &[V1]).await;
    assert_eq!(tag.body["description"], json!({"en": ""}));
    // The public sees the same texts (rooms, questions) as the organiser.
    let anon = server.anon();
    let question = anon
        .request("GET", "/api/events/mini/questions/1/", &[V1])
        .await;
    assert_eq!(
        (question.status, &question.body["help_text"]),
        (200, &Value::Null)
    );

    // The legacy API: {} for a text never set, as for any empty one.
    let question = orga.get("/api/events/mini/questions/1/").await;
    assert_eq!(question.body["help_text"], json!({}));
    let rooms = orga.get("/api/events/mini/rooms/").await;
    assert_eq!(rooms.body["results"][0]["description"], json!({}));
    assert_eq!(rooms.body["results"][0]["speaker_info"], json!({"en": ""}));
}
