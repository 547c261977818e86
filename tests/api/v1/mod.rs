//! The v1 dialect (pretalx-v1.md), one module per resource or concern; the
//! dialects side by side are in versions.rs.

use crate::helpers::{mini, Reply, TestServer};
use serde_json::{json, Value};

mod events;
mod expand;
mod filter_choices;
mod lists;
mod openapi;
mod pagination;
mod pretalx_2026;
mod pretalx_differences;
mod questions;
mod reviews;
mod rooms_tracks_types;
mod schedules;
mod slots;
mod speakers;
mod submissions;
mod tags;
mod texts;
mod versions;

const V1: (&str, &str) = ("Pretalx-Version", "v1");

async fn get(
    server: &TestServer,
    token: Option<&str>,
    path: &str,
    headers: &[(&str, &str)],
) -> Reply {
    let client = match token {
        Some(token) => server.token(token),
        None => server.anon(),
    };
    client.request("GET", path, headers).await
}

/// mini() with a token of the organiser that asks for v1 by itself, a
/// choice question with options, and a second, private question.
fn dataset() -> Value {
    let mut dataset = mini();
    dataset["users"][0]["tokens"] = json!(["orga-token", {"token": "orga-v1-token", "api_version": "v1"},
               {"token": "orga-v2-token", "api_version": "v2"},
               {"token": "orga-vnext-token", "api_version": "v-next"}]);
    dataset["events"][0]["questions"] = json!([
        {"id": 1, "variant": "choices", "target": "submission", "question": {"en": "Level?"},
         "is_public": true, "position": 2,
         "options": [{"id": 10, "answer": {"en": "Beginner"}}, {"id": 11, "answer": {"en": "Expert"}}]},
        {"id": 2, "variant": "string", "target": "submission", "question": {"en": "Notes?"},
         "position": 1, "is_visible_to_reviewers": false},
    ]);
    dataset
}

/// mini() with a review, an answer, tags on the public talk (one public),
/// a private resource and a reviewer who may not see speaker names.
fn submissions_dataset() -> Value {
    let mut dataset = dataset();
    let event = &mut dataset["events"][0];
    event["tags"] = json!([{"id": 1, "tag": "hot.topic", "color": "#ff0000"},
                           {"id": 2, "tag": "open", "color": "#00ff00", "is_public": true}]);
    event["submissions"][0]["tags"] = json!([2, 1]);
    event["submissions"][0]["resources"] = json!([
        {"resource": "https://mini.example/slides.pdf", "description": "Slides"},
        {"resource": "https://mini.example/notes.txt", "description": "Notes", "is_public": false},
    ]);
    event["submissions"][0]["notes"] = json!("Please a lapel microphone");
    event["answers"] = json!([
        {"id": 5, "question": 1, "answer": "Beginner", "options": [10], "submission": "PUB1"},
        {"id": 6, "question": 2, "answer": "secret", "submission": "PUB1"},
    ]);
    event["reviews"] = json!([
        {"id": 7, "submission": "SUB2", "user": "REV", "text": "Good", "score": 2.0,
         "created": "2026-04-01T10:00:00Z"},
    ]);
    dataset
}

const PYTANIS_EXPAND: &str = "answers,answers.question,answers.options,resources,slots,slots.room,\
speakers,speakers.answers,speakers.answers.options,submission_type,tags,track";
