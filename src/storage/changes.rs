//! The change feed's rows of one import, worked out inside its transaction
//! from the events as stored before it and as the import leaves them: the
//! rule itself is the domain's (`domain::feed`), so that the feed shows
//! each audience exactly the difference of its own lists.
//!
//! The events looked at are those the import writes or deletes, and, when
//! it changes users (a speaker's name shows in every event they speak in),
//! every event.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::load::ReadTx;
use super::plan::{ImportPlan, StoredEvent};
use super::records::{EventAssembler, Kind};
use super::{ChangeRow, StoreError};
use crate::domain::catalog::{EventData, Users};
use crate::domain::feed::{self, ChangedRecord, State};
use crate::model::{Dataset, Event, Timestamp, User};

type Result<T> = std::result::Result<T, StoreError>;

/// The feed keeps at least this many generations, and at least
/// `KEEP_DAYS` of them, whichever is more.
pub const KEEP_GENERATIONS: i64 = 1000;
pub const KEEP_DAYS: i64 = 30;

/// `at` of a feed row: fixed width, so that text order is time order.
pub fn at_text(at: Timestamp) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// The events `ids` as stored, in full.
async fn stored_events<T: ReadTx>(tx: &mut T, ids: &HashSet<i64>) -> Result<HashMap<i64, Event>> {
    let mut assemblers = HashMap::new();
    for row in tx.events().await? {
        if ids.contains(&row.id) {
            assemblers.insert(row.id, EventAssembler::new(&row.body)?);
        }
    }
    if !assemblers.is_empty() {
        let wanted: Vec<i64> = assemblers.keys().copied().collect();
        tx.records(&wanted, &mut |row| match assemblers.get_mut(&row.event) {
            Some(assembler) => assembler.add(row.kind, row.position, &row.body),
            None => Ok(()),
        })
        .await?;
    }
    Ok(assemblers
        .into_iter()
        .map(|(id, a)| (id, a.finish()))
        .collect())
}

/// Keys per `records_by_key` statement: SQLite and PostgreSQL take each
/// batch as one parameter (a JSON array, two arrays).
const KEYS_AT_ONCE: usize = 4000;

/// The stored event `id` as it was before the import, which leaves it as
/// `after`: `after` itself when the plan does not write it; otherwise
/// `after` with the records the plan inserts, updates or moves put back as
/// stored, read by key (with the event's own record when the plan changes
/// it). An import that changes one record reads one record; the whole
/// event is read only if the rebuilt one does not add up.
async fn before_of<T: ReadTx>(
    tx: &mut T,
    plan: &ImportPlan,
    stored: &[StoredEvent],
    id: i64,
    after: &Event,
) -> Result<Event> {
    let Some(write) = plan.events.iter().find(|w| w.stored_id == Some(id)) else {
        return Ok(after.clone());
    };
    let head = match stored.iter().find(|s| s.id == id) {
        Some(s) if s.hash == write.hash => None,
        _ => {
            let row = tx.events().await?.into_iter().find(|row| row.id == id);
            match row {
                Some(row) => Some(super::records::EventAssembler::new(&row.body)?.finish()),
                None => return Err(StoreError::Corrupt(format!("event {id} is not stored"))),
            }
        }
    };
    let changed = write.changed_keys();
    let moved = write.moved();
    // Only what the import replaces or removes is read back.
    let wanted: Vec<(Kind, &str)> = write
        .updates
        .iter()
        .map(|r| (r.kind, r.key.as_str()))
        .chain(
            write
                .deletes
                .iter()
                .map(|(kind, key)| (*kind, key.as_str())),
        )
        .collect();
    let mut rows = Vec::with_capacity(wanted.len());
    for batch in wanted.chunks(KEYS_AT_ONCE) {
        rows.extend(tx.records_by_key(id, batch).await?);
    }
    if let Some(event) = super::records::event_before(after, head, &changed, &moved, rows)? {
        return Ok(event);
    }
    tracing::warn!(
        event = id,
        "the stored event does not add up to the plan; reading it whole"
    );
    let mut whole = stored_events(tx, &HashSet::from([id])).await?;
    whole
        .remove(&id)
        .ok_or_else(|| StoreError::Corrupt(format!("event {id} is not stored")))
}

pub(super) fn users_map(users: impl IntoIterator<Item = User>) -> Users {
    users
        .into_iter()
        .map(|u| (u.code.clone(), Arc::new(u)))
        .collect()
}

/// One event whose lists may look different after the import, with both
/// of its states.
struct Candidate {
    /// The slug in lower case (the feed's event key).
    slug: String,
    /// None: the event is new.
    before: Option<Event>,
    /// None: the import deletes the event.
    after: Option<Event>,
    /// The records the import writes in it (`changed_records`).
    changed: Option<Vec<ChangedRecord>>,
}

/// What the feed of one import compares, read from the store before
/// anything is written; `derive` works out the rows from it alone, so that
/// it can run on another core while the import writes.
pub struct FeedInputs {
    candidates: Vec<Candidate>,
    before_users: Users,
    after_users: Users,
    generation: i64,
    now: Timestamp,
}

/// Reads what the feed of an import about to write `plan` (and delete
/// `absent`) as `generation` compares; call before writing anything.
pub async fn gather<T: ReadTx>(
    tx: &mut T,
    dataset: &Dataset,
    plan: &ImportPlan,
    stored: &[StoredEvent],
    absent: &[&StoredEvent],
    generation: i64,
    now: Timestamp,
) -> Result<FeedInputs> {
    let users_changed = !plan.users.is_empty();
    // (slug in lower case, stored id): every event whose lists may look
    // different after the import.
    let mut slugs: Vec<(String, Option<i64>)> = Vec::new();
    if users_changed {
        slugs.extend(stored.iter().map(|s| (s.slug.to_lowercase(), Some(s.id))));
        for event in &dataset.events {
            let slug = event.slug.to_lowercase();
            if !slugs.iter().any(|(s, _)| *s == slug) {
                slugs.push((slug, None));
            }
        }
    } else {
        slugs.extend(
            plan.events
                .iter()
                .map(|w| (w.slug.to_lowercase(), w.stored_id)),
        );
        slugs.extend(absent.iter().map(|s| (s.slug.to_lowercase(), Some(s.id))));
    }
    let mut inputs = FeedInputs {
        candidates: Vec::new(),
        before_users: Users::default(),
        after_users: Users::default(),
        generation,
        now,
    };
    if slugs.is_empty() {
        return Ok(inputs);
    }
    // The stored side of each candidate, read only as far as needed: an
    // event the import leaves as stored is the dataset's; one it writes is
    // rebuilt from the dataset's and the stored records the plan replaces
    // (`before_of`); only an event the dataset lacks is read in full.
    let in_dataset = |slug: &str| {
        dataset
            .events
            .iter()
            .find(|e| e.slug.to_lowercase() == slug)
    };
    let ids: HashSet<i64> = slugs
        .iter()
        .filter(|(slug, _)| in_dataset(slug).is_none())
        .filter_map(|(_, id)| *id)
        .collect();
    let mut before_events = stored_events(tx, &ids).await?;
    inputs.before_users = users_map(tx.users(-1).await?);
    inputs.after_users = inputs.before_users.clone();
    for user in &dataset.users {
        inputs
            .after_users
            .insert(user.code.clone(), Arc::new(user.clone()));
    }
    let deleted: HashSet<i64> = absent.iter().map(|s| s.id).collect();
    for (slug, id) in slugs {
        let after_event = in_dataset(&slug);
        let before = match (id, after_event) {
            (None, _) => None,
            (Some(id), Some(after)) => Some(before_of(tx, plan, stored, id, after).await?),
            (Some(id), None) => before_events.remove(&id),
        };
        let after = match after_event {
            Some(event) => Some(event.clone()),
            None if id.is_some_and(|id| deleted.contains(&id)) => None,
            // Unchanged by the import, but its users may have changed.
            None => before.clone(),
        };
        let changed = if users_changed {
            None
        } else {
            changed_records(plan, stored, &slug)
        };
        inputs.candidates.push(Candidate {
            slug,
            before,
            after,
            changed,
        });
    }
    Ok(inputs)
}

impl FeedInputs {
    /// The feed rows: every audience's changes in every candidate event.
    pub fn derive(self) -> Vec<ChangeRow> {
        let FeedInputs {
            candidates,
            before_users,
            after_users,
            generation,
            now,
        } = self;
        let at = at_text(now);
        let mut rows = Vec::new();
        for candidate in candidates {
            let Candidate {
                slug,
                before,
                after,
                changed,
            } = candidate;
            // The two states' indexes, built side by side.
            let (before, after) = rayon::join(
                move || before.map(EventData::new),
                move || after.map(EventData::new),
            );
            let before_state = before.as_ref().map(|data| State {
                data,
                users: &before_users,
            });
            let after_state = after.as_ref().map(|data| State {
                data,
                users: &after_users,
            });
            let Some(encoded) = feed::derive(
                before_state.as_ref(),
                after_state.as_ref(),
                changed.as_deref(),
                now,
            ) else {
                continue;
            };
            rows.extend(rows_of(&slug, encoded, generation, &at));
        }
        rows
    }
}

/// The stored rows of one event's encoded changes.
pub(super) fn rows_of(
    slug: &str,
    encoded: feed::Encoded,
    generation: i64,
    at: &str,
) -> Vec<ChangeRow> {
    let feed::Encoded {
        universe,
        audiences,
    } = encoded;
    let row = |audience: String, body: Vec<u8>| ChangeRow {
        event: slug.to_string(),
        audience,
        generation,
        at: at.to_string(),
        body,
    };
    let mut rows = vec![row(feed::UNIVERSE.to_string(), universe)];
    rows.extend(
        audiences
            .into_iter()
            .map(|(audience, body)| row(audience, body)),
    );
    rows
}

/// The records the import writes in the event `slug`, when its own record
/// (settings, teams, schedule) stays as it is; None otherwise.
fn changed_records(
    plan: &ImportPlan,
    stored: &[StoredEvent],
    slug: &str,
) -> Option<Vec<ChangedRecord>> {
    let write = plan.events.iter().find(|w| w.slug.to_lowercase() == slug)?;
    let stored_hash = stored.iter().find(|s| Some(s.id) == write.stored_id)?.hash;
    if stored_hash != write.hash {
        return None;
    }
    let record = |kind: Kind, key: &str| match kind {
        Kind::Submission => ChangedRecord::Submission(key.to_string()),
        Kind::Speaker => ChangedRecord::Speaker(key.to_string()),
        Kind::Answer => key
            .parse()
            .map_or(ChangedRecord::Other, ChangedRecord::Answer),
        Kind::Review => key
            .parse()
            .map_or(ChangedRecord::Other, ChangedRecord::Review),
        Kind::Question => key
            .parse()
            .map_or(ChangedRecord::Other, ChangedRecord::Question),
        _ => ChangedRecord::Other,
    };
    Some(
        write
            .inserts
            .iter()
            .chain(&write.updates)
            .map(|r| record(r.kind, &r.key))
            .chain(write.moves.iter().map(|(kind, key, _)| record(*kind, key)))
            .chain(write.deletes.iter().map(|(kind, key)| record(*kind, key)))
            .collect(),
    )
}

/// Which generations pruning may drop at `generation`, `now`: those at
/// least `KEEP_GENERATIONS` old and committed before `KEEP_DAYS` ago.
pub fn prune_bounds(generation: i64, now: Timestamp) -> (i64, String) {
    (
        generation - KEEP_GENERATIONS,
        at_text(now - chrono::Duration::days(KEEP_DAYS)),
    )
}
