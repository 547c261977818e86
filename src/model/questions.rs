//! Questions, their options, and answers.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::*;

closed_set! {
    /// What kind of answer a question takes.
    QuestionVariant {
        Number = "number",
        String = "string",
        Text = "text",
        Url = "url",
        Date = "date",
        Datetime = "datetime",
        Boolean = "boolean",
        File = "file",
        Choices = "choices",
        MultipleChoice = "multiple_choice",
    }
}

closed_set! {
    /// Whom a question asks about.
    QuestionTarget { Submission = "submission", Speaker = "speaker", Reviewer = "reviewer" }
}

closed_set! {
    /// Whether a question must be answered.
    QuestionRequired { Optional = "optional", Required = "required", AfterDeadline = "after_deadline" }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionOption {
    pub id: i64,
    pub answer: I18n,
    /// None: its index in the question's list (see `position_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// pretalx 2026.1's short identifier, unique in the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
}

impl QuestionOption {
    /// The option's position, given that it is the `index`-th of its list.
    pub fn position_at(&self, index: usize) -> i64 {
        self.position.unwrap_or(index as i64)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: i64,
    pub variant: QuestionVariant,
    pub target: QuestionTarget,
    pub question: I18n,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub help_text: I18n,
    pub question_required: QuestionRequired,
    #[serde(with = "timestamp::option")]
    pub deadline: Option<Timestamp>,
    #[serde(with = "timestamp::option")]
    pub freeze_after: Option<Timestamp>,
    pub options: Vec<QuestionOption>,
    pub default_answer: Option<String>,
    pub contains_personal_data: bool,
    pub min_length: Option<i64>,
    pub max_length: Option<i64>,
    /// Limits of a number, date or datetime answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_number: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_number: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_date: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_date: Option<NaiveDate>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub min_datetime: Option<Timestamp>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub max_datetime: Option<Timestamp>,
    /// An absolute URL of the question's icon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// pretalx 2026.1's short identifier, unique in the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    pub is_public: bool,
    pub is_visible_to_reviewers: bool,
    pub active: bool,
    pub position: i64,
    pub tracks: Vec<i64>,
    pub submission_types: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    pub id: i64,
    pub question: i64,
    #[serde(deserialize_with = "shared::one")]
    pub answer: ArcStr,
    pub answer_file: Option<ArcStr>,
    #[serde(default, deserialize_with = "shared::optional")]
    pub submission: Option<ArcStr>,
    #[serde(default, deserialize_with = "shared::optional")]
    pub person: Option<ArcStr>,
    pub review: Option<i64>,
    /// Option ids of the question. A boxed slice: most answers have none or
    /// one, and a slice is a word smaller than a `Vec`.
    #[serde(deserialize_with = "exact_list::boxed")]
    pub options: Box<[i64]>,
}
