//! The datasets of reviews.rs, rooms.rs, tags.rs and reviews_rooms_tags.rs:
//! `reviews_mini()` (mini() with reviewers, an administrator and three
//! reviews) and what is built on it, and the edits they make to datasets.

use super::{democon, mini};
use serde_json::{json, Value};

pub fn ev(ds: &mut Value) -> &mut Value {
    &mut ds["events"][0]
}

pub fn add_user(ds: &mut Value, code: &str, name: &str, token: &str, admin: bool) {
    ds["users"].as_array_mut().unwrap().push(json!({
        "code": code,
        "name": name,
        "email": format!("{}@mini.example", code.to_lowercase()),
        "tokens": [token],
        "is_administrator": admin,
    }));
}

pub fn give_token(ds: &mut Value, code: &str, token: &str) {
    let user = ds["users"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|u| u["code"] == code)
        .expect("user");
    user["tokens"] = json!([token]);
}

pub fn team<'a>(ds: &'a mut Value, name: &str) -> &'a mut Value {
    ev(ds)["teams"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == name)
        .expect("team")
}

pub fn add_team(ds: &mut Value, team: Value) {
    ev(ds)["teams"].as_array_mut().unwrap().push(team);
}

pub fn submission<'a>(ds: &'a mut Value, code: &str) -> &'a mut Value {
    ev(ds)["submissions"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["code"] == code)
        .expect("submission")
}

/// Makes `user` a speaker of `code` (with a profile in the event).
pub fn add_speaker(ds: &mut Value, code: &str, user: &str) {
    let speakers = ev(ds)["speakers"].as_array_mut().unwrap();
    if !speakers.iter().any(|p| p["user"] == user) {
        speakers.push(json!({"user": user}));
    }
    submission(ds, code)["speakers"]
        .as_array_mut()
        .unwrap()
        .push(json!(user));
}

pub fn remove_review(ds: &mut Value, id: i64) {
    ev(ds)["reviews"]
        .as_array_mut()
        .unwrap()
        .retain(|r| r["id"] != id);
}

// ===========================================================================
// Reviews: the base dataset
// ===========================================================================
//
// mini() plus reviewers REV2 and REV3 (REV3 writes nothing), an
// administrator, a token for the speaker SPK2, and three reviews listed out of
// order: 10 (SUB2, by REV2) and 11 (SUB3, by REV2) are created at the same
// instant written with two offsets, 12 (PUB1, by REV) a day later.

pub const RITA: &str = "Rita Reviewer";
pub const RAVI: &str = "Ravi Second";
pub const REVIEW_IDS: [i64; 3] = [10, 11, 12];

pub fn reviews_mini() -> Value {
    let mut ds = mini();
    add_user(&mut ds, "REV2", RAVI, "rev2-token", false);
    add_user(&mut ds, "REV3", "Rhea Third", "rev3-token", false);
    add_user(&mut ds, "ADMIN", "Adam Admin", "admin-token", true);
    give_token(&mut ds, "SPK2", "spk2-token");
    team(&mut ds, "Reviewers")["members"] = json!(["REV", "REV2", "REV3"]);
    ev(&mut ds)["reviews"] = json!([
        {"id": 12, "submission": "PUB1", "user": "REV", "text": "Great public talk", "score": null,
         "created": "2026-04-02T09:30:00.123456Z", "updated": "2026-04-03T10:00:00Z"},
        {"id": 11, "submission": "SUB3", "user": "REV2", "score": 2.5,
         "created": "2026-04-01T10:00:00+02:00"},
        {"id": 10, "submission": "SUB2", "user": "REV2", "text": "Solid", "score": 3,
         "created": "2026-04-01T08:00:00Z"}
    ]);
    ds
}

/// A second public event where REV reviews (and is an organiser of nothing).
pub fn other_event() -> Value {
    json!({
        "slug": "other", "name": {"en": "Other Conf"}, "is_public": true, "date_from": "2026-07-01",
        "timezone": "UTC",
        "teams": [{"name": "Other reviewers", "members": ["REV"], "is_reviewer": true}],
        "submission_types": [{"id": 2, "name": {"en": "Talk"}}],
        "rooms": [{"id": 9, "name": {"en": "Elsewhere"}}],
        "tags": [{"id": 9, "tag": "elsewhere"}],
        "speakers": [{"user": "SPK1"}],
        "submissions": [{"code": "OTH1", "title": "Elsewhere", "speakers": ["SPK1"], "submission_type": 2,
                         "created": "2026-03-01T00:00:00Z"}],
        "reviews": [{"id": 20, "submission": "OTH1", "user": "REV", "text": "Elsewhere", "score": 4,
                     "created": "2026-04-01T00:00:00Z"}]
    })
}

/// Tags listed out of id order; a reviewer with every restriction a phase
/// and a team can set still sees them all.
pub fn tags_mini() -> Value {
    let mut ds = reviews_mini();
    ev(&mut ds)["tags"] = json!([
        {"id": 3, "tag": "café", "description": {"en": "Coffee", "fr": "Café"}, "color": "#6f4e37", "is_public": true},
        {"id": 1, "tag": "hot.topic", "color": "#ff0000"},
        {"id": 2, "tag": "Needs AV", "description": "Needs A/V"}
    ]);
    ev(&mut ds)["review_phase"] = json!({"can_see_speaker_names": false, "can_see_reviewer_names": false,
                                         "can_see_other_reviews": "never", "proposal_visibility": "assigned"});
    let reviewers = team(&mut ds, "Reviewers");
    reviewers["force_hide_speaker_names"] = json!(true);
    reviewers["limit_tracks"] = json!([1]);
    ds["events"].as_array_mut().unwrap().push(other_event());
    ds
}

/// democon with a token for a speaker without a role, the organiser speaking
/// in one reviewed submission and the reviewer in another.
pub fn democon_with_speaking_staff() -> (Value, String, String) {
    let mut ds = democon();
    let speaker = ds["events"][0]["speakers"][0]["user"]
        .as_str()
        .unwrap()
        .to_string();
    give_token(&mut ds, &speaker, "speaker-token");
    let reviews = ds["events"][0]["reviews"].as_array().unwrap().clone();
    let orga_sub = reviews[0]["submission"].as_str().unwrap().to_string();
    let rev_sub = reviews
        .iter()
        .find(|r| r["submission"] != orga_sub.as_str() && r["user"] != "VDGUZN")
        .map(|r| r["submission"].as_str().unwrap().to_string())
        .unwrap();
    add_speaker(&mut ds, &orga_sub, "G8VYPY");
    add_speaker(&mut ds, &rev_sub, "VDGUZN");
    (ds, orga_sub, rev_sub)
}
