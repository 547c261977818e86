//! What an import must write, worked out from the stored fingerprints and
//! the new dataset, the same way for both databases. Only new, changed and
//! removed records are written, so re-importing unchanged data writes
//! nothing (and keeps the generation, and with it every ETag), and a change
//! to one submission rewrites only its record.

use std::collections::HashMap;

use crate::dataset::validate::Problem;
use crate::model::{Dataset, Event};

use super::records::{self, Kind, Record};

/// A stored user, as far as planning needs it.
#[derive(sqlx::FromRow)]
pub struct StoredUser {
    pub code: String,
    pub email_lower: String,
    pub hash: i64,
}

/// A stored event, as far as planning needs it.
#[derive(sqlx::FromRow)]
pub struct StoredEvent {
    pub id: i64,
    pub slug: String,
    pub hash: i64,
}

/// A stored record's fingerprint.
#[derive(sqlx::FromRow)]
pub struct StoredRecord {
    pub event: i64,
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    pub key: String,
    pub position: i64,
    pub hash: i64,
}

impl StoredRecord {
    /// Fingerprints read as one JSON array of `[event, kind, key, position,
    /// hash]` (one value from the database instead of a row per record: a
    /// million rows took seconds to decode one by one).
    pub fn from_json(json: &str) -> Result<Vec<StoredRecord>, super::StoreError> {
        let corrupt = |e: String| super::StoreError::Corrupt(format!("stored fingerprints: {e}"));
        let rows: Vec<(i64, &str, String, i64, i64)> =
            serde_json::from_str(json).map_err(|e| corrupt(e.to_string()))?;
        rows.into_iter()
            .map(|(event, kind, key, position, hash)| {
                let kind =
                    Kind::from_name(kind).ok_or_else(|| corrupt(format!("unknown kind {kind}")))?;
                Ok(StoredRecord {
                    event,
                    kind,
                    key,
                    position,
                    hash,
                })
            })
            .collect()
    }
}

pub struct UserWrite {
    pub code: String,
    pub email_lower: String,
    pub hash: i64,
    pub body: String,
}

/// The writes of one event that has changed.
pub struct EventWrite {
    /// The stored event this replaces, if any (matched case-insensitively).
    pub stored_id: Option<i64>,
    pub slug: String,
    pub hash: i64,
    pub body: String,
    /// Records the stored event does not have.
    pub inserts: Vec<Record>,
    /// Records whose body changed.
    pub updates: Vec<Record>,
    /// Records whose body is unchanged but whose list position moved.
    pub moves: Vec<(Kind, String, i64)>,
    /// Where each of `moves` was stored, in the same order (the feed puts
    /// them back without reading them: `changes::before_of`).
    pub moved_from: Vec<i64>,
    /// How many records of each kind the event has after this write
    /// (`records::counts_text`); `None`: as many as before.
    pub record_counts: Option<String>,
    /// Records no longer in the event.
    pub deletes: Vec<(Kind, String)>,
}

impl EventWrite {
    pub fn writes(&self) -> u64 {
        1 + (self.inserts.len() + self.updates.len() + self.moves.len() + self.deletes.len()) as u64
    }

    /// The records this inserts or updates, by kind and key.
    pub fn changed_keys(&self) -> Vec<(Kind, &str)> {
        self.inserts
            .iter()
            .chain(&self.updates)
            .map(|r| (r.kind, r.key.as_str()))
            .collect()
    }

    /// The records this moves, with where they were and where they go.
    pub fn moved(&self) -> Vec<records::Moved<'_>> {
        self.moves
            .iter()
            .zip(&self.moved_from)
            .map(|((kind, key, to), from)| records::Moved {
                kind: *kind,
                key,
                from: *from,
                to: *to,
            })
            .collect()
    }
}

/// The users to upsert; problems where an e-mail address would belong to
/// two users once the import is done (the database enforces it too; this
/// names the record).
pub fn users(stored: &[StoredUser], dataset: &Dataset) -> Result<Vec<UserWrite>, Vec<Problem>> {
    let mut owner_of_email: HashMap<&str, &str> = stored
        .iter()
        .map(|u| (u.email_lower.as_str(), u.code.as_str()))
        .collect();
    let stored_hash: HashMap<&str, (i64, &str)> = stored
        .iter()
        .map(|u| (u.code.as_str(), (u.hash, u.email_lower.as_str())))
        .collect();
    let lowered: Vec<String> = dataset
        .users
        .iter()
        .map(|u| u.email.to_lowercase())
        .collect();
    // Addresses the import takes away from their stored owners are free.
    for user in &dataset.users {
        if let Some((_, old_email)) = stored_hash.get(user.code.as_str()) {
            if owner_of_email.get(old_email) == Some(&user.code.as_str()) {
                owner_of_email.remove(old_email);
            }
        }
    }
    let mut problems = Vec::new();
    let mut writes = Vec::new();
    for (i, (user, email_lower)) in dataset.users.iter().zip(&lowered).enumerate() {
        match owner_of_email.get(email_lower.as_str()) {
            Some(owner) if *owner != user.code => problems.push(Problem {
                path: format!("users[{i}].email"),
                message: format!(
                    "e-mail address {:?} already belongs to the stored user {:?}",
                    user.email, owner
                ),
            }),
            _ => {
                owner_of_email.insert(email_lower, &user.code);
            }
        }
        let body = records::user_body(user);
        let hash = records::fingerprint(&body);
        if stored_hash.get(user.code.as_str()).map(|(h, _)| *h) != Some(hash) {
            writes.push(UserWrite {
                code: user.code.to_string(),
                email_lower: email_lower.clone(),
                hash,
                body,
            });
        }
    }
    if problems.is_empty() {
        Ok(writes)
    } else {
        Err(problems)
    }
}

/// The stored event that `event` replaces: the one with its slug, in any
/// letter case.
pub fn stored_match<'s>(stored: &'s [StoredEvent], event: &Event) -> Option<&'s StoredEvent> {
    stored
        .iter()
        .find(|s| s.slug.eq_ignore_ascii_case(&event.slug))
}

/// The writes for `event`, or `None` when the stored event is the same.
pub fn event(
    stored: Option<&StoredEvent>,
    stored_records: &[StoredRecord],
    event: &Event,
) -> Option<EventWrite> {
    let body = records::event_body(event);
    let hash = records::fingerprint(&body);
    let mut known: HashMap<Kind, HashMap<&str, (i64, i64)>> = HashMap::new();
    for r in stored_records {
        known
            .entry(r.kind)
            .or_default()
            .insert(r.key.as_str(), (r.position, r.hash));
    }
    let mut inserts = Vec::new();
    let mut updates = Vec::new();
    let mut moves = Vec::new();
    let mut moved_from = Vec::new();
    for record in records::event_records(event) {
        let stored = known
            .get_mut(&record.kind)
            .and_then(|keys| keys.remove(record.key.as_str()));
        match stored {
            Some((_, hash)) if hash != record.hash => updates.push(record),
            Some((position, _)) if position != record.position => {
                moves.push((record.kind, record.key, record.position));
                moved_from.push(position);
            }
            Some(_) => {}
            None => inserts.push(record),
        }
    }
    let mut deletes: Vec<(Kind, String)> = known
        .into_iter()
        .flat_map(|(kind, keys)| keys.into_keys().map(move |key| (kind, key.to_string())))
        .collect();
    deletes.sort();
    let unchanged = stored.is_some_and(|s| s.hash == hash && s.slug == event.slug)
        && inserts.is_empty()
        && updates.is_empty()
        && moves.is_empty()
        && deletes.is_empty();
    (!unchanged).then(|| EventWrite {
        stored_id: stored.map(|s| s.id),
        slug: event.slug.clone(),
        hash,
        body,
        record_counts: Some(records::counts_text(event)),
        inserts,
        updates,
        moves,
        moved_from,
        deletes,
    })
}

/// Everything an import writes.
pub struct ImportPlan {
    pub users: Vec<UserWrite>,
    pub events: Vec<EventWrite>,
}

impl ImportPlan {
    pub fn is_empty(&self) -> bool {
        self.users.is_empty() && self.events.is_empty()
    }

    pub fn writes(&self) -> u64 {
        self.users.len() as u64 + self.events.iter().map(EventWrite::writes).sum::<u64>()
    }
}

/// Plans a whole import from what is stored: users, events, and the record
/// fingerprints of the stored events that the dataset replaces.
pub fn import(
    stored_users: &[StoredUser],
    stored_events: &[StoredEvent],
    stored_records: &HashMap<i64, Vec<StoredRecord>>,
    dataset: &Dataset,
) -> Result<ImportPlan, Vec<Problem>> {
    let users = users(stored_users, dataset)?;
    let events = dataset
        .events
        .iter()
        .filter_map(|e| {
            let stored = stored_match(stored_events, e);
            let records = stored
                .and_then(|s| stored_records.get(&s.id))
                .map_or(&[][..], Vec::as_slice);
            event(stored, records, e)
        })
        .collect();
    Ok(ImportPlan { users, events })
}

/// The ids of the stored events an import replaces, whose record
/// fingerprints planning needs.
pub fn replaced_ids(stored_events: &[StoredEvent], dataset: &Dataset) -> Vec<i64> {
    dataset
        .events
        .iter()
        .filter_map(|e| stored_match(stored_events, e).map(|s| s.id))
        .collect()
}

/// The stored events the dataset does not have (by slug, case-insensitively),
/// which an import that mirrors every event deletes.
pub fn absent<'a>(stored_events: &'a [StoredEvent], dataset: &Dataset) -> Vec<&'a StoredEvent> {
    let wanted: std::collections::HashSet<String> = dataset
        .events
        .iter()
        .map(|e| e.slug.to_lowercase())
        .collect();
    stored_events
        .iter()
        .filter(|s| !wanted.contains(&s.slug.to_lowercase()))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::storage::records::KeyedRow;

    /// The stored side of a change, rebuilt from the new event and the
    /// stored records the plan replaces, moves or removes, is the stored
    /// event: edits, removals in the middle of lists (everything after
    /// them moves), additions, and a changed event record.
    #[test]
    fn the_event_before_an_import_is_rebuilt_from_the_records_it_changes() {
        let options = crate::dataset::demo::DemoOptions {
            events: 1,
            submissions: 200,
            seed: 3,
        };
        let before = crate::dataset::demo::generate(&options).0.events.remove(0);
        let stored: Vec<Record> = records::event_records(&before);
        let fingerprints: Vec<StoredRecord> = stored
            .iter()
            .map(|r| StoredRecord {
                event: 1,
                kind: r.kind,
                key: r.key.clone(),
                position: r.position,
                hash: r.hash,
            })
            .collect();
        let stored_event = StoredEvent {
            id: 1,
            slug: before.slug.clone(),
            hash: records::fingerprint(&records::event_body(&before)),
        };
        let edits: [&dyn Fn(&mut Event); 5] = [
            &|e| std::sync::Arc::make_mut(&mut e.submissions[7]).title = "Retitled".into(),
            &|e| {
                e.submissions.remove(3);
                e.answers.remove(10);
                e.reviews.remove(0);
            },
            &|e| {
                let mut copy = crate::model::Submission::clone(&e.submissions[0]);
                copy.code = "NEWCODE".into();
                e.submissions.insert(5, copy.into());
                e.speakers.swap(0, 1);
            },
            &|e| {
                e.email = "renamed@example.org".into();
                e.tags.pop();
                std::sync::Arc::make_mut(&mut e.submissions[1]).title = "Also retitled".into();
            },
            &|e| {
                e.submissions.reverse();
                e.questions.clear();
            },
        ];
        for (n, edit) in edits.iter().enumerate() {
            let mut after = before.clone();
            edit(&mut after);
            let write = event(Some(&stored_event), &fingerprints, &after).expect("a change");
            let changed = write.changed_keys();
            let moved = write.moved();
            let wanted: HashSet<(Kind, &str)> = write
                .updates
                .iter()
                .map(|r| (r.kind, r.key.as_str()))
                .chain(write.deletes.iter().map(|(k, key)| (*k, key.as_str())))
                .collect();
            let rows: Vec<KeyedRow> = stored
                .iter()
                .filter(|r| wanted.contains(&(r.kind, r.key.as_str())))
                .map(|r| KeyedRow {
                    kind: r.kind,
                    key: r.key.clone(),
                    position: r.position,
                    body: r.body.clone(),
                })
                .collect();
            assert!(
                n == 4 || rows.len() <= 3,
                "edit {n} reads what it replaces or removes"
            );
            let head = (write.hash != stored_event.hash).then(|| {
                records::EventAssembler::new(&records::event_body(&before))
                    .unwrap()
                    .finish()
            });
            let rebuilt = records::event_before(&after, head, &changed, &moved, rows)
                .unwrap()
                .expect("adds up");
            assert!(rebuilt == before, "edit {n}");
        }
        // What does not add up is refused (the caller then reads it whole):
        // a record the plan says it replaces, not found in the store.
        let missing = vec![(Kind::Submission, before.submissions[0].code.as_str())];
        assert!(
            records::event_before(&before, None, &missing, &[], Vec::new())
                .unwrap()
                .is_none()
        );
    }
}
