//! Reviews: one per reviewer and submission.

use super::*;

pub(super) fn review(
    cx: &mut Cx,
    scope: &mut Scope,
    pairs: &mut HashMap<(String, String), String>,
    path: &Path<'_>,
    v: &Value,
) -> Option<Review> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", |cx, p, v| cx.id(p, v, "review"));
    scope.reviews.extend(id);
    let submission = o.req(cx, "submission", |cx, p, v| scope.submission(cx, p, v));
    let user = o.req(cx, "user", |cx, p, v| cx.user_ref(p, v));
    if let (Some(user), Some(submission)) = (&user, &submission) {
        let key = (user.clone(), submission.clone());
        if let Some(first) = first_seen(pairs, key, path) {
            cx.err(
                path,
                format!(
                    "second review by {} of {} (also at {first})",
                    quote(user),
                    quote(submission)
                ),
            );
        }
    }
    let text = o.opt_str(cx, "text", "");
    let score = o.nullable(cx, "score", number);
    let created = o.req_datetime(cx, "created");
    let updated = o.nullable(cx, "updated", datetime).unwrap_or(created);
    let mut categories = HashMap::new();
    let scores = o.list(cx, "scores", |cx, p, v| {
        let score = review_score(cx, scope, p, v)?;
        if let Some(first) = first_seen(&mut categories, score.category, p) {
            cx.err(
                p.key("category"),
                format!(
                    "second score in category {} (also at {first})",
                    score.category
                ),
            );
        }
        Some(score)
    });
    o.finish(cx);
    Some(Review {
        id: id.unwrap_or_default(),
        submission: submission.unwrap_or_default().into(),
        user: user.unwrap_or_default().into(),
        text: text.into(),
        score,
        created,
        updated,
        scores: scores.into(),
    })
}

/// One score of a review. Its id is one of a category's values, so every
/// review that gives it must give the same category, value and label.
fn review_score(cx: &mut Cx, scope: &mut Scope, path: &Path<'_>, v: &Value) -> Option<ReviewScore> {
    let mut o = Obj::open(cx, path, v)?;
    let id = o.req(cx, "id", positive);
    let category = o.req(cx, "category", |cx, p, v| scope.score_category(cx, p, v));
    let value = o.req(cx, "value", decimal);
    let label = o.nullable(cx, "label", string);
    o.finish(cx);
    let score = ReviewScore {
        id: id?,
        category: category?,
        value: value?,
        label,
    };
    match scope.scores.get(&score.id) {
        Some(first) if first.score != score => cx.err(
            path,
            format!(
                "score {} differs from the one at {} (one id, one category, value and label)",
                score.id, first.path
            ),
        ),
        Some(_) => {}
        None => {
            let first = ScoreRef {
                score: score.clone(),
                path: path.to_string(),
            };
            scope.scores.insert(score.id, first);
        }
    }
    Some(score)
}
