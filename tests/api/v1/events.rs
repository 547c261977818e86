//! v1 events (pretalx-v1.md §13): a bare list, and a detail with more.

use super::{dataset, get, V1};
use crate::helpers::TestServer;
use serde_json::json;

#[tokio::test]
async fn v1_events_are_a_bare_list_and_the_detail_has_more() {
    let server = TestServer::start(&[dataset()]).await;
    let list = get(&server, None, "/api/events/", &[V1]).await;
    let listed = json!({"name": {"en": "Mini Conf"}, "slug": "mini", "is_public": true,
                        "date_from": "2026-06-01", "date_to": "2026-06-02", "timezone": "Europe/Berlin"});
    assert_eq!(list.body, json!([listed]));
    // Keys in pretalx's order.
    assert!(
        list.text
            .starts_with(r#"[{"name":{"en":"Mini Conf"},"slug":"mini","is_public":true"#),
        "{}",
        list.text
    );
    let detail = get(&server, None, "/api/events/mini/", &[V1]).await;
    let mut expected = listed.clone();
    expected.as_object_mut().unwrap().extend(
        json!({"email": "", "primary_color": null, "custom_domain": null, "logo": null,
               "header_image": null, "og_image": null, "locale": "en", "locales": ["en"], "content_locales": ["en"]})
        .as_object()
        .unwrap()
        .clone(),
    );
    assert_eq!(detail.body, expected);
    // `fields` is no parameter of the events (pretalx: no flex fields).
    let lang = get(
        &server,
        None,
        "/api/events/mini/?lang=en&fields=name,slug",
        &[V1],
    )
    .await;
    assert_eq!(lang.body["name"], json!("Mini Conf"));
    assert_eq!(lang.body["locales"], json!(["en"]));
    let public = get(&server, None, "/api/events/?is_public=true", &[V1]).await;
    assert_eq!(public.body, json!([listed]));
    let none = get(&server, None, "/api/events/?is_public=false", &[V1]).await;
    assert_eq!(none.body, json!([]));
    // Not a boolean: no filter (django-filter's BooleanWidget).
    let bad = get(&server, None, "/api/events/?is_public=maybe", &[V1]).await;
    assert_eq!(bad.body, json!([listed]));
}
