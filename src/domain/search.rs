//! Indexed `q` search: a trigram index that narrows which documents can
//! contain a term, so that a search reads a few posting lists instead of
//! every title, name and answer of the event.
//!
//! The index only prunes. Every candidate is still checked with the same
//! case-insensitive substring test as before, so search results are exactly
//! what a full scan gives. Terms shorter than three bytes cannot be looked
//! up and leave the full candidate set to that test.

use std::sync::OnceLock;

use roaring::RoaringBitmap;
use rustc_hash::FxHashMap;

use super::ids::Groups;

/// Byte trigrams of lower-cased texts → the ids of the documents (their
/// rank in a list's order) that contain them. Posting lists are roaring
/// bitmaps: a common trigram (" th" is in most answers) costs a bit per
/// document instead of four bytes, a rare one a few bytes, and they
/// intersect without a search per id.
#[derive(Default)]
pub struct TrigramIndex {
    postings: FxHashMap<[u8; 3], RoaringBitmap>,
}

impl TrigramIndex {
    /// `documents` in list order; each yields its texts, already lower-cased
    /// the way the search compares them (`str::to_lowercase`).
    pub fn build<D, T, S>(documents: D) -> Self
    where
        D: IntoIterator<Item = T>,
        T: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut postings: FxHashMap<[u8; 3], RoaringBitmap> = FxHashMap::default();
        for (id, texts) in documents.into_iter().enumerate() {
            let id = u32::try_from(id).expect("fewer than 2^32 documents");
            for text in texts {
                for gram in text.as_ref().as_bytes().windows(3) {
                    // Ids arrive in order, so this appends; a repeat within
                    // a document is refused (no greater than the last), as
                    // it should be.
                    let _ = postings
                        .entry([gram[0], gram[1], gram[2]])
                        .or_default()
                        .try_push(id);
                }
            }
        }
        for list in postings.values_mut() {
            list.optimize();
        }
        postings.shrink_to_fit();
        TrigramIndex { postings }
    }

    /// The documents that may contain every term (lower-case), ascending;
    /// None when no term is long enough to look up (every document may).
    pub fn candidates(&self, terms: &[String]) -> Option<Vec<u32>> {
        let mut lists: Vec<&RoaringBitmap> = Vec::new();
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
        let mut result = (*first).clone();
        for list in rest {
            if result.is_empty() {
                break;
            }
            result &= *list;
        }
        Some(result.into_iter().collect())
    }

    /// Posting entries in all, for metrics and tests.
    pub fn size(&self) -> usize {
        self.postings.values().map(|list| list.len() as usize).sum()
    }
}

/// An index of documents that often share their whole text, as answers
/// do (638,578 answers of the 100,000-submission event have 104,757
/// texts: "True", "Beginner", a choice's option). The trigrams index each
/// distinct text once, which makes the index about a sixth of the size.
pub struct DistinctTextIndex {
    texts: TrigramIndex,
    /// Document ids by their text's id, ascending in each group.
    documents: Groups<usize, u32>,
}

impl DistinctTextIndex {
    /// One text per document, in list order; `lower` lower-cases a text
    /// the way the search compares texts (once per distinct text).
    pub fn build<'t>(
        documents: impl IntoIterator<Item = &'t str>,
        lower: impl Fn(&str) -> String,
    ) -> Self {
        let mut text_ids: FxHashMap<&str, usize> = FxHashMap::default();
        let mut texts: Vec<&str> = Vec::new();
        let text_of: Vec<usize> = documents
            .into_iter()
            .map(|text| {
                *text_ids.entry(text).or_insert_with(|| {
                    texts.push(text);
                    texts.len() - 1
                })
            })
            .collect();
        let documents = Groups::new(
            texts.len(),
            text_of
                .iter()
                .enumerate()
                .map(|(id, &text)| (text, u32::try_from(id).expect("fewer than 2^32 documents"))),
        );
        let lowered: Vec<String> = texts.iter().map(|text| lower(text)).collect();
        DistinctTextIndex {
            texts: TrigramIndex::build(lowered.iter().map(|t| std::iter::once(t.as_str()))),
            documents,
        }
    }

    /// As [`TrigramIndex::candidates`], for documents.
    pub fn candidates(&self, terms: &[String]) -> Option<Vec<u32>> {
        let texts = self.texts.candidates(terms)?;
        let mut documents: Vec<u32> = texts
            .into_iter()
            .flat_map(|t| self.documents.of(t as usize))
            .copied()
            .collect();
        documents.sort_unstable();
        Some(documents)
    }
}

impl std::fmt::Debug for TrigramIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TrigramIndex({} postings)", self.size())
    }
}

impl std::fmt::Debug for DistinctTextIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DistinctTextIndex({} documents, {:?})",
            self.documents.item_count(),
            self.texts
        )
    }
}

/// An index built on first use and kept for the catalog's lifetime (one
/// generation), so that events nobody searches cost nothing.
pub struct LazyIndex<T = TrigramIndex>(OnceLock<T>);

impl<T> Default for LazyIndex<T> {
    fn default() -> Self {
        LazyIndex(OnceLock::new())
    }
}

impl<T> LazyIndex<T> {
    pub fn get_or_build(&self, build: impl FnOnce() -> T) -> &T {
        let mut built = false;
        let index = self.0.get_or_init(|| {
            built = true;
            build()
        });
        if built {
            // The build's scratch (lower-cased texts, grown lists) is freed
            // between the index's own blocks; hand those pages back.
            crate::memory::release_free_memory();
        }
        index
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for LazyIndex<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get() {
            Some(index) => write!(f, "LazyIndex({index:?})"),
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
    fn documents_sharing_a_text_are_found_together_in_id_order() {
        let idx = DistinctTextIndex::build(
            ["True", "Beginner", "true", "False", "Beginner", "True"],
            str::to_lowercase,
        );
        assert_eq!(idx.candidates(&terms(&["true"])), Some(vec![0, 2, 5]));
        assert_eq!(idx.candidates(&terms(&["begin"])), Some(vec![1, 4]));
        assert_eq!(idx.candidates(&terms(&["ue"])), None);
        assert_eq!(idx.candidates(&terms(&["zebra"])), Some(vec![]));
        // Four distinct texts ("True" and "true" are two): 2 + 6 + 2 + 3 trigrams.
        assert_eq!(
            format!("{idx:?}"),
            "DistinctTextIndex(6 documents, TrigramIndex(13 postings))"
        );
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
