//! The stored shape of an event: its own record (everything but the lists
//! of items, teams included) and one record per item of its lists. Every
//! body is the item's JSON in the dataset format, written and read through
//! the model's serde derives, so a new field needs no storage change.
//!
//! Records are keyed by what identifies them in the dataset (ids, codes,
//! the speaker's user code) and keep their list position, because the
//! dataset's nested order is part of what `export` gives back.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use xxhash_rust::xxh3::xxh3_64;

use crate::model::{
    Answer, Event, Question, Review, Room, SpeakerProfile, Submission, SubmissionType, Tag, Track,
    User,
};

use super::StoreError;

// The rows the stores read an event's records back as (`load`).

/// A stored event's own row.
#[derive(sqlx::FromRow)]
pub struct EventRow {
    pub id: i64,
    pub slug: String,
    pub generation: i64,
    pub body: String,
    /// How many records of each kind the event has (`counts_text`), where
    /// the import that wrote the event kept it.
    pub record_counts: Option<String>,
}

/// A record written after some generation: its body only when the body
/// itself was written then (otherwise only its position moved).
#[derive(sqlx::FromRow)]
pub struct ChangedRow {
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    pub key: String,
    pub position: i64,
    pub body: Option<String>,
}

/// A stored record read by its key (`ReadTx::records_by_key`).
#[derive(sqlx::FromRow)]
pub struct KeyedRow {
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    pub key: String,
    pub position: i64,
    pub body: String,
}

/// `(kind, key)` pairs as one JSON array of pairs, the parameter of
/// `records_by_key`'s single statement.
pub fn keys_json(keys: &[(Kind, &str)]) -> String {
    let pairs: Vec<(&str, &str)> = keys.iter().map(|(k, key)| (k.as_str(), *key)).collect();
    serde_json::to_string(&pairs).expect("JSON of strings")
}

/// A record removed after some generation.
#[derive(sqlx::FromRow)]
pub struct DeletedRow {
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    pub key: String,
}

/// How many records of a kind an event has.
#[derive(sqlx::FromRow)]
pub struct CountRow {
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    pub count: i64,
}

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

    /// How many records of this kind `event` has.
    pub fn count_in(self, event: &Event) -> usize {
        match self {
            Kind::SubmissionType => event.submission_types.len(),
            Kind::Track => event.tracks.len(),
            Kind::Room => event.rooms.len(),
            Kind::Tag => event.tags.len(),
            Kind::Question => event.questions.len(),
            Kind::Speaker => event.speakers.len(),
            Kind::Submission => event.submissions.len(),
            Kind::Answer => event.answers.len(),
            Kind::Review => event.reviews.len(),
        }
    }
}

/// How many records of each kind `event` is stored as, as the events
/// table keeps it (a JSON object by kind).
pub fn counts_text(event: &Event) -> String {
    let counts: serde_json::Map<String, serde_json::Value> = Kind::ALL
        .into_iter()
        .map(|kind| (kind.as_str().to_string(), kind.count_in(event).into()))
        .collect();
    serde_json::Value::Object(counts).to_string()
}

/// The counts `counts_text` wrote.
pub fn parse_counts(text: &str) -> Result<Vec<CountRow>, StoreError> {
    let corrupt = || StoreError::Corrupt(format!("stored record counts cannot be read: {text}"));
    let counts: HashMap<String, i64> = serde_json::from_str(text).map_err(|_| corrupt())?;
    counts
        .into_iter()
        .map(|(kind, count)| {
            let kind = Kind::from_name(&kind).ok_or_else(corrupt)?;
            Ok(CountRow { kind, count })
        })
        .collect()
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

/// What identifies an item among its event's records of the same kind.
pub trait Keyed {
    const KIND: Kind;
    fn key(&self) -> String;
}

/// A shared record (the event's big lists hold them so) is keyed as itself.
impl<T: Keyed> Keyed for Arc<T> {
    const KIND: Kind = T::KIND;
    fn key(&self) -> String {
        T::key(self)
    }
}

macro_rules! keyed {
    ($($type:ty => $kind:ident, |$item:ident| $key:expr;)*) => {$(
        impl Keyed for $type {
            const KIND: Kind = Kind::$kind;
            fn key(&self) -> String {
                let $item = self;
                $key
            }
        }
    )*};
}

keyed! {
    SubmissionType => SubmissionType, |t| t.id.to_string();
    Track => Track, |t| t.id.to_string();
    Room => Room, |r| r.id.to_string();
    Tag => Tag, |t| t.id.to_string();
    Question => Question, |q| q.id.to_string();
    SpeakerProfile => Speaker, |p| p.speaker_code().to_string();
    Submission => Submission, |s| s.code.to_string();
    Answer => Answer, |a| a.id.to_string();
    Review => Review, |r| r.id.to_string();
}

fn body_of<T: Serialize>(item: &T) -> String {
    serde_json::to_string(item).expect("the model always serialises")
}

/// The event's own record: the event with its item lists left empty.
pub fn event_body(event: &Event) -> String {
    body_of(&event_head(event))
}

/// The event with its item lists left empty.
pub fn event_head(event: &Event) -> Event {
    Event {
        slug: event.slug.clone(),
        name: event.name.clone(),
        is_public: event.is_public,
        date_from: event.date_from,
        date_to: event.date_to,
        timezone: event.timezone.clone(),
        locale: event.locale.clone(),
        locales: event.locales.clone(),
        content_locales: event.content_locales.clone(),
        email: event.email.clone(),
        show_schedule: event.show_schedule,
        schedule: event.schedule.clone(),
        older_schedules: event.older_schedules.clone(),
        wip_schedule: event.wip_schedule.clone(),
        review_phase: event.review_phase.clone(),
        score_categories: event.score_categories.clone(),
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
        logo: event.logo.clone(),
        header_image: event.header_image.clone(),
        og_image: event.og_image.clone(),
        custom_domain: event.custom_domain.clone(),
        organiser: event.organiser.clone(),
        webhooks: event.webhooks.clone(),
    }
}

pub fn user_body(user: &User) -> String {
    body_of(user)
}

/// One item as the record at list `position`.
pub fn record_of<T: Serialize + Keyed>(item: &T, position: i64) -> Record {
    let body = body_of(item);
    Record {
        kind: T::KIND,
        key: item.key(),
        position,
        hash: fingerprint(&body),
        body,
    }
}

/// Serialises on every core: for a large event this is most of an
/// import's work outside the database.
fn push_all<T: Serialize + Sync + Keyed>(out: &mut Vec<Record>, items: &[T]) {
    push_in_order(out, items, (0..items.len()).collect());
}

/// `push_all` with the records in `order` (positions of `items`, each
/// once); each keeps its list position.
fn push_in_order<T: Serialize + Sync + Keyed>(
    out: &mut Vec<Record>,
    items: &[T],
    order: Vec<usize>,
) {
    use rayon::prelude::*;
    let records: Vec<Record> = order
        .into_par_iter()
        .map(|position| record_of(&items[position], position as i64))
        .collect();
    out.extend(records);
}

/// Every item of the event as a record, in kind order; the big lists'
/// items in the order a page of submissions reads them
/// (`catalog::page_orders`), each record keeping its list position. New
/// records are written in this order, and a load reads an event's records
/// in the order they were written: so their texts are allocated in page
/// order, which made a random expanded v1 page 8 % cheaper than the
/// dataset's order (docs/bench-log.md, "At 274aa76 and 7a5a602").
pub fn event_records(event: &Event) -> Vec<Record> {
    let mut out = Vec::with_capacity(
        event.submissions.len() + event.answers.len() + event.reviews.len() + event.speakers.len(),
    );
    let orders = crate::domain::catalog::page_orders(event);
    push_all(&mut out, &event.submission_types);
    push_all(&mut out, &event.tracks);
    push_all(&mut out, &event.rooms);
    push_all(&mut out, &event.tags);
    push_all(&mut out, &event.questions);
    push_in_order(&mut out, &event.speakers, orders.speakers);
    push_in_order(&mut out, &event.submissions, orders.submissions);
    push_in_order(&mut out, &event.answers, orders.answers);
    push_in_order(&mut out, &event.reviews, orders.reviews);
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
    /// The event's strings read so far (`model::shared`).
    strings: crate::model::SharedStrings,
}

impl EventAssembler {
    pub fn new(event_body: &str) -> Result<Self, StoreError> {
        Ok(EventAssembler {
            event: parse("event", event_body)?,
            positions: Default::default(),
            strings: Default::default(),
        })
    }

    pub fn add(&mut self, kind: Kind, position: i64, body: &str) -> Result<(), StoreError> {
        let e = &mut self.event;
        crate::model::shared::sharing(&mut self.strings, || Self::parse_into(e, kind, body))?;
        self.positions[kind as usize].push(position);
        Ok(())
    }

    fn parse_into(e: &mut Event, kind: Kind, body: &str) -> Result<(), StoreError> {
        match kind {
            Kind::SubmissionType => e.submission_types.push(parse("submission type", body)?),
            Kind::Track => e.tracks.push(parse("track", body)?),
            Kind::Room => e.rooms.push(parse("room", body)?),
            Kind::Tag => e.tags.push(parse("tag", body)?),
            Kind::Question => e.questions.push(parse("question", body)?),
            Kind::Speaker => e
                .speakers
                .push(Arc::new(parse::<SpeakerProfile>("speaker", body)?)),
            Kind::Submission => e
                .submissions
                .push(Arc::new(parse::<Submission>("submission", body)?)),
            Kind::Answer => e.answers.push(Arc::new(parse::<Answer>("answer", body)?)),
            Kind::Review => e.reviews.push(Arc::new(parse::<Review>("review", body)?)),
        }
        Ok(())
    }

    /// The event with every list in its stored order.
    pub fn finish(self) -> Event {
        let EventAssembler {
            mut event,
            positions,
            strings: _,
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
        event.shrink_to_fit();
        event
    }
}

/// The changes to one stored event since a generation a replica holds:
/// applied to that replica's copy, they give the event as stored now,
/// without reading the records that did not change.
#[derive(Debug)]
pub struct EventPatch {
    /// The event's own record (lists empty), read anew: it is small.
    head: Event,
    /// Per kind: records written since, by key.
    changed: [HashMap<String, (i64, Option<String>)>; 9],
    /// Per kind: keys of records removed since.
    deleted: [HashSet<String>; 9],
    /// Per kind: how many records the event has now, to check the result.
    counts: [usize; 9],
}

/// An event's big lists in the store's order, where a replica holds them
/// in another (`EventData::serving`): a patch's positions are the store's.
pub struct InStoredOrder<'a> {
    pub submissions: Vec<&'a Arc<Submission>>,
    pub speakers: Vec<&'a Arc<SpeakerProfile>>,
    pub answers: Vec<&'a Arc<Answer>>,
    pub reviews: Vec<&'a Arc<Review>>,
}

impl<'a> InStoredOrder<'a> {
    /// The lists of an event kept in the store's order.
    pub fn of(event: &'a Event) -> Self {
        InStoredOrder {
            submissions: event.submissions.iter().collect(),
            speakers: event.speakers.iter().collect(),
            answers: event.answers.iter().collect(),
            reviews: event.reviews.iter().collect(),
        }
    }
}

/// The value of a patched part, or `Ok(None)` from the function: a patch
/// whose result does not add up is never applied.
macro_rules! adds_up {
    ($part:expr) => {
        match $part {
            Some(value) => value,
            None => return Ok(None),
        }
    };
}

/// A submission a patch rewrites, with its place in the replica's list.
pub type Rewritten = (usize, Arc<Submission>);

/// Where each record of an event's big lists, by stored position, is in a
/// replica's copy kept in page order (`EventPatch::apply_in_place`).
#[derive(Debug)]
pub struct PagePlaces {
    pub submissions: Vec<usize>,
    pub speakers: Vec<usize>,
    pub answers: Vec<usize>,
    pub reviews: Vec<usize>,
}

impl EventPatch {
    pub fn new(
        event_body: &str,
        changed: Vec<ChangedRow>,
        deleted: Vec<DeletedRow>,
        counts: Vec<CountRow>,
    ) -> Result<Self, StoreError> {
        let mut patch = EventPatch {
            head: parse("event", event_body)?,
            changed: Default::default(),
            deleted: Default::default(),
            counts: Default::default(),
        };
        for row in changed {
            patch.changed[row.kind as usize].insert(row.key, (row.position, row.body));
        }
        for row in deleted {
            patch.deleted[row.kind as usize].insert(row.key);
        }
        for row in counts {
            patch.counts[row.kind as usize] = row.count as usize;
        }
        Ok(patch)
    }

    pub fn slug(&self) -> &str {
        &self.head.slug
    }

    /// Bodies read: the replica keeps its copy of every other record.
    pub fn bodies(&self) -> usize {
        self.changed
            .iter()
            .flat_map(HashMap::values)
            .filter(|(_, body)| body.is_some())
            .count()
    }

    /// The event as stored now, from `base`, the copy the replica holds at
    /// the generation the patch was read against. `None` when the result
    /// does not add up to what is stored (the replica then reads the event
    /// in full): a patch must never serve a wrong event.
    pub fn apply(&self, base: &Event) -> Result<Option<Event>, StoreError> {
        self.apply_in_order(base, &InStoredOrder::of(base))
    }

    /// `apply`, where the replica keeps `base`'s big lists in another order
    /// (`EventData::serving`): `stored` holds them in the store's order.
    pub fn apply_in_order(
        &self,
        base: &Event,
        stored: &InStoredOrder,
    ) -> Result<Option<Event>, StoreError> {
        let mut event = adds_up!(self.with_small_lists(base)?);
        event.speakers = adds_up!(self.list(stored.speakers.iter().copied())?);
        event.submissions = adds_up!(self.list(stored.submissions.iter().copied())?);
        event.answers = adds_up!(self.list(stored.answers.iter().copied())?);
        event.reviews = adds_up!(self.list(stored.reviews.iter().copied())?);
        event.shrink_to_fit();
        Ok(Some(event))
    }

    /// `apply` for a replica that keeps `base`'s big lists in page order
    /// (`EventData::serving`), where the patch rewrites records in place:
    /// none of the big lists' records added, removed or moved, and none
    /// changed in what decides page order (a submission's code and
    /// speakers, a speaker's user, an answer's submission and person, a
    /// review's submission), as a re-import or sync of a live event nearly
    /// always is. Then page order is `base`'s, and the result keeps it:
    /// each changed record takes its old record's place (`at` gives, per
    /// list, each stored position's place in `base`). `None` for any other
    /// patch (`apply_in_order` then gives the event in the store's order)
    /// or one that does not add up.
    pub fn apply_in_place(
        &self,
        base: &Event,
        at: &PagePlaces,
    ) -> Result<Option<Event>, StoreError> {
        let mut event = adds_up!(self.with_small_lists(base)?);
        let anywhere = |_: &Arc<SpeakerProfile>, _: &Arc<SpeakerProfile>| true;
        event.speakers = adds_up!(self.list_in_place(&base.speakers, &at.speakers, anywhere)?);
        let same_speakers =
            |old: &Arc<Submission>, new: &Arc<Submission>| old.speakers == new.speakers;
        event.submissions =
            adds_up!(self.list_in_place(&base.submissions, &at.submissions, same_speakers)?);
        let same_owner = |old: &Arc<Answer>, new: &Arc<Answer>| {
            old.submission == new.submission && old.person == new.person
        };
        event.answers = adds_up!(self.list_in_place(&base.answers, &at.answers, same_owner)?);
        let same_submission =
            |old: &Arc<Review>, new: &Arc<Review>| old.submission == new.submission;
        event.reviews =
            adds_up!(self.list_in_place(&base.reviews, &at.reviews, same_submission)?);
        Ok(Some(event))
    }

    /// The submissions a patch rewrites, each with its place in `base`
    /// (kept in page order, as for `apply_in_place`), when that is all the
    /// patch does: the event's own record and every other list as `base`
    /// has them, no submission added, removed or moved. A re-import or
    /// sync that edits a few submissions is this; the replica then keeps
    /// everything else it holds (`EventData::with_submissions_rewritten`).
    /// `None` for any other patch, or one that does not add up.
    pub fn rewritten_submissions(
        &self,
        base: &Event,
        at: &PagePlaces,
    ) -> Result<Option<Vec<Rewritten>>, StoreError> {
        let others_untouched = Kind::ALL
            .into_iter()
            .filter(|&kind| kind != Kind::Submission)
            .all(|kind| {
                let k = kind as usize;
                self.changed[k].is_empty()
                    && self.deleted[k].is_empty()
                    && self.counts[k] == kind.count_in(base)
            });
        if !others_untouched {
            return Ok(None);
        }
        let head = adds_up!(self.with_small_lists(base)?);
        if head != base.without_records() {
            return Ok(None);
        }
        self.rewritten_in_place(&base.submissions, &at.submissions, |_, _| true)
    }

    /// The event's own record read anew, with `base`'s small lists (types,
    /// tracks, rooms, tags, questions) patched; the big lists empty.
    fn with_small_lists(&self, base: &Event) -> Result<Option<Event>, StoreError> {
        let mut event = self.head.clone();
        event.submission_types = adds_up!(self.list(base.submission_types.iter())?);
        event.tracks = adds_up!(self.list(base.tracks.iter())?);
        event.rooms = adds_up!(self.list(base.rooms.iter())?);
        event.tags = adds_up!(self.list(base.tags.iter())?);
        event.questions = adds_up!(self.list(base.questions.iter())?);
        Ok(Some(event))
    }

    /// A big list as stored now, from the replica's `base` in page order
    /// (`apply_in_place`): `places[p]` is where the record at stored
    /// position `p` is in `base`; `same_place` tells whether a changed
    /// record stays where its old one was in page order (its key is the
    /// same by then).
    fn list_in_place<T: Keyed + Clone + DeserializeOwned>(
        &self,
        base: &[T],
        places: &[usize],
        same_place: impl Fn(&T, &T) -> bool,
    ) -> Result<Option<Vec<T>>, StoreError> {
        let rewritten = adds_up!(self.rewritten_in_place(base, places, same_place)?);
        let mut items = base.to_vec();
        for (place, item) in rewritten {
            items[place] = item;
        }
        Ok(Some(items))
    }

    /// The records of one big list the patch rewrites, each with its place
    /// in `base` (page order; `places` as for `list_in_place`), when the
    /// patch only rewrites records of that list where they are: none
    /// added, removed or moved, each rewritten one under its old key and
    /// where `same_place` keeps it. `None` otherwise.
    fn rewritten_in_place<T: Keyed + DeserializeOwned>(
        &self,
        base: &[T],
        places: &[usize],
        same_place: impl Fn(&T, &T) -> bool,
    ) -> Result<Option<Vec<(usize, T)>>, StoreError> {
        let kind = T::KIND as usize;
        if !self.deleted[kind].is_empty()
            || self.counts[kind] != base.len()
            || places.len() != base.len()
        {
            return Ok(None);
        }
        let mut rewritten = Vec::with_capacity(self.changed[kind].len());
        for (key, (position, body)) in &self.changed[kind] {
            // A record at another position than before was added or moved.
            let Some(&place) = usize::try_from(*position).ok().and_then(|p| places.get(p)) else {
                return Ok(None);
            };
            if base[place].key() != *key {
                return Ok(None);
            }
            // Without a body the record was written again unchanged.
            if let Some(body) = body {
                let item: T = parse(T::KIND.as_str(), body)?;
                if item.key() != *key || !same_place(&base[place], &item) {
                    return Ok(None);
                }
                rewritten.push((place, item));
            }
        }
        Ok(Some(rewritten))
    }

    /// A list as stored now, from the replica's `base` in the store's order.
    fn list<'b, T: Keyed + Clone + DeserializeOwned + 'b>(
        &self,
        base: impl ExactSizeIterator<Item = &'b T>,
    ) -> Result<Option<Vec<T>>, StoreError> {
        let kind = T::KIND as usize;
        let changed = &self.changed[kind];
        let deleted = &self.deleted[kind];
        if changed.is_empty() && deleted.is_empty() {
            // The common case for most kinds: nothing to look up.
            return Ok((base.len() == self.counts[kind]).then(|| base.cloned().collect()));
        }
        let mut matched: HashSet<&str> = HashSet::new();
        let mut items: Vec<(i64, T)> = Vec::with_capacity(self.counts[kind]);
        for (position, item) in base.enumerate() {
            let key = item.key();
            // A change wins over a removal: the record was made again.
            match changed.get_key_value(&key) {
                Some((stored_key, (position, body))) => {
                    matched.insert(stored_key);
                    let item = match body {
                        Some(body) => parse(T::KIND.as_str(), body)?,
                        None => item.clone(),
                    };
                    items.push((*position, item));
                }
                None if deleted.contains(&key) => {}
                None => items.push((position as i64, item.clone())),
            }
        }
        // What remains is new to the replica, and must come with its body.
        for (key, (position, body)) in changed {
            if matched.contains(key.as_str()) {
                continue;
            }
            let Some(body) = body else { return Ok(None) };
            items.push((*position, parse(T::KIND.as_str(), body)?));
        }
        if items.len() != self.counts[kind] {
            return Ok(None);
        }
        if !items.is_sorted_by_key(|(position, _)| *position) {
            items.sort_by_key(|(position, _)| *position);
        }
        Ok(Some(items.into_iter().map(|(_, item)| item).collect()))
    }
}

/// An event as it was stored before an import that inserts, updates or
/// moves the records `changed` (kind and key) in it, rebuilt from the event
/// the import leaves, `after`, and the stored records it replaces, moves or
/// removes (`stored`: each with its position and body before): every other
/// record is the same on both sides, so nothing else is read. `head`: the
/// event's own record as stored, when the import changes it (else
/// `after`'s). `None` when the result does not add up (the positions are
/// not those of whole lists): the caller then reads the stored event.
pub fn event_before(
    after: &Event,
    head: Option<Event>,
    changed: &[(Kind, &str)],
    moved: &[Moved],
    stored: Vec<KeyedRow>,
) -> Result<Option<Event>, StoreError> {
    let mut changed_keys: [HashSet<&str>; 9] = Default::default();
    for (kind, key) in changed {
        changed_keys[*kind as usize].insert(key);
    }
    let mut moves: [Vec<(i64, i64)>; 9] = Default::default();
    for m in moved {
        changed_keys[m.kind as usize].insert(m.key);
        moves[m.kind as usize].push((m.from, m.to));
    }
    let mut bodies: [Vec<(i64, String)>; 9] = Default::default();
    for row in stored {
        bodies[row.kind as usize].push((row.position, row.body));
    }
    let mut event = head.unwrap_or_else(|| event_head(after));
    macro_rules! list {
        ($field:ident, $kind:ident) => {{
            let kind = Kind::$kind as usize;
            event.$field = adds_up!(list_before(
                &after.$field,
                &changed_keys[kind],
                &moves[kind],
                std::mem::take(&mut bodies[kind]),
            )?);
        }};
    }
    list!(submission_types, SubmissionType);
    list!(tracks, Track);
    list!(rooms, Room);
    list!(tags, Tag);
    list!(questions, Question);
    list!(speakers, Speaker);
    list!(submissions, Submission);
    list!(answers, Answer);
    list!(reviews, Review);
    Ok(Some(event))
}

/// A record an import moves (its body unchanged): its key, and its list
/// position before (`from`) and after (`to`).
pub struct Moved<'a> {
    pub kind: Kind,
    pub key: &'a str,
    pub from: i64,
    pub to: i64,
}

/// One list of `event_before`: `moves` as (from, to).
fn list_before<T: Keyed + Clone + DeserializeOwned>(
    after: &[T],
    changed: &HashSet<&str>,
    moves: &[(i64, i64)],
    mut stored: Vec<(i64, String)>,
) -> Result<Option<Vec<T>>, StoreError> {
    if changed.is_empty() && stored.is_empty() {
        return Ok(Some(after.to_vec()));
    }
    let mut parsed = Vec::with_capacity(stored.len() + moves.len());
    for (position, body) in stored.drain(..) {
        let item: T = parse(T::KIND.as_str(), &body)?;
        parsed.push((position, item));
    }
    for &(from, to) in moves {
        // The same body: `after`'s item, back where it was.
        let Some(item) = usize::try_from(to).ok().and_then(|to| after.get(to)) else {
            return Ok(None);
        };
        parsed.push((from, item.clone()));
    }
    parsed.sort_unstable_by_key(|(position, _)| *position);
    let mut kept = after
        .iter()
        .enumerate()
        .filter(|(_, item)| changed.is_empty() || !changed.contains(item.key().as_str()))
        .map(|(position, item)| (position as i64, item))
        .peekable();
    let mut parsed = parsed.into_iter().peekable();
    let mut items = Vec::with_capacity(after.len() + parsed.len());
    // Both in order of position: merged, each position once, from 0.
    loop {
        let next = match (kept.peek(), parsed.peek()) {
            (None, None) => break,
            (Some((a, _)), Some((b, _))) if a == b => return Ok(None),
            (Some((a, _)), Some((b, _))) if a < b => kept.next().map(|(p, item)| (p, item.clone())),
            (Some(_), None) => kept.next().map(|(p, item)| (p, item.clone())),
            _ => parsed.next(),
        };
        let Some((position, item)) = next else { break };
        if position != items.len() as i64 {
            return Ok(None);
        }
        items.push(item);
    }
    Ok(Some(items))
}

/// Sorts `items` by their stored positions (the big lists arrive in page
/// order, the others usually in order already).
fn in_order<T>(items: &mut [T], positions: Vec<i64>) {
    if positions.windows(2).all(|w| w[0] <= w[1]) {
        return;
    }
    // The item indexes sorted, then each item moved once: records arrive
    // in page order (`event_records`), and sorting the items themselves
    // moved each of a million large records some twenty times.
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| positions[i]);
    crate::domain::catalog::permute_in_place(items, &order);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::catalog::EventData;

    /// The big lists' records are written in the order the serving
    /// snapshot holds their items (so that a load allocates their texts in
    /// that order); every record keeps its list position and its body.
    #[test]
    fn an_events_records_are_written_in_page_order_with_their_positions() {
        let options = crate::dataset::demo::DemoOptions {
            events: 1,
            submissions: 300,
            seed: 5,
        };
        let event = crate::dataset::demo::generate(&options).0.events.remove(0);
        let records = event_records(&event);
        let serving = EventData::serving(event.clone());
        let of =
            |kind: Kind| -> Vec<&Record> { records.iter().filter(|r| r.kind == kind).collect() };
        let keys = |kind: Kind| -> Vec<String> { of(kind).iter().map(|r| r.key.clone()).collect() };
        let served = &serving.event;
        for (kind, in_page_order) in [
            (
                Kind::Submission,
                served
                    .submissions
                    .iter()
                    .map(Keyed::key)
                    .collect::<Vec<_>>(),
            ),
            (
                Kind::Speaker,
                served.speakers.iter().map(Keyed::key).collect(),
            ),
            (
                Kind::Answer,
                served.answers.iter().map(Keyed::key).collect(),
            ),
            (
                Kind::Review,
                served.reviews.iter().map(Keyed::key).collect(),
            ),
        ] {
            assert_eq!(keys(kind), in_page_order, "{kind:?}");
        }
        // Not the dataset's order (or the test would show nothing).
        assert_ne!(
            keys(Kind::Submission),
            event.submissions.iter().map(Keyed::key).collect::<Vec<_>>()
        );
        // Each record: its item's position in the dataset and its body.
        for record in of(Kind::Submission) {
            let item = &event.submissions[record.position as usize];
            assert_eq!(record.key, item.key());
            assert_eq!(record.body, body_of(item));
        }
        for record in of(Kind::Answer) {
            let item = &event.answers[record.position as usize];
            assert_eq!(
                (record.key.clone(), &record.body),
                (item.key(), &body_of(item))
            );
        }
        let mut positions: Vec<i64> = of(Kind::Review).iter().map(|r| r.position).collect();
        positions.sort_unstable();
        assert_eq!(
            positions,
            (0..event.reviews.len() as i64).collect::<Vec<_>>()
        );
    }

    /// sha256 over an event's records as storage writes them: its own body,
    /// then each item's, one per line, in kind and list order.
    fn records_digest(event: &Event) -> String {
        use sha2::{Digest, Sha256};
        let mut bodies = vec![event_body(event)];
        // Written in page order since 274aa76's session; digested as before.
        let mut records = event_records(event);
        records.sort_by_key(|r| (r.kind as usize, r.position));
        bodies.extend(records.into_iter().map(|r| r.body));
        hex::encode(Sha256::digest(bodies.join("\n").as_bytes()))
    }

    #[test]
    fn existing_datasets_keep_their_record_bodies() {
        // What confapi wrote for democon.json before the v1 fields (main at
        // d6afc1b: the `events.body` and `records.body` of an import, same order).
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/democon.json");
        let text = std::fs::read_to_string(path).expect("tests/data/democon.json");
        let d = crate::dataset::validate::parse_str(&text).expect("democon.json");
        assert_eq!(
            records_digest(&d.events[0]),
            "45d158c05f2702223bd1f2d80b6ca4323213c2bc38b6e9b166ccd45fe5e8090d"
        );
        assert_eq!(
            records_digest(&d.events[1]),
            "d997f192101f8882bde62b6aeb8c812ee890a6daf12d88b2c1b11e8b914a6bc2"
        );
    }
}
