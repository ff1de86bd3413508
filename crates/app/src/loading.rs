//! Opening in the background: loading a model file (and running its checks), assembling
//! a Warzone 2100 design, and listing a folder or archive for the gallery run as
//! [`super::jobs`] on the lanes of [`Work`], never on the UI thread. While one runs the
//! window keeps drawing the document it has, with a progress line and Cancel
//! ([`progress_ui`]); a second open cancels the first. When the result arrives,
//! [`finish`] makes it the document (or shows the error, keeping the old one) and
//! returns what other parts of the app must do about it as follow-up commands.

use super::commands::{AppCommand, DocumentCommand};
pub use super::document::Purpose;
use super::document::{LoadFailure, load_model};
use super::gallery::command::GalleryCommand;
pub use super::jobs::JobKind;
use super::jobs::{Inline, JobRunner, Lane, Running};
use super::state::AppState;
use crate::check::{CheckOptions, Checker, Element, Finding};
use crate::files::{FileRef, Files};
use crate::formats::LoadOptions;
use crate::host::Found;
use crate::model::Model;
use crate::wz::{Assembly, Design, PartFinder, Stats, TurretPose};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A model file loaded (or not) by a job, with its checks.
#[derive(Debug)]
pub struct LoadedFile {
    /// The file.
    pub path: FileRef,
    /// What the load was for.
    pub purpose: Purpose,
    /// The model and the `vitrine check` findings on the file, or the load error.
    pub result: Result<(Model, Vec<Finding>), String>,
}

/// A design assembled (or not) by a job.
#[derive(Debug)]
pub struct Assembled {
    /// The design, its propulsion filled in.
    pub design: Design,
    /// Remember it (Open Recent, the Build tab) on success: a design the user picked,
    /// not a re-assembly for a pose or a reload.
    pub remember: bool,
    /// The assembly and the checks' findings on it, or why not.
    pub result: Result<(Assembly, Vec<Finding>), String>,
}

/// What a document job brings back.
#[derive(Debug)]
pub enum Outcome {
    /// A model file.
    File(Box<LoadedFile>),
    /// A Warzone 2100 assembly.
    Assembly(Box<Assembled>),
}

/// A gallery listing: the folder or archive (`None`: dropped files) and its walk.
#[derive(Debug)]
pub struct Listing {
    /// The folder or archive listed; `None` for dropped files.
    pub source: Option<FileRef>,
    /// The dropped files listed (empty for a source).
    pub files: Vec<FileRef>,
    /// What was found.
    pub walk: Found,
    /// A new listing of the open gallery's source (models added or removed on disk),
    /// with the tiles whose files changed (drawn again); `None` for a new gallery.
    pub relist: Option<std::collections::HashSet<FileRef>>,
}

/// The Warzone 2100 stats read from data roots by a job.
#[derive(Debug)]
pub struct StatsRead {
    /// The roots, as the settings name them.
    pub roots: Vec<std::path::PathBuf>,
    /// The stats (`None`: none of the roots has any).
    pub stats: Option<Arc<Stats>>,
    /// Problems reading them (file and key).
    pub warnings: Vec<String>,
}

/// The app's background work: the document lane (opens, reloads, assemblies), the
/// gallery lane (listings) and the stats lane (the Warzone 2100 stats of the data roots). The front-end provides the runner ([`Work::set_runner`]);
/// until then jobs run inline.
#[derive(Debug)]
pub struct Work {
    /// Loads and assemblies: one at a time, the newest wins.
    pub document: Lane<Outcome>,
    /// Folder and archive listings for the gallery.
    pub gallery: Lane<Listing>,
    /// The stats of the data roots.
    pub stats: Lane<StatsRead>,
    /// PIE event models shown in place of the model.
    pub event: Lane<crate::timeline::event_models::EventLoaded>,
    /// File ▸ Export PIE…'s check and write.
    pub pie: Lane<super::dialogs::export_pie::PieDone>,
    /// File ▸ Export glTF…'s exports (several may run at once).
    pub gltf: super::dialogs::export_gltf::ExportJobs,
}

impl Default for Work {
    fn default() -> Self {
        Work {
            document: Lane::new(Box::new(Inline)),
            gallery: Lane::new(Box::new(Inline)),
            stats: Lane::new(Box::new(Inline)),
            event: Lane::new(Box::new(Inline)),
            pie: Lane::new(Box::new(Inline)),
            gltf: Default::default(),
        }
    }
}

impl Work {
    /// Cancels the job running on lane `kind` (the progress line's Cancel).
    pub fn cancel(&mut self, kind: JobKind) {
        match kind {
            JobKind::Document => self.document.cancel(),
            JobKind::Gallery => self.gallery.cancel(),
            JobKind::Stats => self.stats.cancel(),
            JobKind::Event => self.event.cancel(),
        }
    }

    /// Runs the jobs of both lanes with `runner`.
    pub fn set_runner<R: JobRunner + Clone + 'static>(&mut self, runner: R) {
        self.document.set_runner(Box::new(runner.clone()));
        self.gallery.set_runner(Box::new(runner.clone()));
        self.stats.set_runner(Box::new(runner.clone()));
        self.event.set_runner(Box::new(runner.clone()));
        self.pie.set_runner(Box::new(runner));
    }

    /// Runs the reading jobs (loads, assemblies, stats, listings) again when `refetch`
    /// has fetched bytes they asked for (the page's remote archives).
    pub fn set_refetch(&mut self, refetch: std::sync::Arc<dyn crate::jobs::Refetch>) {
        self.document.set_refetch(refetch.clone());
        self.gallery.set_refetch(refetch.clone());
        self.stats.set_refetch(refetch);
    }

    /// The jobs running, for the progress line.
    pub fn running(&self) -> impl Iterator<Item = &Running> {
        self.document
            .running()
            .into_iter()
            .chain(self.gallery.running())
            .chain(self.stats.running())
            .chain(self.event.running())
    }

    /// Whether nothing runs.
    pub fn idle(&self) -> bool {
        self.running().next().is_none()
    }
}

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
