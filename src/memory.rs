//! Memory handed back to the system once a snapshot or an index is built.

/// Hands memory freed by a load, or by a search index's build, back to the
/// system. mimalloc purges a freed page only when the thread that owns it
/// next runs allocator code, and the threads that built the replaced
/// snapshot may be idle or gone: collecting here (forced) purges this
/// thread's pages and the abandoned ones of exited threads. SQLite's page
/// cache uses the C library's malloc, which keeps what a load's scan freed
/// unless asked.
pub fn release_free_memory() {
    // SAFETY: mi_collect only walks mimalloc's own free lists and segments.
    unsafe { libmimalloc_sys::mi_collect(true) };
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the C allocator's free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The most memory this process has held resident so far (`VmHWM`, of this
/// program since it started: unlike `wait4`'s `ru_maxrss`, not the
/// parent's pages it was forked with), if the system says.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Turns transparent huge pages off for this process, before it
/// allocates much. mimalloc asks the kernel for them (`madvise`), and each
/// first touch of one zeroes 2 MiB at once: a 20,000-submission sync round
/// spent 1.8 s of system time in those faults against 0.8 s without them
/// (docs/bench-log.md, "Transparent huge pages off, and the sync's copies").
pub fn disable_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of the calling process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Asks the CPU to bring `text` into its caches without waiting for it.
/// A page of an event that is cold in the caches reads a few thousand
/// values, each behind its own pointer: requested all at once, they
/// arrive together instead of one miss after another. Only the first
/// 2 kB: past them the hardware's own prefetcher follows the read.
#[inline]
pub fn prefetch(text: &str) {
    prefetch_bytes(text.as_ptr(), text.len());
}

/// Prefetches `value`'s own bytes (not what it points to). Taking the
/// reference reads nothing: `&items[i]` is only arithmetic.
#[inline]
pub fn prefetch_value<T: ?Sized>(value: &T) {
    prefetch_bytes(
        std::ptr::from_ref(value).cast(),
        std::mem::size_of_val(value),
    );
}

/// Prefetches what an `ArcStr` points at (its length and first
/// characters) without reading it: its only field is that pointer.
#[inline]
pub fn prefetch_arcstr(text: &arcstr::ArcStr) {
    const _: () =
        assert!(std::mem::size_of::<arcstr::ArcStr>() == std::mem::size_of::<*const u8>());
    // SAFETY: ArcStr is `repr(transparent)` over a non-null pointer to its
    // heap block; the pointer is only handed to a prefetch.
    let block: *const u8 = unsafe { std::mem::transmute_copy(text) };
    prefetch_bytes(block, 128);
}

#[inline]
fn prefetch_bytes(start: *const u8, len: usize) {
    const LINE: usize = 64;
    const AHEAD: usize = 2048;
    for offset in (0..len.min(AHEAD)).step_by(LINE) {
        let address = start.wrapping_add(offset);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint that never faults, whatever the address.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(address.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = address;
    }
}
