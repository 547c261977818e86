//! The mapping between the model and table rows, written once for every
//! database. A backend only executes what this module describes: insert
//! these rows into that table, select those columns of one event's rows.

use std::collections::HashMap;

use chrono::{NaiveDate, TimeZone, Utc};

use super::StoreError;
use crate::model::*;

/// A column value, independent of the database.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

/// How a column is decoded (every column may be NULL in the decoder; the
/// schema decides which really can).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Int,
    Real,
    Text,
}

pub struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
    /// Deterministic load order: dataset order where it matters.
    pub order_by: &'static str,
}

impl Table {
    pub fn column_list(&self) -> String {
        self.columns
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

use Kind::{Int, Real, Text};

pub const USERS: Table = Table {
    name: "users",
    columns: &[
        ("code", Text),
        ("name", Text),
        ("email", Text),
        ("avatar", Text),
        ("locale", Text),
        ("timezone", Text),
        ("is_administrator", Int),
    ],
    order_by: "code",
};

pub const USER_TOKENS: Table = Table {
    name: "user_tokens",
    columns: &[("token_hash", Text), ("user_code", Text), ("position", Int)],
    order_by: "user_code, position",
};

/// The event row itself; its internal `id` and `generation` are set by the backend.
pub const EVENTS: Table = Table {
    name: "events",
    columns: &[
        ("slug", Text),
        ("name", Text),
        ("is_public", Int),
        ("date_from", Text),
        ("date_to", Text),
        ("timezone", Text),
        ("locale", Text),
        ("show_schedule", Int),
        ("schedule_version", Text),
        ("schedule_published", Int),
        ("phase_name", Text),
        ("phase_can_see_speaker_names", Int),
        ("phase_can_see_reviewer_names", Int),
        ("phase_can_see_other_reviews", Text),
        ("phase_proposal_visibility", Text),
    ],
    order_by: "id",
};

macro_rules! event_table {
    ($ident:ident, $name:literal, [$(($col:literal, $kind:ident)),* $(,)?], $order:literal) => {
        pub const $ident: Table = Table {
            name: $name,
            columns: &[$(($col, $kind)),*],
            order_by: $order,
        };
    };
}

// Per-event tables; every one also has the leading `event_id` column.
event_table!(
    TEAMS,
    "teams",
    [
        ("position", Int),
        ("name", Text),
        ("can_change_submissions", Int),
        ("is_reviewer", Int),
        ("force_hide_speaker_names", Int)
    ],
    "position"
);
event_table!(
    TEAM_MEMBERS,
    "team_members",
    [
        ("team_position", Int),
        ("position", Int),
        ("user_code", Text)
    ],
    "team_position, position"
);
event_table!(
    TEAM_TRACKS,
    "team_tracks",
    [("team_position", Int), ("position", Int), ("track_id", Int)],
    "team_position, position"
);
event_table!(
    SUBMISSION_TYPES,
    "submission_types",
    [
        ("id", Int),
        ("position", Int),
        ("name", Text),
        ("default_duration", Int)
    ],
    "position"
);
event_table!(
    TRACKS,
    "tracks",
    [
        ("id", Int),
        ("position", Int),
        ("name", Text),
        ("color", Text)
    ],
    "position"
);
event_table!(
    ROOMS,
    "rooms",
    [
        ("id", Int),
        ("position_in_dataset", Int),
        ("guid", Text),
        ("name", Text),
        ("description", Text),
        ("speaker_info", Text),
        ("capacity", Int),
        ("position", Int)
    ],
    "position_in_dataset"
);
event_table!(
    ROOM_AVAILABILITIES,
    "room_availabilities",
    [
        ("room_id", Int),
        ("id", Int),
        ("start_at", Int),
        ("end_at", Int)
    ],
    "room_id, id"
);
event_table!(
    TAGS,
    "tags",
    [
        ("id", Int),
        ("position", Int),
        ("tag", Text),
        ("description", Text),
        ("color", Text),
        ("is_public", Int)
    ],
    "position"
);
event_table!(
    QUESTIONS,
    "questions",
    [
        ("id", Int),
        ("position_in_dataset", Int),
        ("variant", Text),
        ("target", Text),
        ("question", Text),
        ("help_text", Text),
        ("question_required", Text),
        ("deadline", Int),
        ("freeze_after", Int),
        ("default_answer", Text),
        ("contains_personal_data", Int),
        ("min_length", Int),
        ("max_length", Int),
        ("is_public", Int),
        ("is_visible_to_reviewers", Int),
        ("active", Int),
        ("position", Int)
    ],
    "position_in_dataset"
);
event_table!(
    QUESTION_OPTIONS,
    "question_options",
    [
        ("question_id", Int),
        ("id", Int),
        ("position", Int),
        ("answer", Text)
    ],
    "question_id, position"
);
event_table!(
    QUESTION_TRACKS,
    "question_tracks",
    [("question_id", Int), ("position", Int), ("track_id", Int)],
    "question_id, position"
);
event_table!(
    QUESTION_SUBMISSION_TYPES,
    "question_submission_types",
    [
        ("question_id", Int),
        ("position", Int),
        ("submission_type_id", Int)
    ],
    "question_id, position"
);
event_table!(
    SPEAKERS,
    "speakers",
    [("user_code", Text), ("position", Int), ("biography", Text)],
    "position"
);
event_table!(
    SPEAKER_AVAILABILITIES,
    "speaker_availabilities",
    [
        ("user_code", Text),
        ("id", Int),
        ("start_at", Int),
        ("end_at", Int)
    ],
    "user_code, id"
);
event_table!(
    SUBMISSIONS,
    "submissions",
    [
        ("code", Text),
        ("position", Int),
        ("title", Text),
        ("submission_type", Int),
        ("track", Int),
        ("state", Text),
        ("pending_state", Text),
        ("abstract", Text),
        ("description", Text),
        ("notes", Text),
        ("internal_notes", Text),
        ("duration", Int),
        ("slot_count", Int),
        ("do_not_record", Int),
        ("is_featured", Int),
        ("content_locale", Text),
        ("image", Text),
        ("created", Int),
        ("is_anonymised", Int),
        ("anon_title", Text),
        ("anon_abstract", Text),
        ("anon_description", Text)
    ],
    "position"
);
event_table!(
    SUBMISSION_SPEAKERS,
    "submission_speakers",
    [
        ("submission_code", Text),
        ("position", Int),
        ("user_code", Text)
    ],
    "submission_code, position"
);
event_table!(
    SUBMISSION_TAGS,
    "submission_tags",
    [
        ("submission_code", Text),
        ("position", Int),
        ("tag_id", Int)
    ],
    "submission_code, position"
);
event_table!(
    SUBMISSION_RESOURCES,
    "submission_resources",
    [
        ("submission_code", Text),
        ("position", Int),
        ("resource", Text),
        ("description", Text)
    ],
    "submission_code, position"
);
event_table!(
    SUBMISSION_REVIEWERS,
    "submission_reviewers",
    [
        ("submission_code", Text),
        ("position", Int),
        ("user_code", Text)
    ],
    "submission_code, position"
);
event_table!(
    SLOTS,
    "slots",
    [
        ("submission_code", Text),
        ("position", Int),
        ("room", Int),
        ("start_at", Int),
        ("end_at", Int),
        ("is_visible", Int)
    ],
    "submission_code, position"
);
event_table!(
    ANSWERS,
    "answers",
    [
        ("id", Int),
        ("position", Int),
        ("question", Int),
        ("answer", Text),
        ("answer_file", Text),
        ("submission", Text),
        ("person", Text),
        ("review", Int)
    ],
    "position"
);
event_table!(
    ANSWER_OPTIONS,
    "answer_options",
    [("answer_id", Int), ("position", Int), ("option_id", Int)],
    "answer_id, position"
);
event_table!(
    REVIEWS,
    "reviews",
    [
        ("id", Int),
        ("position", Int),
        ("submission", Text),
        ("user_code", Text),
        ("text", Text),
        ("score", Real),
        ("created", Int),
        ("updated", Int)
    ],
    "position"
);

/// Every per-event table, in the order rows are inserted.
pub const EVENT_TABLES: [&Table; 23] = [
    &TEAMS,
    &TEAM_MEMBERS,
    &TEAM_TRACKS,
    &SUBMISSION_TYPES,
    &TRACKS,
    &ROOMS,
    &ROOM_AVAILABILITIES,
    &TAGS,
    &QUESTIONS,
    &QUESTION_OPTIONS,
    &QUESTION_TRACKS,
    &QUESTION_SUBMISSION_TYPES,
    &SPEAKERS,
    &SPEAKER_AVAILABILITIES,
    &SUBMISSIONS,
    &SUBMISSION_SPEAKERS,
    &SUBMISSION_TAGS,
    &SUBMISSION_RESOURCES,
    &SUBMISSION_REVIEWERS,
    &SLOTS,
    &ANSWERS,
    &ANSWER_OPTIONS,
    &REVIEWS,
];

pub type Row = Vec<Value>;

// ---------------------------------------------------------------------------
// model → rows

fn v<T: Into<Value>>(value: T) -> Value {
    value.into()
}

impl From<i64> for Value {
    fn from(x: i64) -> Self {
        Value::Int(x)
    }
}
impl From<usize> for Value {
    fn from(x: usize) -> Self {
        Value::Int(x as i64)
    }
}
impl From<bool> for Value {
    fn from(x: bool) -> Self {
        Value::Int(x as i64)
    }
}
impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Real(x)
    }
}
impl From<&str> for Value {
    fn from(x: &str) -> Self {
        Value::Text(x.to_string())
    }
}
impl From<&String> for Value {
    fn from(x: &String) -> Self {
        Value::Text(x.clone())
    }
}
impl From<&I18n> for Value {
    fn from(x: &I18n) -> Self {
        Value::Text(x.to_json_string())
    }
}
impl From<&Timestamp> for Value {
    fn from(x: &Timestamp) -> Self {
        Value::Int(x.timestamp_micros())
    }
}
impl<T> From<Option<T>> for Value
where
    T: Into<Value>,
{
    fn from(x: Option<T>) -> Self {
        x.map_or(Value::Null, Into::into)
    }
}

fn enum_name<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(n, _)| *n)
        .unwrap_or("")
}

pub fn user_rows(user: &User) -> (Row, Vec<Row>) {
    let row = vec![
        v(&user.code),
        v(&user.name),
        v(&user.email),
        v(user.avatar.as_ref()),
        v(&user.locale),
        v(&user.timezone),
        v(user.is_administrator),
    ];
    let tokens = user
        .token_hashes
        .iter()
        .enumerate()
        .map(|(i, hash)| vec![v(hash), v(&user.code), v(i)])
        .collect();
    (row, tokens)
}

pub fn event_row(e: &Event) -> Row {
    let phase = e.review_phase.as_ref();
    vec![
        v(&e.slug),
        v(&e.name),
        v(e.is_public),
        v(e.date_from.to_string().as_str()),
        v(e.date_to.map(|d| d.to_string()).as_ref()),
        v(&e.timezone),
        v(&e.locale),
        v(e.show_schedule),
        v(e.schedule.as_ref().map(|s| &s.version)),
        v(e.schedule.as_ref().and_then(|s| s.published.as_ref())),
        v(phase.map(|p| &p.name)),
        v(phase.map(|p| p.can_see_speaker_names)),
        v(phase.map(|p| p.can_see_reviewer_names)),
        v(phase.map(|p| enum_name(&OtherReviews::ALL, p.can_see_other_reviews))),
        v(phase.map(|p| enum_name(&ProposalVisibility::ALL, p.proposal_visibility))),
    ]
}

/// All rows of one event's per-event tables (without the `event_id` column),
/// keyed by table name.
pub fn event_table_rows(e: &Event) -> HashMap<&'static str, Vec<Row>> {
    let mut t: HashMap<&'static str, Vec<Row>> = EVENT_TABLES
        .iter()
        .map(|table| (table.name, Vec::new()))
        .collect();
    let mut push = |table: &Table, row: Row| t.get_mut(table.name).expect("known table").push(row);

    for (i, team) in e.teams.iter().enumerate() {
        push(
            &TEAMS,
            vec![
                v(i),
                v(&team.name),
                v(team.can_change_submissions),
                v(team.is_reviewer),
                v(team.force_hide_speaker_names),
            ],
        );
        for (j, member) in team.members.iter().enumerate() {
            push(&TEAM_MEMBERS, vec![v(i), v(j), v(member)]);
        }
        for (j, track) in team.limit_tracks.iter().enumerate() {
            push(&TEAM_TRACKS, vec![v(i), v(j), v(*track)]);
        }
    }
    for (i, st) in e.submission_types.iter().enumerate() {
        push(
            &SUBMISSION_TYPES,
            vec![v(st.id), v(i), v(&st.name), v(st.default_duration)],
        );
    }
    for (i, track) in e.tracks.iter().enumerate() {
        push(
            &TRACKS,
            vec![v(track.id), v(i), v(&track.name), v(&track.color)],
        );
    }
    for (i, room) in e.rooms.iter().enumerate() {
        push(
            &ROOMS,
            vec![
                v(room.id),
                v(i),
                v(room.guid.as_ref()),
                v(&room.name),
                v(&room.description),
                v(&room.speaker_info),
                v(room.capacity),
                v(room.position),
            ],
        );
        for a in &room.availabilities {
            push(
                &ROOM_AVAILABILITIES,
                vec![v(room.id), v(a.id), v(&a.start), v(&a.end)],
            );
        }
    }
    for (i, tag) in e.tags.iter().enumerate() {
        push(
            &TAGS,
            vec![
                v(tag.id),
                v(i),
                v(&tag.tag),
                v(&tag.description),
                v(&tag.color),
                v(tag.is_public),
            ],
        );
    }
    for (i, q) in e.questions.iter().enumerate() {
        push(
            &QUESTIONS,
            vec![
                v(q.id),
                v(i),
                v(&q.variant),
                v(&q.target),
                v(&q.question),
                v(&q.help_text),
                v(&q.question_required),
                v(q.deadline.as_ref()),
                v(q.freeze_after.as_ref()),
                v(q.default_answer.as_ref()),
                v(q.contains_personal_data),
                v(q.min_length),
                v(q.max_length),
                v(q.is_public),
                v(q.is_visible_to_reviewers),
                v(q.active),
                v(q.position),
            ],
        );
        for (j, o) in q.options.iter().enumerate() {
            push(
                &QUESTION_OPTIONS,
                vec![v(q.id), v(o.id), v(j), v(&o.answer)],
            );
        }
        for (j, track) in q.tracks.iter().enumerate() {
            push(&QUESTION_TRACKS, vec![v(q.id), v(j), v(*track)]);
        }
        for (j, st) in q.submission_types.iter().enumerate() {
            push(&QUESTION_SUBMISSION_TYPES, vec![v(q.id), v(j), v(*st)]);
        }
    }
    for (i, p) in e.speakers.iter().enumerate() {
        push(&SPEAKERS, vec![v(&p.user), v(i), v(&p.biography)]);
        for a in &p.availabilities {
            push(
                &SPEAKER_AVAILABILITIES,
                vec![v(&p.user), v(a.id), v(&a.start), v(&a.end)],
            );
        }
    }
    for (i, s) in e.submissions.iter().enumerate() {
        let anon = s.anonymised.clone().unwrap_or_default();
        push(
            &SUBMISSIONS,
            vec![
                v(&s.code),
                v(i),
                v(&s.title),
                v(s.submission_type),
                v(s.track),
                v(&s.state),
                v(s.pending_state.as_ref()),
                v(&s.abstract_),
                v(&s.description),
                v(&s.notes),
                v(&s.internal_notes),
                v(s.duration),
                v(s.slot_count),
                v(s.do_not_record),
                v(s.is_featured),
                v(&s.content_locale),
                v(s.image.as_ref()),
                v(&s.created),
                v(s.anonymised.is_some()),
                v(&anon.title),
                v(&anon.abstract_),
                v(&anon.description),
            ],
        );
        for (j, user) in s.speakers.iter().enumerate() {
            push(&SUBMISSION_SPEAKERS, vec![v(&s.code), v(j), v(user)]);
        }
        for (j, tag) in s.tags.iter().enumerate() {
            push(&SUBMISSION_TAGS, vec![v(&s.code), v(j), v(*tag)]);
        }
        for (j, r) in s.resources.iter().enumerate() {
            push(
                &SUBMISSION_RESOURCES,
                vec![v(&s.code), v(j), v(&r.resource), v(&r.description)],
            );
        }
        for (j, user) in s.assigned_reviewers.iter().enumerate() {
            push(&SUBMISSION_REVIEWERS, vec![v(&s.code), v(j), v(user)]);
        }
        for (j, slot) in s.slots.iter().enumerate() {
            push(
                &SLOTS,
                vec![
                    v(&s.code),
                    v(j),
                    v(slot.room),
                    v(slot.start.as_ref()),
                    v(slot.end.as_ref()),
                    v(slot.is_visible),
                ],
            );
        }
    }
    for (i, a) in e.answers.iter().enumerate() {
        push(
            &ANSWERS,
            vec![
                v(a.id),
                v(i),
                v(a.question),
                v(&a.answer),
                v(a.answer_file.as_ref()),
                v(a.submission.as_ref()),
                v(a.person.as_ref()),
                v(a.review),
            ],
        );
        for (j, option) in a.options.iter().enumerate() {
            push(&ANSWER_OPTIONS, vec![v(a.id), v(j), v(*option)]);
        }
    }
    for (i, r) in e.reviews.iter().enumerate() {
        push(
            &REVIEWS,
            vec![
                v(r.id),
                v(i),
                v(&r.submission),
                v(&r.user),
                v(&r.text),
                v(r.score),
                v(&r.created),
                v(&r.updated),
            ],
        );
    }
    t
}

// ---------------------------------------------------------------------------
// rows → model

/// Typed, checked access to one loaded row.
struct Cols<'a> {
    table: &'static str,
    row: &'a [Value],
}

impl<'a> Cols<'a> {
    fn corrupt(&self, i: usize, want: &str) -> StoreError {
        StoreError::Corrupt(format!(
            "{}: column {i} is not {want}: {:?}",
            self.table,
            self.row.get(i)
        ))
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.row.get(i) {
            Some(Value::Int(x)) => Ok(Some(*x)),
            Some(Value::Null) => Ok(None),
            _ => Err(self.corrupt(i, "an integer")),
        }
    }
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.opt_int(i)?
            .ok_or_else(|| self.corrupt(i, "an integer"))
    }
    fn bool(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.int(i)? != 0)
    }
    fn opt_real(&self, i: usize) -> Result<Option<f64>, StoreError> {
        match self.row.get(i) {
            Some(Value::Real(x)) => Ok(Some(*x)),
            Some(Value::Int(x)) => Ok(Some(*x as f64)),
            Some(Value::Null) => Ok(None),
            _ => Err(self.corrupt(i, "a number")),
        }
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.row.get(i) {
            Some(Value::Text(x)) => Ok(Some(x.clone())),
            Some(Value::Null) => Ok(None),
            _ => Err(self.corrupt(i, "text")),
        }
    }
    fn text(&self, i: usize) -> Result<String, StoreError> {
        self.opt_text(i)?.ok_or_else(|| self.corrupt(i, "text"))
    }
    fn i18n(&self, i: usize) -> Result<I18n, StoreError> {
        I18n::from_json_str(&self.text(i)?)
            .map_err(|e| StoreError::Corrupt(format!("{}: {e}", self.table)))
    }
    fn opt_time(&self, i: usize) -> Result<Option<Timestamp>, StoreError> {
        match self.opt_int(i)? {
            None => Ok(None),
            Some(micros) => Utc
                .timestamp_micros(micros)
                .single()
                .map(Some)
                .ok_or_else(|| self.corrupt(i, "a timestamp")),
        }
    }
    fn time(&self, i: usize) -> Result<Timestamp, StoreError> {
        self.opt_time(i)?
            .ok_or_else(|| self.corrupt(i, "a timestamp"))
    }
    fn opt_date(&self, i: usize) -> Result<Option<NaiveDate>, StoreError> {
        match self.opt_text(i)? {
            None => Ok(None),
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|_| self.corrupt(i, "a date")),
        }
    }
}

fn each<'a>(
    rows: &'a HashMap<&'static str, Vec<Row>>,
    table: &'static Table,
) -> impl Iterator<Item = Cols<'a>> {
    rows.get(table.name)
        .into_iter()
        .flatten()
        .map(move |row| Cols {
            table: table.name,
            row,
        })
}

pub fn user_from_rows(row: &[Value], token_hashes: Vec<String>) -> Result<User, StoreError> {
    let c = Cols {
        table: USERS.name,
        row,
    };
    Ok(User {
        code: c.text(0)?,
        name: c.text(1)?,
        email: c.text(2)?,
        avatar: c.opt_text(3)?,
        locale: c.text(4)?,
        timezone: c.text(5)?,
        is_administrator: c.bool(6)?,
        token_hashes,
    })
}

/// Token rows (in `USER_TOKENS` order) grouped by user code.
pub fn tokens_by_user(rows: &[Row]) -> Result<HashMap<String, Vec<String>>, StoreError> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for row in rows {
        let c = Cols {
            table: USER_TOKENS.name,
            row,
        };
        out.entry(c.text(1)?).or_default().push(c.text(0)?);
    }
    Ok(out)
}

fn parse_enum<T: Copy>(table: &[(&'static str, T)], name: &str) -> Result<T, StoreError> {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| StoreError::Corrupt(format!("unknown value {name:?}")))
}

/// Groups child rows by a key column, keeping load order.
fn grouped<K: std::hash::Hash + Eq, T>(
    items: impl Iterator<Item = Result<(K, T), StoreError>>,
) -> Result<HashMap<K, Vec<T>>, StoreError> {
    let mut out: HashMap<K, Vec<T>> = HashMap::new();
    for item in items {
        let (key, value) = item?;
        out.entry(key).or_default().push(value);
    }
    Ok(out)
}

/// Rebuilds an event from its `EVENTS` row and its per-event table rows.
pub fn event_from_rows(
    header: &[Value],
    t: &HashMap<&'static str, Vec<Row>>,
) -> Result<Event, StoreError> {
    let h = Cols {
        table: EVENTS.name,
        row: header,
    };
    let review_phase = match h.opt_text(10)? {
        None => None,
        Some(name) => Some(ReviewPhase {
            name,
            can_see_speaker_names: h.bool(11)?,
            can_see_reviewer_names: h.bool(12)?,
            can_see_other_reviews: parse_enum(&OtherReviews::ALL, &h.text(13)?)?,
            proposal_visibility: parse_enum(&ProposalVisibility::ALL, &h.text(14)?)?,
        }),
    };

    let mut members = grouped(each(t, &TEAM_MEMBERS).map(|c| Ok((c.int(0)?, c.text(2)?))))?;
    let mut team_tracks = grouped(each(t, &TEAM_TRACKS).map(|c| Ok((c.int(0)?, c.int(2)?))))?;
    let teams = each(t, &TEAMS)
        .map(|c| {
            let position = c.int(0)?;
            Ok(Team {
                name: c.text(1)?,
                members: members.remove(&position).unwrap_or_default(),
                can_change_submissions: c.bool(2)?,
                is_reviewer: c.bool(3)?,
                force_hide_speaker_names: c.bool(4)?,
                limit_tracks: team_tracks.remove(&position).unwrap_or_default(),
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let submission_types = each(t, &SUBMISSION_TYPES)
        .map(|c| {
            Ok(SubmissionType {
                id: c.int(0)?,
                name: c.i18n(2)?,
                default_duration: c.int(3)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    let tracks = each(t, &TRACKS)
        .map(|c| {
            Ok(Track {
                id: c.int(0)?,
                name: c.i18n(2)?,
                color: c.text(3)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let mut room_avail = grouped(each(t, &ROOM_AVAILABILITIES).map(|c| {
        Ok((
            c.int(0)?,
            Availability {
                id: c.int(1)?,
                start: c.time(2)?,
                end: c.time(3)?,
            },
        ))
    }))?;
    let rooms = each(t, &ROOMS)
        .map(|c| {
            let id = c.int(0)?;
            Ok(Room {
                id,
                guid: c.opt_text(2)?,
                name: c.i18n(3)?,
                description: c.i18n(4)?,
                speaker_info: c.i18n(5)?,
                capacity: c.opt_int(6)?,
                position: c.opt_int(7)?,
                availabilities: room_avail.remove(&id).unwrap_or_default(),
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let tags = each(t, &TAGS)
        .map(|c| {
            Ok(Tag {
                id: c.int(0)?,
                tag: c.text(2)?,
                description: c.i18n(3)?,
                color: c.text(4)?,
                is_public: c.bool(5)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let mut options = grouped(each(t, &QUESTION_OPTIONS).map(|c| {
        Ok((
            c.int(0)?,
            QuestionOption {
                id: c.int(1)?,
                answer: c.i18n(3)?,
            },
        ))
    }))?;
    let mut q_tracks = grouped(each(t, &QUESTION_TRACKS).map(|c| Ok((c.int(0)?, c.int(2)?))))?;
    let mut q_types =
        grouped(each(t, &QUESTION_SUBMISSION_TYPES).map(|c| Ok((c.int(0)?, c.int(2)?))))?;
    let questions = each(t, &QUESTIONS)
        .map(|c| {
            let id = c.int(0)?;
            Ok(Question {
                id,
                variant: c.text(2)?,
                target: c.text(3)?,
                question: c.i18n(4)?,
                help_text: c.i18n(5)?,
                question_required: c.text(6)?,
                deadline: c.opt_time(7)?,
                freeze_after: c.opt_time(8)?,
                options: options.remove(&id).unwrap_or_default(),
                default_answer: c.opt_text(9)?,
                contains_personal_data: c.bool(10)?,
                min_length: c.opt_int(11)?,
                max_length: c.opt_int(12)?,
                is_public: c.bool(13)?,
                is_visible_to_reviewers: c.bool(14)?,
                active: c.bool(15)?,
                position: c.int(16)?,
                tracks: q_tracks.remove(&id).unwrap_or_default(),
                submission_types: q_types.remove(&id).unwrap_or_default(),
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let mut speaker_avail = grouped(each(t, &SPEAKER_AVAILABILITIES).map(|c| {
        Ok((
            c.text(0)?,
            Availability {
                id: c.int(1)?,
                start: c.time(2)?,
                end: c.time(3)?,
            },
        ))
    }))?;
    let speakers = each(t, &SPEAKERS)
        .map(|c| {
            let user = c.text(0)?;
            Ok(SpeakerProfile {
                availabilities: speaker_avail.remove(&user).unwrap_or_default(),
                user,
                biography: c.text(2)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let mut sub_speakers =
        grouped(each(t, &SUBMISSION_SPEAKERS).map(|c| Ok((c.text(0)?, c.text(2)?))))?;
    let mut sub_tags = grouped(each(t, &SUBMISSION_TAGS).map(|c| Ok((c.text(0)?, c.int(2)?))))?;
    let mut sub_resources = grouped(each(t, &SUBMISSION_RESOURCES).map(|c| {
        Ok((
            c.text(0)?,
            Resource {
                resource: c.text(2)?,
                description: c.text(3)?,
            },
        ))
    }))?;
    let mut sub_reviewers =
        grouped(each(t, &SUBMISSION_REVIEWERS).map(|c| Ok((c.text(0)?, c.text(2)?))))?;
    let mut sub_slots = grouped(each(t, &SLOTS).map(|c| {
        Ok((
            c.text(0)?,
            Slot {
                room: c.opt_int(2)?,
                start: c.opt_time(3)?,
                end: c.opt_time(4)?,
                is_visible: c.bool(5)?,
            },
        ))
    }))?;
    let submissions = each(t, &SUBMISSIONS)
        .map(|c| {
            let code = c.text(0)?;
            let anonymised = if c.bool(18)? {
                Some(Anonymised {
                    title: c.text(19)?,
                    abstract_: c.text(20)?,
                    description: c.text(21)?,
                })
            } else {
                None
            };
            Ok(Submission {
                speakers: sub_speakers.remove(&code).unwrap_or_default(),
                tags: sub_tags.remove(&code).unwrap_or_default(),
                resources: sub_resources.remove(&code).unwrap_or_default(),
                assigned_reviewers: sub_reviewers.remove(&code).unwrap_or_default(),
                slots: sub_slots.remove(&code).unwrap_or_default(),
                title: c.text(2)?,
                submission_type: c.int(3)?,
                track: c.opt_int(4)?,
                state: c.text(5)?,
                pending_state: c.opt_text(6)?,
                abstract_: c.text(7)?,
                description: c.text(8)?,
                notes: c.text(9)?,
                internal_notes: c.text(10)?,
                duration: c.opt_int(11)?,
                slot_count: c.int(12)?,
                do_not_record: c.bool(13)?,
                is_featured: c.bool(14)?,
                content_locale: c.text(15)?,
                image: c.opt_text(16)?,
                created: c.time(17)?,
                anonymised,
                code,
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let mut answer_options = grouped(each(t, &ANSWER_OPTIONS).map(|c| Ok((c.int(0)?, c.int(2)?))))?;
    let answers = each(t, &ANSWERS)
        .map(|c| {
            let id = c.int(0)?;
            Ok(Answer {
                id,
                question: c.int(2)?,
                answer: c.text(3)?,
                answer_file: c.opt_text(4)?,
                submission: c.opt_text(5)?,
                person: c.opt_text(6)?,
                review: c.opt_int(7)?,
                options: answer_options.remove(&id).unwrap_or_default(),
            })
        })
        .collect::<Result<_, StoreError>>()?;

    let reviews = each(t, &REVIEWS)
        .map(|c| {
            Ok(Review {
                id: c.int(0)?,
                submission: c.text(2)?,
                user: c.text(3)?,
                text: c.text(4)?,
                score: c.opt_real(5)?,
                created: c.time(6)?,
                updated: c.time(7)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;

    Ok(Event {
        slug: h.text(0)?,
        name: h.i18n(1)?,
        is_public: h.bool(2)?,
        date_from: h.opt_date(3)?.ok_or_else(|| h.corrupt(3, "a date"))?,
        date_to: h.opt_date(4)?,
        timezone: h.text(5)?,
        locale: h.text(6)?,
        show_schedule: h.bool(7)?,
        schedule: match h.opt_text(8)? {
            None => None,
            Some(version) => Some(Schedule {
                version,
                published: h.opt_time(9)?,
            }),
        },
        review_phase,
        teams,
        submission_types,
        tracks,
        rooms,
        tags,
        questions,
        speakers,
        submissions,
        answers,
        reviews,
    })
}
