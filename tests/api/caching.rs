//! The response cache and the visible sets: a cached answer is byte for
//! byte what a server without caches renders for the same caller, whoever
//! asked first, across re-imports, review-phase changes and deadlines; and
//! it is sent compressed, with ETags and `Vary`, as HTTP requires.

use std::io::Read;

use serde_json::{json, Value};

use crate::helpers::*;
use confapi::http::Config;

/// Everyone who can call: anonymous, then every user with a token.
fn callers(dataset: &Value) -> Vec<(String, Option<String>)> {
    let mut out = vec![("anonymous".to_string(), None)];
    for user in dataset["users"].as_array().unwrap() {
        if let Some(token) = user["tokens"][0].as_str() {
            out.push((
                user["email"].as_str().unwrap().to_string(),
                Some(token.to_string()),
            ));
        }
    }
    out
}

/// Every list and detail of every event, with filters, searches and pages.
fn paths(dataset: &Value) -> Vec<String> {
    let mut out = vec![
        "/api/events/".to_string(),
        "/api/events/?limit=1&offset=1".into(),
    ];
    for event in dataset["events"].as_array().unwrap() {
        let slug = event["slug"].as_str().unwrap();
        let base = format!("/api/events/{slug}");
        out.push(format!("{base}/"));
        for list in ["submissions", "talks"] {
            for query in [
                "",
                "?questions=all",
                "?anon=1",
                "?page=2&page_size=2",
                "?limit=3&offset=4&questions=all",
                "?q=a",
                "?q=the%20a",
                "?state=submitted&state=accepted",
                "?is_featured=true",
            ] {
                out.push(format!("{base}/{list}/{query}"));
            }
        }
        for query in [
            "",
            "?questions=all",
            "?q=a",
            "?q=example",
            "?page=2&page_size=1",
        ] {
            out.push(format!("{base}/speakers/{query}"));
        }
        for query in ["", "?q=a", "?page=2&page_size=3"] {
            out.push(format!("{base}/answers/{query}"));
        }
        for list in ["reviews", "questions", "rooms", "tags"] {
            out.push(format!("{base}/{list}/"));
        }
        for sub in event["submissions"].as_array().unwrap().iter().take(6) {
            let code = sub["code"].as_str().unwrap();
            out.push(format!("{base}/submissions/{code}/?questions=all"));
            out.push(format!("{base}/talks/{code}/"));
        }
        for speaker in event["speakers"].as_array().unwrap().iter().take(4) {
            let code = speaker["user"].as_str().unwrap();
            out.push(format!("{base}/speakers/{code}/"));
        }
        for review in event["reviews"].as_array().unwrap().iter().take(4) {
            out.push(format!("{base}/reviews/{}/", review["id"]));
        }
    }
    out
}

fn client(server: &TestServer, token: &Option<String>) -> Client {
    match token {
        Some(token) => server.token(token),
        None => server.anon(),
    }
}

/// Asks `cached` for every path as every caller, in `order`, and compares
/// each answer with what `reference` (no caches) gives that caller.
async fn assert_same_answers(
    cached: &TestServer,
    reference: &TestServer,
    callers: &[(String, Option<String>)],
    paths: &[String],
    context: &str,
) {
    for path in paths {
        for (name, token) in callers {
            let got = client(cached, token).get(path).await;
            let want = client(reference, token).get(path).await;
            let got_base = got.text.replace(&cached.base, "BASE");
            let want_base = want.text.replace(&reference.base, "BASE");
            assert_eq!(
                (got.status, got_base),
                (want.status, want_base),
                "{context}: {name} GET {path}"
            );
        }
    }
}

fn no_cache() -> Config {
    Config {
        response_cache_bytes: 0,
        list_cache_bytes: 0,
        ..Config::default()
    }
}

#[tokio::test]
async fn no_caller_ever_gets_an_answer_rendered_for_another() {
    for dataset in [democon(), edge()] {
        let cached = TestServer::start(std::slice::from_ref(&dataset)).await;
        let reference = TestServer::start_with(std::slice::from_ref(&dataset), no_cache()).await;
        let mut callers = callers(&dataset);
        let paths = paths(&dataset);
        // Each order fills the cache with another caller's answers first.
        assert_same_answers(&cached, &reference, &callers, &paths, "first round").await;
        callers.reverse();
        assert_same_answers(&cached, &reference, &callers, &paths, "reversed").await;
        let half = callers.len() / 2;
        callers.rotate_left(half);
        assert_same_answers(&cached, &reference, &callers, &paths, "rotated").await;
    }
}

/// Review-phase changes, team changes and edits reach every caller at once:
/// nothing rendered before the import is served after it.
#[tokio::test]
async fn re_imports_and_review_phase_changes_are_never_served_stale() {
    let dataset = democon();
    let cached = TestServer::start(std::slice::from_ref(&dataset)).await;
    let reference = TestServer::start_with(std::slice::from_ref(&dataset), no_cache()).await;
    let callers = callers(&dataset);
    let paths = paths(&dataset);
    assert_same_answers(&cached, &reference, &callers, &paths, "before").await;

    let mut changed = dataset.clone();
    let event = &mut changed["events"][0];
    event["review_phase"]["can_see_speaker_names"] = json!(false);
    event["review_phase"]["can_see_other_reviews"] = json!("never");
    event["review_phase"]["proposal_visibility"] = json!("assigned");
    event["submissions"][0]["title"] = json!("A title changed by the re-import");
    // The track-limited reviewers now cover another track.
    for team in event["teams"].as_array_mut().unwrap() {
        if !team["limit_tracks"].as_array().unwrap().is_empty() {
            team["limit_tracks"] = json!([2]);
        }
    }
    cached.import(&changed).await;
    reference.import(&changed).await;
    assert_same_answers(&cached, &reference, &callers, &paths, "after the change").await;

    // And back: the first generation's entries are not resurrected.
    cached.import(&dataset).await;
    reference.import(&dataset).await;
    assert_same_answers(&cached, &reference, &callers, &paths, "changed back").await;
}

/// A user without a role who becomes an administrator (and back) gets
/// each role's view, never the other's.
#[tokio::test]
async fn a_caller_whose_role_changes_gets_the_new_role_s_view() {
    let dataset = mini();
    let cached = TestServer::start(std::slice::from_ref(&dataset)).await;
    let nobody = cached.token("nobody-token");
    let before = nobody.ok("/api/events/mini/submissions/").await;
    assert_eq!(before["count"], 1, "the public talk only: {before}");

    let mut promoted = dataset.clone();
    promoted["users"][2]["is_administrator"] = json!(true);
    assert_eq!(promoted["users"][2]["code"], "NOBODY");
    cached.import(&promoted).await;
    let after = nobody.ok("/api/events/mini/submissions/").await;
    assert_eq!(
        after["count"], 3,
        "an administrator sees every submission: {after}"
    );

    cached.import(&dataset).await;
    let again = nobody.ok("/api/events/mini/submissions/").await;
    assert_eq!(again, before);
}

/// `required` turns true when a question's deadline passes: an answer
/// cached before the deadline is not served after it.
#[tokio::test]
async fn answers_that_change_with_the_clock_are_not_served_from_before() {
    let mut dataset = democon();
    let deadline = chrono::Utc::now() + chrono::Duration::seconds(2);
    let questions = dataset["events"][0]["questions"].as_array_mut().unwrap();
    questions[0]["question_required"] = json!("after_deadline");
    questions[0]["deadline"] = json!(deadline.to_rfc3339());
    questions[0]["freeze_after"] = Value::Null;
    let id = questions[0]["id"].clone();
    let server = TestServer::start(&[dataset]).await;
    let orga = server.token(democon_tokens::ORGA);
    let path = format!("/api/events/democon/questions/{id}/");
    let before = orga.ok(&path).await;
    assert_eq!(before["required"], false, "{before}");
    assert_eq!(orga.ok(&path).await, before, "served again from the cache");
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let after = orga.ok(&path).await;
    assert_eq!(after["required"], true, "{after}");
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::BrotliDecompress(&mut &bytes[..], &mut out).unwrap();
    out
}

/// Raw bytes, without the client's own decompression.
async fn raw(
    server: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut request = http_client().get(format!("{}{path}", server.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn answers_are_compressed_once_per_encoding_with_their_own_etags() {
    let server = TestServer::start(&[democon()]).await;
    let path = "/api/events/democon/talks/?limit=50";
    let (status, plain_headers, plain) = raw(&server, path, &[]).await;
    assert_eq!(status, 200);
    assert!(plain.len() > 1024, "big enough to compress");
    assert!(plain_headers.get("content-encoding").is_none());
    assert_eq!(
        plain_headers["vary"],
        "Accept, Accept-Encoding, Authorization, Pretalx-Version"
    );
    let plain_etag = plain_headers["etag"].to_str().unwrap().to_string();

    for (accept, encoding, decode) in [
        ("gzip, deflate", "gzip", gunzip as fn(&[u8]) -> Vec<u8>),
        ("gzip, deflate, br", "br", unbrotli),
        ("br;q=0, gzip;q=1", "gzip", gunzip),
    ] {
        for round in 0..2 {
            let (status, headers, body) = raw(&server, path, &[("accept-encoding", accept)]).await;
            assert_eq!(status, 200, "{accept} #{round}");
            assert_eq!(headers["content-encoding"], encoding, "{accept}");
            assert_eq!(headers["content-type"], "application/json");
            assert_eq!(
                headers["vary"],
                "Accept, Accept-Encoding, Authorization, Pretalx-Version"
            );
            assert_eq!(decode(&body), plain, "{accept}: the same JSON");
            assert!(body.len() < plain.len() / 3, "{accept}: compressed");
            let etag = headers["etag"].to_str().unwrap();
            assert_eq!(
                etag,
                format!("{}-{encoding}\"", plain_etag.trim_end_matches('"'))
            );
            // Revalidating with the tag of this encoding, or of another one.
            for tag in [etag, plain_etag.as_str()] {
                let (status, headers, body) = raw(
                    &server,
                    path,
                    &[("accept-encoding", accept), ("if-none-match", tag)],
                )
                .await;
                assert_eq!(status, 304, "{accept} with {tag}");
                assert!(body.is_empty());
                assert_eq!(headers["etag"], etag);
            }
        }
    }
    // Identity when nothing acceptable is offered.
    let (_, headers, body) = raw(&server, path, &[("accept-encoding", "gzip;q=0, zstd")]).await;
    assert!(headers.get("content-encoding").is_none());
    assert_eq!(body, plain);
    // Small answers are not compressed.
    let (_, headers, _) = raw(
        &server,
        "/api/events/democon/rooms/?limit=1",
        &[("accept-encoding", "br")],
    )
    .await;
    assert!(headers.get("content-encoding").is_none());
    // HEAD: the same headers, no body.
    let head = server
        .anon()
        .request("HEAD", path, &[("accept-encoding", "br")])
        .await;
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-encoding"), Some("br"));
    assert!(head.text.is_empty());
}

/// Pages of a cached visible set are the pages of the whole list, for
/// every page size and both styles, and searches find what a scan finds.
#[tokio::test]
async fn every_page_of_a_kept_list_is_its_slice_of_the_whole() {
    let dataset = democon();
    let server = TestServer::start(&[dataset]).await;
    let orga = server.token(democon_tokens::ORGA);
    for list in ["submissions", "talks", "speakers", "answers", "reviews"] {
        let whole = orga
            .ok(&format!("/api/events/democon/{list}/?limit=1000"))
            .await;
        let whole = whole["results"].as_array().unwrap().clone();
        assert!(whole.len() > 3, "{list}");
        for size in [1, 2, 7] {
            let mut pages = Vec::new();
            let mut page = 1;
            loop {
                let reply = orga
                    .get(&format!(
                        "/api/events/democon/{list}/?page={page}&page_size={size}"
                    ))
                    .await;
                assert_eq!(reply.status, 200, "{list} page {page}");
                assert_eq!(reply.count() as usize, whole.len());
                pages.extend(reply.body["results"].as_array().unwrap().clone());
                if reply.body["next"].is_null() {
                    break;
                }
                page += 1;
            }
            assert_eq!(pages, whole, "{list} in pages of {size}");
        }
    }
}

#[tokio::test]
async fn cache_figures_are_in_the_metrics() {
    let server = TestServer::start(&[mini()]).await;
    let anon = server.anon();
    anon.ok("/api/events/mini/talks/").await;
    anon.ok("/api/events/mini/talks/").await;
    let metrics = anon.get("/metrics").await.text;
    let value = |name: &str| -> u64 {
        metrics
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} missing: {metrics}"))
            .parse()
            .unwrap()
    };
    assert!(value("confapi_response_cache_hits_total") >= 1);
    assert!(value("confapi_response_cache_misses_total") >= 1);
    assert!(value("confapi_response_cache_bytes") > 0);
}
