//! Datetime rendering (behaviour.md §4): ISO 8601 in the event's time zone,
//! `Z` for a zero offset, fractional seconds only when non-zero (6 digits).

use chrono::{Offset, TimeZone, Timelike};
use chrono_tz::Tz;

use crate::model::Timestamp;

pub fn format_in(value: &Timestamp, tz: &Tz) -> String {
    let local = value.with_timezone(tz);
    let mut out = local.format("%Y-%m-%dT%H:%M:%S").to_string();
    let micros = local.nanosecond() / 1_000;
    if micros != 0 {
        out.push_str(&format!(".{micros:06}"));
    }
    let offset = local.offset().fix().local_minus_utc();
    if offset == 0 {
        out.push('Z');
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let abs = offset.abs();
        out.push_str(&format!("{sign}{:02}:{:02}", abs / 3600, (abs % 3600) / 60));
        if abs % 60 != 0 {
            out.push_str(&format!(":{:02}", abs % 60));
        }
    }
    out
}

/// Midnight in `tz` (for `allDay` of availabilities).
pub fn is_midnight_in(value: &Timestamp, tz: &Tz) -> bool {
    let local = value.with_timezone(tz);
    local.num_seconds_from_midnight() == 0 && local.nanosecond() == 0
}

/// Parses an RFC 3339 datetime that must carry an offset; the result is
/// truncated to microseconds, the precision the service keeps.
pub fn parse_rfc3339(text: &str) -> Result<Timestamp, String> {
    let parsed = chrono::DateTime::parse_from_rfc3339(text.trim())
        .map_err(|e| format!("not an RFC 3339 datetime with an offset ({e})"))?;
    let utc = parsed.with_timezone(&chrono::Utc);
    let micros = utc.timestamp_micros();
    Ok(chrono::Utc
        .timestamp_micros(micros)
        .single()
        .expect("microseconds round-trip"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_offsets_and_fractions() {
        let t = parse_rfc3339("2026-11-20T08:15:00Z").unwrap();
        assert_eq!(
            format_in(&t, &chrono_tz::Europe::Berlin),
            "2026-11-20T09:15:00+01:00"
        );
        assert_eq!(format_in(&t, &chrono_tz::UTC), "2026-11-20T08:15:00Z");
        assert_eq!(
            format_in(&t, &chrono_tz::Asia::Kolkata),
            "2026-11-20T13:45:00+05:30"
        );
        let f = parse_rfc3339("2026-09-04T12:54:47.808658Z").unwrap();
        assert_eq!(
            format_in(&f, &chrono_tz::UTC),
            "2026-09-04T12:54:47.808658Z"
        );
        let g = parse_rfc3339("2026-09-04T12:54:47.5-03:00").unwrap();
        assert_eq!(
            format_in(&g, &chrono_tz::UTC),
            "2026-09-04T15:54:47.500000Z"
        );
        assert!(parse_rfc3339("2026-09-04T12:54:47").is_err());
    }

    #[test]
    fn midnight_is_local() {
        let t = parse_rfc3339("2026-11-19T23:00:00Z").unwrap();
        assert!(is_midnight_in(&t, &chrono_tz::Europe::Berlin));
        assert!(!is_midnight_in(&t, &chrono_tz::UTC));
    }
}
