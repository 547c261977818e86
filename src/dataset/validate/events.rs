//! An event and what it is made of: its settings, the lists every
//! reference is checked against (`Scope`), its schedules (the current
//! release, older ones, the work in progress), score categories, teams,
//! submission types, tracks, rooms and tags.

use super::*;
use crate::model::{share_each, FeedKind, Webhook};

/// What records of one event may refer to.
#[derive(Default)]
pub(super) struct Scope {
    /// `in event "democon"`, the tail of every "does not exist" message.
    pub(super) place: String,
    pub(super) submission_types: HashSet<i64>,
    pub(super) tracks: HashSet<i64>,
    pub(super) rooms: HashSet<i64>,
    pub(super) tags: HashSet<i64>,
    pub(super) questions: HashMap<i64, QuestionRef>,
    /// Question identifiers (pretalx 2026.1) → where first seen.
    pub(super) question_identifiers: HashMap<String, String>,
    /// User code → path of the profile.
    pub(super) profiles: HashMap<String, String>,
    /// The code each profile goes by (its own, else its user's) → its user.
    pub(super) speaker_codes: HashMap<String, String>,
    /// User code → the profile's own code, where it has one.
    pub(super) own_codes: HashMap<String, String>,
    pub(super) submissions: HashSet<String>,
    pub(super) reviews: HashSet<i64>,
    /// Upstream submission ids → path.
    pub(super) submission_ids: HashMap<i64, String>,
    /// Upstream slot and break ids (one id space, every schedule) → path.
    pub(super) slot_ids: HashMap<i64, String>,
    /// Upstream resource ids → path.
    pub(super) resource_ids: HashMap<i64, String>,
    pub(super) score_categories: HashSet<i64>,
    /// Review score id → what the first review that gave it said.
    pub(super) scores: HashMap<i64, ScoreRef>,
}

impl Scope {
    /// A reference to a speaker of this event (a submission's speaker, an
    /// answer's person): the code the profile goes by.
    pub(super) fn speaker(
        &self,
        cx: &mut Cx,
        path: &Path<'_>,
        value: &Value,
        what: &str,
    ) -> Option<String> {
        if let Value::String(code) = value {
            if self.speaker_codes.contains_key(code.as_ref()) {
                return Some(code.to_string());
            }
        }
        let user = cx.user_ref(path, value)?;
        if let Some(own) = self.own_codes.get(&user) {
            cx.err(
                path,
                format!(
                    "{what} {} goes by the speaker code {} {}",
                    quote(&user),
                    quote(own),
                    self.place
                ),
            );
        } else if !self.profiles.contains_key(&user) {
            cx.err(
                path,
                format!(
                    "{what} {} has no speaker profile {}",
                    quote(&user),
                    self.place
                ),
            );
        }
        Some(user)
    }
}

/// A review score as first seen: one id is one of a category's values, so
/// every review that gives the id gives the same category, value and label.
pub(super) struct ScoreRef {
    pub(super) score: ReviewScore,
    pub(super) path: String,
}

/// What an answer needs to know about its question.
pub(super) struct QuestionRef {
    /// `None` when the question's own target is invalid (already reported).
    pub(super) target: Option<QuestionTarget>,
    pub(super) options: HashSet<i64>,
}

impl Scope {
    /// A reference to an id of `kind` in this event.
    pub(super) fn id_ref(
        &self,
        cx: &mut Cx,
        path: &Path<'_>,
        value: &Value,
        kind: &str,
        known: &HashSet<i64>,
    ) -> Option<i64> {
        let id = integer(cx, path, value)?;
        if !known.contains(&id) {
            cx.err(path, format!("{kind} {id} does not exist {}", self.place));
            return None;
        }
        Some(id)
    }

    pub(super) fn track(&self, cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<i64> {
        self.id_ref(cx, path, value, "track", &self.tracks)
    }

    pub(super) fn submission_type(
        &self,
        cx: &mut Cx,
        path: &Path<'_>,
        value: &Value,
    ) -> Option<i64> {
        self.id_ref(cx, path, value, "submission type", &self.submission_types)
    }

    pub(super) fn room(&self, cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<i64> {
        self.id_ref(cx, path, value, "room", &self.rooms)
    }

    pub(super) fn tag(&self, cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<i64> {
        self.id_ref(cx, path, value, "tag", &self.tags)
    }

    pub(super) fn review(&self, cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<i64> {
        self.id_ref(cx, path, value, "review", &self.reviews)
    }

    pub(super) fn score_category(
        &self,
        cx: &mut Cx,
        path: &Path<'_>,
        value: &Value,
    ) -> Option<i64> {
        self.id_ref(cx, path, value, "score category", &self.score_categories)
    }

    pub(super) fn question<'s>(
        &'s self,
        cx: &mut Cx,
        path: &Path<'_>,
        value: &Value,
    ) -> Option<(i64, &'s QuestionRef)> {
        let id = integer(cx, path, value)?;
        let Some(question) = self.questions.get(&id) else {
            cx.err(path, format!("question {id} does not exist {}", self.place));
            return None;
        };
        Some((id, question))
    }

    pub(super) fn submission(&self, cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
        let Value::String(code) = value else {
            cx.err(
                path,
                format!("must be a submission code, got {}", describe(value)),
            );
            return None;
        };
        if !self.submissions.contains(code.as_ref()) {
            cx.err(
                path,
                format!("submission {} does not exist {}", quote(code), self.place),
            );
            return None;
        }
        Some(code.to_string())
    }
}

pub(super) fn event(
    cx: &mut Cx,
    slugs: &mut HashMap<String, String>,
    path: &Path<'_>,
    v: &Value,
) -> Option<Event> {
    let mut o = Obj::open(cx, path, v)?;
    let slug = o.req(cx, "slug", slug_value);
    if let Some(slug) = &slug {
        if let Some(first) = first_seen(slugs, slug.to_lowercase(), path) {
            cx.err(
                o.at("slug"),
                format!("duplicate slug {} (also at {first})", quote(slug)),
            );
        }
    }
    // Name the event in messages even when its slug is malformed.
    let place = match o.map.get("slug") {
        Some(Value::String(s)) => format!("in event {}", quote(s)),
        _ => format!("in {path}"),
    };
    let name = o.req_i18n(cx, "name");
    let is_public = o.opt_bool(cx, "is_public", false);
    let date_from = o.req(cx, "date_from", date);
    let date_to = o.nullable(cx, "date_to", date);
    if let (Some(from), Some(to)) = (date_from, date_to) {
        if to < from {
            cx.err(o.at("date_to"), "is before date_from");
        }
    }
    let timezone = o.opt(cx, "timezone", "UTC".to_string(), timezone);
    let locale = o.opt_str(cx, "locale", "en");
    let locales = o.opt(cx, "locales", Vec::new(), |cx, p, v| {
        languages(cx, p, v, &locale)
    });
    if !locales.is_empty() && !locales.contains(&locale) {
        cx.err(
            o.at("locales"),
            format!("must contain the event's locale {}", quote(&locale)),
        );
    }
    let content_locales = o.opt(cx, "content_locales", Vec::new(), |cx, p, v| {
        languages(cx, p, v, &locale)
    });
    let email = o.opt_str(cx, "email", "");
    let organiser = o.nullable(cx, "organiser", slug_value);
    let logo = o.opt_url(cx, "logo");
    let header_image = o.opt_url(cx, "header_image");
    let og_image = o.opt_url(cx, "og_image");
    let custom_domain = o.opt_url(cx, "custom_domain");
    let show_schedule = o.opt_bool(cx, "show_schedule", true);
    let primary_color = o.nullable(cx, "primary_color", |cx, p, v| match v {
        Value::String(s) if is_color(s) => Some(s.to_string()),
        other => {
            cx.err(
                p,
                format!("must be a colour #rrggbb or null, got {}", describe(other)),
            );
            None
        }
    });
    let has_schedule = o.is_set("schedule");
    // Breaks refer to rooms: they are read once the rooms are known.
    let mut breaks = None;
    // Schedule ids (current, older, work in progress) → path; versions too.
    let mut schedule_ids = HashMap::new();
    let mut versions = HashMap::new();
    let mut schedule = o.nullable(cx, "schedule", |cx, p, v| {
        let (schedule, raw) = schedule(cx, &mut schedule_ids, p, v)?;
        breaks = raw;
        Some(schedule)
    });
    if let Some(schedule) = &schedule {
        versions.insert(
            schedule.version.clone(),
            o.at("schedule").key("version").to_string(),
        );
    }
    let review_phase = o.nullable(cx, "review_phase", review_phase);

    let mut scope = Scope {
        place,
        ..Scope::default()
    };
    // Things that are referenced, in dependency order.
    let submission_types = o.list(cx, "submission_types", |cx, p, v| {
        submission_type(cx, &mut scope, p, v)
    });
    let tracks = o.list(cx, "tracks", |cx, p, v| track(cx, &mut scope, p, v));
    let score_categories = o.list(cx, "score_categories", |cx, p, v| {
        score_category(cx, &mut scope, p, v)
    });
    let rooms = o.list(cx, "rooms", |cx, p, v| room(cx, &mut scope, p, v));
    let mut tag_names = HashMap::new();
    let tags = o.list(cx, "tags", |cx, p, v| {
        tag(cx, &mut scope, &mut tag_names, p, v)
    });
    let mut team_ids = HashMap::new();
    let teams = o.list(cx, "teams", |cx, p, v| {
        team(cx, &scope, &mut team_ids, p, v)
    });
    let questions = o.list(cx, "questions", |cx, p, v| question(cx, &mut scope, p, v));
    let speakers = o.list(cx, "speakers", |cx, p, v| speaker(cx, &mut scope, p, v));
    let submissions = o.list(cx, "submissions", |cx, p, v| {
        submission(cx, &mut scope, has_schedule, p, v)
    });
    let mut pairs = HashMap::new();
    let reviews = o.list(cx, "reviews", |cx, p, v| {
        review(cx, &mut scope, &mut pairs, p, v)
    });
    let answers = o.list(cx, "answers", |cx, p, v| answer(cx, &scope, p, v));
    if let (Some(schedule), Some(raw)) = (&mut schedule, breaks) {
        let at = o.at("schedule");
        schedule.breaks = list_of(cx, &at.key("breaks"), raw, |cx, p, v| {
            schedule_break(cx, &mut scope, p, v)
        });
    }
    // The history refers to submissions and rooms.
    let older_given = o
        .map
        .get("older_schedules")
        .and_then(Value::as_array)
        .is_some_and(|s| !s.is_empty());
    if older_given && !has_schedule {
        let place = scope.place.trim_start_matches("in ");
        cx.err(
            o.at("older_schedules"),
            format!("{place} has no released schedule, so no older releases are allowed"),
        );
    }
    let older_schedules = o.list(cx, "older_schedules", |cx, p, v| {
        schedule_version(cx, &mut scope, (&mut schedule_ids, &mut versions), p, v)
    });
    let wip_schedule = o.nullable(cx, "wip_schedule", |cx, p, v| {
        wip_schedule(cx, &mut scope, &mut schedule_ids, p, v)
    });
    let webhooks = o.list(cx, "webhooks", webhook);
    o.finish(cx);

    Some(Event {
        slug: slug.unwrap_or_default(),
        name,
        is_public,
        date_from: date_from.unwrap_or_default(),
        date_to,
        timezone,
        locale,
        locales,
        content_locales,
        email,
        show_schedule,
        schedule,
        older_schedules,
        wip_schedule,
        review_phase,
        score_categories,
        teams,
        submission_types,
        tracks,
        rooms,
        tags,
        questions,
        speakers: share_each(speakers),
        submissions: share_each(submissions),
        answers: share_each(answers),
        reviews: share_each(reviews),
        primary_color,
        logo,
        header_image,
        og_image,
        custom_domain,
        organiser,
        webhooks,
    })
}

/// A webhook subscription (`model::Webhook`).
pub(super) fn webhook(cx: &mut Cx, path: &Path<'_>, v: &Value) -> Option<Webhook> {
    let mut o = Obj::open(cx, path, v)?;
    let url = o.req(cx, "url", |cx, p, v| {
        let url = super::url(cx, p, v)?;
        let lower = url.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            Some(url)
        } else {
            cx.err(p, format!("must be an http or https URL, got {url:?}"));
            None
        }
    });
    let secret = o.req(cx, "secret", |cx, p, v| {
        let secret = super::string(cx, p, v)?;
        match standardwebhooks::Webhook::new(&secret) {
            Ok(_) if !secret.trim_start_matches("whsec_").is_empty() => Some(secret),
            _ => {
                cx.err(
                    p,
                    "must be a Standard Webhooks secret: base64, optionally after whsec_",
                );
                None
            }
        }
    });
    let as_user = o.nullable(cx, "as", |cx, p, v| cx.user_ref(p, v));
    let kinds = o.list(cx, "kinds", |cx, p, v| {
        let name = super::string(cx, p, v)?;
        let kind = FeedKind::from_name(&name);
        if kind.is_none() {
            let names: Vec<&str> = FeedKind::ALL.iter().map(|k| k.as_str()).collect();
            cx.err(
                p,
                format!("must be one of {}, got {name:?}", names.join(", ")),
            );
        }
        kind
    });
    no_duplicates(cx, &o.at("kinds"), &kinds, "kind");
    o.finish(cx);
    Some(Webhook {
        url: url?,
        secret: secret?,
        as_user,
        kinds,
    })
}

/// `locales`, `content_locales`: language codes, at least one, none twice.
/// The default, `[locale]`, is kept as `[]`, which is not written back.
fn languages(cx: &mut Cx, path: &Path<'_>, value: &Value, locale: &str) -> Option<Vec<String>> {
    let codes = list_of(cx, path, value, language);
    if value.as_array().is_some_and(Vec::is_empty) {
        cx.err(path, "must not be empty (leave it out for the default)");
        return None;
    }
    no_duplicates(cx, path, &codes, "language");
    Some(if codes == [locale] { Vec::new() } else { codes })
}

fn is_color(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|c| c.is_ascii_hexdigit())
}

/// The schedule, and its `breaks` unread (they need the event's rooms).
pub(super) fn schedule<'v>(
    cx: &mut Cx,
    schedule_ids: &mut HashMap<i64, String>,
    path: &Path<'_>,
    v: &'v Value<'v>,
) -> Option<(Schedule, Option<&'v Value<'v>>)> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, schedule_ids, "schedule id")
    });
    let version = o.req(cx, "version", string);
    if version.as_deref() == Some("") {
        cx.err(o.at("version"), "must not be empty");
    }
    // Required and not null: a released schedule has a publication time.
    let published = o.req(cx, "published", datetime);
    let comment = o.i18n(cx, "comment");
    let breaks = o.opt(cx, "breaks", None, |_, _, v| Some(Some(v)));
    o.finish(cx);
    Some((
        Schedule {
            id,
            version: version.unwrap_or_default(),
            published,
            comment,
            breaks: Vec::new(),
        },
        breaks,
    ))
}

/// An earlier release: a version no other schedule of the event has.
pub(super) fn schedule_version(
    cx: &mut Cx,
    scope: &mut Scope,
    (schedule_ids, versions): (&mut HashMap<i64, String>, &mut HashMap<String, String>),
    path: &Path<'_>,
    v: &Value,
) -> Option<ScheduleVersion> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, schedule_ids, "schedule id")
    });
    let version = o.req(cx, "version", string);
    if let Some(version) = &version {
        if version.is_empty() {
            cx.err(o.at("version"), "must not be empty");
        } else if let Some(first) = first_seen(versions, version.clone(), &o.at("version")) {
            cx.err(
                o.at("version"),
                format!(
                    "duplicate schedule version {} (also at {first})",
                    quote(version)
                ),
            );
        }
    }
    let published = o.req_datetime(cx, "published");
    let comment = o.i18n(cx, "comment");
    let slots = o.list(cx, "slots", |cx, p, v| schedule_slot(cx, scope, p, v));
    o.finish(cx);
    Some(ScheduleVersion {
        id,
        version: version.unwrap_or_default(),
        published,
        comment,
        slots,
    })
}

pub(super) fn wip_schedule(
    cx: &mut Cx,
    scope: &mut Scope,
    schedule_ids: &mut HashMap<i64, String>,
    path: &Path<'_>,
    v: &Value,
) -> Option<WipSchedule> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, schedule_ids, "schedule id")
    });
    let comment = o.i18n(cx, "comment");
    let slots = o.list(cx, "slots", |cx, p, v| schedule_slot(cx, scope, p, v));
    o.finish(cx);
    Some(WipSchedule { id, comment, slots })
}

/// A slot of an older or the work-in-progress schedule: a submission's
/// slot, or a break when `submission` is null.
pub(super) fn schedule_slot(
    cx: &mut Cx,
    scope: &mut Scope,
    path: &Path<'_>,
    v: &Value,
) -> Option<ScheduleSlot> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, &mut scope.slot_ids, "slot id")
    });
    let submission = o.nullable(cx, "submission", |cx, p, v| scope.submission(cx, p, v));
    let room = o.nullable(cx, "room", |cx, p, v| scope.room(cx, p, v));
    let start = o.nullable(cx, "start", datetime);
    let end = o.nullable(cx, "end", datetime);
    if let (Some(start), Some(end)) = (start, end) {
        if end < start {
            cx.err(o.at("end"), "is before start");
        }
    }
    let is_visible = o.req(cx, "is_visible", boolean).unwrap_or_default();
    let description = o.i18n(cx, "description");
    o.finish(cx);
    Some(ScheduleSlot {
        id,
        submission: submission.map(Into::into),
        room,
        start,
        end,
        is_visible,
        description,
    })
}

/// A break: a visible slot without a submission.
pub(super) fn schedule_break(
    cx: &mut Cx,
    scope: &mut Scope,
    path: &Path<'_>,
    v: &Value,
) -> Option<Break> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, &mut scope.slot_ids, "slot id")
    });
    let room = o.nullable(cx, "room", |cx, p, v| scope.room(cx, p, v));
    let start = o.req(cx, "start", datetime);
    let end = o.req(cx, "end", datetime);
    if let (Some(start), Some(end)) = (start, end) {
        if end <= start {
            cx.err(o.at("end"), "must be after start");
        }
    }
    let description = o.i18n(cx, "description");
    o.finish(cx);
    Some(Break {
        id,
        room,
        start: start.unwrap_or_default(),
        end: end.unwrap_or_default(),
        description,
    })
}

pub(super) fn review_phase(cx: &mut Cx, path: &Path<'_>, v: &Value) -> Option<ReviewPhase> {
    let mut o = Obj::open(cx, path, v)?;
    let defaults = ReviewPhase::default();
    let phase = ReviewPhase {
        name: o.opt_str(cx, "name", &defaults.name),
        can_see_speaker_names: o.opt_bool(
            cx,
            "can_see_speaker_names",
            defaults.can_see_speaker_names,
        ),
        can_see_reviewer_names: o.opt_bool(
            cx,
            "can_see_reviewer_names",
            defaults.can_see_reviewer_names,
        ),
        can_see_other_reviews: o.opt(
            cx,
            "can_see_other_reviews",
            defaults.can_see_other_reviews,
            |cx, p, v| choice(cx, p, v, OtherReviews::ALL),
        ),
        proposal_visibility: o.opt(
            cx,
            "proposal_visibility",
            defaults.proposal_visibility,
            |cx, p, v| choice(cx, p, v, ProposalVisibility::ALL),
        ),
    };
    o.finish(cx);
    Some(phase)
}

pub(super) fn submission_type(
    cx: &mut Cx,
    scope: &mut Scope,
    path: &Path<'_>,
    v: &Value,
) -> Option<SubmissionType> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "submission type"));
    scope.submission_types.extend(id);
    let name = o.req_i18n(cx, "name");
    let default_duration = o.opt(cx, "default_duration", 30, non_negative);
    let deadline = o.nullable(cx, "deadline", datetime);
    let requires_access_code = o.opt_bool(cx, "requires_access_code", false);
    let attendee_signup_required = o.opt_bool(cx, "attendee_signup_required", false);
    o.finish(cx);
    Some(SubmissionType {
        id: id.unwrap_or_default(),
        name,
        default_duration,
        deadline,
        requires_access_code,
        attendee_signup_required,
    })
}

pub(super) fn track(cx: &mut Cx, scope: &mut Scope, path: &Path<'_>, v: &Value) -> Option<Track> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "track"));
    scope.tracks.extend(id);
    let name = o.req_i18n(cx, "name");
    let color = o.opt_str(cx, "color", "");
    let description = o.i18n(cx, "description");
    let position = o.nullable(cx, "position", integer);
    let requires_access_code = o.opt_bool(cx, "requires_access_code", false);
    let attendee_signup_required = o.opt_bool(cx, "attendee_signup_required", false);
    o.finish(cx);
    Some(Track {
        id: id.unwrap_or_default(),
        name,
        color,
        description,
        position,
        requires_access_code,
        attendee_signup_required,
    })
}

/// A score category; its track limits refer to the event's tracks.
pub(super) fn score_category(
    cx: &mut Cx,
    scope: &mut Scope,
    path: &Path<'_>,
    v: &Value,
) -> Option<ScoreCategory> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "score category"));
    scope.score_categories.extend(id);
    let name = o.req_i18n(cx, "name");
    let weight = o.opt(cx, "weight", Decimal("1.0".into()), decimal);
    let required = o.opt_bool(cx, "required", false);
    let active = o.opt_bool(cx, "active", true);
    let limit_tracks = o.list(cx, "limit_tracks", |cx, p, v| scope.track(cx, p, v));
    no_duplicates(cx, &o.at("limit_tracks"), &limit_tracks, "track");
    let is_independent = o.opt_bool(cx, "is_independent", false);
    o.finish(cx);
    Some(ScoreCategory {
        id: id.unwrap_or_default(),
        name,
        weight,
        required,
        active,
        limit_tracks,
        is_independent,
    })
}

pub(super) fn room(cx: &mut Cx, scope: &mut Scope, path: &Path<'_>, v: &Value) -> Option<Room> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "room"));
    scope.rooms.extend(id);
    let guid = o.nullable(cx, "guid", uuid);
    let room_uuid = o.nullable(cx, "uuid", uuid);
    let name = o.req_i18n(cx, "name");
    let description = o.i18n(cx, "description");
    let speaker_info = o.i18n(cx, "speaker_info");
    let capacity = o.nullable(cx, "capacity", non_negative);
    let position = o.nullable(cx, "position", integer);
    let availabilities = o.list(cx, "availabilities", availability);
    o.finish(cx);
    Some(Room {
        id: id.unwrap_or_default(),
        guid,
        uuid: room_uuid,
        name,
        description,
        speaker_info,
        capacity,
        position,
        availabilities,
    })
}

/// Room and speaker availabilities share one id sequence.
pub(super) fn availability(cx: &mut Cx, path: &Path<'_>, v: &Value) -> Option<Availability> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "availability"));
    let start = o.req(cx, "start", datetime);
    let end = o.req(cx, "end", datetime);
    if let (Some(start), Some(end)) = (start, end) {
        if end < start {
            cx.err(o.at("end"), "is before start");
        }
    }
    o.finish(cx);
    Some(Availability {
        id: id.unwrap_or_default(),
        start: start.unwrap_or_default(),
        end: end.unwrap_or_default(),
    })
}

pub(super) fn tag(
    cx: &mut Cx,
    scope: &mut Scope,
    names: &mut HashMap<String, String>,
    path: &Path<'_>,
    v: &Value,
) -> Option<Tag> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "tag"));
    scope.tags.extend(id);
    let name = o.req(cx, "tag", string);
    if let Some(name) = &name {
        if name.is_empty() || name.contains('/') {
            cx.err(o.at("tag"), "must be non-empty and must not contain '/'");
        }
        if let Some(first) = first_seen(names, name.to_lowercase(), path) {
            cx.err(
                o.at("tag"),
                format!(
                    "duplicate tag {} {} (also at {first})",
                    quote(name),
                    scope.place
                ),
            );
        }
    }
    let description = o.i18n(cx, "description");
    let color = o.opt_str(cx, "color", "");
    let is_public = o.opt_bool(cx, "is_public", false);
    o.finish(cx);
    Some(Tag {
        id: id.unwrap_or_default(),
        tag: name.unwrap_or_default(),
        description,
        color,
        is_public,
    })
}

/// An event or organiser slug.
fn slug_value(cx: &mut Cx, p: &Path<'_>, v: &Value) -> Option<String> {
    match v {
        Value::String(s) if is_slug(s) => Some(s.to_string()),
        other => {
            cx.err(p, format!("invalid slug {}", describe(other)));
            None
        }
    }
}

pub(super) fn team(
    cx: &mut Cx,
    scope: &Scope,
    ids: &mut HashMap<i64, String>,
    path: &Path<'_>,
    v: &Value,
) -> Option<Team> {
    let mut o = Obj::open(cx, path, v)?;
    let name = o.req_str(cx, "name");
    let members = o.list(cx, "members", |cx, p, v| cx.user_ref(p, v));
    no_duplicates(cx, &o.at("members"), &members, "member");
    let limit_events = o.list(cx, "limit_events", slug_value);
    no_duplicates(cx, &o.at("limit_events"), &limit_events, "event");
    let team = Team {
        name,
        members,
        can_change_submissions: o.opt_bool(cx, "can_change_submissions", false),
        is_reviewer: o.opt_bool(cx, "is_reviewer", false),
        force_hide_speaker_names: o.opt_bool(cx, "force_hide_speaker_names", false),
        limit_tracks: o.list(cx, "limit_tracks", |cx, p, v| scope.track(cx, p, v)),
        id: o.nullable(cx, "id", |cx, p, v| upstream_id(cx, p, v, ids, "team id")),
        all_events: o.opt_bool(cx, "all_events", false),
        limit_events,
        can_create_events: o.opt_bool(cx, "can_create_events", false),
        can_change_teams: o.opt_bool(cx, "can_change_teams", false),
        can_change_organiser_settings: o.opt_bool(cx, "can_change_organiser_settings", false),
        can_change_event_settings: o.opt_bool(cx, "can_change_event_settings", false),
    };
    o.finish(cx);
    Some(team)
}
