//! behaviour.md §3 (roles) over HTTP, observed through the submissions of
//! each event of `roles()` (helpers/events.rs).

use crate::helpers::events::{assert_detail, roles};
use crate::helpers::TestServer;
use serde_json::json;

// ---------------------------------------------------------------------------
// Roles (observed through the submissions of each event)
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_reviewer_of_one_event_is_public_in_another() {
    let server = TestServer::start(&[roles()]).await;
    let anon = server.anon().ok("/api/events/open/submissions/").await;
    assert_eq!(anon["count"], 1, "{anon}");
    assert_eq!(anon["results"][0]["code"], "OPEN1");
    // REV reviews `closed` only: in `open` they get exactly the public answer.
    let rev = server
        .token("rev-token")
        .ok("/api/events/open/submissions/")
        .await;
    assert_eq!(rev, anon);
    // In `closed` they are a reviewer: the proposal with the reviewer's fields.
    let closed = server
        .token("rev-token")
        .ok("/api/events/closed/submissions/")
        .await;
    assert_eq!(closed["count"], 1, "{closed}");
    let sub = &closed["results"][0];
    assert_eq!(sub["code"], "CLOSED1");
    assert!(
        sub.get("tags").is_some() && sub.get("tag_ids").is_some(),
        "{sub}"
    );
    assert!(
        sub.get("internal_notes").is_none(),
        "reviewers get no organiser fields: {sub}"
    );
}

#[tokio::test]
async fn an_administrator_is_organiser_of_every_event() {
    let server = TestServer::start(&[roles()]).await;
    let admin = server.token("admin-token");
    let orga = server.token("orga-token");
    for path in [
        "/api/events/open/submissions/",
        "/api/events/closed/submissions/",
    ] {
        let by_admin = admin.ok(path).await;
        assert_eq!(
            by_admin,
            orga.ok(path).await,
            "{path}: the administrator sees what the organiser sees"
        );
    }
    let open = admin.ok("/api/events/open/submissions/").await;
    assert_eq!(open["count"], 2, "{open}");
    assert_eq!(open["results"][0]["internal_notes"], "orga only");
    assert_eq!(
        open["results"][0]["speakers"][0]["email"],
        "sam@roles.example"
    );
    // An event without any team: only administrators see it, as organisers.
    let secret = admin.get("/api/events/secret/submissions/").await;
    assert_eq!(secret.status, 200, "{}", secret.text);
    assert_eq!(
        secret.body,
        json!({"count": 0, "next": null, "previous": null, "results": []})
    );
    // Tags are hidden from the public but not from an organiser.
    assert_eq!(admin.ok("/api/events/open/tags/").await["count"], 1);
}

#[tokio::test]
async fn a_team_with_neither_flag_gives_no_role() {
    let server = TestServer::start(&[roles()]).await;
    let helper = server.token("helper-token");
    assert_detail(
        &helper.get("/api/events/closed/submissions/").await,
        403,
        "helper in closed",
    );
    assert_detail(
        &helper.get("/api/events/secret/").await,
        403,
        "helper in secret",
    );
    let path = "/api/events/open/submissions/";
    assert_eq!(helper.ok(path).await, server.anon().ok(path).await);
    assert_eq!(
        helper.ok("/api/events/open/tags/").await["count"],
        0,
        "tags are not public"
    );
}
