//! behaviour.md §6 "Tags", with the §3 roles, §5 pagination and §8 fine
//! points it depends on, over HTTP, with full JSON bodies on `tags_mini()`
//! (helpers/reviews_mini.rs).

use crate::helpers::bodies::*;
use crate::helpers::reviews_mini::*;
use crate::helpers::{assert_bad_parameters, assert_invalid_page, TestServer};
use serde_json::{json, Value};

fn tag1() -> Value {
    json!({"id": 1, "tag": "hot.topic", "description": {}, "color": "#ff0000", "is_public": false})
}

fn tag2() -> Value {
    json!({"id": 2, "tag": "Needs AV", "description": {"en": "Needs A/V"}, "color": "", "is_public": false})
}

fn tag3() -> Value {
    json!({"id": 3, "tag": "café", "description": {"en": "Coffee", "fr": "Café"}, "color": "#6f4e37",
           "is_public": true})
}

#[tokio::test]
async fn organisers_and_reviewers_see_every_tag_by_id() {
    let server = TestServer::start(&[tags_mini()]).await;
    for token in ["orga-token", "admin-token", "rev-token", "rev3-token"] {
        let client = server.token(token);
        for path in ["/api/events/mini/tags/", "/api/events/mini/tags"] {
            assert_json(
                &client.ok(path).await,
                &page_of(vec![tag1(), tag2(), tag3()]),
                &format!("{token} {path}"),
            );
        }
        assert_json(
            &client.ok("/api/events/mini/tags/hot.topic").await,
            &tag1(),
            token,
        );
    }
}

#[tokio::test]
async fn the_public_sees_no_tags() {
    let server = TestServer::start(&[tags_mini()]).await;
    for (who, client) in [
        ("anonymous", server.anon()),
        ("nobody", server.token("nobody-token")),
        ("speaker", server.token("spk2-token")),
        // a reviewer of another event only
        ("reviewer elsewhere", server.token("rev2-token")),
    ] {
        let events: &[&str] = if who == "reviewer elsewhere" {
            &["other"]
        } else {
            &["mini", "other"]
        };
        for slug in events {
            for path in [
                format!("/api/events/{slug}/tags/"),
                format!("/api/events/{slug}/tags?page=1"),
            ] {
                let reply = client.get(&path).await;
                assert_eq!(reply.status, 200, "{who} {path}");
                assert_eq!(reply.body, empty_page(), "{who} {path}");
            }
            assert_invalid_page(
                &client
                    .get(&format!("/api/events/{slug}/tags/?page=2"))
                    .await,
                who,
            );
        }
        // Even tags marked is_public are not shown, nor any detail.
        for path in [
            "/api/events/mini/tags/hot.topic",
            "/api/events/mini/tags/caf%C3%A9",
            "/api/events/mini/tags/Needs%20AV/",
            "/api/events/other/tags/elsewhere",
        ] {
            if who == "reviewer elsewhere" && path.contains("/mini/") {
                continue;
            }
            assert_error(&client.get(path).await, 404, &format!("{who} {path}"));
        }
    }
}

#[tokio::test]
async fn tags_are_looked_up_by_name_case_insensitively() {
    let server = TestServer::start(&[tags_mini()]).await;
    for token in ["orga-token", "rev-token"] {
        let client = server.token(token);
        for (path, expected) in [
            ("/api/events/mini/tags/hot.topic", tag1()),
            ("/api/events/mini/tags/Hot.Topic/", tag1()),
            ("/api/events/mini/tags/HOT.TOPIC", tag1()),
            ("/api/events/mini/tags/caf%C3%A9", tag3()),
            ("/api/events/mini/tags/CAF%C3%89/", tag3()),
            ("/api/events/mini/tags/needs%20av", tag2()),
            ("/api/events/mini/tags/NEEDS%20AV/", tag2()),
            ("/api/events/mini/tags/hot.topic?page=x", tag1()),
        ] {
            assert_json(
                &client.ok(path).await,
                &expected,
                &format!("{token} {path}"),
            );
        }
        for path in [
            "/api/events/mini/tags/nope",
            "/api/events/mini/tags/hot",
            "/api/events/mini/tags/hot.topic.",
            "/api/events/mini/tags/cafe",
            "/api/events/mini/tags/1",
            // a tag of another event
            "/api/events/mini/tags/elsewhere",
            "/api/events/mini/tags/hot.topic/extra",
        ] {
            assert_error(&client.get(path).await, 404, &format!("{token} {path}"));
        }
    }
}

#[tokio::test]
async fn tag_fields_come_in_the_documented_order() {
    let server = TestServer::start(&[tags_mini()]).await;
    let fields = ["id", "tag", "description", "color", "is_public"];
    let client = server.token("rev-token");
    for keys in result_key_orders(&client.get("/api/events/mini/tags/").await.text) {
        assert_eq!(keys, fields);
    }
    assert_eq!(
        key_order(&client.get("/api/events/mini/tags/caf%C3%A9").await.text),
        fields
    );
}

fn many_tags(n: i64) -> Value {
    let mut ds = reviews_mini();
    ev(&mut ds)["tags"] = json!((1..=n)
        .rev()
        .map(|id| json!({"id": id, "tag": format!("tag-{id:02}")}))
        .collect::<Vec<_>>());
    ds
}

fn tags_n(ids: impl Iterator<Item = i64>) -> Value {
    json!(ids
        .map(|id| json!({"id": id, "tag": format!("tag-{id:02}"), "description": {}, "color": "", "is_public": false}))
        .collect::<Vec<_>>())
}

#[tokio::test]
async fn tags_come_25_to_a_page() {
    let server = TestServer::start(&[many_tags(30)]).await;
    let orga = server.token("orga-token");
    let base = format!("{}/api/events/mini/tags/", server.base);
    let reply = orga.get("/api/events/mini/tags/").await;
    assert_page(
        &reply,
        30,
        Some(&format!("{base}?limit=25&offset=25")),
        None,
        &tags_n(1..=25),
        "first",
    );
    let reply = orga
        .request_url("GET", reply.body["next"].as_str().unwrap(), &[])
        .await;
    assert_page(
        &reply,
        30,
        None,
        Some(&format!("{base}?limit=25&offset=0")),
        &tags_n(26..=30),
        "second",
    );
    let reply = orga.get("/api/events/mini/tags/?page=2").await;
    assert_page(
        &reply,
        30,
        None,
        Some(&format!("{base}?page=1")),
        &tags_n(26..=30),
        "page 2",
    );
    let reply = orga.get("/api/events/mini/tags/?page=2&page_size=10").await;
    assert_page(
        &reply,
        30,
        Some(&format!("{base}?page_size=10&page=3")),
        Some(&format!("{base}?page_size=10&page=1")),
        &tags_n(11..=20),
        "page 2 of 10",
    );
    assert_invalid_page(&orga.get("/api/events/mini/tags/?page=3").await, "page 3");
    let reply = orga.get("/api/events/mini/tags/?offset=28&limit=5").await;
    assert_page(
        &reply,
        30,
        None,
        Some(&format!("{base}?offset=23&limit=5")),
        &tags_n(29..=30),
        "tail",
    );
    let reply = orga.get("/api/events/mini/tags/?offset=30").await;
    assert_eq!(
        (
            reply.status,
            reply.body["count"].clone(),
            reply.body["results"].clone()
        ),
        (200, json!(30), json!([]))
    );
    assert_bad_parameters(
        &orga.get("/api/events/mini/tags/?page_size=ten").await,
        &["page_size"],
        "page_size",
    );
    // The public gets an empty page, but bad parameters are still 400.
    assert_eq!(
        server.anon().ok("/api/events/mini/tags/").await,
        empty_page()
    );
    assert_bad_parameters(
        &server.anon().get("/api/events/mini/tags/?limit=x").await,
        &["limit"],
        "anon limit",
    );
}
