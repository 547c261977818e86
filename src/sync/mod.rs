//! `confapi sync`: mirrors a pretalx (legacy API) into the store.
//!
//! A round reads every list of every event first, maps it to a dataset
//! document (`legacy`), lays the access file over it (`access`), validates
//! the result exactly like `confapi import`, and writes it with one
//! `Store::import`: a round that fails anywhere writes nothing.

pub mod access;
pub mod client;
pub mod legacy;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{json, Value};

use crate::dataset::validate;
use crate::storage::{ImportSummary, Store};

/// Why a round failed: the URL and JSON path where known.
#[derive(Debug)]
pub struct SyncError(pub String);

impl SyncError {
    pub fn plain(message: impl Into<String>) -> Self {
        SyncError(message.into())
    }
    pub fn at(url: &str, message: impl std::fmt::Display) -> Self {
        SyncError(format!("GET {url}: {message}"))
    }
    pub fn at_path(url: &str, path: &str, message: &str) -> Self {
        SyncError(format!("GET {url}: {path}: {message}"))
    }
}

impl std::fmt::Display for SyncError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub struct Options {
    pub from: String,
    pub token: String,
    pub events: Vec<String>,
    pub access: Option<Value>,
    pub timeout: Duration,
}

/// One sync round. `progress` is told the requests made so far.
pub async fn run_once(
    options: &Options,
    store: &dyn Store,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ImportSummary, SyncError> {
    let client = client::Client::new(&options.from, &options.token, options.timeout)?;
    let count = AtomicU64::new(0);
    let requests = || progress(count.fetch_add(1, Ordering::Relaxed) + 1);
    let slugs = if options.events.is_empty() {
        let list = legacy::fetch_list(&client, "/api/events/", false, &requests).await?;
        list.items()
            .map(|item| item_slug(&item))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        options.events.clone()
    };
    let mut raws = Vec::new();
    for slug in &slugs {
        raws.push(legacy::read_event(&client, slug, &requests).await?);
    }
    let access = options.access.clone().unwrap_or_else(|| json!({}));
    let mut seen_users = BTreeMap::new();
    let reviewer_codes = access::names_to_codes(&access, &raws)?;
    let mut events = Vec::new();
    for raw in &raws {
        events.push(legacy::map_event(raw, &mut seen_users, &reviewer_codes)?);
    }
    let document = access::merge(&access, seen_users, events)?;
    let dataset = validate::parse_value(&document).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        SyncError(format!(
            "the mirrored data does not validate ({} problem(s), paths in the mirrored dataset):\n{}",
            problems.len(),
            lines.join("\n")
        ))
    })?;
    store
        .import(&dataset, None)
        .await
        .map_err(|e| SyncError(format!("cannot write the mirror: {e}")))
}

fn item_slug(item: &legacy::Item) -> Result<String, SyncError> {
    item.slug()
}

/// `60s`, `5m`, `1h`, or plain seconds.
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = number
        .parse()
        .map_err(|_| format!("invalid interval {text:?}: use e.g. 60s, 5m, 1h"))?;
    let seconds = match unit {
        "" | "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        _ => return Err(format!("invalid interval {text:?}: use e.g. 60s, 5m, 1h")),
    };
    if seconds == 0 {
        return Err("the interval must be at least 1s".into());
    }
    Ok(Duration::from_secs(seconds))
}

pub(crate) type Names = HashMap<String, Vec<String>>;
