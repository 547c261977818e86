//! behaviour.md §6 "Reviews", with the §3 roles, §4 value formats, §5
//! pagination and §8 fine points it depends on, over HTTP: who sees which
//! reviews, nested answers, values, order, the filter, lookups and
//! pagination, with full JSON bodies on small datasets built from
//! `reviews_mini()` (helpers/reviews_mini.rs), and the review sets of
//! democon.json by role.

use crate::helpers::bodies::*;
use crate::helpers::model;
use crate::helpers::reviews_mini::*;
use crate::helpers::{
    assert_bad_parameters, assert_invalid_page, democon_tokens as tok, Client, TestServer,
};
use serde_json::{json, Value};

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
