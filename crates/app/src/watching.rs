//! What live reload keeps between frames (the watcher, what it watches), apart from
//! [`super::live_reload`]'s logic so that the state can hold it without the two modules
//! importing each other.

use super::host::Watch;
use crate::files::FileRef;

/// The watcher and what it was last told to watch.
#[derive(Default)]
pub struct LiveReload {
    pub(crate) watcher: Option<Box<dyn Watch>>,
    /// (document generation, gallery source and tile count) last watched.
    pub(crate) watching: Option<(Option<u64>, Option<String>)>,
    /// Files whose change reloads the open document.
    pub(crate) document_files: Vec<FileRef>,
    /// Why watching is not possible, shown once.
    pub(crate) failed: bool,
}

impl std::fmt::Debug for LiveReload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveReload")
            .field("watching", &self.watching)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}
