//! The word lists and phrase tables the demo writes its people and texts
//! from. They are data (`data/`, described in its README.md), read at
//! compile time and parsed once, on first use. The generator draws from
//! them by position, so their order is part of every seed's dataset.

use std::sync::LazyLock;

use serde::Deserialize;

/// A list of `data/`, one entry per line, parsed on first use.
macro_rules! word_list {
    ($($(#[$doc:meta])* $name:ident => $file:literal;)+) => {$(
        $(#[$doc])*
        pub(super) static $name: LazyLock<Vec<&'static str>> =
            LazyLock::new(|| lines($file, include_str!(concat!("data/", $file))));
    )+};
}

word_list! {
    FIRST_NAMES => "first_names.txt";
    LAST_NAMES => "last_names.txt";
    /// Reserved `.example` domains only, so no demo address can reach anyone.
    EMAIL_DOMAINS => "email_domains.txt";
    USER_TIMEZONES => "user_timezones.txt";
    /// Fictional companies, named in biographies and non-anonymised titles.
    COMPANIES => "companies.txt";
    LEARNING_OUTCOMES => "learning_outcomes.txt";
    SPEAKER_NOTES => "speaker_notes.txt";
    INTERNAL_NOTES => "internal_notes.txt";
    REVIEW_TEXTS => "review_texts.txt";
}

/// Everything needed to write talk texts in one language
/// (`data/words.<code>.json`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Words {
    pub(super) code: &'static str,
    /// Lower-case where grammar allows; used inside sentences as they are.
    #[serde(borrow)]
    pub(super) topics: Vec<&'static str>,
    /// `{T}`: the topic (title-cased in English), `{N}`: a small number.
    #[serde(borrow)]
    pub(super) title_patterns: Vec<&'static str>,
    #[serde(borrow)]
    pub(super) subjects: Vec<&'static str>,
    /// `{t}`: the topic as written in `topics`.
    #[serde(borrow)]
    pub(super) predicates: Vec<&'static str>,
    /// Stand-ins for the topic in later sentences, so texts do not repeat it.
    #[serde(borrow)]
    pub(super) references: Vec<&'static str>,
    /// Sentence endings, punctuation included.
    #[serde(borrow)]
    pub(super) tails: Vec<&'static str>,
    #[serde(borrow)]
    pub(super) fillers: Vec<&'static str>,
    /// A suffix naming the company (`{c}`) and its anonymised replacement.
    #[serde(borrow)]
    pub(super) company_title: (&'static str, &'static str),
    /// An abstract opening naming the speaker (`{n}`, `{c}`) and its anonymised replacement.
    #[serde(borrow)]
    pub(super) company_intro: (&'static str, &'static str),
    /// Biography: `{f}` first name, `{r}` role, `{c}` company, `{y}` years, `{t}` topic.
    pub(super) bio: &'static str,
    #[serde(borrow)]
    pub(super) roles: Vec<&'static str>,
    #[serde(borrow)]
    pub(super) hobbies: Vec<&'static str>,
}

static ENGLISH: LazyLock<Words> =
    LazyLock::new(|| parse_json("words.en.json", include_str!("data/words.en.json")));

/// German topics avoid articles and dative forms, so they fit every pattern.
static GERMAN: LazyLock<Words> =
    LazyLock::new(|| parse_json("words.de.json", include_str!("data/words.de.json")));

/// French topics all take `la` or `l'`, so `de {t}` and `à {t}` stay correct.
static FRENCH: LazyLock<Words> =
    LazyLock::new(|| parse_json("words.fr.json", include_str!("data/words.fr.json")));

/// The words of a content locale; English for any other.
pub(super) fn words(locale: &str) -> &'static Words {
    match locale {
        "de" => &GERMAN,
        "fr" => &FRENCH,
        _ => &ENGLISH,
    }
}

/// One entry per line, in the file's order; no empty lines, no spaces
/// around an entry.
fn lines(file: &str, text: &'static str) -> Vec<&'static str> {
    let lines: Vec<&'static str> = text.lines().collect();
    for (number, line) in lines.iter().enumerate() {
        assert!(
            !line.is_empty() && line.trim() == *line,
            "data/{file}, line {}: empty, or spaces around the entry",
            number + 1
        );
    }
    lines
}

/// A JSON file of `data/`. The strings are borrowed from the file: a JSON
/// escape (`\"`, `\n`, ...) in one is refused here, so write such
/// characters as they are.
pub(super) fn parse_json<T: Deserialize<'static>>(file: &str, text: &'static str) -> T {
    serde_json::from_str(text).unwrap_or_else(|err| panic!("data/{file}: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file parses, with as many entries as the demo was made with
    /// (a changed count changes every seed's dataset).
    #[test]
    fn data_files_load_with_their_sizes() {
        let sizes = [
            (FIRST_NAMES.len(), 70),
            (LAST_NAMES.len(), 70),
            (EMAIL_DOMAINS.len(), 6),
            (USER_TIMEZONES.len(), 9),
            (COMPANIES.len(), 12),
            (LEARNING_OUTCOMES.len(), 8),
            (SPEAKER_NOTES.len(), 7),
            (INTERNAL_NOTES.len(), 6),
            (REVIEW_TEXTS.len(), 10),
        ];
        for (i, (actual, expected)) in sizes.into_iter().enumerate() {
            assert_eq!(actual, expected, "list {i}");
        }
        for (code, topics) in [("en", 32), ("de", 17), ("fr", 14)] {
            let words = words(code);
            assert_eq!(words.code, code);
            assert_eq!(words.topics.len(), topics);
        }
        assert!(USER_TIMEZONES
            .iter()
            .all(|tz| tz.parse::<chrono_tz::Tz>().is_ok()));
    }
}
