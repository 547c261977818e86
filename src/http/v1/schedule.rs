//! v1 `/slots/` and `/schedules/` (pretalx-v1.md §2, §6): the released
//! schedule's slots (talks and breaks) and the release itself. Organisers
//! see every slot; everyone else the visible slots of the submissions they
//! see, and the breaks while the schedule is public.

use super::{one, page, pagination, refused, Key};
use crate::domain::access::{Access, Role};
use crate::domain::catalog::SubmissionIx;
use crate::domain::views_v1::{schedule_id, SlotRef, V1Renderer};
use crate::http::context::EventContext;
use crate::http::error::ApiError;
use crate::http::params::{digits_id, Params};
use crate::http::ApiResult;

/// A slot by position, kept in the lists' visible-set cache.
#[derive(Clone, Copy)]
enum SlotAt {
    Talk(SubmissionIx, u32),
    Break(u32),
}

impl SlotAt {
    fn of(slot: &SlotRef) -> Self {
        match *slot {
            SlotRef::Talk { sub, index } => SlotAt::Talk(sub, index as u32),
            SlotRef::Break { index, .. } => SlotAt::Break(index as u32),
        }
    }

    fn get<'a>(self, access: &Access<'a>) -> Option<SlotRef<'a>> {
        Some(match self {
            SlotAt::Talk(sub, index) => SlotRef::Talk {
                sub,
                index: index as usize,
            },
            SlotAt::Break(index) => {
                let schedule = access.data.event.schedule.as_ref()?;
                SlotRef::Break {
                    index: index as usize,
                    item: schedule.breaks.get(index as usize)?,
                }
            }
        })
    }
}

/// The caller's slots in the default order: by start, then room position.
fn visible_slots<'a>(access: &Access<'a>) -> Vec<SlotRef<'a>> {
    let data = access.data;
    let event = &data.event;
    let Some(schedule) = &event.schedule else {
        return Vec::new();
    };
    let orga = access.role == Role::Organiser;
    let mut slots: Vec<SlotRef> = SubmissionIx::all(event.submissions.len())
        .filter(|&i| orga || access.sees_submission_at(i))
        .flat_map(|i| {
            let sub = &event.submissions[i];
            (0..sub.slots.len())
                .filter(move |&index| orga || sub.slots[index].is_visible)
                .map(move |index| SlotRef::Talk { sub: i, index })
        })
        .collect();
    if orga || access.schedule_visible() {
        slots.extend(
            schedule
                .breaks
                .iter()
                .enumerate()
                .map(|(index, item)| SlotRef::Break { index, item }),
        );
    }
    let start_and_room = |slot: &SlotRef| {
        let (start, room) = match *slot {
            SlotRef::Talk { sub, index } => {
                let s = &event.submissions[sub].slots[index];
                (s.start, s.room)
            }
            SlotRef::Break { item, .. } => (Some(item.start), item.room),
        };
        let position = room.and_then(|id| data.room(id)).and_then(|r| r.position);
        (start.is_none(), start, position.is_none(), position, room)
    };
    slots.sort_by_key(start_and_room);
    slots
}

pub fn slots(ctx: &EventContext, mut params: Params) -> ApiResult {
    let pagination = pagination(ctx, &params)?;
    let access = ctx.access();
    let data = &*ctx.event;
    let event = &data.event;
    let room = match params.get("room").map(str::to_string) {
        None => None,
        Some(raw) => match digits_id(&raw).filter(|id| data.room(*id).is_some()) {
            Some(id) => Some(id),
            None => {
                params.error(
                    "room",
                    format!("Select a valid choice. {raw} is not one of the available choices."),
                );
                None
            }
        },
    };
    // The released schedule is the only one the data holds: its id keeps
    // every slot, any other id is unknown.
    let _schedule = match params.get("schedule").map(str::to_string) {
        None => None,
        Some(raw) => match digits_id(&raw).filter(|id| Some(*id) == schedule_id(event)) {
            Some(id) => Some(id),
            None => {
                params.error(
                    "schedule",
                    format!("Select a valid choice. {raw} is not one of the available choices."),
                );
                None
            }
        },
    };
    let is_visible = super::boolean(&params, "is_visible");
    params.check()?;
    let submission = params.get("submission").map(str::to_lowercase);
    let speaker = params.get("speaker").map(str::to_lowercase);
    let q = params.get("q").map(str::to_lowercase);
    let users = &ctx.caller.catalog.users;
    let o = params.get("o").map(str::to_string);
    let key = format!("{room:?} {is_visible:?} {submission:?} {speaker:?} {q:?} {o:?}");
    let kept = ctx.visible_set(&access, "v1-slots", key, || {
        let mut slots: Vec<SlotRef> = visible_slots(&access)
            .into_iter()
            .filter(|slot| {
                let (sub, visible, slot_room) = match *slot {
                    SlotRef::Talk { sub, index } => {
                        let s = &event.submissions[sub];
                        (Some(s), s.slots[index].is_visible, s.slots[index].room)
                    }
                    SlotRef::Break { item, .. } => (None, true, item.room),
                };
                let shows_names = |i| !access.anonymised_at(i, false);
                let position = match *slot {
                    SlotRef::Talk { sub, .. } => Some(sub),
                    SlotRef::Break { .. } => None,
                };
                room.is_none_or(|r| slot_room == Some(r))
                    && is_visible.is_none_or(|v| v == visible)
                    && submission
                        .as_ref()
                        .is_none_or(|code| sub.is_some_and(|s| s.code.to_lowercase() == *code))
                    && speaker.as_ref().is_none_or(|code| {
                        sub.zip(position).is_some_and(|(s, i)| {
                            shows_names(i) && s.speakers.iter().any(|c| c.to_lowercase() == *code)
                        })
                    })
                    && q.as_ref().is_none_or(|q| {
                        sub.zip(position).is_some_and(|(s, i)| {
                            let anonymised = !shows_names(i);
                            let title = crate::domain::views::shown_texts(s, anonymised).title;
                            title.to_lowercase().contains(q.as_str())
                                || (!anonymised
                                    && s.speakers.iter().any(|c| {
                                        users.get(c.as_str()).is_some_and(|u| {
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
                let key = |slot: &SlotRef| -> Key {
                    let (start, end, room, title) = match *slot {
                        SlotRef::Talk { sub, index } => {
                            let s = &event.submissions[sub];
                            let item = &s.slots[index];
                            (item.start, item.end, item.room, s.title.to_lowercase())
                        }
                        SlotRef::Break { item, .. } => {
                            (Some(item.start), Some(item.end), item.room, String::new())
                        }
                    };
                    match field {
                        "start" => Key::Text(start.map(|t| t.to_rfc3339()).unwrap_or_default()),
                        "end" => Key::Text(end.map(|t| t.to_rfc3339()).unwrap_or_default()),
                        "room__name" => Key::Text(
                            room.and_then(|id| data.room(id))
                                .and_then(|r| r.name.texts().next())
                                .unwrap_or("")
                                .to_lowercase(),
                        ),
                        _ => Key::Text(title),
                    }
                };
                super::sort_by(&mut slots, descending, key);
            }
        }
        slots.iter().map(SlotAt::of).collect::<Vec<_>>()
    });
    let expansion = super::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion);
    // Only the page's slots are looked up again.
    page(&ctx.caller, &params, pagination, &kept, |at| {
        at.get(&access).map(|slot| renderer.slot(slot))
    })
}

pub fn slot(ctx: &EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    let expansion = super::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion);
    let id = digits_id(id).ok_or(ApiError::NotFound)?;
    let slot = visible_slots(&access)
        .into_iter()
        .find(|slot| renderer.slot_id(*slot) == id)
        .ok_or(ApiError::NotFound)?;
    one(&params, &renderer.slot(slot))
}

/// Organisers always; everyone else while the schedule is public.
fn sees_schedule(ctx: &EventContext, access: &Access) -> Result<(), ApiError> {
    if access.role == Role::Organiser || access.schedule_visible() {
        Ok(())
    } else {
        Err(refused(&ctx.caller))
    }
}

pub fn schedules(ctx: &EventContext, params: Params) -> ApiResult {
    let access = ctx.access();
    sees_schedule(ctx, &access)?;
    let pagination = pagination(ctx, &params)?;
    let expansion = super::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion);
    let q = params.get("q").map(str::to_lowercase);
    // The data holds one release: the list is it, or nothing.
    let listed: Vec<()> = renderer
        .schedule(None)
        .filter(|s| {
            q.as_ref()
                .is_none_or(|q| s.version.to_lowercase().contains(q.as_str()))
        })
        .map(|_| ())
        .into_iter()
        .collect();
    page(&ctx.caller, &params, pagination, &listed, |_| {
        renderer.schedule(None)
    })
}

pub fn schedule(ctx: &EventContext, params: Params, id: &str) -> ApiResult {
    let access = ctx.access();
    sees_schedule(ctx, &access)?;
    let event = &ctx.event.event;
    let current = schedule_id(event).ok_or(ApiError::NotFound)?;
    if id != "latest" && digits_id(id) != Some(current) {
        return Err(ApiError::NotFound);
    }
    let expansion = super::expansion(&params);
    let renderer = V1Renderer::new(&access, &ctx.caller.catalog.users, params.get("lang"))
        .expanding(&expansion);
    let slots = visible_slots(&access)
        .into_iter()
        .map(|slot| renderer.slot_id(slot))
        .collect();
    let view = renderer.schedule(Some(slots)).ok_or(ApiError::NotFound)?;
    one(&params, &view)
}
