//! Which stored state a snapshot, an event or a cached answer belongs to:
//! what storage reports and everything above it compares.

/// Which state of which database: a database replaced by another (a new
/// SQLite file, a restored PostgreSQL) has another identity, even where the
/// generation happens to be the same.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, sqlx::FromRow)]
pub struct DataVersion {
    pub identity: String,
    pub generation: i64,
}

/// Which stored event, as of which write: a replica that holds an event at
/// one version can ask for the changes since (same id), where an event
/// deleted and made again under its slug has another id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EventVersion {
    pub id: i64,
    /// The generation the event was last written in.
    pub generation: i64,
}
