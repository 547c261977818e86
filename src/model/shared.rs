//! Strings shared as records are read: while `sharing` runs, each string
//! a field marked `shared::one`, `optional` or `list` reads is the first
//! equal one read, so a load allocates each of the few hundred thousand
//! distinct codes and texts of an event's 1.7 million once. Shared after
//! the load instead, the 100,000-submission event freed over a million
//! copies, whose holes among the kept records stayed in serve's RSS
//! (docs/bench-log.md, "Memory (At 752d41f and 6e95e64, 1 December)"). Without `sharing` (a dataset file), each
//! string is its own.

use std::cell::RefCell;

use serde::de::{Deserialize, Deserializer, Visitor};

use super::{ArcStr, SharedStrings};

thread_local! {
    static TABLE: RefCell<Option<SharedStrings>> = const { RefCell::new(None) };
}

/// Runs `read` sharing its strings with those of `table`, which gains
/// the new ones.
pub fn sharing<R>(table: &mut SharedStrings, read: impl FnOnce() -> R) -> R {
    TABLE.with(|t| *t.borrow_mut() = Some(std::mem::take(table)));
    let result = read();
    *table = TABLE.with(|t| t.borrow_mut().take()).unwrap_or_default();
    result
}

fn share(text: &str) -> ArcStr {
    TABLE.with(|t| match t.borrow_mut().as_mut() {
        Some(table) => table.get_or_insert(text),
        None => ArcStr::from(text),
    })
}

struct Shared(ArcStr);

impl<'de> Deserialize<'de> for Shared {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shared, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = Shared;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E>(self, text: &str) -> Result<Shared, E> {
                Ok(Shared(share(text)))
            }
        }
        deserializer.deserialize_str(Text)
    }
}

pub fn one<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ArcStr, D::Error> {
    Shared::deserialize(deserializer).map(|shared| shared.0)
}

pub fn optional<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<ArcStr>, D::Error> {
    Option::<Shared>::deserialize(deserializer).map(|shared| shared.map(|s| s.0))
}

/// An exact list (`exact_list`) of shared strings.
pub fn list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<ArcStr>, D::Error> {
    super::exact_list::deserialize::<D, Shared>(deserializer)
        .map(|list| list.into_iter().map(|shared| shared.0).collect())
}
