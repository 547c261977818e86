//! The small structural tables of the demo: submission types, tracks,
//! rooms and tags, the states and their shares, the weights of counts and
//! scores, and the shape of codes and conference days. (The long word
//! lists are data: see `words`.)

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

/// Track names (German `None`: the organisers only named it in English).
pub(super) const TRACKS: [(&str, Option<&str>, &str); 8] = [
    ("Security", Some("Sicherheit"), "#c0392b"),
    ("Web & Frontend", None, "#2980b9"),
    ("Data Science", Some("Datenwissenschaft"), "#8e44ad"),
    ("Infrastructure", Some("Infrastruktur"), "#27ae60"),
    ("Community", Some("Gemeinschaft"), "#f39c12"),
    ("Open Hardware", Some("Offene Hardware"), "#16a085"),
    (
        "Programming Languages",
        Some("Programmiersprachen"),
        "#2c3e50",
    ),
    ("Ethics & Society", Some("Ethik & Gesellschaft"), "#d35400"),
];

/// Rooms: English and German name, capacity.
pub(super) const ROOMS: [(&str, &str, i64); 6] = [
    ("Main Hall", "Großer Saal", 800),
    ("Room A", "Raum A", 250),
    ("Room B", "Raum B", 180),
    ("Lab 1", "Labor 1", 40),
    ("Lab 2", "Labor 2", 40),
    ("Community Stage", "Community-Bühne", 120),
];

pub(super) const ROOM_DESCRIPTIONS: [(&str, &str); 4] = [
    (
        "Ground floor, step-free access.",
        "Erdgeschoss, barrierefrei.",
    ),
    (
        "First floor, take the lift next to the registration desk.",
        "Erster Stock, Aufzug neben der Anmeldung.",
    ),
    (
        "Seminar room with tables and power outlets.",
        "Seminarraum mit Tischen und Steckdosen.",
    ),
    (
        "Open area next to the café.",
        "Offene Fläche neben dem Café.",
    ),
];

/// Tags: name, description, colour, public. The dotted one is always used.
pub(super) const DOTTED_TAG: (&str, &str, &str, bool) =
    ("v2.0", "Follow-up of last year's talk", "#7f8c8d", true);
pub(super) const TAGS: [(&str, &str, &str, bool); 8] = [
    ("keynote-candidate", "Could be a keynote", "#e74c3c", false),
    ("needs-av", "Needs special A/V setup", "#3498db", false),
    (
        "beginner-friendly",
        "Suitable for beginners",
        "#2ecc71",
        true,
    ),
    ("sponsor", "Sponsored session", "#f1c40f", false),
    (
        "hands-on",
        "Participants work on their own laptops",
        "#9b59b6",
        true,
    ),
    (
        "late-submission",
        "Arrived after the deadline",
        "#95a5a6",
        false,
    ),
    (
        "community-pick",
        "Chosen by community vote",
        "#1abc9c",
        true,
    ),
    (
        "recording-ok",
        "Speaker agreed to recording",
        "#34495e",
        false,
    ),
];

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
