//! The data confapi serves: one plain Rust value per record of the dataset
//! format (`shared/spec/dataset.md`), with every default applied and every
//! datetime parsed.
//!
//! The same types flow through the whole program: `dataset` parses a JSON
//! document into them and writes them back out, `storage` persists and loads
//! them, and `domain` builds an indexed, read-only snapshot of them that the
//! HTTP layer answers from. Lists keep dataset order; where the API needs
//! another order the domain sorts.

use serde::{Deserialize, Serialize};

/// An immutable string behind one thin pointer, shared by reference count:
/// what hundreds of thousands of records repeat (user and submission codes,
/// answer and review texts) is kept once per event (`shared`), and a
/// patched reload copies pointers, not text.
pub use arcstr::ArcStr;

pub mod time;
pub use time::{timestamp, Timestamp};

/// A closed set of names: a serde enum plus the table of its JSON names,
/// which validation lists in its messages and the HTTP layer accepts as
/// filter values. The names are written once, here.
macro_rules! closed_set {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [(&'static str, $name)] = &[$(($text, $name::$variant)),+];
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
            }
        }

        /// In the API: one of the JSON names.
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some(Self::NAMES.iter().copied()))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

mod event;
mod questions;
mod reviews;
mod schedule;
mod setup;
pub mod shared;
mod submissions;
mod users;
mod values;

pub use event::*;
pub use questions::*;
pub use reviews::*;
pub use schedule::*;
pub use setup::*;
pub use submissions::*;
pub use users::*;
pub use values::*;

/// A whole dataset: global users plus any number of events. Serialised, it
/// is the dataset document `export` writes (without its `format` and
/// `version` header); every field is written, defaults included.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    pub users: Vec<User>,
    pub events: Vec<Event>,
}

/// Each of `items` shared: the event's big lists hold their records so,
/// that snapshots built from one another (a replica's patch) share the
/// records they did not change instead of copying them.
pub fn share_each<T>(items: Vec<T>) -> Vec<std::sync::Arc<T>> {
    items.into_iter().map(std::sync::Arc::new).collect()
}

/// A list read into a vector of exactly its length. Serde grows a vector
/// one element at a time (room for four after the first), and most of a
/// submission's and a profile's lists hold one or two: 100,000 submissions
/// kept some 19 MiB of room they never used (docs/bench-log.md, "Memory (At 752d41f and 6e95e64, 1 December)").
/// Collected on the stack first, so no grown vector is left behind.
mod exact_list {
    use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
    use smallvec::SmallVec;

    pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        struct Exact<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Exact<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut items: SmallVec<[T; 8]> = SmallVec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                let mut list = items.into_vec();
                // Longer lists spilled into a grown vector.
                list.shrink_to_fit();
                Ok(list)
            }
        }
        deserializer.deserialize_seq(Exact(std::marker::PhantomData))
    }

    /// The same, as a boxed slice (which `Vec::into_boxed_slice` makes of
    /// an exact vector without moving it).
    pub fn boxed<'de, D, T>(deserializer: D) -> Result<Box<[T]>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        deserialize(deserializer).map(Vec::into_boxed_slice)
    }
}

/// `list` moved into a vector of exactly its length. Not `shrink_to_fit`:
/// mimalloc keeps a block that is at least half used, which most grown
/// lists are.
fn exact<T>(list: &mut Vec<T>) {
    if list.capacity() > list.len() {
        let mut moved = Vec::with_capacity(list.len());
        moved.append(list);
        *list = moved;
    }
}

/// The strings seen so far, to replace an equal one by the first.
#[derive(Default)]
pub struct SharedStrings(rustc_hash::FxHashSet<ArcStr>);

impl SharedStrings {
    /// The string equal to `text` seen first, `text` itself if none was.
    fn get_or_insert(&mut self, text: &str) -> ArcStr {
        match self.0.get(text) {
            Some(shared) => shared.clone(),
            None => {
                let shared = ArcStr::from(text);
                self.0.insert(shared.clone());
                shared
            }
        }
    }

    fn share(&mut self, text: &mut ArcStr) {
        match self.0.get(text.as_str()) {
            Some(shared) => *text = shared.clone(),
            None => {
                self.0.insert(text.clone());
            }
        }
    }
}

fn yes() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// A stable positive id for a value the dataset does not hold: from 10⁹ to
/// below 2·10⁹, never a small database key, always a positive int32. The
/// schedule exports and v1 derive the same ids the same way.
pub fn derived_id(parts: &[&str]) -> i64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(parts.join("\u{1f}").as_bytes());
    let hex = hex::encode(digest);
    let value = i64::from_str_radix(&hex[..12], 16).unwrap_or(0);
    1_000_000_000 + value % 1_000_000_000
}

/// SHA-256 of a clear token, as lower-case hex: the only form stored.
pub fn hash_token(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(token.as_bytes()))
}
