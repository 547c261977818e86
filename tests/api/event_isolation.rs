//! One expensive request cannot delay cheap requests to other events: the
//! lists of big events are computed off the async workers, on a bounded
//! pool (`EventContext::off_workers`), so while the worst searches the
//! limits allow run on a big event, a small event still answers at once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use confapi::cache::CatalogCache;
use confapi::dataset::{demo, validate};
use confapi::http::{AppState, Config};
use confapi::model::Dataset;
use confapi::storage::{
    BoxFuture, DataVersion, EventVersion, Held, ImportOptions, ImportSummary, Loaded, Progress,
    Store, StoreError,
};

use crate::helpers::mini;

/// Serves a dataset from memory: a 20,000-submission event loads in
/// seconds, without a database import.
struct MemoryStore {
    dataset: Dataset,
}

impl Store for MemoryStore {
    // Sends no webhooks: the lease is never free.
    fn webhook_lease<'a>(
        &'a self,
        _holder: &'a str,
        _now: i64,
        _ttl: i64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async { Ok(false) })
    }
    fn webhook_cursors(
        &self,
    ) -> BoxFuture<'_, Result<Vec<confapi::storage::WebhookCursor>, StoreError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
    fn save_webhook_cursor<'a>(
        &'a self,
        _cursor: &'a confapi::storage::WebhookCursor,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }
    fn changes(
        &self,
        _after: i64,
        _upto: i64,
    ) -> BoxFuture<'_, Result<confapi::storage::ChangeLog, StoreError>> {
        // One generation, made before the feed: nothing to report.
        Box::pin(async {
            Ok(confapi::storage::ChangeLog {
                feed_from: 1,
                rows: Vec::new(),
            })
        })
    }
    fn version(&self) -> BoxFuture<'_, Result<DataVersion, StoreError>> {
        Box::pin(async {
            Ok(DataVersion {
                identity: "memory".into(),
                generation: 1,
            })
        })
    }
    fn event_count(&self) -> BoxFuture<'_, Result<i64, StoreError>> {
        let count = self.dataset.events.len() as i64;
        Box::pin(async move { Ok(count) })
    }
    fn load<'a>(&'a self, held: &'a Held) -> BoxFuture<'a, Result<Loaded, StoreError>> {
        Box::pin(async move {
            Ok(Loaded {
                version: DataVersion {
                    identity: "memory".into(),
                    generation: 1,
                },
                users: self.dataset.users.clone(),
                users_since: None,
                user_count: self.dataset.users.len(),
                event_versions: self
                    .dataset
                    .events
                    .iter()
                    .enumerate()
                    .map(|(id, e)| {
                        let version = EventVersion {
                            id: id as i64,
                            generation: 1,
                        };
                        (e.slug.clone(), version)
                    })
                    .collect(),
                changed_events: self
                    .dataset
                    .events
                    .iter()
                    .filter(|e| !held.events.contains_key(&e.slug))
                    .cloned()
                    .collect(),
                patches: Vec::new(),
            })
        })
    }
    fn import_with<'a>(
        &'a self,
        _: &'a Dataset,
        _: ImportOptions,
        _: Option<&'a Progress>,
    ) -> BoxFuture<'a, Result<ImportSummary, StoreError>> {
        Box::pin(async { Err(StoreError::Config("read-only test store".into())) })
    }
    fn export<'a>(&'a self, _: &'a [String]) -> BoxFuture<'a, Result<Dataset, StoreError>> {
        Box::pin(async { Err(StoreError::Config("read-only test store".into())) })
    }
}

/// Worst-case searches (20 one-letter terms, which no index narrows, over
/// every answer of a 20,000-submission event, as organiser, 1,000 per page)
/// run on a runtime of two workers, as on the 2-core machine; a small
/// event's rooms, speakers and talks are answered within 100 ms meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn worst_case_searches_on_a_big_event_do_not_delay_a_small_event() {
    let (mut dataset, logins) = demo::generate(&demo::DemoOptions {
        events: 1,
        submissions: 20_000,
        seed: 3,
    });
    let small = validate::parse_value(&mini()).expect("mini is valid");
    dataset.users.extend(small.users);
    dataset.events.extend(small.events);
    let organiser = logins
        .iter()
        .find(|l| l.role == "organiser")
        .expect("an organiser login")
        .token
        .clone();

    let state = AppState::new(
        CatalogCache::start(Arc::new(MemoryStore { dataset }), Duration::from_secs(3600)),
        Config::default(),
    );
    let cache = state.cache.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let _ = confapi::http::serve(listener, state).await;
    });
    cache.refresh().await.expect("the catalog loads");
    // The clients run on threads of their own (blocking reqwest), so that
    // their timing does not depend on the server's workers being free.
    let base_small = base.clone();
    let worst = move |letters: &str| {
        // Every term one letter: each must be looked for in every answer.
        let q: Vec<String> = letters.chars().map(|c| c.to_string()).collect();
        format!(
            "{base}/api/events/democonf/answers/?page_size=1000&q={}",
            q.join("+")
        )
    };
    let (answered, slowest, longest) = std::thread::spawn(move || {
        let client = reqwest::blocking::Client::new();
        // Four, so that without the pool both workers would surely be
        // stuck (tokio does not steal the task in a worker's LIFO slot: two
        // requests can land on one worker); with it, two run at a time.
        let searches: Vec<_> = [
            "abcdefghilmnoprstuvy",
            "eaiontrslcdumhgpbfyw",
            "yvutsrponmlihgfedcba",
            "wyfbphgmhudclsrtnoia",
        ]
        .into_iter()
        .map(|letters| {
            let (client, url, token) = (client.clone(), worst(letters), organiser.clone());
            std::thread::spawn(move || {
                let started = Instant::now();
                let reply = client
                    .get(url)
                    .header("Authorization", format!("Token {token}"))
                    .send()
                    .unwrap();
                assert_eq!(reply.status(), 200);
                reply.bytes().unwrap();
                started.elapsed()
            })
        })
        .collect();
        std::thread::sleep(Duration::from_millis(50));
        let mut slowest = Duration::ZERO;
        let mut answered = 0;
        for round in 0..5 {
            for list in ["rooms", "speakers", "talks"] {
                // A new URL each time: no rendered answer to reuse.
                let url = format!("{base_small}/api/events/mini/{list}/?round={round}");
                let started = Instant::now();
                let reply = client.get(&url).send().unwrap();
                assert_eq!(reply.status(), 200, "{url}");
                reply.bytes().unwrap();
                let took = started.elapsed();
                slowest = slowest.max(took);
                if searches.iter().any(|s| !s.is_finished()) {
                    answered += 1;
                    assert!(
                        took < Duration::from_millis(100),
                        "{url} took {took:?} while the big searches ran"
                    );
                }
            }
        }
        let longest = searches
            .into_iter()
            .map(|s| s.join().unwrap())
            .max()
            .unwrap();
        (answered, slowest, longest)
    })
    .join()
    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    // The test means something only if the searches outlasted the small requests.
    assert!(
        answered >= 3,
        "only {answered} small requests ran during the searches (which took {longest:?})"
    );
    eprintln!(
        "worst searches took up to {longest:?}; {answered} small requests meanwhile, the slowest {slowest:?}"
    );
    server.abort();
}
