//! Watching files for changes (live reload): `notify`'s native watcher (inotify,
//! FSEvents, ReadDirectoryChangesW) behind `notify-debouncer-full`, which merges an
//! exporter's burst of writes into one change.
//!
//! Folders are watched, not files: an editor or exporter that saves by writing a new
//! file and renaming it over the old one (as [`super::atomic`] does) replaces the inode a
//! file watch would follow. A [`Watcher`] is told the set of files it cares about
//! ([`Watcher::set`]); it watches their folders (and, for a gallery, whole trees) and
//! reports changed paths, filtered to that set or those trees. A model inside an archive
//! is watched through its archive file ([`FileRef::disk_file`]).
//!
//! Not here: what a change means (reload the model, refresh a tile) — that is the app's.

use super::FileRef;
use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long a file must stay quiet before its change is reported.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

/// Watches the folders of a set of files, and whole folder trees.
pub struct Watcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    events: Receiver<DebounceEventResult>,
    /// Files reported when they change.
    files: HashSet<PathBuf>,
    /// Trees whose every file is reported.
    trees: HashSet<PathBuf>,
    /// Folders watched now, and how (recursive for trees).
    watched: HashSet<(PathBuf, bool)>,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher")
            .field("files", &self.files)
            .field("trees", &self.trees)
            .finish_non_exhaustive()
    }
}

/// `path` made absolute with its links resolved where it exists (events name real
/// paths), else only made absolute.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The canonical form of `path`: its folder resolved, its own name kept (the file may
/// be gone for a moment while an exporter replaces it).
fn canonical_file(path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) if !dir.as_os_str().is_empty() => canonical(dir).join(name),
        _ => canonical(path),
    }
}

impl Watcher {
    /// A watcher that calls `wake` (from its own thread) whenever changes are ready to
    /// be read with [`Watcher::changes`].
    pub fn new(wake: impl Fn() + Send + 'static) -> Result<Watcher, String> {
        let (tx, events) = channel();
        let debouncer = new_debouncer(DEBOUNCE, None, move |r: DebounceEventResult| {
            let _ = tx.send(r);
            wake();
        })
        .map_err(|e| format!("cannot watch files: {e}"))?;
        Ok(Watcher {
            debouncer,
            events,
            files: HashSet::new(),
            trees: HashSet::new(),
            watched: HashSet::new(),
        })
    }

    /// Watches `files` (files on disk, or the archives of archive entries) and every file
    /// under the folders `trees`; what was watched before and is not named now is
    /// dropped. Returns the folders that could not be watched, with why.
    pub fn set(&mut self, files: &[FileRef], trees: &[PathBuf]) -> Vec<(PathBuf, String)> {
        self.files = files
            .iter()
            .map(|f| canonical_file(f.disk_file()))
            .collect();
        self.trees = trees.iter().map(|t| canonical(t)).collect();
        let mut want: HashSet<(PathBuf, bool)> = self
            .files
            .iter()
            .filter_map(|f| f.parent().map(|d| (d.to_path_buf(), false)))
            .collect();
        want.extend(self.trees.iter().map(|t| (t.clone(), true)));
        let mut failed = Vec::new();
        for (dir, recursive) in self.watched.difference(&want).cloned().collect::<Vec<_>>() {
            let _ = self.debouncer.unwatch(&dir);
            self.watched.remove(&(dir, recursive));
        }
        for (dir, recursive) in want {
            if self.watched.contains(&(dir.clone(), recursive)) {
                continue;
            }
            let mode = if recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            match self.debouncer.watch(&dir, mode) {
                Ok(()) => {
                    self.watched.insert((dir, recursive));
                }
                Err(e) => failed.push((dir, e.to_string())),
            }
        }
        failed
    }

    /// The watched files and files under watched trees that changed (created, written,
    /// renamed over, removed) since the last call, each once.
    pub fn changes(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for result in self.events.try_iter() {
            let Ok(events) = result else {
                continue;
            };
            for e in events {
                if e.kind.is_access() {
                    continue;
                }
                for p in &e.paths {
                    let p = canonical_file(p);
                    let wanted =
                        self.files.contains(&p) || self.trees.iter().any(|t| p.starts_with(t));
                    if wanted && !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    /// Whether `file` (a disk file or an archive entry) is among `changed`.
    pub fn touches(changed: &[PathBuf], file: &FileRef) -> bool {
        let p = canonical_file(file.disk_file());
        changed.contains(&p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_a_file_replaced_by_rename_and_ignores_its_neighbours() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("m.pie");
        std::fs::write(&model, "PIE 3").unwrap();
        let mut w = Watcher::new(|| {}).unwrap();
        assert!(w.set(&[FileRef::Disk(model.clone())], &[]).is_empty());
        std::fs::write(dir.path().join("other.txt"), "x").unwrap();
        super::super::atomic::write(&model, b"PIE 2").unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let mut seen = Vec::new();
        while seen.is_empty() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            seen = w.changes();
        }
        assert_eq!(seen, [canonical_file(&model)]);
        assert!(Watcher::touches(&seen, &FileRef::Disk(model)));
    }
}
