//! The two dialects (pretalx-v1.md §3 and §13): which one a request gets
//! (the `Pretalx-Version` header, else the token's version, else the
//! server's default), `Vary`, the cache keeping them apart, the paths and
//! the data only v1 has.

use super::{dataset, get, submissions_dataset, V1};
use crate::helpers::{Reply, TestServer};
use confapi::http::Config;
use confapi::model::ApiVersion;
use serde_json::{json, Value};

fn is_legacy_event_list(reply: &Reply) -> bool {
    reply.status == 200 && reply.body.get("results").is_some()
}

fn is_v1_event_list(reply: &Reply) -> bool {
    reply.status == 200 && reply.body.is_array()
}

#[tokio::test]
async fn the_header_then_the_token_then_the_server_default_choose_the_dialect() {
    let server = TestServer::start(&[dataset()]).await;
    // Without a header: the server's default, legacy.
    assert!(is_legacy_event_list(
        &get(&server, None, "/api/events/", &[]).await
    ));
    assert!(is_legacy_event_list(
        &get(&server, Some("orga-token"), "/api/events/", &[]).await
    ));
    // pretalx 2026.2's versions: `v2` (current), `v-next` (its preview,
    // the same shapes here) and the deprecated `v1` answer alike.
    for header in ["v2", "v-next", "v1"] {
        let reply = get(
            &server,
            None,
            "/api/events/",
            &[("Pretalx-Version", header)],
        )
        .await;
        assert!(is_v1_event_list(&reply), "{header}: {}", reply.text);
    }
    let reply = get(
        &server,
        None,
        "/api/events/",
        &[("Pretalx-Version", "LEGACY")],
    )
    .await;
    assert!(is_legacy_event_list(&reply));
    // An empty header counts as none.
    let reply = get(&server, None, "/api/events/", &[("Pretalx-Version", "")]).await;
    assert!(is_legacy_event_list(&reply));
    // The token's own version, which the header overrides.
    assert!(is_v1_event_list(
        &get(&server, Some("orga-v1-token"), "/api/events/", &[]).await
    ));
    let reply = get(
        &server,
        Some("orga-v1-token"),
        "/api/events/",
        &[("Pretalx-Version", "LEGACY")],
    )
    .await;
    assert!(is_legacy_event_list(&reply));

    // A token may carry any of them.
    for token in ["orga-v2-token", "orga-vnext-token"] {
        assert!(is_v1_event_list(
            &get(&server, Some(token), "/api/events/", &[]).await
        ));
    }

    for default in [ApiVersion::V1, ApiVersion::V2] {
        let versioned_server = TestServer::start_with(
            &[dataset()],
            Config {
                api_version: default,
                ..Config::default()
            },
        )
        .await;
        assert!(is_v1_event_list(
            &get(&versioned_server, None, "/api/events/", &[]).await
        ));
        let reply = get(
            &versioned_server,
            None,
            "/api/events/",
            &[("Pretalx-Version", "LEGACY")],
        )
        .await;
        assert!(is_legacy_event_list(&reply));
    }
}

#[tokio::test]
async fn an_unknown_version_is_a_400_on_the_api_only() {
    let server = TestServer::start(&[dataset()]).await;
    // `DEV_PREVIEW` was pretalx 2025's preview; 2026 renamed it `v-next`
    // and answers the old name as any unknown one.
    for version in ["DEV_PREVIEW", "V2", "vnext", "legacy", "V1", "1", "v3"] {
        for token in [None, Some("orga-token")] {
            for path in ["/api/events/", "/api/events/mini/submissions/", "/api/nope"] {
                let reply = get(&server, token, path, &[("Pretalx-Version", version)]).await;
                assert_eq!(reply.status, 400, "{version} {path}");
                assert_eq!(reply.body, json!({"detail": "API version not supported."}));
                assert_eq!(reply.headers["content-type"], "application/json");
            }
        }
        // The schedule exports have one shape and ignore the header.
        let reply = get(
            &server,
            None,
            "/mini/schedule.json",
            &[("Pretalx-Version", version)],
        )
        .await;
        assert_eq!(reply.status, 200, "{version}");
    }
}

#[tokio::test]
async fn every_answer_varies_on_the_version_and_the_cache_keeps_the_dialects_apart() {
    let server = TestServer::start(&[dataset()]).await;
    for _ in 0..2 {
        let legacy = get(&server, None, "/api/events/mini/rooms/", &[]).await;
        let v1 = get(&server, None, "/api/events/mini/rooms/", &[V1]).await;
        for reply in [&legacy, &v1] {
            assert_eq!(
                reply.headers["vary"],
                "Accept, Accept-Encoding, Authorization, Pretalx-Version"
            );
        }
        assert!(
            legacy.body["results"][0].get("uuid").is_none(),
            "{}",
            legacy.text
        );
        assert!(v1.body["results"][0].get("uuid").is_some(), "{}", v1.text);
        assert_ne!(legacy.headers["etag"], v1.headers["etag"]);
    }
}

#[tokio::test]
async fn the_paths_only_v1_has_do_not_exist_in_the_legacy_api() {
    let server = TestServer::start(&[dataset()]).await;
    for path in [
        "/api/events/mini/tracks/",
        "/api/events/mini/tracks/1/",
        "/api/events/mini/submission-types/",
        "/api/events/mini/question-options/",
    ] {
        let reply = get(&server, Some("orga-token"), path, &[]).await;
        assert_eq!(reply.status, 404, "{path}");
        assert_eq!(reply.body, json!({"detail": "Not found."}));
    }
}

#[tokio::test]
async fn v1_shows_the_data_only_v1_has() {
    let mut dataset = submissions_dataset();
    let event = &mut dataset["events"][0];
    event["email"] = json!("team@mini.example");
    event["locales"] = json!(["en", "de"]);
    event["logo"] = json!("https://mini.example/logo.png");
    event["schedule"]["id"] = json!(42);
    event["schedule"]["comment"] = json!({"en": "First release"});
    event["tracks"][0]["requires_access_code"] = json!(true);
    event["submission_types"][0]["deadline"] = json!("2026-04-01T00:00:00Z");
    event["questions"][0]["options"][1]["position"] = json!(7);
    event["questions"][1]["min_length"] = json!(2);
    event["questions"][1]["icon"] = json!("https://mini.example/q.png");
    event["speakers"][0]["has_arrived"] = json!(true);
    event["speakers"][0]["internal_notes"] = json!("Arrives by train");
    event["submissions"][0]["invitation_token"] = json!("invite-secret");
    event["submissions"][0]["review_code"] = json!("REVIEWCODE");
    event["submissions"][0]["resources"][0]["id"] = json!(301);
    event["score_categories"] = json!([{"id": 1, "name": {"en": "Content"}}]);
    event["reviews"][0]["scores"] =
        json!([{"id": 9, "category": 1, "value": "2.00", "label": "good"}]);
    let server = TestServer::start(&[dataset]).await;
    let detail = get(&server, None, "/api/events/mini/", &[V1]).await;
    assert_eq!(
        (
            &detail.body["email"],
            &detail.body["locales"],
            &detail.body["logo"]
        ),
        (
            &json!("team@mini.example"),
            &json!(["en", "de"]),
            &json!("https://mini.example/logo.png")
        )
    );
    // `lang` takes any of the event's locales.
    let de = get(&server, None, "/api/events/mini/tracks/1/?lang=de", &[V1]).await;
    assert_eq!(
        (&de.body["name"], &de.body["requires_access_code"]),
        (&json!(""), &json!(true))
    );
    let kind = get(&server, None, "/api/events/mini/submission-types/1/", &[V1]).await;
    assert_eq!(kind.body["deadline"], "2026-04-01T02:00:00+02:00");
    let option = get(
        &server,
        None,
        "/api/events/mini/question-options/11/",
        &[V1],
    )
    .await;
    assert_eq!(option.body["position"], 7);
    let question = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/2/",
        &[V1],
    )
    .await;
    assert_eq!(
        (&question.body["min_length"], &question.body["icon"]),
        (&json!(2), &json!("https://mini.example/q.png"))
    );
    let orga_speaker = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/speakers/SPK1/",
        &[V1],
    )
    .await;
    assert_eq!(
        (
            &orga_speaker.body["has_arrived"],
            &orga_speaker.body["internal_notes"]
        ),
        (&json!(true), &json!("Arrives by train"))
    );
    let public_speaker = get(&server, None, "/api/events/mini/speakers/SPK1/", &[V1]).await;
    assert!(public_speaker.body.get("internal_notes").is_none());
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/submissions/PUB1/",
        &[V1],
    )
    .await;
    assert_eq!(
        (
            &orga.body["invitation_token"],
            &orga.body["review_code"],
            &orga.body["access_code"]
        ),
        (&json!("invite-secret"), &json!("REVIEWCODE"), &Value::Null)
    );
    assert_eq!(orga.body["resources"][0], 301);
    for token in [None, Some("rev-token")] {
        let other = get(&server, token, "/api/events/mini/submissions/PUB1/", &[V1]).await;
        assert!(
            !other.text.contains("invite-secret") && !other.text.contains("REVIEWCODE"),
            "{token:?}"
        );
    }
    let review = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/reviews/7/",
        &[V1],
    )
    .await;
    assert_eq!(
        review.body["scores"],
        json!([{"id": 9, "category": 1, "value": "2.00", "label": "good"}])
    );
    let schedule = get(&server, None, "/api/events/mini/schedules/42/", &[V1]).await;
    assert_eq!(
        (&schedule.body["id"], &schedule.body["comment"]),
        (&json!(42), &json!({"en": "First release"}))
    );
}

#[tokio::test]
async fn the_api_root_answers_pretalx_2026s_keys_beside_confapis_own() {
    let server = TestServer::start(&[dataset()]).await;
    let v2_server = TestServer::start_with(
        &[dataset()],
        Config {
            api_version: ApiVersion::V2,
            ..Config::default()
        },
    )
    .await;
    for (server, default) in [(&server, "LEGACY"), (&v2_server, "v2")] {
        // pretalx's root reads no version: any header, even an unknown one,
        // gets the same answer.
        let plain = get(server, None, "/api/", &[]).await;
        for header in ["v2", "v1", "LEGACY", "DEV_PREVIEW", "nonsense"] {
            let reply = get(server, None, "/api/", &[("Pretalx-Version", header)]).await;
            assert_eq!((reply.status, &reply.body), (200, &plain.body), "{header}");
        }
        let mut root = plain.body.clone();
        let endpoints = root.as_object_mut().unwrap().remove("endpoints").unwrap();
        assert!(endpoints.as_array().unwrap().len() > 20);
        assert_eq!(
            root,
            json!({
                "name": "confapi",
                "version": env!("CARGO_PKG_VERSION"),
                "api_version": "v2",
                "api_versions": ["v2", "v-next", "v1", "LEGACY"],
                "default_api_version": default,
                "urls": {"events": format!("{}/api/events/", server.base)},
                "documentation": "/api/openapi.json",
            })
        );
    }
}

/// mini() with every field pretalx 2026 added, none at its default.
fn dataset_2026() -> Value {
    let mut dataset = submissions_dataset();
    let event = &mut dataset["events"][0];
    event["og_image"] = json!("https://mini.example/og.png");
    event["tracks"][0]["attendee_signup_required"] = json!(true);
    event["submission_types"][0]["attendee_signup_required"] = json!(true);
    event["questions"][0]["identifier"] = json!("LEVEL");
    event["questions"][0]["options"][0]["identifier"] = json!("beginner-1");
    let pub1 = &mut event["submissions"][0];
    pub1["updated"] = json!("2026-03-05T09:30:00Z");
    pub1["invitations"] = json!([{"id": 5, "email": "carol@mini.example",
                                  "created": "2026-03-04T08:00:00Z", "updated": null}]);
    pub1["attendee_signup"] = json!({"required": true, "capacity": 30, "status": "full"});
    dataset
}

#[tokio::test]
async fn v1_and_v2_show_pretalx_2026s_fields_to_the_roles_pretalx_shows_them_to() {
    let server = TestServer::start(&[dataset_2026()]).await;
    for version in [("Pretalx-Version", "v1"), ("Pretalx-Version", "v2")] {
        for token in [None, Some("rev-token"), Some("orga-token")] {
            let event = get(&server, token, "/api/events/mini/", &[version]).await;
            assert_eq!(event.body["og_image"], "https://mini.example/og.png");
            let track = get(&server, token, "/api/events/mini/tracks/1/", &[version]).await;
            assert_eq!(track.body["attendee_signup_required"], true, "{token:?}");
            let kind = get(
                &server,
                token,
                "/api/events/mini/submission-types/1/",
                &[version],
            )
            .await;
            assert_eq!(kind.body["attendee_signup_required"], true);
            let sub = get(
                &server,
                token,
                "/api/events/mini/submissions/PUB1/",
                &[version],
            )
            .await;
            assert_eq!(
                (
                    &sub.body["attendee_signup_required"],
                    &sub.body["attendee_signup_capacity"],
                    &sub.body["signup_status"]
                ),
                (&json!(true), &json!(30), &json!("full")),
                "{token:?}"
            );
            // Organisers and reviewers see when it was made and changed, in
            // the event's time zone; only organisers its invitations.
            let dates = (sub.body.get("created"), sub.body.get("updated"));
            if token.is_none() {
                assert_eq!(dates, (None, None));
            } else {
                assert_eq!(
                    dates,
                    (
                        Some(&json!("2026-03-01T13:00:00+01:00")),
                        Some(&json!("2026-03-05T10:30:00+01:00"))
                    ),
                    "{token:?}"
                );
            }
            let invitations = sub.body.get("invitations");
            assert_eq!(
                invitations,
                (token == Some("orga-token")).then_some(&json!([5]))
            );
            assert!(!sub.text.contains("carol@") || token == Some("orga-token"));
        }
        // A submission without them: nulls, and no invitations.
        let other = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/submissions/SUB2/",
            &[version],
        )
        .await;
        assert_eq!(
            (
                &other.body["attendee_signup_required"],
                &other.body["attendee_signup_capacity"],
                &other.body["signup_status"],
                &other.body["updated"],
                &other.body["invitations"]
            ),
            (
                &Value::Null,
                &Value::Null,
                &Value::Null,
                &Value::Null,
                &json!([])
            )
        );
        let expanded = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/submissions/PUB1/?expand=invitations",
            &[version],
        )
        .await;
        assert_eq!(
            expanded.body["invitations"],
            json!([{"id": 5, "email": "carol@mini.example",
                    "created": "2026-03-04T09:00:00+01:00", "updated": null}])
        );
        // The list answers as the details do.
        let list = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/submissions/?expand=invitations",
            &[version],
        )
        .await;
        let listed = list.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["code"] == "PUB1")
            .unwrap();
        assert_eq!(listed, &expanded.body);
        let question = get(&server, None, "/api/events/mini/questions/1/", &[version]).await;
        assert_eq!(question.body["identifier"], "LEVEL");
        let option = get(
            &server,
            None,
            "/api/events/mini/question-options/10/",
            &[version],
        )
        .await;
        assert_eq!(option.body["identifier"], "beginner-1");
        let unnamed = get(
            &server,
            None,
            "/api/events/mini/question-options/11/",
            &[version],
        )
        .await;
        assert_eq!(unnamed.body["identifier"], Value::Null);
    }
    // The legacy API shows none of them.
    let legacy = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/submissions/PUB1/",
        &[],
    )
    .await;
    for key in [
        "attendee_signup_required",
        "signup_status",
        "updated",
        "invitations",
    ] {
        assert!(legacy.body.get(key).is_none(), "{key}");
    }
}
