//! Keeps the serving catalog in step with storage. Each request asks
//! storage for its generation (one small query); only when an import has
//! committed since is anything reloaded, and then only the events that
//! changed. Readers never see a mix of two imports: a catalog is built from
//! one consistent read and swapped in whole.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

use crate::domain::catalog::{Catalog, EventData};
use crate::storage::{DataVersion, Store, StoreError};

pub struct CatalogCache {
    store: Arc<dyn Store>,
    current: RwLock<Arc<Catalog>>,
    generation: AtomicI64,
    /// One reload at a time; requests arriving meanwhile wait for its result.
    reloading: tokio::sync::Mutex<()>,
}

impl CatalogCache {
    pub fn new(store: Arc<dyn Store>) -> Self {
        CatalogCache {
            store,
            current: RwLock::new(Arc::new(Catalog {
                version: DataVersion {
                    identity: String::new(),
                    generation: -1,
                },
                ..Catalog::default()
            })),
            generation: AtomicI64::new(-1),
            reloading: tokio::sync::Mutex::new(()),
        }
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The generation of the catalog last served (for metrics).
    pub fn cached_generation(&self) -> i64 {
        self.generation.load(Ordering::Relaxed)
    }

    fn snapshot(&self) -> Arc<Catalog> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The catalog of the storage's current generation. This is the one
    /// query every API request makes.
    pub async fn current(&self) -> Result<Arc<Catalog>, StoreError> {
        let version = self.store.version().await?;
        let cached = self.snapshot();
        if cached.version == version {
            return Ok(cached);
        }
        let _guard = self.reloading.lock().await;
        let cached = self.snapshot();
        if cached.version.identity == version.identity
            && cached.version.generation >= version.generation
        {
            return Ok(cached);
        }
        // Another database (replaced file, restored backup): nothing cached
        // can be trusted, whatever its generation says.
        let same_database = cached.version.identity == version.identity;
        let known: HashMap<String, i64> = if same_database {
            cached.event_generations.clone()
        } else {
            HashMap::new()
        };
        let loaded = self.store.load(&known).await?;
        let mut fresh: HashMap<String, Arc<EventData>> = loaded
            .changed_events
            .into_iter()
            .map(|event| (event.slug.clone(), Arc::new(EventData::new(event))))
            .collect();
        let events = loaded
            .event_generations
            .iter()
            .filter_map(|(slug, event_generation)| {
                let data = fresh.remove(slug).or_else(|| {
                    same_database.then_some(())?;
                    cached
                        .event(slug)
                        .filter(|e| &e.event.slug == slug)
                        .cloned()
                })?;
                Some((data, *event_generation))
            })
            .collect();
        let catalog = Arc::new(Catalog::new(loaded.version, loaded.users, events));
        tracing::info!(
            generation = catalog.version.generation,
            events = catalog.events.len(),
            "catalog loaded"
        );
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = catalog.clone();
        self.generation
            .store(catalog.version.generation, Ordering::Relaxed);
        Ok(catalog)
    }
}
