//! Query parameters (behaviour.md §1, §8): an empty value counts as absent,
//! of a repeated parameter the last value counts (except `state`), and every
//! bad parameter is reported at once, one key each.

use std::collections::BTreeMap;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::error::ApiError;
use crate::domain::views::QuestionSelector;

#[derive(Debug, Default)]
pub struct Params {
    /// Every pair as sent, in order (links keep them).
    pub pairs: Vec<(String, String)>,
    errors: BTreeMap<String, Vec<String>>,
}

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Params::parse(parts.uri.query().unwrap_or("")))
    }
}

fn is_digits(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit())
}

impl Params {
    pub fn parse(query: &str) -> Self {
        Params {
            pairs: form_urlencoded::parse(query.as_bytes())
                .into_owned()
                .collect(),
            errors: BTreeMap::new(),
        }
    }

    /// The last value, or None when absent or empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        let last = self.pairs.iter().rev().find(|(k, _)| k == name)?;
        (!last.1.is_empty()).then_some(last.1.as_str())
    }

    /// Every non-empty value of a repeatable parameter.
    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.pairs
            .iter()
            .filter(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
            .collect()
    }

    pub fn error(&mut self, name: &str, message: impl Into<String>) {
        self.errors
            .entry(name.to_string())
            .or_default()
            .push(message.into());
    }

    /// Fails with every recorded problem.
    pub fn check(&mut self) -> Result<(), ApiError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(ApiError::BadParameters(std::mem::take(&mut self.errors)))
        }
    }

    /// A non-negative integer written as plain decimal digits.
    pub fn natural(&mut self, name: &str) -> Option<u64> {
        let value = self.get(name)?.to_string();
        if is_digits(&value) {
            // Digits too long for u64 are absurdly large: saturate.
            Some(value.parse().unwrap_or(u64::MAX))
        } else {
            self.error(name, "A valid non-negative integer is required.");
            None
        }
    }

    /// An id (positive or zero integer).
    pub fn id(&mut self, name: &str) -> Option<i64> {
        self.natural(name)
            .map(|n| i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// `true`/`false`/`1`/`0` in any letter case.
    pub fn boolean(&mut self, name: &str) -> Option<bool> {
        let value = self.get(name)?.to_ascii_lowercase();
        match value.as_str() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => {
                self.error(name, "Must be one of: true, false, 1, 0.");
                None
            }
        }
    }

    /// One of a fixed list of values, matched exactly.
    /// One of a closed set, by its JSON name (`QuestionTarget::ALL` ...).
    pub fn choice<T: Copy>(&mut self, name: &str, choices: &[(&str, T)]) -> Option<T> {
        let value = self.get(name)?.to_string();
        if let Some((_, choice)) = choices.iter().find(|(n, _)| *n == value) {
            Some(*choice)
        } else {
            self.error(
                name,
                format!("Select a valid choice. {value} is not one of the available choices."),
            );
            None
        }
    }

    /// `questions`: absent → none, `all`, or comma-separated ids.
    pub fn question_selector(&mut self) -> QuestionSelector {
        let Some(value) = self.get("questions").map(str::to_string) else {
            return QuestionSelector::None;
        };
        if value == "all" {
            return QuestionSelector::All;
        }
        let parts: Vec<&str> = value.split(',').collect();
        if parts.iter().all(|p| is_digits(p)) {
            QuestionSelector::Ids(
                parts
                    .iter()
                    .map(|p| p.parse().unwrap_or(i64::MAX))
                    .collect(),
            )
        } else {
            self.error(
                "questions",
                "Use `all` or a comma-separated list of question ids.",
            );
            QuestionSelector::None
        }
    }

    /// `q`: whitespace-separated, lower-cased terms.
    /// `q`: its whitespace-separated terms, lower-cased, each once. A search
    /// costs about (terms × candidates), so `q` is bounded: at most
    /// [`MAX_QUERY_CHARS`] characters and [`MAX_QUERY_TERMS`] distinct terms,
    /// else a 400 naming `q`.
    pub fn search_terms(&mut self) -> Option<Vec<String>> {
        let q = self.get("q")?.to_string();
        if q.chars().count() > MAX_QUERY_CHARS {
            self.error(
                "q",
                format!("Ensure this value has at most {MAX_QUERY_CHARS} characters."),
            );
            return None;
        }
        let mut terms: Vec<String> = Vec::new();
        for term in q.split_whitespace().map(str::to_lowercase) {
            if !terms.contains(&term) {
                terms.push(term);
            }
        }
        if terms.len() > MAX_QUERY_TERMS {
            self.error(
                "q",
                format!("Use at most {MAX_QUERY_TERMS} different search terms."),
            );
            return None;
        }
        Some(terms)
    }
}

/// The longest `q` accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// The most distinct terms a `q` may have.
pub const MAX_QUERY_TERMS: usize = 20;

/// Every term occurs (case-insensitively) in at least one of the texts.
/// Terms are lower-case already (`search_terms`).
pub fn matches_all_terms<'t>(
    terms: &[String],
    texts: impl Iterator<Item = &'t str> + Clone,
) -> bool {
    terms
        .iter()
        .all(|term| texts.clone().any(|text| contains_ignoring_case(text, term)))
}

/// `haystack` contains the lower-case `needle`, ignoring case as
/// `str::to_lowercase` does; without allocating for ASCII text, which is
/// what searches mostly meet (titles and names are checked this way for
/// every candidate the index gives).
fn contains_ignoring_case(haystack: &str, needle: &str) -> bool {
    if haystack.is_ascii() {
        // Lower-cased on the stack, then the standard substring search.
        let mut buffer = [0u8; 256];
        if let Some(lower) = buffer.get_mut(..haystack.len()) {
            lower.copy_from_slice(haystack.as_bytes());
            lower.make_ascii_lowercase();
            return std::str::from_utf8(lower).is_ok_and(|lower| lower.contains(needle));
        }
        let (h, n) = (haystack.as_bytes(), needle.as_bytes());
        return n.is_empty()
            || h.windows(n.len())
                .any(|window| window.eq_ignore_ascii_case(n));
    }
    haystack.to_lowercase().contains(needle)
}

/// A numeric path segment (`/rooms/{id}`): plain digits, else 404.
pub fn path_id(segment: &str) -> Result<i64, ApiError> {
    if is_digits(segment) {
        segment.parse().map_err(|_| ApiError::NotFound)
    } else {
        Err(ApiError::NotFound)
    }
}

/// Plain decimal digits as an id (for filters); None otherwise.
pub fn digits_id(value: &str) -> Option<i64> {
    if is_digits(value) {
        value.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignoring_case_is_what_to_lowercase_gives() {
        let long = format!("{} Needle at the END", "x".repeat(300));
        let haystacks = [
            "Rust in Production",
            "ÜBER Café",
            "İstanbul",
            "ΟΔΟΣ",
            "",
            long.as_str(),
        ];
        let needles = [
            "rust",
            "production",
            "über",
            "café",
            "i̇st",
            "οδος",
            "οδοσ",
            "end",
            "needle at",
            "x",
            "",
            "zebra",
        ];
        for haystack in haystacks {
            for needle in needles {
                assert_eq!(
                    contains_ignoring_case(haystack, needle),
                    haystack.to_lowercase().contains(needle),
                    "{haystack:?} {needle:?}"
                );
            }
        }
    }

    #[test]
    fn every_term_must_occur_in_some_text() {
        let terms = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let texts = ["Why Memory-Safe Systems Matter", "Ada Lovelace"];
        assert!(matches_all_terms(
            &terms(&["memory", "ada"]),
            texts.iter().copied()
        ));
        assert!(!matches_all_terms(
            &terms(&["memory", "grace"]),
            texts.iter().copied()
        ));
        // A term does not span two texts.
        assert!(!matches_all_terms(
            &terms(&["matterada"]),
            texts.iter().copied()
        ));
        assert!(matches_all_terms(&terms(&[]), texts.iter().copied()));
    }
}
