//! PostgreSQL: the shared store for many stateless replicas. Readers load
//! in REPEATABLE READ transactions, so a replica sees an import whole or not
//! at all; imports lock the `store` row first, so concurrent imports queue.
//! A statement timeout and a bounded pool wait keep requests from hanging
//! when the database is slow or gone.

use std::str::FromStr;

use futures_util::TryStreamExt;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Executor, PgPool, Row};

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

pub struct PgStore {
    pool: PgPool,
}

/// A transaction of this store, read or write.
struct Tx(sqlx::Transaction<'static, sqlx::Postgres>);

impl PgStore {
    pub async fn open(url: &str, settings: &DbSettings) -> Result<Self> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::Config(format!("bad PostgreSQL URL: {e}")))?
            // Reading a whole large event takes seconds by design: not a warning.
            .log_slow_statements(log::LevelFilter::Debug, std::time::Duration::from_secs(1));
        let statement_ms = settings.statement_timeout.as_millis();
        let pool = PgPoolOptions::new()
            .max_connections(settings.pool_size)
            .min_connections(0)
            .acquire_timeout(settings.connect_timeout)
            // A dead pooled connection costs one failed query, which the
            // caller retries, rather than a ping before every query.
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
        let old: Option<i32> = sqlx::query_scalar(
            "SELECT 1 FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_name = 'schema_migrations'",
        )
        .fetch_optional(&pool)
        .await?;
        if old.is_some() {
            return Err(StoreError::Config(OLD_SCHEMA.to_string()));
        }
        // sqlx takes an advisory lock, so replicas starting together do
        // not migrate at the same time.
        sqlx::migrate!("src/storage/migrations/postgres")
            .run(&pool)
            .await?;
        Ok(PgStore { pool })
    }

    async fn read(
        &self,
        wanted: impl Fn(&str, EventVersion) -> load::Read + Send,
        users_since: Option<i64>,
    ) -> Result<Loaded> {
        let mut tx = Tx(self.pool.begin().await?);
        tx.0.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .await?;
        let loaded = load::run(&mut tx, wanted, users_since).await?;
        tx.0.commit().await?;
        Ok(loaded)
    }

    async fn import_dataset(
        &self,
        dataset: &Dataset,
        options: ImportOptions,
        progress: Option<&Progress>,
    ) -> Result<ImportSummary> {
        let mut tx = Tx(self.pool.begin().await?);
        // One import at a time: the next waits here for this one's commit.
        tx.0.execute("SELECT 1 FROM store WHERE id = 1 FOR UPDATE")
            .await?;
        let summary = import::run(&mut tx, dataset, options, progress).await?;
        tx.0.commit().await?;
        Ok(summary)
    }
}

const VERSION: &str = "SELECT identity, generation FROM store WHERE id = 1";

/// A value in COPY's text format: backslash, tab, newline and carriage
/// return escaped.
fn copy_text(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

impl ReadTx for Tx {
    async fn version(&mut self) -> Result<DataVersion> {
        Ok(sqlx::query_as(VERSION).fetch_one(&mut *self.0).await?)
    }

    async fn events(&mut self) -> Result<Vec<EventRow>> {
        Ok(sqlx::query_as(
            "SELECT id, slug, generation, body::text AS body, record_counts \
             FROM events ORDER BY slug",
        )
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn users(&mut self, since: i64) -> Result<Vec<User>> {
        let mut rows =
            sqlx::query("SELECT body::text AS body FROM users WHERE generation > $1 ORDER BY code")
                .bind(since)
                .fetch(&mut *self.0);
        let mut users = Vec::new();
        while let Some(row) = rows.try_next().await? {
            users.push(records::parse_user(row.try_get("body")?)?);
        }
        Ok(users)
    }

    async fn users_by_code(&mut self, codes: &[&str]) -> Result<Vec<User>> {
        let mut rows = sqlx::query("SELECT body::text AS body FROM users WHERE code = ANY($1)")
            .bind(codes)
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
            "SELECT event, kind, position, body::text AS body FROM records WHERE event = ANY($1)",
        )
        .bind(ids)
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
        let kinds: Vec<&str> = keys.iter().map(|(kind, _)| kind.as_str()).collect();
        let names: Vec<&str> = keys.iter().map(|(_, key)| *key).collect();
        // Each pair looked up by the primary key (event, kind, key).
        Ok(sqlx::query_as(
            "SELECT r.kind, r.key, r.position, r.body::text AS body \
             FROM UNNEST($2::text[], $3::text[]) AS k (kind, key) \
             JOIN records AS r ON r.event = $1 AND r.kind = k.kind AND r.key = k.key",
        )
        .bind(event)
        .bind(kinds)
        .bind(names)
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn records_of_kinds(&mut self, event: i64, kinds: &[Kind]) -> Result<Vec<KeyedRow>> {
        let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        Ok(sqlx::query_as(
            "SELECT kind, key, position, body::text AS body FROM records \
             WHERE event = $1 AND kind = ANY($2::text[])",
        )
        .bind(event)
        .bind(kinds)
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn changed_records(&mut self, event: i64, since: i64) -> Result<Vec<ChangedRow>> {
        Ok(sqlx::query_as(
            "SELECT kind, key, position, \
             CASE WHEN body_generation > $2 THEN body::text END AS body \
             FROM records WHERE event = $1 AND generation > $2",
        )
        .bind(event)
        .bind(since)
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn deleted_records(&mut self, event: i64, since: i64) -> Result<Vec<DeletedRow>> {
        Ok(sqlx::query_as(
            "SELECT kind, key FROM deleted_records WHERE event = $1 AND generation > $2",
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
            "SELECT kind, COUNT(*) AS count FROM records WHERE event = $1 GROUP BY kind",
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
            "SELECT COALESCE(json_agg(json_build_array(event, kind, key, position, hash))::text, '[]') \
             FROM records WHERE event = ANY($1)",
        )
        .bind(ids)
        .fetch_one(&mut *self.0)
        .await?;
        StoredRecord::from_json(&json)
    }

    async fn delete_users(&mut self, users: &[UserWrite]) -> Result<()> {
        sqlx::query("DELETE FROM users WHERE code = ANY($1)")
            .bind(users.iter().map(|u| u.code.as_str()).collect::<Vec<_>>())
            .execute(&mut *self.0)
            .await?;
        Ok(())
    }

    async fn insert_users(&mut self, users: &[UserWrite], generation: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO users (code, email_lower, hash, body, generation) \
             SELECT code, email_lower, hash, body::json, $5 \
             FROM UNNEST($1::text[], $2::text[], $3::bigint[], $4::text[]) \
             AS u (code, email_lower, hash, body)",
        )
        .bind(users.iter().map(|u| u.code.as_str()).collect::<Vec<_>>())
        .bind(
            users
                .iter()
                .map(|u| u.email_lower.as_str())
                .collect::<Vec<_>>(),
        )
        .bind(users.iter().map(|u| u.hash).collect::<Vec<_>>())
        .bind(users.iter().map(|u| u.body.as_str()).collect::<Vec<_>>())
        .bind(generation)
        .execute(&mut *self.0)
        .await
        .map_err(import::unique_violation)?;
        Ok(())
    }

    async fn write_event(&mut self, write: &EventWrite, generation: i64) -> Result<i64> {
        Ok(match write.stored_id {
            Some(id) => {
                sqlx::query(
                    "UPDATE events SET slug = $1, slug_lower = lower($1), generation = $2, \
                     hash = $3, body = $4::json, record_counts = COALESCE($6, record_counts) \
                     WHERE id = $5",
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
                     VALUES ($1, lower($1), $2, $3, $4::json, $5) RETURNING id",
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
        let kinds: Vec<&str> = records.iter().map(|(kind, _)| kind.as_str()).collect();
        let keys: Vec<&str> = records.iter().map(|(_, key)| key.as_str()).collect();
        sqlx::query(
            "DELETE FROM records AS r USING UNNEST($2::text[], $3::text[]) AS d (kind, key) \
             WHERE r.event = $1 AND r.kind = d.kind AND r.key = d.key",
        )
        .bind(event)
        .bind(&kinds)
        .bind(&keys)
        .execute(&mut *self.0)
        .await?;
        sqlx::query(
            "INSERT INTO deleted_records (event, kind, key, generation) \
             SELECT $1, kind, key, $4 FROM UNNEST($2::text[], $3::text[]) AS d (kind, key) \
             ON CONFLICT (event, kind, key) DO UPDATE SET generation = excluded.generation",
        )
        .bind(event)
        .bind(&kinds)
        .bind(&keys)
        .bind(generation)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn move_records(
        &mut self,
        event: i64,
        records: &[(Kind, String, i64)],
        generation: i64,
    ) -> Result<()> {
        sqlx::query(
            "UPDATE records SET position = m.position, generation = $5 \
             FROM UNNEST($2::text[], $3::text[], $4::bigint[]) AS m (kind, key, position) \
             WHERE records.event = $1 AND records.kind = m.kind AND records.key = m.key",
        )
        .bind(event)
        .bind(
            records
                .iter()
                .map(|(kind, _, _)| kind.as_str())
                .collect::<Vec<_>>(),
        )
        .bind(
            records
                .iter()
                .map(|(_, key, _)| key.as_str())
                .collect::<Vec<_>>(),
        )
        .bind(
            records
                .iter()
                .map(|(_, _, position)| *position)
                .collect::<Vec<_>>(),
        )
        .bind(generation)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    /// COPY: several times faster than INSERT for a whole event.
    async fn insert_records(
        &mut self,
        event: i64,
        records: &[Record],
        generation: i64,
    ) -> Result<()> {
        let mut data = String::with_capacity(records.iter().map(|r| r.body.len() + 80).sum());
        for record in records {
            use std::fmt::Write;
            let _ = write!(data, "{event}\t{}\t", record.kind.as_str());
            copy_text(&mut data, &record.key);
            let _ = write!(data, "\t{}\t{}\t", record.position, record.hash);
            copy_text(&mut data, &record.body);
            let _ = writeln!(data, "\t{generation}\t{generation}");
        }
        let mut copy = self
            .0
            .copy_in_raw(
                "COPY records (event, kind, key, position, hash, body, generation, \
                 body_generation) FROM STDIN",
            )
            .await?;
        copy.send(data.into_bytes()).await?;
        copy.finish().await?;
        Ok(())
    }

    async fn update_records(
        &mut self,
        event: i64,
        records: &[Record],
        generation: i64,
    ) -> Result<()> {
        sqlx::query(
            "UPDATE records SET position = u.position, hash = u.hash, body = u.body::json, \
             generation = $7, body_generation = $7 \
             FROM UNNEST($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[]) \
             AS u (kind, key, position, hash, body) \
             WHERE records.event = $1 AND records.kind = u.kind AND records.key = u.key",
        )
        .bind(event)
        .bind(records.iter().map(|r| r.kind.as_str()).collect::<Vec<_>>())
        .bind(records.iter().map(|r| r.key.as_str()).collect::<Vec<_>>())
        .bind(records.iter().map(|r| r.position).collect::<Vec<_>>())
        .bind(records.iter().map(|r| r.hash).collect::<Vec<_>>())
        .bind(records.iter().map(|r| r.body.as_str()).collect::<Vec<_>>())
        .bind(generation)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn delete_events(&mut self, ids: &[i64]) -> Result<u64> {
        let records = sqlx::query("DELETE FROM records WHERE event = ANY($1)")
            .bind(ids)
            .execute(&mut *self.0)
            .await?
            .rows_affected();
        sqlx::query("DELETE FROM deleted_records WHERE event = ANY($1)")
            .bind(ids)
            .execute(&mut *self.0)
            .await?;
        let events = sqlx::query("DELETE FROM events WHERE id = ANY($1)")
            .bind(ids)
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
            "UPDATE events SET import_digest = $1 WHERE slug_lower = ANY($2) \
             AND import_digest IS DISTINCT FROM $1",
        )
        .bind(digest)
        .bind(slugs)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn set_generation(&mut self, generation: i64) -> Result<()> {
        sqlx::query("UPDATE store SET generation = $1 WHERE id = 1")
            .bind(generation)
            .execute(&mut *self.0)
            .await?;
        Ok(())
    }

    async fn insert_changes(&mut self, rows: &[ChangeRow]) -> Result<()> {
        sqlx::query(
            "INSERT INTO changes (event, audience, generation, at, body) \
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::bigint[], $4::text[], $5::bytea[])",
        )
        .bind(rows.iter().map(|r| r.event.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|r| r.audience.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|r| r.generation).collect::<Vec<_>>())
        .bind(rows.iter().map(|r| r.at.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|r| r.body.as_slice()).collect::<Vec<_>>())
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn prune_changes(&mut self, generation: i64, at: &str) -> Result<()> {
        let last: Option<i64> = sqlx::query_scalar(
            "SELECT MAX(generation) FROM changes WHERE generation <= $1 AND at < $2",
        )
        .bind(generation)
        .bind(at)
        .fetch_one(&mut *self.0)
        .await?;
        if let Some(last) = last {
            sqlx::query("DELETE FROM changes WHERE generation <= $1")
                .bind(last)
                .execute(&mut *self.0)
                .await?;
            sqlx::query("UPDATE store SET feed_from = GREATEST(feed_from, $1) WHERE id = 1")
                .bind(last)
                .execute(&mut *self.0)
                .await?;
        }
        Ok(())
    }
}

impl Store for PgStore {
    fn webhook_lease<'a>(
        &'a self,
        holder: &'a str,
        now: i64,
        ttl: i64,
    ) -> BoxFuture<'a, Result<bool>> {
        Box::pin(async move {
            let pool = self.pool.clone();
            sqlx::query(
                "INSERT INTO webhook_lease (id, holder, expires_at) VALUES (1, $1, $3) \
                 ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at \
                 WHERE webhook_lease.holder = excluded.holder OR webhook_lease.expires_at < $2",
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
            let pool = self.pool.clone();
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
            let pool = self.pool.clone();
            sqlx::query(
                "INSERT INTO webhook_cursors \
                 (subscription, generation, attempts, first_failure, next_attempt, ended) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (subscription) DO UPDATE SET \
                 generation = GREATEST(webhook_cursors.generation, excluded.generation), \
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
            let mut tx = self.pool.begin().await?;
            let feed_from = sqlx::query_scalar("SELECT feed_from FROM store WHERE id = 1")
                .fetch_one(&mut *tx)
                .await?;
            let rows = sqlx::query_as(
                "SELECT event, audience, generation, at, body FROM changes \
                 WHERE generation > $1 AND generation <= $2 ORDER BY generation, event, audience",
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
        Box::pin(async move { Ok(sqlx::query_as(VERSION).fetch_one(&self.pool).await?) })
    }

    fn unchanged_import(&self, digest: u128) -> BoxFuture<'_, Result<Option<i64>>> {
        Box::pin(async move {
            // One statement: the generation and the digests of one state.
            let rows: Vec<(i64, Option<String>)> = sqlx::query_as(
                "SELECT (SELECT generation FROM store WHERE id = 1), import_digest FROM events",
            )
            .fetch_all(&self.pool)
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
                .fetch_optional(&self.pool)
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
                "INSERT INTO import_outline (id, digest, outline, witnesses) VALUES (1, $1, $2, $3) \
                 ON CONFLICT (id) DO UPDATE SET digest = excluded.digest, \
                 outline = excluded.outline, witnesses = excluded.witnesses",
            )
            .bind(format!("{digest:032x}"))
            .bind(outline)
            .bind(witnesses)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn import_edits<'a>(
        &'a self,
        edits: &'a Edits,
    ) -> BoxFuture<'a, Result<Option<ImportSummary>>> {
        Box::pin(async move {
            let mut tx = Tx(self.pool.begin().await?);
            // One import at a time, as `import_dataset`.
            tx.0.execute("SELECT 1 FROM store WHERE id = 1 FOR UPDATE")
                .await?;
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
                .fetch_one(&self.pool)
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
