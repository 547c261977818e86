//! Reading for the serving snapshot and for `export`, written once: the
//! version, the events, the users, and the records of the events wanted,
//! all in one read transaction that each store opens with [`ReadTx`].

use std::collections::HashMap;
use std::future::Future;

use super::records::{
    ChangedRow, CountRow, DeletedRow, EventAssembler, EventPatch, EventRow, KeyedRow, Kind,
    RecordRow,
};
use super::{DataVersion, EventVersion, Loaded, StoreError};
use crate::model::User;

type Result<T> = std::result::Result<T, StoreError>;

/// The statements of one store, inside a consistent read transaction.
pub trait ReadTx: Send {
    fn version(&mut self) -> impl Future<Output = Result<DataVersion>> + Send;
    /// Every event's own row, by slug.
    fn events(&mut self) -> impl Future<Output = Result<Vec<EventRow>>> + Send;
    /// The users written after generation `since` (all of them for -1), by code.
    fn users(&mut self, since: i64) -> impl Future<Output = Result<Vec<User>>> + Send;
    /// The users `codes` (those stored).
    fn users_by_code(&mut self, codes: &[&str]) -> impl Future<Output = Result<Vec<User>>> + Send;
    fn user_count(&mut self) -> impl Future<Output = Result<i64>> + Send;
    /// Streams the records of the events `ids` into `sink`, one by one, so
    /// that bodies are parsed as they arrive instead of held.
    fn records(
        &mut self,
        ids: &[i64],
        sink: &mut (dyn FnMut(RecordRow) -> Result<()> + Send),
    ) -> impl Future<Output = Result<()>> + Send;
    /// The event's records named by `keys` (those it has), with their
    /// positions and bodies: one statement, however many keys, and
    /// nothing read of the records not named.
    fn records_by_key(
        &mut self,
        event: i64,
        keys: &[(Kind, &str)],
    ) -> impl Future<Output = Result<Vec<KeyedRow>>> + Send;
    /// The event's records of `kinds`, with their positions and bodies.
    fn records_of_kinds(
        &mut self,
        event: i64,
        kinds: &[Kind],
    ) -> impl Future<Output = Result<Vec<KeyedRow>>> + Send;
    /// The event's records written after generation `since`.
    fn changed_records(
        &mut self,
        event: i64,
        since: i64,
    ) -> impl Future<Output = Result<Vec<ChangedRow>>> + Send;
    /// The event's records removed after generation `since`.
    fn deleted_records(
        &mut self,
        event: i64,
        since: i64,
    ) -> impl Future<Output = Result<Vec<DeletedRow>>> + Send;
    /// How many records of each kind the event has.
    fn record_counts(&mut self, event: i64) -> impl Future<Output = Result<Vec<CountRow>>> + Send;
}

/// What to read of a stored event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    Nothing,
    Full,
    /// What changed after this generation.
    Since(i64),
}

/// For a replica that holds the events in `known`: nothing of what it has,
/// patches for older versions of the same stored events, the rest in full.
pub fn against(known: &HashMap<String, EventVersion>) -> impl Fn(&str, EventVersion) -> Read + '_ {
    move |slug, stored| match known.get(slug) {
        Some(held) if *held == stored => Read::Nothing,
        Some(held) if held.id == stored.id && held.generation < stored.generation => {
            Read::Since(held.generation)
        }
        _ => Read::Full,
    }
}

/// Reads the version, the users (only those written after `users_since`
/// when given), every event's version, and what `read` asks of each event.
pub async fn run<T: ReadTx>(
    tx: &mut T,
    read: impl Fn(&str, EventVersion) -> Read,
    users_since: Option<i64>,
) -> Result<Loaded> {
    let started = std::time::Instant::now();
    let version = tx.version().await?;
    let rows = tx.events().await?;
    let mut event_versions = Vec::with_capacity(rows.len());
    let mut assemblers = HashMap::new();
    let mut patches = Vec::new();
    for row in rows {
        let stored = EventVersion {
            id: row.id,
            generation: row.generation,
        };
        match read(&row.slug, stored) {
            Read::Nothing => {}
            Read::Full => {
                assemblers.insert(row.id, EventAssembler::new(&row.body)?);
            }
            Read::Since(since) => {
                let changed = tx.changed_records(row.id, since).await?;
                let deleted = tx.deleted_records(row.id, since).await?;
                let counts = match &row.record_counts {
                    Some(kept) => super::records::parse_counts(kept)?,
                    None => tx.record_counts(row.id).await?,
                };
                patches.push(EventPatch::new(&row.body, changed, deleted, counts)?);
            }
        }
        event_versions.push((row.slug, stored));
    }
    tracing::debug!(elapsed = ?started.elapsed(), patches = patches.len(), "load: events read");
    let users = tx.users(users_since.unwrap_or(-1)).await?;
    let user_count = match users_since {
        Some(_) => tx.user_count().await? as usize,
        None => users.len(),
    };
    tracing::debug!(elapsed = ?started.elapsed(), users = users.len(), "load: users read");
    if !assemblers.is_empty() {
        assemblers = decode_records(tx, assemblers).await?;
        tracing::debug!(elapsed = ?started.elapsed(), "load: records read");
    }
    let mut changed_events: Vec<_> = assemblers
        .into_values()
        .map(EventAssembler::finish)
        .collect();
    changed_events.sort_by(|a, b| a.slug.cmp(&b.slug));
    tracing::debug!(elapsed = ?started.elapsed(), "load: events assembled");
    Ok(Loaded {
        version,
        users,
        users_since,
        user_count,
        event_versions,
        changed_events,
        patches,
    })
}

/// Rows handed to the decoding thread at a time: enough to make each
/// handoff cheap, few enough to keep reading and decoding in step.
const BATCH: usize = 256;

/// Streams the records of the events of `assemblers` into them. The
/// bodies are decoded on a blocking thread while this task reads the next
/// rows: decoding is most of a cold start's reading, and the store's rows
/// come from a thread of their own, so the two overlap on two cores.
async fn decode_records<T: ReadTx>(
    tx: &mut T,
    mut assemblers: HashMap<i64, EventAssembler>,
) -> Result<HashMap<i64, EventAssembler>> {
    let ids: Vec<i64> = assemblers.keys().copied().collect();
    // Bounded: a decoder that falls behind holds the reader back instead
    // of letting the bodies pile up.
    let (batches, received) = std::sync::mpsc::sync_channel::<Vec<RecordRow>>(8);
    let decoder = tokio::task::spawn_blocking(move || -> Result<_> {
        for batch in received {
            for row in batch {
                if let Some(assembler) = assemblers.get_mut(&row.event) {
                    assembler.add(row.kind, row.position, &row.body)?;
                }
            }
        }
        Ok(assemblers)
    });
    let mut batch = Vec::with_capacity(BATCH);
    let read = tx
        .records(&ids, &mut |row| {
            batch.push(row);
            if batch.len() == BATCH {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                // Refused only when the decoder stopped on an error, which
                // its result gives below.
                batches.send(full).map_err(|_| decoder_stopped())?;
            }
            Ok(())
        })
        .await;
    let read = read.and_then(|()| match batch.is_empty() {
        true => Ok(()),
        false => batches.send(batch).map_err(|_| decoder_stopped()),
    });
    drop(batches);
    // The decoder's error first: the reader's is then only its echo.
    let assemblers = decoder
        .await
        .map_err(|e| StoreError::Corrupt(format!("decoding records failed: {e}")))??;
    read?;
    Ok(assemblers)
}

fn decoder_stopped() -> StoreError {
    StoreError::Corrupt("decoding records stopped".into())
}
