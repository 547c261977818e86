//! Answers to the event's questions, on submissions, speakers and reviews.

use chrono::Duration;

use super::super::helpers::english;
use super::super::plan::EventPlan;
use super::super::questions::{questions_for, QuestionTemplate, Sample, Scope, QUESTIONS};
use super::super::words::LEARNING_OUTCOMES;
use super::{next_id, Generator};
use crate::model::{Answer, Question, Review, SpeakerProfile, Submission};

impl Generator {
    pub(super) fn answers(
        &mut self,
        plan: &EventPlan,
        questions: &[Question],
        submissions: &[Submission],
        speakers: &[SpeakerProfile],
        reviews: &[Review],
    ) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(submissions.len() * 5);
        let on_submissions = questions_for(questions, "submission");
        let on_speakers = questions_for(questions, "speaker");
        let on_reviews = questions_for(questions, "reviewer");

        for submission in submissions {
            for &(index, question) in &on_submissions {
                let template = &QUESTIONS[index];
                let applies = match template.scope {
                    Scope::All => true,
                    Scope::FirstTrack => {
                        submission.track.is_some()
                            && question.tracks.first() == submission.track.as_ref()
                    }
                    Scope::Workshops => question
                        .submission_types
                        .contains(&submission.submission_type),
                };
                if applies && self.chance(template.answer_rate) {
                    let owner = Owner::Submission(&submission.code);
                    answers.push(self.answer(plan, template, question, owner));
                }
            }
        }
        for profile in speakers {
            for &(index, question) in &on_speakers {
                let template = &QUESTIONS[index];
                if self.chance(template.answer_rate) {
                    answers.push(self.answer(
                        plan,
                        template,
                        question,
                        Owner::Person(&profile.user),
                    ));
                }
            }
        }
        for review in reviews {
            for &(index, question) in &on_reviews {
                let template = &QUESTIONS[index];
                if self.chance(template.answer_rate) {
                    answers.push(self.answer(plan, template, question, Owner::Review(review.id)));
                }
            }
        }
        answers
    }

    fn answer(
        &mut self,
        plan: &EventPlan,
        template: &QuestionTemplate,
        question: &Question,
        owner: Owner,
    ) -> Answer {
        let mut options = Vec::new();
        let mut answer_file = None;
        let text = match template.sample {
            Sample::LearningOutcomes => {
                let first = self.pick(&LEARNING_OUTCOMES);
                let second = self.pick(&LEARNING_OUTCOMES);
                format!("Attendees will learn {first}. They will also see {second}.")
            }
            Sample::Choice => {
                let option = &question.options[self.rng.usize(..question.options.len())];
                options.push(option.id);
                english(&option.answer).unwrap_or_default().to_string()
            }
            Sample::Choices => {
                let count = 1 + self.rng.usize(..3);
                let mut chosen =
                    self.sample(&(0..question.options.len()).collect::<Vec<_>>(), count);
                chosen.sort_unstable();
                options = chosen.iter().map(|&o| question.options[o].id).collect();
                chosen
                    .iter()
                    .filter_map(|&o| english(&question.options[o].answer))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            Sample::YesNo => (if self.rng.bool() { "True" } else { "False" }).to_string(),
            Sample::VideoUrl => {
                format!("https://video.example.org/w/{}", self.code().to_lowercase())
            }
            Sample::Homepage => format!("https://{}.example.net/", owner.label().to_lowercase()),
            Sample::SlidesFile => {
                answer_file = Some(format!(
                    "https://demo.example/media/{}/questions/{}/slides-draft.pdf",
                    plan.slug,
                    owner.label().to_lowercase()
                ));
                // pretalx stores file answers as `file://` plus the file name.
                "file://slides-draft.pdf".to_string()
            }
            Sample::Participants => (8 + self.rng.u32(..33)).to_string(),
            Sample::EventDay => self.pick(&plan.days).to_string(),
            Sample::Arrival => {
                let day = plan.first_day() - Duration::days(self.rng.i64(0..2));
                let at = plan.at(
                    day,
                    (14 + self.rng.i64(0..8)) * 60 + 15 * self.rng.i64(0..4),
                );
                crate::model::time::format_in(&at, &plan.tz)
            }
            Sample::Repository => format!(
                "https://git.example.org/workshops/{}",
                owner.label().to_lowercase()
            ),
            Sample::ShirtSize => self.pick(&["S", "M", "L", "XL", "XXL"]).to_string(),
            Sample::Fediverse => {
                let instance = self.pick(&["social.example", "chaos.example", "fosstodon.example"]);
                format!("@{}@{instance}", owner.label().to_lowercase())
            }
        };
        let (submission, person, review) = match owner {
            Owner::Submission(code) => (Some(code.into()), None, None),
            Owner::Person(code) => (None, Some(code.into()), None),
            Owner::Review(id) => (None, None, Some(id)),
        };
        Answer {
            id: next_id(&mut self.ids.answer),
            question: question.id,
            answer: text.into(),
            answer_file: answer_file.map(Into::into),
            submission,
            person,
            review,
            options: options.into(),
        }
    }
}

/// What an answer belongs to.
#[derive(Clone, Copy)]
enum Owner<'a> {
    Submission(&'a str),
    Person(&'a str),
    Review(i64),
}

impl Owner<'_> {
    /// A stable word for URLs and handles.
    fn label(&self) -> String {
        match self {
            Owner::Submission(code) | Owner::Person(code) => code.to_string(),
            Owner::Review(id) => format!("review{id}"),
        }
    }
}
