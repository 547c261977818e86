//! Ordered visible sets: the positions a list shows one class of callers,
//! in list order, after its filters and search, computed once per data
//! version and kept (bounded by memory). Any page of a list is then a slice
//! of its set: page 4,000 costs what page 1 costs.
//!
//! Keys carry the caller's `ViewerClass` (see `access`), so a set computed
//! for one class is never read by another.

use std::any::{Any, TypeId};
use std::sync::Arc;

use super::access::ViewerClass;
use super::version::DataVersion;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SetKey {
    pub version: DataVersion,
    /// Lower-case event slug.
    pub event: String,
    pub class: ViewerClass,
    /// Which list (`"submissions"`, `"talks"`, …).
    pub list: &'static str,
    /// The list's filters and search terms, in one canonical form.
    pub filters: String,
}

/// The key with the set's position type, so that a set is only ever read
/// as the type it was computed as.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct TypedKey(SetKey, TypeId);

#[derive(Clone)]
struct Entry {
    /// An `Arc<Vec<I>>` of the list's position type.
    items: Arc<dyn Any + Send + Sync>,
    bytes: u32,
}

pub struct VisibleSets {
    sets: moka::sync::Cache<TypedKey, Entry>,
    /// Lists whose sets were computed lately, keyed by their query without
    /// pagination: pages of these are cheap (see `EventContext::off_workers`).
    computed: moka::sync::Cache<SetKey, ()>,
}

impl VisibleSets {
    /// At most `max_bytes` of sets (0: every request computes its own).
    pub fn new(max_bytes: u64) -> Self {
        VisibleSets {
            sets: moka::sync::Cache::builder()
                .max_capacity(max_bytes)
                .weigher(|key: &TypedKey, entry: &Entry| {
                    entry
                        .bytes
                        .saturating_add(u32::try_from(key.0.filters.len()).unwrap_or(u32::MAX))
                        .saturating_add(128)
                })
                .build(),
            // Only worth remembering while sets are kept at all.
            computed: moka::sync::Cache::new(if max_bytes == 0 { 0 } else { 100_000 }),
        }
    }

    /// Whether a list of this shape was computed lately.
    pub fn is_computed(&self, shape: &SetKey) -> bool {
        self.computed.contains_key(shape)
    }

    pub fn mark_computed(&self, shape: SetKey) {
        self.computed.insert(shape, ());
    }

    /// The set under `key`, computed by `compute` when it is not kept.
    /// Concurrent requests for a missing set compute it once.
    pub fn get_or_compute<I: Send + Sync + 'static>(
        &self,
        key: SetKey,
        compute: impl FnOnce() -> Vec<I>,
    ) -> Arc<Vec<I>> {
        let entry = self.sets.get_with(TypedKey(key, TypeId::of::<I>()), || {
            let items = compute();
            let bytes = items.len().saturating_mul(std::mem::size_of::<I>());
            Entry {
                items: Arc::new(Arc::new(items)),
                bytes: u32::try_from(bytes).unwrap_or(u32::MAX),
            }
        });
        entry
            .items
            .downcast_ref::<Arc<Vec<I>>>()
            .expect("the key holds the position type")
            .clone()
    }
}
