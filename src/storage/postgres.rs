//! PostgreSQL: the shared store for many stateless replicas. Readers load
//! in REPEATABLE READ transactions, so a replica sees an import whole or
//! not at all; a statement timeout and a bounded pool wait keep requests
//! from hanging when the database is slow or gone.

use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::Executor;

use super::sql::{Dialect, SqlStore};
use super::{DbSettings, StoreError};

/// Schema versions, applied in order and recorded in `schema_migrations`.
pub const MIGRATIONS: &[(i64, &str)] = &[(1, include_str!("migrations/postgres/0001_schema.sql"))];

pub async fn open(url: &str, settings: &DbSettings) -> Result<SqlStore, StoreError> {
    let options = AnyConnectOptions::from_str(url)
        .map_err(|e| StoreError::Config(format!("bad PostgreSQL URL: {e}")))?;
    let statement_ms = settings.statement_timeout.as_millis();
    let pool = AnyPoolOptions::new()
        .max_connections(settings.pool_size)
        .min_connections(0)
        .acquire_timeout(settings.connect_timeout)
        // A dead pooled connection costs one retried query (see
        // SqlStore::generation) rather than a ping before every request.
        .test_before_acquire(false)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                conn.execute(format!("SET statement_timeout = {statement_ms}").as_str())
                    .await?;
                conn.execute("SET TIME ZONE 'UTC'").await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(|e| StoreError::Unavailable(format!("cannot connect to PostgreSQL: {e}")))?;
    SqlStore::new(pool, Dialect::Postgres).await
}
