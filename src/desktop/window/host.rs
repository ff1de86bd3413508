//! The desktop as the app's [`Host`]: the disk (with archives on top; written through
//! [`DiskOutput`]), a thread per job (the desktop's one way to run background work,
//! [`JobRunner`]) and the animation export's encoder thread
//! ([`crate::export::EncoderThread`]), the
//! settings file, atomic writes into the folders the user chose, the thumbnail cache in
//! the user's cache folder, `notify` for live reload, the Warzone 2100 install found on
//! this machine and the system's fonts.

use super::settings_file::SettingsFile;
use super::thumbnail_cache::DiskCache;
use crate::app::gallery::cache::Key;
use crate::app::host::{
    Beside, Found, Host, Job, JobRunner, Output, OutputFile, ThumbnailCache, Watch,
};
use crate::files::{DiskOutput, FileRef, Files, Stamp, atomic};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The desktop front-end's [`Host`].
#[derive(Debug, Default)]
pub struct DesktopHost {
    settings: Option<SettingsFile>,
    thumbnails: Option<Arc<DiskCache>>,
    /// The window, asked for a frame when a job ends (none before the window opens, and
    /// none in the command line and tests).
    wake: OnceLock<eframe::egui::Context>,
}

impl DesktopHost {
    /// A host keeping the settings in `settings` (`None`: not kept, as in tests), with
    /// no thumbnail cache.
    pub fn new(settings: Option<SettingsFile>) -> Arc<DesktopHost> {
        Arc::new(DesktopHost {
            settings,
            thumbnails: None,
            wake: OnceLock::new(),
        })
    }

    /// A host keeping gallery thumbnails in `cache`.
    pub fn with_thumbnails(settings: Option<SettingsFile>, cache: DiskCache) -> Arc<DesktopHost> {
        Arc::new(DesktopHost {
            settings,
            thumbnails: Some(Arc::new(cache)),
            wake: OnceLock::new(),
        })
    }

    /// The user's: the settings file and the thumbnail cache in their folders.
    pub fn user() -> Arc<DesktopHost> {
        Arc::new(DesktopHost {
            settings: SettingsFile::from_env(),
            thumbnails: DiskCache::user().map(Arc::new),
            wake: OnceLock::new(),
        })
    }

    /// From now on each job that ends asks `ctx` (the window's) for a frame, so its
    /// result is taken in at once. Once: a later window is ignored.
    pub fn wake(&self, ctx: &eframe::egui::Context) {
        let _ = self.wake.set(ctx.clone());
    }

    /// The settings file, if the settings are kept.
    pub fn settings_file(&self) -> Option<&SettingsFile> {
        self.settings.as_ref()
    }
}

impl JobRunner for DesktopHost {
    /// Runs `job` on a thread of its own named after `what`, then wakes the window.
    fn spawn(&self, what: &str, job: Job) -> Result<(), String> {
        let wake = self.wake.get().cloned();
        std::thread::Builder::new()
            .name(format!("vitrine: {what}"))
            .spawn(move || {
                job();
                if let Some(ctx) = wake {
                    ctx.request_repaint();
                }
            })
            .map(|_| ())
            .map_err(|e| format!("could not start a thread for {what}: {e}"))
    }
}

impl Output for DesktopHost {
    fn files(&self) -> Files {
        DiskOutput.files()
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        DiskOutput.write(path, bytes)
    }

    fn write_new(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        DiskOutput.write_new(path, bytes)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn OutputFile>> {
        DiskOutput.create(path)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        DiskOutput.remove(path)
    }
}

impl Host for DesktopHost {
    fn beside(&self) -> Option<&dyn Beside> {
        Some(&crate::export::EncoderThread)
    }

    fn save_settings(&self, json: &str) -> Result<(), String> {
        match &self.settings {
            Some(file) => file.save_json(json),
            None => Ok(()),
        }
    }

    fn settings_location(&self) -> Option<String> {
        self.settings.as_ref().map(|f| f.path.display().to_string())
    }

    fn walk(&self, inputs: &[FileRef], wanted: &dyn Fn(&str) -> bool) -> Found {
        let paths: Vec<PathBuf> = inputs
            .iter()
            .map(|f| PathBuf::from(f.to_string()))
            .collect();
        let walk = crate::files::walk::walk(&paths, wanted);
        Found {
            files: walk.files,
            errors: walk.errors,
            warnings: walk.warnings,
        }
    }

    fn default_screenshot_folder(&self) -> Option<PathBuf> {
        Some(crate::files::folders::screenshot_dir())
    }

    fn save_new(
        &self,
        folder: Option<&Path>,
        stem: &str,
        ext: &str,
        bytes: &[u8],
    ) -> Result<String, String> {
        let folder = folder
            .map(Path::to_path_buf)
            .unwrap_or_else(crate::files::folders::screenshot_dir);
        atomic::write_numbered(&folder, stem, ext, bytes)
            .map(|p| p.display().to_string())
            .map_err(|e| format!("{}: {e}", folder.display()))
    }

    fn thumbnail_cache(&self) -> Option<Arc<dyn ThumbnailCache>> {
        self.thumbnails
            .clone()
            .map(|c| c as Arc<dyn ThumbnailCache>)
    }

    fn watcher(&self, wake: Box<dyn Fn() + Send>) -> Option<Result<Box<dyn Watch>, String>> {
        Some(crate::files::watch::Watcher::new(wake).map(|w| Box::new(w) as Box<dyn Watch>))
    }

    fn detected_warzone(&self) -> Option<Vec<PathBuf>> {
        crate::files::folders::find_warzone2100()
    }

    fn has_folders(&self) -> bool {
        true
    }

    fn cjk_font_installed(&self) -> bool {
        super::fonts::cjk_font_installed()
    }
}

impl Watch for crate::files::watch::Watcher {
    fn set(&mut self, files: &[FileRef], trees: &[PathBuf]) -> Vec<(PathBuf, String)> {
        crate::files::watch::Watcher::set(self, files, trees)
    }
    fn changes(&mut self) -> Vec<PathBuf> {
        crate::files::watch::Watcher::changes(self)
    }
    fn touches(&self, changed: &[PathBuf], file: &FileRef) -> bool {
        crate::files::watch::Watcher::touches(changed, file)
    }
}

impl ThumbnailCache for DiskCache {
    fn get(&self, key: Key) -> Option<image::RgbaImage> {
        DiskCache::get(self, key)
    }
    fn put(
        &self,
        key: Key,
        img: &image::RgbaImage,
        textures: &[(FileRef, Stamp)],
    ) -> Result<(), String> {
        DiskCache::put(self, key, img, textures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_count_up_and_never_clobber() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("shots");
        let host = DesktopHost::new(None);
        let a = PathBuf::from(host.save_new(Some(&dir), "tank", "png", b"first").unwrap());
        let b = PathBuf::from(host.save_new(Some(&dir), "tank", "png", b"second").unwrap());
        assert_eq!(a, dir.join("tank-1.png"));
        assert_eq!(b, dir.join("tank-2.png"));
        assert_eq!(std::fs::read(&a).unwrap(), b"first");
        // A gap is filled, existing files are left alone.
        std::fs::remove_file(&a).unwrap();
        let c = PathBuf::from(host.save_new(Some(&dir), "tank", "png", b"third").unwrap());
        assert_eq!(c, dir.join("tank-1.png"));
        assert_eq!(std::fs::read(&b).unwrap(), b"second");
        // No temporary files are left.
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["tank-1.png", "tank-2.png"]);
    }
}
