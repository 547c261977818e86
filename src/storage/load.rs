//! Reading for the serving snapshot and for `export`, written once: the
//! version, the events, the users, and the records of the events wanted,
//! all in one read transaction that each store opens with [`ReadTx`].

use std::collections::HashMap;
use std::future::Future;

use super::records::{EventAssembler, RecordRow};
use super::{DataVersion, Loaded, StoreError};
use crate::model::User;

type Result<T> = std::result::Result<T, StoreError>;

/// A stored event's own row.
#[derive(sqlx::FromRow)]
pub struct EventRow {
    pub id: i64,
    pub slug: String,
    pub generation: i64,
    pub body: String,
}

/// The statements of one store, inside a consistent read transaction.
pub trait ReadTx: Send {
    fn version(&mut self) -> impl Future<Output = Result<DataVersion>> + Send;
    /// Every event's own row, by slug.
    fn events(&mut self) -> impl Future<Output = Result<Vec<EventRow>>> + Send;
    /// Every user, by code.
    fn users(&mut self) -> impl Future<Output = Result<Vec<User>>> + Send;
    /// Streams the records of the events `ids` into `sink`, one by one, so
    /// that bodies are parsed as they arrive instead of held.
    fn records(
        &mut self,
        ids: &[i64],
        sink: &mut (dyn FnMut(RecordRow) -> Result<()> + Send),
    ) -> impl Future<Output = Result<()>> + Send;
}

/// Reads the version, the users, every event's generation, and in full the
/// events for which `wanted(slug, generation)` holds.
pub async fn run<T: ReadTx>(tx: &mut T, wanted: impl Fn(&str, i64) -> bool) -> Result<Loaded> {
    let version = tx.version().await?;
    let rows = tx.events().await?;
    let mut event_generations = Vec::with_capacity(rows.len());
    let mut assemblers = HashMap::new();
    for row in rows {
        if wanted(&row.slug, row.generation) {
            assemblers.insert(row.id, EventAssembler::new(&row.body)?);
        }
        event_generations.push((row.slug, row.generation));
    }
    let users = tx.users().await?;
    if !assemblers.is_empty() {
        let ids: Vec<i64> = assemblers.keys().copied().collect();
        tx.records(&ids, &mut |row| match assemblers.get_mut(&row.event) {
            Some(assembler) => assembler.add(row.kind, row.position, &row.body),
            None => Ok(()),
        })
        .await?;
    }
    let mut changed_events: Vec<_> = assemblers
        .into_values()
        .map(EventAssembler::finish)
        .collect();
    changed_events.sort_by(|a, b| a.slug.cmp(&b.slug));
    Ok(Loaded {
        version,
        users,
        event_generations,
        changed_events,
    })
}
