//! v1 questions and question options, for every role.

use super::{dataset, get, V1};
use crate::helpers::TestServer;
use serde_json::json;

#[tokio::test]
async fn v1_questions_and_options_for_every_role() {
    let server = TestServer::start(&[dataset()]).await;
    let public_level = json!({
        "id": 1, "question": {"en": "Level?"}, "help_text": {}, "default_answer": null,
        "variant": "choices", "target": "submission", "deadline": null, "freeze_after": null,
        "question_required": "optional", "position": 2, "tracks": [], "submission_types": [],
        "options": [10, 11], "min_length": null, "max_length": null, "min_number": null,
        "max_number": null, "min_date": null, "max_date": null, "min_datetime": null,
        "max_datetime": null, "icon": null, "identifier": null,
    });
    for token in [None, Some("nobody-token")] {
        let list = get(&server, token, "/api/events/mini/questions/", &[V1]).await;
        assert_eq!(list.body["results"], json!([public_level]), "{token:?}");
        assert_eq!(
            get(&server, token, "/api/events/mini/questions/2/", &[V1])
                .await
                .status,
            404
        );
        let options = get(&server, token, "/api/events/mini/question-options/", &[V1]).await;
        assert_eq!(
            options.body["results"],
            json!([{"id": 10, "question": 1, "answer": {"en": "Beginner"}, "position": 0, "identifier": null},
                   {"id": 11, "question": 1, "answer": {"en": "Expert"}, "position": 1, "identifier": null}])
        );
    }
    // Reviewers: questions shown to reviewers (2 is not), public fields.
    let reviewer = get(
        &server,
        Some("rev-token"),
        "/api/events/mini/questions/",
        &[V1],
    )
    .await;
    assert_eq!(reviewer.body["results"], json!([public_level]));
    // Organisers: every question, by position, options nested, and the flags.
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/",
        &[V1],
    )
    .await;
    let ids: Vec<_> = orga.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["id"].clone())
        .collect();
    assert_eq!(ids, vec![json!(2), json!(1)]);
    let level = &orga.body["results"][1];
    assert_eq!(
        level["options"],
        // pretalx 2026's organiser serializer nests options without `identifier`.
        json!([{"id": 10, "answer": {"en": "Beginner"}, "position": 0},
               {"id": 11, "answer": {"en": "Expert"}, "position": 1}])
    );
    // Expanded, the options as everyone gets them.
    let expanded = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/1/?expand=options",
        &[V1],
    )
    .await;
    assert_eq!(
        expanded.body["options"],
        json!([{"id": 10, "answer": {"en": "Beginner"}, "position": 0, "identifier": null},
               {"id": 11, "answer": {"en": "Expert"}, "position": 1, "identifier": null}])
    );
    assert_eq!(
        (
            &level["active"],
            &level["is_public"],
            &level["contains_personal_data"],
            &level["is_visible_to_reviewers"]
        ),
        (&json!(true), &json!(true), &json!(true), &json!(true))
    );
    // Filters, search, ordering, lang.
    let filtered = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?is_public=false&variant=string",
        &[V1],
    )
    .await;
    assert_eq!(filtered.body["count"], 1);
    assert_eq!(filtered.body["results"][0]["id"], 2);
    let searched = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?q=LEVEL&o=-id",
        &[V1],
    )
    .await;
    assert_eq!(searched.body["count"], 1);
    let ordered = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?o=-position",
        &[V1],
    )
    .await;
    assert_eq!(ordered.body["results"][0]["id"], 1);
    let lang = get(
        &server,
        None,
        "/api/events/mini/question-options/10/?lang=en",
        &[V1],
    )
    .await;
    assert_eq!(
        lang.body,
        json!({"id": 10, "question": 1, "answer": "Beginner", "position": 0, "identifier": null})
    );
    for (query, parameter) in [("variant=bogus", "variant"), ("target=review", "target")] {
        let reply = get(
            &server,
            None,
            &format!("/api/events/mini/questions/?{query}"),
            &[V1],
        )
        .await;
        assert_eq!(reply.status, 400, "{query}");
        assert!(
            reply.body.get(parameter).is_some(),
            "{query}: {}",
            reply.text
        );
    }
    let option_filter = get(
        &server,
        None,
        "/api/events/mini/question-options/?question=2",
        &[V1],
    )
    .await;
    assert_eq!(option_filter.body["count"], 0);
}
