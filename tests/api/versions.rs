//! The two dialects (pretalx-v1.md §3 and §13): which one a request gets
//! (the `Pretalx-Version` header, else the token's version, else the
//! server's default), `Vary`, the cache keeping them apart, and the v1
//! endpoints served so far, for every role.

use crate::helpers::{http_client_builder, mini, Reply, TestServer};

use confapi::http::Config;
use confapi::model::ApiVersion;
use serde_json::{json, Value};

const V1: (&str, &str) = ("Pretalx-Version", "v1");

async fn get(
    server: &TestServer,
    token: Option<&str>,
    path: &str,
    headers: &[(&str, &str)],
) -> Reply {
    let client = match token {
        Some(token) => server.token(token),
        None => server.anon(),
    };
    client.request("GET", path, headers).await
}

/// mini() with a token of the organiser that asks for v1 by itself, a
/// choice question with options, and a second, private question.
fn dataset() -> Value {
    let mut dataset = mini();
    dataset["users"][0]["tokens"] =
        json!(["orga-token", {"token": "orga-v1-token", "api_version": "v1"}]);
    dataset["events"][0]["questions"] = json!([
        {"id": 1, "variant": "choices", "target": "submission", "question": {"en": "Level?"},
         "is_public": true, "position": 2,
         "options": [{"id": 10, "answer": {"en": "Beginner"}}, {"id": 11, "answer": {"en": "Expert"}}]},
        {"id": 2, "variant": "string", "target": "submission", "question": {"en": "Notes?"},
         "position": 1, "is_visible_to_reviewers": false},
    ]);
    dataset
}

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
    for header in ["v1", "DEV_PREVIEW"] {
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

    let v1_server = TestServer::start_with(
        &[dataset()],
        Config {
            api_version: ApiVersion::V1,
            ..Config::default()
        },
    )
    .await;
    assert!(is_v1_event_list(
        &get(&v1_server, None, "/api/events/", &[]).await
    ));
    let reply = get(
        &v1_server,
        None,
        "/api/events/",
        &[("Pretalx-Version", "LEGACY")],
    )
    .await;
    assert!(is_legacy_event_list(&reply));
}

#[tokio::test]
async fn an_unknown_version_is_a_400_on_the_api_only() {
    let server = TestServer::start(&[dataset()]).await;
    for version in ["v2", "legacy", "V1", "1"] {
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
async fn v1_events_are_a_bare_list_and_the_detail_has_more() {
    let server = TestServer::start(&[dataset()]).await;
    let list = get(&server, None, "/api/events/", &[V1]).await;
    let listed = json!({"name": {"en": "Mini Conf"}, "slug": "mini", "is_public": true,
                        "date_from": "2026-06-01", "date_to": "2026-06-02", "timezone": "Europe/Berlin"});
    assert_eq!(list.body, json!([listed]));
    // Keys in pretalx's order.
    assert!(
        list.text
            .starts_with(r#"[{"name":{"en":"Mini Conf"},"slug":"mini","is_public":true"#),
        "{}",
        list.text
    );
    let detail = get(&server, None, "/api/events/mini/", &[V1]).await;
    let mut expected = listed.clone();
    expected.as_object_mut().unwrap().extend(
        json!({"email": "", "primary_color": null, "custom_domain": null, "logo": null,
               "header_image": null, "locale": "en", "locales": ["en"], "content_locales": ["en"]})
        .as_object()
        .unwrap()
        .clone(),
    );
    assert_eq!(detail.body, expected);
    // `fields` is no parameter of the events (pretalx: no flex fields).
    let lang = get(
        &server,
        None,
        "/api/events/mini/?lang=en&fields=name,slug",
        &[V1],
    )
    .await;
    assert_eq!(lang.body["name"], json!("Mini Conf"));
    assert_eq!(lang.body["locales"], json!(["en"]));
    let public = get(&server, None, "/api/events/?is_public=true", &[V1]).await;
    assert_eq!(public.body, json!([listed]));
    let none = get(&server, None, "/api/events/?is_public=false", &[V1]).await;
    assert_eq!(none.body, json!([]));
    // Not a boolean: no filter (django-filter's BooleanWidget).
    let bad = get(&server, None, "/api/events/?is_public=maybe", &[V1]).await;
    assert_eq!(bad.body, json!([listed]));
}

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
                   "position": null, "requires_access_code": false}),
            "{token:?}"
        );
        let kinds = get(&server, token, "/api/events/mini/submission-types/", &[V1]).await;
        assert_eq!(
            kinds.body["results"],
            json!([{"id": 1, "name": {"en": "Talk"}, "default_duration": 30, "deadline": null,
                    "requires_access_code": false}]),
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
async fn v1_tags_are_for_organisers_and_reviewers_by_id() {
    let server = TestServer::start(&[dataset()]).await;
    let tag = json!({"id": 1, "tag": "hot.topic", "description": {}, "color": "#ff0000", "is_public": false});
    for token in ["orga-token", "rev-token"] {
        let list = get(&server, Some(token), "/api/events/mini/tags/", &[V1]).await;
        assert_eq!(list.body["results"], json!([tag]), "{token}");
        assert_eq!(
            get(&server, Some(token), "/api/events/mini/tags/1/", &[V1])
                .await
                .body,
            tag
        );
        // By its name is the legacy lookup.
        assert_eq!(
            get(
                &server,
                Some(token),
                "/api/events/mini/tags/hot.topic/",
                &[V1]
            )
            .await
            .status,
            404
        );
    }
    let anonymous = get(&server, None, "/api/events/mini/tags/", &[V1]).await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(
        anonymous.body,
        json!({"detail": "Authentication credentials were not provided."})
    );
    let nobody = get(
        &server,
        Some("nobody-token"),
        "/api/events/mini/tags/1/",
        &[V1],
    )
    .await;
    assert_eq!(nobody.status, 403);
}

#[tokio::test]
async fn v1_questions_and_options_for_every_role() {
    let server = TestServer::start(&[dataset()]).await;
    let public_level = json!({
        "id": 1, "question": {"en": "Level?"}, "help_text": {}, "default_answer": null,
        "variant": "choices", "target": "submission", "deadline": null, "freeze_after": null,
        "question_required": "optional", "position": 2, "tracks": [], "submission_types": [],
        "options": [10, 11], "min_length": null, "max_length": null, "min_number": null,
        "max_number": null, "min_date": null, "max_date": null, "min_datetime": null,
        "max_datetime": null, "icon": null,
    });
    for token in [None, Some("nobody-token")] {
        let list = get(&server, token, "/api/events/mini/questions/", &[V1]).await;
        assert_eq!(list.body["results"], json!([public_level]), "{token:?}");
        assert_eq!(
            get(&server, token, "/api/events/mini/questions/2/", &[V1])
                .await
                .status,
            404
        );
        let options = get(&server, token, "/api/events/mini/question-options/", &[V1]).await;
        assert_eq!(
            options.body["results"],
            json!([{"id": 10, "question": 1, "answer": {"en": "Beginner"}, "position": 0},
                   {"id": 11, "question": 1, "answer": {"en": "Expert"}, "position": 1}])
        );
    }
    // Reviewers: questions shown to reviewers (2 is not), public fields.
    let reviewer = get(
        &server,
        Some("rev-token"),
        "/api/events/mini/questions/",
        &[V1],
    )
    .await;
    assert_eq!(reviewer.body["results"], json!([public_level]));
    // Organisers: every question, by position, options nested, and the flags.
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/",
        &[V1],
    )
    .await;
    let ids: Vec<_> = orga.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["id"].clone())
        .collect();
    assert_eq!(ids, vec![json!(2), json!(1)]);
    let level = &orga.body["results"][1];
    assert_eq!(
        level["options"],
        json!([{"id": 10, "answer": {"en": "Beginner"}, "position": 0},
               {"id": 11, "answer": {"en": "Expert"}, "position": 1}])
    );
    assert_eq!(
        (
            &level["active"],
            &level["is_public"],
            &level["contains_personal_data"],
            &level["is_visible_to_reviewers"]
        ),
        (&json!(true), &json!(true), &json!(true), &json!(true))
    );
    // Filters, search, ordering, lang.
    let filtered = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?is_public=false&variant=string",
        &[V1],
    )
    .await;
    assert_eq!(filtered.body["count"], 1);
    assert_eq!(filtered.body["results"][0]["id"], 2);
    let searched = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?q=LEVEL&o=-id",
        &[V1],
    )
    .await;
    assert_eq!(searched.body["count"], 1);
    let ordered = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?o=-position",
        &[V1],
    )
    .await;
    assert_eq!(ordered.body["results"][0]["id"], 1);
    let lang = get(
        &server,
        None,
        "/api/events/mini/question-options/10/?lang=en",
        &[V1],
    )
    .await;
    assert_eq!(
        lang.body,
        json!({"id": 10, "question": 1, "answer": "Beginner", "position": 0})
    );
    for (query, parameter) in [("variant=bogus", "variant"), ("target=review", "target")] {
        let reply = get(
            &server,
            None,
            &format!("/api/events/mini/questions/?{query}"),
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
    let option_filter = get(
        &server,
        None,
        "/api/events/mini/question-options/?question=2",
        &[V1],
    )
    .await;
    assert_eq!(option_filter.body["count"], 0);
}

#[tokio::test]
async fn v1_pages_by_page_number_up_to_250_or_by_limit_and_offset_together() {
    let mut dataset = dataset();
    let tags: Vec<Value> = (1..=60)
        .map(|id| json!({"id": id, "tag": format!("tag{id:02}"), "color": "#000000"}))
        .collect();
    dataset["events"][0]["tags"] = json!(tags);
    dataset["events"][0]["submissions"][0]["tags"] = json!([1]);
    dataset["events"][0]["submissions"][1]["tags"] = json!([]);
    let server = TestServer::start(&[dataset]).await;
    let base = format!("{}/api/events/mini/tags/", server.base);
    let page = |query: &'static str| {
        let server = &server;
        async move {
            get(
                server,
                Some("orga-token"),
                &format!("/api/events/mini/tags/{query}"),
                &[V1],
            )
            .await
        }
    };
    let first = page("").await;
    assert_eq!(
        (
            first.body["count"].clone(),
            first.body["results"].as_array().unwrap().len()
        ),
        (json!(60), 50)
    );
    assert_eq!(first.body["next"], json!(format!("{base}?page=2")));
    let second = page("?page=2").await;
    assert_eq!(second.body["results"].as_array().unwrap().len(), 10);
    // Back to page 1 without a page parameter.
    assert_eq!(second.body["previous"], json!(base));
    let big = page("?page_size=1000").await;
    assert_eq!(big.body["results"].as_array().unwrap().len(), 60);
    let default = page("?page_size=abc").await;
    assert_eq!(default.body["results"].as_array().unwrap().len(), 50);
    assert_eq!(page("?page=abc").await.status, 404);
    assert_eq!(
        page("?page=3").await.body,
        json!({"detail": "Invalid page."})
    );
    let offset = page("?limit=5&offset=10").await;
    assert_eq!(offset.body["results"][0]["id"], 11);
    assert_eq!(
        offset.body["next"],
        json!(format!("{base}?limit=5&offset=15"))
    );
    // limit alone is ignored.
    let limit_only = page("?limit=5").await;
    assert_eq!(limit_only.body["results"].as_array().unwrap().len(), 50);
}

/// mini() with a review, an answer, tags on the public talk (one public),
/// a private resource and a reviewer who may not see speaker names.
fn submissions_dataset() -> Value {
    let mut dataset = dataset();
    let event = &mut dataset["events"][0];
    event["tags"] = json!([{"id": 1, "tag": "hot.topic", "color": "#ff0000"},
                           {"id": 2, "tag": "open", "color": "#00ff00", "is_public": true}]);
    event["submissions"][0]["tags"] = json!([2, 1]);
    event["submissions"][0]["resources"] = json!([
        {"resource": "https://mini.example/slides.pdf", "description": "Slides"},
        {"resource": "https://mini.example/notes.txt", "description": "Notes", "is_public": false},
    ]);
    event["submissions"][0]["notes"] = json!("Please a lapel microphone");
    event["answers"] = json!([
        {"id": 5, "question": 1, "answer": "Beginner", "options": [10], "submission": "PUB1"},
        {"id": 6, "question": 2, "answer": "secret", "submission": "PUB1"},
    ]);
    event["reviews"] = json!([
        {"id": 7, "submission": "SUB2", "user": "REV", "text": "Good", "score": 2.0,
         "created": "2026-04-01T10:00:00Z"},
    ]);
    dataset
}

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
                "duration": 30, "slot_count": 1, "content_locale": "en", "do_not_record": false,
                "image": null, "resources": [resource_id], "slots": [slot_id], "answers": [5],
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
    assert_eq!(pub1["anonymised_data"], "{}");
    let sub2 = &subs[1].1;
    assert_eq!(
        sub2["title"], "Secret Proposal",
        "organisers see the real title"
    );
    assert_eq!(sub2["speakers"], json!(["SPK2"]));
    assert_eq!(
        sub2["anonymised_data"],
        r#"{"_anonymised":true,"title":"Anonymous Proposal"}"#
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
    ] {
        assert!(sub2.get(secret).is_none(), "{secret}: {sub2}");
    }
    // pretalx shows reviewers these; no secret (section 13 keeps them).
    assert_eq!(
        (&sub2["pending_state"], &sub2["assigned_reviewers"]),
        (&json!(null), &json!([]))
    );
    assert_eq!(
        (&sub2["is_anonymised"], &sub2["reviews"]),
        (&json!(true), &json!([7]))
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
async fn v1_speakers_for_every_role() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    let public = json!({"code": "SPK1", "name": "Ada Speaker", "biography": "Ada's bio",
                        "submissions": ["PUB1"], "avatar_url": "", "answers": []});
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
               "submissions": ["SUB2", "SUB3"], "avatar_url": "", "answers": [],
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

const PYTANIS_EXPAND: &str = "answers,answers.question,answers.options,resources,slots,slots.room,\
speakers,speakers.answers,speakers.answers.options,submission_type,tags,track";

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
        json!([{"id": resource_id, "resource": "https://mini.example/slides.pdf", "description": "Slides"}])
    );
    assert_eq!(
        body["speakers"],
        json!([{"code": "SPK1", "name": "Ada Speaker", "biography": "Ada's bio", "submissions": [],
                "avatar_url": "", "answers": []}]),
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
        json!([{"id": 10, "answer": {"en": "Beginner"}, "position": 0}])
    );

    let orga = get(&server, Some("orga-token"), &path, &[V1]).await;
    let body = &orga.body;
    assert_eq!(body["tags"].as_array().unwrap().len(), 2);
    assert_eq!(body["resources"].as_array().unwrap().len(), 2);
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

// ---------------------------------------------------------------------------
// What scripts/pretalx_v1_diff.py found where confapi answered otherwise
// than pretalx 2025.2.2

#[tokio::test]
async fn v1_fields_and_omit_shape_only_what_pretalx_shapes() {
    // pretalx's serializers of events, rooms, tracks, submission types
    // and tags have no flex fields: `fields` and `omit` change nothing
    // there; questions and options take them.
    let server = TestServer::start(&[dataset()]).await;
    for path in [
        "/api/events/",
        "/api/events/mini/",
        "/api/events/mini/rooms/",
        "/api/events/mini/rooms/1/",
        "/api/events/mini/tracks/",
        "/api/events/mini/tracks/1/",
        "/api/events/mini/submission-types/",
        "/api/events/mini/submission-types/1/",
        "/api/events/mini/tags/",
        "/api/events/mini/tags/1/",
    ] {
        let whole = get(&server, Some("orga-token"), path, &[V1]).await;
        assert_eq!(whole.status, 200, "{path}");
        for query in ["fields=id,slug", "omit=name,id,tag"] {
            let shaped = get(
                &server,
                Some("orga-token"),
                &format!("{path}?{query}"),
                &[V1],
            )
            .await;
            assert_eq!(shaped.body, whole.body, "{path}?{query}");
        }
    }
    let question = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/1/?fields=id,variant",
        &[V1],
    )
    .await;
    assert_eq!(question.body, json!({"id": 1, "variant": "choices"}));
    let option = get(
        &server,
        None,
        "/api/events/mini/question-options/10/?omit=answer,position",
        &[V1],
    )
    .await;
    assert_eq!(option.body, json!({"id": 10, "question": 1}));
}

#[tokio::test]
async fn v1_the_events_list_ignores_lang_the_detail_takes_it() {
    let server = TestServer::start(&[dataset()]).await;
    let list = get(&server, None, "/api/events/?lang=en", &[V1]).await;
    assert_eq!(list.body[0]["name"], json!({"en": "Mini Conf"}));
    let detail = get(&server, None, "/api/events/mini/?lang=en", &[V1]).await;
    assert_eq!(detail.body["name"], json!("Mini Conf"));
}

#[tokio::test]
async fn v1_boolean_filters_ignore_values_that_are_no_booleans() {
    // django-filter's BooleanWidget: true/false/1/0 in any case, anything
    // else is no filter.
    let server = TestServer::start(&[dataset()]).await;
    for (path, all) in [
        ("/api/events/", json!(1)),
        ("/api/events/mini/questions/", json!(2)),
    ] {
        for query in [
            "is_public=maybe",
            "is_public=yes",
            "is_visible_to_reviewers=2",
        ] {
            let reply = get(
                &server,
                Some("orga-token"),
                &format!("{path}?{query}"),
                &[V1],
            )
            .await;
            assert_eq!(reply.status, 200, "{path}?{query}: {}", reply.text);
            let count = reply
                .body
                .get("count")
                .cloned()
                .unwrap_or_else(|| json!(reply.body.as_array().map_or(0, Vec::len)));
            assert_eq!(count, all, "{path}?{query}");
        }
    }
    let upper = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?is_public=FALSE",
        &[V1],
    )
    .await;
    assert_eq!(upper.body["count"], 1);
    for (path, all) in [
        ("/api/events/mini/submissions/?is_featured=maybe", 3),
        ("/api/events/mini/slots/?is_visible=maybe", 1),
    ] {
        let reply = get(&server, Some("orga-token"), path, &[V1]).await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.text);
        assert_eq!(reply.body["count"], all, "{path}");
    }
}

#[tokio::test]
async fn v1_the_options_question_filter_takes_the_ids_of_active_questions() {
    let mut dataset = dataset();
    dataset["events"][0]["questions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": 3, "variant": "string", "target": "submission",
                     "question": {"en": "Retired?"}, "active": false, "position": 3}));
    let server = TestServer::start(&[dataset]).await;
    // An active question the caller does not see is a valid choice.
    let private = get(
        &server,
        None,
        "/api/events/mini/question-options/?question=2",
        &[V1],
    )
    .await;
    assert_eq!(private.body["count"], 0, "{}", private.text);
    for value in ["999", "abc", "3", "-1"] {
        let reply = get(
            &server,
            Some("orga-token"),
            &format!("/api/events/mini/question-options/?question={value}"),
            &[V1],
        )
        .await;
        assert_eq!(reply.status, 400, "{value}: {}", reply.text);
        assert_eq!(
            reply.body,
            json!({"question": ["Select a valid choice. That choice is not one of the available choices."]}),
            "{value}"
        );
    }
}

#[tokio::test]
async fn v1_the_link_back_to_offset_zero_has_no_offset() {
    // DRF's LimitOffsetPagination drops `offset` from a link to the start.
    let server = TestServer::start(&[dataset()]).await;
    let base = format!("{}/api/events/mini/rooms/", server.base);
    let reply = get(&server, None, "/api/events/mini/rooms/?offset=1", &[V1]).await;
    assert_eq!(reply.body["previous"], json!(format!("{base}?limit=100")));
    let reply = get(
        &server,
        None,
        "/api/events/mini/tracks/?limit=1&offset=1",
        &[V1],
    )
    .await;
    assert_eq!(
        reply.body["previous"],
        json!(format!("{}/api/events/mini/tracks/?limit=1", server.base))
    );
    // The legacy API spells out offset=0 (behaviour.md §5).
    let legacy = get(&server, None, "/api/events/mini/rooms/?offset=1", &[]).await;
    assert_eq!(
        legacy.body["previous"],
        json!(format!("{base}?limit=100&offset=0"))
    );
}

#[tokio::test]
async fn v1_unknown_events_are_404_and_the_detail_slug_is_case_sensitive() {
    let server = TestServer::start(&[dataset()]).await;
    for token in [None, Some("orga-token")] {
        for path in [
            "/api/events/nosuchcon/",
            "/api/events/nosuchcon/rooms/",
            "/api/events/nosuchcon/tracks/1/",
            "/api/events/nosuchcon/nothing/",
            "/api/events/MINI/",
        ] {
            let reply = get(&server, token, path, &[V1]).await;
            assert_eq!(reply.status, 404, "{token:?} {path}: {}", reply.text);
            assert_eq!(reply.body, json!({"detail": "Not found."}), "{path}");
        }
        // In the event's sub-paths the slug is case-insensitive.
        let rooms = get(&server, token, "/api/events/MINI/rooms/", &[V1]).await;
        assert_eq!(rooms.status, 200);
        // The legacy API: 403, and the detail in any case.
        let legacy = get(&server, token, "/api/events/nosuchcon/rooms/", &[]).await;
        assert_eq!(legacy.status, 403);
        let legacy = get(&server, token, "/api/events/MINI/", &[]).await;
        assert_eq!(legacy.status, 200);
    }
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
