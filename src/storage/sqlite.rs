//! SQLite: the zero-setup store. WAL mode, so readers never wait for an
//! import and always see a consistent snapshot of it.

use std::collections::HashMap;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Row as _, SqliteConnection, SqlitePool};

use super::rows::{self, Kind, Row, Table, Value};
use super::{BoxFuture, Loaded, Store, StoreError};
use crate::model::{Dataset, Event};

/// Schema versions, applied in order and recorded in `schema_migrations`.
const MIGRATIONS: &[(i64, &str)] = &[(1, include_str!("migrations/sqlite/0001_schema.sql"))];

pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::Config(format!("bad SQLite URL {url:?}: {e}")))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(30))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .min_connections(1)
            .connect_with(options)
            .await
            .map_err(|e| StoreError::Unavailable(format!("cannot open {url}: {e}")))?;
        let store = SqliteStore { pool };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
            .execute(&mut *tx)
            .await?;
        let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM schema_migrations")
            .fetch_all(&mut *tx)
            .await?;
        for (version, script) in MIGRATIONS {
            if !applied.contains(version) {
                sqlx::raw_sql(script).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO schema_migrations (version) VALUES (?)")
                    .bind(version)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }
}

fn decode(row: &SqliteRow, table: &Table) -> Result<Row, StoreError> {
    table
        .columns
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| {
            Ok(match kind {
                Kind::Int => row
                    .try_get::<Option<i64>, _>(i)?
                    .map_or(Value::Null, Value::Int),
                Kind::Real => row
                    .try_get::<Option<f64>, _>(i)?
                    .map_or(Value::Null, Value::Real),
                Kind::Text => row
                    .try_get::<Option<String>, _>(i)?
                    .map_or(Value::Null, Value::Text),
            })
        })
        .collect()
}

fn bind<'q>(
    mut query: sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>,
    values: &'q [Value],
) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>> {
    for value in values {
        query = match value {
            Value::Null => query.bind(None::<i64>),
            Value::Int(x) => query.bind(*x),
            Value::Real(x) => query.bind(*x),
            Value::Text(x) => query.bind(x.as_str()),
        };
    }
    query
}

async fn select(
    conn: &mut SqliteConnection,
    table: &Table,
    event_id: Option<i64>,
) -> Result<Vec<Row>, StoreError> {
    let filter = if event_id.is_some() {
        "WHERE event_id = ?"
    } else {
        ""
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
        .map(|row| decode(row, table))
        .collect()
}

async fn insert(
    conn: &mut SqliteConnection,
    table: &Table,
    event_id: Option<i64>,
    rows: &[Row],
) -> Result<(), StoreError> {
    let (prefix_col, prefix_mark) = if event_id.is_some() {
        ("event_id, ", "?, ")
    } else {
        ("", "")
    };
    let marks = vec!["?"; table.columns.len()].join(", ");
    let sql = format!(
        "INSERT INTO {} ({prefix_col}{}) VALUES ({prefix_mark}{marks})",
        table.name,
        table.column_list()
    );
    for row in rows {
        let mut query = sqlx::query(&sql);
        if let Some(id) = event_id {
            query = query.bind(id);
        }
        bind(query, row).execute(&mut *conn).await?;
    }
    Ok(())
}

async fn load_users(conn: &mut SqliteConnection) -> Result<Vec<crate::model::User>, StoreError> {
    let token_rows = select(conn, &rows::USER_TOKENS, None).await?;
    let mut tokens = rows::tokens_by_user(&token_rows)?;
    select(conn, &rows::USERS, None)
        .await?
        .iter()
        .map(|row| {
            let code = match row.first() {
                Some(Value::Text(code)) => code.clone(),
                _ => String::new(),
            };
            rows::user_from_rows(row, tokens.remove(&code).unwrap_or_default())
        })
        .collect()
}

async fn load_event(
    conn: &mut SqliteConnection,
    id: i64,
    header: &Row,
) -> Result<Event, StoreError> {
    let mut tables = HashMap::new();
    for table in rows::EVENT_TABLES {
        tables.insert(table.name, select(conn, table, Some(id)).await?);
    }
    rows::event_from_rows(header, &tables)
}

/// (internal id, generation, header row) of every stored event.
async fn event_headers(conn: &mut SqliteConnection) -> Result<Vec<(i64, i64, Row)>, StoreError> {
    let sql = format!(
        "SELECT id, generation, {} FROM events ORDER BY id",
        rows::EVENTS.column_list()
    );
    let fetched = sqlx::query(&sql).fetch_all(&mut *conn).await?;
    fetched
        .iter()
        .map(|row| {
            let id: i64 = row.try_get(0)?;
            let generation: i64 = row.try_get(1)?;
            let mut header = Vec::new();
            for (i, (_, kind)) in rows::EVENTS.columns.iter().enumerate() {
                header.push(match kind {
                    Kind::Int => row
                        .try_get::<Option<i64>, _>(i + 2)?
                        .map_or(Value::Null, Value::Int),
                    Kind::Real => row
                        .try_get::<Option<f64>, _>(i + 2)?
                        .map_or(Value::Null, Value::Real),
                    Kind::Text => row
                        .try_get::<Option<String>, _>(i + 2)?
                        .map_or(Value::Null, Value::Text),
                });
            }
            Ok((id, generation, header))
        })
        .collect()
}

fn slug_of(header: &Row) -> String {
    match header.first() {
        Some(Value::Text(slug)) => slug.clone(),
        _ => String::new(),
    }
}

impl Store for SqliteStore {
    fn generation(&self) -> BoxFuture<'_, Result<i64, StoreError>> {
        Box::pin(async move {
            Ok(
                sqlx::query_scalar("SELECT value FROM meta WHERE key = 'generation'")
                    .fetch_one(&self.pool)
                    .await?,
            )
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
            // One read transaction: in WAL mode it sees one committed state.
            let mut tx = self.pool.begin().await?;
            let generation: i64 =
                sqlx::query_scalar("SELECT value FROM meta WHERE key = 'generation'")
                    .fetch_one(&mut *tx)
                    .await?;
            let users = load_users(&mut tx).await?;
            let mut loaded = Loaded {
                generation,
                users,
                ..Loaded::default()
            };
            for (id, event_generation, header) in event_headers(&mut tx).await? {
                let slug = slug_of(&header);
                if known.get(&slug) != Some(&event_generation) {
                    loaded
                        .changed_events
                        .push(load_event(&mut tx, id, &header).await?);
                }
                loaded.event_generations.push((slug, event_generation));
            }
            tx.commit().await?;
            Ok(loaded)
        })
    }

    fn import<'a>(&'a self, dataset: &'a Dataset) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            // BEGIN IMMEDIATE would be nicer, but a deferred transaction whose
            // first statement writes takes the write lock at once as well.
            let mut tx = self.pool.begin().await?;
            sqlx::query("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
                .execute(&mut *tx)
                .await?;
            let generation: i64 =
                sqlx::query_scalar("SELECT value FROM meta WHERE key = 'generation'")
                    .fetch_one(&mut *tx)
                    .await?;

            for user in &dataset.users {
                let (row, tokens) = rows::user_rows(user);
                sqlx::query("DELETE FROM user_tokens WHERE user_code = ?")
                    .bind(&user.code)
                    .execute(&mut *tx)
                    .await?;
                // Upsert keeps the code stable for events that reference it.
                let sql = format!(
                    "INSERT INTO users ({}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO UPDATE SET \
                     name = excluded.name, email = excluded.email, avatar = excluded.avatar, \
                     locale = excluded.locale, timezone = excluded.timezone, \
                     is_administrator = excluded.is_administrator",
                    rows::USERS.column_list()
                );
                bind(sqlx::query(&sql), &row).execute(&mut *tx).await?;
                for token in &tokens {
                    // A token moves to its new owner rather than failing the import.
                    sqlx::query("DELETE FROM user_tokens WHERE token_hash = ?")
                        .bind(match &token[0] {
                            Value::Text(hash) => hash.as_str(),
                            _ => "",
                        })
                        .execute(&mut *tx)
                        .await?;
                }
                insert(&mut tx, &rows::USER_TOKENS, None, &tokens).await?;
            }

            for event in &dataset.events {
                let old: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM events WHERE lower(slug) = lower(?)")
                        .bind(&event.slug)
                        .fetch_optional(&mut *tx)
                        .await?;
                if let Some(old) = old {
                    for table in rows::EVENT_TABLES.iter().rev() {
                        sqlx::query(&format!("DELETE FROM {} WHERE event_id = ?", table.name))
                            .bind(old)
                            .execute(&mut *tx)
                            .await?;
                    }
                    sqlx::query("DELETE FROM events WHERE id = ?")
                        .bind(old)
                        .execute(&mut *tx)
                        .await?;
                }
                let header = rows::event_row(event);
                let marks = vec!["?"; header.len()].join(", ");
                let sql = format!(
                    "INSERT INTO events (generation, {}) VALUES (?, {marks}) RETURNING id",
                    rows::EVENTS.column_list()
                );
                let id: i64 = bind(sqlx::query(&sql).bind(generation), &header)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get(0)?;
                let mut table_rows = rows::event_table_rows(event);
                for table in rows::EVENT_TABLES {
                    let rows = table_rows.remove(table.name).unwrap_or_default();
                    insert(&mut tx, table, Some(id), &rows).await?;
                }
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn export<'a>(&'a self, slugs: &'a [String]) -> BoxFuture<'a, Result<Dataset, StoreError>> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            let users = load_users(&mut tx).await?;
            let mut events = Vec::new();
            for (id, _, header) in event_headers(&mut tx).await? {
                let slug = slug_of(&header);
                if slugs.is_empty() || slugs.iter().any(|s| s.eq_ignore_ascii_case(&slug)) {
                    events.push(load_event(&mut tx, id, &header).await?);
                }
            }
            tx.commit().await?;
            Ok(Dataset { users, events })
        })
    }
}
