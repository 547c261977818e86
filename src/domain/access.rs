//! Roles and visibility (behaviour.md §3 and the "Which" rules of §6), in one
//! place. Every list, detail and nested object asks this module whether the
//! caller may see a thing, so one rule decides everywhere: the answers shown
//! in `/answers` are exactly those shown nested in submissions, speakers and
//! reviews.

use crate::model::*;

use super::catalog::{AnswerIx, AnswerOwner, EventData, ProfileIx, ReviewIx, SubmissionIx};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Organiser,
    Reviewer,
    Public,
}

/// Callers of one class see exactly the same things in an event, so they
/// may share cached answers and visible sets (the response cache keys on
/// it). Anyone whose view depends on who they are gets a class of their own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ViewerClass {
    /// Anonymous callers, and users with no role in the event: the same
    /// rules apply to both and none depends on the user.
    Public,
    /// Organisers who speak in none of the event's submissions (an
    /// organiser never sees reviews of their own submissions).
    Organiser,
    /// Everyone else: reviewers (assignments, own reviews, what they
    /// wrote) and organisers who are speakers. The role is part of the
    /// class, so that a user who changes role never meets their old view.
    Personal {
        user: crate::model::ArcStr,
        role: Role,
    },
}

/// The resource rule on its own, for renderers that know only the role
/// (the schedule exports, rendered once per `export_class`).
pub fn resource_visible_to(role: Role, resource: &Resource) -> bool {
    resource.is_public || role == Role::Organiser
}

/// An organiser's teams (v1 `/api/organisers/{organiser}/teams/`, all of
/// them): administrators, and members of one of its teams that may change
/// teams (pretalx's `can_change_teams`).
pub fn sees_organiser_teams(user: Option<&User>, teams: &[&Team]) -> bool {
    user.is_some_and(|u| {
        u.is_administrator
            || teams
                .iter()
                .any(|t| t.can_change_teams && t.members.iter().any(|m| *m == *u.code))
    })
}

/// One caller's rights in one event, computed once per request.
pub struct Access<'a> {
    pub data: &'a EventData,
    pub user: Option<&'a User>,
    pub role: Role,
    pub now: Timestamp,
    phase: ReviewPhase,
    /// The caller's `is_reviewer` teams of this event.
    reviewer_teams: Vec<&'a Team>,
    /// Reviewer may see speaker names (organisers always, the public never
    /// beyond public talks).
    pub names: bool,
    /// Reviewer may see other reviewers' names.
    pub reviewer_names: bool,
    /// Reviewer may see other reviewers' reviews.
    pub other_reviews: bool,
    /// Positions of the submissions the caller speaks in.
    own_submissions: &'a [SubmissionIx],
    /// Reviewers see the public talks beyond those they may review (the
    /// legacy API's rule, behaviour.md); pretalx's versioned lists of
    /// submissions and speakers show them only what they may review
    /// (`reviewing_only`).
    reviewer_public_talks: bool,
    /// `has_reviewer_access` of every submission, by position, when asked
    /// for ([`Access::remember_reviewer_access`]): the feed asks it of every
    /// object of an event for each audience, and answers and reviews ask it
    /// again of their submission.
    reviewer_access: Option<Vec<bool>>,
    /// Whether the caller wrote each review, by position, when given
    /// ([`Access::remember_reviewer_access`]).
    own_reviews: Option<Vec<bool>>,
}

impl<'a> Access<'a> {
    pub fn new(data: &'a EventData, user: Option<&'a User>, now: Timestamp) -> Self {
        let event = &data.event;
        let my_teams: Vec<&Team> = match user {
            Some(u) => event
                .teams
                .iter()
                .filter(|t| t.members.iter().any(|m| *m == *u.code))
                .collect(),
            None => Vec::new(),
        };
        let role = match user {
            Some(u) if u.is_administrator || my_teams.iter().any(|t| t.can_change_submissions) => {
                Role::Organiser
            }
            Some(_) if my_teams.iter().any(|t| t.is_reviewer) => Role::Reviewer,
            _ => Role::Public,
        };
        let reviewer_teams: Vec<&Team> = my_teams.into_iter().filter(|t| t.is_reviewer).collect();
        // No active phase: dataset.md's phase defaults apply.
        let phase = event.review_phase.clone().unwrap_or_default();
        let (names, reviewer_names, other_reviews) = match role {
            Role::Organiser => (true, true, true),
            Role::Public => (false, false, false),
            Role::Reviewer => {
                let wrote =
                    user.is_some_and(|u| data.reviewers_who_wrote.contains(u.code.as_str()));
                (
                    phase.can_see_speaker_names
                        && !reviewer_teams.iter().all(|t| t.force_hide_speaker_names),
                    phase.can_see_reviewer_names,
                    match phase.can_see_other_reviews {
                        OtherReviews::Always => true,
                        OtherReviews::AfterReview => wrote,
                        OtherReviews::Never => false,
                    },
                )
            }
        };
        let own_submissions = user.map_or(&[][..], |u| data.submissions_of_user(&u.code));
        Access {
            data,
            user,
            role,
            now,
            phase,
            reviewer_teams,
            names,
            reviewer_names,
            other_reviews,
            own_submissions,
            reviewer_public_talks: true,
            reviewer_access: None,
            own_reviews: None,
        }
    }

    /// The caller's rights for pretalx's versioned lists and details of
    /// submissions and speakers: a reviewer sees only the submissions they
    /// may review (their tracks', or those assigned to them), and their
    /// speakers, without the other public talks (pretalx-v1.md section 7).
    /// Slots and schedules keep the public schedule.
    pub fn reviewing_only(mut self) -> Self {
        self.reviewer_public_talks = false;
        self
    }

    /// Works out `has_reviewer_access` of every submission once, for a
    /// caller that is about to ask it of every object of the event; with
    /// `own`, the reviews the caller wrote (every one of them), so that
    /// no review's author needs comparing.
    pub fn remember_reviewer_access(&mut self, own: Option<&[ReviewIx]>) {
        if self.role != Role::Reviewer {
            return;
        }
        if let Some(own) = own {
            let mut wrote = vec![false; self.data.event.reviews.len()];
            for &r in own {
                wrote[usize::from(r)] = true;
            }
            self.own_reviews = Some(wrote);
        }
        let event = &self.data.event;
        let all = event
            .submissions
            .iter()
            .map(|sub| self.has_reviewer_access(sub))
            .collect();
        self.reviewer_access = Some(all);
    }

    /// `has_reviewer_access` of the submission at `i`.
    fn has_reviewer_access_at(&self, i: SubmissionIx) -> bool {
        match &self.reviewer_access {
            Some(all) => all[usize::from(i)],
            None => self.has_reviewer_access(self.submission_at(i)),
        }
    }

    /// Who else sees exactly what this caller sees here.
    pub fn viewer_class(&self) -> ViewerClass {
        match (self.role, self.user) {
            (Role::Public, _) | (_, None) => ViewerClass::Public,
            (Role::Organiser, Some(_)) if self.own_submissions.is_empty() => ViewerClass::Organiser,
            (role, Some(user)) => ViewerClass::Personal {
                user: user.code.clone(),
                role,
            },
        }
    }

    /// How many of the event's question deadlines and freezes have passed:
    /// the only thing in a rendered answer that changes with the clock
    /// (`read_only`, `required`), so cached answers key on it.
    pub fn clock_epoch(&self) -> usize {
        self.data
            .event
            .questions
            .iter()
            .flat_map(|q| [q.freeze_after, q.deadline])
            .flatten()
            .filter(|&t| t <= self.now)
            .count()
    }

    /// The schedule is visible to everyone (exports.md "Paths and callers"):
    /// the event is public, organisers show the schedule, and one is released.
    pub fn schedule_visible(&self) -> bool {
        self.data.schedule_public
    }

    /// A schedule of the v1 API (`schedules/`, `slots/`): organisers see
    /// every release and the work-in-progress schedule; everyone else only
    /// the current release, while the schedule is public (pretalx shows
    /// reviewers every release and the WIP schedule, and the public older
    /// releases' slots when it filters slots: docs/api.md, "Where confapi
    /// differs").
    pub fn sees_release(&self, release: Release) -> bool {
        match release {
            Release::Current => self.role == Role::Organiser || self.schedule_visible(),
            Release::Older(_) | Release::Wip => self.role == Role::Organiser,
        }
    }

    /// The whole-event schedule exports: organisers always (an empty
    /// schedule without a release), everyone else while the schedule is
    /// visible.
    pub fn sees_schedule_exports(&self) -> bool {
        self.role == Role::Organiser || self.schedule_visible()
    }

    /// A talk's or speaker's calendar (`talk/{code}.ics`,
    /// `speaker/{code}/talks.ics`): organisers for any submission or profile
    /// of the event, everyone else only while the schedule is visible and
    /// the talk (the speaker) has a visible slot in it.
    pub fn sees_calendar_of(&self, has_visible_slot: bool) -> bool {
        self.role == Role::Organiser || (self.schedule_visible() && has_visible_slot)
    }

    /// Who shares rendered schedule exports: they differ only between
    /// organisers (who see them always, privately) and everyone else
    /// (reviewers and other users see what the public sees).
    pub fn export_class(&self) -> ViewerClass {
        if self.role == Role::Organiser {
            ViewerClass::Organiser
        } else {
            ViewerClass::Public
        }
    }

    /// An event is visible when it is public or the caller has a role in it.
    pub fn event_visible(&self) -> bool {
        self.data.event.is_public || self.role != Role::Public
    }

    // Submissions are addressed by position in the event (`_at` methods):
    // lists iterate positions, so that checking 100,000 submissions reads
    // compact flag vectors instead of hashing every code.

    fn submission_at(&self, i: SubmissionIx) -> &'a Submission {
        &self.data.event.submissions[i]
    }

    fn speaks_in_at(&self, i: SubmissionIx) -> bool {
        self.own_submissions.contains(&i)
    }

    /// Reviewer access: assigned, or `proposal_visibility: all` and one of
    /// their reviewer teams covers the track (no limit covers every track,
    /// including none).
    pub fn has_reviewer_access(&self, sub: &Submission) -> bool {
        let Some(user) = self.user else { return false };
        if self.role != Role::Reviewer {
            return false;
        }
        if sub.assigned_reviewers.iter().any(|c| *c == *user.code) {
            return true;
        }
        self.phase.proposal_visibility == ProposalVisibility::All
            && self.reviewer_teams.iter().any(|t| {
                t.limit_tracks.is_empty()
                    || sub
                        .track
                        .is_some_and(|track| t.limit_tracks.contains(&track))
            })
    }

    /// Positions (by code) that can be in the caller's submission set, or
    /// talk set: an index that narrows the scan, not a rule. Every candidate
    /// is still checked with `sees_submission_at`.
    pub fn submission_candidates(&self, talks_only: bool) -> &'a [SubmissionIx] {
        match (self.role, talks_only) {
            (Role::Public, _) => &self.data.public_talks_by_code,
            (_, true) => &self.data.talks_by_code,
            (_, false) => &self.data.submissions_by_code,
        }
    }

    /// The caller's submission set (§6 Submissions).
    pub fn sees_submission_at(&self, i: SubmissionIx) -> bool {
        let public_talk = self.data.is_public_talk[i];
        match self.role {
            Role::Organiser => true,
            Role::Reviewer => {
                (public_talk && self.reviewer_public_talks) || self.has_reviewer_access_at(i)
            }
            Role::Public => public_talk,
        }
    }

    /// Shown without speakers and with anonymised texts: not a public talk,
    /// and either `anon` was passed or the caller is a reviewer without names.
    pub fn anonymised_at(&self, i: SubmissionIx, anon_param: bool) -> bool {
        !self.data.is_public_talk[i] && (anon_param || (self.role == Role::Reviewer && !self.names))
    }

    /// Submissions the caller sees *with* their speakers, so speakers may be
    /// linked to them.
    pub fn sees_submission_named_at(&self, i: SubmissionIx) -> bool {
        match self.role {
            Role::Organiser => true,
            Role::Reviewer if self.names => self.sees_submission_at(i),
            _ => self.data.is_public_talk[i],
        }
    }

    /// Profile positions (by user code) that can be in the caller's speaker
    /// set; every candidate is still checked with `sees_speaker`.
    pub fn speaker_candidates(&self) -> &'a [ProfileIx] {
        match self.role {
            Role::Organiser => &self.data.profiles_by_code,
            Role::Reviewer if self.names => &self.data.profiles_by_code,
            _ => &self.data.public_profiles_by_code,
        }
    }

    /// The speaker set (§6 Speakers), by profile position: organisers every
    /// profile; others the speakers of submissions they see with names.
    pub fn sees_speaker_at(&self, profile: ProfileIx) -> bool {
        self.role == Role::Organiser || self.named_submissions_of(profile).next().is_some()
    }

    /// Whether `code` names a submission the caller sees: a filter's
    /// choices, so that an unknown code and a hidden one answer alike.
    pub fn shows_submission_code(&self, code: &str) -> bool {
        self.data
            .submission_lookup(code)
            .is_some_and(|i| self.sees_submission_at(i))
    }

    /// Whether `code` names a speaker the caller sees (as
    /// `shows_submission_code`).
    pub fn shows_speaker_code(&self, code: &str) -> bool {
        self.data
            .profile_lookup(code)
            .is_some_and(|p| self.sees_speaker_at(p))
    }

    /// The speaker's submissions the caller sees with names, by code.
    pub fn named_submissions_of<'s>(
        &'s self,
        profile: ProfileIx,
    ) -> impl Iterator<Item = &'a Submission> + 's {
        self.data
            .profile_submissions
            .of(profile)
            .iter()
            .filter(move |&&i| self.sees_submission_named_at(i))
            .map(move |&i| self.submission_at(i))
    }

    /// §6 Reviews, by review position.
    pub fn sees_review_at(&self, review: ReviewIx) -> bool {
        let Some(i) = self.data.review_submission[review] else {
            return false;
        };
        match self.role {
            Role::Organiser => !self.speaks_in_at(i),
            Role::Reviewer => {
                let own = match &self.own_reviews {
                    Some(wrote) => wrote[usize::from(review)],
                    None => self
                        .user
                        .is_some_and(|u| u.code == self.data.event.reviews[review].user),
                };
                own || (self.other_reviews
                    && !self.speaks_in_at(i)
                    && self.has_reviewer_access_at(i))
            }
            Role::Public => false,
        }
    }

    /// The reviews list of pretalx's v1: organisers, and reviewers whose
    /// phase shows them every review (`always`); others are refused it.
    pub fn may_list_reviews(&self) -> bool {
        match self.role {
            Role::Organiser => true,
            Role::Reviewer => self.phase.can_see_other_reviews == OtherReviews::Always,
            Role::Public => false,
        }
    }

    /// Whether the review's author is named to the caller.
    pub fn shows_reviewer_name(&self, review: &Review) -> bool {
        self.role == Role::Organiser
            || self.reviewer_names
            || self.user.is_some_and(|u| u.code == review.user)
    }

    /// §6 Questions.
    pub fn sees_question(&self, q: &Question) -> bool {
        let public = q.active && q.is_public && self.data.schedule_public;
        match self.role {
            Role::Organiser => true,
            Role::Reviewer => (q.active && q.is_visible_to_reviewers) || public,
            Role::Public => public,
        }
    }

    /// Answer positions (by id) that can be visible to the caller: an index
    /// that narrows the scan; every candidate is still checked with
    /// `sees_answer_at`.
    pub fn answer_candidates(&self) -> &'a [AnswerIx] {
        match self.role {
            Role::Public => &self.data.public_owner_answers_by_id,
            _ => &self.data.answers_by_id,
        }
    }

    /// §6 Answers: one rule (public, reviewer or organiser) must allow both
    /// the question and the owner; never a mix of two.
    pub fn sees_answer_at(&self, answer: AnswerIx) -> bool {
        let data = self.data;
        let Some(q) = data.answer_question[answer].map(|i| &data.event.questions[i]) else {
            return false;
        };
        let owner = data.answer_owner[answer];
        // Organisers see what the public does and more: the public rule,
        // which reads the question, is not theirs to ask.
        if self.role != Role::Organiser && self.public_rule_allows(q, owner) {
            return true;
        }
        match self.role {
            Role::Public => false,
            Role::Reviewer => {
                q.active
                    && q.is_visible_to_reviewers
                    && match owner {
                        AnswerOwner::Submission(i) => self.has_reviewer_access_at(i),
                        AnswerOwner::Person(p) => {
                            self.names
                                && data
                                    .profile_submissions
                                    .of(p)
                                    .iter()
                                    .any(|&i| self.has_reviewer_access_at(i))
                        }
                        AnswerOwner::Review(r) => self.sees_review_at(r),
                        AnswerOwner::Missing => false,
                    }
            }
            Role::Organiser => match owner {
                AnswerOwner::Submission(_) | AnswerOwner::Person(_) => true,
                AnswerOwner::Review(r) => self.sees_review_at(r),
                AnswerOwner::Missing => false,
            },
        }
    }

    /// The public rule: an active public question while the schedule is
    /// public, on a public talk or a speaker of one. Never on reviews.
    fn public_rule_allows(&self, q: &Question, owner: AnswerOwner) -> bool {
        q.active
            && q.is_public
            && self.data.schedule_public
            && match owner {
                AnswerOwner::Submission(i) => self.data.is_public_talk[i],
                AnswerOwner::Person(p) => self.data.is_public_profile[p],
                AnswerOwner::Review(_) | AnswerOwner::Missing => false,
            }
    }

    /// Private resources (a speaker's notes, an unpublished recording) are
    /// for organisers only; reviewers see what the public sees.
    pub fn sees_resource(&self, resource: &Resource) -> bool {
        resource_visible_to(self.role, resource)
    }

    /// The tags are for organisers and reviewers only.
    pub fn sees_tags(&self) -> bool {
        self.role != Role::Public
    }

    /// A question is read-only once `freeze_after` has passed.
    pub fn read_only(&self, q: &Question) -> bool {
        q.freeze_after.is_some_and(|t| t <= self.now)
    }

    /// Must be answered right now.
    pub fn required(&self, q: &Question) -> bool {
        if self.read_only(q) {
            return false;
        }
        match q.question_required {
            QuestionRequired::Required => true,
            QuestionRequired::AfterDeadline => q.deadline.is_some_and(|d| d <= self.now),
            QuestionRequired::Optional => false,
        }
    }
}
