//! An import that costs what it changes: when a file differs from the one
//! imported last only in some submissions' texts (`dataset::outline` finds
//! which, `dataset::validate::edits` checks them), only those submissions
//! are read, checked, written and put in the feed. Anything else, or any
//! doubt, and the import reads the whole document as before
//! (`Edited::Whole`).
//!
//! What makes the shortcut sound: the store keeps the outline of the last
//! file imported (`import_outline`), valid only while every event still
//! carries that file's digest (nothing else has written since, the same
//! test as `Store::unchanged_import`); the new file then has the same users
//! and the same events with the same everything but these submissions'
//! texts, which no visibility rule, reference or other object reads. The
//! feed compares the changed submissions' views for every audience on a
//! small event made of the stored frame, the changed submissions, their
//! speakers, and one submission of every organiser who speaks (so that the
//! audiences are those of the whole event): the same rule
//! (`domain::feed::derive`) on the only objects that can differ.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::import::ImportTx;
use super::load::ReadTx;
use super::plan::EventWrite;
use super::records::{self, EventAssembler, Kind, Record};
use super::{ImportSummary, Store, StoreError};
use crate::dataset::outline::{Outline, Pending};
use crate::domain::catalog::EventData;
use crate::domain::feed::{self, ChangedRecord, State};
use crate::model::{Dataset, Event, Submission};

type Result<T> = std::result::Result<T, StoreError>;

/// More changed submissions than this and the whole path is as quick.
pub const MOST_EDITS: usize = 2000;

/// A user of an event's teams (or an administrator) who speaks in it, with
/// their profile and one of their submissions: whether an organiser speaks
/// decides whether they have a feed of their own (`feed::derive`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    pub user: String,
    /// The profile's speaker code (its record's key).
    pub profile: String,
    pub submission: String,
}

/// Each event's witnesses, by slug in lower case.
pub type Witnesses = BTreeMap<String, Vec<Witness>>;

/// The outline of the file imported last, as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredOutline {
    /// `import_digest`'s value for that file, in hex.
    pub digest: String,
    pub outline: Vec<u8>,
    /// `Witnesses` as JSON.
    pub witnesses: String,
}

/// `StoredOutline`'s statement, the same in both stores.
pub(super) const READ_OUTLINE: &str =
    "SELECT digest, outline, witnesses FROM import_outline WHERE id = 1";

/// One changed submission of a file.
#[derive(Debug, Clone)]
pub struct SubmissionEdit {
    /// Its event's slug in lower case.
    pub event: String,
    pub position: usize,
    /// Its JSON text in the file.
    pub item: String,
}

/// What `Store::import_edits` writes.
#[derive(Debug, Clone)]
pub struct Edits {
    /// The digest of the file imported last, which the stored data must
    /// still be as.
    pub previous: u128,
    /// The new file's digest, and how many events it holds.
    pub digest: u128,
    pub events: Vec<String>,
    pub submissions: Vec<SubmissionEdit>,
    pub witnesses: Witnesses,
}

/// How a file import went.
#[derive(Debug)]
pub enum Edited {
    /// Written by changing only the submissions that changed.
    Done(ImportSummary),
    /// The whole path must read the file.
    Whole,
}

/// Imports `text` (one file, whose `import_digest` is `digest`, whose
/// outline `outline` is taking) by its changed submissions, if it can.
pub async fn import_file(
    store: &dyn Store,
    text: &str,
    digest: u128,
    outline: &mut Pending,
) -> Result<Edited> {
    let Some(stored) = store.import_outline().await? else {
        return Ok(Edited::Whole);
    };
    let Ok(previous) = u128::from_str_radix(&stored.digest, 16) else {
        return Ok(Edited::Whole);
    };
    // Cheap first: nothing else wrote since (checked again when writing).
    if store.unchanged_import(previous).await?.is_none() {
        return Ok(Edited::Whole);
    }
    let (Some(before), Ok(witnesses)) = (
        Outline::from_bytes(&stored.outline),
        serde_json::from_str::<Witnesses>(&stored.witnesses),
    ) else {
        return Ok(Edited::Whole);
    };
    let started = std::time::Instant::now();
    let Some(after) = outline.get() else {
        return Ok(Edited::Whole);
    };
    tracing::debug!(waited = ?started.elapsed(), "import: outline taken");
    let Some(changed) = after.changed_since(&before) else {
        return Ok(Edited::Whole);
    };
    if changed.len() > MOST_EDITS {
        return Ok(Edited::Whole);
    }
    let edits = Edits {
        previous,
        digest,
        events: after.events.iter().map(|e| e.slug.to_lowercase()).collect(),
        submissions: changed
            .iter()
            .map(|c| {
                let event = &after.events[c.event];
                SubmissionEdit {
                    event: event.slug.to_lowercase(),
                    position: c.position,
                    item: text[event.spans[c.position].clone()].to_string(),
                }
            })
            .collect(),
        witnesses,
    };
    let Some(summary) = store.import_edits(&edits).await? else {
        return Ok(Edited::Whole);
    };
    // Written: an outline not kept only makes the next import whole.
    if let Err(e) = store
        .save_import_outline(digest, &after.to_bytes(), &stored.witnesses)
        .await
    {
        tracing::warn!(error = %e, "the file's outline was not kept");
    }
    Ok(Edited::Done(summary))
}

/// Keeps the outline of `text`, just imported whole as `dataset` with
/// `digest`, for the next import of the same file.
pub async fn keep_outline(
    store: &dyn Store,
    outline: Option<Outline>,
    dataset: &Dataset,
    digest: u128,
) -> Result<()> {
    match outline {
        Some(outline) => {
            let witnesses = serde_json::to_string(&witnesses(dataset)).expect("JSON of strings");
            store
                .save_import_outline(digest, &outline.to_bytes(), &witnesses)
                .await
        }
        None => Ok(()),
    }
}

/// Every event's witnesses (`Witness`).
pub fn witnesses(dataset: &Dataset) -> Witnesses {
    let administrators: Vec<&str> = dataset
        .users
        .iter()
        .filter(|u| u.is_administrator)
        .map(|u| u.code.as_ref())
        .collect();
    let mut all = Witnesses::new();
    for event in &dataset.events {
        let staff = |user: &str| {
            administrators.contains(&user)
                || event
                    .teams
                    .iter()
                    .any(|t| t.members.iter().any(|m| **m == *user))
        };
        let mut found = Vec::new();
        for profile in event.speakers.iter().filter(|p| staff(&p.user)) {
            let code = profile.speaker_code();
            let submission = event
                .submissions
                .iter()
                .find(|s| s.speakers.iter().any(|c| c == code));
            if let Some(submission) = submission {
                found.push(Witness {
                    user: profile.user.to_string(),
                    profile: code.to_string(),
                    submission: submission.code.to_string(),
                });
            }
        }
        all.insert(event.slug.to_lowercase(), found);
    }
    all
}

/// One event's changed submissions, read and checked.
struct EventEdit {
    id: i64,
    slug: String,
    hash: i64,
    body: String,
    records: Vec<Record>,
    /// The small event before and after the edits (taken by the feed).
    states: Option<(Event, Event)>,
}

/// Writes `edits` in `tx` (the caller commits), or None when they cannot
/// be written on their own: the stored data is not the previous file's, a
/// submission changed more than its texts, or is not where it was.
pub async fn run<T: ImportTx + ReadTx>(tx: &mut T, edits: &Edits) -> Result<Option<ImportSummary>> {
    let version = ImportTx::version(tx).await?;
    let digests = tx.stored_digests().await?;
    if !super::digest_holds(edits.previous, &digests) {
        return Ok(none("the stored data is no longer the last file's"));
    }
    let stored_events = tx.stored_events().await?;
    let rows = tx.events().await?;
    let mut events: Vec<EventEdit> = Vec::new();
    for slug in edits.events.iter() {
        let items: Vec<&SubmissionEdit> = edits
            .submissions
            .iter()
            .filter(|s| s.event == *slug)
            .collect();
        if items.is_empty() {
            continue;
        }
        let Some(row) = rows.iter().find(|r| r.slug.to_lowercase() == *slug) else {
            return Ok(none("an event is not stored"));
        };
        let Some(stored) = stored_events.iter().find(|s| s.id == row.id) else {
            return Ok(none("an event is not stored"));
        };
        match edit_event(tx, row.id, &row.body, &items, edits.witnesses.get(slug)).await? {
            Some((records, before, after)) if !records.is_empty() => events.push(EventEdit {
                id: row.id,
                slug: row.slug.clone(),
                hash: stored.hash,
                body: row.body.clone(),
                records,
                states: Some((before, after)),
            }),
            Some(_) => {}
            None => return Ok(None),
        }
    }
    let digest = super::digest_text(edits.digest, edits.events.len());
    if events.is_empty() {
        // Only the spelling changed: the stored data is the new file's too.
        tx.set_import_digest(Some(&digest), &edits.events, false)
            .await?;
        return Ok(Some(ImportSummary {
            generation: version.generation,
            ..ImportSummary::default()
        }));
    }
    let generation = version.generation + 1;
    let now = chrono::Utc::now();
    let started = std::time::Instant::now();
    // The users the small events name: their teams' members (whose
    // feeds are their own), the witnesses and the speakers. An
    // administrator is an organiser everywhere, whose feed is their own
    // only when they speak: a witness, then.
    let mut codes: Vec<&str> = Vec::new();
    for (before, after) in events.iter().filter_map(|e| e.states.as_ref()) {
        for state in [before, after] {
            codes.extend(
                state
                    .teams
                    .iter()
                    .flat_map(|t| t.members.iter().map(String::as_str)),
            );
            codes.extend(state.speakers.iter().map(|p| p.user.as_str()));
        }
    }
    codes.sort_unstable();
    codes.dedup();
    let users = super::changes::users_map(tx.users_by_code(&codes).await?);
    tracing::debug!(elapsed = ?started.elapsed(), users = users.len(), "import: users read");
    // Worked out before anything is written: a surprise in the small event
    // (a panic) leaves the import to the whole path.
    let derived = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let at = super::changes::at_text(now);
        let mut rows = Vec::new();
        for event in &mut events {
            let (before, after) = event.states.take().expect("each event's states, once");
            let (before, after) = (EventData::new(before), EventData::new(after));
            let changed: Vec<ChangedRecord> = event
                .records
                .iter()
                .map(|r| ChangedRecord::Submission(r.key.clone()))
                .collect();
            let encoded = feed::derive(
                Some(&State {
                    data: &before,
                    users: &users,
                }),
                Some(&State {
                    data: &after,
                    users: &users,
                }),
                Some(&changed),
                now,
            );
            if let Some(encoded) = encoded {
                rows.extend(super::changes::rows_of(
                    &event.slug.to_lowercase(),
                    encoded,
                    generation,
                    &at,
                ));
            }
        }
        rows
    }));
    tracing::debug!(elapsed = ?started.elapsed(), "import: the edits' feed derived");
    let Ok(changes) = derived else {
        tracing::warn!("the feed of a text edit could not be worked out; importing whole");
        return Ok(none("the feed could not be worked out"));
    };
    let mut records_written = 0u64;
    let mut changed_events = Vec::new();
    for event in &events {
        let write = EventWrite {
            stored_id: Some(event.id),
            slug: event.slug.clone(),
            hash: event.hash,
            body: event.body.clone(),
            // Records rewritten, none added or removed.
            record_counts: None,
            inserts: Vec::new(),
            updates: Vec::new(),
            moves: Vec::new(),
            moved_from: Vec::new(),
            deletes: Vec::new(),
        };
        tx.write_event(&write, generation).await?;
        for batch in event.records.chunks(super::import::BATCH) {
            tx.update_records(event.id, batch, generation).await?;
        }
        records_written += 1 + event.records.len() as u64;
        changed_events.push(event.slug.clone());
    }
    for batch in changes.chunks(super::import::BATCH / 2) {
        tx.insert_changes(batch).await?;
    }
    let (old_generations, old_at) = super::changes::prune_bounds(generation, now);
    tx.prune_changes(old_generations, &old_at).await?;
    tx.set_import_digest(Some(&digest), &edits.events, false)
        .await?;
    tx.set_generation(generation).await?;
    tracing::debug!(
        records = records_written,
        feed_rows = changes.len(),
        "import: text edits written"
    );
    Ok(Some(ImportSummary {
        generation,
        changed_events,
        records_written,
        deleted_events: Vec::new(),
    }))
}

fn none<T>(why: &str) -> Option<T> {
    tracing::debug!(why, "import: the edits cannot be written alone");
    None
}

/// The kinds every submission's views name (by id).
const FRAME_KINDS: [Kind; 5] = [
    Kind::SubmissionType,
    Kind::Track,
    Kind::Room,
    Kind::Tag,
    Kind::Question,
];

/// The records the edits of one event write, with the small event before
/// and after them; None when an edit is more than a text edit.
async fn edit_event<T: ReadTx>(
    tx: &mut T,
    id: i64,
    head: &str,
    items: &[&SubmissionEdit],
    witnesses: Option<&Vec<Witness>>,
) -> Result<Option<(Vec<Record>, Event, Event)>> {
    // Each edit's code, to read its record by.
    let mut codes = Vec::with_capacity(items.len());
    for item in items {
        let code = serde_json::from_str::<serde_json::Value>(&item.item)
            .ok()
            .and_then(|v| v.get("code").and_then(|c| c.as_str()).map(str::to_string));
        match code {
            Some(code) => codes.push(code),
            None => return Ok(none("a submission has no code")),
        }
    }
    let witnesses = witnesses.map_or(&[][..], Vec::as_slice);
    let mut wanted: Vec<(Kind, &str)> = codes
        .iter()
        .map(|c| (Kind::Submission, c.as_str()))
        .collect();
    for w in witnesses {
        wanted.push((Kind::Submission, &w.submission));
        wanted.push((Kind::Speaker, &w.profile));
    }
    let mut rows = tx.records_by_key(id, &wanted).await?;
    // The edited submissions' old records, checked and changed.
    let mut old: Vec<Submission> = Vec::with_capacity(items.len());
    let mut records = Vec::new();
    let mut edited = Vec::new();
    for (item, code) in items.iter().zip(&codes) {
        let Some(row) = rows
            .iter()
            .find(|r| r.kind == Kind::Submission && r.key == *code)
        else {
            return Ok(none("a submission is not stored"));
        };
        if row.position != item.position as i64 {
            return Ok(none("a submission moved"));
        }
        let stored: Submission = serde_json::from_str(&row.body)
            .map_err(|e| StoreError::Corrupt(format!("a stored submission cannot be read: {e}")))?;
        let Some(new) = crate::dataset::validate::edits::submission_texts(&stored, &item.item)
        else {
            return Ok(none("a text is not valid"));
        };
        let record = records::record_of(&new, row.position);
        if record.body != row.body {
            records.push(record);
            edited.push(new);
        }
        old.push(stored);
    }
    if witnesses.iter().any(|w| {
        !rows
            .iter()
            .any(|r| r.kind == Kind::Submission && r.key == w.submission)
    }) {
        return Ok(none("an organiser's submission is not stored"));
    }
    // The speakers of every submission read, which their views name.
    let mut speakers: Vec<String> = old
        .iter()
        .flat_map(|s| s.speakers.iter().map(|c| c.to_string()))
        .collect();
    for row in rows.iter().filter(|r| r.kind == Kind::Submission) {
        if let Ok(witness) = serde_json::from_str::<Submission>(&row.body) {
            speakers.extend(witness.speakers.iter().map(|c| c.to_string()));
        }
    }
    speakers.sort_unstable();
    speakers.dedup();
    speakers.retain(|c| !rows.iter().any(|r| r.kind == Kind::Speaker && r.key == *c));
    let speaker_keys: Vec<(Kind, &str)> = speakers
        .iter()
        .map(|c| (Kind::Speaker, c.as_str()))
        .collect();
    rows.extend(tx.records_by_key(id, &speaker_keys).await?);
    rows.extend(tx.records_of_kinds(id, &FRAME_KINDS).await?);
    let mut assembler = EventAssembler::new(head)?;
    let mut seen = std::collections::HashSet::new();
    for row in &rows {
        if seen.insert((row.kind, row.key.as_str())) {
            assembler.add(row.kind, row.position, &row.body)?;
        }
    }
    let before = assembler.finish();
    let mut after = before.clone();
    for new in edited {
        if let Some(slot) = after.submissions.iter_mut().find(|s| s.code == new.code) {
            *slot = new.into();
        }
    }
    Ok(Some((records, before, after)))
}
