//! Reviewing: who may review what (teams and reviewer seats), and the
//! reviews with their scores.

use chrono::Duration;

use super::super::helpers::english;
use super::super::plan::{EventKind, EventPlan};
use super::super::tables::{REVIEW_COUNTS, SCORES};
use super::super::words::REVIEW_TEXTS;
use super::super::DEMO_ORGANISER;
use super::people::Staff;
use super::{next_id, Generator};
use crate::model::{derived_id, Review, Submission, Team, Track};

/// Someone who writes reviews in an event; `tracks: None` covers every track.
pub(super) struct Seat {
    code: String,
    tracks: Option<Vec<i64>>,
}

impl Seat {
    fn covers(&self, track: Option<i64>) -> bool {
        match (&self.tracks, track) {
            (None, _) => true,
            (Some(tracks), Some(track)) => tracks.contains(&track),
            (Some(_), None) => false,
        }
    }
}

impl Generator {
    pub(super) fn seats(
        &self,
        kind: EventKind,
        staff: &Staff,
        extra: &[usize],
        tracks: &[Track],
    ) -> Vec<Seat> {
        let all = |user: usize| Seat {
            code: self.code_of(user),
            tracks: None,
        };
        let limited = Seat {
            code: self.code_of(staff.track_reviewer),
            tracks: Some(limited_tracks(tracks)),
        };
        let mut seats: Vec<Seat> = match kind {
            // The blind reviewer has not reviewed yet: `after_review` hides the others' reviews.
            EventKind::Showcase => vec![all(staff.reviewer)],
            EventKind::Private => vec![all(staff.reviewer), all(staff.blind_reviewer)],
            EventKind::HiddenSchedule => Vec::new(),
        };
        seats.extend(extra.iter().map(|&u| all(u)));
        seats.push(limited);
        seats
    }

    /// About two reviews per submission by reviewers who may see it and do
    /// not speak in it; in an `assigned` phase only by assigned reviewers.
    pub(super) fn reviews(
        &mut self,
        plan: &EventPlan,
        seats: &[Seat],
        submissions: &mut [Submission],
    ) -> Vec<Review> {
        let assigned_only = plan.kind == EventKind::Private;
        let (from, to) = plan.review_window();
        let mut reviews = Vec::with_capacity(submissions.len() * 2);
        for submission in submissions.iter_mut() {
            let outsiders: Vec<usize> = (0..seats.len())
                .filter(|&s| !submission.speakers.iter().any(|c| *c == seats[s].code))
                .collect();
            let assigned = if assigned_only {
                let count = 1 + self.rng.usize(..3);
                self.sample(&outsiders, count)
            } else if self.chance(0.03) {
                self.sample(&outsiders, 1)
            } else {
                Vec::new()
            };
            submission.assigned_reviewers =
                assigned.iter().map(|&s| seats[s].code.clone()).collect();
            let candidates: Vec<usize> = if assigned_only {
                assigned
            } else {
                outsiders
                    .into_iter()
                    .filter(|&s| seats[s].covers(submission.track) || assigned.contains(&s))
                    .collect()
            };
            let count = self.weighted(&REVIEW_COUNTS);
            for seat in self.sample(&candidates, count) {
                let created = self.instant_between(from, to);
                let updated = if self.rng.bool() {
                    created
                } else {
                    created + Duration::seconds(self.rng.i64(60..10 * 86_400))
                };
                let text = if self.chance(0.75) {
                    self.pick(&REVIEW_TEXTS).to_string()
                } else {
                    String::new()
                };
                reviews.push(Review {
                    id: next_id(&mut self.ids.review),
                    submission: submission.code.as_str().into(),
                    user: seats[seat].code.as_str().into(),
                    text: text.into(),
                    score: self.score(),
                    created,
                    updated,
                    scores: Box::default(),
                });
            }
        }
        reviews
    }

    fn score(&mut self) -> Option<f64> {
        if self.chance(0.08) {
            return None;
        }
        let whole = f64::from(self.weighted(&SCORES));
        Some(if whole < 5.0 && self.chance(0.2) {
            whole + 0.5
        } else {
            whole
        })
    }

    pub(super) fn teams(
        &self,
        slug: &str,
        kind: EventKind,
        staff: &Staff,
        extra: &[usize],
        tracks: &[Track],
    ) -> Vec<Team> {
        let codes = |users: &[usize]| users.iter().map(|&u| self.code_of(u)).collect::<Vec<_>>();
        let team = |name: &str, members: Vec<String>| Team {
            name: name.to_string(),
            members,
            // One organiser for every demo event, each event with teams
            // of its own.
            id: Some(derived_id(&["team", DEMO_ORGANISER, slug, name])),
            limit_events: vec![slug.to_string()],
            ..Team::default()
        };
        let limit = limited_tracks(tracks);
        let track_names: Vec<&str> = tracks
            .iter()
            .filter(|t| limit.contains(&t.id))
            .filter_map(|t| english(&t.name))
            .collect();
        let organisers = Team {
            can_change_submissions: true,
            can_change_teams: true,
            can_change_event_settings: true,
            // Programme chairs also review; organiser rights take precedence.
            is_reviewer: kind == EventKind::HiddenSchedule,
            ..team("Organisers", codes(&[staff.orga]))
        };
        let track_reviewers = Team {
            is_reviewer: true,
            limit_tracks: limit.clone(),
            ..team(
                &format!("Track reviewers: {}", track_names.join(" & ")),
                codes(&[staff.track_reviewer]),
            )
        };
        let blind_reviewers = Team {
            is_reviewer: true,
            force_hide_speaker_names: true,
            ..team("Blind reviewers", codes(&[staff.blind_reviewer]))
        };
        // A team without rights: its members are the public here.
        let volunteers = team("Volunteers", codes(&[staff.speaker]));
        let reviewers = |lead: &[usize]| Team {
            is_reviewer: true,
            ..team("Programme committee", codes(&[lead, extra].concat()))
        };
        match kind {
            EventKind::Showcase => vec![
                organisers,
                reviewers(&[staff.reviewer]),
                track_reviewers,
                blind_reviewers,
                volunteers,
            ],
            // The blind reviewer is also in an ordinary team: names shown here.
            EventKind::Private => vec![
                organisers,
                reviewers(&[staff.reviewer, staff.blind_reviewer]),
                blind_reviewers,
                track_reviewers,
            ],
            EventKind::HiddenSchedule => {
                vec![organisers, reviewers(&[]), track_reviewers, volunteers]
            }
        }
    }
}

/// The tracks of the track-limited reviewer team: the first two.
fn limited_tracks(tracks: &[Track]) -> Vec<i64> {
    tracks.iter().take(2).map(|t| t.id).collect()
}
