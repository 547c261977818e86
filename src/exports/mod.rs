//! The schedule exports (`shared/spec/exports.md`): frab XML and JSON, xCal,
//! iCalendar, the schedule widget's data and the Atom feed of releases,
//! rendered from one event of the in-memory snapshot.
//!
//! Rendering only: who may fetch what is decided in `domain::access`, and
//! the HTTP side (paths, caching, conditional requests) is `http::exports`.

pub mod calendar;
pub mod frab;
pub mod schedule;
pub mod text;
pub mod widget;

pub use schedule::ExportSchedule;

pub const GENERATOR_NAME: &str = "confapi";
pub const GENERATOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The whole-event exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    FrabXml,
    FrabJson,
    Xcal,
    Ical,
    Widget,
    Feed,
}

impl Export {
    pub fn media_type(self) -> &'static str {
        match self {
            Export::FrabXml | Export::Xcal => "text/xml; charset=utf-8",
            Export::FrabJson | Export::Widget => "application/json",
            Export::Ical => "text/calendar; charset=utf-8",
            Export::Feed => "application/atom+xml; charset=utf-8",
        }
    }

    pub fn render(self, s: &ExportSchedule) -> Vec<u8> {
        match self {
            Export::FrabXml => frab::frab_xml(s),
            Export::FrabJson => frab::frab_json(s),
            Export::Xcal => frab::xcal(s),
            Export::Ical => calendar::event_ical(s),
            Export::Widget => widget::widget(s),
            Export::Feed => widget::feed(s),
        }
    }
}
