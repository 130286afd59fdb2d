//! How the binaries' allocator (mimalloc) is set up.
//!
//! mimalloc gives the pages a run frees back to the system after a delay, 1 s by default:
//! longer than most runs, so every page a run ever touched stays resident to its end, and
//! the peak is that of the allocator's pages rather than of the live heap (on the
//! development corpus, a 6.9 MB heap at its peak held 16 MiB). With 10 ms, the pages a
//! package's syntax trees and IR leave behind go back while the next package is analysed:
//! peak RSS on that corpus 23.2 -> 18.5 MiB with `--jobs 1` and 27.8 -> 20.9 MiB in
//! parallel, for 2-5% more time (farm-bench, 41 paired runs; README, Memory).

/// `mi_option_purge_delay` in mimalloc 3's option enum (the bindings name no constant for it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The purge delay the binaries run with, in milliseconds.
pub const PURGE_DELAY_MS: std::os::raw::c_long = 10;

/// Sets mimalloc's options for a run. A `MIMALLOC_PURGE_DELAY` in the environment still wins:
/// mimalloc reads it when the process starts, and a default does not override it.
pub fn configure() {
    // SAFETY: setting an option is a plain store into mimalloc's option table; the index is
    // in range (checked by mimalloc, and by the test below).
    unsafe { libmimalloc_sys::mi_option_set_default(PURGE_DELAY, PURGE_DELAY_MS) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_purge_delay_is_set_unless_the_environment_sets_it() {
        super::configure();
        // SAFETY: reading an option is a plain load from mimalloc's option table.
        let value = unsafe { libmimalloc_sys::mi_option_get(super::PURGE_DELAY) };
        match std::env::var("MIMALLOC_PURGE_DELAY") {
            Ok(set) => assert_eq!(value.to_string(), set.trim()),
            Err(_) => assert_eq!(value, super::PURGE_DELAY_MS),
        }
        // The index is mimalloc 3's: by default the deprecated `eager_commit_delay` before it
        // is 1 and `use_numa_nodes` after it 0 (in mimalloc 2 the index is `max_errors`, 16).
        // SAFETY: as above.
        let (before, after) = unsafe {
            (
                libmimalloc_sys::mi_option_get(super::PURGE_DELAY - 1),
                libmimalloc_sys::mi_option_get(super::PURGE_DELAY + 1),
            )
        };
        assert_eq!((before, after), (1, 0));
    }
}
