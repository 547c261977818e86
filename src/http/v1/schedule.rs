//! v1 `/slots/` and `/schedules/` (pretalx-v1.md §2, §6): the event's
//! schedules (the current release, older releases and the work-in-progress
//! schedule) and their slots (talks and breaks). Organisers see every
//! schedule and slot; everyone else the current release's visible slots of
//! the submissions they see, and its breaks while the schedule is public
//! (`Access::sees_release`).

use super::common::{known_code, known_id, one, page, pagination, refused, Key, INVALID_CHOICE};
use crate::domain::access::{Access, Role};
use crate::domain::catalog::SubmissionIx;
use crate::domain::views_v1::{release_id, release_slots, Serving, SlotFacts, SlotRef, V1Renderer};
use crate::http::context::EventContext;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::{digits_id, Params};
use crate::model::{Event, Release};

/// A slot by position, kept in the lists' visible-set cache.
#[derive(Clone, Copy)]
enum SlotAt {
    Talk(SubmissionIx, u32),
    Break(u32),
    Other(Release, u32),
}

impl SlotAt {
    fn of(slot: &SlotRef) -> Self {
        match *slot {
            SlotRef::Talk { sub, index } => SlotAt::Talk(sub, index as u32),
            SlotRef::Break { index, .. } => SlotAt::Break(index as u32),
            SlotRef::Other { release, index, .. } => SlotAt::Other(release, index as u32),
        }
    }

    fn get<'a>(self, access: &Access<'a>) -> Option<SlotRef<'a>> {
        let event = &access.data.event;
        Some(match self {
            SlotAt::Talk(sub, index) => SlotRef::Talk {
                sub,
                index: index as usize,
            },
            SlotAt::Break(index) => SlotRef::Break {
                index: index as usize,
                item: event.schedule.as_ref()?.breaks.get(index as usize)?,
            },
            SlotAt::Other(release, index) => SlotRef::Other {
                release,
                index: index as usize,
                item: release_slots(event, release).get(index as usize)?,
            },
        })
    }
}

/// The schedules whose slots the caller may see: the current release
/// (its slots are then chosen one by one, below), and the others the
/// caller sees.
fn shown_releases(access: &Access) -> Vec<Release> {
    access
        .data
        .event
        .releases()
        .filter(|&r| r == Release::Current || access.sees_release(r))
        .collect()
}

/// The caller's slots of `release`, unsorted.
fn slots_of<'a>(access: &Access<'a>, release: Release) -> Vec<SlotRef<'a>> {
    let event = &access.data.event;
    match release {
        Release::Current => {
            let Some(schedule) = &event.schedule else {
                return Vec::new();
            };
            let orga = access.role == Role::Organiser;
            // In the store's order: the sort below keeps it for ties.
            let mut slots: Vec<SlotRef> = access
                .data
                .submission_positions_stored()
                .filter(|&i| orga || access.sees_submission_at(i))
                .flat_map(|i| {
                    let sub = &event.submissions[i];
                    (0..sub.slots.len())
                        .filter(move |&index| orga || sub.slots[index].is_visible)
                        .map(move |index| SlotRef::Talk { sub: i, index })
                })
                .collect();
            if access.sees_release(Release::Current) {
                slots.extend(
                    schedule
                        .breaks
                        .iter()
                        .enumerate()
                        .map(|(index, item)| SlotRef::Break { index, item }),
                );
            }
            slots
        }
        Release::Older(_) | Release::Wip if access.sees_release(release) => {
            release_slots(event, release)
                .iter()
                .enumerate()
                .map(|(index, item)| SlotRef::Other {
                    release,
                    index,
                    item,
                })
                .collect()
        }
        Release::Older(_) | Release::Wip => Vec::new(),
    }
}

/// The caller's slots of `releases`, in the default order: by start, then
/// room position (pretalx's `start`, `room__position`), then id.
fn slots_in<'a>(access: &Access<'a>, releases: &[Release]) -> Vec<SlotRef<'a>> {
    let data = access.data;
    let mut slots: Vec<SlotRef> = releases.iter().flat_map(|&r| slots_of(access, r)).collect();
    slots.sort_by_cached_key(|slot| {
        let facts = slot.facts(data);
        let position = facts
            .room
            .and_then(|id| data.room(id))
            .and_then(|r| r.position);
        (
            facts.start.is_none(),
            facts.start,
            position.is_none(),
            position,
            facts.room,
            // Copies of a slot in several schedules tie: pretalx's database
            // gives them by primary key (slots without one keep their order).
            facts.stored_id.is_none(),
            facts.stored_id,
        )
    });
    slots
}

/// pretalx's slot filters: with any of them in the query (even empty),
/// the list covers every schedule the caller sees, else only the current
/// release.
const SLOT_FILTERS: [&str; 6] = [
    "submission",
    "schedule",
    "schedule_version",
    "speaker",
    "room",
    "is_visible",
];

/// The schedule among `releases` that `matches` picks, else a 400 for
/// `name` (a ModelChoiceFilter's answer).
fn release_filter(
    params: &mut Params,
    name: &str,
    releases: &[Release],
    matches: impl Fn(&str, Release) -> bool,
) -> Option<Release> {
    let raw = params.get(name)?.to_string();
    let found = releases.iter().copied().find(|&r| matches(&raw, r));
    if found.is_none() {
        params.error(name, INVALID_CHOICE);
    }
    found
}

/// A release's version as pretalx stores it (the WIP schedule has none).
fn stored_version(event: &Event, release: Release) -> Option<&str> {
    match release {
        Release::Current => event.schedule.as_ref().map(|s| s.version.as_str()),
        Release::Older(i) => event.older_schedules.get(i).map(|s| s.version.as_str()),
        Release::Wip => None,
    }
}

pub fn slots(ctx: &EventContext, mut params: Params) -> ApiResult {
    let pagination = pagination(ctx, &params)?;
    let access = ctx.access();
    let data = &*ctx.event;
    let event = &data.event;
    let room = known_id(&mut params, "room", |id| data.room(id).is_some());
    // Codes of what the caller is shown: pretalx's choices are every
    // submission of the event, which would tell the public that a
    // proposal's code exists.
    let submission = known_code(&mut params, "submission", |code| {
        access.shows_submission_code(code)
    });
    let speaker = known_code(&mut params, "speaker", |code| {
        access.shows_speaker_code(code)
    });
    // The choices are every schedule of the event, as in pretalx; one the
    // caller may not see lists nothing.
    let all: Vec<Release> = event.releases().collect();
    let schedule = release_filter(&mut params, "schedule", &all, |raw, r| {
        digits_id(raw).is_some_and(|id| Some(id) == release_id(event, r))
    });
    // pretalx answers 400 for every value (its filter compares a version
    // with a schedule): confapi filters by the version, in any case.
    let schedule_version = release_filter(&mut params, "schedule_version", &all, |raw, r| {
        stored_version(event, r).is_some_and(|v| v.to_lowercase() == raw.to_lowercase())
    });
    let is_visible = super::common::boolean(&params, "is_visible");
    params.check()?;
    let any_filter = params
        .pairs
        .iter()
        .any(|(k, _)| SLOT_FILTERS.contains(&k.as_str()));
    let shown = shown_releases(&access);
    let releases: Vec<Release> = match schedule.or(schedule_version) {
        Some(release) => shown.into_iter().filter(|&r| r == release).collect(),
        None if any_filter => shown,
        None => vec![Release::Current],
    };
    let both = schedule.zip(schedule_version);
    let q = params.get("q").map(str::to_lowercase);
    let users = &ctx.caller.catalog.users;
    let o = params.get("o").map(str::to_string);
    let key = format!(
        "{releases:?} {both:?} {room:?} {is_visible:?} {submission:?} {speaker:?} {q:?} {o:?}"
    );
    let expansion = super::common::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .serving(Serving::Schedule)
        .expanding(&expansion);
    let kept = ctx.visible_set(&access, "v1-slots", key, || {
        if both.is_some_and(|(a, b)| a != b) {
            return Vec::new();
        }
        let mut slots: Vec<(SlotRef, SlotFacts)> = slots_in(&access, &releases)
            .into_iter()
            .map(|slot| (slot, slot.facts(data)))
            .filter(|(slot, facts)| {
                let sub = facts.sub.map(|i| (i, &event.submissions[i]));
                let shows_names = |i| !access.anonymised_at(i, false);
                let code = match slot {
                    SlotRef::Other { item, .. } => item.submission.as_deref(),
                    _ => sub.map(|(_, s)| s.code.as_str()),
                };
                room.is_none_or(|r| facts.room == Some(r))
                    && is_visible.is_none_or(|v| v == facts.is_visible)
                    && submission
                        .as_ref()
                        .is_none_or(|wanted| code.is_some_and(|c| c.to_lowercase() == *wanted))
                    && speaker.as_ref().is_none_or(|code| {
                        sub.is_some_and(|(i, s)| {
                            shows_names(i) && s.speakers.iter().any(|c| c.to_lowercase() == *code)
                        })
                    })
                    && q.as_ref().is_none_or(|q| {
                        sub.is_some_and(|(i, s)| {
                            let anonymised = !shows_names(i);
                            let title = crate::domain::views::shown_texts(s, anonymised).title;
                            title.to_lowercase().contains(q.as_str())
                                || (!anonymised
                                    && s.speakers.iter().any(|c| {
                                        users.get(ctx.event.speaker_user_code(c)).is_some_and(|u| {
                                            u.name.to_lowercase().contains(q.as_str())
                                        })
                                    }))
                        })
                    })
            })
            .collect();
        if let Some(o) = params.get("o") {
            let (descending, field) = o.strip_prefix('-').map_or((false, o), |f| (true, f));
            // pretalx's ordering fields; any other keeps the default order.
            if matches!(field, "start" | "end" | "room__name" | "submission__title") {
                // pretalx orders by that field alone: ties come by id.
                slots.sort_by_cached_key(|(slot, _)| renderer.slot_id(*slot));
                let key = |(_, facts): &(SlotRef, SlotFacts)| -> Key {
                    let text = |t: Option<crate::model::Timestamp>| {
                        Key::Text(t.map(|t| t.to_rfc3339()).unwrap_or_default())
                    };
                    match field {
                        "start" => text(facts.start),
                        "end" => text(facts.end),
                        "room__name" => Key::Text(
                            facts
                                .room
                                .and_then(|id| data.room(id))
                                .and_then(|r| r.name.texts().next())
                                .unwrap_or("")
                                .to_lowercase(),
                        ),
                        // The title the caller is shown, as `q` searches it.
                        _ => Key::Text(
                            facts
                                .sub
                                .map(|i| {
                                    crate::domain::views::shown_title(&access, i).to_lowercase()
                                })
                                .unwrap_or_default(),
                        ),
                    }
                };
                super::common::sort_by(&mut slots, descending, key);
            }
        }
        slots
            .iter()
            .map(|(slot, _)| SlotAt::of(slot))
            .collect::<Vec<_>>()
    });
    // Only the page's slots are looked up again.
    page(&ctx.caller, &params, pagination, &kept, |at| {
        at.get(&access).map(|slot| renderer.slot(slot))
    })
}

/// The slot with this id among every schedule the caller sees.
fn find_slot<'a>(access: &Access<'a>, renderer: &V1Renderer<'a>, id: &str) -> Option<SlotRef<'a>> {
    let id = digits_id(id)?;
    shown_releases(access)
        .into_iter()
        .flat_map(|r| slots_of(access, r))
        .find(|slot| renderer.slot_id(*slot) == id)
}

pub fn slot(ctx: &EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    let expansion = super::common::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .serving(Serving::Schedule)
        .expanding(&expansion);
    let slot = find_slot(&access, &renderer, id).ok_or(ApiError::NotFound)?;
    one(&params, &renderer.slot(slot))
}

/// Organisers always; everyone else while the schedule is public.
fn sees_schedules(ctx: &EventContext, access: &Access) -> Result<(), ApiError> {
    if access.sees_release(Release::Current) {
        Ok(())
    } else {
        Err(refused(&ctx.caller))
    }
}

pub fn schedules(ctx: &EventContext, params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedules(ctx, &access)?;
    let pagination = pagination(ctx, &params)?;
    let event = &ctx.event.event;
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .serving(Serving::Schedule);
    let q = params.get("q").map(str::to_lowercase);
    // pretalx searches the stored version, which the WIP schedule lacks.
    let mut listed: Vec<Release> = event
        .releases()
        .filter(|&r| access.sees_release(r))
        .filter(|&r| {
            q.as_ref().is_none_or(|q| {
                stored_version(event, r).is_some_and(|v| v.to_lowercase().contains(q.as_str()))
            })
        })
        .collect();
    // By `-published`, then id; the WIP schedule (never published) last,
    // as SQLite sorts null.
    let published = |r: &Release| match r {
        Release::Current => event.schedule.as_ref().and_then(|s| s.published),
        Release::Older(i) => event.older_schedules.get(*i).map(|s| s.published),
        Release::Wip => None,
    };
    let id = |r: &Release| release_id(event, *r);
    listed.sort_by(|a, b| {
        published(b)
            .cmp(&published(a))
            .then_with(|| id(a).cmp(&id(b)))
    });
    if let Some(o) = params.get("o") {
        let (descending, field) = o.strip_prefix('-').map_or((false, o), |f| (true, f));
        match field {
            "id" => super::common::sort_by(&mut listed, descending, |r| Key::Int(id(r))),
            "version" => super::common::sort_by(&mut listed, descending, |r| {
                stored_version(event, *r).map(str::to_string)
            }),
            "published" => super::common::sort_by(&mut listed, descending, published),
            _ => {}
        }
    }
    page(&ctx.caller, &params, pagination, &listed, |&r| {
        renderer.schedule(r, None)
    })
}

pub fn schedule(ctx: &EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedules(ctx, &access)?;
    let event = &ctx.event.event;
    let release = match id {
        "latest" => Some(Release::Current),
        "wip" => Some(Release::Wip),
        _ => digits_id(id)
            .and_then(|id| event.releases().find(|&r| release_id(event, r) == Some(id))),
    }
    .filter(|&r| access.sees_release(r))
    .ok_or(ApiError::NotFound)?;
    let expansion = super::common::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .serving(Serving::Schedule)
        .expanding(&expansion);
    let slots = slots_in(&access, &[release]);
    let view = renderer
        .schedule(release, Some(&slots))
        .ok_or(ApiError::NotFound)?;
    one(&params, &view)
}
