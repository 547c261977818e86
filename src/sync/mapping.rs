//! The parts of the dataset document that the legacy API (`legacy`) and the
//! versioned API (`v1`) map alike. Each API's own fields and forms stay
//! with its caller; where a caller passes values, they are evaluated in the
//! order of the document's fields, as `json!` would.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::error::SyncError;
use super::upstream::{Item, SeenUser};

/// A user seen upstream (speaker, reviewer, team member): the first sight
/// gives the name and avatar; an e-mail, time zone or locale shown
/// anywhere is kept.
pub(crate) fn see_user(
    users: &mut BTreeMap<String, SeenUser>,
    code: &str,
    name: String,
    avatar: Option<String>,
    item: &Item,
) {
    let seen = users.entry(code.to_string()).or_insert(SeenUser {
        name,
        avatar,
        ..SeenUser::default()
    });
    if let Some(email) = item.value.get("email").and_then(Value::as_str) {
        seen.email = Some(email.to_string());
    }
    // Organisers see a speaker's time zone and locale (pretalx's versioned
    // API); a zone the dataset could not take is left to the default.
    if let Some(zone) = item
        .value
        .get("timezone")
        .and_then(Value::as_str)
        .filter(|zone| zone.parse::<chrono_tz::Tz>().is_ok())
    {
        seen.timezone = Some(zone.to_string());
    }
    if let Some(locale) = item
        .value
        .get("locale")
        .and_then(Value::as_str)
        .filter(|locale| !locale.is_empty())
    {
        seen.locale = Some(locale.to_string());
    }
}

/// A speaker: their user (see `see_user`), biography and availabilities.
/// `avatar`, `biography` and `availabilities` read the API's own forms.
pub(crate) fn speaker(
    item: &Item,
    users: &mut BTreeMap<String, SeenUser>,
    avatar: impl FnOnce(&Item) -> Result<Option<String>, SyncError>,
    biography: impl FnOnce(&Item) -> Result<String, SyncError>,
    availabilities: impl FnOnce(&Item) -> Result<Vec<Value>, SyncError>,
) -> Result<Value, SyncError> {
    let code = item.str("code")?.to_string();
    let name = item.str("name")?.into();
    let avatar = avatar(item)?;
    see_user(users, &code, name, avatar, item);
    Ok(json!({
        "user": code,
        "biography": biography(item)?,
        "availabilities": availabilities(item)?,
    }))
}

/// A submission's fields, written in the document's order: a struct
/// literal evaluates its fields in the order written.
pub(crate) struct Submission {
    pub code: String,
    pub title: String,
    pub speakers: Vec<Value>,
    pub submission_type: i64,
    pub track: Value,
    pub state: String,
    pub pending_state: Value,
    pub abstract_: String,
    pub description: String,
    pub notes: String,
    pub internal_notes: String,
    pub duration: i64,
    pub slot_count: i64,
    pub do_not_record: Value,
    pub is_featured: Value,
    pub content_locale: String,
    pub image: Option<String>,
    pub created: Value,
    pub tags: Vec<i64>,
    pub resources: Vec<Value>,
    pub anonymised: Value,
    pub slots: Vec<Value>,
}

impl Submission {
    pub(crate) fn into_value(self) -> Value {
        json!({
            "code": self.code,
            "title": self.title,
            "speakers": self.speakers,
            "submission_type": self.submission_type,
            "track": self.track,
            "state": self.state,
            "pending_state": self.pending_state,
            "abstract": self.abstract_,
            "description": self.description,
            "notes": self.notes,
            "internal_notes": self.internal_notes,
            "duration": self.duration,
            "slot_count": self.slot_count,
            "do_not_record": self.do_not_record,
            "is_featured": self.is_featured,
            "content_locale": self.content_locale,
            "image": self.image,
            "created": self.created,
            "tags": self.tags,
            "resources": self.resources,
            "anonymised": self.anonymised,
            "slots": self.slots,
        })
    }
}

/// A question's options: id and i18n answer.
pub(crate) fn question_options(item: &Item) -> Result<Vec<Value>, SyncError> {
    let mut options = Vec::new();
    for option in item.list("options")? {
        options.push(json!({"id": option.i64("id")?, "answer": option.raw("answer")?}));
    }
    Ok(options)
}

/// The fields of a question both APIs show alike; the caller adds
/// `position`, `tracks` and `submission_types` (and v1 `active`).
pub(crate) fn question(item: &Item, options: Vec<Value>) -> Result<Map<String, Value>, SyncError> {
    let question = json!({
        "id": item.i64("id")?,
        "variant": item.str("variant")?,
        "target": item.str("target")?,
        "question": item.raw("question")?,
        "help_text": item.raw("help_text")?,
        "question_required": item.str("question_required")?,
        "deadline": item.raw("deadline")?,
        "freeze_after": item.raw("freeze_after")?,
        "options": options,
        "default_answer": item.raw("default_answer")?,
        "contains_personal_data": item.raw("contains_personal_data")?,
        "min_length": item.raw("min_length")?,
        "max_length": item.raw("max_length")?,
        "is_public": item.raw("is_public")?,
        "is_visible_to_reviewers": item.raw("is_visible_to_reviewers")?,
    });
    let Value::Object(question) = question else {
        unreachable!("json! of an object")
    };
    Ok(question)
}

/// An answer: the caller reads its id, question, text and file, this what
/// it answers for; the caller adds `options`.
pub(crate) fn answer(
    item: &Item,
    id: i64,
    question: i64,
    answer: String,
    answer_file: Option<String>,
) -> Result<Map<String, Value>, SyncError> {
    let answer = json!({
        "id": id,
        "question": question,
        "answer": answer,
        "answer_file": answer_file,
        "submission": item.opt_str("submission")?,
        "person": item.opt_str("person")?,
        "review": item.opt_i64("review")?,
    });
    let Value::Object(answer) = answer else {
        unreachable!("json! of an object")
    };
    Ok(answer)
}

/// A review, its values in the document's order.
pub(crate) fn review(
    id: i64,
    submission: &str,
    user: String,
    text: String,
    score: Value,
    created: Value,
    updated: Value,
) -> Value {
    json!({
        "id": id,
        "submission": submission,
        "user": user,
        "text": text,
        "score": score,
        "created": created,
        "updated": updated,
    })
}

/// A room. `guid` and `availabilities` read the API's own forms, `i18n`
/// its i18n texts that may be empty.
pub(crate) fn room<'a>(
    item: &Item<'a>,
    guid: impl FnOnce(&Item<'a>) -> Result<Option<&'a str>, SyncError>,
    i18n: impl Fn(&Item<'a>, &str) -> Result<Value, SyncError>,
    availabilities: impl FnOnce(&Item<'a>) -> Result<Vec<Value>, SyncError>,
) -> Result<Value, SyncError> {
    Ok(json!({
        "id": item.i64("id")?,
        "guid": guid(item)?,
        "name": item.raw("name")?,
        "description": i18n(item, "description")?,
        "speaker_info": i18n(item, "speaker_info")?,
        "capacity": item.opt_i64("capacity")?,
        "position": item.opt_i64("position")?,
        "availabilities": availabilities(item)?,
    }))
}

/// A tag; `i18n` reads its description, `is_public` whether it is public
/// (pretalx 2024 does not show it).
pub(crate) fn tag(
    item: &Item,
    i18n: impl Fn(&Item, &str) -> Result<Value, SyncError>,
    is_public: impl FnOnce(&Item) -> Result<Value, SyncError>,
) -> Result<Value, SyncError> {
    Ok(json!({
        "id": item.i64("id")?,
        "tag": item.str("tag")?,
        "description": i18n(item, "description")?,
        "color": item.str("color")?,
        "is_public": is_public(item)?,
    }))
}

/// A score: pretalx's decimals are strings (`"1.50"`), confapi's numbers.
pub(crate) fn decimal(item: &Item, key: &str) -> Result<Value, SyncError> {
    match item.get(key)? {
        Value::Null => Ok(Value::Null),
        Value::Number(n) => Ok(Value::Number(n.clone())),
        Value::String(s) => s
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(|f| json!(f))
            .ok_or_else(|| item.wrong(key, "a decimal number")),
        _ => Err(item.wrong(key, "a decimal number or null")),
    }
}

/// The availabilities of a room or speaker, their ids from `id` (the
/// legacy API shows them, v1 does not).
pub(crate) fn availabilities(
    item: &Item,
    mut id: impl FnMut(&Item) -> Result<i64, SyncError>,
) -> Result<Vec<Value>, SyncError> {
    let Some(Value::Array(_)) = item.value.get("availabilities") else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for a in item.list("availabilities")? {
        out.push(json!({"id": id(&a)?, "start": a.str("start")?, "end": a.str("end")?}));
    }
    Ok(out)
}

/// The event's lists, in the document's form.
#[derive(Default)]
pub(crate) struct Lists {
    pub types: Vec<Value>,
    pub tracks: Vec<Value>,
    pub rooms: Vec<Value>,
    pub tags: Vec<Value>,
    pub questions: Vec<Value>,
    pub speakers: Vec<Value>,
    pub submissions: Vec<Value>,
    pub answers: Vec<Value>,
    pub reviews: Vec<Value>,
}

/// The event document: the fields both APIs show alike, `extra` (v1's
/// locale and colour), the schedule, then the lists.
pub(crate) fn event(
    event: &Item,
    slug: String,
    is_public: bool,
    extra: Map<String, Value>,
    show_schedule: bool,
    schedule: Value,
    lists: Lists,
) -> Result<Map<String, Value>, SyncError> {
    let mut out = Map::new();
    out.insert("slug".into(), json!(slug));
    out.insert("name".into(), event.raw("name")?);
    out.insert("is_public".into(), json!(is_public));
    out.insert("date_from".into(), event.raw("date_from")?);
    out.insert("date_to".into(), event.raw("date_to")?);
    out.insert("timezone".into(), event.raw("timezone")?);
    out.extend(extra);
    out.insert("show_schedule".into(), json!(show_schedule));
    out.insert("schedule".into(), schedule);
    out.insert("submission_types".into(), Value::Array(lists.types));
    out.insert("tracks".into(), Value::Array(lists.tracks));
    out.insert("rooms".into(), Value::Array(lists.rooms));
    out.insert("tags".into(), Value::Array(lists.tags));
    out.insert("questions".into(), Value::Array(lists.questions));
    out.insert("speakers".into(), Value::Array(lists.speakers));
    out.insert("submissions".into(), Value::Array(lists.submissions));
    out.insert("answers".into(), Value::Array(lists.answers));
    out.insert("reviews".into(), Value::Array(lists.reviews));
    Ok(out)
}
