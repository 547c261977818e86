//! v1 `/events/`: a bare array (v1 does not page events), and the detail.

use super::common::{boolean, first_text, order, search, Key};
use crate::domain::access::Access;
use crate::domain::views_v1 as views;
use crate::http::context::{Caller, EventContext};
use crate::http::endpoint::{json, ApiResult};
use crate::http::error::ApiError;
use crate::http::params::Params;

pub fn events(caller: Caller, params: Params) -> ApiResult {
    let mut params = params;
    let is_public = boolean(&params, "is_public");
    params.check()?;
    let user = caller.user();
    let mut events: Vec<_> = caller
        .catalog
        .events
        .iter()
        .filter(|e| Access::new(e, user, caller.now).event_visible())
        .filter(|e| is_public.is_none_or(|p| e.event.is_public == p))
        .filter(|e| search(&params, e.event.name.texts()))
        .collect();
    order(
        &params,
        &mut events,
        &[
            ("date_from", |e| Key::Text(e.event.date_from.to_string())),
            ("date_to", |e| {
                Key::Text(e.event.date_to.map(|d| d.to_string()).unwrap_or_default())
            }),
            ("name", |e| first_text(&e.event.name)),
            ("slug", |e| Key::Text(e.event.slug.to_lowercase())),
        ],
    );
    // No `lang` (pretalx applies it inside an event only), and no
    // `fields`/`omit` (its event serializers have no flex fields).
    let items: Vec<_> = events
        .iter()
        .map(|e| views::event(&e.event, false, None))
        .collect();
    Ok(json(&items))
}

/// The event by its slug as the path spells it: in the detail path the
/// slug is case-sensitive (in sub-paths it is not).
pub fn event(ctx: EventContext, params: Params, slug: &str) -> ApiResult {
    let event = &ctx.event.event;
    if slug != event.slug {
        return Err(ApiError::NotFound);
    }
    let lang = views::lang_of(event, params.get("lang"));
    Ok(json(&views::event(event, true, lang)))
}
