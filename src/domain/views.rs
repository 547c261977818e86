//! The JSON objects of each resource, per role (behaviour.md §6). Field
//! order is the struct order; role-only fields are `Option`s left out with
//! `skip_serializing_if`, so a reviewer never receives an organiser field,
//! not even as null.

use serde::Serialize;
use utoipa::ToSchema;

use crate::model::*;

use super::access::{Access, Role};
use super::catalog::{AnswerIx, ProfileIx, ReviewIx, SubmissionIx};
use crate::model::time::{format_in, is_midnight_in};

/// Which answers to nest (`questions` parameter): none, all, or some question ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuestionSelector {
    None,
    All,
    Ids(Vec<i64>),
}

impl QuestionSelector {
    fn includes(&self, question: i64) -> bool {
        match self {
            QuestionSelector::None => false,
            QuestionSelector::All => true,
            QuestionSelector::Ids(ids) => ids.contains(&question),
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = Event)]
pub struct EventView<'a> {
    pub name: &'a I18n,
    pub slug: &'a str,
    pub is_public: bool,
    #[schema(format = Date)]
    pub date_from: String,
    #[schema(required = true, format = Date)]
    pub date_to: Option<String>,
    pub timezone: &'a str,
    pub urls: EventUrls,
}

#[derive(Serialize, ToSchema)]
#[schema(as = EventUrls)]
pub struct EventUrls {
    #[schema(format = Uri)]
    pub base: String,
    #[schema(format = Uri)]
    pub schedule: String,
    #[schema(format = Uri)]
    pub login: String,
    #[schema(format = Uri)]
    pub feed: String,
}

pub fn event_view<'a>(event: &'a Event, base_url: &str) -> EventView<'a> {
    let base = format!("{}/{}/", base_url.trim_end_matches('/'), event.slug);
    EventView {
        name: &event.name,
        slug: &event.slug,
        is_public: event.is_public,
        date_from: event.date_from.to_string(),
        date_to: event.date_to.map(|d| d.to_string()),
        timezone: &event.timezone,
        urls: EventUrls {
            schedule: format!("{base}schedule/"),
            login: format!("{base}login/"),
            feed: format!("{base}schedule/feed.xml"),
            base,
        },
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = AnswerOption)]
pub struct OptionView<'a> {
    pub id: i64,
    pub answer: &'a I18n,
}

#[derive(Serialize, ToSchema)]
#[schema(as = QuestionBrief)]
pub struct QuestionBrief<'a> {
    pub id: i64,
    pub question: &'a I18n,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<QuestionTarget>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<OptionView<'a>>>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Answer)]
pub struct AnswerView<'a> {
    pub id: i64,
    pub question: QuestionBrief<'a>,
    pub answer: &'a str,
    #[schema(required = true)]
    pub answer_file: Option<&'a str>,
    #[schema(required = true)]
    pub submission: Option<&'a str>,
    #[schema(required = true)]
    pub review: Option<i64>,
    #[schema(required = true)]
    pub person: Option<&'a str>,
    pub options: Vec<OptionView<'a>>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Availability)]
pub struct AvailabilityView {
    pub id: i64,
    #[schema(format = DateTime)]
    pub start: String,
    #[schema(format = DateTime)]
    pub end: String,
    #[serde(rename = "allDay")]
    pub all_day: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SubmissionSpeaker)]
pub struct SpeakerBrief<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub biography: &'a str,
    #[schema(required = true)]
    pub avatar: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'a str>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Slot)]
pub struct SlotView<'a> {
    #[schema(required = true, format = DateTime)]
    pub start: Option<String>,
    #[schema(required = true, format = DateTime)]
    pub end: Option<String>,
    #[schema(required = true)]
    pub room: Option<&'a I18n>,
    #[schema(required = true)]
    pub room_id: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Resource)]
pub struct ResourceView<'a> {
    pub resource: &'a str,
    pub description: &'a str,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Submission)]
pub struct SubmissionView<'a> {
    pub code: &'a str,
    pub speakers: Vec<SpeakerBrief<'a>>,
    pub title: &'a str,
    #[schema(required = true)]
    pub submission_type: Option<&'a I18n>,
    pub submission_type_id: i64,
    #[schema(required = true)]
    pub track: Option<&'a I18n>,
    #[schema(required = true)]
    pub track_id: Option<i64>,
    pub state: SubmissionState,
    #[serde(rename = "abstract")]
    pub abstract_: &'a str,
    pub description: &'a str,
    pub duration: i64,
    pub slot_count: i64,
    pub do_not_record: bool,
    pub is_featured: bool,
    pub content_locale: &'a str,
    #[schema(required = true)]
    pub slot: Option<SlotView<'a>>,
    #[schema(required = true)]
    pub image: Option<&'a str>,
    pub resources: Vec<ResourceView<'a>>,
    pub answers: Vec<AnswerView<'a>>,
    #[schema(nullable = false, format = DateTime)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[schema(value_type = Option<SubmissionState>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_state: Option<Option<SubmissionState>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_notes: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<&'a str>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_ids: Option<Vec<i64>>,
}

impl SubmissionView<'_> {
    /// Reads the first byte of each text, so that the memory reads of a
    /// whole page run side by side while its views are built, instead of
    /// one after another while it is serialised: a random page of a big
    /// event is cold in the CPU caches, and waiting for each text in turn
    /// was a quarter of its rendering time.
    fn load_texts(&self) {
        let speakers = self.speakers.iter().flat_map(|s| {
            [s.code, s.name, s.biography]
                .into_iter()
                .chain(s.avatar)
                .chain(s.email)
        });
        let texts = [self.code, self.title, self.abstract_, self.description]
            .into_iter()
            .chain(self.image)
            .chain(self.notes)
            .chain(self.internal_notes)
            .chain(speakers);
        for text in texts {
            std::hint::black_box(text.as_bytes().first().copied());
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = Speaker)]
pub struct SpeakerView<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub biography: &'a str,
    pub submissions: Vec<&'a str>,
    #[schema(required = true)]
    pub avatar: Option<&'a str>,
    pub answers: Vec<AnswerView<'a>>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availabilities: Option<Vec<AvailabilityView>>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Review)]
pub struct ReviewView<'a> {
    pub id: i64,
    pub submission: &'a str,
    #[schema(required = true)]
    pub user: Option<&'a str>,
    pub text: &'a str,
    #[schema(required = true)]
    pub score: Option<f64>,
    #[schema(format = DateTime)]
    pub created: String,
    #[schema(format = DateTime)]
    pub updated: String,
    pub answers: Vec<AnswerView<'a>>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Room)]
pub struct RoomView<'a> {
    pub id: i64,
    #[schema(required = true)]
    pub guid: Option<&'a str>,
    pub name: &'a I18n,
    pub description: &'a I18n,
    #[schema(required = true)]
    pub capacity: Option<i64>,
    #[schema(required = true)]
    pub position: Option<i64>,
    pub speaker_info: &'a I18n,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availabilities: Option<Vec<AvailabilityView>>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Tag)]
pub struct TagView<'a> {
    pub id: i64,
    pub tag: &'a str,
    pub description: &'a I18n,
    pub color: &'a str,
    pub is_public: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Question)]
pub struct QuestionView<'a> {
    pub id: i64,
    pub variant: QuestionVariant,
    pub target: QuestionTarget,
    pub question: &'a I18n,
    pub help_text: &'a I18n,
    pub question_required: QuestionRequired,
    #[schema(required = true, format = DateTime)]
    pub deadline: Option<String>,
    pub required: bool,
    pub read_only: bool,
    #[schema(required = true, format = DateTime)]
    pub freeze_after: Option<String>,
    pub options: Vec<OptionView<'a>>,
    #[schema(required = true)]
    pub default_answer: Option<&'a str>,
    pub contains_personal_data: bool,
    #[schema(required = true)]
    pub min_length: Option<i64>,
    #[schema(required = true)]
    pub max_length: Option<i64>,
    pub is_public: bool,
    pub is_visible_to_reviewers: bool,
    pub tracks: Vec<i64>,
    pub submission_types: Vec<i64>,
}

/// The texts a submission shows: the anonymised ones where set and asked for.
pub struct ShownTexts<'a> {
    pub title: &'a str,
    pub abstract_: &'a str,
    pub description: &'a str,
}

pub fn shown_texts(sub: &Submission, anonymised: bool) -> ShownTexts<'_> {
    let anon = sub.anonymised.as_ref().filter(|_| anonymised);
    ShownTexts {
        title: anon
            .map(|a| a.title.as_str())
            .filter(|t| !t.is_empty())
            .unwrap_or(&sub.title),
        abstract_: anon
            .map(|a| a.abstract_.as_str())
            .filter(|t| !t.is_empty())
            .unwrap_or(&sub.abstract_),
        description: anon
            .map(|a| a.description.as_str())
            .filter(|t| !t.is_empty())
            .unwrap_or(&sub.description),
    }
}

/// The title of the submission at `position` as `access`'s caller is
/// shown it (the anonymised one in the anonymised view): what their
/// searches and orderings by title use, so that neither tells them a
/// title they may not read.
pub fn shown_title<'a>(access: &Access<'a>, position: super::catalog::SubmissionIx) -> &'a str {
    let sub = &access.data.event.submissions[position];
    shown_texts(sub, access.anonymised_at(position, false)).title
}

/// Renders objects for one caller in one event.
pub struct Renderer<'a> {
    pub access: &'a Access<'a>,
    pub users: &'a super::catalog::Users,
    /// The event's speakers' users by submission (`Catalog::speaker_users`);
    /// None for an event outside the catalog, whose users are looked up.
    pub speaker_users: Option<&'a super::catalog::SpeakerUsers>,
}

impl<'a> Renderer<'a> {
    fn dt(&self, value: &Timestamp) -> String {
        format_in(value, &self.access.data.tz)
    }

    fn opt_dt(&self, value: &Option<Timestamp>) -> Option<String> {
        value.as_ref().map(|v| self.dt(v))
    }

    fn is_orga(&self) -> bool {
        self.access.role == Role::Organiser
    }

    pub fn options(&self, q: &'a Question, only: Option<&[i64]>) -> Vec<OptionView<'a>> {
        let mut options: Vec<&QuestionOption> = q
            .options
            .iter()
            .filter(|o| only.is_none_or(|ids| ids.contains(&o.id)))
            .collect();
        options.sort_by_key(|o| o.id);
        options
            .into_iter()
            .map(|o| OptionView {
                id: o.id,
                answer: &o.answer,
            })
            .collect()
    }

    pub fn answer(&self, a: &'a Answer, in_submission: bool) -> Option<AnswerView<'a>> {
        let q = self.access.data.question(a.question)?;
        Some(AnswerView {
            id: a.id,
            question: QuestionBrief {
                id: q.id,
                question: &q.question,
                required: in_submission.then(|| self.access.required(q)),
                target: in_submission.then_some(q.target),
                options: in_submission.then(|| self.options(q, None)),
            },
            answer: &a.answer,
            answer_file: a.answer_file.as_deref(),
            submission: a.submission.as_deref(),
            review: a.review,
            person: a.person.as_deref(),
            options: self.options(q, Some(&a.options)),
        })
    }

    /// The nested answers of one owner that the caller may see, by id.
    fn nested_answers(
        &self,
        positions: &'a [AnswerIx],
        selector: &QuestionSelector,
        in_submission: bool,
    ) -> Vec<AnswerView<'a>> {
        if *selector == QuestionSelector::None {
            return Vec::new();
        }
        let answers = &self.access.data.event.answers;
        positions
            .iter()
            .filter(|&&i| selector.includes(answers[i].question) && self.access.sees_answer_at(i))
            .map(|&i| &answers[i])
            .filter_map(|a| self.answer(a, in_submission))
            .collect()
    }

    fn availability(&self, a: &Availability) -> AvailabilityView {
        let tz = &self.access.data.tz;
        AvailabilityView {
            id: a.id,
            start: self.dt(&a.start),
            end: self.dt(&a.end),
            all_day: is_midnight_in(&a.start, tz) && is_midnight_in(&a.end, tz),
        }
    }

    fn availabilities(&self, list: &[Availability]) -> Vec<AvailabilityView> {
        let mut sorted: Vec<&Availability> = list.iter().collect();
        sorted.sort_by_key(|a| a.id);
        sorted.into_iter().map(|a| self.availability(a)).collect()
    }

    /// The first slot by start the caller may see (organisers: invisible ones
    /// too); slots without a start come last, ties keep dataset order.
    fn slot(&self, sub: &'a Submission) -> Option<SlotView<'a>> {
        let data = self.access.data;
        data.event.schedule.as_ref()?;
        let slot = sub
            .slots
            .iter()
            .filter(|s| self.is_orga() || s.is_visible)
            .min_by_key(|s| (s.start.is_none(), s.start))?;
        let end = slot.end.or_else(|| {
            slot.start
                .map(|start| start + chrono::Duration::minutes(data.duration(sub)))
        });
        Some(SlotView {
            start: self.opt_dt(&slot.start),
            end: self.opt_dt(&end),
            room: slot.room.and_then(|id| data.room(id)).map(|r| &r.name),
            room_id: slot.room,
        })
    }

    /// The submission at `position` (a position, not a code: a page renders
    /// up to a hundred of them, and a hash lookup each was measurable).
    pub fn submission(
        &self,
        position: SubmissionIx,
        anon: bool,
        selector: &QuestionSelector,
    ) -> SubmissionView<'a> {
        let access = self.access;
        let data = access.data;
        let sub = &data.event.submissions[position];
        let anonymised = access.anonymised_at(position, anon);
        let texts = shown_texts(sub, anonymised);
        let orga = self.is_orga();
        let speakers = if anonymised {
            Vec::new()
        } else {
            let known = self.speaker_users.map(|users| users.of(position));
            sub.speakers
                .iter()
                .enumerate()
                .zip(data.speaker_profiles.of(position))
                .filter_map(|((i, code), profile)| {
                    let user = match known {
                        Some(users) => users.get(i)?.as_ref()?,
                        None => self.users.get(
                            profile.map_or(code.as_str(), |p| data.event.speakers[p].user.as_str()),
                        )?,
                    };
                    Some((code, user, profile))
                })
                .map(|(code, user, profile)| SpeakerBrief {
                    // The code the event knows them by (pretalx 2026: a
                    // profile's own), not necessarily the user's.
                    code: code.as_str(),
                    name: &user.name,
                    biography: profile.map_or("", |p| data.event.speakers[p].biography.as_str()),
                    avatar: user.avatar.as_deref(),
                    email: orga.then_some(user.email.as_str()),
                })
                .collect()
        };
        let (tags, tag_ids) = if access.sees_tags() {
            let mut tags: Vec<&Tag> = sub.tags.iter().filter_map(|id| data.tag(*id)).collect();
            tags.sort_by_key(|t| t.id);
            (
                Some(tags.iter().map(|t| t.tag.as_str()).collect()),
                Some(tags.iter().map(|t| t.id).collect()),
            )
        } else {
            (None, None)
        };
        let view = SubmissionView {
            code: &sub.code,
            speakers,
            title: texts.title,
            submission_type: data.submission_type(sub.submission_type).map(|t| &t.name),
            submission_type_id: sub.submission_type,
            track: sub.track.and_then(|id| data.track(id)).map(|t| &t.name),
            track_id: sub.track,
            state: sub.state,
            abstract_: texts.abstract_,
            description: texts.description,
            duration: data.duration(sub),
            slot_count: sub.slot_count,
            do_not_record: sub.do_not_record,
            is_featured: sub.is_featured,
            content_locale: &sub.content_locale,
            slot: self.slot(sub),
            image: sub.image.as_deref(),
            resources: sub
                .resources
                .iter()
                .filter(|r| access.sees_resource(r))
                .map(|r| ResourceView {
                    resource: &r.resource,
                    description: &r.description,
                })
                .collect(),
            answers: self.nested_answers(data.answers_of_submission.of(position), selector, true),
            created: orga.then(|| self.dt(&sub.created)),
            pending_state: orga.then_some(sub.pending_state),
            notes: orga.then_some(sub.notes.as_str()),
            internal_notes: orga.then_some(sub.internal_notes.as_str()),
            tags,
            tag_ids,
        };
        view.load_texts();
        view
    }

    /// The speaker whose profile is at `position`.
    pub fn speaker(
        &self,
        position: ProfileIx,
        selector: &QuestionSelector,
    ) -> Option<SpeakerView<'a>> {
        let profile = &self.access.data.event.speakers[position];
        let user = self.users.get(profile.user.as_str())?;
        let orga = self.is_orga();
        Some(SpeakerView {
            code: profile.speaker_code(),
            name: &user.name,
            biography: &profile.biography,
            submissions: self
                .access
                .named_submissions_of(position)
                .map(|s| s.code.as_str())
                .collect(),
            avatar: user.avatar.as_deref(),
            answers: self.nested_answers(
                self.access.data.answers_of_person.of(position),
                selector,
                false,
            ),
            email: orga.then_some(user.email.as_str()),
            availabilities: orga.then(|| self.availabilities(&profile.availabilities)),
        })
    }

    /// The review at `position` (as with submissions, no lookup per item).
    pub fn review(&self, position: ReviewIx) -> ReviewView<'a> {
        let review = &self.access.data.event.reviews[position];
        let user = self
            .access
            .shows_reviewer_name(review)
            .then(|| {
                self.users
                    .get(review.user.as_str())
                    .map(|u| u.name.as_str())
            })
            .flatten();
        ReviewView {
            id: review.id,
            submission: &review.submission,
            user,
            text: &review.text,
            score: review.score,
            created: self.dt(&review.created),
            updated: self.dt(&review.updated),
            // A review always carries the answers the caller may see.
            answers: self.nested_answers(
                self.access.data.answers_of_review.of(position),
                &QuestionSelector::All,
                false,
            ),
        }
    }

    pub fn room(&self, room: &'a Room) -> RoomView<'a> {
        RoomView {
            id: room.id,
            // pretalx's legacy `guid` is the room's uuid: the stored guid,
            // else its computed uuid, which a dataset (a mirror) may carry.
            guid: room.guid.as_deref().or(room.uuid.as_deref()),
            name: &room.name,
            description: &room.description,
            capacity: room.capacity,
            position: room.position,
            speaker_info: &room.speaker_info,
            availabilities: self
                .is_orga()
                .then(|| self.availabilities(&room.availabilities)),
        }
    }

    pub fn tag(&self, tag: &'a Tag) -> TagView<'a> {
        TagView {
            id: tag.id,
            tag: &tag.tag,
            description: &tag.description,
            color: &tag.color,
            is_public: tag.is_public,
        }
    }

    pub fn question(&self, q: &'a Question) -> QuestionView<'a> {
        let mut tracks = q.tracks.clone();
        tracks.sort_unstable();
        let mut submission_types = q.submission_types.clone();
        submission_types.sort_unstable();
        QuestionView {
            id: q.id,
            variant: q.variant,
            target: q.target,
            question: &q.question,
            help_text: &q.help_text,
            question_required: q.question_required,
            deadline: self.opt_dt(&q.deadline),
            required: self.access.required(q),
            read_only: self.access.read_only(q),
            freeze_after: self.opt_dt(&q.freeze_after),
            options: self.options(q, None),
            default_answer: q.default_answer.as_deref(),
            contains_personal_data: q.contains_personal_data,
            min_length: q.min_length,
            max_length: q.max_length,
            is_public: q.is_public,
            is_visible_to_reviewers: q.is_visible_to_reviewers,
            tracks,
            submission_types,
        }
    }
}

/// The fields of a view that only some roles receive (behaviour.md §6; the
/// rest every role receives). The OpenAPI document describes one closed
/// variant of the view per role from these, and the tests check real
/// answers of each role against them.
pub struct RoleFields {
    pub reviewer: &'static [&'static str],
    pub organiser: &'static [&'static str],
}

pub const SUBMISSION_ROLE_FIELDS: RoleFields = RoleFields {
    reviewer: &["tags", "tag_ids"],
    organiser: &[
        "created",
        "pending_state",
        "notes",
        "internal_notes",
        "tags",
        "tag_ids",
    ],
};

pub const SPEAKER_ROLE_FIELDS: RoleFields = RoleFields {
    reviewer: &[],
    organiser: &["email", "availabilities"],
};

pub const ROOM_ROLE_FIELDS: RoleFields = RoleFields {
    reviewer: &[],
    organiser: &["availabilities"],
};
