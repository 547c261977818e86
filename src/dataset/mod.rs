//! The dataset format (`shared/spec/dataset.md`): validation and parsing of
//! documents into the model, export back to documents, and the synthetic
//! demo generator.

pub mod demo;
pub mod export;
pub mod outline;
pub mod validate;

pub use export::to_json;

use std::collections::HashMap;

use crate::model::Dataset;
use validate::Problem;

/// Adds a second document's data to `into` (for `import a.json b.json`).
/// A user given twice must be given the same way; an event slug only once.
pub fn merge(into: &mut Dataset, other: Dataset) -> Result<(), Vec<Problem>> {
    let mut problems = Vec::new();
    let known: HashMap<String, usize> = into
        .users
        .iter()
        .enumerate()
        .map(|(i, u)| (u.code.to_string(), i))
        .collect();
    for (i, user) in other.users.into_iter().enumerate() {
        match known.get(user.code.as_str()) {
            Some(&existing) if into.users[existing] != user => problems.push(Problem {
                path: format!("users[{i}]"),
                message: format!(
                    "user {:?} is also given, differently, in an earlier file",
                    user.code
                ),
            }),
            Some(_) => {}
            None => into.users.push(user),
        }
    }
    for (i, event) in other.events.into_iter().enumerate() {
        if into
            .events
            .iter()
            .any(|e| e.slug.eq_ignore_ascii_case(&event.slug))
        {
            problems.push(Problem {
                path: format!("events[{i}].slug"),
                message: format!("event {:?} is also in an earlier file", event.slug),
            });
        } else {
            into.events.push(event);
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
