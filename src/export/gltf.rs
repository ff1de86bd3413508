//! glTF export: the core's pure exporter (`vitrine_core::export::gltf`), with its files
//! written to disk through [`crate::files::atomic`] ([`writer::write`]).

pub use vitrine_core::export::gltf::*;

/// The core's writer, and the program's way of putting its files on disk.
pub mod writer {
    pub use vitrine_core::export::gltf::writer::*;

    use crate::files::atomic;
    use std::io;
    use std::path::{Path, PathBuf};

    /// Writes `doc` to `path` (`.glb` or `.gltf` by extension), each file through
    /// [`atomic::write`] (a temporary name, then a rename, flushed to disk); returns every
    /// file written.
    pub fn write(doc: Document, path: &Path) -> io::Result<Vec<PathBuf>> {
        write_with(doc, path, atomic::write)
    }

    /// [`write()`] for one model of a batch: renamed into place all the same, but not
    /// flushed to disk file by file ([`atomic::write_unsynced`] says what that risks).
    pub fn write_unsynced(doc: Document, path: &Path) -> io::Result<Vec<PathBuf>> {
        write_with(doc, path, atomic::write_unsynced)
    }

    use super::Document;
}
