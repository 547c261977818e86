//! pretalx's versioned API (`Pretalx-Version: v1`, pretalx-v1.md), answered
//! on the same paths as the legacy API: the resource modules hand a v1
//! request to the handlers here, one module per resource, which render
//! `domain::views_v1` over the same catalog and `domain::access` rules.
//! What v1 shares across lists is in `common`: its pagination, `o`
//! (ordering), `q`, `fields`, `omit` and `expand`. This module only
//! assembles the paths only v1 has (`endpoints`).
//!
//! Imports go one way: `common` and `doc` (bottom), then the resources
//! (`schedule` and `teams` as well), then this module.
//!
//! Served: events, submissions, speakers, slots, schedules, rooms, tracks,
//! submission types, tags, questions, question options, answers and reviews. The other v1 endpoints answer 404 for
//! v1 requests (docs/api.md, "The versioned API").

use axum::extract::{Path, State};

use crate::http::context::{Caller, EventContext};
use crate::http::endpoint::Endpoint;
use crate::http::params::Params;
use crate::http::state::AppState;
use common::only_in_v1;

pub mod answers;
mod common;
pub mod doc;
pub mod events;
pub mod questions;
pub mod reviews;
pub mod rooms;
pub mod schedule;
pub mod speakers;
pub mod submission_types;
pub mod submissions;
pub mod tags;
pub mod teams;
pub mod tracks;

// ---------------------------------------------------------------------------
// The paths only v1 has

pub fn endpoints() -> Vec<Endpoint> {
    // The legacy dialect answers 404 on these paths.
    macro_rules! v1_only {
        ($path:literal, $doc:expr, $handler:expr) => {
            Endpoint {
                path: $path,
                legacy: None,
                v1: Some($doc),
                handler: axum::routing::get($handler),
            }
        };
    }
    vec![
        v1_only!(
            "/api/events/{event}/slots",
            doc::SLOTS,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                ctx.off_workers("v1-slots", params, schedule::slots).await
            }
        ),
        v1_only!(
            "/api/events/{event}/slots/{id}",
            doc::SLOT,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                schedule::slot(&ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/schedules",
            doc::SCHEDULES,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                schedule::schedules(&ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/schedules/{id}",
            doc::SCHEDULE,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                schedule::schedule(&ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/organisers/{organiser}/teams",
            doc::TEAMS,
            |State(state): State<AppState>,
             caller: Caller,
             Path(organiser): Path<String>,
             params: Params| async move {
                only_in_v1(&caller)?;
                teams::teams(caller, params, &organiser, state.config.max_page_size)
            }
        ),
        v1_only!(
            "/api/organisers/{organiser}/teams/{id}",
            doc::TEAM,
            |caller: Caller, Path((organiser, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&caller)?;
                teams::team(caller, params, &organiser, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/tracks",
            doc::TRACKS,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                tracks::tracks(ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/tracks/{id}",
            doc::TRACK,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                tracks::track(ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/submission-types",
            doc::SUBMISSION_TYPES,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                submission_types::submission_types(ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/submission-types/{id}",
            doc::SUBMISSION_TYPE,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                submission_types::submission_type(ctx, params, &id)
            }
        ),
        v1_only!(
            "/api/events/{event}/question-options",
            doc::QUESTION_OPTIONS,
            |ctx: EventContext, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                questions::question_options(ctx, params)
            }
        ),
        v1_only!(
            "/api/events/{event}/question-options/{id}",
            doc::QUESTION_OPTION,
            |ctx: EventContext, Path((_, id)): Path<(String, String)>, params: Params| async move {
                only_in_v1(&ctx.caller)?;
                questions::question_option(ctx, params, &id)
            }
        ),
    ]
}
