//! The orders of an event's big lists: the store's (`StoredOrder`) and the
//! one a page of submissions reads them in (`page_orders`), and the moves
//! between them.

use rustc_hash::FxHashMap as HashMap;

use super::{AnswerIx, ProfileIx, ReviewIx, SubmissionIx};
use crate::model::Event;

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
pub(super) fn stored_positions<I: Copy + From<u32>>(
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
pub(super) fn order_for_pages(event: &mut Event) -> StoredOrder {
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
/// itself, and fresh pages cost more than the moves (docs/bench-log.md,
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
