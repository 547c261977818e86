//! What pretalx's versioned API (v1) shows beyond the older dataset (issue
//! 28): event languages and images, schedule history, score categories and
//! review scores, tokens and codes, ...
//!
//! Filled after everything else, from the generated records and a
//! generator of its own (seeded from the main seed), so that every value
//! the demo had before stays exactly as it was. New ids (schedules, score
//! categories and values, resources, older and work-in-progress slots)
//! count on from what the main pass used.
//!
//! The nested extras are capped, so that huge demos keep their size:
//! schedule history lists at most [`HISTORY_SLOTS`] slots per schedule, and
//! only the reviews of an event's first [`SCORED_SUBMISSIONS`] submissions
//! carry per-category scores.

use chrono::Duration;
use chrono_tz::Tz;
use fastrand::Rng;

use super::helpers::{i18n, local_time, uuid};
use super::tables::CODE_ALPHABET;
use crate::model::{
    ArcStr, Dataset, Decimal, Event, I18n, ReviewScore, ScheduleSlot, ScheduleVersion,
    ScoreCategory, SubmissionState, WipSchedule,
};

/// Slots per older or work-in-progress schedule, at most.
const HISTORY_SLOTS: usize = 400;
/// Reviews of this many submissions per event carry category scores.
const SCORED_SUBMISSIONS: usize = 500;

const SPEAKER_NOTES: [&str; 5] = [
    "Needs a step-free way to the stage.",
    "Travel costs reimbursed up to 300 EUR.",
    "Prefers a slot after lunch.",
    "Vegetarian; joins the speakers' dinner.",
    "Asked for a lapel microphone.",
];

/// A score category with its values (value, label).
struct CategoryTemplate {
    en: &'static str,
    de: &'static str,
    weight: &'static str,
    required: bool,
    active: bool,
    /// Limited to the event's first track, and left out of the total.
    first_track_only: bool,
    values: &'static [(&'static str, &'static str)],
}

const CATEGORIES: [CategoryTemplate; 4] = [
    CategoryTemplate {
        en: "Content",
        de: "Inhalt",
        weight: "1.0",
        required: true,
        active: true,
        first_track_only: false,
        values: &[("0.00", "Weak"), ("1.00", "Solid"), ("2.00", "Excellent")],
    },
    CategoryTemplate {
        en: "Presentation",
        de: "Präsentation",
        weight: "0.5",
        required: false,
        active: true,
        first_track_only: false,
        values: &[("0.00", "Unclear"), ("1.00", "Good"), ("2.00", "Gripping")],
    },
    CategoryTemplate {
        en: "Fits the track",
        de: "Passt zum Track",
        weight: "0.0",
        required: false,
        active: true,
        first_track_only: true,
        values: &[("0.00", "No"), ("1.00", "Yes")],
    },
    CategoryTemplate {
        en: "Originality (last year's scale)",
        de: "Originalität (Skala des Vorjahrs)",
        weight: "1.0",
        required: false,
        active: false,
        first_track_only: false,
        values: &[("0.00", "Seen before"), ("1.50", "New")],
    },
];

/// Ids of the kinds this pass adds, counting on after the main pass.
struct Ids {
    schedule: i64,
    slot: i64,
    score_category: i64,
    score: i64,
    resource: i64,
}

impl Ids {
    fn next(counter: &mut i64) -> i64 {
        *counter += 1;
        *counter
    }
}

/// Fills the v1 fields of every event of `dataset`.
pub(super) fn fill(dataset: &mut Dataset, seed: u64) {
    // Mixed into the seed ("v1data") so that it does not repeat the main
    // sequence or the tokens'.
    let mut rng = Rng::with_seed(seed ^ 0x7631_6461_7461);
    let slots_used = dataset
        .events
        .iter()
        .flat_map(|e| {
            let slots = e.submissions.iter().flat_map(|s| &s.slots).map(|s| s.id);
            let breaks = e.schedule.iter().flat_map(|s| &s.breaks).map(|b| b.id);
            slots.chain(breaks)
        })
        .flatten()
        .max()
        .unwrap_or(0);
    let mut ids = Ids {
        schedule: 0,
        slot: slots_used,
        score_category: 0,
        score: 0,
        resource: 0,
    };
    for (index, event) in dataset.events.iter_mut().enumerate() {
        fill_event(event, index, &mut rng, &mut ids);
    }
}

/// Every field `fill` fills back at its default (`demo --portable`: the
/// published format, which has none of them).
pub(super) fn clear(dataset: &mut Dataset) {
    for event in &mut dataset.events {
        event.locales.clear();
        event.content_locales.clear();
        event.email.clear();
        (event.logo, event.header_image, event.custom_domain) = (None, None, None);
        event.older_schedules.clear();
        event.wip_schedule = None;
        event.score_categories.clear();
        if let Some(schedule) = &mut event.schedule {
            (schedule.id, schedule.comment) = (None, I18n::default());
        }
        event.rooms.iter_mut().for_each(|r| r.uuid = None);
        for track in &mut event.tracks {
            track.requires_access_code = false;
        }
        for kind in &mut event.submission_types {
            (kind.deadline, kind.requires_access_code) = (None, false);
        }
        for q in &mut event.questions {
            (q.min_number, q.max_number, q.icon) = (None, None, None);
            (q.min_date, q.max_date) = (None, None);
            (q.min_datetime, q.max_datetime) = (None, None);
            q.options.iter_mut().for_each(|o| o.position = None);
        }
        for p in event.speakers.iter_mut().map(std::sync::Arc::make_mut) {
            (p.has_arrived, p.internal_notes) = (false, String::new());
        }
        for s in event.submissions.iter_mut().map(std::sync::Arc::make_mut) {
            (s.invitation_token, s.review_code, s.access_code) = (None, None, None);
            s.resources.iter_mut().for_each(|r| r.id = None);
        }
        for review in event.reviews.iter_mut().map(std::sync::Arc::make_mut) {
            review.scores = Box::default();
        }
    }
}

fn fill_event(event: &mut Event, index: usize, rng: &mut Rng, ids: &mut Ids) {
    let tz: Tz = event.timezone.parse().unwrap_or(chrono_tz::UTC);
    let showcase = event.is_public && event.show_schedule && event.schedule.is_some();
    let slug = event.slug.clone();

    // Languages: the event's own and the other of its name's two; the
    // content languages its submissions are in (the event's first).
    let other = if event.locale == "en" { "de" } else { "en" };
    event.locales = vec![event.locale.clone(), other.to_string()];
    let mut content = vec![event.locale.clone()];
    let mut seen: Vec<&str> = event
        .submissions
        .iter()
        .map(|s| s.content_locale.as_str())
        .filter(|l| *l != event.locale)
        .collect();
    seen.sort_unstable();
    seen.dedup();
    content.extend(seen.into_iter().map(str::to_string));
    // `[locale]` is the default, kept as none.
    event.content_locales = if content.len() > 1 {
        content
    } else {
        Vec::new()
    };
    event.email = format!("{slug}@demo.example");
    event.logo = Some(format!("https://demo.example/media/{slug}/img/logo.svg"));
    if showcase {
        event.header_image = Some(format!("https://demo.example/media/{slug}/img/header.jpg"));
        event.custom_domain = Some("https://talks.demo.example".to_string());
    }

    // pretalx computes a uuid for rooms without a guid.
    for room in event.rooms.iter_mut().filter(|r| r.guid.is_none()) {
        room.uuid = Some(uuid(rng));
    }
    // Access codes unlock the last track and the lightning talks; workshops
    // close earlier than the rest of the CfP.
    if let Some(track) = event.tracks.last_mut() {
        track.requires_access_code = true;
    }
    let first_day = event.date_from;
    if let Some(workshops) = event.submission_types.get_mut(1) {
        workshops.deadline = Some(local_time(
            &tz,
            first_day - Duration::days(120),
            23 * 60 + 59,
        ));
    }
    if let Some(lightning) = event.submission_types.get_mut(2) {
        lightning.requires_access_code = true;
    }
    let last_day = event.date_to.unwrap_or(first_day);
    questions(event, &tz, first_day, last_day);

    for profile in event.speakers.iter_mut().map(std::sync::Arc::make_mut) {
        profile.has_arrived = showcase && rng.f64() < 0.1;
        if rng.f64() < 0.12 {
            profile.internal_notes = SPEAKER_NOTES[rng.usize(..SPEAKER_NOTES.len())].to_string();
        }
    }
    // pretalx gives every submission an invitation token and a review code;
    // a few were made with the event's access code.
    let access_code = index as i64 + 1;
    for submission in event.submissions.iter_mut().map(std::sync::Arc::make_mut) {
        submission.invitation_token = Some(secret(rng));
        submission.review_code = Some(secret(rng));
        if rng.f64() < 0.04 {
            submission.access_code = Some(access_code);
        }
        for resource in &mut submission.resources {
            resource.id = Some(Ids::next(&mut ids.resource));
        }
    }

    scores(event, rng, ids);
    schedules(event, showcase, rng, ids);
}

/// Limits for the number, date and datetime questions, an icon, and
/// options in another order than listed.
fn questions(
    event: &mut Event,
    tz: &Tz,
    first_day: chrono::NaiveDate,
    last_day: chrono::NaiveDate,
) {
    use crate::model::QuestionVariant;
    let slug = event.slug.clone();
    let mut reordered = false;
    for question in &mut event.questions {
        match question.variant {
            QuestionVariant::Number => {
                question.min_number = Some(Decimal("1".into()));
                question.max_number = Some(Decimal("200".into()));
            }
            QuestionVariant::Date => {
                question.min_date = Some(first_day);
                question.max_date = Some(last_day);
            }
            QuestionVariant::Datetime => {
                question.min_datetime = Some(local_time(tz, first_day - Duration::days(3), 0));
                question.max_datetime = Some(local_time(tz, last_day, 18 * 60));
            }
            QuestionVariant::Choices if !reordered && question.options.len() >= 2 => {
                // The organisers moved the second option to the top.
                reordered = true;
                question.options[0].position = Some(1);
                question.options[1].position = Some(0);
                question.icon = Some(format!(
                    "https://demo.example/media/{slug}/questions/{}/icon.svg",
                    question.id
                ));
            }
            _ => {}
        }
    }
}

/// The event's score categories, and scores on the reviews of its first
/// submissions that have a total score.
fn scores(event: &mut Event, rng: &mut Rng, ids: &mut Ids) {
    let first_track = event.tracks.first().map(|t| t.id);
    // Per category: its values as review scores.
    let mut values: Vec<Vec<ReviewScore>> = Vec::new();
    event.score_categories = CATEGORIES
        .iter()
        .map(|template| {
            let id = Ids::next(&mut ids.score_category);
            values.push(
                template
                    .values
                    .iter()
                    .map(|&(value, label)| ReviewScore {
                        id: Ids::next(&mut ids.score),
                        category: id,
                        value: Decimal(value.into()),
                        label: Some(label.into()),
                    })
                    .collect(),
            );
            ScoreCategory {
                id,
                name: i18n(template.en, Some(template.de)),
                weight: Decimal(template.weight.into()),
                required: template.required,
                active: template.active,
                limit_tracks: match (template.first_track_only, first_track) {
                    (true, Some(track)) => vec![track],
                    _ => Vec::new(),
                },
                is_independent: template.first_track_only,
            }
        })
        .collect();
    let scored: std::collections::HashMap<&str, Option<i64>> = event
        .submissions
        .iter()
        .take(SCORED_SUBMISSIONS)
        .map(|s| (s.code.as_str(), s.track))
        .collect();
    for review in event.reviews.iter_mut().map(std::sync::Arc::make_mut) {
        let (Some(total), Some(track)) = (review.score, scored.get(review.submission.as_str()))
        else {
            continue;
        };
        // Content follows the total; the others are the reviewer's mood.
        let content = ((total / 2.5).round() as usize).min(2);
        let mut scores = vec![values[0][content].clone()];
        if rng.f64() < 0.8 {
            scores.push(values[1][rng.usize(..values[1].len())].clone());
        }
        if first_track.is_some() && *track == first_track {
            scores.push(values[2][rng.usize(..values[2].len())].clone());
        }
        review.scores = scores.into();
    }
}

/// The current release's id and note, the releases before it, and the
/// work-in-progress schedule.
fn schedules(event: &mut Event, showcase: bool, rng: &mut Rng, ids: &mut Ids) {
    // The current release's slots and breaks, as history slots.
    let mut current: Vec<ScheduleSlot> = Vec::new();
    for submission in &event.submissions {
        for slot in &submission.slots {
            current.push(ScheduleSlot {
                id: None,
                submission: Some(submission.code.clone()),
                room: slot.room,
                start: slot.start,
                end: slot.end,
                is_visible: slot.is_visible,
                description: I18n::default(),
            });
        }
    }
    let Some(schedule) = &mut event.schedule else {
        // Nothing released yet: the organisers' work in progress holds the
        // accepted proposals, not placed yet.
        let slots: Vec<ScheduleSlot> = event
            .submissions
            .iter()
            .filter(|s| {
                matches!(
                    s.state,
                    SubmissionState::Accepted | SubmissionState::Confirmed
                )
            })
            .take(HISTORY_SLOTS)
            .map(|s| ScheduleSlot {
                id: Some(Ids::next(&mut ids.slot)),
                submission: Some(s.code.clone()),
                room: None,
                start: None,
                end: None,
                is_visible: false,
                description: I18n::default(),
            })
            .collect();
        event.wip_schedule = Some(WipSchedule {
            id: Some(Ids::next(&mut ids.schedule)),
            comment: I18n::default(),
            slots,
        });
        return;
    };
    for gap in &schedule.breaks {
        current.push(ScheduleSlot {
            id: None,
            submission: None,
            room: gap.room,
            start: Some(gap.start),
            end: Some(gap.end),
            is_visible: true,
            description: gap.description.clone(),
        });
    }
    let published = schedule.published.unwrap_or_default();
    let copy = |slots: &[ScheduleSlot], ids: &mut Ids, moved: &mut dyn FnMut() -> bool| {
        slots
            .iter()
            .take(HISTORY_SLOTS)
            .map(|slot| {
                let shift = if slot.submission.is_some() && slot.start.is_some() && moved() {
                    Duration::minutes(60)
                } else {
                    Duration::zero()
                };
                ScheduleSlot {
                    id: Some(Ids::next(&mut ids.slot)),
                    start: slot.start.map(|t| t + shift),
                    end: slot.end.map(|t| t + shift),
                    ..slot.clone()
                }
            })
            .collect::<Vec<_>>()
    };

    // Older releases, oldest first: a first draft with about half of the
    // talks (showcase events only), then the one before the current, where
    // a few talks were an hour later and a withdrawn talk still had its slot.
    let mut older = Vec::new();
    if showcase {
        let draft: Vec<ScheduleSlot> = current
            .iter()
            .filter(|s| s.submission.is_none() || rng.f64() < 0.5)
            .cloned()
            .collect();
        older.push(ScheduleVersion {
            id: Some(Ids::next(&mut ids.schedule)),
            version: "0.1".to_string(),
            published: published - Duration::days(21),
            comment: i18n(
                "A first draft: keynotes, workshops and most talks.",
                Some("Ein erster Entwurf: Keynotes, Workshops und die meisten Vorträge."),
            ),
            slots: copy(&draft, ids, &mut || false),
        });
    }
    let mut previous = copy(&current, ids, &mut || rng.f64() < 0.1);
    let dropped = event.submissions.iter().filter(|s| {
        s.slots.is_empty()
            && matches!(
                s.state,
                SubmissionState::Withdrawn | SubmissionState::Canceled
            )
    });
    if let (Some(dropped), Some(like)) = (dropped.take(1).next(), current.first()) {
        if previous.len() < HISTORY_SLOTS {
            previous.push(ScheduleSlot {
                id: Some(Ids::next(&mut ids.slot)),
                submission: Some(dropped.code.clone()),
                start: like.start.map(|t| t + Duration::hours(2)),
                end: like.end.map(|t| t + Duration::hours(2)),
                ..like.clone()
            });
        }
    }
    older.push(ScheduleVersion {
        id: Some(Ids::next(&mut ids.schedule)),
        version: "0.9".to_string(),
        published: published - Duration::days(7),
        comment: i18n("Almost there.", Some("Fast fertig.")),
        slots: previous,
    });

    schedule.id = Some(Ids::next(&mut ids.schedule));
    schedule.comment = if showcase {
        i18n(
            "The full programme, with every workshop and the social events.",
            Some("Das ganze Programm, mit allen Workshops und dem Rahmenprogramm."),
        )
    } else {
        i18n(
            "The preliminary programme.",
            Some("Das vorläufige Programm."),
        )
    };
    event.older_schedules = older;

    // The work in progress: the current release with a few talks moved.
    let wip = copy(&current, ids, &mut || rng.f64() < 0.05);
    event.wip_schedule = Some(WipSchedule {
        id: Some(Ids::next(&mut ids.schedule)),
        comment: if showcase {
            i18n("Swapping two talks after speaker feedback.", None)
        } else {
            I18n::default()
        },
        slots: wip,
    });
}

/// 32 characters like pretalx's invitation tokens and review codes.
fn secret(rng: &mut Rng) -> ArcStr {
    let text: String = (0..32)
        .map(|_| char::from(CODE_ALPHABET[rng.usize(..CODE_ALPHABET.len())]))
        .collect();
    text.into()
}
