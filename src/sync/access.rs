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
        }
    }
    for (code, found) in seen {
        users.push(serde_json::json!({
            "code": code,
            "name": found.name,
            "email": found.email.unwrap_or_else(|| format!("{}@speakers.invalid", code.to_lowercase())),
            "avatar": found.avatar,
            "id": found.id,
        }));
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
    Ok(serde_json::json!({
        "format": "cfp-dataset",
        "version": 1,
        "users": users,
        "events": events.into_iter().map(Value::Object).collect::<Vec<_>>(),
    }))
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
