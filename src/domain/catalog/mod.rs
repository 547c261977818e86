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
mod lookups;
mod order;
mod shared_json;

use order::{order_for_pages, stored_positions};
pub use order::{page_orders, permute_in_place, PageOrders, StoredOrder};
pub use shared_json::SharedJson;

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
