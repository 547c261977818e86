//! The questions every demo event asks, as templates: each with how its
//! answers are made up and how often.

use chrono::{TimeZone, Utc};

use crate::model::{Question, Timestamp};

/// A deadline or freeze date, far from any realistic "now" so that the
/// computed `required`/`read_only` flags never change while the demo is used.
#[derive(Clone, Copy)]
pub(super) enum When {
    Never,
    LongAgo,
    FarFuture,
}

impl When {
    pub(super) fn timestamp(self) -> Option<Timestamp> {
        match self {
            When::Never => None,
            When::LongAgo => Some(utc(2020, 1, 15, 12)),
            When::FarFuture => Some(utc(2035, 12, 31, 23)),
        }
    }
}

/// Which submissions a question applies to.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Scope {
    All,
    FirstTrack,
    Workshops,
}

/// How to make up an answer.
#[derive(Clone, Copy)]
pub(super) enum Sample {
    LearningOutcomes,
    Choice,
    Choices,
    YesNo,
    VideoUrl,
    Homepage,
    SlidesFile,
    Participants,
    EventDay,
    Arrival,
    Repository,
    ShirtSize,
    Fediverse,
}

pub(super) struct QuestionTemplate {
    pub(super) variant: &'static str,
    pub(super) target: &'static str,
    pub(super) en: &'static str,
    pub(super) de: Option<&'static str>,
    pub(super) help: &'static str,
    pub(super) required: &'static str,
    pub(super) deadline: When,
    pub(super) freeze_after: When,
    pub(super) options: &'static [(&'static str, &'static str)],
    pub(super) default_answer: Option<&'static str>,
    pub(super) personal_data: bool,
    pub(super) min_length: Option<i64>,
    pub(super) max_length: Option<i64>,
    pub(super) public: bool,
    pub(super) visible_to_reviewers: bool,
    pub(super) active: bool,
    pub(super) scope: Scope,
    /// Share of owners that answered.
    pub(super) answer_rate: f64,
    pub(super) sample: Sample,
}

pub(super) const fn question(
    variant: &'static str,
    target: &'static str,
    en: &'static str,
    sample: Sample,
    answer_rate: f64,
) -> QuestionTemplate {
    QuestionTemplate {
        variant,
        target,
        en,
        de: None,
        help: "",
        required: "optional",
        deadline: When::Never,
        freeze_after: When::Never,
        options: &[],
        default_answer: None,
        personal_data: true,
        min_length: None,
        max_length: None,
        public: false,
        visible_to_reviewers: true,
        active: true,
        scope: Scope::All,
        answer_rate,
        sample,
    }
}

/// Together: every variant, every target, every `question_required`, public
/// and internal, one hidden from reviewers, one inactive, one per track and
/// one per submission type.
pub(super) const QUESTIONS: [QuestionTemplate; 17] = [
    QuestionTemplate {
        de: Some("Was lernen die Teilnehmenden?"),
        help: "A few sentences; shown on the public talk page.",
        required: "required",
        personal_data: false,
        min_length: Some(20),
        max_length: Some(2000),
        public: true,
        ..question(
            "text",
            "submission",
            "What will attendees learn?",
            Sample::LearningOutcomes,
            0.8,
        )
    },
    QuestionTemplate {
        de: Some("Für welches Publikum?"),
        required: "required",
        options: &[
            ("Beginner", "Einsteiger"),
            ("Intermediate", "Fortgeschrittene"),
            ("Advanced", "Profis"),
        ],
        personal_data: false,
        public: true,
        ..question(
            "choices",
            "submission",
            "Audience level",
            Sample::Choice,
            0.9,
        )
    },
    QuestionTemplate {
        de: Some("Technische Anforderungen"),
        options: &[
            ("Projector", "Beamer"),
            ("Microphone", "Mikrofon"),
            ("Internet", "Internet"),
            ("Whiteboard", "Whiteboard"),
            ("Power outlets", "Steckdosen"),
        ],
        personal_data: false,
        ..question(
            "multiple_choice",
            "submission",
            "Technical requirements",
            Sample::Choices,
            0.45,
        )
    },
    QuestionTemplate {
        de: Some("Hast du diesen Vortrag schon einmal gehalten?"),
        visible_to_reviewers: false,
        ..question(
            "boolean",
            "submission",
            "Have you given this talk before?",
            Sample::YesNo,
            0.35,
        )
    },
    QuestionTemplate {
        help: "Helps us judge the speaking experience.",
        ..question(
            "url",
            "submission",
            "Link to a video of a previous talk",
            Sample::VideoUrl,
            0.15,
        )
    },
    QuestionTemplate {
        de: Some("Foliensatz (Entwurf, PDF)"),
        help: "Required once the deadline has passed.",
        required: "after_deadline",
        deadline: When::FarFuture,
        freeze_after: When::FarFuture,
        ..question(
            "file",
            "submission",
            "Draft slides (PDF)",
            Sample::SlidesFile,
            0.1,
        )
    },
    QuestionTemplate {
        de: Some("Maximale Anzahl Teilnehmender"),
        required: "required",
        personal_data: false,
        scope: Scope::Workshops,
        ..question(
            "number",
            "submission",
            "Maximum number of participants",
            Sample::Participants,
            0.8,
        )
    },
    QuestionTemplate {
        de: Some("Bevorzugter Tag"),
        personal_data: false,
        ..question(
            "date",
            "submission",
            "Preferred day for your session",
            Sample::EventDay,
            0.2,
        )
    },
    QuestionTemplate {
        help: "Asked only in the track whose sessions need preparation.",
        scope: Scope::FirstTrack,
        max_length: Some(200),
        ..question(
            "string",
            "submission",
            "Which repository should attendees clone beforehand?",
            Sample::Repository,
            0.6,
        )
    },
    QuestionTemplate {
        active: false,
        ..question(
            "string",
            "submission",
            "T-shirt size (old form)",
            Sample::ShirtSize,
            0.08,
        )
    },
    QuestionTemplate {
        de: Some("Fediverse-Adresse"),
        max_length: Some(100),
        public: true,
        ..question(
            "string",
            "speaker",
            "Fediverse handle",
            Sample::Fediverse,
            0.5,
        )
    },
    QuestionTemplate {
        de: Some("Webseite"),
        public: true,
        ..question("url", "speaker", "Homepage", Sample::Homepage, 0.45)
    },
    QuestionTemplate {
        de: Some("Wann kommst du am Veranstaltungsort an?"),
        help: "Closed: the travel planning is done.",
        required: "after_deadline",
        deadline: When::LongAgo,
        freeze_after: When::LongAgo,
        ..question(
            "datetime",
            "speaker",
            "When do you arrive at the venue?",
            Sample::Arrival,
            0.25,
        )
    },
    QuestionTemplate {
        de: Some("T-Shirt-Größe"),
        required: "required",
        options: &[("S", "S"), ("M", "M"), ("L", "L"), ("XL", "XL")],
        default_answer: Some("M"),
        ..question("choices", "speaker", "T-shirt size", Sample::Choice, 0.5)
    },
    QuestionTemplate {
        de: Some("Brauchst du Reisekostenunterstützung?"),
        ..question(
            "boolean",
            "speaker",
            "Do you need travel support?",
            Sample::YesNo,
            0.2,
        )
    },
    QuestionTemplate {
        de: Some("Würdest du diese Session selbst besuchen?"),
        personal_data: false,
        ..question(
            "boolean",
            "reviewer",
            "Would you attend this session yourself?",
            Sample::YesNo,
            0.5,
        )
    },
    QuestionTemplate {
        options: &[
            ("Talk", "Vortrag"),
            ("Workshop", "Workshop"),
            ("Lightning talk", "Kurzvortrag"),
            ("Panel", "Podium"),
        ],
        personal_data: false,
        ..question(
            "choices",
            "reviewer",
            "Best format for this proposal",
            Sample::Choice,
            0.3,
        )
    },
];

/// The questions with `target`, with their index into [`QUESTIONS`].
pub(super) fn questions_for<'q>(
    questions: &'q [Question],
    target: &str,
) -> Vec<(usize, &'q Question)> {
    questions
        .iter()
        .enumerate()
        .filter(|(_, q)| q.target.as_str() == target)
        .collect()
}

fn utc(year: i32, month: u32, day: u32, hour: u32) -> Timestamp {
    Utc.with_ymd_and_hms(year, month, day, hour, 0, 0)
        .single()
        .expect("a fixed, valid UTC time")
}
