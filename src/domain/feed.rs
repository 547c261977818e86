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

use serde::Serialize;

use super::feed_log::{action_code, deflate, universe_json, Encoder, NONE};
pub use super::feed_log::{
    encode, Action, Audience, Change, ChangeRow, Encoded, FeedEntry, FeedItem, FeedLog, ObjectKey,
    UNIVERSE,
};
pub use crate::model::FeedKind;
use crate::model::{ArcStr, Release, Timestamp, User};

use super::access::{Access, ViewerClass};
use super::catalog::{AnswerIx, AnswerOwner, EventData, ProfileIx, ReviewIx, SubmissionIx, Users};
use super::views::{QuestionSelector, Renderer};
use super::views_v1::{release_id, V1Renderer};

/// Callers of one viewer class share a feed (defined here, beside the
/// rule that reads their lists).
impl Audience {
    pub fn of(class: &ViewerClass) -> Audience {
        match class {
            ViewerClass::Public => Audience::Public,
            ViewerClass::Organiser => Audience::Organisers,
            ViewerClass::Personal { user, .. } => Audience::User(user.to_string()),
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
    each_visible(access, &Known::Users(users), |place| {
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
fn each_visible(access: &Access, known: &Known, mut visit: impl FnMut(Place)) {
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
        if sees(access, known, place) {
            visit(place);
        }
    }
}

/// Whether the object at `place` is in `access`'s list of its kind: the
/// rule of that list's endpoint (given that the event is visible).
fn sees(access: &Access, known: &Known, place: Place) -> bool {
    let data = access.data;
    let event = &data.event;
    match place {
        Place::Submission(i) => access.sees_submission_at(i),
        Place::Talk(i) => data.is_talk[i] && access.sees_submission_at(i),
        // A profile whose user is missing is in no list.
        Place::Speaker(p) => known.speaker(data, p) && access.sees_speaker_at(p),
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

/// Which speaker profiles have their user: asked of the users, or worked
/// out once for every audience of a whole event.
enum Known<'a> {
    Users(&'a Users),
    Profiles(Vec<bool>),
}

impl Known<'_> {
    fn profiles(data: &EventData, users: &Users) -> Known<'static> {
        Known::Profiles(
            data.event
                .speakers
                .iter()
                .map(|s| users.contains_key(s.user.as_str()))
                .collect(),
        )
    }

    fn speaker(&self, data: &EventData, p: ProfileIx) -> bool {
        match self {
            Known::Users(users) => users.contains_key(data.event.speakers[p].user.as_str()),
            Known::Profiles(known) => known[usize::from(p)],
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
            ObjectKey::Code(event.speakers[p].speaker_code().clone()),
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

/// The reviews of an event by author, found once for every audience.
struct ReviewAuthors<'a> {
    by_user: std::collections::HashMap<&'a str, Vec<ReviewIx>>,
}

impl<'a> ReviewAuthors<'a> {
    fn new(data: &'a EventData) -> Self {
        let mut by_user: std::collections::HashMap<&str, Vec<ReviewIx>> = Default::default();
        for r in ReviewIx::all(data.event.reviews.len()) {
            by_user
                .entry(data.event.reviews[r].user.as_str())
                .or_default()
                .push(r);
        }
        ReviewAuthors { by_user }
    }

    /// The reviews `user` wrote.
    fn of(&self, user: Option<&User>) -> &[ReviewIx] {
        user.and_then(|u| self.by_user.get(u.code.as_str()))
            .map_or(&[], Vec::as_slice)
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
    let known = Known::profiles(data, state.users);
    let authors = ReviewAuthors::new(data);
    // Each audience's list on every core: a new 100,000-submission event
    // has 60-odd audiences of a million objects.
    let audiences: Vec<Audience> = audiences.collect();
    let encoded: Vec<(String, Vec<u8>)> = {
        use rayon::prelude::*;
        audiences
            .par_iter()
            .filter_map(|audience| {
                let user = match audience {
                    Audience::Public => None,
                    Audience::Organisers => Some(&viewer),
                    Audience::User(c) => state.users.get(c.as_str()).map(|u| &**u),
                };
                let mut access = Access::new(data, user, now);
                access.remember_reviewer_access(Some(authors.of(user)));
                let mut packed = vec![NONE; size];
                let mut any = false;
                each_visible(&access, &known, |place| {
                    let i = slots.of(place) as usize;
                    if i < keys.len() {
                        packed[i / 4] |= code << ((i % 4) * 2);
                        any = true;
                    }
                });
                any.then(|| (audience.key(), deflate(&packed)))
            })
            .collect()
    };
    if encoded.is_empty() {
        return None;
    }
    Some(Encoded {
        universe: deflate(&universe_json(order.iter().map(|&i| &keys[i as usize]))),
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
    let mut access = Access::new(state.data, user, now);
    match candidates {
        // Only these objects can differ: look at them alone.
        Some(places) => view_of_places(&access, state.users, places),
        None => {
            access.remember_reviewer_access(None);
            view(&access, state.users)
        }
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
        if sees(access, &Known::Users(users), place) {
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
            let code = data.event.speakers[p].speaker_code().clone();
            set.insert((FeedKind::Speaker, ObjectKey::Code(code)));
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
    /// A speaker profile, by the code it goes by (its record's key).
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
