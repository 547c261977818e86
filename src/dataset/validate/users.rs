//! Users: codes, e-mail addresses and tokens, unique across the document.

use super::*;
use crate::model::{ApiVersion, TokenHash};

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
    // A token is a string, or an object that also names its API version.
    let clear = o.list(cx, "tokens", |cx, path, v| {
        let (token, api_version) = token_entry(cx, path, v, "token")?;
        let token = token.filter(|t| !t.is_empty() && !t.chars().any(char::is_whitespace));
        let Some(token) = token else {
            cx.err(
                token_path(path, v, "token"),
                "token must be a non-empty string without whitespace",
            );
            return None;
        };
        let hash = hash_token(token);
        if let Some(first) = first_seen(tokens, hash.clone(), path) {
            cx.err(path, format!("duplicate token (also at {first})"));
        }
        Some(TokenHash { hash, api_version })
    });
    let hashed = o.list(cx, "token_hashes", |cx, path, v| {
        let (hash, api_version) = token_entry(cx, path, v, "hash")?;
        let hash = hash
            .and_then(|h| h.strip_prefix("sha256:"))
            .filter(|h| h.len() == 64 && h.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')));
        let Some(hash) = hash else {
            cx.err(
                token_path(path, v, "hash"),
                "must be sha256:<64 lower-case hex digits>",
            );
            return None;
        };
        if let Some(first) = first_seen(tokens, hash.to_string(), path) {
            cx.err(path, format!("duplicate token hash (also at {first})"));
        }
        Some(TokenHash {
            hash: hash.to_string(),
            api_version,
        })
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

/// A `tokens` or `token_hashes` entry: a string, or an object with the
/// string under `key` and an optional `api_version` (`legacy`, `v1`,
/// `v2` or `v-next`).
/// None when the object itself is malformed (already reported).
fn token_entry<'v>(
    cx: &mut Cx,
    path: &Path<'_>,
    v: &'v Value,
    key: &'static str,
) -> Option<(Option<&'v str>, Option<ApiVersion>)> {
    let Value::Object(map) = v else {
        return Some((v.as_str(), None));
    };
    let mut ok = true;
    for name in map.keys() {
        if name != key && name != "api_version" {
            cx.err(path.key(name).to_string(), "unknown field");
            ok = false;
        }
    }
    let api_version = match map.get("api_version") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) if ApiVersion::from_dataset_name(name).is_some() => {
            ApiVersion::from_dataset_name(name)
        }
        Some(other) => {
            cx.err(
                path.key("api_version").to_string(),
                format!("must be \"legacy\", \"v1\", \"v2\" or \"v-next\", got {other}"),
            );
            ok = false;
            None
        }
    };
    ok.then(|| (map.get(key).and_then(Value::as_str), api_version))
}

/// Where a token's text sits: the entry, or its `key` in an object entry.
fn token_path(path: &Path<'_>, v: &Value, key: &'static str) -> String {
    if v.is_object() {
        path.key(key).to_string()
    } else {
        path.to_string()
    }
}
