//! Model → dataset document (`shared/spec/dataset.md`), through the model's
//! serde derives. Every field is written, defaults included, so an exported
//! file documents itself; tokens are written as `token_hashes` because clear
//! tokens are never stored.

use serde::Serialize;

use crate::model::{Event, User};

/// The document header plus the data, in the order dataset.md lists them.
#[derive(Serialize)]
pub struct Document<'a> {
    pub format: &'static str,
    pub version: u32,
    pub users: &'a [User],
    pub events: &'a [Event],
}

impl<'a> Document<'a> {
    pub fn new(dataset: &'a crate::model::Dataset) -> Self {
        Document {
            format: "cfp-dataset",
            version: 1,
            users: &dataset.users,
            events: &dataset.events,
        }
    }
}

/// The document as a JSON value (tests and small tools; `export` streams
/// [`Document`] straight to its file).
pub fn to_json(dataset: &crate::model::Dataset) -> serde_json::Value {
    serde_json::to_value(Document::new(dataset)).expect("the model always serialises")
}
