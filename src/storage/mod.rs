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
//! The mapping between model and rows is written once (`rows`), executed by
//! one SQL store (`sql`) on either database; what differs between SQLite and
//! PostgreSQL (schema, placeholders, connection setup, isolation) stays in
//! their modules.

pub mod postgres;
pub mod rows;
pub mod sql;
pub mod sqlite;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::model::{Dataset, Event, User};

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Import progress: (rows written, rows in all).
pub type Progress = dyn Fn(u64, u64) + Send + Sync;

#[derive(Debug)]
pub enum StoreError {
    /// The database cannot be reached or answered with an error; the
    /// server answers 503 and retries on the next request.
    Unavailable(String),
    /// The stored data is not what this program wrote (a bug or a manual edit).
    Corrupt(String),
    /// A bad `--db` URL or an unsupported scheme.
    Config(String),
    /// The database refused the data (a constraint, e.g. an e-mail address
    /// that another stored user already has).
    Rejected(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Unavailable(m) => write!(f, "database unavailable: {m}"),
            StoreError::Corrupt(m) => write!(f, "stored data is inconsistent: {m}"),
            StoreError::Config(m) => write!(f, "{m}"),
            StoreError::Rejected(m) => write!(f, "the database refused the data: {m}"),
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
    /// (case-insensitively), all in one transaction. `progress` is told the
    /// rows written so far and the total.
    fn import<'a>(
        &'a self,
        dataset: &'a Dataset,
        progress: Option<&'a Progress>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Everything stored, or only the named events (with all users).
    fn export<'a>(&'a self, slugs: &'a [String]) -> BoxFuture<'a, Result<Dataset, StoreError>>;
}

/// Connection settings.
#[derive(Debug, Clone)]
pub struct DbSettings {
    /// Connections per process.
    pub pool_size: u32,
    /// How long a request waits for a connection before failing with 503.
    pub connect_timeout: Duration,
    /// Longest a statement may run (PostgreSQL `statement_timeout`, SQLite
    /// busy timeout).
    pub statement_timeout: Duration,
}

impl Default for DbSettings {
    fn default() -> Self {
        DbSettings {
            pool_size: 8,
            connect_timeout: Duration::from_secs(3),
            statement_timeout: Duration::from_secs(30),
        }
    }
}

/// Opens the database named by `url` with default settings.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    open_with(url, &DbSettings::default()).await
}

/// Opens the database named by `url` (`sqlite://FILE` or
/// `postgres://user@host:port/db`), creating and migrating it when needed.
pub async fn open_with(url: &str, settings: &DbSettings) -> Result<Arc<dyn Store>, StoreError> {
    static DRIVERS: std::sync::Once = std::sync::Once::new();
    DRIVERS.call_once(sqlx::any::install_default_drivers);
    if url.starts_with("sqlite:") {
        Ok(Arc::new(sqlite::open(url, settings).await?))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Arc::new(postgres::open(url, settings).await?))
    } else {
        Err(StoreError::Config(format!(
            "unsupported database URL {url:?}: use sqlite://FILE or postgres://USER@HOST:PORT/DB"
        )))
    }
}
