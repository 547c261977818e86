//! What events.rs, roles.rs and pagination.rs share: a minimal event, the
//! `roles()` dataset, the slugs of a list page, and links and errors as
//! behaviour.md §5 and §8 have them (links compared as the absolute URL of
//! the path and the multiset of query pairs, so the order and
//! percent-encoding style of the query string do not matter).

use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Datasets
// ---------------------------------------------------------------------------

/// A minimal event (no teams, no data).
pub fn bare_event(slug: &str, is_public: bool, date_from: &str) -> Value {
    json!({"slug": slug, "name": {"en": format!("Event {slug}")}, "is_public": is_public, "date_from": date_from})
}

/// Events and teams for the role rules:
///
/// | event  | public | date_from  | teams                                             |
/// |--------|--------|------------|---------------------------------------------------|
/// | closed | no     | 2026-09-01 | ORGA organiser, REV reviewer, HELPER no flags     |
/// | secret | no     | 2026-07-01 | HELPER no flags                                   |
/// | Zeta   | yes    | 2026-06-01 | none                                              |
/// | alpha  | yes    | 2026-06-01 | none                                              |
/// | open   | yes    | 2026-06-01 | ORGA organiser, HELPER no flags                   |
/// | old    | yes    | 2025-01-01 | none                                              |
///
/// ADMIN is an administrator without any team; NOBODY has no team.
/// `open` has a released schedule with one public talk (OPEN1) and one
/// submitted proposal (OPEN2); `closed` has one proposal (CLOSED1).
pub fn roles() -> Value {
    json!({
        "format": "cfp-dataset",
        "version": 1,
        "users": [
            {"code": "ADMIN", "name": "Ada Admin", "email": "admin@roles.example", "is_administrator": true, "tokens": ["admin-token"]},
            {"code": "ORGA", "name": "Olga Organiser", "email": "orga@roles.example", "tokens": ["orga-token"]},
            {"code": "REV", "name": "Rita Reviewer", "email": "rev@roles.example", "tokens": ["rev-token"]},
            {"code": "HELPER", "name": "Hal Helper", "email": "helper@roles.example", "tokens": ["helper-token"]},
            {"code": "NOBODY", "name": "No Body", "email": "nobody@roles.example", "tokens": ["nobody-token"]},
            {"code": "SPK1", "name": "Sam Speaker", "email": "sam@roles.example"},
            {"code": "SPK2", "name": "Sue Speaker", "email": "sue@roles.example"}
        ],
        "events": [
            {
                "slug": "open",
                "name": {"en": "Open Conf", "de": "Offene Konferenz"},
                "is_public": true,
                "date_from": "2026-06-01",
                "date_to": "2026-06-02",
                "timezone": "Europe/Berlin",
                "schedule": {"version": "1.0", "published": "2026-05-01T10:00:00Z"},
                "teams": [
                    {"name": "Organisers", "members": ["ORGA"], "can_change_submissions": true},
                    {"name": "Helpers", "members": ["HELPER"]}
                ],
                "submission_types": [{"id": 1, "name": "Talk"}],
                "tracks": [{"id": 1, "name": "Main"}],
                "rooms": [{"id": 1, "name": "Hall"}],
                "tags": [{"id": 1, "tag": "hot"}],
                "speakers": [{"user": "SPK1", "biography": "Sam's bio"}, {"user": "SPK2"}],
                "submissions": [
                    {"code": "OPEN1", "title": "A Public Talk", "speakers": ["SPK1"], "submission_type": 1, "track": 1,
                     "state": "confirmed", "created": "2026-03-01T12:00:00Z", "internal_notes": "orga only", "tags": [1],
                     "slots": [{"room": 1, "start": "2026-06-01T10:00:00+02:00", "end": "2026-06-01T10:30:00+02:00", "is_visible": true}]},
                    {"code": "OPEN2", "title": "A Proposal", "speakers": ["SPK2"], "submission_type": 1,
                     "state": "submitted", "created": "2026-03-02T12:00:00Z"}
                ]
            },
            {
                "slug": "closed",
                "name": "Closed Retreat",
                "date_from": "2026-09-01",
                "teams": [
                    {"name": "Organisers", "members": ["ORGA"], "can_change_submissions": true},
                    {"name": "Reviewers", "members": ["REV"], "is_reviewer": true},
                    {"name": "Helpers", "members": ["HELPER"], "force_hide_speaker_names": true}
                ],
                "submission_types": [{"id": 2, "name": "Workshop"}],
                "speakers": [{"user": "SPK2"}],
                "submissions": [
                    {"code": "CLOSED1", "title": "Closed Proposal", "speakers": ["SPK2"], "submission_type": 2,
                     "created": "2026-04-01T08:00:00Z", "internal_notes": "orga only"}
                ]
            },
            {
                "slug": "secret",
                "name": {"en": "Secret Summit"},
                "date_from": "2026-07-01",
                "date_to": "2026-07-01",
                "timezone": "America/New_York",
                "teams": [{"name": "Helpers", "members": ["HELPER"]}]
            },
            bare_event("Zeta", true, "2026-06-01"),
            bare_event("alpha", true, "2026-06-01"),
            bare_event("old", true, "2025-01-01")
        ]
    })
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// The slugs of a list page.
pub fn slugs(page: &Value) -> Vec<String> {
    page["results"]
        .as_array()
        .unwrap_or_else(|| panic!("not a list page: {page}"))
        .iter()
        .map(|e| e["slug"].as_str().expect("slug").to_string())
        .collect()
}

/// A link split into the absolute URL of its path and its sorted query pairs.
pub fn split_link(url: &str) -> (String, Vec<(String, String)>) {
    let parsed =
        reqwest::Url::parse(url).unwrap_or_else(|e| panic!("not an absolute URL {url:?}: {e}"));
    let mut pairs: Vec<(String, String)> = parsed.query_pairs().into_owned().collect();
    pairs.sort();
    let mut path_url = parsed.clone();
    path_url.set_query(None);
    (path_url.to_string(), pairs)
}

/// Asserts that `link` (a `next` or `previous` value) is `url` with exactly
/// the query pairs `pairs`.
pub fn assert_link(link: &Value, url: &str, pairs: &[(&str, &str)]) {
    let link = link
        .as_str()
        .unwrap_or_else(|| panic!("expected a link to {url}, got {link}"));
    let mut expected: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    expected.sort();
    assert_eq!(split_link(link), (url.to_string(), expected), "link {link}");
}

/// Asserts a `{"detail": "<text>"}` error with this status and the JSON and
/// `Vary` headers; returns the body.
pub fn assert_detail(reply: &super::Reply, status: u16, context: &str) -> Value {
    assert_eq!(reply.status, status, "{context}: {}", reply.text);
    let body = reply
        .body
        .as_object()
        .unwrap_or_else(|| panic!("{context}: not JSON: {}", reply.text));
    assert_eq!(body.len(), 1, "{context}: {}", reply.text);
    assert!(
        body["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{context}: {}",
        reply.text
    );
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{context}"
    );
    assert_eq!(
        reply.header("vary"),
        Some("Accept, Accept-Encoding, Authorization, Pretalx-Version"),
        "{context}"
    );
    reply.body.clone()
}
