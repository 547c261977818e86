//! Indexed `q` search: a trigram index that narrows which documents can
//! contain a term, so that a search reads a few posting lists instead of
//! every title, name and answer of the event.
//!
//! The index only prunes. Every candidate is still checked with the same
//! case-insensitive substring test as before, so search results are exactly
//! what a full scan gives. Terms shorter than three bytes cannot be looked
//! up and leave the full candidate set to that test.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

/// Byte trigrams of lower-cased texts → the ids of the documents (their
/// rank in a list's order) that contain them, ascending.
#[derive(Default)]
pub struct TrigramIndex {
    postings: FxHashMap<[u8; 3], Vec<u32>>,
}

impl TrigramIndex {
    /// `documents` in list order; each yields its texts, already lower-cased
    /// the way the search compares them (`str::to_lowercase`).
    pub fn build<'t, D, T>(documents: D) -> Self
    where
        D: IntoIterator<Item = T>,
        T: IntoIterator<Item = &'t str>,
    {
        let mut postings: FxHashMap<[u8; 3], Vec<u32>> = FxHashMap::default();
        for (id, texts) in documents.into_iter().enumerate() {
            let id = u32::try_from(id).expect("fewer than 2^32 documents");
            for text in texts {
                for gram in text.as_bytes().windows(3) {
                    let list = postings.entry([gram[0], gram[1], gram[2]]).or_default();
                    // Ids arrive in order: a repeat within a document is the last entry.
                    if list.last() != Some(&id) {
                        list.push(id);
                    }
                }
            }
        }
        for list in postings.values_mut() {
            list.shrink_to_fit();
        }
        TrigramIndex { postings }
    }

    /// The documents that may contain every term (lower-case), ascending;
    /// None when no term is long enough to look up (every document may).
    pub fn candidates(&self, terms: &[String]) -> Option<Vec<u32>> {
        let mut lists: Vec<&[u32]> = Vec::new();
        for term in terms {
            for gram in term.as_bytes().windows(3) {
                match self.postings.get(gram) {
                    Some(list) => lists.push(list),
                    None => return Some(Vec::new()),
                }
            }
        }
        // Intersect from the shortest list: its length bounds the work.
        lists.sort_by_key(|list| list.len());
        let (first, rest) = lists.split_first()?;
        let mut result: Vec<u32> = first.to_vec();
        for list in rest {
            result.retain(|id| list.binary_search(id).is_ok());
            if result.is_empty() {
                break;
            }
        }
        Some(result)
    }

    /// Posting entries in all, for metrics and tests.
    pub fn size(&self) -> usize {
        self.postings.values().map(Vec::len).sum()
    }
}

/// An index built on first use and kept for the catalog's lifetime (one
/// generation), so that events nobody searches cost nothing.
#[derive(Default)]
pub struct LazyIndex(OnceLock<TrigramIndex>);

impl LazyIndex {
    pub fn get_or_build(&self, build: impl FnOnce() -> TrigramIndex) -> &TrigramIndex {
        self.0.get_or_init(build)
    }
}

impl std::fmt::Debug for LazyIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get() {
            Some(index) => write!(f, "LazyIndex({} postings)", index.size()),
            None => f.write_str("LazyIndex(not built)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(docs: &[&[&str]]) -> TrigramIndex {
        TrigramIndex::build(docs.iter().map(|texts| texts.iter().copied()))
    }

    fn terms(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn candidates_contain_every_document_with_every_term() {
        let idx = index(&[
            &["rust in production"],
            &["a talk about data", "ada lovelace"],
            &["databases", "grace hopper"],
        ]);
        assert_eq!(idx.candidates(&terms(&["data"])), Some(vec![1, 2]));
        assert_eq!(idx.candidates(&terms(&["data", "hopper"])), Some(vec![2]));
        assert_eq!(idx.candidates(&terms(&["rust"])), Some(vec![0]));
        assert_eq!(idx.candidates(&terms(&["zebra"])), Some(vec![]));
    }

    #[test]
    fn short_terms_leave_the_choice_to_the_caller() {
        let idx = index(&[&["ab"], &["cd"]]);
        assert_eq!(idx.candidates(&terms(&["a"])), None);
        assert_eq!(idx.candidates(&terms(&["ab", "cd"])), None);
        // A long term still narrows when a short one is beside it.
        let idx = index(&[&["abc"], &["xyz"]]);
        assert_eq!(idx.candidates(&terms(&["a", "xyz"])), Some(vec![1]));
    }

    #[test]
    fn multibyte_text_is_indexed_by_bytes() {
        let idx = index(&[&["über café"], &["uber cafe"]]);
        assert_eq!(idx.candidates(&terms(&["café"])), Some(vec![0]));
        assert_eq!(idx.candidates(&terms(&["ber"])), Some(vec![0, 1]));
        // Not a substring, though every trigram is present: a candidate that
        // the caller's substring check then rejects.
        let idx = index(&[&["abcd bcde"]]);
        assert_eq!(idx.candidates(&terms(&["abcde"])), Some(vec![0]));
    }
}
