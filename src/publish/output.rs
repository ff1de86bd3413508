//! The output folder of `vitrine publish`: what may be written there, and the one check
//! every write and remove goes through ([`inside`]).
//!
//! Publish writes and removes only inside `-o`. A symbolic link met under it (a `thumbs`
//! link to elsewhere in a cloned mod's committed `site/`, a `site.json` or `index.html`
//! that is a link) is refused with an error, never followed: following it would write,
//! or remove a previous site's thumbnails, wherever it points. `-o` itself may be a link:
//! the user named it.

use std::path::{Path, PathBuf};

/// `rel` (`/`-separated, relative to `out`) as a path under `out`, once checked: each
/// component is a plain name (no `..`, `.`, `\`, `:`, empty), and no part of the path
/// under `out` that exists is a symbolic link.
///
/// # Errors
/// Which component is not a plain name, or which path is a link, and why that stops
/// publish.
pub fn inside(out: &Path, rel: &str) -> Result<PathBuf, String> {
    let mut path = out.to_path_buf();
    let mut exists = true;
    for part in rel.split('/') {
        if matches!(part, "" | "." | "..") || part.contains(['\\', ':', '\0']) {
            return Err(format!(
                "{}: {rel:?} is not a plain path inside the output folder",
                out.display()
            ));
        }
        path.push(part);
        if !exists {
            continue;
        }
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!(
                    "{}: is a symbolic link inside the output folder {}; publish writes and \
                     removes only inside it and never follows a link there: remove the link \
                     or choose another folder",
                    path.display(),
                    out.display()
                ));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => exists = false,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    Ok(path)
}

/// Writes `bytes` to `rel` under `out` ([`inside`], then a temporary file and a rename).
///
/// # Errors
/// [`inside`]'s, or the write's.
pub fn write(out: &Path, rel: &str, bytes: &[u8]) -> Result<(), String> {
    let path = inside(out, rel)?;
    crate::files::atomic::write(&path, bytes).map_err(|e| e.to_string())
}

/// The files publish writes at fixed names (its thumbnails are under `thumbs/`).
fn own_files() -> impl Iterator<Item = &'static str> {
    ["site.wz", "site.json", "index.html", "thumbs"]
        .into_iter()
        .chain(super::site::PAGE_FILES.iter().map(|(_, to)| *to))
}

/// Checks that `out` may be written (see the module docs of [`super`]) and creates it and
/// its `thumbs` folder; returns the thumbnails the previous site listed (each checked
/// with [`inside`]; a name that is not a plain `thumbs/NAME` is not publish's, and kept).
///
/// # Errors
/// A folder with other files (without `force`), a link where publish writes, a folder
/// that cannot be created.
pub fn prepare(out: &Path, force: bool) -> Result<Vec<String>, String> {
    for name in own_files() {
        inside(out, name)?;
    }
    let entries = match std::fs::read_dir(out) {
        Ok(rd) => rd.count(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(format!("{}: {e}", out.display())),
    };
    let previous: Option<serde_json::Value> = std::fs::read(out.join("site.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .filter(|v: &serde_json::Value| {
            v["generator"]
                .as_str()
                .is_some_and(|g| g.starts_with("vitrine"))
        });
    if entries > 0 && previous.is_none() && !force {
        return Err(format!(
            "{} is not empty and is not a site vitrine publish wrote; choose a new folder, \
             or pass --force to write into it (only publish's own files are replaced)",
            out.display()
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let thumbs = inside(out, "thumbs")?;
    if !thumbs.is_dir() {
        std::fs::create_dir(&thumbs).map_err(|e| format!("{}: {e}", thumbs.display()))?;
    }
    let mut old = Vec::new();
    for list in ["models", "templates", "structures"] {
        let listed = previous.as_ref().and_then(|v| v[list].as_array());
        for e in listed.into_iter().flatten() {
            let Some(t) = e["thumb"].as_str() else {
                continue;
            };
            let plain = t
                .strip_prefix("thumbs/")
                .is_some_and(|n| !n.is_empty() && !n.contains('/'));
            if plain && inside(out, t)?.exists() {
                old.push(t.to_string());
            }
        }
    }
    Ok(old)
}

/// Removes the previous site's thumbnails `old` that this run did not write again.
///
/// # Errors
/// One that became a link, or cannot be removed.
pub fn remove_old_thumbs(out: &Path, old: &[String], written: &[PathBuf]) -> Result<(), String> {
    for rel in old {
        let path = inside(out, rel)?;
        if written.contains(&path) {
            continue;
        }
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    Ok(())
}
