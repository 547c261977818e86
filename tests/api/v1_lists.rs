//! A v1 list renders each item exactly as its detail does, for every role
//! and with pytanis's whole expansion: the list's shortcuts (the speakers'
//! users read from the catalog's table, expanded questions serialised once
//! per page) change no byte.

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
