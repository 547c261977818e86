//! behaviour.md §1 (transport) and §2 (authentication), over HTTP.

use crate::helpers;

use helpers::{democon, democon_tokens as tok, http_client, mini, TestServer};
use serde_json::json;

#[tokio::test]
async fn trailing_slash_and_case_give_the_same_answer() {
    let server = TestServer::start(&[mini()]).await;
    let anon = server.anon();
    let with = anon.get("/api/events/mini/").await;
    let without = anon.get("/api/events/MINI").await;
    assert_eq!(with.status, 200);
    assert_eq!(with.body, without.body);
    assert_eq!(with.body["slug"], "mini");
}

#[tokio::test]
async fn every_response_carries_the_common_headers() {
    let server = TestServer::start(&[mini()]).await;
    for path in [
        "/api/events/",
        "/api/events/nope/",
        "/api/nope",
        "/api/events/mini/talks?page=x",
    ] {
        let reply = server.anon().get(path).await;
        assert_eq!(
            reply.header("content-type"),
            Some("application/json"),
            "{path}"
        );
        assert_eq!(
            reply.header("vary"),
            Some("Accept, Accept-Encoding, Authorization, Pretalx-Version"),
            "{path}"
        );
        assert_eq!(
            reply.header("access-control-allow-origin"),
            Some("*"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn unknown_paths_are_404_but_unknown_events_are_403() {
    let server = TestServer::start(&[democon()]).await;
    let anon = server.anon();
    assert_eq!(anon.get("/api/nope/").await.status, 404);
    assert_eq!(anon.get("/api/events/democon/nope/").await.status, 404);
    for path in [
        "/api/events/nope/",
        "/api/events/nope/talks/",
        "/api/events/privcon/",
        "/api/events/privcon/nope/",
    ] {
        let reply = anon.get(path).await;
        assert_eq!(reply.status, 403, "{path}");
        assert!(reply.body["detail"].is_string());
    }
    // The organiser of privcon sees it.
    assert_eq!(
        server
            .token(tok::ADMIN)
            .get("/api/events/privcon/")
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn other_methods_are_405_after_authentication() {
    let server = TestServer::start(&[mini()]).await;
    let reply = server.anon().request("POST", "/api/events/", &[]).await;
    assert_eq!(reply.status, 405);
    assert_eq!(
        reply.body,
        json!({"detail": "Method \"POST\" not allowed."})
    );
    assert_eq!(reply.header("allow"), Some("GET, HEAD, OPTIONS"));
    let reply = server
        .authorization("Token wrong")
        .request("DELETE", "/api/events/", &[])
        .await;
    assert_eq!(reply.status, 401);
}

#[tokio::test]
async fn options_is_204_everywhere_and_never_401() {
    let server = TestServer::start(&[mini()]).await;
    let reply = server
        .authorization("Token wrong")
        .request("OPTIONS", "/api/events/mini/talks/", &[])
        .await;
    assert_eq!(reply.status, 204);
    assert_eq!(reply.text, "");
    assert_eq!(
        reply.header("access-control-allow-headers"),
        Some("Authorization, Content-Type")
    );
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn head_gives_the_status_and_headers_of_get_without_a_body() {
    let server = TestServer::start(&[mini()]).await;
    let get = server.anon().get("/api/events/mini/talks/").await;
    let head = server
        .anon()
        .request("HEAD", "/api/events/mini/talks/", &[])
        .await;
    assert_eq!(head.status, 200);
    assert_eq!(head.text, "");
    assert_eq!(head.header("etag"), get.header("etag"));
    let missing = server
        .anon()
        .request("HEAD", "/api/events/nope/", &[])
        .await;
    assert_eq!(missing.status, 403);
}

/// One request's status, headers and raw bytes (never decompressed).
async fn exchange(
    server: &TestServer,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = http_client().request(method, format!("{}{path}", server.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

/// HEAD answers as GET does for the same request headers, without the body:
/// same status, ETag, types and encoding, and a Content-Length that is the
/// length of the body GET sends (RFC 9110 §8.6). Asked before GET (the
/// answer is rendered) and after it (it comes from the response cache).
async fn assert_head_is_get_without_body(
    server: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, usize, Option<String>) {
    let context = format!("{path} {headers:?}");
    let first_head = exchange(server, "HEAD", path, headers).await;
    let (status, get_headers, body) = exchange(server, "GET", path, headers).await;
    let second_head = exchange(server, "HEAD", path, headers).await;
    let length = body.len().to_string();
    let header = |map: &reqwest::header::HeaderMap, name: &str| {
        map.get(name).map(|v| v.to_str().unwrap().to_string())
    };
    assert_eq!(
        header(&get_headers, "content-length").as_deref(),
        Some(length.as_str()),
        "GET {context}"
    );
    for (head_status, head_headers, head_body) in [first_head, second_head] {
        assert_eq!(head_status, status, "HEAD {context}");
        assert!(head_body.is_empty(), "HEAD {context}: a body");
        assert_eq!(
            header(&head_headers, "content-length").as_deref(),
            Some(length.as_str()),
            "HEAD {context}: the length of GET's body"
        );
        for name in [
            "etag",
            "content-type",
            "content-encoding",
            "content-disposition",
            "last-modified",
            "cache-control",
            "vary",
        ] {
            assert_eq!(
                header(&head_headers, name),
                header(&get_headers, name),
                "HEAD {context}: {name}"
            );
        }
    }
    (status, body.len(), header(&get_headers, "content-encoding"))
}

#[tokio::test]
async fn head_sends_the_content_length_of_get() {
    let server = TestServer::start(&[democon()]).await;
    let talks = server.anon().ok("/api/events/democon/talks/").await;
    let code = talks["results"][0]["code"].as_str().unwrap().to_string();
    let cases = [
        ("/api/events/democon/talks/", 200),
        ("/api/events/democon/talks/?limit=1", 200),
        ("/api/events/", 200),
        ("/api/events/democon/", 200),
        (&*format!("/api/events/democon/talks/{code}/"), 200),
        (&*format!("/api/events/democon/talks/{code}"), 200),
        ("/api/nope", 404),
        ("/api/events/democon/talks/NOPE/", 404),
        ("/api/events/nope/", 403),
        ("/api/events/democon/talks/?page=999", 404),
        ("/api/events/democon/talks/?limit=x", 400),
        ("/democon/schedule.xml", 200),
        ("/democon/schedule.json", 200),
        ("/democon/schedule.ics", 200),
        ("/democon/schedule.xcal", 200),
        ("/democon/schedule/widgets/schedule.json", 200),
        ("/democon/schedule/feed.xml", 200),
        (&*format!("/democon/talk/{code}.ics"), 200),
        ("/nope/schedule.xml", 404),
        ("/healthz", 200),
    ];
    for (path, expected) in cases {
        let (status, length, _) = assert_head_is_get_without_body(&server, path, &[]).await;
        assert_eq!(status, expected, "{path}");
        assert!(length > 0, "{path}: GET has a body");
    }
    // Answered before the routes: a bad token, as organiser, and signed in.
    let (status, _, _) = assert_head_is_get_without_body(
        &server,
        "/api/events/democon/talks/",
        &[("authorization", "Token wrong")],
    )
    .await;
    assert_eq!(status, 401);
    let orga = format!("Token {}", tok::ORGA);
    for path in ["/api/events/democon/submissions/", "/democon/schedule.xml"] {
        let (status, _, _) =
            assert_head_is_get_without_body(&server, path, &[("authorization", &orga)]).await;
        assert_eq!(status, 200, "{path}");
    }
}

#[tokio::test]
async fn head_sends_the_compressed_length_of_a_compressed_get() {
    let server = TestServer::start(&[democon()]).await;
    for path in [
        "/api/events/democon/talks/?limit=50",
        "/democon/schedule.xml",
        "/democon/schedule.json",
    ] {
        let (_, identity, encoding) = assert_head_is_get_without_body(&server, path, &[]).await;
        assert_eq!(encoding, None, "{path}");
        for (accept, token) in [("gzip", "gzip"), ("br", "br"), ("gzip, br", "br")] {
            let (status, compressed, encoding) =
                assert_head_is_get_without_body(&server, path, &[("accept-encoding", accept)])
                    .await;
            assert_eq!(status, 200, "{path} {accept}");
            assert_eq!(encoding.as_deref(), Some(token), "{path} {accept}");
            assert!(compressed < identity, "{path} {accept}: compressed");
        }
    }
}

#[tokio::test]
async fn head_304_is_get_304_without_a_length() {
    let server = TestServer::start(&[democon()]).await;
    for path in ["/api/events/democon/talks/", "/democon/schedule.xml"] {
        for accept in ["identity", "br"] {
            let (_, headers, _) =
                exchange(&server, "GET", path, &[("accept-encoding", accept)]).await;
            let etag = headers["etag"].to_str().unwrap().to_string();
            let request = [
                ("accept-encoding", accept),
                ("if-none-match", etag.as_str()),
            ];
            let get = exchange(&server, "GET", path, &request).await;
            let head = exchange(&server, "HEAD", path, &request).await;
            for (method, (status, headers, body)) in [("GET", get), ("HEAD", head)] {
                assert_eq!(status, 304, "{method} {path} {accept}");
                assert!(body.is_empty(), "{method} {path} {accept}");
                assert_eq!(headers["etag"], etag.as_str(), "{method} {path} {accept}");
                // A 304 may only send the 200's length (RFC 9110 §8.6); it sends none.
                assert!(
                    headers.get("content-length").is_none(),
                    "{method} {path} {accept}: {:?}",
                    headers.get("content-length")
                );
            }
        }
    }
}

#[tokio::test]
async fn etag_and_if_none_match() {
    let server = TestServer::start(&[mini()]).await;
    let first = server.anon().get("/api/events/mini/talks/").await;
    let etag = first
        .header("etag")
        .expect("an ETag on every 200")
        .to_string();
    let again = server
        .anon()
        .request(
            "GET",
            "/api/events/mini/talks/",
            &[("If-None-Match", &etag)],
        )
        .await;
    assert_eq!(again.status, 304);
    assert_eq!(again.text, "");
    let other = server
        .anon()
        .request(
            "GET",
            "/api/events/mini/talks/",
            &[("If-None-Match", "\"other\"")],
        )
        .await;
    assert_eq!(other.status, 200);
}

#[tokio::test]
async fn the_three_authorization_forms_authenticate() {
    let server = TestServer::start(&[democon()]).await;
    for header in [
        format!("Token {}", tok::ORGA),
        format!("Bearer {}", tok::ORGA),
        format!("tOkEn {}", tok::ORGA),
        tok::ORGA.to_string(),
    ] {
        let me = server.authorization(&header).ok("/api/me").await;
        assert_eq!(
            me,
            json!({"name": "Olga Organiser", "email": "orga@example.org", "locale": "en", "timezone": "UTC"}),
            "{header}"
        );
    }
}

#[tokio::test]
async fn bad_authorization_is_401_everywhere() {
    let server = TestServer::start(&[democon()]).await;
    let upper = format!("Token {}", tok::ORGA.to_uppercase());
    for header in [
        "Token nope",
        "Token",
        "Token a b",
        "Basic dXNlcjpwYXNz",
        "",
        upper.as_str(),
    ] {
        for path in [
            "/api/events/",
            "/api/events/democon/talks/",
            "/api/events/nope/",
            "/api/me",
        ] {
            let reply = server.authorization(header).get(path).await;
            assert_eq!(reply.status, 401, "{header:?} {path}");
            assert_eq!(reply.body, json!({"detail": "Invalid token."}));
            assert_eq!(reply.header("www-authenticate"), Some("Token"));
        }
    }
}

#[tokio::test]
async fn probes_need_no_authentication() {
    let server = TestServer::start(&[mini()]).await;
    let health = server.authorization("Token nope").get("/healthz").await;
    assert_eq!(health.status, 200);
    let metrics = server.authorization("").get("/metrics").await;
    assert_eq!(metrics.status, 200);
    assert!(metrics
        .header("content-type")
        .unwrap()
        .starts_with("text/plain"));
    assert!(metrics.text.contains("confapi_requests_total"));
}

#[tokio::test]
async fn me_is_null_for_anonymous_callers() {
    let server = TestServer::start(&[mini()]).await;
    assert_eq!(
        server.anon().ok("/api/me/").await,
        json!({"name": null, "email": null, "locale": null, "timezone": null})
    );
}

#[tokio::test]
async fn api_root_and_openapi_describe_every_endpoint() {
    let server = TestServer::start(&[mini()]).await;
    let root = server.anon().ok("/api/").await;
    let paths: Vec<&str> = root["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    for resource in [
        "submissions",
        "talks",
        "speakers",
        "questions",
        "answers",
        "reviews",
        "rooms",
        "tags",
    ] {
        assert!(
            paths.contains(&format!("/api/events/{{event}}/{resource}/").as_str()),
            "{resource}"
        );
    }
    let openapi = server.anon().ok("/api/openapi.json").await;
    assert_eq!(openapi["openapi"], "3.1.0");
    assert!(
        openapi["paths"]["/api/events/{event}/submissions/"]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "questions")
    );
}

#[tokio::test]
async fn malformed_paths_still_get_json_errors() {
    let server = TestServer::start(&[mini()]).await;
    for path in [
        "/api/events/mini/submissions/%FF%FE/",
        "/api/events/mini/tags/%C3/",
        "/api/events/%FF/",
    ] {
        let reply = server.anon().get(path).await;
        assert!(
            reply.status == 400 || reply.status == 403 || reply.status == 404,
            "{path}: {}",
            reply.status
        );
        assert_eq!(
            reply.header("content-type"),
            Some("application/json"),
            "{path}"
        );
        assert!(reply.body["detail"].is_string(), "{path}: {}", reply.text);
    }
}

/// `q` is bounded (its cost grows with its size): more than 500 characters
/// or more than 20 distinct terms is a 400 naming `q`, on every searchable
/// list and for every caller; repeated terms count once.
#[tokio::test]
async fn oversized_searches_are_refused_with_a_400() {
    let server = TestServer::start(&[democon()]).await;
    let long = "a".repeat(501);
    let many: Vec<String> = (0..21).map(|i| format!("t{i}")).collect();
    let many = many.join("+");
    let repeated = vec!["talk"; 60].join("+");
    for list in ["submissions", "talks", "speakers", "questions", "answers"] {
        for client in [
            server.anon(),
            server.token(tok::ORGA),
            server.token(tok::REVIEWER),
        ] {
            for q in [&long, &many] {
                let path = format!("/api/events/democon/{list}/?q={q}");
                helpers::assert_bad_parameters(&client.get(&path).await, &["q"], &path);
            }
            let path = format!("/api/events/democon/{list}/?q={repeated}");
            let reply = client.get(&path).await;
            assert_eq!(reply.status, 200, "{path}: {}", reply.text);
            let single = client
                .get(&format!("/api/events/democon/{list}/?q=talk"))
                .await;
            assert_eq!(reply.body["count"], single.body["count"], "{path}");
        }
    }
    // Exactly at the bounds: accepted.
    let path = format!("/api/events/democon/talks/?q={}", "a".repeat(500));
    assert_eq!(server.anon().get(&path).await.status, 200);
    let twenty: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
    let path = format!("/api/events/democon/talks/?q={}", twenty.join("+"));
    assert_eq!(server.anon().get(&path).await.status, 200);
}

/// Found by the `request` fuzz target (fuzz/corpus/request holds the
/// input): a probe's path with more than one trailing slash, or a fragment
/// after one (`/healthz//#/0` reaches the server as `/healthz//`), was let
/// past the transport rules as a probe, but no probe route matches it, and
/// the fallback found no caller: a 500. It is a path like any other that
/// nothing serves: 404, in JSON.
#[tokio::test]
async fn a_probe_path_with_extra_slashes_is_not_found() {
    let server = TestServer::start(&[mini()]).await;
    for path in ["/healthz//", "/readyz///", "/metrics//", "/healthz//x"] {
        let reply = server.anon().get(path).await;
        assert_eq!(
            (reply.status, reply.body),
            (404, serde_json::json!({"detail": "Not found."})),
            "{path}"
        );
    }
    for path in ["/healthz", "/healthz/", "/readyz/", "/metrics"] {
        assert_eq!(server.anon().get(path).await.status, 200, "{path}");
    }
}
