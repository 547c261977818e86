//! A v1 list renders each item exactly as its detail does, for every role
//! and with pytanis's whole expansion: the list's shortcuts (the speakers'
//! users read from the catalog's table, expanded questions, tracks,
//! submission types, tags and rooms serialised once per page and written
//! as raw JSON, the page prefetched) change no byte, also where `fields`
//! or `omit` shape the items.

use crate::helpers::{democon, democon_tokens, TestServer};
use serde_json::Value;

const V1: (&str, &str) = ("Pretalx-Version", "v1");
const PYTANIS_EXPAND: &str = "answers,answers.question,answers.options,resources,slots,slots.room,\
speakers,speakers.answers,speakers.answers.options,submission_type,tags,track";

#[tokio::test]
async fn list_items_equal_their_details_for_every_role_with_pytanis_expand() {
    let server = TestServer::start(&[democon()]).await;
    let callers = [
        ("anonymous", None),
        ("organiser", Some(democon_tokens::ORGA)),
        ("reviewer", Some(democon_tokens::REVIEWER)),
        ("track reviewer", Some(democon_tokens::TRACK_REVIEWER)),
    ];
    for (role, token) in callers {
        let client = match token {
            Some(token) => server.token(token),
            None => server.anon(),
        };
        for (list, key) in [("submissions", "code"), ("speakers", "code")] {
            let expand = if list == "submissions" {
                PYTANIS_EXPAND
            } else {
                "answers,answers.question,answers.options,submissions"
            };
            let page = client
                .request(
                    "GET",
                    &format!("/api/events/democon/{list}/?page_size=250&expand={expand}"),
                    &[V1],
                )
                .await;
            assert_eq!(page.status, 200, "{role} {list}: {}", page.text);
            let items = page.body["results"].as_array().expect("results");
            assert!(!items.is_empty(), "{role} {list}");
            let expanded_questions = items
                .iter()
                .flat_map(|item| item["answers"].as_array().into_iter().flatten())
                .filter(|answer| answer["question"].is_object())
                .count();
            if role == "organiser" {
                assert!(expanded_questions > 10, "{list}: {expanded_questions}");
            }
            for item in items {
                let code = item[key].as_str().expect("code");
                let detail = client
                    .request(
                        "GET",
                        &format!("/api/events/democon/{list}/{code}/?expand={expand}"),
                        &[V1],
                    )
                    .await;
                assert_eq!(detail.status, 200, "{role} {list}/{code}");
                assert_eq!(&detail.body, item as &Value, "{role} {list}/{code}");
            }
        }
    }
}

#[tokio::test]
async fn shaped_list_items_equal_their_shaped_details() {
    let server = TestServer::start(&[democon()]).await;
    let client = server.token(democon_tokens::ORGA);
    for shape in [
        "omit=abstract,description",
        "fields=code,answers,track,tags,slots",
    ] {
        let page = client
            .request(
                "GET",
                &format!("/api/events/democon/submissions/?page_size=250&expand={PYTANIS_EXPAND}&{shape}"),
                &[V1],
            )
            .await;
        assert_eq!(page.status, 200, "{shape}: {}", page.text);
        let items = page.body["results"].as_array().expect("results");
        assert!(items.len() > 10, "{shape}");
        for item in items {
            let code = item["code"].as_str().expect("code");
            let detail = client
                .request(
                    "GET",
                    &format!(
                        "/api/events/democon/submissions/{code}/?expand={PYTANIS_EXPAND}&{shape}"
                    ),
                    &[V1],
                )
                .await;
            assert_eq!(detail.status, 200, "{shape} {code}");
            assert_eq!(&detail.body, item as &Value, "{shape} {code}");
            assert!(item.get("abstract").is_none(), "{shape} {code}");
        }
        // The expanded objects are objects, not JSON text in a string.
        let tracked = items.iter().find(|item| item["track"].is_object());
        assert!(tracked.is_some(), "{shape}: no expanded track");
        let first_answer = items
            .iter()
            .flat_map(|item| item["answers"].as_array().into_iter().flatten())
            .next()
            .expect("an answer");
        assert!(
            first_answer["question"]["id"].is_i64(),
            "{shape}: {first_answer}"
        );
    }
}
