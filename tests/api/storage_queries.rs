//! Every request is answered with a fixed number of storage queries,
//! whatever the page size: one `generation` check, and a `load` only after
//! an import. Counted through a wrapper around the real store.

use crate::helpers;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use confapi::cache::CatalogCache;
use confapi::http::{AppState, Config};
use confapi::model::Dataset;
use confapi::storage::{
    self, BoxFuture, DataVersion, ImportOptions, ImportSummary, Loaded, Progress, Store, StoreError,
};

#[derive(Default)]
struct Counts {
    generation: AtomicUsize,
    load: AtomicUsize,
}

struct CountingStore {
    inner: Arc<dyn Store>,
    counts: Arc<Counts>,
}

impl Store for CountingStore {
    fn version(&self) -> BoxFuture<'_, Result<DataVersion, StoreError>> {
        self.counts.generation.fetch_add(1, Ordering::SeqCst);
        self.inner.version()
    }
    fn event_count(&self) -> BoxFuture<'_, Result<i64, StoreError>> {
        self.inner.event_count()
    }
    fn load<'a>(
        &'a self,
        held: &'a confapi::storage::Held,
    ) -> BoxFuture<'a, Result<Loaded, StoreError>> {
        self.counts.load.fetch_add(1, Ordering::SeqCst);
        self.inner.load(held)
    }
    fn import_with<'a>(
        &'a self,
        dataset: &'a Dataset,
        options: ImportOptions,
        progress: Option<&'a Progress>,
    ) -> BoxFuture<'a, Result<ImportSummary, StoreError>> {
        self.inner.import_with(dataset, options, progress)
    }
    fn export<'a>(&'a self, slugs: &'a [String]) -> BoxFuture<'a, Result<Dataset, StoreError>> {
        self.inner.export(slugs)
    }
    fn changes(
        &self,
        after: i64,
        upto: i64,
    ) -> BoxFuture<'_, Result<confapi::storage::ChangeLog, StoreError>> {
        self.inner.changes(after, upto)
    }
    fn webhook_lease<'a>(
        &'a self,
        holder: &'a str,
        now: i64,
        ttl: i64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.inner.webhook_lease(holder, now, ttl)
    }
    fn webhook_cursors(
        &self,
    ) -> BoxFuture<'_, Result<Vec<confapi::storage::WebhookCursor>, StoreError>> {
        self.inner.webhook_cursors()
    }
    fn save_webhook_cursor<'a>(
        &'a self,
        cursor: &'a confapi::storage::WebhookCursor,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.save_webhook_cursor(cursor)
    }
}

/// Requests make no database query at all, whatever the page size: the
/// catalog is kept current by its own poll, which only asks for the version
/// and loads only when an import changed something.
#[tokio::test]
async fn requests_never_query_the_database() {
    let db = helpers::TestDatabase::new();
    let inner = storage::open(&db.url).await.unwrap();
    let dataset = confapi::dataset::validate::parse_value(&helpers::democon()).unwrap();
    inner.import(&dataset, None).await.unwrap();
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn Store> = Arc::new(CountingStore {
        inner: inner.clone(),
        counts: counts.clone(),
    });
    // No background poll here: the test decides when storage is asked.
    let cache = Arc::new(CatalogCache::new(store));
    cache.refresh().await.unwrap();
    let state = AppState::new(cache.clone(), Config::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(confapi::http::serve(listener, state));
    let http = helpers::http_client();
    let get = |path: &str| {
        let request = http.get(format!("{base}{path}")).header(
            "Authorization",
            format!("Token {}", helpers::democon_tokens::ORGA),
        );
        async move {
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 200);
            response.text().await.unwrap()
        }
    };
    assert_eq!(counts.load.load(Ordering::SeqCst), 1);
    let polls = counts.generation.load(Ordering::SeqCst);

    for path in [
        "/api/events/democon/submissions/?limit=1&questions=all",
        "/api/events/democon/submissions/?limit=25&questions=all",
        "/api/events/democon/submissions/?limit=1000&questions=all",
        "/api/events/democon/speakers/?limit=1000&questions=all",
        "/api/events/democon/answers/?limit=1000",
        "/api/events/democon/reviews/?limit=1000",
    ] {
        get(path).await;
        assert_eq!(
            counts.generation.load(Ordering::SeqCst),
            polls,
            "{path}: no query"
        );
        assert_eq!(counts.load.load(Ordering::SeqCst), 1, "{path}: no reload");
    }

    // Re-importing the same data changes nothing, so a poll reloads nothing.
    inner.import(&dataset, None).await.unwrap();
    cache.refresh().await.unwrap();
    assert_eq!(counts.generation.load(Ordering::SeqCst), polls + 1);
    assert_eq!(counts.load.load(Ordering::SeqCst), 1);

    // A change bumps the generation: the next poll reloads, once.
    let mut changed = dataset.clone();
    std::sync::Arc::make_mut(&mut changed.events[0].submissions[0])
        .title
        .push_str(" (updated)");
    inner.import(&changed, None).await.unwrap();
    assert!(!get("/api/events/democon/submissions/?limit=1000")
        .await
        .contains("(updated)"));
    cache.refresh().await.unwrap();
    cache.refresh().await.unwrap();
    assert_eq!(counts.load.load(Ordering::SeqCst), 2);
    assert!(get("/api/events/democon/submissions/?limit=1000")
        .await
        .contains("(updated)"));
}

/// A replaced snapshot is freed once the last request that began before
/// the swap lets go of it (on a blocking thread, not by that request), and
/// not while it is in use.
#[tokio::test]
async fn a_replaced_snapshot_is_freed_once_its_last_request_is_done() {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    let mut dataset = confapi::dataset::validate::parse_value(&helpers::democon()).unwrap();
    store.import(&dataset, None).await.unwrap();
    let cache = CatalogCache::new(store.clone());
    cache.refresh().await.unwrap();
    // A request that began before the swap.
    let in_flight = cache.current().unwrap();
    let replaced = Arc::downgrade(&in_flight);
    let slug = dataset.events[0].slug.clone();
    let code = dataset.events[0].submissions[0].code.clone();
    let title_of = |catalog: &confapi::domain::catalog::Catalog| {
        let event = &catalog.event(&slug).unwrap().event;
        let submission = event.submissions.iter().find(|s| s.code == code);
        submission.unwrap().title.clone()
    };
    let old_title = title_of(&in_flight);
    std::sync::Arc::make_mut(&mut dataset.events[0].submissions[0]).title = "Changed".into();
    store.import(&dataset, None).await.unwrap();
    cache.refresh().await.unwrap();
    let current = cache.current().unwrap();
    assert!(current.version.generation > in_flight.version.generation);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    // The request still reads its own snapshot whole.
    assert_eq!(title_of(&in_flight), old_title);
    assert_eq!(title_of(&current), "Changed");
    drop(in_flight);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while replaced.upgrade().is_some() {
        assert!(
            std::time::Instant::now() < deadline,
            "the replaced snapshot is still held 2 s after its last request"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // The snapshot serving now is untouched.
    assert_eq!(title_of(&current), "Changed");
}
