//! Speaker profiles: one per user and event, each known by its user's
//! code or (pretalx 2026) a code of its own in that event.

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
    // pretalx 2026's per-event code: the user's own is no code of its own.
    let own = o
        .nullable(cx, "code", code)
        .filter(|own| user.as_ref() != Some(own));
    // A code another person holds is reported once, here, and names no one.
    let mut taken = false;
    if let (Some(user), Some(own)) = (&user, &own) {
        let at = o.at("code");
        if cx.users.contains(own) {
            taken = true;
            cx.err(
                at,
                format!("speaker code {} is another user's code", quote(own)),
            );
        } else if let Some(other) = cx.profile_codes.get(own).filter(|other| *other != user) {
            taken = true;
            cx.err(
                at,
                format!(
                    "speaker code {} is user {}'s in another event",
                    quote(own),
                    quote(other)
                ),
            );
        } else {
            cx.profile_codes.insert(own.clone(), user.clone());
        }
        scope.own_codes.insert(user.clone(), own.clone());
    }
    if let Some(user) = user.as_ref().filter(|_| !taken) {
        let goes_by = own.clone().unwrap_or_else(|| user.clone());
        if let Some(first) = scope
            .speaker_codes
            .get(&goes_by)
            .filter(|first| *first != user)
        {
            cx.err(
                o.at(if own.is_some() { "code" } else { "user" }),
                format!(
                    "speaker code {} is user {}'s {}",
                    quote(&goes_by),
                    quote(first),
                    scope.place
                ),
            );
        } else {
            scope.speaker_codes.insert(goes_by, user.clone());
        }
    }
    let biography = o.opt_str(cx, "biography", "");
    let availabilities = o.list(cx, "availabilities", availability);
    let has_arrived = o.opt_bool(cx, "has_arrived", false);
    let internal_notes = o.opt_str(cx, "internal_notes", "");
    o.finish(cx);
    Some(SpeakerProfile {
        user: user.unwrap_or_default().into(),
        code: own.map(Into::into),
        biography,
        availabilities,
        has_arrived,
        internal_notes,
    })
}
