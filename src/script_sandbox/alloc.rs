//! The binary's allocator: the system's, which in a script child ([`arm`]) charges every
//! allocation to a cap and stops the process past it, naming the line the script was
//! last seen on. Elsewhere it only passes through (one relaxed load per call).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The system allocator, capped in a script child.
pub struct Capped;

static ARMED: AtomicBool = AtomicBool::new(false);
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);
static USED: AtomicUsize = AtomicUsize::new(0);
static LINE: OnceLock<Arc<AtomicU32>> = OnceLock::new();
/// Set once the cap is reached: what the process does on its way out is not charged.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Charges every allocation from now on to `cap` bytes; `line` is the script's line
/// named when the cap is reached. Allocations made before are not charged (nor their
/// frees credited: the count never goes under zero).
pub(super) fn arm(cap: usize, line: Arc<AtomicU32>) {
    let _ = LINE.set(line);
    CAP.store(cap, Ordering::Relaxed);
    ARMED.store(true, Ordering::Release);
}

/// Adds `size` to the count; `false` (nothing added) past the cap.
fn charge(size: usize) -> bool {
    if !ARMED.load(Ordering::Relaxed) || STOPPING.load(Ordering::Relaxed) {
        return true;
    }
    let cap = CAP.load(Ordering::Relaxed);
    let before = USED.fetch_add(size, Ordering::Relaxed);
    if before.saturating_add(size) > cap {
        USED.fetch_sub(size, Ordering::Relaxed);
        return false;
    }
    true
}

fn credit(size: usize) {
    if !ARMED.load(Ordering::Relaxed) {
        return;
    }
    // Frees of what was allocated before `arm` would take the count under zero.
    let _ = USED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
        Some(used.saturating_sub(size))
    });
}

/// Past the cap: says `memory LINE` on standard error and ends the process.
fn stop() -> ! {
    STOPPING.store(true, Ordering::Relaxed);
    let line = LINE.get().map_or(0, |l| l.load(Ordering::Relaxed));
    // No formatting machinery that could allocate: the digits by hand.
    let mut text = *b"memory 0000000000\n";
    let mut n = line;
    for slot in text[7..17].iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let _ = std::io::stderr().write_all(&text);
    std::process::exit(super::EXIT_MEMORY)
}

// SAFETY: every call forwards to `System` with the caller's layout and pointer; the count
// is bookkeeping beside it.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !charge(layout.size()) {
            stop();
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !charge(layout.size()) {
            stop();
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        credit(layout.size());
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            if !charge(new_size - layout.size()) {
                stop();
            }
        } else {
            credit(layout.size() - new_size);
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
