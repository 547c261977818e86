//! Reading one event (and the organiser's teams) through the v1 API: every
//! list it maps, the legacy-format times where offered, and the schedules'
//! details.

use reqwest::StatusCode;
use serde_json::Value;

use crate::sync::client::Client;
use crate::sync::error::SyncError;
use crate::sync::upstream::{fetch_event, fetch_pages, Fetched};

/// The version every request names unless the upstream's release asks
/// for another (`v2` from pretalx 2026.2 on: the same shapes for what is
/// read here): answers keep this shape whatever the token's own default
/// version is.
pub const VERSION: &str = "v1";
/// pretalx 2025 still answers its submission and review lists in the
/// legacy format when asked; only there do they show when they were made.
pub const LEGACY_VERSION: &str = "LEGACY";
/// The legacy format pages by limit and offset (both must be given).
const LEGACY_PAGE: &str = "limit=250&offset=0";
/// pretalx caps `page_size` at its `max_pagination_limit` (250 by default).
const PAGE: &str = "page_size=250";
/// Rooms too: pretalx 2025 pages them by limit and offset whatever is
/// asked (100 a page, with `next` links of that kind, which are followed);
/// 2026.3 knows only `page` and `page_size`. Never limit/offset from here.
const ROOM_PAGE: &str = PAGE;
/// Schedules whose details (and slots) are read at once.
const SCHEDULES_AT_ONCE: usize = 3;

/// Everything read about one event.
pub struct RawEvent {
    pub event: (String, Value),
    pub submissions: Fetched,
    pub public_submissions: Fetched,
    pub schedules: Fetched,
    pub slots: Fetched,
    pub speakers: Fetched,
    pub questions: Fetched,
    pub answers: Fetched,
    pub reviews: Fetched,
    pub rooms: Fetched,
    pub tags: Fetched,
    pub tracks: Fetched,
    pub submission_types: Fetched,
    /// The legacy-format submissions and reviews, for `created` and
    /// `updated`; `None` where the upstream no longer offers that format.
    pub legacy_times: Option<(Fetched, Fetched)>,
    /// The detail of every schedule `schedules` lists (for its comment),
    /// with the slots of the older releases and the work in progress (the
    /// current release's are `slots`).
    pub schedule_details: Vec<ScheduleDetail>,
}

/// One schedule's detail (`schedules/{id}/`), and its slots
/// (`slots/?schedule={id}`) unless it is the current release.
pub struct ScheduleDetail {
    pub id: i64,
    pub detail: (String, Value),
    pub slots: Option<Fetched>,
}

/// The schedules `schedules` lists, by role.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Releases {
    /// The newest release: id (if shown), version, published.
    pub(super) current: Option<(Option<i64>, String, String)>,
    /// Earlier releases, oldest first.
    pub(super) older: Vec<(i64, String, String)>,
    /// The work-in-progress schedule (version `wip`, not published).
    pub(super) wip: Option<i64>,
}

/// Which schedule is which: the newest one with a version and a release
/// time is the current release; the one without (`"wip"`) is the work in
/// progress. Schedules without an id have no history to read.
pub(super) fn releases(list: &Fetched) -> Result<Releases, SyncError> {
    let mut released = Vec::new();
    let mut out = Releases::default();
    for item in list.items() {
        let id = item.value.get("id").and_then(Value::as_i64);
        let version = item.opt_str("version")?.filter(|v| *v != "wip");
        match (version, item.opt_str("published")?) {
            (Some(version), Some(published)) => {
                released.push((id, version.to_string(), published.to_string()));
            }
            _ => out.wip = out.wip.or(id),
        }
    }
    // pretalx's times are in one zone: as text they sort by instant.
    released.sort_by(|a, b| a.2.cmp(&b.2));
    out.current = released.pop();
    out.older = released
        .into_iter()
        .filter_map(|(id, version, published)| Some((id?, version, published)))
        .collect();
    Ok(out)
}

/// Whether the upstream speaks the versioned API: its submission types
/// have an endpoint of their own only there (pretalx 2024.x and confapi
/// answer 404). `None` when the event refuses the token (the event itself
/// answers 401, 403 or 404): another event must tell.
pub async fn speaks_v1(client: &Client, slug: &str) -> Result<Option<bool>, SyncError> {
    let refusals = [
        StatusCode::UNAUTHORIZED,
        StatusCode::FORBIDDEN,
        StatusCode::NOT_FOUND,
    ];
    let event = client.url(&format!("/api/events/{slug}/"));
    if client
        .get_json_unless(&event, false, &refusals)
        .await?
        .is_none()
    {
        return Ok(None);
    }
    let url = client.url(&format!("/api/events/{slug}/submission-types/?page_size=1"));
    match client.get_json_if_found(&url, false).await {
        Ok(found) => Ok(Some(found.is_some())),
        Err(err) if err.refused.is_some() => Ok(None),
        Err(err) => Err(err),
    }
}

/// `legacy` is a client that asks for the legacy format (`LEGACY_VERSION`).
pub async fn read_event(
    client: &Client,
    legacy: &Client,
    slug: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<RawEvent, SyncError> {
    let base = format!("/api/events/{slug}");
    let (event_url, event) = fetch_event(client, &base, requests).await?;
    let list = |name: &str, page: &'static str, anonymous: bool| {
        let path = format!("{base}/{name}");
        async move { fetch_pages(client, &path, page, anonymous, requests).await }
    };
    // What the public sees tells whether the schedule is shown.
    let is_public = event.get("is_public").and_then(Value::as_bool) == Some(true);
    let public_submissions = async {
        if is_public {
            list("submissions/", PAGE, true).await
        } else {
            Ok(Fetched { pages: Vec::new() })
        }
    };
    // The times, where the legacy format is still offered (pretalx answers
    // 400 "API version not supported" once it is not); read beside the rest.
    let legacy_times = async {
        let probe = legacy.url(&format!("{base}/submissions/?limit=1&offset=0"));
        let offered = legacy
            .get_json_unless(
                &probe,
                false,
                &[StatusCode::BAD_REQUEST, StatusCode::NOT_FOUND],
            )
            .await?
            .is_some();
        requests();
        if !offered {
            return Ok(None);
        }
        let legacy_list = |name: &str| {
            let path = format!("{base}/{name}");
            async move { fetch_pages(legacy, &path, LEGACY_PAGE, false, requests).await }
        };
        let both = tokio::try_join!(legacy_list("submissions/"), legacy_list("reviews/"))?;
        Ok::<_, SyncError>(Some(both))
    };
    // A few lists at a time: fast, and gentle on a slow upstream.
    let (submissions, public_submissions, schedules, slots, speakers) = tokio::try_join!(
        list("submissions/?expand=resources,invitations", PAGE, false),
        public_submissions,
        list("schedules/", PAGE, false),
        // Without a filter: the slots of the current released schedule.
        list("slots/", PAGE, false),
        list("speakers/", PAGE, false),
    )?;
    let (questions, answers, reviews, rooms, legacy_times) = tokio::try_join!(
        list("questions/?expand=options", PAGE, false),
        list("answers/", PAGE, false),
        // With the reviewer's code, name and e-mail (a user like a speaker),
        // and the score categories of their scores.
        list("reviews/?expand=user,scores.category", PAGE, false),
        list("rooms/", ROOM_PAGE, false),
        legacy_times,
    )?;
    let (tags, tracks, submission_types) = tokio::try_join!(
        list("tags/", PAGE, false),
        list("tracks/", PAGE, false),
        list("submission-types/", PAGE, false),
    )?;
    let schedule_details = read_schedules(client, &base, &releases(&schedules)?, requests).await?;
    Ok(RawEvent {
        event: (event_url, event),
        legacy_times,
        submissions,
        public_submissions,
        schedules,
        slots,
        speakers,
        questions,
        answers,
        reviews,
        rooms,
        tags,
        tracks,
        submission_types,
        schedule_details,
    })
}

/// The details of the current release (its id and comment), and details
/// and slots of the older releases and the work in progress, a few at once.
pub(super) async fn read_schedules(
    client: &Client,
    base: &str,
    releases: &Releases,
    requests: &(dyn Fn() + Sync),
) -> Result<Vec<ScheduleDetail>, SyncError> {
    use futures_util::{StreamExt, TryStreamExt};
    let current = releases.current.as_ref().and_then(|(id, _, _)| *id);
    let wanted = current
        .map(|id| (id, false))
        .into_iter()
        .chain(releases.older.iter().map(|(id, _, _)| (*id, true)))
        .chain(releases.wip.map(|id| (id, true)));
    futures_util::stream::iter(wanted)
        .map(|(id, with_slots)| async move {
            let url = client.url(&format!("{base}/schedules/{id}/"));
            let detail = client.get_json(&url, false).await?;
            requests();
            let slots = if with_slots {
                let path = format!("{base}/slots/?schedule={id}");
                Some(fetch_pages(client, &path, PAGE, false, requests).await?)
            } else {
                None
            };
            Ok::<_, SyncError>(ScheduleDetail {
                id,
                detail: (url, detail),
                slots,
            })
        })
        .buffered(SCHEDULES_AT_ONCE)
        .try_collect()
        .await
}

/// The teams of a pretalx organiser, with their members' codes, names and
/// e-mail addresses. Teams are not under the event, and no event answer
/// names its organiser: it is given with `--organiser`.
pub async fn read_teams(
    client: &Client,
    organiser: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<Fetched, SyncError> {
    fetch_pages(client, &teams_path(organiser), PAGE, false, requests).await
}

/// Where an organiser's teams are listed (with their members).
fn teams_path(organiser: &str) -> String {
    format!("/api/organisers/{organiser}/teams/?expand=members")
}
