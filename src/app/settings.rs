//! Settings that persist between runs, as one JSON file.
//!
//! Where: `$VITRINE_CONFIG_DIR/settings.json`, else `$XDG_CONFIG_HOME/vitrine/settings.json`,
//! else `~/.config/vitrine/settings.json`. Priority of values: built-in defaults, then this
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
    /// A folder searched for textures before the model's own (a Trespasser data root, a
    /// PangYa texture folder); `None`: only beside the model.
    pub texture_folder: Option<PathBuf>,
    /// PMF transform rules the format leaves unstated (units, Euler order, root mode).
    pub pmf: crate::formats::pmf::PmfOptions,
}

impl Default for Settings {
    fn default() -> Self {
        let bg = crate::render::ViewSettings::default().background;
        Settings {
            team: 0,
            background: [bg[0], bg[1], bg[2]],
            window_size: [1280.0, 800.0],
            last_folder: None,
            recent_files: Vec::new(),
            screenshot_folder: None,
            overlays: crate::render::Overlays::NONE,
            shadows: false,
            texture_folder: None,
            pmf: crate::formats::pmf::PmfOptions::default(),
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

    /// The loader options these settings ask for (texture folder, PMF rules).
    pub fn load_options(&self) -> crate::formats::LoadOptions {
        crate::formats::LoadOptions {
            texture_roots: self.texture_folder.iter().cloned().collect(),
            pmf: self.pmf,
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
        let len = &mut self.overlays.normal_length;
        if !len.is_finite() {
            *len = crate::render::Overlays::NONE.normal_length;
        }
        let range = super::inspect::NORMAL_LENGTH_RANGE;
        *len = len.clamp(*range.start(), *range.end());
        self
    }
}

/// `~/Pictures/vitrine` (or `./vitrine-screenshots` without a home folder).
pub fn default_screenshot_folder() -> PathBuf {
    match std::env::var_os("HOME") {
        Some(h) if !h.is_empty() => PathBuf::from(h).join("Pictures").join("vitrine"),
        _ => PathBuf::from("vitrine-screenshots"),
    }
}

/// The settings file's folder from the environment (see the module docs); `None` when
/// no variable gives one.
pub fn config_dir() -> Option<PathBuf> {
    let var = |k| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("VITRINE_CONFIG_DIR")
        .or_else(|| var("XDG_CONFIG_HOME").map(|d| d.join("vitrine")))
        .or_else(|| var("HOME").map(|d| d.join(".config").join("vitrine")))
}

/// The settings file on disk.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsFile {
    /// `settings.json` path.
    pub path: PathBuf,
}

impl SettingsFile {
    /// The file in [`config_dir`], if there is one.
    pub fn from_env() -> Option<SettingsFile> {
        config_dir().map(|d| SettingsFile::in_dir(&d))
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
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Settings::default(), None);
            }
            Err(e) => {
                let msg = format!(
                    "Could not read settings {}: {e}; using defaults",
                    self.path.display()
                );
                return (Settings::default(), Some(msg));
            }
        };
        match serde_json::from_str::<Settings>(&text) {
            Ok(s) => (s.sanitised(), None),
            Err(e) => {
                let backup = self.path.with_extension("json.bad");
                let kept = std::fs::rename(&self.path, &backup).is_ok();
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
        write_atomic(&self.path, &json)
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so
/// readers see either the old file or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A hidden temporary name beside `path`, unique to this process.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("vitrine-settings-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn round_trip_and_missing_file() {
        let dir = temp_dir("rt");
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
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn corrupt_file_gives_defaults_and_a_warning() {
        let dir = temp_dir("corrupt");
        std::fs::create_dir_all(&dir).unwrap();
        let file = SettingsFile::in_dir(&dir);
        std::fs::write(&file.path, "{\"team\": 3,").unwrap();
        let (s, warning) = file.load();
        assert_eq!(s, Settings::default());
        let warning = warning.expect("a warning");
        assert!(warning.contains("corrupt"), "{warning}");
        assert!(dir.join("settings.json.bad").exists());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn out_of_range_values_are_clamped_and_unknown_keys_ignored() {
        let dir = temp_dir("range");
        std::fs::create_dir_all(&dir).unwrap();
        let file = SettingsFile::in_dir(&dir);
        std::fs::write(
            &file.path,
            r#"{"team": 99, "window_size": [10, 1e9], "future_key": true}"#,
        )
        .unwrap();
        let (s, warning) = file.load();
        assert_eq!(warning, None);
        assert_eq!(s.team, 0);
        assert_eq!(s.window_size, [MIN_WINDOW, MAX_WINDOW]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn display_settings_persist_and_a_partial_pmf_object_keeps_the_rest() {
        use crate::formats::pmf::{EulerOrder, RotationUnits};
        let dir = temp_dir("display");
        std::fs::create_dir_all(&dir).unwrap();
        let file = SettingsFile::in_dir(&dir);
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
            options.texture_roots,
            vec![PathBuf::from("/games/trespasser/data")]
        );
        let _ = std::fs::remove_dir_all(dir);
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
