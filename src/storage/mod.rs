//! Storage: where datasets live between processes.
//!
//! The HTTP layer never queries the database row by row. It serves from an
//! immutable in-memory snapshot (`crate::catalog`), and storage only has to
//! answer four questions, each with a fixed number of queries however large
//! the data is:
//!
//! * `generation`: has anything changed? (one query, asked per request)
//! * `load`: the users, and every event changed since the caller's snapshot,
//!   read in one consistent read transaction (one query per table);
//! * `import`: replace events and upsert users, atomically, bumping the
//!   generation;
//! * `export`: the stored data as a dataset.
//!
//! One implementation per database: [`sqlite::SqliteStore`] (and PostgreSQL
//! next to it). SQL dialect differences stay inside the implementation.

pub mod rows;
pub mod sqlite;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::model::{Dataset, Event, User};

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

#[derive(Debug)]
pub enum StoreError {
    /// The database cannot be reached or answered with an error; the
    /// server answers 503 and retries on the next request.
    Unavailable(String),
    /// The stored data is not what this program wrote (a bug or a manual edit).
    Corrupt(String),
    /// A bad `--db` URL or an unsupported scheme.
    Config(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Unavailable(m) => write!(f, "database unavailable: {m}"),
            StoreError::Corrupt(m) => write!(f, "stored data is inconsistent: {m}"),
            StoreError::Config(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        match err {
            sqlx::Error::ColumnDecode { .. }
            | sqlx::Error::Decode(_)
            | sqlx::Error::ColumnNotFound(_) => StoreError::Corrupt(err.to_string()),
            other => StoreError::Unavailable(other.to_string()),
        }
    }
}

/// What `load` returns: everything needed to rebuild the serving snapshot.
#[derive(Debug, Default)]
pub struct Loaded {
    pub generation: i64,
    pub users: Vec<User>,
    /// Every stored event's slug with the generation it was last written in.
    pub event_generations: Vec<(String, i64)>,
    /// Full data of the events whose generation differs from what the
    /// caller already holds.
    pub changed_events: Vec<Event>,
}

pub trait Store: Send + Sync {
    /// The generation of the stored data; every import increases it.
    fn generation(&self) -> BoxFuture<'_, Result<i64, StoreError>>;

    /// How many events are stored.
    fn event_count(&self) -> BoxFuture<'_, Result<i64, StoreError>>;

    /// Users and the events whose generation is not the one in `known`
    /// (slug → generation), from one consistent read.
    fn load<'a>(
        &'a self,
        known: &'a HashMap<String, i64>,
    ) -> BoxFuture<'a, Result<Loaded, StoreError>>;

    /// Upserts the users and replaces each event of the same slug
    /// (case-insensitively), all in one transaction.
    fn import<'a>(&'a self, dataset: &'a Dataset) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Everything stored, or only the named events (with all users).
    fn export<'a>(&'a self, slugs: &'a [String]) -> BoxFuture<'a, Result<Dataset, StoreError>>;
}

/// Opens the database named by `url` (`sqlite://…` or `postgres://…`),
/// creating and migrating it when needed.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(sqlite::SqliteStore::open(url).await?))
    } else {
        Err(StoreError::Config(format!(
            "unsupported database URL {url:?}: use sqlite://FILE"
        )))
    }
}
