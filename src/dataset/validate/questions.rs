//! Questions: variants, targets and options, which answers are checked against.

use super::*;

pub(super) fn question(
    cx: &mut Cx,
    scope: &mut Scope,
    path: &Path<'_>,
    v: &Value,
) -> Option<Question> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "question"));
    let variant = o.one_of(cx, "variant", QuestionVariant::ALL, QuestionVariant::String);
    let target_ok = o
        .map
        .get("target")
        .is_none_or(|t| t.as_str().and_then(QuestionTarget::from_name).is_some());
    let target = o.one_of(
        cx,
        "target",
        QuestionTarget::ALL,
        QuestionTarget::Submission,
    );
    let question = o.req_i18n(cx, "question");
    let help_text = o.i18n(cx, "help_text");
    let question_required = o.one_of(
        cx,
        "question_required",
        QuestionRequired::ALL,
        QuestionRequired::Optional,
    );
    let deadline = o.nullable(cx, "deadline", datetime);
    let freeze_after = o.nullable(cx, "freeze_after", datetime);
    let mut index = 0;
    let mut option_identifiers = HashMap::new();
    let options = o.list(cx, "options", |cx, p, v| {
        // The default position is the option's index, kept as none.
        let at = index as i64;
        index += 1;
        let mut o = Obj::open(cx, p, v)?;
        let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "option"));
        let answer = o.req_i18n(cx, "answer");
        let position = o.nullable(cx, "position", integer).filter(|p| *p != at);
        let identifier = o.nullable(cx, "identifier", |cx, p, v| {
            unique_identifier(cx, p, v, &mut option_identifiers, "of the question")
        });
        o.finish(cx);
        Some((
            id,
            QuestionOption {
                id: id.unwrap_or_default(),
                answer,
                position,
                identifier,
            },
        ))
    });
    let default_answer = o.nullable(cx, "default_answer", string);
    let min_length = o.nullable(cx, "min_length", non_negative);
    let max_length = o.nullable(cx, "max_length", non_negative);
    let min_number = o.nullable(cx, "min_number", decimal);
    let max_number = o.nullable(cx, "max_number", decimal);
    if let (Some(min), Some(max)) = (&min_number, &max_number) {
        if max.to_f64() < min.to_f64() {
            cx.err(o.at("max_number"), "is less than min_number");
        }
    }
    let min_date = o.nullable(cx, "min_date", date);
    let max_date = o.nullable(cx, "max_date", date);
    if let (Some(min), Some(max)) = (min_date, max_date) {
        if max < min {
            cx.err(o.at("max_date"), "is before min_date");
        }
    }
    let min_datetime = o.nullable(cx, "min_datetime", datetime);
    let max_datetime = o.nullable(cx, "max_datetime", datetime);
    if let (Some(min), Some(max)) = (min_datetime, max_datetime) {
        if max < min {
            cx.err(o.at("max_datetime"), "is before min_datetime");
        }
    }
    let icon = o.opt_url(cx, "icon");
    let identifier = o.nullable(cx, "identifier", |cx, p, v| {
        unique_identifier(cx, p, v, &mut scope.question_identifiers, "in the event")
    });
    let contains_personal_data = o.opt_bool(cx, "contains_personal_data", true);
    let is_public = o.opt_bool(cx, "is_public", false);
    let is_visible_to_reviewers = o.opt_bool(cx, "is_visible_to_reviewers", true);
    let active = o.opt_bool(cx, "active", true);
    let position = o.opt(cx, "position", 0, integer);
    let tracks = o.list(cx, "tracks", |cx, p, v| scope.track(cx, p, v));
    let submission_types = o.list(cx, "submission_types", |cx, p, v| {
        scope.submission_type(cx, p, v)
    });
    o.finish(cx);

    // Answers check their owner against the target, and their options.
    if let Some(id) = id {
        let reference = QuestionRef {
            target: target_ok.then_some(target),
            options: options.iter().filter_map(|(id, _)| *id).collect(),
        };
        scope.questions.insert(id, reference);
    }
    Some(Question {
        id: id.unwrap_or_default(),
        variant,
        target,
        question,
        help_text,
        question_required,
        deadline,
        freeze_after,
        options: options.into_iter().map(|(_, option)| option).collect(),
        default_answer,
        contains_personal_data,
        min_length,
        max_length,
        min_number,
        max_number,
        min_date,
        max_date,
        min_datetime,
        max_datetime,
        icon,
        identifier,
        is_public,
        is_visible_to_reviewers,
        active,
        position,
        tracks,
        submission_types,
    })
}

/// A question's or option's `identifier` (pretalx 2026.1): letters, digits,
/// dots, dashes and underscores, at most 190, unique where `place` says.
fn unique_identifier(
    cx: &mut Cx,
    path: &Path<'_>,
    value: &Value,
    seen: &mut HashMap<String, String>,
    place: &str,
) -> Option<String> {
    let text = string(cx, path, value)?;
    let valid = !text.is_empty()
        && text.len() <= 190
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    if !valid {
        cx.err(
            path,
            format!(
                "must be 1 to 190 letters, digits, dots, dashes and underscores, got {}",
                quote(&text)
            ),
        );
        return None;
    }
    if let Some(first) = first_seen(seen, text.clone(), path) {
        cx.err(
            path,
            format!(
                "duplicate identifier {} {place} (also at {first})",
                quote(&text)
            ),
        );
    }
    Some(text)
}
