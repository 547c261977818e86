//! Datetime rendering (behaviour.md §4): ISO 8601 in the event's time zone,
//! `Z` for a zero offset, fractional seconds only when non-zero (6 digits).

use chrono::{DateTime, Datelike, Offset, TimeZone, Timelike, Utc};
use chrono_tz::Tz;

/// An instant, always kept in UTC with microsecond precision. Responses
/// convert it to the event's time zone.
pub type Timestamp = DateTime<Utc>;

/// The dataset's datetime form: RFC 3339 in UTC with `Z`, microseconds only
/// when non-zero (what `export` writes and storage keeps).
pub mod timestamp {
    use super::{format_in, Timestamp};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Timestamp, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format_in(value, &chrono_tz::UTC))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        super::parse_rfc3339(&text).map_err(serde::de::Error::custom)
    }

    /// The same for a nullable datetime.
    pub mod option {
        use super::Timestamp;
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(
            value: &Option<Timestamp>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match value {
                Some(value) => super::serialize(value, serializer),
                None => serializer.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<Timestamp>, D::Error> {
            let text = <Option<std::borrow::Cow<'de, str>>>::deserialize(deserializer)?;
            text.map(|t| super::super::parse_rfc3339(&t).map_err(serde::de::Error::custom))
                .transpose()
        }
    }
}

pub fn format_in(value: &Timestamp, tz: &Tz) -> String {
    let micros = value.timestamp_micros();
    // A page repeats a few instants (a schedule's grid, the days speakers
    // are available), and finding the zone's offset at one was half of
    // writing it: each thread keeps the last datetimes it wrote, by instant
    // and zone (callgrind, docs/bench-log.md).
    let slot = (micros as u64 ^ (micros as u64 >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58;
    RECENT.with_borrow_mut(|recent| {
        let entry = &mut recent[slot as usize];
        match entry {
            Some((at, zone, text)) if *at == micros && zone == tz => text.clone(),
            _ => {
                let text = format_uncached(value, tz);
                *entry = Some((micros, *tz, text.clone()));
                text
            }
        }
    })
}

thread_local! {
    /// `format_in`'s last datetimes: 64 slots, by a hash of the instant.
    static RECENT: std::cell::RefCell<[Option<(i64, Tz, String)>; 64]> =
        std::cell::RefCell::new(std::array::from_fn(|_| None));
}

fn format_uncached(value: &Timestamp, tz: &Tz) -> String {
    // Each of a zoned datetime's fields adds its offset again.
    let Some((naive, offset)) = local_in(value, tz) else {
        return format_with_chrono(value, tz);
    };
    let year = naive.year();
    if !(0..=9999).contains(&year) {
        // Never after import's checks; `%Y` knows how to write such years.
        return format_with_chrono(value, tz);
    }
    // Written digit by digit: on a page of talks, chrono's `format` took an
    // eighth of the rendering time.
    let mut out = String::with_capacity(32);
    push_two(&mut out, year as u32 / 100);
    push_two(&mut out, year as u32 % 100);
    out.push('-');
    push_two(&mut out, naive.month());
    out.push('-');
    push_two(&mut out, naive.day());
    out.push('T');
    push_two(&mut out, naive.hour());
    out.push(':');
    push_two(&mut out, naive.minute());
    out.push(':');
    push_two(&mut out, naive.second());
    let micros = naive.nanosecond() / 1_000;
    if micros != 0 {
        out.push('.');
        push_two(&mut out, micros / 10_000);
        push_two(&mut out, micros / 100 % 100);
        push_two(&mut out, micros % 100);
    }
    push_offset(&mut out, offset);
    out
}

/// `value`'s wall-clock time in `tz`, and `tz`'s offset then in seconds.
fn local_in(value: &Timestamp, tz: &Tz) -> Option<(chrono::NaiveDateTime, i32)> {
    let offset = offset_at(value, tz);
    let local = value
        .naive_utc()
        .checked_add_signed(chrono::TimeDelta::seconds(offset.into()))?;
    Some((local, offset))
}

/// `tz`'s offset from UTC at `value`, in seconds. A page's datetimes fall
/// on a few days (a schedule's), and chrono-tz's search of the zone's
/// transitions was a third of writing one (callgrind): each thread keeps
/// the offsets of the last UTC days it saw whose two ends have the same
/// offset (no zone changes its offset and back within a day); a day with
/// a transition is looked up instant by instant.
fn offset_at(value: &Timestamp, tz: &Tz) -> i32 {
    const DAY_MICROS: i64 = 86_400_000_000;
    let searched = |at: &Timestamp| {
        tz.offset_from_utc_datetime(&at.naive_utc())
            .fix()
            .local_minus_utc()
    };
    let at_micros = |micros| chrono::DateTime::from_timestamp_micros(micros).map(|t| searched(&t));
    let day = value.timestamp_micros().div_euclid(DAY_MICROS);
    let slot = ((day as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as usize;
    DAYS.with_borrow_mut(|days| match days[slot] {
        Some((d, zone, offset)) if d == day && zone == *tz => offset,
        _ => {
            let start = day.checked_mul(DAY_MICROS);
            let first = start.and_then(at_micros);
            let last = start.and_then(|s| at_micros(s + DAY_MICROS - 1));
            match (first, last) {
                (Some(first), Some(last)) if first == last => {
                    days[slot] = Some((day, *tz, first));
                    first
                }
                _ => searched(value),
            }
        }
    })
}

thread_local! {
    /// `offset_at`'s days: 16 slots, by a hash of the day.
    static DAYS: std::cell::RefCell<[Option<(i64, Tz, i32)>; 16]> =
        const { std::cell::RefCell::new([None; 16]) };
}

/// `Z` for a zero offset, else `±HH:MM` (and `:SS` when there are seconds).
fn push_offset(out: &mut String, offset: i32) {
    if offset == 0 {
        out.push('Z');
        return;
    }
    out.push(if offset < 0 { '-' } else { '+' });
    let abs = offset.unsigned_abs();
    push_two(out, abs / 3600);
    out.push(':');
    push_two(out, (abs % 3600) / 60);
    if !abs.is_multiple_of(60) {
        out.push(':');
        push_two(out, abs % 60);
    }
}

/// The last two decimal digits of `value`, a leading zero included (by
/// constants, which compile to multiplications: a division by a variable
/// power of ten per digit was most of a datetime's cost).
fn push_two(out: &mut String, value: u32) {
    out.push(char::from(b'0' + (value / 10 % 10) as u8));
    out.push(char::from(b'0' + (value % 10) as u8));
}

/// The same through chrono's `strftime`, for years of other widths.
fn format_with_chrono(value: &Timestamp, tz: &Tz) -> String {
    let local = value.with_timezone(tz);
    let mut out = local.format("%Y-%m-%dT%H:%M:%S").to_string();
    let micros = local.nanosecond() / 1_000;
    if micros != 0 {
        out.push_str(&format!(".{micros:06}"));
    }
    push_offset(&mut out, local.offset().fix().local_minus_utc());
    out
}

/// Midnight in `tz` (for `allDay` of availabilities).
pub fn is_midnight_in(value: &Timestamp, tz: &Tz) -> bool {
    local_in(value, tz)
        .is_some_and(|(local, _)| local.num_seconds_from_midnight() == 0 && local.nanosecond() == 0)
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
    fn writes_what_strftime_writes() {
        let zones = [
            chrono_tz::UTC,
            chrono_tz::Europe::Berlin,
            chrono_tz::America::St_Johns,
            chrono_tz::Asia::Kathmandu,
            chrono_tz::Pacific::Chatham,
            chrono_tz::Africa::Monrovia,
        ];
        let mut micros: i64 = -2_500_000_000_000_000; // 1890, with its odd offsets
        while micros < 4_000_000_000_000_000 {
            let t = chrono::Utc.timestamp_micros(micros).unwrap();
            for tz in &zones {
                assert_eq!(
                    format_in(&t, tz),
                    format_with_chrono(&t, tz),
                    "{micros} {tz}"
                );
            }
            micros += 7_777_777_777_777;
        }
    }

    #[test]
    fn offsets_change_at_the_instant_of_each_transition() {
        // Zones with DST, half-hour shifts and odd historical offsets,
        // every 28 minutes and 53 seconds across a year of transitions.
        let zones = [
            chrono_tz::Europe::Berlin,
            chrono_tz::Australia::Lord_Howe,
            chrono_tz::Pacific::Chatham,
            chrono_tz::America::St_Johns,
            chrono_tz::Europe::Dublin,
            chrono_tz::Africa::Casablanca,
            chrono_tz::Asia::Kathmandu,
        ];
        for start in [-2_240_000_000_i64, 1_700_000_000] {
            let mut seconds = start;
            while seconds < start + 366 * 86_400 {
                let t = chrono::Utc.timestamp_opt(seconds, 0).unwrap();
                for tz in &zones {
                    assert_eq!(
                        format_uncached(&t, tz),
                        format_with_chrono(&t, tz),
                        "{seconds} {tz}"
                    );
                    let local = t.with_timezone(tz);
                    assert_eq!(
                        is_midnight_in(&t, tz),
                        local.num_seconds_from_midnight() == 0,
                        "{seconds} {tz}"
                    );
                }
                seconds += 1_733;
            }
        }
    }

    #[test]
    fn local_midnights_are_found_across_transitions() {
        let zones = [
            chrono_tz::Europe::Berlin,
            chrono_tz::Australia::Lord_Howe,
            chrono_tz::America::Santiago,
            chrono_tz::Asia::Kolkata,
        ];
        let first = chrono::NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
        for day in first.iter_days().take(400) {
            for tz in &zones {
                let Some(midnight) = tz
                    .from_local_datetime(&day.and_hms_opt(0, 0, 0).unwrap())
                    .earliest()
                else {
                    continue; // no midnight that day (a transition at 0:00)
                };
                let utc = midnight.with_timezone(&chrono::Utc);
                assert!(is_midnight_in(&utc, tz), "{day} {tz}");
                let later = utc + chrono::TimeDelta::seconds(1);
                assert!(!is_midnight_in(&later, tz), "{day} {tz}");
            }
        }
    }

    #[test]
    fn repeated_instants_are_written_as_the_first_time() {
        let zones = [
            chrono_tz::UTC,
            chrono_tz::Europe::Berlin,
            chrono_tz::Asia::Kolkata,
        ];
        // Far more instants than slots, each asked for in every zone, twice.
        for round in 0..2 {
            for step in 0..1000_i64 {
                let t = chrono::Utc
                    .timestamp_micros(1_700_000_000_000_000 + step * 1_800_000_000)
                    .unwrap();
                for tz in &zones {
                    assert_eq!(
                        format_in(&t, tz),
                        format_uncached(&t, tz),
                        "{round} {step} {tz}"
                    );
                }
            }
        }
    }

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
        let far = chrono::Utc.with_ymd_and_hms(12026, 1, 2, 3, 4, 5).unwrap();
        assert_eq!(format_in(&far, &chrono_tz::UTC), "+12026-01-02T03:04:05Z");
        let early = parse_rfc3339("0099-12-31T23:59:59.000001Z").unwrap();
        assert_eq!(
            format_in(&early, &chrono_tz::UTC),
            "0099-12-31T23:59:59.000001Z"
        );
    }

    #[test]
    fn midnight_is_local() {
        let t = parse_rfc3339("2026-11-19T23:00:00Z").unwrap();
        assert!(is_midnight_in(&t, &chrono_tz::Europe::Berlin));
        assert!(!is_midnight_in(&t, &chrono_tz::UTC));
    }
}
