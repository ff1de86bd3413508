//! Per-platform folders, from the `directories` crate (XDG on Linux, Known Folders on
//! Windows, `~/Library` on macOS), so settings are saved on every platform.
//!
//! `VITRINE_CONFIG_DIR` overrides the configuration folder (tests, portable installs);
//! the cache then lives in its `cache/` sub-folder, so one variable isolates everything.

use std::path::PathBuf;

fn project() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "vitrine")
}

fn override_dir() -> Option<PathBuf> {
    std::env::var_os("VITRINE_CONFIG_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Where `settings.json` and crash reports live: `$VITRINE_CONFIG_DIR`, else the
/// platform's (`~/.config/vitrine`, `%APPDATA%\vitrine\config`,
/// `~/Library/Application Support/vitrine`). `None` only without any home folder.
pub fn config_dir() -> Option<PathBuf> {
    override_dir().or_else(|| project().map(|p| p.config_dir().to_path_buf()))
}

/// Where caches (gallery thumbnails) live: `$VITRINE_CONFIG_DIR/cache`, else the
/// platform's (`~/.cache/vitrine`, `%LOCALAPPDATA%\vitrine\cache`,
/// `~/Library/Caches/vitrine`).
pub fn cache_dir() -> Option<PathBuf> {
    match override_dir() {
        Some(d) => Some(d.join("cache")),
        None => project().map(|p| p.cache_dir().to_path_buf()),
    }
}

/// The default screenshot folder: `vitrine` in the user's own Pictures folder (as the
/// platform names it, possibly localised: `~/Bilder`), else in the home folder, else
/// `./vitrine-screenshots`.
pub fn screenshot_dir() -> PathBuf {
    let user = directories::UserDirs::new();
    user.as_ref()
        .and_then(|u| u.picture_dir().map(|p| p.join("vitrine")))
        .or_else(|| {
            user.as_ref()
                .map(|u| u.home_dir().join("Pictures").join("vitrine"))
        })
        .unwrap_or_else(|| PathBuf::from("vitrine-screenshots"))
}
