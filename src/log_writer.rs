//! Where log lines go: appended to a buffer of the thread that logs, which
//! a background thread writes out in batches, so that a request never waits
//! for the terminal or the log collector, and logging costs about a memcpy
//! per line.
//!
//! Why not `tracing_appender::non_blocking`, which this replaced: it sends
//! each line over a channel and wakes its writer thread for it, which then
//! makes one `write(2)` per line. At 50,000 lines a second that writer
//! thread took 17 % of the server's CPU (perf), and the access log cost
//! 10-16 % of the throughput of cached requests (docs/bench-log.md, "Logging: the batch writer (21bc489)").
//! Here the writer thread wakes every `INTERVAL`, or when `WAKE_BYTES` wait
//! in one buffer, and writes everything waiting at once.
//!
//! Why a buffer per thread, as nginx keeps one per worker: with one shared
//! buffer, every line took its lock, and the lock (and the buffer's cache
//! lines) moved between the cores for each request. A thread's own buffer
//! shares its lock with the writer thread alone, once per `INTERVAL`. So
//! the lines of one thread keep their order, while lines of different
//! threads written within one `INTERVAL` may come out of order by at most
//! that long (their timestamps tell).

use std::cell::RefCell;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// Longest a line waits before it is written.
const INTERVAL: Duration = Duration::from_millis(50);
/// Bytes waiting in one thread's buffer that wake the writer before
/// `INTERVAL`.
const WAKE_BYTES: usize = 256 * 1024;
/// Bytes waiting in one thread's buffer beyond which its lines are dropped
/// rather than kept, should the output block (about 128,000 access lines).
const MAX_BYTES: usize = 32 << 20;

/// One thread's lines not yet written.
type Lines = Arc<Mutex<Vec<u8>>>;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while appending leaves at worst a partial line.
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

struct Shared {
    /// Tells this writer's buffers apart in `THREAD_LINES`.
    id: usize,
    /// Every thread's buffer, for the writer thread.
    buffers: Mutex<Vec<Lines>>,
    control: Mutex<Control>,
    wake: Condvar,
    dropped: AtomicU64,
}

#[derive(Default)]
struct Control {
    /// The writer is between two waits (not sleeping): no need to wake it.
    busy: bool,
    closed: bool,
}

thread_local! {
    /// This thread's buffer for each writer it has written to.
    static THREAD_LINES: RefCell<Vec<(usize, Lines)>> = const { RefCell::new(Vec::new()) };
}

impl Shared {
    fn append(&self, line: &[u8]) {
        let appended = THREAD_LINES.try_with(|own| {
            let mut own = own.borrow_mut();
            let lines = match own.iter().position(|(id, _)| *id == self.id) {
                Some(at) => &own[at].1,
                None => {
                    let lines = Lines::default();
                    lock(&self.buffers).push(lines.clone());
                    own.push((self.id, lines));
                    &own[own.len() - 1].1
                }
            };
            let mut lines = lock(lines);
            if lines.len() + line.len() > MAX_BYTES {
                self.dropped.fetch_add(1, Ordering::Relaxed);
                return false;
            }
            let before = lines.len();
            lines.extend_from_slice(line);
            // Wake the writer once, as the buffer crosses the threshold.
            before < WAKE_BYTES && lines.len() >= WAKE_BYTES
        });
        // A thread that is ending has no buffer any more: the line gets one
        // of its own, which the writer forgets once written.
        let wake = appended.unwrap_or_else(|_| {
            lock(&self.buffers).push(Arc::new(Mutex::new(line.to_vec())));
            false
        });
        if wake && !lock(&self.control).busy {
            self.wake.notify_one();
        }
    }
}

/// A `MakeWriter` for `tracing_subscriber::fmt`: each event's line is
/// handed over in one `write` call.
#[derive(Clone)]
pub struct BatchWriter {
    shared: Arc<Shared>,
}

/// The writer `BatchWriter` makes for one line: a borrow, so that making
/// it touches no shared counter.
pub struct LineWriter<'a>(&'a Shared);

/// Writes what is waiting and stops the writer thread when dropped: keep
/// it until the process exits.
pub struct Guard {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// A writer of log lines to `output` from a background thread.
pub fn batch_writer<W: Write + Send + 'static>(mut output: W) -> (BatchWriter, Guard) {
    static NEXT_ID: AtomicUsize = AtomicUsize::new(0);
    let shared = Arc::new(Shared {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        buffers: Mutex::new(Vec::new()),
        control: Mutex::new(Control::default()),
        wake: Condvar::new(),
        dropped: AtomicU64::new(0),
    });
    let thread = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("log-writer".into())
            .spawn(move || {
                // Swapped with the threads' buffers, so that both keep their
                // capacity.
                let mut batch = Vec::new();
                loop {
                    let closed = {
                        let mut control = lock(&shared.control);
                        if !control.closed {
                            control.busy = false;
                            control = shared
                                .wake
                                .wait_timeout(control, INTERVAL)
                                .map_or_else(|p| p.into_inner().0, |(c, _)| c);
                        }
                        control.busy = true;
                        control.closed
                    };
                    let dropped = shared.dropped.swap(0, Ordering::Relaxed);
                    if dropped > 0 {
                        let _ = writeln!(
                            output,
                            "log: {dropped} line(s) dropped: the output could not keep up"
                        );
                    }
                    let buffers = lock(&shared.buffers).clone();
                    for lines in &buffers {
                        std::mem::swap(&mut batch, &mut *lock(lines));
                        if !batch.is_empty() {
                            // Nowhere to report a failing log output: carry on.
                            let _ = output.write_all(&batch);
                            batch.clear();
                        }
                    }
                    let _ = output.flush();
                    // Forget the buffers of threads that have ended (the
                    // list holds the last reference) once they are empty.
                    drop(buffers);
                    lock(&shared.buffers)
                        .retain(|lines| Arc::strong_count(lines) > 1 || !lock(lines).is_empty());
                    if closed {
                        return;
                    }
                }
            })
            .expect("start the log writer thread")
    };
    (
        BatchWriter {
            shared: shared.clone(),
        },
        Guard {
            shared,
            thread: Some(thread),
        },
    )
}

impl Write for LineWriter<'_> {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        self.0.append(line);
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for BatchWriter {
    type Writer = LineWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        LineWriter(&self.shared)
    }
}

/// Timestamps as `tracing_subscriber`'s default (RFC 3339, UTC,
/// microseconds), with the date and time up to the second formatted once a
/// second per thread instead of for every line.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timestamps;

impl tracing_subscriber::fmt::time::FormatTime for Timestamps {
    fn format_time(&self, w: &mut tracing_subscriber::fmt::format::Writer<'_>) -> std::fmt::Result {
        use std::cell::RefCell;
        thread_local! {
            static SECOND: RefCell<(u64, String)> = const { RefCell::new((u64::MAX, String::new())) };
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let second = now.as_secs();
        SECOND.with(|cached| {
            let mut cached = cached.borrow_mut();
            if cached.0 != second {
                let time = chrono::DateTime::from_timestamp(second as i64, 0).unwrap_or_default();
                cached.1 = time.format("%Y-%m-%dT%H:%M:%S").to_string();
                cached.0 = second;
            }
            w.write_str(&cached.1)?;
            let micros = now.subsec_micros();
            let mut digits = [b'.', b'0', b'0', b'0', b'0', b'0', b'0', b'Z'];
            let mut rest = micros;
            for digit in digits[1..7].iter_mut().rev() {
                *digit = b'0' + (rest % 10) as u8;
                rest /= 10;
            }
            w.write_str(std::str::from_utf8(&digits).unwrap_or(".000000Z"))
        })
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        lock(&self.shared.control).closed = true;
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::fmt::MakeWriter;

    /// An output the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn timestamps_are_rfc3339_with_microseconds() {
        use tracing_subscriber::fmt::time::FormatTime;
        let mut text = String::new();
        let before = chrono::Utc::now();
        Timestamps
            .format_time(&mut tracing_subscriber::fmt::format::Writer::new(&mut text))
            .unwrap();
        let after = chrono::Utc::now();
        assert_eq!(text.len(), "2026-11-25T17:34:00.194707Z".len(), "{text}");
        let parsed = chrono::DateTime::parse_from_rfc3339(&text).unwrap();
        assert!(
            parsed >= before - chrono::Duration::microseconds(1) && parsed <= after,
            "{text}"
        );
    }

    #[test]
    fn a_line_logged_while_its_thread_ends_is_written() {
        struct LogsWhenDropped(BatchWriter);
        impl Drop for LogsWhenDropped {
            fn drop(&mut self) {
                self.0.make_writer().write_all(b"late\n").unwrap();
            }
        }
        thread_local! {
            static LATE: RefCell<Option<LogsWhenDropped>> = const { RefCell::new(None) };
        }
        let output = Shared::default();
        let (writer, guard) = batch_writer(output.clone());
        let own = writer.clone();
        let late = writer.clone();
        std::thread::spawn(move || {
            // Set up before the thread's buffer, so dropped after it.
            LATE.with(|cell| *cell.borrow_mut() = Some(LogsWhenDropped(late)));
            own.make_writer().write_all(b"early\n").unwrap();
        })
        .join()
        .unwrap();
        drop(guard);
        let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "early\nlate\n");
    }

    #[test]
    fn lines_are_written_whole_in_order_soon_and_at_the_end() {
        let output = Shared::default();
        let (writer, guard) = batch_writer(output.clone());
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for i in 0..10_000 {
                        writer
                            .make_writer()
                            .write_all(format!("thread {t} line {i}\n").as_bytes())
                            .unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        // Written within about INTERVAL, without the guard's help.
        std::thread::sleep(INTERVAL * 4);
        let written = output.0.lock().unwrap().len();
        assert!(written > 0);
        // The threads have ended: their buffers are written and forgotten.
        assert_eq!(lock(&writer.shared.buffers).len(), 0);
        writer.make_writer().write_all(b"last\n").unwrap();
        drop(guard);
        let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 40_001);
        assert_eq!(lines.last(), Some(&"last"));
        for t in 0..4 {
            let own: Vec<&str> = lines
                .iter()
                .copied()
                .filter(|l| l.starts_with(&format!("thread {t} ")))
                .collect();
            let expected: Vec<String> = (0..10_000)
                .map(|i| format!("thread {t} line {i}"))
                .collect();
            assert_eq!(own, expected);
        }
    }
}
