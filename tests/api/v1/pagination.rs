//! v1 pagination: by page number up to 250, or by limit and offset together.

use super::{dataset, get, V1};
use crate::helpers::TestServer;
use serde_json::{json, Value};

#[tokio::test]
async fn v1_pages_by_page_number_up_to_250_or_by_limit_and_offset_together() {
    let mut dataset = dataset();
    let tags: Vec<Value> = (1..=60)
        .map(|id| json!({"id": id, "tag": format!("tag{id:02}"), "color": "#000000"}))
        .collect();
    dataset["events"][0]["tags"] = json!(tags);
    dataset["events"][0]["submissions"][0]["tags"] = json!([1]);
    dataset["events"][0]["submissions"][1]["tags"] = json!([]);
    let server = TestServer::start(&[dataset]).await;
    let base = format!("{}/api/events/mini/tags/", server.base);
    let page = |query: &'static str| {
        let server = &server;
        async move {
            get(
                server,
                Some("orga-token"),
                &format!("/api/events/mini/tags/{query}"),
                &[V1],
            )
            .await
        }
    };
    let first = page("").await;
    assert_eq!(
        (
            first.body["count"].clone(),
            first.body["results"].as_array().unwrap().len()
        ),
        (json!(60), 50)
    );
    assert_eq!(first.body["next"], json!(format!("{base}?page=2")));
    let second = page("?page=2").await;
    assert_eq!(second.body["results"].as_array().unwrap().len(), 10);
    // Back to page 1 without a page parameter.
    assert_eq!(second.body["previous"], json!(base));
    let big = page("?page_size=1000").await;
    assert_eq!(big.body["results"].as_array().unwrap().len(), 60);
    let default = page("?page_size=abc").await;
    assert_eq!(default.body["results"].as_array().unwrap().len(), 50);
    assert_eq!(page("?page=abc").await.status, 404);
    assert_eq!(
        page("?page=3").await.body,
        json!({"detail": "Invalid page."})
    );
    let offset = page("?limit=5&offset=10").await;
    assert_eq!(offset.body["results"][0]["id"], 11);
    assert_eq!(
        offset.body["next"],
        json!(format!("{base}?limit=5&offset=15"))
    );
    // limit alone is ignored.
    let limit_only = page("?limit=5").await;
    assert_eq!(limit_only.body["results"].as_array().unwrap().len(), 50);
}
