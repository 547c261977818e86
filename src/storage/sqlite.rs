//! SQLite: the zero-setup store. WAL mode, so readers never wait for an
//! import and a read transaction sees one committed state. Imports take the
//! write lock up front (`BEGIN IMMEDIATE`), so concurrent imports queue
//! instead of failing, and checkpoint the WAL afterwards, so the database
//! file alone holds the data.

use std::str::FromStr;

use futures_util::TryStreamExt;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, Row, SqlitePool};

use super::edits::{Edits, StoredOutline};
use super::import::{self, ImportTx};
use super::load::{self, ReadTx};
use super::plan::{EventWrite, StoredEvent, StoredRecord, StoredUser, UserWrite};
use super::records::{self, Kind, Record, RecordRow};
use super::records::{ChangedRow, CountRow, DeletedRow, EventRow, KeyedRow};
use super::{
    BoxFuture, ChangeLog, ChangeRow, DataVersion, DbSettings, EventVersion, Held, ImportOptions,
    ImportSummary, Loaded, Progress, Store, StoreError, WebhookCursor, OLD_SCHEMA,
};
use crate::model::{Dataset, User};

type Result<T> = std::result::Result<T, StoreError>;

pub struct SqliteStore {
    /// The pool and the identity on disk of the file it has open (none in
    /// memory); both replaced when the file is (see `pool`).
    current: std::sync::RwLock<(SqlitePool, Option<FileId>)>,
    options: SqliteConnectOptions,
    settings: DbSettings,
}

/// Device and inode: a new file at the same path has another.
type FileId = (u64, u64);

fn file_id(path: &std::path::Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// A transaction of this store, read or write.
struct Tx(sqlx::Transaction<'static, sqlx::Sqlite>);

impl SqliteStore {
    pub async fn open(url: &str, settings: &DbSettings) -> Result<Self> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::Config(format!("bad SQLite URL {url:?}: {e}")))?
            .create_if_missing(settings.create_if_missing)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(settings.statement_timeout)
            // Room for the records index while an import inserts a million
            // rows in random key order (the default is 2 MB).
            .pragma("cache_size", "-65536")
            // Reading a whole large event takes seconds by design: not a warning.
            .log_slow_statements(log::LevelFilter::Debug, std::time::Duration::from_secs(1))
            // Bodies of a few kB: larger pages mean fewer overflow pages (new databases only).
            .page_size(16384);
        let file = options.get_filename().to_path_buf();
        let in_memory = file.as_os_str().is_empty() || file.as_os_str() == ":memory:";
        if !settings.create_if_missing && !in_memory && !file.exists() {
            return Err(StoreError::Config(format!(
                "no database at {}: `confapi import FILE --db {url}` creates one \
                 (or `confapi serve --demo` for demo data)",
                file.display()
            )));
        }
        if !in_memory && file.exists() {
            Self::refuse_old_schema(url).await?;
        }
        let pool = Self::connect(&options, settings).await?;
        sqlx::migrate!("src/storage/migrations/sqlite")
            .run(&pool)
            .await?;
        Ok(SqliteStore {
            current: std::sync::RwLock::new((pool, (!in_memory).then(|| file_id(&file)).flatten())),
            options: options.create_if_missing(false),
            settings: settings.clone(),
        })
    }

    /// Looks for the old schema read-only, before anything (even the
    /// switch to WAL) changes the file.
    async fn refuse_old_schema(url: &str) -> Result<()> {
        use sqlx::Connection;
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::Config(format!("bad SQLite URL {url:?}: {e}")))?
            .read_only(true);
        let mut conn = sqlx::SqliteConnection::connect_with(&options)
            .await
            .map_err(|e| StoreError::Unavailable(format!("cannot open {url}: {e}")))?;
        let old: Option<i64> = sqlx::query_scalar(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
        )
        .fetch_optional(&mut conn)
        .await?;
        conn.close().await?;
        match old {
            Some(_) => Err(StoreError::Config(OLD_SCHEMA.to_string())),
            None => Ok(()),
        }
    }

    async fn connect(options: &SqliteConnectOptions, settings: &DbSettings) -> Result<SqlitePool> {
        SqlitePoolOptions::new()
            .max_connections(settings.pool_size)
            .acquire_timeout(settings.connect_timeout)
            // An in-process database cannot drop connections: skip the ping.
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await
            .map_err(|e| {
                StoreError::Unavailable(format!(
                    "cannot open {}: {e}",
                    options.get_filename().display()
                ))
            })
    }

    fn current(&self) -> (SqlitePool, Option<FileId>) {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The pool, reopened when the database file was replaced (deleted and
    /// written anew, restored from a backup): open connections would keep
    /// reading the old file for ever. A missing file is an outage, never a
    /// silently new empty database.
    async fn pool(&self) -> Result<SqlitePool> {
        let (pool, opened) = self.current();
        let Some(opened) = opened else {
            return Ok(pool);
        };
        let path = self.options.get_filename();
        match file_id(path) {
            None => Err(StoreError::Unavailable(format!(
                "the database file {} is gone",
                path.display()
            ))),
            Some(now) if now == opened => Ok(pool),
            Some(now) => {
                let fresh = Self::connect(&self.options, &self.settings).await?;
                let (old, _) = std::mem::replace(
                    &mut *self.current.write().unwrap_or_else(|e| e.into_inner()),
                    (fresh.clone(), Some(now)),
                );
                old.close().await;
                tracing::warn!(file = %path.display(), "the database file was replaced; reopened it");
                Ok(fresh)
            }
        }
    }

    async fn read(
        &self,
        wanted: impl Fn(&str, EventVersion) -> load::Read + Send,
        users_since: Option<i64>,
    ) -> Result<Loaded> {
        // A deferred transaction: its first read fixes the snapshot (WAL).
        let mut tx = Tx(self.pool().await?.begin().await?);
        let loaded = load::run(&mut tx, wanted, users_since).await?;
        // The scan filled this connection's page cache (sized for imports)
        // with pages nobody reads again: give the memory back, or a server
        // keeps up to 64 MiB per connection for nothing.
        sqlx::query("PRAGMA shrink_memory")
            .execute(&mut *tx.0)
            .await?;
        tx.0.commit().await?;
        Ok(loaded)
    }

    async fn import_dataset(
        &self,
        dataset: &Dataset,
        options: ImportOptions,
        progress: Option<&Progress>,
    ) -> Result<ImportSummary> {
        let pool = self.pool().await?;
        let mut tx = Tx(pool.begin_with("BEGIN IMMEDIATE").await?);
        let summary = import::run(&mut tx, dataset, options, progress).await?;
        tx.0.commit().await?;
        tracing::debug!("import committed");
        if summary.records_written > 0 {
            // Move the import from the WAL into the database file, so that
            // the file alone is a complete copy. A reader on an old snapshot
            // may hold part of the WAL back; the next checkpoint takes it.
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&pool)
                .await?;
        }
        Ok(summary)
    }
}

const VERSION: &str = "SELECT identity, generation FROM store WHERE id = 1";

/// Ids as a JSON array, for `json_each`.
fn ids_json(ids: &[i64]) -> String {
    serde_json::to_string(ids).expect("ids serialise")
}

/// `(?, ?), (?, ?)`: `count` rows of `width` parameters.
fn rows(count: usize, width: usize) -> String {
    let row = format!("({})", vec!["?"; width].join(", "));
    vec![row; count].join(", ")
}

impl Tx {
    /// One multi-row INSERT; `conflict` says what to do with existing keys.
    async fn write_records(
        &mut self,
        event: i64,
        records: &[Record],
        generation: i64,
        conflict: &str,
    ) -> Result<()> {
        let sql = format!(
            "INSERT INTO records (event, kind, key, position, hash, body, generation, \
             body_generation) VALUES {} {conflict}",
            rows(records.len(), 8)
        );
        let mut query = sqlx::query(&sql);
        for record in records {
            query = query
                .bind(event)
                .bind(record.kind.as_str())
                .bind(&record.key)
                .bind(record.position)
                .bind(record.hash)
                .bind(&record.body)
                .bind(generation)
                .bind(generation);
        }
        query.execute(&mut *self.0).await?;
        Ok(())
    }
}

impl ReadTx for Tx {
    async fn version(&mut self) -> Result<DataVersion> {
        Ok(sqlx::query_as(VERSION).fetch_one(&mut *self.0).await?)
    }

    async fn events(&mut self) -> Result<Vec<EventRow>> {
        Ok(sqlx::query_as(
            "SELECT id, slug, generation, body, record_counts FROM events ORDER BY slug",
        )
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn users(&mut self, since: i64) -> Result<Vec<User>> {
        // All of them in code order, or the few written since found by
        // their generation and then sorted: SQLite, left to itself, walks
        // every user in code order to skip the sort (70 ms for a reload
        // of the 100,000-submission event that wrote no user).
        let statement = if since < 0 {
            "SELECT body FROM users WHERE generation > ?1 ORDER BY code"
        } else {
            "SELECT body FROM users WHERE generation > ?1 ORDER BY +code"
        };
        let mut rows = sqlx::query(statement).bind(since).fetch(&mut *self.0);
        let mut users = Vec::new();
        while let Some(row) = rows.try_next().await? {
            users.push(records::parse_user(row.try_get("body")?)?);
        }
        Ok(users)
    }

    async fn users_by_code(&mut self, codes: &[&str]) -> Result<Vec<User>> {
        let mut rows =
            sqlx::query("SELECT body FROM users WHERE code IN (SELECT value FROM json_each(?1))")
                .bind(serde_json::to_string(codes).expect("JSON of strings"))
                .fetch(&mut *self.0);
        let mut users = Vec::new();
        while let Some(row) = rows.try_next().await? {
            users.push(records::parse_user(row.try_get("body")?)?);
        }
        Ok(users)
    }

    async fn records(
        &mut self,
        ids: &[i64],
        sink: &mut (dyn FnMut(RecordRow) -> Result<()> + Send),
    ) -> Result<()> {
        let mut rows = sqlx::query_as(
            "SELECT event, kind, position, body FROM records \
             WHERE event IN (SELECT value FROM json_each(?1))",
        )
        .bind(ids_json(ids))
        .fetch(&mut *self.0);
        while let Some(row) = rows.try_next().await? {
            sink(row)?;
        }
        Ok(())
    }

    async fn records_by_key(&mut self, event: i64, keys: &[(Kind, &str)]) -> Result<Vec<KeyedRow>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        // Each pair looked up by the primary key (event, kind, key): CROSS
        // JOIN keeps the keys the outer loop (a plain JOIN let SQLite scan
        // every record of the event by `records_by_generation` instead,
        // 141 ms against 10 ms at 20,000 submissions).
        Ok(sqlx::query_as(
            "SELECT r.kind, r.key, r.position, r.body \
             FROM json_each(?2) AS k \
             CROSS JOIN records AS r ON r.event = ?1 \
             AND r.kind = json_extract(k.value, '$[0]') AND r.key = json_extract(k.value, '$[1]')",
        )
        .bind(event)
        .bind(records::keys_json(keys))
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn records_of_kinds(&mut self, event: i64, kinds: &[Kind]) -> Result<Vec<KeyedRow>> {
        let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        Ok(sqlx::query_as(
            "SELECT kind, key, position, body FROM records \
             WHERE event = ?1 AND kind IN (SELECT value FROM json_each(?2))",
        )
        .bind(event)
        .bind(serde_json::to_string(&kinds).expect("JSON of strings"))
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn changed_records(&mut self, event: i64, since: i64) -> Result<Vec<ChangedRow>> {
        Ok(sqlx::query_as(
            "SELECT kind, key, position, \
             CASE WHEN body_generation > ?2 THEN body END AS body \
             FROM records WHERE event = ?1 AND generation > ?2",
        )
        .bind(event)
        .bind(since)
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn deleted_records(&mut self, event: i64, since: i64) -> Result<Vec<DeletedRow>> {
        Ok(sqlx::query_as(
            "SELECT kind, key FROM deleted_records WHERE event = ?1 AND generation > ?2",
        )
        .bind(event)
        .bind(since)
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn user_count(&mut self) -> Result<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM users")
            .fetch_one(&mut *self.0)
            .await?)
    }

    async fn record_counts(&mut self, event: i64) -> Result<Vec<CountRow>> {
        Ok(sqlx::query_as(
            "SELECT kind, COUNT(*) AS count FROM records WHERE event = ?1 GROUP BY kind",
        )
        .bind(event)
        .fetch_all(&mut *self.0)
        .await?)
    }
}

impl ImportTx for Tx {
    async fn version(&mut self) -> Result<DataVersion> {
        ReadTx::version(self).await
    }

    async fn stored_users(&mut self) -> Result<Vec<StoredUser>> {
        Ok(sqlx::query_as("SELECT code, email_lower, hash FROM users")
            .fetch_all(&mut *self.0)
            .await?)
    }

    async fn stored_events(&mut self) -> Result<Vec<StoredEvent>> {
        Ok(sqlx::query_as("SELECT id, slug, hash FROM events")
            .fetch_all(&mut *self.0)
            .await?)
    }

    async fn stored_digests(&mut self) -> Result<Vec<Option<String>>> {
        Ok(sqlx::query_scalar("SELECT import_digest FROM events")
            .fetch_all(&mut *self.0)
            .await?)
    }

    async fn stored_records(&mut self, ids: &[i64]) -> Result<Vec<StoredRecord>> {
        let json: String = sqlx::query_scalar(
            "SELECT COALESCE(json_group_array(json_array(event, kind, key, position, hash)), '[]') \
             FROM records WHERE event IN (SELECT value FROM json_each(?1))",
        )
        .bind(ids_json(ids))
        .fetch_one(&mut *self.0)
        .await?;
        StoredRecord::from_json(&json)
    }

    async fn delete_users(&mut self, users: &[UserWrite]) -> Result<()> {
        let sql = format!(
            "DELETE FROM users WHERE code IN ({})",
            vec!["?"; users.len()].join(", ")
        );
        let mut query = sqlx::query(&sql);
        for user in users {
            query = query.bind(&user.code);
        }
        query.execute(&mut *self.0).await?;
        Ok(())
    }

    async fn insert_users(&mut self, users: &[UserWrite], generation: i64) -> Result<()> {
        let sql = format!(
            "INSERT INTO users (code, email_lower, hash, body, generation) VALUES {}",
            rows(users.len(), 5)
        );
        let mut query = sqlx::query(&sql);
        for user in users {
            query = query
                .bind(&user.code)
                .bind(&user.email_lower)
                .bind(user.hash)
                .bind(&user.body)
                .bind(generation);
        }
        query
            .execute(&mut *self.0)
            .await
            .map_err(import::unique_violation)?;
        Ok(())
    }

    async fn write_event(&mut self, write: &EventWrite, generation: i64) -> Result<i64> {
        Ok(match write.stored_id {
            Some(id) => {
                sqlx::query(
                    "UPDATE events SET slug = ?1, slug_lower = lower(?1), generation = ?2, \
                     hash = ?3, body = ?4, record_counts = COALESCE(?6, record_counts) \
                     WHERE id = ?5",
                )
                .bind(&write.slug)
                .bind(generation)
                .bind(write.hash)
                .bind(&write.body)
                .bind(id)
                .bind(&write.record_counts)
                .execute(&mut *self.0)
                .await?;
                id
            }
            None => {
                sqlx::query_scalar(
                    "INSERT INTO events (slug, slug_lower, generation, hash, body, record_counts) \
                     VALUES (?1, lower(?1), ?2, ?3, ?4, ?5) RETURNING id",
                )
                .bind(&write.slug)
                .bind(generation)
                .bind(write.hash)
                .bind(&write.body)
                .bind(&write.record_counts)
                .fetch_one(&mut *self.0)
                .await?
            }
        })
    }

    async fn delete_records(
        &mut self,
        event: i64,
        records: &[(Kind, String)],
        generation: i64,
    ) -> Result<()> {
        let keys = rows(records.len(), 2);
        let sql = format!("DELETE FROM records WHERE event = ? AND (kind, key) IN (VALUES {keys})");
        let mut query = sqlx::query(&sql).bind(event);
        for (kind, key) in records {
            query = query.bind(kind.as_str()).bind(key);
        }
        query.execute(&mut *self.0).await?;
        let sql = format!(
            "INSERT INTO deleted_records (event, kind, key, generation) \
             SELECT ?, column1, column2, ? FROM (VALUES {keys}) WHERE true \
             ON CONFLICT (event, kind, key) DO UPDATE SET generation = excluded.generation"
        );
        let mut query = sqlx::query(&sql).bind(event).bind(generation);
        for (kind, key) in records {
            query = query.bind(kind.as_str()).bind(key);
        }
        query.execute(&mut *self.0).await?;
        Ok(())
    }

    async fn move_records(
        &mut self,
        event: i64,
        records: &[(Kind, String, i64)],
        generation: i64,
    ) -> Result<()> {
        let sql = format!(
            "UPDATE records SET position = moved.column3, generation = ? \
             FROM (VALUES {}) AS moved \
             WHERE records.event = ? AND records.kind = moved.column1 \
             AND records.key = moved.column2",
            rows(records.len(), 3)
        );
        let mut query = sqlx::query(&sql).bind(generation);
        for (kind, key, position) in records {
            query = query.bind(kind.as_str()).bind(key).bind(position);
        }
        query.bind(event).execute(&mut *self.0).await?;
        Ok(())
    }

    async fn insert_records(
        &mut self,
        event: i64,
        records: &[Record],
        generation: i64,
    ) -> Result<()> {
        self.write_records(event, records, generation, "").await
    }

    async fn update_records(
        &mut self,
        event: i64,
        records: &[Record],
        generation: i64,
    ) -> Result<()> {
        self.write_records(
            event,
            records,
            generation,
            "ON CONFLICT (event, kind, key) DO UPDATE SET position = excluded.position, \
             hash = excluded.hash, body = excluded.body, generation = excluded.generation, \
             body_generation = excluded.body_generation",
        )
        .await
    }

    async fn delete_events(&mut self, ids: &[i64]) -> Result<u64> {
        let records =
            sqlx::query("DELETE FROM records WHERE event IN (SELECT value FROM json_each(?1))")
                .bind(ids_json(ids))
                .execute(&mut *self.0)
                .await?
                .rows_affected();
        // Its tombstones go too: a later event may get the same id.
        sqlx::query("DELETE FROM deleted_records WHERE event IN (SELECT value FROM json_each(?1))")
            .bind(ids_json(ids))
            .execute(&mut *self.0)
            .await?;
        let events =
            sqlx::query("DELETE FROM events WHERE id IN (SELECT value FROM json_each(?1))")
                .bind(ids_json(ids))
                .execute(&mut *self.0)
                .await?
                .rows_affected();
        Ok(records + events)
    }

    async fn set_import_digest(
        &mut self,
        digest: Option<&str>,
        slugs: &[String],
        clear_others: bool,
    ) -> Result<()> {
        if clear_others {
            sqlx::query("UPDATE events SET import_digest = NULL WHERE import_digest IS NOT NULL")
                .execute(&mut *self.0)
                .await?;
        }
        sqlx::query(
            "UPDATE events SET import_digest = ?1 WHERE slug_lower IN (SELECT value FROM json_each(?2)) \
             AND import_digest IS DISTINCT FROM ?1",
        )
        .bind(digest)
        .bind(serde_json::to_string(slugs).expect("slugs serialise"))
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn set_generation(&mut self, generation: i64) -> Result<()> {
        sqlx::query("UPDATE store SET generation = ?1 WHERE id = 1")
            .bind(generation)
            .execute(&mut *self.0)
            .await?;
        Ok(())
    }

    async fn insert_changes(&mut self, rows: &[ChangeRow]) -> Result<()> {
        let sql = format!(
            "INSERT INTO changes (event, audience, generation, at, body) VALUES {}",
            self::rows(rows.len(), 5)
        );
        let mut query = sqlx::query(&sql);
        for row in rows {
            query = query
                .bind(&row.event)
                .bind(&row.audience)
                .bind(row.generation)
                .bind(&row.at)
                .bind(&row.body);
        }
        query.execute(&mut *self.0).await?;
        Ok(())
    }

    async fn prune_changes(&mut self, generation: i64, at: &str) -> Result<()> {
        let last: Option<i64> = sqlx::query_scalar(
            "SELECT MAX(generation) FROM changes WHERE generation <= ?1 AND at < ?2",
        )
        .bind(generation)
        .bind(at)
        .fetch_one(&mut *self.0)
        .await?;
        if let Some(last) = last {
            sqlx::query("DELETE FROM changes WHERE generation <= ?1")
                .bind(last)
                .execute(&mut *self.0)
                .await?;
            sqlx::query("UPDATE store SET feed_from = MAX(feed_from, ?1) WHERE id = 1")
                .bind(last)
                .execute(&mut *self.0)
                .await?;
        }
        Ok(())
    }
}

impl Store for SqliteStore {
    fn webhook_lease<'a>(
        &'a self,
        holder: &'a str,
        now: i64,
        ttl: i64,
    ) -> BoxFuture<'a, Result<bool>> {
        Box::pin(async move {
            let pool = self.pool().await?;
            sqlx::query(
                "INSERT INTO webhook_lease (id, holder, expires_at) VALUES (1, ?1, ?3) \
                 ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at \
                 WHERE webhook_lease.holder = excluded.holder OR webhook_lease.expires_at < ?2",
            )
            .bind(holder)
            .bind(now)
            .bind(now + ttl)
            .execute(&pool)
            .await?;
            let current: String =
                sqlx::query_scalar("SELECT holder FROM webhook_lease WHERE id = 1")
                    .fetch_one(&pool)
                    .await?;
            Ok(current == holder)
        })
    }

    fn webhook_cursors(&self) -> BoxFuture<'_, Result<Vec<WebhookCursor>>> {
        Box::pin(async move {
            let pool = self.pool().await?;
            Ok(sqlx::query_as(
                "SELECT subscription, generation, attempts, first_failure, next_attempt, ended \
                 FROM webhook_cursors",
            )
            .fetch_all(&pool)
            .await?)
        })
    }

    fn save_webhook_cursor<'a>(&'a self, cursor: &'a WebhookCursor) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            let pool = self.pool().await?;
            sqlx::query(
                "INSERT INTO webhook_cursors \
                 (subscription, generation, attempts, first_failure, next_attempt, ended) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
                 ON CONFLICT (subscription) DO UPDATE SET \
                 generation = MAX(webhook_cursors.generation, excluded.generation), \
                 attempts = excluded.attempts, first_failure = excluded.first_failure, \
                 next_attempt = excluded.next_attempt, ended = excluded.ended",
            )
            .bind(&cursor.subscription)
            .bind(cursor.generation)
            .bind(cursor.attempts)
            .bind(cursor.first_failure)
            .bind(cursor.next_attempt)
            .bind(cursor.ended)
            .execute(&pool)
            .await?;
            Ok(())
        })
    }

    fn changes(&self, after: i64, upto: i64) -> BoxFuture<'_, Result<ChangeLog>> {
        Box::pin(async move {
            // One read transaction: the rows and `feed_from` agree.
            let mut tx = self.pool().await?.begin().await?;
            let feed_from = sqlx::query_scalar("SELECT feed_from FROM store WHERE id = 1")
                .fetch_one(&mut *tx)
                .await?;
            let rows = sqlx::query_as(
                "SELECT event, audience, generation, at, body FROM changes \
                 WHERE generation > ?1 AND generation <= ?2 ORDER BY generation, event, audience",
            )
            .bind(after)
            .bind(upto)
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(ChangeLog { feed_from, rows })
        })
    }

    fn version(&self) -> BoxFuture<'_, Result<DataVersion>> {
        Box::pin(async move {
            let pool = self.pool().await?;
            Ok(sqlx::query_as(VERSION).fetch_one(&pool).await?)
        })
    }

    fn unchanged_import(&self, digest: u128) -> BoxFuture<'_, Result<Option<i64>>> {
        Box::pin(async move {
            // One statement: the generation and the digests of one state.
            let rows: Vec<(i64, Option<String>)> = sqlx::query_as(
                "SELECT (SELECT generation FROM store WHERE id = 1), import_digest FROM events",
            )
            .fetch_all(&self.pool().await?)
            .await?;
            let digests: Vec<Option<String>> = rows.iter().map(|(_, d)| d.clone()).collect();
            Ok(rows
                .first()
                .filter(|_| super::digest_holds(digest, &digests))
                .map(|(generation, _)| *generation))
        })
    }

    fn import_outline(&self) -> BoxFuture<'_, Result<Option<StoredOutline>>> {
        Box::pin(async move {
            Ok(sqlx::query_as(super::edits::READ_OUTLINE)
                .fetch_optional(&self.pool().await?)
                .await?)
        })
    }

    fn save_import_outline<'a>(
        &'a self,
        digest: u128,
        outline: &'a [u8],
        witnesses: &'a str,
    ) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO import_outline (id, digest, outline, witnesses) VALUES (1, ?1, ?2, ?3) \
                 ON CONFLICT (id) DO UPDATE SET digest = excluded.digest, \
                 outline = excluded.outline, witnesses = excluded.witnesses",
            )
            .bind(format!("{digest:032x}"))
            .bind(outline)
            .bind(witnesses)
            .execute(&self.pool().await?)
            .await?;
            Ok(())
        })
    }

    fn import_edits<'a>(
        &'a self,
        edits: &'a Edits,
    ) -> BoxFuture<'a, Result<Option<ImportSummary>>> {
        Box::pin(async move {
            let pool = self.pool().await?;
            let mut tx = Tx(pool.begin_with("BEGIN IMMEDIATE").await?);
            let summary = super::edits::run(&mut tx, edits).await?;
            if summary.is_some() {
                tx.0.commit().await?;
            }
            Ok(summary)
        })
    }

    fn event_count(&self) -> BoxFuture<'_, Result<i64>> {
        Box::pin(async move {
            Ok(sqlx::query_scalar("SELECT COUNT(*) FROM events")
                .fetch_one(&self.pool().await?)
                .await?)
        })
    }

    fn load<'a>(&'a self, held: &'a Held) -> BoxFuture<'a, Result<Loaded>> {
        Box::pin(self.read(load::against(&held.events), held.users))
    }

    fn import_with<'a>(
        &'a self,
        dataset: &'a Dataset,
        options: ImportOptions,
        progress: Option<&'a Progress>,
    ) -> BoxFuture<'a, Result<ImportSummary>> {
        Box::pin(self.import_dataset(dataset, options, progress))
    }

    fn export<'a>(&'a self, slugs: &'a [String]) -> BoxFuture<'a, Result<Dataset>> {
        Box::pin(async move {
            let loaded = self
                .read(
                    |slug, _| {
                        let wanted =
                            slugs.is_empty() || slugs.iter().any(|s| s.eq_ignore_ascii_case(slug));
                        if wanted {
                            load::Read::Full
                        } else {
                            load::Read::Nothing
                        }
                    },
                    None,
                )
                .await?;
            Ok(Dataset {
                users: loaded.users,
                events: loaded.changed_events,
            })
        })
    }
}
