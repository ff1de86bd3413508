//! The settings file: `settings.json` in [`crate::files::folders::config_dir`]
//! (`$VITRINE_CONFIG_DIR`, else the platform's configuration folder: `~/.config/vitrine`
//! on Linux, `%APPDATA%\\vitrine\\config` on Windows, `~/Library/Application
//! Support/vitrine` on macOS), where the desktop keeps the app's settings.
//!
//! The file is written atomically (a temporary file in the same folder, then a rename),
//! so a crash mid-write never leaves half a file. A file that does not parse is kept as
//! `settings.json.bad`, the defaults are used and the user is told so.

use crate::app::settings::Settings;
use std::path::Path;
use std::path::PathBuf;

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
        match Settings::from_json(&bytes) {
            Ok(s) => (s, None),
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

    /// Writes settings already in JSON, atomically.
    pub fn save_json(&self, json: &str) -> Result<(), String> {
        crate::files::atomic::write(&self.path, json.as_bytes())
            .map_err(|e| format!("Could not save settings to {}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::settings::{SAVE_DELAY, SettingsStore};
    use web_time::{Duration, Instant};

    #[test]
    fn a_drag_writes_once_after_the_delay_and_close_writes_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let file = SettingsFile::in_dir(tmp.path());
        let mut store = SettingsStore::new(
            Settings::default(),
            super::super::host::DesktopHost::new(Some(file.clone())),
        );
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
    use crate::app::settings::{MAX_RECENT, MAX_WINDOW, MIN_WINDOW};

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
        let options = s.load_options(crate::files::disk());
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
