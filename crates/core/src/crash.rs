//! What a crash report needs to know, recorded where the work happens: the file this
//! thread is processing ([`processing`], a guard the loaders and the CLI hold while a
//! file is read; per thread, so a panic in a loader thread names that thread's file) and
//! the GPU adapter in use ([`set_adapter`], called by the renderer once it has a device).
//! The panic hook that writes the report belongs to the program (`vitrine::crash`); the
//! core only keeps the facts, so it needs no file system or clock for them.

use std::cell::RefCell;
use std::sync::Mutex;

static ADAPTER: Mutex<Option<String>> = Mutex::new(None);

thread_local! {
    static FILE: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Records the GPU adapter in use (name, backend, driver) for crash reports.
pub fn set_adapter(description: impl Into<String>) {
    *ADAPTER.lock().unwrap_or_else(|e| e.into_inner()) = Some(description.into());
}

/// The GPU adapter recorded by [`set_adapter`], if a device was created (the Help
/// window's About shows it).
pub fn adapter() -> Option<String> {
    ADAPTER.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The file this thread is working on, until the guard is dropped.
#[must_use = "the file is recorded only while the guard lives"]
pub struct Processing(());

/// Records that this thread is now reading or processing `file` (shown in a crash report
/// and on standard error if a panic happens before the guard is dropped).
pub fn processing(file: impl std::fmt::Display) -> Processing {
    FILE.with(|f| f.borrow_mut().push(file.to_string()));
    Processing(())
}

impl Drop for Processing {
    fn drop(&mut self) {
        FILE.with(|f| f.borrow_mut().pop());
    }
}

/// The file this thread is processing, if any.
pub fn current_file() -> Option<String> {
    FILE.with(|f| f.borrow().last().cloned())
}

/// The message a panic carried (`panic!("…")` gives a `&str` or a `String`), for the
/// places that catch one (`catch_unwind`) and report it; `None` for any other payload.
pub fn payload_text(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
}
