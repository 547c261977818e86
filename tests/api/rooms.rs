//! behaviour.md §6 "Rooms", with the §3 roles, §4 value formats, §5
//! pagination and §8 fine points it depends on, over HTTP, with full JSON
//! bodies on small datasets built from `reviews_mini()`
//! (helpers/reviews_mini.rs).

use crate::helpers::bodies::*;
use crate::helpers::reviews_mini::*;
use crate::helpers::{assert_invalid_page, TestServer};
use serde_json::{json, Value};

// ===========================================================================
// Rooms
// ===========================================================================

fn rooms_mini() -> Value {
    let mut ds = reviews_mini();
    ev(&mut ds)["rooms"] = json!([
        {"id": 7, "guid": "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f", "name": {"en": "Workshop", "de": "Werkstatt"},
         "description": {"en": "Upstairs"}, "speaker_info": "Bring adapters",
         "availabilities": [
            {"id": 5, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-03T00:00:00+02:00"},
            {"id": 3, "start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T18:00:00.25+02:00"}]},
        {"id": 1, "name": {"en": "Hall"}, "capacity": 100, "position": 1},
        {"id": 4, "name": "Foyer", "capacity": 0, "position": 0,
         "availabilities": [
            {"id": 8, "start": "2026-05-31T22:00:00Z", "end": "2026-06-01T12:00:00+02:00"},
            {"id": 6, "start": "2026-06-01T00:00:00Z", "end": "2026-06-02T00:00:00Z"}]}
    ]);
    ds
}

fn room4() -> Value {
    json!({"id": 4, "guid": null, "name": {"en": "Foyer"}, "description": {}, "capacity": 0, "position": 0,
           "speaker_info": {}})
}

fn room1() -> Value {
    json!({"id": 1, "guid": null, "name": {"en": "Hall"}, "description": {}, "capacity": 100, "position": 1,
           "speaker_info": {}})
}

fn room7() -> Value {
    json!({"id": 7, "guid": "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f", "name": {"en": "Workshop", "de": "Werkstatt"},
           "description": {"en": "Upstairs"}, "capacity": null, "position": null,
           "speaker_info": {"en": "Bring adapters"}})
}

fn with_availabilities(mut room: Value, availabilities: Value) -> Value {
    room["availabilities"] = availabilities;
    room
}

/// The organisers' rooms: availabilities by id, `allDay` when both ends are
/// midnight in Europe/Berlin (UTC midnight is not).
fn orga_rooms() -> Vec<Value> {
    vec![
        with_availabilities(
            room4(),
            json!([
                {"id": 6, "start": "2026-06-01T02:00:00+02:00", "end": "2026-06-02T02:00:00+02:00", "allDay": false},
                {"id": 8, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-01T12:00:00+02:00", "allDay": false}
            ]),
        ),
        with_availabilities(room1(), json!([])),
        with_availabilities(
            room7(),
            json!([
                {"id": 3, "start": "2026-06-01T09:00:00+02:00", "end": "2026-06-01T18:00:00.250000+02:00",
                 "allDay": false},
                {"id": 5, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-03T00:00:00+02:00", "allDay": true}
            ]),
        ),
    ]
}

#[tokio::test]
async fn every_caller_sees_every_room_and_organisers_their_availabilities() {
    let server = TestServer::start(&[rooms_mini()]).await;
    let public = vec![room4(), room1(), room7()];
    for (who, client, expected) in [
        ("anonymous", server.anon(), public.clone()),
        ("nobody", server.token("nobody-token"), public.clone()),
        ("speaker", server.token("spk2-token"), public.clone()),
        ("reviewer", server.token("rev-token"), public.clone()),
        (
            "reviewer without reviews",
            server.token("rev3-token"),
            public.clone(),
        ),
        ("organiser", server.token("orga-token"), orga_rooms()),
        ("administrator", server.token("admin-token"), orga_rooms()),
    ] {
        for path in ["/api/events/mini/rooms/", "/api/events/mini/rooms"] {
            assert_json(
                &client.ok(path).await,
                &page_of(expected.clone()),
                &format!("{who} {path}"),
            );
        }
        for room in &expected {
            let id = &room["id"];
            for path in [
                format!("/api/events/mini/rooms/{id}"),
                format!("/api/events/mini/rooms/{id}/"),
            ] {
                assert_json(&client.ok(&path).await, room, &format!("{who} {path}"));
            }
        }
    }
}

#[tokio::test]
async fn room_fields_come_in_the_documented_order() {
    let server = TestServer::start(&[rooms_mini()]).await;
    let public = [
        "id",
        "guid",
        "name",
        "description",
        "capacity",
        "position",
        "speaker_info",
    ];
    let mut orga = public.to_vec();
    orga.push("availabilities");
    for (client, fields) in [
        (server.anon(), public.to_vec()),
        (server.token("orga-token"), orga),
    ] {
        let list = client.get("/api/events/mini/rooms/").await;
        for keys in result_key_orders(&list.text) {
            assert_eq!(keys, fields);
        }
        let detail = client.get("/api/events/mini/rooms/7").await;
        assert_eq!(key_order(&detail.text), fields);
    }
    let detail = server
        .token("orga-token")
        .get("/api/events/mini/rooms/7")
        .await;
    let nested = nested_key_orders(&detail.text);
    assert_eq!(nested.availabilities.len(), 2);
    for keys in nested.availabilities {
        assert_eq!(keys.0, ["id", "start", "end", "allDay"]);
    }
}

#[tokio::test]
async fn rooms_are_ordered_by_position_with_nulls_last_then_id() {
    let mut ds = reviews_mini();
    ev(&mut ds)["rooms"] = json!([
        {"id": 9, "name": "Nine", "position": 2},
        {"id": 3, "name": "Three"},
        {"id": 5, "name": "Five", "position": 2},
        {"id": 2, "name": "Two", "position": null},
        {"id": 6, "name": "Six", "position": 10},
        {"id": 1, "name": "Hall", "position": 1},
        {"id": 8, "name": "Eight", "position": -3}
    ]);
    let server = TestServer::start(&[ds]).await;
    for client in [server.anon(), server.token("orga-token")] {
        assert_eq!(
            ids(&client.get("/api/events/mini/rooms/").await),
            [8, 1, 5, 9, 6, 2, 3]
        );
    }
}

fn many_rooms(n: i64) -> Value {
    let mut ds = reviews_mini();
    // Positions run backwards, so the order is by descending id.
    ev(&mut ds)["rooms"] = json!((1..=n)
        .map(|id| json!({"id": id, "name": format!("Room {id}"), "position": n + 1 - id}))
        .collect::<Vec<_>>());
    ds
}

fn room_n(id: i64, n: i64) -> Value {
    json!({"id": id, "guid": null, "name": {"en": format!("Room {id}")}, "description": {}, "capacity": null,
           "position": n + 1 - id, "speaker_info": {}})
}

fn rooms_n(ids: impl Iterator<Item = i64>, n: i64) -> Value {
    json!(ids.map(|id| room_n(id, n)).collect::<Vec<_>>())
}

#[tokio::test]
async fn rooms_come_100_to_a_page() {
    let server = TestServer::start(&[many_rooms(105)]).await;
    let anon = server.anon();
    let base = format!("{}/api/events/mini/rooms/", server.base);
    let first = anon.get("/api/events/mini/rooms/").await;
    let next = format!("{base}?limit=100&offset=100");
    assert_page(
        &first,
        105,
        Some(&next),
        None,
        &rooms_n((6..=105).rev(), 105),
        "first page",
    );
    let second = anon
        .request_url("GET", first.body["next"].as_str().unwrap(), &[])
        .await;
    assert_page(
        &second,
        105,
        None,
        Some(&format!("{base}?limit=100&offset=0")),
        &rooms_n((1..=5).rev(), 105),
        "second page",
    );
    // page style, without the trailing slash (links echo the path)
    let reply = anon.get("/api/events/mini/rooms?page=2").await;
    let bare = format!("{}/api/events/mini/rooms", server.base);
    assert_page(
        &reply,
        105,
        None,
        Some(&format!("{bare}?page=1")),
        &rooms_n((1..=5).rev(), 105),
        "page=2",
    );
    let reply = anon.get("/api/events/mini/rooms/?page=1").await;
    assert_page(
        &reply,
        105,
        Some(&format!("{base}?page=2")),
        None,
        &rooms_n((6..=105).rev(), 105),
        "page=1",
    );
    assert_invalid_page(&anon.get("/api/events/mini/rooms/?page=3").await, "page=3");
    // explicit sizes
    let reply = anon
        .get("/api/events/mini/rooms/?page=11&page_size=10")
        .await;
    assert_page(
        &reply,
        105,
        None,
        Some(&format!("{base}?page_size=10&page=10")),
        &rooms_n((1..=5).rev(), 105),
        "page 11 of 10",
    );
    let reply = anon
        .get("/api/events/mini/rooms/?page=5&page_size=10")
        .await;
    assert_page(
        &reply,
        105,
        Some(&format!("{base}?page_size=10&page=6")),
        Some(&format!("{base}?page_size=10&page=4")),
        &rooms_n((56..=65).rev(), 105),
        "page 5 of 10",
    );
    let reply = anon
        .get("/api/events/mini/rooms/?limit=10&offset=100")
        .await;
    assert_page(
        &reply,
        105,
        None,
        Some(&format!("{base}?limit=10&offset=90")),
        &rooms_n((1..=5).rev(), 105),
        "limit 10 offset 100",
    );
    assert_eq!(
        anon.get("/api/events/mini/rooms/?limit=0").await.body["results"]
            .as_array()
            .unwrap()
            .len(),
        100
    );
    assert_eq!(
        anon.get("/api/events/mini/rooms/?page_size=0").await.body["results"]
            .as_array()
            .unwrap()
            .len(),
        100
    );
    let reply = anon.get("/api/events/mini/rooms/?offset=200").await;
    assert_eq!(
        (
            reply.status,
            reply.body["count"].clone(),
            reply.body["results"].clone()
        ),
        (200, json!(105), json!([]))
    );
    // the organiser's pages carry availabilities
    let orga = server
        .token("orga-token")
        .ok("/api/events/mini/rooms/")
        .await;
    assert_eq!(orga["results"].as_array().unwrap().len(), 100);
    assert!(orga["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["availabilities"] == json!([])));
    // following the links visits every room once
    assert_eq!(anon.all("/api/events/mini/rooms/").await.len(), 105);
}

#[tokio::test]
async fn exactly_100_rooms_fit_on_one_page() {
    let server = TestServer::start(&[many_rooms(100)]).await;
    let reply = server.anon().get("/api/events/mini/rooms/").await;
    assert_page(
        &reply,
        100,
        None,
        None,
        &rooms_n((1..=100).rev(), 100),
        "100 rooms",
    );
}

#[tokio::test]
async fn room_detail_lookups() {
    let mut ds = rooms_mini();
    ds["events"].as_array_mut().unwrap().push(other_event());
    let server = TestServer::start(&[ds]).await;
    let anon = server.anon();
    assert_json(
        &anon.ok("/api/events/MINI/rooms/7/").await,
        &room7(),
        "slug case",
    );
    assert_json(
        &anon.ok("/api/events/mini/rooms/7?limit=x").await,
        &room7(),
        "list params ignored",
    );
    assert_json(
        &anon.ok("/api/events/other/rooms/9").await,
        &json!({
            "id": 9, "guid": null, "name": {"en": "Elsewhere"}, "description": {}, "capacity": null, "position": null,
            "speaker_info": {}
        }),
        "other event",
    );
    for client in [server.anon(), server.token("orga-token")] {
        for path in [
            "/api/events/mini/rooms/abc",
            "/api/events/mini/rooms/999",
            "/api/events/mini/rooms/-1",
            "/api/events/mini/rooms/7.0",
            // a room of another event
            "/api/events/mini/rooms/9",
            "/api/events/mini/rooms/7/extra",
        ] {
            assert_error(&client.get(path).await, 404, path);
        }
    }
}

#[tokio::test]
async fn an_invisible_event_is_403_for_the_public() {
    let mut ds = rooms_mini();
    ev(&mut ds)["is_public"] = json!(false);
    let server = TestServer::start(&[ds]).await;
    let paths = [
        "/api/events/mini/rooms/",
        "/api/events/mini/rooms/1",
        "/api/events/mini/reviews/",
        "/api/events/mini/reviews/10",
        "/api/events/mini/tags/",
        "/api/events/mini/tags/hot.topic",
        "/api/events/mini/rooms/?page=x",
    ];
    for (who, client) in [
        ("anonymous", server.anon()),
        ("nobody", server.token("nobody-token")),
        ("speaker", server.token("spk2-token")),
    ] {
        for path in paths {
            assert_error(&client.get(path).await, 403, &format!("{who} {path}"));
        }
    }
    // Those with a role in the event see it.
    for token in ["orga-token", "admin-token", "rev-token", "rev3-token"] {
        let client = server.token(token);
        assert_eq!(
            client.get("/api/events/mini/rooms/").await.count(),
            3,
            "{token}"
        );
        assert_eq!(
            client.get("/api/events/mini/rooms/1").await.status,
            200,
            "{token}"
        );
        assert_eq!(
            client.get("/api/events/mini/tags/").await.count(),
            1,
            "{token}"
        );
    }
    assert_json(
        &server
            .token("rev-token")
            .ok("/api/events/mini/rooms/")
            .await,
        &page_of(vec![room4(), room1(), room7()]),
        "reviewer",
    );
    // An unknown event looks the same.
    for path in [
        "/api/events/nope/rooms/",
        "/api/events/nope/reviews/1",
        "/api/events/nope/tags/x",
    ] {
        assert_error(&server.token("orga-token").get(path).await, 403, path);
    }
}
