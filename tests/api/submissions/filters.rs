//! The filters of the submission and talk lists: alone, combined, with both
//! pagination styles on democon.json (`next` keeps them), and search after
//! another import renamed a speaker.

use super::*;

/// base() with seven submissions of every state, two types, three locales,
/// two featured, and another event whose type id 5 is unknown here.
fn filter_dataset() -> Value {
    let mut d = base();
    let e = mini_event(&mut d);
    list_of(e, "submission_types")
        .push(json!({"id": 2, "name": {"en": "Workshop"}, "default_duration": 90}));
    let subs = list_of(e, "submissions");
    for (code, title, speakers, stype, state, locale, featured) in [
        (
            "SUB4",
            "Rust Workshop",
            vec!["SPK1"],
            2,
            "accepted",
            "de",
            true,
        ),
        (
            "SUB5",
            "Public Speaking Workshop",
            vec!["SPK2"],
            2,
            "rejected",
            "en-GB",
            false,
        ),
        (
            "SUB6",
            "Withdrawn Talk",
            vec!["SPK1"],
            1,
            "withdrawn",
            "en",
            false,
        ),
        (
            "SUB7",
            "Canceled Talk",
            vec!["SPK2"],
            1,
            "canceled",
            "en",
            true,
        ),
    ] {
        subs.push(
            json!({"code": code, "title": title, "speakers": speakers, "submission_type": stype,
                         "state": state, "content_locale": locale, "is_featured": featured,
                         "created": "2026-03-05T12:00:00Z"}),
        );
    }
    d["events"].as_array_mut().unwrap().push(json!({
        "slug": "other", "name": "Other", "is_public": true, "date_from": "2026-07-01",
        "submission_types": [{"id": 5, "name": "Talk"}]}));
    d
}

const ALL7: [&str; 7] = ["PUB1", "SUB2", "SUB3", "SUB4", "SUB5", "SUB6", "SUB7"];

async fn assert_filter(
    client: &Client,
    resource: &str,
    query: &str,
    expected: &[&str],
    context: &str,
) {
    let reply = client.get(&format!("{EV}/{resource}/?{query}")).await;
    assert_eq!(
        reply.status, 200,
        "{context} {resource}?{query}: {}",
        reply.text
    );
    assert_eq!(
        reply.count() as usize,
        expected.len(),
        "{context} {resource}?{query}"
    );
    assert_eq!(
        code_list(reply.body["results"].as_array().unwrap()),
        strings(expected),
        "{context} {resource}?{query}"
    );
}

#[tokio::test]
async fn q_needs_every_term_in_the_title_or_a_speakers_name() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("q=public", &["PUB1", "SUB5"][..]),
        ("q=PUBLIC%20talk", &["PUB1", "SUB5"]), // SUB5's "talk" is in its speaker Bob Talker
        ("q=PUBLIC%20speaking", &["SUB5"]),
        ("q=public%20ADA", &["PUB1"]),
        ("q=ada", &["PUB1", "SUB3", "SUB4", "SUB6"]),
        ("q=ADA%20speaker", &["PUB1", "SUB3", "SUB4", "SUB6"]),
        ("q=ada%20workshop", &["SUB4"]),
        ("q=bob%20ada", &["SUB3"]), // each term may match another speaker
        ("q=talker+public", &["SUB5"]), // a name term and a title term
        ("q=%20%20workshop%20%20rust%20", &["SUB4"]),
        ("q=tal", &["PUB1", "SUB2", "SUB3", "SUB5", "SUB6", "SUB7"]), // substrings: "Talk", "Talker"
        ("q=nothing", &[]),
        ("q=mini", &[]), // not the e-mail
        ("q=SPK1", &[]), // not the speaker code
        ("q=", &ALL7),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    // The public and reviewers search their own set only.
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "q=bob",
        &[],
        "public",
    )
    .await;
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "q=ada",
        &["PUB1"],
        "public",
    )
    .await;
    assert_filter(
        &REVIEWER.client(&server),
        "submissions",
        "q=bob",
        &["SUB2", "SUB3", "SUB5", "SUB7"],
        "reviewer",
    )
    .await;
    assert_filter(
        &REVIEWER.client(&server),
        "talks",
        "q=ada",
        &["PUB1"],
        "reviewer",
    )
    .await;
    assert_filter(&REVIEWER.client(&server), "talks", "q=bob", &[], "reviewer").await;
}

#[tokio::test]
async fn state_is_repeatable_exact_and_validated() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("state=confirmed", &["PUB1"][..]),
        ("state=submitted", &["SUB2", "SUB3"]),
        ("state=accepted", &["SUB4"]),
        ("state=rejected", &["SUB5"]),
        ("state=withdrawn", &["SUB6"]),
        ("state=canceled", &["SUB7"]),
        ("state=confirmed&state=accepted", &["PUB1", "SUB4"]),
        (
            "state=accepted&state=confirmed&state=accepted",
            &["PUB1", "SUB4"],
        ),
        ("state=&state=withdrawn", &["SUB6"]),
        ("state=withdrawn&state=", &["SUB6"]),
        ("state=", &ALL7),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    for query in [
        "state=bogus",
        "state=draft",
        "state=deleted",
        "state=Confirmed",
        "state=CONFIRMED",
        "state=confirmed%20",
        "state=confirmed&state=draft",
        "state=confirmed,accepted",
    ] {
        for path in ["submissions", "talks/"] {
            let reply = orga.get(&format!("{EV}/{path}?{query}")).await;
            assert_bad_parameters(&reply, &["state"], &format!("{path}?{query}"));
            let reply = server.anon().get(&format!("{EV}/{path}?{query}")).await;
            assert_bad_parameters(&reply, &["state"], &format!("anonymous {path}?{query}"));
        }
    }
    // Within the caller's set.
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "state=submitted",
        &[],
        "public",
    )
    .await;
    assert_filter(
        &REVIEWER.client(&server),
        "submissions",
        "state=submitted&state=confirmed",
        &["PUB1", "SUB2", "SUB3"],
        "reviewer",
    )
    .await;
    assert_filter(&orga, "talks", "state=confirmed", &["PUB1"], "organiser").await;
    assert_filter(&orga, "talks", "state=accepted", &[], "organiser").await;
}

#[tokio::test]
async fn submission_type_filters_by_id_of_this_event() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("submission_type=2", &["SUB4", "SUB5"][..]),
        (
            "submission_type=1",
            &["PUB1", "SUB2", "SUB3", "SUB6", "SUB7"],
        ),
        ("submission_type=", &ALL7),
        ("submission_type=99&submission_type=2", &["SUB4", "SUB5"]), // the last value counts
        ("submission_type=1&state=submitted", &["SUB2", "SUB3"]),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    assert_filter(&orga, "talks", "submission_type=2", &[], "organiser").await;
    assert_filter(
        &NOBODY.client(&server),
        "submissions",
        "submission_type=2",
        &[],
        "public",
    )
    .await;
    for value in ["99", "5", "abc", "-1", "1.0", "%201", "0", "Talk"] {
        for path in ["submissions/", "talks"] {
            let reply = orga
                .get(&format!("{EV}/{path}?submission_type={value}"))
                .await;
            assert_bad_parameters(
                &reply,
                &["submission_type"],
                &format!("{path}?submission_type={value}"),
            );
        }
    }
}

#[tokio::test]
async fn content_locale_matches_exactly() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("content_locale=de", &["SUB4"][..]),
        (
            "content_locale=en",
            &["PUB1", "SUB2", "SUB3", "SUB6", "SUB7"],
        ),
        ("content_locale=en-GB", &["SUB5"]),
        ("content_locale=EN", &[]),
        ("content_locale=en-gb", &[]),
        ("content_locale=e", &[]),
        ("content_locale=xx", &[]),
        ("content_locale=", &ALL7),
    ] {
        assert_filter(&orga, "submissions", query, expected, "organiser").await;
    }
    assert_filter(&orga, "talks", "content_locale=en", &["PUB1"], "organiser").await;
    assert_filter(&orga, "talks", "content_locale=de", &[], "organiser").await;
}

#[tokio::test]
async fn is_featured_accepts_booleans_in_any_case() {
    let server = TestServer::start(&[filter_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for value in ["true", "TRUE", "True", "tRuE", "1"] {
        assert_filter(
            &orga,
            "submissions",
            &format!("is_featured={value}"),
            &["SUB4", "SUB7"],
            "organiser",
        )
        .await;
    }
    for value in ["false", "FALSE", "False", "0"] {
        assert_filter(
            &orga,
            "submissions",
            &format!("is_featured={value}"),
            &["PUB1", "SUB2", "SUB3", "SUB5", "SUB6"],
            "organiser",
        )
        .await;
    }
    assert_filter(&orga, "submissions", "is_featured=", &ALL7, "organiser").await;
    assert_filter(
        &orga,
        "submissions",
        "is_featured=maybe&is_featured=true",
        &["SUB4", "SUB7"],
        "organiser",
    )
    .await;
    assert_filter(
        &orga,
        "submissions",
        "is_featured=true&submission_type=2",
        &["SUB4"],
        "organiser",
    )
    .await;
    assert_filter(&orga, "talks", "is_featured=true", &[], "organiser").await;
    assert_filter(&orga, "talks", "is_featured=false", &["PUB1"], "organiser").await;
    for value in ["yes", "no", "2", "t", "f", "truee", "%20true", "01"] {
        for path in ["submissions", "talks/"] {
            let reply = orga.get(&format!("{EV}/{path}?is_featured={value}")).await;
            assert_bad_parameters(
                &reply,
                &["is_featured"],
                &format!("{path}?is_featured={value}"),
            );
        }
    }
}

#[tokio::test]
async fn several_bad_parameters_give_one_400_with_one_key_each() {
    let server = TestServer::start(&[filter_dataset()]).await;
    for caller in [ANONYMOUS, REVIEWER, ORGANISER] {
        let client = caller.client(&server);
        for path in ["submissions", "talks/"] {
            let reply = client
                .get(&format!("{EV}/{path}?state=nope&state=draft&submission_type=x&is_featured=maybe&questions=abc&q=fine&content_locale=fine"))
                .await;
            assert_bad_parameters(
                &reply,
                &["state", "submission_type", "is_featured", "questions"],
                &format!("{} {path}", caller.name),
            );
            let reply = client
                .get(&format!("{EV}/{path}?state=nope&submission_type=99&is_featured=2&questions=1,&page=x&page_size=-1&limit=y&offset=-3"))
                .await;
            assert_bad_parameters(
                &reply,
                &[
                    "state",
                    "submission_type",
                    "is_featured",
                    "questions",
                    "page",
                    "page_size",
                    "limit",
                    "offset",
                ],
                &format!("{} {path} with pagination", caller.name),
            );
        }
    }
    // Empty values count as absent: no error, no filter.
    let orga = ORGANISER.client(&server);
    assert_filter(
        &orga,
        "submissions",
        "state=&submission_type=&is_featured=&content_locale=&q=&questions=&anon=",
        &ALL7,
        "empty",
    )
    .await;
}

// ---------------------------------------------------------------------------
// Filters with pagination (democon): both styles, `next` keeps the filters
// ---------------------------------------------------------------------------

/// The query pairs of a link other than the pagination ones.
fn filter_pairs(url: &str) -> Vec<(String, String)> {
    reqwest::Url::parse(url)
        .expect("an absolute link")
        .query_pairs()
        .filter(|(k, _)| !["page", "page_size", "limit", "offset"].contains(&k.as_ref()))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Follows `next` from `path`, checking that every link keeps the filters.
async fn follow(client: &Client, path: &str, filters: &[(String, String)]) -> Vec<String> {
    let mut url = format!("{}{path}", client.base);
    let mut out = Vec::new();
    let mut pages = 0;
    loop {
        let reply = client.request_url("GET", &url, &[]).await;
        assert_eq!(reply.status, 200, "GET {url}: {}", reply.text);
        pages += 1;
        out.extend(code_list(reply.body["results"].as_array().unwrap()));
        for link in ["next", "previous"] {
            if let Some(link_url) = reply.body[link].as_str() {
                assert_eq!(filter_pairs(link_url), filters, "{link} of {url}");
            }
        }
        match reply.body["next"].as_str() {
            Some(next) => url = next.to_string(),
            None => break,
        }
    }
    assert!(pages > 1, "{path}: a single page proves nothing");
    out
}

#[tokio::test]
async fn filters_combine_with_both_pagination_styles_and_next_links_keep_them() {
    let doc = democon();
    let server = TestServer::start(&[doc]).await;
    for (token, resource, query) in [
        (
            Some(tok::ORGA),
            "submissions",
            "state=confirmed&state=rejected",
        ),
        (
            Some(tok::ORGA),
            "submissions",
            "submission_type=1&is_featured=false&questions=all&anon=1",
        ),
        (
            Some(tok::TRACK_REVIEWER),
            "submissions",
            "is_featured=0&content_locale=en",
        ),
        (Some(tok::REVIEWER), "submissions", "q=e&state=confirmed"),
        (Some(tok::ADMIN), "talks", "state=confirmed&q=e"),
        (None, "talks", "content_locale=en&questions=1,2"),
        (None, "submissions", "is_featured=FALSE"),
    ] {
        let client = match token {
            Some(t) => server.token(t),
            None => server.anon(),
        };
        let base_path = format!("/api/events/democon/{resource}/");
        let filters: Vec<(String, String)> = filter_pairs(&format!("http://x/?{query}"));
        let full = client.ok(&format!("{base_path}?{query}&limit=1000")).await;
        let all: Vec<String> = code_list(full["results"].as_array().unwrap());
        assert_eq!(full["count"], all.len(), "{query}");
        assert!(
            all.len() > 7,
            "{query}: too few results ({}) to paginate",
            all.len()
        );
        let offset_style = follow(&client, &format!("{base_path}?{query}&limit=7"), &filters).await;
        assert_eq!(offset_style, all, "{resource}?{query} limit/offset");
        let page_style = follow(
            &client,
            &format!("{base_path}?{query}&page_size=7"),
            &filters,
        )
        .await;
        assert_eq!(page_style, all, "{resource}?{query} page/page_size");
        // Direct pages of both styles give the same window.
        let page2 = client
            .ok(&format!("{base_path}?{query}&page=2&page_size=5"))
            .await;
        let window = client
            .ok(&format!("{base_path}?{query}&limit=5&offset=5"))
            .await;
        assert_eq!(
            code_list(page2["results"].as_array().unwrap()),
            all[5..10.min(all.len())].to_vec(),
            "{query} page 2"
        );
        assert_eq!(page2["results"], window["results"], "{query}: both styles");
        assert_eq!(page2["count"], all.len());
        assert_eq!(window["count"], all.len());
        // Each page's objects equal those of the unpaginated list.
        assert_eq!(
            page2["results"].as_array().unwrap()[..],
            full["results"].as_array().unwrap()[5..10.min(all.len())]
        );
    }
}

// ---------------------------------------------------------------------------
// Search after users change
// ---------------------------------------------------------------------------

/// Users are global: an import of another event that renames a speaker must
/// change what `q` finds in this event, which is not reloaded.
#[tokio::test]
async fn search_follows_a_speaker_renamed_by_another_import() {
    let server = TestServer::start(&[mini()]).await;
    let found = |body: serde_json::Value| -> Vec<String> {
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["code"].as_str().unwrap().to_string())
            .collect()
    };
    let orga = server.token("orga-token");
    assert_eq!(
        found(orga.ok("/api/events/mini/submissions/?q=ada").await),
        ["PUB1", "SUB3"]
    );

    let mut other = mini();
    other["users"] = json!([{"code": "SPK1", "name": "Zelda Quill", "email": "ada@mini.example"}]);
    other["events"][0]["slug"] = json!("other");
    other["events"][0]["teams"] = json!([]);
    other["events"][0]["submissions"] = json!([]);
    other["events"][0]["speakers"] = json!([{"user": "SPK1"}]);
    server.import(&other).await;

    assert_eq!(
        found(orga.ok("/api/events/mini/submissions/?q=zelda").await),
        ["PUB1", "SUB3"]
    );
    assert!(found(orga.ok("/api/events/mini/submissions/?q=ada").await).is_empty());
}
