//! The one folder walk: `info`, `render`, `check`, `export` and the gallery all expand
//! their inputs here.
//!
//! Folders are walked with `walkdir`, sorted by name, **without following links to
//! folders** (a `sub/up -> ..` link would otherwise list the tree again and again); links
//! to files are read as files. Entries that cannot be read are reported, never skipped in
//! silence. An archive (`mod.wz`) given as input is walked like a folder; archives found
//! inside a walked folder are not opened (they are data, not the input).

use super::{EntryKind, FileRef};
use std::path::Path;

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Files that passed the filter, in walk order (each input in turn, sorted inside).
    pub files: Vec<FileRef>,
    /// `(path, message)` for inputs and entries that could not be read, and for a
    /// folder input in which nothing passed the filter.
    pub errors: Vec<(String, String)>,
    /// Links to folders that were not followed.
    pub links_not_followed: Vec<String>,
    /// `(path, message)` for archive entries that are not read though nothing failed:
    /// a duplicate name (the first entry of a name wins), a refused name (one that leaves
    /// the archive, or is too long) or one also a folder's, that is not a wanted file. Shown as warnings, not counted as
    /// inputs.
    pub warnings: Vec<(String, String)>,
}

/// Expands `inputs` (files, folders, archives, `archive!/folder`) into the files below
/// them whose name passes `wanted`. A file given directly passes whatever its name (the
/// loader then says what is wrong with it).
pub fn walk(inputs: &[std::path::PathBuf], wanted: impl Fn(&str) -> bool) -> Walk {
    let mut out = Walk::default();
    for input in inputs {
        let before = (out.files.len(), out.errors.len());
        let r = super::parse(input);
        match (&r, super::kind(&r)) {
            (_, Some(EntryKind::File)) => out.files.push(r.clone()),
            (FileRef::Disk(dir), Some(EntryKind::Dir)) => walk_disk(dir, &wanted, &mut out),
            (FileRef::Entry { archive, path }, Some(EntryKind::Dir)) => {
                walk_archive(archive, path, &wanted, &mut out)
            }
            (FileRef::Entry { archive, .. }, None) => {
                let why = match super::open_archive(archive) {
                    Err(e) => e.to_string(),
                    Ok(_) => "no such file or folder in the archive".into(),
                };
                out.errors.push((r.to_string(), why));
            }
            // `Files::parse` makes none; a file inside a file is no folder to walk.
            (FileRef::Embedded { .. }, _) => out
                .errors
                .push((r.to_string(), "not a file or folder on disk".into())),
            (FileRef::Disk(p), None) => {
                let why = std::fs::symlink_metadata(p)
                    .err()
                    .map_or_else(|| "broken link".to_string(), |e| e.to_string());
                out.errors.push((r.to_string(), why));
            }
        }
        if out.files.len() == before.0 && out.errors.len() == before.1 {
            out.errors
                .push((r.to_string(), format!("no model files found under {r}")));
        }
    }
    out
}

fn walk_disk(dir: &Path, wanted: &impl Fn(&str) -> bool, out: &mut Walk) {
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name();
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e
                    .path()
                    .map_or_else(|| dir.display().to_string(), |p| p.display().to_string());
                let msg = e
                    .io_error()
                    .map_or_else(|| e.to_string(), |io| io.to_string());
                out.errors.push((path, msg));
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy();
        let ft = entry.file_type();
        if ft.is_symlink() {
            match std::fs::metadata(entry.path()) {
                Ok(m) if m.is_dir() => {
                    out.links_not_followed
                        .push(entry.path().display().to_string());
                    continue;
                }
                Ok(_) => {}
                Err(e) => {
                    if wanted(&name) {
                        out.errors.push((
                            entry.path().display().to_string(),
                            format!("broken link: {e}"),
                        ));
                    }
                    continue;
                }
            }
        } else if ft.is_dir() {
            continue;
        }
        if wanted(&name) {
            out.files.push(FileRef::Disk(entry.into_path()));
        }
    }
}

fn walk_archive(archive: &Path, under: &str, wanted: &impl Fn(&str) -> bool, out: &mut Walk) {
    let a = match super::open_archive(archive) {
        Ok(a) => a,
        Err(e) => {
            out.errors
                .push((archive.display().to_string(), e.to_string()));
            return;
        }
    };
    let prefix = if under.is_empty() {
        String::new()
    } else {
        format!("{}/", under.to_lowercase())
    };
    for e in a.files() {
        let name = e.path.rsplit('/').next().unwrap_or(&e.path);
        if e.path.to_lowercase().starts_with(&prefix) && wanted(name) {
            out.files.push(FileRef::Entry {
                archive: archive.to_path_buf(),
                path: e.path.clone(),
            });
        }
    }
    let at = |name: &str| format!("{}{}{name}", archive.display(), super::ARCHIVE_SEPARATOR);
    for i in &a.ignored {
        let last = i.name.rsplit(['/', '\\']).next().unwrap_or(&i.name);
        // A wanted file that cannot be read is a failed input; anything else a warning.
        if wanted(last) {
            out.errors.push((at(&i.name), i.message()));
        } else {
            out.warnings.push((at(&i.name), i.message()));
        }
    }
    for d in &a.duplicates {
        if d.path.to_lowercase().starts_with(&prefix) {
            out.warnings.push((at(&d.path), d.message()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_pie(n: &str) -> bool {
        n.to_ascii_lowercase().ends_with(".pie")
    }

    #[cfg(unix)]
    #[test]
    fn links_to_folders_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.pie"), "PIE 3").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink("..", dir.path().join("sub/up")).unwrap();
        std::os::unix::fs::symlink("nowhere.pie", dir.path().join("broken.pie")).unwrap();
        let w = walk(&[dir.path().to_path_buf()], is_pie);
        assert_eq!(w.files, [FileRef::Disk(dir.path().join("a.pie"))]);
        assert_eq!(w.links_not_followed.len(), 1);
        assert_eq!(w.errors.len(), 1, "{:?}", w.errors);
        assert!(w.errors[0].1.contains("broken link"), "{:?}", w.errors);
    }

    #[test]
    fn empty_folder_says_so() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("readme.txt"), "x").unwrap();
        let w = walk(&[dir.path().to_path_buf()], is_pie);
        assert!(w.files.is_empty());
        assert!(
            w.errors[0].1.starts_with("no model files found under"),
            "{:?}",
            w.errors
        );
    }

    #[test]
    fn missing_input_is_an_error() {
        let w = walk(&["/definitely/not/here.pie".into()], is_pie);
        assert!(w.files.is_empty());
        assert_eq!(w.errors.len(), 1);
    }
}
