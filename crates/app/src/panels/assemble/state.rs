//! The Assemble panel's own state (the stats read from the data roots, the design
//! shown: [`AssembleState`]) and its commands ([`AssembleCommand`]).

use crate::files::{FileRef, Files};
use crate::wz::{Design, PartFinder, PartInfo, Stats, TurretPose};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// What the panel needs to know about the assembly on screen.
#[derive(Debug, Clone, Default)]
pub struct Shown {
    /// The design.
    pub design: Option<Design>,
    /// Its human name and droid type.
    pub title: String,
    /// Its parts.
    pub parts: Vec<PartInfo>,
    /// Pitch limits of its first weapon.
    pub elevation: Option<(f32, f32)>,
    /// Problems and notes to show.
    pub messages: Vec<String>,
}

/// The Warzone 2100 stats and the assembly state of the window.
#[derive(Debug)]
pub struct AssembleState {
    /// The stats read from the data roots (`None`: no roots, or none has stats).
    pub stats: Option<Arc<Stats>>,
    /// Stats warnings (file and key).
    pub stats_warnings: Vec<String>,
    /// Finds and caches part files over the data roots; shared with the assembling job.
    pub(super) finder: Arc<Mutex<PartFinder>>,
    /// The roots `stats` was (or is being) read from; `None` before the first read.
    pub(super) loaded_roots: Option<Vec<PathBuf>>,
    /// The assembly on screen (or last shown).
    pub shown: Shown,
}

/// What the panel asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum AssembleCommand {
    /// Assemble this design and show it.
    Show(Design),
    /// Turn / pitch the turrets, or switch moving / still; re-assembles what is shown.
    SetPose(TurretPose),
}

impl Default for AssembleState {
    fn default() -> Self {
        AssembleState {
            stats: None,
            stats_warnings: Vec::new(),
            finder: Arc::new(Mutex::new(PartFinder::new(
                &crate::files::Files::new(crate::files::MemorySource::new()),
                &[],
            ))),
            loaded_roots: None,
            shown: Shown::default(),
        }
    }
}

impl AssembleState {
    /// Drops the cached part models (a reload reads the files again).
    pub fn forget_parts(&mut self, files: &Files) {
        let roots: Vec<FileRef> = self
            .loaded_roots
            .iter()
            .flatten()
            .map(|p| files.parse(p))
            .collect();
        self.finder = Arc::new(Mutex::new(PartFinder::new(files, &roots)));
    }
}

/// Whether `path` is a design line rather than a file.
pub fn design_of(path: &FileRef) -> Option<Design> {
    path.as_disk()
        .and_then(|p| p.to_str())
        .and_then(Design::from_line)
}
