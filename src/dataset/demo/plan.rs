//! What kind of event each demo event is, and its dates and time zone.

use chrono::{Duration, NaiveDate};
use chrono_tz::Tz;

use super::helpers::local_time;
use crate::model::{I18n, Timestamp};

#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum EventKind {
    /// Public, schedule released and shown, review phase with all proposals.
    Showcase,
    /// Not public, no schedule, reviewers see assigned proposals only.
    Private,
    /// Public, schedule released but hidden by the organisers, no review phase.
    HiddenSchedule,
}

pub(super) struct EventPlan {
    pub(super) kind: EventKind,
    pub(super) slug: String,
    pub(super) name: I18n,
    pub(super) locale: &'static str,
    pub(super) tz: Tz,
    pub(super) days: Vec<NaiveDate>,
}

impl EventPlan {
    pub(super) fn new(index: usize) -> Self {
        let kind = match index % 3 {
            0 => EventKind::Showcase,
            1 => EventKind::Private,
            _ => EventKind::HiddenSchedule,
        };
        // Capped so absurd event counts still give valid dates.
        let year = 2027 + index.min(7000) as i32;
        let (tz, month, day, length, en, de, locale) = match kind {
            EventKind::Showcase => (
                chrono_tz::Europe::Berlin,
                9,
                15,
                3,
                "DemoConf",
                "DemoKonferenz",
                "en",
            ),
            EventKind::Private => (
                chrono_tz::America::New_York,
                3,
                8,
                2,
                "DemoConf Workshop Days",
                "DemoConf Workshoptage",
                "de",
            ),
            EventKind::HiddenSchedule => (
                chrono_tz::Asia::Kolkata,
                11,
                20,
                3,
                "DemoConf Asia",
                "DemoConf Asien",
                "en",
            ),
        };
        let first =
            NaiveDate::from_ymd_opt(year, month, day).expect("a fixed, valid conference date");
        let slug = if index == 0 {
            "democonf".to_string()
        } else {
            format!("democonf{}", index + 1)
        };
        EventPlan {
            kind,
            slug,
            // In the canonical form: locales in order.
            name: I18n(
                vec![
                    ("de".into(), format!("{de} {year}")),
                    ("en".into(), format!("{en} {year}")),
                ],
                false,
            ),
            locale,
            tz,
            days: (0..length).map(|d| first + Duration::days(d)).collect(),
        }
    }

    pub(super) fn first_day(&self) -> NaiveDate {
        self.days[0]
    }

    pub(super) fn has_schedule(&self) -> bool {
        self.kind != EventKind::Private
    }

    /// Midnight-relative minutes on `date`, in the event's time zone.
    pub(super) fn at(&self, date: NaiveDate, minutes: i64) -> Timestamp {
        local_time(&self.tz, date, minutes)
    }

    /// Call for papers: submissions arrive 200 to 90 days before the event.
    pub(super) fn cfp_window(&self) -> (Timestamp, Timestamp) {
        let first = self.at(self.first_day(), 0);
        (first - Duration::days(200), first - Duration::days(90))
    }

    pub(super) fn review_window(&self) -> (Timestamp, Timestamp) {
        let first = self.at(self.first_day(), 0);
        (first - Duration::days(85), first - Duration::days(45))
    }
}
