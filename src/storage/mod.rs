//! Storage: where datasets live between processes.
//!
//! The HTTP layer never queries the database row by row. It serves from an
//! immutable in-memory snapshot (`crate::domain::catalog`), and storage only
//! has to answer a few questions, each with a fixed number of queries
//! however large the data is:
//!
//! * `version`: has anything changed? The database's identity (made once,
//!   when its schema is created) and its generation (increased by every
//!   import that changes something).
//! * `load`: the users, and every event changed since the caller's
//!   snapshot, read in one consistent read transaction;
//! * `import`: replace events and upsert users, atomically, writing only the
//!   records that changed;
//! * `export`: the stored data as a dataset.
//!
//! Data is kept as records (`records`): one row per user, per event, and per
//! item of an event's lists (a submission, an answer, a review, ...), each a
//! JSON body in the dataset's own form. What to write is worked out once,
//! independent of the database (`plan`); the two stores, `sqlite` and
//! `postgres`, only run it with their own SQL on sqlx's typed pools.

mod changes;
pub mod edits;
mod import;
mod load;
pub mod plan;
pub mod postgres;
pub mod records;
pub mod sqlite;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

pub use crate::domain::feed_log::ChangeRow;
pub use crate::domain::version::{DataVersion, EventVersion};
use crate::model::{Dataset, Event, User};
pub use records::EventPatch;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Import progress: (records written, records to write).
pub type Progress = dyn Fn(u64, u64) + Send + Sync;

#[derive(Debug)]
pub enum StoreError {
    /// The database cannot be reached or answered with an error; the
    /// server answers 503 and tries again later.
    Unavailable(String),
    /// The stored data is not what this program wrote (a bug or a manual edit).
    Corrupt(String),
    /// A bad `--db` URL, a missing database, or a database this version
    /// cannot use.
    Config(String),
    /// The database refused the data: each problem with the JSON path of
    /// the record in the imported dataset (e.g. an e-mail address that a
    /// stored user already has).
    Rejected(Vec<crate::dataset::validate::Problem>),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Unavailable(m) => write!(f, "database unavailable: {m}"),
            StoreError::Corrupt(m) => write!(f, "stored data is inconsistent: {m}"),
            StoreError::Config(m) => write!(f, "{m}"),
            StoreError::Rejected(problems) => {
                write!(f, "the dataset conflicts with the stored data:")?;
                for problem in problems {
                    write!(f, "\n{problem}")?;
                }
                Ok(())
            }
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

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(err: sqlx::migrate::MigrateError) -> Self {
        StoreError::Unavailable(format!("cannot migrate the schema: {err}"))
    }
}

/// What a replica holds, so that `load` reads only what is new to it.
#[derive(Debug, Clone, Default)]
pub struct Held {
    /// Each event's slug with the version held.
    pub events: HashMap<String, EventVersion>,
    /// The generation of the users held (those of the snapshot), if any.
    pub users: Option<i64>,
}

/// What `load` returns: everything needed to rebuild the serving snapshot.
#[derive(Debug, Default)]
pub struct Loaded {
    pub version: DataVersion,
    /// Every user, or with `users_since` only those written after it.
    pub users: Vec<User>,
    pub users_since: Option<i64>,
    /// How many users are stored, to check the held ones plus `users`.
    pub user_count: usize,
    /// Every stored event's slug with its version.
    pub event_versions: Vec<(String, EventVersion)>,
    /// Full data of the changed events that the caller does not hold.
    pub changed_events: Vec<Event>,
    /// The changes to the events the caller holds at an older version.
    pub patches: Vec<EventPatch>,
}

/// What an import changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportSummary {
    /// The generation after the import; unchanged when nothing changed.
    pub generation: i64,
    /// Slugs of the events that were written (new or changed).
    pub changed_events: Vec<String>,
    /// Records (users, events and event items) inserted, updated or deleted.
    pub records_written: u64,
    /// Slugs of the stored events deleted because the dataset does not
    /// have them (only with [`ImportOptions::delete_absent_events`]).
    pub deleted_events: Vec<String>,
}

/// The stored change feed after some generation.
#[derive(Debug, Clone, Default)]
pub struct ChangeLog {
    /// The feed is complete for every generation after this one; older
    /// ones came before the feed or have been pruned.
    pub feed_from: i64,
    /// Rows in generation order.
    pub rows: Vec<ChangeRow>,
}

/// How far one webhook subscription has delivered (`webhooks`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct WebhookCursor {
    pub subscription: String,
    /// Delivered (or nothing to deliver) through this generation.
    pub generation: i64,
    /// Failed attempts at the next delivery.
    pub attempts: i64,
    /// When the first of them failed (milliseconds since 1970).
    pub first_failure: Option<i64>,
    /// Not before this (milliseconds since 1970).
    pub next_attempt: i64,
    /// The receiver answered 410 Gone.
    pub ended: bool,
}

/// How an import treats what is stored.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ImportOptions {
    /// Also delete the stored events the dataset does not have, in the same
    /// transaction: a sync of every upstream event mirrors deletions.
    pub delete_absent_events: bool,
    /// The digest of the file(s) the dataset was read from, with these
    /// options ([`import_digest`]): kept with the events the import leaves
    /// as the file has them, so that the same bytes imported again are
    /// known to change nothing ([`Store::unchanged_import`]). None (sync,
    /// the library) clears it on the events the import holds.
    pub digest: Option<u128>,
}

/// Changes whenever the same bytes could be read into different records:
/// bump it with any change to validation, the model or the records.
const DIGEST_FORMAT: &str = concat!("confapi ", env!("CARGO_PKG_VERSION"), " dataset 1");

/// The digest of an import of `files` (their bytes, in order) with
/// `options` (its `digest` aside): XXH3-128.
pub fn import_digest(files: &[&[u8]], options: ImportOptions) -> u128 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(DIGEST_FORMAT.as_bytes());
    hasher.update(&[u8::from(options.delete_absent_events)]);
    for file in files {
        hasher.update(&(file.len() as u64).to_le_bytes());
        hasher.update(file);
    }
    hasher.digest128()
}

/// The stored form of a digest: its hex and how many events the import held.
fn digest_text(digest: u128, events: usize) -> String {
    format!("{digest:032x}/{events}")
}

/// Whether the events' stored digests (`import_digest`, one per stored
/// event) say that the import of `digest` left every one of its events
/// as it is and nothing else was written since.
fn digest_holds(digest: u128, stored: &[Option<String>]) -> bool {
    let prefix = format!("{digest:032x}/");
    let mut count = 0usize;
    let mut expected = None;
    for text in stored.iter().flatten() {
        if let Some(events) = text.strip_prefix(&prefix) {
            count += 1;
            expected = events.parse::<usize>().ok();
        }
    }
    expected.is_some_and(|expected| expected == count && count > 0)
}

pub trait Store: Send + Sync {
    /// The database's identity and generation; every import that changes
    /// something increases the generation.
    fn version(&self) -> BoxFuture<'_, Result<DataVersion, StoreError>>;

    /// How many events are stored.
    fn event_count(&self) -> BoxFuture<'_, Result<i64, StoreError>>;

    /// The users and the events that are new to a replica holding `held`,
    /// from one consistent read: events it lacks in full, events it holds
    /// at an older version as a patch, and only the users written since.
    fn load<'a>(&'a self, held: &'a Held) -> BoxFuture<'a, Result<Loaded, StoreError>>;

    /// Upserts the users and replaces each event of the same slug
    /// (case-insensitively), all in one transaction, writing only what
    /// changed. `progress` is told the records written so far and the total.
    fn import<'a>(
        &'a self,
        dataset: &'a Dataset,
        progress: Option<&'a Progress>,
    ) -> BoxFuture<'a, Result<ImportSummary, StoreError>> {
        self.import_with(dataset, ImportOptions::default(), progress)
    }

    /// `import`, with options (e.g. deleting the events the dataset lacks).
    fn import_with<'a>(
        &'a self,
        dataset: &'a Dataset,
        options: ImportOptions,
        progress: Option<&'a Progress>,
    ) -> BoxFuture<'a, Result<ImportSummary, StoreError>>;

    /// The generation, when the stored data is what an import of `digest`
    /// ([`import_digest`]) left and nothing else has changed it since:
    /// importing those bytes again would change nothing. None otherwise
    /// (or when no event is stored).
    /// (A store that keeps no digests never knows: None.)
    fn unchanged_import(&self, digest: u128) -> BoxFuture<'_, Result<Option<i64>, StoreError>> {
        let _ = digest;
        Box::pin(async { Ok(None) })
    }

    /// The outline of the file imported last (`edits`), if one is kept.
    fn import_outline(&self) -> BoxFuture<'_, Result<Option<edits::StoredOutline>, StoreError>> {
        Box::pin(async { Ok(None) })
    }

    /// Keeps the outline of the file just imported with `digest`.
    fn save_import_outline<'a>(
        &'a self,
        digest: u128,
        outline: &'a [u8],
        witnesses: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let _ = (digest, outline, witnesses);
        Box::pin(async { Ok(()) })
    }

    /// Writes a file's changed submissions alone (`edits::run`), in one
    /// transaction; None (nothing written) when they cannot be.
    fn import_edits<'a>(
        &'a self,
        edits: &'a edits::Edits,
    ) -> BoxFuture<'a, Result<Option<ImportSummary>, StoreError>> {
        let _ = edits;
        Box::pin(async { Ok(None) })
    }

    /// The change feed's rows of generations in `(after, upto]`, oldest
    /// first, with where the feed is complete from.
    fn changes(&self, after: i64, upto: i64) -> BoxFuture<'_, Result<ChangeLog, StoreError>>;

    /// Takes or renews the webhook sender's lease for `holder`, until
    /// `now + ttl` (milliseconds since 1970): true when `holder` holds it
    /// (it was free, expired, or already theirs).
    fn webhook_lease<'a>(
        &'a self,
        holder: &'a str,
        now: i64,
        ttl: i64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Every subscription's cursor.
    fn webhook_cursors(&self) -> BoxFuture<'_, Result<Vec<WebhookCursor>, StoreError>>;

    /// Writes a cursor; its generation never moves back (a sender that
    /// lost its lease may still finish a delivery).
    fn save_webhook_cursor<'a>(
        &'a self,
        cursor: &'a WebhookCursor,
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
    /// Create a missing SQLite database file (`import`, `serve --demo`);
    /// otherwise a missing file is an error, not a silently empty database.
    pub create_if_missing: bool,
}

impl Default for DbSettings {
    fn default() -> Self {
        DbSettings {
            pool_size: 8,
            connect_timeout: Duration::from_secs(3),
            statement_timeout: Duration::from_secs(30),
            create_if_missing: true,
        }
    }
}

/// Opens the database named by `url` with default settings, creating it
/// when missing.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    open_with(url, &DbSettings::default()).await
}

/// Opens the database named by `url` (`sqlite://FILE` or
/// `postgres://user@host:port/db`) and brings its schema up to date.
pub async fn open_with(url: &str, settings: &DbSettings) -> Result<Arc<dyn Store>, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(sqlite::SqliteStore::open(url, settings).await?))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Arc::new(postgres::PgStore::open(url, settings).await?))
    } else {
        Err(StoreError::Config(format!(
            "unsupported database URL {url:?}: use sqlite://FILE or postgres://USER@HOST:PORT/DB"
        )))
    }
}

/// The message for a database written by confapi before records: its
/// tables cannot be read any more, and nothing is changed in it.
pub(crate) const OLD_SCHEMA: &str = "this database was written by an older confapi \
    (normalised tables, before events were stored as records) and cannot be used by this \
    version; nothing was changed in it. Export it with the older confapi and import the \
    file into a new database, or import your datasets into a new database";
