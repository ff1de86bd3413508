//! The cap, installed as this test binary's allocator: what a map script's host sees
//! when the script asks for more than it may have.

use std::sync::atomic::{AtomicU32, Ordering};
use vitrine_memory_cap::Capped;

#[global_allocator]
static ALLOCATOR: Capped = Capped;

static LINE: AtomicU32 = AtomicU32::new(0);
static TOLD: AtomicU32 = AtomicU32::new(0);

fn past_cap(line: u32) {
    TOLD.store(line, Ordering::Relaxed);
}

/// One test in the binary: arming counts every thread's allocations.
#[test]
fn past_the_cap_an_allocation_fails_and_the_host_hears_the_line() {
    let cap = 8 << 20;
    let before = vitrine_memory_cap::used();
    vitrine_memory_cap::arm(cap, &LINE, past_cap);
    LINE.store(17, Ordering::Relaxed);
    // Within the cap: allocations pass and are charged while live, credited when freed.
    let kept: Vec<u8> = vec![1; 4 << 20];
    assert!(vitrine_memory_cap::used() >= before + (4 << 20));
    assert!(!vitrine_memory_cap::reached());
    // Past it: refused, the host told the line once.
    let mut more: Vec<u8> = Vec::new();
    assert!(more.try_reserve_exact(6 << 20).is_err());
    assert!(vitrine_memory_cap::reached());
    assert_eq!(TOLD.load(Ordering::Relaxed), 17);
    // Every later allocation past the cap fails too; small ones within it pass.
    TOLD.store(0, Ordering::Relaxed);
    assert!(more.try_reserve_exact(6 << 20).is_err());
    assert_eq!(TOLD.load(Ordering::Relaxed), 0, "the host is told once");
    let small = vec![0u8; 1024];
    drop(kept);
    // Freed, the 4 MiB are there again.
    assert!(more.try_reserve_exact(6 << 20).is_ok());
    assert_eq!(small.len(), 1024);
}
