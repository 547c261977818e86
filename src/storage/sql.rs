//! The SQL store: runs what `rows` describes on any database sqlx's `Any`
//! driver reaches. Everything a dialect does differently (placeholders,
//! schema, connection setup, snapshot isolation) comes from its module,
//! `sqlite` or `postgres`, through [`Dialect`].

use std::collections::HashMap;

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::{Any, AnyConnection, AnyPool, Row as _};

use super::rows::{self, Kind, Row, Table, Value};
use super::{BoxFuture, Loaded, Progress, Store, StoreError};
use crate::model::{Dataset, Event, User};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The `n`-th (1-based) bind parameter.
    fn placeholder(self, n: usize) -> String {
        match self {
            Dialect::Sqlite => "?".to_string(),
            Dialect::Postgres => format!("${n}"),
        }
    }

    fn placeholders(self, from: usize, count: usize) -> String {
        (from..from + count)
            .map(|n| self.placeholder(n))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn migrations(self) -> &'static [(i64, &'static str)] {
        match self {
            Dialect::Sqlite => super::sqlite::MIGRATIONS,
            Dialect::Postgres => super::postgres::MIGRATIONS,
        }
    }

    /// Run first in a read transaction so that all its queries see one
    /// committed state.
    fn snapshot_statement(self) -> Option<&'static str> {
        match self {
            // A SQLite read transaction in WAL mode is a snapshot already.
            Dialect::Sqlite => None,
            Dialect::Postgres => Some("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"),
        }
    }
}

pub struct SqlStore {
    pool: AnyPool,
    dialect: Dialect,
}

/// Bind parameters per statement: below SQLite's historic limit of 999.
const MAX_PARAMETERS: usize = 990;

type AnyQuery<'q> = sqlx::query::Query<'q, Any, AnyArguments<'q>>;

fn bind_value<'q>(query: AnyQuery<'q>, value: &'q Value, kind: Kind) -> AnyQuery<'q> {
    match (value, kind) {
        // A NULL is typed by its column: PostgreSQL rejects an int8 NULL in a text column.
        (Value::Null, Kind::Int) => query.bind(None::<i64>),
        // sqlx 0.8's Any driver swaps the two float NULL kinds (an f64 NULL
        // reaches PostgreSQL as float4, and the next real value then fails
        // to bind); an f32 NULL arrives as the float8 NULL we mean.
        (Value::Null, Kind::Real) => query.bind(None::<f32>),
        (Value::Null, Kind::Text) => query.bind(None::<String>),
        (Value::Int(x), Kind::Real) => query.bind(*x as f64),
        (Value::Int(x), _) => query.bind(*x),
        (Value::Real(x), _) => query.bind(*x),
        (Value::Text(x), _) => query.bind(x.as_str()),
    }
}

fn bind_row<'q>(mut query: AnyQuery<'q>, row: &'q [Value], table: &Table) -> AnyQuery<'q> {
    for (value, (_, kind)) in row.iter().zip(table.columns) {
        query = bind_value(query, value, *kind);
    }
    query
}

fn decode_at(row: &AnyRow, index: usize, kind: Kind) -> Result<Value, StoreError> {
    Ok(match kind {
        Kind::Int => row
            .try_get::<Option<i64>, _>(index)?
            .map_or(Value::Null, Value::Int),
        Kind::Real => row
            .try_get::<Option<f64>, _>(index)?
            .map_or(Value::Null, Value::Real),
        Kind::Text => row
            .try_get::<Option<String>, _>(index)?
            .map_or(Value::Null, Value::Text),
    })
}

/// Columns `offset..` of a fetched row, decoded as `table` declares them.
fn decode(row: &AnyRow, table: &Table, offset: usize) -> Result<Row, StoreError> {
    table
        .columns
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| decode_at(row, i + offset, *kind))
        .collect()
}

fn text_at(row: &Row, index: usize) -> String {
    match row.get(index) {
        Some(Value::Text(text)) => text.clone(),
        _ => String::new(),
    }
}

impl SqlStore {
    pub async fn new(pool: AnyPool, dialect: Dialect) -> Result<Self, StoreError> {
        let store = SqlStore { pool, dialect };
        store.migrate().await?;
        Ok(store)
    }

    fn p(&self, n: usize) -> String {
        self.dialect.placeholder(n)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.dialect == Dialect::Postgres {
            // Replicas starting together must not migrate concurrently.
            sqlx::query("SELECT pg_advisory_xact_lock(7305416)")
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)")
            .execute(&mut *tx)
            .await?;
        let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM schema_migrations")
            .fetch_all(&mut *tx)
            .await?;
        for (version, script) in self.dialect.migrations() {
            if !applied.contains(version) {
                sqlx::raw_sql(script).execute(&mut *tx).await?;
                sqlx::query(&format!(
                    "INSERT INTO schema_migrations (version) VALUES ({})",
                    self.p(1)
                ))
                .bind(*version)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn select(
        &self,
        conn: &mut AnyConnection,
        table: &Table,
        event_id: Option<i64>,
    ) -> Result<Vec<Row>, StoreError> {
        let filter = match event_id {
            Some(_) => format!("WHERE event_id = {}", self.p(1)),
            None => String::new(),
        };
        let sql = format!(
            "SELECT {} FROM {} {filter} ORDER BY {}",
            table.column_list(),
            table.name,
            table.order_by
        );
        let mut query = sqlx::query(&sql);
        if let Some(id) = event_id {
            query = query.bind(id);
        }
        query
            .fetch_all(conn)
            .await?
            .iter()
            .map(|row| decode(row, table, 0))
            .collect()
    }

    /// Inserts rows with multi-row statements of at most `MAX_PARAMETERS`
    /// bind parameters each.
    async fn insert(
        &self,
        conn: &mut AnyConnection,
        table: &Table,
        event_id: Option<i64>,
        rows: &[Row],
    ) -> Result<(), StoreError> {
        let prefix_col = if event_id.is_some() { "event_id, " } else { "" };
        let width = table.columns.len() + usize::from(event_id.is_some());
        let per_statement = (MAX_PARAMETERS / width).max(1);
        for chunk in rows.chunks(per_statement) {
            let values: Vec<String> = (0..chunk.len())
                .map(|r| format!("({})", self.dialect.placeholders(r * width + 1, width)))
                .collect();
            let sql = format!(
                "INSERT INTO {} ({prefix_col}{}) VALUES {}",
                table.name,
                table.column_list(),
                values.join(", ")
            );
            let mut query = sqlx::query(&sql);
            for row in chunk {
                if let Some(id) = event_id {
                    query = query.bind(id);
                }
                query = bind_row(query, row, table);
            }
            query.execute(&mut *conn).await?;
        }
        Ok(())
    }

    async fn load_users(&self, conn: &mut AnyConnection) -> Result<Vec<User>, StoreError> {
        let token_rows = self.select(conn, &rows::USER_TOKENS, None).await?;
        let mut tokens = rows::tokens_by_user(&token_rows)?;
        self.select(conn, &rows::USERS, None)
            .await?
            .iter()
            .map(|row| {
                rows::user_from_rows(row, tokens.remove(&text_at(row, 0)).unwrap_or_default())
            })
            .collect()
    }

    async fn load_event(
        &self,
        conn: &mut AnyConnection,
        id: i64,
        header: &Row,
    ) -> Result<Event, StoreError> {
        let mut tables = HashMap::new();
        for table in rows::EVENT_TABLES {
            tables.insert(table.name, self.select(conn, table, Some(id)).await?);
        }
        rows::event_from_rows(header, &tables)
    }

    /// (internal id, generation, header row) of every stored event.
    async fn event_headers(
        &self,
        conn: &mut AnyConnection,
    ) -> Result<Vec<(i64, i64, Row)>, StoreError> {
        let sql = format!(
            "SELECT id, generation, {} FROM events ORDER BY id",
            rows::EVENTS.column_list()
        );
        sqlx::query(&sql)
            .fetch_all(conn)
            .await?
            .iter()
            .map(|row| {
                Ok((
                    row.try_get(0)?,
                    row.try_get(1)?,
                    decode(row, &rows::EVENTS, 2)?,
                ))
            })
            .collect()
    }

    async fn begin_snapshot(&self) -> Result<sqlx::Transaction<'_, Any>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(statement) = self.dialect.snapshot_statement() {
            sqlx::query(statement).execute(&mut *tx).await?;
        }
        Ok(tx)
    }

    async fn upsert_user(&self, conn: &mut AnyConnection, user: &User) -> Result<(), StoreError> {
        let (row, tokens) = rows::user_rows(user);
        // Upsert keeps the code stable for the events that reference it.
        let sql = format!(
            "INSERT INTO users ({}) VALUES ({}) ON CONFLICT (code) DO UPDATE SET \
             name = excluded.name, email = excluded.email, avatar = excluded.avatar, \
             locale = excluded.locale, timezone = excluded.timezone, \
             is_administrator = excluded.is_administrator",
            rows::USERS.column_list(),
            self.dialect.placeholders(1, row.len())
        );
        bind_row(sqlx::query(&sql), &row, &rows::USERS)
            .execute(&mut *conn)
            .await?;
        sqlx::query(&format!(
            "DELETE FROM user_tokens WHERE user_code = {}",
            self.p(1)
        ))
        .bind(&user.code)
        .execute(&mut *conn)
        .await?;
        for hash in &user.token_hashes {
            // A token given to another user now moves rather than failing the import.
            sqlx::query(&format!(
                "DELETE FROM user_tokens WHERE token_hash = {}",
                self.p(1)
            ))
            .bind(hash)
            .execute(&mut *conn)
            .await?;
        }
        self.insert(conn, &rows::USER_TOKENS, None, &tokens).await
    }

    async fn replace_event(
        &self,
        conn: &mut AnyConnection,
        event: &Event,
        mut table_rows: HashMap<&'static str, Vec<Row>>,
        generation: i64,
        mut written: impl FnMut(u64),
    ) -> Result<(), StoreError> {
        let old: Option<i64> = sqlx::query_scalar(&format!(
            "SELECT id FROM events WHERE lower(slug) = lower({})",
            self.p(1)
        ))
        .bind(&event.slug)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(old) = old {
            for table in rows::EVENT_TABLES.iter().rev() {
                sqlx::query(&format!(
                    "DELETE FROM {} WHERE event_id = {}",
                    table.name,
                    self.p(1)
                ))
                .bind(old)
                .execute(&mut *conn)
                .await?;
            }
            sqlx::query(&format!("DELETE FROM events WHERE id = {}", self.p(1)))
                .bind(old)
                .execute(&mut *conn)
                .await?;
        }
        let header = rows::event_row(event);
        let sql = format!(
            "INSERT INTO events (generation, {}) VALUES ({}, {}) RETURNING id",
            rows::EVENTS.column_list(),
            self.p(1),
            self.dialect.placeholders(2, header.len())
        );
        let id: i64 = bind_row(sqlx::query(&sql).bind(generation), &header, &rows::EVENTS)
            .fetch_one(&mut *conn)
            .await?
            .try_get(0)?;
        for table in rows::EVENT_TABLES {
            let rows = table_rows.remove(table.name).unwrap_or_default();
            // In chunks, so that progress moves through large tables too.
            for chunk in rows.chunks(2000) {
                self.insert(conn, table, Some(id), chunk).await?;
                written(chunk.len() as u64);
            }
        }
        Ok(())
    }
}

const GENERATION: &str = "SELECT value FROM meta WHERE key = 'generation'";

impl Store for SqlStore {
    fn generation(&self) -> BoxFuture<'_, Result<i64, StoreError>> {
        Box::pin(async move {
            match sqlx::query_scalar(GENERATION).fetch_one(&self.pool).await {
                Ok(generation) => Ok(generation),
                // A pooled connection may have died with a database restart:
                // one retry on a fresh connection hides that from the caller.
                Err(sqlx::Error::Io(_)) | Err(sqlx::Error::Protocol(_)) => {
                    Ok(sqlx::query_scalar(GENERATION).fetch_one(&self.pool).await?)
                }
                Err(err) => Err(err.into()),
            }
        })
    }

    fn event_count(&self) -> BoxFuture<'_, Result<i64, StoreError>> {
        Box::pin(async move {
            Ok(sqlx::query_scalar("SELECT count(*) FROM events")
                .fetch_one(&self.pool)
                .await?)
        })
    }

    fn load<'a>(
        &'a self,
        known: &'a HashMap<String, i64>,
    ) -> BoxFuture<'a, Result<Loaded, StoreError>> {
        Box::pin(async move {
            let mut tx = self.begin_snapshot().await?;
            let generation: i64 = sqlx::query_scalar(GENERATION).fetch_one(&mut *tx).await?;
            let users = self.load_users(&mut tx).await?;
            let mut loaded = Loaded {
                generation,
                users,
                ..Loaded::default()
            };
            for (id, event_generation, header) in self.event_headers(&mut tx).await? {
                let slug = text_at(&header, 0);
                if known.get(&slug) != Some(&event_generation) {
                    loaded
                        .changed_events
                        .push(self.load_event(&mut tx, id, &header).await?);
                }
                loaded.event_generations.push((slug, event_generation));
            }
            tx.commit().await?;
            Ok(loaded)
        })
    }

    fn import<'a>(
        &'a self,
        dataset: &'a Dataset,
        progress: Option<&'a Progress>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let event_rows: Vec<_> = dataset.events.iter().map(rows::event_table_rows).collect();
            let total = (dataset.users.len()
                + event_rows
                    .iter()
                    .flat_map(|tables| tables.values())
                    .map(Vec::len)
                    .sum::<usize>()) as u64;
            let mut done = 0u64;
            let mut report = |n: u64| {
                done += n;
                if let Some(progress) = progress {
                    progress(done, total);
                }
            };
            let mut tx = self.pool.begin().await?;
            // Taking the generation row first serialises concurrent imports.
            sqlx::query("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
                .execute(&mut *tx)
                .await?;
            let generation: i64 = sqlx::query_scalar(GENERATION).fetch_one(&mut *tx).await?;
            for user in &dataset.users {
                self.upsert_user(&mut tx, user).await?;
                report(1);
            }
            for (event, tables) in dataset.events.iter().zip(event_rows) {
                self.replace_event(&mut tx, event, tables, generation, &mut report)
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn export<'a>(&'a self, slugs: &'a [String]) -> BoxFuture<'a, Result<Dataset, StoreError>> {
        Box::pin(async move {
            let mut tx = self.begin_snapshot().await?;
            let users = self.load_users(&mut tx).await?;
            let mut events = Vec::new();
            for (id, _, header) in self.event_headers(&mut tx).await? {
                let slug = text_at(&header, 0);
                if slugs.is_empty() || slugs.iter().any(|s| s.eq_ignore_ascii_case(&slug)) {
                    events.push(self.load_event(&mut tx, id, &header).await?);
                }
            }
            tx.commit().await?;
            Ok(Dataset { users, events })
        })
    }
}
