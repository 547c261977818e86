//! The anonymised view: who gets it (reviewers without speaker names, teams
//! that force it, the `anon` parameter), search in it, and the property
//! that an anonymised submission never reveals its speakers (edge.json).

use super::*;

/// base() with anonymised texts: SUB2 has an anonymised title and
/// description (its anonymised abstract is empty: the real one stays); SUB3
/// an empty anonymised title and an anonymised abstract; PUB1,
/// a public talk, has an anonymised title that must never be used; SUB4 is
/// a talk that is not public.
fn anon_dataset() -> Value {
    let mut d = base();
    let s = sub_mut(&mut d, "SUB2");
    s["abstract"] = json!("Real abstract");
    s["description"] = json!("Real description by Bob");
    s["anonymised"] = json!({"title": "Anonymous Proposal", "abstract": "", "description": "Redacted description"});
    sub_mut(&mut d, "PUB1")["anonymised"] = json!({"title": "Hidden public title"});
    // An empty anonymised title: the real one is shown.
    sub_mut(&mut d, "SUB3")["anonymised"] = json!({"title": "", "abstract": "Anonymous abstract"});
    list_of(mini_event(&mut d), "submissions").push(json!({
        "code": "SUB4", "title": "Accepted Talk", "speakers": ["SPK1"], "submission_type": 1, "track": 1,
        "state": "accepted", "created": "2026-03-04T12:00:00Z", "anonymised": {"title": "Anonymous Talk"},
        "slots": [visible_slot("2026-06-01T11:00:00+02:00", "2026-06-01T11:30:00+02:00")]}));
    d
}

fn anon_sub2() -> Value {
    let mut obj = mini_sub2();
    obj["abstract"] = json!("Real abstract");
    obj["description"] = json!("Real description by Bob");
    obj
}

fn anon_sub4() -> Value {
    json!({
        "code": "SUB4", "speakers": [ada()], "title": "Accepted Talk",
        "submission_type": {"en": "Talk"}, "submission_type_id": 1,
        "track": {"en": "Main"}, "track_id": 1, "state": "accepted",
        "abstract": "", "description": "", "duration": 30, "slot_count": 1,
        "do_not_record": false, "is_featured": false, "content_locale": "en",
        "slot": {"start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:30:00+02:00",
                 "room": {"en": "Hall"}, "room_id": 1},
        "image": null, "resources": [], "answers": [],
        "created": "2026-03-04T13:00:00+01:00", "pending_state": null, "notes": "",
        "internal_notes": "", "tags": [], "tag_ids": []
    })
}

/// The four submissions of anon_dataset() as shown anonymised to `role`.
fn anonymised_view(role: Role) -> Vec<Value> {
    vec![
        view(&mini_pub1(), role),
        anonymised(
            &view(&anon_sub2(), role),
            "Anonymous Proposal",
            "Real abstract",
            "Redacted description",
        ),
        anonymised(
            &view(&mini_sub3(), role),
            "Trackless Idea",
            "Anonymous abstract",
            "",
        ),
        anonymised(&view(&anon_sub4(), role), "Anonymous Talk", "", ""),
    ]
}

#[tokio::test]
async fn a_reviewer_without_speaker_names_gets_the_anonymised_view() {
    let mut d = anon_dataset();
    mini_event(&mut d)["review_phase"] = json!({"can_see_speaker_names": false});
    let server = TestServer::start(&[d]).await;
    let reviewer = REVIEWER.client(&server);
    let expected = anonymised_view(Reviewer);
    assert_json(
        &reviewer.ok(&format!("{EV}/submissions/")).await,
        &page_of(expected.clone()),
        "reviewer list",
    );
    for obj in &expected {
        let code = obj["code"].as_str().unwrap();
        assert_json(
            &reviewer.ok(&format!("{EV}/submissions/{code}")).await,
            obj,
            code,
        );
    }
    assert_json(
        &reviewer.ok(&format!("{EV}/talks/")).await,
        &page_of(vec![expected[0].clone(), expected[3].clone()]),
        "reviewer talks",
    );
    assert_json(
        &reviewer.ok(&format!("{EV}/talks/SUB4")).await,
        &expected[3],
        "reviewer talk detail",
    );
    // Organisers and the public are not affected by the phase.
    let orga = ORGANISER
        .client(&server)
        .ok(&format!("{EV}/submissions/"))
        .await;
    assert_json(
        &orga,
        &page_of(vec![mini_pub1(), anon_sub2(), mini_sub3(), anon_sub4()]),
        "organiser",
    );
    let public = NOBODY
        .client(&server)
        .ok(&format!("{EV}/submissions/"))
        .await;
    assert_json(
        &public,
        &page_of(vec![view(&mini_pub1(), Public)]),
        "public",
    );
}

/// `names` is false only when every one of the reviewer's `is_reviewer`
/// teams hides names (or the phase does).
#[tokio::test]
async fn force_hide_speaker_names_hides_only_when_every_reviewer_team_hides() {
    type Change = fn(&mut Value);
    let cases: [(&str, Change, bool); 8] = [
        ("no team hides", |_| {}, true),
        (
            "the only team hides",
            |d| team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true),
            false,
        ),
        (
            "one team hides, another does not",
            |d| {
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
                list_of(mini_event(d), "teams")
                    .push(json!({"name": "Second", "members": ["REV"], "is_reviewer": true}));
            },
            true,
        ),
        (
            "the first team does not hide, the second does",
            |d| {
                list_of(mini_event(d), "teams").push(json!({"name": "Second", "members": ["REV"],
                    "is_reviewer": true, "force_hide_speaker_names": true}));
            },
            true,
        ),
        (
            "both teams hide",
            |d| {
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
                list_of(mini_event(d), "teams").push(json!({"name": "Second", "members": ["REV"],
                    "is_reviewer": true, "force_hide_speaker_names": true}));
            },
            false,
        ),
        (
            "a team without is_reviewer does not count",
            |d| {
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
                team_mut(d, "Helpers")["members"] = json!(["HELPER", "REV"]);
            },
            false,
        ),
        (
            "the phase hides",
            |d| mini_event(d)["review_phase"] = json!({"can_see_speaker_names": false}),
            false,
        ),
        (
            "the phase shows, the team hides",
            |d| {
                mini_event(d)["review_phase"] = json!({"can_see_speaker_names": true});
                team_mut(d, "Reviewers")["force_hide_speaker_names"] = json!(true);
            },
            false,
        ),
    ];
    for (name, change, names) in cases {
        let mut d = anon_dataset();
        change(&mut d);
        let server = TestServer::start(&[d]).await;
        let reviewer = REVIEWER.client(&server);
        let expected = if names {
            vec![
                view(&mini_pub1(), Reviewer),
                view(&anon_sub2(), Reviewer),
                view(&mini_sub3(), Reviewer),
                view(&anon_sub4(), Reviewer),
            ]
        } else {
            anonymised_view(Reviewer)
        };
        assert_json(
            &reviewer.ok(&format!("{EV}/submissions/")).await,
            &page_of(expected),
            name,
        );
    }
}

#[tokio::test]
async fn anon_parameter_anonymises_for_every_role_but_never_public_talks() {
    let server = TestServer::start(&[anon_dataset()]).await;
    for caller in CALLERS {
        let client = caller.client(&server);
        let role = caller.role;
        let named = match role {
            Public => vec![view(&mini_pub1(), role)],
            _ => vec![
                view(&mini_pub1(), role),
                view(&anon_sub2(), role),
                view(&mini_sub3(), role),
                view(&anon_sub4(), role),
            ],
        };
        let hidden = match role {
            Public => vec![view(&mini_pub1(), role)],
            _ => anonymised_view(role),
        };
        // Any non-empty value anonymises; an empty one counts as absent; the last value counts.
        for (query, anon) in [
            ("", false),
            ("?anon=", false),
            ("?anon=1&anon=", false),
            ("?anon=1", true),
            ("?anon=false", true),
            ("?anon=0", true),
            ("?anon=&anon=yes", true),
        ] {
            let expected = if anon { &hidden } else { &named };
            let list = client.ok(&format!("{EV}/submissions/{query}")).await;
            assert_json(
                &list,
                &page_of(expected.clone()),
                &format!("{}: {query}", caller.name),
            );
            for obj in expected {
                let code = obj["code"].as_str().unwrap();
                let detail = client.ok(&format!("{EV}/submissions/{code}{query}")).await;
                assert_json(
                    &detail,
                    obj,
                    &format!("{}: /submissions/{code}{query}", caller.name),
                );
            }
            // /talks and /talks/{code} too (§8).
            let talks: Vec<Value> = expected
                .iter()
                .filter(|o| ["PUB1", "SUB4"].contains(&o["code"].as_str().unwrap()))
                .cloned()
                .collect();
            assert_json(
                &client.ok(&format!("{EV}/talks{query}")).await,
                &page_of(talks.clone()),
                &format!("{}: talks {query}", caller.name),
            );
            for obj in &talks {
                let code = obj["code"].as_str().unwrap();
                assert_json(
                    &client.ok(&format!("{EV}/talks/{code}/{query}")).await,
                    obj,
                    &format!("{}: /talks/{code}{query}", caller.name),
                );
            }
        }
    }
}

/// `q` in the anonymised view matches the shown title and never a speaker's name (§6, §8).
#[tokio::test]
async fn search_in_the_anonymised_view_uses_the_shown_title_and_no_names() {
    let server = TestServer::start(&[anon_dataset()]).await;
    let orga = ORGANISER.client(&server);
    for (query, expected) in [
        ("q=bob", vec!["SUB2", "SUB3"]),
        ("q=bob&anon=1", vec![]),
        ("q=ada&anon=1", vec!["PUB1"]), // the public talk keeps its speakers
        ("q=secret", vec!["SUB2"]),
        ("q=secret&anon=1", vec![]), // the real title is not shown
        ("q=anonymous", vec![]),
        ("q=anonymous&anon=1", vec!["SUB2", "SUB4"]),
        ("q=hidden&anon=1", vec![]), // a public talk never shows its anonymised title
        ("q=trackless&anon=1", vec!["SUB3"]), // empty anonymised title: the real one is shown
        ("q=public%20talk&anon=1", vec!["PUB1"]),
    ] {
        assert_eq!(
            codes(&orga, &format!("{EV}/submissions?{query}")).await,
            strings(&expected),
            "{query}"
        );
    }
    let mut d = anon_dataset();
    mini_event(&mut d)["review_phase"] = json!({"can_see_speaker_names": false});
    let server = TestServer::start(&[d]).await;
    let reviewer = REVIEWER.client(&server);
    for (query, expected) in [
        ("q=bob", vec![]),
        ("q=ada", vec!["PUB1"]),
        ("q=talker", vec![]),
        ("q=proposal", vec!["SUB2"]),
        ("q=secret", vec![]),
        ("q=idea", vec!["SUB3"]),
    ] {
        assert_eq!(
            codes(&reviewer, &format!("{EV}/submissions?{query}")).await,
            strings(&expected),
            "reviewer {query}"
        );
    }
}

// ---------------------------------------------------------------------------
// Property: an anonymised submission never reveals its speakers
// ---------------------------------------------------------------------------

#[tokio::test]
async fn anonymised_submissions_never_reveal_their_speakers() {
    let mut checked = 0usize;
    for (name, doc, extra_tokens) in [
        ("democon", democon(), vec![]),
        ("edge", edge(), vec![EDGE_HASHONLY_TOKEN]),
    ] {
        let server = TestServer::start(std::slice::from_ref(&doc)).await;
        let admin = doc["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["is_administrator"] == true && u["tokens"][0].is_string())
            .map(|u| u["tokens"][0].as_str().unwrap().to_string())
            .expect("an administrator with a token");
        let mut callers: Vec<Option<String>> = vec![None];
        for user in doc["users"].as_array().unwrap() {
            if let Some(token) = user["tokens"][0].as_str() {
                callers.push(Some(token.to_string()));
            }
        }
        callers.extend(extra_tokens.iter().map(|t| Some(t.to_string())));
        assert_eq!(
            server
                .token(EDGE_HASHONLY_TOKEN)
                .get("/api/me")
                .await
                .status,
            if name == "edge" { 200 } else { 401 }
        );
        for event in doc["events"].as_array().unwrap() {
            let slug = event["slug"].as_str().unwrap();
            // Who speaks in what, as the organiser sees it.
            let orga = server
                .token(&admin)
                .all(&format!("/api/events/{slug}/submissions/?limit=1000"))
                .await;
            let speakers: BTreeMap<String, Vec<Value>> = orga
                .iter()
                .map(|s| {
                    (
                        s["code"].as_str().unwrap().to_string(),
                        s["speakers"].as_array().unwrap().clone(),
                    )
                })
                .collect();
            assert_eq!(
                speakers.len(),
                event["submissions"].as_array().unwrap().len(),
                "{slug}"
            );
            for caller in &callers {
                let client = match caller {
                    Some(token) => server.token(token),
                    None => server.anon(),
                };
                for anon in ["", "&anon=1"] {
                    for resource in ["submissions", "talks"] {
                        let path = format!("/api/events/{slug}/{resource}/?questions=all{anon}");
                        let first = client.get(&path).await;
                        if first.status == 403 {
                            assert_ne!(event["is_public"], true, "{name} {path}");
                            continue;
                        }
                        for (obj, _) in fetch_all(&client, &path).await {
                            let code = obj["code"].as_str().unwrap();
                            let real = &speakers[code];
                            let shown = obj["speakers"].as_array().unwrap();
                            let context = format!("{name} {caller:?} {path} {code}");
                            if !anon.is_empty() && !is_public_talk(event, sub_of(event, code)) {
                                assert!(shown.is_empty(), "{context}: anon must hide the speakers");
                            }
                            if !shown.is_empty() || real.is_empty() {
                                continue;
                            }
                            checked += 1;
                            let text = obj.to_string();
                            for speaker in real {
                                for key in ["name", "code", "email"] {
                                    let value = speaker[key].as_str().unwrap();
                                    assert!(!value.is_empty());
                                    assert!(
                                        !text.contains(value),
                                        "{context}: speaker {key} {value:?} leaks: {text}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} anonymised submissions were checked"
    );
}
