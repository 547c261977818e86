//! The schedule exports at pretalx's paths, beside the API (exports.md
//! "Paths and callers"). Handlers decide visibility with `domain::access`
//! and render with `exports`; the transport layer caches the bytes per data
//! version and export class, compresses them once, and answers `ETag`,
//! `If-None-Match`, `If-Modified-Since` and `HEAD`.

use axum::extract::Path;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::context::Caller;
use super::endpoint::ApiResult;
use super::error::ApiError;
use super::export_paths::WHOLE;
use super::state::AppState;
use crate::domain::access::{Access, Role};
use crate::domain::catalog::EventData;
use crate::exports::text::{http_date, safe_filename};
use crate::exports::{calendar, Export, ExportSchedule};

pub fn routes() -> Router<AppState> {
    let mut router = Router::new();
    for &(path, export) in WHOLE {
        router = router.route(
            &format!("/{{event}}/{path}"),
            get(
                move |caller: Caller, Path(event): Path<String>| async move {
                    whole(&caller, &event, export)
                },
            ),
        );
    }
    router
        .route("/{event}/talk/{file}", get(talk))
        .route("/{event}/speaker/{code}/talks.ics", get(speaker))
}

/// The event and the caller's rights in it; unknown events are 404 (not
/// the API's 403: these are pages, not API resources).
fn event_of<'c>(caller: &'c Caller, slug: &str) -> Result<&'c EventData, ApiError> {
    if slug.eq_ignore_ascii_case("api") {
        return Err(ApiError::NotFound);
    }
    caller
        .catalog
        .event(slug)
        .map(|e| e.as_ref())
        .ok_or(ApiError::NotFound)
}

fn whole(caller: &Caller, slug: &str, export: Export) -> ApiResult {
    let data = event_of(caller, slug)?;
    let access = Access::new(data, caller.user(), caller.now);
    if !access.sees_schedule_exports() {
        return Err(ApiError::NotFound);
    }
    let users = &caller.catalog.users;
    let schedule = match export {
        // The feed shows the release, not its slots.
        Export::Feed => ExportSchedule::of(data, users, &caller.base_url, |_| false),
        _ => ExportSchedule::new(data, users, &caller.base_url),
    }
    .for_viewer(access.role);
    let body = export.render(&schedule);
    let mut response = answer(&access, export.media_type(), body);
    let headers = response.headers_mut();
    match export {
        Export::Ical => {
            let name = format!(
                "attachment; filename=\"{}.ics\"",
                safe_filename(&data.event.slug)
            );
            set(headers, header::CONTENT_DISPOSITION, &name);
        }
        Export::Feed => {
            if let Some(published) = schedule.published {
                set(headers, header::LAST_MODIFIED, &http_date(&published));
            }
        }
        _ => {}
    }
    Ok(response)
}

async fn talk(caller: Caller, Path((slug, file)): Path<(String, String)>) -> ApiResult {
    let code = file.strip_suffix(".ics").ok_or(ApiError::NotFound)?;
    let data = event_of(&caller, &slug)?;
    let sub = data
        .event
        .submissions
        .iter()
        .find(|s| s.code.eq_ignore_ascii_case(code))
        .ok_or(ApiError::NotFound)?;
    let access = Access::new(data, caller.user(), caller.now);
    let schedule = ExportSchedule::of(data, &caller.catalog.users, &caller.base_url, |s| {
        s.code == sub.code
    });
    let has_slot = !schedule.talks.is_empty();
    if !access.sees_calendar_of(has_slot) {
        return Err(ApiError::NotFound);
    }
    let body = calendar::talk_ical(&schedule, &sub.code);
    let mut response = answer(&access, Export::Ical.media_type(), body);
    let name = format!(
        "attachment; filename=\"{}-{}.ics\"",
        safe_filename(&data.event.slug),
        safe_filename(&sub.code)
    );
    set(response.headers_mut(), header::CONTENT_DISPOSITION, &name);
    Ok(response)
}

async fn speaker(caller: Caller, Path((slug, code)): Path<(String, String)>) -> ApiResult {
    let data = event_of(&caller, &slug)?;
    let profile = data
        .event
        .speakers
        .iter()
        .find(|p| p.speaker_code().eq_ignore_ascii_case(&code))
        .ok_or(ApiError::NotFound)?;
    let access = Access::new(data, caller.user(), caller.now);
    let schedule = ExportSchedule::of(data, &caller.catalog.users, &caller.base_url, |s| {
        s.speakers.contains(profile.speaker_code())
    });
    let has_slot = !schedule.talks.is_empty();
    if !access.sees_calendar_of(has_slot) {
        return Err(ApiError::NotFound);
    }
    let body = calendar::speaker_ical(&schedule, profile.speaker_code());
    let mut response = answer(&access, Export::Ical.media_type(), body);
    let who = caller
        .catalog
        .user(&profile.user)
        .map_or(profile.user.as_str(), |u| u.name.as_str());
    let name = format!(
        "attachment; filename=\"{}-{}.ics\"",
        safe_filename(&data.event.slug),
        safe_filename(who)
    );
    set(response.headers_mut(), header::CONTENT_DISPOSITION, &name);
    Ok(response)
}

/// A 200 with the body; organisers' answers are private to them.
fn answer(access: &Access, media_type: &'static str, body: Vec<u8>) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    if access.role == Role::Organiser {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private"));
    }
    response
}

fn set(headers: &mut axum::http::HeaderMap, name: header::HeaderName, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        headers.insert(name, value);
    }
}
