//! An event's lookups: its records by code or id, and its big lists in the
//! store's order.

use std::sync::Arc;

use super::*;

impl EventData {
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
