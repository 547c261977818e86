//! Model → dataset document (`shared/spec/dataset.md`). Every field is
//! written, defaults included, so an exported file documents itself; tokens
//! are written as `token_hashes` because clear tokens are never stored.

use serde_json::{json, Map, Value};

use crate::model::*;

pub fn to_json(dataset: &Dataset) -> Value {
    json!({
        "format": "cfp-dataset",
        "version": 1,
        "users": dataset.users.iter().map(user).collect::<Vec<_>>(),
        "events": dataset.events.iter().map(event).collect::<Vec<_>>(),
    })
}

/// RFC 3339 in UTC with `Z`, microseconds only when non-zero.
pub fn timestamp(value: &Timestamp) -> String {
    crate::domain::time::format_in(value, &chrono_tz::UTC)
}

fn opt_timestamp(value: &Option<Timestamp>) -> Value {
    value
        .as_ref()
        .map_or(Value::Null, |v| Value::String(timestamp(v)))
}

fn user(u: &User) -> Value {
    json!({
        "code": u.code,
        "name": u.name,
        "email": u.email,
        "avatar": u.avatar,
        "locale": u.locale,
        "timezone": u.timezone,
        "is_administrator": u.is_administrator,
        "token_hashes": u.token_hashes.iter().map(|h| format!("sha256:{h}")).collect::<Vec<_>>(),
    })
}

fn availability(a: &Availability) -> Value {
    json!({"id": a.id, "start": timestamp(&a.start), "end": timestamp(&a.end)})
}

fn event(e: &Event) -> Value {
    let mut out = Map::new();
    out.insert("slug".into(), json!(e.slug));
    out.insert("name".into(), e.name.to_json());
    out.insert("is_public".into(), json!(e.is_public));
    out.insert("date_from".into(), json!(e.date_from.to_string()));
    out.insert("date_to".into(), json!(e.date_to.map(|d| d.to_string())));
    out.insert("timezone".into(), json!(e.timezone));
    out.insert("locale".into(), json!(e.locale));
    out.insert("show_schedule".into(), json!(e.show_schedule));
    out.insert(
        "schedule".into(),
        e.schedule.as_ref().map_or(
            Value::Null,
            |s| json!({"version": s.version, "published": opt_timestamp(&s.published)}),
        ),
    );
    out.insert(
        "review_phase".into(),
        e.review_phase.as_ref().map_or(Value::Null, review_phase),
    );
    out.insert("teams".into(), e.teams.iter().map(team).collect());
    out.insert(
        "submission_types".into(),
        e.submission_types
            .iter()
            .map(|t| json!({"id": t.id, "name": t.name.to_json(), "default_duration": t.default_duration}))
            .collect(),
    );
    out.insert(
        "tracks".into(),
        e.tracks
            .iter()
            .map(|t| json!({"id": t.id, "name": t.name.to_json(), "color": t.color}))
            .collect(),
    );
    out.insert("rooms".into(), e.rooms.iter().map(room).collect());
    out.insert(
        "tags".into(),
        e.tags
            .iter()
            .map(|t| {
                json!({"id": t.id, "tag": t.tag, "description": t.description.to_json(),
                       "color": t.color, "is_public": t.is_public})
            })
            .collect(),
    );
    out.insert(
        "questions".into(),
        e.questions.iter().map(question).collect(),
    );
    out.insert(
        "speakers".into(),
        e.speakers
            .iter()
            .map(|p| {
                json!({"user": p.user, "biography": p.biography,
                       "availabilities": p.availabilities.iter().map(availability).collect::<Vec<_>>()})
            })
            .collect(),
    );
    out.insert(
        "submissions".into(),
        e.submissions.iter().map(submission).collect(),
    );
    out.insert("answers".into(), e.answers.iter().map(answer).collect());
    out.insert("reviews".into(), e.reviews.iter().map(review).collect());
    Value::Object(out)
}

fn review_phase(p: &ReviewPhase) -> Value {
    let other = OtherReviews::ALL
        .iter()
        .find(|(_, v)| *v == p.can_see_other_reviews)
        .map(|(name, _)| *name);
    let visibility = ProposalVisibility::ALL
        .iter()
        .find(|(_, v)| *v == p.proposal_visibility)
        .map(|(name, _)| *name);
    json!({
        "name": p.name,
        "can_see_speaker_names": p.can_see_speaker_names,
        "can_see_reviewer_names": p.can_see_reviewer_names,
        "can_see_other_reviews": other,
        "proposal_visibility": visibility,
    })
}

fn team(t: &Team) -> Value {
    json!({
        "name": t.name,
        "members": t.members,
        "can_change_submissions": t.can_change_submissions,
        "is_reviewer": t.is_reviewer,
        "force_hide_speaker_names": t.force_hide_speaker_names,
        "limit_tracks": t.limit_tracks,
    })
}

fn room(r: &Room) -> Value {
    json!({
        "id": r.id,
        "guid": r.guid,
        "name": r.name.to_json(),
        "description": r.description.to_json(),
        "speaker_info": r.speaker_info.to_json(),
        "capacity": r.capacity,
        "position": r.position,
        "availabilities": r.availabilities.iter().map(availability).collect::<Vec<_>>(),
    })
}

fn question(q: &Question) -> Value {
    json!({
        "id": q.id,
        "variant": q.variant,
        "target": q.target,
        "question": q.question.to_json(),
        "help_text": q.help_text.to_json(),
        "question_required": q.question_required,
        "deadline": opt_timestamp(&q.deadline),
        "freeze_after": opt_timestamp(&q.freeze_after),
        "options": q.options.iter().map(|o| json!({"id": o.id, "answer": o.answer.to_json()})).collect::<Vec<_>>(),
        "default_answer": q.default_answer,
        "contains_personal_data": q.contains_personal_data,
        "min_length": q.min_length,
        "max_length": q.max_length,
        "is_public": q.is_public,
        "is_visible_to_reviewers": q.is_visible_to_reviewers,
        "active": q.active,
        "position": q.position,
        "tracks": q.tracks,
        "submission_types": q.submission_types,
    })
}

fn submission(s: &Submission) -> Value {
    json!({
        "code": s.code,
        "title": s.title,
        "speakers": s.speakers,
        "submission_type": s.submission_type,
        "track": s.track,
        "state": s.state,
        "pending_state": s.pending_state,
        "abstract": s.abstract_,
        "description": s.description,
        "notes": s.notes,
        "internal_notes": s.internal_notes,
        "duration": s.duration,
        "slot_count": s.slot_count,
        "do_not_record": s.do_not_record,
        "is_featured": s.is_featured,
        "content_locale": s.content_locale,
        "image": s.image,
        "created": timestamp(&s.created),
        "tags": s.tags,
        "resources": s.resources.iter().map(|r| json!({"resource": r.resource, "description": r.description})).collect::<Vec<_>>(),
        "anonymised": s.anonymised.as_ref().map(|a| json!({"title": a.title, "abstract": a.abstract_, "description": a.description})),
        "assigned_reviewers": s.assigned_reviewers,
        "slots": s.slots.iter().map(|sl| json!({
            "room": sl.room,
            "start": opt_timestamp(&sl.start),
            "end": opt_timestamp(&sl.end),
            "is_visible": sl.is_visible,
        })).collect::<Vec<_>>(),
    })
}

fn answer(a: &Answer) -> Value {
    json!({
        "id": a.id,
        "question": a.question,
        "answer": a.answer,
        "answer_file": a.answer_file,
        "submission": a.submission,
        "person": a.person,
        "review": a.review,
        "options": a.options,
    })
}

fn review(r: &Review) -> Value {
    json!({
        "id": r.id,
        "submission": r.submission,
        "user": r.user,
        "text": r.text,
        "score": r.score,
        "created": timestamp(&r.created),
        "updated": timestamp(&r.updated),
    })
}
