//! What the core's tests share: the places of the tests' data (crates/test-needs, the same
//! for every package's tests) and the files there as a front-end gives them to the core —
//! read from the disk into a [`MemorySource`], since the core has no disk of its own.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use vitrine_core::files::{EntryKind, FileRef, Files, MemorySource};
use vitrine_core::formats::{self, LoadError, LoadOptions};
use vitrine_core::model::Model;

pub use vitrine_test_needs::{
    Rng, fixtures, manifest, manifest_xyz, synthetic, temp_dir, workspace, wz2100,
};

/// The folders read once and kept for the whole run: the shared corpus, the fixtures and
/// the fuzz inputs (a path under none of them, a test's temporary folder, is read afresh).
fn kept_roots() -> [PathBuf; 3] {
    [
        vitrine_test_needs::shared_path().join("corpus"),
        fixtures(),
        workspace().join("fuzz"),
    ]
}

/// The sources already read, by the folders they hold (only kept ones).
static KEPT: LazyLock<Mutex<HashMap<Vec<PathBuf>, Files>>> = LazyLock::new(Default::default);

/// Every file under `dir` (links followed), added to `into` by its path.
fn read_tree(dir: &Path, into: &mut MemorySource) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            read_tree(&path, into);
        } else if path.is_file() {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            into.insert(path, bytes);
        }
    }
}

/// The files a test reads at `paths` (files or folders), as a front-end would give them:
/// for each, the whole of the kept folder it is in (the corpus, the fixtures, `fuzz/`), so
/// texture pages and Warzone stats beside and above it are found, else the folder it is
/// in (or it, if a folder), as it is now.
pub fn files_for(paths: &[&Path]) -> Files {
    let kept = kept_roots();
    let mut all_kept = true;
    let mut dirs: Vec<PathBuf> = paths
        .iter()
        .map(|path| match kept.iter().find(|r| path.starts_with(r)) {
            Some(root) => root.clone(),
            None => {
                all_kept = false;
                if path.is_dir() {
                    path.to_path_buf()
                } else {
                    path.parent().expect("a file is in a folder").to_path_buf()
                }
            }
        })
        .collect();
    dirs.sort();
    dirs.dedup();
    let read = |dirs: &[PathBuf]| {
        let mut source = MemorySource::new();
        for dir in dirs {
            read_tree(dir, &mut source);
        }
        Files::new(source)
    };
    if !all_kept {
        return read(&dirs);
    }
    let mut cache = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(dirs)
        .or_insert_with_key(|dirs| read(dirs))
        .clone()
}

/// The shared corpus's files (for a test marked `#[vitrine_test(shared)]`).
#[track_caller]
pub fn corpus() -> Files {
    let dir = vitrine_test_needs::shared_dir().join("corpus");
    files_for(&[&dir])
}

/// Reads, parses and resolves the model at `path` (a plain path, or `a.wz!/x/y.pie`) from
/// [`files_for`] it.
pub fn load_path(path: &Path, options: &LoadOptions) -> Result<Model, LoadError> {
    let files = files_for(&[path]);
    formats::load_path(&files, path, options)
}

/// Every loose model file under `dir` (not inside archives), sorted.
pub fn model_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(files: &Files, dir: &FileRef, out: &mut Vec<PathBuf>) {
        let entries = files.list(dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
        for (name, file, kind) in entries {
            let Some(path) = file.as_disk() else { continue };
            match kind {
                EntryKind::Dir if !files.is_file(&file) => walk(files, &file, out),
                EntryKind::File if formats::is_model_name(&name) => out.push(path.to_path_buf()),
                _ => {}
            }
        }
    }
    let files = files_for(&[dir]);
    let mut out = Vec::new();
    walk(&files, &FileRef::Disk(dir.to_path_buf()), &mut out);
    out.sort();
    out
}

/// `bad/<name>` of every file in the synthetic corpus's `bad/` folder whose name starts
/// with `prefix` (`"pmf_"`), sorted.
pub fn bad_files_on_disk(synthetic: &std::path::Path, prefix: &str) -> Vec<String> {
    let mut on_disk: Vec<String> = std::fs::read_dir(synthetic.join("bad"))
        .expect("bad/")
        .flatten()
        .map(|e| format!("bad/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.starts_with(&format!("bad/{prefix}")))
        .collect();
    on_disk.sort();
    on_disk
}
