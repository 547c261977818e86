//! The change feed as it is stored and served: what changed (`Change`),
//! for whom (`Audience`), one generation of it (`FeedItem`), its stored
//! form (the changed objects once per event and generation, two bits per
//! object for each audience, deflated) and the log of it a catalog holds
//! (`FeedLog`). What goes into it is `feed`'s rule.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::model::{ArcStr, FeedKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Created,
    Updated,
    Deleted,
}

/// What identifies an object in its list: a code where the API has one
/// (submissions, talks, speakers), else an id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectKey {
    /// Shared with the event's data: building a view allocates no string.
    Code(ArcStr),
    Id(i64),
}

/// One object that changed, as the feed shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Change {
    pub kind: FeedKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    pub action: Action,
}

/// Who a feed is for: callers of one viewer class (`Access::viewer_class`)
/// see the same lists, so they share a feed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Audience {
    /// Anonymous callers and users without a role in the event.
    Public,
    /// Organisers who speak in none of the event's submissions.
    Organisers,
    /// A reviewer, or an organiser who is also a speaker.
    User(String),
}

impl Audience {
    /// The stored form: `public`, `organisers`, `user:CODE`.
    pub fn key(&self) -> String {
        match self {
            Audience::Public => "public".into(),
            Audience::Organisers => "organisers".into(),
            Audience::User(code) => format!("user:{code}"),
        }
    }
}

/// One generation of a feed, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FeedItem {
    pub generation: i64,
    /// When the import committed (RFC 3339, UTC).
    pub at: String,
    pub changes: Vec<Change>,
}

// ---------------------------------------------------------------------------
// Stored form. An import that creates a 20,000-submission event changes
// some 220,000 objects for each of its 60-odd audiences: listed per
// audience that was 640 MB of JSON. Instead, each event's generation
// stores its changed objects once (the "universe", in order), and each
// audience two bits per object of it (none, created, updated, deleted),
// both deflated: about a megabyte for the same import.

pub(super) const NONE: u8 = 0;

pub(super) fn action_code(action: Action) -> u8 {
    match action {
        Action::Created => 1,
        Action::Updated => 2,
        Action::Deleted => 3,
    }
}

fn action_of(code: u8) -> Option<Action> {
    match code {
        1 => Some(Action::Created),
        2 => Some(Action::Updated),
        3 => Some(Action::Deleted),
        _ => None,
    }
}

pub(super) fn deflate(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

fn inflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| format!("not deflate data: {e}"))?;
    Ok(out)
}

/// One event's generation, encoded: its changed objects (deflated JSON)
/// and each audience's actions on them (deflated, two bits per object).
#[derive(Debug)]
pub struct Encoded {
    pub universe: Vec<u8>,
    pub audiences: Vec<(String, Vec<u8>)>,
}

/// The stored form of a universe: `[["kind", "code" or id], ...]`, written
/// straight into one buffer (a new 100,000-submission event has a million
/// objects: a JSON value for each took a noticeable part of its import).
pub(super) fn universe_json<'a>(keys: impl Iterator<Item = &'a (FeedKind, ObjectKey)>) -> Vec<u8> {
    let mut out = Vec::new();
    out.push(b'[');
    for (n, (kind, key)) in keys.enumerate() {
        if n > 0 {
            out.push(b',');
        }
        // Plain strings and integers always serialise.
        let _ = match key {
            ObjectKey::Code(code) => {
                serde_json::to_writer(&mut out, &(kind.as_str(), code.as_str()))
            }
            ObjectKey::Id(id) => serde_json::to_writer(&mut out, &(kind.as_str(), id)),
        };
    }
    out.push(b']');
    out
}

/// Builds an `Encoded` audience by audience.
#[derive(Default)]
pub(super) struct Encoder {
    /// Objects in the order first met; sorted by `finish`.
    universe: Vec<(FeedKind, ObjectKey)>,
    index: rustc_hash::FxHashMap<(FeedKind, ObjectKey), u32>,
    /// Each audience's actions, two bits per object by that order.
    audiences: Vec<(String, Vec<u8>)>,
}

impl Encoder {
    pub(super) fn add(&mut self, audience: &Audience, changes: &[((FeedKind, ObjectKey), Action)]) {
        if changes.is_empty() {
            return;
        }
        let mut packed = Vec::new();
        for (key, action) in changes {
            let universe = &mut self.universe;
            let i = *self.index.entry(key.clone()).or_insert_with(|| {
                universe.push(key.clone());
                (universe.len() - 1) as u32
            }) as usize;
            if packed.len() <= i / 4 {
                packed.resize(i / 4 + 1, NONE);
            }
            packed[i / 4] |= action_code(*action) << ((i % 4) * 2);
        }
        self.audiences.push((audience.key(), packed));
    }

    /// None when no audience saw a change.
    pub(super) fn finish(self) -> Option<Encoded> {
        if self.audiences.is_empty() {
            return None;
        }
        let mut order: Vec<u32> = (0..self.universe.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| self.universe[a as usize].cmp(&self.universe[b as usize]));
        let mut rank = vec![0u32; order.len()];
        for (new, &old) in order.iter().enumerate() {
            rank[old as usize] = new as u32;
        }
        let universe = deflate(&universe_json(
            order.iter().map(|&i| &self.universe[i as usize]),
        ));
        let size = self.universe.len().div_ceil(4);
        let audiences = self
            .audiences
            .into_iter()
            .map(|(audience, packed)| {
                let mut sorted = vec![NONE; size];
                for (byte, &bits) in packed.iter().enumerate() {
                    for slot in 0..4 {
                        let code = (bits >> (slot * 2)) & 3;
                        if code != NONE {
                            let i = rank[byte * 4 + slot] as usize;
                            sorted[i / 4] |= code << ((i % 4) * 2);
                        }
                    }
                }
                (audience, deflate(&sorted))
            })
            .collect();
        Some(Encoded {
            universe,
            audiences,
        })
    }
}

/// The stored rows of one event's generation for these audiences' changes.
pub fn encode(per_audience: &[(Audience, Vec<Change>)]) -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let mut encoder = Encoder::default();
    for (audience, changes) in per_audience {
        let keys: Vec<((FeedKind, ObjectKey), Action)> =
            changes.iter().map(|c| (key_of(c), c.action)).collect();
        encoder.add(audience, &keys);
    }
    match encoder.finish() {
        Some(encoded) => (encoded.universe, encoded.audiences),
        None => (
            deflate(b"[]"),
            per_audience
                .iter()
                .map(|(a, _)| (a.key(), deflate(&[])))
                .collect(),
        ),
    }
}

fn key_of(change: &Change) -> (FeedKind, ObjectKey) {
    let key = match (&change.code, change.id) {
        (Some(code), _) => ObjectKey::Code(ArcStr::from(code.as_str())),
        (None, id) => ObjectKey::Id(id.unwrap_or_default()),
    };
    (change.kind, key)
}

/// A generation's changed objects, as stored (deflated JSON); decoded when
/// an item that needs it is shown, not when the feed is loaded.
#[derive(Debug)]
pub struct Universe(Box<[u8]>);

impl Universe {
    fn decode(&self) -> Result<Vec<(FeedKind, ObjectKey)>, String> {
        let listed: Vec<(String, serde_json::Value)> =
            serde_json::from_slice(&inflate(&self.0)?).map_err(|e| e.to_string())?;
        listed
            .into_iter()
            .map(|(kind, key)| {
                let kind = FeedKind::from_name(&kind).ok_or(format!("unknown kind {kind}"))?;
                let key = match key {
                    serde_json::Value::String(code) => ObjectKey::Code(ArcStr::from(code)),
                    other => ObjectKey::Id(other.as_i64().ok_or("a key is a code or an id")?),
                };
                Ok((kind, key))
            })
            .collect()
    }
}

/// One audience's generation, held compressed; decoded when shown.
#[derive(Debug)]
pub struct FeedEntry {
    pub generation: i64,
    pub at: String,
    universe: std::sync::Arc<Universe>,
    actions: Box<[u8]>,
    /// Small items are decoded once and kept.
    decoded: std::sync::OnceLock<std::sync::Arc<FeedItem>>,
}

/// Items with at most this many changes stay decoded in memory.
const KEEP_DECODED: usize = 256;

impl FeedEntry {
    /// The item, decoded now: loading the feed only groups its rows, so
    /// that a fresh server answers its first request without decoding the
    /// feed's history. A stored row that does not decode was not written
    /// by this program: logged as an error, and shown without changes.
    pub fn item(&self) -> std::sync::Arc<FeedItem> {
        if let Some(item) = self.decoded.get() {
            return item.clone();
        }
        let item = std::sync::Arc::new(self.decode().unwrap_or_else(|e| {
            tracing::error!(
                generation = self.generation,
                "a stored feed row does not decode: {e}"
            );
            FeedItem {
                generation: self.generation,
                at: self.at.clone(),
                changes: Vec::new(),
            }
        }));
        if item.changes.len() <= KEEP_DECODED {
            let _ = self.decoded.set(item.clone());
        }
        item
    }

    fn decode(&self) -> Result<FeedItem, String> {
        let universe = self.universe.decode()?;
        let packed = inflate(&self.actions)?;
        if packed.len() != universe.len().div_ceil(4) {
            return Err("actions do not match the changed objects".into());
        }
        let changes = universe
            .into_iter()
            .enumerate()
            .filter_map(|(i, (kind, key))| {
                let action = action_of((packed[i / 4] >> ((i % 4) * 2)) & 3)?;
                let (code, id) = match key {
                    ObjectKey::Code(code) => (Some(code.to_string()), None),
                    ObjectKey::Id(id) => (None, Some(id)),
                };
                Some(Change {
                    kind,
                    code,
                    id,
                    action,
                })
            })
            .collect();
        Ok(FeedItem {
            generation: self.generation,
            at: self.at.clone(),
            changes,
        })
    }
}

/// The audience key of a generation's universe row.
pub const UNIVERSE: &str = "*";

/// The stored feeds, as a serving snapshot holds them: for each event (by
/// lower-case slug) and audience, its generations in order. Shared between
/// snapshots: a reload appends what is new (`extend`).
#[derive(Debug, Clone, Default)]
pub struct FeedLog {
    /// Complete for every generation after this one.
    pub from: i64,
    /// Holds the generations up to this one.
    pub upto: i64,
    feeds:
        std::collections::HashMap<(String, String), std::sync::Arc<Vec<std::sync::Arc<FeedEntry>>>>,
}

impl FeedLog {
    /// This log with `rows` (of generations after `upto`, up to `upto`, in
    /// order of generation, event and audience: each universe first) added
    /// and what is older than `from` dropped. The rows are kept as stored
    /// and decoded when shown (`FeedEntry::item`): a cold start's first
    /// answer does not wait for the feed's history. A row without its
    /// generation's universe before it was not written by this program: an
    /// error, never skipped.
    pub fn extend(&self, from: i64, upto: i64, rows: Vec<ChangeRow>) -> Result<FeedLog, String> {
        let mut log = self.clone();
        log.from = from.max(self.from);
        log.upto = upto.max(self.upto);
        let mut universe: Option<(String, i64, std::sync::Arc<Universe>)> = None;
        for row in rows {
            if row.audience == UNIVERSE {
                let stored = Universe(row.body.into_boxed_slice());
                universe = Some((row.event, row.generation, std::sync::Arc::new(stored)));
                continue;
            }
            let shared = match &universe {
                Some((event, generation, u))
                    if *event == row.event && *generation == row.generation =>
                {
                    u.clone()
                }
                _ => {
                    return Err(format!(
                        "feed row of {} generation {} for {}: no changed objects stored before it",
                        row.event, row.generation, row.audience
                    ))
                }
            };
            let entry = FeedEntry {
                generation: row.generation,
                at: row.at,
                universe: shared,
                actions: row.body.into_boxed_slice(),
                decoded: std::sync::OnceLock::new(),
            };
            let feed = log.feeds.entry((row.event, row.audience)).or_default();
            std::sync::Arc::make_mut(feed).push(std::sync::Arc::new(entry));
        }
        let from = log.from;
        log.feeds.retain(|_, feed| {
            if feed.first().is_some_and(|item| item.generation <= from) {
                std::sync::Arc::make_mut(feed).retain(|item| item.generation > from);
            }
            !feed.is_empty()
        });
        Ok(log)
    }

    /// The generations of `event`'s feed for `audience` after `since`.
    pub fn after(
        &self,
        event: &str,
        audience: &Audience,
        since: i64,
    ) -> &[std::sync::Arc<FeedEntry>] {
        let Some(feed) = self.feeds.get(&(event.to_lowercase(), audience.key())) else {
            return &[];
        };
        let start = feed.partition_point(|item| item.generation <= since);
        &feed[start..]
    }
}

/// One audience's changes in one event at one generation: a row of the
/// change feed (`domain::feed`), written by the import that made it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ChangeRow {
    /// The event's slug, in lower case.
    pub event: String,
    /// `public`, `organisers` or `user:CODE` (`domain::feed::Audience::key`),
    /// or `*` for the generation's changed objects (`domain::feed::encode`).
    pub audience: String,
    pub generation: i64,
    /// When the import committed: RFC 3339, UTC, fixed width.
    pub at: String,
    /// Deflated: the changed objects (`*`), or the audience's actions on
    /// them (`domain::feed::encode`).
    pub body: Vec<u8>,
}
