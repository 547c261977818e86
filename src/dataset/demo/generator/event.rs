//! One event: its plan, its event-level records (submission types, tracks,
//! rooms, tags, questions, breaks) and, in order, everything in it.

use chrono::Duration;

use super::super::helpers::{i18n, uuid};
use super::super::plan::{EventKind, EventPlan};
use super::super::questions::{Scope, QUESTIONS};
use super::super::tables::{
    CO_SPOKEN, FORCED_STATES, REVIEWING_STATES, ROOMS, ROOM_DESCRIPTIONS, SCHEDULED_STATES,
    SUBMISSION_TYPES, TAGS, TALK, TRACKS, TWO_SLOTS, TYPE_WEIGHTS, WORKSHOP,
};
use super::super::DEMO_ORGANISER;
use super::people::Staff;
use super::{next_id, Generator};
use crate::model::{
    share_each, Availability, Break, Event, I18n, OtherReviews, ProposalVisibility, Question,
    QuestionOption, QuestionRequired, QuestionTarget, QuestionVariant, ReviewPhase, Room, Schedule,
    SpeakerProfile, SubmissionType, Tag, Timestamp, Track,
};

impl Generator {
    fn submission_types(&mut self) -> Vec<SubmissionType> {
        SUBMISSION_TYPES
            .iter()
            .enumerate()
            .map(|(index, &(en, de, default_duration))| SubmissionType {
                id: next_id(&mut self.ids.submission_type),
                name: i18n(en, Some(de)),
                default_duration,
                deadline: None,
                requires_access_code: false,
                attendee_signup_required: index == WORKSHOP,
            })
            .collect()
    }

    fn tracks(&mut self) -> Vec<Track> {
        let count = 4 + self.rng.usize(..=2);
        let chosen = self.sample(&TRACKS, count);
        chosen
            .into_iter()
            .enumerate()
            .map(|(position, track)| Track {
                id: next_id(&mut self.ids.track),
                name: i18n(track.en, track.de),
                color: track.color.to_string(),
                description: I18n::en(&format!("Talks about {}.", track.en.to_lowercase())),
                position: Some(position as i64),
                requires_access_code: false,
                attendee_signup_required: false,
            })
            .collect()
    }

    fn rooms(&mut self, plan: &EventPlan) -> Vec<Room> {
        let count = 3 + self.rng.usize(..=3);
        (0..count)
            .map(|position| {
                let room = ROOMS[position];
                let last = position + 1 == count;
                let description = ROOM_DESCRIPTIONS[position % ROOM_DESCRIPTIONS.len()];
                let availabilities = if last {
                    // Whole days, midnight to midnight: shown as `allDay`.
                    let end = *plan.days.last().expect("events have days") + Duration::days(1);
                    vec![self.availability(plan.at(plan.first_day(), 0), plan.at(end, 0))]
                } else {
                    plan.days
                        .iter()
                        .map(|&day| {
                            self.availability(plan.at(day, 8 * 60 + 30), plan.at(day, 19 * 60 + 30))
                        })
                        .collect()
                };
                Room {
                    id: next_id(&mut self.ids.room),
                    // The last room was added by hand and has neither guid nor position.
                    guid: (!last).then(|| uuid(&mut self.rng)),
                    uuid: None,
                    name: i18n(room.en, Some(room.de)),
                    description: i18n(description.en, Some(description.de)),
                    speaker_info: if position == 0 {
                        i18n(
                            "The speaker desk is left of the stage.",
                            Some("Das Redepult steht links von der Bühne."),
                        )
                    } else {
                        I18n::default()
                    },
                    capacity: Some(room.capacity),
                    position: (!last).then_some(position as i64 + 1),
                    availabilities,
                }
            })
            .collect()
    }

    pub(super) fn availability(&mut self, start: Timestamp, end: Timestamp) -> Availability {
        Availability {
            id: next_id(&mut self.ids.availability),
            start,
            end,
        }
    }

    fn tags(&mut self) -> Vec<Tag> {
        let count = 4 + self.rng.usize(..=3);
        let mut chosen = self.sample(&TAGS.sampled, count);
        chosen.push(TAGS.always);
        chosen
            .into_iter()
            .map(|row| Tag {
                id: next_id(&mut self.ids.tag),
                tag: row.tag.to_string(),
                description: I18n::en(row.description),
                color: row.color.to_string(),
                is_public: row.public,
            })
            .collect()
    }

    fn questions(&mut self, tracks: &[Track], types: &[SubmissionType]) -> Vec<Question> {
        QUESTIONS
            .iter()
            .enumerate()
            .map(|(position, template)| (position, template, next_id(&mut self.ids.question)))
            .map(|(position, template, id)| Question {
                id,
                variant: QuestionVariant::from_name(template.variant).expect("a known variant"),
                target: QuestionTarget::from_name(template.target).expect("a known target"),
                question: i18n(template.en, template.de),
                help_text: I18n::en(template.help),
                question_required: QuestionRequired::from_name(template.required)
                    .expect("a known requirement"),
                deadline: template.deadline.timestamp(),
                freeze_after: template.freeze_after.timestamp(),
                options: template
                    .options
                    .iter()
                    .map(|&(en, de)| {
                        let id = next_id(&mut self.ids.option);
                        QuestionOption {
                            id,
                            answer: if en == de {
                                I18n::en(en)
                            } else {
                                i18n(en, Some(de))
                            },
                            position: None,
                            identifier: Some(identifier(id)),
                        }
                    })
                    .collect(),
                default_answer: template.default_answer.map(str::to_string),
                contains_personal_data: template.personal_data,
                min_length: template.min_length,
                max_length: template.max_length,
                min_number: None,
                max_number: None,
                min_date: None,
                max_date: None,
                min_datetime: None,
                max_datetime: None,
                icon: None,
                identifier: Some(identifier(id)),
                is_public: template.public,
                is_visible_to_reviewers: template.visible_to_reviewers,
                active: template.active,
                position: position as i64 + 1,
                tracks: match template.scope {
                    Scope::FirstTrack => vec![tracks[0].id],
                    _ => Vec::new(),
                },
                submission_types: match template.scope {
                    Scope::Workshops => vec![types[WORKSHOP].id],
                    _ => Vec::new(),
                },
            })
            .collect()
    }

    pub(super) fn event(&mut self, index: usize, count: usize, staff: &Staff) -> Event {
        let plan = EventPlan::new(index);
        let submission_types = self.submission_types();
        let tracks = self.tracks();
        let rooms = self.rooms(&plan);
        let tags = self.tags();
        let questions = self.questions(&tracks, &submission_types);
        let extra_reviewers = self.extra_reviewers(count);
        let (pool, active) = self.speaker_pool(index, count);
        // The first event is where the demo logins have their special parts.
        let staffed = index == 0;

        let mut submissions = Vec::with_capacity(count);
        for i in 0..count {
            let state = match FORCED_STATES.get(i) {
                Some(&state) => state,
                None if plan.has_schedule() => self.weighted(&SCHEDULED_STATES),
                None => self.weighted(&REVIEWING_STATES),
            };
            let speakers = match i {
                0 if staffed => vec![staff.orga],
                TWO_SLOTS if staffed => vec![staff.speaker],
                CO_SPOKEN if staffed => {
                    let mut speakers = self.submission_speakers(&pool[..active], i);
                    speakers.truncate(1);
                    speakers.push(staff.reviewer);
                    speakers
                }
                _ => self.submission_speakers(&pool[..active], i),
            };
            let type_index = match i {
                0 => TALK,
                TWO_SLOTS => WORKSHOP,
                _ => self.weighted(&TYPE_WEIGHTS),
            };
            let mut submission = self.submission(
                &plan,
                i,
                state,
                &speakers,
                (type_index, &submission_types),
                &tracks,
                &tags,
            );
            if i == 0 && staffed {
                self.make_opening_talk(&plan, &mut submission);
            }
            if i == TWO_SLOTS {
                submission.slot_count = 2;
            }
            submissions.push(submission);
        }

        if plan.has_schedule() {
            self.schedule(&plan, &rooms, &submission_types, &mut submissions);
        }

        let mut profile_users: Vec<usize> = Vec::with_capacity(pool.len() + 3);
        if staffed {
            // Only those whose special submission exists (tiny demos have few).
            profile_users.extend([staff.orga, staff.speaker, staff.reviewer]);
            profile_users.retain(|&u| {
                submissions
                    .iter()
                    .any(|s| s.speakers.iter().any(|c| *c == self.users[u].code))
            });
        }
        profile_users.extend(&pool);
        let speakers: Vec<SpeakerProfile> = profile_users
            .iter()
            .map(|&u| self.profile(&plan, u))
            .collect();

        let seats = self.seats(plan.kind, staff, &extra_reviewers, &tracks);
        let reviews = self.reviews(&plan, &seats, &mut submissions);
        let answers = self.answers(&plan, &questions, &submissions, &speakers, &reviews);
        let teams = self.teams(&plan.slug, plan.kind, staff, &extra_reviewers, &tracks);

        let schedule = plan.has_schedule().then(|| {
            let published = plan.at(plan.first_day() - Duration::days(30), 10 * 60);
            let published = published + Duration::microseconds(self.rng.i64(0..3_600_000_000));
            Schedule {
                id: None,
                version: "1.0".to_string(),
                published: Some(published),
                comment: I18n::default(),
                breaks: self.breaks(&plan, &rooms),
            }
        });
        let review_phase = match plan.kind {
            EventKind::Showcase => Some(ReviewPhase::default()),
            EventKind::Private => Some(ReviewPhase {
                name: "Second round".to_string(),
                can_see_speaker_names: true,
                can_see_reviewer_names: false,
                can_see_other_reviews: OtherReviews::Always,
                proposal_visibility: ProposalVisibility::Assigned,
            }),
            EventKind::HiddenSchedule => None,
        };

        Event {
            date_from: plan.first_day(),
            date_to: plan.days.last().copied(),
            timezone: plan.tz.name().to_string(),
            locale: plan.locale.to_string(),
            locales: Vec::new(),
            content_locales: Vec::new(),
            email: String::new(),
            is_public: plan.kind != EventKind::Private,
            show_schedule: plan.kind != EventKind::HiddenSchedule,
            schedule,
            older_schedules: Vec::new(),
            wip_schedule: None,
            review_phase,
            score_categories: Vec::new(),
            teams,
            submission_types,
            tracks,
            rooms,
            tags,
            questions,
            speakers: share_each(speakers),
            submissions: share_each(submissions),
            answers: share_each(answers),
            reviews: share_each(reviews),
            primary_color: (plan.kind == EventKind::Showcase).then(|| "#3AA57C".to_string()),
            logo: None,
            header_image: None,
            og_image: (plan.kind == EventKind::Showcase)
                .then(|| format!("https://demo.example/media/{}/og-image.png", plan.slug)),
            custom_domain: None,
            organiser: Some(DEMO_ORGANISER.to_string()),
            webhooks: Vec::new(),
            slug: plan.slug,
            name: plan.name,
        }
    }

    /// A lunch break every day in the first room, and a coffee break
    /// without a room on the first day.
    fn breaks(&mut self, plan: &EventPlan, rooms: &[Room]) -> Vec<Break> {
        let mut breaks: Vec<Break> = plan
            .days
            .iter()
            .map(|&day| Break {
                id: Some(next_id(&mut self.ids.slot_pk)),
                room: rooms.first().map(|r| r.id),
                start: plan.at(day, 12 * 60 + 30),
                end: plan.at(day, 13 * 60 + 30),
                description: i18n("Lunch break", Some("Mittagspause")),
            })
            .collect();
        if let Some(&day) = plan.days.first() {
            breaks.push(Break {
                id: Some(next_id(&mut self.ids.slot_pk)),
                room: None,
                start: plan.at(day, 15 * 60 + 30),
                end: plan.at(day, 16 * 60),
                description: i18n("Coffee & cake", Some("Kaffee & Kuchen")),
            });
        }
        breaks
    }
}

/// A question's or option's identifier as pretalx 2026 generates them: eight
/// letters and digits of its charset, here derived from the id (no random
/// draw, so the rest of the demo stays as it was before them).
fn identifier(id: i64) -> String {
    const CHARSET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ3789";
    let mut state = (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    (0..8)
        .map(|_| {
            state ^= state >> 29;
            state = state.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            CHARSET[(state >> 40) as usize % CHARSET.len()] as char
        })
        .collect()
}
