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

/// Where Warzone 2100 is usually installed: Linux packages and Flatpak, Steam on Linux,
/// Windows and macOS, Windows' default folders, and the macOS app bundle. Each is the
/// folder that holds `base.wz` and `mp.wz` (or unpacked `base/` and `mp/`).
fn warzone2100_candidates() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = [
        "/usr/share/games/warzone2100",
        "/usr/share/warzone2100",
        "/usr/local/share/warzone2100",
        "/usr/local/share/games/warzone2100",
        "/var/lib/flatpak/app/net.wz2100.wz2100/current/active/files/share/warzone2100",
        "/Applications/Warzone 2100.app/Contents/Resources/data",
        "C:\\Program Files\\Warzone 2100\\data",
        "C:\\Program Files (x86)\\Warzone 2100\\data",
        "C:\\Program Files (x86)\\Steam\\steamapps\\common\\Warzone 2100\\data",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if let Some(home) = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()) {
        for rel in [
            ".local/share/Steam/steamapps/common/Warzone 2100/data",
            ".steam/steam/steamapps/common/Warzone 2100/data",
            ".local/share/flatpak/app/net.wz2100.wz2100/current/active/files/share/warzone2100",
            "Library/Application Support/Steam/steamapps/common/Warzone 2100/Warzone 2100.app/Contents/Resources/data",
        ] {
            v.push(home.join(rel));
        }
    }
    v
}

/// A Warzone 2100 installation found on this machine, as data roots in the game's order
/// (`mp` over `base`), or `None`. Offered to the user, never used unasked.
pub fn find_warzone2100() -> Option<Vec<PathBuf>> {
    warzone2100_candidates()
        .into_iter()
        .find_map(|dir| warzone2100_layers(&dir))
}

/// The `mp` and `base` layers (archives or unpacked folders) in `dir`, `mp` first; `None`
/// without `base`.
pub(crate) fn warzone2100_layers(dir: &std::path::Path) -> Option<Vec<PathBuf>> {
    let layer = |name: &str| {
        [format!("{name}.wz"), name.to_string()]
            .into_iter()
            .map(|n| dir.join(n))
            .find(|p| p.exists())
    };
    let base = layer("base")?;
    Some(layer("mp").into_iter().chain([base]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_are_mp_over_base() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(warzone2100_layers(dir.path()), None);
        std::fs::write(dir.path().join("base.wz"), b"").unwrap();
        std::fs::create_dir(dir.path().join("mp")).unwrap();
        assert_eq!(
            warzone2100_layers(dir.path()).unwrap(),
            [dir.path().join("mp"), dir.path().join("base.wz")]
        );
    }
}
