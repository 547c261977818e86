//! v1 answers and reviews (with their score categories and reviewers).

use super::*;

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Answer)]
pub struct AnswerView<'a> {
    pub id: i64,
    #[schema(schema_with = one_ref)]
    pub question: Ref<i64, Expanded<QuestionView<'a>>>,
    pub answer: &'a str,
    pub answer_file: Option<&'a str>,
    pub submission: Option<&'a str>,
    pub review: Option<i64>,
    pub person: Option<&'a str>,
    #[schema(schema_with = many_refs)]
    pub options: Refs<i64, Expanded<OptionView<'a>>>,
}

/// A review score category, as `expand=scores.category` shows it.
#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::ReviewScoreCategory)]
pub struct ScoreCategoryView<'a> {
    pub id: i64,
    pub name: Text<'a>,
    /// A decimal string (`"1.0"`).
    pub weight: &'a str,
    pub required: bool,
    pub active: bool,
    pub limit_tracks: Vec<i64>,
    pub is_independent: bool,
}

/// A review's author, as `expand=user` shows it.
#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Reviewer)]
pub struct ReviewerView<'a> {
    pub code: &'a str,
    pub name: &'a str,
    /// Organisers only: reviewers get no e-mail addresses (section 13).
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'a str>,
}

/// One score of a review, in one of the event's score categories.
#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::ReviewScore)]
pub struct ScoreView<'a> {
    pub id: i64,
    #[schema(schema_with = one_ref)]
    pub category: Ref<i64, ScoreCategoryView<'a>>,
    /// A decimal string (`"1.00"`).
    pub value: &'a str,
    pub label: Option<&'a str>,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Review)]
pub struct ReviewView<'a> {
    pub id: i64,
    /// The code; expanded, the submission (without its slots).
    #[schema(schema_with = one_ref)]
    pub submission: Ref<&'a str, Box<SubmissionView<'a>>>,
    /// null when empty, as pretalx's nullable field.
    pub text: Option<&'a str>,
    /// A decimal string (`"2.00"`), as pretalx writes it.
    pub score: Option<String>,
    pub scores: Vec<ScoreView<'a>>,
    /// The answers the caller may see, always nested.
    pub answers: Vec<AnswerView<'a>>,
    /// The reviewer's code, where the caller may know it.
    #[schema(schema_with = nullable_ref)]
    pub user: Option<Ref<&'a str, ReviewerView<'a>>>,
}

impl AnswerView<'_> {
    /// Its texts, requested from memory before the page is serialised.
    fn prefetch_texts(&self) {
        std::iter::once(self.answer)
            .chain(self.answer_file)
            .chain(self.submission)
            .chain(self.person)
            .for_each(crate::memory::prefetch);
    }
}

/// A submission's or speaker's answers: their ids, or with `expand` the
/// answers (`AnswerView`s, written by `AnswerList`).
#[derive(DeriveSerialize)]
#[serde(untagged)]
pub enum AnswerRefs<'a> {
    Ids(Vec<i64>),
    Objects(AnswerList<'a>),
}

/// Expanded answers, written as JSON when the list is serialised, each as
/// serialising its `AnswerView` writes it (`answers_nested_read_as_listed`
/// holds them equal), without building the views: a page with pytanis's
/// expansion shows about 280 answers, a quarter of its instructions, and
/// building, collecting and dropping their views was a fifth of that
/// (callgrind, docs/bench-log.md).
pub struct AnswerList<'a> {
    renderer: V1Renderer<'a>,
    positions: SmallVec<[crate::domain::catalog::AnswerIx; 8]>,
}

impl Serialize for AnswerList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let question = self.renderer.child("question");
        let options = self.renderer.child("options");
        serialize_array_text(serializer, &self.positions, |text, &position| {
            self.renderer
                .write_answer(text, position, question.as_ref(), options.as_ref());
        })
    }
}

/// A JSON array of `items`, each written by `write`, serialised as the
/// JSON text it makes (`AnswerList`, `SpeakerList`): straight into the
/// body (`json::Direct`).
pub(super) fn serialize_array_text<S: Serializer, T>(
    serializer: S,
    items: &[T],
    write: impl Fn(&mut Vec<u8>, &T),
) -> Result<S::Ok, S::Error> {
    crate::json::Direct(|out: &mut Vec<u8>| write_array(out, items, &write)).serialize(serializer)
}

/// Appends a JSON array of `items`, each written by `write`.
pub(super) fn write_array<T>(
    out: &mut Vec<u8>,
    items: impl IntoIterator<Item = T>,
    mut write: impl FnMut(&mut Vec<u8>, T),
) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(out, item);
    }
    out.push(b']');
}

impl<'a> V1Renderer<'a> {
    /// The answers at `positions`, expanded as this renderer's expansion says.
    pub(super) fn answer_list(
        &self,
        positions: impl Iterator<Item = crate::domain::catalog::AnswerIx>,
    ) -> AnswerList<'a> {
        AnswerList {
            renderer: *self,
            positions: positions.collect(),
        }
    }

    /// `answer(position)` as JSON, appended to `out`; `question` and
    /// `options` are this renderer's children of those names.
    pub(super) fn write_answer(
        &self,
        out: &mut Vec<u8>,
        position: crate::domain::catalog::AnswerIx,
        question_child: Option<&V1Renderer<'a>>,
        options_child: Option<&V1Renderer<'a>>,
    ) {
        let data: &'a crate::domain::catalog::EventData = self.access.data;
        let answer = &data.event.answers[position];
        // By the catalog's position, read already (`Access::sees_answer_at`):
        // a lookup by id hashed it, 2 % of an expanded page (callgrind).
        let question = data.answer_question[position].map(|q| &data.event.questions[q]);
        let mut object = crate::json::ObjectText::open(out);
        object.integer("id", answer.id);
        match (question_child, question) {
            (Some(child), Some(q)) => {
                object.raw(
                    "question",
                    &child.memoized_json(Memoized::Question, q.id, || child.question(q)),
                );
            }
            _ => object.integer("question", answer.question),
        }
        object.string("answer", &answer.answer);
        object.optional_string("answer_file", answer.answer_file.as_deref());
        object.optional_string("submission", answer.submission.as_deref());
        object.optional_integer("review", answer.review);
        object.optional_string("person", answer.person.as_deref());
        object.array("options", |elements| match (options_child, question) {
            (Some(child), Some(q)) => {
                for i in answer
                    .options
                    .iter()
                    .filter_map(|id| q.options.iter().position(|o| o.id == *id))
                {
                    elements.raw(&child.memoized_json(Memoized::Option, q.options[i].id, || {
                        child.option(q, i, false)
                    }));
                }
            }
            _ => answer.options.iter().for_each(|&id| elements.integer(id)),
        });
        object.close();
    }
}

impl<'a> V1Renderer<'a> {
    pub fn answer(&self, position: crate::domain::catalog::AnswerIx) -> AnswerView<'a> {
        let data: &'a crate::domain::catalog::EventData = self.access.data;
        let answer = &data.event.answers[position];
        let question = data.question(answer.question);
        let view = AnswerView {
            id: answer.id,
            question: match (self.child("question"), question) {
                (Some(child), Some(q)) => {
                    Ref::Object(child.memoized(Memoized::Question, q.id, || child.question(q)))
                }
                _ => Ref::Id(answer.question),
            },
            answer: &answer.answer,
            answer_file: answer.answer_file.as_deref(),
            submission: answer.submission.as_deref(),
            review: answer.review,
            person: answer.person.as_deref(),
            options: match (self.child("options"), question) {
                (Some(child), Some(q)) => Refs::Objects(
                    answer
                        .options
                        .iter()
                        .filter_map(|id| q.options.iter().position(|o| o.id == *id))
                        .map(|i| {
                            child.memoized(Memoized::Option, q.options[i].id, || {
                                child.option(q, i, false)
                            })
                        })
                        .collect(),
                ),
                _ => Refs::Ids(answer.options.to_vec()),
            },
        };
        view.prefetch_texts();
        view
    }

    pub fn review(&self, position: crate::domain::catalog::ReviewIx) -> ReviewView<'a> {
        let access = self.access;
        let data: &'a crate::domain::catalog::EventData = access.data;
        let review = &data.event.reviews[position];
        let submission = match (self.child("submission"), data.review_submission[position]) {
            // Expanded only where the caller sees the submission itself.
            (Some(child), Some(i)) if access.sees_submission_at(i) => {
                Ref::Object(Box::new(child.submission_in(i, self.users, false)))
            }
            _ => Ref::Id(review.submission.as_str()),
        };
        let user = access.shows_reviewer_name(review).then(|| {
            match (self.child("user"), self.users.get(review.user.as_str())) {
                (Some(_), Some(user)) => Ref::Object(ReviewerView {
                    code: &user.code,
                    name: &user.name,
                    email: (access.role == Role::Organiser).then_some(user.email.as_str()),
                }),
                _ => Ref::Id(review.user.as_str()),
            }
        });
        let category = self
            .child("scores")
            .and_then(|scores| scores.child("category"));
        ReviewView {
            id: review.id,
            submission,
            text: nullable(&review.text),
            score: review.score.map(|s| format!("{s:.2}")),
            scores: review
                .scores
                .iter()
                .map(|score| ScoreView {
                    id: score.id,
                    category: match (
                        &category,
                        data.event
                            .score_categories
                            .iter()
                            .find(|c| c.id == score.category),
                    ) {
                        (Some(child), Some(c)) => Ref::Object(child.score_category(c)),
                        _ => Ref::Id(score.category),
                    },
                    value: score.value.as_str(),
                    label: score.label.as_deref(),
                })
                .collect(),
            answers: data
                .answers_of_review
                .of(position)
                .iter()
                .filter(|&&a| access.sees_answer_at(a))
                .map(|&a| self.answer(a))
                .collect(),
            user,
        }
    }

    pub fn score_category(&self, category: &'a ScoreCategory) -> ScoreCategoryView<'a> {
        let mut limit_tracks = category.limit_tracks.clone();
        limit_tracks.sort_unstable();
        ScoreCategoryView {
            id: category.id,
            name: self.text(&category.name),
            weight: category.weight.as_str(),
            required: category.required,
            active: category.active,
            limit_tracks,
            is_independent: category.is_independent,
        }
    }
}
