//! behaviour.md §6 "Speakers" (with the §1, §4, §5 and §8 rules it shares
//! with questions and answers), over HTTP, for every role: which profiles,
//! fields, answers, search, lookups and pagination, on `world()`
//! (helpers/world.rs), then on democon.json and edge.json, where the named
//! submissions decide.

use crate::helpers::world::*;
use crate::helpers::{self, democon, edge, Client, TestServer, EDGE_HASHONLY_TOKEN};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

// ==========================================================================
// Speakers: which, per role
// ==========================================================================

#[tokio::test]
async fn speakers_organisers_and_administrators_see_every_profile_with_email_and_availabilities() {
    let server = TestServer::start(&[world()]).await;
    let expected = page(vec![
        speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[], true),
        speaker("SPK2", &["SUB2", "SUB3"], &[], true),
        // a profile without submissions: organisers only
        speaker("SPK3", &[], &[], true),
        speaker("SPK4", &["SUB4"], &[], true),
    ]);
    for token in [ORGA, ADMIN] {
        assert_eq!(
            server.token(token).ok(&p("speakers/")).await,
            expected,
            "{token}"
        );
    }
}

#[tokio::test]
async fn speakers_reviewers_with_names_see_the_speakers_of_their_submissions_and_public_ones() {
    let server = TestServer::start(&[world()]).await;
    // REV has reviewer access to every submission.
    assert_eq!(
        server.token(REV).ok(&p("speakers/")).await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[], false),
            speaker("SPK2", &["SUB2", "SUB3"], &[], false),
            speaker("SPK4", &["SUB4"], &[], false),
        ])
    );
    // TRACKREV reviews track 2 only (SUB4), and sees the public talks.
    assert_eq!(
        server.token(TRACK).ok(&p("speakers/")).await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1"], &[], false),
            speaker("SPK4", &["SUB4"], &[], false)
        ])
    );
}

#[tokio::test]
async fn speakers_the_public_sees_speakers_of_public_talks_once() {
    let server = TestServer::start(&[world()]).await;
    // SPK1 gives two public talks: listed once, with both codes sorted.
    let expected = page(vec![speaker("SPK1", &["APUB", "PUB1"], &[], false)]);
    assert_eq!(server.anon().ok(&p("speakers/")).await, expected);
    assert_eq!(server.token(NOBODY).ok(&p("speakers/")).await, expected);
}

#[tokio::test]
async fn speakers_reviewers_without_names_see_exactly_the_public_set() {
    let server = TestServer::start(&[world()]).await;
    let public = server.anon().ok(&p("speakers/?questions=all")).await;
    assert_eq!(
        public,
        page(vec![speaker("SPK1", &["APUB", "PUB1"], &[109], false)])
    );
    // a team with force_hide_speaker_names
    assert_eq!(
        server.token(BLIND).ok(&p("speakers/?questions=all")).await,
        public
    );
    // a phase without speaker names: every reviewer is blind
    let server = TestServer::start(&[world_with(|e| {
        e["review_phase"] = json!({"can_see_speaker_names": false});
    })])
    .await;
    for token in [REV, TRACK, BLIND] {
        assert_eq!(
            server.token(token).ok(&p("speakers/?questions=all")).await,
            public,
            "{token}"
        );
    }
    // organisers are never blind
    assert_eq!(server.token(ORGA).ok(&p("speakers/")).await["count"], 4);
}

#[tokio::test]
async fn speakers_a_reviewer_with_one_team_not_hiding_names_sees_names() {
    // BLIND also joins a track-2 team without force_hide_speaker_names:
    // not every one of their teams hides names.
    let server = TestServer::start(&[world_with(|e| {
        assert_eq!(e["teams"][2]["name"], "Side reviewers");
        e["teams"][2]["members"] = json!(["TRACKREV", "BLIND"]);
    })])
    .await;
    assert_eq!(
        server.token(BLIND).ok(&p("speakers/")).await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[], false),
            speaker("SPK2", &["SUB2", "SUB3"], &[], false),
            speaker("SPK4", &["SUB4"], &[], false),
        ])
    );
}

#[tokio::test]
async fn speakers_without_a_public_schedule_the_public_set_is_empty() {
    for change in [
        |e: &mut Value| e["show_schedule"] = json!(false),
        |e: &mut Value| {
            e["schedule"] = Value::Null;
            for s in e["submissions"].as_array_mut().unwrap() {
                s.as_object_mut().unwrap().remove("slots");
            }
        },
    ] {
        let server = TestServer::start(&[world_with(change)]).await;
        for client in [server.anon(), server.token(NOBODY), server.token(BLIND)] {
            assert_eq!(client.ok(&p("speakers/")).await, page(vec![]));
            assert_not_found(&client, &p("speakers/SPK1/")).await;
        }
        // reviewers with names still see their submissions' speakers, but
        // APUB and PUB1 are no longer public talks
        assert_eq!(
            server.token(TRACK).ok(&p("speakers/")).await,
            page(vec![speaker("SPK4", &["SUB4"], &[], false)])
        );
        assert_eq!(server.token(REV).ok(&p("speakers/")).await["count"], 3);
    }
}

// ==========================================================================
// Speakers: fields, answers, search, lookups
// ==========================================================================

#[tokio::test]
async fn speaker_availabilities_are_all_day_only_from_local_midnight_to_local_midnight() {
    let server = TestServer::start(&[world()]).await;
    let body = server.token(ORGA).ok(&p("speakers/SPK1/")).await;
    assert_eq!(
        body["availabilities"],
        json!([
            // midnight UTC is 02:00 in Europe/Berlin
            {"id": 1, "start": "2026-06-01T02:00:00+02:00", "end": "2026-06-02T02:00:00+02:00", "allDay": false},
            {"id": 2, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-03T00:00:00+02:00", "allDay": true},
            // only the start is at midnight
            {"id": 3, "start": "2026-06-01T00:00:00+02:00", "end": "2026-06-01T12:00:00+02:00", "allDay": false},
            // winter time: 23:00Z is local midnight
            {"id": 4, "start": "2026-01-11T00:00:00+01:00", "end": "2026-01-12T00:00:00+01:00", "allDay": true}
        ])
    );
    // The same instants in a UTC event: midnight UTC is all-day there.
    let server = TestServer::start(&[world_with(|e| e["timezone"] = json!("UTC"))]).await;
    let body = server.token(ORGA).ok(&p("speakers/spk1")).await;
    assert_eq!(
        body["availabilities"],
        json!([
            {"id": 1, "start": "2026-06-01T00:00:00Z", "end": "2026-06-02T00:00:00Z", "allDay": true},
            {"id": 2, "start": "2026-05-31T22:00:00Z", "end": "2026-06-02T22:00:00Z", "allDay": false},
            {"id": 3, "start": "2026-05-31T22:00:00Z", "end": "2026-06-01T10:00:00Z", "allDay": false},
            {"id": 4, "start": "2026-01-10T23:00:00Z", "end": "2026-01-11T23:00:00Z", "allDay": false}
        ])
    );
}

#[tokio::test]
async fn speaker_availabilities_in_edge_time_zones() {
    let data = edge();
    let orga = helpers::token_of(&data, "orga@edge.example");
    let server = TestServer::start(&[data]).await;
    let orga = server.token(&orga);
    // Asia/Kolkata (+05:30)
    assert_eq!(
        orga.ok("/api/events/edge.conf/speakers/EDGSPK/").await["availabilities"],
        json!([
            {"id": 9409, "start": "2026-12-03T00:00:00+05:30", "end": "2026-12-04T00:00:00+05:30", "allDay": true},
            {"id": 9410, "start": "2026-12-04T09:00:00+05:30", "end": "2026-12-04T13:30:00+05:30", "allDay": false}
        ])
    );
    assert_eq!(
        orga.ok("/api/events/EDGE.CONF/speakers/edgs01").await["availabilities"],
        json!([
            // written in UTC, local midnight to local midnight
            {"id": 9411, "start": "2026-12-03T00:00:00+05:30", "end": "2026-12-06T00:00:00+05:30", "allDay": true},
            {"id": 9412, "start": "2026-12-05T10:15:30.123456+05:30", "end": "2026-12-05T11:00:00+05:30", "allDay": false}
        ])
    );
    // America/St_Johns (-03:30): midnight UTC is 20:30 the day before
    let hashonly = server.token(EDGE_HASHONLY_TOKEN);
    assert_eq!(
        hashonly
            .ok("/api/events/edge-private/speakers/EDGS04/")
            .await["availabilities"],
        json!([
            {"id": 9418, "start": "2026-11-20T00:00:00-03:30", "end": "2026-11-21T00:00:00-03:30", "allDay": true},
            {"id": 9419, "start": "2026-11-19T20:30:00-03:30", "end": "2026-11-20T20:30:00-03:30", "allDay": false}
        ])
    );
    // nobody but organisers gets availabilities or e-mails
    let reviewer = server.token(&helpers::token_of(&edge(), "reviewer@edge.example"));
    let body = reviewer.ok("/api/events/edge.conf/speakers/EDGSPK/").await;
    let keys: BTreeSet<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "code",
            "name",
            "biography",
            "submissions",
            "avatar",
            "answers"
        ])
    );
}

#[tokio::test]
async fn speaker_answers_follow_the_questions_parameter_and_the_answer_rule() {
    let server = TestServer::start(&[world()]).await;
    let list = |token: Option<&'static str>, query: &'static str| {
        let client = match token {
            Some(t) => server.token(t),
            None => server.anon(),
        };
        async move { client.ok(&p(&format!("speakers/{query}"))).await }
    };
    // absent or empty: no answers
    for query in ["", "?questions="] {
        assert_eq!(
            list(Some(ORGA), query).await["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["answers"].clone())
                .collect::<Vec<_>>(),
            vec![json!([]); 4],
            "{query:?}"
        );
    }
    assert_eq!(
        list(Some(ORGA), "?questions=all").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[109, 111], true),
            speaker("SPK2", &["SUB2", "SUB3"], &[110], true),
            speaker("SPK3", &[], &[112], true),
            speaker("SPK4", &["SUB4"], &[113], true),
        ])
    );
    // only the listed questions (an unknown id selects nothing)
    assert_eq!(
        list(Some(ORGA), "?questions=7,99").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[111], true),
            speaker("SPK2", &["SUB2", "SUB3"], &[], true),
            speaker("SPK3", &[], &[], true),
            speaker("SPK4", &["SUB4"], &[113], true),
        ])
    );
    assert_eq!(
        list(Some(REV), "?questions=all").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1", "SUB3"], &[109, 111], false),
            speaker("SPK2", &["SUB2", "SUB3"], &[110], false),
            speaker("SPK4", &["SUB4"], &[113], false),
        ])
    );
    // TRACKREV reviews none of SPK1's submissions: only the public answer
    assert_eq!(
        list(Some(TRACK), "?questions=all").await,
        page(vec![
            speaker("SPK1", &["APUB", "PUB1"], &[109], false),
            speaker("SPK4", &["SUB4"], &[113], false)
        ])
    );
    assert_eq!(
        list(None, "?questions=6,7").await,
        page(vec![speaker("SPK1", &["APUB", "PUB1"], &[109], false)])
    );
    // detail endpoints too
    assert_eq!(
        server
            .token(REV)
            .ok(&p("speakers/spk2/?questions=all"))
            .await,
        speaker("SPK2", &["SUB2", "SUB3"], &[110], false)
    );
    assert_eq!(
        server.token(REV).ok(&p("speakers/SPK2")).await,
        speaker("SPK2", &["SUB2", "SUB3"], &[], false)
    );
}

#[tokio::test]
async fn speaker_questions_parameter_is_validated_on_list_and_detail() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    for value in ["abc", "1,", "all,1", "-1", "%201", "1,,2", "ALL"] {
        assert_bad_params(
            &orga,
            &p(&format!("speakers/?questions={value}")),
            &["questions"],
        )
        .await;
        assert_bad_params(
            &orga,
            &p(&format!("speakers/SPK1/?questions={value}")),
            &["questions"],
        )
        .await;
    }
    // with a bad page parameter as well: one key per bad parameter
    assert_bad_params(
        &orga,
        &p("speakers?questions=x&limit=-1"),
        &["questions", "limit"],
    )
    .await;
}

#[tokio::test]
async fn speaker_search_by_email_is_for_organisers_only() {
    let server = TestServer::start(&[world()]).await;
    for token in [ORGA, ADMIN] {
        let client = server.token(token);
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=bob@mini")).await),
            ["SPK2"]
        );
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=MINI.EXAMPLE")).await),
            ["SPK1", "SPK2", "SPK3", "SPK4"]
        );
        // one term in the e-mail, one in the name
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=dee@ fourth")).await),
            ["SPK4"]
        );
    }
    for client in [
        server.token(REV),
        server.token(TRACK),
        server.token(BLIND),
        server.token(NOBODY),
        server.anon(),
    ] {
        assert_eq!(
            client.ok(&p("speakers/?q=mini.example")).await,
            page(vec![])
        );
        assert_eq!(client.ok(&p("speakers/?q=ada@")).await, page(vec![]));
        // ... while the name alone finds her
        assert_eq!(
            result_codes(&client.ok(&p("speakers/?q=ada")).await),
            ["SPK1"]
        );
    }
    // a reviewer without names searches the public set only
    assert_eq!(
        result_codes(&server.token(BLIND).ok(&p("speakers/?q=bob")).await),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn speaker_search_needs_every_term_in_the_name() {
    let server = TestServer::start(&[world()]).await;
    let rev = server.token(REV);
    assert_eq!(
        rev.ok(&p("speakers/?q=BOB")).await,
        page(vec![speaker("SPK2", &["SUB2", "SUB3"], &[], false)])
    );
    assert_eq!(
        result_codes(&rev.ok(&p("speakers/?q=talker%20bob")).await),
        ["SPK2"]
    );
    assert_eq!(
        result_codes(&rev.ok(&p("speakers/?q=bob+ada")).await),
        Vec::<String>::new()
    );
    // biography is not searched
    assert_eq!(
        result_codes(&rev.ok(&p("speakers/?q=bio")).await),
        Vec::<String>::new()
    );
    // empty q counts as absent
    assert_eq!(rev.ok(&p("speakers/?q=")).await["count"], 3);
    // the public searches only its own set
    assert_eq!(
        result_codes(&server.anon().ok(&p("speakers/?q=bob")).await),
        Vec::<String>::new()
    );
    assert_eq!(
        result_codes(&server.anon().ok(&p("speakers/?q=ADA")).await),
        ["SPK1"]
    );
    // organisers: the profile without submissions is searchable
    assert_eq!(
        result_codes(&server.token(ORGA).ok(&p("speakers/?q=cy")).await),
        ["SPK3"]
    );
}

#[tokio::test]
async fn speaker_detail_is_case_insensitive_and_404_when_invisible() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    assert_eq!(
        orga.ok(&p("speakers/spk3/")).await,
        speaker("SPK3", &[], &[], true)
    );
    assert_eq!(
        orga.ok(&p("speakers/Spk4")).await,
        speaker("SPK4", &["SUB4"], &[], true)
    );
    // detail endpoints ignore list parameters
    assert_eq!(
        server
            .anon()
            .ok(&p("speakers/spk1/?q=nomatch&page=abc&limit=-3"))
            .await,
        speaker("SPK1", &["APUB", "PUB1"], &[], false)
    );
    for (client, code) in [
        (server.anon(), "SPK2"),
        (server.anon(), "SPK3"),
        (server.token(NOBODY), "spk4"),
        (server.token(BLIND), "SPK2"),
        (server.token(TRACK), "SPK2"),
        (server.token(REV), "SPK3"),
        // users without a profile: organisers, reviewers
        (server.token(ORGA), "ORGA"),
        (server.token(ORGA), "REV"),
        (server.token(ORGA), "NOPE"),
    ] {
        assert_not_found(&client, &p(&format!("speakers/{code}/"))).await;
    }
}

#[tokio::test]
async fn speakers_pagination_in_both_styles() {
    let server = TestServer::start(&[world()]).await;
    let orga = server.token(ORGA);
    let base = &server.base;
    let first = orga.ok(&p("speakers/?limit=2")).await;
    assert_eq!(first["count"], 4);
    assert_eq!(result_codes(&first), ["SPK1", "SPK2"]);
    assert_link(
        &first["next"],
        base,
        Some("/api/events/mini/speakers/?limit=2&offset=2"),
    );
    assert_link(&first["previous"], base, None);
    let second = orga.ok(&p("speakers/?limit=2&offset=2")).await;
    assert_eq!(result_codes(&second), ["SPK3", "SPK4"]);
    assert_link(&second["next"], base, None);
    assert_link(
        &second["previous"],
        base,
        Some("/api/events/mini/speakers/?limit=2&offset=0"),
    );
    // page style, without the trailing slash, keeping the other parameters
    let last = orga
        .ok(&p("speakers?questions=all&page=2&page_size=3"))
        .await;
    assert_eq!(last["count"], 4);
    assert_eq!(
        last["results"],
        json!([speaker("SPK4", &["SUB4"], &[113], true)])
    );
    assert_link(&last["next"], base, None);
    assert_link(
        &last["previous"],
        base,
        Some("/api/events/mini/speakers?questions=all&page=1&page_size=3"),
    );
    let reply = orga.get(&p("speakers/?page=3&page_size=3")).await;
    assert_eq!(
        (reply.status, reply.body),
        (404, json!({"detail": "Invalid page."}))
    );
    // past the end with offsets: empty results
    let beyond = orga.ok(&p("speakers/?offset=10")).await;
    assert_eq!(
        (beyond["count"].clone(), beyond["results"].clone()),
        (json!(4), json!([]))
    );
    assert_bad_params(&orga, &p("speakers/?page=abc"), &["page"]).await;
    // following `next` gives everything once
    let all = orga.all(&p("speakers/?limit=1")).await;
    assert_eq!(
        all.iter()
            .map(|s| s["code"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["SPK1", "SPK2", "SPK3", "SPK4"]
    );
    // the public's page of an empty list
    let server = TestServer::start(&[world_with(|e| e["show_schedule"] = json!(false))]).await;
    assert_eq!(server.anon().ok(&p("speakers/?page=1")).await, page(vec![]));
}

#[tokio::test]
async fn speakers_trailing_slash_case_and_unknown_events() {
    let server = TestServer::start(&[world_with(|e| e["is_public"] = json!(false))]).await;
    let rev = server.token(REV);
    assert_same(&rev, &p("speakers/"), "/api/events/MINI/speakers").await;
    assert_same(&rev, &p("speakers/SPK1/"), &p("speakers/spk1")).await;
    assert_same(
        &rev,
        &p("speakers/SPK1?questions=all"),
        &p("speakers/sPk1/?questions=all"),
    )
    .await;
    for client in [server.anon(), server.token(NOBODY), rev] {
        for path in [
            "/api/events/nope/speakers/",
            "/api/events/nope/speakers",
            "/api/events/nope/speakers/SPK1/",
        ] {
            assert_forbidden(&client, path).await;
        }
    }
    // the private event is invisible to the public
    for client in [server.anon(), server.token(NOBODY)] {
        for path in [p("speakers/"), p("speakers"), p("speakers/SPK1")] {
            assert_forbidden(&client, &path).await;
        }
    }
}

/// behaviour.md §3: an administrator, or a member of a team of the event
/// with `can_change_submissions`.
fn is_organiser(dataset: &Value, event: &Value, code: Option<&str>) -> bool {
    let Some(code) = code else { return false };
    let admin = dataset["users"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["code"] == code && u["is_administrator"] == true);
    admin
        || event["teams"].as_array().into_iter().flatten().any(|t| {
            t["can_change_submissions"] == true
                && t["members"].as_array().unwrap().iter().any(|m| m == code)
        })
}

// ==========================================================================
// Speakers over the shared datasets: the named submissions decide
// ==========================================================================

/// For one caller and event: the speaker list is sorted by code without
/// duplicates; each speaker's `submissions` are exactly the codes of the
/// caller's submissions (not anonymised) that name them, sorted; and the
/// set is every profile (organisers) or the speakers of those submissions.
async fn check_speakers(client: &Client, slug: &str, event: &Value, who: &str, orga: bool) {
    let base = format!("/api/events/{slug}");
    if client.get(&format!("{base}/")).await.status == 403 {
        return;
    }
    let speakers = client.all(&format!("{base}/speakers/?limit=1000")).await;
    let codes: Vec<&str> = speakers
        .iter()
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    let mut sorted = codes.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(codes, sorted, "{who} {slug}: sorted by code, no duplicates");
    let mut named: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for sub in client.all(&format!("{base}/submissions/?limit=1000")).await {
        for spk in sub["speakers"].as_array().unwrap() {
            named
                .entry(spk["code"].as_str().unwrap().to_string())
                .or_default()
                .insert(sub["code"].as_str().unwrap().to_string());
        }
    }
    let profiles: BTreeSet<&str> = event["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["user"].as_str().unwrap())
        .collect();
    let expected_set: BTreeSet<&str> = if orga {
        profiles.clone()
    } else {
        named
            .keys()
            .map(String::as_str)
            .filter(|c| profiles.contains(c))
            .collect()
    };
    assert_eq!(
        codes.iter().copied().collect::<BTreeSet<_>>(),
        expected_set,
        "{who} {slug}: the speaker set"
    );
    for s in &speakers {
        let code = s["code"].as_str().unwrap();
        let expected: Vec<String> = named
            .get(code)
            .map(|set| set.iter().cloned().collect())
            .unwrap_or_default();
        assert_eq!(s["submissions"], json!(expected), "{who} {slug} {code}");
        assert_eq!(s.get("email").is_some(), orga, "{who} {slug} {code}: email");
        assert_eq!(
            s.get("availabilities").is_some(),
            orga,
            "{who} {slug} {code}: availabilities"
        );
        let detail = client
            .ok(&format!("{base}/speakers/{}/", code.to_lowercase()))
            .await;
        assert_eq!(&detail, s, "{who} {slug} {code}: detail");
    }
    // a profile outside the caller's set is 404
    for profile in profiles.difference(&expected_set) {
        assert_not_found(client, &format!("{base}/speakers/{profile}/")).await;
    }
}

async fn check_dataset_speakers(dataset: Value, extra: &[(&str, &str, &str)]) {
    let server = TestServer::start(std::slice::from_ref(&dataset)).await;
    for caller in callers(&dataset, extra) {
        let client = caller.client(&server);
        for event in dataset["events"].as_array().unwrap() {
            let slug = event["slug"].as_str().unwrap();
            let orga = is_organiser(&dataset, event, caller.code.as_deref());
            check_speakers(&client, slug, event, &caller.who, orga).await;
        }
    }
}

#[tokio::test]
async fn speakers_match_the_named_submissions_for_every_caller_of_democon() {
    check_dataset_speakers(democon(), &[]).await;
}

#[tokio::test]
async fn speakers_match_the_named_submissions_for_every_caller_of_edge() {
    check_dataset_speakers(edge(), &[EDGE_HASHONLY]).await;
}

#[tokio::test]
async fn speakers_match_the_named_submissions_for_every_caller_of_world() {
    check_dataset_speakers(world(), &[]).await;
}

#[tokio::test]
async fn edge_hidden_reviewers_without_names_see_no_speakers() {
    // edge-hidden: the schedule is hidden (no public set) and the phase hides names.
    let data = edge();
    let server = TestServer::start(std::slice::from_ref(&data)).await;
    for email in [
        "reviewer@edge.example",
        "assigned@edge.example",
        "limited@edge.example",
    ] {
        let client = server.token(&helpers::token_of(&data, email));
        assert_eq!(
            client.ok("/api/events/edge-hidden/speakers/").await,
            page(vec![]),
            "{email}"
        );
        assert_eq!(
            client
                .ok("/api/events/edge-hidden/answers/?person=EDGSPK")
                .await,
            page(vec![]),
            "{email}"
        );
    }
    // the organiser sees every profile there
    let orga = server.token(&helpers::token_of(&data, "orga@edge.example"));
    assert_eq!(
        orga.ok("/api/events/edge-hidden/speakers/").await["count"],
        9
    );
}
