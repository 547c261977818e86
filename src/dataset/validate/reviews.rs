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
    o.finish(cx);
    Some(Review {
        id: id.unwrap_or_default(),
        submission: submission.unwrap_or_default().into(),
        user: user.unwrap_or_default().into(),
        text: text.into(),
        score,
        created,
        updated,
    })
}
