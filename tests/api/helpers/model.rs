//! The contract model: an independent restatement of behaviour.md §3/§6
//! over a dataset's JSON (who sees which reviews, rooms and tags, and how),
//! that reviews_rooms_tags.rs checks democon.json and edge.json against.

use chrono::{DateTime, FixedOffset, Timelike};
use chrono_tz::Tz;
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Orga,
    Rev,
    Pub,
}

pub fn arr(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or(&[])
}

fn flag(v: &Value, default: bool) -> bool {
    v.as_bool().unwrap_or(default)
}

pub fn i18n(v: &Value) -> Value {
    match v {
        Value::Null => json!({}),
        Value::String(s) if s.is_empty() => json!({}),
        Value::String(s) => json!({"en": s}),
        other => other.clone(),
    }
}

pub fn parse(ts: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(ts).unwrap_or_else(|e| panic!("{ts}: {e}"))
}

fn tz(event: &Value) -> Tz {
    event["timezone"]
        .as_str()
        .unwrap_or("UTC")
        .parse()
        .expect("time zone")
}

/// §4: the event's zone, `Z` for offset zero, microseconds when non-zero.
pub fn format(ts: &str, event: &Value) -> String {
    let local = parse(ts).with_timezone(&tz(event));
    let mut out = local.format("%Y-%m-%dT%H:%M:%S").to_string();
    let micros = local.nanosecond() / 1000;
    if micros != 0 {
        out.push_str(&format!(".{micros:06}"));
    }
    let offset = local.format("%:z").to_string();
    out.push_str(if offset == "+00:00" {
        "Z"
    } else {
        offset.as_str()
    });
    out
}

fn midnight(ts: &str, event: &Value) -> bool {
    let local = parse(ts).with_timezone(&tz(event));
    local.num_seconds_from_midnight() == 0 && local.nanosecond() == 0
}

fn user<'a>(ds: &'a Value, code: &str) -> &'a Value {
    arr(&ds["users"])
        .iter()
        .find(|u| u["code"] == code)
        .expect("user")
}

pub struct Caller<'a> {
    pub code: Option<&'a str>,
    pub role: Role,
    reviewer_teams: Vec<&'a Value>,
    phase: &'a Value,
    other_reviews: bool,
    reviewer_names: bool,
}

impl<'a> Caller<'a> {
    pub fn new(ds: &'a Value, event: &'a Value, code: Option<&'a str>) -> Self {
        let teams: Vec<&Value> = match code {
            Some(c) => arr(&event["teams"])
                .iter()
                .filter(|t| arr(&t["members"]).iter().any(|m| m == c))
                .collect(),
            None => Vec::new(),
        };
        let admin = code.is_some_and(|c| flag(&user(ds, c)["is_administrator"], false));
        let role = if code.is_none() {
            Role::Pub
        } else if admin
            || teams
                .iter()
                .any(|t| flag(&t["can_change_submissions"], false))
        {
            Role::Orga
        } else if teams.iter().any(|t| flag(&t["is_reviewer"], false)) {
            Role::Rev
        } else {
            Role::Pub
        };
        let reviewer_teams = teams
            .into_iter()
            .filter(|t| flag(&t["is_reviewer"], false))
            .collect();
        // No active phase: the defaults (`review_phase` absent or null).
        let phase = &event["review_phase"];
        let wrote = code.is_some_and(|c| arr(&event["reviews"]).iter().any(|r| r["user"] == c));
        let other_reviews = match phase["can_see_other_reviews"]
            .as_str()
            .unwrap_or("after_review")
        {
            "always" => true,
            "after_review" => wrote,
            _ => false,
        };
        let reviewer_names = flag(&phase["can_see_reviewer_names"], true);
        Caller {
            code,
            role,
            reviewer_teams,
            phase,
            other_reviews,
            reviewer_names,
        }
    }

    pub fn sees_event(&self, event: &Value) -> bool {
        flag(&event["is_public"], false) || self.role != Role::Pub
    }

    fn speaks_in(&self, sub: &Value) -> bool {
        self.code
            .is_some_and(|c| arr(&sub["speakers"]).iter().any(|s| s == c))
    }

    fn has_reviewer_access(&self, sub: &Value) -> bool {
        let Some(code) = self.code else { return false };
        if self.role != Role::Rev {
            return false;
        }
        if arr(&sub["assigned_reviewers"]).iter().any(|c| c == code) {
            return true;
        }
        self.phase["proposal_visibility"].as_str().unwrap_or("all") == "all"
            && self.reviewer_teams.iter().any(|t| {
                let limit = arr(&t["limit_tracks"]);
                limit.is_empty() || (!sub["track"].is_null() && limit.contains(&sub["track"]))
            })
    }

    fn sees_review(&self, event: &Value, review: &Value) -> bool {
        let sub = arr(&event["submissions"])
            .iter()
            .find(|s| s["code"] == review["submission"])
            .expect("submission");
        let own = self.code.is_some_and(|c| review["user"] == c);
        match self.role {
            Role::Orga => !self.speaks_in(sub),
            Role::Rev => {
                own || (self.other_reviews && self.has_reviewer_access(sub) && !self.speaks_in(sub))
            }
            Role::Pub => false,
        }
    }

    fn review_object(&self, ds: &Value, event: &Value, review: &Value) -> Value {
        let own = self.code.is_some_and(|c| review["user"] == c);
        let name = if self.role == Role::Orga || self.reviewer_names || own {
            user(ds, review["user"].as_str().unwrap())["name"].clone()
        } else {
            Value::Null
        };
        let created = review["created"].as_str().unwrap();
        let updated = review["updated"].as_str().unwrap_or(created);
        let mut answers: Vec<&Value> = arr(&event["answers"])
            .iter()
            .filter(|a| a["review"] == review["id"])
            .filter(|a| {
                let q = arr(&event["questions"])
                    .iter()
                    .find(|q| q["id"] == a["question"])
                    .expect("question");
                self.role == Role::Orga
                    || (flag(&q["active"], true) && flag(&q["is_visible_to_reviewers"], true))
            })
            .collect();
        answers.sort_by_key(|a| a["id"].as_i64());
        json!({
            "id": review["id"],
            "submission": review["submission"],
            "user": name,
            "text": review["text"].as_str().unwrap_or(""),
            "score": review["score"],
            "created": format(created, event),
            "updated": format(updated, event),
            "answers": answers.into_iter().map(|a| answer_object(event, a)).collect::<Vec<_>>(),
        })
    }

    /// §6 Reviews, by created instant then id.
    pub fn reviews(&self, ds: &Value, event: &Value) -> Vec<Value> {
        let mut visible: Vec<&Value> = arr(&event["reviews"])
            .iter()
            .filter(|r| self.sees_review(event, r))
            .collect();
        visible.sort_by_key(|r| (parse(r["created"].as_str().unwrap()), r["id"].as_i64()));
        visible
            .into_iter()
            .map(|r| self.review_object(ds, event, r))
            .collect()
    }

    /// §6 Rooms, by position (nulls last) then id.
    pub fn rooms(&self, event: &Value) -> Vec<Value> {
        let mut rooms: Vec<&Value> = arr(&event["rooms"]).iter().collect();
        rooms.sort_by_key(|r| {
            (
                r["position"].is_null(),
                r["position"].as_i64(),
                r["id"].as_i64(),
            )
        });
        rooms
            .into_iter()
            .map(|r| {
                let mut out = json!({
                    "id": r["id"], "guid": r["guid"], "name": i18n(&r["name"]),
                    "description": i18n(&r["description"]), "capacity": r["capacity"],
                    "position": r["position"], "speaker_info": i18n(&r["speaker_info"]),
                });
                if self.role == Role::Orga {
                    let mut av: Vec<&Value> = arr(&r["availabilities"]).iter().collect();
                    av.sort_by_key(|a| a["id"].as_i64());
                    out["availabilities"] = json!(av
                        .into_iter()
                        .map(|a| {
                            let (start, end) = (a["start"].as_str().unwrap(), a["end"].as_str().unwrap());
                            json!({"id": a["id"], "start": format(start, event), "end": format(end, event),
                                   "allDay": midnight(start, event) && midnight(end, event)})
                        })
                        .collect::<Vec<_>>());
                }
                out
            })
            .collect()
    }

    /// §6 Tags, by id; nothing for the public.
    pub fn tags(&self, event: &Value) -> Vec<Value> {
        if self.role == Role::Pub {
            return Vec::new();
        }
        let mut tags: Vec<&Value> = arr(&event["tags"]).iter().collect();
        tags.sort_by_key(|t| t["id"].as_i64());
        tags.into_iter()
            .map(|t| {
                json!({"id": t["id"], "tag": t["tag"], "description": i18n(&t["description"]),
                       "color": t["color"].as_str().unwrap_or(""), "is_public": flag(&t["is_public"], false)})
            })
            .collect()
    }
}

fn answer_object(event: &Value, a: &Value) -> Value {
    let q = arr(&event["questions"])
        .iter()
        .find(|q| q["id"] == a["question"])
        .expect("question");
    let mut options: Vec<&Value> = arr(&q["options"])
        .iter()
        .filter(|o| arr(&a["options"]).contains(&o["id"]))
        .collect();
    options.sort_by_key(|o| o["id"].as_i64());
    json!({
        "id": a["id"],
        "question": {"id": q["id"], "question": i18n(&q["question"])},
        "answer": a["answer"].as_str().unwrap_or(""),
        "answer_file": a["answer_file"],
        "submission": a["submission"],
        "review": a["review"],
        "person": a["person"],
        "options": options.iter().map(|o| json!({"id": o["id"], "answer": i18n(&o["answer"])})).collect::<Vec<_>>(),
    })
}
