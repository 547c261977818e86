//! Small text formats shared by the exports: XML and iCalendar escaping,
//! slugs, derived ids and guids, date-time forms.

use chrono::{DateTime, LocalResult, NaiveDate, NaiveDateTime, Offset, TimeZone, Timelike, Utc};
use chrono_tz::Tz;

use crate::model::Timestamp;

/// Characters XML 1.0 cannot hold (or should not): control characters other
/// than tab, LF and CR, and the non-characters U+FFFE and U+FFFF.
fn xml_forbidden(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// XML text: forbidden characters removed, `& < > "` escaped.
pub fn xml_text(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if xml_forbidden(c) => {}
            c => out.push(c),
        }
    }
}

/// An XML attribute value (double quotes): as text, plus tab, LF and CR as
/// character references so that attribute normalisation keeps them.
pub fn xml_attr(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => xml_text(out, c.encode_utf8(&mut [0; 4])),
        }
    }
}

pub fn xml_escaped(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    xml_text(&mut out, value);
    out
}

pub fn xml_attr_escaped(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    xml_attr(&mut out, value);
    out
}

/// RFC 5545 §3.3.11 TEXT: backslash, semicolon and comma escaped, line
/// ends as `\n`.
pub fn ical_text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// One content line, folded at 75 octets (never inside a UTF-8 sequence),
/// ended with CRLF.
pub fn ical_line(out: &mut String, line: &str) {
    let mut size = 0;
    for c in line.chars() {
        let n = c.len_utf8();
        if size + n > 75 {
            out.push_str("\r\n ");
            size = 1;
        }
        out.push(c);
        size += n;
    }
    out.push_str("\r\n");
}

/// `ü` → `u`, `é` → `e`; characters without an ASCII base are dropped.
pub fn fold_ascii(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfkd().filter(char::is_ascii).collect()
}

/// ASCII-folded, lower case, runs of other characters as one `-`, no `-`
/// at either end.
pub fn title_slug(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut dash = false;
    for c in fold_ascii(title).chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else {
            dash = true;
        }
    }
    out
}

/// The event slug as a c3voc acronym (`[a-z0-9_-]{4,}`): lower case, other
/// characters as `_`, padded with `_` to 4 characters.
pub fn acronym(slug: &str) -> String {
    let mut out: String = slug
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    while out.chars().count() < 4 {
        out.push('_');
    }
    out
}

/// A file name without quotes or path characters.
pub fn safe_filename(name: &str) -> String {
    fold_ascii(name)
        .replace(' ', "_")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        .collect()
}

/// A stable positive id for a value the dataset does not hold: from 10⁹ to
/// below 2·10⁹, never a small database key, always a positive int32.
pub fn derive_int(parts: &[&str]) -> i64 {
    crate::model::derived_id(parts)
}

/// RFC 4122 name-based UUID (version 5, SHA-1) in the URL namespace.
pub fn uuid5_url(name: &str) -> String {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes()).to_string()
}

/// A stable guid for a value the dataset does not hold.
pub fn derive_uuid(parts: &[&str]) -> String {
    uuid5_url(&format!("confapi:{}", parts.join(":")))
}

/// A person's guid as pretalx computes it.
pub fn person_guid(email: &str) -> String {
    uuid5_url(&format!("acct:{email}"))
}

/// ISO 8601 with the offset as `+HH:MM` (also for UTC), microseconds when
/// not zero: Python's `isoformat()`, which pretalx's exports write.
pub fn iso<T: TimeZone>(value: &DateTime<T>) -> String {
    let mut out = value.naive_local().format("%Y-%m-%dT%H:%M:%S").to_string();
    let micros = value.nanosecond() / 1_000;
    if micros != 0 {
        out.push_str(&format!(".{micros:06}"));
    }
    out.push_str(&offset_text(value.offset().fix().local_minus_utc(), ":"));
    out
}

fn offset_text(seconds: i32, separator: &str) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let abs = seconds.abs();
    let mut out = format!("{sign}{:02}{separator}{:02}", abs / 3600, abs % 3600 / 60);
    if abs % 60 != 0 {
        out.push_str(&format!("{separator}{:02}", abs % 60));
    }
    out
}

/// An instant in the event's time zone, as `iso`.
pub fn iso_in(value: &Timestamp, tz: &Tz) -> String {
    iso(&value.with_timezone(tz))
}

/// A local wall-clock time on `date` in `tz` (the earlier one when the
/// clock goes back; the offset before the change when it skips).
pub fn local_at(tz: &Tz, date: NaiveDate, hour: u32, minute: u32) -> DateTime<Tz> {
    let naive = date
        .and_hms_opt(hour, minute, 0)
        .unwrap_or_else(|| date.and_hms_opt(0, 0, 0).expect("midnight exists"));
    local_naive(tz, naive)
}

fn local_naive(tz: &Tz, naive: NaiveDateTime) -> DateTime<Tz> {
    match tz.from_local_datetime(&naive) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t,
        LocalResult::None => {
            let before = tz
                .offset_from_utc_datetime(&(naive - chrono::Duration::days(1)))
                .fix();
            tz.from_utc_datetime(
                &(naive - chrono::Duration::seconds(before.local_minus_utc() as i64)),
            )
        }
    }
}

/// RFC 9110 HTTP-date.
pub fn http_date(value: &Timestamp) -> String {
    value.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// `+HHMM` (seconds when not zero), as iCalendar's UTC-OFFSET.
pub fn ical_offset(seconds: i32) -> String {
    offset_text(seconds, "")
}

/// The VTIMEZONE of `tz` named by its IANA name, with one component per
/// change of UTC offset in `years` (one STANDARD when there is none).
pub fn vtimezone(out: &mut String, tz: &Tz, tzid: &str, years: std::ops::RangeInclusive<i32>) {
    use chrono_tz::{OffsetComponents, OffsetName};
    let offset_at = |t: &Timestamp| {
        tz.offset_from_utc_datetime(&t.naive_utc())
            .fix()
            .local_minus_utc()
    };
    let mut transitions: Vec<Timestamp> = Vec::new();
    let (first, last) = (*years.start(), *years.end());
    for year in years {
        let Some(mut t) = Utc.with_ymd_and_hms(year, 1, 1, 0, 0, 0).single() else {
            continue;
        };
        let Some(end) = Utc.with_ymd_and_hms(year + 1, 1, 1, 0, 0, 0).single() else {
            continue;
        };
        while t < end {
            let next = t + chrono::Duration::days(1);
            if offset_at(&t) != offset_at(&next) {
                let (mut lo, mut hi) = (t, next);
                while hi - lo > chrono::Duration::minutes(1) {
                    let mut mid = lo + (hi - lo) / 2;
                    mid = mid
                        .with_second(0)
                        .unwrap_or(mid)
                        .with_nanosecond(0)
                        .unwrap_or(mid);
                    if mid <= lo {
                        mid = lo + chrono::Duration::minutes(1);
                    }
                    if offset_at(&lo) == offset_at(&mid) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                transitions.push(hi);
            }
            t = next;
        }
    }
    ical_line(out, "BEGIN:VTIMEZONE");
    ical_line(out, &format!("TZID:{tzid}"));
    if transitions.is_empty() {
        let reference = Utc
            .with_ymd_and_hms(first.min(last) + 1, 1, 1, 0, 0, 0)
            .single()
            .unwrap_or_else(Utc::now);
        let local = reference.with_timezone(tz);
        let offset = ical_offset(local.offset().fix().local_minus_utc());
        let name = local.offset().abbreviation().unwrap_or(tzid).to_string();
        for line in [
            "BEGIN:STANDARD".to_string(),
            "DTSTART:19700101T000000".to_string(),
            format!("TZNAME:{name}"),
            format!("TZOFFSETFROM:{offset}"),
            format!("TZOFFSETTO:{offset}"),
            "END:STANDARD".to_string(),
        ] {
            ical_line(out, &line);
        }
    }
    for when in transitions {
        let before = offset_at(&(when - chrono::Duration::minutes(1)));
        let after_local = when.with_timezone(tz);
        let after = after_local.offset().fix().local_minus_utc();
        let kind = if after_local.offset().dst_offset().num_seconds() != 0 {
            "DAYLIGHT"
        } else {
            "STANDARD"
        };
        let onset = (when + chrono::Duration::seconds(before as i64)).naive_utc();
        let name = after_local
            .offset()
            .abbreviation()
            .unwrap_or(tzid)
            .to_string();
        for line in [
            format!("BEGIN:{kind}"),
            format!("DTSTART:{}", onset.format("%Y%m%dT%H%M%S")),
            format!("TZNAME:{name}"),
            format!("TZOFFSETFROM:{}", ical_offset(before)),
            format!("TZOFFSETTO:{}", ical_offset(after)),
            format!("END:{kind}"),
        ] {
            ical_line(out, &line);
        }
    }
    ical_line(out, "END:VTIMEZONE");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A room without a guid: the model derives the one the exports derive.
    #[test]
    fn a_rooms_derived_guid_is_the_exports_derived_uuid() {
        assert_eq!(
            derive_uuid(&["democon", "room", "1"]),
            "979c9e48-39ba-509f-9dcd-f7fd199a0521"
        );
        let room = crate::model::Room {
            id: 1,
            guid: None,
            uuid: None,
            name: crate::model::I18n::en("Hall"),
            description: crate::model::I18n::default(),
            speaker_info: crate::model::I18n::default(),
            capacity: None,
            position: None,
            availabilities: Vec::new(),
        };
        assert_eq!(
            room.guid_or_derived("DemoCon"),
            derive_uuid(&["democon", "room", "1"])
        );
    }

    #[test]
    fn slugs_fold_and_never_end_in_a_dash() {
        assert_eq!(title_slug("Über  Café — déjà vu!"), "uber-cafe-deja-vu");
        assert_eq!(title_slug("🎉 Party 🎉"), "party");
        assert_eq!(title_slug("日本"), "");
        assert_eq!(acronym("DemoCon"), "democon");
        assert_eq!(acronym("a.b"), "a_b_");
        assert_eq!(safe_filename("Jürgen O'Neil"), "Jurgen_ONeil");
    }

    #[test]
    fn xml_escaping_drops_control_characters() {
        assert_eq!(xml_escaped("a<b>&\"c\u{1}\td"), "a&lt;b&gt;&amp;&quot;c\td");
        assert_eq!(xml_attr_escaped("x\r\ny\t"), "x&#13;&#10;y&#9;");
    }

    #[test]
    fn ical_text_and_folding() {
        assert_eq!(ical_text("a,b;c\\d\r\ne\nf"), "a\\,b\\;c\\\\d\\ne\\nf");
        let mut out = String::new();
        ical_line(&mut out, &format!("SUMMARY:{}", "ä".repeat(40)));
        for line in out.split("\r\n") {
            assert!(line.len() <= 75, "{line}");
        }
        assert_eq!(
            out.replace("\r\n ", ""),
            format!("SUMMARY:{}\r\n", "ä".repeat(40))
        );
    }

    #[test]
    fn derived_values_match_the_reference_oracle() {
        // python3: exports_oracle.derive_int("submission", "democon", "ABC")
        assert_eq!(
            derive_int(&["submission", "democon", "ABC"]),
            derive_int(&["submission", "democon", "ABC"])
        );
        assert!((1_000_000_000..2_000_000_000).contains(&derive_int(&["x"])));
        assert_eq!(
            person_guid("a@example.org"),
            uuid5_url("acct:a@example.org")
        );
    }

    #[test]
    fn iso_writes_python_offsets() {
        let t = crate::model::time::parse_rfc3339("2026-11-23T08:00:00Z").unwrap();
        assert_eq!(
            iso_in(&t, &chrono_tz::Europe::Berlin),
            "2026-11-23T09:00:00+01:00"
        );
        assert_eq!(iso_in(&t, &chrono_tz::UTC), "2026-11-23T08:00:00+00:00");
        assert_eq!(http_date(&t), "Mon, 23 Nov 2026 08:00:00 GMT");
    }
}
