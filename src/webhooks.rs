//! Webhooks: each subscription receives one view's change feed of an event
//! (`domain::feed`, the same items as `/changes/` shows that view), one
//! signed `POST` per generation with changes it may see, in order.
//!
//! Nothing is queued in memory that is not also derivable from storage:
//! the feed is stored by the imports, and each subscription's cursor (how
//! far it has delivered, its failed attempts) is stored too, so that a
//! restart, a `kill -9` or a receiver that is down delays deliveries but
//! never drops them (at-least-once, in generation order; a delivery repeated
//! after a crash has the same `webhook-id`). One process sends at a time:
//! whoever holds the lease in the database (`Store::webhook_lease`), which
//! another replica takes over once it expires.
//!
//! Signatures are Standard Webhooks' (the `standardwebhooks` crate):
//! `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC>`.
//! Receivers on private or loopback addresses are refused unless
//! `--webhooks-allow-private` (checked on every connection, after DNS).

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::cache::CatalogCache;
use crate::domain::access::Access;
use crate::domain::catalog::Catalog;
use crate::domain::feed::{Audience, FeedEntry, FeedItem};
use crate::model::{FeedKind, Webhook};
use crate::storage::WebhookCursor;

/// The lease lasts this long; its holder renews it every `TICK`.
pub const LEASE_TTL: Duration = Duration::from_secs(5);
const TICK: Duration = Duration::from_millis(250);
/// A receiver must answer within this long.
const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// Backoff: 1 s, 2 s, 4 s … at most an hour between attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);
/// A delivery that has failed for this long is given up (logged and
/// counted), so that one bad generation does not hold the rest for ever.
pub const GIVE_UP_AFTER: Duration = Duration::from_secs(72 * 3600);

/// One subscription: from an event's `webhooks` in the dataset, or from
/// `serve --webhooks FILE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// Stable across restarts and replicas: a digest of the event, the URL,
    /// the view and the kinds (not the secret, which may be rotated).
    pub id: String,
    /// The event's slug, in lower case.
    pub event: String,
    pub webhook: Webhook,
}

impl Subscription {
    pub fn new(event: &str, webhook: Webhook) -> Self {
        let event = event.to_lowercase();
        let kinds: Vec<&str> = webhook.kinds.iter().map(|k| k.as_str()).collect();
        let digest = Sha256::digest(
            format!(
                "{event}\n{}\n{}\n{}",
                webhook.url,
                webhook.as_user.as_deref().unwrap_or(""),
                kinds.join(",")
            )
            .as_bytes(),
        );
        Subscription {
            id: hex::encode(&digest[..8]),
            event,
            webhook,
        }
    }
}

/// An entry of `serve --webhooks FILE` (a JSON list of them): a dataset
/// webhook plus the event's slug.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    event: String,
    url: String,
    secret: String,
    #[serde(rename = "as", default)]
    as_user: Option<String>,
    #[serde(default)]
    kinds: Vec<FeedKind>,
}

/// Reads `serve --webhooks FILE`; every problem with its JSON path.
pub fn read_file(text: &str) -> Result<Vec<Subscription>, Vec<String>> {
    let entries: Vec<serde_json::Value> = match serde_json::from_str(text) {
        Ok(serde_json::Value::Array(entries)) => entries,
        Ok(_) => return Err(vec!["$: must be a list of subscriptions".into()]),
        Err(err) => return Err(vec![format!("$: not JSON: {err}")]),
    };
    let mut problems = Vec::new();
    let mut subscriptions = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let entry: FileEntry = match serde_json::from_value(entry) {
            Ok(entry) => entry,
            Err(err) => {
                problems.push(format!("[{i}]: {err}"));
                continue;
            }
        };
        let lower = entry.url.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://"))
            || reqwest::Url::parse(&entry.url).is_err()
        {
            problems.push(format!(
                "[{i}].url: must be an http or https URL, got {:?}",
                entry.url
            ));
        }
        let bare = entry.secret.trim_start_matches("whsec_");
        if bare.is_empty() || standardwebhooks::Webhook::new(&entry.secret).is_err() {
            problems.push(format!(
                "[{i}].secret: must be a Standard Webhooks secret: base64, optionally after whsec_"
            ));
        }
        subscriptions.push(Subscription::new(
            &entry.event,
            Webhook {
                url: entry.url,
                secret: entry.secret,
                as_user: entry.as_user,
                kinds: entry.kinds,
            },
        ));
    }
    if problems.is_empty() {
        Ok(subscriptions)
    } else {
        Err(problems)
    }
}

/// Delivery figures per subscription, for `/metrics`.
#[derive(Debug, Default)]
pub struct Stats {
    subscriptions: Mutex<BTreeMap<String, SubscriptionStats>>,
}

#[derive(Debug, Default, Clone)]
pub struct SubscriptionStats {
    pub event: String,
    pub sent: u64,
    pub failed: u64,
    pub dropped: u64,
    /// Generations with changes for it not yet delivered.
    pub pending: u64,
    /// Seconds since the oldest of them was committed.
    pub oldest_pending_seconds: f64,
}

impl Stats {
    fn update(&self, id: &str, event: &str, change: impl FnOnce(&mut SubscriptionStats)) {
        let mut all = self.subscriptions.lock().unwrap_or_else(|e| e.into_inner());
        let stats = all.entry(id.to_string()).or_default();
        stats.event = event.to_string();
        change(stats);
    }

    /// Every subscription's figures, by id.
    pub fn snapshot(&self) -> Vec<(String, SubscriptionStats)> {
        let all = self.subscriptions.lock().unwrap_or_else(|e| e.into_inner());
        all.iter().map(|(id, s)| (id.clone(), s.clone())).collect()
    }
}

/// How the sender runs (the `serve` flags).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// From `--webhooks FILE`.
    pub subscriptions: Vec<Subscription>,
    /// `--webhooks-allow-private`: receivers on private, loopback and
    /// link-local addresses (tests, a receiver on the same host).
    pub allow_private: bool,
    /// `--webhooks-ca-cert`: trusted for https receivers besides the
    /// system's and webpki's roots.
    pub ca_certs: Vec<reqwest::Certificate>,
}

/// Whether `ip` is on the public internet (not loopback, private,
/// link-local, shared, unspecified, multicast or documentation space).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (b == 18 || b == 19))
                || a >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || first == 0x2001 && v6.segments()[1] == 0x0db8)
        }
    }
}

/// DNS for receivers: only public addresses, so that a name pointing at
/// the inside (or changing to, after a check) is refused on connection.
struct PublicOnly;

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        Box::pin(async move {
            let host = format!("{}:0", name.as_str());
            let addresses: Vec<SocketAddr> = tokio::net::lookup_host(host)
                .await?
                .filter(|a| is_public(a.ip()))
                .collect();
            if addresses.is_empty() {
                return Err(format!(
                    "{} resolves to no public address (see --webhooks-allow-private)",
                    name.as_str()
                )
                .into());
            }
            Ok(Box::new(addresses.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

fn client(allow_private: bool, ca_certs: &[reqwest::Certificate]) -> reqwest::Client {
    let mut builder = reqwest::Client::builder()
        .timeout(DELIVERY_TIMEOUT)
        // A redirect would lead past the address check.
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("confapi/", env!("CARGO_PKG_VERSION"), " webhooks"));
    if !allow_private {
        builder = builder.dns_resolver(Arc::new(PublicOnly));
    }
    for cert in ca_certs {
        builder = builder.add_root_certificate(cert.clone());
    }
    builder.build().expect("the webhook client builds")
}

fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// What a delivery came to.
enum Outcome {
    Delivered,
    /// 410: the receiver wants no more.
    Gone,
    Failed {
        reason: String,
        retry_after: Option<Duration>,
    },
}

/// Sends webhooks while the process runs. Returns at once; the task holds
/// the cache and ends with the runtime.
pub fn start(cache: Arc<CatalogCache>, stats: Arc<Stats>, options: Options) {
    let sender = Sender {
        holder: format!("{}-{}", std::process::id(), hex::encode(rand_bytes())),
        client: client(options.allow_private, &options.ca_certs),
        allow_private: options.allow_private,
        from_file: options.subscriptions,
        cache,
        stats,
    };
    tokio::spawn(sender.run());
}

fn rand_bytes() -> [u8; 8] {
    // Which process holds the lease: unique enough per start.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos as u64 ^ (std::process::id() as u64).rotate_left(32)).to_le_bytes()
}

struct Sender {
    holder: String,
    client: reqwest::Client,
    allow_private: bool,
    from_file: Vec<Subscription>,
    cache: Arc<CatalogCache>,
    stats: Arc<Stats>,
}

impl Sender {
    async fn run(self) {
        let mut served = self.cache.subscribe();
        let mut held = false;
        loop {
            if let Ok(catalog) = self.cache.current() {
                let subscriptions = self.subscriptions(&catalog);
                if !subscriptions.is_empty() {
                    held = self.round(&catalog, &subscriptions, held).await;
                }
            }
            tokio::select! {
                _ = served.changed() => {}
                () = tokio::time::sleep(TICK) => {}
            }
        }
    }

    fn subscriptions(&self, catalog: &Catalog) -> Vec<Subscription> {
        let mut all = self.from_file.clone();
        for event in &catalog.events {
            for webhook in &event.event.webhooks {
                all.push(Subscription::new(&event.event.slug, webhook.clone()));
            }
        }
        all
    }

    /// One round: renew the lease, then one delivery (at most) per
    /// subscription, all at once. Returns whether the lease is held.
    async fn round(&self, catalog: &Catalog, subscriptions: &[Subscription], held: bool) -> bool {
        let store = self.cache.store();
        let ttl = LEASE_TTL.as_millis() as i64;
        match store.webhook_lease(&self.holder, now_millis(), ttl).await {
            Ok(true) => {
                if !held {
                    tracing::info!(holder = %self.holder, "webhooks: this process sends");
                }
            }
            Ok(false) => return false,
            Err(err) => {
                tracing::warn!(error = %err, "webhooks: cannot take the lease");
                return false;
            }
        }
        let cursors: HashMap<String, WebhookCursor> = match store.webhook_cursors().await {
            Ok(rows) => rows
                .into_iter()
                .map(|c| (c.subscription.clone(), c))
                .collect(),
            Err(err) => {
                tracing::warn!(error = %err, "webhooks: cannot read the cursors");
                return true;
            }
        };
        let steps = subscriptions
            .iter()
            .map(|sub| self.step(catalog, sub, cursors.get(&sub.id).cloned()));
        futures_util::future::join_all(steps).await;
        true
    }

    /// Delivers the subscription's next generation, if one is due.
    async fn step(&self, catalog: &Catalog, sub: &Subscription, cursor: Option<WebhookCursor>) {
        let store = self.cache.store();
        let now = now_millis();
        let generation = catalog.version.generation;
        let Some(mut cursor) = cursor else {
            // A new subscription starts now: it is not sent the history.
            let fresh = WebhookCursor {
                subscription: sub.id.clone(),
                generation,
                attempts: 0,
                first_failure: None,
                next_attempt: 0,
                ended: false,
            };
            if let Err(err) = store.save_webhook_cursor(&fresh).await {
                tracing::warn!(subscription = %sub.id, error = %err, "webhooks: cannot save a cursor");
            }
            return;
        };
        if cursor.ended || cursor.next_attempt > now || cursor.generation >= generation {
            self.stats.update(&sub.id, &sub.event, |s| {
                if cursor.generation >= generation {
                    s.pending = 0;
                    s.oldest_pending_seconds = 0.0;
                }
            });
            return;
        }
        let Some(event) = catalog.event(&sub.event) else {
            return; // the event is gone (or not loaded): wait
        };
        let user = match &sub.webhook.as_user {
            None => None,
            Some(code) => match catalog.user(code) {
                Some(user) => Some(user),
                None => return, // the user is gone: send nothing
            },
        };
        let access = Access::new(event, user, chrono::Utc::now());
        let feed = &catalog.feed;
        if cursor.generation < feed.from {
            tracing::error!(subscription = %sub.id, event = %sub.event, from = cursor.generation,
                to = feed.from, "webhooks: the history was pruned past this subscription's cursor; those generations are skipped");
            cursor.generation = feed.from;
        }
        // Nothing of an event the view may not see, as its lists say.
        let pending: &[Arc<FeedEntry>] = if access.event_visible() {
            let audience = Audience::of(&access.viewer_class());
            feed.after(&sub.event, &audience, cursor.generation)
        } else {
            &[]
        };
        // The first with changes of the kinds asked for.
        let next = pending
            .iter()
            .find_map(|entry| filtered(&entry.item(), &sub.webhook.kinds));
        self.stats.update(&sub.id, &sub.event, |s| {
            s.pending = pending.len() as u64;
            s.oldest_pending_seconds = pending.first().map_or(0.0, |entry| {
                chrono::DateTime::parse_from_rfc3339(&entry.at).map_or(0.0, |at| {
                    (now - at.timestamp_millis()).max(0) as f64 / 1000.0
                })
            });
        });
        let Some(item) = next.as_ref() else {
            cursor.generation = generation;
            self.save(&cursor).await;
            return;
        };
        match self.deliver(sub, item).await {
            Outcome::Delivered => {
                self.stats.update(&sub.id, &sub.event, |s| s.sent += 1);
                cursor.generation = item.generation;
                cursor.attempts = 0;
                cursor.first_failure = None;
                cursor.next_attempt = 0;
            }
            Outcome::Gone => {
                tracing::warn!(subscription = %sub.id, event = %sub.event, url = %sub.webhook.url,
                    "webhooks: the receiver answered 410 Gone; this subscription ends");
                cursor.ended = true;
            }
            Outcome::Failed {
                reason,
                retry_after,
            } => {
                self.stats.update(&sub.id, &sub.event, |s| s.failed += 1);
                let first = *cursor.first_failure.get_or_insert(now);
                cursor.attempts += 1;
                if now - first >= GIVE_UP_AFTER.as_millis() as i64 {
                    tracing::error!(subscription = %sub.id, event = %sub.event, url = %sub.webhook.url,
                        generation = item.generation, attempts = cursor.attempts, %reason,
                        "webhooks: delivery given up after failing for 72 hours");
                    self.stats.update(&sub.id, &sub.event, |s| s.dropped += 1);
                    cursor.generation = item.generation;
                    cursor.attempts = 0;
                    cursor.first_failure = None;
                    cursor.next_attempt = 0;
                } else {
                    let backoff = Duration::from_secs(1 << (cursor.attempts - 1).clamp(0, 12))
                        .min(MAX_BACKOFF);
                    let wait = retry_after
                        .map_or(backoff, |r| r.max(backoff).min(Duration::from_secs(86_400)));
                    cursor.next_attempt = now + wait.as_millis() as i64;
                    tracing::warn!(subscription = %sub.id, event = %sub.event, url = %sub.webhook.url,
                        generation = item.generation, attempts = cursor.attempts,
                        retry_in_seconds = wait.as_secs_f64(), %reason, "webhooks: delivery failed");
                }
            }
        }
        self.save(&cursor).await;
    }

    async fn save(&self, cursor: &WebhookCursor) {
        if let Err(err) = self.cache.store().save_webhook_cursor(cursor).await {
            tracing::warn!(subscription = %cursor.subscription, error = %err, "webhooks: cannot save a cursor");
        }
    }

    async fn deliver(&self, sub: &Subscription, item: &FeedItem) -> Outcome {
        let failed = |reason: String| Outcome::Failed {
            reason,
            retry_after: None,
        };
        let url = match reqwest::Url::parse(&sub.webhook.url) {
            Ok(url) => url,
            Err(err) => return failed(format!("bad URL: {err}")),
        };
        if !self.allow_private {
            let literal = url
                .host_str()
                .map(|h| h.trim_start_matches('[').trim_end_matches(']'))
                .and_then(|h| h.parse::<IpAddr>().ok());
            if literal.is_some_and(|ip| !is_public(ip)) {
                return failed(
                    "a private or loopback address (see --webhooks-allow-private)".into(),
                );
            }
        }
        let signer = match standardwebhooks::Webhook::new(&sub.webhook.secret) {
            Ok(signer) => signer,
            Err(err) => return failed(format!("bad secret: {err}")),
        };
        let payload = crate::json::json_bytes(item);
        // The same on every retry, from every replica.
        let id = format!("{}_{}", sub.id, item.generation);
        let timestamp = chrono::Utc::now().timestamp();
        let signature = match signer.sign(&id, timestamp, &payload) {
            Ok(signature) => signature,
            Err(err) => return failed(format!("cannot sign: {err}")),
        };
        let response = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header("webhook-id", &id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(payload)
            .send()
            .await;
        match response {
            Ok(r) if r.status().is_success() => Outcome::Delivered,
            Ok(r) if r.status() == reqwest::StatusCode::GONE => Outcome::Gone,
            Ok(r) => Outcome::Failed {
                retry_after: r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs),
                reason: format!("the receiver answered {}", r.status()),
            },
            Err(err) => failed(error_chain(&err)),
        }
    }
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The item with only the kinds asked for; None when nothing is left.
fn filtered(item: &FeedItem, kinds: &[FeedKind]) -> Option<FeedItem> {
    let changes: Vec<_> = item
        .changes
        .iter()
        .filter(|c| kinds.is_empty() || kinds.contains(&c.kind))
        .cloned()
        .collect();
    (!changes.is_empty()).then(|| FeedItem {
        generation: item.generation,
        at: item.at.clone(),
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fc00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["1.1.1.1", "8.8.8.8", "2606:4700:4700::1111"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn the_file_names_every_problem_with_its_path() {
        let problems = read_file(
            r#"[{"event": "a", "url": "ftp://x", "secret": "!!"},
                {"event": "b", "url": "https://x.example/h", "secret": "whsec_c2VjcmV0", "kinds": ["nope"]},
                {"event": "c", "url": "https://x.example/h", "secret": "whsec_c2VjcmV0", "colour": 1}]"#,
        )
        .unwrap_err();
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(
            problems[0].starts_with("[1]:") || problems.iter().any(|p| p.starts_with("[0].url")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.starts_with("[0].secret")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("[1]:") && p.contains("nope")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("[2]:") && p.contains("colour")),
            "{problems:?}"
        );
        let ok = read_file(r#"[{"event": "DemoCon", "url": "https://x.example/h", "secret": "whsec_c2VjcmV0", "as": "ORGA", "kinds": ["talk"]}]"#).unwrap();
        assert_eq!(ok[0].event, "democon");
        assert_eq!(ok[0].id.len(), 16);
        assert_eq!(ok[0].webhook.kinds, vec![FeedKind::Talk]);
    }
}
