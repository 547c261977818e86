//! v1 schedules and slots across the event's schedules (pretalx-v1.md §2,
//! §6, §7 with §13): older releases and the work-in-progress schedule are
//! for organisers only, through every path (lists, details, filters,
//! `expand`); everyone else sees the current release. Also `expand` on
//! slots, schedules, questions and question options, and the organiser's
//! teams.

use crate::helpers::{assert_bad_parameters, mini, Reply, TestServer, NOT_ORGANISERS};

use super::V1;
use serde_json::{json, Value};

async fn get(server: &TestServer, token: Option<&str>, path: &str) -> Reply {
    let client = match token {
        Some(token) => server.token(token),
        None => server.anon(),
    };
    client.request("GET", path, &[V1]).await
}

/// mini() with schedule ids, an older release (PUB1 elsewhere and a break)
/// and a WIP schedule (PUB1 moved, SUB2 placed but hidden); a private
/// resource and an answer on PUB1.
fn dataset() -> Value {
    let mut dataset = mini();
    let event = &mut dataset["events"][0];
    event["schedule"]["id"] = json!(3);
    event["schedule"]["comment"] = json!({"en": "Final"});
    event["submissions"][0]["slots"][0]["id"] = json!(30);
    event["submissions"][0]["resources"] = json!([
        {"resource": "https://mini.example/slides.pdf", "description": "Slides", "id": 1},
        {"resource": "https://mini.example/notes.txt", "description": "Notes", "is_public": false, "id": 2},
    ]);
    event["questions"] = json!([
        {"id": 1, "variant": "choices", "target": "submission", "question": {"en": "Level?"},
         "is_public": true, "position": 1, "tracks": [1],
         "options": [{"id": 10, "answer": {"en": "Beginner"}}, {"id": 11, "answer": {"en": "Expert"}}]},
    ]);
    event["answers"] = json!([
        {"id": 5, "question": 1, "answer": "Beginner", "options": [10], "submission": "PUB1"},
    ]);
    event["older_schedules"] = json!([{
        "id": 1, "version": "0.9", "published": "2026-04-01T10:00:00Z", "comment": {"en": "First"},
        "slots": [
            {"id": 10, "submission": "PUB1", "room": 1, "start": "2026-06-01T09:00:00+02:00",
             "end": "2026-06-01T09:30:00+02:00", "is_visible": true},
            {"id": 11, "submission": null, "room": 1, "start": "2026-06-01T12:00:00+02:00",
             "end": "2026-06-01T12:30:00+02:00", "is_visible": true, "description": {"en": "Coffee"}},
        ],
    }]);
    event["wip_schedule"] = json!({
        "id": 4, "comment": {},
        "slots": [
            {"id": 40, "submission": "PUB1", "room": 1, "start": "2026-06-01T11:00:00+02:00",
             "end": "2026-06-01T11:30:00+02:00", "is_visible": true},
            {"id": 41, "submission": "SUB2", "room": 1, "start": "2026-06-02T10:00:00+02:00",
             "end": "2026-06-02T10:30:00+02:00", "is_visible": false},
        ],
    });
    dataset
}

fn ids(reply: &Reply) -> Vec<i64> {
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn organisers_see_every_release_and_the_wip_schedule() {
    let server = TestServer::start(&[dataset()]).await;
    let orga = Some("orga-token");
    let list = get(&server, orga, "/api/events/mini/schedules/").await;
    assert_eq!(
        list.body,
        json!({"count": 3, "next": null, "previous": null, "results": [
            {"id": 3, "version": "1.0", "published": "2026-05-01T12:00:00+02:00"},
            {"id": 1, "version": "0.9", "published": "2026-04-01T12:00:00+02:00"},
            {"id": 4, "version": "wip", "published": null},
        ]}),
        "newest first, the WIP schedule (never published) last"
    );
    let wip = get(&server, orga, "/api/events/mini/schedules/wip/").await;
    assert_eq!(
        wip.body,
        json!({"id": 4, "version": "wip", "published": null, "comment": null, "slots": [40, 41]})
    );
    assert_eq!(
        get(&server, orga, "/api/events/mini/schedules/4/")
            .await
            .body,
        wip.body
    );
    let older = get(&server, orga, "/api/events/mini/schedules/1/").await;
    assert_eq!(
        older.body,
        json!({"id": 1, "version": "0.9", "published": "2026-04-01T12:00:00+02:00",
               "comment": {"en": "First"}, "slots": [10, 11]})
    );
    let latest = get(&server, orga, "/api/events/mini/schedules/latest/").await;
    assert_eq!(latest.body["id"], 3);
    assert_eq!(latest.body["comment"], json!({"en": "Final"}));
    assert_eq!(latest.body["slots"], json!([30]));
    let ordered = get(&server, orga, "/api/events/mini/schedules/?o=id").await;
    assert_eq!(ids(&ordered), vec![1, 3, 4]);
    let searched = get(&server, orga, "/api/events/mini/schedules/?q=0.9").await;
    assert_eq!(ids(&searched), vec![1]);

    // Without a filter the current release; with any filter every schedule.
    assert_eq!(
        ids(&get(&server, orga, "/api/events/mini/slots/").await),
        vec![30]
    );
    let every = get(&server, orga, "/api/events/mini/slots/?submission=PUB1").await;
    assert_eq!(ids(&every), vec![10, 30, 40], "by start");
    let wip_slots = get(&server, orga, "/api/events/mini/slots/?schedule=4").await;
    assert_eq!(
        wip_slots.body["results"],
        json!([
            {"id": 40, "room": 1, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:30:00+02:00",
             "submission": "PUB1", "schedule": 4, "description": null, "duration": 30, "is_visible": true,
             "slot_type": null},
            {"id": 41, "room": 1, "start": "2026-06-02T10:00:00+02:00", "end": "2026-06-02T10:30:00+02:00",
             "submission": "SUB2", "schedule": 4, "description": null, "duration": 30, "is_visible": false,
             "slot_type": null},
        ])
    );
    let by_version = get(
        &server,
        orga,
        "/api/events/mini/slots/?schedule_version=0.9",
    )
    .await;
    assert_eq!(
        by_version.body["results"][1],
        json!({"id": 11, "room": 1, "start": "2026-06-01T12:00:00+02:00", "end": "2026-06-01T12:30:00+02:00",
               "submission": null, "schedule": 1, "description": {"en": "Coffee"}, "duration": 30,
               "is_visible": true, "slot_type": "break"})
    );
    let hidden = get(&server, orga, "/api/events/mini/slots/?is_visible=false").await;
    assert_eq!(ids(&hidden), vec![41]);
    let by_speaker = get(&server, orga, "/api/events/mini/slots/?speaker=spk2").await;
    assert_eq!(ids(&by_speaker), vec![41]);
    let one = get(&server, orga, "/api/events/mini/slots/41/").await;
    assert_eq!(one.body, wip_slots.body["results"][1]);
}

#[tokio::test]
async fn everyone_else_sees_the_current_release_only() {
    let server = TestServer::start(&[dataset()]).await;
    for token in NOT_ORGANISERS {
        let list = get(&server, token, "/api/events/mini/schedules/").await;
        assert_eq!(
            list.body["results"],
            json!([{"id": 3, "version": "1.0", "published": "2026-05-01T12:00:00+02:00"}]),
            "{token:?}"
        );
        for path in ["wip", "4", "1", "999"] {
            let reply = get(
                &server,
                token,
                &format!("/api/events/mini/schedules/{path}/"),
            )
            .await;
            assert_eq!(reply.status, 404, "{token:?} {path}: {}", reply.text);
        }
        let latest = get(&server, token, "/api/events/mini/schedules/latest/").await;
        assert_eq!(latest.body["slots"], json!([30]), "{token:?}");
        for query in [
            "",
            "?submission=PUB1",
            "?is_visible=true",
            "?is_visible=maybe",
            "?room=1",
            "?speaker=SPK1",
        ] {
            let reply = get(&server, token, &format!("/api/events/mini/slots/{query}")).await;
            assert_eq!(ids(&reply), vec![30], "{token:?} {query}");
            assert!(
                reply.body["results"][0].get("is_visible").is_none()
                    && reply.body["results"][0].get("slot_type").is_none(),
                "{token:?} {query}: no organiser fields"
            );
        }
        // The other schedules exist but list nothing for them.
        for query in ["?schedule=4", "?schedule=1", "?schedule_version=0.9"] {
            let reply = get(&server, token, &format!("/api/events/mini/slots/{query}")).await;
            assert_eq!(reply.body["count"], 0, "{token:?} {query}: {}", reply.text);
        }
        for id in [10, 11, 40, 41] {
            let reply = get(&server, token, &format!("/api/events/mini/slots/{id}/")).await;
            assert_eq!(reply.status, 404, "{token:?} slot {id}");
        }
        // Nor through expand.
        let expanded = get(
            &server,
            token,
            "/api/events/mini/slots/?submission=PUB1&expand=schedule",
        )
        .await;
        assert_eq!(
            expanded.body["results"][0]["schedule"],
            json!({"id": 3, "version": "1.0", "published": "2026-05-01T12:00:00+02:00",
                   "comment": {"en": "Final"}}),
            "{token:?}"
        );
    }
    for (query, parameter) in [
        ("schedule=999", "schedule"),
        ("schedule=wip", "schedule"),
        ("schedule_version=nope", "schedule_version"),
    ] {
        let reply = get(&server, None, &format!("/api/events/mini/slots/?{query}")).await;
        assert_bad_parameters(&reply, &[parameter], query);
    }
}

#[tokio::test]
async fn a_hidden_schedule_shows_organisers_every_release_and_nobody_else_any() {
    let mut dataset = dataset();
    dataset["events"][0]["show_schedule"] = json!(false);
    let server = TestServer::start(&[dataset]).await;
    let orga = get(&server, Some("orga-token"), "/api/events/mini/schedules/").await;
    assert_eq!(ids(&orga), vec![3, 1, 4]);
    assert_eq!(
        get(&server, None, "/api/events/mini/schedules/")
            .await
            .status,
        401
    );
    for token in ["nobody-token", "rev-token"] {
        let reply = get(&server, Some(token), "/api/events/mini/schedules/wip/").await;
        assert_eq!(reply.status, 403, "{token}");
        let slots = get(&server, Some(token), "/api/events/mini/slots/?schedule=4").await;
        assert_eq!(slots.body["count"], 0, "{token}");
    }
}

#[tokio::test]
async fn expand_on_slots_and_schedules_uses_the_public_nested_objects() {
    let server = TestServer::start(&[dataset()]).await;
    for token in [None, Some("orga-token")] {
        let slots = get(
            &server,
            token,
            "/api/events/mini/slots/?expand=submission.speakers,submission.resources,submission.answers,schedule,room",
        )
        .await;
        let slot = &slots.body["results"][0];
        let submission = &slot["submission"];
        assert_eq!(submission["code"], "PUB1", "{token:?}");
        assert!(submission.get("slots").is_none());
        assert!(
            submission.get("notes").is_none(),
            "{token:?}: public fields"
        );
        assert_eq!(submission["answers"], json!([]), "{token:?}: as pretalx");
        assert_eq!(
            submission["resources"],
            json!([{"id": 1, "resource": "https://mini.example/slides.pdf", "description": "Slides",
                    "is_public": true}]),
            "{token:?}: public resources only"
        );
        assert!(
            submission["speakers"][0].get("email").is_none(),
            "{token:?}: public speakers"
        );
        assert_eq!(slot["schedule"]["version"], "1.0");
        assert!(slot["schedule"].get("slots").is_none());
        assert_eq!(slot["room"]["id"], 1);
    }
    let wip = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/schedules/wip/?expand=slots.room",
    )
    .await;
    let first = &wip.body["slots"][0];
    assert_eq!(first["id"], 40);
    assert_eq!(first["submission"], "PUB1");
    assert_eq!(first["room"]["id"], 1);
    assert!(first.get("schedule").is_none(), "left out in its schedule");
    assert!(first.get("is_visible").is_none(), "the public slot fields");
    let public = get(
        &server,
        None,
        "/api/events/mini/schedules/latest/?expand=slots",
    )
    .await;
    assert_eq!(public.body["slots"][0]["id"], 30);
}

#[tokio::test]
async fn expand_on_questions_and_options() {
    let server = TestServer::start(&[dataset()]).await;
    let question = get(
        &server,
        None,
        "/api/events/mini/questions/1/?expand=options,tracks",
    )
    .await;
    assert_eq!(
        question.body["options"],
        json!([{"id": 10, "answer": {"en": "Beginner"}, "position": 0, "identifier": null},
               {"id": 11, "answer": {"en": "Expert"}, "position": 1, "identifier": null}])
    );
    assert_eq!(question.body["tracks"][0]["id"], 1);
    assert_eq!(question.body["submission_types"], json!([]));
    let plain = get(&server, None, "/api/events/mini/questions/1/").await;
    assert_eq!(plain.body["options"], json!([10, 11]));
    assert_eq!(plain.body["tracks"], json!([1]));
    let options = get(
        &server,
        None,
        "/api/events/mini/question-options/?expand=question.tracks",
    )
    .await;
    let nested = &options.body["results"][0]["question"];
    assert_eq!(nested["id"], 1);
    assert!(nested.get("options").is_none(), "left out in its option");
    assert!(nested.get("is_public").is_none(), "public fields");
    assert_eq!(nested["tracks"][0]["id"], 1);
    let orga = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/question-options/10/?expand=question",
    )
    .await;
    assert!(orga.body["question"].get("is_public").is_none());
}

/// mini() with an organiser: its organisers' team may change teams, and a
/// second event of the same organiser lists the reviewers' team again
/// (same id) and a team of its own.
fn teams_dataset() -> Value {
    let mut dataset = dataset();
    let event = &mut dataset["events"][0];
    event["organiser"] = json!("mini-org");
    event["teams"] = json!([
        {"id": 7, "name": "Organisers", "members": ["ORGA"], "can_change_submissions": true,
         "can_change_teams": true, "can_change_event_settings": true},
        {"id": 8, "name": "Reviewers", "members": ["REV"], "is_reviewer": true,
         "limit_tracks": [1], "limit_events": ["mini", "other"]},
    ]);
    dataset["events"].as_array_mut().unwrap().push(json!({
        "slug": "other", "name": {"en": "Other"}, "date_from": "2026-07-01", "organiser": "mini-org",
        "teams": [
            {"id": 8, "name": "Reviewers", "members": ["REV"], "is_reviewer": true,
             "limit_events": ["mini", "other"]},
            {"id": 9, "name": "Helpers", "members": ["NOBODY"], "all_events": true},
        ],
    }));
    dataset
}

/// `serve --max-page-size` clamps every v1 list, the organiser's teams too
/// (they used v1's own 250 whatever the server was told).
#[tokio::test]
async fn the_servers_maximum_page_size_clamps_teams_like_every_v1_list() {
    let config = confapi::http::Config {
        max_page_size: 2,
        ..confapi::http::Config::default()
    };
    let server = TestServer::start_with(&[teams_dataset()], config).await;
    let teams = get(
        &server,
        Some("orga-token"),
        "/api/organisers/mini-org/teams/?page_size=50",
    )
    .await;
    assert_eq!(ids(&teams), vec![7, 8]);
    assert_eq!(teams.body["count"], 3);
    let next = teams.body["next"].as_str().unwrap();
    assert!(
        next.ends_with("/api/organisers/mini-org/teams/?page_size=50&page=2"),
        "{next}"
    );
    let rest = get(
        &server,
        Some("orga-token"),
        "/api/organisers/mini-org/teams/?page=2&page_size=50",
    )
    .await;
    assert_eq!(ids(&rest), vec![9]);
    assert_eq!(rest.body["next"], Value::Null);
    let submissions = get(
        &server,
        Some("orga-token"),
        "/api/events/mini/submissions/?page_size=50",
    )
    .await;
    assert_eq!(submissions.body["results"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn teams_are_for_members_of_a_team_that_may_change_teams() {
    let server = TestServer::start(&[teams_dataset()]).await;
    let list = get(
        &server,
        Some("orga-token"),
        "/api/organisers/mini-org/teams/",
    )
    .await;
    assert_eq!(
        list.body,
        json!({"count": 3, "next": null, "previous": null, "results": [
            {"id": 7, "name": "Organisers", "members": ["ORGA"], "invites": [], "all_events": false,
             "limit_events": ["mini"], "limit_tracks": [], "can_create_events": false,
             "can_change_teams": true, "can_change_organiser_settings": false,
             "can_change_event_settings": true, "can_change_submissions": true, "is_reviewer": false,
             "force_hide_speaker_names": false},
            {"id": 8, "name": "Reviewers", "members": ["REV"], "invites": [], "all_events": false,
             "limit_events": ["mini", "other"], "limit_tracks": [1], "can_create_events": false,
             "can_change_teams": false, "can_change_organiser_settings": false,
             "can_change_event_settings": false, "can_change_submissions": false, "is_reviewer": true,
             "force_hide_speaker_names": false},
            {"id": 9, "name": "Helpers", "members": ["NOBODY"], "invites": [], "all_events": true,
             "limit_events": [], "limit_tracks": [], "can_create_events": false,
             "can_change_teams": false, "can_change_organiser_settings": false,
             "can_change_event_settings": false, "can_change_submissions": false, "is_reviewer": false,
             "force_hide_speaker_names": false},
        ]}),
        "one team per id, in every event that lists it"
    );
    let expanded = get(
        &server,
        Some("orga-token"),
        "/api/organisers/MINI-ORG/teams/8/?expand=members,limit_tracks",
    )
    .await;
    assert_eq!(
        expanded.body["members"],
        json!([{"code": "REV", "name": "Rita Reviewer", "email": "rev@mini.example"}])
    );
    assert_eq!(expanded.body["limit_tracks"][0]["id"], 1);
    let searched = get(
        &server,
        Some("orga-token"),
        "/api/organisers/mini-org/teams/?q=HELP&o=-id",
    )
    .await;
    assert_eq!(ids(&searched), vec![9]);
    assert_eq!(
        get(&server, None, "/api/organisers/mini-org/teams/")
            .await
            .status,
        401
    );
    // Reviewers, other team members and users without a team: 403, through
    // the list and the detail.
    for token in ["rev-token", "nobody-token"] {
        for path in [
            "/api/organisers/mini-org/teams/",
            "/api/organisers/mini-org/teams/7/",
        ] {
            let reply = get(&server, Some(token), path).await;
            assert_eq!(reply.status, 403, "{token} {path}: {}", reply.text);
        }
    }
    for path in [
        "/api/organisers/nobody-org/teams/",
        "/api/organisers/mini-org/teams/999/",
        "/api/organisers/mini-org/teams/abc/",
    ] {
        let reply = get(&server, Some("orga-token"), path).await;
        assert_eq!(reply.status, 404, "{path}: {}", reply.text);
    }
    // Only v1 has the path.
    let legacy = server
        .token("orga-token")
        .request(
            "GET",
            "/api/organisers/mini-org/teams/",
            &[("Pretalx-Version", "LEGACY")],
        )
        .await;
    assert_eq!(legacy.status, 404);
}
