//! The generator: one random sequence, drawn from in a fixed order, and the
//! records made so far. Its methods are split by concern: `people` (users,
//! speakers, profiles), `event` (one event and its event-level records),
//! `submissions` (proposals and their texts), `schedule` (slots),
//! `reviews` (teams, reviewers, reviews) and `answers`.

use std::collections::HashSet;

use fastrand::Rng;

use super::tables::{CODE_ALPHABET, CODE_LENGTH};
use super::{DemoLogin, DemoOptions};
use chrono::Duration;

use crate::model::{Dataset, Timestamp, User};

mod answers;
mod event;
mod people;
mod reviews;
mod schedule;
mod submissions;

/// Everything but what `v1` adds.
pub(super) fn generate_without_v1(options: &DemoOptions) -> (Dataset, Vec<DemoLogin>) {
    let mut generator = Generator::new(options.seed);
    // Mixed into the seed so tokens do not repeat the main sequence.
    let mut token_rng = Rng::with_seed(options.seed ^ 0x746f_6b65_6e73);
    let (staff, logins) = generator.staff(&mut token_rng);
    let events = (0..options.events)
        .map(|index| generator.event(index, options.submissions, &staff))
        .collect();
    let dataset = Dataset {
        users: generator.users,
        events,
    };
    (dataset, logins)
}

#[derive(Default)]
struct Ids {
    submission_type: i64,
    track: i64,
    room: i64,
    availability: i64,
    tag: i64,
    question: i64,
    option: i64,
    answer: i64,
    review: i64,
    /// Upstream primary keys (pretalx's), for the schedule exports.
    user_pk: i64,
    submission_pk: i64,
    /// Slots and breaks: one id space.
    slot_pk: i64,
}

/// Hands out the next id of a kind: ids are one global sequence per kind.
fn next_id(counter: &mut i64) -> i64 {
    *counter += 1;
    *counter
}

struct Generator {
    rng: Rng,
    ids: Ids,
    users: Vec<User>,
    user_codes: HashSet<String>,
    submission_codes: HashSet<String>,
    emails: HashSet<String>,
    /// Every speaker created so far (user indices), for returning speakers.
    speakers: Vec<usize>,
    /// Reviewers without a demo login, shared by all events.
    reviewers: Vec<usize>,
}

impl Generator {
    fn new(seed: u64) -> Self {
        Generator {
            rng: Rng::with_seed(seed),
            ids: Ids::default(),
            users: Vec::new(),
            user_codes: HashSet::new(),
            submission_codes: HashSet::new(),
            emails: HashSet::new(),
            speakers: Vec::new(),
            reviewers: Vec::new(),
        }
    }

    fn chance(&mut self, probability: f64) -> bool {
        self.rng.f64() < probability
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.usize(..items.len())]
    }

    fn weighted<T: Copy>(&mut self, table: &[(T, u32)]) -> T {
        let total: u32 = table.iter().map(|(_, weight)| weight).sum();
        let mut ticket = self.rng.u32(..total);
        for &(value, weight) in table {
            if ticket < weight {
                return value;
            }
            ticket -= weight;
        }
        table[table.len() - 1].0
    }

    /// `count` distinct items, in random order (a partial Fisher–Yates shuffle).
    fn sample<T: Copy>(&mut self, items: &[T], count: usize) -> Vec<T> {
        let mut items = items.to_vec();
        let count = count.min(items.len());
        for i in 0..count {
            let j = self.rng.usize(i..items.len());
            items.swap(i, j);
        }
        items.truncate(count);
        items
    }

    fn instant_between(&mut self, from: Timestamp, to: Timestamp) -> Timestamp {
        let span = (to - from).num_microseconds().unwrap_or(0).max(1);
        from + Duration::microseconds(self.rng.i64(0..span))
    }

    fn code(&mut self) -> String {
        (0..CODE_LENGTH)
            .map(|_| char::from(CODE_ALPHABET[self.rng.usize(..CODE_ALPHABET.len())]))
            .collect()
    }

    fn unique_code(&mut self, kind: CodeKind) -> String {
        loop {
            let code = self.code();
            let taken = match kind {
                CodeKind::User => &mut self.user_codes,
                CodeKind::Submission => &mut self.submission_codes,
            };
            if taken.insert(code.clone()) {
                return code;
            }
        }
    }

    fn code_of(&self, user: usize) -> String {
        self.users[user].code.to_string()
    }
}

enum CodeKind {
    User,
    Submission,
}
