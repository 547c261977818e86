//! Whole sync rounds (`run_once`) against a fake pretalx: a small event in
//! pretalx's v1/v2 shapes, whose release, accepted `Pretalx-Version`s,
//! paging rules and refusals each test sets. The mirror is a SQLite file
//! in a temporary directory; what it stored is read back with `export`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::*;

/// What the fake pretalx does.
#[derive(Clone)]
struct Fake {
    /// `GET /api/`'s answer; `None`: an HTML error page with `root_status`
    /// (pretalx 2025.2.2 and older: a 404, or a 500 where that page cannot
    /// be rendered, as in the 2025.2.2 fixture).
    root: Option<Value>,
    root_status: StatusCode,
    /// The `Pretalx-Version` values answered; any other is a 400.
    versions: Vec<&'static str>,
    /// What `/api/organisers/org/teams/` answers (pretalx 2026.2: 403 to a
    /// token that does not cover every event of the organiser).
    teams: StatusCode,
    /// The most items one page holds, whatever `page_size` asks: the
    /// reader must follow `next`.
    per_page: usize,
    /// 2026.3: `limit`/`offset` are gone from the versioned API; a request
    /// that uses them is answered 400 here so that the test sees it.
    no_limit_offset: bool,
}

impl Fake {
    fn pretalx_2026_2() -> Self {
        Fake {
            root: Some(
                json!({"name": "pretalx", "version": "2026.2.1", "api_version": "v2",
                              "urls": {"events": "https://pretalx.example/api/events/"}}),
            ),
            root_status: StatusCode::OK,
            versions: vec!["v2", "v-next", "v1", "LEGACY"],
            teams: StatusCode::OK,
            per_page: 1,
            no_limit_offset: false,
        }
    }

    fn pretalx_2026_3() -> Self {
        Fake {
            root: Some(
                json!({"name": "pretalx", "version": "2026.3.0", "api_version": "v2",
                              "urls": {"events": "https://pretalx.example/api/events/"}}),
            ),
            versions: vec!["v2", "v-next", "v1"],
            no_limit_offset: true,
            ..Self::pretalx_2026_2()
        }
    }

    fn pretalx_2025() -> Self {
        Fake {
            root: None,
            // What the 2025.2.2 fixture answers (its 404 page fails).
            root_status: StatusCode::INTERNAL_SERVER_ERROR,
            versions: vec!["v1", "DEV_PREVIEW", "LEGACY"],
            teams: StatusCode::OK,
            per_page: 1,
            no_limit_offset: false,
        }
    }
}

/// Every request the fake answered: path and query, `Pretalx-Version`,
/// whether it carried the token.
type Asked = Arc<Mutex<Vec<(String, Option<String>, bool)>>>;

fn event() -> Value {
    json!({"name": {"en": "Conf"}, "slug": "conf", "is_public": false,
           "date_from": "2026-06-01", "date_to": "2026-06-02",
           "timezone": "Europe/Berlin", "email": "orga@example.org",
           "primary_color": null, "custom_domain": null, "logo": null,
           "header_image": null, "og_image": null,
           "locale": "en", "locales": ["en"], "content_locales": ["en"]})
}

fn submission(code: &str, speakers: &[&str]) -> Value {
    json!({
        "code": code, "title": format!("Talk {code}"), "speakers": speakers,
        "submission_type": 1, "track": null, "tags": [], "state": "submitted",
        "abstract": "A", "description": "D", "duration": 30, "slot_count": 1,
        "content_locale": "en", "do_not_record": false, "image": null,
        "resources": [], "slots": [], "answers": [], "pending_state": null,
        "is_featured": false, "notes": "", "internal_notes": "",
        "invitation_token": "AVUPRXJ8J7HVVLHUHW8PFV8HJWJYFUD7", "access_code": null,
        "review_code": null, "anonymised_data": "{}", "reviews": [],
        "assigned_reviewers": [], "is_anonymised": false,
        "created": "2026-05-01T10:00:00+02:00", "updated": "2026-05-02T10:00:00+02:00",
        "invitations": [],
    })
}

fn speaker(code: &str, name: &str, submissions: &[&str]) -> Value {
    json!({"code": code, "name": name, "biography": null, "submissions": submissions,
           "avatar_url": "", "answers": [], "email": format!("{}@example.org", code.to_lowercase()),
           "timezone": "UTC", "locale": "en", "has_arrived": false, "internal_notes": null,
           "availabilities": []})
}

/// The lists of the event, by name.
fn lists() -> HashMap<&'static str, Vec<Value>> {
    HashMap::from([
        // Two speakers, the second's code sorting first: pretalx's order
        // is the order speakers were added.
        (
            "submissions",
            vec![
                submission("ABC123", &["ZED9", "ADA1"]),
                submission("DEF456", &["ADA1"]),
            ],
        ),
        (
            "speakers",
            vec![speaker("ADA1", "Ada", &["ABC123", "DEF456"]), {
                // A speaker with a time zone and locale of their own.
                let mut zed = speaker("ZED9", "Zed", &["ABC123"]);
                zed["timezone"] = json!("Asia/Tokyo");
                zed["locale"] = json!("de");
                zed
            }],
        ),
        ("schedules", vec![]),
        ("slots", vec![]),
        ("questions", vec![]),
        ("answers", vec![]),
        ("reviews", vec![]),
        (
            "rooms",
            vec![
                json!({"id": 4, "name": {"en": "Hall"}, "description": null,
                       "uuid": "41b9257f-c393-5661-8135-298ffbdea1b2", "guid": null,
                       "capacity": 100, "position": 0, "speaker_info": null,
                       "availabilities": []}),
                json!({"id": 5, "name": {"en": "Annex"}, "description": null,
                       "uuid": "0b63f4ae-55e4-4a8d-a1d4-1b4ea4c2f9f1", "guid": null,
                       "capacity": null, "position": 1, "speaker_info": null,
                       "availabilities": []}),
            ],
        ),
        ("tags", vec![]),
        ("tracks", vec![]),
        (
            "submission-types",
            vec![
                json!({"id": 1, "name": {"en": "Talk"}, "default_duration": 30,
                        "deadline": null, "requires_access_code": false}),
            ],
        ),
    ])
}

fn teams() -> Vec<Value> {
    vec![
        json!({"id": 1, "name": "Upstream orga", "all_events": true, "limit_events": [],
               "limit_tracks": [], "can_change_submissions": true, "is_reviewer": false,
               "force_hide_speaker_names": false, "invites": [], "can_change_teams": true,
               "can_create_events": true,
               "members": [{"code": "UPST", "name": "Uma", "email": "uma@example.org"}]}),
    ]
}

fn query(uri: &Uri) -> HashMap<String, String> {
    uri.query()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// One page of `items` as pretalx's page-number pagination shows it, with
/// `next` naming the public host (only its path may be used).
fn page(path: &str, q: &HashMap<String, String>, items: &[Value], per_page: usize) -> Value {
    let asked: usize = q
        .get("page_size")
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let size = asked.clamp(1, per_page);
    let number: usize = q.get("page").and_then(|s| s.parse().ok()).unwrap_or(1);
    let start = (number - 1) * size;
    let results: Vec<Value> = items.iter().skip(start).take(size).cloned().collect();
    let link = |n: usize| {
        let mut params: Vec<String> = q
            .iter()
            .filter(|(k, _)| *k != "page")
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        params.sort();
        params.push(format!("page={n}"));
        json!(format!(
            "https://pretalx.example{path}?{}",
            params.join("&")
        ))
    };
    json!({
        "count": items.len(),
        "next": if start + size < items.len() { link(number + 1) } else { Value::Null },
        "previous": if number > 1 { link(number - 1) } else { Value::Null },
        "results": results,
    })
}

fn answer(fake: &Fake, uri: &Uri, headers: &HeaderMap) -> Response {
    let path = uri.path();
    let q = query(uri);
    let version = headers
        .get("pretalx-version")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let bad =
        |why: &str| (StatusCode::BAD_REQUEST, axum::Json(json!({"detail": why}))).into_response();
    if path == "/api/" {
        return match &fake.root {
            Some(root) => axum::Json(root.clone()).into_response(),
            None => (fake.root_status, "<html>Not found</html>").into_response(),
        };
    }
    if let Some(v) = &version {
        if !fake.versions.contains(&v.as_str()) {
            return bad("invalid_version");
        }
    }
    let legacy = version.as_deref() == Some("LEGACY");
    if fake.no_limit_offset && !legacy && (q.contains_key("limit") || q.contains_key("offset")) {
        return bad("limit/offset paging is gone: use page and page_size");
    }
    if path == "/api/events/" {
        return axum::Json(json!([event()])).into_response();
    }
    if path == "/api/events/conf/" {
        return axum::Json(event()).into_response();
    }
    if path == "/api/organisers/org/teams/" {
        if fake.teams != StatusCode::OK {
            return (
                fake.teams,
                axum::Json(json!({"detail": "You do not have permission to perform this action."})),
            )
                .into_response();
        }
        return axum::Json(page(path, &q, &teams(), fake.per_page)).into_response();
    }
    if let Some(name) = path
        .strip_prefix("/api/events/conf/")
        .and_then(|rest| rest.strip_suffix('/'))
    {
        if legacy {
            // Only the times are read from the legacy format.
            let items: Vec<Value> = match name {
                "submissions" => lists()["submissions"]
                    .iter()
                    .map(|s| json!({"code": s["code"], "created": "2026-05-01T10:00:00+02:00"}))
                    .collect(),
                "reviews" => vec![],
                _ => return (StatusCode::IM_A_TEAPOT, "unexpected").into_response(),
            };
            let limit: usize = q.get("limit").and_then(|s| s.parse().ok()).unwrap_or(100);
            let results: Vec<Value> = items.into_iter().take(limit).collect();
            return axum::Json(json!({"count": results.len(), "next": null,
                                     "previous": null, "results": results}))
            .into_response();
        }
        if let Some(items) = lists().get(name) {
            return axum::Json(page(path, &q, items, fake.per_page)).into_response();
        }
    }
    if path.starts_with("/conf/schedule/") {
        return (StatusCode::NOT_FOUND, "<html>Not found</html>").into_response();
    }
    (StatusCode::IM_A_TEAPOT, format!("unexpected {uri}")).into_response()
}

/// Starts the fake; its origin, and the requests it answers.
async fn serve(fake: Fake) -> (String, Asked) {
    let asked: Asked = Arc::default();
    let log = asked.clone();
    let app = axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap| {
        let log = log.clone();
        let fake = fake.clone();
        async move {
            let version = headers
                .get("pretalx-version")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let path = uri.path_and_query().map_or("", |p| p.as_str()).to_string();
            log.lock()
                .unwrap()
                .push((path, version, headers.contains_key("authorization")));
            answer(&fake, &uri, &headers)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (origin, asked)
}

fn options(origin: &str, access: Option<Value>, organiser: Option<&str>) -> Options {
    Options {
        from: origin.to_string(),
        token: "event-bound-token".into(),
        events: Vec::new(),
        access,
        timeout: Duration::from_secs(5),
        api: Api::Auto,
        organiser: organiser.map(str::to_string),
        ca_certs: Vec::new(),
        max_body: client::DEFAULT_MAX_BODY,
        round_timeout: client::DEFAULT_ROUND_TIMEOUT,
        redirect_hosts: Vec::new(),
    }
}

/// A fresh mirror, in a directory that lives as long as the test.
async fn mirror() -> (tempfile::TempDir, std::sync::Arc<dyn crate::storage::Store>) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("mirror.db").display());
    let store = crate::storage::open(&url).await.unwrap();
    (dir, store)
}

/// The mirrored event `conf`, as the dataset document `export` writes.
async fn mirrored(store: &dyn crate::storage::Store) -> Value {
    let dataset = store.export(&["conf".to_string()]).await.unwrap();
    let document = serde_json::to_value(crate::dataset::export::Document::new(&dataset)).unwrap();
    document["events"][0].clone()
}

fn access_with_teams() -> Value {
    json!({
        "users": [{"code": "ORGA", "name": "Olga", "email": "olga@example.org",
                   "tokens": ["olgas-token"]}],
        "events": [{"slug": "conf", "teams": [
            {"name": "From the access file", "members": ["ORGA"],
             "can_change_submissions": true}]}],
    })
}

#[tokio::test]
async fn organiser_teams_refused_come_from_the_access_file() {
    let (origin, asked) = serve(Fake {
        teams: StatusCode::FORBIDDEN,
        ..Fake::pretalx_2026_2()
    })
    .await;
    let (_dir, store) = mirror().await;
    let round = run_once(
        &options(&origin, Some(access_with_teams()), Some("org")),
        store.as_ref(),
        &|_| {},
    )
    .await
    .expect("a refused teams list does not stop the sync");
    assert_eq!(
        round.notes,
        [format!(
            "teams: GET {origin}/api/organisers/org/teams/ answered 403 (pretalx 2026.2 shows \
             organiser-level endpoints only to tokens that cover every event of the organiser): \
             the teams come from the access file"
        )]
    );
    let event = mirrored(store.as_ref()).await;
    let teams: Vec<&str> = event["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(teams, ["From the access file"]);
    assert_eq!(event["organiser"], json!("org"));
    // Asked once, not retried.
    let teams_asked = asked
        .lock()
        .unwrap()
        .iter()
        .filter(|(p, _, _)| p.starts_with("/api/organisers/"))
        .count();
    assert_eq!(teams_asked, 1);
}

#[tokio::test]
async fn organiser_teams_read_when_the_token_may() {
    let (origin, _) = serve(Fake::pretalx_2026_2()).await;
    let (_dir, store) = mirror().await;
    let round = run_once(
        &options(&origin, None, Some("org")),
        store.as_ref(),
        &|_| {},
    )
    .await
    .unwrap();
    assert!(round.notes.is_empty(), "{:?}", round.notes);
    let event = mirrored(store.as_ref()).await;
    assert_eq!(event["teams"][0]["name"], json!("Upstream orga"));
}

#[tokio::test]
async fn an_unknown_organiser_still_fails_the_round() {
    let (origin, _) = serve(Fake {
        teams: StatusCode::NOT_FOUND,
        ..Fake::pretalx_2026_2()
    })
    .await;
    let (_dir, store) = mirror().await;
    let err = run_once(
        &options(&origin, None, Some("org")),
        store.as_ref(),
        &|_| {},
    )
    .await
    .unwrap_err();
    assert!(err.message.contains("/api/organisers/org/teams/"), "{err}");
}

/// The requests of the versioned API (not `GET /api/`, not the legacy
/// format's times, not the exports).
fn versioned(asked: &Asked) -> Vec<(String, Option<String>)> {
    asked
        .lock()
        .unwrap()
        .iter()
        .filter(|(path, version, _)| {
            path.starts_with("/api/") && path != "/api/" && version.as_deref() != Some("LEGACY")
        })
        .map(|(path, version, _)| (path.clone(), version.clone()))
        .collect()
}

/// Every submission and room made it, through pages of one.
async fn assert_everything_mirrored(store: &dyn crate::storage::Store) {
    let event = mirrored(store).await;
    let codes: Vec<&str> = event["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["ABC123", "DEF456"]);
    assert_eq!(event["rooms"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn pretalx_2026_2_is_read_through_v2_by_its_next_links() {
    let (origin, asked) = serve(Fake::pretalx_2026_2()).await;
    let (_dir, store) = mirror().await;
    let round = run_once(&options(&origin, None, None), store.as_ref(), &|_| {})
        .await
        .unwrap();
    assert_eq!(round.release.as_ref().unwrap().version, "2026.2.1");
    assert_eq!(round.version, Some("v2"));
    let first = asked.lock().unwrap()[0].clone();
    assert_eq!(
        first,
        ("/api/".to_string(), None, false),
        "asked first, anonymously and without a version (a token is pinned to the first it sees)"
    );
    let read = versioned(&asked);
    assert!(read.len() > 10);
    for (path, version) in &read {
        assert_eq!(version.as_deref(), Some("v2"), "{path}");
        assert!(
            !path.contains("limit=") && !path.contains("offset="),
            "{path}"
        );
    }
    // Pages of one: the second page of each two-item list comes from `next`.
    assert!(read
        .iter()
        .any(|(p, _)| p.starts_with("/api/events/conf/rooms/") && p.contains("page=2")));
    assert!(read
        .iter()
        .any(|(p, _)| p.starts_with("/api/events/conf/submissions/") && p.contains("page=2")));
    assert_everything_mirrored(store.as_ref()).await;
}

#[tokio::test]
async fn pretalx_2026_3_without_legacy_and_limit_offset() {
    let (origin, asked) = serve(Fake::pretalx_2026_3()).await;
    let (_dir, store) = mirror().await;
    let round = run_once(&options(&origin, None, None), store.as_ref(), &|_| {})
        .await
        .expect("2026.3's rules do not break the v2 reader");
    assert_eq!(round.version, Some("v2"));
    assert!(versioned(&asked)
        .iter()
        .all(|(p, _)| !p.contains("limit=") && !p.contains("offset=")));
    assert_everything_mirrored(store.as_ref()).await;
    // `created` comes from v2 itself (pretalx 2026.1 and later).
    let event = mirrored(store.as_ref()).await;
    assert_eq!(
        event["submissions"][0]["created"],
        json!("2026-05-01T08:00:00Z")
    );
}

#[tokio::test]
async fn pretalx_2025_without_get_api_is_read_through_v1_as_before() {
    let started = std::time::Instant::now();
    let (origin, asked) = serve(Fake::pretalx_2025()).await;
    let (_dir, store) = mirror().await;
    let round = run_once(&options(&origin, None, None), store.as_ref(), &|_| {})
        .await
        .unwrap();
    assert_eq!(round.release, None);
    assert_eq!(round.version, Some("v1"));
    // Asked once: an error page there is no failure to retry.
    let probes = asked
        .lock()
        .unwrap()
        .iter()
        .filter(|(p, _, _)| p == "/api/")
        .count();
    assert_eq!(probes, 1);
    assert!(versioned(&asked)
        .iter()
        .all(|(_, v)| v.as_deref() == Some("v1")));
    assert_everything_mirrored(store.as_ref()).await;
    // No backoff spent on it (five attempts would wait 7.5 s).
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // An HTML 404 there, as pretalx 2025.2.2 answers in production.
    let (origin, _) = serve(Fake {
        root_status: StatusCode::NOT_FOUND,
        ..Fake::pretalx_2025()
    })
    .await;
    let round = run_once(&options(&origin, None, None), store.as_ref(), &|_| {})
        .await
        .unwrap();
    assert_eq!((round.release, round.version), (None, Some("v1")));
}

#[test]
fn releases_and_the_api_they_are_read_through() {
    use crate::sync::upstream::Release;
    let release = |name: &str, version: &str, api: Option<&str>| Release {
        name: name.into(),
        version: version.into(),
        api_version: api.map(str::to_string),
    };
    assert_eq!(
        release("pretalx", "2026.2.1", Some("v2")).dialect(),
        Some((Api::V2, "v2"))
    );
    // 2026.1 does not know v2 yet.
    assert_eq!(
        release("pretalx", "2026.1.0", Some("v1")).dialect(),
        Some((Api::V1, "v1"))
    );
    assert_eq!(
        release("pretalx", "2026.1.3", None).dialect(),
        Some((Api::V1, "v1"))
    );
    assert_eq!(
        release("pretalx", "2026.3.0.dev0", None).dialect(),
        Some((Api::V2, "v2"))
    );
    assert_eq!(
        release("pretalx", "2027.1.0", Some("v3")).dialect(),
        Some((Api::V2, "v2"))
    );
    assert_eq!(
        release("pretalx", "2025.2.2", None).dialect(),
        Some((Api::V1, "v1"))
    );
    assert_eq!(
        release("pretalx", "2024.3.1", None).dialect(),
        Some((Api::Legacy, ""))
    );
    assert_eq!(release("confapi", "0.1.0", Some("v2")).dialect(), None);
    assert_eq!(release("pretalx", "main", None).dialect(), None);
}
/// A submission's speakers in pretalx's order, not sorted ("ZED9" before
/// "ADA1"), in the mirror and after a second round.
#[tokio::test]
async fn speakers_keep_the_upstreams_order() {
    let (origin, _) = serve(Fake::pretalx_2026_2()).await;
    let (_dir, store) = mirror().await;
    run_once(&options(&origin, None, None), store.as_ref(), &|_| {})
        .await
        .unwrap();
    let event = mirrored(store.as_ref()).await;
    assert_eq!(event["submissions"][0]["code"], json!("ABC123"));
    assert_eq!(event["submissions"][0]["speakers"], json!(["ZED9", "ADA1"]));
    // A second round keeps it (and writes nothing).
    let again = run_once(&options(&origin, None, None), store.as_ref(), &|_| {})
        .await
        .unwrap();
    assert_eq!(again.import.records_written, 0);
    let event = mirrored(store.as_ref()).await;
    assert_eq!(event["submissions"][0]["speakers"], json!(["ZED9", "ADA1"]));
}

#[tokio::test]
async fn speakers_time_zones_and_locales_are_mirrored() {
    // pretalx's versioned API shows organisers each speaker's time zone and
    // locale: the mirror keeps them (it wrote UTC and en before).
    let (origin, _asked) = serve(Fake::pretalx_2026_2()).await;
    let (_dir, store) = mirror().await;
    run_once(&options(&origin, None, None), store.as_ref(), &|_| {})
        .await
        .unwrap();
    let dataset = store.export(&["conf".to_string()]).await.unwrap();
    let document = serde_json::to_value(crate::dataset::export::Document::new(&dataset)).unwrap();
    let user = |code: &str| {
        document["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["code"] == code)
            .cloned()
            .unwrap_or_else(|| panic!("no user {code}: {document}"))
    };
    let zed = user("ZED9");
    assert_eq!(
        (zed["timezone"].clone(), zed["locale"].clone()),
        (json!("Asia/Tokyo"), json!("de"))
    );
    // Ada's are pretalx's UTC and en, which the document leaves out as defaults.
    let ada = user("ADA1");
    assert!(ada.get("timezone").is_none_or(|z| z == "UTC"), "{ada}");
}
