//! v1 tags: for organisers and reviewers, by id.

use super::{dataset, get, V1};
use crate::helpers::TestServer;
use serde_json::json;

#[tokio::test]
async fn v1_tags_are_for_organisers_and_reviewers_by_id() {
    let server = TestServer::start(&[dataset()]).await;
    let tag = json!({"id": 1, "tag": "hot.topic", "description": {}, "color": "#ff0000", "is_public": false});
    for token in ["orga-token", "rev-token"] {
        let list = get(&server, Some(token), "/api/events/mini/tags/", &[V1]).await;
        assert_eq!(list.body["results"], json!([tag]), "{token}");
        assert_eq!(
            get(&server, Some(token), "/api/events/mini/tags/1/", &[V1])
                .await
                .body,
            tag
        );
        // By its name is the legacy lookup.
        assert_eq!(
            get(
                &server,
                Some(token),
                "/api/events/mini/tags/hot.topic/",
                &[V1]
            )
            .await
            .status,
            404
        );
    }
    let anonymous = get(&server, None, "/api/events/mini/tags/", &[V1]).await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(
        anonymous.body,
        json!({"detail": "Authentication credentials were not provided."})
    );
    let nobody = get(
        &server,
        Some("nobody-token"),
        "/api/events/mini/tags/1/",
        &[V1],
    )
    .await;
    assert_eq!(nobody.status, 403);
}
