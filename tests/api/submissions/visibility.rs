//! Which submissions and talks each role gets: organisers all, reviewers
//! their access plus public talks, the public its public talks.

use super::*;

#[tokio::test]
async fn each_role_gets_its_submissions_with_full_bodies() {
    let server = TestServer::start(&[base()]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        let role = caller.role;
        let expected: Vec<Value> = match role {
            Public => vec![view(&mini_pub1(), role)],
            _ => vec![
                view(&mini_pub1(), role),
                view(&mini_sub2(), role),
                view(&mini_sub3(), role),
            ],
        };
        let list = client.ok(&format!("{EV}/submissions/")).await;
        assert_json(
            &list,
            &page_of(expected.clone()),
            &format!("{}: /submissions", caller.name),
        );
        for obj in &expected {
            let code = obj["code"].as_str().unwrap();
            let detail = client.ok(&format!("{EV}/submissions/{code}/")).await;
            assert_json(
                &detail,
                obj,
                &format!("{}: /submissions/{code}", caller.name),
            );
        }
        // Only PUB1 is a talk.
        let talks = client.ok(&format!("{EV}/talks/")).await;
        assert_json(
            &talks,
            &page_of(vec![view(&mini_pub1(), role)]),
            &format!("{}: /talks", caller.name),
        );
        let talk = client.ok(&format!("{EV}/talks/PUB1/")).await;
        assert_json(
            &talk,
            &view(&mini_pub1(), role),
            &format!("{}: /talks/PUB1", caller.name),
        );
        for code in ["SUB2", "SUB3"] {
            let reply = client.get(&format!("{EV}/talks/{code}/")).await;
            assert_detail(&reply, 404, &format!("{}: /talks/{code}", caller.name));
            let reply = client.get(&format!("{EV}/submissions/{code}/")).await;
            if role == Public {
                assert_detail(
                    &reply,
                    404,
                    &format!("{}: /submissions/{code}", caller.name),
                );
            } else {
                assert_eq!(reply.status, 200, "{}: /submissions/{code}", caller.name);
            }
        }
        let reply = client.get(&format!("{EV}/submissions/NOPE/")).await;
        assert_detail(&reply, 404, &format!("{}: unknown code", caller.name));
    }
}

#[tokio::test]
async fn talks_are_the_callers_submissions_with_a_visible_slot() {
    let mut d = base();
    add_side_track(&mut d);
    // SUB2: a talk that is not public (submitted), on a visible slot without a start.
    sub_mut(&mut d, "SUB2")["slots"] =
        json!([{"room": null, "start": null, "end": null, "is_visible": true}]);
    // SUB3: only an invisible slot, so not a talk, not even for organisers.
    sub_mut(&mut d, "SUB3")["slots"] = json!([{"room": 1, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:30:00+02:00", "is_visible": false}]);
    // A second reviewer whose only team covers the other track.
    users(&mut d).push(json!({"code": "REV2", "name": "Rolf Side", "email": "rev2@mini.example", "tokens": ["rev2-token"]}));
    list_of(mini_event(&mut d), "teams")
        .push(json!({"name": "Side reviewers", "members": ["REV2"], "is_reviewer": true, "limit_tracks": [2]}));
    let server = TestServer::start(&[d]).await;
    let side = Caller {
        name: "reviewer of another track",
        token: Some("rev2-token"),
        role: Reviewer,
    };

    for (caller, submissions, talks) in [
        (ANONYMOUS, vec!["PUB1"], vec!["PUB1"]),
        (NOBODY, vec!["PUB1"], vec!["PUB1"]),
        (HELPER, vec!["PUB1"], vec!["PUB1"]),
        (REVIEWER, vec!["PUB1", "SUB2", "SUB3"], vec!["PUB1", "SUB2"]),
        (side, vec!["PUB1"], vec!["PUB1"]),
        (
            ORGANISER,
            vec!["PUB1", "SUB2", "SUB3"],
            vec!["PUB1", "SUB2"],
        ),
        (ADMIN, vec!["PUB1", "SUB2", "SUB3"], vec!["PUB1", "SUB2"]),
    ] {
        let client = caller.client(&server);
        assert_eq!(
            codes(&client, &format!("{EV}/submissions/")).await,
            strings(&submissions),
            "{}",
            caller.name
        );
        assert_eq!(
            codes(&client, &format!("{EV}/talks/")).await,
            strings(&talks),
            "{}",
            caller.name
        );
        for code in ["PUB1", "SUB2", "SUB3"] {
            let reply = client.get(&format!("{EV}/talks/{code}")).await;
            let expected = if talks.contains(&code) { 200 } else { 404 };
            assert_eq!(
                reply.status, expected,
                "{}: /talks/{code}: {}",
                caller.name, reply.text
            );
            let reply = client.get(&format!("{EV}/submissions/{code}")).await;
            let expected = if submissions.contains(&code) {
                200
            } else {
                404
            };
            assert_eq!(
                reply.status, expected,
                "{}: /submissions/{code}: {}",
                caller.name, reply.text
            );
        }
    }
    // The talk without a start shows its slot with null times; the reviewer
    // gets the same object from /talks and /submissions.
    let reviewer = REVIEWER.client(&server);
    let talk = reviewer.ok(&format!("{EV}/talks/SUB2")).await;
    assert_json(
        &talk["slot"],
        &json!({"start": null, "end": null, "room": null, "room_id": null}),
        "slot without a start",
    );
    assert_json(
        &talk,
        &reviewer.ok(&format!("{EV}/submissions/SUB2")).await,
        "/talks and /submissions agree",
    );
}

/// Every condition of a public talk, failing one at a time (§3): the
/// public sees it only when all hold; a reviewer without access to its
/// track sees it only as a public talk; organisers always see it.
#[tokio::test]
async fn a_public_talk_needs_every_condition() {
    type Change = fn(&mut Value);
    let cases: [(&str, Change, bool, bool); 10] = [
        ("baseline", |_| {}, true, true),
        (
            "event not public",
            |d| mini_event(d)["is_public"] = json!(false),
            false,
            true,
        ),
        (
            "show_schedule off",
            |d| mini_event(d)["show_schedule"] = json!(false),
            false,
            true,
        ),
        (
            "no released schedule",
            |d| {
                mini_event(d)["schedule"] = Value::Null;
                sub_mut(d, "PUB1")["slots"] = json!([]);
            },
            false,
            false,
        ),
        (
            "invisible slot",
            |d| sub_mut(d, "PUB1")["slots"][0]["is_visible"] = json!(false),
            false,
            false,
        ),
        (
            "accepted",
            |d| sub_mut(d, "PUB1")["state"] = json!("accepted"),
            false,
            true,
        ),
        (
            "submitted",
            |d| sub_mut(d, "PUB1")["state"] = json!("submitted"),
            false,
            true,
        ),
        (
            "rejected",
            |d| sub_mut(d, "PUB1")["state"] = json!("rejected"),
            false,
            true,
        ),
        (
            "canceled",
            |d| sub_mut(d, "PUB1")["state"] = json!("canceled"),
            false,
            true,
        ),
        (
            "withdrawn",
            |d| sub_mut(d, "PUB1")["state"] = json!("withdrawn"),
            false,
            true,
        ),
    ];
    for (name, change, public, talk) in cases {
        let mut d = base();
        add_side_track(&mut d);
        // The reviewer covers only the other track: no reviewer access to PUB1.
        team_mut(&mut d, "Reviewers")["limit_tracks"] = json!([2]);
        change(&mut d);
        let event_public = d["events"][0]["is_public"] == true;
        let server = TestServer::start(&[d]).await;

        for caller in [ANONYMOUS, NOBODY, HELPER] {
            let client = caller.client(&server);
            for path in ["submissions/", "talks/", "submissions/PUB1/", "talks/PUB1/"] {
                let reply = client.get(&format!("{EV}/{path}")).await;
                let context = format!("{name}: {} {path}", caller.name);
                if !event_public {
                    assert_detail(&reply, 403, &context);
                } else if path.ends_with("PUB1/") {
                    if public {
                        assert_eq!(reply.status, 200, "{context}");
                    } else {
                        assert_detail(&reply, 404, &context);
                    }
                } else {
                    let expected: Vec<String> = if public { strings(&["PUB1"]) } else { vec![] };
                    assert_eq!(reply.status, 200, "{context}: {}", reply.text);
                    assert_eq!(
                        code_list(reply.body["results"].as_array().unwrap()),
                        expected,
                        "{context}"
                    );
                }
            }
        }
        let reviewer = REVIEWER.client(&server);
        let expected: Vec<String> = if public { strings(&["PUB1"]) } else { vec![] };
        assert_eq!(
            codes(&reviewer, &format!("{EV}/submissions/")).await,
            expected,
            "{name}: reviewer /submissions"
        );
        assert_eq!(
            codes(&reviewer, &format!("{EV}/talks/")).await,
            expected,
            "{name}: reviewer /talks"
        );
        for caller in [ORGANISER, ADMIN] {
            let client = caller.client(&server);
            assert!(
                codes(&client, &format!("{EV}/submissions/"))
                    .await
                    .contains(&"PUB1".to_string()),
                "{name}: {} /submissions",
                caller.name
            );
            let expected: Vec<String> = if talk { strings(&["PUB1"]) } else { vec![] };
            assert_eq!(
                codes(&client, &format!("{EV}/talks/")).await,
                expected,
                "{name}: {} /talks",
                caller.name
            );
        }
    }
}

/// Reviewer access (§3): assignment, `proposal_visibility`, the tracks of
/// their `is_reviewer` teams, and no active phase meaning the defaults.
#[tokio::test]
async fn reviewers_get_what_they_have_access_to_plus_public_talks() {
    type Change = fn(&mut Value);
    // PUB1: track 1, public talk. SUB2: track 1. SUB3: no track. SUB4: track 2.
    let cases: [(&str, Change, &[&str]); 13] = [
        (
            "no active phase: the defaults",
            |_| {},
            &["PUB1", "SUB2", "SUB3", "SUB4"],
        ),
        (
            "phase with proposal_visibility all",
            |d| mini_event(d)["review_phase"] = json!({"proposal_visibility": "all"}),
            &["PUB1", "SUB2", "SUB3", "SUB4"],
        ),
        (
            "team limited to track 1",
            |d| team_mut(d, "Reviewers")["limit_tracks"] = json!([1]),
            &["PUB1", "SUB2"],
        ),
        (
            "team limited to track 2",
            |d| team_mut(d, "Reviewers")["limit_tracks"] = json!([2]),
            &["PUB1", "SUB4"],
        ),
        (
            "team limited to both tracks",
            |d| team_mut(d, "Reviewers")["limit_tracks"] = json!([2, 1]),
            &["PUB1", "SUB2", "SUB4"],
        ),
        (
            "limited to track 2, assigned a trackless one",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                sub_mut(d, "SUB3")["assigned_reviewers"] = json!(["REV"]);
            },
            &["PUB1", "SUB3", "SUB4"],
        ),
        (
            "proposal_visibility assigned, nothing assigned",
            |d| mini_event(d)["review_phase"] = json!({"proposal_visibility": "assigned"}),
            &["PUB1"],
        ),
        (
            "proposal_visibility assigned, one assigned",
            |d| {
                mini_event(d)["review_phase"] = json!({"proposal_visibility": "assigned"});
                sub_mut(d, "SUB2")["assigned_reviewers"] = json!(["REV", "ORGA"]);
            },
            &["PUB1", "SUB2"],
        ),
        (
            "proposal_visibility assigned, the public talk not public",
            |d| {
                mini_event(d)["review_phase"] = json!({"proposal_visibility": "assigned"});
                sub_mut(d, "PUB1")["state"] = json!("accepted");
            },
            &[],
        ),
        (
            "two reviewer teams: track 2 and track 1",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                list_of(mini_event(d), "teams")
                    .push(json!({"name": "Main reviewers", "members": ["REV"], "is_reviewer": true, "limit_tracks": [1]}));
            },
            &["PUB1", "SUB2", "SUB4"],
        ),
        (
            "two reviewer teams: track 2 and unlimited",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                list_of(mini_event(d), "teams").push(
                    json!({"name": "All reviewers", "members": ["REV"], "is_reviewer": true}),
                );
            },
            &["PUB1", "SUB2", "SUB3", "SUB4"],
        ),
        (
            "a team without is_reviewer covers nothing",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                team_mut(d, "Helpers")["members"] = json!(["HELPER", "REV"]);
            },
            &["PUB1", "SUB4"],
        ),
        (
            "assigned another reviewer's submission does not count",
            |d| {
                team_mut(d, "Reviewers")["limit_tracks"] = json!([2]);
                sub_mut(d, "SUB2")["assigned_reviewers"] = json!(["NOBODY"]);
            },
            &["PUB1", "SUB4"],
        ),
    ];
    for (name, change, expected) in cases {
        let mut d = base();
        add_side_track(&mut d);
        list_of(mini_event(&mut d), "submissions").push(json!({
            "code": "SUB4", "title": "Side Proposal", "speakers": ["SPK2"], "submission_type": 1,
            "track": 2, "created": "2026-03-04T12:00:00Z"}));
        change(&mut d);
        let server = TestServer::start(&[d]).await;
        let reviewer = REVIEWER.client(&server);
        assert_eq!(
            codes(&reviewer, &format!("{EV}/submissions/")).await,
            strings(expected),
            "{name}"
        );
        let talks: Vec<&str> = expected.iter().copied().filter(|c| *c == "PUB1").collect();
        assert_eq!(
            codes(&reviewer, &format!("{EV}/talks/")).await,
            strings(&talks),
            "{name}: talks"
        );
        for code in ["PUB1", "SUB2", "SUB3", "SUB4"] {
            let reply = reviewer.get(&format!("{EV}/submissions/{code}")).await;
            if expected.contains(&code) {
                assert_eq!(reply.status, 200, "{name}: {code}");
                assert_submission_keys(
                    &Ordered::parse(&reply.text),
                    Reviewer,
                    &format!("{name}: {code}"),
                );
            } else {
                assert_detail(&reply, 404, &format!("{name}: {code}"));
            }
        }
        // Organisers are never limited.
        assert_eq!(
            codes(&ORGANISER.client(&server), &format!("{EV}/submissions/")).await,
            strings(&["PUB1", "SUB2", "SUB3", "SUB4"]),
            "{name}: organiser"
        );
    }
}

#[tokio::test]
async fn organiser_teams_win_over_reviewer_teams() {
    let mut d = base();
    // A team with both rights, and the organiser also in a reviewer team that hides names.
    team_mut(&mut d, "Reviewers")["members"] = json!(["REV", "ORGA"]);
    team_mut(&mut d, "Reviewers")["force_hide_speaker_names"] = json!(true);
    team_mut(&mut d, "Reviewers")["limit_tracks"] = json!([1]);
    users(&mut d).push(json!({"code": "BOTH", "name": "Bo Both", "email": "both@mini.example", "tokens": ["both-token"]}));
    list_of(mini_event(&mut d), "teams").push(json!({"name": "Both", "members": ["BOTH"],
        "can_change_submissions": true, "is_reviewer": true, "limit_tracks": [1]}));
    let server = TestServer::start(&[d]).await;
    for token in ["orga-token", "both-token"] {
        let list = server.token(token).ok(&format!("{EV}/submissions/")).await;
        assert_json(
            &list,
            &page_of(vec![mini_pub1(), mini_sub2(), mini_sub3()]),
            &format!("{token}: an organiser sees everything, named, with organiser fields"),
        );
    }
}
