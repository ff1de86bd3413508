//! The Assemble panel: Warzone 2100 droids and structures built from the game's stats
//! (a template by its name, a droid part by part, a structure), turret yaw / pitch, the
//! moving / still models, and "Open part". This file holds its state and the commands
//! that change it; [`ui`] draws it.
//!
//! An assembly is an ordinary document: its path is the design's line
//! (`template:ViperMG01Wheels`, see [`Design::to_line`]), so Open Recent, Reload (F5) and
//! the camera kept over a reload work as for a file, and a slider move re-assembles and
//! reloads it.

pub mod ui;

use crate::commands::Effect;
use crate::files::{FileRef, Files};
use crate::state::AppState;
use crate::wz::{self, Design, PartFinder, PartInfo, Stats, TurretPose};
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
    finder: Arc<Mutex<PartFinder>>,
    /// The roots `stats` was read from.
    loaded_roots: Vec<PathBuf>,
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
            loaded_roots: Vec::new(),
            shown: Shown::default(),
        }
    }
}

impl AssembleState {
    /// Reads the stats from `roots` (through `files`) if they changed since the last
    /// read.
    pub fn sync_roots(&mut self, files: &Files, roots: &[PathBuf]) {
        if self.loaded_roots == roots && (self.stats.is_some() || roots.is_empty()) {
            return;
        }
        self.loaded_roots = roots.to_vec();
        let refs: Vec<FileRef> = roots.iter().map(|p| files.parse(p)).collect();
        self.finder = Arc::new(Mutex::new(PartFinder::new(files, &refs)));
        if roots.is_empty() {
            self.stats = None;
            self.stats_warnings.clear();
            return;
        }
        let (stats, warnings) = Stats::load(files, &refs);
        self.stats_warnings = warnings.iter().map(|w| w.to_string()).collect();
        self.stats = stats.is_present().then(|| Arc::new(stats));
    }

    /// Drops the cached part models (a reload reads the files again).
    pub fn forget_parts(&mut self, files: &Files) {
        let roots: Vec<FileRef> = self.loaded_roots.iter().map(|p| files.parse(p)).collect();
        self.finder = Arc::new(Mutex::new(PartFinder::new(files, &roots)));
    }
}

/// Carries out an Assemble panel command: the assembly runs in the background
/// ([`crate::loading::assemble`]).
pub fn apply(state: &mut AppState, cmd: AssembleCommand) -> Option<Effect> {
    match cmd {
        AssembleCommand::Show(design) => show(state, design),
        AssembleCommand::SetPose(pose) => {
            state.settings.assembly_pose = pose;
            if let Some(design) = state.assemble.shown.design.clone() {
                build_document(state, &design, false);
            }
        }
    }
    None
}

/// Assembles `design` and makes it the document; remembered in Open Recent and in the
/// settings. On failure the open document stays and the banner says why.
pub fn show(state: &mut AppState, design: Design) {
    build_document(state, &design, true);
}

/// Whether `path` is a design line rather than a file.
pub fn design_of(path: &FileRef) -> Option<Design> {
    path.as_disk()
        .and_then(|p| p.to_str())
        .and_then(Design::from_line)
}

/// Starts assembling `design` with the current pose into the document (`remember`: in
/// Open Recent and the Build tab, once assembled).
pub fn build_document(state: &mut AppState, design: &Design, remember: bool) {
    let roots = state.settings.data_roots.clone();
    state.assemble.sync_roots(&state.files, &roots);
    let stats = state.assemble.stats.clone();
    let design = match &stats {
        Some(stats) => fill_propulsion(stats, design),
        None => design.clone(),
    };
    let finder = state.assemble.finder.clone();
    let pose = state.settings.assembly_pose;
    crate::loading::assemble(state, stats, finder, design, pose, remember);
}

/// What the panel shows about `assembly` of `design`, now on screen.
pub fn shown(state: &mut AppState, design: &Design, assembly: &wz::Assembly) {
    state.assemble.shown = Shown {
        design: Some(design.clone()),
        title: format!("{} ({})", assembly.name, assembly.kind),
        parts: assembly.parts.clone(),
        elevation: assembly.elevation,
        messages: assembly
            .warnings
            .iter()
            .chain(&assembly.notes)
            .cloned()
            .collect(),
    };
}

fn fill_propulsion(stats: &Stats, design: &Design) -> Design {
    match design {
        Design::Parts(p) if p.propulsion.is_empty() => {
            let mut p = p.clone();
            p.propulsion = wz::design::default_propulsion(stats, &p.body).unwrap_or_default();
            Design::Parts(p)
        }
        d => d.clone(),
    }
}
