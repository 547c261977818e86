//! The stored shape of an event: its own record (everything but the lists
//! of items, teams included) and one record per item of its lists. Every
//! body is the item's JSON in the dataset format, written and read through
//! the model's serde derives, so a new field needs no storage change.
//!
//! Records are keyed by what identifies them in the dataset (ids, codes,
//! the speaker's user code) and keep their list position, because the
//! dataset's nested order is part of what `export` gives back.

use serde::de::DeserializeOwned;
use serde::Serialize;
use xxhash_rust::xxh3::xxh3_64;

use crate::model::{Event, User};

use super::StoreError;

/// The kinds of records an event is made of; the text is the `kind` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    SubmissionType,
    Track,
    Room,
    Tag,
    Question,
    Speaker,
    Submission,
    Answer,
    Review,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::SubmissionType,
        Kind::Track,
        Kind::Room,
        Kind::Tag,
        Kind::Question,
        Kind::Speaker,
        Kind::Submission,
        Kind::Answer,
        Kind::Review,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SubmissionType => "submission_type",
            Kind::Track => "track",
            Kind::Room => "room",
            Kind::Tag => "tag",
            Kind::Question => "question",
            Kind::Speaker => "speaker",
            Kind::Submission => "submission",
            Kind::Answer => "answer",
            Kind::Review => "review",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// One item ready to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub kind: Kind,
    pub key: String,
    pub position: i64,
    pub hash: i64,
    pub body: String,
}

/// A body's fingerprint, stored beside it so that an import can tell what
/// changed without reading bodies back.
pub fn fingerprint(body: &str) -> i64 {
    xxh3_64(body.as_bytes()) as i64
}

fn body_of<T: Serialize>(item: &T) -> String {
    serde_json::to_string(item).expect("the model always serialises")
}

/// The event's own record: the event with its item lists left empty.
pub fn event_body(event: &Event) -> String {
    let head = Event {
        slug: event.slug.clone(),
        name: event.name.clone(),
        is_public: event.is_public,
        date_from: event.date_from,
        date_to: event.date_to,
        timezone: event.timezone.clone(),
        locale: event.locale.clone(),
        show_schedule: event.show_schedule,
        schedule: event.schedule.clone(),
        review_phase: event.review_phase.clone(),
        teams: event.teams.clone(),
        submission_types: Vec::new(),
        tracks: Vec::new(),
        rooms: Vec::new(),
        tags: Vec::new(),
        questions: Vec::new(),
        speakers: Vec::new(),
        submissions: Vec::new(),
        answers: Vec::new(),
        reviews: Vec::new(),
        primary_color: event.primary_color.clone(),
    };
    body_of(&head)
}

pub fn user_body(user: &User) -> String {
    body_of(user)
}

/// Serialises on every core: for a large event this is most of an
/// import's work outside the database.
fn push_all<T: Serialize + Sync>(
    out: &mut Vec<Record>,
    kind: Kind,
    items: &[T],
    key: impl Fn(&T) -> String + Sync,
) {
    use rayon::prelude::*;
    let records: Vec<Record> = items
        .par_iter()
        .enumerate()
        .map(|(position, item)| {
            let body = body_of(item);
            Record {
                kind,
                key: key(item),
                position: position as i64,
                hash: fingerprint(&body),
                body,
            }
        })
        .collect();
    out.extend(records);
}

/// Every item of the event as a record, in kind order then list order.
pub fn event_records(event: &Event) -> Vec<Record> {
    let mut out = Vec::with_capacity(
        event.submissions.len() + event.answers.len() + event.reviews.len() + event.speakers.len(),
    );
    push_all(
        &mut out,
        Kind::SubmissionType,
        &event.submission_types,
        |t| t.id.to_string(),
    );
    push_all(&mut out, Kind::Track, &event.tracks, |t| t.id.to_string());
    push_all(&mut out, Kind::Room, &event.rooms, |r| r.id.to_string());
    push_all(&mut out, Kind::Tag, &event.tags, |t| t.id.to_string());
    push_all(&mut out, Kind::Question, &event.questions, |q| {
        q.id.to_string()
    });
    push_all(&mut out, Kind::Speaker, &event.speakers, |p| p.user.clone());
    push_all(&mut out, Kind::Submission, &event.submissions, |s| {
        s.code.clone()
    });
    push_all(&mut out, Kind::Answer, &event.answers, |a| a.id.to_string());
    push_all(&mut out, Kind::Review, &event.reviews, |r| r.id.to_string());
    out
}

fn parse<T: DeserializeOwned>(what: &str, body: &str) -> Result<T, StoreError> {
    serde_json::from_str(body)
        .map_err(|e| StoreError::Corrupt(format!("a stored {what} cannot be read: {e}")))
}

pub fn parse_user(body: &str) -> Result<User, StoreError> {
    parse("user", body)
}

/// Rebuilds an event from its own record and its items, which may arrive in
/// any order; each is parsed as it arrives so that bodies are not held.
pub struct EventAssembler {
    event: Event,
    positions: [Vec<i64>; 9],
}

impl EventAssembler {
    pub fn new(event_body: &str) -> Result<Self, StoreError> {
        Ok(EventAssembler {
            event: parse("event", event_body)?,
            positions: Default::default(),
        })
    }

    pub fn add(&mut self, kind: Kind, position: i64, body: &str) -> Result<(), StoreError> {
        let e = &mut self.event;
        match kind {
            Kind::SubmissionType => e.submission_types.push(parse("submission type", body)?),
            Kind::Track => e.tracks.push(parse("track", body)?),
            Kind::Room => e.rooms.push(parse("room", body)?),
            Kind::Tag => e.tags.push(parse("tag", body)?),
            Kind::Question => e.questions.push(parse("question", body)?),
            Kind::Speaker => e.speakers.push(parse("speaker", body)?),
            Kind::Submission => e.submissions.push(parse("submission", body)?),
            Kind::Answer => e.answers.push(parse("answer", body)?),
            Kind::Review => e.reviews.push(parse("review", body)?),
        }
        self.positions[kind as usize].push(position);
        Ok(())
    }

    /// The event with every list in its stored order.
    pub fn finish(self) -> Event {
        let EventAssembler {
            mut event,
            positions,
        } = self;
        let [types, tracks, rooms, tags, questions, speakers, submissions, answers, reviews] =
            positions;
        in_order(&mut event.submission_types, types);
        in_order(&mut event.tracks, tracks);
        in_order(&mut event.rooms, rooms);
        in_order(&mut event.tags, tags);
        in_order(&mut event.questions, questions);
        in_order(&mut event.speakers, speakers);
        in_order(&mut event.submissions, submissions);
        in_order(&mut event.answers, answers);
        in_order(&mut event.reviews, reviews);
        event
    }
}

/// Sorts `items` by their stored positions (usually already in order).
fn in_order<T>(items: &mut Vec<T>, positions: Vec<i64>) {
    if positions.windows(2).all(|w| w[0] <= w[1]) {
        return;
    }
    let mut paired: Vec<(i64, T)> = positions.into_iter().zip(items.drain(..)).collect();
    paired.sort_by_key(|(position, _)| *position);
    items.extend(paired.into_iter().map(|(_, item)| item));
}

/// Reads a stored kind name.
impl TryFrom<String> for Kind {
    type Error = StoreError;

    /// Reads a stored kind name.
    fn try_from(name: String) -> Result<Kind, StoreError> {
        Kind::from_name(&name)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown record kind {name:?}")))
    }
}

/// A stored record with its body, as `load` reads it.
#[derive(sqlx::FromRow)]
pub struct RecordRow {
    pub event: i64,
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    pub position: i64,
    pub body: String,
}
