//! Keeps the serving catalog in step with storage, off the request path.
//!
//! One background task (`start`) asks storage for its version every poll
//! interval (one tiny query) and, when an import has committed since, loads
//! the changed events and swaps a new catalog in whole. Requests only read
//! the current catalog: they never touch the database, never wait for a
//! load, and cannot cancel one. Readers never see a mix of two imports: a
//! catalog is built from one consistent read.
//!
//! Until the first catalog is loaded, and while the last poll failed (the
//! database is gone), requests are refused with 503 and `Retry-After`, so
//! that no one is served data of unknown age; `/readyz` says the same to a
//! load balancer.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use crate::domain::catalog::{Catalog, EventData, SubmissionIx, Users};
use crate::model::User;
use crate::storage::records::{EventPatch, InStoredOrder, PagePlaces};
use crate::storage::{DataVersion, Held, Loaded, Store, StoreError};

pub struct CatalogCache {
    store: Arc<dyn Store>,
    current: RwLock<Arc<Catalog>>,
    health: Mutex<Health>,
    /// One load at a time, whoever asks (the poller, or `refresh`).
    loading: tokio::sync::Mutex<()>,
    pub stats: ReloadStats,
    /// The generation served, for those who wait for the next one (the
    /// change feed's streams).
    served: tokio::sync::watch::Sender<i64>,
}

/// What the last poll found.
struct Health {
    /// A catalog has been loaded since the process started.
    ready: bool,
    /// Why the last poll failed, if it did.
    failure: Option<String>,
    /// When the served catalog was last confirmed current.
    confirmed: Option<Instant>,
}

/// Reload figures for `/metrics`.
#[derive(Default)]
pub struct ReloadStats {
    pub reloads: AtomicU64,
    /// Events rebuilt by reloads, in all.
    pub events_rebuilt: AtomicU64,
    /// Of those, events rebuilt from the records changed since the snapshot
    /// (the rest were read in full).
    pub events_patched: AtomicU64,
    pub last_reload_micros: AtomicU64,
    pub poll_failures: AtomicU64,
}

impl CatalogCache {
    /// A cache with no catalog yet; `refresh` or `start` loads one.
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
            health: Mutex::new(Health {
                ready: false,
                failure: None,
                confirmed: None,
            }),
            loading: tokio::sync::Mutex::new(()),
            stats: ReloadStats::default(),
            served: tokio::sync::watch::channel(-1).0,
        }
    }

    /// A cache kept current by a background task that polls every `interval`.
    pub fn start(store: Arc<dyn Store>, interval: Duration) -> Arc<Self> {
        let cache = Arc::new(CatalogCache::new(store));
        let poller = Arc::downgrade(&cache);
        tokio::spawn(async move {
            loop {
                // The task ends with the last user of the cache.
                let Some(cache) = poller.upgrade() else { break };
                // `refresh` records and logs the outcome.
                let _ = cache.refresh().await;
                drop(cache);
                tokio::time::sleep(interval).await;
            }
        });
        cache
    }

    /// Wakes on every new catalog served.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<i64> {
        self.served.subscribe()
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    fn snapshot(&self) -> Arc<Catalog> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn health(&self) -> std::sync::MutexGuard<'_, Health> {
        self.health.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The generation of the catalog being served (for metrics).
    pub fn cached_generation(&self) -> i64 {
        self.snapshot().version.generation
    }

    /// Seconds since the served catalog was last confirmed current.
    pub fn snapshot_age(&self) -> Option<f64> {
        self.health().confirmed.map(|at| at.elapsed().as_secs_f64())
    }

    /// The catalog to answer a request from: no database query, no wait.
    pub fn current(&self) -> Result<Arc<Catalog>, StoreError> {
        let health = self.health();
        if let Some(failure) = &health.failure {
            return Err(StoreError::Unavailable(failure.clone()));
        }
        if !health.ready {
            return Err(StoreError::Unavailable(
                "the data is still loading; try again shortly".into(),
            ));
        }
        drop(health);
        Ok(self.snapshot())
    }

    /// Ready to serve: a catalog is loaded and the last poll succeeded.
    pub fn ready(&self) -> Result<(), StoreError> {
        self.current().map(|_| ())
    }

    /// Asks storage for its version and, when it changed, loads what
    /// changed and swaps the new catalog in. Waits for a load already under
    /// way instead of starting a second one.
    pub async fn refresh(&self) -> Result<(), StoreError> {
        let result = self.poll_and_load().await;
        let mut health = self.health();
        // Logged when the state changes, not on every poll of an outage.
        match &result {
            Ok(()) => {
                if health.failure.take().is_some() {
                    tracing::info!("storage answers again; serving");
                }
                health.confirmed = Some(Instant::now());
            }
            Err(err) => {
                self.stats.poll_failures.fetch_add(1, Ordering::Relaxed);
                if health.failure.is_none() {
                    tracing::warn!(error = %err, "storage poll failed; refusing requests until it answers");
                }
                health.failure = Some(err.to_string());
            }
        }
        result
    }

    async fn poll_and_load(&self) -> Result<(), StoreError> {
        let version = self.store.version().await?;
        if self.snapshot().version == version {
            return Ok(());
        }
        let _one_at_a_time = self.loading.lock().await;
        let cached = self.snapshot();
        if cached.version == version {
            return Ok(()); // loaded meanwhile
        }
        let started = Instant::now();
        // Another database (replaced file, restored backup): nothing cached
        // can be trusted, whatever its generation says.
        let same_database = cached.version.identity == version.identity;
        let held = if same_database {
            Held {
                events: cached.event_versions.clone(),
                users: Some(cached.version.generation),
            }
        } else {
            Held::default()
        };
        let mut loaded = self.store.load(&held).await?;
        tracing::debug!(elapsed = ?started.elapsed(), "reload: read");
        // Indexing a large event takes seconds of CPU: off the async workers.
        let build = |loaded: Loaded| {
            let cached = cached.clone();
            async move {
                tokio::task::spawn_blocking(move || build_catalog(loaded, &cached, same_database))
                    .await
                    .map_err(|e| StoreError::Corrupt(format!("building the catalog failed: {e}")))?
            }
        };
        let mut built = build(loaded).await?;
        tracing::debug!(elapsed = ?started.elapsed(), "reload: built");
        if let Err(unpatched) = &built.catalog {
            // Only a bug or a store changed behind our back gets here: read
            // those events (and every user) in full instead.
            tracing::warn!(events = ?unpatched, "a patch did not add up; reading in full");
            let mut held = held;
            held.events.retain(|slug, _| !unpatched.contains(slug));
            held.users = None;
            loaded = self.store.load(&held).await?;
            built = build(loaded).await?;
        }
        let Built {
            catalog,
            rebuilt,
            patched,
        } = built;
        let mut catalog = catalog.map_err(|slugs| {
            StoreError::Corrupt(format!("events {slugs:?} can be neither patched nor read"))
        })?;
        catalog.feed = self
            .load_feed(&cached, same_database, &catalog.version)
            .await?;
        let catalog = Arc::new(catalog);
        let elapsed = started.elapsed();
        tracing::info!(
            generation = catalog.version.generation,
            events = catalog.events.len(),
            rebuilt,
            patched,
            millis = elapsed.as_millis() as u64,
            "catalog loaded"
        );
        // Counted before the swap: whoever sees the new data sees its reload.
        self.stats.reloads.fetch_add(1, Ordering::Relaxed);
        self.stats
            .events_rebuilt
            .fetch_add(rebuilt as u64, Ordering::Relaxed);
        self.stats
            .events_patched
            .fetch_add(patched as u64, Ordering::Relaxed);
        self.stats
            .last_reload_micros
            .store(elapsed.as_micros() as u64, Ordering::Relaxed);
        let generation = catalog.version.generation;
        let previous = std::mem::replace(
            &mut *self.current.write().unwrap_or_else(|e| e.into_inner()),
            catalog,
        );
        self.health().ready = true;
        self.served.send_replace(generation);
        drop(cached);
        retire(previous);
        Ok(())
    }
}

impl CatalogCache {
    /// The change feeds up to `version`: what the served catalog holds,
    /// plus the rows written since (all of them for another database).
    async fn load_feed(
        &self,
        cached: &Catalog,
        same_database: bool,
        version: &DataVersion,
    ) -> Result<Arc<crate::domain::feed::FeedLog>, StoreError> {
        let empty = crate::domain::feed::FeedLog::default();
        let held = if same_database && cached.version.generation >= 0 {
            &*cached.feed
        } else {
            &empty
        };
        let after = if std::ptr::eq(held, &empty) {
            -1
        } else {
            held.upto
        };
        let log = self.store.changes(after, version.generation).await?;
        let rows = log.rows.len();
        let feed = held
            .extend(log.feed_from, version.generation, log.rows)
            .map_err(StoreError::Corrupt)?;
        tracing::debug!(rows, from = feed.from, "reload: feed read");
        Ok(Arc::new(feed))
    }
}

/// How long a replaced snapshot waits for the requests that began before
/// the swap (they hold it) before whichever of them ends last frees it.
const RETIRE_WAIT: Duration = Duration::from_secs(10);

/// Frees a replaced snapshot on a blocking thread once the requests that
/// began before the swap have let go of it. Freeing the 100,000-submission
/// event's millions of allocations takes hundreds of milliseconds, which on
/// an async worker would stall every request queued behind it.
fn retire(previous: Arc<Catalog>) {
    tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + RETIRE_WAIT;
        let mut previous = previous;
        loop {
            match Arc::try_unwrap(previous) {
                Ok(catalog) => {
                    drop(catalog);
                    break;
                }
                Err(held) if Instant::now() < deadline => {
                    previous = held;
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(held) => {
                    drop(held);
                    break;
                }
            }
        }
        crate::memory::release_free_memory();
    });
}

/// What a reload built: the catalog, or the events whose patch did not add
/// up (none when the users did not); how many events were rebuilt, and how
/// many of them from a patch.
struct Built {
    catalog: Result<Catalog, Vec<String>>,
    rebuilt: usize,
    patched: usize,
}

/// How a patch was applied to the serving snapshot (`apply_patch`), from
/// the cheapest way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Patched {
    /// Only submissions rewritten, none in what an index reads: the new
    /// snapshot shares every other record and every index with `base`.
    Shared,
    /// Records rewritten in their places: `base`'s page order kept,
    /// without working it out again (most of a large event's reload
    /// otherwise), the indexes built anew.
    InPlace,
    /// Records added, removed or moved: the event in the store's order,
    /// put in page order and indexed anew.
    Reordered,
}

/// The snapshot of `patch` applied to `base`, and how; `None` when the
/// patch does not add up.
pub fn apply_patch(
    patch: &EventPatch,
    base: &EventData,
) -> Result<Option<(EventData, Patched)>, StoreError> {
    if let Some(order) = &base.stored_order {
        let at = PagePlaces {
            submissions: order.submissions.iter().map(|&i| usize::from(i)).collect(),
            speakers: order.speakers.iter().map(|&i| usize::from(i)).collect(),
            answers: order.answers.iter().map(|&i| usize::from(i)).collect(),
            reviews: order.reviews.iter().map(|&i| usize::from(i)).collect(),
        };
        if let Some(rewritten) = patch.rewritten_submissions(&base.event, &at)? {
            let rewritten = rewritten
                .into_iter()
                .map(|(place, submission)| (SubmissionIx::from(place as u32), submission))
                .collect();
            if let Some(data) = base.with_submissions_rewritten(rewritten) {
                return Ok(Some((data, Patched::Shared)));
            }
        }
        if let Some(event) = patch.apply_in_place(&base.event, &at)? {
            return Ok(Some((
                EventData::serving_in_place(event, order.clone()),
                Patched::InPlace,
            )));
        }
    }
    let stored = InStoredOrder {
        submissions: base.stored_submissions(),
        speakers: base.stored_speakers(),
        answers: base.stored_answers(),
        reviews: base.stored_reviews(),
    };
    Ok(patch
        .apply_in_order(&base.event, &stored)?
        .map(|event| (EventData::serving(event), Patched::Reordered)))
}

/// The new catalog from what `load` read and the catalog serving now.
fn build_catalog(
    loaded: Loaded,
    cached: &Catalog,
    same_database: bool,
) -> Result<Built, StoreError> {
    let patched = loaded.patches.len();
    let rebuilt = loaded.changed_events.len() + patched;
    let mut fresh: HashMap<String, Arc<EventData>> = HashMap::new();
    let mut unpatched = Vec::new();
    for patch in &loaded.patches {
        let base = cached
            .event(patch.slug())
            .filter(|e| e.event.slug == patch.slug());
        let started = Instant::now();
        match base.map(|base| apply_patch(patch, base)).transpose()? {
            Some(Some((data, how))) => {
                fresh.insert(data.event.slug.clone(), Arc::new(data));
                tracing::debug!(took = ?started.elapsed(), ?how, bodies = patch.bodies(), "reload: patched");
            }
            _ => unpatched.push(patch.slug().to_string()),
        }
    }
    if !unpatched.is_empty() {
        return Ok(Built {
            catalog: Err(unpatched),
            rebuilt,
            patched,
        });
    }
    // A loaded event's strings are shared as it is read (`model::shared`),
    // a patched one's with its base (a clone of an `ArcStr` is the same
    // string).
    for event in loaded.changed_events {
        fresh.insert(event.slug.clone(), Arc::new(EventData::serving(event)));
    }
    let events = loaded
        .event_versions
        .iter()
        .filter_map(|(slug, version)| {
            let data = fresh.remove(slug).or_else(|| {
                same_database.then_some(())?;
                cached
                    .event(slug)
                    .filter(|e| &e.event.slug == slug)
                    .cloned()
            })?;
            Some((data, *version))
        })
        .collect();
    let mut written = loaded.users;
    User::share_strings(&mut written);
    let written = written.into_iter().map(|u| (u.code.clone(), Arc::new(u)));
    let users: Users = match loaded.users_since {
        // Users are never deleted: the held ones, with those written since.
        Some(_) => {
            let mut users = cached.users.clone();
            users.extend(written);
            if users.len() != loaded.user_count {
                return Ok(Built {
                    catalog: Err(Vec::new()),
                    rebuilt,
                    patched,
                });
            }
            users
        }
        None => written.collect(),
    };
    Ok(Built {
        catalog: Ok(Catalog::new(loaded.version, users, events)),
        rebuilt,
        patched,
    })
}
