//! The core's loaders (`vitrine_core::formats`), with [`load`] and [`load_path`] reading
//! from the desktop's disk ([`crate::files::disk`]); everything else is the core's.

pub use vitrine_core::formats::*;

use crate::files::{FileRef, disk};
use crate::model::Model;
use std::path::Path;

/// Reads, parses and resolves the model `file` (loose or inside an archive) from the disk.
pub fn load(file: &FileRef, options: &LoadOptions) -> Result<Model, LoadError> {
    vitrine_core::formats::load(disk(), file, options)
}

/// Reads, parses and resolves the model at `path` (a plain path, or `a.wz!/x/y.pie`)
/// from the disk.
pub fn load_path(path: &Path, options: &LoadOptions) -> Result<Model, LoadError> {
    vitrine_core::formats::load_path(disk(), path, options)
}
