//! Where the serving snapshot's memory goes: loads a database the way
//! `serve` does and prints the bytes held (as mimalloc's block sizes) by
//! the loaded event, its indexes and the catalog, then the process's RSS.
//!
//!     cargo run --release --example memory -- sqlite://big.db

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};
use std::sync::Arc;

use confapi::domain::catalog::{Catalog, EventData};
use confapi::storage::{self, Held};

struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

fn usable(ptr: *mut u8) -> isize {
    // SAFETY: `ptr` was allocated by mimalloc.
    unsafe { libmimalloc_sys::mi_usable_size(ptr.cast()) as isize }
}

// SAFETY: forwards to mimalloc, counting the size of each block it hands out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = mimalloc::MiMalloc.alloc(layout);
        if !ptr.is_null() {
            HELD.fetch_add(usable(ptr), Relaxed);
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(usable(ptr), Relaxed);
        mimalloc::MiMalloc.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let before = usable(ptr);
        let new = mimalloc::MiMalloc.realloc(ptr, layout, new_size);
        if !new.is_null() {
            HELD.fetch_add(usable(new) - before, Relaxed);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn held() -> isize {
    HELD.load(Relaxed)
}

fn mib(bytes: isize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

fn rss() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS"))
        .unwrap_or("VmRSS: ?")
        .to_string()
}

/// The bytes a clone of `value` allocates: what `value` holds on the heap.
fn heap_of<T: Clone>(value: &T) -> isize {
    let before = held();
    let copy = value.clone();
    let bytes = held() - before;
    drop(copy);
    bytes
}

#[tokio::main]
async fn main() {
    let url = std::env::args().nth(1).expect("usage: memory DB_URL");
    let store = storage::open(&url).await.expect("open");
    let base = held();
    let loaded = store.load(&Held::default()).await.expect("load");
    println!("loaded (users and events): {}", mib(held() - base));
    let users = heap_of(&loaded.users);
    println!("  users ({}): {}", loaded.users.len(), mib(users));
    for event in &loaded.changed_events {
        println!("  event {}:", event.slug);
        println!(
            "    submissions ({}): {}",
            event.submissions.len(),
            mib(heap_of(&event.submissions))
        );
        println!(
            "    answers ({}): {}",
            event.answers.len(),
            mib(heap_of(&event.answers))
        );
        println!(
            "    reviews ({}): {}",
            event.reviews.len(),
            mib(heap_of(&event.reviews))
        );
        println!(
            "    speakers ({}): {}",
            event.speakers.len(),
            mib(heap_of(&event.speakers))
        );
    }
    let events: Vec<_> = loaded.changed_events.into_iter().collect();
    let before = held();
    let events: Vec<_> = events
        .into_iter()
        .map(|e| (Arc::new(EventData::new(e)), Default::default()))
        .collect();
    println!("indexes of the events: {}", mib(held() - before));
    let before = held();
    let users = loaded
        .users
        .into_iter()
        .map(|u| (u.code.clone(), Arc::new(u)))
        .collect();
    let catalog = Catalog::new(loaded.version, users, events);
    println!(
        "catalog (users map, tokens, names, speakers' users): {}",
        mib(held() - before)
    );
    for event in catalog.events.clone() {
        if event.event.submissions.len() < 1000 {
            continue;
        }
        let before = held();
        catalog.submission_index(&event);
        let submissions = held() - before;
        catalog.speaker_index(&event);
        let speakers = held() - before - submissions;
        catalog.answer_index(&event);
        let answers = held() - before - submissions - speakers;
        println!(
            "search indexes of {}: submissions {}, speakers {}, answers {}",
            event.event.slug,
            mib(submissions),
            mib(speakers),
            mib(answers)
        );
    }
    println!("held in all: {}; {}", mib(held() - base), rss());
    drop(catalog);
}
