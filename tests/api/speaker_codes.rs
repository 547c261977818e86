//! pretalx 2026's per-event speaker codes (dataset.md, speaker profile
//! `code`): one person, Ada (user SPK1), goes by ADA26 in `mini` and by her
//! user code in `mini2`. Every dialect and export of each event shows the
//! code that event knows her by, with her name.

use serde_json::{json, Value};

use crate::helpers::{mini, TestServer};

const V1: (&str, &str) = ("Pretalx-Version", "v1");

fn dataset() -> Value {
    let mut dataset = mini();
    let mut second = dataset["events"][0].clone();
    let event = &mut dataset["events"][0];
    event["speakers"][0]["code"] = json!("ADA26");
    event["submissions"][0]["speakers"] = json!(["ADA26"]);
    event["submissions"][2]["speakers"] = json!(["ADA26", "SPK2"]);
    event["questions"] = json!([{"id": 1, "target": "speaker", "question": {"en": "Shirt?"},
                                 "is_public": true}]);
    event["answers"] = json!([{"id": 1, "question": 1, "answer": "M", "person": "ADA26"}]);
    // The same event again under another slug, Ada by her user code.
    second["slug"] = json!("mini2");
    for (i, sub) in second["submissions"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        sub["code"] = json!(format!("TWO{i}"));
    }
    second["submission_types"][0]["id"] = json!(2);
    second["tracks"][0]["id"] = json!(2);
    second["rooms"][0]["id"] = json!(2);
    second["tags"][0]["id"] = json!(2);
    for sub in second["submissions"].as_array_mut().unwrap() {
        sub["submission_type"] = json!(2);
        if !sub["track"].is_null() {
            sub["track"] = json!(2);
        }
        for slot in sub
            .get_mut("slots")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            slot["room"] = json!(2);
        }
    }
    dataset["events"].as_array_mut().unwrap().push(second);
    dataset
}

fn codes(list: &Value) -> Vec<&str> {
    let items = list.get("results").unwrap_or(list);
    items
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|s| s["code"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn each_event_shows_the_code_it_knows_the_speaker_by() {
    let server = TestServer::start(&[dataset()]).await;
    for (client, hers) in [
        (server.anon(), vec!["PUB1"]),
        (server.token("orga-token"), vec!["PUB1", "SUB3"]),
    ] {
        for version in [&[][..], &[V1][..]] {
            let speakers = client
                .request("GET", "/api/events/mini/speakers/", version)
                .await;
            assert_eq!(speakers.status, 200, "{}", speakers.text);
            assert!(
                codes(&speakers.body).contains(&"ADA26"),
                "{}",
                speakers.text
            );
            assert!(!speakers.text.contains("SPK1"), "{}", speakers.text);
            let ada = client
                .request("GET", "/api/events/mini/speakers/ADA26/", version)
                .await;
            assert_eq!(
                (
                    ada.status,
                    ada.body["code"].clone(),
                    ada.body["name"].clone()
                ),
                (200, json!("ADA26"), json!("Ada Speaker")),
                "{}",
                ada.text
            );
            let lower = client
                .request("GET", "/api/events/mini/speakers/ada26/", version)
                .await;
            assert_eq!(lower.body["code"], "ADA26", "{}", lower.text);
            let by_user = client
                .request("GET", "/api/events/mini/speakers/SPK1/", version)
                .await;
            assert_eq!(by_user.status, 404, "{}", by_user.text);
            // In the other event she goes by her user code.
            let elsewhere = client
                .request("GET", "/api/events/mini2/speakers/SPK1/", version)
                .await;
            assert_eq!(
                (elsewhere.status, elsewhere.body["name"].clone()),
                (200, json!("Ada Speaker")),
                "{}",
                elsewhere.text
            );
        }
        // The legacy talk nests the speaker with that code and her name.
        let talk = client
            .request("GET", "/api/events/mini/talks/PUB1/", &[])
            .await;
        assert_eq!(talk.status, 200, "{}", talk.text);
        assert_eq!(talk.body["speakers"][0]["code"], "ADA26", "{}", talk.text);
        assert_eq!(talk.body["speakers"][0]["name"], "Ada Speaker");
        // v1: codes, and expanded speakers.
        let expanded = client
            .request(
                "GET",
                "/api/events/mini/submissions/PUB1/?expand=speakers",
                &[V1],
            )
            .await;
        assert_eq!(
            expanded.body["speakers"][0]["code"], "ADA26",
            "{}",
            expanded.text
        );
        assert_eq!(expanded.body["speakers"][0]["name"], "Ada Speaker");
        let plain = client
            .request("GET", "/api/events/mini/submissions/PUB1/", &[V1])
            .await;
        assert_eq!(plain.body["speakers"], json!(["ADA26"]), "{}", plain.text);
        // Searches by her name find her talk.
        let found = client
            .request("GET", "/api/events/mini/submissions/?q=ada", &[V1])
            .await;
        assert_eq!(codes(&found.body), hers, "{}", found.text);
    }
    let orga = server.token("orga-token");
    let answers = orga
        .request("GET", "/api/events/mini/answers/?speaker=ADA26", &[V1])
        .await;
    assert_eq!(
        answers.body["results"][0]["person"], "ADA26",
        "{}",
        answers.text
    );
    let detail = orga
        .request("GET", "/api/events/mini/speakers/ADA26/", &[V1])
        .await;
    assert_eq!(detail.body["email"], "ada@mini.example", "{}", detail.text);
    assert_eq!(detail.body["answers"], json!([1]), "{}", detail.text);
}

#[tokio::test]
async fn the_exports_show_the_events_code_with_the_persons_name() {
    let server = TestServer::start(&[dataset()]).await;
    let anon = server.anon();
    let frab = anon
        .request("GET", "/mini/schedule/export/schedule.json", &[])
        .await;
    assert_eq!(frab.status, 200, "{}", frab.text);
    let talk = &frab.body["schedule"]["conference"]["days"][0]["rooms"]["Hall"][0];
    assert_eq!(talk["persons"][0]["code"], "ADA26", "{}", frab.text);
    assert_eq!(talk["persons"][0]["public_name"], "Ada Speaker");
    assert_eq!(talk["persons"][0]["biography"], "Ada's bio");
    let xml = anon
        .request("GET", "/mini/schedule/export/schedule.xml", &[])
        .await;
    assert!(xml.text.contains("Ada Speaker"), "{}", xml.text);
    let widget = anon
        .request("GET", "/mini/schedule/widgets/schedule.json", &[])
        .await;
    assert!(widget.text.contains("\"ADA26\""), "{}", widget.text);
    assert!(!widget.text.contains("SPK1"), "{}", widget.text);
    let ical = anon
        .request("GET", "/mini/speaker/ADA26/talks.ics", &[])
        .await;
    assert_eq!(ical.status, 200, "{}", ical.text);
    assert!(ical.text.contains("Public Talk"), "{}", ical.text);
    let other = anon
        .request("GET", "/mini2/speaker/SPK1/talks.ics", &[])
        .await;
    assert_eq!(other.status, 200, "{}", other.text);
}

#[tokio::test]
async fn an_organiser_who_speaks_under_a_code_of_their_own_sees_no_reviews_of_it() {
    // The organiser never sees the reviews of their own submissions: their
    // profile going by another code changes nothing.
    let mut dataset = dataset();
    let event = &mut dataset["events"][0];
    event["speakers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"user": "ORGA", "code": "OLGA26", "biography": "Organiser, speaking"}));
    event["submissions"][1]["speakers"] = json!(["SPK2", "OLGA26"]);
    event["reviews"] = json!([
        {"id": 7, "submission": "SUB2", "user": "REV", "text": "Good", "score": 2.0,
         "created": "2026-04-01T10:00:00Z"},
        {"id": 8, "submission": "SUB3", "user": "REV", "text": "Fine", "score": 1.0,
         "created": "2026-04-01T10:00:00Z"},
    ]);
    let server = TestServer::start(&[dataset]).await;
    let orga = server.token("orga-token");
    for version in [&[][..], &[V1][..]] {
        let reviews = orga
            .request("GET", "/api/events/mini/reviews/", version)
            .await;
        assert_eq!(reviews.status, 200, "{}", reviews.text);
        let ids: Vec<i64> = reviews.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, vec![8], "{}", reviews.text);
        let own = orga
            .request("GET", "/api/events/mini/reviews/7/", version)
            .await;
        assert_eq!(own.status, 404, "{}", own.text);
    }
    let sub = orga
        .request("GET", "/api/events/mini/submissions/SUB2/", &[V1])
        .await;
    assert_eq!(
        sub.body["speakers"],
        json!(["SPK2", "OLGA26"]),
        "{}",
        sub.text
    );
    assert_eq!(sub.body["reviews"], json!([]), "{}", sub.text);
}
