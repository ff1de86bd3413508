//! Whether the system can show a file dialog, asked before showing one.
//!
//! On Linux and the BSDs rfd tries the XDG desktop portal (over the D-Bus session bus),
//! then the `zenity` program; when neither answers it logs an error and returns `None`,
//! exactly as when the user cancels (rfd 0.17, `backend/xdg_desktop_portal.rs`). So the
//! window cannot learn from rfd that nothing was shown: it looks first. A dialog can be
//! shown when `zenity` is on `PATH`, inside a Flatpak (whose portal is always there), or
//! when a session bus is reachable and an installed portal back-end offers the file
//! chooser (`org.freedesktop.impl.portal.FileChooser` in one of the
//! `xdg-desktop-portal/portals/*.portal` files under the XDG data folders). Windows and
//! macOS always have their own dialogs.
//!
//! Not checked: that the portal service actually starts, or that the `zenity` found
//! runs. Either failing still ends in rfd's silent "cancelled".

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Who shows the window's file dialogs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The system's dialogs, through rfd.
    Native,
    /// None can be shown: Vitrine's own picker, drawn in the window.
    Fallback,
}

impl Backend {
    /// Looks at this system (see the module's notes).
    pub fn probe() -> Backend {
        if !cfg!(any(
            target_os = "linux",
            target_os = "freebsd",
            target_os = "dragonfly",
            target_os = "netbsd",
            target_os = "openbsd"
        )) {
            return Backend::Native;
        }
        let env = |name: &str| std::env::var_os(name);
        let shown = on_path("zenity", env("PATH").as_deref())
            || Path::new("/.flatpak-info").exists()
            || (session_bus(
                env("DBUS_SESSION_BUS_ADDRESS").as_deref(),
                env("XDG_RUNTIME_DIR").as_deref(),
            ) && portal_file_chooser(env("XDG_DATA_DIRS").as_deref()));
        if shown {
            Backend::Native
        } else {
            Backend::Fallback
        }
    }
}

/// Whether an executable file `program` is in one of `path`'s folders.
fn on_path(program: &str, path: Option<&OsStr>) -> bool {
    let Some(path) = path else { return false };
    std::env::split_paths(path).any(|dir| is_executable(&dir.join(program)))
}

#[cfg(unix)]
fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(file: &Path) -> bool {
    file.is_file()
}

/// Whether a D-Bus session bus can be reached: its address (`disabled:` is none, a
/// `unix:path=` socket must exist; other transports are taken on trust), or else the
/// per-user socket `$XDG_RUNTIME_DIR/bus` that libdbus falls back to.
fn session_bus(address: Option<&OsStr>, runtime_dir: Option<&OsStr>) -> bool {
    if let Some(address) = address.map(|a| a.to_string_lossy()) {
        // Several addresses may be listed, separated by `;`: one reachable is enough.
        return address.split(';').any(|one| {
            if one.starts_with("disabled:") || one.trim().is_empty() {
                return false;
            }
            match one.strip_prefix("unix:").and_then(|rest| {
                rest.split(',')
                    .find_map(|kv| kv.strip_prefix("path="))
                    .map(str::to_owned)
            }) {
                Some(socket) => Path::new(&socket).exists(),
                None => true,
            }
        });
    }
    runtime_dir.is_some_and(|d| Path::new(d).join("bus").exists())
}

/// Whether an installed portal back-end implements the file chooser.
fn portal_file_chooser(data_dirs: Option<&OsStr>) -> bool {
    let dirs: Vec<PathBuf> = match data_dirs.filter(|d| !d.is_empty()) {
        Some(d) => std::env::split_paths(d).collect(),
        None => vec!["/usr/local/share".into(), "/usr/share".into()],
    };
    dirs.iter().any(|dir| {
        let Ok(entries) = std::fs::read_dir(dir.join("xdg-desktop-portal/portals")) else {
            return false;
        };
        entries.flatten().any(|e| {
            e.path().extension() == Some(OsStr::new("portal"))
                && std::fs::read_to_string(e.path())
                    .is_ok_and(|text| text.contains("org.freedesktop.impl.portal.FileChooser"))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn zenity_counts_only_when_an_executable_is_on_path() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let zenity = dir.path().join("zenity");
        std::fs::write(&zenity, "#!/bin/sh\n").unwrap();
        let path = std::env::join_paths(["/nonexistent".into(), dir.path().to_path_buf()]).unwrap();
        std::fs::set_permissions(&zenity, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(!on_path("zenity", Some(&path)), "not executable");
        std::fs::set_permissions(&zenity, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(on_path("zenity", Some(&path)));
        assert!(!on_path("zenity", Some(OsStr::new("/nonexistent"))));
        assert!(!on_path("zenity", None));
    }

    #[test]
    fn session_bus_addresses() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("bus");
        let there = format!("unix:path={}", socket.display());
        let cases: &[(Option<&str>, bool, bool)] = &[
            // (DBUS_SESSION_BUS_ADDRESS, socket file exists, reachable)
            (Some("disabled:"), true, false),
            (Some(""), true, false),
            (Some(&there), false, false),
            (Some(&there), true, true),
            (Some("unix:abstract=/tmp/dbus-x,guid=1"), false, true),
            (Some("disabled:;unix:abstract=/tmp/dbus-x"), false, true),
            (None, false, false),
            (None, true, true),
        ];
        for &(address, exists, want) in cases {
            if exists {
                std::fs::write(&socket, "").unwrap();
            } else {
                let _ = std::fs::remove_file(&socket);
            }
            let got = session_bus(address.map(OsStr::new), Some(dir.path().as_os_str()));
            assert_eq!(got, want, "address {address:?}, socket there: {exists}");
        }
    }

    #[test]
    fn portal_needs_a_back_end_with_the_file_chooser() {
        let dir = tempfile::tempdir().unwrap();
        let portals = dir.path().join("xdg-desktop-portal/portals");
        std::fs::create_dir_all(&portals).unwrap();
        let dirs = dir.path().as_os_str();
        assert!(!portal_file_chooser(Some(dirs)), "no back-end");
        std::fs::write(
            portals.join("wlr.portal"),
            "[portal]\nDBusName=org.freedesktop.impl.portal.desktop.wlr\n\
             Interfaces=org.freedesktop.impl.portal.Screenshot;\n",
        )
        .unwrap();
        assert!(!portal_file_chooser(Some(dirs)), "a back-end without it");
        std::fs::write(
            portals.join("gtk.portal"),
            "[portal]\nInterfaces=org.freedesktop.impl.portal.FileChooser;\n",
        )
        .unwrap();
        assert!(portal_file_chooser(Some(dirs)));
    }
}
