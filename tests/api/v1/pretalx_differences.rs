//! What scripts/e2e/pretalx_v1_diff.py found where confapi answered otherwise
//! than pretalx 2025.2.2: `fields` and `omit`, `lang` on events, boolean
//! filters, the options' question filter, the link back to offset zero,
//! unknown events and the detail slug.

use super::{dataset, get, V1};
use crate::helpers::TestServer;
use serde_json::json;

// ---------------------------------------------------------------------------
// What scripts/e2e/pretalx_v1_diff.py found where confapi answered otherwise
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
    assert_eq!(
        option.body,
        json!({"id": 10, "question": 1, "identifier": null})
    );
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
