//! v1 speakers, for every role.

use super::{get, submissions_dataset, V1};
use crate::helpers::TestServer;
use serde_json::json;

#[tokio::test]
async fn v1_speakers_for_every_role() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    let public = json!({"code": "SPK1", "name": "Ada Speaker", "biography": "Ada's bio",
                        "submissions": ["PUB1"], "avatar_url": null, "answers": []});
    for token in [None, Some("nobody-token")] {
        let list = get(&server, token, "/api/events/mini/speakers/", &[V1]).await;
        assert_eq!(list.body["results"], json!([public]), "{token:?}");
        let detail = get(&server, token, "/api/events/mini/speakers/spk1/", &[V1]).await;
        assert_eq!(detail.body, public);
        assert_eq!(
            get(&server, token, "/api/events/mini/speakers/SPK2/", &[V1])
                .await
                .status,
            404
        );
    }
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/speakers/SPK2/",
        &[V1],
    )
    .await;
    assert_eq!(
        orga.body,
        json!({"code": "SPK2", "name": "Bob Talker", "biography": "Bob's bio",
               "submissions": ["SUB2", "SUB3"], "avatar_url": null, "answers": [],
               "email": "bob@mini.example", "timezone": "UTC", "locale": "en",
               "has_arrived": false, "availabilities": [], "internal_notes": null})
    );
    let searched = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/speakers/?q=mini.example",
        &[V1],
    )
    .await;
    assert_eq!(
        searched.body["count"], 2,
        "organisers search e-mail addresses"
    );
    let anonymous = get(
        &server,
        None,
        "/api/events/mini/speakers/?q=mini.example",
        &[V1],
    )
    .await;
    assert_eq!(anonymous.body["count"], 0);
}

/// pretalx 2026 lists a speaker's submissions by code (2025: by its
/// primary key, which a mirror may hold as `id`).
#[tokio::test]
async fn a_speakers_submissions_are_in_code_order_whatever_their_ids() {
    let mut dataset = submissions_dataset();
    for submission in dataset["events"][0]["submissions"].as_array_mut().unwrap() {
        let id = match submission["code"].as_str() {
            Some("SUB2") => 200,
            Some("SUB3") => 100,
            _ => continue,
        };
        submission["id"] = json!(id);
    }
    let server = TestServer::start(&[dataset]).await;
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/speakers/SPK2/",
        &[V1],
    )
    .await;
    assert_eq!(orga.body["submissions"], json!(["SUB2", "SUB3"]));
}
