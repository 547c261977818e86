//! The change feed's rule: what changed in an event for one audience is the
//! difference of that audience's own lists before and after (created: in a
//! list now and not before; deleted: the reverse; updated: in both, and the
//! object as that audience sees it changed). The lists and the objects are
//! the ones the API serves (`access` decides, `views` and `views_v1`
//! render), so the feed cannot know a rule of its own: a talk that leaves
//! the public schedule is a deleted talk for the public, a change to
//! internal notes is an update for organisers only.
//!
//! Derived at import time (`storage::import`), for every audience of the
//! events an import changes, and stored with the generation it belongs to.

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::model::FeedKind;
use crate::model::{ArcStr, Release, Timestamp, User};

use super::access::{Access, ViewerClass};
use super::catalog::{AnswerIx, AnswerOwner, EventData, ProfileIx, ReviewIx, SubmissionIx, Users};
use super::views::{QuestionSelector, Renderer};
use super::views_v1::{release_id, V1Renderer};

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
    pub fn of(class: &ViewerClass) -> Audience {
        match class {
            ViewerClass::Public => Audience::Public,
            ViewerClass::Organiser => Audience::Organisers,
            ViewerClass::Personal { user, .. } => Audience::User(user.to_string()),
        }
    }

    /// The stored form: `public`, `organisers`, `user:CODE`.
    pub fn key(&self) -> String {
        match self {
            Audience::Public => "public".into(),
            Audience::Organisers => "organisers".into(),
            Audience::User(code) => format!("user:{code}"),
        }
    }
}

/// One state of an event, with the users its objects name.
#[derive(Clone, Copy)]
pub struct State<'a> {
    pub data: &'a EventData,
    pub users: &'a Users,
}

/// What one audience sees of an event: every object of its lists, with a
/// digest of how it looks to them (legacy and v1 views both, so that a
/// field only one dialect shows still counts).
pub type View = rustc_hash::FxHashMap<(FeedKind, ObjectKey), u64>;

fn digest<A: Serialize, B: Serialize>(legacy: &A, v1: &B) -> u64 {
    thread_local! {
        /// Both views' JSON, one object after another: a re-import that
        /// changes every submission digests each of them for every
        /// audience, twice (before and after).
        static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SCRATCH.with_borrow_mut(|json| {
        json.clear();
        // A view always serialises (the same views the API answers with).
        let _ = crate::json::append(json, legacy);
        json.push(0);
        let _ = crate::json::append(json, v1);
        xxhash_rust::xxh3::xxh3_64(json)
    })
}

/// The lists of `access`'s caller, unfiltered, with each object's digest:
/// the same sets the list endpoints start from.
pub fn view(access: &Access, users: &Users) -> View {
    let mut view = View::default();
    let legacy = Renderer {
        access,
        users,
        speaker_users: None,
    };
    let v1 = V1Renderer::new(access, users, None);
    each_visible(access, users, |place| {
        view.insert(
            key_at(access.data, place),
            digest_at(&legacy, &v1, users, place),
        );
    });
    view
}

/// Where an object is in one state of an event.
#[derive(Debug, Clone, Copy)]
enum Place {
    Submission(SubmissionIx),
    Talk(SubmissionIx),
    Speaker(ProfileIx),
    Room(usize),
    Question(usize),
    Answer(AnswerIx),
    Review(ReviewIx),
    Tag(usize),
    Schedule(Release),
}

/// Visits every object in `access`'s lists: the membership rules of the
/// feed, once (each the rule of its list endpoint).
fn each_visible(access: &Access, users: &Users, mut visit: impl FnMut(Place)) {
    if !access.event_visible() {
        return;
    }
    let data = access.data;
    let event = &data.event;
    // The candidate indexes only narrow the scan; `sees` decides.
    let places = access
        .submission_candidates(false)
        .iter()
        .flat_map(|&i| [Place::Submission(i), Place::Talk(i)])
        .chain(
            access
                .speaker_candidates()
                .iter()
                .map(|&p| Place::Speaker(p)),
        )
        .chain((0..event.rooms.len()).map(Place::Room))
        .chain((0..event.questions.len()).map(Place::Question))
        .chain(access.answer_candidates().iter().map(|&a| Place::Answer(a)))
        .chain(data.reviews_ordered.iter().map(|&r| Place::Review(r)))
        .chain((0..event.tags.len()).map(Place::Tag))
        .chain(releases(event).map(Place::Schedule));
    for place in places {
        if sees(access, users, place) {
            visit(place);
        }
    }
}

/// Whether the object at `place` is in `access`'s list of its kind: the
/// rule of that list's endpoint (given that the event is visible).
fn sees(access: &Access, users: &Users, place: Place) -> bool {
    let data = access.data;
    let event = &data.event;
    match place {
        Place::Submission(i) => access.sees_submission_at(i),
        Place::Talk(i) => data.is_talk[i] && access.sees_submission_at(i),
        // A profile whose user is missing is in no list.
        Place::Speaker(p) => {
            users.contains_key(event.speakers[p].user.as_str()) && access.sees_speaker_at(p)
        }
        Place::Room(_) => true,
        Place::Question(i) => access.sees_question(&event.questions[i]),
        Place::Answer(a) => access.sees_answer_at(a),
        Place::Review(r) => access.sees_review_at(r),
        Place::Tag(_) => access.sees_tags(),
        Place::Schedule(release) => {
            access.sees_release(release) && release_id(event, release).is_some()
        }
    }
}

/// Where the object `kind`/`key` is in this state of the event, if it is.
fn place_of(data: &EventData, kind: FeedKind, key: &ObjectKey) -> Option<Place> {
    match (kind, key) {
        (FeedKind::Submission, ObjectKey::Code(code)) => {
            data.submission_lookup(code).map(Place::Submission)
        }
        (FeedKind::Talk, ObjectKey::Code(code)) => data.submission_lookup(code).map(Place::Talk),
        (FeedKind::Speaker, ObjectKey::Code(code)) => {
            data.profile_position(code).map(Place::Speaker)
        }
        (FeedKind::Answer, ObjectKey::Id(id)) => data.answer_position(*id).map(Place::Answer),
        (FeedKind::Review, ObjectKey::Id(id)) => data.review_position(*id).map(Place::Review),
        (FeedKind::Question, ObjectKey::Id(id)) => data
            .question_index
            .get(id)
            .map(|&q| Place::Question(usize::from(q))),
        // `candidates` names no other kind.
        _ => None,
    }
}

fn releases(event: &crate::model::Event) -> impl Iterator<Item = Release> {
    std::iter::once(Release::Current)
        .chain((0..event.older_schedules.len()).map(Release::Older))
        .chain(std::iter::once(Release::Wip))
}

fn key_at(data: &EventData, place: Place) -> (FeedKind, ObjectKey) {
    let event = &data.event;
    match place {
        Place::Submission(i) => (
            FeedKind::Submission,
            ObjectKey::Code(event.submissions[i].code.clone()),
        ),
        Place::Talk(i) => (
            FeedKind::Talk,
            ObjectKey::Code(event.submissions[i].code.clone()),
        ),
        Place::Speaker(p) => (
            FeedKind::Speaker,
            ObjectKey::Code(event.speakers[p].user.clone()),
        ),
        Place::Room(i) => (FeedKind::Room, ObjectKey::Id(event.rooms[i].id)),
        Place::Question(i) => (FeedKind::Question, ObjectKey::Id(event.questions[i].id)),
        Place::Answer(a) => (FeedKind::Answer, ObjectKey::Id(event.answers[a].id)),
        Place::Review(r) => (FeedKind::Review, ObjectKey::Id(event.reviews[r].id)),
        Place::Tag(i) => (FeedKind::Tag, ObjectKey::Id(event.tags[i].id)),
        Place::Schedule(release) => (
            FeedKind::Schedule,
            ObjectKey::Id(release_id(event, release).unwrap_or_default()),
        ),
    }
}

/// How the object looks to the renderers' caller, in both dialects.
fn digest_at(legacy: &Renderer, v1: &V1Renderer, users: &Users, place: Place) -> u64 {
    let event = &legacy.access.data.event;
    let no_answers = QuestionSelector::None;
    match place {
        Place::Submission(i) => digest(
            &legacy.submission(i, false, &no_answers),
            &v1.submission(i, users),
        ),
        // Talks are a legacy list only (v1 has slots instead).
        Place::Talk(i) => digest(&legacy.submission(i, false, &no_answers), &()),
        Place::Speaker(p) => digest(&legacy.speaker(p, &no_answers), &v1.speaker(p, users)),
        Place::Room(i) => digest(&legacy.room(&event.rooms[i]), &v1.room(&event.rooms[i])),
        Place::Question(i) => digest(
            &legacy.question(&event.questions[i]),
            &v1.question(&event.questions[i]),
        ),
        Place::Answer(a) => digest(&legacy.answer(&event.answers[a], false), &v1.answer(a)),
        Place::Review(r) => digest(&legacy.review(r), &v1.review(r)),
        Place::Tag(i) => digest(&legacy.tag(&event.tags[i]), &v1.tag(&event.tags[i])),
        Place::Schedule(release) => digest(&v1.schedule(release, None), &()),
    }
}

/// Every object of the event, whoever sees it (the universe of an event
/// that is new or gone).
fn every_place(data: &EventData, users: &Users) -> Vec<Place> {
    let event = &data.event;
    let mut all = Vec::new();
    // In the store's order, whatever order the snapshot keeps.
    for i in data.submission_positions_stored() {
        all.push(Place::Submission(i));
        if data.is_talk[i] {
            all.push(Place::Talk(i));
        }
    }
    for p in data.profile_positions_stored() {
        if users.contains_key(event.speakers[p].user.as_str()) {
            all.push(Place::Speaker(p));
        }
    }
    all.extend((0..event.rooms.len()).map(Place::Room));
    all.extend((0..event.questions.len()).map(Place::Question));
    all.extend(data.answer_positions_stored().map(Place::Answer));
    all.extend(data.review_positions_stored().map(Place::Review));
    all.extend((0..event.tags.len()).map(Place::Tag));
    all.extend(
        releases(event)
            .filter(|&r| release_id(event, r).is_some())
            .map(Place::Schedule),
    );
    all
}

/// Where a place is in `every_place`'s order: per kind, its position after
/// the kinds before it.
struct Slots {
    submissions: Vec<u32>,
    talks: Vec<u32>,
    speakers: Vec<u32>,
    rooms: Vec<u32>,
    questions: Vec<u32>,
    answers: Vec<u32>,
    reviews: Vec<u32>,
    tags: Vec<u32>,
    schedules: Vec<(Release, u32)>,
}

impl Slots {
    fn new(data: &EventData, places: &[Place], rank: &[u32]) -> Slots {
        let event = &data.event;
        let mut slots = Slots {
            submissions: vec![u32::MAX; event.submissions.len()],
            talks: vec![u32::MAX; event.submissions.len()],
            speakers: vec![u32::MAX; event.speakers.len()],
            rooms: vec![u32::MAX; event.rooms.len()],
            questions: vec![u32::MAX; event.questions.len()],
            answers: vec![u32::MAX; event.answers.len()],
            reviews: vec![u32::MAX; event.reviews.len()],
            tags: vec![u32::MAX; event.tags.len()],
            schedules: Vec::new(),
        };
        for (n, place) in places.iter().enumerate() {
            let r = rank[n];
            match *place {
                Place::Submission(i) => slots.submissions[usize::from(i)] = r,
                Place::Talk(i) => slots.talks[usize::from(i)] = r,
                Place::Speaker(p) => slots.speakers[usize::from(p)] = r,
                Place::Room(i) => slots.rooms[i] = r,
                Place::Question(i) => slots.questions[i] = r,
                Place::Answer(a) => slots.answers[usize::from(a)] = r,
                Place::Review(x) => slots.reviews[usize::from(x)] = r,
                Place::Tag(i) => slots.tags[i] = r,
                Place::Schedule(release) => slots.schedules.push((release, r)),
            }
        }
        slots
    }

    fn of(&self, place: Place) -> u32 {
        match place {
            Place::Submission(i) => self.submissions[usize::from(i)],
            Place::Talk(i) => self.talks[usize::from(i)],
            Place::Speaker(p) => self.speakers[usize::from(p)],
            Place::Room(i) => self.rooms[i],
            Place::Question(i) => self.questions[i],
            Place::Answer(a) => self.answers[usize::from(a)],
            Place::Review(x) => self.reviews[usize::from(x)],
            Place::Tag(i) => self.tags[i],
            Place::Schedule(release) => self
                .schedules
                .iter()
                .find(|(r, _)| *r == release)
                .map_or(u32::MAX, |(_, slot)| *slot),
        }
    }
}

/// An event that is new (`action` created) or gone (deleted): every
/// audience's list, by position, without keys or views per audience (a
/// 100,000-submission event has 60-odd audiences of a million objects).
fn encode_whole(
    state: &State,
    audiences: impl Iterator<Item = Audience>,
    action: Action,
    now: Timestamp,
) -> Option<Encoded> {
    let data = state.data;
    let places = every_place(data, state.users);
    let keys: Vec<(FeedKind, ObjectKey)> = places.iter().map(|&p| key_at(data, p)).collect();
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
    let mut rank = vec![0u32; order.len()];
    for (new, &old) in order.iter().enumerate() {
        rank[old as usize] = new as u32;
    }
    let slots = Slots::new(data, &places, &rank);
    let size = keys.len().div_ceil(4);
    let code = action_code(action);
    let viewer = organisers_viewer();
    let mut encoded = Vec::new();
    for audience in audiences {
        let user = match &audience {
            Audience::Public => None,
            Audience::Organisers => Some(&viewer),
            Audience::User(c) => state.users.get(c.as_str()).map(|u| &**u),
        };
        let access = Access::new(data, user, now);
        let mut packed = vec![NONE; size];
        let mut any = false;
        each_visible(&access, state.users, |place| {
            let i = slots.of(place) as usize;
            if i < keys.len() {
                packed[i / 4] |= code << ((i % 4) * 2);
                any = true;
            }
        });
        if any {
            encoded.push((audience.key(), deflate(&packed)));
        }
    }
    if encoded.is_empty() {
        return None;
    }
    let listed: Vec<serde_json::Value> = order
        .iter()
        .map(|&i| match &keys[i as usize] {
            (kind, ObjectKey::Code(code)) => serde_json::json!([kind.as_str(), code.as_str()]),
            (kind, ObjectKey::Id(id)) => serde_json::json!([kind.as_str(), id]),
        })
        .collect();
    Some(Encoded {
        universe: deflate(&serde_json::to_vec(&listed).expect("JSON of plain values")),
        audiences: encoded,
    })
}

/// The changes from `before` to `after`, as keys of the views, in order of
/// kind, then key.
fn difference_of(before: &View, after: &View) -> Vec<((FeedKind, ObjectKey), Action)> {
    let mut changed = Vec::new();
    for (key, old) in before {
        match after.get(key) {
            None => changed.push((key.clone(), Action::Deleted)),
            Some(new) if new != old => changed.push((key.clone(), Action::Updated)),
            Some(_) => {}
        }
    }
    for key in after.keys() {
        if !before.contains_key(key) {
            changed.push((key.clone(), Action::Created));
        }
    }
    changed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    changed
}

/// A user code no one has: the organisers' view is that of an
/// administrator who speaks nowhere.
const ORGANISERS_VIEWER: &str = "\u{0}organisers";

fn organisers_viewer() -> User {
    User {
        code: ArcStr::from(ORGANISERS_VIEWER),
        name: String::new(),
        email: String::new(),
        avatar: None,
        locale: ArcStr::from("en"),
        timezone: ArcStr::from("UTC"),
        is_administrator: true,
        token_hashes: Vec::new(),
        id: None,
    }
}

/// The users whose view of the event is their own (reviewers, organisers
/// who speak) in `state`.
fn personal_users(state: &State, now: Timestamp, into: &mut BTreeSet<String>) {
    let event = &state.data.event;
    let members = event.teams.iter().flat_map(|t| t.members.iter());
    let administrators = state
        .users
        .values()
        .filter(|u| u.is_administrator)
        .map(|u| &u.code);
    for code in members
        .map(|m| m.as_ref())
        .chain(administrators.map(|c| c.as_ref()))
    {
        let code: &str = code;
        if into.contains(code) {
            continue;
        }
        let Some(user) = state.users.get(code) else {
            continue;
        };
        if let ViewerClass::Personal { .. } =
            Access::new(state.data, Some(user), now).viewer_class()
        {
            into.insert(code.to_string());
        }
    }
}

fn view_of(
    state: Option<&State>,
    audience: &Audience,
    now: Timestamp,
    candidates: Option<&[Place]>,
) -> View {
    let Some(state) = state else {
        return View::default();
    };
    let viewer = organisers_viewer();
    let user = match audience {
        Audience::Public => None,
        Audience::Organisers => Some(&viewer),
        Audience::User(code) => state.users.get(code.as_str()).map(|u| &**u),
    };
    let access = Access::new(state.data, user, now);
    match candidates {
        // Only these objects can differ: look at them alone.
        Some(places) => view_of_places(&access, state.users, places),
        None => view(&access, state.users),
    }
}

/// Where each candidate is in `state` (those it has): found once for
/// every audience.
fn places_of(state: Option<&State>, candidates: &Candidates) -> Vec<Place> {
    let Some(state) = state else {
        return Vec::new();
    };
    candidates
        .iter()
        .filter_map(|(kind, key)| place_of(state.data, *kind, key))
        .collect()
}

/// `view` restricted to `places`: the same rule (`sees`) and digest, asked
/// of each candidate instead of every object of the event.
fn view_of_places(access: &Access, users: &Users, places: &[Place]) -> View {
    let mut view = View::default();
    if !access.event_visible() {
        return view;
    }
    let legacy = Renderer {
        access,
        users,
        speaker_users: None,
    };
    let v1 = V1Renderer::new(access, users, None);
    for &place in places {
        if sees(access, users, place) {
            // The stored spelling, as `view` keys it.
            view.insert(
                key_at(access.data, place),
                digest_at(&legacy, &v1, users, place),
            );
        }
    }
    view
}

/// Every audience's changes from `before` to `after` (None: the event did
/// not exist, or no longer does), rendered at `now` on both sides so that
/// the clock changes nothing. `changed`: the records the import wrote, when
/// only submissions, speakers and answers changed (None: anything may have,
/// so every object's view is compared). Audiences without a change are left
/// out.
pub fn derive(
    before: Option<&State>,
    after: Option<&State>,
    changed: Option<&[ChangedRecord]>,
    now: Timestamp,
) -> Option<Encoded> {
    let mut personal = BTreeSet::new();
    for state in [before, after].into_iter().flatten() {
        personal_users(state, now, &mut personal);
    }
    let audiences = [Audience::Public, Audience::Organisers]
        .into_iter()
        .chain(personal.into_iter().map(Audience::User));
    match (before, after) {
        (None, None) => return None,
        (None, Some(state)) => return encode_whole(state, audiences, Action::Created, now),
        (Some(state), None) => return encode_whole(state, audiences, Action::Deleted, now),
        _ => {}
    }
    // Both sides exist: compare the candidates' views, or every view.
    let candidates = changed.and_then(|records| candidates([before, after], records));
    let before_places = candidates.as_ref().map(|set| places_of(before, set));
    let after_places = candidates.as_ref().map(|set| places_of(after, set));
    // Audiences are compared on up to `AUDIENCES_AT_ONCE` cores: each
    // one's changes go into the encoder as soon as its group is done (held
    // together, 60-odd audiences of a big new event took gigabytes).
    let audiences: Vec<Audience> = audiences.collect();
    let at_once = rayon::current_num_threads().clamp(1, AUDIENCES_AT_ONCE);
    let mut encoder = Encoder::default();
    for group in audiences.chunks(at_once) {
        use rayon::prelude::*;
        let changes: Vec<Vec<((FeedKind, ObjectKey), Action)>> = group
            .par_iter()
            .map(|audience| {
                let before = view_of(before, audience, now, before_places.as_deref());
                let after = view_of(after, audience, now, after_places.as_deref());
                difference_of(&before, &after)
            })
            .collect();
        for (audience, changes) in group.iter().zip(changes) {
            encoder.add(audience, &changes);
        }
    }
    encoder.finish()
}

/// How many audiences' views are built at once: each is two maps of every
/// object it sees when everything is compared (over a million entries for
/// an organiser of the 100,000-submission event), so that a machine with
/// more cores does not hold more of them.
const AUDIENCES_AT_ONCE: usize = 4;

type Candidates = HashSet<(FeedKind, ObjectKey)>;

/// A submission and its talk.
fn add_submission(set: &mut Candidates, code: &str) {
    set.insert((FeedKind::Submission, ObjectKey::Code(ArcStr::from(code))));
    set.insert((FeedKind::Talk, ObjectKey::Code(ArcStr::from(code))));
}

/// What shows an answer: its submission, speaker or review.
fn add_owner(set: &mut Candidates, data: &EventData, owner: AnswerOwner) {
    match owner {
        AnswerOwner::Submission(i) => add_submission(set, &data.event.submissions[i].code),
        AnswerOwner::Person(p) => {
            let user = data.event.speakers[p].user.clone();
            set.insert((FeedKind::Speaker, ObjectKey::Code(user)));
        }
        AnswerOwner::Review(r) => {
            set.insert((FeedKind::Review, ObjectKey::Id(data.event.reviews[r].id)));
        }
        AnswerOwner::Missing => {}
    }
}

/// A record an import wrote (inserted, updated, moved or deleted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangedRecord {
    Submission(String),
    /// A speaker profile, by user code.
    Speaker(String),
    Answer(i64),
    Review(i64),
    Question(i64),
    /// Anything else (a room, track, type or tag, shown by name in every
    /// submission and slot): every view is compared.
    Other,
}

/// The objects whose views or list membership can differ after an import
/// that wrote only `records`, on either side: each record's own object and those that
/// show it (a submission's speakers, answers and reviews; a speaker's
/// submissions and answers; an answer's owner; a review's submission and
/// answers; a question's answers and their owners; the answers of a
/// submission's speakers, public or not with their talks). Membership rules
/// read only these records, the event's own record and the users (either
/// changed: None), and which reviewers wrote reviews (changed: None). None
/// when a record is of another kind.
pub fn candidates(
    states: [Option<&State>; 2],
    records: &[ChangedRecord],
) -> Option<HashSet<(FeedKind, ObjectKey)>> {
    let mut set = HashSet::new();
    for record in records {
        match record {
            ChangedRecord::Other => return None,
            ChangedRecord::Submission(code) => {
                add_submission(&mut set, code);
                for state in states.iter().flatten() {
                    let data = state.data;
                    let Some(i) = data.submission_lookup(code) else {
                        continue;
                    };
                    for speaker in &data.event.submissions[i].speakers {
                        set.insert((FeedKind::Speaker, ObjectKey::Code(speaker.clone())));
                        // Whether a speaker's answers are public follows
                        // their talks.
                        if let Some(p) = data.profile_position(speaker) {
                            for &a in data.answers_of_person.of(p) {
                                set.insert((
                                    FeedKind::Answer,
                                    ObjectKey::Id(data.event.answers[a].id),
                                ));
                            }
                        }
                    }
                    for &a in data.answers_of_submission.of(i) {
                        set.insert((FeedKind::Answer, ObjectKey::Id(data.event.answers[a].id)));
                    }
                    for &r in data.reviews_of_submission.of(i) {
                        set.insert((FeedKind::Review, ObjectKey::Id(data.event.reviews[r].id)));
                    }
                }
            }
            ChangedRecord::Speaker(user) => {
                set.insert((
                    FeedKind::Speaker,
                    ObjectKey::Code(ArcStr::from(user.as_str())),
                ));
                for state in states.iter().flatten() {
                    let data = state.data;
                    let Some(p) = data.profile_position(user) else {
                        continue;
                    };
                    for &i in data.profile_submissions.of(p) {
                        add_submission(&mut set, &data.event.submissions[i].code);
                    }
                    for &a in data.answers_of_person.of(p) {
                        set.insert((FeedKind::Answer, ObjectKey::Id(data.event.answers[a].id)));
                    }
                }
            }
            ChangedRecord::Review(id) => {
                // A first review lets its author see others' (`after_review`):
                // every submission's review ids may change for them.
                if let [Some(before), Some(after)] = states {
                    if before.data.reviewers_who_wrote != after.data.reviewers_who_wrote {
                        return None;
                    }
                }
                set.insert((FeedKind::Review, ObjectKey::Id(*id)));
                for state in states.iter().flatten() {
                    let data = state.data;
                    let Some(r) = data.review_position(*id) else {
                        continue;
                    };
                    if let Some(i) = data.review_submission[r] {
                        add_submission(&mut set, &data.event.submissions[i].code);
                    }
                    for &a in data.answers_of_review.of(r) {
                        set.insert((FeedKind::Answer, ObjectKey::Id(data.event.answers[a].id)));
                    }
                }
            }
            ChangedRecord::Question(id) => {
                set.insert((FeedKind::Question, ObjectKey::Id(*id)));
                for state in states.iter().flatten() {
                    let data = state.data;
                    for a in AnswerIx::all(data.event.answers.len()) {
                        let answer = &data.event.answers[a];
                        if answer.question != *id {
                            continue;
                        }
                        set.insert((FeedKind::Answer, ObjectKey::Id(answer.id)));
                        add_owner(&mut set, data, data.answer_owner[a]);
                    }
                }
            }
            ChangedRecord::Answer(id) => {
                set.insert((FeedKind::Answer, ObjectKey::Id(*id)));
                for state in states.iter().flatten() {
                    let data = state.data;
                    let answers = &data.event.answers;
                    let found = data
                        .answers_by_id
                        .binary_search_by_key(id, |&a| answers[a].id)
                        .ok()
                        .map(|at| data.answers_by_id[at]);
                    let Some(a) = found else { continue };
                    add_owner(&mut set, data, data.answer_owner[a]);
                }
            }
        }
    }
    Some(set)
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

const NONE: u8 = 0;

fn action_code(action: Action) -> u8 {
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

fn deflate(bytes: &[u8]) -> Vec<u8> {
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

/// Builds an `Encoded` audience by audience.
#[derive(Default)]
struct Encoder {
    /// Objects in the order first met; sorted by `finish`.
    universe: Vec<(FeedKind, ObjectKey)>,
    index: rustc_hash::FxHashMap<(FeedKind, ObjectKey), u32>,
    /// Each audience's actions, two bits per object by that order.
    audiences: Vec<(String, Vec<u8>)>,
}

impl Encoder {
    fn add(&mut self, audience: &Audience, changes: &[((FeedKind, ObjectKey), Action)]) {
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
    fn finish(self) -> Option<Encoded> {
        if self.audiences.is_empty() {
            return None;
        }
        let mut order: Vec<u32> = (0..self.universe.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| self.universe[a as usize].cmp(&self.universe[b as usize]));
        let mut rank = vec![0u32; order.len()];
        for (new, &old) in order.iter().enumerate() {
            rank[old as usize] = new as u32;
        }
        let listed: Vec<serde_json::Value> = order
            .iter()
            .map(|&i| match &self.universe[i as usize] {
                (kind, ObjectKey::Code(code)) => serde_json::json!([kind.as_str(), code.as_str()]),
                (kind, ObjectKey::Id(id)) => serde_json::json!([kind.as_str(), id]),
            })
            .collect();
        let universe = deflate(&serde_json::to_vec(&listed).expect("JSON of plain values"));
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

/// A generation's changed objects, as stored (deflated JSON), and how
/// many there are.
#[derive(Debug)]
pub struct Universe(Box<[u8]>, usize);

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
    /// The item; a stored row that does not decode was not written by this
    /// program (checked when the row is loaded, so this cannot fail later).
    pub fn item(&self) -> std::sync::Arc<FeedItem> {
        if let Some(item) = self.decoded.get() {
            return item.clone();
        }
        let item = std::sync::Arc::new(self.decode().unwrap_or_else(|_| FeedItem {
            generation: self.generation,
            at: self.at.clone(),
            changes: Vec::new(),
        }));
        if item.changes.len() <= KEEP_DECODED {
            let _ = self.decoded.set(item.clone());
        }
        item
    }

    fn decode(&self) -> Result<FeedItem, String> {
        let universe = self.universe.decode()?;
        let packed = inflate(&self.actions)?;
        if packed.len() != self.universe.1.div_ceil(4) || universe.len() != self.universe.1 {
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
    /// and what is older than `from` dropped. A row that does not decode
    /// was not written by this program: an error, never skipped.
    pub fn extend(
        &self,
        from: i64,
        upto: i64,
        rows: Vec<crate::storage::ChangeRow>,
    ) -> Result<FeedLog, String> {
        let mut log = self.clone();
        log.from = from.max(self.from);
        log.upto = upto.max(self.upto);
        let mut universe: Option<(String, i64, std::sync::Arc<Universe>)> = None;
        for row in rows {
            let place = format!(
                "feed row of {} generation {} for {}",
                row.event, row.generation, row.audience
            );
            if row.audience == UNIVERSE {
                let mut decoded = Universe(row.body.into_boxed_slice(), 0);
                decoded.1 = decoded.decode().map_err(|e| format!("{place}: {e}"))?.len();
                universe = Some((row.event, row.generation, std::sync::Arc::new(decoded)));
                continue;
            }
            let shared = match &universe {
                Some((event, generation, u))
                    if *event == row.event && *generation == row.generation =>
                {
                    u.clone()
                }
                _ => return Err(format!("{place}: no changed objects stored before it")),
            };
            let entry = FeedEntry {
                generation: row.generation,
                at: row.at,
                universe: shared,
                actions: row.body.into_boxed_slice(),
                decoded: std::sync::OnceLock::new(),
            };
            // Checked whole, cheaply: the actions cover the universe.
            let packed = inflate(&entry.actions).map_err(|e| format!("{place}: {e}"))?;
            if packed.len() != entry.universe.1.div_ceil(4) {
                return Err(format!("{place}: actions do not match the changed objects"));
            }
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
