//! The allocator of whatever runs a stranger's map script — the program's script child
//! (`vitrine::script_sandbox`) and the page's script engine (`web/engines/script`, in a
//! Web Worker): the system's allocator, which once [`arm`]ed charges every allocation to a
//! cap. Past it the host's `past_cap` runs (the child says so and ends the process); if
//! it returns, the allocation fails (and so does every later one past the cap), which ends a wasm module's run with a trap the host
//! sees ([`reached`] tells it why). Unarmed it only passes through (one relaxed load per
//! call).
//!
//! What is charged is what is live: a free gives its bytes back. Allocations made before
//! [`arm`] are not charged, nor their frees credited (the count never goes under zero).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicUsize, Ordering};

/// The system allocator, capped once [`arm`]ed.
pub struct Capped;

static ARMED: AtomicBool = AtomicBool::new(false);
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);
static USED: AtomicUsize = AtomicUsize::new(0);
/// The line of `game.js` the script was last seen on, kept by the script's host.
static LINE: AtomicPtr<AtomicU32> = AtomicPtr::new(std::ptr::null_mut());
/// What the host does past the cap, given the line.
static PAST_CAP: AtomicPtr<()> = AtomicPtr::new(std::ptr::null_mut());
/// Set once the cap is reached.
static REACHED: AtomicBool = AtomicBool::new(false);

/// Charges every allocation from now on to `cap` bytes. `line` is where the script's
/// host keeps the line it was last seen on; `past_cap` is called with it when an
/// allocation would take the count past the cap (it may end the process; if it returns,
/// that allocation fails).
pub fn arm(cap: usize, line: &'static AtomicU32, past_cap: fn(u32)) {
    LINE.store(std::ptr::from_ref(line).cast_mut(), Ordering::Relaxed);
    PAST_CAP.store(past_cap as *mut (), Ordering::Relaxed);
    CAP.store(cap, Ordering::Relaxed);
    REACHED.store(false, Ordering::Relaxed);
    ARMED.store(true, Ordering::Release);
}

/// Whether an allocation was refused at the cap since [`arm`].
pub fn reached() -> bool {
    REACHED.load(Ordering::Relaxed)
}

/// The bytes charged now.
pub fn used() -> usize {
    USED.load(Ordering::Relaxed)
}

/// Adds `size` to the count; `false` (nothing added) past the cap.
fn charge(size: usize) -> bool {
    if !ARMED.load(Ordering::Relaxed) {
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
    let _ = USED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
        Some(used.saturating_sub(size))
    });
}

/// Past the cap: the host's `past_cap` with the line, the first time; `false` if it
/// returns (the allocation then fails, as every later one past the cap does: code that
/// recovers from a failed allocation gets no more).
fn past_cap() -> bool {
    if REACHED.swap(true, Ordering::Relaxed) {
        return false;
    }
    let line = LINE.load(Ordering::Relaxed);
    // SAFETY: `arm` stored a `&'static AtomicU32` (or nothing).
    let line = unsafe { line.as_ref() }.map_or(0, |l| l.load(Ordering::Relaxed));
    let hook = PAST_CAP.load(Ordering::Relaxed);
    if !hook.is_null() {
        // SAFETY: `arm` stored a `fn(u32)` here, and nothing else is stored.
        let hook: fn(u32) = unsafe { std::mem::transmute::<*mut (), fn(u32)>(hook) };
        hook(line);
    }
    false
}

// SAFETY: every call forwards to `System` with the caller's layout and pointer, or fails
// (null) as an allocator may; the count is bookkeeping beside it.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !charge(layout.size()) && !past_cap() {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !charge(layout.size()) && !past_cap() {
            return std::ptr::null_mut();
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
            if !charge(new_size - layout.size()) && !past_cap() {
                return std::ptr::null_mut();
            }
        } else {
            credit(layout.size() - new_size);
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
