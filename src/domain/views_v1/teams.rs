//! v1 teams (organiser level).

use super::*;

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::TeamMember)]
pub struct TeamMemberView<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub email: &'a str,
}

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Team)]
pub struct TeamView<'a> {
    pub id: i64,
    pub name: &'a str,
    /// User codes; with `expand=members`, {code, name, email}.
    #[schema(schema_with = many_refs)]
    pub members: Refs<&'a str, TeamMemberView<'a>>,
    /// Invite ids: the dataset holds no invites, so always empty.
    pub invites: Vec<i64>,
    pub all_events: bool,
    pub limit_events: Vec<&'a str>,
    /// Track ids; with `expand=limit_tracks`, the tracks.
    #[schema(schema_with = many_refs)]
    pub limit_tracks: Refs<i64, TrackView<'a>>,
    pub can_create_events: bool,
    pub can_change_teams: bool,
    pub can_change_organiser_settings: bool,
    pub can_change_event_settings: bool,
    pub can_change_submissions: bool,
    pub is_reviewer: bool,
    pub force_hide_speaker_names: bool,
}

/// One of an organiser's teams: the team as one of its events lists it,
/// the slugs of every event that lists it, and the track limits of all of
/// them (each event lists only its own tracks).
pub struct OrganiserTeam<'a> {
    pub id: i64,
    pub team: &'a Team,
    pub events: Vec<&'a str>,
    pub limit_tracks: Vec<i64>,
}

/// A team's id: pretalx's where the dataset has it, else one derived from
/// the organiser and the team's name.
pub fn team_id(organiser: &str, team: &Team) -> i64 {
    team.id
        .unwrap_or_else(|| derived_id(&["team", &organiser.to_lowercase(), &team.name]))
}

/// A team as the v1 API shows it; `expand` may name `members` and
/// `limit_tracks` (tracks are looked up in the organiser's events).
pub fn team<'a>(
    item: &OrganiserTeam<'a>,
    users: &'a crate::domain::catalog::Users,
    tracks: impl Fn(i64) -> Option<&'a Track>,
    expand: &Expansion,
) -> TeamView<'a> {
    let team = item.team;
    let members = match expand.get("members") {
        None => Refs::Ids(team.members.iter().map(String::as_str).collect()),
        Some(_) => Refs::Objects(
            team.members
                .iter()
                .filter_map(|code| users.get(code.as_str()))
                .map(|u| TeamMemberView {
                    code: &u.code,
                    name: &u.name,
                    email: &u.email,
                })
                .collect(),
        ),
    };
    let mut track_ids = item.limit_tracks.clone();
    track_ids.sort_unstable();
    track_ids.dedup();
    let limit_tracks = match expand.get("limit_tracks") {
        None => Refs::Ids(track_ids),
        Some(_) => Refs::Objects(
            track_ids
                .into_iter()
                .filter_map(&tracks)
                .map(|t| track_view(t, None))
                .collect(),
        ),
    };
    let limit_events = if team.all_events {
        Vec::new()
    } else if team.limit_events.is_empty() {
        item.events.clone()
    } else {
        team.limit_events.iter().map(String::as_str).collect()
    };
    TeamView {
        id: item.id,
        name: &team.name,
        members,
        invites: Vec::new(),
        all_events: team.all_events,
        limit_events,
        limit_tracks,
        can_create_events: team.can_create_events,
        can_change_teams: team.can_change_teams,
        can_change_organiser_settings: team.can_change_organiser_settings,
        can_change_event_settings: team.can_change_event_settings,
        can_change_submissions: team.can_change_submissions,
        is_reviewer: team.is_reviewer,
        force_hide_speaker_names: team.force_hide_speaker_names,
    }
}
