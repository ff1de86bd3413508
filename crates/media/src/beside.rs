//! [`Beside`]: a second thread, lent by the front-end, for work that runs while the
//! caller's goes on (the animation export's encoder beside its renderer). The crate
//! starts no thread itself (`crates/clippy.toml`): the desktop lends one
//! (`vitrine::export::EncoderThread`), the page has none and tests need none — there the
//! export encodes between frames.

/// Runs a task on another thread while the caller's own work runs on this one.
pub trait Beside: Sync {
    /// Runs `task` on another thread and `here` on this one at the same time; returns
    /// once both have ended.
    ///
    /// `task` may wait on what `here` sends it (a channel closed when `here` ends): an
    /// implementation must not run them one after the other.
    ///
    /// # Errors
    /// The thread could not be started (then neither ran), or `task` panicked (the
    /// message says so).
    fn run<'a>(
        &self,
        task: Box<dyn FnOnce() + Send + 'a>,
        here: Box<dyn FnOnce() + 'a>,
    ) -> Result<(), String>;
}
