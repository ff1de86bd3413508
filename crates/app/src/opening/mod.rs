//! The document's life: opening a file (a model, a design line, a folder or archive as
//! a gallery), loading in the background, reloading, the Open dialogs, the loader
//! settings that reload what is open, the PIE event model shown, and taking in what a
//! document job brought back ([`finish`]: the new document, or the error). The
//! document's commands ([`DocumentCommand`], defined with its state) are applied here
//! with a [`DocumentContext`]: the services, the document, the view and the assembly
//! shown; a folder opens as a gallery through a follow-up command. The jobs themselves
//! are started by [`crate::loading`].

pub mod context;

pub use context::DocumentContext;

use crate::commands::{AppCommand, Applied};

use crate::check::Finding;
use crate::document::{Document, DocumentCommand, LoadFailure, Purpose};
use crate::effect::Effect;
use crate::files::FileRef;
use crate::gallery::command::GalleryCommand;
use crate::messages::state::MessagesCommand;
use crate::model::{Model, Pose};
use crate::panels::{assemble, display};
use crate::timeline::event_models::carry_over;
use crate::timeline::playback::Playback;
use crate::work::{Assembled, LoadedFile, Outcome};
use std::path::Path;

/// Applies `cmd`: follow-ups (a folder opens as a gallery), or a dialog for the
/// front-end.
pub fn apply(mut ctx: DocumentContext<'_>, cmd: DocumentCommand) -> Applied {
    let ctx = &mut ctx;
    let last_folder = ctx.services.settings.last_folder.clone();
    match cmd {
        DocumentCommand::Open(path) => return open(ctx, path).into(),
        DocumentCommand::Load { file, purpose } => {
            crate::loading::load(ctx.services, file, purpose)
        }
        DocumentCommand::Reload => display::reload(ctx),
        DocumentCommand::DismissError => ctx.document.load_error = None,
        DocumentCommand::CancelJob(kind) => ctx.services.work.cancel(kind),
        DocumentCommand::OpenDialog => return Effect::PickModel(last_folder).into(),
        DocumentCommand::OpenFolderDialog | DocumentCommand::PickDataRoot { archive: false }
            if !ctx.services.host.has_folders() =>
        {
            ctx.services.toasts.info(crate::dialogs::NO_FOLDERS)
        }
        DocumentCommand::OpenFolderDialog => return Effect::PickGalleryFolder(last_folder).into(),
        DocumentCommand::PickDataRoot { archive } => {
            let current = ctx.services.settings.data_roots.clone();
            return Effect::PickDataRoot {
                archive,
                start: last_folder,
                current,
            }
            .into();
        }
        DocumentCommand::SetPmfOptions(o) => display::set_pmf_options(ctx, o),
        DocumentCommand::SetTileset(t) => display::set_tileset(ctx, t),
        DocumentCommand::SetPetRotations(r) => display::set_pet_rotations(ctx, r),
        DocumentCommand::SetMapTerrain(t) => display::set_map_terrain(ctx, t),
        DocumentCommand::RunMapSeed(seed) => display::run_map_seed(ctx, seed),
        DocumentCommand::SetDataRoots(roots) => display::set_data_roots(ctx, roots),
        DocumentCommand::ShowEvent(index) => crate::timeline::event_models::show_event(ctx, index),
    }
    Applied::default()
}

/// Starts opening `path` in the background: a model file (on success it replaces the
/// document, on failure the document stays and the error is shown), a design line (an
/// assembly), or a folder or archive (as a gallery, a follow-up).
fn open(ctx: &mut DocumentContext<'_>, path: FileRef) -> Vec<AppCommand> {
    // `template:ID`, `structure:ID`, `parts:…` (Open Recent of an assembly).
    if let Some(design) = assemble::state::design_of(&path) {
        assemble::show(ctx.services, ctx.assemble, design);
        return Vec::new();
    }
    let files = &ctx.services.files;
    // Remember absolute paths: recent files must work from any working directory.
    let path = absolute(files, path);
    // A folder or an archive opens as a gallery of its models.
    let path = match path {
        FileRef::Disk(p) if crate::files::is_archive_path(&p) => files.parse(&p),
        other => other,
    };
    if files.is_dir(&path) {
        return vec![AppCommand::Gallery(GalleryCommand::OpenSource(path))];
    }
    crate::loading::load(ctx.services, path, Purpose::Open);
    Vec::new()
}

/// `path` with its file on disk made absolute by the source that reads it
/// ([`crate::files::Files::full_path`]; an archive entry keeps its inner path). The disk
/// resolves `..` where the file exists (`vitrine ../mods/x.wz` is remembered in Open
/// Recent and the last folder as `/home/me/mods/x.wz`, not `/home/me/vitrine/../mods/…`,
/// so one file is one recent entry however it was reached).
pub fn absolute(files: &crate::files::Files, path: FileRef) -> FileRef {
    path.with_disk_file(&|p: &Path| files.full_path(p))
}

/// Makes `model` (loaded from `path`, with the checks' `findings` on it) the open
/// document, as [`set_document`] does.
pub fn show_loaded(
    ctx: &mut DocumentContext<'_>,
    path: FileRef,
    model: Model,
    findings: Vec<Finding>,
) {
    set_document(ctx, path, model);
    ctx.document.checks = crate::panels::checks::state::ChecksState::with_findings(findings);
}

/// Makes `model` (loaded from `path`) the open document and frames it; no checks have
/// run on it. A new model resets the inspection and the checks. Opening the file that
/// is already open (a reload) keeps the clip, time and event model shown, and the
/// camera if the user moved it.
pub fn set_document(ctx: &mut DocumentContext<'_>, path: FileRef, model: Model) {
    let pose = Pose::rest(&model);
    let playback = Playback::for_model(&model);
    let document = &mut *ctx.document;
    let generation = document.bump_generation();
    let reload = document.open.as_ref().is_some_and(|d| d.path == path);
    let files = &ctx.services.files;
    document.inspect = if reload {
        document.inspect.reloaded(&model, files, generation)
    } else {
        crate::inspect::state::InspectState::for_model(&model, files, generation)
    };
    document.checks = Default::default();
    let previous = document.open.take().filter(|d| d.path == path);
    let keep_camera = previous.is_some() && ctx.view.camera_moved;
    document.open = Some(Document {
        path,
        model,
        pose,
        playback,
        event: None,
        generation,
        render_warnings: Vec::new(),
        pages: Default::default(),
        page_detail: Default::default(),
        framing: Default::default(),
    });
    document.load_error = None;
    if let Some(old) = previous {
        carry_over(ctx, old);
    }
    let team = ctx.services.team();
    if let Some(doc) = &mut ctx.document.open {
        doc.resample(team);
    }
    if !keep_camera {
        ctx.frame();
    }
}

/// Makes a document job's result the document, or shows why not; returns the follow-up
/// commands (the gallery's part of a tile click).
pub fn finish(ctx: &mut DocumentContext<'_>, outcome: Outcome) -> Vec<AppCommand> {
    match outcome {
        Outcome::File(f) => finish_file(ctx, *f),
        Outcome::Assembly(a) => finish_assembly(ctx, *a),
        Outcome::WholePages(generation, pages) => {
            // Unless another document is open by now.
            if let Some(doc) = ctx.document.open.as_mut()
                && doc.generation == generation
            {
                doc.page_detail.arrived(pages);
            }
            Vec::new()
        }
    }
}

fn finish_file(ctx: &mut DocumentContext<'_>, f: LoadedFile) -> Vec<AppCommand> {
    let LoadedFile {
        path,
        purpose,
        result,
        pages,
    } = f;
    match (result, purpose) {
        (Ok((model, findings)), purpose) => {
            let (camera, moved) = (ctx.view.camera, ctx.view.camera_moved);
            if matches!(purpose, Purpose::Open | Purpose::Tile(_)) {
                ctx.services
                    .settings
                    .add_recent(Path::new(&path.to_string()));
                if let Some(dir) = path
                    .disk_file()
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                {
                    ctx.services.settings.last_folder = Some(dir.to_path_buf());
                }
            }
            show_loaded(ctx, path, model, findings);
            if let Some(doc) = &mut ctx.document.open {
                doc.page_detail = crate::page_detail::PageDetail::after(&pages);
                doc.pages = crate::page_detail::DecodedPages::new(pages);
            }
            match purpose {
                Purpose::LiveReload => {
                    ctx.view.camera = camera;
                    ctx.view.camera_moved = moved;
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
        (Err(message), Purpose::LiveReload) => failed(
            ctx,
            LoadFailure {
                path,
                message: format!(
                    "{message}\n(changed on disk; the previous model stays shown, and the \
                     next change is tried again)"
                ),
            },
        ),
        (Err(message), Purpose::Open | Purpose::Reload) => {
            failed(ctx, LoadFailure { path, message })
        }
    }
}

/// Shows `failure` in the load-error banner; the follow-up keeps it in the session's
/// messages.
fn failed(ctx: &mut DocumentContext<'_>, failure: LoadFailure) -> Vec<AppCommand> {
    ctx.document.load_error = Some(failure.clone());
    vec![AppCommand::Messages(MessagesCommand::LoadFailed(failure))]
}

fn finish_assembly(ctx: &mut DocumentContext<'_>, a: Assembled) -> Vec<AppCommand> {
    let path = FileRef::Disk(a.design.to_line().into());
    match a.result {
        Ok((assembly, findings)) => {
            assemble::shown(ctx.assemble, &a.design, &assembly);
            if a.remember {
                // Said once when the design is picked, not at every turret-slider step.
                if let Some(message) = missing_parts(&assembly) {
                    ctx.services.toasts.error(message);
                }
                ctx.services
                    .settings
                    .add_recent(Path::new(&a.design.to_line()));
                ctx.services.settings.assembly = Some(a.design);
            }
            show_loaded(ctx, path, assembly.model, findings);
            Vec::new()
        }
        Err(message) => failed(ctx, LoadFailure { path, message }),
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
