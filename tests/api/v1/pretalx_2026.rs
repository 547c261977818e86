//! What scripts/e2e/pretalx_v1_diff.py found against pretalx 2026.2.1
//! (v2 and v1 alike): ties of an ordering in id order, slots of several
//! schedules in id order at the same start and room, nested speakers'
//! submissions in the submissions and slots views, the public's answer
//! detail (where confapi keeps its 404), and the answers' `speaker` filter.

use super::{dataset, get, submissions_dataset, V1};
use crate::helpers::TestServer;
use serde_json::{json, Value};

const V2: (&str, &str) = ("Pretalx-Version", "v2");

fn ids(body: &Value) -> Vec<i64> {
    body["results"]
        .as_array()
        .unwrap_or_else(|| panic!("no results: {body}"))
        .iter()
        .map(|item| item["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn ties_of_an_ordering_come_in_id_order() {
    // pretalx's OrderingFilter orders by the field alone: the database
    // gives ties by primary key, not in the list's default order.
    let mut dataset = dataset();
    let event = &mut dataset["events"][0];
    event["rooms"] = json!([
        {"id": 1, "name": {"en": "Steel"}, "capacity": 50, "position": 4},
        {"id": 2, "name": {"en": "Salmon"}, "capacity": 50, "position": 2},
        {"id": 3, "name": {"en": "Attic"}, "capacity": 10, "position": 3},
    ]);
    event["questions"][0]["is_public"] = json!(false);
    let server = TestServer::start(&[dataset]).await;
    for token in [None, Some("orga-token")] {
        for version in [V1, V2] {
            let default = get(&server, token, "/api/events/mini/rooms/", &[version]).await;
            assert_eq!(ids(&default.body), vec![2, 3, 1], "{token:?}");
            let by_capacity = get(
                &server,
                token,
                "/api/events/mini/rooms/?o=capacity",
                &[version],
            )
            .await;
            assert_eq!(ids(&by_capacity.body), vec![3, 1, 2], "{token:?}");
            let descending = get(
                &server,
                token,
                "/api/events/mini/rooms/?o=-capacity",
                &[version],
            )
            .await;
            assert_eq!(ids(&descending.body), vec![1, 2, 3], "{token:?}");
            // An unknown field keeps the default order.
            let unknown = get(
                &server,
                token,
                "/api/events/mini/rooms/?o=colour",
                &[version],
            )
            .await;
            assert_eq!(ids(&unknown.body), vec![2, 3, 1], "{token:?}");
        }
    }
    // Questions: default by position (2 before 1); ties of `o=is_public`
    // (neither is) by id.
    let questions = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/?o=is_public",
        &[V2],
    )
    .await;
    assert_eq!(ids(&questions.body), vec![1, 2]);
    let default = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/questions/",
        &[V2],
    )
    .await;
    assert_eq!(ids(&default.body), vec![2, 1]);
}

#[tokio::test]
async fn slots_at_the_same_start_and_room_come_in_id_order() {
    // pretalx orders slots by start and room position; copies of one slot
    // in several schedules tie, and come by primary key.
    let mut dataset = dataset();
    let event = &mut dataset["events"][0];
    event["schedule"]["id"] = json!(3);
    event["submissions"][0]["slots"][0]["id"] = json!(30);
    let copy = |id: i64| {
        json!({"id": id, "submission": "PUB1", "room": 1, "start": "2026-06-01T10:00:00+02:00",
               "end": "2026-06-01T10:30:00+02:00", "is_visible": true})
    };
    event["older_schedules"] = json!([{
        "id": 1, "version": "0.9", "published": "2026-04-01T10:00:00Z", "slots": [copy(10)]}]);
    event["wip_schedule"] = json!({"id": 4, "slots": [copy(5)]});
    let server = TestServer::start(&[dataset]).await;
    for version in [V1, V2] {
        let every = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/slots/?submission=PUB1",
            &[version],
        )
        .await;
        assert_eq!(every.status, 200, "{}", every.text);
        assert_eq!(ids(&every.body), vec![5, 10, 30]);
    }
}

#[tokio::test]
async fn speakers_nested_in_submissions_and_slots_list_no_submissions_even_expanded() {
    // pretalx 2026's speaker serializer gives its `submissions` only where
    // the view puts the caller's submissions in its context (the speakers
    // and reviews views): nested in a submission or a slot they are [],
    // `expand=speakers.submissions` or not.
    let server = TestServer::start(&[submissions_dataset()]).await;
    for version in [V1, V2] {
        for path in [
            "/api/events/mini/submissions/PUB1/?expand=speakers.submissions",
            "/api/events/mini/submissions/PUB1/?expand=speakers",
        ] {
            let reply = get(&server, Some("orga-token"), path, &[version]).await;
            assert_eq!(reply.status, 200, "{}", reply.text);
            assert_eq!(reply.body["speakers"][0]["code"], "SPK1", "{path}");
            assert_eq!(
                reply.body["speakers"][0]["submissions"],
                json!([]),
                "{path}"
            );
        }
        let slots = get(
            &server,
            None,
            "/api/events/mini/slots/?expand=submission.speakers.submissions",
            &[version],
        )
        .await;
        assert_eq!(slots.status, 200, "{}", slots.text);
        let speaker = &slots.body["results"][0]["submission"]["speakers"][0];
        assert_eq!(
            (speaker["code"].clone(), speaker["submissions"].clone()),
            (json!("SPK1"), json!([]))
        );
        // The speakers view still nests them, expanded.
        let speakers = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/speakers/SPK1/?expand=submissions",
            &[version],
        )
        .await;
        let codes: Vec<_> = speakers.body["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["code"].clone())
            .collect();
        assert_eq!(codes, vec![json!("PUB1"), json!("SUB3")]);
    }
}

#[tokio::test]
async fn the_publics_answer_detail_is_refused_as_one_of_no_answer() {
    // pretalx 2026 looks the answer up among the answers to questions the
    // caller can see, then asks for credentials: a 401 for an answer to a
    // public question, a 404 for any other id, which tells the public that
    // the id exists. confapi answers every id as one of no answer (404):
    // scripts/e2e/pretalx_v1_diff.py, normalisation 25.
    let mut dataset = submissions_dataset();
    // An answer to the public question on a proposal the public does not see.
    dataset["events"][0]["answers"].as_array_mut().unwrap().push(
        json!({"id": 7, "question": 1, "answer": "Expert", "options": [11], "submission": "SUB2"}),
    );
    let server = TestServer::start(&[dataset]).await;
    for version in [V1, V2] {
        for id in ["5", "6", "7", "999", "abc"] {
            let reply = get(
                &server,
                None,
                &format!("/api/events/mini/answers/{id}/"),
                &[version],
            )
            .await;
            assert_eq!(
                (reply.status, reply.body.clone()),
                (404, json!({"detail": "Not found."})),
                "{id}"
            );
        }
        // Other callers: the reviewer and a stranger 403, the organiser
        // the answer.
        for token in ["rev-token", "nobody-token"] {
            let refused = get(
                &server,
                Some(token),
                "/api/events/mini/answers/5/",
                &[version],
            )
            .await;
            assert_eq!(refused.status, 403, "{token}: {}", refused.text);
        }
        let orga = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/answers/5/",
            &[version],
        )
        .await;
        assert_eq!(orga.body["id"], 5, "{}", orga.text);
    }
}

#[tokio::test]
async fn answers_filter_by_speaker_and_by_person() {
    // pretalx 2026 renamed the filter `person` to `speaker` (the field is
    // still `person`); confapi takes both, so that a client written for
    // pretalx 2025 gets what it asks for.
    let mut dataset = submissions_dataset();
    let event = &mut dataset["events"][0];
    event["questions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": 3, "variant": "string", "target": "speaker",
                     "question": {"en": "Shirt size?"}, "position": 3}));
    event["answers"].as_array_mut().unwrap().extend([
        json!({"id": 8, "question": 3, "answer": "M", "person": "SPK1"}),
        json!({"id": 9, "question": 3, "answer": "L", "person": "SPK2"}),
    ]);
    let server = TestServer::start(&[dataset]).await;
    for version in [V1, V2] {
        for query in ["speaker=SPK1", "speaker=spk1", "person=SPK1", "person=spk1"] {
            let reply = get(
                &server,
                Some("orga-token"),
                &format!("/api/events/mini/answers/?{query}"),
                &[version],
            )
            .await;
            assert_eq!(reply.status, 200, "{query}: {}", reply.text);
            assert_eq!(
                reply.body["results"],
                json!([{"id": 8, "question": 3, "answer": "M", "answer_file": null,
                        "submission": null, "review": null, "person": "SPK1", "options": []}]),
                "{query}"
            );
        }
        let nobody = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/answers/?speaker=NOPE",
            &[version],
        )
        .await;
        assert_eq!(ids(&nobody.body), Vec::<i64>::new());
        let both = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/answers/?speaker=SPK1&person=SPK2",
            &[version],
        )
        .await;
        assert_eq!(ids(&both.body), Vec::<i64>::new(), "both filters apply");
    }
}

#[tokio::test]
async fn a_speaker_without_biography_has_a_null_one() {
    // pretalx stores an empty biography as NULL (a nullable field, and
    // Django's forms write None for it) and shows null, as 2026's
    // add_speaker leaves a co-speaker's; the dataset's "" is that.
    let mut dataset = submissions_dataset();
    dataset["events"][0]["speakers"][1]["biography"] = json!("");
    let server = TestServer::start(&[dataset]).await;
    for version in [V1, V2] {
        for token in [Some("rev-token"), Some("orga-token")] {
            let bob = get(
                &server,
                token,
                "/api/events/mini/speakers/SPK2/",
                &[version],
            )
            .await;
            assert_eq!(bob.status, 200, "{}", bob.text);
            assert_eq!(bob.body["biography"], Value::Null, "{}", bob.text);
            let ada = get(
                &server,
                token,
                "/api/events/mini/speakers/SPK1/",
                &[version],
            )
            .await;
            assert_eq!(ada.body["biography"], "Ada's bio", "{}", ada.text);
        }
        let nested = get(
            &server,
            Some("orga-token"),
            "/api/events/mini/submissions/SUB3/?expand=speakers",
            &[version],
        )
        .await;
        let bios: Vec<_> = nested.body["speakers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["biography"].clone())
            .collect();
        assert_eq!(
            bios,
            vec![json!("Ada's bio"), Value::Null],
            "{}",
            nested.text
        );
    }
    // The legacy API keeps its "" (behaviour.md).
    let legacy = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/speakers/SPK2/",
        &[],
    )
    .await;
    assert_eq!(legacy.body["biography"], "", "{}", legacy.text);
}

#[tokio::test]
async fn a_track_limited_reviewer_sees_only_their_tracks_submissions_and_speakers() {
    // pretalx's versioned lists and details show a reviewer the submissions
    // they may review and their speakers, not the other public talks
    // (pretalx-v1.md section 7); the legacy API keeps behaviour.md's rule.
    // PUB1 (the public talk) is in track 1; the reviewers' team is limited
    // to track 2, where SUB2 is.
    let mut dataset = submissions_dataset();
    let event = &mut dataset["events"][0];
    event["tracks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": 2, "name": {"en": "Side"}, "color": "#00ff00"}));
    event["submissions"][1]["track"] = json!(2);
    event["teams"][1]["limit_tracks"] = json!([2]);
    let server = TestServer::start(&[dataset]).await;
    for version in [V1, V2] {
        let subs = get(
            &server,
            Some("rev-token"),
            "/api/events/mini/submissions/",
            &[version],
        )
        .await;
        assert_eq!(subs.status, 200, "{}", subs.text);
        let codes: Vec<_> = subs.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["code"].clone())
            .collect();
        assert_eq!(codes, vec![json!("SUB2")], "{}", subs.text);
        let public_talk = get(
            &server,
            Some("rev-token"),
            "/api/events/mini/submissions/PUB1/",
            &[version],
        )
        .await;
        assert_eq!(public_talk.status, 404, "{}", public_talk.text);
        let speakers = get(
            &server,
            Some("rev-token"),
            "/api/events/mini/speakers/",
            &[version],
        )
        .await;
        let codes: Vec<_> = speakers.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["code"].clone())
            .collect();
        assert_eq!(codes, vec![json!("SPK2")], "{}", speakers.text);
        assert_eq!(speakers.body["results"][0]["submissions"], json!(["SUB2"]));
        let ada = get(
            &server,
            Some("rev-token"),
            "/api/events/mini/speakers/SPK1/",
            &[version],
        )
        .await;
        assert_eq!(ada.status, 404, "{}", ada.text);
        // The public schedule stays theirs: the slots list the public talk.
        let slots = get(
            &server,
            Some("rev-token"),
            "/api/events/mini/slots/",
            &[version],
        )
        .await;
        assert_eq!(
            slots.body["results"][0]["submission"], "PUB1",
            "{}",
            slots.text
        );
    }
    // The legacy API: the public talk too.
    let legacy = get(
        &server,
        Some("rev-token"),
        "/api/events/mini/submissions/",
        &[],
    )
    .await;
    assert!(legacy.text.contains("PUB1"), "{}", legacy.text);
}
