//! The open connections, so that a full server can make room for a new
//! client (issue 14): when every connection slot is taken, or `accept`
//! fails for want of file descriptors, the server closes a connection that
//! has no request in flight, as nginx does with its "reusable" connections.
//! Otherwise clients that open connections and send their heads slowly (or
//! never) could hold every slot until their header-read timeout, and normal
//! clients would only get 503s.
//!
//! Who goes first: connections that have not sent a whole request head yet,
//! oldest first (a slow-header client has had the longest of anyone); then
//! idle keep-alive connections, the one idle longest first. A connection
//! younger than `WAITING_RECLAIMABLE_AFTER` (its head is most likely on
//! its way), or idle for less than `IDLE_RECLAIMABLE_AFTER` (its client is
//! most likely about to send the next request), is left alone, and one
//! answering a request, or with answer bytes not yet flushed, is never cut.
//!
//! Per request this costs a few relaxed atomic operations; the lock is
//! taken when a connection opens, serves its first request and closes, and
//! when making room.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use tokio::sync::Notify;

/// A connection without a request yet, opened more recently than this, is
/// not closed to make room. Short: under a flood of slow clients, a new
/// client must find an older one to replace.
pub const WAITING_RECLAIMABLE_AFTER: Duration = Duration::from_millis(100);
/// An idle keep-alive connection, last active more recently than this, is
/// not closed to make room.
pub const IDLE_RECLAIMABLE_AFTER: Duration = Duration::from_secs(1);

/// The connection a request came on (a request extension), so that a
/// handler whose answer never ends can close it (`Slot::cut`).
#[derive(Clone)]
pub struct ThisConnection(pub Arc<Slot>);

/// Every open connection that is being served.
#[derive(Default)]
pub struct Connections {
    inner: Mutex<Inner>,
    next_id: AtomicU64,
}

#[derive(Default)]
struct Inner {
    /// Connections that have not yet sent a whole request head, by age.
    waiting: BTreeMap<u64, Arc<Slot>>,
    /// Connections that have; closed least recently active first, when idle.
    reused: FxHashMap<u64, Arc<Slot>>,
}

/// One connection's state, written by its own task and read by the
/// accept loop when it makes room.
pub struct Slot {
    id: u64,
    /// Requests whose head has been read.
    started: AtomicU32,
    /// Requests whose whole answer has been handed to hyper.
    finished: AtomicU32,
    /// `finished` as of the last time hyper's write buffer was empty and
    /// the socket flushed: the answers before that are on the wire.
    flushed: AtomicU32,
    /// When the connection opened or its last answer ended, in
    /// milliseconds since `epoch()`.
    last_active: AtomicU64,
    /// Asks the connection's task to close it.
    reclaim: Notify,
    /// Asks the connection's task to close it at once, even mid-answer.
    cut: Notify,
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_millis() -> u64 {
    epoch().elapsed().as_millis() as u64
}

impl Slot {
    /// No request in flight and every answer flushed. Exact when called
    /// from the connection's own task (which alone changes these), a hint
    /// elsewhere.
    pub fn is_idle(&self) -> bool {
        let started = self.started.load(Ordering::Relaxed);
        started == self.finished.load(Ordering::Relaxed)
            && started == self.flushed.load(Ordering::Relaxed)
    }

    /// When it became idle, if it has been idle for at least `after`.
    fn idle_since(&self, now: u64, after: Duration) -> Option<u64> {
        let since = self.last_active.load(Ordering::Relaxed);
        (self.is_idle() && now.saturating_sub(since) >= after.as_millis() as u64).then_some(since)
    }

    /// A request head has been read; true for the connection's first.
    pub fn request_started(&self) -> bool {
        self.started.fetch_add(1, Ordering::Relaxed) == 0
    }

    /// A request's answer has been handed to hyper whole (its body dropped).
    pub fn request_finished(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
        self.last_active.store(now_millis(), Ordering::Relaxed);
    }

    /// hyper's write buffer is empty and the socket flushed.
    pub fn flushed(&self) {
        let finished = self.finished.load(Ordering::Relaxed);
        self.flushed.store(finished, Ordering::Relaxed);
    }

    /// Resolves when the server wants this connection closed.
    pub async fn reclaimed(&self) {
        self.reclaim.notified().await
    }

    /// Closes the connection now, whatever it is sending: for an answer
    /// that never ends (an event stream) whose reader stopped reading,
    /// which hyper would otherwise wait for without end.
    pub fn cut(&self) {
        self.cut.notify_one();
    }

    /// Resolves when `cut` was called.
    pub async fn cut_requested(&self) {
        self.cut.notified().await
    }
}

impl Connections {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The maps stay consistent whatever panicked while holding the lock.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers a new connection.
    pub fn open(&self) -> Arc<Slot> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot {
            id,
            started: AtomicU32::new(0),
            finished: AtomicU32::new(0),
            flushed: AtomicU32::new(0),
            last_active: AtomicU64::new(now_millis()),
            reclaim: Notify::new(),
            cut: Notify::new(),
        });
        self.lock().waiting.insert(id, slot.clone());
        slot
    }

    /// The connection's first request head has been read.
    pub fn first_request(&self, slot: &Slot) {
        let mut inner = self.lock();
        if let Some(slot) = inner.waiting.remove(&slot.id) {
            inner.reused.insert(slot.id, slot);
        }
    }

    /// The connection is closed.
    pub fn close(&self, slot: &Slot) {
        let mut inner = self.lock();
        if inner.waiting.remove(&slot.id).is_none() {
            inner.reused.remove(&slot.id);
        }
    }

    /// Connections being served.
    pub fn len(&self) -> usize {
        let inner = self.lock();
        inner.waiting.len() + inner.reused.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Asks up to `wanted` idle connections to close (see the module's
    /// documentation for which); returns how many were asked. Each leaves
    /// the registry at once, so it is asked only once.
    pub fn reclaim(&self, wanted: usize) -> usize {
        self.reclaim_at(wanted, now_millis())
    }

    fn reclaim_at(&self, wanted: usize, now: u64) -> usize {
        let mut inner = self.lock();
        let mut asked = 0;
        while asked < wanted {
            // Oldest first: the first one too young means all are.
            let Some((&id, slot)) = inner.waiting.first_key_value() else {
                break;
            };
            if slot.is_idle() && slot.idle_since(now, WAITING_RECLAIMABLE_AFTER).is_none() {
                break;
            }
            let slot = inner.waiting.remove(&id).expect("present");
            if slot.is_idle() {
                slot.reclaim.notify_one();
                asked += 1;
            } else {
                // Its first request is being answered: it is reused now.
                inner.reused.insert(id, slot);
            }
        }
        if asked < wanted {
            // Idle keep-alive connections, least recently active first.
            let mut idle: Vec<(u64, u64)> = inner
                .reused
                .values()
                .filter_map(|slot| {
                    let since = slot.idle_since(now, IDLE_RECLAIMABLE_AFTER)?;
                    Some((since, slot.id))
                })
                .collect();
            let take = (wanted - asked).min(idle.len());
            if take > 0 && take < idle.len() {
                idle.select_nth_unstable(take - 1);
            }
            for &(_, id) in &idle[..take] {
                if let Some(slot) = inner.reused.remove(&id) {
                    slot.reclaim.notify_one();
                    asked += 1;
                }
            }
        }
        asked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests' clock: `reclaim_at(_, NOW)`.
    const NOW: u64 = 1_000_000;

    fn aged(slot: &Slot, millis: u64) {
        slot.last_active.store(NOW - millis, Ordering::Relaxed);
    }

    #[test]
    fn oldest_waiting_first_then_least_recently_active_idle_never_busy_or_young() {
        let connections = Connections::default();
        let young = connections.open();
        let busy = connections.open();
        let keep_alive_old = connections.open();
        let keep_alive_older = connections.open();
        let waiting_first = connections.open();
        let waiting_last = connections.open();
        for slot in [&busy, &keep_alive_old, &keep_alive_older] {
            assert!(slot.request_started());
            connections.first_request(slot);
        }
        for slot in [&keep_alive_old, &keep_alive_older] {
            slot.request_finished();
            slot.flushed();
        }
        // The waiting connections' ages: ids give the order, not the clock.
        aged(&busy, 60_000);
        aged(&keep_alive_old, 5_000);
        aged(&keep_alive_older, 9_000);
        aged(&waiting_first, 5_000);
        aged(&waiting_last, 5_000);
        aged(&young, 10);
        // Idle for 500 ms: old enough when waiting, too young when reused.
        let keep_alive_recent = connections.open();
        keep_alive_recent.request_started();
        connections.first_request(&keep_alive_recent);
        keep_alive_recent.request_finished();
        keep_alive_recent.flushed();
        aged(&keep_alive_recent, 500);
        assert_eq!(connections.len(), 7);

        // `young` is the oldest waiting one by id but too young: nothing
        // of the waiting ones goes before it; the idle keep-alive ones do.
        assert_eq!(connections.reclaim_at(1, NOW), 1);
        assert_eq!(connections.len(), 6);
        assert!(!connections.lock().reused.contains_key(&keep_alive_older.id));
        assert_eq!(connections.reclaim_at(10, NOW), 1);
        assert!(!connections.lock().reused.contains_key(&keep_alive_old.id));
        assert_eq!(connections.reclaim_at(10, NOW), 0);

        // Once `young` has aged, waiting connections go oldest first.
        aged(&young, 5_000);
        assert_eq!(connections.reclaim_at(2, NOW), 2);
        let inner = connections.lock();
        assert_eq!(inner.waiting.keys().collect::<Vec<_>>(), [&waiting_last.id]);
        // The busy one is never asked, however old.
        let mut reused: Vec<_> = inner.reused.keys().collect();
        reused.sort();
        assert_eq!(reused, [&busy.id, &keep_alive_recent.id]);
    }

    #[test]
    fn an_answer_not_yet_flushed_keeps_its_connection() {
        let connections = Connections::default();
        let slot = connections.open();
        slot.request_started();
        connections.first_request(&slot);
        slot.request_finished();
        aged(&slot, 5_000);
        assert!(!slot.is_idle());
        assert_eq!(connections.reclaim_at(1, NOW), 0);
        slot.flushed();
        assert!(slot.is_idle());
        assert_eq!(connections.reclaim_at(1, NOW), 1);
        connections.close(&slot);
        assert!(connections.is_empty());
    }
}
