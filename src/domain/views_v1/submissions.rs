//! v1 submissions: the view, its prefetching and its writer (`write_submission`,
//! kept beside the view it mirrors; `tests` holds them byte-equal).

use super::*;

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Submission)]
pub struct SubmissionView<'a> {
    pub code: &'a str,
    pub title: &'a str,
    /// Speaker codes (none where the submission is anonymised for the caller).
    #[schema(schema_with = many_refs)]
    pub speakers: SpeakerRefs<'a>,
    #[schema(schema_with = one_ref)]
    pub submission_type: Ref<i64, Expanded<SubmissionTypeView<'a>>>,
    #[schema(schema_with = nullable_ref)]
    pub track: Option<Ref<i64, Expanded<TrackView<'a>>>>,
    /// Tag ids: the public ones for the public, all for organisers and reviewers.
    #[schema(schema_with = many_refs)]
    pub tags: Refs<i64, Expanded<TagView<'a>>>,
    pub state: SubmissionState,
    #[serde(rename = "abstract")]
    pub abstract_: &'a str,
    pub description: &'a str,
    pub duration: i64,
    pub slot_count: i64,
    /// pretalx 2026.2's attendee sign-up: the submission's own setting
    /// (null: its track's and type's), its capacity (null: the room's), and
    /// the status pretalx computed (null: no sign-up).
    pub attendee_signup_required: Option<bool>,
    pub attendee_signup_capacity: Option<i64>,
    pub signup_status: Option<SignupStatus>,
    pub content_locale: &'a str,
    pub do_not_record: bool,
    pub image: Option<&'a str>,
    /// Ids of the resources the caller may see.
    #[schema(schema_with = many_refs)]
    pub resources: Refs<i64, ResourceView<'a>>,
    /// Ids of the submission's slots in the released schedule (the visible
    /// ones; organisers all); left out where nested in a slot.
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = many_refs)]
    pub slots: Option<Refs<i64, SlotView<'a>>>,
    /// Ids of the answers the caller may see.
    #[schema(schema_with = many_refs)]
    pub answers: AnswerRefs<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_state: Option<Option<SubmissionState>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_featured: Option<bool>,
    /// null when empty, as pretalx's nullable field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_notes: Option<Option<&'a str>>,
    /// Organisers only (pretalx shows reviewers these too: section 13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invitation_token: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_code: Option<Option<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_code: Option<Option<&'a str>>,
    /// The organisers' anonymised texts as pretalx 2026's object (null when
    /// none).
    #[schema(value_type = Option<Object>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anonymised_data: Option<Option<Box<serde_json::value::RawValue>>>,
    /// Ids of the reviews the caller may see.
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviews: Option<Vec<i64>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_reviewers: Option<Vec<&'a str>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_anonymised: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median_score: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_score: Option<Option<f64>>,
    /// Organisers and reviewers (pretalx 2026.1).
    #[schema(format = DateTime, nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[schema(format = DateTime)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated: Option<Option<String>>,
    /// Organisers only (pretalx 2026.1): the open co-speaker invitations,
    /// ids, objects with `expand=invitations`.
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = many_refs)]
    pub invitations: Option<Refs<i64, InvitationView<'a>>>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::SubmissionInvitation)]
pub struct InvitationView<'a> {
    pub id: i64,
    pub email: &'a str,
    #[schema(format = DateTime)]
    pub created: Option<String>,
    #[schema(format = DateTime)]
    pub updated: Option<String>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Resource)]
pub struct ResourceView<'a> {
    pub id: i64,
    pub resource: &'a str,
    pub description: &'a str,
    /// pretalx 2026; only organisers are shown private ones.
    pub is_public: bool,
}

impl<'a> V1Renderer<'a> {
    /// Brings what the views of `positions` (one page) will read into the
    /// CPU's caches, level by level: each submission and where its groups
    /// start, then its texts and groups, then its answers, reviews,
    /// speakers and their users, then their texts, then the speakers'
    /// answers. Every level's addresses are known once the level before
    /// has arrived, so each waits for one round of misses instead of the
    /// views waiting for every pointer in turn: on an event larger than
    /// the caches those misses were most of a page's time (perf,
    /// docs/bench-log.md).
    pub fn prefetch_submissions(&self, positions: &[crate::domain::catalog::SubmissionIx]) {
        use crate::memory::{prefetch, prefetch_arcstr, prefetch_value};
        let data: &'a crate::domain::catalog::EventData = self.access.data;
        let event = &data.event;
        let speakers = self.child("speakers").is_some();
        let speaker_answers = self
            .child("speakers")
            .is_some_and(|child| child.child("answers").is_some());
        for &i in positions {
            prefetch_value(&event.submissions[i]);
            data.answers_of_submission.prefetch_start(i);
            data.reviews_of_submission.prefetch_start(i);
            data.speaker_profiles.prefetch_start(i);
            if let Some(table) = self.speaker_users {
                table.prefetch_start(i);
            }
        }
        for &i in positions {
            let sub = &event.submissions[i];
            for text in [
                &sub.title,
                &sub.abstract_,
                &sub.description,
                &sub.notes,
                &sub.internal_notes,
            ] {
                prefetch(text);
            }
            for text in [
                Some(&sub.code),
                Some(&sub.content_locale),
                sub.invitation_token.as_ref(),
                sub.review_code.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                prefetch_arcstr(text);
            }
            prefetch_value(sub.speakers.as_slice());
            prefetch_value(sub.tags.as_slice());
            prefetch_value(sub.resources.as_slice());
            prefetch_value(sub.slots.as_slice());
            prefetch_value(sub.assigned_reviewers.as_slice());
            data.answers_of_submission.prefetch_group(i);
            data.reviews_of_submission.prefetch_group(i);
            data.speaker_profiles.prefetch_group(i);
            if let Some(table) = self.speaker_users {
                table.prefetch_group(i);
            }
        }
        let answer = |a| prefetch_answer(data, a);
        let answer_texts = |a| prefetch_answer_texts(data, a);
        let profiles = |i| data.speaker_profiles.of(i).iter().flatten().copied();
        for &i in positions {
            data.answers_of_submission
                .of(i)
                .iter()
                .copied()
                .for_each(answer);
            for &r in data.reviews_of_submission.of(i) {
                prefetch_value(&event.reviews[r]);
                prefetch_value(&data.review_submission[r]);
            }
            let sub = &event.submissions[i];
            sub.speakers.iter().for_each(prefetch_arcstr);
            for resource in &sub.resources {
                prefetch(&resource.resource);
                prefetch(&resource.description);
            }
            sub.slots
                .iter()
                .filter_map(|slot| slot.guid.as_deref())
                .for_each(prefetch);
            sub.assigned_reviewers
                .iter()
                .map(String::as_str)
                .for_each(prefetch);
            if speakers {
                for p in profiles(i) {
                    prefetch_value(&event.speakers[p]);
                    data.answers_of_person.prefetch_start(p);
                }
                if let Some(table) = self.speaker_users {
                    table
                        .of(i)
                        .iter()
                        .flatten()
                        .for_each(|user| prefetch_value(&**user));
                }
            }
        }
        for &i in positions {
            data.answers_of_submission
                .of(i)
                .iter()
                .copied()
                .for_each(answer_texts);
            if speakers {
                for p in profiles(i) {
                    prefetch_profile_texts(&event.speakers[p]);
                    data.answers_of_person.prefetch_group(p);
                }
                if let Some(table) = self.speaker_users {
                    table
                        .of(i)
                        .iter()
                        .flatten()
                        .for_each(|user| prefetch_user_texts(user));
                }
            }
        }
        if speaker_answers {
            for &i in positions {
                for p in profiles(i) {
                    data.answers_of_person
                        .of(p)
                        .iter()
                        .copied()
                        .for_each(answer);
                }
            }
            for &i in positions {
                for p in profiles(i) {
                    data.answers_of_person
                        .of(p)
                        .iter()
                        .copied()
                        .for_each(answer_texts);
                }
            }
        }
    }
}

/// An answer's record and the catalog's facts on it (`V1Renderer::prefetch_submissions`).
pub(super) fn prefetch_answer(
    data: &crate::domain::catalog::EventData,
    a: crate::domain::catalog::AnswerIx,
) {
    use crate::memory::prefetch_value;
    prefetch_value(&data.event.answers[a]);
    prefetch_value(&data.answer_question[a]);
    prefetch_value(&data.answer_owner[a]);
}

/// An answer's texts and chosen options, once its record has arrived
/// (the options were a sixth of an expanded page in misses: perf).
pub(super) fn prefetch_answer_texts(
    data: &crate::domain::catalog::EventData,
    a: crate::domain::catalog::AnswerIx,
) {
    let answer = &data.event.answers[a];
    crate::memory::prefetch_value(answer.options.as_ref());
    std::iter::once(&answer.answer)
        .chain(
            [&answer.submission, &answer.person, &answer.answer_file]
                .into_iter()
                .flatten(),
        )
        .for_each(crate::memory::prefetch_arcstr);
}

/// A speaker profile's texts and availabilities, once the profile has arrived.
pub(super) fn prefetch_profile_texts(profile: &SpeakerProfile) {
    crate::memory::prefetch(&profile.biography);
    crate::memory::prefetch(&profile.internal_notes);
    crate::memory::prefetch_value(profile.availabilities.as_slice());
}

/// A user's texts, once the user has arrived.
pub(super) fn prefetch_user_texts(user: &User) {
    use crate::memory::{prefetch, prefetch_arcstr};
    [&user.code, &user.locale, &user.timezone]
        .into_iter()
        .for_each(prefetch_arcstr);
    for text in [Some(&user.name), Some(&user.email), user.avatar.as_ref()]
        .into_iter()
        .flatten()
    {
        prefetch(text);
    }
}

impl SubmissionView<'_> {
    /// Its texts, requested from memory before the page is serialised.
    fn prefetch_texts(&self) {
        let texts = [self.code, self.title, self.abstract_, self.description]
            .into_iter()
            .chain(self.image)
            .chain(self.notes.flatten())
            .chain(self.internal_notes.flatten())
            .chain(self.invitation_token.flatten())
            .chain(self.review_code.flatten());
        texts.for_each(crate::memory::prefetch);
    }
}

/// A resource's id: pretalx's where the dataset has it, else one derived
/// from the event, the submission and the resource's place.
pub fn resource_id(event: &Event, sub: &Submission, index: usize) -> i64 {
    sub.resources[index].id.unwrap_or_else(|| {
        derived_id(&[
            "resource",
            &event.slug.to_lowercase(),
            &sub.code,
            &index.to_string(),
        ])
    })
}

/// A slot's id: pretalx's where the dataset has it, else one derived from
/// the event, the submission and the slot's place.
pub fn slot_id(event: &Event, sub: &Submission, index: usize) -> i64 {
    sub.slots[index].id.unwrap_or_else(|| {
        derived_id(&[
            "slot",
            &event.slug.to_lowercase(),
            &sub.code,
            &index.to_string(),
        ])
    })
}

/// What a submission's view and `write_submission` start from.
struct SubmissionBasics<'a> {
    data: &'a crate::domain::catalog::EventData,
    event: &'a Event,
    sub: &'a Submission,
    /// The caller sees the organiser fields.
    orga: bool,
    /// The caller sees the reviewer fields.
    reviewer: bool,
    /// The submission is anonymised to the caller.
    anonymised: bool,
    texts: crate::domain::views::ShownTexts<'a>,
}

/// The median and the mean (to a tenth) of the reviews' scores.
fn review_scores(reviews: &[&Review]) -> (Option<f64>, Option<f64>) {
    let mut scores: SmallVec<[f64; 8]> = reviews.iter().filter_map(|r| r.score).collect();
    scores.sort_by(f64::total_cmp);
    let mean = (!scores.is_empty()).then(|| scores.iter().sum::<f64>() / scores.len() as f64);
    (median(&scores), mean.map(round_tenth))
}

/// Whether the submission has anonymised texts.
fn is_anonymised(sub: &Submission) -> bool {
    sub.anonymised.as_ref().is_some_and(|a| {
        !(a.title.is_empty() && a.abstract_.is_empty() && a.description.is_empty())
    })
}

fn median(sorted: &[f64]) -> Option<f64> {
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[n / 2]),
        n => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

impl<'a> V1Renderer<'a> {
    /// The submission at `position`, as the caller sees it.
    pub fn submission(
        &self,
        position: crate::domain::catalog::SubmissionIx,
        users: &'a crate::domain::catalog::Users,
    ) -> SubmissionView<'a> {
        self.submission_in(position, users, true)
    }

    /// `with_slots`: false where nested in a slot, which leaves out its
    /// slots and answers and shows only public resources (pretalx's public
    /// serializer there).
    pub(super) fn submission_in(
        &self,
        position: crate::domain::catalog::SubmissionIx,
        users: &'a crate::domain::catalog::Users,
        with_slots: bool,
    ) -> SubmissionView<'a> {
        let SubmissionBasics {
            data,
            event,
            sub,
            orga,
            reviewer,
            anonymised,
            texts,
        } = self.basics(position);
        let shown_speakers = self.shown_speakers(position, users, anonymised);
        let speakers = match self.speakers_child(with_slots) {
            None => SpeakerRefs::Ids(shown_speakers.map(|(code, _, _)| code).collect()),
            Some(child) => SpeakerRefs::Objects(SpeakerList {
                renderer: child,
                users,
                speakers: self.expanded_speakers(shown_speakers, users).collect(),
            }),
        };
        let tag_ids = self.shown_tag_ids(sub);
        let tags = match self.child("tags") {
            None => Refs::Ids(tag_ids.into_vec()),
            Some(child) => Refs::Objects(
                tag_ids
                    .iter()
                    .filter_map(|id| data.tag(*id))
                    .map(|t| child.memoized(Memoized::Tag, t.id, || child.tag(t)))
                    .collect(),
            ),
        };
        let shown_resources = self.shown_resources(sub, with_slots);
        let resources = match self.child("resources") {
            None => Refs::Ids(
                shown_resources
                    .map(|(i, _)| resource_id(event, sub, i))
                    .collect(),
            ),
            Some(_) => Refs::Objects(
                shown_resources
                    .map(|(i, r)| ResourceView {
                        id: resource_id(event, sub, i),
                        resource: &r.resource,
                        description: &r.description,
                        is_public: r.is_public,
                    })
                    .collect(),
            ),
        };
        let slot_indexes = self.slot_indexes(sub);
        let slots = with_slots.then(|| match self.child("slots") {
            _ if !self.knows_schedule() => Refs::Ids(Vec::new()),
            None => Refs::Ids(
                slot_indexes
                    .iter()
                    .map(|&i| slot_id(event, sub, i))
                    .collect(),
            ),
            Some(child) => Refs::Objects(
                slot_indexes
                    .iter()
                    .map(|&index| {
                        child.slot_in(
                            SlotRef::Talk {
                                sub: position,
                                index,
                            },
                            SlotPlace::InSubmission,
                        )
                    })
                    .collect(),
            ),
        });
        let answer_positions = self.shown_answers(position, with_slots);
        let answers = match self.child("answers") {
            None => AnswerRefs::Ids(answer_positions.map(|a| event.answers[a].id).collect()),
            Some(child) => AnswerRefs::Objects(child.answer_list(answer_positions)),
        };
        let submission_type = match (
            self.child("submission_type"),
            data.submission_type(sub.submission_type),
        ) {
            (Some(child), Some(kind)) => {
                Ref::Object(child.memoized(Memoized::SubmissionType, kind.id, || {
                    child.submission_type(kind)
                }))
            }
            _ => Ref::Id(sub.submission_type),
        };
        let track = sub
            .track
            .map(|id| match (self.child("track"), data.track(id)) {
                (Some(child), Some(track)) => {
                    Ref::Object(child.memoized(Memoized::Track, track.id, || child.track(track)))
                }
                _ => Ref::Id(id),
            });
        let reviews = if orga {
            self.shown_reviews(position)
        } else {
            SmallVec::new()
        };
        let (median, mean) = review_scores(&reviews);
        let signup = sub.attendee_signup.as_deref();
        let view = SubmissionView {
            code: &sub.code,
            title: texts.title,
            speakers,
            submission_type,
            track,
            tags,
            state: sub.state,
            abstract_: texts.abstract_,
            description: texts.description,
            duration: data.duration(sub),
            slot_count: sub.slot_count,
            attendee_signup_required: signup.and_then(|s| s.required),
            attendee_signup_capacity: signup.and_then(|s| s.capacity),
            signup_status: signup.and_then(|s| s.status),
            content_locale: &sub.content_locale,
            do_not_record: sub.do_not_record,
            image: sub.image.as_deref(),
            resources,
            slots,
            answers,
            pending_state: (orga || reviewer).then_some(sub.pending_state),
            is_featured: (orga || reviewer).then_some(sub.is_featured),
            notes: orga.then(|| nullable(&sub.notes)),
            internal_notes: orga.then(|| nullable(&sub.internal_notes)),
            invitation_token: orga.then_some(sub.invitation_token.as_deref()),
            access_code: orga.then_some(sub.access_code),
            review_code: orga.then_some(sub.review_code.as_deref()),
            anonymised_data: orga.then(|| anonymised_data(sub.anonymised.as_deref())),
            // pretalx 2026.2's reviewer serializer has neither reviews
            // nor assignments (2025 gave reviewers the organiser's).
            reviews: orga.then(|| reviews.iter().map(|r| r.id).collect()),
            assigned_reviewers: orga
                .then(|| sub.assigned_reviewers.iter().map(String::as_str).collect()),
            is_anonymised: orga.then(|| is_anonymised(sub)),
            median_score: orga.then_some(median),
            mean_score: orga.then_some(mean),
            created: (orga || reviewer).then(|| self.dt(&sub.created)),
            updated: (orga || reviewer).then(|| self.opt_dt(&sub.updated)),
            invitations: orga.then(|| match self.child("invitations") {
                None => Refs::Ids(sub.invitations.iter().map(|i| i.id).collect()),
                Some(_) => Refs::Objects(
                    sub.invitations
                        .iter()
                        .map(|i| InvitationView {
                            id: i.id,
                            email: &i.email,
                            created: self.opt_dt(&i.created),
                            updated: self.opt_dt(&i.updated),
                        })
                        .collect(),
                ),
            }),
        };
        view.prefetch_texts();
        view
    }

    /// The submission at `position` as JSON appended to `out`, byte for
    /// byte as serialising `submission(position, users)` writes it
    /// (`submissions_listed_read_as_their_details_for_each_expansion` holds
    /// the two equal),
    /// from the same parts, without the view: building, serialising and
    /// dropping a page's views and their lists was a sixth of a page with
    /// pytanis's expansion (perf, docs/bench-log.md).
    pub fn write_submission(
        &self,
        out: &mut Vec<u8>,
        position: crate::domain::catalog::SubmissionIx,
        users: &'a crate::domain::catalog::Users,
    ) {
        use crate::json::ObjectText;
        let SubmissionBasics {
            data,
            event,
            sub,
            orga,
            reviewer,
            anonymised,
            texts,
        } = self.basics(position);
        let mut object = ObjectText::open(out);
        object.string("code", &sub.code);
        object.string("title", texts.title);
        let shown_speakers = self.shown_speakers(position, users, anonymised);
        match self.speakers_child(true) {
            None => object.array("speakers", |elements| {
                shown_speakers.for_each(|(code, _, _)| elements.string(code));
            }),
            Some(child) => object.value("speakers", |out| {
                write_array(
                    out,
                    self.expanded_speakers(shown_speakers, users),
                    |out, (profile, user)| child.write_speaker_nested(out, profile, user, users),
                );
            }),
        }
        match (
            self.child("submission_type"),
            data.submission_type(sub.submission_type),
        ) {
            (Some(child), Some(kind)) => object.raw(
                "submission_type",
                &child.memoized_json(Memoized::SubmissionType, kind.id, || {
                    child.submission_type(kind)
                }),
            ),
            _ => object.integer("submission_type", sub.submission_type),
        }
        match sub.track {
            None => object.null("track"),
            Some(id) => match (self.child("track"), data.track(id)) {
                (Some(child), Some(track)) => object.raw(
                    "track",
                    &child.memoized_json(Memoized::Track, track.id, || child.track(track)),
                ),
                _ => object.integer("track", id),
            },
        }
        let tag_ids = self.shown_tag_ids(sub);
        object.array("tags", |elements| match self.child("tags") {
            None => tag_ids.iter().for_each(|&id| elements.integer(id)),
            Some(child) => {
                for tag in tag_ids.iter().filter_map(|&id| data.tag(id)) {
                    elements.raw(&child.memoized_json(Memoized::Tag, tag.id, || child.tag(tag)));
                }
            }
        });
        object.value("state", |out| {
            // A unit variant: serialising cannot fail.
            let _ = crate::json::append(out, &sub.state);
        });
        object.string("abstract", texts.abstract_);
        object.string("description", texts.description);
        object.integer("duration", data.duration(sub));
        object.integer("slot_count", sub.slot_count);
        let signup = sub.attendee_signup.as_deref();
        match signup.and_then(|s| s.required) {
            Some(required) => object.boolean("attendee_signup_required", required),
            None => object.null("attendee_signup_required"),
        }
        object.optional_integer("attendee_signup_capacity", signup.and_then(|s| s.capacity));
        object.optional_string(
            "signup_status",
            signup.and_then(|s| s.status).map(SignupStatus::name),
        );
        object.string("content_locale", &sub.content_locale);
        object.boolean("do_not_record", sub.do_not_record);
        object.optional_string("image", sub.image.as_deref());
        let shown_resources = self.shown_resources(sub, true);
        match self.child("resources") {
            None => object.array("resources", |elements| {
                shown_resources.for_each(|(i, _)| elements.integer(resource_id(event, sub, i)));
            }),
            Some(_) => object.value("resources", |out| {
                write_array(out, shown_resources, |out, (i, resource)| {
                    let mut object = ObjectText::open(out);
                    object.integer("id", resource_id(event, sub, i));
                    object.string("resource", &resource.resource);
                    object.string("description", &resource.description);
                    object.boolean("is_public", resource.is_public);
                    object.close();
                });
            }),
        }
        let slot_indexes = self.slot_indexes(sub);
        match self.child("slots") {
            _ if !self.knows_schedule() => object.raw("slots", "[]"),
            None => object.array("slots", |elements| {
                slot_indexes
                    .iter()
                    .for_each(|&i| elements.integer(slot_id(event, sub, i)));
            }),
            Some(child) => object.value("slots", |out| {
                write_array(out, slot_indexes.iter(), |out, &index| {
                    let slot = child.slot_in(
                        SlotRef::Talk {
                            sub: position,
                            index,
                        },
                        SlotPlace::InSubmission,
                    );
                    // A view: serialising into a Vec cannot fail.
                    let _ = crate::json::append(out, &slot);
                });
            }),
        }
        let answer_positions = self.shown_answers(position, true);
        match self.child("answers") {
            None => object.array("answers", |elements| {
                answer_positions.for_each(|a| elements.integer(event.answers[a].id));
            }),
            Some(child) => {
                let question = child.child("question");
                let options = child.child("options");
                object.value("answers", |out| {
                    write_array(out, answer_positions, |out, a| {
                        child.write_answer(out, a, question.as_ref(), options.as_ref());
                    });
                });
            }
        }
        if orga || reviewer {
            object.value("pending_state", |out| {
                let _ = crate::json::append(out, &sub.pending_state);
            });
            object.boolean("is_featured", sub.is_featured);
        }
        if orga {
            object.optional_string("notes", nullable(&sub.notes));
            object.optional_string("internal_notes", nullable(&sub.internal_notes));
            object.optional_string("invitation_token", sub.invitation_token.as_deref());
            object.optional_integer("access_code", sub.access_code);
            object.optional_string("review_code", sub.review_code.as_deref());
            match anonymised_data(sub.anonymised.as_deref()) {
                Some(data) => object.raw("anonymised_data", data.get()),
                None => object.raw("anonymised_data", "null"),
            }
        }
        if orga {
            let reviews = self.shown_reviews(position);
            object.array("reviews", |elements| {
                reviews.iter().for_each(|r| elements.integer(r.id));
            });
            object.array("assigned_reviewers", |elements| {
                sub.assigned_reviewers
                    .iter()
                    .for_each(|code| elements.string(code));
            });
            object.boolean("is_anonymised", is_anonymised(sub));
            let (median, mean) = review_scores(&reviews);
            object.value("median_score", |out| {
                let _ = crate::json::append(out, &median);
            });
            object.value("mean_score", |out| {
                let _ = crate::json::append(out, &mean);
            });
        }
        if orga || reviewer {
            object.string("created", &self.dt(&sub.created));
            object.optional_string("updated", self.opt_dt(&sub.updated).as_deref());
            if orga {
                match self.child("invitations") {
                    None => object.array("invitations", |elements| {
                        sub.invitations.iter().for_each(|i| elements.integer(i.id));
                    }),
                    Some(_) => object.value("invitations", |out| {
                        write_array(out, sub.invitations.iter(), |out, invitation| {
                            let mut object = ObjectText::open(out);
                            object.integer("id", invitation.id);
                            object.string("email", &invitation.email);
                            object.optional_string(
                                "created",
                                self.opt_dt(&invitation.created).as_deref(),
                            );
                            object.optional_string(
                                "updated",
                                self.opt_dt(&invitation.updated).as_deref(),
                            );
                            object.close();
                        });
                    }),
                }
            }
        }
        object.close();
    }

    // The parts of a submission its view and `write_submission` show.

    fn basics(&self, position: crate::domain::catalog::SubmissionIx) -> SubmissionBasics<'a> {
        let access = self.access;
        let data: &'a crate::domain::catalog::EventData = access.data;
        let sub: &'a Submission = &data.event.submissions[position];
        let anonymised = access.anonymised_at(position, false);
        SubmissionBasics {
            data,
            event: &data.event,
            sub,
            orga: self.is_orga(),
            reviewer: access.role == Role::Reviewer && !self.nested,
            anonymised,
            texts: crate::domain::views::shown_texts(sub, anonymised),
        }
    }

    /// Only the submissions view knows the schedule: a nested submission's
    /// slots are `[]` elsewhere.
    fn knows_schedule(&self) -> bool {
        !self.nested || matches!(self.serving, Serving::Submissions | Serving::Schedule)
    }

    /// Each speaker of the submission at `position` the caller is shown
    /// (none where it is anonymised to them): their code, profile, and
    /// user where the catalog's table has it (None: look it up in `users`).
    fn shown_speakers(
        &self,
        position: crate::domain::catalog::SubmissionIx,
        users: &'a crate::domain::catalog::Users,
        anonymised: bool,
    ) -> impl Iterator<
        Item = (
            &'a str,
            Option<crate::domain::catalog::ProfileIx>,
            Option<&'a User>,
        ),
    > + 'a {
        let data: &'a crate::domain::catalog::EventData = self.access.data;
        let sub: &'a Submission = &data.event.submissions[position];
        // The speakers' users and profiles as the catalog found them once
        // (a lookup by code per speaker and page was a seventh of an
        // expanded page: perf, docs/bench-log.md).
        let known = self.speaker_users.map(|table| table.of(position));
        sub.speakers
            .iter()
            .zip(data.speaker_profiles.of(position))
            .enumerate()
            .filter(move |_| !anonymised)
            .filter_map(move |(i, (code, profile))| match known {
                Some(users) => users
                    .get(i)
                    .and_then(Option::as_deref)
                    .map(|user| (code.as_str(), *profile, Some(user))),
                None => {
                    // The profile's user: the code may be the profile's own.
                    let user =
                        profile.map_or(code.as_str(), |p| data.event.speakers[p].user.as_str());
                    users
                        .contains_key(user)
                        .then_some((code.as_str(), *profile, None))
                }
            })
    }

    /// The renderer of a submission's expanded speakers, if expanded.
    fn speakers_child(&self, with_slots: bool) -> Option<V1Renderer<'a>> {
        let mut child = self.child("speakers")?;
        // Organisers' expanded speakers keep the organiser fields, unless
        // the submission is itself nested (pretalx's public submission
        // serializer nests public speakers, as in a slot).
        child.nested = self.access.role != Role::Organiser || self.nested || !with_slots;
        Some(child)
    }

    /// Of `shown` speakers, those whose user is known, with their profile.
    fn expanded_speakers(
        &self,
        shown: impl Iterator<
                Item = (
                    &'a str,
                    Option<crate::domain::catalog::ProfileIx>,
                    Option<&'a User>,
                ),
            > + 'a,
        users: &'a crate::domain::catalog::Users,
    ) -> impl Iterator<Item = (crate::domain::catalog::ProfileIx, &'a User)> + 'a {
        let data: &'a crate::domain::catalog::EventData = self.access.data;
        shown
            .filter_map(|(_, profile, user)| Some((profile?, user)))
            .filter_map(move |(p, user)| {
                // Taken from the catalog's table where it has them (a hash
                // lookup by code was a tenth of an expanded page, in misses).
                let user = match user {
                    Some(user) => user,
                    None => users.get(data.event.speakers[p].user.as_str())?,
                };
                Some((p, user))
            })
    }

    /// The submission's tag ids the caller sees, in order.
    fn shown_tag_ids(&self, sub: &Submission) -> SmallVec<[i64; 8]> {
        let access = self.access;
        let mut ids: SmallVec<[i64; 8]> = sub
            .tags
            .iter()
            .copied()
            .filter(|id| access.sees_tags() || access.data.tag(*id).is_some_and(|t| t.is_public))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The submission's resources the caller is shown, with their places.
    fn shown_resources(
        &self,
        sub: &'a Submission,
        with_slots: bool,
    ) -> impl Iterator<Item = (usize, &'a Resource)> + 'a {
        let access = self.access;
        // Nested outside the submissions view, and in a slot (to organisers
        // too), pretalx's public serializer shows the public ones.
        let public_serializer = !self.knows_schedule() || !with_slots;
        sub.resources
            .iter()
            .enumerate()
            .filter(move |(_, r)| access.sees_resource(r))
            .filter(move |(_, r)| !public_serializer || resource_visible_to(Role::Public, r))
    }

    /// The places of the submission's slots in the released schedule the
    /// caller sees (organisers all).
    fn slot_indexes(&self, sub: &Submission) -> SmallVec<[usize; 4]> {
        let sees_all = self.access.role == Role::Organiser;
        if self.access.data.event.schedule.is_none() {
            return SmallVec::new();
        }
        (0..sub.slots.len())
            .filter(|&i| sees_all || sub.slots[i].is_visible)
            .collect()
    }

    /// The positions of the submission's answers the caller sees.
    fn shown_answers(
        &self,
        position: crate::domain::catalog::SubmissionIx,
        with_slots: bool,
    ) -> impl Iterator<Item = crate::domain::catalog::AnswerIx> + 'a {
        let access = self.access;
        // The reviews view has no questions: a nested submission's answers
        // are empty there; and in a slot none, as pretalx's slots view
        // gives its submissions no questions to answer.
        let none = !with_slots || (self.nested && self.serving == Serving::Reviews);
        access
            .data
            .answers_of_submission
            .of(position)
            .iter()
            .copied()
            .filter(move |&a| !none && access.sees_answer_at(a))
    }

    /// The submission's reviews the caller sees.
    fn shown_reviews(
        &self,
        position: crate::domain::catalog::SubmissionIx,
    ) -> SmallVec<[&'a Review; 8]> {
        let access = self.access;
        let event = &access.data.event;
        access
            .data
            .reviews_of_submission
            .of(position)
            .iter()
            .copied()
            .filter(|&r| access.sees_review_at(r))
            .map(|r| &event.reviews[r])
            .collect()
    }
}
