//! Small helpers of the demo: translations, times, tokens and UUIDs, and
//! the text transformations of names and titles.

use chrono::{Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use fastrand::Rng;

use crate::model::{I18n, Timestamp};

/// The English text of `text` (else its first): what the demo's own
/// texts quote, whatever the order of its locales.
pub(super) fn english(text: &I18n) -> Option<&str> {
    text.0
        .iter()
        .find(|(locale, _)| locale == "en")
        .or(text.0.first())
        .map(|(_, text)| text.as_str())
}

/// In the canonical form (locales in order), as an import reads it back.
pub(super) fn i18n(en: &str, de: Option<&str>) -> I18n {
    let mut texts = Vec::with_capacity(2);
    if let Some(de) = de {
        texts.push(("de".to_string(), de.to_string()));
    }
    texts.push(("en".to_string(), en.to_string()));
    I18n(texts, false)
}

/// `minutes` after local midnight of `date` in `tz`, as UTC. Demo times are
/// never in a DST gap; `earliest` also settles the ambiguous hour.
pub(super) fn local_time(tz: &Tz, date: NaiveDate, minutes: i64) -> Timestamp {
    let naive = date.and_hms_opt(0, 0, 0).expect("midnight exists") + Duration::minutes(minutes);
    tz.from_local_datetime(&naive)
        .earliest()
        .expect("demo times avoid DST gaps")
        .with_timezone(&Utc)
}

pub(super) fn round_up(value: i64, step: i64) -> i64 {
    (value + step - 1) / step * step
}

/// 40 lower-case hex characters, like pretalx API tokens.
pub(super) fn token(rng: &mut Rng) -> String {
    format!(
        "{:016x}{:016x}{:08x}",
        rng.u64(..),
        rng.u64(..),
        rng.u32(..)
    )
}

/// A random version-4 UUID.
pub(super) fn uuid(rng: &mut Rng) -> String {
    let high = rng.u64(..);
    let low = rng.u64(..);
    let high = (high & !0xf000) | 0x4000;
    let low = (low & !(0b11 << 62)) | (0b10 << 62);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// Lower-case ASCII for e-mail addresses: umlauts spelt out, accents dropped.
pub(super) fn ascii_lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'a'..='z' | '0'..='9' => out.push(c),
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            'á' | 'à' | 'â' | 'å' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'í' | 'ì' | 'î' | 'ı' => out.push('i'),
            'ó' | 'ò' | 'ô' | 'ø' => out.push('o'),
            'ú' | 'ù' | 'û' => out.push('u'),
            'ñ' => out.push('n'),
            'ç' | 'č' => out.push('c'),
            'ł' => out.push('l'),
            _ => {}
        }
    }
    out
}

/// `distributed tracing` → `distributed-tracing`.
pub(super) fn url_slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    out
}

pub(super) fn capitalise_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// English title case: every word capitalised except short function words.
pub(super) fn title_case(text: &str) -> String {
    const SMALL: [&str; 10] = ["a", "an", "and", "as", "at", "for", "in", "of", "on", "the"];
    text.split(' ')
        .enumerate()
        .map(|(i, word)| {
            if i > 0 && SMALL.contains(&word) {
                word.to_string()
            } else {
                // `memory-safe` → `Memory-Safe`
                word.split('-')
                    .map(capitalise_first)
                    .collect::<Vec<_>>()
                    .join("-")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
