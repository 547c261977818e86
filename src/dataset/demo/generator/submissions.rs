//! Submissions: their speakers, state-dependent details, texts and
//! resources.

use super::super::helpers::{capitalise_first, english, title_case, url_slug};
use super::super::plan::EventPlan;
use super::super::tables::{ANONYMISED, OTHER_DURATIONS, SPEAKER_COUNTS, WORKSHOP};
use super::super::words::{words, Words, COMPANIES, INTERNAL_NOTES, SPEAKER_NOTES};
use super::{next_id, CodeKind, Generator};
use crate::model::{
    Anonymised, AttendeeSignup, Invitation, Resource, SignupStatus, Submission, SubmissionState,
    SubmissionType, Tag, Track,
};

impl Generator {
    /// One to three speakers; the `i`-th submission's first speaker is the
    /// pool's `i`-th, so every active speaker has at least one submission.
    pub(super) fn submission_speakers(&mut self, pool: &[usize], i: usize) -> Vec<usize> {
        let wanted = self.weighted(&SPEAKER_COUNTS).min(pool.len());
        let first = match pool.get(i) {
            Some(&speaker) => speaker,
            None => pool[self.rng.usize(..pool.len())],
        };
        let mut speakers = vec![first];
        // Bounded retries: tiny pools may not have enough distinct people.
        for _ in 0..8 {
            if speakers.len() >= wanted {
                break;
            }
            let other = pool[self.rng.usize(..pool.len())];
            if !speakers.contains(&other) {
                speakers.push(other);
            }
        }
        speakers
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn submission(
        &mut self,
        plan: &EventPlan,
        i: usize,
        state: &str,
        speakers: &[usize],
        (type_index, types): (usize, &[SubmissionType]),
        tracks: &[Track],
        tags: &[Tag],
    ) -> Submission {
        let code = self.unique_code(CodeKind::Submission);
        let content_locale = match plan.locale {
            "de" => self.weighted(&[("de", 45), ("en", 50), ("fr", 5)]),
            _ => self.weighted(&[("en", 72), ("de", 20), ("fr", 8)]),
        };
        let words = words(content_locale);
        let topic = self.pick(&words.topics);
        let mut title = self.title(words, topic);
        let lengths = [
            2 + self.rng.usize(..=1),
            2 + self.rng.usize(..=1),
            2 + self.rng.usize(..=2),
        ];
        let mut abstract_ = self.paragraph(words, topic, lengths[0]);
        let description = format!(
            "{}\n\n{}",
            self.paragraph(words, topic, lengths[1]),
            self.paragraph(words, topic, lengths[2]),
        );

        // Organisers anonymise some proposals still to decide (and the forced one).
        let anonymised = if matches!(state, "submitted" | "rejected")
            && (i == ANONYMISED || self.chance(0.08))
        {
            let company = self.pick(&COMPANIES);
            let speaker_name = self.users[speakers[0]].name.clone();
            let (named_title, anonymous_title) = words.company_title;
            let (named_intro, anonymous_intro) = words.company_intro;
            let anonymous = Anonymised {
                title: format!("{title}{anonymous_title}"),
                abstract_: format!("{anonymous_intro} {abstract_}"),
                description: String::new(),
            };
            title.push_str(&named_title.replace("{c}", company));
            abstract_ = format!(
                "{} {abstract_}",
                named_intro
                    .replace("{n}", &speaker_name)
                    .replace("{c}", company)
            );
            Some(anonymous)
        } else {
            None
        };

        let duration = if self.chance(0.25) {
            Some(self.pick(OTHER_DURATIONS[type_index]))
        } else {
            None
        };
        let scheduled = matches!(state, "accepted" | "confirmed");
        let pending_state = match state {
            "submitted" if self.chance(0.06) => Some("accepted"),
            "submitted" if self.chance(0.04) => Some("rejected"),
            "confirmed" if self.chance(0.02) => Some("canceled"),
            _ => None,
        };
        let (cfp_start, cfp_end) = plan.cfp_window();
        let tag_count = self.weighted(&[(0usize, 60), (1, 30), (2, 10)]);
        let tag_indices: Vec<usize> = (0..tags.len()).collect();
        let mut tag_ids: Vec<i64> = self
            .sample(&tag_indices, tag_count)
            .iter()
            .map(|&t| tags[t].id)
            .collect();
        tag_ids.sort_unstable();
        let resource_rate = if scheduled { 0.35 } else { 0.05 };
        let resources = if self.chance(resource_rate) {
            self.resources(&plan.slug, &code, topic)
        } else {
            Vec::new()
        };

        let mut submission = Submission {
            title,
            speakers: speakers.iter().map(|&u| self.code_of(u).into()).collect(),
            submission_type: types[type_index].id,
            track: if self.chance(0.9) {
                Some(tracks[self.rng.usize(..tracks.len())].id)
            } else {
                None
            },
            state: SubmissionState::from_name(state).expect("a known state"),
            pending_state: pending_state
                .map(|s| SubmissionState::from_name(s).expect("a known state")),
            abstract_,
            description,
            notes: if self.chance(0.4) {
                self.pick(&SPEAKER_NOTES).to_string()
            } else {
                String::new()
            },
            internal_notes: if self.chance(0.2) {
                self.pick(&INTERNAL_NOTES).to_string()
            } else {
                String::new()
            },
            duration,
            slot_count: 1,
            do_not_record: self.chance(0.08),
            is_featured: scheduled && self.chance(0.06),
            content_locale: content_locale.into(),
            image: self.chance(0.15).then(|| {
                format!(
                    "https://demo.example/media/{}/submissions/{}/image.png",
                    plan.slug,
                    code.to_lowercase()
                )
            }),
            created: self.instant_between(cfp_start, cfp_end),
            tags: tag_ids,
            resources,
            anonymised: anonymised.map(Box::new),
            assigned_reviewers: Vec::new(),
            slots: Vec::new(),
            id: Some(next_id(&mut self.ids.submission_pk)),
            code: code.into(),
            invitation_token: None,
            access_code: None,
            review_code: None,
            updated: None,
            invitations: Vec::new(),
            attendee_signup: None,
        };
        // pretalx 2026's fields, derived without the random stream so that
        // the rest of the demo stays what it was before them.
        let pk = submission.id.unwrap_or_default();
        submission.updated = Some(submission.created + chrono::Duration::hours(1 + pk % 240));
        if pk % 23 == 0 {
            submission.invitations.push(Invitation {
                id: pk,
                email: format!("co-speaker-{}@demo.example", submission.code.to_lowercase()),
                created: submission.updated,
                updated: submission.updated,
            });
        }
        if type_index == WORKSHOP {
            submission.attendee_signup = Some(Box::new(AttendeeSignup {
                required: None,
                capacity: (pk % 3 == 0).then_some(20),
                status: scheduled.then_some(if pk % 5 == 0 {
                    SignupStatus::Full
                } else {
                    SignupStatus::Open
                }),
            }));
        }
        submission
    }

    pub(super) fn make_opening_talk(&mut self, plan: &EventPlan, submission: &mut Submission) {
        let name = english(&plan.name).unwrap_or("DemoConf").to_string();
        submission.title = format!("Opening: Welcome to {name}");
        submission.abstract_ = format!(
            "The organisers welcome everyone to {name}, explain the house rules and code of conduct, \
             and give a tour of the programme, the venue and the social events."
        );
        submission.description =
            "Expect a short history of the conference, thanks to our volunteers \
             and sponsors, and a few practical hints: where to find food, quiet rooms and help.\n\n\
             The opening is recorded and streamed."
                .to_string();
        submission.content_locale = "en".into();
        submission.track = None;
        submission.duration = Some(15);
        submission.is_featured = true;
        submission.do_not_record = false;
        submission.pending_state = None;
        // Slides only: a random "Source code" link would make no sense here.
        submission.resources.retain(|r| r.description == "Slides");
    }

    fn title(&mut self, words: &Words, topic: &str) -> String {
        let pattern = self.pick(&words.title_patterns);
        let topic = if words.code == "en" {
            title_case(topic)
        } else if pattern.starts_with("{T}") {
            capitalise_first(topic)
        } else {
            topic.to_string()
        };
        let number = (2 + self.rng.u32(..11)).to_string();
        pattern.replace("{T}", &topic).replace("{N}", &number)
    }

    /// `sentences` sentences about `topic`, mixed with general ones.
    fn paragraph(&mut self, words: &Words, topic: &str, sentences: usize) -> String {
        let mut out = String::with_capacity(sentences * 90);
        for n in 0..sentences {
            if n > 0 {
                out.push(' ');
            }
            if n > 0 && self.chance(0.4) {
                out.push_str(self.pick(&words.fillers));
            } else {
                // Name the topic first, then mostly refer back to it.
                let subject = if n > 0 && self.chance(0.6) {
                    self.pick(&words.references)
                } else {
                    topic
                };
                out.push_str(self.pick(&words.subjects));
                out.push(' ');
                out.push_str(&self.pick(&words.predicates).replace("{t}", subject));
                out.push_str(self.pick(&words.tails));
            }
        }
        out
    }

    fn resources(&mut self, slug: &str, code: &str, topic: &str) -> Vec<Resource> {
        let code = code.to_lowercase();
        let mut resources = vec![Resource {
            id: None,
            resource: format!("https://demo.example/media/{slug}/submissions/{code}/slides.pdf"),
            description: "Slides".to_string(),
            is_public: true,
        }];
        if self.chance(0.4) {
            resources.push(Resource {
                id: None,
                resource: format!("https://git.example.org/demo/{}", url_slug(topic)),
                description: "Source code".to_string(),
                is_public: true,
            });
        }
        // Some speakers leave notes for the organisers: a private resource.
        // Chosen by the code, not the generator, so every other record of
        // the demo stays as it was.
        if code.bytes().map(u32::from).sum::<u32>() % 5 == 0 {
            resources.push(Resource {
                id: None,
                resource: format!("https://demo.example/media/{slug}/submissions/{code}/notes.txt"),
                description: "Notes for the organisers".to_string(),
                is_public: false,
            });
        }
        resources
    }
}
