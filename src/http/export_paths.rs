//! The paths of the schedule exports (routed by `exports`), below the
//! transport layer, which keys their cached answers by their event.

use axum::http::Uri;

use crate::exports::Export;

/// The export paths, under `/{event}`.
pub const WHOLE: &[(&str, Export)] = &[
    ("schedule/export/schedule.xml", Export::FrabXml),
    ("schedule.xml", Export::FrabXml),
    ("schedule/export/schedule.json", Export::FrabJson),
    ("schedule.json", Export::FrabJson),
    ("schedule/export/schedule.xcal", Export::Xcal),
    ("schedule.xcal", Export::Xcal),
    ("schedule/export/schedule.ics", Export::Ical),
    ("schedule.ics", Export::Ical),
    ("schedule/widgets/schedule.json", Export::Widget),
    ("schedule/widget/v2.json", Export::Widget),
    ("schedule/feed.xml", Export::Feed),
];

/// The `{event}` of an export path, for the response cache; None for
/// every other path.
pub fn event_slug(uri: &Uri) -> Option<std::borrow::Cow<'_, str>> {
    let path = uri.path().strip_prefix('/')?;
    let (slug, rest) = path.split_once('/')?;
    if slug.is_empty() || slug.eq_ignore_ascii_case("api") {
        return None;
    }
    let mut segments = rest.split('/');
    let export = WHOLE.iter().any(|(p, _)| *p == rest)
        || match (
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
        ) {
            (Some("talk"), Some(file), None, _) => file.len() > 4 && file.ends_with(".ics"),
            (Some("speaker"), Some(code), Some("talks.ics"), None) => !code.is_empty(),
            _ => false,
        };
    export.then(|| percent_encoding::percent_decode_str(slug).decode_utf8_lossy())
}
