//! The C allocator's policy for a process that runs for days. glibc's
//! malloc slides two thresholds as it goes: once a large block that had a
//! mapping of its own is freed, blocks of that size are taken from the heap
//! instead, and up to twice that size may then lie free at the heap's top
//! without being given back. llvmpipe frees and takes a 1 MiB buffer every
//! few minutes, so each time the bar's heap grew by a mebibyte it kept
//! (the soak's steps in BENCHMARKS.md). Fixed thresholds keep large blocks
//! in mappings of their own, returned when freed, and give the heap's top
//! back once 128 KiB of it is free. Elsewhere the allocator is left as is.

/// The size from which a block gets a mapping of its own, and how much
/// free memory the heap's top may keep: glibc's starting values, fixed.
/// Past the start the bar takes a block this large a few times a minute.
pub const LARGE_BLOCK: usize = 128 * 1024;

/// Fixes glibc's thresholds at [`LARGE_BLOCK`]; first thing in `main`.
pub fn fix_heap_thresholds() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets the allocator's parameters, under its lock.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE_BLOCK as libc::c_int);
        libc::mallopt(libc::M_TRIM_THRESHOLD, LARGE_BLOCK as libc::c_int);
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;
    use std::hint::black_box;

    /// Bytes in blocks that have a mapping of their own.
    fn mapped_bytes() -> usize {
        // SAFETY: mallinfo2 only reads the allocator's statistics.
        unsafe { libc::mallinfo2() }.hblkhd
    }

    #[test]
    fn a_large_block_freed_does_not_draw_the_next_one_into_the_heap() {
        fix_heap_thresholds();
        const MEBIBYTE: usize = 1 << 20;
        drop(black_box(vec![1u8; MEBIBYTE]));
        // Other tests' threads may free mapped blocks between the two
        // readings: one of three tries must see the new block mapped.
        let mapped = (0..3).any(|_| {
            let before = mapped_bytes();
            let block = black_box(vec![1u8; MEBIBYTE]);
            let grown = mapped_bytes().saturating_sub(before);
            drop(block);
            grown >= MEBIBYTE
        });
        assert!(mapped, "a second mebibyte block was taken from the heap, as glibc's sliding threshold does");
    }
}
