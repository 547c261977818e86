//! v1 reviews and answers: answers are for organisers, reviews for those
//! who see them all; reviews expand as pretalx's do, and reviewers see no
//! secrets through the expansion.

use super::{get, submissions_dataset, V1};
use crate::helpers::TestServer;
use serde_json::{json, Value};

#[tokio::test]
async fn v1_answers_are_for_organisers_and_reviews_for_those_who_see_them_all() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    let answers = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/answers/",
        &[V1],
    )
    .await;
    assert_eq!(
        answers.body["results"],
        json!([
            {"id": 5, "question": 1, "answer": "Beginner", "answer_file": null, "submission": "PUB1",
             "review": null, "person": null, "options": [10]},
            {"id": 6, "question": 2, "answer": "secret", "answer_file": null, "submission": "PUB1",
             "review": null, "person": null, "options": []},
        ])
    );
    let filtered = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/answers/?question=2&q=SEC",
        &[V1],
    )
    .await;
    assert_eq!(filtered.body["count"], 1);
    assert_eq!(
        get(
            &server,
            Some("orga-token"),
            "/api/events/mini/answers/6/",
            &[V1]
        )
        .await
        .body["id"],
        6
    );
    assert_eq!(
        get(&server, None, "/api/events/mini/answers/", &[V1])
            .await
            .status,
        401
    );
    assert_eq!(
        get(
            &server,
            Some("rev-token"),
            "/api/events/mini/answers/",
            &[V1]
        )
        .await
        .status,
        403
    );
    assert_eq!(
        get(
            &server,
            Some("rev-token"),
            "/api/events/mini/answers/5/",
            &[V1]
        )
        .await
        .status,
        403
    );

    let review = json!({"id": 7, "submission": "SUB2", "text": "Good", "score": "2.00", "scores": [],
                        "answers": [], "user": "REV"});
    let reviews = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/reviews/",
        &[V1],
    )
    .await;
    assert_eq!(reviews.body["results"], json!([review]));
    assert_eq!(
        get(
            &server,
            Some("orga-token"),
            "/api/events/mini/reviews/7/",
            &[V1]
        )
        .await
        .body,
        review
    );
    let by_user = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/reviews/?user=rev&submission=sub2",
        &[V1],
    )
    .await;
    assert_eq!(by_user.body["count"], 1);
    // pretalx answers 500 here for a speaker of several submissions.
    let by_speaker = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/reviews/?speaker=spk2",
        &[V1],
    )
    .await;
    assert_eq!(by_speaker.body["count"], 1, "{}", by_speaker.text);
    let none = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/reviews/?speaker=spk1",
        &[V1],
    )
    .await;
    assert_eq!(none.body["count"], 0);
    // The default phase shows reviewers other reviews only after their own.
    assert_eq!(
        get(
            &server,
            Some("rev-token"),
            "/api/events/mini/reviews/",
            &[V1]
        )
        .await
        .status,
        403
    );
    assert_eq!(
        get(&server, None, "/api/events/mini/reviews/", &[V1])
            .await
            .status,
        401
    );
    let mut dataset = submissions_dataset();
    dataset["events"][0]["review_phase"] =
        json!({"name": "Open", "can_see_other_reviews": "always"});
    let open = TestServer::start(&[dataset]).await;
    let mine = get(&open, Some("rev-token"), "/api/events/mini/reviews/", &[V1]).await;
    assert_eq!(mine.body["count"], 1, "{}", mine.text);
}

/// Every key of every object in `value`, nested ones included.
fn all_keys(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                all_keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| all_keys(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn v1_reviews_expand_as_pretalx_and_reviewers_see_no_secrets_through_it() {
    let mut dataset = submissions_dataset();
    let event = &mut dataset["events"][0];
    event["review_phase"] = json!({"name": "Open", "can_see_other_reviews": "always",
                                   "can_see_speaker_names": false});
    event["score_categories"] = json!([{"id": 1, "name": {"en": "Content"}, "weight": "1.0",
                                        "required": false, "active": true, "limit_tracks": [],
                                        "is_independent": false}]);
    event["reviews"][0]["scores"] =
        json!([{"id": 9, "category": 1, "value": "2.00", "label": "good"}]);
    event["reviews"].as_array_mut().unwrap().extend([
        json!({"id": 8, "submission": "PUB1", "user": "REV", "text": "", "score": 1.0,
                   "created": "2026-04-02T10:00:00Z"}),
        json!({"id": 9, "submission": "PUB1", "user": "ORGA", "text": "", "score": 0.35,
                   "created": "2026-04-03T10:00:00Z"}),
    ]);
    let server = TestServer::start(&[dataset]).await;
    let orga = |path: &'static str| get(&server, Some("orga-token"), path, &[V1]);

    // Organisers: the reviewer with e-mail, the submission in the public
    // set without slots (and, as in pretalx's reviews view, no answers),
    // an empty text null.
    let review = orga("/api/events/mini/reviews/8/?expand=user,submission,scores.category").await;
    assert_eq!(
        review.body,
        json!({"id": 8, "submission": {
                   "code": "PUB1", "title": "Public Talk", "speakers": ["SPK1"],
                   "submission_type": 1, "track": 1, "tags": [1, 2], "state": "confirmed",
                   "abstract": "", "description": "", "duration": 30, "slot_count": 1,
                   "attendee_signup_required": null, "attendee_signup_capacity": null, "signup_status": null,
                   "content_locale": "en", "do_not_record": false, "image": null,
                   "resources": [review.body["submission"]["resources"][0].clone()],
                   "answers": []},
               "text": null, "score": "1.00", "scores": [], "answers": [],
               "user": {"code": "REV", "name": "Rita Reviewer", "email": "rev@mini.example"}}),
        "{}",
        review.text
    );
    let scored = orga("/api/events/mini/reviews/7/?expand=scores.category").await;
    assert_eq!(
        scored.body["scores"],
        json!([{"id": 9, "category": {"id": 1, "name": {"en": "Content"}, "weight": "1.0",
                                      "required": false, "active": true, "limit_tracks": [],
                                      "is_independent": false},
                "value": "2.00", "label": "good"}])
    );
    // pretalx rounds the mean to a tenth (0.675 -> 0.7), not the median.
    let pub1 = orga("/api/events/mini/submissions/PUB1/").await;
    assert_eq!(
        (
            &pub1.body["mean_score"],
            &pub1.body["median_score"],
            &pub1.body["notes"],
            &pub1.body["internal_notes"]
        ),
        (
            &json!(0.7),
            &json!(0.675),
            &json!("Please a lapel microphone"),
            &json!(null)
        )
    );
    // A track filter is a ModelChoiceFilter: django's message names no value.
    let bad = get(
        &server,
        None,
        "/api/events/mini/submissions/?track=999",
        &[V1],
    )
    .await;
    assert_eq!(
        (bad.status, &bad.body),
        (
            400,
            &json!({"track": ["Select a valid choice. That choice is not one of the available choices."]})
        )
    );
    // In the speakers view, nested submissions have no slots (that view
    // has no schedule) and the public resources only, for organisers too.
    let speaker = orga("/api/events/mini/speakers/SPK1/?expand=submissions").await;
    let nested = &speaker.body["submissions"];
    assert_eq!(nested[0]["code"], "PUB1", "{}", speaker.text);
    assert_eq!(
        (
            &nested[0]["slots"],
            nested[0]["resources"].as_array().unwrap().len()
        ),
        (&json!([]), 1)
    );
    assert!(nested[0].get("notes").is_none());

    // Reviewers: the anonymised submission stays anonymised through
    // `expand`, and no e-mail, secret or note shows anywhere.
    let reviews = get(
        &server,
        Some("rev-token"),
        "/api/events/mini/reviews/?expand=user,submission.speakers,submission.tags,scores.category",
        &[V1],
    )
    .await;
    assert_eq!(reviews.body["count"], 3, "{}", reviews.text);
    let sub2 = &reviews.body["results"][0]["submission"];
    assert_eq!(
        (&sub2["code"], &sub2["title"], &sub2["speakers"]),
        (&json!("SUB2"), &json!("Anonymous Proposal"), &json!([]))
    );
    assert_eq!(
        reviews.body["results"][0]["user"],
        json!({"code": "REV", "name": "Rita Reviewer"})
    );
    let mut keys = Vec::new();
    all_keys(&reviews.body, &mut keys);
    for secret in [
        "email",
        "invitation_token",
        "review_code",
        "access_code",
        "anonymised_data",
        "notes",
        "internal_notes",
        "availabilities",
    ] {
        assert!(
            !keys.iter().any(|k| k == secret),
            "{secret}: {}",
            reviews.text
        );
    }
    assert!(
        !reviews.text.contains("Secret Proposal"),
        "{}",
        reviews.text
    );
    assert!(!reviews.text.contains("Bob Talker"), "{}", reviews.text);
    // Nor does a search by the submission's title tell them the real one:
    // `q` searches the title they are shown.
    for (q, found) in [("secret", vec![]), ("anonymous+proposal", vec![json!(7)])] {
        let path = format!("/api/events/mini/reviews/?q={q}");
        let reply = get(&server, Some("rev-token"), &path, &[V1]).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert_eq!(reply.result_keys("id"), found, "q={q}");
    }

    // Details the public may not read are 404 (pretalx), others 403.
    for path in ["/api/events/mini/reviews/7/", "/api/events/mini/answers/5/"] {
        let public = get(&server, None, path, &[V1]).await;
        assert_eq!(
            (public.status, &public.body),
            (404, &json!({"detail": "Not found."})),
            "{path}"
        );
    }
    assert_eq!(
        get(
            &server,
            Some("rev-token"),
            "/api/events/mini/answers/5/",
            &[V1]
        )
        .await
        .status,
        403
    );
}
