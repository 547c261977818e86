//! behaviour.md §6 "Events" over HTTP: the list per role, event URLs from
//! the configured base URL or the request host, the detail, slug lookups;
//! and the headers and JSON error bodies. Checked with full JSON bodies;
//! links as in helpers/events.rs.

use crate::helpers::events::{assert_detail, assert_link, roles, slugs};
use crate::helpers::{
    assert_bad_parameters, assert_invalid_page, democon, democon_tokens as tok, edge, TestServer,
};
use confapi::http::Config;
use serde_json::{json, Value};

/// The `events` API object, with `urls` built on `base` (no trailing slash).
fn event_object(
    base: &str,
    slug: &str,
    name: Value,
    is_public: bool,
    from: &str,
    to: Value,
    tz: &str,
) -> Value {
    json!({
        "name": name,
        "slug": slug,
        "is_public": is_public,
        "date_from": from,
        "date_to": to,
        "timezone": tz,
        "urls": {
            "base": format!("{base}/{slug}/"),
            "schedule": format!("{base}/{slug}/schedule/"),
            "login": format!("{base}/{slug}/login/"),
            "feed": format!("{base}/{slug}/schedule/feed.xml"),
        }
    })
}

/// The API object of every event of `roles()`, by slug.
fn roles_object(base: &str, slug: &str) -> Value {
    match slug {
        "open" => event_object(
            base,
            "open",
            json!({"en": "Open Conf", "de": "Offene Konferenz"}),
            true,
            "2026-06-01",
            json!("2026-06-02"),
            "Europe/Berlin",
        ),
        "closed" => event_object(
            base,
            "closed",
            json!({"en": "Closed Retreat"}),
            false,
            "2026-09-01",
            Value::Null,
            "UTC",
        ),
        "secret" => event_object(
            base,
            "secret",
            json!({"en": "Secret Summit"}),
            false,
            "2026-07-01",
            json!("2026-07-01"),
            "America/New_York",
        ),
        other => {
            let from = if other == "old" {
                "2025-01-01"
            } else {
                "2026-06-01"
            };
            event_object(
                base,
                other,
                json!({"en": format!("Event {other}")}),
                true,
                from,
                Value::Null,
                "UTC",
            )
        }
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------
// Events: list
// ---------------------------------------------------------------------------

#[tokio::test]
async fn anonymous_event_list_is_the_public_events_newest_first_with_every_field() {
    let server = TestServer::start(&[roles()]).await;
    let page = server.anon().ok("/api/events/").await;
    let base = server.base.clone();
    // date_from descending; the tie on 2026-06-01 broken by slug in
    // code-point order ("Zeta" < "alpha" < "open").
    let expected: Vec<Value> = ["Zeta", "alpha", "open", "old"]
        .iter()
        .map(|s| roles_object(&base, s))
        .collect();
    assert_eq!(
        page,
        json!({"count": 4, "next": null, "previous": null, "results": expected})
    );
}

#[tokio::test]
async fn event_list_depends_on_the_callers_role() {
    let server = TestServer::start(&[roles()]).await;
    let public = ["Zeta", "alpha", "open", "old"];
    let cases: [(&str, Option<&str>, Vec<&str>); 6] = [
        ("anonymous", None, public.to_vec()),
        ("no team", Some("nobody-token"), public.to_vec()),
        // Teams without either flag give no role: `secret` stays hidden.
        ("team without flags", Some("helper-token"), public.to_vec()),
        (
            "reviewer of closed",
            Some("rev-token"),
            [&["closed"][..], &public].concat(),
        ),
        (
            "organiser of closed",
            Some("orga-token"),
            [&["closed"][..], &public].concat(),
        ),
        (
            "administrator",
            Some("admin-token"),
            [&["closed", "secret"][..], &public].concat(),
        ),
    ];
    for (who, token, wanted) in cases {
        let client = match token {
            Some(token) => server.token(token),
            None => server.anon(),
        };
        let page = client.ok("/api/events/").await;
        let base = server.base.clone();
        let objects: Vec<Value> = wanted.iter().map(|s| roles_object(&base, s)).collect();
        assert_eq!(
            page,
            json!({"count": wanted.len(), "next": null, "previous": null, "results": objects}),
            "{who}"
        );
    }
}

#[tokio::test]
async fn event_list_of_democon_per_role() {
    let server = TestServer::start(&[democon()]).await;
    assert_eq!(
        slugs(&server.anon().ok("/api/events/").await),
        strings(&["democon"])
    );
    assert_eq!(
        slugs(&server.token(tok::REVIEWER).ok("/api/events/").await),
        strings(&["democon"])
    );
    // privcon (2026-12-16) is newer than democon (2026-11-20).
    assert_eq!(
        slugs(&server.token(tok::ORGA).ok("/api/events/").await),
        strings(&["privcon", "democon"])
    );
    assert_eq!(
        slugs(&server.token(tok::ADMIN).ok("/api/events/").await),
        strings(&["privcon", "democon"])
    );
}

#[tokio::test]
async fn event_urls_use_the_configured_base_url() {
    let config = Config {
        base_url: Some("https://cfp.example.org".into()),
        ..Config::default()
    };
    let server = TestServer::start_with(&[roles()], config).await;
    let page = server.anon().ok("/api/events/?limit=1").await;
    assert_eq!(
        page["results"],
        json!([roles_object("https://cfp.example.org", "Zeta")])
    );
    assert_link(
        &page["next"],
        "https://cfp.example.org/api/events/",
        &[("limit", "1"), ("offset", "1")],
    );
    let detail = server.token("orga-token").ok("/api/events/closed/").await;
    assert_eq!(detail, roles_object("https://cfp.example.org", "closed"));
}

#[tokio::test]
async fn a_trailing_slash_of_the_base_url_is_not_doubled() {
    let config = Config {
        base_url: Some("https://cfp.example.org/".into()),
        ..Config::default()
    };
    let server = TestServer::start_with(&[roles()], config).await;
    let detail = server.anon().ok("/api/events/open").await;
    assert_eq!(detail, roles_object("https://cfp.example.org", "open"));
    let page = server.anon().ok("/api/events/?limit=1").await;
    assert_link(
        &page["next"],
        "https://cfp.example.org/api/events/",
        &[("limit", "1"), ("offset", "1")],
    );
}

#[tokio::test]
async fn event_urls_without_a_base_url_follow_the_request_host() {
    let server = TestServer::start(&[roles()]).await;
    let anon = server.anon();
    let url = format!("{}/api/events/open/", server.base);
    let reply = anon
        .request_url("GET", &url, &[("Host", "conf.example.net:8443")])
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.body,
        roles_object("http://conf.example.net:8443", "open")
    );

    let url = format!("{}/api/events/?limit=2", server.base);
    let reply = anon
        .request_url("GET", &url, &[("Host", "api.example.net")])
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.body["results"][0],
        roles_object("http://api.example.net", "Zeta")
    );
    assert_link(
        &reply.body["next"],
        "http://api.example.net/api/events/",
        &[("limit", "2"), ("offset", "2")],
    );
}

// ---------------------------------------------------------------------------
// Events: detail
// ---------------------------------------------------------------------------

#[tokio::test]
async fn event_detail_has_every_field() {
    let server = TestServer::start(&[roles()]).await;
    let base = server.base.clone();
    // A plain-string name becomes {"en": ...}; date_to null; default UTC.
    assert_eq!(
        server.token("orga-token").ok("/api/events/closed/").await,
        roles_object(&base, "closed")
    );
    assert_eq!(
        server.token("rev-token").ok("/api/events/closed").await,
        roles_object(&base, "closed")
    );
    assert_eq!(
        server.anon().ok("/api/events/open/").await,
        roles_object(&base, "open")
    );
    assert_eq!(
        server.token("admin-token").ok("/api/events/secret/").await,
        roles_object(&base, "secret")
    );
}

#[tokio::test]
async fn event_detail_is_403_alike_for_invisible_and_unknown_events() {
    let server = TestServer::start(&[roles()]).await;
    let unknown = assert_detail(
        &server.anon().get("/api/events/nope/").await,
        403,
        "unknown event",
    );
    let cases = [
        (None, "/api/events/closed/"),
        (Some("nobody-token"), "/api/events/closed/"),
        (Some("helper-token"), "/api/events/closed/"),
        (Some("helper-token"), "/api/events/secret"),
        (Some("orga-token"), "/api/events/secret/"),
        (Some("rev-token"), "/api/events/SECRET/"),
        (Some("orga-token"), "/api/events/nope"),
    ];
    for (token, path) in cases {
        let client = match token {
            Some(token) => server.token(token),
            None => server.anon(),
        };
        let reply = client.get(path).await;
        let body = assert_detail(&reply, 403, &format!("{token:?} {path}"));
        assert_eq!(
            body, unknown,
            "{token:?} {path}: the same answer as for an unknown event"
        );
    }
}

#[tokio::test]
async fn event_slug_lookup_is_case_insensitive_and_shows_the_stored_spelling() {
    let server = TestServer::start(&[roles()]).await;
    let base = server.base.clone();
    for path in [
        "/api/events/Zeta/",
        "/api/events/zeta",
        "/api/events/ZETA/",
        "/api/events/zEtA",
    ] {
        assert_eq!(
            server.anon().ok(path).await,
            roles_object(&base, "Zeta"),
            "{path}"
        );
    }
    for path in ["/api/events/CLOSED/", "/api/events/Closed"] {
        assert_eq!(
            server.token("orga-token").ok(path).await,
            roles_object(&base, "closed"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn dotted_slugs_work_in_lists_details_and_sub_paths() {
    let server = TestServer::start(&[edge()]).await;
    let anon = server.anon();
    let list = anon.ok("/api/events/").await;
    assert!(slugs(&list).contains(&"edge.conf".to_string()), "{list}");
    let expected = event_object(
        &server.base,
        "edge.conf",
        json!({"en": "Edge.Conf 2026 – Grenzfälle", "de": "Edge.Konf 2026 – Grenzfälle", "hi": "एज कॉन्फ़"}),
        true,
        "2026-12-03",
        json!("2026-12-05"),
        "Asia/Kolkata",
    );
    for path in [
        "/api/events/edge.conf/",
        "/api/events/edge.conf",
        "/api/events/EDGE.Conf/",
    ] {
        assert_eq!(anon.ok(path).await, expected, "{path}");
    }
    let listed = list["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["slug"] == "edge.conf")
        .unwrap();
    assert_eq!(listed, &expected);
    // Sub-paths of a dotted slug are the event's endpoints, not unknown paths.
    let talks = anon.get("/api/events/edge.conf/talks/").await;
    assert_eq!(talks.status, 200, "{}", talks.text);
    assert!(talks.count() > 0);
    assert_eq!(anon.get("/api/events/EDGE.CONF/rooms").await.status, 200);
    // A private event of the same dataset stays 403.
    assert_detail(
        &anon.get("/api/events/edge-private/").await,
        403,
        "edge-private",
    );
}

// ---------------------------------------------------------------------------
// Headers and error bodies
// ---------------------------------------------------------------------------

#[tokio::test]
async fn errors_are_json_with_vary() {
    let server = TestServer::start(&[roles()]).await;
    let anon = server.anon();
    let list = anon.get("/api/events/").await;
    assert_eq!(list.status, 200);
    assert_eq!(
        list.header("vary"),
        Some("Accept, Accept-Encoding, Authorization, Pretalx-Version")
    );
    assert_eq!(list.header("content-type"), Some("application/json"));

    let bad = anon.get("/api/events/?limit=abc").await;
    assert_bad_parameters(&bad, &["limit"], "400");
    assert_eq!(
        bad.header("vary"),
        Some("Accept, Accept-Encoding, Authorization, Pretalx-Version")
    );

    assert_detail(&anon.get("/api/events/closed/").await, 403, "403");
    assert_detail(
        &anon.get("/api/events/nope/rooms/").await,
        403,
        "403 below an unknown event",
    );
    let invalid_page = anon.get("/api/events/?page=9").await;
    assert_invalid_page(&invalid_page, "404 invalid page");
    assert_eq!(
        invalid_page.header("vary"),
        Some("Accept, Accept-Encoding, Authorization, Pretalx-Version")
    );
    assert_detail(&anon.get("/api/eventz/").await, 404, "404 unknown path");
    assert_detail(
        &anon.get("/api/events/open/nope/").await,
        404,
        "404 inside a visible event",
    );
}
