//! The disk as the tests read it: a [`FileSource`] over `std::fs`, read when asked (a
//! test writes its textures and then renders them), with archives on top through
//! [`Files`]. The program's own disk source (src/files, with its size limits and
//! positioned reads) belongs to the desktop front-end, which the crates' tests do not
//! link; this one reads an archive whole when it is opened.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};
use vitrine_core::files::{EntryKind, FileSource, Files, ReadAt, Stamp};
use vitrine_core::formats::{self, LoadError, LoadOptions};
use vitrine_core::model::Model;

/// Plain files and folders on the disk, links followed.
#[derive(Debug, Clone, Copy)]
struct TestDisk;

impl FileSource for TestDisk {
    fn kind(&self, path: &Path) -> Option<EntryKind> {
        let meta = std::fs::metadata(path).ok()?;
        Some(match meta.is_dir() {
            true => EntryKind::Dir,
            false => EntryKind::File,
        })
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    fn open(&self, path: &Path) -> io::Result<Arc<dyn ReadAt>> {
        let bytes: Arc<[u8]> = self.read(path)?.into();
        Ok(Arc::new(bytes))
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if let Some(kind) = self.kind(&entry.path()) {
                out.push((entry.file_name().to_string_lossy().into_owned(), kind));
            }
        }
        Ok(out)
    }

    fn stamp(&self, path: &Path) -> io::Result<Stamp> {
        let meta = std::fs::metadata(path)?;
        let since_epoch = meta.modified()?.duration_since(std::time::UNIX_EPOCH);
        Ok(Stamp {
            modified_ns: since_epoch.map_or(0, |d| d.as_nanos() as u64),
            len: meta.len(),
        })
    }
}

static DISK: LazyLock<Files> = LazyLock::new(|| Files::new(TestDisk));

/// The disk, with archives read on top (one for the whole test run).
pub fn disk() -> &'static Files {
    &DISK
}

/// Reads, parses and resolves the model at `path` (a plain path, or `a.wz!/x/y.pie`)
/// from [`disk`].
pub fn load_path(path: &Path, options: &LoadOptions) -> Result<Model, LoadError> {
    formats::load_path(disk(), path, options)
}

/// Every loose model file under `dir` (not inside archives), sorted; panics when a
/// folder cannot be listed.
pub fn model_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        for path in entries.map(|e| e.expect("a folder entry").path()) {
            if path.is_dir() {
                folders.push(path);
            } else if formats::is_model_name(&path.to_string_lossy()) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
