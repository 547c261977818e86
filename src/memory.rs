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
