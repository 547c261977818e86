//! v1 `expand`: nests public objects, and never widens what a role sees.

use super::{get, submissions_dataset, PYTANIS_EXPAND, V1};
use crate::helpers::TestServer;
use serde_json::json;

#[tokio::test]
async fn v1_expand_nests_public_objects_and_never_widens_what_a_role_sees() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    let path = format!("/api/events/mini/submissions/PUB1/?expand={PYTANIS_EXPAND}");
    let public = get(&server, None, &path, &[V1]).await;
    let body = &public.body;
    assert_eq!(
        body["tags"],
        json!([{"id": 2, "tag": "open", "description": {}, "color": "#00ff00", "is_public": true}])
    );
    let resource_id = body["resources"][0]["id"].clone();
    assert_eq!(
        body["resources"],
        json!([{"id": resource_id, "resource": "https://mini.example/slides.pdf", "description": "Slides",
                "is_public": true}])
    );
    assert_eq!(
        body["speakers"],
        json!([{"code": "SPK1", "name": "Ada Speaker", "biography": "Ada's bio", "submissions": [],
                "avatar_url": null, "answers": []}]),
        "public speaker fields, empty lists unless expanded"
    );
    assert_eq!(body["submission_type"]["default_duration"], 30);
    assert_eq!(body["track"]["color"], "#000000");
    let slot = &body["slots"][0];
    assert_eq!(slot["room"]["name"], json!({"en": "Hall"}));
    assert!(
        slot.get("submission").is_none() && slot.get("schedule").is_none(),
        "{slot}"
    );
    // Only the public question's answer, its question without options, its options as objects.
    let answers = body["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 1, "{}", public.text);
    assert_eq!(answers[0]["question"]["id"], 1);
    assert!(answers[0]["question"].get("options").is_none());
    assert!(
        answers[0]["question"].get("is_public").is_none(),
        "public question fields"
    );
    assert_eq!(
        answers[0]["options"],
        json!([{"id": 10, "answer": {"en": "Beginner"}, "position": 0, "identifier": null}])
    );

    let orga = get(&server, Some("orga-token"), &path, &[V1]).await;
    let body = &orga.body;
    assert_eq!(body["tags"].as_array().unwrap().len(), 2);
    assert_eq!(body["resources"].as_array().unwrap().len(), 2);
    // pretalx 2026's resources say whether they are public.
    let public_flags: Vec<_> = body["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["is_public"].clone())
        .collect();
    assert_eq!(public_flags, vec![json!(true), json!(false)]);
    assert_eq!(
        body["speakers"][0]["email"], "ada@mini.example",
        "organisers' speakers keep their fields"
    );
    assert_eq!(body["answers"].as_array().unwrap().len(), 2);
    assert!(
        body["slots"][0].get("is_visible").is_none(),
        "nested slots use the public fields"
    );

    // Unknown names are ignored, dotted names expand their parents, repeated parameters merge.
    let odd = get(
        &server,
        None,
        "/api/events/mini/submissions/PUB1/?expand=bogus&expand=slots.room",
        &[V1],
    )
    .await;
    assert_eq!(odd.body["slots"][0]["room"]["id"], 1);
    assert_eq!(odd.body["speakers"], json!(["SPK1"]));
    // Speakers expand their submissions (without widening them) and answers.
    let speaker = get(
        &server,
        None,
        "/api/events/mini/speakers/SPK1/?expand=submissions,answers",
        &[V1],
    )
    .await;
    assert_eq!(speaker.body["submissions"][0]["code"], "PUB1");
    assert_eq!(speaker.body["submissions"].as_array().unwrap().len(), 1);
    // Slots expand their submission (without its slots) and room.
    let slots = get(
        &server,
        None,
        "/api/events/mini/slots/?expand=submission,room",
        &[V1],
    )
    .await;
    let first = &slots.body["results"][0];
    assert_eq!(first["submission"]["code"], "PUB1");
    assert!(first["submission"].get("slots").is_none());
    assert_eq!(first["room"]["id"], 1);
    // Answers expand their question and options (organisers).
    let answers = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/answers/5/?expand=question,options",
        &[V1],
    )
    .await;
    assert_eq!(answers.body["question"]["id"], 1);
    assert_eq!(answers.body["options"][0]["id"], 10);
}
