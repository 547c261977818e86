//! The small structural tables of the demo: submission types, tracks,
//! rooms and tags, the states and their shares, the weights of counts and
//! scores, and the shape of codes and conference days. (The long word
//! lists are data: see `words`; so are the tracks, rooms and tags, read
//! here from `data/` too.)

use std::sync::LazyLock;

use serde::Deserialize;

use super::words::parse_json;

/// Submission types with their German name and default duration.
pub(super) const SUBMISSION_TYPES: [(&str, &str, i64); 3] = [
    ("Talk", "Vortrag", 30),
    ("Workshop", "Workshop", 90),
    ("Lightning talk", "Kurzvortrag", 10),
];
pub(super) const TALK: usize = 0;
pub(super) const WORKSHOP: usize = 1;
/// Share of talks, workshops and lightning talks.
pub(super) const TYPE_WEIGHTS: [(usize, u32); 3] = [(0, 65), (1, 15), (2, 20)];
/// Durations chosen instead of the type's default, per type.
pub(super) const OTHER_DURATIONS: [&[i64]; 3] = [&[20, 40, 45], &[60, 120, 180], &[5, 15]];

/// A track (`data/tracks.json`).
#[derive(Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TrackRow {
    pub(super) en: &'static str,
    /// `None`: the organisers only named it in English.
    #[serde(borrow)]
    pub(super) de: Option<&'static str>,
    pub(super) color: &'static str,
}

/// A room (`data/rooms.json`), in the order rooms are added.
#[derive(Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RoomRow {
    pub(super) en: &'static str,
    pub(super) de: &'static str,
    pub(super) capacity: i64,
}

/// A room's description (`data/room_descriptions.json`), taken in turn.
#[derive(Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RoomDescription {
    pub(super) en: &'static str,
    pub(super) de: &'static str,
}

/// A tag (`data/tags.json`).
#[derive(Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TagRow {
    pub(super) tag: &'static str,
    pub(super) description: &'static str,
    pub(super) color: &'static str,
    pub(super) public: bool,
}

/// The tags of `data/tags.json`: some of `sampled` per event, and `always`
/// (the dotted one).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "'de: 'static"))]
pub(super) struct Tags {
    pub(super) sampled: Vec<TagRow>,
    pub(super) always: TagRow,
}

pub(super) static TRACKS: LazyLock<Vec<TrackRow>> =
    LazyLock::new(|| parse_json("tracks.json", include_str!("data/tracks.json")));

/// As many as an event can have rooms.
pub(super) static ROOMS: LazyLock<Vec<RoomRow>> =
    LazyLock::new(|| parse_json("rooms.json", include_str!("data/rooms.json")));

pub(super) static ROOM_DESCRIPTIONS: LazyLock<Vec<RoomDescription>> = LazyLock::new(|| {
    parse_json(
        "room_descriptions.json",
        include_str!("data/room_descriptions.json"),
    )
});

pub(super) static TAGS: LazyLock<Tags> =
    LazyLock::new(|| parse_json("tags.json", include_str!("data/tags.json")));

/// The first submissions of every event take these states (so each state
/// occurs); see `Generator::event` for the special roles of some of them.
pub(super) const FORCED_STATES: [&str; 7] = [
    "confirmed", // 0: the opening talk in the first event
    "submitted", // 1: anonymised
    "accepted",  // 2: an invisible slot
    "rejected",  // 3: the reviewer co-speaks in the first event
    "confirmed", // 4: a workshop with two slots, the demo speaker's
    "canceled",  // 5: keeps its slot
    "withdrawn", // 6: keeps its slot
];
pub(super) const ANONYMISED: usize = 1;
pub(super) const INVISIBLE: usize = 2;
pub(super) const CO_SPOKEN: usize = 3;
pub(super) const TWO_SLOTS: usize = 4;

/// After the review, before the conference.
pub(super) const SCHEDULED_STATES: [(&str, u32); 6] = [
    ("submitted", 8),
    ("accepted", 7),
    ("rejected", 38),
    ("confirmed", 33),
    ("canceled", 5),
    ("withdrawn", 9),
];
/// Still in review.
pub(super) const REVIEWING_STATES: [(&str, u32); 6] = [
    ("submitted", 50),
    ("accepted", 12),
    ("rejected", 18),
    ("confirmed", 8),
    ("canceled", 2),
    ("withdrawn", 10),
];

pub(super) const SPEAKER_COUNTS: [(usize, u32); 3] = [(1, 85), (2, 12), (3, 3)];
pub(super) const REVIEW_COUNTS: [(usize, u32); 5] = [(0, 15), (1, 20), (2, 30), (3, 25), (4, 10)];
pub(super) const SCORES: [(u32, u32); 6] = [(0, 3), (1, 8), (2, 20), (3, 30), (4, 27), (5, 12)];

/// Pretalx-style code alphabet: no 0/O, 1/I or similar look-alikes.
pub(super) const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ3789";
pub(super) const CODE_LENGTH: usize = 6;

pub(super) const DAY_START_MINUTES: i64 = 9 * 60;
pub(super) const DAY_LENGTH_MINUTES: i64 = 10 * 60;
pub(super) const BREAK_MINUTES: i64 = 15;

#[cfg(test)]
mod tests {
    use super::*;

    /// The data tables parse, with as many rows as the demo was made with
    /// (an event has up to six rooms; a changed count changes datasets).
    #[test]
    fn data_tables_load_with_their_sizes() {
        assert_eq!(TRACKS.len(), 8);
        assert_eq!(ROOMS.len(), 6);
        assert_eq!(ROOM_DESCRIPTIONS.len(), 4);
        assert_eq!(TAGS.sampled.len(), 8);
        assert!(TAGS.always.tag.contains('.'));
    }
}
