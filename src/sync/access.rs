//! The access file: what the upstream API does not show (confapi's own
//! users and tokens, teams, the review phase, ...), laid over the mirror.
//!
//! It is a dataset document. Its users come first; a speaker seen upstream
//! with the same code gets the upstream name, e-mail and avatar. Per event
//! (matched by slug), every field it gives replaces the mirrored one,
//! except `questions`, `tracks`, `submission_types` (by `id`) and
//! `submissions` (by `code`): an entry there changes only the fields it
//! names on the mirrored item (e.g. `"active": false`,
//! `"assigned_reviewers": [...]`); tracks and types the upstream does not
//! show are added.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::error::SyncError;
use super::upstream::{Fetched, SeenUser};

/// Reviewer name → the codes of the users of that name.
pub(crate) type Names = HashMap<String, Vec<String>>;

fn access_error(path: &str, message: &str) -> SyncError {
    SyncError::plain(format!("access file: {path}: {message}"))
}

/// Reviewer name → user codes, from the access file's users and the speakers seen
/// (each event's speakers list).
pub fn names_to_codes<'a>(
    access: &Value,
    speakers: impl IntoIterator<Item = &'a Fetched>,
) -> Result<Names, SyncError> {
    let mut names = Names::new();
    let mut codes = std::collections::HashSet::new();
    if let Some(users) = access.get("users").and_then(Value::as_array) {
        for user in users {
            if let (Some(code), Some(name)) = (
                user.get("code").and_then(Value::as_str),
                user.get("name").and_then(Value::as_str),
            ) {
                codes.insert(code.to_string());
                names
                    .entry(name.to_string())
                    .or_default()
                    .push(code.to_string());
            }
        }
    }
    for list in speakers {
        for item in list.pages.iter().flat_map(|(_, r)| r) {
            if let (Some(code), Some(name)) = (
                item.get("code").and_then(Value::as_str),
                item.get("name").and_then(Value::as_str),
            ) {
                if codes.insert(code.to_string()) {
                    names
                        .entry(name.to_string())
                        .or_default()
                        .push(code.to_string());
                }
            }
        }
    }
    Ok(names)
}

pub fn merge(
    access: &Value,
    seen: BTreeMap<String, SeenUser>,
    mut events: Vec<Map<String, Value>>,
) -> Result<Value, SyncError> {
    let Value::Object(access) = access else {
        return Err(access_error("$", "expected a dataset document (an object)"));
    };
    let mut users: Vec<Value> = match access.get("users") {
        None => Vec::new(),
        Some(Value::Array(users)) => users.clone(),
        Some(_) => return Err(access_error("users", "expected a list")),
    };
    let mut seen = seen;
    for user in users.iter_mut() {
        let Some(code) = user.get("code").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        if let (Some(found), Value::Object(user)) = (seen.remove(&code), user) {
            user.insert("name".into(), Value::String(found.name));
            if let Some(email) = found.email {
                user.insert("email".into(), Value::String(email));
            }
            user.insert(
                "avatar".into(),
                found.avatar.map_or(Value::Null, Value::String),
            );
            if let Some(id) = found.id {
                user.insert("id".into(), id.into());
            }
            if let Some(zone) = found.timezone {
                user.insert("timezone".into(), Value::String(zone));
            }
            if let Some(locale) = found.locale {
                user.insert("locale".into(), Value::String(locale));
            }
        }
    }
    for (code, found) in seen {
        let mut user = serde_json::json!({
            "code": code,
            "name": found.name,
            "email": found.email.unwrap_or_else(|| format!("{}@speakers.invalid", code.to_lowercase())),
            "avatar": found.avatar,
            "id": found.id,
        });
        if let Some(zone) = found.timezone {
            user["timezone"] = Value::String(zone);
        }
        if let Some(locale) = found.locale {
            user["locale"] = Value::String(locale);
        }
        users.push(user);
    }
    if let Some(list) = access.get("events") {
        let Value::Array(list) = list else {
            return Err(access_error("events", "expected a list"));
        };
        for (i, overlay) in list.iter().enumerate() {
            let Value::Object(overlay) = overlay else {
                return Err(access_error(&format!("events[{i}]"), "expected an object"));
            };
            let slug = overlay
                .get("slug")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let Some(event) = events.iter_mut().find(|e| {
                e.get("slug")
                    .and_then(Value::as_str)
                    .is_some_and(|s| s.eq_ignore_ascii_case(slug))
            }) else {
                continue; // not mirrored in this round (--event)
            };
            for (key, value) in overlay {
                if key == "questions" || key == "submissions" {
                    overlay_items(event, key, value, i, false)?;
                } else if key == "tracks" || key == "submission_types" {
                    overlay_items(event, key, value, i, true)?;
                } else if key != "slug" {
                    event.insert(key.clone(), value.clone());
                }
            }
        }
    }
    let access_codes: Vec<String> = access
        .get("users")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|u| u.get("code").and_then(Value::as_str).map(str::to_string))
        .collect();
    one_user_per_person(&mut users, &mut events, &access_codes);
    // Moved in, not through `json!`, which would serialise a copy of every
    // user and event.
    let mut document = Map::new();
    document.insert("format".into(), Value::from("cfp-dataset"));
    document.insert("version".into(), Value::from(1));
    document.insert("users".into(), Value::Array(users));
    document.insert(
        "events".into(),
        Value::Array(events.into_iter().map(Value::Object).collect()),
    );
    Ok(Value::Object(document))
}

/// pretalx 2026 gives each speaker a profile code per event (an earlier
/// profile kept its user's code, a later one got a new one), so one person
/// can come with several codes: speakers' codes in each event, a user code
/// in teams and reviews. The e-mail address (shown to organisers) tells
/// they are one: the mirror keeps one user, by the code teams, reviews,
/// assignments or the access file name (else the first in order), and each
/// other code becomes the `code` of that person's profile in its event, so
/// every event keeps pretalx's codes. Without e-mail addresses nothing is
/// known to be one person, and nothing is merged.
fn one_user_per_person(
    users: &mut Vec<Value>,
    events: &mut [Map<String, Value>],
    access_codes: &[String],
) {
    let email_of = |user: &Value| {
        user.get("email")
            .and_then(Value::as_str)
            .map(str::to_lowercase)
    };
    let code_of = |user: &Value| user.get("code").and_then(Value::as_str).map(str::to_string);
    // Codes named as users (not as speakers).
    let mut user_refs: std::collections::HashSet<String> = access_codes.iter().cloned().collect();
    for event in events.iter() {
        let strings = |list: &str, field: &str| -> Vec<String> {
            event
                .get(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .flat_map(|item| match item.get(field) {
                    Some(Value::String(code)) => vec![code.clone()],
                    Some(Value::Array(codes)) => codes
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                    _ => Vec::new(),
                })
                .collect()
        };
        user_refs.extend(strings("teams", "members"));
        user_refs.extend(strings("reviews", "user"));
        user_refs.extend(strings("submissions", "assigned_reviewers"));
    }
    let mut by_email: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for user in users.iter() {
        if let (Some(email), Some(code)) = (email_of(user), code_of(user)) {
            by_email.entry(email).or_default().push(code);
        }
    }
    // Each other code of a person → the code kept for them.
    let mut kept_for: BTreeMap<String, String> = BTreeMap::new();
    for codes in by_email.into_values().filter(|codes| codes.len() > 1) {
        let kept = codes
            .iter()
            .find(|c| user_refs.contains(*c))
            .unwrap_or(&codes[0])
            .clone();
        for code in codes.into_iter().filter(|c| *c != kept) {
            kept_for.insert(code, kept.clone());
        }
    }
    if kept_for.is_empty() {
        return;
    }
    // What a speaker code's user showed (pretalx shows organisers a
    // speaker's time zone and locale, not a reviewer's) and the kept user
    // lacks goes to the kept user.
    let dropped: Vec<(String, Value)> = users
        .iter()
        .filter_map(|user| {
            let kept = kept_for.get(&code_of(user)?)?;
            Some((kept.clone(), user.clone()))
        })
        .collect();
    for (kept, from) in dropped {
        let Some(Value::Object(user)) = users
            .iter_mut()
            .find(|u| code_of(u).as_deref() == Some(&kept))
        else {
            continue;
        };
        for key in ["timezone", "locale", "avatar", "id"] {
            let given = from.get(key).filter(|v| !v.is_null());
            if let (Some(value), None | Some(Value::Null)) = (given, user.get(key)) {
                user.insert(key.into(), value.clone());
            }
        }
    }
    users.retain(|user| code_of(user).is_none_or(|code| !kept_for.contains_key(&code)));
    for event in events.iter_mut() {
        let Some(Value::Array(profiles)) = event.get_mut("speakers") else {
            continue;
        };
        for profile in profiles.iter_mut() {
            let Some(Value::Object(profile)) = Some(profile) else {
                continue;
            };
            let Some(code) = profile
                .get("user")
                .and_then(Value::as_str)
                .map(str::to_string)
            else {
                continue;
            };
            if let Some(kept) = kept_for.get(&code) {
                profile.insert("user".into(), Value::String(kept.clone()));
                profile.insert("code".into(), Value::String(code));
            }
        }
    }
}

/// Questions, tracks and submission types by `id`, submissions by `code`:
/// the access file's entry sets only the fields it names (e.g. `active`,
/// `assigned_reviewers`, a track's `color`). With `add`, an entry the
/// upstream lacks is added (a track no submission uses); otherwise it is an
/// error.
fn overlay_items(
    event: &mut Map<String, Value>,
    list: &str,
    overlay: &Value,
    i: usize,
    add: bool,
) -> Result<(), SyncError> {
    let Value::Array(overlay) = overlay else {
        return Err(access_error(
            &format!("events[{i}].{list}"),
            "expected a list",
        ));
    };
    let key = if list == "submissions" { "code" } else { "id" };
    let items = event
        .entry(list)
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(items) = items else {
        return Ok(());
    };
    for (j, given) in overlay.iter().enumerate() {
        let wanted = given.get(key).filter(|v| !v.is_null());
        let found = items
            .iter()
            .position(|item| wanted.is_some() && item.get(key) == wanted);
        let Some(target) = found.map(|n| &mut items[n]) else {
            if add {
                items.push(given.clone());
                continue;
            }
            return Err(access_error(
                &format!("events[{i}].{list}[{j}].{key}"),
                "no such item upstream",
            ));
        };
        if let (Value::Object(target), Value::Object(given)) = (target, given) {
            for (key, value) in given {
                target.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn seen(code: &str, email: &str) -> (String, SeenUser) {
        (
            code.to_string(),
            SeenUser {
                name: "Ada".into(),
                email: Some(email.into()),
                ..SeenUser::default()
            },
        )
    }

    fn event(slug: &str, speaker: &str, extra: Value) -> Map<String, Value> {
        let mut event = json!({"slug": slug, "speakers": [{"user": speaker, "biography": ""}],
                               "submissions": [{"code": format!("{slug}1"), "speakers": [speaker]}]});
        if let (Value::Object(event), Value::Object(extra)) = (&mut event, extra) {
            event.extend(extra);
        }
        let Value::Object(event) = event else {
            unreachable!()
        };
        event
    }

    #[test]
    fn one_persons_codes_in_several_events_become_one_user_and_profile_codes() {
        // pretalx 2026: Ada goes by ADA1 in one event and ADA2 in another
        // (the same e-mail in any case); Zed by ZED in both.
        let merged = merge(
            &json!({}),
            BTreeMap::from([
                seen("ADA1", "ada@example.org"),
                seen("ADA2", "Ada@Example.org"),
                seen("ZED", "zed@example.org"),
            ]),
            vec![
                event("one", "ADA1", json!({})),
                event("two", "ADA2", json!({})),
            ],
        )
        .unwrap();
        let codes: Vec<&str> = merged["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["ADA1", "ZED"]);
        assert_eq!(
            merged["events"][0]["speakers"][0],
            json!({"user": "ADA1", "biography": ""})
        );
        assert_eq!(
            merged["events"][1]["speakers"][0],
            json!({"user": "ADA1", "code": "ADA2", "biography": ""})
        );
        // The submissions keep pretalx's codes.
        assert_eq!(
            merged["events"][1]["submissions"][0]["speakers"],
            json!(["ADA2"])
        );
        // The result is a valid dataset.
        crate::dataset::validate::parse_value(&json!({
            "format": "cfp-dataset", "version": 1, "users": merged["users"],
            "events": [
                {"slug": "one", "name": "One", "date_from": "2026-06-01",
                 "speakers": merged["events"][0]["speakers"]},
                {"slug": "two", "name": "Two", "date_from": "2026-06-01",
                 "speakers": merged["events"][1]["speakers"]},
            ],
        }))
        .expect("valid");
    }

    #[test]
    fn the_user_code_teams_and_reviews_name_is_the_one_kept() {
        // A team member (user code UMA) speaks under the profile code UMA26.
        let merged = merge(
            &json!({}),
            BTreeMap::from([
                (
                    "UMA26".to_string(),
                    SeenUser {
                        timezone: Some("Asia/Tokyo".into()),
                        ..seen("UMA26", "uma@example.org").1
                    },
                ),
                seen("UMA", "uma@example.org"),
            ]),
            vec![event(
                "one",
                "UMA26",
                json!({"teams": [{"name": "Orga", "members": ["UMA"]}]}),
            )],
        )
        .unwrap();
        assert_eq!(merged["users"].as_array().unwrap().len(), 1);
        assert_eq!(merged["users"][0]["code"], "UMA");
        // The speaker's time zone, which only the speakers list showed.
        assert_eq!(merged["users"][0]["timezone"], "Asia/Tokyo");
        assert_eq!(
            merged["events"][0]["speakers"][0],
            json!({"user": "UMA", "code": "UMA26", "biography": ""})
        );
        // Without e-mail addresses nothing is known to be one person.
        let unknown = merge(
            &json!({}),
            BTreeMap::from([
                (
                    "UMA26".to_string(),
                    SeenUser {
                        name: "Uma".into(),
                        ..SeenUser::default()
                    },
                ),
                (
                    "UMA".to_string(),
                    SeenUser {
                        name: "Uma".into(),
                        ..SeenUser::default()
                    },
                ),
            ]),
            vec![event("one", "UMA26", json!({}))],
        )
        .unwrap();
        assert_eq!(unknown["users"].as_array().unwrap().len(), 2);
    }
}
