//! Submissions and their slots.

use super::*;

pub(super) fn submission(
    cx: &mut Cx,
    scope: &mut Scope,
    has_schedule: bool,
    path: &Path<'_>,
    v: &Value,
) -> Option<Submission> {
    let mut o = Obj::open(cx, path, v)?;
    let code = o.req(cx, "code", code);
    if let Some(code) = &code {
        if let Some(first) = first_seen(&mut cx.submission_codes, code.clone(), path) {
            cx.err(
                o.at("code"),
                format!(
                    "duplicate submission code {} (also at {first})",
                    quote(code)
                ),
            );
        }
        scope.submissions.insert(code.clone());
    }
    let title = o.req_str(cx, "title");
    let speakers = o.list(cx, "speakers", |cx, p, v| {
        scope.speaker(cx, p, v, "speaker").map(Into::into)
    });
    no_duplicates(cx, &o.at("speakers"), &speakers, "speaker");
    let submission_type = o.req(cx, "submission_type", |cx, p, v| {
        scope.submission_type(cx, p, v)
    });
    let track = o.nullable(cx, "track", |cx, p, v| scope.track(cx, p, v));
    let state = o.one_of(
        cx,
        "state",
        SubmissionState::ALL,
        SubmissionState::Submitted,
    );
    let pending_state = o.nullable(cx, "pending_state", |cx, p, v| {
        choice(cx, p, v, SubmissionState::ALL)
    });
    let abstract_ = o.opt_str(cx, "abstract", "");
    let description = o.opt_str(cx, "description", "");
    let notes = o.opt_str(cx, "notes", "");
    let internal_notes = o.opt_str(cx, "internal_notes", "");
    let duration = o.nullable(cx, "duration", non_negative);
    let slot_count = o.opt(cx, "slot_count", 1, |cx, p, v| {
        let n = integer(cx, p, v)?;
        if n < 1 {
            cx.err(p, "must be at least 1");
        }
        Some(n)
    });
    let do_not_record = o.opt_bool(cx, "do_not_record", false);
    let is_featured = o.opt_bool(cx, "is_featured", false);
    let content_locale = o.opt_str(cx, "content_locale", "en");
    let image = o.opt_url(cx, "image");
    let created = o.req_datetime(cx, "created");
    let tags = o.list(cx, "tags", |cx, p, v| scope.tag(cx, p, v));
    no_duplicates(cx, &o.at("tags"), &tags, "tag");
    let resources = o.list(cx, "resources", |cx, p, v| {
        let mut o = Obj::open(cx, p, v)?;
        let id = o.nullable(cx, "id", |cx, p, v| {
            upstream_id(cx, p, v, &mut scope.resource_ids, "resource id")
        });
        let resource = o.req(cx, "resource", url).unwrap_or_default();
        let description = o.opt_str(cx, "description", "");
        let is_public = o.opt_bool(cx, "is_public", true);
        o.finish(cx);
        Some(Resource {
            id,
            resource,
            description,
            is_public,
        })
    });
    let anonymised = o.nullable(cx, "anonymised", |cx, p, v| {
        let mut o = Obj::open(cx, p, v)?;
        let texts = Anonymised {
            title: o.opt_str(cx, "title", ""),
            abstract_: o.opt_str(cx, "abstract", ""),
            description: o.opt_str(cx, "description", ""),
        };
        o.finish(cx);
        Some(texts)
    });
    let assigned_reviewers = o.list(cx, "assigned_reviewers", |cx, p, v| cx.user_ref(p, v));
    let slots_given = o
        .map
        .get("slots")
        .and_then(Value::as_array)
        .is_some_and(|s| !s.is_empty());
    if slots_given && !has_schedule {
        let place = scope.place.trim_start_matches("in ");
        cx.err(
            o.at("slots"),
            format!("{place} has no released schedule, so no slots are allowed"),
        );
    }
    let slots = o.list(cx, "slots", |cx, p, v| slot(cx, scope, p, v));
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, &mut scope.submission_ids, "submission id")
    });
    // Organiser-only codes; null when there is none.
    let invitation_token = o.nullable(cx, "invitation_token", secret);
    let review_code = o.nullable(cx, "review_code", secret);
    let access_code = o.nullable(cx, "access_code", positive);
    let updated = o.nullable(cx, "updated", datetime);
    let mut invitation_ids = HashMap::new();
    let invitations = o.list(cx, "invitations", |cx, p, v| {
        invitation(cx, &mut invitation_ids, p, v)
    });
    let attendee_signup = o.nullable(cx, "attendee_signup", attendee_signup);
    o.finish(cx);
    Some(Submission {
        code: code.unwrap_or_default().into(),
        title,
        speakers,
        submission_type: submission_type.unwrap_or_default(),
        track,
        state,
        pending_state,
        abstract_,
        description,
        notes,
        internal_notes,
        duration,
        slot_count,
        do_not_record,
        is_featured,
        content_locale: content_locale.into(),
        image,
        created,
        tags,
        resources,
        anonymised: anonymised.map(Box::new),
        assigned_reviewers,
        slots,
        id,
        invitation_token: invitation_token.map(Into::into),
        review_code: review_code.map(Into::into),
        access_code,
        updated,
        invitations,
        attendee_signup: attendee_signup.map(Box::new),
    })
}

/// An open co-speaker invitation: an id unique in the submission, an email.
fn invitation(
    cx: &mut Cx,
    ids: &mut HashMap<i64, String>,
    path: &Path<'_>,
    v: &Value,
) -> Option<Invitation> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, ids, "invitation id")
    });
    let email = o.req(cx, "email", string);
    let created = o.nullable(cx, "created", datetime);
    let updated = o.nullable(cx, "updated", datetime);
    o.finish(cx);
    Some(Invitation {
        id: id?,
        email: email?,
        created,
        updated,
    })
}

/// pretalx 2026.2's attendee sign-up: `required` (null: the track's and
/// type's setting), `capacity` (null: the room's), `status` as pretalx
/// computed it (`open`, `full` or null).
fn attendee_signup(cx: &mut Cx, path: &Path<'_>, v: &Value) -> Option<AttendeeSignup> {
    let mut o = Obj::open(cx, path, v)?;
    let required = o.nullable(cx, "required", boolean);
    let capacity = o.nullable(cx, "capacity", positive);
    let status = o.nullable(cx, "status", |cx, p, v| {
        match v
            .as_str()
            .and_then(|s| SignupStatus::ALL.into_iter().find(|x| x.name() == s))
        {
            Some(status) => Some(status),
            None => {
                cx.err(p, format!("must be \"open\", \"full\" or null, got {v}"));
                None
            }
        }
    });
    o.finish(cx);
    Some(AttendeeSignup {
        required,
        capacity,
        status,
    })
}

/// A token or code: a non-empty string without whitespace.
fn secret(cx: &mut Cx, path: &Path<'_>, value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.is_empty() && !s.chars().any(char::is_whitespace) => {
            Some(s.to_string())
        }
        other => {
            cx.err(
                path,
                format!(
                    "must be a non-empty string without whitespace, or null, got {}",
                    describe(other)
                ),
            );
            None
        }
    }
}

pub(super) fn slot(cx: &mut Cx, scope: &mut Scope, path: &Path<'_>, v: &Value) -> Option<Slot> {
    let mut o = Obj::open(cx, path, v)?;
    let room = o.nullable(cx, "room", |cx, p, v| scope.room(cx, p, v));
    let start = o.nullable(cx, "start", datetime);
    let end = o.nullable(cx, "end", datetime);
    if let (Some(start), Some(end)) = (start, end) {
        if end < start {
            cx.err(o.at("end"), "is before start");
        }
    }
    let is_visible = o.req(cx, "is_visible", boolean).unwrap_or_default();
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, &mut scope.slot_ids, "slot id")
    });
    let guid = o.nullable(cx, "guid", uuid);
    o.finish(cx);
    Some(Slot {
        room,
        start,
        end,
        is_visible,
        id,
        guid,
    })
}
