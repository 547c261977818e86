//! SQLite: the zero-setup store. WAL mode, so readers never wait for an
//! import and a read transaction sees one committed state.

use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::Executor;

use super::sql::{Dialect, SqlStore};
use super::{DbSettings, StoreError};

/// Schema versions, applied in order and recorded in `schema_migrations`.
pub const MIGRATIONS: &[(i64, &str)] = &[(1, include_str!("migrations/sqlite/0001_schema.sql"))];

pub async fn open(url: &str, settings: &DbSettings) -> Result<SqlStore, StoreError> {
    // Create the file on first use.
    let url = if url.contains('?') || url.contains(":memory:") {
        url.to_string()
    } else {
        format!("{url}?mode=rwc")
    };
    let options = AnyConnectOptions::from_str(&url)
        .map_err(|e| StoreError::Config(format!("bad SQLite URL {url:?}: {e}")))?;
    let busy_ms = settings.statement_timeout.as_millis();
    let pool = AnyPoolOptions::new()
        .max_connections(settings.pool_size)
        .acquire_timeout(settings.connect_timeout)
        // An in-process database cannot drop connections: skip the ping.
        .test_before_acquire(false)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                conn.execute("PRAGMA journal_mode = WAL").await?;
                conn.execute("PRAGMA synchronous = NORMAL").await?;
                conn.execute("PRAGMA foreign_keys = ON").await?;
                conn.execute(format!("PRAGMA busy_timeout = {busy_ms}").as_str())
                    .await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(|e| StoreError::Unavailable(format!("cannot open {url}: {e}")))?;
    SqlStore::new(pool, Dialect::Sqlite).await
}
