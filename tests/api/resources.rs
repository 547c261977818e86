//! Private resources (`is_public: false`): organisers see them, nobody
//! else does, through any path that shows resources: submission and talk
//! lists and details, the schedule exports, and the response cache that
//! serves all of them. And the dataset keeps the flag through an import and
//! an export.

use crate::helpers::{self, mini, Reply, TestServer, NOT_ORGANISERS};

use serde_json::{json, Value};

const SLIDES: &str = "https://mini.example/slides.pdf";
const NOTES: &str = "https://mini.example/notes-for-orga.txt";
const DRAFT_SLIDES: &str = "https://mini.example/draft.pdf";
const DRAFT_NOTES: &str = "https://mini.example/draft-notes.txt";

/// mini() with a public and a private resource on the public talk `PUB1`
/// and on the proposal `SUB2` (which reviewers see).
fn dataset() -> Value {
    let mut dataset = mini();
    let subs = &mut dataset["events"][0]["submissions"];
    subs[0]["resources"] = json!([
        {"resource": SLIDES, "description": "Slides"},
        {"resource": NOTES, "description": "Notes", "is_public": false},
    ]);
    subs[1]["resources"] = json!([
        {"resource": DRAFT_NOTES, "description": "Draft notes", "is_public": false},
        {"resource": DRAFT_SLIDES, "description": "Draft slides", "is_public": true},
    ]);
    dataset
}

fn public_talk_resources() -> Value {
    json!([{"resource": SLIDES, "description": "Slides"}])
}

fn every_talk_resource() -> Value {
    json!([
        {"resource": SLIDES, "description": "Slides"},
        {"resource": NOTES, "description": "Notes"},
    ])
}

async fn get(server: &TestServer, token: Option<&str>, path: &str) -> Reply {
    match token {
        Some(token) => server.token(token).get(path).await,
        None => server.anon().get(path).await,
    }
}

/// `resources` of the item with `code` in a list answer.
fn resources_in_list(reply: &Reply, code: &str) -> Value {
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["code"] == code)
        .unwrap_or_else(|| panic!("{code} not listed: {}", reply.text))["resources"]
        .clone()
}

#[tokio::test]
async fn the_api_shows_private_resources_only_to_organisers() {
    let server = TestServer::start(&[dataset()]).await;
    for path in ["/api/events/mini/talks/", "/api/events/mini/submissions/"] {
        for token in NOT_ORGANISERS {
            let reply = get(&server, token, path).await;
            assert_eq!(
                resources_in_list(&reply, "PUB1"),
                public_talk_resources(),
                "{path} as {token:?}"
            );
        }
        let reply = get(&server, Some("orga-token"), path).await;
        assert_eq!(
            resources_in_list(&reply, "PUB1"),
            every_talk_resource(),
            "{path}"
        );
    }
    for path in [
        "/api/events/mini/talks/PUB1/",
        "/api/events/mini/submissions/pub1/",
    ] {
        for token in NOT_ORGANISERS {
            let reply = get(&server, token, path).await;
            assert_eq!(reply.status, 200, "{path} as {token:?}: {}", reply.text);
            assert_eq!(
                reply.body["resources"],
                public_talk_resources(),
                "{path} as {token:?}"
            );
        }
        let reply = get(&server, Some("orga-token"), path).await;
        assert_eq!(reply.body["resources"], every_talk_resource(), "{path}");
    }
}

#[tokio::test]
async fn reviewers_see_the_public_resources_of_proposals_only() {
    let server = TestServer::start(&[dataset()]).await;
    let draft = json!([{"resource": DRAFT_SLIDES, "description": "Draft slides"}]);
    let reviewer = get(&server, Some("rev-token"), "/api/events/mini/submissions/").await;
    assert_eq!(resources_in_list(&reviewer, "SUB2"), draft);
    for path in [
        "/api/events/mini/submissions/SUB2/",
        "/api/events/mini/submissions/SUB2/?anon=1",
        "/api/events/mini/submissions/SUB2/?questions=all",
    ] {
        let reply = get(&server, Some("rev-token"), path).await;
        assert_eq!(reply.body["resources"], draft, "{path}");
    }
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/submissions/SUB2/",
    )
    .await;
    assert_eq!(
        orga.body["resources"],
        json!([
            {"resource": DRAFT_NOTES, "description": "Draft notes"},
            {"resource": DRAFT_SLIDES, "description": "Draft slides"},
        ])
    );
}

/// The answer cache is shared by callers of one class: whoever asks first,
/// the public never gets the organisers' answer, nor the reverse.
#[tokio::test]
async fn a_cached_organiser_answer_is_never_served_to_the_public() {
    let server = TestServer::start(&[dataset()]).await;
    let paths = [
        "/api/events/mini/talks/",
        "/api/events/mini/talks/PUB1/",
        "/api/events/mini/submissions/",
        "/mini/schedule.json",
        "/mini/schedule.xml",
    ];
    for path in paths {
        for _ in 0..2 {
            let orga = get(&server, Some("orga-token"), path).await;
            assert!(orga.text.contains(NOTES), "{path}: {}", orga.text);
            for token in NOT_ORGANISERS {
                let other = get(&server, token, path).await;
                assert_eq!(other.status, 200, "{path} as {token:?}");
                assert!(
                    !other.text.contains(NOTES),
                    "{path} as {token:?}: {}",
                    other.text
                );
                assert!(other.text.contains(SLIDES), "{path} as {token:?}");
                assert_ne!(
                    other.header("etag"),
                    orga.header("etag"),
                    "{path} as {token:?}"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_schedule_exports_link_private_resources_only_for_organisers() {
    let server = TestServer::start(&[dataset()]).await;
    let slides = json!({"url": SLIDES, "title": "Slides"});
    let notes = json!({"url": NOTES, "title": "Notes"});
    let frab_links = |reply: &Reply| -> Value {
        let body: Value = serde_json::from_str(&reply.text).unwrap();
        body["schedule"]["conference"]["days"][0]["rooms"]["Hall"][0]["links"].clone()
    };
    for token in NOT_ORGANISERS {
        let json = get(&server, token, "/mini/schedule.json").await;
        assert_eq!(json.status, 200, "{token:?}");
        assert_eq!(frab_links(&json), json!([slides]), "{token:?}");
        let xml = get(&server, token, "/mini/schedule.xml").await;
        assert!(
            xml.text.contains(&format!(
                "<links>\n          <link href=\"{SLIDES}\">Slides</link>\n        </links>"
            )),
            "{token:?}: {}",
            xml.text
        );
        for path in [
            "/mini/schedule.xcal",
            "/mini/schedule.ics",
            "/mini/schedule/widgets/schedule.json",
            "/mini/schedule/widget/v2.json",
            "/mini/schedule/feed.xml",
            "/mini/talk/PUB1.ics",
            "/mini/speaker/SPK1/talks.ics",
        ] {
            let reply = get(&server, token, path).await;
            assert_eq!(reply.status, 200, "{path} as {token:?}");
            assert!(!reply.text.contains(NOTES), "{path} as {token:?}");
        }
    }
    let json = get(&server, Some("orga-token"), "/mini/schedule.json").await;
    assert_eq!(frab_links(&json), json!([slides, notes]));
    let xml = get(&server, Some("orga-token"), "/mini/schedule.xml").await;
    assert!(
        xml.text.contains(&format!(
            "<links>\n          <link href=\"{SLIDES}\">Slides</link>\n          \
             <link href=\"{NOTES}\">Notes</link>\n        </links>"
        )),
        "{}",
        xml.text
    );
}

#[tokio::test]
async fn a_talk_with_only_private_resources_shows_the_public_no_links() {
    let mut dataset = dataset();
    dataset["events"][0]["submissions"][0]["resources"] =
        json!([{"resource": NOTES, "description": "Notes", "is_public": false}]);
    let server = TestServer::start(&[dataset]).await;
    let talk = get(&server, None, "/api/events/mini/talks/PUB1/").await;
    assert_eq!(talk.body["resources"], json!([]));
    let xml = get(&server, None, "/mini/schedule.xml").await;
    assert!(xml.text.contains("<links></links>"), "{}", xml.text);
    assert!(!xml.text.contains(NOTES));
}

#[tokio::test]
async fn the_flag_survives_an_import_and_an_export() {
    let server = TestServer::start(&[dataset()]).await;
    let exported = confapi::dataset::export::to_json(&server.store.export(&[]).await.unwrap());
    let subs = &exported["events"][0]["submissions"];
    // `is_public` is written only where it is false: today's datasets keep
    // their bytes.
    assert_eq!(
        subs[0]["resources"],
        json!([
            {"resource": SLIDES, "description": "Slides"},
            {"resource": NOTES, "description": "Notes", "is_public": false},
        ])
    );
    assert_eq!(
        subs[1]["resources"],
        json!([
            {"resource": DRAFT_NOTES, "description": "Draft notes", "is_public": false},
            {"resource": DRAFT_SLIDES, "description": "Draft slides"},
        ])
    );
    // The export imports back to the same data.
    let again = helpers::TestServer::start(std::slice::from_ref(&exported)).await;
    let twice = confapi::dataset::export::to_json(&again.store.export(&[]).await.unwrap());
    assert_eq!(twice, exported);
}

#[test]
fn a_flag_that_is_not_a_boolean_is_named_with_its_path() {
    let mut dataset = dataset();
    dataset["events"][0]["submissions"][0]["resources"][1]["is_public"] = json!("no");
    let problems = confapi::dataset::validate::parse_value(&dataset).unwrap_err();
    let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("events[0].submissions[0].resources[1].is_public: "),
        "{lines:?}"
    );
}
