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

use crate::app::commands::Effect;
use crate::app::state::{AppState, LoadFailure};
use crate::files::FileRef;
use crate::wz::{self, Design, PartFinder, PartInfo, Stats, TurretPose};
use std::path::PathBuf;
use std::sync::Arc;

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
    /// Finds and caches part files over the data roots.
    finder: PartFinder,
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
            finder: PartFinder::new(crate::files::disk(), &[]),
            loaded_roots: Vec::new(),
            shown: Shown::default(),
        }
    }
}

impl AssembleState {
    /// Reads the stats from `roots` if they changed since the last read.
    pub fn sync_roots(&mut self, roots: &[PathBuf]) {
        if self.loaded_roots == roots && (self.stats.is_some() || roots.is_empty()) {
            return;
        }
        self.loaded_roots = roots.to_vec();
        let refs: Vec<FileRef> = roots.iter().map(|p| crate::files::parse(p)).collect();
        self.finder = PartFinder::new(crate::files::disk(), &refs);
        if roots.is_empty() {
            self.stats = None;
            self.stats_warnings.clear();
            return;
        }
        let (stats, warnings) = Stats::load(crate::files::disk(), &refs);
        self.stats_warnings = warnings.iter().map(|w| w.to_string()).collect();
        self.stats = stats.is_present().then(|| Arc::new(stats));
    }

    /// Drops the cached part models (a reload reads the files again).
    pub fn forget_parts(&mut self) {
        self.finder = PartFinder::new(crate::files::disk(), self.finder.roots());
    }
}

/// Carries out an Assemble panel command.
pub fn apply(state: &mut AppState, cmd: AssembleCommand) -> Option<Effect> {
    match cmd {
        AssembleCommand::Show(design) => show(state, design),
        AssembleCommand::SetPose(pose) => {
            state.settings.assembly_pose = pose;
            if let Some(design) = state.assemble.shown.design.clone() {
                build_document(state, &design);
            }
            state.save_settings();
        }
    }
    None
}

/// Assembles `design` and makes it the document; remembered in Open Recent and in the
/// settings. On failure the open document stays and the banner says why.
pub fn show(state: &mut AppState, design: Design) {
    if build_document(state, &design) {
        state
            .settings
            .add_recent(std::path::Path::new(&design.to_line()));
        state.settings.assembly = Some(design);
        state.save_settings();
    }
}

/// Whether `path` is a design line rather than a file.
pub fn design_of(path: &FileRef) -> Option<Design> {
    path.as_disk()
        .and_then(|p| p.to_str())
        .and_then(Design::from_line)
}

/// Assembles `design` with the current pose into the document; `false` on failure.
pub fn build_document(state: &mut AppState, design: &Design) -> bool {
    let roots = state.settings.data_roots.clone();
    state.assemble.sync_roots(&roots);
    let design = match state.assemble.stats.clone() {
        Some(stats) => fill_propulsion(&stats, design),
        None => design.clone(),
    };
    let path = FileRef::Disk(PathBuf::from(design.to_line()));
    let fail = |state: &mut AppState, message: String| {
        state.load_error = Some(LoadFailure {
            path: path.clone(),
            message,
        });
        false
    };
    let Some(stats) = state.assemble.stats.clone() else {
        return fail(
            state,
            "Assembling needs Warzone 2100 data roots with stats (Settings ▸ Data roots: \
             data/mp or mp.wz, then data/base or base.wz)"
                .into(),
        );
    };
    let pose = state.settings.assembly_pose;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        wz::assemble(&stats, &mut state.assemble.finder, &design, pose)
    }));
    let a = match result {
        Ok(Ok(a)) => a,
        Ok(Err(e)) => return fail(state, e),
        Err(_) => return fail(state, "internal error: assembling crashed".into()),
    };
    state.assemble.shown = Shown {
        design: Some(design.clone()),
        title: format!("{} ({})", a.name, a.kind),
        parts: a.parts.clone(),
        elevation: a.elevation,
        messages: a.warnings.iter().chain(&a.notes).cloned().collect(),
    };
    state.set_document(path, a.model);
    true
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
