//! behaviour.md §5 (pagination) over HTTP: both styles, clamping, malformed
//! and empty values, and links (compared as in helpers/events.rs).

use crate::helpers::events::{assert_link, bare_event, slugs, split_link};
use crate::helpers::{
    self, assert_bad_parameters, assert_invalid_page, democon, democon_tokens as tok, TestServer,
};
use confapi::http::Config;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// `n` public events `ev01`..`evNN` on consecutive days (ev01 the oldest),
/// plus two private events nobody may see but administrators.
fn many_events(n: usize) -> Value {
    let mut events: Vec<Value> = (1..=n)
        .map(|i| {
            let day =
                chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + chrono::Days::new(i as u64);
            bare_event(&format!("ev{i:02}"), true, &day.to_string())
        })
        .collect();
    events.push(bare_event("hidden1", false, "2027-01-01"));
    events.push(bare_event("hidden2", false, "2025-01-01"));
    json!({
        "format": "cfp-dataset",
        "version": 1,
        "users": [{"code": "ADMIN", "name": "Ada Admin", "email": "admin@many.example",
                   "is_administrator": true, "tokens": ["admin-token"]}],
        "events": events,
    })
}

/// The visible slugs of `many_events(n)`, newest first.
fn many_slugs(n: usize) -> Vec<String> {
    (1..=n).rev().map(|i| format!("ev{i:02}")).collect()
}

// ---------------------------------------------------------------------------
// Pagination: page style
// ---------------------------------------------------------------------------

#[tokio::test]
async fn page_style_first_middle_and_last_page() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let all = many_slugs(30);
    let url = format!("{}/api/events/", server.base);

    let first = anon.ok("/api/events/?page=1&page_size=7").await;
    assert_eq!(first["count"], 30);
    assert_eq!(slugs(&first), all[0..7]);
    assert_link(&first["next"], &url, &[("page", "2"), ("page_size", "7")]);
    assert_eq!(first["previous"], Value::Null);

    let second = anon.ok("/api/events/?page=2&page_size=7").await;
    assert_eq!(slugs(&second), all[7..14]);
    // The previous link of the second page spells out page=1.
    assert_link(
        &second["previous"],
        &url,
        &[("page", "1"), ("page_size", "7")],
    );

    let middle = anon.ok("/api/events/?page_size=7&page=3").await;
    assert_eq!(middle["count"], 30);
    assert_eq!(slugs(&middle), all[14..21]);
    assert_link(&middle["next"], &url, &[("page", "4"), ("page_size", "7")]);
    assert_link(
        &middle["previous"],
        &url,
        &[("page", "2"), ("page_size", "7")],
    );

    let last = anon.ok("/api/events/?page=5&page_size=7").await;
    assert_eq!(slugs(&last), all[28..30]);
    assert_eq!(last["next"], Value::Null);
    assert_link(
        &last["previous"],
        &url,
        &[("page", "4"), ("page_size", "7")],
    );
}

#[tokio::test]
async fn page_style_with_the_default_size() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let all = many_slugs(30);
    let url = format!("{}/api/events/", server.base);
    let first = anon.ok("/api/events/?page=1").await;
    assert_eq!(slugs(&first), all[0..25]);
    assert_link(&first["next"], &url, &[("page", "2")]);
    let second = anon.ok("/api/events?page=2").await;
    assert_eq!(second["count"], 30);
    assert_eq!(slugs(&second), all[25..30]);
    assert_eq!(second["next"], Value::Null);
    assert_link(
        &second["previous"],
        &format!("{}/api/events", server.base),
        &[("page", "1")],
    );
}

#[tokio::test]
async fn page_size_alone_selects_the_page_style() {
    let server = TestServer::start(&[many_events(30)]).await;
    let page = server.anon().ok("/api/events/?page_size=10").await;
    assert_eq!(slugs(&page), many_slugs(30)[0..10]);
    assert_link(
        &page["next"],
        &format!("{}/api/events/", server.base),
        &[("page", "2"), ("page_size", "10")],
    );
    assert_eq!(page["previous"], Value::Null);
}

#[tokio::test]
async fn pages_past_the_end_and_page_zero_are_404() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    for path in [
        "/api/events/?page=99",
        "/api/events/?page=0",
        "/api/events/?page=3",
        "/api/events/?page=4&page_size=10",
        "/api/events/?page=0&page_size=10",
        "/api/events/?page=99999999999999999999999",
    ] {
        assert_invalid_page(&anon.get(path).await, path);
    }
    // The last page exists.
    assert_eq!(
        anon.ok("/api/events/?page=3&page_size=10").await["results"]
            .as_array()
            .unwrap()
            .len(),
        10
    );
    // Also on an event's endpoint (democon has 66 submissions for the organiser).
    let orga = server.token("admin-token");
    assert_eq!(orga.ok("/api/events/?page=1").await["count"], 32);
    let democon_server = TestServer::start(&[democon()]).await;
    let orga = democon_server.token(tok::ORGA);
    assert_invalid_page(
        &orga.get("/api/events/democon/submissions/?page=4").await,
        "submissions page 4",
    );
    assert_invalid_page(
        &orga.get("/api/events/democon/submissions/?page=0").await,
        "submissions page 0",
    );
    assert_eq!(
        orga.ok("/api/events/democon/submissions/?page=3").await["results"]
            .as_array()
            .unwrap()
            .len(),
        16
    );
}

#[tokio::test]
async fn page_one_of_an_empty_list_is_fine() {
    let doc = json!({"format": "cfp-dataset", "version": 1, "users": [],
                     "events": [bare_event("hidden", false, "2026-01-01")]});
    let server = TestServer::start(&[doc]).await;
    let anon = server.anon();
    let empty = json!({"count": 0, "next": null, "previous": null, "results": []});
    for path in [
        "/api/events/",
        "/api/events/?page=1",
        "/api/events/?page=1&page_size=5",
        "/api/events/?offset=0",
    ] {
        assert_eq!(anon.ok(path).await, empty, "{path}");
    }
    assert_invalid_page(
        &anon.get("/api/events/?page=2").await,
        "page 2 of an empty list",
    );
    // An empty list inside an event: the public gets no tags.
    let mini = TestServer::start(&[helpers::mini()]).await;
    assert_eq!(mini.anon().ok("/api/events/mini/tags/?page=1").await, empty);
}

// ---------------------------------------------------------------------------
// Pagination: limit/offset style
// ---------------------------------------------------------------------------

#[tokio::test]
async fn offset_style_first_middle_and_last_page() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let all = many_slugs(30);
    let url = format!("{}/api/events/", server.base);

    let first = anon.ok("/api/events/?limit=7").await;
    assert_eq!(first["count"], 30);
    assert_eq!(slugs(&first), all[0..7]);
    assert_link(&first["next"], &url, &[("limit", "7"), ("offset", "7")]);
    assert_eq!(first["previous"], Value::Null);

    // The previous link of the second page spells out offset=0.
    let second = anon.ok("/api/events/?limit=7&offset=7").await;
    assert_eq!(slugs(&second), all[7..14]);
    assert_link(&second["next"], &url, &[("limit", "7"), ("offset", "14")]);
    assert_link(
        &second["previous"],
        &url,
        &[("limit", "7"), ("offset", "0")],
    );

    // An offset that is no multiple of the limit.
    let odd = anon.ok("/api/events/?offset=3&limit=7").await;
    assert_eq!(slugs(&odd), all[3..10]);
    assert_link(&odd["next"], &url, &[("limit", "7"), ("offset", "10")]);
    assert_link(&odd["previous"], &url, &[("limit", "7"), ("offset", "0")]);

    let last = anon.ok("/api/events/?limit=7&offset=28").await;
    assert_eq!(slugs(&last), all[28..30]);
    assert_eq!(last["next"], Value::Null);
    assert_link(&last["previous"], &url, &[("limit", "7"), ("offset", "21")]);

    // No parameters at all: limit/offset links with the default size.
    let plain = anon.ok("/api/events/").await;
    assert_eq!(slugs(&plain), all[0..25]);
    assert_link(&plain["next"], &url, &[("limit", "25"), ("offset", "25")]);
    let offset_only = anon.ok("/api/events/?offset=25").await;
    assert_eq!(slugs(&offset_only), all[25..30]);
    assert_eq!(offset_only["next"], Value::Null);
    assert_link(
        &offset_only["previous"],
        &url,
        &[("limit", "25"), ("offset", "0")],
    );
}

#[tokio::test]
async fn an_offset_past_the_end_is_an_empty_page() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let url = format!("{}/api/events/", server.base);
    for (path, previous_offset) in [
        ("/api/events/?offset=30", "5"),
        ("/api/events/?offset=1000", "975"),
    ] {
        let page = anon.ok(path).await;
        assert_eq!(page["count"], 30, "{path}");
        assert_eq!(page["results"], json!([]), "{path}");
        assert_eq!(page["next"], Value::Null, "{path}");
        assert_link(
            &page["previous"],
            &url,
            &[("limit", "25"), ("offset", previous_offset)],
        );
    }
    let page = anon
        .ok("/api/events/?limit=10&offset=99999999999999999999999")
        .await;
    assert_eq!(page["results"], json!([]));
    assert_eq!(page["next"], Value::Null);
    assert!(page["previous"].is_string(), "{page}");
}

#[tokio::test]
async fn a_zero_size_means_the_default_size() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let all = many_slugs(30);
    let url = format!("{}/api/events/", server.base);
    let by_limit = anon.ok("/api/events/?limit=0").await;
    assert_eq!(slugs(&by_limit), all[0..25]);
    assert_link(
        &by_limit["next"],
        &url,
        &[("limit", "25"), ("offset", "25")],
    );
    let by_page_size = anon.ok("/api/events/?page_size=0").await;
    assert_eq!(slugs(&by_page_size), all[0..25]);
    let next = by_page_size["next"]
        .as_str()
        .expect("a next link")
        .to_string();
    let (_, pairs) = split_link(&next);
    assert!(pairs.contains(&("page".into(), "2".into())), "{next}");
    let second = anon.request_url("GET", &next, &[]).await;
    assert_eq!(second.status, 200, "{next}: {}", second.text);
    assert_eq!(slugs(&second.body), all[25..30]);
}

// ---------------------------------------------------------------------------
// Pagination: clamping
// ---------------------------------------------------------------------------

/// Follows `next` from `path` and checks that every item comes exactly once,
/// in order, in pages of at most `max` items; returns the `key` values.
async fn follow_all(client: &helpers::Client, path: &str, key: &str, max: usize) -> Vec<Value> {
    let mut url = format!("{}{path}", client.base);
    let mut out: Vec<Value> = Vec::new();
    let mut count = None;
    for _ in 0..1000 {
        let reply = client.request_url("GET", &url, &[]).await;
        assert_eq!(reply.status, 200, "GET {url}: {}", reply.text);
        let results = reply.body["results"].as_array().expect("results");
        assert!(
            results.len() <= max,
            "{url}: {} items in a page, more than {max}",
            results.len()
        );
        let page_count = reply.count();
        assert_eq!(
            *count.get_or_insert(page_count),
            page_count,
            "{url}: the count changed"
        );
        out.extend(results.iter().map(|r| r[key].clone()));
        match reply.body["next"].as_str() {
            Some(next) => {
                assert!(!results.is_empty(), "{url}: an empty page with a next link");
                url = next.to_string();
            }
            None => break,
        }
    }
    assert_eq!(
        out.len() as u64,
        count.unwrap_or(0),
        "{path}: not every item, or some twice: {out:?}"
    );
    let unique: BTreeSet<String> = out.iter().map(Value::to_string).collect();
    assert_eq!(unique.len(), out.len(), "{path}: duplicates: {out:?}");
    out
}

#[tokio::test]
async fn page_sizes_above_the_maximum_are_clamped_and_next_leads_to_the_rest() {
    let config = Config {
        max_page_size: 10,
        ..Config::default()
    };
    let server = TestServer::start_with(&[many_events(30)], config).await;
    let anon = server.anon();
    let all: Vec<Value> = many_slugs(30).into_iter().map(Value::from).collect();
    let url = format!("{}/api/events/", server.base);

    let by_limit = anon.ok("/api/events/?limit=50").await;
    assert_eq!(by_limit["results"].as_array().unwrap().len(), 10);
    assert_link(
        &by_limit["next"],
        &url,
        &[("limit", "10"), ("offset", "10")],
    );
    assert_eq!(
        follow_all(&anon, "/api/events/?limit=50", "slug", 10).await,
        all
    );

    let by_page_size = anon.ok("/api/events/?page_size=50").await;
    assert_eq!(by_page_size["results"].as_array().unwrap().len(), 10);
    assert_eq!(
        follow_all(&anon, "/api/events/?page_size=50", "slug", 10).await,
        all
    );
    // Page 3 of clamped pages of 10 is the last one.
    let third = anon.ok("/api/events/?page=3&page_size=50").await;
    assert_eq!(third["results"].as_array().unwrap().len(), 10);
    assert_eq!(third["next"], Value::Null);
    assert_invalid_page(
        &anon.get("/api/events/?page=4&page_size=50").await,
        "page 4 of 3",
    );
    // Absurdly large sizes are clamped too.
    for path in [
        "/api/events/?limit=99999999999999999999999",
        "/api/events/?page_size=99999999999999999999999",
    ] {
        assert_eq!(follow_all(&anon, path, "slug", 10).await, all, "{path}");
    }
    // A size just at the maximum is not clamped further.
    assert_eq!(
        follow_all(&anon, "/api/events/?limit=10", "slug", 10).await,
        all
    );
}

#[tokio::test]
async fn clamped_submission_pages_give_every_submission_once() {
    let config = Config {
        max_page_size: 10,
        ..Config::default()
    };
    let server = TestServer::start_with(&[democon()], config).await;
    let orga = server.token(tok::ORGA);
    let expected: Vec<Value> = democon()["events"][0]["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].clone())
        .collect();
    assert_eq!(expected.len(), 66);
    for path in [
        "/api/events/democon/submissions/?limit=1000",
        "/api/events/democon/submissions?page_size=1000",
        "/api/events/DEMOCON/submissions/?limit=11&offset=0",
    ] {
        let codes = follow_all(&orga, path, "code", 10).await;
        let mut got: Vec<String> = codes
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        let mut want: Vec<String> = expected
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{path}");
    }
}

#[tokio::test]
async fn both_styles_page_through_every_list_endpoint_alike() {
    let server = TestServer::start(&[democon()]).await;
    let orga = server.token(tok::ORGA);
    for (resource, key) in [
        ("submissions", "code"),
        ("talks", "code"),
        ("speakers", "code"),
        ("reviews", "id"),
        ("questions", "id"),
        ("answers", "id"),
        ("rooms", "id"),
        ("tags", "id"),
    ] {
        let path = format!("/api/events/democon/{resource}/");
        let whole = orga.ok(&format!("{path}?limit=1000")).await;
        let everything: Vec<Value> = whole["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[key].clone())
            .collect();
        assert_eq!(
            whole["count"].as_u64(),
            Some(everything.len() as u64),
            "{resource}"
        );
        assert!(
            everything.len() > 2,
            "{resource}: too few items to page through"
        );
        for style in [
            "page_size=2",
            "limit=2",
            "page=1&page_size=2",
            "offset=0&limit=2",
        ] {
            let paged = follow_all(&orga, &format!("{path}?{style}"), key, 2).await;
            assert_eq!(paged, everything, "{resource} {style}");
        }
    }
}

// ---------------------------------------------------------------------------
// Pagination: malformed and empty values
// ---------------------------------------------------------------------------

#[tokio::test]
async fn malformed_pagination_values_are_400_with_the_parameter_name() {
    let server = TestServer::start(&[democon()]).await;
    let orga = server.token(tok::ORGA);
    for parameter in ["page", "page_size", "limit", "offset"] {
        for value in ["abc", "-1", "1.5", "%2B3", "1e3", "%203", "0x10"] {
            for endpoint in ["/api/events/", "/api/events/democon/submissions/"] {
                let path = format!("{endpoint}?{parameter}={value}");
                assert_bad_parameters(&orga.get(&path).await, &[parameter], &path);
            }
        }
    }
}

#[tokio::test]
async fn several_bad_parameters_give_one_key_each() {
    let server = TestServer::start(&[democon()]).await;
    let orga = server.token(tok::ORGA);
    let path = "/api/events/?page=x&page_size=-2&limit=1.5&offset=abc";
    assert_bad_parameters(
        &orga.get(path).await,
        &["page", "page_size", "limit", "offset"],
        path,
    );
    let path = "/api/events/democon/submissions/?limit=-1&offset=%2B3";
    assert_bad_parameters(&orga.get(path).await, &["limit", "offset"], path);
    // Pagination problems and filter problems are reported together.
    let path = "/api/events/democon/submissions/?state=bogus&page=abc&is_featured=maybe";
    assert_bad_parameters(
        &orga.get(path).await,
        &["state", "page", "is_featured"],
        path,
    );
    // A bad value of a style that loses is still a bad value.
    let path = "/api/events/?page=1&limit=abc";
    assert_bad_parameters(&orga.get(path).await, &["limit"], path);
}

#[tokio::test]
async fn empty_pagination_values_count_as_absent() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let all = many_slugs(30);
    let empty = anon
        .ok("/api/events/?page=&page_size=&limit=&offset=")
        .await;
    assert_eq!(empty["count"], 30);
    assert_eq!(slugs(&empty), all[0..25]);
    assert_eq!(empty["previous"], Value::Null);
    // The link is in the limit/offset style (no page style was requested)
    // and leads to the rest.
    let next = empty["next"].as_str().expect("a next link").to_string();
    let (_, pairs) = split_link(&next);
    assert!(pairs.contains(&("offset".into(), "25".into())), "{next}");
    let rest = anon.request_url("GET", &next, &[]).await;
    assert_eq!(rest.status, 200, "{next}: {}", rest.text);
    assert_eq!(slugs(&rest.body), all[25..30]);

    // An empty `page` does not select the page style.
    let page = anon.ok("/api/events/?page=&limit=5&offset=5").await;
    assert_eq!(slugs(&page), all[5..10]);
    let (_, pairs) = split_link(page["next"].as_str().expect("next"));
    assert!(pairs.contains(&("offset".into(), "10".into())), "{pairs:?}");
    assert!(!pairs.contains(&("page".into(), "2".into())), "{pairs:?}");
    // An empty `page_size` in the page style: the default size.
    let page = anon.ok("/api/events/?page=2&page_size=").await;
    assert_eq!(slugs(&page), all[25..30]);
}

#[tokio::test]
async fn of_a_repeated_pagination_parameter_the_last_value_counts() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let all = many_slugs(30);
    let url = format!("{}/api/events/", server.base);
    let page = anon
        .ok("/api/events/?page=abc&page=2&page_size=9&page_size=5")
        .await;
    assert_eq!(slugs(&page), all[5..10]);
    // The link holds one `page`, the next one.
    let next = page["next"].as_str().expect("next");
    let (_, pairs) = split_link(next);
    let pages: Vec<&(String, String)> = pairs.iter().filter(|(k, _)| k == "page").collect();
    assert_eq!(
        pages,
        vec![&("page".to_string(), "3".to_string())],
        "{next}"
    );
    let followed = anon.request_url("GET", next, &[]).await;
    assert_eq!(followed.status, 200, "{next}: {}", followed.text);
    assert_eq!(slugs(&followed.body), all[10..15]);

    let page = anon
        .ok("/api/events/?limit=-1&limit=4&offset=x&offset=8")
        .await;
    assert_eq!(slugs(&page), all[8..12]);
    assert_link(&page["next"], &url, &[("limit", "4"), ("offset", "12")]);
    // The last value is the bad one: 400.
    let path = "/api/events/?limit=4&limit=-1";
    assert_bad_parameters(&anon.get(path).await, &["limit"], path);
}

#[tokio::test]
async fn the_page_style_wins_when_both_are_sent() {
    let server = TestServer::start(&[many_events(30)]).await;
    let anon = server.anon();
    let all = many_slugs(30);
    let url = format!("{}/api/events/", server.base);
    let page = anon
        .ok("/api/events/?page=2&page_size=5&limit=3&offset=1")
        .await;
    assert_eq!(slugs(&page), all[5..10]);
    // The links are in the page style and keep every other parameter.
    assert_link(
        &page["next"],
        &url,
        &[
            ("page", "3"),
            ("page_size", "5"),
            ("limit", "3"),
            ("offset", "1"),
        ],
    );
    assert_link(
        &page["previous"],
        &url,
        &[
            ("page", "1"),
            ("page_size", "5"),
            ("limit", "3"),
            ("offset", "1"),
        ],
    );
    // page_size with an offset: still the page style (page 1).
    let page = anon.ok("/api/events/?offset=10&page_size=5").await;
    assert_eq!(slugs(&page), all[0..5]);
    assert_eq!(page["previous"], Value::Null);
    assert_link(
        &page["next"],
        &url,
        &[("page", "2"), ("page_size", "5"), ("offset", "10")],
    );
    // page with a limit: the page style with the default size.
    let page = anon.ok("/api/events/?limit=3&page=2").await;
    assert_eq!(slugs(&page), all[25..30]);
}

// ---------------------------------------------------------------------------
// Pagination: links
// ---------------------------------------------------------------------------

#[tokio::test]
async fn links_keep_the_other_parameters_and_the_requested_path() {
    let server = TestServer::start(&[democon()]).await;
    let orga = server.token(tok::ORGA);
    let base = &server.base;

    // Without a trailing slash and with the slug in another case: echoed.
    let page = orga
        .ok("/api/events/DEMOCON/submissions?state=submitted&state=accepted&foo=bar&limit=3")
        .await;
    assert!(page["count"].as_u64().unwrap() > 3, "{page}");
    assert_link(
        &page["next"],
        &format!("{base}/api/events/DEMOCON/submissions"),
        &[
            ("state", "submitted"),
            ("state", "accepted"),
            ("foo", "bar"),
            ("limit", "3"),
            ("offset", "3"),
        ],
    );

    // With a trailing slash, in the page style, with a space in a value.
    let page = orga
        .ok("/api/events/democon/submissions/?q=a%20e&page_size=1&page=2&questions=all")
        .await;
    let url = format!("{base}/api/events/democon/submissions/");
    assert!(page["count"].as_u64().unwrap() > 2, "{page}");
    assert_link(
        &page["next"],
        &url,
        &[
            ("q", "a e"),
            ("page_size", "1"),
            ("page", "3"),
            ("questions", "all"),
        ],
    );
    assert_link(
        &page["previous"],
        &url,
        &[
            ("q", "a e"),
            ("page_size", "1"),
            ("page", "1"),
            ("questions", "all"),
        ],
    );

    // The links lead to the same filtered list.
    let filtered = orga
        .ok("/api/events/democon/submissions/?state=confirmed&limit=1000")
        .await;
    let codes: Vec<Value> = filtered["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].clone())
        .collect();
    assert!(codes.len() > 2, "too few confirmed submissions in democon");
    assert_eq!(
        follow_all(
            &orga,
            "/api/events/Democon/submissions?state=confirmed&limit=2",
            "code",
            2
        )
        .await,
        codes
    );
}

#[tokio::test]
async fn links_use_the_configured_base_url() {
    let config = Config {
        base_url: Some("https://api.example.org".into()),
        ..Config::default()
    };
    let server = TestServer::start_with(&[democon()], config).await;
    let orga = server.token(tok::ORGA);
    let page = orga
        .ok("/api/events/democon/submissions/?page=2&page_size=10")
        .await;
    let url = "https://api.example.org/api/events/democon/submissions/";
    assert_link(&page["next"], url, &[("page", "3"), ("page_size", "10")]);
    assert_link(
        &page["previous"],
        url,
        &[("page", "1"), ("page_size", "10")],
    );
    let page = orga
        .ok("/api/events/democon/speakers?offset=10&limit=10")
        .await;
    let url = "https://api.example.org/api/events/democon/speakers";
    assert_link(&page["next"], url, &[("limit", "10"), ("offset", "20")]);
    assert_link(&page["previous"], url, &[("limit", "10"), ("offset", "0")]);
}

#[tokio::test]
async fn links_without_a_base_url_are_absolute_from_the_request_host() {
    let server = TestServer::start(&[democon()]).await;
    let orga = server.token(tok::ORGA);
    let page = orga.ok("/api/events/democon/submissions/?limit=10").await;
    assert_link(
        &page["next"],
        &format!("{}/api/events/democon/submissions/", server.base),
        &[("limit", "10"), ("offset", "10")],
    );
    let url = format!("{}/api/events/democon/submissions/?limit=10", server.base);
    let reply = orga
        .request_url("GET", &url, &[("Host", "cfp.example.com")])
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_link(
        &reply.body["next"],
        "http://cfp.example.com/api/events/democon/submissions/",
        &[("limit", "10"), ("offset", "10")],
    );
}
