//! Users: codes, e-mail addresses and tokens, unique across the document.

use super::*;

#[derive(Default)]
pub(super) struct UserSeen {
    pub(super) codes: HashMap<String, String>,
    pub(super) emails: HashMap<String, String>,
    /// Token hash (hex) → path of the token or hash that gave it, across all
    /// users: clear tokens and hashes are compared as hashes.
    pub(super) tokens: HashMap<String, String>,
    /// Upstream user id → path.
    pub(super) ids: HashMap<i64, String>,
}

pub(super) fn user(cx: &mut Cx, seen: &mut UserSeen, path: &Path<'_>, v: &Value) -> Option<User> {
    let mut o = Obj::open(cx, path, v)?;
    let code = o.req(cx, "code", code);
    if let Some(code) = &code {
        if let Some(first) = first_seen(&mut seen.codes, code.clone(), path) {
            cx.err(
                o.at("code"),
                format!("duplicate user code {} (also at {first})", quote(code)),
            );
        }
        cx.users.insert(code.clone());
    }
    let name = o.req_str(cx, "name");
    let email = o.req(cx, "email", string);
    if let Some(email) = &email {
        if email.is_empty() {
            cx.err(o.at("email"), "must not be empty");
        } else if let Some(first) = first_seen(&mut seen.emails, email.to_lowercase(), path) {
            cx.err(
                o.at("email"),
                format!("duplicate e-mail {} (also at {first})", quote(email)),
            );
        }
    }
    let avatar = o.opt_url(cx, "avatar");
    let locale = o.opt_str(cx, "locale", "en");
    let timezone = o.opt(cx, "timezone", "UTC".to_string(), timezone);
    let is_administrator = o.opt_bool(cx, "is_administrator", false);
    let id = o.nullable(cx, "id", |cx, p, v| {
        upstream_id(cx, p, v, &mut seen.ids, "user id")
    });

    let tokens = &mut seen.tokens;
    let clear = o.list(cx, "tokens", |cx, path, v| {
        let token = v
            .as_str()
            .filter(|t| !t.is_empty() && !t.chars().any(char::is_whitespace));
        let Some(token) = token else {
            cx.err(path, "token must be a non-empty string without whitespace");
            return None;
        };
        let hash = hash_token(token);
        if let Some(first) = first_seen(tokens, hash.clone(), path) {
            cx.err(path, format!("duplicate token (also at {first})"));
        }
        Some(hash)
    });
    let hashed = o.list(cx, "token_hashes", |cx, path, v| {
        let hash = v
            .as_str()
            .and_then(|h| h.strip_prefix("sha256:"))
            .filter(|h| h.len() == 64 && h.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')));
        let Some(hash) = hash else {
            cx.err(path, "must be sha256:<64 lower-case hex digits>");
            return None;
        };
        if let Some(first) = first_seen(tokens, hash.to_string(), path) {
            cx.err(path, format!("duplicate token hash (also at {first})"));
        }
        Some(hash.to_string())
    });
    o.finish(cx);
    Some(User {
        code: code.unwrap_or_default().into(),
        name,
        email: email.unwrap_or_default(),
        avatar,
        locale: locale.into(),
        timezone: timezone.into(),
        is_administrator,
        token_hashes: clear.into_iter().chain(hashed).collect(),
        id,
    })
}
