//! The Assemble panel: Warzone 2100 droids and structures built from the game's stats
//! (a template by its name, a droid part by part, a structure), turret yaw / pitch, the
//! moving / still models, and "Open part". This file holds its state and the commands
//! that change it; [`ui`] draws it.
//!
//! An assembly is an ordinary document: its path is the design's line
//! (`template:ViperMG01Wheels`, see [`Design::to_line`]), so Open Recent, Reload (F5) and
//! the camera kept over a reload work as for a file, and a slider move re-assembles and
//! reloads it. The stats are read in the background ([`crate::loading::read_stats`])
//! whenever the data roots change; an assembly asked for before they arrive reads them
//! in its own job.

pub mod state;
pub mod ui;

pub use state::{AssembleCommand, AssembleState, Shown, design_of};

use crate::effect::Effect;
use crate::files::FileRef;
use crate::state::AppState;
use crate::wz::{self, Design, PartFinder, Stats};
use std::sync::{Arc, Mutex};

impl AssembleState {
    /// The stats read from `roots`, arrived from their job: kept if those are still the
    /// roots.
    pub fn stats_read(&mut self, read: crate::loading::StatsRead) {
        if self.loaded_roots.as_ref() == Some(&read.roots) {
            self.stats_warnings = read.warnings;
            self.stats = read.stats;
        }
    }
}

/// Carries out an Assemble panel command: the assembly runs in the background
/// ([`crate::loading::assemble`]).
pub fn apply(state: &mut AppState, cmd: AssembleCommand) -> Option<Effect> {
    match cmd {
        AssembleCommand::Show(design) => show(state, design),
        AssembleCommand::SetPose(pose) => {
            state.services.settings.assembly_pose = pose;
            if let Some(design) = state.panels.assemble.shown.design.clone() {
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

/// Starts assembling `design` with the current pose into the document (`remember`: in
/// Open Recent and the Build tab, once assembled).
pub fn build_document(state: &mut AppState, design: &Design, remember: bool) {
    sync_roots(state);
    // Not read yet (their job is under way): the assembling job reads them itself.
    let stats = state.panels.assemble.stats.clone().ok_or_else(|| {
        let roots: Vec<FileRef> = state
            .services
            .settings
            .data_roots
            .iter()
            .map(|p| state.services.files.parse(p))
            .collect();
        roots
    });
    let finder = state.panels.assemble.finder.clone();
    let pose = state.services.settings.assembly_pose;
    crate::loading::assemble(state, stats, finder, design.clone(), pose, remember);
}

/// Starts reading the stats of the data roots in the background when they changed since
/// the last read (a new [`PartFinder`] at once); the window calls it every frame.
pub fn sync_roots(state: &mut AppState) {
    let roots = &state.services.settings.data_roots;
    if state.panels.assemble.loaded_roots.as_ref() == Some(roots) {
        return;
    }
    let roots = roots.clone();
    let refs: Vec<FileRef> = roots
        .iter()
        .map(|p| state.services.files.parse(p))
        .collect();
    let a = &mut state.panels.assemble;
    a.loaded_roots = Some(roots.clone());
    a.stats = None;
    a.stats_warnings.clear();
    a.finder = Arc::new(Mutex::new(PartFinder::new(&state.services.files, &refs)));
    if roots.is_empty() {
        state.services.work.stats.cancel();
        return;
    }
    crate::loading::read_stats(state, roots, refs);
}

/// What the panel shows about `assembly` of `design`, now on screen.
pub fn shown(state: &mut AppState, design: &Design, assembly: &wz::Assembly) {
    state.panels.assemble.shown = Shown {
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

/// `design` with the body's default propulsion when it names none.
pub fn fill_propulsion(stats: &Stats, design: &Design) -> Design {
    match design {
        Design::Parts(p) if p.propulsion.is_empty() => {
            let mut p = p.clone();
            p.propulsion = wz::design::default_propulsion(stats, &p.body).unwrap_or_default();
            Design::Parts(p)
        }
        d => d.clone(),
    }
}
