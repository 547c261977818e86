//! v1 `/api/organisers/{organiser}/teams/` (pretalx-v1.md §2, §6): an
//! organiser's teams, for administrators and members of one of its teams
//! that may change teams (`access::sees_organiser_teams`). The dataset
//! keeps teams per event (`events[].organiser` names the organiser): the
//! same team (by id) listed in several events is one.

use super::common::{expansion, one, page, pagination_within, refused, search, sort_by, Key};
use crate::domain::access::sees_organiser_teams;
use crate::domain::views_v1::{self as views, OrganiserTeam};
use crate::http::context::Caller;
use crate::http::endpoint::ApiResult;
use crate::http::error::ApiError;
use crate::http::params::{digits_id, Params};
use crate::model::Track;

/// The organiser's teams by id, and its events' tracks; None when no event
/// names this organiser (any letter case); 401/403 for callers who may not
/// see them.
fn organiser_teams<'a>(
    caller: &'a Caller,
    organiser: &str,
) -> Result<(Vec<OrganiserTeam<'a>>, Vec<&'a Track>), ApiError> {
    let mut events: Vec<_> = caller
        .catalog
        .events
        .iter()
        .map(|e| &e.event)
        .filter(|e| {
            e.organiser
                .as_deref()
                .is_some_and(|o| o.eq_ignore_ascii_case(organiser))
        })
        .collect();
    events.sort_by(|a, b| a.slug.cmp(&b.slug));
    if events.is_empty() {
        return Err(ApiError::NotFound);
    }
    let mut teams: Vec<OrganiserTeam> = Vec::new();
    for event in &events {
        for team in &event.teams {
            let id = views::team_id(organiser, team);
            match teams.iter_mut().find(|t| t.id == id) {
                Some(known) => {
                    known.events.push(&event.slug);
                    known.limit_tracks.extend(&team.limit_tracks);
                }
                None => teams.push(OrganiserTeam {
                    id,
                    team,
                    events: vec![&event.slug],
                    limit_tracks: team.limit_tracks.clone(),
                }),
            }
        }
    }
    let all: Vec<&crate::model::Team> = teams.iter().map(|t| t.team).collect();
    if !sees_organiser_teams(caller.user(), &all) {
        return Err(refused(caller));
    }
    teams.sort_by_key(|t| t.id);
    let tracks = events.iter().flat_map(|e| &e.tracks).collect();
    Ok((teams, tracks))
}

/// `max_page_size`: the server's (`serve --max-page-size`), as for every
/// v1 list.
pub fn teams(caller: Caller, params: Params, organiser: &str, max_page_size: usize) -> ApiResult {
    let mut params = params;
    let (teams, tracks) = organiser_teams(&caller, organiser)?;
    let pagination = pagination_within(&params, max_page_size)?;
    params.check()?;
    let mut listed: Vec<&OrganiserTeam> = teams
        .iter()
        .filter(|t| search(&params, [t.team.name.as_str()]))
        .collect();
    if let Some(o) = params.get("o") {
        let (descending, field) = o.strip_prefix('-').map_or((false, o), |f| (true, f));
        match field {
            "id" => sort_by(&mut listed, descending, |t| Key::Int(Some(t.id))),
            "name" => sort_by(&mut listed, descending, |t| {
                Key::Text(t.team.name.to_lowercase())
            }),
            _ => {}
        }
    }
    let expand = expansion(&params);
    let track = |id| tracks.iter().copied().find(|t| t.id == id);
    page(&caller, &params, pagination, &listed, |t| {
        views::team(t, &caller.catalog.users, track, &expand)
    })
}

pub fn team(caller: Caller, params: Params, organiser: &str, id: &str) -> ApiResult {
    let (teams, tracks) = organiser_teams(&caller, organiser)?;
    let id = digits_id(id).ok_or(ApiError::NotFound)?;
    let item = teams
        .iter()
        .find(|t| t.id == id)
        .ok_or(ApiError::NotFound)?;
    let expand = expansion(&params);
    let track = |id| tracks.iter().copied().find(|t| t.id == id);
    one(
        &params,
        &views::team(item, &caller.catalog.users, track, &expand),
    )
}
