//! `confapi sync`: mirrors a pretalx (legacy API or versioned API v1) into
//! the store.
//!
//! A round reads every list of every event first, maps it to a dataset
//! document (`legacy` or `v1`), lays the access file over it (`access`), validates
//! the result exactly like `confapi import`, and writes it with one
//! `Store::import`: a round that fails anywhere writes nothing.

pub mod access;
pub mod client;
mod error;
pub mod legacy;
mod mapping;
pub mod upstream;
pub mod upstream_exports;
pub mod v1;

#[cfg(test)]
mod round_tests;

pub use error::SyncError;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::dataset::validate;
use crate::storage::{ImportOptions, ImportSummary, Store};

pub struct Options {
    pub from: String,
    pub token: String,
    pub events: Vec<String>,
    pub access: Option<Value>,
    pub timeout: Duration,
    pub api: Api,
    /// The pretalx organiser whose teams are mirrored (v1 only).
    pub organiser: Option<String>,
    /// CAs trusted besides the system's and webpki's roots (`--ca-cert`).
    pub ca_certs: Vec<reqwest::Certificate>,
    /// The largest answer read, decompressed (`--max-response-size`).
    pub max_body: u64,
    /// How long a round may read the upstream (`--round-timeout`).
    pub round_timeout: Duration,
    /// Hosts besides the upstream's that redirects may lead to.
    pub redirect_hosts: Vec<String>,
}

/// Which pretalx API generation the upstream is read through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Api {
    /// Ask the upstream: its release at `GET /api/` (pretalx 2026 and
    /// later), else v1 where it has it (pretalx 2025.1 and later).
    Auto,
    /// pretalx 2024.x, and confapi itself.
    Legacy,
    /// pretalx's versioned API (`Pretalx-Version: v1`; pretalx 2025.1 to
    /// 2026.x).
    V1,
    /// pretalx's versioned API (`Pretalx-Version: v2`; pretalx 2026.2 and
    /// later): v1's shapes for everything confapi reads.
    V2,
}

/// What a round did: the import, and the listed events it skipped.
#[derive(Debug)]
pub struct Round {
    pub import: ImportSummary,
    /// Events the upstream lists but the token may not read, with the
    /// status that refused them; not mirrored (and so deleted from the
    /// mirror by a sync of every event).
    pub skipped: Vec<(String, StatusCode)>,
    /// What the operator should know about a round that succeeded (one
    /// line each, printed as they are).
    pub notes: Vec<String>,
    /// What the upstream said it is at `GET /api/`, if it answered.
    pub release: Option<upstream::Release>,
    /// The `Pretalx-Version` the versioned API was read through (`None`:
    /// the legacy API).
    pub version: Option<&'static str>,
}

/// One sync round. `progress` is told the requests made so far.
pub async fn run_once(
    options: &Options,
    store: &dyn Store,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Round, SyncError> {
    // One deadline for every request of the round, whichever client sends it.
    let limits = client::Limits::for_round(
        options.max_body,
        options.round_timeout,
        options.redirect_hosts.clone(),
    );
    let mut client = client::Client::new(
        &options.from,
        &options.token,
        options.timeout,
        &options.ca_certs,
        &limits,
    )?;
    let count = AtomicU64::new(0);
    let requests = || progress(count.fetch_add(1, Ordering::Relaxed) + 1);
    // What the upstream says it is (pretalx 2026 and later): that decides
    // the reader and the version asked for. Older ones say nothing there.
    let release = match options.api {
        Api::Auto => upstream::fetch_release(&client, &requests).await?,
        _ => None,
    };
    let known = release.as_ref().and_then(upstream::Release::dialect);
    if let Some(release) = &release {
        tracing::debug!(
            name = release.name,
            version = release.version,
            api_version = release.api_version,
            read_through = ?known,
            "upstream release"
        );
    }
    let version = match (options.api, known) {
        (Api::V2, _) => "v2",
        (Api::Auto, Some((Api::V1 | Api::V2, version))) => version,
        _ => v1::VERSION,
    };
    if options.api != Api::Legacy && known.map(|(api, _)| api) != Some(Api::Legacy) {
        // From the first request on (pretalx pins a new token to the version
        // it first sees), and for the probe: a token pinned to the legacy
        // version would be refused there. Legacy servers ignore the header.
        client.set_version(version);
    }
    // The versioned API lists events in one bare list; its paging, where
    // any, is what `next` says (pretalx 2026.3 has no limit/offset).
    let versioned =
        matches!(options.api, Api::V1 | Api::V2) || matches!(known, Some((Api::V1 | Api::V2, _)));
    let slugs = if options.events.is_empty() {
        let list = if versioned {
            upstream::fetch_pages(&client, "/api/events/", "", false, &requests).await?
        } else {
            upstream::fetch_list(&client, "/api/events/", false, &requests).await?
        };
        list.items()
            .map(|item| item_slug(&item))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        options.events.clone()
    };
    let api = match known {
        Some((api, _)) => api,
        None => detect_api(&client, options.api, &slugs, &requests).await?,
    };
    if api == Api::Legacy && options.organiser.is_some() {
        return Err(SyncError::plain(
            "--organiser needs pretalx's versioned API (the legacy API shows no teams)",
        ));
    }
    let access = options.access.clone().unwrap_or_else(|| json!({}));
    let mut seen_users = BTreeMap::new();
    let mut events = Vec::new();
    // Time spent reading the upstream's events (its lists and exports),
    // for `scripts/benchmarks/bench-sync-change`.
    let mut waited = std::time::Duration::ZERO;
    let mut skipped = Vec::new();
    let mut notes = Vec::new();
    if api != Api::Legacy {
        let teams = match &options.organiser {
            Some(organiser) => match v1::read_teams(&client, organiser, &requests).await {
                Ok(teams) => Some(teams),
                // pretalx 2026.2 answers organiser-level endpoints only to
                // a token that covers every event of the organiser: an
                // event-bound token still reads its events. The teams are
                // then the access file's, as without --organiser.
                Err(SyncError {
                    refused: Some(status @ (StatusCode::FORBIDDEN | StatusCode::UNAUTHORIZED)),
                    ..
                }) => {
                    let url = client.url(&format!("/api/organisers/{organiser}/teams/"));
                    let note = format!(
                        "teams: GET {url} answered {} (pretalx 2026.2 shows organiser-level \
                         endpoints only to tokens that cover every event of the organiser): \
                         the teams come from the access file",
                        status.as_u16()
                    );
                    tracing::debug!(%status, "teams refused");
                    notes.push(note);
                    None
                }
                Err(err) => return Err(err),
            },
            None => None,
        };
        let mut legacy = client::Client::new(
            &options.from,
            &options.token,
            options.timeout,
            &options.ca_certs,
            &limits,
        )?;
        legacy.set_version(v1::LEGACY_VERSION);
        for slug in &slugs {
            let asked = std::time::Instant::now();
            let read = v1::read_event(&client, &legacy, slug, &requests).await;
            waited += asked.elapsed();
            match read {
                Ok(raw) => {
                    let mut event = v1::map_event(&raw, teams.as_ref(), &mut seen_users)?;
                    drop_aside(raw);
                    // The organiser whose teams were read owns the event.
                    if let Some(organiser) = &options.organiser {
                        event.insert("organiser".into(), json!(organiser));
                    }
                    events.push(event);
                }
                Err(err) => skip(options, slug, err, &mut skipped)?,
            }
        }
    } else {
        let mut raws = Vec::new();
        for slug in &slugs {
            let asked = std::time::Instant::now();
            let read = legacy::read_event(&client, slug, &requests).await;
            waited += asked.elapsed();
            match read {
                Ok(raw) => raws.push(raw),
                Err(err) => skip(options, slug, err, &mut skipped)?,
            }
        }
        let reviewer_codes = access::names_to_codes(&access, raws.iter().map(|raw| &raw.speakers))?;
        for raw in &raws {
            events.push(legacy::map_event(raw, &mut seen_users, &reviewer_codes)?);
        }
        drop_aside(raws);
    }
    // Ids, guids, breaks, ...: neither API shows them, the schedule
    // exports do.
    let mut filled_events = Vec::new();
    for mut event in events {
        let slug = event
            .get("slug")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let asked = std::time::Instant::now();
        let filled = upstream_exports::fill_event(&client, &slug, &mut event, &requests).await;
        waited += asked.elapsed();
        match filled {
            Ok(filled) => {
                for (code, id) in filled.person_ids {
                    if let Some(user) = seen_users.get_mut(&code) {
                        user.id = Some(id);
                    }
                }
                filled_events.push(event);
            }
            Err(err) => skip(options, &slug, err, &mut skipped)?,
        }
    }
    if filled_events.is_empty() && !skipped.is_empty() {
        let names: Vec<String> = skipped
            .iter()
            .map(|(slug, status)| format!("{slug} ({})", status.as_u16()))
            .collect();
        return Err(SyncError::plain(format!(
            "the token may read none of the events the upstream lists: {}",
            names.join(", ")
        )));
    }
    tracing::debug!(
        upstream_ms = waited.as_millis() as u64,
        "sync: the upstream's events read (the time waited for them)"
    );
    let merging = std::time::Instant::now();
    let document = access::merge(&access, seen_users, filled_events)?;
    tracing::debug!(elapsed = ?merging.elapsed(), "sync: merged with the access file");
    let dataset = validate::parse_value(&document).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        SyncError::plain(format!(
            "the mirrored data does not validate ({} problem(s), paths in the mirrored dataset):\n{}",
            problems.len(),
            lines.join("\n")
        ))
    })?;
    tracing::debug!(elapsed = ?merging.elapsed(), "sync: validated");
    drop_aside(document);
    // Mirroring every event the token sees: an event gone upstream goes,
    // and so does one the token may no longer read. With --event, other
    // stored events are not this sync's business; and an upstream that
    // lists no event at all (a token stripped of every permission, a
    // misconfigured upstream) does not empty the mirror.
    let import = ImportOptions {
        delete_absent_events: options.events.is_empty() && !slugs.is_empty(),
        digest: None,
    };
    let import = store
        .import_with(&dataset, import, None)
        .await
        .map_err(|e| SyncError::plain(format!("cannot write the mirror: {e}")))?;
    Ok(Round {
        import,
        skipped,
        notes,
        release,
        version: (api != Api::Legacy).then_some(version),
    })
}

/// Frees `value` on a thread of its own: taking apart the trees of a
/// 20,000-submission event's JSON (the upstream's answers, the mirrored
/// document) took a fifth of a second that the round no longer waits for.
fn drop_aside<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}

/// An event that refused the token is skipped when the upstream listed it,
/// and fails the round when the caller named it with `--event`; any other
/// failure fails the round.
fn skip(
    options: &Options,
    slug: &str,
    err: SyncError,
    skipped: &mut Vec<(String, StatusCode)>,
) -> Result<(), SyncError> {
    let Some(status) = err.refused else {
        return Err(err);
    };
    if !options.events.is_empty() {
        return Err(SyncError::plain(format!(
            "--event {slug}: {}: the token may not read it ({err})",
            status.as_u16()
        )));
    }
    tracing::debug!(slug, %err, "skipped");
    skipped.push((slug.to_string(), status));
    Ok(())
}

/// Which API the upstream speaks. Asked of the listed events in turn
/// until one answers: a token may be bound to some events only, and the
/// others refuse it. When none answers, every read will be refused too
/// and say so; legacy is as good a guess as any.
async fn detect_api(
    client: &client::Client,
    wanted: Api,
    slugs: &[String],
    requests: &(dyn Fn() + Sync),
) -> Result<Api, SyncError> {
    if wanted != Api::Auto {
        return Ok(wanted);
    }
    for slug in slugs {
        match v1::speaks_v1(client, slug).await {
            // pretalx 2025, which has no `GET /api/`: v1 is its newest.
            Ok(Some(true)) => return Ok(Api::V1),
            Ok(Some(false)) => return Ok(Api::Legacy),
            Ok(None) => {}
            Err(err) => return Err(err),
        }
        requests();
    }
    Ok(Api::Legacy)
}

fn item_slug(item: &upstream::Item) -> Result<String, SyncError> {
    item.slug()
}

/// `60s`, `5m`, `1h`, or plain seconds.
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = number
        .parse()
        .map_err(|_| format!("invalid interval {text:?}: use e.g. 60s, 5m, 1h"))?;
    let seconds = match unit {
        "" | "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        _ => return Err(format!("invalid interval {text:?}: use e.g. 60s, 5m, 1h")),
    };
    if seconds == 0 {
        return Err("the interval must be at least 1s".into());
    }
    Ok(Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals() {
        assert_eq!(parse_interval("60s"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_interval("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_interval("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_interval("90"), Ok(Duration::from_secs(90)));
        assert!(parse_interval("0s").is_err());
        assert!(parse_interval("soon").is_err());
        assert!(parse_interval("5d").is_err());
    }

    #[test]
    fn next_links_go_to_the_configured_upstream() {
        let client = client::Client::new(
            "http://127.0.0.1:9/",
            "t",
            Duration::from_secs(1),
            &[],
            &Default::default(),
        )
        .unwrap();
        assert_eq!(
            client.url("https://public.example.org/api/events/x/talks/?limit=25&offset=25"),
            "http://127.0.0.1:9/api/events/x/talks/?limit=25&offset=25"
        );
        assert_eq!(client.url("/api/events/"), "http://127.0.0.1:9/api/events/");
    }

    #[test]
    fn access_tracks_change_only_named_fields_and_add_unused_ones() {
        let events = vec![serde_json::json!({
            "slug": "conf",
            "tracks": [{"id": 1, "name": {"en": "Main"}, "description": {"en": "From the exports"}}],
        })
        .as_object()
        .unwrap()
        .clone()];
        let access = serde_json::json!({"events": [{"slug": "conf", "tracks": [
            {"id": 1, "color": "#ff0000"},
            {"id": 5, "name": "Unused", "color": "#00ff00"},
        ]}]});
        let merged = access::merge(&access, BTreeMap::new(), events).unwrap();
        assert_eq!(
            merged["events"][0]["tracks"],
            serde_json::json!([
                {"id": 1, "name": {"en": "Main"}, "description": {"en": "From the exports"}, "color": "#ff0000"},
                {"id": 5, "name": "Unused", "color": "#00ff00"},
            ])
        );
    }

    #[test]
    fn access_questions_and_submissions_change_only_named_fields() {
        let events = vec![serde_json::json!({
            "slug": "Conf",
            "questions": [{"id": 1, "active": true, "position": 0}],
            "submissions": [{"code": "ABC", "title": "T", "assigned_reviewers": []}],
        })
        .as_object()
        .unwrap()
        .clone()];
        let access = serde_json::json!({"events": [{
            "slug": "conf",
            "teams": [],
            "questions": [{"id": 1, "active": false}],
            "submissions": [{"code": "ABC", "assigned_reviewers": ["R1"]}],
        }]});
        let merged = access::merge(&access, BTreeMap::new(), events).unwrap();
        let event = &merged["events"][0];
        assert_eq!(event["slug"], "Conf");
        assert_eq!(event["teams"], serde_json::json!([]));
        assert_eq!(
            event["questions"][0],
            serde_json::json!({"id": 1, "active": false, "position": 0})
        );
        assert_eq!(
            event["submissions"][0],
            serde_json::json!({"code": "ABC", "title": "T", "assigned_reviewers": ["R1"]})
        );
        let unknown = serde_json::json!({"events": [{"slug": "conf", "questions": [{"id": 2}]}]});
        let events = vec![serde_json::json!({"slug": "conf", "questions": []})
            .as_object()
            .unwrap()
            .clone()];
        let err = access::merge(&unknown, BTreeMap::new(), events).unwrap_err();
        assert_eq!(
            err.message,
            "access file: events[0].questions[0].id: no such item upstream"
        );
    }
}
