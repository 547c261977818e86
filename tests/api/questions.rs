//! behaviour.md §6 "Questions" (with the §1, §4, §5 and §8 rules it shares
//! with speakers and answers), over HTTP, for every role: which questions,
//! the fields computed at request time, filters and lookups, on `world()`
//! (helpers/world.rs).

use crate::helpers::world::*;
use crate::helpers::{mini, Client, TestServer};
use serde_json::{json, Value};

// ==========================================================================
// Questions: which, per role
// ==========================================================================

#[tokio::test]
async fn questions_organisers_see_all_by_position_then_id() {
    let server = TestServer::start(&[world()]).await;
    // positions: 4:0, 1:1, 6:1, 2:2, 3:2, 7:3, 8:4, 9:4, 5:5 (inactive)
    let expected = page(questions(&[4, 1, 6, 2, 3, 7, 8, 9, 5]));
    for token in [ORGA, ADMIN] {
        assert_eq!(
            server.token(token).ok(&p("questions/")).await,
            expected,
            "{token}"
        );
    }
}

#[tokio::test]
async fn questions_reviewers_see_active_reviewer_questions_and_public_ones() {
    let server = TestServer::start(&[world()]).await;
    // active and visible to reviewers: 1 2 6 7 8; active and public: 1 3 6 8
    let expected = page(questions(&[1, 6, 2, 3, 7, 8]));
    for token in [REV, TRACK, BLIND] {
        assert_eq!(
            server.token(token).ok(&p("questions/")).await,
            expected,
            "{token}"
        );
    }
    // without a public schedule the public ones go
    let server = TestServer::start(&[world_with(|e| e["show_schedule"] = json!(false))]).await;
    assert_eq!(
        server.token(REV).ok(&p("questions/")).await,
        page(questions(&[1, 6, 2, 7, 8]))
    );
}

#[tokio::test]
async fn questions_the_public_sees_active_public_ones_while_the_schedule_is_public() {
    let server = TestServer::start(&[world()]).await;
    let expected = page(questions(&[1, 6, 3, 8]));
    assert_eq!(server.anon().ok(&p("questions/")).await, expected);
    assert_eq!(server.token(NOBODY).ok(&p("questions")).await, expected);
    for change in [
        |e: &mut Value| e["show_schedule"] = json!(false),
        |e: &mut Value| {
            e["schedule"] = Value::Null;
            for s in e["submissions"].as_array_mut().unwrap() {
                s.as_object_mut().unwrap().remove("slots");
            }
        },
    ] {
        let server = TestServer::start(&[world_with(change)]).await;
        assert_eq!(server.anon().ok(&p("questions/")).await, page(vec![]));
        assert_eq!(
            server
                .token(NOBODY)
                .ok(&p("questions/?is_public=true"))
                .await,
            page(vec![])
        );
        assert_not_found(&server.anon(), &p("questions/1/")).await;
    }
    // a private event: 403 for the public, the reviewer sees its questions
    let server = TestServer::start(&[world_with(|e| e["is_public"] = json!(false))]).await;
    assert_forbidden(&server.anon(), &p("questions/")).await;
    assert_forbidden(&server.token(NOBODY), &p("questions/1")).await;
    assert_eq!(
        server.token(REV).ok(&p("questions/")).await,
        page(questions(&[1, 6, 2, 7, 8]))
    );
}

// ==========================================================================
// Questions: fields computed at request time
// ==========================================================================

/// mini() with questions whose `required`/`read_only` depend on the clock
/// (deadlines and freeze dates far in the past or the future), and answers
/// to them on the public talk.
fn clock_questions() -> Value {
    let mut d = mini();
    let e = &mut d["events"][0];
    e["questions"] = json!([
        {"id": 21, "question": "Past deadline", "question_required": "after_deadline",
         "deadline": "2020-01-01T00:00:00Z", "position": 1},
        {"id": 22, "question": "Future deadline", "question_required": "after_deadline",
         "deadline": "2035-06-30T18:29:59.5+05:30", "position": 2},
        {"id": 23, "question": "No deadline", "question_required": "after_deadline", "position": 3},
        {"id": 24, "question": "Required, frozen", "question_required": "required",
         "freeze_after": "2020-06-01T12:00:00+02:00", "position": 4},
        {"id": 25, "question": "Required, freezes later", "question_required": "required",
         "freeze_after": "2035-01-01T00:00:00Z", "position": 5},
        {"id": 26, "question": "Optional", "position": 6},
        {"id": 27, "question": "Past deadline, frozen", "question_required": "after_deadline",
         "deadline": "2020-01-01T00:00:00Z", "freeze_after": "2020-01-02T00:00:00Z", "position": 7},
        {"id": 28, "question": "Optional, frozen", "freeze_after": "2020-01-02T00:00:00Z", "position": 8}
    ]);
    e["answers"] = json!([
        {"id": 301, "question": 21, "answer": "a", "submission": "PUB1"},
        {"id": 302, "question": 24, "answer": "b", "submission": "PUB1"},
        {"id": 303, "question": 25, "answer": "c", "submission": "PUB1"}
    ]);
    d
}

fn clock_question(id: i64, text: &str, question_required: &str, overrides: Value) -> Value {
    merge(
        json!({
            "id": id, "variant": "string", "target": "submission", "question": {"en": text},
            "help_text": {}, "question_required": question_required, "deadline": null, "required": false,
            "read_only": false, "freeze_after": null, "options": [], "default_answer": null,
            "contains_personal_data": true, "min_length": null, "max_length": null,
            "is_public": false, "is_visible_to_reviewers": true, "tracks": [], "submission_types": []
        }),
        overrides,
    )
}

#[tokio::test]
async fn questions_required_and_read_only_are_computed_at_request_time() {
    let server = TestServer::start(&[clock_questions()]).await;
    let expected = page(vec![
        clock_question(
            21,
            "Past deadline",
            "after_deadline",
            json!({"deadline": "2020-01-01T01:00:00+01:00", "required": true}),
        ),
        // fractional seconds as microseconds, in the event's zone (summer time)
        clock_question(
            22,
            "Future deadline",
            "after_deadline",
            json!({"deadline": "2035-06-30T14:59:59.500000+02:00"}),
        ),
        // after_deadline without a deadline: not required
        clock_question(23, "No deadline", "after_deadline", json!({})),
        // frozen: read-only, and so not required
        clock_question(
            24,
            "Required, frozen",
            "required",
            json!({"freeze_after": "2020-06-01T12:00:00+02:00", "read_only": true}),
        ),
        clock_question(
            25,
            "Required, freezes later",
            "required",
            json!({"freeze_after": "2035-01-01T01:00:00+01:00", "required": true}),
        ),
        clock_question(26, "Optional", "optional", json!({})),
        clock_question(
            27,
            "Past deadline, frozen",
            "after_deadline",
            json!({"deadline": "2020-01-01T01:00:00+01:00", "freeze_after": "2020-01-02T01:00:00+01:00",
                   "read_only": true}),
        ),
        clock_question(
            28,
            "Optional, frozen",
            "optional",
            json!({"freeze_after": "2020-01-02T01:00:00+01:00", "read_only": true}),
        ),
    ]);
    assert_eq!(server.token(ORGA).ok(&p("questions/")).await, expected);
    assert_eq!(server.token(REV).ok(&p("questions/")).await, expected);
    assert_eq!(
        server.token(REV).ok(&p("questions/24/")).await,
        expected["results"][3]
    );
}

#[tokio::test]
async fn questions_nested_in_submission_answers_carry_the_computed_required() {
    let server = TestServer::start(&[clock_questions()]).await;
    let nested = |id: i64, q: i64, text: &str, answer: &str, required: bool| {
        json!({"id": id, "question": {"id": q, "question": {"en": text}, "required": required,
               "target": "submission", "options": []},
               "answer": answer, "answer_file": null, "submission": "PUB1", "review": null, "person": null,
               "options": []})
    };
    let body = server
        .token(REV)
        .ok(&p("submissions/PUB1/?questions=all"))
        .await;
    assert_eq!(
        body["answers"],
        json!([
            nested(301, 21, "Past deadline", "a", true),
            nested(302, 24, "Required, frozen", "b", false),
            nested(303, 25, "Required, freezes later", "c", true)
        ])
    );
    // /answers shows only id and question text
    assert_eq!(
        server.token(REV).ok(&p("answers/302/")).await,
        json!({"id": 302, "question": {"id": 24, "question": {"en": "Required, frozen"}}, "answer": "b",
               "answer_file": null, "submission": "PUB1", "review": null, "person": null, "options": []})
    );
}

// ==========================================================================
// Questions: filters and lookups
// ==========================================================================

async fn question_ids(client: &Client, query: &str) -> Vec<i64> {
    result_ids(&client.ok(&p(&format!("questions/{query}"))).await)
}

#[tokio::test]
async fn questions_filters() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let cases: &[(&str, &[i64])] = &[
        // q: any translation, case-insensitive, every term
        ("?q=zielgruppe", &[1]),
        ("?q=AUDIENCE", &[1, 5]),
        ("?q=audience+ZIEL", &[1]),
        ("?q=audience+nope", &[]),
        // inside words, and terms that only meet across languages
        ("?q=ielgrupp", &[1]),
        ("?q=dience+zielg", &[1]),
        ("?q=pected+ziel", &[]),
        ("?q=first%20time", &[7]),
        ("?q=organiser", &[4]),
        ("?q=", &[4, 1, 6, 2, 3, 7, 8, 9, 5]),
        ("?target=speaker", &[6, 7]),
        ("?target=reviewer", &[8, 9]),
        ("?target=submission", &[4, 1, 2, 3, 5]),
        ("?target=", &[4, 1, 6, 2, 3, 7, 8, 9, 5]),
        // the last value counts
        ("?target=bogus&target=speaker", &[6, 7]),
        ("?variant=number", &[8, 5]),
        ("?variant=multiple_choice", &[1]),
        ("?variant=file", &[]),
        ("?is_public=TRUE", &[1, 6, 3, 8, 5]),
        ("?is_public=1", &[1, 6, 3, 8, 5]),
        ("?is_public=False", &[4, 2, 7, 9]),
        ("?is_public=0", &[4, 2, 7, 9]),
        ("?is_visible_to_reviewers=false", &[4, 3, 9]),
        ("?is_visible_to_reviewers=tRuE", &[1, 6, 2, 7, 8, 5]),
        ("?target=submission&is_public=true", &[1, 3, 5]),
        (
            "?target=submission&is_public=true&is_visible_to_reviewers=0&q=slides",
            &[3],
        ),
    ];
    for (query, expected) in cases {
        assert_eq!(question_ids(&orga, query).await, *expected, "{query}");
    }
    // filters apply within the caller's set
    let rev = server.token(REV);
    assert_eq!(
        question_ids(&rev, "?is_visible_to_reviewers=false").await,
        [3]
    );
    assert_eq!(question_ids(&rev, "?is_public=false").await, [2, 7]);
    assert_eq!(question_ids(&rev, "?q=organiser").await, Vec::<i64>::new());
    assert_eq!(
        question_ids(&server.anon(), "?is_public=false").await,
        Vec::<i64>::new()
    );
    assert_eq!(question_ids(&server.anon(), "?target=reviewer").await, [8]);
    // full objects through a filter
    assert_eq!(
        server.anon().ok(&p("questions/?target=speaker")).await,
        page(questions(&[6]))
    );
}

#[tokio::test]
async fn questions_filter_errors_are_400_with_one_key_per_parameter() {
    let server = TestServer::start(&[world()]).await;
    let client = server.anon();
    assert_bad_params(&client, &p("questions/?target=talk"), &["target"]).await;
    assert_bad_params(&client, &p("questions/?variant=nope"), &["variant"]).await;
    assert_bad_params(&client, &p("questions/?is_public=yes"), &["is_public"]).await;
    assert_bad_params(&client, &p("questions/?is_public=2"), &["is_public"]).await;
    assert_bad_params(
        &client,
        &p("questions/?is_visible_to_reviewers=maybe"),
        &["is_visible_to_reviewers"],
    )
    .await;
    assert_bad_params(
        &client,
        &p("questions?variant=x&is_visible_to_reviewers=maybe&page=0x"),
        &["variant", "is_visible_to_reviewers", "page"],
    )
    .await;
    // the last value counts: a good value after a bad one is fine, not vice versa
    assert_bad_params(
        &client,
        &p("questions/?is_public=true&is_public=nope"),
        &["is_public"],
    )
    .await;
    assert_eq!(
        question_ids(&client, "?is_public=nope&is_public=true").await,
        [1, 6, 3, 8]
    );
}

#[tokio::test]
async fn question_detail_lookups() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    for id in [1, 4, 5, 9] {
        assert_eq!(
            orga.ok(&p(&format!("questions/{id}/"))).await,
            q(id),
            "{id}"
        );
    }
    // detail endpoints ignore list parameters
    assert_eq!(
        orga.ok(&p("questions/6?target=bogus&is_public=maybe&page=x"))
            .await,
        q(6)
    );
    let rev = server.token(REV);
    assert_eq!(rev.ok(&p("questions/3")).await, q(3));
    for id in ["4", "5", "9", "99", "abc", "-1", "1.0", "0"] {
        assert_not_found(&rev, &p(&format!("questions/{id}/"))).await;
    }
    for id in ["2", "7", "4", "5", "9"] {
        assert_not_found(&server.anon(), &p(&format!("questions/{id}"))).await;
    }
    assert_eq!(server.anon().ok(&p("questions/8/")).await, q(8));
    for path in [
        "/api/events/nope/questions/",
        "/api/events/nope/questions",
        "/api/events/nope/questions/1/",
    ] {
        assert_forbidden(&orga, path).await;
    }
}

#[tokio::test]
async fn questions_pagination_and_trailing_slash() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let base = &server.base;
    assert_same(&orga, &p("questions/"), "/api/events/Mini/questions").await;
    assert_same(&orga, &p("questions/1/"), &p("questions/1")).await;
    // limit/offset, without the slash, keeping the filter
    let first = orga.ok(&p("questions?target=submission&limit=2")).await;
    assert_eq!(
        (first["count"].clone(), result_ids(&first)),
        (json!(5), vec![4, 1])
    );
    assert_link(
        &first["next"],
        base,
        Some("/api/events/mini/questions?target=submission&limit=2&offset=2"),
    );
    assert_link(&first["previous"], base, None);
    let middle = orga
        .ok(&p("questions?target=submission&limit=2&offset=2"))
        .await;
    assert_eq!(result_ids(&middle), [2, 3]);
    assert_link(
        &middle["next"],
        base,
        Some("/api/events/mini/questions?target=submission&limit=2&offset=4"),
    );
    assert_link(
        &middle["previous"],
        base,
        Some("/api/events/mini/questions?target=submission&limit=2&offset=0"),
    );
    // page style wins over limit/offset
    let second = orga
        .ok(&p("questions/?page=2&page_size=4&limit=1&offset=7"))
        .await;
    assert_eq!(result_ids(&second), [3, 7, 8, 9]);
    assert_link(
        &second["next"],
        base,
        Some("/api/events/mini/questions/?page=3&page_size=4&limit=1&offset=7"),
    );
    assert_link(
        &second["previous"],
        base,
        Some("/api/events/mini/questions/?page=1&page_size=4&limit=1&offset=7"),
    );
    let all = orga.all(&p("questions/?limit=2")).await;
    assert_eq!(ids_of(&Value::Array(all)), [4, 1, 6, 2, 3, 7, 8, 9, 5]);
    let reply = orga.get(&p("questions/?page=0")).await;
    assert_eq!(
        (reply.status, reply.body),
        (404, json!({"detail": "Invalid page."}))
    );
    assert_bad_params(&orga, &p("questions/?offset=-1"), &["offset"]).await;
}
