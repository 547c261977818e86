//! v1 submissions for every role: the public, organisers (with their
//! secrets), reviewers (no secrets, the anonymised view stays anonymised),
//! and talks, which v1 has as submissions only.

use super::{get, submissions_dataset, V1};
use crate::helpers::{http_client_builder, Reply, TestServer};
use serde_json::{json, Value};

fn results_by_code(reply: &Reply) -> Vec<(String, Value)> {
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["code"].as_str().unwrap().to_string(), s.clone()))
        .collect()
}

#[tokio::test]
async fn v1_submissions_for_the_public() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    for token in [None, Some("nobody-token")] {
        let list = get(&server, token, "/api/events/mini/submissions/", &[V1]).await;
        let subs = results_by_code(&list);
        assert_eq!(subs.len(), 1, "{token:?}: only the public talk");
        let (code, sub) = &subs[0];
        assert_eq!(code, "PUB1");
        let slot_id = sub["slots"][0].as_i64().expect("a slot id");
        let resource_id = sub["resources"][0].as_i64().expect("a resource id");
        assert_eq!(
            sub,
            &json!({
                "code": "PUB1", "title": "Public Talk", "speakers": ["SPK1"], "submission_type": 1,
                "track": 1, "tags": [2], "state": "confirmed", "abstract": "", "description": "",
                "duration": 30, "slot_count": 1, "attendee_signup_required": null,
                "attendee_signup_capacity": null, "signup_status": null, "content_locale": "en",
                "do_not_record": false, "image": null, "resources": [resource_id], "slots": [slot_id],
                "answers": [5],
            }),
            "{token:?}: no private resource, non-public tag, private answer or organiser field"
        );
        let detail = get(&server, token, "/api/events/mini/submissions/pub1/", &[V1]).await;
        assert_eq!(&detail.body, sub);
        assert_eq!(
            get(&server, token, "/api/events/mini/submissions/SUB2/", &[V1])
                .await
                .status,
            404
        );
    }
}

#[tokio::test]
async fn v1_submissions_for_organisers() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    let list = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/submissions/",
        &[V1],
    )
    .await;
    let subs = results_by_code(&list);
    let codes: Vec<&str> = subs.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, vec!["PUB1", "SUB2", "SUB3"]);
    let pub1 = &subs[0].1;
    assert_eq!(pub1["tags"], json!([1, 2]));
    assert_eq!(pub1["resources"].as_array().unwrap().len(), 2);
    assert_eq!(pub1["answers"], json!([5, 6]));
    assert_eq!(pub1["notes"], "Please a lapel microphone");
    // pretalx 2026.2's JSON field: an object, or null when never anonymised
    // (2025 wrote the object as a string, "{}" when none).
    assert_eq!(pub1["anonymised_data"], json!(null));
    let sub2 = &subs[1].1;
    assert_eq!(
        sub2["title"], "Secret Proposal",
        "organisers see the real title"
    );
    assert_eq!(sub2["speakers"], json!(["SPK2"]));
    assert_eq!(
        sub2["anonymised_data"],
        json!({"_anonymised": true, "title": "Anonymous Proposal"})
    );
    assert_eq!(
        (
            &sub2["is_anonymised"],
            &sub2["reviews"],
            &sub2["median_score"],
            &sub2["mean_score"]
        ),
        (&json!(true), &json!([7]), &json!(2.0), &json!(2.0))
    );
    assert_eq!(sub2["slots"], json!([]));
    // Filters, search, ordering.
    let query = |q: &'static str| {
        let server = &server;
        async move {
            let reply = get(
                server,
                Some("orga-token"),
                &format!("/api/events/mini/submissions/{q}"),
                &[V1],
            )
            .await;
            results_by_code(&reply)
                .into_iter()
                .map(|(c, _)| c)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(query("?state=submitted").await, vec!["SUB2", "SUB3"]);
    assert_eq!(
        query("?state=submitted&state=confirmed").await,
        vec!["PUB1", "SUB2", "SUB3"]
    );
    assert_eq!(query("?track=1").await, vec!["PUB1", "SUB2"]);
    assert_eq!(query("?q=bob").await, vec!["SUB2", "SUB3"]);
    assert_eq!(query("?q=trackless").await, vec!["SUB3"]);
    assert_eq!(query("?o=-code").await, vec!["SUB3", "SUB2", "PUB1"]);
    assert_eq!(query("?o=title").await, vec!["PUB1", "SUB2", "SUB3"]);
    assert_eq!(query("?o=bogus").await, vec!["PUB1", "SUB2", "SUB3"]);
    for (q, parameter) in [
        ("state=bogus", "state"),
        ("track=99", "track"),
        ("submission_type=x", "submission_type"),
    ] {
        let reply = get(
            &server,
            Some("orga-token"),
            &format!("/api/events/mini/submissions/?{q}"),
            &[V1],
        )
        .await;
        assert_eq!(reply.status, 400, "{q}");
        assert!(reply.body.get(parameter).is_some(), "{q}: {}", reply.text);
    }
}

#[tokio::test]
async fn v1_reviewers_get_no_secrets_and_anonymised_stays_anonymised() {
    let mut dataset = submissions_dataset();
    // The review phase hides speaker names from reviewers.
    dataset["events"][0]["review_phase"] =
        json!({"name": "Review", "can_see_speaker_names": false});
    let server = TestServer::start(&[dataset]).await;
    let list = get(
        &server,
        Some("rev-token"),
        "/api/events/mini/submissions/",
        &[V1],
    )
    .await;
    let subs = results_by_code(&list);
    let sub2 = &subs.iter().find(|(c, _)| c == "SUB2").unwrap().1;
    assert_eq!(sub2["title"], "Anonymous Proposal");
    assert_eq!(sub2["speakers"], json!([]));
    for secret in [
        "anonymised_data",
        "notes",
        "internal_notes",
        "invitation_token",
        "access_code",
        "review_code",
        "median_score",
        "mean_score",
        // pretalx 2026.2's reviewer serializer has none of these (2025
        // gave reviewers the organiser's).
        "reviews",
        "assigned_reviewers",
        "is_anonymised",
        "invitations",
    ] {
        assert!(sub2.get(secret).is_none(), "{secret}: {sub2}");
    }
    // pretalx 2026.2 shows reviewers these; no secret (section 13 keeps them).
    assert_eq!(
        (&sub2["pending_state"], &sub2["is_featured"]),
        (&json!(null), &json!(false))
    );
    assert!(
        sub2["created"].is_string() && sub2.get("updated").is_some(),
        "{sub2}"
    );
    // No speaker names through the speakers list either.
    let speakers = get(
        &server,
        Some("rev-token"),
        "/api/events/mini/speakers/",
        &[V1],
    )
    .await;
    let codes: Vec<_> = speakers.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].clone())
        .collect();
    assert_eq!(
        codes,
        vec![json!("SPK1")],
        "only the public talk's speaker: {}",
        speakers.text
    );
    assert_eq!(speakers.body["results"][0]["submissions"], json!(["PUB1"]));
    // Private resources stay private.
    let pub1 = &subs.iter().find(|(c, _)| c == "PUB1").unwrap().1;
    assert_eq!(pub1["resources"].as_array().unwrap().len(), 1);
    // Ordered by the titles they are shown, so that the order tells
    // nothing of the real one ("Secret Proposal" would come second).
    for (o, order) in [
        ("title", ["SUB2", "PUB1", "SUB3"]),
        ("-title", ["SUB3", "PUB1", "SUB2"]),
    ] {
        let path = format!("/api/events/mini/submissions/?o={o}");
        let list = get(&server, Some("rev-token"), &path, &[V1]).await;
        assert_eq!(list.result_keys("code"), order.map(|c| json!(c)), "o={o}");
    }
}

#[tokio::test]
async fn v1_has_no_talks_list_and_a_talk_redirects_to_its_submission() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    assert_eq!(
        get(&server, None, "/api/events/mini/talks/", &[V1])
            .await
            .status,
        404
    );
    let client = http_client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let reply = client
        .get(format!(
            "{}/api/events/mini/talks/PUB1/?lang=en",
            server.base
        ))
        .header("Pretalx-Version", "v1")
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 301);
    assert_eq!(
        reply.headers()["location"],
        "/api/events/mini/submissions/PUB1/?lang=en"
    );
}
