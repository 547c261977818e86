//! Speaker profiles: one per user and event.

use super::*;

pub(super) fn speaker(
    cx: &mut Cx,
    scope: &mut Scope,
    path: &Path<'_>,
    v: &Value,
) -> Option<SpeakerProfile> {
    let mut o = Obj::open(cx, path, v)?;
    let user = o.req(cx, "user", |cx, p, v| cx.user_ref(p, v));
    if let Some(user) = &user {
        if let Some(first) = first_seen(&mut scope.profiles, user.clone(), path) {
            cx.err(
                o.at("user"),
                format!(
                    "second profile for user {} {} (also at {first})",
                    quote(user),
                    scope.place
                ),
            );
        }
    }
    let biography = o.opt_str(cx, "biography", "");
    let availabilities = o.list(cx, "availabilities", availability);
    let has_arrived = o.opt_bool(cx, "has_arrived", false);
    let internal_notes = o.opt_str(cx, "internal_notes", "");
    o.finish(cx);
    Some(SpeakerProfile {
        user: user.unwrap_or_default().into(),
        biography,
        availabilities,
        has_arrived,
        internal_notes,
    })
}
