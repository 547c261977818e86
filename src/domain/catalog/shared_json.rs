//! The JSON of small objects many responses repeat, kept for a snapshot.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

/// The JSON of the small objects that many responses repeat (v1's
/// expanded questions, options, tags, tracks, submission types and rooms),
/// each as rendered in one context (what decides its JSON besides the
/// object: the expansion below it, `lang`, the caller's role), for as long
/// as this snapshot serves. Rendered once a request, they were a twentieth
/// of a page with pytanis's expansion (callgrind, docs/bench-log.md). It holds
/// at most `MAX_OBJECTS` objects of at most `MAX_BYTES` each, so that
/// requests with ever new expansions or languages cannot grow it; past
/// that, objects are rendered each time.
#[derive(Default)]
pub struct SharedJson {
    objects: std::sync::Mutex<SharedObjects>,
}

/// One context's objects, by kind and id.
type ObjectsOfContext = HashMap<(u8, i64), Arc<str>>;

#[derive(Default)]
struct SharedObjects {
    /// By context, then by the object's kind and id.
    by_context: HashMap<Box<str>, ObjectsOfContext>,
    count: usize,
}

impl SharedJson {
    pub const MAX_OBJECTS: usize = 512;
    pub const MAX_BYTES: usize = 8 * 1024;

    /// The JSON of the object `(kind, id)` in `context`, rendered by
    /// `render` unless it is held already. `render` must give the same
    /// JSON for the same key as long as this snapshot serves, and nothing
    /// that depends on who asks beyond what `context` says.
    pub fn get_or_render(
        &self,
        kind: u8,
        id: i64,
        context: &str,
        render: impl FnOnce() -> String,
    ) -> Arc<str> {
        let objects = || self.objects.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(json) = objects()
            .by_context
            .get(context)
            .and_then(|by_id| by_id.get(&(kind, id)))
        {
            return json.clone();
        }
        // Rendered without the lock: an object may hold others (a
        // question its options), rendered through this too.
        let json: Arc<str> = render().into();
        let mut held = objects();
        if held.count < Self::MAX_OBJECTS && json.len() <= Self::MAX_BYTES {
            let by_id = held.by_context.entry(context.into()).or_default();
            if by_id.insert((kind, id), json.clone()).is_none() {
                held.count += 1;
            }
        }
        json
    }

    /// How many objects it holds.
    pub fn held(&self) -> usize {
        self.objects.lock().unwrap_or_else(|e| e.into_inner()).count
    }
}

impl std::fmt::Debug for SharedJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedJson")
            .field("objects", &self.held())
            .finish()
    }
}
