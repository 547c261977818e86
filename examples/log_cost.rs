//! What one access line costs the thread that logs it, formatted by
//! `tracing_subscriber`'s generic formatter (as before `access_log`) and by
//! `access_log::AccessFormat`, in text and JSON, written to the batch
//! writer (`log_writer`, its thread writing to /dev/null); and an event
//! filtered out (`warn`), for comparison. Thread CPU time, so that other
//! load on the machine disturbs it less than wall time; each variant runs
//! in turn, `ROUNDS` times, on one thread and then on two threads at once
//! (as the server's two workers log), and the median is printed
//! (docs/bench-log.md, "Logging: the batch writer (21bc489)").
//!
//!   cargo run --release --example log_cost [VARIANT]

use confapi::access_log::{AccessFormat, Layout, ACCESS_TARGET};
use tracing_subscriber::layer::SubscriberExt;

const EVENTS: u32 = 200_000;
const ROUNDS: usize = 15;

fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// The event as transport.rs emitted it before access_log.
fn generic(method: &str, path: &str, status: u16, micros: u64) {
    tracing::info!(target: ACCESS_TARGET, %method, %path, status, micros, "request");
}

fn dispatch(
    layout: Layout,
    ours: bool,
    filter: &str,
    writer: confapi::log_writer::BatchWriter,
) -> tracing::Dispatch {
    let timer = confapi::log_writer::Timestamps;
    let registry = tracing_subscriber::registry().with(tracing_subscriber::EnvFilter::new(filter));
    let text = tracing_subscriber::fmt::layer()
        .with_timer(timer)
        .with_writer(writer.clone())
        .with_ansi(false);
    let json = tracing_subscriber::fmt::layer()
        .json()
        .flatten_event(true)
        .with_timer(timer)
        .with_writer(writer);
    match (layout, ours) {
        (Layout::Text, false) => tracing::Dispatch::new(registry.with(text)),
        (Layout::Text, true) => tracing::Dispatch::new(
            registry.with(text.map_event_format(|f| AccessFormat::new(f, timer, Layout::Text))),
        ),
        (Layout::Json, false) => tracing::Dispatch::new(registry.with(json)),
        (Layout::Json, true) => tracing::Dispatch::new(
            registry.with(json.map_event_format(|f| AccessFormat::new(f, timer, Layout::Json))),
        ),
    }
}

fn main() {
    let (writer, _guard) =
        confapi::log_writer::batch_writer(std::fs::File::create("/dev/null").unwrap());
    let variants: Vec<(&str, tracing::Dispatch, bool)> = vec![
        (
            "warn (filtered out)",
            dispatch(Layout::Text, true, "warn", writer.clone()),
            true,
        ),
        (
            "info, text, generic",
            dispatch(Layout::Text, false, "info", writer.clone()),
            false,
        ),
        (
            "info, text, AccessFormat",
            dispatch(Layout::Text, true, "info", writer.clone()),
            true,
        ),
        (
            "info, json, generic",
            dispatch(Layout::Json, false, "info", writer.clone()),
            false,
        ),
        (
            "info, json, AccessFormat",
            dispatch(Layout::Json, true, "info", writer.clone()),
            true,
        ),
    ];
    // An argument keeps the variants whose name contains it (for perf).
    let only = std::env::args().nth(1).unwrap_or_default();
    let variants: Vec<_> = variants
        .into_iter()
        .filter(|(name, _, _)| name.contains(&only))
        .collect();
    // Per variant: ns per event on one thread, and on each of two at once.
    let mut ns: Vec<[Vec<f64>; 2]> = vec![Default::default(); variants.len()];
    for _ in 0..ROUNDS {
        for (i, (_, dispatch, ours)) in variants.iter().enumerate() {
            for threads in 1..=2 {
                let runs: Vec<_> = (0..threads)
                    .map(|_| {
                        let (dispatch, ours) = (dispatch.clone(), *ours);
                        std::thread::spawn(move || log_events(&dispatch, ours))
                    })
                    .collect();
                for run in runs {
                    ns[i][threads - 1].push(run.join().unwrap());
                }
                // Let the writer thread catch up outside the measured time.
                std::thread::sleep(std::time::Duration::from_millis(60));
            }
        }
    }
    println!(
        "| variant | ns per event, one thread (median of {ROUNDS} × {EVENTS}) | min | max | two threads at once | min | max |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for ((name, _, _), runs) in variants.iter().zip(ns) {
        let [one, two] = runs.map(|mut runs| {
            runs.sort_by(f64::total_cmp);
            (runs[runs.len() / 2], runs[0], runs[runs.len() - 1])
        });
        println!(
            "| {name} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} |",
            one.0, one.1, one.2, two.0, two.1, two.2
        );
    }
}

/// Logs `EVENTS` access events through `dispatch` on this thread; the
/// thread's CPU time per event, in nanoseconds.
fn log_events(dispatch: &tracing::Dispatch, ours: bool) -> f64 {
    let path = "/api/events/democon/talks/";
    tracing::dispatcher::with_default(dispatch, || {
        let start = thread_cpu_ns();
        for n in 0..EVENTS {
            let micros = u64::from(n % 1000);
            if ours {
                confapi::access_log::request("GET", path, 200, micros);
            } else {
                generic("GET", path, 200, micros);
            }
        }
        (thread_cpu_ns() - start) as f64 / f64::from(EVENTS)
    })
}
