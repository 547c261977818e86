//! behaviour.md §6 "Answers" (with the §1, §4, §5 and §8 rules it shares
//! with speakers and questions), over HTTP, for every role: the single
//! visibility rule, filters, lookups and pagination on `world()`
//! (helpers/world.rs), and on democon.json, edge.json and `world()` that
//! `/answers/` shows exactly the nested answers.

use crate::helpers::world::*;
use crate::helpers::{democon, edge, Client, TestServer};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

// ==========================================================================
// Answers: the single visibility rule
// ==========================================================================

#[tokio::test]
async fn answers_per_role_follow_one_rule() {
    let server = TestServer::start(&[world()]).await;
    let public = page(answers(&[101, 105, 109]));
    assert_eq!(server.anon().ok(&p("answers/")).await, public);
    assert_eq!(server.token(NOBODY).ok(&p("answers/")).await, public);
    assert_eq!(
        server.token(REV).ok(&p("answers/")).await,
        page(answers(&[
            101, 102, 103, 105, 108, 109, 110, 111, 113, 114, 116
        ]))
    );
    assert_eq!(
        server.token(TRACK).ok(&p("answers/")).await,
        page(answers(&[101, 105, 108, 109, 113, 116]))
    );
    assert_eq!(
        server.token(BLIND).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 105, 108, 109, 114, 116]))
    );
    let all: Vec<i64> = (101..=116).collect();
    for token in [ORGA, ADMIN] {
        assert_eq!(
            server.token(token).ok(&p("answers/")).await,
            page(answers(&all)),
            "{token}"
        );
    }
}

#[tokio::test]
async fn answers_a_public_question_hidden_from_reviewers_stays_hidden_on_a_reviewer_only_submission(
) {
    // Question 3 is public but not visible to reviewers; SUB2 is no public
    // talk, so REV sees it only as a reviewer: answer 104 is visible by no
    // single rule. Answer 105 (same question, public talk) is public.
    let server = TestServer::start(&[world()]).await;
    let rev = server.token(REV);
    assert_eq!(
        rev.ok(&p("answers/?question=3")).await,
        page(answers(&[105]))
    );
    assert_eq!(
        rev.ok(&p("answers/?submission=sub2")).await,
        page(answers(&[102]))
    );
    assert_not_found(&rev, &p("answers/104/")).await;
    assert_eq!(rev.ok(&p("answers/105/")).await, a(105));
    // nested: the submission, and the talk
    assert_eq!(
        rev.ok(&p("submissions/SUB2/?questions=all")).await["answers"],
        json!([sub_a(102)])
    );
    assert_eq!(
        rev.ok(&p("submissions/SUB2/?questions=3")).await["answers"],
        json!([])
    );
    assert_eq!(
        rev.ok(&p("submissions/PUB1/?questions=all")).await["answers"],
        json!([sub_a(101), sub_a(103), sub_a(105)])
    );
    // the organiser sees both
    assert_eq!(
        server.token(ORGA).ok(&p("answers/?question=3")).await,
        page(answers(&[104, 105]))
    );
}

#[tokio::test]
async fn answers_a_reviewer_question_on_a_public_talk_without_reviewer_access_is_hidden() {
    // Question 2 is visible to reviewers but not public; PUB1 is a public
    // talk in track 1, which TRACKREV does not review: 103 is hidden from
    // them, while the public answers of PUB1 stay visible.
    let server = TestServer::start(&[world()]).await;
    let track = server.token(TRACK);
    assert_eq!(
        track.ok(&p("answers/?submission=PUB1")).await,
        page(answers(&[101, 105]))
    );
    assert_not_found(&track, &p("answers/103")).await;
    assert_eq!(
        track.ok(&p("talks/pub1/?questions=all")).await["answers"],
        json!([sub_a(101), sub_a(105)])
    );
    assert_eq!(
        track.ok(&p("submissions/PUB1?questions=2")).await["answers"],
        json!([])
    );
    // ... but the same question on a submission of their track is theirs
    assert_eq!(
        track.ok(&p("answers/?question=2")).await,
        page(answers(&[108]))
    );
    assert_eq!(
        track.ok(&p("submissions/SUB4/?questions=all")).await["answers"],
        json!([sub_a(108)])
    );
    // speakers: the reviewer-only answer of SPK1 (111) is hidden as well
    assert_eq!(
        track.ok(&p("speakers/SPK1/?questions=all")).await,
        speaker("SPK1", &["APUB", "PUB1"], &[109], false)
    );
    assert_eq!(
        track.ok(&p("answers/?person=spk1")).await,
        page(answers(&[109]))
    );
    // REV reviews track 1: sees 103 and 111
    assert_eq!(
        server.token(REV).ok(&p("answers/?submission=PUB1")).await,
        page(answers(&[101, 103, 105]))
    );
    assert_eq!(
        server.token(REV).ok(&p("answers/?person=SPK1")).await,
        page(answers(&[109, 111]))
    );
}

#[tokio::test]
async fn answers_on_reviews_are_never_public() {
    // Question 8 is public and visible to reviewers; its answers belong to reviews.
    let server = TestServer::start(&[world()]).await;
    for client in [server.anon(), server.token(NOBODY)] {
        assert_eq!(client.ok(&p("answers/?question=8")).await, page(vec![]));
        assert_eq!(client.ok(&p("answers/?review=201")).await, page(vec![]));
        assert_not_found(&client, &p("answers/114/")).await;
        assert_eq!(client.ok(&p("reviews/")).await, page(vec![]));
    }
    // reviewers: by the reviews they may see
    let reviews_answers = |body: Value| -> Vec<(i64, Vec<i64>)> {
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["id"].as_i64().unwrap(), ids_of(&r["answers"])))
            .collect()
    };
    assert_eq!(
        reviews_answers(server.token(REV).ok(&p("reviews/")).await),
        [(201, vec![114]), (202, vec![116]), (203, vec![])]
    );
    assert_eq!(
        server.token(REV).ok(&p("reviews/202/")).await["answers"],
        json!([a(116)])
    );
    // TRACKREV sees only their own review (on SUB4)
    assert_eq!(
        reviews_answers(server.token(TRACK).ok(&p("reviews/")).await),
        [(202, vec![116])]
    );
    assert_eq!(
        server.token(TRACK).ok(&p("answers/?question=8")).await,
        page(answers(&[116]))
    );
    assert_not_found(&server.token(TRACK), &p("answers/114/")).await;
    // question 9 is hidden from reviewers, also on visible reviews
    assert_not_found(&server.token(BLIND), &p("answers/115")).await;
    assert_eq!(
        server.token(BLIND).ok(&p("answers/?review=202")).await,
        page(answers(&[116]))
    );
    assert_eq!(
        reviews_answers(server.token(ORGA).ok(&p("reviews/")).await),
        [(201, vec![114]), (202, vec![115, 116]), (203, vec![])]
    );
}

#[tokio::test]
async fn answers_of_persons_are_shown_to_reviewers_only_with_names() {
    let server = TestServer::start(&[world()]).await;
    // REV (names): every speaker of their submissions
    assert_eq!(
        server.token(REV).ok(&p("answers/?question=6")).await,
        page(answers(&[109, 110]))
    );
    assert_eq!(
        server.token(REV).ok(&p("answers/?question=7")).await,
        page(answers(&[111, 113]))
    );
    // BLIND (no names): only the public answer of the public speaker
    let blind = server.token(BLIND);
    assert_eq!(
        blind.ok(&p("answers/?question=6")).await,
        page(answers(&[109]))
    );
    assert_eq!(blind.ok(&p("answers/?question=7")).await, page(vec![]));
    for id in [110, 111, 113] {
        assert_not_found(&blind, &p(&format!("answers/{id}/"))).await;
    }
    // the same with a phase that hides names from every reviewer
    let server = TestServer::start(&[world_with(|e| {
        e["review_phase"] = json!({"can_see_speaker_names": false});
    })])
    .await;
    assert_eq!(
        server.token(REV).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 105, 108, 109, 114, 116]))
    );
    // the profile without submissions: organisers only
    assert_eq!(
        server.token(ORGA).ok(&p("answers/?person=spk3")).await,
        page(answers(&[112]))
    );
}

#[tokio::test]
async fn answers_without_a_public_schedule_only_the_reviewer_rule_is_left() {
    let server = TestServer::start(&[world_with(|e| e["show_schedule"] = json!(false))]).await;
    assert_eq!(server.anon().ok(&p("answers/")).await, page(vec![]));
    assert_not_found(&server.anon(), &p("answers/101/")).await;
    // 105 (question 3: public, hidden from reviewers) goes
    assert_eq!(
        server.token(REV).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 108, 109, 110, 111, 113, 114, 116]))
    );
    // TRACKREV reviews SUB4 only; PUB1 is no public talk any more
    assert_eq!(
        server.token(TRACK).ok(&p("answers/")).await,
        page(answers(&[108, 113, 116]))
    );
    // BLIND: reviewer rule on submissions and reviews, no persons
    assert_eq!(
        server.token(BLIND).ok(&p("answers/")).await,
        page(answers(&[101, 102, 103, 108, 114, 116]))
    );
}

#[tokio::test]
async fn answers_nested_in_submissions_follow_the_same_rule() {
    let server = TestServer::start(&[world()]).await;
    let nested = |body: Value| -> BTreeMap<String, Value> {
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["code"].as_str().unwrap().to_string(),
                    s["answers"].clone(),
                )
            })
            .collect()
    };
    let expect = |rows: &[(&str, &[i64])]| -> BTreeMap<String, Value> {
        rows.iter()
            .map(|(code, ids)| {
                (
                    code.to_string(),
                    json!(ids.iter().map(|&i| sub_a(i)).collect::<Vec<_>>()),
                )
            })
            .collect()
    };
    assert_eq!(
        nested(server.anon().ok(&p("submissions/?questions=all")).await),
        expect(&[("APUB", &[]), ("PUB1", &[101, 105])])
    );
    assert_eq!(
        nested(server.token(REV).ok(&p("submissions/?questions=all")).await),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[101, 103, 105]),
            ("SUB2", &[102]),
            ("SUB3", &[]),
            ("SUB4", &[108])
        ])
    );
    assert_eq!(
        nested(
            server
                .token(TRACK)
                .ok(&p("submissions/?questions=all"))
                .await
        ),
        expect(&[("APUB", &[]), ("PUB1", &[101, 105]), ("SUB4", &[108])])
    );
    // anonymised submissions keep the answers the reviewer may see
    assert_eq!(
        nested(
            server
                .token(BLIND)
                .ok(&p("submissions/?questions=all"))
                .await
        ),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[101, 103, 105]),
            ("SUB2", &[102]),
            ("SUB3", &[]),
            ("SUB4", &[108])
        ])
    );
    assert_eq!(
        nested(
            server
                .token(ORGA)
                .ok(&p("submissions/?questions=all"))
                .await
        ),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[101, 103, 105, 107]),
            ("SUB2", &[102, 104]),
            ("SUB3", &[106]),
            ("SUB4", &[108])
        ])
    );
    // a question list selects within the visible ones
    assert_eq!(
        nested(
            server
                .token(ORGA)
                .ok(&p("submissions/?questions=3,5"))
                .await
        ),
        expect(&[
            ("APUB", &[]),
            ("PUB1", &[105, 107]),
            ("SUB2", &[104]),
            ("SUB3", &[]),
            ("SUB4", &[])
        ])
    );
}

// ==========================================================================
// Answers: filters, lookups, pagination
// ==========================================================================

async fn answer_ids(client: &Client, query: &str) -> Vec<i64> {
    result_ids(&client.ok(&p(&format!("answers/{query}"))).await)
}

#[tokio::test]
async fn answers_filters() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let cases: &[(&str, &[i64])] = &[
        ("?q=EXPERT", &[102]),
        ("?q=beginner", &[101, 102]),
        ("?q=slides.example+PUB1", &[105]),
        ("?q=slides%20nope", &[]),
        ("?question=6", &[109, 110, 112]),
        ("?question=999", &[]),
        ("?question=0", &[]),
        (
            "?question=",
            &[
                101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116,
            ],
        ),
        ("?submission=pub1", &[101, 103, 105, 107]),
        ("?submission=SUB3", &[106]),
        ("?submission=NOPE", &[]),
        ("?review=202", &[115, 116]),
        ("?review=999", &[]),
        ("?person=spk1", &[109, 111]),
        ("?person=SPK3", &[112]),
        ("?person=ORGA", &[]),
        ("?question=8&review=202", &[116]),
        ("?question=1&submission=Sub2&q=expert", &[102]),
        ("?submission=PUB1&person=SPK1", &[]),
        ("?question=abc&question=6", &[109, 110, 112]),
    ];
    for (query, expected) in cases {
        assert_eq!(answer_ids(&orga, query).await, *expected, "{query}");
    }
    // filters apply within the caller's set
    let anon = server.anon();
    assert_eq!(answer_ids(&anon, "?person=spk2").await, Vec::<i64>::new());
    assert_eq!(
        answer_ids(&anon, "?submission=sub2").await,
        Vec::<i64>::new()
    );
    assert_eq!(answer_ids(&anon, "?submission=pub1").await, [101, 105]);
    assert_eq!(
        anon.ok(&p("answers/?person=Spk1")).await,
        page(answers(&[109]))
    );
}

#[tokio::test]
async fn answers_malformed_numbers_are_400_with_the_parameter_as_key() {
    let server = TestServer::start(&[world()]).await;
    let client = server.token(REV);
    for value in ["abc", "-1", "1.5", "1e3", "0x10"] {
        assert_bad_params(
            &client,
            &p(&format!("answers/?question={value}")),
            &["question"],
        )
        .await;
        assert_bad_params(
            &client,
            &p(&format!("answers/?review={value}")),
            &["review"],
        )
        .await;
    }
    assert_bad_params(
        &client,
        &p("answers?question=abc&review=-1&page=x"),
        &["question", "review", "page"],
    )
    .await;
    // the last value counts
    assert_bad_params(&client, &p("answers/?review=201&review=x"), &["review"]).await;
}

#[tokio::test]
async fn answer_detail_lookups() {
    let server = TestServer::start(&[world()]).await;
    assert_eq!(server.anon().ok(&p("answers/101/")).await, a(101));
    assert_eq!(server.anon().ok(&p("answers/109")).await, a(109));
    // detail endpoints ignore list parameters
    assert_eq!(
        server
            .anon()
            .ok(&p("answers/105/?question=abc&person=nobody"))
            .await,
        a(105)
    );
    for id in [
        "102", "103", "104", "106", "107", "110", "114", "abc", "-1", "99999", "0", "1e2",
    ] {
        assert_not_found(&server.anon(), &p(&format!("answers/{id}/"))).await;
    }
    let orga = server.token(ORGA);
    for id in 101..=116 {
        assert_eq!(orga.ok(&p(&format!("answers/{id}"))).await, a(id), "{id}");
    }
    assert_not_found(&orga, &p("answers/201/")).await;
}

#[tokio::test]
async fn answers_pagination_trailing_slash_and_unknown_events() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let base = &server.base;
    assert_same(&orga, &p("answers/"), "/api/events/MINI/answers").await;
    assert_same(&orga, &p("answers/101/"), &p("answers/101")).await;
    let second = orga.ok(&p("answers/?page=2&page_size=5")).await;
    assert_eq!(second["count"], 16);
    assert_eq!(
        second["results"],
        json!(answers(&[106, 107, 108, 109, 110]))
    );
    assert_link(
        &second["next"],
        base,
        Some("/api/events/mini/answers/?page=3&page_size=5"),
    );
    assert_link(
        &second["previous"],
        base,
        Some("/api/events/mini/answers/?page=1&page_size=5"),
    );
    let tail = orga.ok(&p("answers?question=6&limit=2&offset=2")).await;
    assert_eq!(tail["count"], 3);
    assert_eq!(tail["results"], json!(answers(&[112])));
    assert_link(&tail["next"], base, None);
    assert_link(
        &tail["previous"],
        base,
        Some("/api/events/mini/answers?question=6&limit=2&offset=0"),
    );
    let reply = orga.get(&p("answers/?page=5&page_size=4")).await;
    assert_eq!(
        (reply.status, reply.body),
        (404, json!({"detail": "Invalid page."}))
    );
    // limit=0: the default size
    assert_eq!(
        orga.ok(&p("answers/?limit=0")).await,
        page(answers(&(101..=116).collect::<Vec<_>>()))
    );
    for path in [
        "/api/events/nope/answers/",
        "/api/events/nope/answers",
        "/api/events/nope/answers/101/",
    ] {
        assert_forbidden(&server.anon(), path).await;
        assert_forbidden(&orga, path).await;
    }
    let server = TestServer::start(&[world_with(|e| e["is_public"] = json!(false))]).await;
    assert_forbidden(&server.anon(), &p("answers/")).await;
    assert_forbidden(&server.token(NOBODY), &p("answers/101")).await;
    assert_eq!(server.token(REV).ok(&p("answers/101")).await, a(101));
}

// ==========================================================================
// Consistency over the shared datasets: /answers = the nested answers
// ==========================================================================

/// For one caller and event: the answers of `/answers/` (all pages) are
/// exactly those nested in `/submissions/?questions=all`,
/// `/speakers/?questions=all` and `/reviews/`, as the same objects (a
/// submission's also show the question's `required`, `target`, `options`),
/// and every answer id of the event answers its detail iff listed.
async fn check_answer_consistency(client: &Client, slug: &str, event: &Value, who: &str) {
    let base = format!("/api/events/{slug}");
    let visible = client.get(&format!("{base}/")).await;
    if visible.status == 403 {
        for path in ["answers/", "submissions/", "speakers/", "reviews/"] {
            assert_forbidden(client, &format!("{base}/{path}")).await;
        }
        return;
    }
    assert_eq!(visible.status, 200, "{who} {slug}");
    let listed: BTreeMap<i64, Value> = client
        .all(&format!("{base}/answers/?limit=1000"))
        .await
        .into_iter()
        .map(|a| (a["id"].as_i64().unwrap(), a))
        .collect();
    let mut nested: BTreeMap<i64, Value> = BTreeMap::new();
    let mut add = |mut answer: Value, in_submission: bool, owner: &str| {
        let id = answer["id"].as_i64().unwrap();
        if in_submission {
            let question = answer["question"].as_object_mut().unwrap();
            let keys: BTreeSet<&str> = question.keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                BTreeSet::from(["id", "question", "required", "target", "options"]),
                "{who} {owner}"
            );
            question.remove("required");
            question.remove("target");
            question.remove("options");
        }
        if let Some(previous) = nested.insert(id, answer.clone()) {
            assert_eq!(
                previous, answer,
                "{who} {slug}: answer {id} nested twice, differently"
            );
        }
        assert!(
            listed.contains_key(&id),
            "{who} {slug}: answer {id} nested in {owner} but not in /answers/"
        );
    };
    for sub in client
        .all(&format!("{base}/submissions/?questions=all&limit=1000"))
        .await
    {
        for answer in sub["answers"].as_array().unwrap() {
            assert_eq!(answer["submission"], sub["code"], "{who}");
            add(answer.clone(), true, sub["code"].as_str().unwrap());
        }
    }
    for spk in client
        .all(&format!("{base}/speakers/?questions=all&limit=1000"))
        .await
    {
        for answer in spk["answers"].as_array().unwrap() {
            assert_eq!(answer["person"], spk["code"], "{who}");
            add(answer.clone(), false, spk["code"].as_str().unwrap());
        }
    }
    for review in client.all(&format!("{base}/reviews/?limit=1000")).await {
        for answer in review["answers"].as_array().unwrap() {
            assert_eq!(answer["review"], review["id"], "{who}");
            add(answer.clone(), false, &format!("review {}", review["id"]));
        }
    }
    let listed_ids: BTreeSet<i64> = listed.keys().copied().collect();
    let nested_ids: BTreeSet<i64> = nested.keys().copied().collect();
    assert_eq!(
        listed_ids.difference(&nested_ids).collect::<Vec<_>>(),
        Vec::<&i64>::new(),
        "{who} {slug}: in /answers/ but nested nowhere"
    );
    for (id, answer) in &nested {
        assert_eq!(&listed[id], answer, "{who} {slug}: answer {id}");
    }
    // the ids are sorted in /answers/ (by id) and the detail agrees with the list
    for answer in event["answers"].as_array().unwrap() {
        let id = answer["id"].as_i64().unwrap();
        let reply = client.get(&format!("{base}/answers/{id}/")).await;
        match listed.get(&id) {
            Some(expected) => {
                assert_eq!(reply.status, 200, "{who} {slug} answer {id}");
                assert_eq!(&reply.body, expected, "{who} {slug} answer {id}");
            }
            None => assert_eq!(
                reply.status, 404,
                "{who} {slug} answer {id}: {}",
                reply.text
            ),
        }
    }
}

async fn check_dataset_consistency(dataset: Value, extra: &[(&str, &str, &str)]) {
    let server = TestServer::start(std::slice::from_ref(&dataset)).await;
    for caller in callers(&dataset, extra) {
        let client = caller.client(&server);
        for event in dataset["events"].as_array().unwrap() {
            let slug = event["slug"].as_str().unwrap();
            check_answer_consistency(&client, slug, event, &caller.who).await;
        }
    }
}

#[tokio::test]
async fn answers_equal_the_nested_answers_for_every_caller_of_democon() {
    check_dataset_consistency(democon(), &[]).await;
}

#[tokio::test]
async fn answers_equal_the_nested_answers_for_every_caller_of_edge() {
    check_dataset_consistency(edge(), &[EDGE_HASHONLY]).await;
}

#[tokio::test]
async fn answers_equal_the_nested_answers_for_every_caller_of_world() {
    check_dataset_consistency(world(), &[]).await;
}
