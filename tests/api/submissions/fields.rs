//! The field sets of submissions and their key order, per role
//! (behaviour.md §6: "Fields (all roles, in this order)").

use super::*;

#[tokio::test]
async fn field_sets_and_key_order_per_role() {
    let mut d = base();
    sub_mut(&mut d, "SUB2")["tags"] = json!([1]);
    sub_mut(&mut d, "SUB2")["resources"] =
        json!([{"resource": "https://files.mini.example/s.pdf", "description": "S"}]);
    list_of(mini_event(&mut d), "questions")
        .push(json!({"id": 1, "question": {"en": "Level"}, "is_public": true}));
    list_of(mini_event(&mut d), "answers").extend([
        json!({"id": 1, "question": 1, "answer": "High", "submission": "PUB1"}),
        json!({"id": 2, "question": 1, "answer": "Low", "submission": "SUB2"}),
    ]);
    let server = TestServer::start(&[d]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        for query in ["", "?questions=all", "?anon=1", "?questions=all&anon=yes"] {
            for path in ["submissions/", "talks"] {
                let reply = client.get(&format!("{EV}/{path}{query}")).await;
                assert_eq!(reply.status, 200, "{}", reply.text);
                let page = Ordered::parse(&reply.text);
                assert_eq!(page.keys(), ["count", "next", "previous", "results"]);
                for obj in page.get("results").items() {
                    assert_submission_keys(
                        obj,
                        caller.role,
                        &format!("{} {path}{query}", caller.name),
                    );
                }
            }
            let mut details = vec!["submissions/PUB1", "talks/PUB1/"];
            if caller.role != Public {
                details.push("submissions/SUB2/");
            }
            for path in details {
                let reply = client.get(&format!("{EV}/{path}{query}")).await;
                assert_eq!(reply.status, 200, "{}", reply.text);
                assert_submission_keys(
                    &Ordered::parse(&reply.text),
                    caller.role,
                    &format!("{} {path}{query}", caller.name),
                );
            }
        }
        // The nested answers really are there with questions=all (so their keys were checked).
        let pub1 = client
            .ok(&format!("{EV}/submissions/PUB1?questions=all"))
            .await;
        assert_eq!(
            pub1["answers"].as_array().unwrap().len(),
            1,
            "{}",
            caller.name
        );
    }
    // One organiser object, character for character in its key order.
    let reply = ORGANISER
        .client(&server)
        .get(&format!("{EV}/submissions/SUB2"))
        .await;
    let keys = Ordered::parse(&reply.text).keys().join(",");
    assert_eq!(
        keys,
        "code,speakers,title,submission_type,submission_type_id,track,track_id,state,abstract,\
         description,duration,slot_count,do_not_record,is_featured,content_locale,slot,image,\
         resources,answers,created,pending_state,notes,internal_notes,tags,tag_ids"
    );
}

#[tokio::test]
async fn a_reviewer_never_receives_organiser_fields() {
    // Even with organiser data present (notes, pending state) and in the anonymised view.
    let mut d = base();
    mini_event(&mut d)["review_phase"] = json!({"can_see_speaker_names": false});
    for code in ["PUB1", "SUB2", "SUB3"] {
        let s = sub_mut(&mut d, code);
        s["notes"] = json!("speaker note");
        s["internal_notes"] = json!("internal");
        s["pending_state"] = json!("accepted");
        s["tags"] = json!([1]);
    }
    let server = TestServer::start(&[d]).await;
    let reviewer = REVIEWER.client(&server);
    for path in ["submissions/", "submissions/SUB2", "talks/", "talks/PUB1"] {
        let reply = reviewer.get(&format!("{EV}/{path}")).await;
        for word in [
            "created",
            "pending_state",
            "notes",
            "internal_notes",
            "email",
            "speaker note",
            "internal",
        ] {
            assert!(
                !reply.text.contains(&format!("\"{word}")),
                "{path}: {word} in {}",
                reply.text
            );
        }
        assert!(
            reply.text.contains("\"tag_ids\":[1]"),
            "{path}: {}",
            reply.text
        );
        assert!(
            reply.text.contains("\"tags\":[\"hot.topic\"]"),
            "{path}: {}",
            reply.text
        );
    }
    // The public gets neither tags nor organiser fields.
    let reply = ANONYMOUS
        .client(&server)
        .get(&format!("{EV}/submissions/PUB1"))
        .await;
    for word in [
        "tags",
        "tag_ids",
        "created",
        "notes",
        "email",
        "pending_state",
    ] {
        assert!(
            !reply.text.contains(&format!("\"{word}\"")),
            "{word} in {}",
            reply.text
        );
    }
}
