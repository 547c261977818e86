//! Reads an event through pretalx's versioned API (`Pretalx-Version: v1`,
//! pretalx 2025.1 and later) and maps it to the same dataset document as
//! `legacy`.
//!
//! Differences from the legacy API that matter here: lists are paged with
//! `page_size` (rooms with `limit`), reviews name the reviewer's code,
//! questions show `active` and `position`, the released schedule has its own
//! endpoint (`schedules`, with version and release time) and its slots
//! theirs (`slots`, with `is_visible` for organisers), and track and
//! submission-type lists exist. What v1 does not show is listed in
//! docs/sync.md.
//!
//! `read` fetches an event's lists, `map` turns them into the dataset
//! document; both use `upstream`'s lists and item accessors.

mod map;
mod read;
#[cfg(test)]
mod tests;

pub use map::map_event;
pub use read::{
    read_event, read_teams, speaks_v1, RawEvent, ScheduleDetail, LEGACY_VERSION, VERSION,
};
