//! Answers: exactly one owner, of the kind their question targets, with the question's options.

use super::*;

pub(super) fn answer(cx: &mut Cx, scope: &Scope, path: &Path<'_>, v: &Value) -> Option<Answer> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "answer"));
    let question = o.req(cx, "question", |cx, p, v| scope.question(cx, p, v));
    let text = o.opt_str(cx, "answer", "");
    let answer_file = o.opt_url(cx, "answer_file");

    // Exactly one owner, judged on what is set, valid or not.
    let owners: Vec<&str> = ["submission", "person", "review"]
        .into_iter()
        .filter(|k| o.is_set(k))
        .collect();
    if owners.len() != 1 {
        let got = if owners.is_empty() {
            "none".to_string()
        } else {
            owners.join(", ")
        };
        cx.err(
            path,
            format!("exactly one of submission, person, review must be set (got {got})"),
        );
    }
    let submission = o.nullable(cx, "submission", |cx, p, v| scope.submission(cx, p, v));
    let person = o.nullable(cx, "person", |cx, p, v| scope.speaker(cx, p, v, "user"));
    let review = o.nullable(cx, "review", |cx, p, v| scope.review(cx, p, v));
    if let (Some((id, q)), [owner]) = (question, owners.as_slice()) {
        let expected = q.target.map(|target| match target {
            QuestionTarget::Submission => "submission",
            QuestionTarget::Speaker => "person",
            QuestionTarget::Reviewer => "review",
        });
        if let (Some(target), Some(expected)) = (q.target, expected.filter(|e| e != owner)) {
            cx.err(
                o.at(owner),
                format!(
                    "question {id} has target {}, so the answer must set {}",
                    quote(target.as_str()),
                    quote(expected)
                ),
            );
        }
    }
    let options = o.list(cx, "options", |cx, p, v| {
        let option = integer(cx, p, v)?;
        if let Some((id, q)) = question {
            if !q.options.contains(&option) {
                cx.err(
                    p,
                    format!("option {option} is not an option of question {id}"),
                );
                return None;
            }
        }
        Some(option)
    });
    o.finish(cx);
    Some(Answer {
        id: id.unwrap_or_default(),
        question: question.map_or(0, |(id, _)| id),
        answer: text.into(),
        answer_file: answer_file.map(Into::into),
        submission: submission.map(Into::into),
        person: person.map(Into::into),
        review,
        options: options.into(),
    })
}
