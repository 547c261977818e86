//! behaviour.md §6 "Reviews", "Rooms" and "Tags", with the §3 roles, §4 value
//! formats, §5 pagination and §8 fine points they depend on, over HTTP.
//!
//! Small datasets built from `mini()` pin every edge case with full JSON
//! bodies; democon.json and edge.json are checked against an independent
//! restatement of the contract (the "contract model" section below), for
//! every caller that has a token.

use crate::helpers::{self, assert_bad_parameters, assert_invalid_page};

use helpers::{democon, democon_tokens as tok, edge, mini, Client, Reply, TestServer};
use serde_json::{json, Value};

// ===========================================================================
// Helpers: comparing bodies
// ===========================================================================

/// Review scores are "a JSON number": `3` and `3.0` are the same score.
fn norm(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), v.as_f64()) {
                        ("score", Some(f)) => json!(f),
                        _ => norm(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(norm).collect()),
        other => other.clone(),
    }
}

#[track_caller]
fn assert_json(actual: &Value, expected: &Value, what: &str) {
    let (a, e) = (norm(actual), norm(expected));
    assert!(
        a == e,
        "{what}\n  actual: {}\nexpected: {}",
        serde_json::to_string_pretty(&a).unwrap(),
        serde_json::to_string_pretty(&e).unwrap()
    );
}

fn empty_page() -> Value {
    json!({"count": 0, "next": null, "previous": null, "results": []})
}

/// A single page holding every result.
fn page_of(results: Vec<Value>) -> Value {
    json!({"count": results.len(), "next": null, "previous": null, "results": results})
}

/// A `next`/`previous` link: the same URL up to the query, and the same
/// query pairs (their order is not part of the contract).
#[track_caller]
fn assert_link(actual: &Value, expected: Option<&str>, what: &str) {
    match expected {
        None => assert_eq!(actual, &Value::Null, "{what}: link should be null"),
        Some(expected) => {
            let actual = actual
                .as_str()
                .unwrap_or_else(|| panic!("{what}: no link in {actual}"));
            let a = reqwest::Url::parse(actual).unwrap_or_else(|e| panic!("{what}: {actual}: {e}"));
            let e = reqwest::Url::parse(expected).unwrap();
            assert_eq!(
                (a.scheme(), a.host_str(), a.port(), a.path()),
                (e.scheme(), e.host_str(), e.port(), e.path()),
                "{what}: {actual} vs {expected}"
            );
            let mut ap: Vec<(String, String)> = a.query_pairs().into_owned().collect();
            let mut ep: Vec<(String, String)> = e.query_pairs().into_owned().collect();
            ap.sort();
            ep.sort();
            assert_eq!(ap, ep, "{what}: {actual} vs {expected}");
        }
    }
}

/// A 200 list page: envelope keys, count, links and the exact results.
#[track_caller]
fn assert_page(
    reply: &Reply,
    count: usize,
    next: Option<&str>,
    previous: Option<&str>,
    results: &Value,
    what: &str,
) {
    assert_eq!(reply.status, 200, "{what}: {}", reply.text);
    let mut keys: Vec<&String> = reply.body.as_object().expect("an object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["count", "next", "previous", "results"], "{what}");
    assert_eq!(reply.body["count"], json!(count), "{what}: count");
    assert_link(&reply.body["next"], next, &format!("{what}: next"));
    assert_link(
        &reply.body["previous"],
        previous,
        &format!("{what}: previous"),
    );
    assert_json(&reply.body["results"], results, &format!("{what}: results"));
}

#[track_caller]
fn assert_error(reply: &Reply, status: u16, what: &str) {
    assert_eq!(reply.status, status, "{what}: {}", reply.text);
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{what}"
    );
    let body = reply
        .body
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not an object: {}", reply.text));
    assert_eq!(body.len(), 1, "{what}: {}", reply.text);
    assert!(body["detail"].is_string(), "{what}: {}", reply.text);
}

/// The ids of a list page's results.
fn ids(reply: &Reply) -> Vec<i64> {
    reply
        .result_keys("id")
        .iter()
        .map(|v| v.as_i64().expect("numeric id"))
        .collect()
}

// ---------------------------------------------------------------------------
// Field order (serde_json's `Value` sorts keys, so read them from the text)
// ---------------------------------------------------------------------------

/// The keys of a JSON object in the order they were sent.
struct Keys(Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

#[derive(serde::Deserialize)]
struct PageKeys {
    results: Vec<Keys>,
}

#[derive(serde::Deserialize)]
struct NestedKeys {
    #[serde(default)]
    availabilities: Vec<Keys>,
    #[serde(default)]
    answers: Vec<Keys>,
}

fn key_order(text: &str) -> Vec<String> {
    serde_json::from_str::<Keys>(text).expect("a JSON object").0
}

fn result_key_orders(text: &str) -> Vec<Vec<String>> {
    serde_json::from_str::<PageKeys>(text)
        .expect("a list page")
        .results
        .into_iter()
        .map(|k| k.0)
        .collect()
}

fn nested_key_orders(text: &str) -> NestedKeys {
    serde_json::from_str::<NestedKeys>(text).expect("a JSON object")
}

// ===========================================================================
// Helpers: datasets
// ===========================================================================

fn ev(ds: &mut Value) -> &mut Value {
    &mut ds["events"][0]
}

fn add_user(ds: &mut Value, code: &str, name: &str, token: &str, admin: bool) {
    ds["users"].as_array_mut().unwrap().push(json!({
        "code": code,
        "name": name,
        "email": format!("{}@mini.example", code.to_lowercase()),
        "tokens": [token],
        "is_administrator": admin,
    }));
}

fn give_token(ds: &mut Value, code: &str, token: &str) {
    let user = ds["users"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|u| u["code"] == code)
        .expect("user");
    user["tokens"] = json!([token]);
}

fn team<'a>(ds: &'a mut Value, name: &str) -> &'a mut Value {
    ev(ds)["teams"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == name)
        .expect("team")
}

fn add_team(ds: &mut Value, team: Value) {
    ev(ds)["teams"].as_array_mut().unwrap().push(team);
}

fn submission<'a>(ds: &'a mut Value, code: &str) -> &'a mut Value {
    ev(ds)["submissions"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["code"] == code)
        .expect("submission")
}

/// Makes `user` a speaker of `code` (with a profile in the event).
fn add_speaker(ds: &mut Value, code: &str, user: &str) {
    let speakers = ev(ds)["speakers"].as_array_mut().unwrap();
    if !speakers.iter().any(|p| p["user"] == user) {
        speakers.push(json!({"user": user}));
    }
    submission(ds, code)["speakers"]
        .as_array_mut()
        .unwrap()
        .push(json!(user));
}

fn remove_review(ds: &mut Value, id: i64) {
    ev(ds)["reviews"]
        .as_array_mut()
        .unwrap()
        .retain(|r| r["id"] != id);
}

// ===========================================================================
// Reviews: the base dataset
// ===========================================================================
//
// mini() plus reviewers REV2 and REV3 (REV3 writes nothing), an
// administrator, a token for the speaker SPK2, and three reviews listed out of
// order: 10 (SUB2, by REV2) and 11 (SUB3, by REV2) are created at the same
// instant written with two offsets, 12 (PUB1, by REV) a day later.

const RITA: &str = "Rita Reviewer";
const RAVI: &str = "Ravi Second";
const REVIEW_IDS: [i64; 3] = [10, 11, 12];

fn reviews_mini() -> Value {
    let mut ds = mini();
    add_user(&mut ds, "REV2", RAVI, "rev2-token", false);
    add_user(&mut ds, "REV3", "Rhea Third", "rev3-token", false);
    add_user(&mut ds, "ADMIN", "Adam Admin", "admin-token", true);
    give_token(&mut ds, "SPK2", "spk2-token");
    team(&mut ds, "Reviewers")["members"] = json!(["REV", "REV2", "REV3"]);
    ev(&mut ds)["reviews"] = json!([
        {"id": 12, "submission": "PUB1", "user": "REV", "text": "Great public talk", "score": null,
         "created": "2026-04-02T09:30:00.123456Z", "updated": "2026-04-03T10:00:00Z"},
        {"id": 11, "submission": "SUB3", "user": "REV2", "score": 2.5,
         "created": "2026-04-01T10:00:00+02:00"},
        {"id": 10, "submission": "SUB2", "user": "REV2", "text": "Solid", "score": 3,
         "created": "2026-04-01T08:00:00Z"}
    ]);
    ds
}

fn r10(user: Option<&str>) -> Value {
    json!({"id": 10, "submission": "SUB2", "user": user, "text": "Solid", "score": 3,
           "created": "2026-04-01T10:00:00+02:00", "updated": "2026-04-01T10:00:00+02:00", "answers": []})
}

fn r11(user: Option<&str>) -> Value {
    json!({"id": 11, "submission": "SUB3", "user": user, "text": "", "score": 2.5,
           "created": "2026-04-01T10:00:00+02:00", "updated": "2026-04-01T10:00:00+02:00", "answers": []})
}

fn r12(user: Option<&str>) -> Value {
    json!({"id": 12, "submission": "PUB1", "user": user, "text": "Great public talk", "score": null,
           "created": "2026-04-02T11:30:00.123456+02:00", "updated": "2026-04-03T12:00:00+02:00",
           "answers": []})
}

fn all_named() -> Vec<Value> {
    vec![r10(Some(RAVI)), r11(Some(RAVI)), r12(Some(RITA))]
}

/// The list is exactly `expected` (one page), and every id of `all_ids` is
/// either shown in detail as in the list or 404.
async fn check_reviews(
    client: &Client,
    slug: &str,
    all_ids: &[i64],
    expected: &[Value],
    who: &str,
) {
    let path = format!("/api/events/{slug}/reviews/");
    let reply = client.get(&path).await;
    assert_eq!(reply.status, 200, "{who} {path}: {}", reply.text);
    assert_json(
        &reply.body,
        &page_of(expected.to_vec()),
        &format!("{who} {path}"),
    );
    for id in all_ids {
        let path = format!("/api/events/{slug}/reviews/{id}");
        let reply = client.get(&path).await;
        match expected.iter().find(|r| r["id"] == *id) {
            Some(review) => {
                assert_eq!(reply.status, 200, "{who} {path}: {}", reply.text);
                assert_json(&reply.body, review, &format!("{who} {path}"));
            }
            None => assert_error(&reply, 404, &format!("{who} {path}")),
        }
    }
}

// ===========================================================================
// Reviews: who sees which
// ===========================================================================

#[tokio::test]
async fn the_public_sees_no_reviews() {
    let server = TestServer::start(&[reviews_mini()]).await;
    // anonymous, a user without a role, and the speaker of reviewed SUB2
    for (who, client) in [
        ("anonymous", server.anon()),
        ("nobody", server.token("nobody-token")),
        ("speaker", server.token("spk2-token")),
    ] {
        check_reviews(&client, "mini", &REVIEW_IDS, &[], who).await;
        for path in [
            "/api/events/mini/reviews",
            "/api/events/mini/reviews/?submission__code=SUB2",
            "/api/events/mini/reviews/?page=1",
            "/api/events/mini/reviews/?limit=5&offset=0",
        ] {
            let reply = client.get(path).await;
            assert_eq!(reply.status, 200, "{who} {path}");
            assert_eq!(reply.body, empty_page(), "{who} {path}");
        }
        assert_invalid_page(&client.get("/api/events/mini/reviews/?page=2").await, who);
        assert_error(&client.get("/api/events/mini/reviews/10/").await, 404, who);
    }
}

#[tokio::test]
async fn organisers_see_every_review_by_created_then_id() {
    let server = TestServer::start(&[reviews_mini()]).await;
    for (who, token) in [
        ("organiser", "orga-token"),
        ("administrator", "admin-token"),
    ] {
        let client = server.token(token);
        check_reviews(&client, "mini", &REVIEW_IDS, &all_named(), who).await;
        // Path spellings: no trailing slash, event slug in another case.
        for path in ["/api/events/mini/reviews", "/api/events/MINI/reviews/"] {
            assert_json(
                &client.ok(path).await,
                &page_of(all_named()),
                &format!("{who} {path}"),
            );
        }
        assert_json(
            &client.ok("/api/events/mini/reviews/12/").await,
            &r12(Some(RITA)),
            who,
        );
    }
}

#[tokio::test]
async fn an_organiser_who_is_also_a_reviewer_keeps_the_organiser_view() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] = json!({"can_see_other_reviews": "never", "can_see_reviewer_names": false,
                                         "proposal_visibility": "assigned"});
    team(&mut ds, "Reviewers")["members"] = json!(["REV", "REV2", "REV3", "ORGA"]);
    let server = TestServer::start(&[ds]).await;
    check_reviews(
        &server.token("orga-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "orga+reviewer",
    )
    .await;
}

#[tokio::test]
async fn organisers_do_not_see_reviews_of_submissions_they_speak_in() {
    let mut ds = reviews_mini();
    add_speaker(&mut ds, "SUB3", "ORGA");
    add_speaker(&mut ds, "SUB2", "ADMIN");
    let server = TestServer::start(&[ds]).await;
    let orga = server.token("orga-token");
    check_reviews(
        &orga,
        "mini",
        &REVIEW_IDS,
        &[r10(Some(RAVI)), r12(Some(RITA))],
        "organiser",
    )
    .await;
    assert_eq!(
        orga.ok("/api/events/mini/reviews/?submission__code=SUB3")
            .await,
        empty_page()
    );
    let admin = server.token("admin-token");
    check_reviews(
        &admin,
        "mini",
        &REVIEW_IDS,
        &[r11(Some(RAVI)), r12(Some(RITA))],
        "administrator",
    )
    .await;
}

#[tokio::test]
async fn without_a_phase_reviewers_see_others_reviews_once_they_wrote_one() {
    // mini has no review phase: after_review, all proposals, names shown.
    let server = TestServer::start(&[reviews_mini()]).await;
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "REV2",
    )
    .await;
    // REV3 wrote nothing yet.
    check_reviews(
        &server.token("rev3-token"),
        "mini",
        &REVIEW_IDS,
        &[],
        "REV3",
    )
    .await;
}

#[tokio::test]
async fn after_review_counts_any_review_and_own_reviews_need_no_access() {
    let mut ds = reviews_mini();
    team(&mut ds, "Reviewers")["limit_tracks"] = json!([1]);
    remove_review(&mut ds, 12);
    // REV's only review is on SUB3, which has no track: outside their access.
    ev(&mut ds)["reviews"].as_array_mut().unwrap().push(json!(
        {"id": 13, "submission": "SUB3", "user": "REV", "text": "Outside my tracks", "score": 1,
         "created": "2026-04-05T08:00:00Z"}
    ));
    let server = TestServer::start(&[ds]).await;
    let r13 = json!({"id": 13, "submission": "SUB3", "user": RITA, "text": "Outside my tracks", "score": 1,
                     "created": "2026-04-05T10:00:00+02:00", "updated": "2026-04-05T10:00:00+02:00",
                     "answers": []});
    let all = [10, 11, 13];
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &all,
        &[r10(Some(RAVI)), r13.clone()],
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &all,
        &[r10(Some(RAVI)), r11(Some(RAVI))],
        "REV2",
    )
    .await;
    check_reviews(&server.token("rev3-token"), "mini", &all, &[], "REV3").await;
    check_reviews(
        &server.token("orga-token"),
        "mini",
        &all,
        &[r10(Some(RAVI)), r11(Some(RAVI)), r13],
        "orga",
    )
    .await;
}

/// A second public event where REV reviews (and is an organiser of nothing).
fn other_event() -> Value {
    json!({
        "slug": "other", "name": {"en": "Other Conf"}, "is_public": true, "date_from": "2026-07-01",
        "timezone": "UTC",
        "teams": [{"name": "Other reviewers", "members": ["REV"], "is_reviewer": true}],
        "submission_types": [{"id": 2, "name": {"en": "Talk"}}],
        "rooms": [{"id": 9, "name": {"en": "Elsewhere"}}],
        "tags": [{"id": 9, "tag": "elsewhere"}],
        "speakers": [{"user": "SPK1"}],
        "submissions": [{"code": "OTH1", "title": "Elsewhere", "speakers": ["SPK1"], "submission_type": 2,
                         "created": "2026-03-01T00:00:00Z"}],
        "reviews": [{"id": 20, "submission": "OTH1", "user": "REV", "text": "Elsewhere", "score": 4,
                     "created": "2026-04-01T00:00:00Z"}]
    })
}

#[tokio::test]
async fn after_review_ignores_reviews_written_in_other_events() {
    let mut ds = reviews_mini();
    remove_review(&mut ds, 12);
    ds["events"].as_array_mut().unwrap().push(other_event());
    let server = TestServer::start(&[ds]).await;
    let rev = server.token("rev-token");
    check_reviews(&rev, "mini", &[10, 11, 20], &[], "REV in mini").await;
    let r20 = json!({"id": 20, "submission": "OTH1", "user": RITA, "text": "Elsewhere", "score": 4,
                     "created": "2026-04-01T00:00:00Z", "updated": "2026-04-01T00:00:00Z", "answers": []});
    check_reviews(&rev, "other", &[10, 11, 20], &[r20], "REV in other").await;
    // REV2 is no reviewer of "other": the public view there.
    check_reviews(
        &server.token("rev2-token"),
        "other",
        &[20],
        &[],
        "REV2 in other",
    )
    .await;
}

#[tokio::test]
async fn phase_never_shows_reviewers_only_their_own_reviews() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] = json!({"name": "Blind", "can_see_other_reviews": "never"});
    let server = TestServer::start(&[ds]).await;
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &[r12(Some(RITA))],
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &REVIEW_IDS,
        &[r10(Some(RAVI)), r11(Some(RAVI))],
        "REV2",
    )
    .await;
    check_reviews(
        &server.token("rev3-token"),
        "mini",
        &REVIEW_IDS,
        &[],
        "REV3",
    )
    .await;
    check_reviews(
        &server.token("orga-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "organiser",
    )
    .await;
}

#[tokio::test]
async fn phase_always_shows_other_reviews_before_writing_one() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] = json!({"can_see_other_reviews": "always"});
    let server = TestServer::start(&[ds]).await;
    check_reviews(
        &server.token("rev3-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "REV3",
    )
    .await;
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "REV",
    )
    .await;
}

#[tokio::test]
async fn explicit_after_review_phase_behaves_like_the_default() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] =
        json!({"can_see_other_reviews": "after_review", "proposal_visibility": "all"});
    let server = TestServer::start(&[ds]).await;
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev3-token"),
        "mini",
        &REVIEW_IDS,
        &[],
        "REV3",
    )
    .await;
}

#[tokio::test]
async fn hidden_reviewer_names_are_null_except_on_the_callers_own_reviews() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] = json!({"can_see_reviewer_names": false});
    let server = TestServer::start(&[ds]).await;
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &[r10(None), r11(None), r12(Some(RITA))],
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &REVIEW_IDS,
        &[r10(Some(RAVI)), r11(Some(RAVI)), r12(None)],
        "REV2",
    )
    .await;
    // Organisers always see who wrote a review.
    check_reviews(
        &server.token("orga-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "organiser",
    )
    .await;
    check_reviews(
        &server.token("admin-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "administrator",
    )
    .await;
}

#[tokio::test]
async fn assigned_visibility_limits_others_reviews_to_assignments() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] =
        json!({"proposal_visibility": "assigned", "can_see_other_reviews": "always"});
    submission(&mut ds, "SUB2")["assigned_reviewers"] = json!(["REV"]);
    submission(&mut ds, "SUB3")["assigned_reviewers"] = json!(["REV3"]);
    let server = TestServer::start(&[ds]).await;
    // REV: assigned SUB2, plus the own review on PUB1.
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &[r10(Some(RAVI)), r12(Some(RITA))],
        "REV",
    )
    .await;
    // REV2 is assigned nothing: own reviews only; a public talk (PUB1) gives
    // no reviewer access, so its reviews stay hidden.
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &REVIEW_IDS,
        &[r10(Some(RAVI)), r11(Some(RAVI))],
        "REV2",
    )
    .await;
    check_reviews(
        &server.token("rev3-token"),
        "mini",
        &REVIEW_IDS,
        &[r11(Some(RAVI))],
        "REV3",
    )
    .await;
}

#[tokio::test]
async fn team_track_limits_decide_reviewer_access() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] = json!({"can_see_other_reviews": "always"});
    team(&mut ds, "Reviewers")["limit_tracks"] = json!([1]);
    // REV2 also reviews in an unlimited team; REV is in an unlimited team
    // that does not review, which gives no access.
    add_team(
        &mut ds,
        json!({"name": "All-rounders", "members": ["REV2"], "is_reviewer": true}),
    );
    add_team(&mut ds, json!({"name": "Helpers", "members": ["REV"]}));
    // An assignment gives access beyond the team's tracks.
    submission(&mut ds, "SUB3")["assigned_reviewers"] = json!(["REV3"]);
    let server = TestServer::start(&[ds]).await;
    // SUB3 has no track: a limited team does not cover it.
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &[r10(Some(RAVI)), r12(Some(RITA))],
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "REV2",
    )
    .await;
    check_reviews(
        &server.token("rev3-token"),
        "mini",
        &REVIEW_IDS,
        &all_named(),
        "REV3",
    )
    .await;
}

#[tokio::test]
async fn a_limited_team_covers_only_its_own_tracks() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] = json!({"can_see_other_reviews": "always"});
    ev(&mut ds)["tracks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": 2, "name": {"en": "Side"}}));
    submission(&mut ds, "SUB3")["track"] = json!(2);
    team(&mut ds, "Reviewers")["limit_tracks"] = json!([2]);
    let server = TestServer::start(&[ds]).await;
    check_reviews(
        &server.token("rev3-token"),
        "mini",
        &REVIEW_IDS,
        &[r11(Some(RAVI))],
        "REV3",
    )
    .await;
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &[r11(Some(RAVI)), r12(Some(RITA))],
        "REV",
    )
    .await;
}

#[tokio::test]
async fn reviewers_do_not_see_others_reviews_of_submissions_they_speak_in() {
    let mut ds = reviews_mini();
    ev(&mut ds)["review_phase"] = json!({"can_see_other_reviews": "always"});
    add_speaker(&mut ds, "SUB3", "REV");
    // ... but their own review stays theirs.
    ev(&mut ds)["reviews"].as_array_mut().unwrap().push(json!(
        {"id": 14, "submission": "SUB3", "user": "REV", "text": "My own talk", "score": 5,
         "created": "2026-04-06T08:00:00Z"}
    ));
    let server = TestServer::start(&[ds]).await;
    let r14 = json!({"id": 14, "submission": "SUB3", "user": RITA, "text": "My own talk", "score": 5,
                     "created": "2026-04-06T10:00:00+02:00", "updated": "2026-04-06T10:00:00+02:00",
                     "answers": []});
    let all = [10, 11, 12, 14];
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &all,
        &[r10(Some(RAVI)), r12(Some(RITA)), r14.clone()],
        "REV",
    )
    .await;
    let mut everything = all_named();
    everything.push(r14);
    check_reviews(
        &server.token("orga-token"),
        "mini",
        &all,
        &everything,
        "organiser",
    )
    .await;
}

// ===========================================================================
// Reviews: nested answers
// ===========================================================================

fn review_answer(
    id: i64,
    question: (i64, &str),
    answer: &str,
    review: i64,
    options: Value,
) -> Value {
    json!({"id": id, "question": {"id": question.0, "question": {"en": question.1}}, "answer": answer,
           "answer_file": null, "submission": null, "review": review, "person": null, "options": options})
}

fn with_review_questions(mut ds: Value) -> Value {
    ev(&mut ds)["questions"] = json!([
        {"id": 31, "target": "reviewer", "variant": "multiple_choice", "question": {"en": "Confidence?"},
         "options": [{"id": 42, "answer": {"en": "High"}}, {"id": 41, "answer": {"en": "Low"}}]},
        {"id": 32, "target": "reviewer", "question": {"en": "Organisers only"}, "is_visible_to_reviewers": false},
        {"id": 33, "target": "reviewer", "question": {"en": "Retired"}, "active": false},
        {"id": 34, "target": "reviewer", "question": {"en": "Public?"}, "is_public": true,
         "is_visible_to_reviewers": false},
        {"id": 35, "target": "submission", "question": {"en": "Public question"}, "is_public": true}
    ]);
    ev(&mut ds)["answers"] = json!([
        {"id": 53, "question": 31, "review": 10, "answer": "Low", "options": [41]},
        {"id": 51, "question": 32, "review": 10, "answer": "internal",
         "answer_file": "https://files.example/notes.pdf"},
        {"id": 52, "question": 33, "review": 10, "answer": "old"},
        {"id": 54, "question": 34, "review": 10, "answer": "never public on a review"},
        {"id": 50, "question": 31, "review": 12, "answer": "High, Low", "options": [42, 41]},
        {"id": 55, "question": 35, "submission": "PUB1", "answer": "on the submission"}
    ]);
    ds
}

fn a53() -> Value {
    review_answer(
        53,
        (31, "Confidence?"),
        "Low",
        10,
        json!([{"id": 41, "answer": {"en": "Low"}}]),
    )
}

fn a50() -> Value {
    review_answer(
        50,
        (31, "Confidence?"),
        "High, Low",
        12,
        json!([{"id": 41, "answer": {"en": "Low"}}, {"id": 42, "answer": {"en": "High"}}]),
    )
}

fn with_answers(mut review: Value, answers: Vec<Value>) -> Value {
    review["answers"] = json!(answers);
    review
}

#[tokio::test]
async fn nested_review_answers_follow_the_answer_visibility_rule() {
    let server = TestServer::start(&[with_review_questions(reviews_mini())]).await;
    let mut a51 = review_answer(51, (32, "Organisers only"), "internal", 10, json!([]));
    a51["answer_file"] = json!("https://files.example/notes.pdf");
    let orga_view = vec![
        with_answers(
            r10(Some(RAVI)),
            vec![
                a51,
                review_answer(52, (33, "Retired"), "old", 10, json!([])),
                a53(),
                review_answer(
                    54,
                    (34, "Public?"),
                    "never public on a review",
                    10,
                    json!([]),
                ),
            ],
        ),
        r11(Some(RAVI)),
        with_answers(r12(Some(RITA)), vec![a50()]),
    ];
    check_reviews(
        &server.token("orga-token"),
        "mini",
        &REVIEW_IDS,
        &orga_view,
        "organiser",
    )
    .await;
    // Reviewers: active questions visible to reviewers only; a public
    // question does not make an answer on a review visible.
    let reviewer_view = vec![
        with_answers(r10(Some(RAVI)), vec![a53()]),
        r11(Some(RAVI)),
        with_answers(r12(Some(RITA)), vec![a50()]),
    ];
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &reviewer_view,
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &REVIEW_IDS,
        &reviewer_view,
        "REV2",
    )
    .await;
}

#[tokio::test]
async fn own_review_answers_stay_visible_when_other_reviews_are_hidden() {
    let mut ds = with_review_questions(reviews_mini());
    ev(&mut ds)["review_phase"] =
        json!({"can_see_other_reviews": "never", "can_see_reviewer_names": false});
    let server = TestServer::start(&[ds]).await;
    check_reviews(
        &server.token("rev-token"),
        "mini",
        &REVIEW_IDS,
        &[with_answers(r12(Some(RITA)), vec![a50()])],
        "REV",
    )
    .await;
    check_reviews(
        &server.token("rev2-token"),
        "mini",
        &REVIEW_IDS,
        &[with_answers(r10(Some(RAVI)), vec![a53()]), r11(Some(RAVI))],
        "REV2",
    )
    .await;
}

// ===========================================================================
// Reviews: values, order, filter, lookups, pagination
// ===========================================================================

#[tokio::test]
async fn review_fields_come_in_the_documented_order() {
    let server = TestServer::start(&[with_review_questions(reviews_mini())]).await;
    let fields = [
        "id",
        "submission",
        "user",
        "text",
        "score",
        "created",
        "updated",
        "answers",
    ];
    let answer_fields = [
        "id",
        "question",
        "answer",
        "answer_file",
        "submission",
        "review",
        "person",
        "options",
    ];
    for token in ["orga-token", "rev-token"] {
        let client = server.token(token);
        let list = client.get("/api/events/mini/reviews/").await;
        for keys in result_key_orders(&list.text) {
            assert_eq!(keys, fields, "{token}");
        }
        let detail = client.get("/api/events/mini/reviews/10").await;
        assert_eq!(key_order(&detail.text), fields, "{token}");
        let nested = nested_key_orders(&detail.text);
        assert!(!nested.answers.is_empty(), "{token}: review 10 has answers");
        for keys in nested.answers {
            assert_eq!(keys.0, answer_fields, "{token}");
        }
    }
}

#[tokio::test]
async fn review_datetimes_use_the_event_time_zone_and_microseconds() {
    for (tz, created, updated, second) in [
        (
            "Europe/Berlin",
            "2026-01-16T00:30:00.500000+01:00",
            "2026-07-01T14:00:00+02:00",
            "2026-02-01T12:00:00.000001+01:00",
        ),
        (
            "America/New_York",
            "2026-01-15T18:30:00.500000-05:00",
            "2026-07-01T08:00:00-04:00",
            "2026-02-01T06:00:00.000001-05:00",
        ),
        (
            "UTC",
            "2026-01-15T23:30:00.500000Z",
            "2026-07-01T12:00:00Z",
            "2026-02-01T11:00:00.000001Z",
        ),
        (
            "Asia/Kolkata",
            "2026-01-16T05:00:00.500000+05:30",
            "2026-07-01T17:30:00+05:30",
            "2026-02-01T16:30:00.000001+05:30",
        ),
    ] {
        let mut ds = reviews_mini();
        ev(&mut ds)["timezone"] = json!(tz);
        ev(&mut ds)["reviews"] = json!([
            {"id": 10, "submission": "SUB2", "user": "REV", "score": 0,
             "created": "2026-01-15T23:30:00.5Z", "updated": "2026-07-01T12:00:00Z"},
            {"id": 11, "submission": "SUB3", "user": "REV", "text": "Negative", "score": -1.5,
             "created": "2026-02-01T12:00:00.000001+01:00"}
        ]);
        let server = TestServer::start(&[ds]).await;
        let expected = vec![
            json!({"id": 10, "submission": "SUB2", "user": RITA, "text": "", "score": 0,
                   "created": created, "updated": updated, "answers": []}),
            json!({"id": 11, "submission": "SUB3", "user": RITA, "text": "Negative", "score": -1.5,
                   "created": second, "updated": second, "answers": []}),
        ];
        check_reviews(
            &server.token("orga-token"),
            "mini",
            &[10, 11],
            &expected,
            tz,
        )
        .await;
        check_reviews(&server.token("rev-token"), "mini", &[10, 11], &expected, tz).await;
    }
}

#[tokio::test]
async fn review_scores_are_json_numbers_or_null() {
    let server = TestServer::start(&[reviews_mini()]).await;
    let page = server
        .token("orga-token")
        .ok("/api/events/mini/reviews/")
        .await;
    let scores: Vec<&Value> = page["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["score"])
        .collect();
    assert_eq!(scores[0].as_f64(), Some(3.0));
    assert_eq!(scores[1].as_f64(), Some(2.5));
    assert_eq!(scores[2], &Value::Null);
}

/// Six reviews whose `created` order differs from id order, dataset order and
/// string order; 37, 40 and 41 share one instant written three ways.
fn ordering_mini() -> Value {
    let mut ds = reviews_mini();
    ev(&mut ds)["reviews"] = json!([
        {"id": 40, "submission": "PUB1", "user": "REV", "created": "2026-04-01T12:00:00+02:00"},
        {"id": 41, "submission": "SUB2", "user": "REV", "created": "2026-04-01T10:00:00Z"},
        {"id": 39, "submission": "SUB3", "user": "REV", "created": "2026-04-01T09:00:00.000001Z"},
        {"id": 38, "submission": "PUB1", "user": "REV2", "created": "2026-04-01T11:00:00+02:00"},
        {"id": 45, "submission": "SUB2", "user": "REV2", "created": "2026-03-31T23:59:59.999999Z"},
        {"id": 37, "submission": "SUB3", "user": "REV2", "created": "2026-04-01T05:00:00-05:00"}
    ]);
    ds
}

const ORDERED_IDS: [i64; 6] = [45, 38, 39, 37, 40, 41];

fn ordered_review(id: i64) -> Value {
    let (submission, user, created) = match id {
        45 => ("SUB2", RAVI, "2026-04-01T01:59:59.999999+02:00"),
        38 => ("PUB1", RAVI, "2026-04-01T11:00:00+02:00"),
        39 => ("SUB3", RITA, "2026-04-01T11:00:00.000001+02:00"),
        37 => ("SUB3", RAVI, "2026-04-01T12:00:00+02:00"),
        40 => ("PUB1", RITA, "2026-04-01T12:00:00+02:00"),
        41 => ("SUB2", RITA, "2026-04-01T12:00:00+02:00"),
        _ => unreachable!(),
    };
    json!({"id": id, "submission": submission, "user": user, "text": "", "score": null,
           "created": created, "updated": created, "answers": []})
}

fn ordered(ids: &[i64]) -> Value {
    json!(ids.iter().map(|&id| ordered_review(id)).collect::<Vec<_>>())
}

#[tokio::test]
async fn reviews_are_ordered_by_created_instant_then_id() {
    let server = TestServer::start(&[ordering_mini()]).await;
    for token in ["orga-token", "admin-token", "rev-token", "rev2-token"] {
        let reply = server.token(token).get("/api/events/mini/reviews/").await;
        assert_page(&reply, 6, None, None, &ordered(&ORDERED_IDS), token);
    }
}

#[tokio::test]
async fn submission_code_filter_is_case_insensitive() {
    let server = TestServer::start(&[ordering_mini()]).await;
    let orga = server.token("orga-token");
    let base = format!("{}/api/events/mini/reviews/", server.base);
    for (query, expected) in [
        ("submission__code=SUB2", vec![45, 41]),
        ("submission__code=sub2", vec![45, 41]),
        ("submission__code=Sub3", vec![39, 37]),
        ("submission__code=pub1", vec![38, 40]),
        ("submission__code=NOPE", vec![]),
        ("submission__code=SUB", vec![]),
        // empty counts as absent; of a repeated parameter the last counts
        ("submission__code=", ORDERED_IDS.to_vec()),
        ("submission__code=SUB3&submission__code=sub2", vec![45, 41]),
    ] {
        let reply = orga
            .get(&format!("/api/events/mini/reviews/?{query}"))
            .await;
        assert_page(
            &reply,
            expected.len(),
            None,
            None,
            &ordered(&expected),
            query,
        );
    }
    // The filter survives in the links.
    let reply = orga
        .get("/api/events/mini/reviews/?submission__code=sub2&limit=1")
        .await;
    assert_page(
        &reply,
        2,
        Some(&format!("{base}?submission__code=sub2&limit=1&offset=1")),
        None,
        &ordered(&[45]),
        "filtered page 1",
    );
    let reply = orga
        .get("/api/events/mini/reviews/?submission__code=sub2&limit=1&offset=1")
        .await;
    assert_page(
        &reply,
        2,
        None,
        Some(&format!("{base}?submission__code=sub2&limit=1&offset=0")),
        &ordered(&[41]),
        "filtered page 2",
    );
    // The filter never widens what a caller sees.
    assert_eq!(
        server
            .anon()
            .ok("/api/events/mini/reviews/?submission__code=SUB2")
            .await,
        empty_page()
    );
}

#[tokio::test]
async fn the_filter_applies_within_the_reviewers_set() {
    let mut ds = ordering_mini();
    ev(&mut ds)["review_phase"] = json!({"can_see_other_reviews": "never"});
    let server = TestServer::start(&[ds]).await;
    let reply = server
        .token("rev-token")
        .get("/api/events/mini/reviews/?submission__code=sub2")
        .await;
    assert_page(&reply, 1, None, None, &ordered(&[41]), "REV, own only");
    let reply = server
        .token("rev3-token")
        .get("/api/events/mini/reviews/?submission__code=SUB2")
        .await;
    assert_page(&reply, 0, None, None, &json!([]), "REV3, none");
}

#[tokio::test]
async fn review_detail_lookups() {
    let mut ds = reviews_mini();
    ds["events"].as_array_mut().unwrap().push(other_event());
    let server = TestServer::start(&[ds]).await;
    let orga = server.token("orga-token");
    for path in [
        "/api/events/mini/reviews/10",
        "/api/events/mini/reviews/10/",
        "/api/events/Mini/reviews/10",
    ] {
        assert_json(&orga.ok(path).await, &r10(Some(RAVI)), path);
    }
    // Detail endpoints ignore list parameters.
    assert_json(
        &orga
            .ok("/api/events/mini/reviews/10/?page=99&limit=x")
            .await,
        &r10(Some(RAVI)),
        "list params",
    );
    for path in [
        "/api/events/mini/reviews/abc",
        "/api/events/mini/reviews/abc/",
        "/api/events/mini/reviews/999",
        "/api/events/mini/reviews/0",
        "/api/events/mini/reviews/-10",
        "/api/events/mini/reviews/10.0",
        "/api/events/mini/reviews/%2010",
        "/api/events/mini/reviews/99999999999999999999999",
        // a review of another event
        "/api/events/mini/reviews/20",
        "/api/events/mini/reviews/10/extra",
    ] {
        assert_error(&orga.get(path).await, 404, path);
    }
}

#[tokio::test]
async fn review_pagination_in_both_styles() {
    let server = TestServer::start(&[ordering_mini()]).await;
    let orga = server.token("orga-token");
    let base = format!("{}/api/events/mini/reviews/", server.base);
    let link = |query: &str| format!("{base}?{query}");

    // page / page_size: first, middle, last, past the end.
    let reply = orga.get("/api/events/mini/reviews/?page_size=2").await;
    assert_page(
        &reply,
        6,
        Some(&link("page_size=2&page=2")),
        None,
        &ordered(&[45, 38]),
        "page 1",
    );
    let reply = orga
        .get("/api/events/mini/reviews/?page=2&page_size=2")
        .await;
    assert_page(
        &reply,
        6,
        Some(&link("page_size=2&page=3")),
        Some(&link("page_size=2&page=1")),
        &ordered(&[39, 37]),
        "page 2",
    );
    let reply = orga
        .get("/api/events/mini/reviews/?page=3&page_size=2")
        .await;
    assert_page(
        &reply,
        6,
        None,
        Some(&link("page_size=2&page=2")),
        &ordered(&[40, 41]),
        "page 3",
    );
    assert_invalid_page(
        &orga
            .get("/api/events/mini/reviews/?page=4&page_size=2")
            .await,
        "page 4",
    );
    assert_invalid_page(
        &orga.get("/api/events/mini/reviews/?page=0").await,
        "page 0",
    );
    assert_invalid_page(
        &orga.get("/api/events/mini/reviews/?page=2").await,
        "page 2 of 1",
    );

    // limit / offset
    let reply = orga.get("/api/events/mini/reviews/?limit=4").await;
    assert_page(
        &reply,
        6,
        Some(&link("limit=4&offset=4")),
        None,
        &ordered(&[45, 38, 39, 37]),
        "limit 4",
    );
    let reply = orga.get("/api/events/mini/reviews/?limit=2&offset=2").await;
    assert_page(
        &reply,
        6,
        Some(&link("limit=2&offset=4")),
        Some(&link("limit=2&offset=0")),
        &ordered(&[39, 37]),
        "offset 2",
    );
    let reply = orga.get("/api/events/mini/reviews/?limit=4&offset=4").await;
    assert_page(
        &reply,
        6,
        None,
        Some(&link("limit=4&offset=0")),
        &ordered(&[40, 41]),
        "offset 4",
    );
    let reply = orga.get("/api/events/mini/reviews/?offset=10").await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        (reply.body["count"].clone(), reply.body["results"].clone()),
        (json!(6), json!([]))
    );
    assert_eq!(reply.body["next"], Value::Null);

    // Both styles: the page style wins. limit=0: the default size.
    let reply = orga
        .get("/api/events/mini/reviews/?page=2&page_size=4&limit=1&offset=0")
        .await;
    assert_eq!(ids(&reply), [40, 41]);
    assert_eq!(
        ids(&orga.get("/api/events/mini/reviews/?limit=0").await),
        ORDERED_IDS
    );
    assert_eq!(
        ids(&orga.get("/api/events/mini/reviews/?limit=").await),
        ORDERED_IDS
    );

    // Following `next` links from the first page visits everything once.
    let all: Vec<Value> = orga.all("/api/events/mini/reviews/?limit=4").await;
    assert_json(&json!(all), &ordered(&ORDERED_IDS), "all pages");

    // Bad numbers: 400 with one key per parameter.
    assert_bad_parameters(
        &orga.get("/api/events/mini/reviews/?limit=-1").await,
        &["limit"],
        "limit=-1",
    );
    assert_bad_parameters(
        &orga
            .get("/api/events/mini/reviews/?page=x&page_size=2.5")
            .await,
        &["page", "page_size"],
        "page=x",
    );
    assert_bad_parameters(
        &server
            .anon()
            .get("/api/events/mini/reviews/?offset=abc")
            .await,
        &["offset"],
        "anon",
    );
}

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

// ===========================================================================
// Tags
// ===========================================================================

/// Tags listed out of id order; a reviewer with every restriction a phase
/// and a team can set still sees them all.
fn tags_mini() -> Value {
    let mut ds = reviews_mini();
    ev(&mut ds)["tags"] = json!([
        {"id": 3, "tag": "café", "description": {"en": "Coffee", "fr": "Café"}, "color": "#6f4e37", "is_public": true},
        {"id": 1, "tag": "hot.topic", "color": "#ff0000"},
        {"id": 2, "tag": "Needs AV", "description": "Needs A/V"}
    ]);
    ev(&mut ds)["review_phase"] = json!({"can_see_speaker_names": false, "can_see_reviewer_names": false,
                                         "can_see_other_reviews": "never", "proposal_visibility": "assigned"});
    let reviewers = team(&mut ds, "Reviewers");
    reviewers["force_hide_speaker_names"] = json!(true);
    reviewers["limit_tracks"] = json!([1]);
    ds["events"].as_array_mut().unwrap().push(other_event());
    ds
}

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
// Contract model: an independent restatement of §3/§6 over a dataset's JSON
// ===========================================================================

mod model {
    use chrono::{DateTime, FixedOffset, Timelike};
    use chrono_tz::Tz;
    use serde_json::{json, Value};

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Role {
        Orga,
        Rev,
        Pub,
    }

    pub fn arr(v: &Value) -> &[Value] {
        v.as_array().map(Vec::as_slice).unwrap_or(&[])
    }

    fn flag(v: &Value, default: bool) -> bool {
        v.as_bool().unwrap_or(default)
    }

    pub fn i18n(v: &Value) -> Value {
        match v {
            Value::Null => json!({}),
            Value::String(s) if s.is_empty() => json!({}),
            Value::String(s) => json!({"en": s}),
            other => other.clone(),
        }
    }

    pub fn parse(ts: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(ts).unwrap_or_else(|e| panic!("{ts}: {e}"))
    }

    fn tz(event: &Value) -> Tz {
        event["timezone"]
            .as_str()
            .unwrap_or("UTC")
            .parse()
            .expect("time zone")
    }

    /// §4: the event's zone, `Z` for offset zero, microseconds when non-zero.
    pub fn format(ts: &str, event: &Value) -> String {
        let local = parse(ts).with_timezone(&tz(event));
        let mut out = local.format("%Y-%m-%dT%H:%M:%S").to_string();
        let micros = local.nanosecond() / 1000;
        if micros != 0 {
            out.push_str(&format!(".{micros:06}"));
        }
        let offset = local.format("%:z").to_string();
        out.push_str(if offset == "+00:00" {
            "Z"
        } else {
            offset.as_str()
        });
        out
    }

    fn midnight(ts: &str, event: &Value) -> bool {
        let local = parse(ts).with_timezone(&tz(event));
        local.num_seconds_from_midnight() == 0 && local.nanosecond() == 0
    }

    fn user<'a>(ds: &'a Value, code: &str) -> &'a Value {
        arr(&ds["users"])
            .iter()
            .find(|u| u["code"] == code)
            .expect("user")
    }

    pub struct Caller<'a> {
        pub code: Option<&'a str>,
        pub role: Role,
        reviewer_teams: Vec<&'a Value>,
        phase: &'a Value,
        other_reviews: bool,
        reviewer_names: bool,
    }

    impl<'a> Caller<'a> {
        pub fn new(ds: &'a Value, event: &'a Value, code: Option<&'a str>) -> Self {
            let teams: Vec<&Value> = match code {
                Some(c) => arr(&event["teams"])
                    .iter()
                    .filter(|t| arr(&t["members"]).iter().any(|m| m == c))
                    .collect(),
                None => Vec::new(),
            };
            let admin = code.is_some_and(|c| flag(&user(ds, c)["is_administrator"], false));
            let role = if code.is_none() {
                Role::Pub
            } else if admin
                || teams
                    .iter()
                    .any(|t| flag(&t["can_change_submissions"], false))
            {
                Role::Orga
            } else if teams.iter().any(|t| flag(&t["is_reviewer"], false)) {
                Role::Rev
            } else {
                Role::Pub
            };
            let reviewer_teams = teams
                .into_iter()
                .filter(|t| flag(&t["is_reviewer"], false))
                .collect();
            // No active phase: the defaults (`review_phase` absent or null).
            let phase = &event["review_phase"];
            let wrote = code.is_some_and(|c| arr(&event["reviews"]).iter().any(|r| r["user"] == c));
            let other_reviews = match phase["can_see_other_reviews"]
                .as_str()
                .unwrap_or("after_review")
            {
                "always" => true,
                "after_review" => wrote,
                _ => false,
            };
            let reviewer_names = flag(&phase["can_see_reviewer_names"], true);
            Caller {
                code,
                role,
                reviewer_teams,
                phase,
                other_reviews,
                reviewer_names,
            }
        }

        pub fn sees_event(&self, event: &Value) -> bool {
            flag(&event["is_public"], false) || self.role != Role::Pub
        }

        fn speaks_in(&self, sub: &Value) -> bool {
            self.code
                .is_some_and(|c| arr(&sub["speakers"]).iter().any(|s| s == c))
        }

        fn has_reviewer_access(&self, sub: &Value) -> bool {
            let Some(code) = self.code else { return false };
            if self.role != Role::Rev {
                return false;
            }
            if arr(&sub["assigned_reviewers"]).iter().any(|c| c == code) {
                return true;
            }
            self.phase["proposal_visibility"].as_str().unwrap_or("all") == "all"
                && self.reviewer_teams.iter().any(|t| {
                    let limit = arr(&t["limit_tracks"]);
                    limit.is_empty() || (!sub["track"].is_null() && limit.contains(&sub["track"]))
                })
        }

        fn sees_review(&self, event: &Value, review: &Value) -> bool {
            let sub = arr(&event["submissions"])
                .iter()
                .find(|s| s["code"] == review["submission"])
                .expect("submission");
            let own = self.code.is_some_and(|c| review["user"] == c);
            match self.role {
                Role::Orga => !self.speaks_in(sub),
                Role::Rev => {
                    own || (self.other_reviews
                        && self.has_reviewer_access(sub)
                        && !self.speaks_in(sub))
                }
                Role::Pub => false,
            }
        }

        fn review_object(&self, ds: &Value, event: &Value, review: &Value) -> Value {
            let own = self.code.is_some_and(|c| review["user"] == c);
            let name = if self.role == Role::Orga || self.reviewer_names || own {
                user(ds, review["user"].as_str().unwrap())["name"].clone()
            } else {
                Value::Null
            };
            let created = review["created"].as_str().unwrap();
            let updated = review["updated"].as_str().unwrap_or(created);
            let mut answers: Vec<&Value> = arr(&event["answers"])
                .iter()
                .filter(|a| a["review"] == review["id"])
                .filter(|a| {
                    let q = arr(&event["questions"])
                        .iter()
                        .find(|q| q["id"] == a["question"])
                        .expect("question");
                    self.role == Role::Orga
                        || (flag(&q["active"], true) && flag(&q["is_visible_to_reviewers"], true))
                })
                .collect();
            answers.sort_by_key(|a| a["id"].as_i64());
            json!({
                "id": review["id"],
                "submission": review["submission"],
                "user": name,
                "text": review["text"].as_str().unwrap_or(""),
                "score": review["score"],
                "created": format(created, event),
                "updated": format(updated, event),
                "answers": answers.into_iter().map(|a| answer_object(event, a)).collect::<Vec<_>>(),
            })
        }

        /// §6 Reviews, by created instant then id.
        pub fn reviews(&self, ds: &Value, event: &Value) -> Vec<Value> {
            let mut visible: Vec<&Value> = arr(&event["reviews"])
                .iter()
                .filter(|r| self.sees_review(event, r))
                .collect();
            visible.sort_by_key(|r| (parse(r["created"].as_str().unwrap()), r["id"].as_i64()));
            visible
                .into_iter()
                .map(|r| self.review_object(ds, event, r))
                .collect()
        }

        /// §6 Rooms, by position (nulls last) then id.
        pub fn rooms(&self, event: &Value) -> Vec<Value> {
            let mut rooms: Vec<&Value> = arr(&event["rooms"]).iter().collect();
            rooms.sort_by_key(|r| {
                (
                    r["position"].is_null(),
                    r["position"].as_i64(),
                    r["id"].as_i64(),
                )
            });
            rooms
                .into_iter()
                .map(|r| {
                    let mut out = json!({
                        "id": r["id"], "guid": r["guid"], "name": i18n(&r["name"]),
                        "description": i18n(&r["description"]), "capacity": r["capacity"],
                        "position": r["position"], "speaker_info": i18n(&r["speaker_info"]),
                    });
                    if self.role == Role::Orga {
                        let mut av: Vec<&Value> = arr(&r["availabilities"]).iter().collect();
                        av.sort_by_key(|a| a["id"].as_i64());
                        out["availabilities"] = json!(av
                            .into_iter()
                            .map(|a| {
                                let (start, end) = (a["start"].as_str().unwrap(), a["end"].as_str().unwrap());
                                json!({"id": a["id"], "start": format(start, event), "end": format(end, event),
                                       "allDay": midnight(start, event) && midnight(end, event)})
                            })
                            .collect::<Vec<_>>());
                    }
                    out
                })
                .collect()
        }

        /// §6 Tags, by id; nothing for the public.
        pub fn tags(&self, event: &Value) -> Vec<Value> {
            if self.role == Role::Pub {
                return Vec::new();
            }
            let mut tags: Vec<&Value> = arr(&event["tags"]).iter().collect();
            tags.sort_by_key(|t| t["id"].as_i64());
            tags.into_iter()
                .map(|t| {
                    json!({"id": t["id"], "tag": t["tag"], "description": i18n(&t["description"]),
                           "color": t["color"].as_str().unwrap_or(""), "is_public": flag(&t["is_public"], false)})
                })
                .collect()
        }
    }

    fn answer_object(event: &Value, a: &Value) -> Value {
        let q = arr(&event["questions"])
            .iter()
            .find(|q| q["id"] == a["question"])
            .expect("question");
        let mut options: Vec<&Value> = arr(&q["options"])
            .iter()
            .filter(|o| arr(&a["options"]).contains(&o["id"]))
            .collect();
        options.sort_by_key(|o| o["id"].as_i64());
        json!({
            "id": a["id"],
            "question": {"id": q["id"], "question": i18n(&q["question"])},
            "answer": a["answer"].as_str().unwrap_or(""),
            "answer_file": a["answer_file"],
            "submission": a["submission"],
            "review": a["review"],
            "person": a["person"],
            "options": options.iter().map(|o| json!({"id": o["id"], "answer": i18n(&o["answer"])})).collect::<Vec<_>>(),
        })
    }
}

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

/// democon with a token for a speaker without a role, the organiser speaking
/// in one reviewed submission and the reviewer in another.
fn democon_with_speaking_staff() -> (Value, String, String) {
    let mut ds = democon();
    let speaker = ds["events"][0]["speakers"][0]["user"]
        .as_str()
        .unwrap()
        .to_string();
    give_token(&mut ds, &speaker, "speaker-token");
    let reviews = ds["events"][0]["reviews"].as_array().unwrap().clone();
    let orga_sub = reviews[0]["submission"].as_str().unwrap().to_string();
    let rev_sub = reviews
        .iter()
        .find(|r| r["submission"] != orga_sub.as_str() && r["user"] != "VDGUZN")
        .map(|r| r["submission"].as_str().unwrap().to_string())
        .unwrap();
    add_speaker(&mut ds, &orga_sub, "G8VYPY");
    add_speaker(&mut ds, &rev_sub, "VDGUZN");
    (ds, orga_sub, rev_sub)
}

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
async fn democon_review_sets_by_role() {
    let (ds, orga_sub, rev_sub) = democon_with_speaking_staff();
    let server = TestServer::start(std::slice::from_ref(&ds)).await;
    let event = &ds["events"][0];
    let reviews = model::arr(&event["reviews"]);
    let subs = model::arr(&event["submissions"]);
    let count = |pred: &dyn Fn(&Value) -> bool| reviews.iter().filter(|r| pred(r)).count() as u64;
    let track_of =
        |code: &Value| subs.iter().find(|s| s["code"] == *code).unwrap()["track"].clone();

    // The organiser: everything but the submission they speak in.
    let orga = server
        .token(tok::ORGA)
        .get("/api/events/democon/reviews/")
        .await;
    assert_eq!(
        orga.count(),
        count(&|r| r["submission"] != orga_sub.as_str())
    );
    assert!(orga.count() < reviews.len() as u64);
    // The administrator does not speak: everything.
    assert_eq!(
        server
            .token(tok::ADMIN)
            .get("/api/events/democon/reviews/")
            .await
            .count(),
        reviews.len() as u64
    );
    // The reviewer (wrote reviews; unlimited team): all but others' reviews of
    // the submission they speak in.
    let rev = server
        .token(tok::REVIEWER)
        .get("/api/events/democon/reviews/")
        .await;
    assert_eq!(
        rev.count(),
        count(&|r| r["user"] == "VDGUZN" || r["submission"] != rev_sub.as_str())
    );
    // The track reviewer: own reviews plus those on track 1.
    let track = server
        .token(tok::TRACK_REVIEWER)
        .get("/api/events/democon/reviews/")
        .await;
    let expected = count(&|r| r["user"] == "SSVAPX" || track_of(&r["submission"]) == json!(1));
    assert_eq!(track.count(), expected);
    assert!(expected < reviews.len() as u64);
    // The public: nothing.
    assert_eq!(
        server.anon().ok("/api/events/democon/reviews/").await,
        empty_page()
    );
    assert_eq!(
        server
            .token("speaker-token")
            .ok("/api/events/democon/reviews/")
            .await,
        empty_page()
    );
    // Default page size 25, with a `next` link in limit/offset style.
    assert_eq!(orga.body["results"].as_array().unwrap().len(), 25);
    assert_link(
        &orga.body["next"],
        Some(&format!(
            "{}/api/events/democon/reviews/?limit=25&offset=25",
            server.base
        )),
        "democon next",
    );
    // privcon is private: its reviews are 403 for the democon reviewer.
    assert_error(
        &server
            .token(tok::REVIEWER)
            .get("/api/events/privcon/reviews/")
            .await,
        403,
        "privcon",
    );
    assert_error(
        &server.anon().get("/api/events/privcon/rooms/").await,
        403,
        "privcon rooms",
    );
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
