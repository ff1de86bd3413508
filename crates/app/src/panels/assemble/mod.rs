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

pub use state::{AssembleCommand, AssembleState, Shown, design_of, fill_propulsion};

use crate::effect::Effect;
use crate::files::FileRef;
use crate::services::Services;
use crate::wz::{self, Design, PartFinder};
use std::sync::{Arc, Mutex};

impl AssembleState {
    /// The stats read from `roots`, arrived from their job: kept if those are still the
    /// roots.
    pub fn stats_read(&mut self, read: crate::work::StatsRead) {
        if self.loaded_roots.as_ref() == Some(&read.roots) {
            self.stats_warnings = read.warnings;
            self.stats = read.stats;
        }
    }
}

/// What an Assemble panel command reaches: the panel's state and the services (the
/// pose is a setting; the assembly runs as a job).
#[derive(Debug)]
pub struct AssembleContext<'a> {
    /// The panel's stats, part finder and assembly shown.
    pub assemble: &'a mut AssembleState,
    /// Settings, files and the background work.
    pub services: &'a mut Services,
}

/// Carries out an Assemble panel command: the assembly runs in the background
/// ([`crate::loading::assemble`]).
pub fn apply(ctx: AssembleContext<'_>, cmd: AssembleCommand) -> Option<Effect> {
    let AssembleContext { assemble, services } = ctx;
    match cmd {
        AssembleCommand::Show(design) => show(services, assemble, design),
        AssembleCommand::SetPose(pose) => {
            services.settings.assembly_pose = pose;
            if let Some(design) = assemble.shown.design.clone() {
                build_document(services, assemble, &design, false);
            }
        }
    }
    None
}

/// Assembles `design` and makes it the document; remembered in Open Recent and in the
/// settings. On failure the open document stays and the banner says why.
pub fn show(services: &mut Services, assemble: &mut AssembleState, design: Design) {
    build_document(services, assemble, &design, true);
}

/// Starts assembling `design` with the current pose into the document (`remember`: in
/// Open Recent and the Build tab, once assembled).
pub fn build_document(
    services: &mut Services,
    assemble: &mut AssembleState,
    design: &Design,
    remember: bool,
) {
    sync_roots(services, assemble);
    // Not read yet (their job is under way): the assembling job reads them itself.
    let stats = assemble.stats.clone().ok_or_else(|| {
        let roots: Vec<FileRef> = services
            .settings
            .data_roots
            .iter()
            .map(|p| services.files.parse(p))
            .collect();
        roots
    });
    let finder = assemble.finder.clone();
    let pose = services.settings.assembly_pose;
    crate::loading::assemble(services, stats, finder, design.clone(), pose, remember);
}

/// Starts reading the stats of the data roots in the background when they changed since
/// the last read (a new [`PartFinder`] at once); the window calls it every frame.
pub fn sync_roots(services: &mut Services, assemble: &mut AssembleState) {
    let roots = &services.settings.data_roots;
    if assemble.loaded_roots.as_ref() == Some(roots) {
        return;
    }
    let roots = roots.clone();
    let refs: Vec<FileRef> = roots.iter().map(|p| services.files.parse(p)).collect();
    let a = assemble;
    a.loaded_roots = Some(roots.clone());
    a.stats = None;
    a.stats_warnings.clear();
    a.finder = Arc::new(Mutex::new(PartFinder::new(&services.files, &refs)));
    if roots.is_empty() {
        services.work.stats.cancel();
        return;
    }
    crate::loading::read_stats(services, roots, refs);
}

/// What the panel shows about `assembly` of `design`, now on screen.
pub fn shown(assemble: &mut AssembleState, design: &Design, assembly: &wz::Assembly) {
    assemble.shown = Shown {
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
