//! Opening in the background: loading a model file (and running its checks), assembling
//! a Warzone 2100 design, and listing a folder or archive for the gallery run as
//! [`super::jobs`] on the lanes of [`crate::work::Work`], never on the UI thread. While one runs the
//! window keeps drawing the document it has, with a progress line and Cancel
//! ([`progress_ui`]); a second open cancels the first. When the result arrives,
//! [`finish`] makes it the document (or shows the error, keeping the old one) and
//! returns what other parts of the app must do about it as follow-up commands.

use super::commands::{AppCommand, DocumentCommand};
pub use super::document::Purpose;
use super::document::{LoadFailure, load_model};
use super::gallery::command::GalleryCommand;
pub use super::jobs::JobKind;
use super::state::AppState;
use crate::check::{CheckOptions, Checker, Element, Finding};
use crate::files::{FileRef, Files};
use crate::formats::LoadOptions;
use crate::work::{Assembled, Listing, LoadedFile, Outcome, StatsRead, Work};
use crate::wz::{Assembly, Design, PartFinder, Stats, TurretPose};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The `vitrine check` findings on `path` (read from `files`) over the viewer's data roots.
pub fn check_file(files: &Files, path: &FileRef, options: &LoadOptions) -> Vec<Finding> {
    checker(files, options).check_file(path).findings
}

/// The checker the viewer runs: over its data roots, no rule allowed.
fn checker(files: &Files, options: &LoadOptions) -> Checker {
    Checker::new(
        files,
        CheckOptions {
            data_roots: options.data_roots.clone(),
            allow: Vec::new(),
        },
    )
}

/// The `vitrine check` findings on the files of an assembly's parts (a design line is no
/// file to check), each file once, by one checker (the parts share its page and folder
/// look-ups). A finding names its part ("weapon 1 gnmcan.pie: …") and selects the part's
/// group: the part's own mesh and polygon numbers mean nothing in the composed model.
pub fn part_findings(files: &Files, assembly: &Assembly, options: &LoadOptions) -> Vec<Finding> {
    let mut checker = checker(files, options);
    let mut seen: Vec<&FileRef> = Vec::new();
    let mut out = Vec::new();
    for part in &assembly.parts {
        let Some(file) = part.file.as_ref().filter(|f| !seen.contains(f)) else {
            continue;
        };
        seen.push(file);
        for mut f in checker.check_file(file).findings {
            f.message = format!("{} {}: {}", part.role, file.file_name(), f.message);
            if f.element != Element::File {
                f.element = part
                    .node
                    .map_or(Element::File, |node| Element::Node { node });
            }
            out.push(f);
        }
    }
    out
}

/// Starts loading `path` for `purpose` (cancelling the document job running).
pub fn load(state: &mut AppState, path: FileRef, purpose: Purpose) {
    let options = state.services.load_options();
    let verb = match purpose {
        Purpose::Open | Purpose::Tile(_) => "Opening",
        Purpose::Reload | Purpose::LiveReload => "Reloading",
    };
    let what = format!("{verb} {}", path.file_name());
    let files = state.services.files.clone();
    state
        .services
        .work
        .document
        .start_reading(what, move |cancel| {
            let path = path.clone();
            let result = load_model(&files, &path, &options).map(|model| {
                // Not wanted any more: skip the second read the checks make.
                let findings = if cancel.is_set() {
                    Vec::new()
                } else {
                    check_file(&files, &path, &options)
                };
                (model, findings)
            });
            Outcome::File(Box::new(LoadedFile {
                path,
                purpose,
                result,
            }))
        });
}

/// Starts reading the Warzone 2100 stats of the data roots `roots` (read as `refs`).
pub fn read_stats(state: &mut AppState, roots: Vec<std::path::PathBuf>, refs: Vec<FileRef>) {
    let files = state.services.files.clone();
    state
        .services
        .work
        .stats
        .start_reading("Reading Warzone 2100 stats".into(), move |_| {
            let (stats, warnings) = Stats::load(&files, &refs);
            StatsRead {
                roots: roots.clone(),
                stats: stats.is_present().then(|| Arc::new(stats)),
                warnings: warnings.iter().map(|w| w.to_string()).collect(),
            }
        });
}

/// Starts assembling `design` with `pose` from `stats` (or, not read yet, from the stats
/// of these data roots, read in the job), the parts found by `finder`.
pub fn assemble(
    state: &mut AppState,
    stats: Result<Arc<Stats>, Vec<FileRef>>,
    finder: Arc<Mutex<PartFinder>>,
    design: Design,
    pose: TurretPose,
    remember: bool,
) {
    let options = state.services.load_options();
    let what = format!("Assembling {}", design.to_line());
    let files = state.services.files.clone();
    state
        .services
        .work
        .document
        .start_reading(what, move |cancel| {
            let stats = stats.clone().map_or_else(
                |roots| {
                    let (stats, _) = Stats::load(&files, &roots);
                    stats.is_present().then(|| Arc::new(stats))
                },
                Some,
            );
            let design = match &stats {
                Some(stats) => crate::panels::assemble::fill_propulsion(stats, &design),
                None => design.clone(),
            };
            let result = match stats {
                None => Err(
                    "Assembling needs Warzone 2100 data roots with stats (Settings ▸ Data roots: \
                 data/mp or mp.wz, then data/base or base.wz)"
                        .to_string(),
                ),
                // A slider drag starts one job per frame: only the last one assembles.
                Some(_) if cancel.is_set() => Err("cancelled".into()),
                Some(stats) => {
                    let mut finder = finder.lock().unwrap_or_else(|e| e.into_inner());
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        crate::wz::assemble(&stats, &mut finder, &design, pose)
                    }))
                    .unwrap_or_else(|_| Err("internal error: assembling crashed".into()))
                }
            };
            let result = result.map(|a| {
                let findings = part_findings(&files, &a, &options);
                (a, findings)
            });
            Outcome::Assembly(Box::new(Assembled {
                design,
                remember,
                result,
            }))
        });
}

/// Starts listing a folder or archive (`source`) or dropped `files` for the gallery.
pub fn list(state: &mut AppState, source: Option<FileRef>, files: Vec<FileRef>) {
    let what = match &source {
        Some(s) => format!("Listing {}", s.file_name()),
        None => format!("Listing {} dropped files", files.len()),
    };
    let host = state.services.host.clone();
    state.services.work.gallery.start_reading(what, move |_| {
        let inputs = source.clone().map_or_else(|| files.clone(), |s| vec![s]);
        let walk = host.walk(&inputs, &crate::formats::is_model_name);
        Listing {
            source: source.clone(),
            files: files.clone(),
            walk,
            relist: None,
        }
    });
}

/// Starts listing the open gallery's folder or archive again (models were added or
/// removed on disk); the tiles of `redo` are drawn again when it arrives.
pub fn relist(state: &mut AppState, redo: std::collections::HashSet<FileRef>) {
    let Some(source) = state.panels.gallery.as_ref().and_then(|g| g.source.clone()) else {
        return;
    };
    let what = format!("Listing {} again", source.file_name());
    let host = state.services.host.clone();
    state.services.work.gallery.start(what, move |_| {
        let walk = host.walk(
            std::slice::from_ref(&source),
            &crate::formats::is_model_name,
        );
        Listing {
            source: Some(source),
            files: Vec::new(),
            walk,
            relist: Some(redo),
        }
    });
}

/// Makes a document job's result the document, or shows why not; returns the follow-up
/// commands (the gallery's part of a tile click).
pub fn finish(state: &mut AppState, outcome: Outcome) -> Vec<AppCommand> {
    match outcome {
        Outcome::File(f) => finish_file(state, *f),
        Outcome::Assembly(a) => {
            finish_assembly(state, *a);
            Vec::new()
        }
    }
}

fn finish_file(state: &mut AppState, f: LoadedFile) -> Vec<AppCommand> {
    let LoadedFile {
        path,
        purpose,
        result,
    } = f;
    match (result, purpose) {
        (Ok((model, findings)), purpose) => {
            let (camera, moved) = (state.view.camera, state.view.camera_moved);
            if matches!(purpose, Purpose::Open | Purpose::Tile(_)) {
                state
                    .services
                    .settings
                    .add_recent(Path::new(&path.to_string()));
                if let Some(dir) = path
                    .disk_file()
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                {
                    state.services.settings.last_folder = Some(dir.to_path_buf());
                }
            }
            state.show_loaded(path, model, findings);
            match purpose {
                Purpose::LiveReload => {
                    state.view.camera = camera;
                    state.view.camera_moved = moved;
                    Vec::new()
                }
                Purpose::Tile(i) => vec![AppCommand::Gallery(GalleryCommand::TileOpened(i))],
                Purpose::Open | Purpose::Reload => Vec::new(),
            }
        }
        (Err(message), Purpose::Tile(i)) => {
            vec![AppCommand::Gallery(GalleryCommand::TileFailed(
                i,
                LoadFailure { path, message },
            ))]
        }
        (Err(message), Purpose::LiveReload) => {
            state.document.load_error = Some(LoadFailure {
                path,
                message: format!(
                    "{message}\n(changed on disk; the previous model stays shown, and the \
                     next change is tried again)"
                ),
            });
            Vec::new()
        }
        (Err(message), Purpose::Open | Purpose::Reload) => {
            state.document.load_error = Some(LoadFailure { path, message });
            Vec::new()
        }
    }
}

fn finish_assembly(state: &mut AppState, a: Assembled) {
    let path = FileRef::Disk(a.design.to_line().into());
    match a.result {
        Ok((assembly, findings)) => {
            super::panels::assemble::shown(state, &a.design, &assembly);
            if a.remember {
                // Said once when the design is picked, not at every turret-slider step.
                if let Some(message) = missing_parts(&assembly) {
                    state.services.toasts.error(message);
                }
                state
                    .services
                    .settings
                    .add_recent(Path::new(&a.design.to_line()));
                state.services.settings.assembly = Some(a.design);
            }
            state.show_loaded(path, assembly.model, findings);
        }
        Err(message) => state.document.load_error = Some(LoadFailure { path, message }),
    }
}

/// What to tell the user when some of an assembly's parts were not found: which, and
/// where to look; `None` when every part is there.
fn missing_parts(assembly: &crate::wz::Assembly) -> Option<String> {
    let missing: Vec<String> = assembly
        .parts
        .iter()
        .filter(|p| p.error.is_some())
        .map(|p| format!("{} {}", p.role, p.model_name))
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{}: {} of its {} parts not found in the data roots ({}); add the game's data \
             or the mod that has them (Settings ▸ Data roots)",
            assembly.name,
            missing.len(),
            assembly.parts.len(),
            missing.join(", ")
        )
    })
}

/// The progress line of the running jobs: what, for how long, and Cancel. Returns the
/// commands (Cancel clicked).
pub fn progress_ui(ui: &mut egui::Ui, work: &Work) -> Vec<AppCommand> {
    let mut out = Vec::new();
    for (lane, running) in [
        (JobKind::Document, work.document.running()),
        (JobKind::Gallery, work.gallery.running()),
        (JobKind::Stats, work.stats.running()),
        (JobKind::Event, work.event.running()),
    ] {
        let Some(r) = running else { continue };
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!("{}… {:.1} s", r.what, r.elapsed().as_secs_f32()));
            if ui.button("Cancel").clicked() {
                out.push(AppCommand::Document(DocumentCommand::CancelJob(lane)));
            }
        });
    }
    out
}
