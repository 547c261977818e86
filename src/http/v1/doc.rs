//! What v1 answers on each path, for its OpenAPI document
//! (`GET /api/openapi.json` with `Pretalx-Version: v1`, or `?version=v1`):
//! the parameters the v1 handlers read and the `views_v1` type each
//! serialises. Each `Endpoint` names its entry here, so a path and its
//! documentation are declared together (`http::endpoints`).

use crate::domain::views_v1 as views;
use crate::http::endpoint::{Doc, Shape};
use crate::http::openapi::{merged, view};

type Param = (&'static str, &'static str);

const LANG: Param = (
    "lang",
    "One of the event's locales: every translated text (nested ones too) as a plain string in it; any other value is ignored",
);
const FIELDS: Param = (
    "fields",
    "Comma-separated top-level fields to keep (repeatable); unknown names are ignored",
);
const OMIT: Param = (
    "omit",
    "Comma-separated top-level fields to leave out (repeatable)",
);
const fn q(fields: &'static str) -> Param {
    ("q", fields)
}
const fn o(fields: &'static str) -> Param {
    ("o", fields)
}
const fn expand(names: &'static str) -> Param {
    ("expand", names)
}

const SUBMISSION_EXPAND: Param = expand(
    "Comma-separated relations to show as objects instead of ids (repeatable; dotted for nested ones, at most three levels; unknown names are ignored): speakers, speakers.answers, speakers.submissions, track, submission_type, tags, slots, slots.room, answers, answers.question, answers.options, resources",
);
const SPEAKER_EXPAND: Param = expand(
    "Relations to show as objects (comma-separated, repeatable, dotted for nested ones): submissions, submissions.track, submissions.submission_type, submissions.speakers, answers, answers.question",
);
const SLOT_EXPAND: Param = expand(
    "Relations to show as objects (comma-separated, repeatable, dotted for nested ones): room, schedule, submission, submission.speakers, submission.track, submission.submission_type, submission.tags, submission.resources",
);
const ANSWER_EXPAND: Param = expand(
    "Relations to show as objects (comma-separated, repeatable, dotted for nested ones): question, options",
);
const REVIEW_EXPAND: Param = expand(
    "Relations to show as objects (comma-separated, repeatable, dotted for nested ones): user, submission, submission.speakers, submission.track, submission.submission_type, submission.tags, scores.category",
);

pub const EVENTS: Doc = Doc {
    summary: "Events visible to the caller, as a bare array (not paged)",
    params: &[
        (
            "is_public",
            "`true` or `false` (also `1`, `0`); any other value is no filter",
        ),
        q("Text in the name"),
        o("date_from, date_to, name or slug; `-` first for descending; others are ignored"),
    ],
    shape: Shape::Array,
    body: view::<views::EventView<'static>>,
};

pub const EVENT: Doc = Doc {
    summary: "One event, by its slug exactly as written (letter case counts)",
    params: &[LANG],
    shape: Shape::One,
    body: |s| {
        merged::<views::EventView<'static>, views::EventDetail<'static>>(s, "v1.EventWithDetail")
    },
};

pub const SUBMISSIONS: Doc = Doc {
    summary: "Submissions the caller may see, by code",
    params: &[
        ("state", "Only these states (repeatable)"),
        ("pending_state", "Only these pending states (repeatable)"),
        ("content_locale", "Only this content language"),
        ("submission_type", "Only this submission type (one of the event's ids)"),
        ("track", "Only this track (one of the event's ids)"),
        ("is_featured", "`true` or `false` (also `1`, `0`); any other value is no filter"),
        q("Text in the title or a shown speaker's name"),
        o("code, title, state, created or is_featured; `-` first for descending; others are ignored"),
        SUBMISSION_EXPAND,
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::SubmissionView<'static>>,
};

pub const SUBMISSION: Doc = Doc {
    summary: "One submission, by code (any letter case)",
    params: &[SUBMISSION_EXPAND, FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::SubmissionView<'static>>,
};

pub const TALK: Doc = Doc {
    summary: "A talk is a submission in v1: `301` to `/submissions/{code}/`, keeping the query",
    params: &[],
    shape: Shape::MovedPermanently,
    body: |_| serde_json::Value::Null,
};

pub const SPEAKERS: Doc = Doc {
    summary: "Speakers the caller may see, by code",
    params: &[
        q("Text in the name (organisers: also the e-mail)"),
        SPEAKER_EXPAND,
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::SpeakerView<'static>>,
};

pub const SPEAKER: Doc = Doc {
    summary: "One speaker, by code (any letter case)",
    params: &[SPEAKER_EXPAND, FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::SpeakerView<'static>>,
};

pub const QUESTIONS: Doc = Doc {
    summary: "Questions the caller may see, by position",
    params: &[
        ("target", "submission, speaker or reviewer"),
        ("variant", "The question variant"),
        ("is_public", "`true` or `false` (also `1`, `0`); any other value is no filter"),
        (
            "is_visible_to_reviewers",
            "`true` or `false` (also `1`, `0`); any other value is no filter",
        ),
        q("Text in the question"),
        o("id, question, position, is_public or is_visible_to_reviewers; `-` first for descending; others are ignored"),
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::QuestionView<'static>>,
};

pub const QUESTION: Doc = Doc {
    summary: "One question",
    params: &[FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::QuestionView<'static>>,
};

pub const ANSWERS: Doc = Doc {
    summary: "Answers (organisers only), by id",
    params: &[
        ("question", "Question id"),
        ("review", "Review id"),
        ("submission", "Submission code (any letter case)"),
        (
            "speaker",
            "Speaker code (any letter case); pretalx 2026's name of the filter",
        ),
        (
            "person",
            "Speaker code (any letter case); pretalx 2025's name, still taken",
        ),
        q("Text in the answer"),
        o("id or answer; `-` first for descending; others are ignored"),
        ANSWER_EXPAND,
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::AnswerView<'static>>,
};

pub const ANSWER: Doc = Doc {
    summary: "One answer (organisers only)",
    params: &[ANSWER_EXPAND, FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::AnswerView<'static>>,
};

pub const REVIEWS: Doc = Doc {
    summary: "Reviews (organisers; reviewers whose phase shows every review), by id",
    params: &[
        ("submission", "Submission code (any letter case)"),
        ("user", "Reviewer code (any letter case)"),
        ("speaker", "Speaker code (any letter case)"),
        (
            "submission__state",
            "The submission's state (repeatable; pretalx 2026)",
        ),
        (
            "submission__pending_state",
            "The submission's pending state (repeatable; pretalx 2026)",
        ),
        (
            "submission__track",
            "The submission's track id (pretalx 2026)",
        ),
        (
            "submission__submission_type",
            "The submission's type id (pretalx 2026)",
        ),
        (
            "submission__content_locale",
            "The submission's content locale (pretalx 2026)",
        ),
        q("Text in the submission's title or the reviewer's name"),
        o("id or created; `-` first for descending; others are ignored"),
        REVIEW_EXPAND,
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::ReviewView<'static>>,
};

pub const REVIEW: Doc = Doc {
    summary: "One review",
    params: &[REVIEW_EXPAND, FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::ReviewView<'static>>,
};

pub const ROOMS: Doc = Doc {
    summary: "Rooms by position (organisers; everyone while the schedule is public); `limit`/`offset` only, 100 by default",
    params: &[
        q("Text in the name"),
        o("id, name, position or capacity; `-` first for descending; others are ignored"),
        LANG,
    ],
    shape: Shape::Offset,
    body: view::<views::RoomView<'static>>,
};

pub const ROOM: Doc = Doc {
    summary: "One room",
    params: &[LANG],
    shape: Shape::One,
    body: view::<views::RoomView<'static>>,
};

pub const TAGS: Doc = Doc {
    summary: "Tags (organisers and reviewers), by id",
    params: &[
        q("Text in the tag"),
        o("id or tag; `-` first for descending; others are ignored"),
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::TagView<'static>>,
};

pub const TAG: Doc = Doc {
    summary: "One tag, by its id",
    params: &[LANG],
    shape: Shape::One,
    body: view::<views::TagView<'static>>,
};

pub const SLOTS: Doc = Doc {
    summary: "The released schedule's slots (talks and breaks) the caller sees, by start and room",
    params: &[
        ("submission", "Submission code (any letter case)"),
        ("schedule", "A schedule's id (any schedule filter lists every release the caller sees; none: the current release)"),
        ("room", "Room id (one of the event's)"),
        ("speaker", "Speaker code (any letter case)"),
        ("schedule_version", "A schedule's version (any letter case)"),
        ("is_visible", "`true` or `false` (also `1`, `0`); any other value is no filter"),
        q("Text in the submission's title or a shown speaker's name"),
        o("start, end, room__name or submission__title; `-` first for descending; others are ignored"),
        SLOT_EXPAND,
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::SlotView<'static>>,
};

pub const SLOT: Doc = Doc {
    summary: "One slot",
    params: &[SLOT_EXPAND, FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::SlotView<'static>>,
};

const SCHEDULE_EXPAND: Param = expand(
    "Relations to show as objects (comma-separated, repeatable, dotted for nested ones): slots, slots.room, slots.submission",
);

pub const SCHEDULES: Doc = Doc {
    summary: "Schedules: organisers every release and the WIP schedule; everyone else the current release while the schedule is public",
    params: &[
        q("Text in the version"),
        o("id, version or published; `-` first for descending; others are ignored"),
        SCHEDULE_EXPAND,
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::ScheduleView<'static>>,
};

pub const SCHEDULE: Doc = Doc {
    summary: "A schedule by id, `latest` or (organisers) `wip`, with its slots' ids",
    params: &[SCHEDULE_EXPAND, FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::ScheduleView<'static>>,
};

const TEAM_EXPAND: Param =
    expand("Relations to show as objects (comma-separated, repeatable): members, limit_tracks");

pub const TEAMS: Doc = Doc {
    summary: "An organiser's teams (administrators and members of a team that may change teams)",
    params: &[
        q("Text in the name"),
        o("id or name; `-` first for descending; others are ignored"),
        TEAM_EXPAND,
        FIELDS,
        OMIT,
    ],
    shape: Shape::Page,
    body: view::<views::TeamView<'static>>,
};

pub const TEAM: Doc = Doc {
    summary: "One of an organiser's teams",
    params: &[TEAM_EXPAND, FIELDS, OMIT],
    shape: Shape::One,
    body: view::<views::TeamView<'static>>,
};

pub const TRACKS: Doc = Doc {
    summary: "Tracks (organisers; everyone while the schedule is public)",
    params: &[
        q("Text in the name"),
        o("id or name; `-` first for descending; others are ignored"),
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::TrackView<'static>>,
};

pub const TRACK: Doc = Doc {
    summary: "One track",
    params: &[LANG],
    shape: Shape::One,
    body: view::<views::TrackView<'static>>,
};

pub const SUBMISSION_TYPES: Doc = Doc {
    summary: "Submission types (organisers; everyone while the schedule is public)",
    params: &[
        q("Text in the name"),
        o("id, name or default_duration; `-` first for descending; others are ignored"),
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::SubmissionTypeView<'static>>,
};

pub const SUBMISSION_TYPE: Doc = Doc {
    summary: "One submission type",
    params: &[LANG],
    shape: Shape::One,
    body: view::<views::SubmissionTypeView<'static>>,
};

pub const QUESTION_OPTIONS: Doc = Doc {
    summary: "The options of the choice questions the caller sees, by id",
    params: &[
        (
            "question",
            "Only this question's options (an active question of the event, not for reviewers)",
        ),
        q("Text in the option"),
        o("id or answer; `-` first for descending; others are ignored"),
        FIELDS,
        OMIT,
        LANG,
    ],
    shape: Shape::Page,
    body: view::<views::OptionView<'static>>,
};

pub const QUESTION_OPTION: Doc = Doc {
    summary: "One question option",
    params: &[FIELDS, OMIT, LANG],
    shape: Shape::One,
    body: view::<views::OptionView<'static>>,
};
