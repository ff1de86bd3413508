//! OBJ export: the core's pure exporter (`vitrine_core::export::obj`), with its files
//! written to disk through [`crate::files::atomic`] ([`write()`]).

pub use vitrine_core::export::obj::*;

use crate::files::atomic;
use std::io;
use std::path::{Path, PathBuf};

/// Writes `doc` as `path` (`.obj`), `<stem>.mtl` and `<stem>-<page>.png` beside it, each
/// through [`atomic::write`]; returns the files written.
pub fn write(doc: ObjDocument, path: &Path) -> io::Result<Vec<PathBuf>> {
    write_with(doc, path, atomic::write)
}
