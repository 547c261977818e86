//! The import, written once: read what is stored, plan (`plan`), write the
//! plan in batches. Each store supplies its statements through [`ImportTx`],
//! run inside its own write transaction.

use std::collections::HashMap;
use std::future::Future;

use super::load::ReadTx;
use super::plan::{self, EventWrite, StoredEvent, StoredRecord, StoredUser, UserWrite};
use super::records::{Kind, Record};
use super::{ChangeRow, DataVersion, ImportOptions, ImportSummary, Progress, StoreError};
use crate::model::Dataset;

type Result<T> = std::result::Result<T, StoreError>;

/// Items per statement: few statements, and below SQLite's limit of 32,766
/// bound parameters at eight per record.
pub const BATCH: usize = 4000;

/// The statements of one store, inside an import's write transaction. Each
/// write gets a slice of at most [`BATCH`] items, to send in one statement.
pub trait ImportTx: Send {
    fn version(&mut self) -> impl Future<Output = Result<DataVersion>> + Send;
    fn stored_users(&mut self) -> impl Future<Output = Result<Vec<StoredUser>>> + Send;
    fn stored_events(&mut self) -> impl Future<Output = Result<Vec<StoredEvent>>> + Send;
    /// Every stored event's import digest (`ImportOptions::digest`, stored form).
    fn stored_digests(&mut self) -> impl Future<Output = Result<Vec<Option<String>>>> + Send;
    /// Record fingerprints of the events `ids`.
    fn stored_records(
        &mut self,
        ids: &[i64],
    ) -> impl Future<Output = Result<Vec<StoredRecord>>> + Send;
    /// Removes these users, so that inserting them afterwards cannot clash
    /// with an address another written user gives up (two users swapping
    /// addresses in one import).
    fn delete_users(&mut self, users: &[UserWrite]) -> impl Future<Output = Result<()>> + Send;
    fn insert_users(
        &mut self,
        users: &[UserWrite],
        generation: i64,
    ) -> impl Future<Output = Result<()>> + Send;
    /// Inserts or updates the event's own row; returns its id.
    fn write_event(
        &mut self,
        write: &EventWrite,
        generation: i64,
    ) -> impl Future<Output = Result<i64>> + Send;
    // Every record write carries the import's generation: records keep it
    // (deleted ones as a tombstone), so that replicas read only the changes.
    /// Removes records and leaves their tombstones.
    fn delete_records(
        &mut self,
        event: i64,
        records: &[(Kind, String)],
        generation: i64,
    ) -> impl Future<Output = Result<()>> + Send;
    /// New list positions of records whose body is unchanged.
    fn move_records(
        &mut self,
        event: i64,
        records: &[(Kind, String, i64)],
        generation: i64,
    ) -> impl Future<Output = Result<()>> + Send;
    /// Records the event does not have yet.
    fn insert_records(
        &mut self,
        event: i64,
        records: &[Record],
        generation: i64,
    ) -> impl Future<Output = Result<()>> + Send;
    /// New bodies (and positions) of records the event has.
    fn update_records(
        &mut self,
        event: i64,
        records: &[Record],
        generation: i64,
    ) -> impl Future<Output = Result<()>> + Send;
    /// Deletes the events `ids` and their records; returns the rows deleted.
    fn delete_events(&mut self, ids: &[i64]) -> impl Future<Output = Result<u64>> + Send;
    fn set_generation(&mut self, generation: i64) -> impl Future<Output = Result<()>> + Send;
    /// Sets the import digest (`ImportOptions::digest`, stored form) of the
    /// events `slugs` (lower case), and with `clear_others` clears it on
    /// every other event.
    fn set_import_digest(
        &mut self,
        digest: Option<&str>,
        slugs: &[String],
        clear_others: bool,
    ) -> impl Future<Output = Result<()>> + Send;
    /// The change feed's rows of this import (`changes::FeedInputs::derive`).
    fn insert_changes(&mut self, rows: &[ChangeRow]) -> impl Future<Output = Result<()>> + Send;
    /// Drops the feed's rows of generations up to `generation` committed
    /// before `at`, and moves `feed_from` past the last generation dropped.
    fn prune_changes(
        &mut self,
        generation: i64,
        at: &str,
    ) -> impl Future<Output = Result<()>> + Send;
}

/// Runs an import in `tx`; the caller commits. Nothing is written when
/// nothing changed, and the generation then stays.
pub async fn run<T: ImportTx + ReadTx>(
    tx: &mut T,
    dataset: &Dataset,
    options: ImportOptions,
    progress: Option<&Progress>,
) -> Result<ImportSummary> {
    let reading = std::time::Instant::now();
    let version = ImportTx::version(tx).await?;
    let stored_users = tx.stored_users().await?;
    let stored_events = tx.stored_events().await?;
    let absent = if options.delete_absent_events {
        plan::absent(&stored_events, dataset)
    } else {
        Vec::new()
    };
    let replaced = plan::replaced_ids(&stored_events, dataset);
    let mut stored_records: HashMap<i64, Vec<StoredRecord>> = HashMap::new();
    if !replaced.is_empty() {
        for record in tx.stored_records(&replaced).await? {
            stored_records.entry(record.event).or_default().push(record);
        }
    }
    tracing::debug!(elapsed = ?reading.elapsed(), "import: stored fingerprints read");
    let started = std::time::Instant::now();
    let plan = plan::import(&stored_users, &stored_events, &stored_records, dataset)
        .map_err(StoreError::Rejected)?;
    tracing::debug!(elapsed = ?started.elapsed(), writes = plan.writes(), "import planned");
    // The file's digest goes with the events it holds (all of them as the
    // file has them once this import commits). Nothing else changes when
    // nothing is written: the digest of an earlier import still holds.
    let digest = options
        .digest
        .map(|digest| super::digest_text(digest, dataset.events.len()));
    let slugs: Vec<String> = dataset
        .events
        .iter()
        .map(|e| e.slug.to_lowercase())
        .collect();
    if plan.is_empty() && absent.is_empty() {
        if digest.is_some() {
            tx.set_import_digest(digest.as_deref(), &slugs, false)
                .await?;
        }
        return Ok(ImportSummary {
            generation: version.generation,
            ..ImportSummary::default()
        });
    }
    let generation = version.generation + 1;
    // What each audience sees change: both sides are read before anything
    // is written, then compared on another core while the import writes (a
    // new event's feed takes as long as writing it).
    let now = chrono::Utc::now();
    let inputs =
        super::changes::gather(tx, dataset, &plan, &stored_events, &absent, generation, now)
            .await?;
    let (send_changes, changes) = tokio::sync::oneshot::channel();
    // A thread of its own (not rayon's, which aborts on a panic): a bug
    // there fails this import, not the process.
    std::thread::spawn(move || {
        // The receiver is gone only when the import failed.
        let _ = send_changes.send(inputs.derive());
    });
    let total = plan.writes();
    let mut done = 0u64;
    let mut tick = |n: usize| {
        done += n as u64;
        if let Some(progress) = progress {
            progress(done, total);
        }
    };
    for batch in plan.users.chunks(BATCH) {
        tx.delete_users(batch).await?;
    }
    for batch in plan.users.chunks(BATCH) {
        tx.insert_users(batch, generation).await?;
        tick(batch.len());
    }
    let mut changed_events = Vec::new();
    for write in &plan.events {
        let id = tx.write_event(write, generation).await?;
        tick(1);
        for batch in write.deletes.chunks(BATCH) {
            tx.delete_records(id, batch, generation).await?;
            tick(batch.len());
        }
        for batch in write.moves.chunks(BATCH) {
            tx.move_records(id, batch, generation).await?;
            tick(batch.len());
        }
        for batch in write.updates.chunks(BATCH) {
            tx.update_records(id, batch, generation).await?;
            tick(batch.len());
        }
        for batch in write.inserts.chunks(BATCH) {
            tx.insert_records(id, batch, generation).await?;
            tick(batch.len());
        }
        changed_events.push(write.slug.clone());
    }
    let mut records_written = total;
    let mut deleted_events = Vec::new();
    if !absent.is_empty() {
        let ids: Vec<i64> = absent.iter().map(|e| e.id).collect();
        // The generation moves on, so every replica reloads and finds the
        // event gone from the list of stored events.
        records_written += tx.delete_events(&ids).await?;
        deleted_events = absent.iter().map(|e| e.slug.clone()).collect();
    }
    tracing::debug!(elapsed = ?started.elapsed(), "import: records written");
    let changes = changes.await.map_err(|_| {
        StoreError::Corrupt("the change feed of this import could not be worked out".into())
    })?;
    tracing::debug!(elapsed = ?started.elapsed(), rows = changes.len(), "import: feed derived");
    for batch in changes.chunks(BATCH / 2) {
        tx.insert_changes(batch).await?;
    }
    let (old_generations, old_at) = super::changes::prune_bounds(generation, now);
    tx.prune_changes(old_generations, &old_at).await?;
    // Every event this import wrote or holds is now as its file has it (or
    // as no file says, without a digest). A user shows in every event (a
    // speaker's name): a change to users makes every other import's file
    // count again, since importing it would change them back.
    tx.set_import_digest(digest.as_deref(), &slugs, !plan.users.is_empty())
        .await?;
    tx.set_generation(generation).await?;
    tracing::debug!(elapsed = ?started.elapsed(), "import written");
    Ok(ImportSummary {
        generation,
        changed_events,
        records_written,
        deleted_events,
    })
}

/// A unique e-mail address that planning did not catch (it checks the same)
/// is a rejected dataset, not an outage.
pub fn unique_violation(err: sqlx::Error) -> StoreError {
    match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::Rejected(vec![crate::dataset::validate::Problem {
                path: "users".into(),
                message: format!("two users would have the same e-mail address: {db}"),
            }])
        }
        _ => err.into(),
    }
}
