//! A deterministic synthetic demo dataset: realistic-looking conferences that
//! exercise every role, submission state, question kind and visibility rule of
//! the API (`shared/spec/behaviour.md`), at any size.
//!
//! Everything except the tokens is drawn from one generator seeded with
//! [`DemoOptions::seed`], in a fixed order, so the same options always give
//! the same dataset. Tokens come from a second generator seeded from the seed
//! alone, so the demo logins stay the same when only the size changes. What
//! pretalx's v1 API shows beyond that (schedule history, score categories,
//! ...) is filled last, by `v1`, from a third generator, so that adding it
//! changed nothing else.
//!
//! What the first event (`democonf`) shows, per role:
//! - the administrator and the organiser see everything; the organiser also
//!   speaks in the opening talk, so reviews of it are hidden from them;
//! - the reviewer reviews every track, wrote reviews (so sees the others'
//!   after review) and co-speaks in one rejected proposal;
//! - the track reviewer's team is limited to two tracks;
//! - the blind reviewer's only team forces hidden speaker names, so they get
//!   the anonymised view, and has written no review yet;
//! - the speaker has a public talk (a confirmed workshop with two slots) and
//!   is in a team without rights, so authenticates with the public role.
//!
//! Further events alternate between a private event without schedule (review
//! phase with assigned proposals only) and a public event whose released
//! schedule is hidden by the organisers.
//!
//! Where things are: `generator` draws the records (split by concern:
//! people, event, submissions, schedule, reviews, answers) from the plan of
//! each event (`plan`), the question templates (`questions`), the small
//! tables (`tables`) and the word lists, which are data (`words`, reading
//! `data/`); `v1` fills what pretalx's v1 API adds.

use crate::model::{Dataset, Team};

mod generator;
mod helpers;
mod plan;
mod questions;
mod tables;
#[cfg(test)]
mod tests;
mod v1;
mod words;

use generator::generate_without_v1;

#[derive(Debug, Clone)]
pub struct DemoOptions {
    pub events: usize,
    /// Submissions per event.
    pub submissions: usize,
    pub seed: u64,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            events: 2,
            submissions: 120,
            seed: 2026,
        }
    }
}

/// A login a new user can try: who it is, which role it has in the first event, and its clear token.
#[derive(Debug, Clone)]
pub struct DemoLogin {
    pub email: String,
    pub role: &'static str,
    pub token: String,
}

/// The dataset without confapi's extensions of the published format
/// (`shared/spec/dataset.md`), for tools that know only that format (its
/// reference validator and oracle): private resources are left out, and
/// what pretalx's v1 API shows is at its defaults (not written).
pub fn portable(dataset: &mut Dataset) {
    for event in &mut dataset.events {
        for submission in event.submissions.iter_mut().map(std::sync::Arc::make_mut) {
            submission.resources.retain(|r| r.is_public);
        }
        // The organiser and its teams' v1 fields (`teams/`).
        event.organiser = None;
        for team in &mut event.teams {
            *team = Team {
                name: std::mem::take(&mut team.name),
                members: std::mem::take(&mut team.members),
                can_change_submissions: team.can_change_submissions,
                is_reviewer: team.is_reviewer,
                force_hide_speaker_names: team.force_hide_speaker_names,
                limit_tracks: std::mem::take(&mut team.limit_tracks),
                ..Team::default()
            };
        }
    }
    v1::clear(dataset);
    clear_2026_fields(dataset);
}

/// pretalx 2026's fields back at their defaults: the published format
/// predates them.
fn clear_2026_fields(dataset: &mut Dataset) {
    for event in &mut dataset.events {
        event.og_image = None;
        for track in &mut event.tracks {
            track.attendee_signup_required = false;
        }
        for kind in &mut event.submission_types {
            kind.attendee_signup_required = false;
        }
        for question in &mut event.questions {
            question.identifier = None;
            question
                .options
                .iter_mut()
                .for_each(|o| o.identifier = None);
        }
        for submission in event.submissions.iter_mut().map(std::sync::Arc::make_mut) {
            (submission.updated, submission.attendee_signup) = (None, None);
            submission.invitations.clear();
        }
    }
}

/// Deterministic: the same options always give the same dataset (use `fastrand::Rng::with_seed`).
pub fn generate(options: &DemoOptions) -> (Dataset, Vec<DemoLogin>) {
    let (mut dataset, logins) = generate_without_v1(options);
    v1::fill(&mut dataset, options.seed);
    (dataset, logins)
}

/// The organiser every demo event belongs to.
pub const DEMO_ORGANISER: &str = "democonf-org";
