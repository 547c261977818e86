//! Lookups, paths and errors of submissions and talks.

use super::*;

#[tokio::test]
async fn lookups_are_case_insensitive_and_show_the_stored_code() {
    let mut d = base();
    sub_mut(&mut d, "SUB3")["code"] = json!("aLow7");
    let server = TestServer::start(&[d]).await;
    let anon = server.anon();
    for path in [
        "/api/events/mini/submissions/pub1",
        "/api/events/mini/submissions/Pub1/",
        "/api/events/MINI/talks/pUB1",
        "/api/events/Mini/talks/pub1/",
    ] {
        assert_json(&anon.ok(path).await, &view(&mini_pub1(), Public), path);
    }
    let orga = ORGANISER.client(&server);
    for path in [
        "submissions/alow7",
        "submissions/ALOW7/",
        "submissions/aLow7",
    ] {
        assert_eq!(
            orga.ok(&format!("{EV}/{path}")).await["code"],
            "aLow7",
            "{path}"
        );
    }
    // Case-insensitivity does not widen the caller's set.
    assert_detail(
        &anon.get(&format!("{EV}/submissions/sub2")).await,
        404,
        "sub2 for the public",
    );
    assert_detail(
        &orga.get(&format!("{EV}/talks/Alow7")).await,
        404,
        "not a talk",
    );
    // The list shows stored codes in code-point order (upper case before lower case).
    assert_eq!(
        codes(&orga, &format!("{EV}/submissions")).await,
        strings(&["PUB1", "SUB2", "aLow7"])
    );
}

#[tokio::test]
async fn trailing_slash_is_optional_everywhere() {
    let server = TestServer::start(&[qa_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for path in [
            "submissions",
            "talks",
            "submissions/PUB1",
            "talks/PUB1",
            "submissions/nope",
            "talks/SUB2",
        ] {
            for query in ["", "?questions=all", "?questions=x"] {
                let without = client.get(&format!("{EV}/{path}{query}")).await;
                let with = client.get(&format!("{EV}/{path}/{query}")).await;
                assert_eq!(without.status, with.status, "{} {path}{query}", caller.name);
                assert_eq!(without.body, with.body, "{} {path}{query}", caller.name);
                assert_eq!(with.header("content-type"), Some("application/json"));
            }
        }
    }
    // Links echo the path as requested.
    let orga = ORGANISER.client(&server);
    for (path, query, next_pairs) in [
        (
            "submissions",
            "limit=1&state=submitted",
            vec![("limit", "1"), ("offset", "1"), ("state", "submitted")],
        ),
        (
            "submissions/",
            "page_size=1&state=submitted",
            vec![("page", "2"), ("page_size", "1"), ("state", "submitted")],
        ),
    ] {
        let page = orga.ok(&format!("{EV}/{path}?{query}")).await;
        let next = reqwest::Url::parse(page["next"].as_str().expect("a next link")).unwrap();
        assert_eq!(
            next.as_str().split('?').next().unwrap(),
            format!("{}{EV}/{path}", server.base),
            "{path}?{query}"
        );
        let mut pairs: Vec<(String, String)> = next
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        pairs.sort();
        let expected: Vec<(String, String)> = next_pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(pairs, expected, "{path}?{query}");
    }
}

#[tokio::test]
async fn detail_endpoints_ignore_list_parameters_but_validate_questions() {
    let server = TestServer::start(&[qa_dataset()]).await;
    let ignored =
        "state=bogus&page=99&page_size=-1&limit=x&offset=-1&is_featured=maybe&submission_type=abc\
                   &content_locale=xx&q=no%20such%20words";
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for path in ["submissions/PUB1", "talks/PUB1/"] {
            let plain = client.ok(&format!("{EV}/{path}")).await;
            let reply = client.get(&format!("{EV}/{path}?{ignored}")).await;
            assert_eq!(reply.status, 200, "{} {path}: {}", caller.name, reply.text);
            assert_json(&reply.body, &plain, &format!("{} {path}", caller.name));
            // questions still works and is still validated, alone.
            let with_answers = client
                .ok(&format!("{EV}/{path}?{ignored}&questions=all"))
                .await;
            let expected: Vec<Value> = visible_answers(&caller, "PUB1")
                .into_iter()
                .map(qa_answer)
                .collect();
            assert_json(
                &with_answers["answers"],
                &json!(expected),
                &format!("{} {path} answers", caller.name),
            );
            let reply = client
                .get(&format!("{EV}/{path}?{ignored}&questions=abc"))
                .await;
            assert_bad_parameters(&reply, &["questions"], &format!("{} {path}", caller.name));
        }
        // A code outside the set stays 404 whatever the parameters.
        let reply = client.get(&format!("{EV}/talks/SUB2?{ignored}")).await;
        assert_detail(&reply, 404, &format!("{} talks/SUB2", caller.name));
    }
}

#[tokio::test]
async fn unknown_or_invisible_events_are_403() {
    let mut d = base();
    mini_event(&mut d)["is_public"] = json!(false);
    let server = TestServer::start(&[d]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        for path in [
            "/api/events/nope/submissions/",
            "/api/events/nope/submissions",
            "/api/events/nope/talks/",
            "/api/events/nope/submissions/PUB1/",
            "/api/events/nope/talks/PUB1",
            "/api/events/nope/submissions/?state=bogus",
        ] {
            assert_detail(
                &client.get(path).await,
                403,
                &format!("{} {path}", caller.name),
            );
        }
        for path in [
            "submissions/",
            "talks",
            "submissions/PUB1",
            "talks/PUB1/",
            "submissions/?state=bogus&questions=x",
        ] {
            let reply = client.get(&format!("{EV}/{path}")).await;
            let context = format!("{} {path} of a non-public event", caller.name);
            if caller.role == Public {
                assert_detail(&reply, 403, &context);
            } else if path.contains("bogus") {
                assert_bad_parameters(&reply, &["state", "questions"], &context);
            } else {
                assert_eq!(reply.status, 200, "{context}: {}", reply.text);
            }
        }
    }
    // The same answer for an existing invisible event and a missing one.
    let anon = server.anon();
    assert_eq!(
        anon.get(&format!("{EV}/talks/")).await.body,
        anon.get("/api/events/nope/talks/").await.body
    );
    // In a non-public event nothing is a public talk, but a talk is still a talk.
    assert_eq!(
        codes(&ORGANISER.client(&server), &format!("{EV}/talks")).await,
        strings(&["PUB1"])
    );
}
