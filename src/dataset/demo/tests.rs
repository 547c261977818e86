//! The demo as a whole: determinism, validity, and what each role and
//! event shows.

use std::collections::{HashMap, HashSet};

use super::generator::generate_without_v1;
use super::*;
use crate::dataset::export;
use crate::model::{hash_token, QuestionTarget, QuestionVariant, SubmissionState, TokenHash, User};

fn small() -> DemoOptions {
    DemoOptions {
        events: 3,
        submissions: 40,
        seed: 7,
    }
}

/// The generated document passes import validation. (The reference
/// validator, shared/conformance/validate_dataset.py, checks the same
/// demos in scripts/e2e/suites.py.)
fn validate(options: &DemoOptions) {
    let (dataset, _) = generate(options);
    let document = export::to_json(&dataset);
    if let Err(problems) = crate::dataset::validate::parse_value(&document) {
        panic!("{options:?} is invalid: {problems:#?}");
    }
}

#[test]
fn same_options_give_the_same_dataset() {
    let options = small();
    let (first, first_logins) = generate(&options);
    let (second, second_logins) = generate(&options);
    assert_eq!(export::to_json(&first), export::to_json(&second));
    let tokens = |logins: &[DemoLogin]| logins.iter().map(|l| l.token.clone()).collect::<Vec<_>>();
    assert_eq!(tokens(&first_logins), tokens(&second_logins));

    let (other, other_logins) = generate(&DemoOptions { seed: 8, ..options });
    assert_ne!(export::to_json(&first), export::to_json(&other));
    assert_ne!(tokens(&first_logins), tokens(&other_logins));
}

#[test]
fn logins_do_not_depend_on_the_size() {
    let (_, small_logins) = generate(&DemoOptions {
        submissions: 10,
        ..DemoOptions::default()
    });
    let (_, default_logins) = generate(&DemoOptions::default());
    let tokens = |logins: &[DemoLogin]| logins.iter().map(|l| l.token.clone()).collect::<Vec<_>>();
    assert_eq!(tokens(&small_logins), tokens(&default_logins));
}

#[test]
fn default_demo_is_valid() {
    validate(&DemoOptions::default());
}

#[test]
fn three_small_events_are_valid() {
    validate(&small());
}

#[test]
fn tiny_and_empty_demos_are_valid() {
    for submissions in [0, 1, 3] {
        validate(&DemoOptions {
            events: 2,
            submissions,
            seed: 1,
        });
    }
}

#[test]
fn every_state_variant_and_target_occurs() {
    let (dataset, _) = generate(&DemoOptions::default());
    for event in &dataset.events {
        let states: HashSet<&str> = event.submissions.iter().map(|s| s.state.as_str()).collect();
        for state in SubmissionState::NAMES {
            assert!(
                states.contains(state),
                "{} has no {state} submission",
                event.slug
            );
        }
        let variants: HashSet<&str> = event.questions.iter().map(|q| q.variant.as_str()).collect();
        assert_eq!(variants.len(), QuestionVariant::NAMES.len());
        let targets: HashSet<&str> = event.questions.iter().map(|q| q.target.as_str()).collect();
        assert_eq!(targets.len(), QuestionTarget::NAMES.len());
        let required: HashSet<&str> = event
            .questions
            .iter()
            .map(|q| q.question_required.as_str())
            .collect();
        assert_eq!(required.len(), 3);
        assert!(event.questions.iter().any(|q| !q.active));
        assert!(event.questions.iter().any(|q| !q.is_visible_to_reviewers));
        assert!(event.questions.iter().any(|q| !q.tracks.is_empty()));
        assert!(
            event.questions.iter().any(|q| q.is_public)
                && event.questions.iter().any(|q| !q.is_public)
        );
        for q in event
            .questions
            .iter()
            .filter(|q| q.variant.as_str().contains("choice"))
        {
            assert!(!q.options.is_empty(), "question {} has no options", q.id);
        }
        // Answers carry options of their own question only.
        let options: HashMap<i64, Vec<i64>> = event
            .questions
            .iter()
            .map(|q| (q.id, q.options.iter().map(|o| o.id).collect()))
            .collect();
        for answer in &event.answers {
            assert!(answer
                .options
                .iter()
                .all(|o| options[&answer.question].contains(o)));
        }
        let answered: HashSet<&str> = event
            .answers
            .iter()
            .map(|a| {
                if a.submission.is_some() {
                    "submission"
                } else if a.person.is_some() {
                    "speaker"
                } else {
                    "reviewer"
                }
            })
            .collect();
        assert_eq!(
            answered.len(),
            3,
            "{} lacks answers of some target",
            event.slug
        );
        assert!(event.tags.iter().any(|t| t.tag.contains('.')));
        assert!(event.rooms.iter().any(|r| r.guid.is_none()));
        assert!(event.rooms.iter().any(|r| r.guid.is_some()));
        assert!((4..=6).contains(&event.tracks.len()));
        assert!((3..=6).contains(&event.rooms.len()));
        assert!((5..=8).contains(&event.tags.len()));
    }
}

#[test]
fn first_event_exercises_every_role() {
    let (dataset, logins) = generate(&DemoOptions::default());
    let event = &dataset.events[0];
    assert_eq!(event.slug, "democonf");
    assert_eq!(event.timezone, "Europe/Berlin");
    assert_eq!(event.date_from.to_string().get(..4), Some("2027"));
    assert!(event.is_public && event.show_schedule && event.schedule.is_some());

    let public_talk = event.submissions.iter().any(|s| {
        s.state == SubmissionState::Confirmed
            && s.slots.iter().any(|sl| sl.is_visible && sl.start.is_some())
    });
    assert!(public_talk, "no public talk");
    assert!(event
        .submissions
        .iter()
        .any(|s| s.slots.len() == 2 && s.slot_count == 2));
    assert!(event
        .submissions
        .iter()
        .any(|s| s.slots.iter().any(|sl| !sl.is_visible)));
    assert!(event
        .submissions
        .iter()
        .any(|s| matches!(s.state.as_str(), "canceled" | "withdrawn")
            && s.slots.iter().any(|sl| sl.is_visible)));
    let anonymised = event
        .submissions
        .iter()
        .find_map(|s| s.anonymised.as_ref().map(|a| (s, a)))
        .expect("an anonymised submission");
    assert!(!anonymised.1.title.is_empty() && !anonymised.1.abstract_.is_empty());
    assert_ne!(anonymised.0.title, anonymised.1.title);
    assert!(event.submissions.iter().any(|s| s.pending_state.is_some()));
    assert!(event.submissions.iter().any(|s| s.is_featured));
    assert!(event.submissions.iter().any(|s| s.do_not_record));
    assert!(event.submissions.iter().any(|s| !s.resources.is_empty()));
    // `portable` leaves the private ones out, and only them.
    let mut plain = dataset.clone();
    portable(&mut plain);
    let count = |d: &Dataset, public: bool| {
        d.events
            .iter()
            .flat_map(|e| &e.submissions)
            .flat_map(|s| &s.resources)
            .filter(|r| r.is_public == public)
            .count()
    };
    assert_eq!(count(&plain, false), 0);
    assert_eq!(count(&plain, true), count(&dataset, true));
    // Nor does it write the organiser and the teams' organiser-level
    // fields (`shared/spec/dataset.md` knows neither).
    let written = crate::dataset::export::to_json(&plain);
    for event in written["events"].as_array().unwrap() {
        assert!(event.get("organiser").is_none());
        // Nor pretalx 2026's fields, which the published format predates.
        assert!(event.get("og_image").is_none());
        for submission in event["submissions"].as_array().unwrap() {
            for key in ["updated", "invitations", "attendee_signup"] {
                assert!(submission.get(key).is_none(), "{key}");
            }
        }
        for question in event["questions"].as_array().unwrap() {
            assert!(question.get("identifier").is_none());
            for option in question["options"].as_array().unwrap() {
                assert!(option.get("identifier").is_none());
            }
        }
        for kind in event["tracks"]
            .as_array()
            .unwrap()
            .iter()
            .chain(event["submission_types"].as_array().unwrap())
        {
            assert!(kind.get("attendee_signup_required").is_none());
        }
        for team in event["teams"].as_array().unwrap() {
            let mut keys: Vec<&str> = team
                .as_object()
                .unwrap()
                .keys()
                .map(|k| k.as_str())
                .collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                [
                    "can_change_submissions",
                    "force_hide_speaker_names",
                    "is_reviewer",
                    "limit_tracks",
                    "members",
                    "name"
                ]
            );
        }
    }
    // A talk on the public schedule with a private resource beside a public one.
    assert!(event.submissions.iter().any(|s| {
        s.slots.iter().any(|sl| sl.is_visible)
            && s.resources.iter().any(|r| !r.is_public)
            && s.resources.iter().any(|r| r.is_public)
    }));
    assert!(event.submissions.iter().any(|s| s.image.is_some()));
    assert!(event.submissions.iter().any(|s| s.duration.is_none()));
    let locales: HashSet<&str> = event
        .submissions
        .iter()
        .map(|s| s.content_locale.as_str())
        .collect();
    assert!(locales.contains("en") && locales.contains("de") && locales.contains("fr"));
    assert!(event.reviews.iter().any(|r| r.score.is_none()));
    assert!(event
        .reviews
        .iter()
        .any(|r| r.score.is_some_and(|s| s.fract() != 0.0)));

    // Tokens match, and each login has its role in the first event.
    let users: HashMap<&str, &User> = dataset
        .users
        .iter()
        .map(|u| (u.email.as_str(), u))
        .collect();
    let code = |role: &str| {
        let login = logins
            .iter()
            .find(|l| l.role == role)
            .expect("a login per role");
        users[login.email.as_str()].code.clone()
    };
    for login in &logins {
        let user = users[login.email.as_str()];
        assert_eq!(login.token.len(), 40);
        assert!(login
            .token
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_eq!(
            user.token_hashes,
            vec![TokenHash::plain(hash_token(&login.token))]
        );
    }
    assert!(users["admin@demo.example"].is_administrator);
    let teams_of = |code: &str| {
        event
            .teams
            .iter()
            .filter(|t| t.members.iter().any(|m| m == code))
            .collect::<Vec<_>>()
    };
    assert!(teams_of(&code("organiser"))
        .iter()
        .any(|t| t.can_change_submissions));
    let reviewer = teams_of(&code("reviewer"));
    assert!(
        reviewer
            .iter()
            .any(|t| t.is_reviewer && t.limit_tracks.is_empty())
            && reviewer.iter().all(|t| !t.can_change_submissions)
    );
    let track = teams_of(&code("track reviewer"));
    assert!(
        !track.is_empty()
            && track
                .iter()
                .all(|t| t.is_reviewer && !t.limit_tracks.is_empty())
    );
    let blind = teams_of(&code("blind reviewer"));
    assert!(
        !blind.is_empty()
            && blind
                .iter()
                .all(|t| t.is_reviewer && t.force_hide_speaker_names)
    );
    let speaker = code("speaker");
    assert!(teams_of(&speaker)
        .iter()
        .all(|t| !t.is_reviewer && !t.can_change_submissions));
    assert!(event.submissions.iter().any(
        |s| s.speakers.iter().any(|c| *c == *speaker) && s.state == SubmissionState::Confirmed
    ));
    assert!(event.reviews.iter().any(|r| r.user == code("reviewer")));
    assert!(event
        .reviews
        .iter()
        .any(|r| r.user == code("track reviewer")));

    let second = &dataset.events[1];
    assert_eq!(second.slug, "democonf2");
    assert!(!second.is_public && second.schedule.is_none());
    assert!(second.submissions.iter().all(|s| s.slots.is_empty()));
}

#[test]
fn v1_fields_are_filled() {
    let (dataset, _) = generate(&DemoOptions::default());
    let showcase = &dataset.events[0];
    let private = &dataset.events[1];
    for event in &dataset.events {
        assert!(event.locales().len() == 2 && event.locales()[0] == event.locale);
        assert!(!event.email.is_empty() && event.logo.is_some());
        assert!(!event.score_categories.is_empty());
        assert!(event.score_categories.iter().any(|c| !c.active));
        assert!(event
            .score_categories
            .iter()
            .any(|c| c.is_independent && !c.limit_tracks.is_empty()));
        assert!(event.reviews.iter().any(|r| r.scores.len() >= 2));
        assert!(event
            .rooms
            .iter()
            .all(|r| r.guid.is_some() != r.uuid.is_some()));
        assert!(event.tracks.iter().any(|t| t.requires_access_code));
        assert!(event.submission_types.iter().any(|t| t.deadline.is_some()));
        assert!(event
            .submission_types
            .iter()
            .any(|t| t.requires_access_code));
        let question = |variant: QuestionVariant| {
            event
                .questions
                .iter()
                .find(|q| q.variant == variant)
                .expect("a question of each variant")
        };
        assert!(question(QuestionVariant::Number).max_number.is_some());
        assert!(question(QuestionVariant::Date).min_date.is_some());
        assert!(question(QuestionVariant::Datetime).max_datetime.is_some());
        assert!(event
            .questions
            .iter()
            .any(|q| q.icon.is_some() && q.options.iter().any(|o| o.position.is_some())));
        assert!(event.speakers.iter().any(|p| !p.internal_notes.is_empty()));
        assert!(event
            .submissions
            .iter()
            .all(|s| s.invitation_token.is_some() && s.review_code.is_some()));
        assert!(event.submissions.iter().any(|s| s.access_code.is_some()));
        assert!(event
            .submissions
            .iter()
            .flat_map(|s| &s.resources)
            .all(|r| r.id.is_some()));
        assert!(event.wip_schedule.is_some());
    }
    // The showcase: content in three languages, images, arrivals, a
    // history of releases with notes.
    assert_eq!(showcase.content_locales(), ["en", "de", "fr"]);
    assert!(showcase.header_image.is_some() && showcase.custom_domain.is_some());
    assert!(showcase.speakers.iter().any(|p| p.has_arrived));
    let schedule = showcase.schedule.as_ref().expect("released");
    assert!(schedule.id.is_some() && !schedule.comment.is_empty());
    let versions: Vec<&str> = showcase
        .older_schedules
        .iter()
        .map(|s| s.version.as_str())
        .collect();
    assert_eq!(versions, ["0.1", "0.9"]);
    assert!(showcase.older_schedules[0].published < showcase.older_schedules[1].published);
    assert!(showcase.older_schedules[1].published < schedule.published.expect("published"));
    let previous = &showcase.older_schedules[1].slots;
    assert!(previous
        .iter()
        .any(|s| s.submission.is_none() && !s.description.is_empty()));
    assert!(previous.iter().any(|s| {
        let code = s.submission.as_deref();
        showcase
            .submissions
            .iter()
            .any(|sub| Some(sub.code.as_str()) == code && sub.slots.is_empty())
    }));
    let wip = showcase.wip_schedule.as_ref().expect("wip");
    assert!(!wip.comment.is_empty() && !wip.slots.is_empty());
    // Nothing released: no history, a work in progress of unplaced talks.
    assert!(private.schedule.is_none() && private.older_schedules.is_empty());
    let wip = private.wip_schedule.as_ref().expect("wip");
    assert!(!wip.slots.is_empty() && wip.slots.iter().all(|s| s.start.is_none()));
}

#[test]
fn v1_fields_change_nothing_else() {
    let options = small();
    let (mut filled, filled_logins) = generate(&options);
    let (plain, plain_logins) = generate_without_v1(&options);
    assert_ne!(filled, plain);
    // `clear` (what `portable` does) undoes every value `fill` set.
    v1::clear(&mut filled);
    assert_eq!(filled, plain);
    let tokens = |logins: &[DemoLogin]| logins.iter().map(|l| l.token.clone()).collect::<Vec<_>>();
    assert_eq!(tokens(&filled_logins), tokens(&plain_logins));
}

#[test]
fn v1_fields_round_trip_through_export() {
    let (dataset, _) = generate(&small());
    let document = export::to_json(&dataset);
    let again = crate::dataset::validate::parse_value(&document).expect("valid");
    // (As JSON values: the model keeps the order of translations, which
    // a parsed `serde_json::Value` does not.)
    assert_eq!(
        export::to_json(&again),
        document,
        "what the demo fills is what validation reads back"
    );
}

#[test]
fn ids_and_codes_are_unique_and_references_hold() {
    let (dataset, _) = generate(&small());
    let codes: HashSet<&str> = dataset.users.iter().map(|u| u.code.as_str()).collect();
    assert_eq!(codes.len(), dataset.users.len());
    let emails: HashSet<String> = dataset
        .users
        .iter()
        .map(|u| u.email.to_lowercase())
        .collect();
    assert_eq!(emails.len(), dataset.users.len());
    let mut submission_codes = HashSet::new();
    let mut review_ids = HashSet::new();
    let mut answer_ids = HashSet::new();
    for event in &dataset.events {
        let profiles: HashSet<&str> = event.speakers.iter().map(|p| p.user.as_str()).collect();
        assert_eq!(profiles.len(), event.speakers.len());
        let mut pairs = HashSet::new();
        for s in &event.submissions {
            assert!(submission_codes.insert(s.code.clone()));
            assert!(
                (1..=16).contains(&s.code.len())
                    && s.code.chars().all(|c| c.is_ascii_alphanumeric())
            );
            assert!(s.speakers.iter().all(|u| profiles.contains(u.as_str())));
        }
        for r in &event.reviews {
            assert!(review_ids.insert(r.id));
            assert!(pairs.insert((r.user.clone(), r.submission.clone())));
            let submission = event
                .submissions
                .iter()
                .find(|s| s.code == r.submission)
                .expect("reviewed submission exists");
            assert!(
                !submission.speakers.contains(&r.user),
                "a speaker reviewed their own submission"
            );
        }
        for a in &event.answers {
            assert!(answer_ids.insert(a.id));
        }
    }
}

#[test]
fn twenty_thousand_submissions_stay_realistic() {
    let n = 20_000;
    let (dataset, _) = generate(&DemoOptions {
        events: 1,
        submissions: n,
        seed: 1,
    });
    let event = &dataset.events[0];
    assert_eq!(event.submissions.len(), n);
    let profiles = event.speakers.len() as f64 / n as f64;
    assert!(
        (0.75..0.9).contains(&profiles),
        "{profiles} profiles per submission"
    );
    let answers = event.answers.len() as f64 / n as f64;
    assert!(
        (4.0..8.0).contains(&answers),
        "{answers} answers per submission"
    );
    let submission_answers = event
        .answers
        .iter()
        .filter(|a| a.submission.is_some())
        .count() as f64
        / n as f64;
    assert!(
        (2.5..4.0).contains(&submission_answers),
        "{submission_answers} answers on each submission"
    );
    let reviews = event.reviews.len() as f64 / n as f64;
    assert!(
        (1.6..2.4).contains(&reviews),
        "{reviews} reviews per submission"
    );
    let mut per_submission: HashMap<&str, usize> = HashMap::new();
    for r in &event.reviews {
        *per_submission.entry(r.submission.as_str()).or_default() += 1;
    }
    assert!(per_submission.values().all(|&c| c <= 4));
    let mut per_speaker: HashMap<&str, usize> = HashMap::new();
    for s in &event.submissions {
        for u in &s.speakers {
            *per_speaker.entry(u.as_str()).or_default() += 1;
        }
    }
    assert!(
        per_speaker.values().any(|&c| c >= 3),
        "nobody has several submissions"
    );
    let codes: HashSet<&str> = event.submissions.iter().map(|s| s.code.as_str()).collect();
    assert_eq!(codes.len(), n);
    let reviewers: HashSet<&str> = event.reviews.iter().map(|r| r.user.as_str()).collect();
    assert!(reviewers.len() <= 62);
}
