//! The `questions` parameter: answers nested in submissions under the
//! single answer-visibility rule.

use super::*;

#[tokio::test]
async fn questions_all_follows_the_single_answer_visibility_rule() {
    let server = TestServer::start(&[qa_dataset()]).await;
    let callers = [
        ANONYMOUS,
        NOBODY,
        HELPER,
        REVIEWER,
        SIDE_REVIEWER,
        ORGANISER,
        ADMIN,
    ];
    for caller in callers {
        let client = caller.client(&server);
        for resource in ["submissions", "talks"] {
            let results = client.all(&format!("{EV}/{resource}/?questions=all")).await;
            assert!(!results.is_empty());
            for obj in &results {
                let code = obj["code"].as_str().unwrap();
                let expected: Vec<Value> = visible_answers(&caller, code)
                    .into_iter()
                    .map(qa_answer)
                    .collect();
                let context = format!("{}: /{resource} {code}", caller.name);
                assert_json(&obj["answers"], &json!(expected), &context);
                let detail = client
                    .ok(&format!("{EV}/{resource}/{code}?questions=all"))
                    .await;
                assert_json(
                    &detail["answers"],
                    &json!(expected),
                    &format!("{context} (detail)"),
                );
            }
        }
    }
}

#[tokio::test]
async fn questions_absent_or_empty_gives_no_answers() {
    let server = TestServer::start(&[qa_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for query in [
            "",
            "?questions=",
            "?questions=all&questions=",
            "?state=&questions=",
        ] {
            for path in ["submissions/", "talks/"] {
                for obj in client.all(&format!("{EV}/{path}{query}")).await {
                    assert_json(
                        &obj["answers"],
                        &json!([]),
                        &format!("{} {path}{query}", caller.name),
                    );
                }
            }
            let detail = client.ok(&format!("{EV}/submissions/PUB1{query}")).await;
            assert_json(
                &detail["answers"],
                &json!([]),
                &format!("{} detail {query}", caller.name),
            );
        }
    }
}

#[tokio::test]
async fn questions_id_lists_select_answers_and_unknown_ids_give_none() {
    let server = TestServer::start(&[qa_dataset()]).await;
    let answers = |ids: &[i64]| json!(ids.iter().map(|&id| qa_answer(id)).collect::<Vec<_>>());
    for (caller, query, pub1, sub2) in [
        (ORGANISER, "1,3", &[101, 103][..], &[106, 108][..]),
        (ORGANISER, "3,1", &[101, 103], &[106, 108]),
        (ORGANISER, "4", &[104], &[]),
        (ORGANISER, "1,1,5", &[101, 105], &[106, 109]),
        (REVIEWER, "1,3", &[101], &[106]),
        (REVIEWER, "3", &[], &[]),
        (REVIEWER, "5,2", &[102, 105], &[107]),
        (SIDE_REVIEWER, "2,5", &[105], &[]),
        (ANONYMOUS, "1,2,3,4,5", &[101, 105], &[]),
        (ORGANISER, "6", &[], &[]),
        (ORGANISER, "999", &[], &[]),
        (ORGANISER, "0", &[], &[]),
        (ORGANISER, "00001", &[101], &[106]),
        (ORGANISER, "99999999999999999999999", &[], &[]),
    ] {
        let client = caller.client(&server);
        let context = format!("{} questions={query}", caller.name);
        let reply = client
            .get(&format!("{EV}/submissions/PUB1?questions={query}"))
            .await;
        assert_eq!(reply.status, 200, "{context}: {}", reply.text);
        assert_json(&reply.body["answers"], &answers(pub1), &context);
        assert_json(
            &client
                .ok(&format!("{EV}/talks/PUB1/?questions={query}"))
                .await["answers"],
            &answers(pub1),
            &context,
        );
        if caller.role != Public && caller.token != SIDE_REVIEWER.token {
            let sub2_obj = client
                .ok(&format!("{EV}/submissions/SUB2?questions={query}"))
                .await;
            assert_json(&sub2_obj["answers"], &answers(sub2), &context);
        }
        let list = client
            .ok(&format!("{EV}/submissions?questions={query}"))
            .await;
        assert_json(
            &list["results"][0]["answers"],
            &answers(pub1),
            &format!("{context} (list)"),
        );
    }
}

#[tokio::test]
async fn malformed_questions_is_400_on_every_endpoint() {
    let server = TestServer::start(&[qa_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for value in [
            "abc", "1,", " 1", "1 ", "all,1", "-1", ",1", "1,,2", "1.5", "+1", "1;2", "ALL", "al",
            "1,all",
        ] {
            for path in [
                "submissions",
                "submissions/",
                "talks",
                "talks/",
                "submissions/PUB1",
                "talks/PUB1/",
            ] {
                let reply = client
                    .get(&format!("{EV}/{path}?questions={}", enc(value)))
                    .await;
                assert_bad_parameters(
                    &reply,
                    &["questions"],
                    &format!("{} {path}?questions={value:?}", caller.name),
                );
            }
        }
    }
}
