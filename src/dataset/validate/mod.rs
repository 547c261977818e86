//! Dataset import: checks one whole document against the dataset format
//! (`shared/spec/dataset.md`) and converts it into the model.
//!
//! The rules follow the reference validator
//! (`shared/conformance/validate_dataset.py`), including its JSON paths
//! (`events[0].submissions[12].track`; top-level keys have no `$.` prefix and
//! the document itself is `$`). Every problem is collected: readers record a
//! problem and carry on with a stand-in value, and the model is handed out
//! only when the problem list is empty, so stand-ins never escape.
//!
//! Reading order matters in one way: users come before events (user codes are
//! global), and inside an event everything that can be referenced is read
//! before what references it (types, tracks, rooms, tags, questions, profiles,
//! submissions, reviews, then answers), whatever the key order in the file.

use std::collections::{HashMap, HashSet};
use std::fmt;

use chrono::{Datelike, NaiveDate};

use crate::model::time::parse_rfc3339;
use crate::model::{
    hash_token, Anonymised, Answer, AttendeeSignup, Availability, Break, Dataset, Decimal, Event,
    I18n, Invitation, OtherReviews, ProposalVisibility, Question, QuestionOption, QuestionRequired,
    QuestionTarget, QuestionVariant, Resource, Review, ReviewPhase, ReviewScore, Room, Schedule,
    ScheduleSlot, ScheduleVersion, ScoreCategory, SignupStatus, Slot, SpeakerProfile, Submission,
    SubmissionState, SubmissionType, Tag, Team, Timestamp, Track, User, WipSchedule,
};

/// One thing wrong with a document, at a JSON path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Validates one whole document and converts it. Every problem is collected
/// (never stop at the first), each with its JSON path.
pub fn parse_value(doc: &serde_json::Value) -> Result<Dataset, Vec<Problem>> {
    parse_document(&Value::from_serde(doc))
}

fn parse_document(doc: &Value) -> Result<Dataset, Vec<Problem>> {
    let mut cx = Cx::default();
    let dataset = document(&mut cx, doc);
    if cx.problems.is_empty() {
        Ok(dataset)
    } else {
        Err(cx.problems)
    }
}

/// Same from text; a JSON syntax error is one Problem with path "$" and the
/// line/column in the message.
pub fn parse_str(text: &str) -> Result<Dataset, Vec<Problem>> {
    match json::from_str(text) {
        Ok(doc) => parse_document(&doc),
        Err(e) => {
            // serde_json appends " at line L column C"; say it once, up front.
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let reason = full.strip_suffix(&suffix).unwrap_or(&full);
            Err(vec![Problem {
                path: "$".into(),
                message: format!(
                    "invalid JSON at line {}, column {}: {reason}",
                    e.line(),
                    e.column()
                ),
            }])
        }
    }
}

// ---------------------------------------------------------------------------
// Context and generic readers
// ---------------------------------------------------------------------------

/// The problem list plus what must be unique or resolvable across the whole
/// document.
#[derive(Default)]
struct Cx {
    problems: Vec<Problem>,
    /// id kind → id → path of the record that used it first. Every id kind is
    /// one global sequence, as in a database.
    ids: HashMap<&'static str, HashMap<i64, String>>,
    /// Valid user codes (users are global; events refer to them).
    users: HashSet<String>,
    /// Submission code → path of its submission (codes are global).
    submission_codes: HashMap<String, String>,
    /// Per-event speaker code (pretalx 2026) → its user: one code names
    /// one person in every event.
    profile_codes: HashMap<String, String>,
}

impl Cx {
    fn err(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem {
            path: path.into(),
            message: message.into(),
        });
    }

    /// A type mismatch, worded like the reference validator.
    fn wrong_type(&mut self, path: &Path<'_>, expected: &str, value: &Value) {
        if value.is_null() {
            self.err(path, format!("must be {expected}, not null"));
        } else {
            self.err(path, format!("must be {expected}, got {}", describe(value)));
        }
    }

    /// A positive integer id, registered as used for its kind.
    fn id(&mut self, path: &Path<'_>, value: &Value, kind: &'static str) -> Option<i64> {
        let id = match value.as_i64() {
            Some(id) if id > 0 => id,
            _ => {
                self.err(
                    path,
                    format!("id must be a positive integer, got {}", describe(value)),
                );
                return None;
            }
        };
        let seen = self.ids.entry(kind).or_default();
        if let Some(first) = seen.get(&id) {
            let message = format!("duplicate {kind} id {id} (also at {first})");
            self.err(path, message);
        } else {
            seen.insert(id, path.to_string());
        }
        Some(id)
    }

    /// A reference to a global user.
    fn user_ref(&mut self, path: &Path<'_>, value: &Value) -> Option<String> {
        let Value::String(code) = value else {
            self.err(
                path,
                format!("must be a user code, got {}", describe(value)),
            );
            return None;
        };
        if !self.users.contains(code.as_ref()) {
            self.err(path, format!("user {} does not exist", quote(code)));
            return None;
        }
        Some(code.to_string())
    }
}

/// Where a value sits in the document (`events[0].submissions[3].title`).
/// Built on the stack as readers descend and formatted only for a problem:
/// most values have none, and formatting every path made validation slow.
#[derive(Clone, Copy)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    pub const ROOT: Path<'static> = Path {
        parent: None,
        step: Step::Root,
    };

    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            step: Step::Key(key),
        }
    }

    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            step: Step::Index(index),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.parent, self.step) {
            (None, _) | (_, Step::Root) => f.write_str("$"),
            (Some(parent), step) => {
                let top = matches!(parent.step, Step::Root);
                if !top {
                    write!(f, "{parent}")?;
                }
                match step {
                    Step::Key(key) if top => f.write_str(key),
                    Step::Key(key) => write!(f, ".{key}"),
                    Step::Index(i) if top => write!(f, "$[{i}]"),
                    Step::Index(i) => write!(f, "[{i}]"),
                    Step::Root => Ok(()),
                }
            }
        }
    }
}

impl From<&Path<'_>> for String {
    fn from(path: &Path<'_>) -> String {
        path.to_string()
    }
}

impl From<Path<'_>> for String {
    fn from(path: Path<'_>) -> String {
        path.to_string()
    }
}

/// A short, bounded rendering of a JSON value for messages (never recurses,
/// so any input is safe to describe).
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => quote(s),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A string as a JSON literal, cut after 60 characters.
fn quote(text: &str) -> String {
    const MAX: usize = 60;
    let short: String = text.chars().take(MAX).collect();
    let mut quoted = serde_json::to_string(&short).unwrap_or_default();
    if text.chars().nth(MAX).is_some() {
        quoted.push('…');
    }
    quoted
}

/// `"a", "b", "c"` for enum messages.
fn listing(allowed: &[&str]) -> String {
    allowed
        .iter()
        .map(|a| quote(a))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A JSON object being read field by field. It remembers which keys were
/// asked for, so `finish` can report every other key as unknown.
struct Obj<'v, 'p> {
    path: Path<'p>,
    map: &'v Map<'v>,
    known: Vec<&'static str>,
}

impl<'v, 'p> Obj<'v, 'p> {
    fn open(cx: &mut Cx, path: &Path<'p>, value: &'v Value<'v>) -> Option<Obj<'v, 'p>> {
        match value {
            Value::Object(map) => Some(Obj {
                path: *path,
                map,
                known: Vec::new(),
            }),
            other => {
                cx.wrong_type(path, "an object", other);
                None
            }
        }
    }

    fn at<'s>(&'s self, key: &'s str) -> Path<'s> {
        self.path.key(key)
    }

    fn take(&mut self, key: &'static str) -> Option<&'v Value<'v>> {
        self.known.push(key);
        self.map.get(key)
    }

    /// Present and not null (the reference validator's notion of "set").
    fn is_set(&self, key: &str) -> bool {
        self.map.get(key).is_some_and(|v| !v.is_null())
    }

    /// Reports keys nobody asked for; call after reading every field.
    fn finish(self, cx: &mut Cx) {
        // Cheap when every key is known; otherwise each unknown key once,
        // in key order.
        if self.map.raw_keys().all(|key| self.known.contains(&key)) {
            return;
        }
        for key in self.map.keys() {
            if !self.known.contains(&key) {
                cx.err(self.path.key(key), "unknown field");
            }
        }
    }

    /// A required field; `None` when missing or invalid.
    fn req<T>(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        read: impl FnOnce(&mut Cx, &Path<'_>, &'v Value<'v>) -> Option<T>,
    ) -> Option<T> {
        let value = self.take(key);
        let path = self.at(key);
        match value {
            Some(value) => read(cx, &path, value),
            None => {
                cx.err(path, "required field is missing");
                None
            }
        }
    }

    /// An optional field: absent → `default`. An explicit null goes to `read`,
    /// which rejects it unless the field is nullable.
    fn opt<T>(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        default: T,
        read: impl FnOnce(&mut Cx, &Path<'_>, &'v Value<'v>) -> Option<T>,
    ) -> T {
        let value = self.take(key);
        let path = self.at(key);
        match value {
            Some(value) => read(cx, &path, value).unwrap_or(default),
            None => default,
        }
    }

    /// A nullable field: absent or null → `None`.
    fn nullable<T>(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        read: impl FnOnce(&mut Cx, &Path<'_>, &'v Value<'v>) -> Option<T>,
    ) -> Option<T> {
        let value = self.take(key);
        let path = self.at(key);
        match value {
            None | Some(Value::Null) => None,
            Some(value) => read(cx, &path, value),
        }
    }

    /// A list field, default `[]`; items that fail are left out.
    fn list<T>(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        item: impl FnMut(&mut Cx, &Path<'_>, &'v Value<'v>) -> Option<T>,
    ) -> Vec<T> {
        self.opt(cx, key, Vec::new(), |cx, path, value| {
            Some(list_of(cx, path, value, item))
        })
    }

    fn req_str(&mut self, cx: &mut Cx, key: &'static str) -> String {
        self.req(cx, key, string).unwrap_or_default()
    }

    fn opt_str(&mut self, cx: &mut Cx, key: &'static str, default: &str) -> String {
        self.opt(cx, key, default.to_string(), string)
    }

    fn opt_bool(&mut self, cx: &mut Cx, key: &'static str, default: bool) -> bool {
        self.opt(cx, key, default, boolean)
    }

    fn req_i18n(&mut self, cx: &mut Cx, key: &'static str) -> I18n {
        self.req(cx, key, required_i18n).unwrap_or_default()
    }

    fn i18n(&mut self, cx: &mut Cx, key: &'static str) -> I18n {
        self.opt(cx, key, I18n::default(), i18n)
    }

    fn req_datetime(&mut self, cx: &mut Cx, key: &'static str) -> Timestamp {
        self.req(cx, key, datetime).unwrap_or_default()
    }

    /// One of a closed set of names (`default` when absent).
    fn one_of<T: Copy>(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        table: &[(&str, T)],
        default: T,
    ) -> T {
        self.opt(cx, key, default, |cx, path, value| {
            choice(cx, path, value, table)
        })
    }

    /// A nullable URL (avatar, image, answer_file).
    fn opt_url(&mut self, cx: &mut Cx, key: &'static str) -> Option<String> {
        self.nullable(cx, key, url)
    }
}

fn list_of<'v, T>(
    cx: &mut Cx,
    path: &Path<'_>,
    value: &'v Value<'v>,
    mut item: impl FnMut(&mut Cx, &Path<'_>, &'v Value<'v>) -> Option<T>,
) -> Vec<T> {
    match value {
        Value::Array(items) => {
            // Sized once: a list of 100,000 submissions grown by doubling
            // copied and faulted in every large record several times.
            let mut read = Vec::with_capacity(items.len());
            for (i, v) in items.iter().enumerate() {
                read.extend(item(cx, &path.index(i), v));
            }
            read
        }
        other => {
            cx.wrong_type(path, "a list", other);
            Vec::new()
        }
    }
}

// ---------------------------------------------------------------------------
// Value readers: `fn(cx, path, value) -> Option<T>`, recording a problem and
// returning `None` when the value does not fit.
// ---------------------------------------------------------------------------

fn string(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.to_string()),
        other => {
            cx.wrong_type(path, "a string", other);
            None
        }
    }
}

fn boolean(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        other => {
            cx.wrong_type(path, "a boolean", other);
            None
        }
    }
}

/// A JSON integer (not a float, not a boolean) that fits in i64.
fn integer(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) if n.is_i64() => n.as_i64(),
        Value::Number(n) if n.is_u64() => {
            cx.err(path, format!("integer {n} is out of range"));
            None
        }
        other => {
            cx.wrong_type(path, "an integer", other);
            None
        }
    }
}

fn non_negative(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<i64> {
    let n = integer(cx, path, value)?;
    if n < 0 {
        cx.err(path, "must not be negative");
    }
    Some(n)
}

/// A positive integer (an upstream key that may repeat, such as a review
/// score's id).
fn positive(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<i64> {
    let id = value.as_i64().filter(|id| *id > 0);
    if id.is_none() {
        cx.err(
            path,
            format!("must be a positive integer, got {}", describe(value)),
        );
    }
    id
}

/// A decimal number as a string, as pretalx shows them: `-?D+(.D+)?`.
fn decimal(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<Decimal> {
    match value {
        Value::String(s) if is_decimal(s) => Some(Decimal(s.to_string())),
        other => {
            cx.err(
                path,
                format!(
                    "must be a decimal number as a string (\"1.5\"), got {}",
                    describe(other)
                ),
            );
            None
        }
    }
}

fn is_decimal(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (whole, fraction) = match digits.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (digits, None),
    };
    let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|c| c.is_ascii_digit());
    s.len() <= 40 && all_digits(whole) && fraction.is_none_or(all_digits)
}

/// A language code (`en`, `de-formal`, `pt-BR`).
fn language(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
    match value {
        Value::String(s)
            if (1..=32).contains(&s.len())
                && s.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_') =>
        {
            Some(s.to_string())
        }
        other => {
            cx.err(
                path,
                format!(
                    "must be a language code (\"en\", \"pt-BR\"), got {}",
                    describe(other)
                ),
            );
            None
        }
    }
}

/// Any JSON number.
fn number(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        other => {
            cx.wrong_type(path, "a number", other);
            None
        }
    }
}

fn enum_str(cx: &mut Cx, path: &Path<'_>, value: &Value, allowed: &[&str]) -> Option<String> {
    match value {
        Value::String(s) if allowed.contains(&s.as_ref()) => Some(s.to_string()),
        other => {
            cx.err(
                path,
                format!(
                    "must be one of {}, got {}",
                    listing(allowed),
                    describe(other)
                ),
            );
            None
        }
    }
}

/// An enum whose JSON names map to model values (`OtherReviews::ALL` ...).
fn choice<T: Copy>(cx: &mut Cx, path: &Path<'_>, value: &Value, table: &[(&str, T)]) -> Option<T> {
    let found = value
        .as_str()
        .and_then(|s| table.iter().find(|(name, _)| *name == s));
    if found.is_none() {
        let names: Vec<&str> = table.iter().map(|(name, _)| *name).collect();
        enum_str(cx, path, value, &names); // reports the problem
    }
    found.map(|(_, v)| *v)
}

/// i18n: an object of locale → text, or a plain string (`{"en": s}`, empty
/// string → `{}`), or null: a text never set (pretalx's null, which v1
/// shows as null and everything else as `{}`).
fn i18n(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<I18n> {
    match value {
        Value::Null => Some(I18n::null()),
        Value::String(s) => Some(I18n::en(s)),
        Value::Object(map) => {
            let mut texts = Vec::new();
            let mut ok = true;
            for (locale, text) in map.iter() {
                if locale.is_empty() {
                    cx.err(path, "locale key \"\" must be a non-empty string");
                    ok = false;
                }
                match text {
                    Value::String(t) => texts.push((locale.to_string(), t.to_string())),
                    _ => {
                        cx.err(path.key(locale), "translation must be a string");
                        ok = false;
                    }
                }
            }
            ok.then_some(I18n(texts, false))
        }
        _ => {
            cx.err(path, "must be an i18n object (or a plain string)");
            None
        }
    }
}

/// i18n that must have at least one non-empty text.
fn required_i18n(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<I18n> {
    let has_text = match value {
        Value::Null => {
            cx.err(path, "required i18n value is null");
            return None;
        }
        Value::String(s) => !s.is_empty(),
        Value::Object(map) => map
            .values()
            .any(|v| v.as_str().is_some_and(|s| !s.is_empty())),
        _ => true, // the type problem is reported by `i18n`
    };
    let parsed = i18n(cx, path, value);
    if !has_text {
        cx.err(path, "required i18n value is empty");
        return None;
    }
    parsed
}

/// The reference validator's datetime shape: `YYYY-MM-DD`, `T`/`t`/space,
/// `HH:MM[:SS[.fraction]]`, then `Z`/`z` or `±HH:MM`. Returns the text with
/// seconds filled in (RFC 3339 requires them), ready for `parse_rfc3339`.
fn datetime_text(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let digits = |from: usize, n: usize| (from..from + n).all(digit);
    let byte = |i: usize, c: u8| b.get(i) == Some(&c);
    let head_ok = digits(0, 4)
        && byte(4, b'-')
        && digits(5, 2)
        && byte(7, b'-')
        && digits(8, 2)
        && matches!(b.get(10), Some(b'T' | b't' | b' '))
        && digits(11, 2)
        && byte(13, b':')
        && digits(14, 2);
    if !head_ok {
        return None;
    }
    let mut i = 16;
    let mut has_seconds = false;
    if byte(i, b':') {
        // Leap seconds are refused, as Python's datetime does.
        if !digits(i + 1, 2) || (byte(i + 1, b'6') && byte(i + 2, b'0')) {
            return None;
        }
        has_seconds = true;
        i += 3;
        if byte(i, b'.') {
            let start = i + 1;
            i = start;
            while digit(i) {
                i += 1;
            }
            if i == start {
                return None;
            }
        }
    }
    // Everything before `i` is ASCII, so `i` is a char boundary.
    let offset = &text[i..];
    let o = offset.as_bytes();
    let offset_ok = offset == "Z"
        || offset == "z"
        || (o.len() == 6
            && matches!(o[0], b'+' | b'-')
            && o[1..3].iter().all(u8::is_ascii_digit)
            && o[3] == b':'
            && o[4..6].iter().all(u8::is_ascii_digit));
    if !offset_ok {
        return None;
    }
    Some(if has_seconds {
        text.to_string()
    } else {
        format!("{}:00{offset}", &text[..16])
    })
}

fn datetime(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<Timestamp> {
    let Value::String(text) = value else {
        cx.err(path, "must be a datetime string with offset");
        return None;
    };
    // The instant must also be writable back in the same shape: export
    // renders it in UTC, where years outside 1..=9999 would not fit.
    let parsed = datetime_text(text)
        .and_then(|t| parse_rfc3339(&t).ok())
        .filter(|t| (1..=9999).contains(&t.year()));
    if parsed.is_none() {
        cx.err(
            path,
            format!(
                "invalid datetime {} (RFC 3339 with offset required)",
                quote(text)
            ),
        );
    }
    parsed
}

/// `YYYY-MM-DD`, a real calendar day from year 1 on (as Python's `date`).
fn date(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<NaiveDate> {
    let has_shape = |s: &&str| {
        s.len() == 10
            && s.bytes().enumerate().all(|(i, c)| match i {
                4 | 7 => c == b'-',
                _ => c.is_ascii_digit(),
            })
    };
    let Some(text) = value.as_str().filter(has_shape) else {
        cx.err(
            path,
            format!("invalid date {} (YYYY-MM-DD)", describe(value)),
        );
        return None;
    };
    match NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        Ok(d) if d.year() >= 1 => Some(d),
        _ => {
            cx.err(path, format!("invalid date {}", quote(text)));
            None
        }
    }
}

/// A user or submission code: 1 to 16 characters of `[A-Za-z0-9]`.
fn code(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
    match value {
        Value::String(s)
            if (1..=16).contains(&s.len()) && s.bytes().all(|c| c.is_ascii_alphanumeric()) =>
        {
            Some(s.to_string())
        }
        other => {
            cx.err(
                path,
                format!("invalid code {} (1 to 16 of [A-Za-z0-9])", describe(other)),
            );
            None
        }
    }
}

/// An event slug: `[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?`.
fn is_slug(s: &str) -> bool {
    let b = s.as_bytes();
    let edge_ok = |c: Option<&u8>| c.is_some_and(u8::is_ascii_alphanumeric);
    edge_ok(b.first())
        && edge_ok(b.last())
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'.' || *c == b'-')
}

/// An IANA time zone name.
fn timezone(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
    let name = string(cx, path, value)?;
    if name.parse::<chrono_tz::Tz>().is_err() {
        cx.err(path, format!("unknown time zone {}", quote(&name)));
        return None;
    }
    Some(name)
}

/// `^https?://[^/\s]+(/\S*)?$`, as the reference validator.
fn is_absolute_url(s: &str) -> bool {
    let Some(rest) = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
    else {
        return false;
    };
    let host_end = rest.find('/').unwrap_or(rest.len());
    host_end > 0 && !s.chars().any(char::is_whitespace)
}

fn url(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
    match value {
        Value::String(s) if is_absolute_url(s) => Some(s.to_string()),
        other => {
            cx.err(
                path,
                format!("must be an absolute URL, got {}", describe(other)),
            );
            None
        }
    }
}

/// What Python's `uuid.UUID(text)` accepts: optional `urn:uuid:` and braces,
/// hyphens anywhere, 32 hex digits.
fn is_uuid(s: &str) -> bool {
    let s = s.replace("urn:", "").replace("uuid:", "");
    let hex = s.trim_matches(|c| c == '{' || c == '}').replace('-', "");
    hex.len() == 32 && hex.bytes().all(|c| c.is_ascii_hexdigit())
}

/// Remembers `key` → `path`; returns the earlier path when `key` was seen.
fn first_seen<K: std::hash::Hash + Eq>(
    seen: &mut HashMap<K, String>,
    key: K,
    path: &Path<'_>,
) -> Option<String> {
    match seen.get(&key) {
        Some(first) => Some(first.clone()),
        None => {
            seen.insert(key, path.to_string());
            None
        }
    }
}

/// An optional upstream primary key (pretalx's, for the schedule exports):
/// a positive integer or null, unique among `seen` (its own scope: the whole
/// document for users, the event for submissions, slots and breaks).
fn upstream_id(
    cx: &mut Cx,
    path: &Path<'_>,
    value: &Value,
    seen: &mut HashMap<i64, String>,
    what: &str,
) -> Option<i64> {
    match value.as_i64().filter(|id| *id > 0) {
        Some(id) => {
            if let Some(first) = first_seen(seen, id, path) {
                cx.err(path, format!("duplicate {what} {id} (also at {first})"));
            }
            Some(id)
        }
        None => {
            cx.err(
                path,
                format!(
                    "must be a positive integer or null, got {}",
                    describe(value)
                ),
            );
            None
        }
    }
}

/// A UUID string (room and slot guids).
fn uuid(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
    match value {
        Value::String(s) if is_uuid(s) => Some(s.to_string()),
        other => {
            cx.err(
                path,
                format!("must be a UUID string, got {}", describe(other)),
            );
            None
        }
    }
}

/// Reports `{path}: duplicate {what}` when a list repeats an item.
fn no_duplicates<T: std::hash::Hash + Eq>(cx: &mut Cx, path: &Path<'_>, items: &[T], what: &str) {
    let mut seen = HashSet::new();
    if !items.iter().all(|item| seen.insert(item)) {
        cx.err(path, format!("duplicate {what}"));
    }
}

// ---------------------------------------------------------------------------
// The document; each resource's rules are in its own module.
// ---------------------------------------------------------------------------

fn document(cx: &mut Cx, doc: &Value) -> Dataset {
    let Some(mut o) = Obj::open(cx, &Path::ROOT, doc) else {
        return Dataset::default();
    };
    if let Some(format) = o.req(cx, "format", |_, _, v| Some(v)) {
        if format.as_str() != Some("cfp-dataset") {
            cx.err("format", "must be \"cfp-dataset\"");
        }
    }
    if let Some(version) = o.req(cx, "version", |_, _, v| Some(v)) {
        if version.as_i64() != Some(1) {
            cx.err("version", "must be 1");
        }
    }
    // Users first: events refer to them, whatever the key order.
    let mut seen = UserSeen::default();
    let users = o.list(cx, "users", |cx, path, v| user(cx, &mut seen, path, v));
    let mut slugs = HashMap::new();
    let events = o.list(cx, "events", |cx, path, v| event(cx, &mut slugs, path, v));
    o.finish(cx);
    Dataset { users, events }
}

mod answers;
pub mod edits;
mod events;
mod json;
mod questions;
mod reviews;
#[cfg(test)]
mod speaker_code_tests;
mod speakers;
mod submissions;
#[cfg(test)]
mod tests;
mod users;

use answers::answer;
use events::{availability, event, QuestionRef, Scope, ScoreRef};
pub use json::{Map, Number, Value};
use questions::question;
use reviews::review;
use speakers::speaker;
use submissions::submission;
use users::{user, UserSeen};
