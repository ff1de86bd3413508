//! Settings that persist between runs, as one JSON file.
//!
//! Where: `settings.json` in [`crate::files::folders::config_dir`] (`$VITRINE_CONFIG_DIR`,
//! else the platform's configuration folder: `~/.config/vitrine` on Linux,
//! `%APPDATA%\vitrine\config` on Windows, `~/Library/Application Support/vitrine` on
//! macOS). Priority of values: built-in defaults, then this
//! file, then the command line (a file given on the command line is opened but the rest
//! of the settings still come from here).
//!
//! The file is written atomically (a temporary file in the same folder, then a rename),
//! so a crash mid-write never leaves half a file. A file that does not parse is kept as
//! `settings.json.bad`, the defaults are used and the user is told so.
//! Unknown keys are ignored and missing keys take their defaults, so older and newer
//! versions of the viewer can share one file.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use web_time::{Duration, Instant};

/// Most recent files remembered.
pub const MAX_RECENT: usize = 10;
/// Smallest window size accepted from the file, in points.
const MIN_WINDOW: f32 = 320.0;
/// Largest window size accepted from the file, in points.
const MAX_WINDOW: f32 = 16384.0;

/// Everything the viewer remembers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Team colour index into [`crate::render::TEAM_COLOURS`].
    pub team: usize,
    /// Background of the 3D view, sRGB bytes.
    pub background: [u8; 3],
    /// Inner size of the window in points.
    pub window_size: [f32; 2],
    /// Position of the window's outer top-left corner on the desktop, in points (`None`:
    /// where the system places it).
    pub window_pos: Option<[f32; 2]>,
    /// Whether the window was maximised.
    pub maximized: bool,
    /// Folder the Open dialog starts in.
    pub last_folder: Option<PathBuf>,
    /// Most recently opened files, newest first, at most [`MAX_RECENT`].
    pub recent_files: Vec<PathBuf>,
    /// Where screenshots go (`None`: [`default_screenshot_folder`]).
    pub screenshot_folder: Option<PathBuf>,
    /// Overlays shown in the view.
    pub overlays: crate::render::Overlays,
    /// Shadows on a ground plane.
    pub shadows: bool,
    /// The light (View ▸ Lighting).
    pub lighting: crate::render::Lighting,
    /// Data roots searched after the model's own folder, in order: folders or archives
    /// (a Warzone 2100 mod over `mp.wz` over `base.wz`, a Trespasser data root, a PangYa
    /// texture folder). Archive entries are written as `a.wz!/folder`.
    pub data_roots: Vec<PathBuf>,
    /// The single "texture folder" of earlier versions; read once and moved to the front
    /// of [`Settings::data_roots`].
    #[serde(skip_serializing)]
    pub texture_folder: Option<PathBuf>,
    /// PMF transform rules the format leaves unstated (units, Euler order, root mode).
    pub pmf: crate::formats::pmf::PmfOptions,
    /// The design last shown in the Assemble panel.
    pub assembly: Option<crate::wz::Design>,
    /// Turret yaw / pitch and moving / still of the Assemble panel.
    pub assembly_pose: crate::wz::TurretPose,
    /// The Export animation dialog's settings.
    pub animation: super::dialogs::export_animation::AnimationOptions,
    /// The Warzone 2100 tileset PIE models are drawn for.
    pub tileset: crate::formats::pie::Tileset,
    /// How PET ANIM rotation keys are read.
    pub pet_rotations: crate::formats::pet::PetRotations,
    /// Side panel sections the user opened or closed, by title (absent: the section's
    /// default).
    pub open_sections: std::collections::BTreeMap<String, bool>,
    /// Reload the open model when its files change on disk (View ▸ Watch files).
    pub watch_files: bool,
}

impl Default for Settings {
    fn default() -> Self {
        let bg = crate::render::ViewSettings::default().background;
        Settings {
            team: 0,
            background: [bg[0], bg[1], bg[2]],
            window_size: [1280.0, 800.0],
            window_pos: None,
            maximized: false,
            last_folder: None,
            recent_files: Vec::new(),
            screenshot_folder: None,
            overlays: crate::render::Overlays::NONE,
            shadows: false,
            lighting: crate::render::Lighting::DEFAULT,
            data_roots: Vec::new(),
            texture_folder: None,
            pmf: crate::formats::pmf::PmfOptions::default(),
            assembly: None,
            assembly_pose: crate::wz::TurretPose::default(),
            animation: Default::default(),
            tileset: Default::default(),
            pet_rotations: Default::default(),
            open_sections: Default::default(),
            watch_files: true,
        }
    }
}

impl Settings {
    /// Puts `path` at the front of the recent files (once), keeping [`MAX_RECENT`].
    pub fn add_recent(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_path_buf());
        self.recent_files.truncate(MAX_RECENT);
    }

    /// The loader options these settings ask for (data roots, PMF rules).
    pub fn load_options(&self) -> crate::formats::LoadOptions {
        crate::formats::LoadOptions {
            data_roots: self
                .data_roots
                .iter()
                .map(|p| crate::files::parse(p))
                .collect(),
            pmf: self.pmf,
            tileset: self.tileset,
            pet_rotations: self.pet_rotations,
        }
    }

    /// The folder screenshots are written to.
    pub fn screenshot_folder(&self) -> PathBuf {
        self.screenshot_folder
            .clone()
            .unwrap_or_else(default_screenshot_folder)
    }

    /// Brings values read from a file into range (a hand-edited file may hold anything).
    fn sanitised(mut self) -> Settings {
        if let Some(old) = self.texture_folder.take()
            && !self.data_roots.contains(&old)
        {
            self.data_roots.insert(0, old);
        }
        if self.team >= crate::render::TEAM_COLOURS.len() {
            self.team = 0;
        }
        for v in &mut self.window_size {
            *v = if v.is_finite() {
                v.clamp(MIN_WINDOW, MAX_WINDOW)
            } else {
                MIN_WINDOW
            };
        }
        self.recent_files.truncate(MAX_RECENT);
        let pose = &mut self.assembly_pose;
        for v in [&mut pose.yaw_deg, &mut pose.pitch_deg] {
            if !v.is_finite() {
                *v = 0.0;
            }
        }
        pose.yaw_deg = pose.yaw_deg.clamp(-180.0, 180.0);
        pose.pitch_deg = pose.pitch_deg.clamp(-90.0, 90.0);
        if self
            .window_pos
            .is_some_and(|p| !p.iter().all(|v| v.is_finite() && v.abs() <= MAX_WINDOW))
        {
            self.window_pos = None;
        }
        let len = &mut self.overlays.normal_length;
        if !len.is_finite() {
            *len = crate::render::Overlays::NONE.normal_length;
        }
        let range = super::inspect::NORMAL_LENGTH_RANGE;
        *len = len.clamp(*range.start(), *range.end());
        self.animation = self.animation.sanitised();
        self.lighting = self.lighting.sanitised();
        self
    }
}

/// `vitrine` in the user's own Pictures folder ([`crate::files::folders::screenshot_dir`]).
pub fn default_screenshot_folder() -> PathBuf {
    crate::files::folders::screenshot_dir()
}

/// The settings file on disk.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsFile {
    /// `settings.json` path.
    pub path: PathBuf,
}

impl SettingsFile {
    /// The file in [`crate::files::folders::config_dir`], if there is one.
    pub fn from_env() -> Option<SettingsFile> {
        crate::files::folders::config_dir().map(|d| SettingsFile::in_dir(&d))
    }

    /// `dir/settings.json`.
    pub fn in_dir(dir: &Path) -> SettingsFile {
        SettingsFile {
            path: dir.join("settings.json"),
        }
    }

    /// Reads the settings. A missing file gives the defaults silently; an unreadable or
    /// corrupt one gives the defaults and a warning to show (the bad file is kept as
    /// `settings.json.bad`).
    pub fn load(&self) -> (Settings, Option<String>) {
        let bytes = match crate::files::read(&crate::files::FileRef::Disk(self.path.clone())) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Settings::default(), None);
            }
            Err(e) => {
                // The error names the file.
                let msg = format!("Could not read settings ({e}); using defaults");
                return (Settings::default(), Some(msg));
            }
        };
        match serde_json::from_slice::<Settings>(&bytes) {
            Ok(s) => (s.sanitised(), None),
            Err(e) => {
                let backup = self.path.with_extension("json.bad");
                let kept = crate::files::atomic::rename(&self.path, &backup).is_ok();
                let mut msg = format!(
                    "Settings file {} is corrupt ({e}); using defaults",
                    self.path.display()
                );
                if kept {
                    msg.push_str(&format!(" (the old file is kept as {})", backup.display()));
                }
                (Settings::default(), Some(msg))
            }
        }
    }

    /// Writes the settings atomically, creating the folder if needed.
    pub fn save(&self, settings: &Settings) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(settings).map_err(std::io::Error::other)?;
        crate::files::atomic::write(&self.path, &json)
    }
}

/// How long a change to the settings waits before it is written: changes made within it
/// (every frame of a slider or colour drag) are written once.
pub const SAVE_DELAY: Duration = Duration::from_secs(1);

/// The settings' one owner: the values (read and changed through `Deref`), the file they
/// are saved to, and when to save. Nothing writes the file per change: the window calls
/// [`SettingsStore::save_due`] every frame, which writes what changed once it has been
/// [`SAVE_DELAY`] since the first unsaved change, and [`SettingsStore::flush`] when it
/// closes.
#[derive(Debug)]
pub struct SettingsStore {
    current: Settings,
    /// What the file holds (as far as this run knows).
    saved: Settings,
    file: Option<SettingsFile>,
    /// When a difference between `current` and `saved` was first seen.
    changed_at: Option<Instant>,
    writes: u64,
}

impl SettingsStore {
    /// `settings` as read from `file` (`None`: never saved, e.g. in tests).
    pub fn new(settings: Settings, file: Option<SettingsFile>) -> Self {
        SettingsStore {
            saved: settings.clone(),
            current: settings,
            file,
            changed_at: None,
            writes: 0,
        }
    }

    /// Where the settings are saved.
    pub fn file(&self) -> Option<&SettingsFile> {
        self.file.as_ref()
    }

    /// How many times the file was written (a slider drag must not write per frame).
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Whether there are changes not yet written.
    pub fn unsaved(&self) -> bool {
        self.current != self.saved
    }

    /// Writes the changes once [`SAVE_DELAY`] has passed since the first one was seen
    /// (`now` is the window's clock); `Err` is the message to show when writing failed.
    pub fn save_due(&mut self, now: Instant) -> Result<(), String> {
        if !self.unsaved() {
            self.changed_at = None;
            return Ok(());
        }
        let since = *self.changed_at.get_or_insert(now);
        if now.saturating_duration_since(since) < SAVE_DELAY {
            return Ok(());
        }
        self.flush()
    }

    /// Writes the changes now (the window closes; tests).
    pub fn flush(&mut self) -> Result<(), String> {
        self.changed_at = None;
        if !self.unsaved() {
            return Ok(());
        }
        // Not tried again until the next change: one message per failure.
        self.saved = self.current.clone();
        let Some(file) = &self.file else {
            return Ok(());
        };
        self.writes += 1;
        file.save(&self.current)
            .map_err(|e| format!("Could not save settings to {}: {e}", file.path.display()))
    }
}

impl std::ops::Deref for SettingsStore {
    type Target = Settings;
    fn deref(&self) -> &Settings {
        &self.current
    }
}

impl std::ops::DerefMut for SettingsStore {
    fn deref_mut(&mut self) -> &mut Settings {
        &mut self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drag_writes_once_after_the_delay_and_close_writes_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let file = SettingsFile::in_dir(tmp.path());
        let mut store = SettingsStore::new(Settings::default(), Some(file.clone()));
        let t0 = Instant::now();
        // 60 frames of a colour drag, 16 ms apart: nothing written during the first second.
        for i in 0..60u8 {
            store.background = [i, 0, 0];
            let now = t0 + Duration::from_millis(16 * i as u64);
            store.save_due(now).unwrap();
            if now < t0 + SAVE_DELAY {
                assert_eq!(store.writes(), 0, "written on frame {i}");
            }
        }
        assert_eq!(store.writes(), 0);
        store.save_due(t0 + Duration::from_millis(1100)).unwrap();
        assert_eq!(store.writes(), 1);
        assert_eq!(file.load().0.background, [59, 0, 0]);
        // Nothing changed since: neither a later frame nor closing writes again.
        store.save_due(t0 + Duration::from_secs(5)).unwrap();
        store.flush().unwrap();
        assert_eq!(store.writes(), 1);
        // A change just before closing is written by the close.
        store.team = 3;
        store.save_due(t0 + Duration::from_secs(6)).unwrap();
        assert_eq!(store.writes(), 1);
        store.flush().unwrap();
        assert_eq!((store.writes(), file.load().0.team), (2, 3));
    }
}

#[cfg(test)]
mod file_tests {
    use super::*;

    fn temp_dir(_tag: &str) -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn round_trip_and_missing_file() {
        let tmp = temp_dir("rt");
        let dir = tmp.path();
        let file = SettingsFile::in_dir(&dir.join("nested"));
        assert_eq!(file.load(), (Settings::default(), None));
        let mut s = Settings {
            team: 5,
            background: [1, 2, 3],
            ..Settings::default()
        };
        s.add_recent(Path::new("/a.pie"));
        file.save(&s).unwrap();
        assert_eq!(file.load(), (s, None));
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.join("nested"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("settings.json")]);
    }

    #[test]
    fn corrupt_file_gives_defaults_and_a_warning() {
        let tmp = temp_dir("corrupt");
        let dir = tmp.path();
        let file = SettingsFile::in_dir(dir);
        std::fs::write(&file.path, "{\"team\": 3,").unwrap();
        let (s, warning) = file.load();
        assert_eq!(s, Settings::default());
        let warning = warning.expect("a warning");
        assert!(warning.contains("corrupt"), "{warning}");
        assert!(dir.join("settings.json.bad").exists());
    }

    #[test]
    fn unreadable_file_gives_defaults_and_a_warning_naming_it() {
        let tmp = temp_dir("unreadable");
        let file = SettingsFile::in_dir(tmp.path());
        std::fs::create_dir(&file.path).unwrap();
        let (s, warning) = file.load();
        assert_eq!(s, Settings::default());
        let warning = warning.expect("a warning");
        assert!(warning.contains("settings.json"), "{warning}");
        assert!(file.path.is_dir(), "a folder in the way is not moved aside");
    }

    #[test]
    fn out_of_range_values_are_clamped_and_unknown_keys_ignored() {
        let tmp = temp_dir("range");
        let dir = tmp.path();
        let file = SettingsFile::in_dir(dir);
        std::fs::write(
            &file.path,
            r#"{"team": 99, "window_size": [10, 1e9], "future_key": true}"#,
        )
        .unwrap();
        let (s, warning) = file.load();
        assert_eq!(warning, None);
        assert_eq!(s.team, 0);
        assert_eq!(s.window_size, [MIN_WINDOW, MAX_WINDOW]);

        std::fs::write(
            &file.path,
            r#"{"lighting": {"diffuse": 50, "elevation_deg": -300, "follows_camera": false}}"#,
        )
        .unwrap();
        let l = file.load().0.lighting;
        assert_eq!((l.diffuse, l.elevation_deg), (3.0, -90.0));
        assert!(!l.follows_camera);
        assert_eq!(
            l.ambient,
            crate::render::Lighting::DEFAULT.ambient,
            "missing keys default"
        );
    }

    #[test]
    fn display_settings_persist_and_a_partial_pmf_object_keeps_the_rest() {
        use crate::formats::pmf::{EulerOrder, RotationUnits};
        let tmp = temp_dir("display");
        let dir = tmp.path();
        let file = SettingsFile::in_dir(dir);
        std::fs::write(
            &file.path,
            r#"{"pmf": {"units": "radians"}, "texture_folder": "/games/trespasser/data"}"#,
        )
        .unwrap();
        let (s, warning) = file.load();
        assert_eq!(warning, None);
        assert_eq!(s.pmf.units, RotationUnits::Radians);
        assert_eq!(s.pmf.euler, EulerOrder::Xyz);
        let options = s.load_options();
        assert_eq!(options.pmf, s.pmf);
        assert_eq!(
            options.data_roots,
            vec![crate::files::FileRef::Disk("/games/trespasser/data".into())],
            "the old texture folder becomes the first data root"
        );
        assert_eq!(s.data_roots, [PathBuf::from("/games/trespasser/data")]);
    }

    #[test]
    fn recent_files_are_unique_newest_first_and_capped() {
        let mut s = Settings::default();
        for i in 0..15 {
            s.add_recent(Path::new(&format!("/m{i}.pie")));
        }
        s.add_recent(Path::new("/m10.pie"));
        assert_eq!(s.recent_files.len(), MAX_RECENT);
        assert_eq!(s.recent_files[0], Path::new("/m10.pie"));
        assert_eq!(s.recent_files[1], Path::new("/m14.pie"));
        assert_eq!(
            s.recent_files
                .iter()
                .filter(|p| **p == Path::new("/m10.pie"))
                .count(),
            1
        );
    }
}
