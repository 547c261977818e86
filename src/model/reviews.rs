//! Reviews: the review phase, score categories, reviews and their scores.

use serde::{Deserialize, Serialize};

use super::*;

closed_set! {
    /// When a reviewer may read other reviewers' reviews.
    OtherReviews { Always = "always", AfterReview = "after_review", Never = "never" }
}

closed_set! {
    /// Which proposals reviewers see during the phase.
    ProposalVisibility { All = "all", Assigned = "assigned" }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewPhase {
    pub name: String,
    pub can_see_speaker_names: bool,
    pub can_see_reviewer_names: bool,
    pub can_see_other_reviews: OtherReviews,
    pub proposal_visibility: ProposalVisibility,
}

impl Default for ReviewPhase {
    /// dataset.md's defaults, which also apply when an event has no active phase.
    fn default() -> Self {
        ReviewPhase {
            name: "Review".into(),
            can_see_speaker_names: true,
            can_see_reviewer_names: true,
            can_see_other_reviews: OtherReviews::AfterReview,
            proposal_visibility: ProposalVisibility::All,
        }
    }
}

/// Something reviewers score (pretalx's `ReviewScoreCategory`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreCategory {
    pub id: i64,
    pub name: I18n,
    pub weight: Decimal,
    pub required: bool,
    pub active: bool,
    /// Track ids; empty means every track.
    pub limit_tracks: Vec<i64>,
    /// Left out of the total score.
    pub is_independent: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Review {
    pub id: i64,
    #[serde(deserialize_with = "shared::one")]
    pub submission: ArcStr,
    /// User code of the reviewer.
    #[serde(deserialize_with = "shared::one")]
    pub user: ArcStr,
    #[serde(deserialize_with = "shared::one")]
    pub text: ArcStr,
    pub score: Option<f64>,
    #[serde(with = "timestamp")]
    pub created: Timestamp,
    #[serde(with = "timestamp")]
    pub updated: Timestamp,
    /// A score per category, at most one per category. A boxed slice: a
    /// word smaller than a `Vec`, and most reviews have none or a few.
    #[serde(
        default,
        skip_serializing_if = "<[ReviewScore]>::is_empty",
        deserialize_with = "exact_list::boxed"
    )]
    pub scores: Box<[ReviewScore]>,
}

/// A review's score in one category: pretalx's `ReviewScore`, one of the
/// values a category offers, so the same `id` always has the same
/// category, value and label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewScore {
    pub id: i64,
    /// A score category id of the event.
    pub category: i64,
    pub value: Decimal,
    pub label: Option<String>,
}
