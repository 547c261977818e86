//! behaviour.md §6 "Reviews", "Rooms" and "Tags" together, over HTTP: the
//! transport details of these endpoints, and democon.json and edge.json
//! checked against an independent restatement of the contract
//! (helpers/model.rs) for every caller that has a token. Each resource's
//! own tests are in reviews.rs, rooms.rs and tags.rs.

use crate::helpers::bodies::*;
use crate::helpers::model;
use crate::helpers::reviews_mini::*;
use crate::helpers::{democon, democon_tokens as tok, edge, TestServer};
use serde_json::{json, Value};

// ===========================================================================
// Transport details on these endpoints
// ===========================================================================

#[tokio::test]
async fn methods_authentication_and_head_on_these_endpoints() {
    let server = TestServer::start(&[tags_mini()]).await;
    for path in [
        "/api/events/mini/reviews/",
        "/api/events/mini/rooms/1",
        "/api/events/mini/tags/hot.topic",
    ] {
        let reply = server.token("orga-token").request("POST", path, &[]).await;
        assert_eq!(reply.status, 405, "{path}");
        assert_eq!(
            reply.body,
            json!({"detail": "Method \"POST\" not allowed."}),
            "{path}"
        );
        assert_eq!(reply.header("allow"), Some("GET, HEAD, OPTIONS"), "{path}");
        let reply = server.authorization("Token wrong").get(path).await;
        assert_eq!(reply.status, 401, "{path}");
        assert_eq!(reply.body, json!({"detail": "Invalid token."}), "{path}");
        let get = server.token("orga-token").get(path).await;
        let head = server.token("orga-token").request("HEAD", path, &[]).await;
        assert_eq!((head.status, head.text.as_str()), (200, ""), "{path}");
        assert_eq!(head.header("etag"), get.header("etag"), "{path}");
    }
    // The bare and Bearer forms of the organiser token see the same reviews.
    let token = server
        .token("orga-token")
        .ok("/api/events/mini/reviews/")
        .await;
    assert_eq!(
        server
            .authorization("orga-token")
            .ok("/api/events/mini/reviews/")
            .await,
        token
    );
    assert_eq!(
        server
            .authorization("Bearer orga-token")
            .ok("/api/events/mini/reviews/")
            .await,
        token
    );
    assert_eq!(token["count"], 3);
}

// ===========================================================================
// Contract model (helpers/model.rs): democon.json and edge.json
// ===========================================================================

/// Every caller with a clear token in the dataset, plus the anonymous one.
fn callers(ds: &Value) -> Vec<(Option<String>, Option<String>)> {
    let mut out = vec![(None, None)];
    for u in model::arr(&ds["users"]) {
        if let Some(token) = u["tokens"][0].as_str() {
            out.push((
                Some(u["code"].as_str().unwrap().to_string()),
                Some(token.to_string()),
            ));
        }
    }
    out
}

const PATH_SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'.')
    .remove(b'-')
    .remove(b'_');

/// Checks reviews, rooms and tags of every event for every caller against the model.
async fn check_against_model(ds: &Value) {
    let server = TestServer::start(std::slice::from_ref(ds)).await;
    // The dataset must exercise the rules: some caller refused an event, and
    // some caller shown a strict, non-empty part of an event's reviews.
    let (mut refused, mut partial) = (false, false);
    for event in model::arr(&ds["events"]) {
        let slug = event["slug"].as_str().unwrap();
        for (code, token) in callers(ds) {
            let who = format!("{slug} as {}", code.as_deref().unwrap_or("anonymous"));
            let client = match &token {
                Some(t) => server.token(t),
                None => server.anon(),
            };
            let caller = model::Caller::new(ds, event, code.as_deref());
            let base = format!("/api/events/{slug}");
            if !caller.sees_event(event) {
                refused = true;
                for path in [
                    "reviews/",
                    "rooms/",
                    "tags/",
                    "reviews/1",
                    "rooms/1",
                    "tags/x",
                ] {
                    assert_error(
                        &client.get(&format!("{base}/{path}")).await,
                        403,
                        &format!("{who} {path}"),
                    );
                }
                continue;
            }
            // reviews: the list (through every page) and every detail
            let reviews = caller.reviews(ds, event);
            partial |= !reviews.is_empty() && reviews.len() < model::arr(&event["reviews"]).len();
            let listed = client.all(&format!("{base}/reviews/")).await;
            assert_eq!(listed.len(), reviews.len(), "{who}: number of reviews");
            assert_json(&json!(listed), &json!(reviews), &format!("{who}: reviews"));
            assert_eq!(
                client.get(&format!("{base}/reviews/")).await.count() as usize,
                reviews.len(),
                "{who}"
            );
            for review in model::arr(&event["reviews"]) {
                let path = format!("{base}/reviews/{}", review["id"]);
                let reply = client.get(&path).await;
                match reviews.iter().find(|r| r["id"] == review["id"]) {
                    Some(expected) => {
                        assert_eq!(reply.status, 200, "{who} {path}");
                        assert_json(&reply.body, expected, &format!("{who} {path}"));
                    }
                    None => assert_error(&reply, 404, &format!("{who} {path}")),
                }
            }
            // the submission filter, on a submission with several reviews
            if let Some(sub) = model::arr(&event["reviews"])
                .first()
                .map(|r| r["submission"].as_str().unwrap())
            {
                let expected: Vec<Value> = reviews
                    .iter()
                    .filter(|r| r["submission"] == sub)
                    .cloned()
                    .collect();
                let listed = client
                    .all(&format!(
                        "{base}/reviews/?submission__code={}",
                        sub.to_lowercase()
                    ))
                    .await;
                assert_json(
                    &json!(listed),
                    &json!(expected),
                    &format!("{who}: reviews of {sub}"),
                );
            }
            // rooms
            let rooms = caller.rooms(event);
            assert_json(
                &json!(client.all(&format!("{base}/rooms/")).await),
                &json!(rooms),
                &format!("{who}: rooms"),
            );
            for room in &rooms {
                let path = format!("{base}/rooms/{}/", room["id"]);
                assert_json(&client.ok(&path).await, room, &format!("{who} {path}"));
            }
            // tags
            let tags = caller.tags(event);
            assert_json(
                &json!(client.all(&format!("{base}/tags/")).await),
                &json!(tags),
                &format!("{who}: tags"),
            );
            for tag in model::arr(&event["tags"]) {
                let name = tag["tag"].as_str().unwrap().to_uppercase();
                let path = format!(
                    "{base}/tags/{}",
                    percent_encoding::utf8_percent_encode(&name, PATH_SEGMENT)
                );
                let reply = client.get(&path).await;
                match tags.iter().find(|t| t["id"] == tag["id"]) {
                    Some(expected) => {
                        assert_eq!(reply.status, 200, "{who} {path}");
                        assert_json(&reply.body, expected, &format!("{who} {path}"));
                    }
                    None => assert_error(&reply, 404, &format!("{who} {path}")),
                }
            }
        }
    }
    assert!(
        refused && partial,
        "the dataset does not exercise the rules (refused {refused}, partial {partial})"
    );
}

// ===========================================================================
// Realistic data: democon.json and edge.json
// ===========================================================================

#[tokio::test]
async fn democon_matches_the_contract_for_every_caller() {
    let (ds, _, _) = democon_with_speaking_staff();
    check_against_model(&ds).await;
}

#[tokio::test]
async fn edge_matches_the_contract_for_every_caller() {
    check_against_model(&edge()).await;
}

#[tokio::test]
async fn democon_rooms_and_tags() {
    let server = TestServer::start(&[democon()]).await;
    let public_rooms = json!([
        {"id": 2, "guid": "cc8098fb-45dd-59b3-83bf-9cf567aff495", "name": {"en": "Orange Red Room"},
         "description": {"en": "More officer put leg because."}, "capacity": 250, "position": 6,
         "speaker_info": {"en": "Speaker desk is left of the stage."}},
        {"id": 1, "guid": "fdc7b5b3-7ef7-59a8-81b6-9b603297b8a1", "name": {"en": "Mint Cream Room"},
         "description": {"en": "Least film employee daughter."}, "capacity": 250, "position": 9,
         "speaker_info": {"en": "Speaker desk is left of the stage."}},
        {"id": 3, "guid": "d0d20f96-f3f5-5fea-b08c-b27f6553d56a", "name": {"en": "Hallway Track Room"},
         "description": {}, "capacity": 30, "position": 9, "speaker_info": {}}
    ]);
    for client in [
        server.anon(),
        server.token(tok::REVIEWER),
        server.token(tok::TRACK_REVIEWER),
    ] {
        assert_json(
            &client.ok("/api/events/democon/rooms/").await,
            &page_of(public_rooms.as_array().unwrap().clone()),
            "rooms",
        );
    }
    let mut orga_rooms = public_rooms.clone();
    // 23:00Z is midnight in Berlin, 22:59:59Z is not.
    let window = |id: i64| json!([{"id": id, "start": "2026-11-20T00:00:00+01:00", "end": "2026-11-22T23:59:59+01:00", "allDay": false}]);
    orga_rooms[0]["availabilities"] = window(1);
    orga_rooms[1]["availabilities"] = window(2);
    orga_rooms[2]["availabilities"] = json!([]);
    for token in [tok::ORGA, tok::ADMIN] {
        assert_json(
            &server.token(token).ok("/api/events/democon/rooms").await,
            &page_of(orga_rooms.as_array().unwrap().clone()),
            "organiser rooms",
        );
    }

    let tags = page_of(
        model::arr(&democon()["events"][0]["tags"]).to_vec(), // stored with every field
    );
    for token in [tok::ORGA, tok::ADMIN, tok::REVIEWER, tok::TRACK_REVIEWER] {
        assert_json(
            &server.token(token).ok("/api/events/democon/tags/").await,
            &tags,
            token,
        );
        assert_json(
            &server
                .token(token)
                .ok("/api/events/democon/tags/Beginner-Friendly/")
                .await,
            &json!({"id": 3, "tag": "beginner-friendly", "description": {"en": "Suitable for beginners"},
                    "color": "#2ecc71", "is_public": true}),
            token,
        );
    }
    assert_eq!(
        server.anon().ok("/api/events/democon/tags/").await,
        empty_page()
    );
    assert_error(
        &server
            .anon()
            .get("/api/events/democon/tags/beginner-friendly")
            .await,
        404,
        "anon tag",
    );
}
