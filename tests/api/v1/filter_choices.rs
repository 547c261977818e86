//! Filter validation as django-filter answers it in pretalx 2025 and 2026:
//! a code or id that names nothing the caller is shown is 400 "Select a
//! valid choice", a number filter takes numbers ("Enter a number."), an
//! empty value of a multiple-choice filter is a choice like any other,
//! and `?format=` other than JSON is 404 (no browsable API in the
//! versioned API). Found by scripts/e2e/pretalx_v1_diff.py against pretalx
//! 2026.2.1.

use super::{get, submissions_dataset, V1};
use crate::helpers::TestServer;
use serde_json::{json, Value};

const V2: (&str, &str) = ("Pretalx-Version", "v2");
const INVALID_CHOICE: &str =
    "Select a valid choice. That choice is not one of the available choices.";

fn invalid(parameter: &str) -> Value {
    json!({ parameter: [INVALID_CHOICE] })
}

async fn count(server: &TestServer, token: Option<&str>, path: &str) -> i64 {
    let reply = get(server, token, path, &[V2]).await;
    assert_eq!(reply.status, 200, "{path}: {}", reply.text);
    reply.body["count"]
        .as_i64()
        .unwrap_or_else(|| panic!("{path}: no count: {}", reply.text))
}

#[tokio::test]
async fn a_format_other_than_json_is_not_found_in_the_versioned_api() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    for version in [V1, V2] {
        for path in [
            "/api/events/?format=api",
            "/api/events/mini/?format=api",
            "/api/events/mini/submissions/?format=xml",
            "/api/events/mini/submissions/PUB1/?format=api",
            "/api/events/mini/rooms/?format=json&format=api",
        ] {
            let reply = get(&server, None, path, &[version]).await;
            assert_eq!(reply.status, 404, "{path} {version:?}");
            assert_eq!(reply.header("content-type"), Some("application/json"));
            assert_eq!(reply.body, json!({"detail": "Not found."}), "{path}");
        }
        for path in [
            "/api/events/?format=json",
            "/api/events/mini/submissions/?format=",
            "/api/events/mini/rooms/?format=api&format=json",
        ] {
            let reply = get(&server, None, path, &[version]).await;
            assert_eq!(reply.status, 200, "{path} {version:?}: {}", reply.text);
        }
    }
    // The legacy API ignores the parameter: always JSON, never a page.
    let legacy = get(&server, None, "/api/events/mini/talks/?format=api", &[]).await;
    assert_eq!(legacy.status, 200, "{}", legacy.text);
    assert_eq!(legacy.body["count"], 1);
}

#[tokio::test]
async fn slot_filters_take_only_what_the_caller_is_shown() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    for token in [None, Some("orga-token")] {
        for (query, parameter) in [
            ("room=999", "room"),
            ("room=abc", "room"),
            ("submission=NOSUCH", "submission"),
            ("schedule=abc", "schedule"),
            ("schedule_version=nosuch", "schedule_version"),
        ] {
            let path = format!("/api/events/mini/slots/?{query}");
            let reply = get(&server, token, &path, &[V2]).await;
            assert_eq!(reply.status, 400, "{token:?} {path}: {}", reply.text);
            assert_eq!(reply.body, invalid(parameter), "{token:?} {path}");
        }
        assert_eq!(
            count(&server, token, "/api/events/mini/slots/?room=1").await,
            1
        );
        let pub1 = "/api/events/mini/slots/?submission=pub1";
        assert_eq!(count(&server, token, pub1).await, 1);
    }
    // A proposal is a choice for the organiser (it has no slot); for the
    // public it names nothing they are shown, as an unknown code.
    let proposal = "/api/events/mini/slots/?submission=SUB2";
    assert_eq!(count(&server, Some("orga-token"), proposal).await, 0);
    let reply = get(&server, None, proposal, &[V2]).await;
    assert_eq!((reply.status, reply.body), (400, invalid("submission")));
}

#[tokio::test]
async fn review_filters_take_only_known_codes_and_ids() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    let orga = Some("orga-token");
    for (query, parameter) in [
        ("submission=NOSUCH", "submission"),
        ("user=NOSUCH", "user"),
        ("user=ORGA", "user"),
        ("speaker=NOSUCH", "speaker"),
        ("submission__track=999", "submission__track"),
        (
            "submission__submission_type=abc",
            "submission__submission_type",
        ),
    ] {
        let path = format!("/api/events/mini/reviews/?{query}");
        let reply = get(&server, orga, &path, &[V2]).await;
        assert_eq!(reply.status, 400, "{path}: {}", reply.text);
        assert_eq!(reply.body, invalid(parameter), "{path}");
    }
    let reply = get(
        &server,
        orga,
        "/api/events/mini/reviews/?submission__state=bogus&submission__pending_state=",
        &[V2],
    )
    .await;
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert_eq!(
        reply.body,
        json!({
            "submission__state": ["Select a valid choice. bogus is not one of the available choices."],
            "submission__pending_state": ["Select a valid choice.  is not one of the available choices."],
        })
    );
    // The one review is of SUB2: submitted, track 1, type 1, English.
    for (query, expected) in [
        ("submission=sub2", 1),
        ("submission=PUB1", 0),
        ("user=rev", 1),
        ("speaker=SPK2", 1),
        ("speaker=SPK1", 0),
        ("submission__state=submitted", 1),
        ("submission__state=confirmed&submission__state=submitted", 1),
        ("submission__state=confirmed", 0),
        ("submission__pending_state=confirmed", 0),
        ("submission__track=1", 1),
        ("submission__submission_type=1", 1),
        ("submission__content_locale=en", 1),
        ("submission__content_locale=xx", 0),
        ("submission__track=", 1),
    ] {
        let path = format!("/api/events/mini/reviews/?{query}");
        assert_eq!(count(&server, orga, &path).await, expected, "{path}");
    }
}

#[tokio::test]
async fn answer_filters_take_numbers_and_submissions_take_no_empty_state() {
    let server = TestServer::start(&[submissions_dataset()]).await;
    let orga = Some("orga-token");
    for parameter in ["question", "review"] {
        let path = format!("/api/events/mini/answers/?{parameter}=abc");
        let reply = get(&server, orga, &path, &[V2]).await;
        assert_eq!(reply.status, 400, "{path}: {}", reply.text);
        assert_eq!(reply.body, json!({ parameter: ["Enter a number."] }));
    }
    assert_eq!(
        count(&server, orga, "/api/events/mini/answers/?question=999").await,
        0
    );
    assert_eq!(
        count(&server, orga, "/api/events/mini/answers/?question=1").await,
        1
    );
    assert_eq!(
        count(&server, orga, "/api/events/mini/answers/?question=").await,
        2
    );
    assert_eq!(
        count(&server, orga, "/api/events/mini/answers/?submission=NOSUCH").await,
        0
    );
    for parameter in ["state", "pending_state"] {
        let path = format!("/api/events/mini/submissions/?{parameter}=");
        let reply = get(&server, orga, &path, &[V2]).await;
        assert_eq!(reply.status, 400, "{path}: {}", reply.text);
        assert_eq!(
            reply.body,
            json!({ parameter: ["Select a valid choice.  is not one of the available choices."] })
        );
    }
}
