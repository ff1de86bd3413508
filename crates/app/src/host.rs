//! What the front-end gives the app: everything outside the app's own memory. The app
//! reads through the [`Files`] of its [`Host`], starts long work through it, and hands it
//! what it made (screenshots, exports, settings) to keep — files through the [`Output`]
//! it extends, the seam vitrine-media's animation export and packed pages write through. The desktop keeps them on disk
//! (written atomically, in the folders the user picked); a browser downloads them and
//! keeps the settings in its storage. What a front-end cannot do it leaves at the
//! default (`None`, `false`, an error saying so) and the window does not offer it.
//!
//! Dialogs are not here: the app asks for them as [`super::commands::Effect`]s, and the
//! answers come back later as [`super::commands::AppCommand`]s, so a front-end whose
//! pickers are asynchronous (the browser's) fits as well as one with native dialogs.

use crate::files::{EntryKind, FileRef, Files, Stamp};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
pub use vitrine_media::{Beside, MemoryOutput, Output, OutputFile};

/// A job for [`JobRunner::spawn`]: runs once, anywhere.
pub type Job = super::jobs::Job;

pub use super::jobs::JobRunner;

/// The front-end, as the app sees it: its files and where the app's files go (the
/// [`Output`]: [`Output::files`], [`Output::write`], [`Output::write_new`],
/// [`Output::create`], [`Output::remove`]). It starts the app's long work too: as a
/// [`JobRunner`], away from the UI thread (a thread on the desktop), waking the window
/// when a job ends; the one way a front-end runs background work.
pub trait Host: Output + JobRunner + Send + Sync + std::fmt::Debug {
    /// A thread beside a job's own for work that runs while the job goes on (the
    /// animation export's encoder beside its renderer; the desktop lends one). `None`
    /// where there are no threads to lend (the browser, the tests): the export encodes
    /// between frames.
    fn beside(&self) -> Option<&dyn Beside> {
        None
    }

    /// Keeps the settings (`json`) for the next run.
    fn save_settings(&self, json: &str) -> Result<(), String> {
        let _ = json;
        Ok(())
    }

    /// Where the settings are kept, for messages (`None`: not kept).
    fn settings_location(&self) -> Option<String> {
        None
    }

    /// The model files (names `wanted` accepts) under each of `inputs` (folders,
    /// archives, or files), for the gallery. By default a walk through
    /// [`Output::files`]; the desktop walks the disk without following links.
    fn walk(&self, inputs: &[FileRef], wanted: &dyn Fn(&str) -> bool) -> Found {
        walk_files(&self.files(), inputs, wanted)
    }

    /// The folder screenshots go to when the user chose none; `None` where produced
    /// files are downloaded instead.
    fn default_screenshot_folder(&self) -> Option<PathBuf> {
        None
    }

    /// Keeps `bytes` as a new file `stem.ext` (in `folder` on the desktop, never over an
    /// existing file; a download in the browser); the message naming where it went.
    fn save_new(
        &self,
        folder: Option<&Path>,
        stem: &str,
        ext: &str,
        bytes: &[u8],
    ) -> Result<String, String>;

    /// What fetches bytes that reads asked for and that have not arrived (the page's
    /// remote archives): reading jobs and gallery thumbnails wait for it and run again.
    /// `None` where every file is at hand.
    fn refetch(&self) -> Option<Arc<dyn crate::jobs::Refetch>> {
        None
    }

    /// The thumbnail cache of the gallery, if the front-end keeps one.
    fn thumbnail_cache(&self) -> Option<Arc<dyn ThumbnailCache>> {
        None
    }

    /// A watcher of files and folders for live reload (View ▸ Watch files), `wake`
    /// called when changes are ready; `None` where files cannot be watched.
    fn watcher(&self, wake: Box<dyn Fn() + Send>) -> Option<Result<Box<dyn Watch>, String>> {
        let _ = wake;
        None
    }

    /// A Warzone 2100 installation found on this machine (`mp` over `base`).
    fn detected_warzone(&self) -> Option<Vec<PathBuf>> {
        None
    }

    /// Whether folders can be picked and shown in a file manager (a browser has no
    /// folder picker).
    fn has_folders(&self) -> bool {
        false
    }

    /// Whether the view has an address to copy (a page: Share ▸ Copy link); where it has
    /// none (the desktop), Share ▸ Copy web link gives its address on a published site
    /// (Settings ▸ Published sites…).
    fn has_links(&self) -> bool {
        false
    }

    /// Whether a font for Korean (CJK) text is installed.
    fn cjk_font_installed(&self) -> bool {
        false
    }
}

/// Stored thumbnails by content and settings key ([`super::gallery::cache`]).
pub trait ThumbnailCache: Send + Sync {
    /// The thumbnail under `key`, if stored and drawn with the textures as they are now.
    fn get(&self, key: super::gallery::cache::Key) -> Option<image::RgbaImage>;
    /// Stores `img` under `key`, drawn with `textures`.
    fn put(
        &self,
        key: super::gallery::cache::Key,
        img: &image::RgbaImage,
        textures: &[(FileRef, Stamp)],
    ) -> Result<(), String>;
}

/// Files and folders watched for changes ([`Host::watcher`]).
pub trait Watch: Send {
    /// Watches `files` and every file under the folders `trees` (replacing what was
    /// watched); the folders that could not be watched, and why.
    fn set(&mut self, files: &[FileRef], trees: &[PathBuf]) -> Vec<(PathBuf, String)>;
    /// The watched files that changed since the last call, each once.
    fn changes(&mut self) -> Vec<PathBuf>;
    /// Whether `file` (a file or an archive entry) is among `changed`.
    fn touches(&self, changed: &[PathBuf], file: &FileRef) -> bool;
}

/// What a walk found ([`Host::walk`]).
#[derive(Debug, Default)]
pub struct Found {
    /// The files, in walk order.
    pub files: Vec<FileRef>,
    /// `(path, why)` for what could not be listed.
    pub errors: Vec<(String, String)>,
    /// `(path, what)` for what was listed with a warning (duplicate archive entries).
    pub warnings: Vec<(String, String)>,
}

/// Folders of [`Files`] deeper than this are not walked (a listing that never ends).
const MAX_DEPTH: usize = 64;

/// The files `wanted` names under `inputs`, through `files` (folders and archives alike).
pub fn walk_files(files: &Files, inputs: &[FileRef], wanted: &dyn Fn(&str) -> bool) -> Found {
    let mut out = Found::default();
    for input in inputs {
        let before = (out.files.len(), out.errors.len());
        match files.kind(input) {
            Some(EntryKind::File) => out.files.push(input.clone()),
            Some(EntryKind::Dir) => walk_dir(files, input, wanted, 0, &mut out),
            None => out
                .errors
                .push((input.to_string(), "no such file or folder".into())),
        }
        if out.files.len() == before.0 && out.errors.len() == before.1 {
            out.errors.push((
                input.to_string(),
                format!("no model files found under {input}"),
            ));
        }
    }
    out
}

fn walk_dir(
    files: &Files,
    dir: &FileRef,
    wanted: &dyn Fn(&str) -> bool,
    depth: usize,
    out: &mut Found,
) {
    if depth > MAX_DEPTH {
        out.errors.push((
            dir.to_string(),
            "folders nested too deep; not listed".into(),
        ));
        return;
    }
    match files.list(dir) {
        Ok(entries) => {
            for (name, file, kind) in entries {
                match kind {
                    EntryKind::Dir => walk_dir(files, &file, wanted, depth + 1, out),
                    EntryKind::File if wanted(&name) => out.files.push(file),
                    EntryKind::File => {}
                }
            }
        }
        Err(e) => out.errors.push((dir.to_string(), e.to_string())),
    }
}

/// A host with no disk: files held in memory ([`crate::files::MemorySource`]) and what
/// the app saves kept in memory by path ([`MemoryHost::written`]), through a
/// [`MemoryOutput`]; jobs run at once on the calling thread, and no thread is lent
/// ([`Host::beside`]). Tests use it where they need no disk.
#[derive(Debug, Default)]
pub struct MemoryHost {
    output: MemoryOutput,
    settings: std::sync::Mutex<Option<String>>,
}

impl MemoryHost {
    /// A host reading `source`.
    pub fn new(source: crate::files::MemorySource) -> Arc<MemoryHost> {
        Arc::new(MemoryHost {
            output: MemoryOutput::new(source),
            ..Default::default()
        })
    }

    /// The settings last saved, as JSON.
    pub fn settings(&self) -> Option<String> {
        self.settings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The bytes written to `path`, if any.
    pub fn written(&self, path: &Path) -> Option<Vec<u8>> {
        self.output.written(path)
    }
}

impl JobRunner for MemoryHost {
    fn spawn(&self, _what: &str, job: Job) -> Result<(), String> {
        job();
        Ok(())
    }
}

impl Output for MemoryHost {
    fn files(&self) -> Files {
        self.output.files()
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.output.write(path, bytes)
    }

    fn write_new(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.output.write_new(path, bytes)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn OutputFile>> {
        self.output.create(path)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.output.remove(path)
    }
}

impl Host for MemoryHost {
    fn save_settings(&self, json: &str) -> Result<(), String> {
        *self.settings.lock().unwrap_or_else(|e| e.into_inner()) = Some(json.to_string());
        Ok(())
    }

    /// `stem-1.ext`, `stem-2.ext`, …: the first name not written yet.
    fn save_new(
        &self,
        folder: Option<&Path>,
        stem: &str,
        ext: &str,
        bytes: &[u8],
    ) -> Result<String, String> {
        let folder = folder.map(Path::to_path_buf).unwrap_or_default();
        for n in 1.. {
            let path = folder.join(format!("{stem}-{n}.{ext}"));
            match self.output.write_new(&path, bytes) {
                Ok(()) => return Ok(path.display().to_string()),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e.to_string()),
            }
        }
        Err(format!("no free name for {stem}.{ext}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::MemorySource;

    #[test]
    fn a_walk_through_files_finds_nested_models_and_says_what_is_missing() {
        let files = Files::new(
            MemorySource::new()
                .with("m/a.pie", "PIE 3")
                .with("m/sub/b.PIE", "PIE 3")
                .with("m/notes.txt", "x"),
        );
        let is_pie = |n: &str| n.to_ascii_lowercase().ends_with(".pie");
        let found = walk_files(
            &files,
            &[FileRef::Disk("m".into()), FileRef::Disk("gone".into())],
            &is_pie,
        );
        let names: Vec<String> = found.files.iter().map(|f| f.to_string()).collect();
        assert_eq!(names, ["m/a.pie", "m/sub/b.PIE"]);
        assert_eq!(found.errors.len(), 1, "{:?}", found.errors);
        assert_eq!(found.errors[0].0, "gone");
    }
}
