//! The document's life: opening a file (a model, a design line, a folder or archive as
//! a gallery), loading in the background, reloading, the Open dialogs, the loader
//! settings that reload what is open, and the PIE event model shown. The document's
//! commands ([`DocumentCommand`], defined with its state) are applied here; opening reaches across the app (an assembly, a gallery, the loading
//! jobs), so this owner takes the whole [`AppState`] — the one that does.

use crate::commands::{AppCommand, Applied};

use crate::check::Finding;
use crate::document::Document;
use crate::document::{DocumentCommand, Purpose};
use crate::effect::Effect;
use crate::files::FileRef;
use crate::model::{Model, Pose};
use crate::panels::{assemble, display};
use crate::state::AppState;
use crate::timeline::event_models::carry_over;
use crate::timeline::playback::Playback;
use std::path::Path;

/// Applies `cmd`: follow-ups (a folder opens as a gallery), or a dialog for the
/// front-end.
pub fn apply(state: &mut AppState, cmd: DocumentCommand) -> Applied {
    let last_folder = state.services.settings.last_folder.clone();
    match cmd {
        DocumentCommand::Open(path) => return open(state, path).into(),
        DocumentCommand::Load { file, purpose } => crate::loading::load(state, file, purpose),
        DocumentCommand::Reload => display::reload(state),
        DocumentCommand::DismissError => state.document.load_error = None,
        DocumentCommand::CancelJob(kind) => state.services.work.cancel(kind),
        DocumentCommand::OpenDialog => return Effect::PickModel(last_folder).into(),
        DocumentCommand::OpenFolderDialog | DocumentCommand::PickDataRoot { archive: false }
            if !state.services.host.has_folders() =>
        {
            state.services.toasts.info(crate::dialogs::NO_FOLDERS)
        }
        DocumentCommand::OpenFolderDialog => return Effect::PickGalleryFolder(last_folder).into(),
        DocumentCommand::PickDataRoot { archive } => {
            let current = state.services.settings.data_roots.clone();
            return Effect::PickDataRoot {
                archive,
                start: last_folder,
                current,
            }
            .into();
        }
        DocumentCommand::SetPmfOptions(o) => display::set_pmf_options(state, o),
        DocumentCommand::SetTileset(t) => display::set_tileset(state, t),
        DocumentCommand::SetPetRotations(r) => display::set_pet_rotations(state, r),
        DocumentCommand::SetDataRoots(roots) => display::set_data_roots(state, roots),
        DocumentCommand::ShowEvent(index) => {
            crate::timeline::event_models::show_event(state, index)
        }
    }
    Applied::default()
}

/// Starts opening `path` in the background: a model file (on success it replaces the
/// document, on failure the document stays and the error is shown), a design line (an
/// assembly), or a folder or archive (as a gallery, a follow-up).
fn open(state: &mut AppState, path: FileRef) -> Vec<AppCommand> {
    // `template:ID`, `structure:ID`, `parts:…` (Open Recent of an assembly).
    if let Some(design) = assemble::state::design_of(&path) {
        assemble::show(state, design);
        return Vec::new();
    }
    let files = &state.services.files;
    // Remember absolute paths: recent files must work from any working directory.
    let path = absolute(files, path);
    // A folder or an archive opens as a gallery of its models.
    let path = match path {
        FileRef::Disk(p) if crate::files::is_archive_path(&p) => files.parse(&p),
        other => other,
    };
    if files.is_dir(&path) {
        return vec![AppCommand::Gallery(
            crate::gallery::command::GalleryCommand::OpenSource(path),
        )];
    }
    crate::loading::load(state, path, Purpose::Open);
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

/// Setting the open document: the document owner's, on the whole state (a new model
/// resets the inspection and the checks, and frames the view).
impl AppState {
    /// Makes `model` (loaded from `path`, with the checks' `findings` on it) the open
    /// document, as [`AppState::set_document`] does.
    pub fn show_loaded(&mut self, path: FileRef, model: Model, findings: Vec<Finding>) {
        self.set_document(path, model);
        self.document.checks = crate::panels::checks::state::ChecksState::with_findings(findings);
    }

    /// Makes `model` (loaded from `path`) the open document and frames it; no checks
    /// have run on it. Opening the file that is already open (a reload) keeps the clip,
    /// time and event model shown, and the camera if the user moved it.
    pub fn set_document(&mut self, path: FileRef, model: Model) {
        let pose = Pose::rest(&model);
        let playback = Playback::for_model(&model);
        let document = &mut self.document;
        let generation = document.bump_generation();
        let reload = document.open.as_ref().is_some_and(|d| d.path == path);
        let files = &self.services.files;
        document.inspect = if reload {
            document.inspect.reloaded(&model, files, generation)
        } else {
            crate::inspect::state::InspectState::for_model(&model, files, generation)
        };
        document.checks = Default::default();
        let previous = document.open.take().filter(|d| d.path == path);
        let keep_camera = previous.is_some() && self.view.camera_moved;
        document.open = Some(Document {
            path,
            model,
            pose,
            playback,
            event: None,
            generation,
            render_warnings: Vec::new(),
        });
        document.load_error = None;
        if let Some(old) = previous {
            carry_over(self, old);
        }
        let team = self.services.team();
        if let Some(doc) = &mut self.document.open {
            doc.resample(team);
        }
        if !keep_camera {
            self.frame();
        }
    }
}
