//! `vitrine convert --pack` and File ▸ Export PIE…'s *Copy the pages*: the pages a
//! converted model makes the game load, written as PNG into the `texpages/` folder the
//! game reads them from ([`texpages_for`]). Nothing is replaced: a page already there
//! with the same bytes is left as it is, one with other bytes stops the model (its PIE is
//! not written either), so a modder's page is never clobbered silently. Reads go through
//! the [`Files`] given, writes through the [`Output`] ([`Output::write_new`]).

use crate::files::{FileRef, Files};
use crate::model::Model;
use crate::output::Output;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use vitrine_core::export::pie::{Written, pack};

/// The game's folders of models: a mod's root holds them beside its `texpages/`.
const MODEL_FOLDERS: &[&str] = &["components", "structs", "features", "effects", "misc"];

/// Where `--pack` writes the pages of a PIE written under `folder`: walking up from it,
/// the first `texpages/` there is, or the mod's root `texpages/` once a folder of the
/// game's models (`components/`, `structs/`, …) is passed — the game reads pages from the
/// root's `texpages/` only; else a new `texpages/` in `folder`.
pub fn texpages_for(files: &Files, folder: &Path) -> PathBuf {
    for dir in folder.ancestors() {
        let pages = dir.join("texpages");
        if files.is_dir(&FileRef::Disk(pages.clone())) {
            return pages;
        }
        let is_model_folder = dir
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| MODEL_FOLDERS.contains(&n.to_ascii_lowercase().as_str()));
        if is_model_folder && let Some(root) = dir.parent() {
            return root.join("texpages");
        }
    }
    folder.join("texpages")
}

/// The pages of one model, checked against the folder and this run's other pages.
#[derive(Debug, Default)]
pub struct Planned {
    /// Pages to write (not there yet).
    pub new: Vec<(PathBuf, Vec<u8>)>,
    /// Every page name the PIE makes the game load that will be there, lower-case.
    pub provided: Vec<String>,
    /// What was not packed, and pages already there.
    pub lines: Vec<String>,
}

/// The pages of this run by name: a page two models name must be the same image.
pub type Claimed = Mutex<HashMap<String, u64>>;

/// Plans the pages of `written` under `dir`.
///
/// # Errors
/// A page of that name is already in `dir` (or was written by this run) with other
/// bytes.
pub fn plan(
    files: &Files,
    model: &Model,
    written: &Written,
    dir: &Path,
    claimed: &Claimed,
) -> Result<Planned, String> {
    let (pages, warnings) = pack::pages(model, written, files);
    let mut planned = Planned {
        lines: warnings,
        ..Planned::default()
    };
    for page in pages {
        let dest = dir.join(&page.name);
        let hash = {
            use std::hash::{Hash, Hasher};
            let mut h = std::hash::DefaultHasher::new();
            page.png.hash(&mut h);
            h.finish()
        };
        let key = page.name.to_ascii_lowercase();
        if let Ok(mut c) = claimed.lock()
            && *c.entry(key.clone()).or_insert(hash) != hash
        {
            return Err(format!(
                "--pack: another model of this run packs a different image as {}; name the \
                 pages apart with --texture",
                page.name
            ));
        }
        match files.read(&FileRef::Disk(dest.clone())) {
            Ok(old) if old == page.png => {
                planned
                    .lines
                    .push(format!("{}: already there, left as it is", dest.display()));
            }
            Ok(_) => {
                return Err(format!(
                    "--pack: {} already exists with another image; not replaced (remove it, \
                     or name another page with --texture)",
                    dest.display()
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                planned.new.push((dest, page.png));
            }
            Err(e) => return Err(format!("--pack: cannot read {}: {e}", dest.display())),
        }
        planned.provided.push(key);
    }
    Ok(planned)
}

/// Writes the planned pages (none replaces a file; a page written meanwhile with the same
/// bytes is fine). The lines saying what was written.
pub fn write(output: &dyn Output, planned: &Planned) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (dest, png) in &planned.new {
        match output.write_new(dest, png) {
            Ok(()) => lines.push(format!("packed {}", dest.display())),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let now = output.files().read(&FileRef::Disk(dest.clone())).ok();
                if now.as_deref() != Some(png.as_slice()) {
                    return Err(format!(
                        "--pack: {} appeared meanwhile with another image; not replaced",
                        dest.display()
                    ));
                }
            }
            Err(e) => return Err(format!("--pack: cannot write {}: {e}", dest.display())),
        }
    }
    Ok(lines)
}
