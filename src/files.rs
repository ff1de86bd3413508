//! The desktop's files: the core's model of a source (`vitrine_core::files`: [`FileRef`],
//! [`Files`], archives read lazily, [`MemorySource`]) over the disk ([`DiskSource`],
//! [`disk`]), plus what only a desktop program does with files: [`atomic`] writes (and
//! through them `DiskOutput`, vitrine-media's way onto the disk),
//! [`walk`] (the one folder walk), per-platform [`folders`], output [`names`] made from
//! names a package chose, and [`watch`] (file-system
//! events for live reload). The free functions here ([`read`], [`list`], …) read through
//! [`disk`].

pub mod atomic;
mod disk;
pub mod folders;
pub mod names;
#[cfg(feature = "cli")]
mod output;
pub mod walk;
#[cfg(feature = "gui")]
pub mod watch;

pub use disk::{DiskSource, absolute_folded, disk};
#[cfg(feature = "cli")]
pub use output::DiskOutput;
pub use vitrine_core::files::*;

use std::io;
use std::path::Path;
use std::sync::Arc;

/// Reads a whole file or archive entry from the disk (see [`Files::read`]).
pub fn read(file: &FileRef) -> io::Result<Vec<u8>> {
    disk().read(file)
}

/// What `file` is on the disk, or `None` if it does not exist.
pub fn kind(file: &FileRef) -> Option<EntryKind> {
    disk().kind(file)
}

/// Whether `file` exists on the disk and is a file.
pub fn is_file(file: &FileRef) -> bool {
    disk().is_file(file)
}

/// Whether `file` exists on the disk and is a folder (an archive's root counts).
pub fn is_dir(file: &FileRef) -> bool {
    disk().is_dir(file)
}

/// The current [`Stamp`] of `file` on the disk.
pub fn stamp(file: &FileRef) -> io::Result<Stamp> {
    disk().stamp(file)
}

/// The entries of folder `dir` on the disk, sorted by name: `(name, ref, kind)`.
pub fn list(dir: &FileRef) -> io::Result<Vec<(String, FileRef, EntryKind)>> {
    disk().list(dir)
}

/// The opened archive at `path` on the disk (its entries, the names it ignored).
pub fn open_archive(path: &Path) -> io::Result<Arc<Archive>> {
    disk().archive(path)
}

/// Reads a command-line or settings path against the disk (see [`Files::parse`]).
pub fn parse(arg: &Path) -> FileRef {
    disk().parse(arg)
}
