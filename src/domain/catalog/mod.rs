//! The serving snapshot: every user and event of one storage generation,
//! indexed for the lookups the endpoints make. It is immutable; an import
//! produces a new generation and the next request builds a new catalog,
//! re-using the events that did not change.

use std::cmp::Ordering;
use std::collections::HashMap as StdHashMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

use chrono_tz::Tz;

use super::search::{DistinctTextIndex, LazyIndex, TrigramIndex};
use crate::model::*;

use super::ids::at;
pub use super::ids::{
    AnswerIx, Groups, Per, ProfileIx, QuestionIx, ReviewIx, RoomIx, SubmissionIx, TagIx, TrackIx,
    TypeIx,
};

/// Who an answer belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerOwner {
    Submission(SubmissionIx),
    /// A speaker profile.
    Person(ProfileIx),
    Review(ReviewIx),
    /// An owner that does not exist (never after validation).
    Missing,
}

/// One event with its indexes. Positions are indexes into the event's vectors.
#[derive(Debug)]
pub struct EventData {
    pub event: Event,
    /// Objects many responses repeat, as JSON, rendered once for this snapshot.
    pub shared_json: SharedJson,
    pub tz: Tz,
    /// Event `is_public`, `show_schedule` and a released schedule (behaviour.md §3).
    pub schedule_public: bool,
    /// Submissions sorted by code (code-point order): the list order.
    pub submissions_by_code: Vec<SubmissionIx>,
    /// The talks among them, by code.
    pub talks_by_code: Vec<SubmissionIx>,
    /// The public talks among them, by code: everything the public can see.
    pub public_talks_by_code: Vec<SubmissionIx>,
    /// Submissions sorted by lower-case code, for case-insensitive path
    /// lookups (`submission_lookup`).
    submissions_by_lower_code: Vec<SubmissionIx>,
    /// Per submission (by position): has a visible slot on the released schedule.
    pub is_talk: Per<SubmissionIx, bool>,
    /// Per submission: a talk, confirmed, while the schedule is public.
    pub is_public_talk: Per<SubmissionIx, bool>,
    /// Per submission: its speakers' profiles, in speaker order (`None` for
    /// a speaker without one), so that rendering a page looks no code up.
    pub speaker_profiles: Groups<SubmissionIx, Option<ProfileIx>>,
    /// Profiles sorted by the code each goes by (`speaker_code`).
    pub profiles_by_code: Vec<ProfileIx>,
    /// User code → the profile of the user's that goes by a code of its
    /// own (pretalx 2026), for finding a caller's own submissions.
    own_code_profiles: HashMap<ArcStr, ProfileIx>,
    /// Profiles sorted by lower-case user code, for path lookups.
    profiles_by_lower_code: Vec<ProfileIx>,
    /// Profiles of speakers of public talks, by user code.
    pub public_profiles_by_code: Vec<ProfileIx>,
    pub type_index: HashMap<i64, TypeIx>,
    pub track_index: HashMap<i64, TrackIx>,
    pub room_index: HashMap<i64, RoomIx>,
    pub tag_index: HashMap<i64, TagIx>,
    pub question_index: HashMap<i64, QuestionIx>,
    /// Reviews sorted by id.
    reviews_by_id: Vec<ReviewIx>,
    /// Answers sorted by id.
    pub answers_by_id: Vec<AnswerIx>,
    /// Answers on public talks or their speakers, sorted by id: all the
    /// public can ever see.
    pub public_owner_answers_by_id: Vec<AnswerIx>,
    /// Per answer (by position): its owner and its question's position.
    pub answer_owner: Per<AnswerIx, AnswerOwner>,
    pub answer_question: Per<AnswerIx, Option<QuestionIx>>,
    /// Per profile (by position): speaks in a public talk.
    pub is_public_profile: Per<ProfileIx, bool>,
    /// Per profile (by position): positions of the speaker's submissions, by code.
    pub profile_submissions: Groups<ProfileIx, SubmissionIx>,
    /// Per owner (by position): its answers' positions sorted by answer id.
    pub answers_of_submission: Groups<SubmissionIx, AnswerIx>,
    pub answers_of_person: Groups<ProfileIx, AnswerIx>,
    pub answers_of_review: Groups<ReviewIx, AnswerIx>,
    /// Reviews sorted by (created, id).
    pub reviews_ordered: Vec<ReviewIx>,
    /// Per review (by position): the position of its submission.
    pub review_submission: Per<ReviewIx, Option<SubmissionIx>>,
    /// Per submission: its reviews' positions, by review id (v1 shows
    /// their ids and scores on the submission).
    pub reviews_of_submission: Groups<SubmissionIx, ReviewIx>,
    /// Users who wrote at least one review in this event.
    pub reviewers_who_wrote: HashSet<String>,
    /// Where each of the event's big lists keeps the store's order, when
    /// the serving snapshot holds them in page order (`EventData::serving`);
    /// `None`: in the store's order.
    pub stored_order: Option<StoredOrder>,
}

/// For each item of the event's big lists in the store's order, its
/// position in the serving snapshot's list (`EventData::serving`). What
/// shows the store's order (a replica's patch, the schedule exports' talks,
/// the change feed's walk, the ties of every sort) reads it through these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredOrder {
    pub submissions: Vec<SubmissionIx>,
    pub speakers: Vec<ProfileIx>,
    pub answers: Vec<AnswerIx>,
    pub reviews: Vec<ReviewIx>,
}

/// The positions of a list of `len` items in the store's order (`order`,
/// or list order where the list is kept in it), without allocating: v1's
/// slot list walks them per request.
fn stored_positions<I: Copy + From<u32>>(
    order: Option<&[I]>,
    len: usize,
) -> impl Iterator<Item = I> + '_ {
    let all = order.is_none().then(|| (0..len as u32).map(I::from));
    order
        .into_iter()
        .flatten()
        .copied()
        .chain(all.into_iter().flatten())
}

/// The JSON of the small objects that many responses repeat (v1's
/// expanded questions, options, tags, tracks, submission types and rooms),
/// each as rendered in one context (what decides its JSON besides the
/// object: the expansion below it, `lang`, the caller's role), for as long
/// as this snapshot serves. Rendered once a request, they were a twentieth
/// of a page with pytanis's expansion (callgrind, docs/bench-log.md). It holds
/// at most `MAX_OBJECTS` objects of at most `MAX_BYTES` each, so that
/// requests with ever new expansions or languages cannot grow it; past
/// that, objects are rendered each time.
#[derive(Default)]
pub struct SharedJson {
    objects: std::sync::Mutex<SharedObjects>,
}

/// One context's objects, by kind and id.
type ObjectsOfContext = HashMap<(u8, i64), Arc<str>>;

#[derive(Default)]
struct SharedObjects {
    /// By context, then by the object's kind and id.
    by_context: HashMap<Box<str>, ObjectsOfContext>,
    count: usize,
}

impl SharedJson {
    pub const MAX_OBJECTS: usize = 512;
    pub const MAX_BYTES: usize = 8 * 1024;

    /// The JSON of the object `(kind, id)` in `context`, rendered by
    /// `render` unless it is held already. `render` must give the same
    /// JSON for the same key as long as this snapshot serves, and nothing
    /// that depends on who asks beyond what `context` says.
    pub fn get_or_render(
        &self,
        kind: u8,
        id: i64,
        context: &str,
        render: impl FnOnce() -> String,
    ) -> Arc<str> {
        let objects = || self.objects.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(json) = objects()
            .by_context
            .get(context)
            .and_then(|by_id| by_id.get(&(kind, id)))
        {
            return json.clone();
        }
        // Rendered without the lock: an object may hold others (a
        // question its options), rendered through this too.
        let json: Arc<str> = render().into();
        let mut held = objects();
        if held.count < Self::MAX_OBJECTS && json.len() <= Self::MAX_BYTES {
            let by_id = held.by_context.entry(context.into()).or_default();
            if by_id.insert((kind, id), json.clone()).is_none() {
                held.count += 1;
            }
        }
        json
    }

    /// How many objects it holds.
    pub fn held(&self) -> usize {
        self.objects.lock().unwrap_or_else(|e| e.into_inner()).count
    }
}

impl std::fmt::Debug for SharedJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedJson")
            .field("objects", &self.held())
            .finish()
    }
}

fn index_by<'t, T, K: std::hash::Hash + Eq, I>(
    items: &'t [T],
    position: impl Fn(usize) -> I,
    key: impl Fn(&'t T) -> K,
) -> HashMap<K, I> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| (key(item), position(i)))
        .collect()
}

/// The position in `sorted` whose key `compare` finds equal to the one
/// wanted (`compare` tells how a position's key compares with it); the last
/// of them if several are, as a map built in list order would keep.
fn find<I: Copy>(sorted: &[I], compare: impl Fn(I) -> Ordering) -> Option<I> {
    let end = sorted.partition_point(|&i| compare(i) != Ordering::Greater);
    let last = sorted[..end].last().copied()?;
    (compare(last) == Ordering::Equal).then_some(last)
}

/// How `code`, lower-cased, compares with `lower`; without allocating when
/// `code` is ASCII, as codes nearly always are.
fn compare_lower(code: &str, lower: &str) -> Ordering {
    if code.is_ascii() {
        code.bytes()
            .map(|b| b.to_ascii_lowercase())
            .cmp(lower.bytes())
    } else {
        code.to_lowercase().as_str().cmp(lower)
    }
}

/// The order a page of submissions reads the event's big lists in (see
/// `order_for_pages`): for each list, every position, in page order.
pub struct PageOrders {
    pub submissions: Vec<usize>,
    pub speakers: Vec<usize>,
    pub answers: Vec<usize>,
    pub reviews: Vec<usize>,
}

/// `first`, then every other position below `len` in its order.
fn completed(first: Vec<usize>, len: usize) -> Vec<usize> {
    let mut placed = vec![false; len];
    for &i in &first {
        placed[i] = true;
    }
    let mut order = first;
    order.extend((0..len).filter(|&i| !placed[i]));
    order
}

/// The page order of the event's big lists: submissions by code (v1's and
/// the legacy lists' order); speaker profiles by their first submission;
/// answers by submission, each submission's followed by its speakers'
/// answers not placed before; reviews by submission; the rest of each
/// list after them, in its own order.
pub fn page_orders(event: &Event) -> PageOrders {
    let subs = &event.submissions;
    let mut by_code: Vec<u32> = (0..subs.len() as u32).collect();
    by_code.sort_by_cached_key(|&i| subs[i as usize].code.as_str());
    let code_rank: HashMap<&str, u32> = by_code
        .iter()
        .enumerate()
        .map(|(rank, &i)| (subs[i as usize].code.as_str(), rank as u32))
        .collect();
    let profiles = &event.speakers;
    let profile_of: HashMap<&str, u32> = profiles
        .iter()
        .enumerate()
        .map(|(i, p)| (p.speaker_code().as_str(), i as u32))
        .collect();
    // Each profile's new position and its first submission's rank.
    const UNPLACED: u32 = u32::MAX;
    let mut profile_place: Vec<(u32, u32)> = vec![(UNPLACED, UNPLACED); profiles.len()];
    let mut profile_order: Vec<usize> = Vec::with_capacity(profiles.len());
    for (rank, &i) in by_code.iter().enumerate() {
        for code in &subs[i as usize].speakers {
            if let Some(&p) = profile_of.get(code.as_str()) {
                if profile_place[p as usize].0 == UNPLACED {
                    profile_place[p as usize] = (profile_order.len() as u32, rank as u32);
                    profile_order.push(p as usize);
                }
            }
        }
    }
    // Sort keys: (submission rank, 0 for its own answers or 1 + the
    // speaker's new position, stored position).
    let mut answer_keys: Vec<(u32, u32, u32)> = event
        .answers
        .iter()
        .enumerate()
        .map(|(i, answer)| {
            let place = if let Some(code) = &answer.submission {
                code_rank.get(code.as_str()).map(|&rank| (rank, 0))
            } else if let Some(user) = &answer.person {
                profile_of
                    .get(user.as_str())
                    .map(|&p| profile_place[p as usize])
                    .filter(|&(_, rank)| rank != UNPLACED)
                    .map(|(position, rank)| (rank, 1 + position))
            } else {
                None
            };
            let (rank, second) = place.unwrap_or((UNPLACED, 0));
            (rank, second, i as u32)
        })
        .collect();
    answer_keys.sort_unstable();
    let mut review_keys: Vec<(u32, u32)> = event
        .reviews
        .iter()
        .enumerate()
        .map(|(i, review)| {
            let rank = code_rank.get(review.submission.as_str()).copied();
            (rank.unwrap_or(UNPLACED), i as u32)
        })
        .collect();
    review_keys.sort_unstable();
    PageOrders {
        submissions: by_code.iter().map(|&i| i as usize).collect(),
        speakers: completed(profile_order, profiles.len()),
        answers: completed(
            answer_keys.iter().map(|k| k.2 as usize).collect(),
            event.answers.len(),
        ),
        reviews: completed(
            review_keys.iter().map(|k| k.1 as usize).collect(),
            event.reviews.len(),
        ),
    }
}

/// Moves the event's big lists into the order a page of submissions reads
/// them (`page_orders`), and returns where each item of the store's order
/// went. Stored in the dataset's order (by id, where codes are random), one
/// page's fifty submissions, their speakers, answers and reviews, and the
/// catalog's tables beside them, lay in fifty places across the event: a
/// cache miss each. In page order they are a few runs of adjacent memory;
/// the rest (reviews' answers, speakers without submissions) after them,
/// in the store's order. What shows the store's order reads it through the
/// returned `StoredOrder`; the catalog's sorts start from it, so that their
/// ties fall as before. (The items' texts follow the order the store
/// read them in: an import writes the records in page order for that,
/// `storage::records::event_records`.)
fn order_for_pages(event: &mut Event) -> StoredOrder {
    let orders = page_orders(event);
    let (submissions, stored_submissions) =
        permuted(std::mem::take(&mut event.submissions), orders.submissions);
    let (speakers, stored_speakers) =
        permuted(std::mem::take(&mut event.speakers), orders.speakers);
    let (answers, stored_answers) = permuted(std::mem::take(&mut event.answers), orders.answers);
    let (reviews, stored_reviews) = permuted(std::mem::take(&mut event.reviews), orders.reviews);
    event.submissions = submissions;
    event.speakers = speakers;
    event.answers = answers;
    event.reviews = reviews;
    StoredOrder {
        submissions: stored_submissions,
        speakers: stored_speakers,
        answers: stored_answers,
        reviews: stored_reviews,
    }
}

/// `items` in `order` (every position, each once); and for each old
/// position, its new one.
fn permuted<T, I: From<u32> + Copy>(mut items: Vec<T>, order: Vec<usize>) -> (Vec<T>, Vec<I>) {
    let mut new_position = vec![I::from(0); items.len()];
    for (new, &old) in order.iter().enumerate() {
        new_position[old] = I::from(new as u32);
    }
    permute_in_place(&mut items, &order);
    (items, new_position)
}

/// Puts the item at position `order[new]` at `new` (`order` holds every
/// position once), in place: each cycle of the permutation is followed
/// with swaps. A second list of the items (as `Option`s, then moved into a
/// third) was the largest memory a cold start touched besides the event
/// itself, and fresh pages cost more than the moves (docs: BENCHMARKS.md,
/// "Cold start (helper, 7 December)").
pub fn permute_in_place<T>(items: &mut [T], order: &[usize]) {
    debug_assert_eq!(items.len(), order.len());
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        if placed[start] {
            continue;
        }
        // `at` takes the item from `order[at]`, which then holds the
        // cycle's first item, until the cycle closes.
        let mut at = start;
        placed[at] = true;
        loop {
            let from = order[at];
            // `placed[from]` only for an order that is no permutation:
            // stop instead of walking forever.
            if from == start || placed[from] {
                break;
            }
            items.swap(at, from);
            at = from;
            placed[at] = true;
        }
    }
}

/// Whether two versions of a submission agree in everything the indexes
/// of `EventData::build` and `Catalog::new` read of a submission: its
/// code, speakers, state and slots. (Its texts are read by the search
/// indexes, which each catalog builds anew on first use.)
fn same_indexed(old: &Submission, new: &Submission) -> bool {
    old.code == new.code
        && old.speakers == new.speakers
        && old.state == new.state
        && old.slots == new.slots
}

/// `positions` (every position of a list, in the store's order) sorted by
/// a lower-cased code, equal ones in the store's order.
fn by_lower_code<I: Copy>(mut positions: Vec<I>, code: impl Fn(I) -> String) -> Vec<I> {
    positions.sort_by_cached_key(|&i| code(i));
    positions
}

/// `index_by` over `positions` (every position of `items`), in that order.
fn index_in_order<'t, T, K: std::hash::Hash + Eq, I: Copy>(
    items: &'t [T],
    positions: &[I],
    key: impl Fn(&'t T) -> K,
) -> HashMap<K, I>
where
    usize: From<I>,
{
    positions
        .iter()
        .map(|&i| (key(&items[usize::from(i)]), i))
        .collect()
}

impl EventData {
    /// The snapshot of `event` with its lists in the store's order.
    pub fn new(event: Event) -> Self {
        Self::build(event, None)
    }

    /// The snapshot served: `new`'s, with the event's big lists in the
    /// order pages read them (`order_for_pages`).
    pub fn serving(mut event: Event) -> Self {
        let stored = order_for_pages(&mut event);
        Self::build(event, Some(stored))
    }

    /// The snapshot served, of an event whose big lists are in page order
    /// already, as `stored` places them (a patch applied in place to a
    /// served snapshot: `EventPatch::apply_in_place`).
    pub fn serving_in_place(event: Event, stored: StoredOrder) -> Self {
        Self::build(event, Some(stored))
    }

    /// This snapshot with some submissions rewritten in their places
    /// (`EventPatch::rewritten_submissions`), sharing everything else: the
    /// other records and every index. `None` when a rewritten submission
    /// differs in what an index reads (`same_indexed`): a patched snapshot
    /// is then built anew (`serving_in_place`). Rebuilding the indexes of
    /// the 100,000-submission event for one changed title took a second.
    pub fn with_submissions_rewritten(
        &self,
        rewritten: Vec<(SubmissionIx, Arc<Submission>)>,
    ) -> Option<EventData> {
        let submissions = &self.event.submissions;
        let keeps_indexes = rewritten.iter().all(|(place, new)| {
            submissions
                .get(place.get())
                .is_some_and(|old| same_indexed(old, new))
        });
        if !keeps_indexes {
            return None;
        }
        let mut event = self.event.clone();
        for (place, new) in rewritten {
            event.submissions[place.get()] = new;
        }
        // Spelled out, so that a new index is a decision here.
        let EventData {
            event: _,
            shared_json: _,
            tz,
            schedule_public,
            submissions_by_code,
            talks_by_code,
            public_talks_by_code,
            submissions_by_lower_code,
            is_talk,
            is_public_talk,
            speaker_profiles,
            profiles_by_code,
            own_code_profiles,
            profiles_by_lower_code,
            public_profiles_by_code,
            type_index,
            track_index,
            room_index,
            tag_index,
            question_index,
            reviews_by_id,
            answers_by_id,
            public_owner_answers_by_id,
            answer_owner,
            answer_question,
            is_public_profile,
            profile_submissions,
            answers_of_submission,
            answers_of_person,
            answers_of_review,
            reviews_ordered,
            review_submission,
            reviews_of_submission,
            reviewers_who_wrote,
            stored_order,
        } = self;
        Some(EventData {
            event,
            shared_json: SharedJson::default(),
            tz: *tz,
            schedule_public: *schedule_public,
            submissions_by_code: submissions_by_code.clone(),
            talks_by_code: talks_by_code.clone(),
            public_talks_by_code: public_talks_by_code.clone(),
            submissions_by_lower_code: submissions_by_lower_code.clone(),
            is_talk: is_talk.clone(),
            is_public_talk: is_public_talk.clone(),
            speaker_profiles: speaker_profiles.clone(),
            profiles_by_code: profiles_by_code.clone(),
            own_code_profiles: own_code_profiles.clone(),
            profiles_by_lower_code: profiles_by_lower_code.clone(),
            public_profiles_by_code: public_profiles_by_code.clone(),
            type_index: type_index.clone(),
            track_index: track_index.clone(),
            room_index: room_index.clone(),
            tag_index: tag_index.clone(),
            question_index: question_index.clone(),
            reviews_by_id: reviews_by_id.clone(),
            answers_by_id: answers_by_id.clone(),
            public_owner_answers_by_id: public_owner_answers_by_id.clone(),
            answer_owner: answer_owner.clone(),
            answer_question: answer_question.clone(),
            is_public_profile: is_public_profile.clone(),
            profile_submissions: profile_submissions.clone(),
            answers_of_submission: answers_of_submission.clone(),
            answers_of_person: answers_of_person.clone(),
            answers_of_review: answers_of_review.clone(),
            reviews_ordered: reviews_ordered.clone(),
            review_submission: review_submission.clone(),
            reviews_of_submission: reviews_of_submission.clone(),
            reviewers_who_wrote: reviewers_who_wrote.clone(),
            stored_order: stored_order.clone(),
        })
    }

    fn build(event: Event, stored_order: Option<StoredOrder>) -> Self {
        let stored = stored_order.as_ref();
        let stored_submissions: Vec<SubmissionIx> =
            stored_positions(stored.map(|o| &o.submissions[..]), event.submissions.len()).collect();
        let stored_profiles: Vec<ProfileIx> =
            stored_positions(stored.map(|o| &o.speakers[..]), event.speakers.len()).collect();
        let stored_answers: Vec<AnswerIx> =
            stored_positions(stored.map(|o| &o.answers[..]), event.answers.len()).collect();
        let stored_reviews: Vec<ReviewIx> =
            stored_positions(stored.map(|o| &o.reviews[..]), event.reviews.len()).collect();
        let tz: Tz = event.timezone.parse().unwrap_or(chrono_tz::UTC);
        let schedule_public = event.is_public && event.show_schedule && event.schedule.is_some();
        let subs = &event.submissions;
        let profiles = &event.speakers;
        let answers = &event.answers;
        let reviews = &event.reviews;

        // The sorted lists and the maps by code need nothing but the items:
        // built on both cores at once, half of them each, instead of in turn.
        // Each sort takes its keys out first (`sort_by_cached_key`): every
        // record is an allocation of its own (`Arc`, shared with patched
        // snapshots), and a comparison through it cost two cache misses.
        let (
            (
                submissions_by_code,
                profiles_by_code,
                submissions_by_lower_code,
                profiles_by_lower_code,
            ),
            (reviews_by_id, answers_by_id, reviews_ordered, submission_map, profile_map),
        ) = rayon::join(
            || {
                let mut submissions_by_code: Vec<SubmissionIx> = stored_submissions.clone();
                submissions_by_code.sort_by_cached_key(|&i| subs[i].code.as_str());
                let mut profiles_by_code: Vec<ProfileIx> = stored_profiles.clone();
                profiles_by_code.sort_by_cached_key(|&i| profiles[i].speaker_code().as_str());
                let submissions_by_lower =
                    by_lower_code(stored_submissions.clone(), |i| subs[i].code.to_lowercase());
                let profiles_by_lower = by_lower_code(stored_profiles.clone(), |i| {
                    profiles[i].speaker_code().to_lowercase()
                });
                (
                    submissions_by_code,
                    profiles_by_code,
                    submissions_by_lower,
                    profiles_by_lower,
                )
            },
            || {
                let mut reviews_by_id: Vec<ReviewIx> = stored_reviews.clone();
                reviews_by_id.sort_by_cached_key(|&i| reviews[i].id);
                let mut answers_by_id: Vec<AnswerIx> = stored_answers;
                answers_by_id.sort_by_cached_key(|&i| answers[i].id);
                let mut reviews_ordered: Vec<ReviewIx> = stored_reviews;
                reviews_ordered.sort_by_cached_key(|&i| (reviews[i].created, reviews[i].id));
                // Hash maps of borrowed codes, for building only: a binary
                // search per answer and speaker made indexing (and so each
                // reload) of the 100,000-submission event take seconds. The
                // last of equal codes wins, as with the lookups the event
                // keeps.
                let submission_map = index_in_order(subs, &stored_submissions, |s| s.code.as_str());
                let profile_map =
                    index_in_order(profiles, &stored_profiles, |p| p.speaker_code().as_str());
                (
                    reviews_by_id,
                    answers_by_id,
                    reviews_ordered,
                    submission_map,
                    profile_map,
                )
            },
        );
        let is_talk: Per<SubmissionIx, bool> = subs
            .iter()
            .map(|s| event.schedule.is_some() && s.slots.iter().any(|slot| slot.is_visible))
            .collect();
        let is_public_talk: Per<SubmissionIx, bool> = SubmissionIx::all(subs.len())
            .map(|i| schedule_public && is_talk[i] && subs[i].state == SubmissionState::Confirmed)
            .collect();
        let talks_by_code = submissions_by_code
            .iter()
            .copied()
            .filter(|&i| is_talk[i])
            .collect();
        let public_talks_by_code: Vec<SubmissionIx> = submissions_by_code
            .iter()
            .copied()
            .filter(|&i| is_public_talk[i])
            .collect();
        let own_code_profiles: HashMap<ArcStr, ProfileIx> = stored_profiles
            .iter()
            .filter(|&&p| profiles[p].code.is_some())
            .map(|&p| (profiles[p].user.clone(), p))
            .collect();
        let profile_of = |user: &str| profile_map.get(user).copied();
        let submission_of = |code: &str| submission_map.get(code).copied();

        let public_speakers: HashSet<&str> = public_talks_by_code
            .iter()
            .flat_map(|&i| subs[i].speakers.iter().map(ArcStr::as_str))
            .collect();
        let is_public_profile: Per<ProfileIx, bool> = profiles
            .iter()
            .map(|p| public_speakers.contains(p.speaker_code().as_str()))
            .collect();
        let public_profiles_by_code = profiles_by_code
            .iter()
            .copied()
            .filter(|&i| is_public_profile[i])
            .collect();
        // Each speaker's submissions by code, a speaker named twice once.
        let profile_submissions = Groups::new(
            profiles.len(),
            submissions_by_code.iter().flat_map(|&i| {
                let speakers = &subs[i].speakers;
                speakers
                    .iter()
                    .enumerate()
                    .filter(move |(k, code)| !speakers[..*k].contains(code))
                    .filter_map(move |(_, code)| Some((profile_of(code)?, i)))
            }),
        );
        let speaker_profiles = Groups::new(
            subs.len(),
            subs.iter().enumerate().flat_map(|(i, s)| {
                s.speakers
                    .iter()
                    .map(move |code| (at::<SubmissionIx>(i), profile_of(code)))
            }),
        );
        let review_of = |id: i64| find(&reviews_by_id, |r| reviews[r].id.cmp(&id));
        let question_index = index_by(&event.questions, at::<QuestionIx>, |q| q.id);
        let answer_owner: Per<AnswerIx, AnswerOwner> = answers
            .iter()
            .map(|a| {
                let found = if let Some(code) = &a.submission {
                    submission_of(code).map(AnswerOwner::Submission)
                } else if let Some(user) = &a.person {
                    profile_of(user).map(AnswerOwner::Person)
                } else {
                    a.review.and_then(review_of).map(AnswerOwner::Review)
                };
                found.unwrap_or(AnswerOwner::Missing)
            })
            .collect();
        let public_owner_answers_by_id = answers_by_id
            .iter()
            .copied()
            .filter(|&i| match answer_owner[i] {
                AnswerOwner::Submission(s) => is_public_talk[s],
                AnswerOwner::Person(p) => is_public_profile[p],
                _ => false,
            })
            .collect();
        let answer_question = answers
            .iter()
            .map(|a| question_index.get(&a.question).copied())
            .collect();
        let by_id = answers_by_id.iter().map(|&i| (i, &answers[i]));
        let answers_of_submission = Groups::new(
            subs.len(),
            by_id
                .clone()
                .filter_map(|(i, a)| Some((submission_of(a.submission.as_deref()?)?, i))),
        );
        let answers_of_person = Groups::new(
            profiles.len(),
            by_id
                .clone()
                .filter_map(|(i, a)| Some((profile_of(a.person.as_deref()?)?, i))),
        );
        let answers_of_review = Groups::new(
            reviews.len(),
            by_id.filter_map(|(i, a)| Some((review_of(a.review?)?, i))),
        );
        let review_submission: Per<ReviewIx, Option<SubmissionIx>> = reviews
            .iter()
            .map(|r| submission_of(&r.submission))
            .collect();
        let reviews_of_submission = Groups::new(
            subs.len(),
            reviews_by_id
                .iter()
                .filter_map(|&r| Some((review_submission[r]?, r))),
        );

        EventData {
            tz,
            schedule_public,
            review_submission,
            reviews_of_submission,
            submissions_by_lower_code,
            submissions_by_code,
            talks_by_code,
            public_talks_by_code,
            public_profiles_by_code,
            is_talk,
            is_public_talk,
            speaker_profiles,
            profiles_by_lower_code,
            profiles_by_code,
            own_code_profiles,
            type_index: index_by(&event.submission_types, at::<TypeIx>, |t| t.id),
            track_index: index_by(&event.tracks, at::<TrackIx>, |t| t.id),
            room_index: index_by(&event.rooms, at::<RoomIx>, |r| r.id),
            tag_index: index_by(&event.tags, at::<TagIx>, |t| t.id),
            question_index,
            reviews_by_id,
            answers_of_submission,
            answers_of_person,
            answers_of_review,
            public_owner_answers_by_id,
            answers_by_id,
            answer_owner,
            answer_question,
            is_public_profile,
            profile_submissions,
            reviews_ordered,
            reviewers_who_wrote: reviews.iter().map(|r| r.user.to_string()).collect(),
            stored_order,
            shared_json: SharedJson::default(),
            event,
        }
    }

    /// The positions of the event's submissions, in the store's order (a
    /// patch's positions, the schedule exports' talks and the feed's walk
    /// are in that order).
    pub fn submission_positions_stored(&self) -> impl Iterator<Item = SubmissionIx> + '_ {
        let order = self.stored_order.as_ref().map(|o| &o.submissions[..]);
        stored_positions(order, self.event.submissions.len())
    }

    /// The positions of the event's speaker profiles, in the store's order.
    pub fn profile_positions_stored(&self) -> impl Iterator<Item = ProfileIx> + '_ {
        let order = self.stored_order.as_ref().map(|o| &o.speakers[..]);
        stored_positions(order, self.event.speakers.len())
    }

    /// The positions of the event's answers, in the store's order.
    pub fn answer_positions_stored(&self) -> impl Iterator<Item = AnswerIx> + '_ {
        let order = self.stored_order.as_ref().map(|o| &o.answers[..]);
        stored_positions(order, self.event.answers.len())
    }

    /// The positions of the event's reviews, in the store's order.
    pub fn review_positions_stored(&self) -> impl Iterator<Item = ReviewIx> + '_ {
        let order = self.stored_order.as_ref().map(|o| &o.reviews[..]);
        stored_positions(order, self.event.reviews.len())
    }

    /// The event's submissions in the order the store keeps them.
    pub fn stored_submissions(&self) -> Vec<&Arc<Submission>> {
        let list = &self.event.submissions;
        self.submission_positions_stored()
            .map(|i| &list[i.get()])
            .collect()
    }

    /// The event's speaker profiles in the order the store keeps them.
    pub fn stored_speakers(&self) -> Vec<&Arc<SpeakerProfile>> {
        let list = &self.event.speakers;
        self.profile_positions_stored()
            .map(|p| &list[p.get()])
            .collect()
    }

    /// The event's answers in the order the store keeps them.
    pub fn stored_answers(&self) -> Vec<&Arc<Answer>> {
        let list = &self.event.answers;
        self.answer_positions_stored()
            .map(|a| &list[a.get()])
            .collect()
    }

    /// The event's reviews in the order the store keeps them.
    pub fn stored_reviews(&self) -> Vec<&Arc<Review>> {
        let list = &self.event.reviews;
        self.review_positions_stored()
            .map(|r| &list[r.get()])
            .collect()
    }

    /// The position of the submission with this code.
    pub fn submission_position(&self, code: &str) -> Option<SubmissionIx> {
        let subs = &self.event.submissions;
        find(&self.submissions_by_code, |i| {
            subs[i].code.as_str().cmp(code)
        })
    }

    /// The position of the submission with this code in any case.
    pub fn submission_lookup(&self, code: &str) -> Option<SubmissionIx> {
        let subs = &self.event.submissions;
        let lower = code.to_lowercase();
        find(&self.submissions_by_lower_code, |i| {
            compare_lower(&subs[i].code, &lower)
        })
    }

    pub fn submission(&self, code: &str) -> Option<&Submission> {
        self.submission_position(code)
            .map(|i| &self.event.submissions[i])
    }

    pub fn question(&self, id: i64) -> Option<&Question> {
        self.question_index
            .get(&id)
            .map(|&i| &self.event.questions[i])
    }

    pub fn submission_type(&self, id: i64) -> Option<&SubmissionType> {
        self.type_index
            .get(&id)
            .map(|&i| &self.event.submission_types[i])
    }

    pub fn track(&self, id: i64) -> Option<&Track> {
        self.track_index.get(&id).map(|&i| &self.event.tracks[i])
    }

    pub fn room(&self, id: i64) -> Option<&Room> {
        self.room_index.get(&id).map(|&i| &self.event.rooms[i])
    }

    pub fn tag(&self, id: i64) -> Option<&Tag> {
        self.tag_index.get(&id).map(|&i| &self.event.tags[i])
    }

    pub fn review_position(&self, id: i64) -> Option<ReviewIx> {
        let reviews = &self.event.reviews;
        find(&self.reviews_by_id, |r| reviews[r].id.cmp(&id))
    }

    pub fn answer_position(&self, id: i64) -> Option<AnswerIx> {
        let answers = &self.event.answers;
        find(&self.answers_by_id, |a| answers[a].id.cmp(&id))
    }

    /// The position of the speaker profile this code names (the profile's
    /// own code, else its user's: `SpeakerProfile::speaker_code`).
    pub fn profile_position(&self, user: &str) -> Option<ProfileIx> {
        let profiles = &self.event.speakers;
        find(&self.profiles_by_code, |p| {
            profiles[p].speaker_code().as_str().cmp(user)
        })
    }

    /// `profile_position` of the code in any case.
    pub fn profile_lookup(&self, user: &str) -> Option<ProfileIx> {
        let profiles = &self.event.speakers;
        let lower = user.to_lowercase();
        find(&self.profiles_by_lower_code, |p| {
            compare_lower(profiles[p].speaker_code(), &lower)
        })
    }

    pub fn profile(&self, user: &str) -> Option<&SpeakerProfile> {
        self.profile_position(user).map(|i| &self.event.speakers[i])
    }

    /// The user (person) a speaker code of this event names: the user of
    /// the profile that goes by it, else the code itself.
    pub fn speaker_user_code<'s>(&'s self, code: &'s str) -> &'s str {
        self.profile(code).map_or(code, |p| p.user.as_str())
    }

    /// The user's profile in this event, whatever code it goes by.
    pub fn profile_of_user(&self, user: &str) -> Option<ProfileIx> {
        match self.own_code_profiles.get(user) {
            Some(&p) => Some(p),
            None => self
                .profile_position(user)
                .filter(|&p| self.event.speakers[p].user.as_str() == user),
        }
    }

    /// Positions of the user's submissions, by code (every speaker has a
    /// profile: validation sees to it), whatever code their profile goes by.
    pub fn submissions_of_user(&self, user: &str) -> &[SubmissionIx] {
        self.profile_of_user(user)
            .map_or(&[], |p| self.profile_submissions.of(p))
    }

    /// The submission's duration, else its type's default.
    pub fn duration(&self, sub: &Submission) -> i64 {
        sub.duration
            .or_else(|| {
                self.submission_type(sub.submission_type)
                    .map(|t| t.default_duration)
            })
            .unwrap_or(0)
    }
}

/// All users and events of one storage generation.
#[derive(Debug, Default)]
pub struct Catalog {
    /// The storage version this catalog was built from.
    pub version: super::version::DataVersion,
    pub users: Users,
    /// SHA-256 hex of a token → user code, and the token's API version.
    pub token_owner: HashMap<String, (ArcStr, Option<ApiVersion>)>,
    /// Events sorted by `date_from` descending, then slug.
    pub events: Vec<Arc<EventData>>,
    /// Lower-case slug → position in `events`.
    pub event_lookup: HashMap<String, usize>,
    /// Slug → the stored version each event was loaded at.
    pub event_versions: StdHashMap<String, super::version::EventVersion>,
    /// Per event (same positions as `events`), per submission: the user of
    /// each of its speakers, in `speakers` order (None for a code with no
    /// user), so that a page of submissions or a search by name looks no
    /// user up by code. Built here and not in `EventData` because users
    /// belong to the catalog, which any import may change without touching
    /// the event.
    pub speaker_users: Vec<SpeakerUsers>,
    /// Per event (same positions): its search indexes, built on first use.
    pub search: Vec<EventSearch>,
    /// The change feeds up to this catalog's generation (`domain::feed`).
    pub feed: Arc<super::feed_log::FeedLog>,
}

/// The `q` indexes of one event in one catalog (they read users' names, so
/// they belong to the catalog, like `speaker_users`). Document ids
/// are ranks in the list's own order: submissions by code, profiles by
/// user code, answers by id.
#[derive(Debug, Default)]
pub struct EventSearch {
    /// Title, anonymised title and speaker names of each submission.
    pub submissions: LazyIndex,
    /// Name and e-mail of each speaker.
    pub speakers: LazyIndex,
    /// The text of each answer.
    pub answers: LazyIndex<DistinctTextIndex>,
    /// The text of each question, in every language (by position in the
    /// event's questions).
    pub questions: LazyIndex,
}

/// Users by code.
/// The users of each submission's speakers, by submission position.
pub type SpeakerUsers = Groups<SubmissionIx, Option<Arc<User>>>;

/// Shared, so that a reload copies pointers, and each event can point at
/// its speakers' users directly (`Catalog::speaker_users`).
pub type Users = HashMap<ArcStr, Arc<User>>;

impl Catalog {
    pub fn new(
        version: super::version::DataVersion,
        users: Users,
        events: Vec<(Arc<EventData>, super::version::EventVersion)>,
    ) -> Self {
        let mut token_owner = HashMap::default();
        for user in users.values() {
            for token in &user.token_hashes {
                token_owner.insert(token.hash.clone(), (user.code.clone(), token.api_version));
            }
        }
        let mut events = events;
        events.sort_by(|(a, _), (b, _)| {
            b.event
                .date_from
                .cmp(&a.event.date_from)
                .then_with(|| a.event.slug.cmp(&b.event.slug))
        });
        let event_versions = events
            .iter()
            .map(|(e, v)| (e.event.slug.clone(), *v))
            .collect();
        let events: Vec<Arc<EventData>> = events.into_iter().map(|(e, _)| e).collect();
        let speaker_users: Vec<SpeakerUsers> = events
            .iter()
            .map(|e| {
                let profiles = &e.event.speakers;
                Groups::from_groups(SubmissionIx::all(e.event.submissions.len()).map(|i| {
                    // A code names a profile, whose user is the person (the
                    // profile may go by a code of its own: pretalx 2026).
                    e.event.submissions[i]
                        .speakers
                        .iter()
                        .zip(e.speaker_profiles.of(i))
                        .map(|(code, profile)| {
                            let user = profile.map_or(code.as_str(), |p| profiles[p].user.as_str());
                            users.get(user).cloned()
                        })
                }))
            })
            .collect();
        Catalog {
            search: events.iter().map(|_| EventSearch::default()).collect(),
            speaker_users,
            version,
            users,
            token_owner,
            event_lookup: events
                .iter()
                .enumerate()
                .map(|(i, e)| (e.event.slug.to_lowercase(), i))
                .collect(),
            events,
            event_versions,
            feed: Arc::default(),
        }
    }

    /// The token's user, and the API version configured on the token.
    pub fn user_by_token(&self, token: &str) -> Option<(&User, Option<ApiVersion>)> {
        let (code, version) = self.token_owner.get(&hash_token(token))?;
        self.users.get(code).map(|user| (&**user, *version))
    }

    /// The users of each submission's speakers of an event in this catalog.
    pub fn speaker_users(&self, event: &EventData) -> Option<&SpeakerUsers> {
        self.position(event).map(|i| &self.speaker_users[i])
    }

    /// The search indexes of an event of this catalog.
    pub fn search(&self, event: &EventData) -> Option<&EventSearch> {
        self.position(event).map(|i| &self.search[i])
    }

    /// The index of an event's submissions (by code): title, anonymised
    /// title and speaker names.
    pub fn submission_index(&self, event: &EventData) -> Option<&TrigramIndex> {
        let position = self.position(event)?;
        let users = &self.speaker_users[position];
        Some(self.search[position].submissions.get_or_build(|| {
            // Lower-cased here, one submission at a time, and not kept:
            // searches compare ignoring case (`params::matches_all_terms`).
            let texts = event.submissions_by_code.iter().map(|&i| {
                let submission = &event.event.submissions[i];
                let anonymised_title = submission.anonymised.as_ref().map(|a| &a.title);
                let names = users.of(i).iter().flatten().map(|user| &user.name);
                std::iter::once(&submission.title)
                    .chain(anonymised_title)
                    .chain(names)
                    .map(|text| text.to_lowercase())
                    .collect::<Vec<String>>()
            });
            TrigramIndex::build(texts)
        }))
    }

    /// The index of an event's speakers (by user code): name and e-mail.
    pub fn speaker_index(&self, event: &EventData) -> Option<&TrigramIndex> {
        let position = self.position(event)?;
        Some(self.search[position].speakers.get_or_build(|| {
            let texts: Vec<[String; 2]> = event
                .profiles_by_code
                .iter()
                .map(
                    |&p| match self.users.get(event.event.speakers[p].user.as_str()) {
                        Some(user) => [user.name.to_lowercase(), user.email.to_lowercase()],
                        None => Default::default(),
                    },
                )
                .collect();
            TrigramIndex::build(texts.iter().map(|t| t.iter().map(String::as_str)))
        }))
    }

    /// The index of an event's answers (by id): their text.
    pub fn answer_index(&self, event: &EventData) -> Option<&DistinctTextIndex> {
        let position = self.position(event)?;
        Some(self.search[position].answers.get_or_build(|| {
            DistinctTextIndex::build(
                event
                    .answers_by_id
                    .iter()
                    .map(|&a| event.event.answers[a].answer.as_str()),
                str::to_lowercase,
            )
        }))
    }

    /// The index of an event's questions (in the order of the event's
    /// `questions`): their text in every language.
    pub fn question_text_index(&self, event: &EventData) -> Option<&TrigramIndex> {
        let position = self.position(event)?;
        Some(self.search[position].questions.get_or_build(|| {
            let texts: Vec<Vec<String>> = event
                .event
                .questions
                .iter()
                .map(|q| q.question.texts().map(str::to_lowercase).collect())
                .collect();
            TrigramIndex::build(texts.iter().map(|t| t.iter().map(String::as_str)))
        }))
    }

    /// The event's position in `events`, if it is this catalog's own.
    fn position(&self, event: &EventData) -> Option<usize> {
        self.event_lookup
            .get(&event.event.slug.to_lowercase())
            .copied()
            .filter(|&i| std::ptr::eq(Arc::as_ptr(&self.events[i]), event))
    }

    pub fn event(&self, slug: &str) -> Option<&Arc<EventData>> {
        // Every request looks its event up: no allocation when the slug
        // is lower-case already, as it nearly always is.
        let position = if slug
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
        {
            self.event_lookup.get(slug)
        } else {
            self.event_lookup.get(&slug.to_lowercase())
        };
        position.map(|&i| &self.events[i])
    }

    pub fn user(&self, code: &str) -> Option<&User> {
        self.users.get(code).map(|user| &**user)
    }
}

#[cfg(test)]
mod tests;
