//! What the user asked for ([`AppCommand`], emitted by the panels, the menu, the view and
//! the keyboard) and where it is carried out ([`apply`]).
//!
//! `apply` hands each command to the part of [`AppState`] it concerns; a part that needs
//! another part to act returns follow-up commands, which `apply` carries out in turn,
//! and so do the background jobs that finished ([`poll_jobs`]). What needs the window, a
//! dialog or the GPU comes back as an [`Effect`] for the window code to perform. So the
//! whole command logic runs in tests without a window (jobs run inline there).

use super::panels::display;
use super::state::{AppState, ScreenshotDialog};
use super::timeline::playback::TimelineCommand;
use crate::files::FileRef;
use crate::render::{TEAM_COLOURS, ViewPreset};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// Largest screenshot side, in pixels.
pub const MAX_SCREENSHOT_SIDE: u32 = 4096;

/// A user intent.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    /// Open this model file (drop, recent list, command line, dialog result): a loose
    /// file or an archive entry.
    Open(FileRef),
    /// Show the Open dialog.
    OpenDialog,
    /// Show a folder dialog; the folder opens as a gallery (File ▸ Open Folder…).
    OpenFolderDialog,
    /// A gallery action (open a folder or archive as a grid, step through its models).
    Gallery(super::gallery::GalleryCommand),
    /// Forget the recent files.
    ClearRecent,
    /// Use team colour `n` (index into [`TEAM_COLOURS`]).
    SetTeam(usize),
    /// Background colour of the view, sRGB.
    SetBackground([u8; 3]),
    /// Frame the model (F).
    Frame,
    /// A standard view (1 / 3 / 7 / 0).
    Preset(ViewPreset),
    /// Switch perspective / orthographic (5).
    ToggleOrtho,
    /// Orbit by a drag of this many points.
    Orbit {
        /// Horizontal drag.
        dx: f32,
        /// Vertical drag.
        dy: f32,
    },
    /// Pan by a drag of this many points in a view this many points tall.
    Pan {
        /// Horizontal drag.
        dx: f32,
        /// Vertical drag.
        dy: f32,
        /// Height of the view.
        view_height: f32,
    },
    /// Zoom by wheel notches (positive = closer).
    Zoom(f32),
    /// Save a screenshot into the screenshot folder.
    Screenshot(ScreenshotRequest),
    /// Open the "Screenshot…" dialog.
    ShowScreenshotDialog,
    /// Close the "Screenshot…" dialog.
    CloseScreenshotDialog,
    /// Pick the screenshot folder with a dialog.
    ChooseScreenshotFolder,
    /// Use this folder for screenshots.
    SetScreenshotFolder(PathBuf),
    /// Hide the load-error banner.
    DismissError,
    /// Colour surfaces this way (View ▸ Colour mode).
    SetColourMode(crate::render::ColourMode),
    /// Use these PMF transform rules (reloads an open PMF, keeping the camera).
    SetPmfOptions(crate::formats::pmf::PmfOptions),
    /// Draw PIE models with this tileset's pages (saved; reloads an open PIE).
    SetTileset(crate::formats::pie::Tileset),
    /// Read PET ANIM rotations this way (saved; reloads an open PET).
    SetPetRotations(crate::formats::pet::PetRotations),
    /// Remember that the side panel section `key` is open (`true`) or closed (saved).
    SetSectionOpen(String, bool),
    /// Show a dialog to add a data root (a folder, or an archive).
    PickDataRoot {
        /// An archive (`.wz`, `.zip`) rather than a folder.
        archive: bool,
    },
    /// Replace the data roots (Settings ▸ Data roots: add, remove, reorder); reloads.
    SetDataRoots(Vec<PathBuf>),
    /// Close the window.
    Quit,
    /// Share ▸ Copy link: the page's address, fragment and all ([`super::link`]).
    CopyLink,
    /// Share ▸ Copy web link: the view's address on the published site that holds the
    /// model ([`super::published`]).
    CopyWebLink,
    /// Open (`true`) or close Settings ▸ Published sites….
    ShowPublishedSites(bool),
    /// Replace the published sites (Settings ▸ Published sites: add, edit, remove).
    SetPublishedSites(Vec<super::published::PublishedSite>),
    /// Selection, visibility, overlays, shadows (see [`super::inspect`]).
    Inspect(super::inspect::InspectCommand),
    /// Load the open file again from disk (F5), keeping clip, time and camera.
    Reload,
    /// Reload the open model when its files change on disk (View ▸ Watch files).
    SetWatchFiles(bool),
    /// A timeline action on the open document's animation.
    Timeline(TimelineCommand),
    /// Show this PIE event model in place of the model (`None`: the model itself).
    ShowEvent(Option<usize>),
    /// A Warzone 2100 Assemble panel action.
    Assemble(super::panels::assemble::AssembleCommand),
    /// A Checks panel action (pick a finding).
    Checks(super::panels::checks::ChecksCommand),
    /// File ▸ Export glTF…: ask where to save the open model as glTF.
    ExportGltfDialog,
    /// Export the open model as glTF to this `.glb` / `.gltf` path.
    ExportGltf(PathBuf),
    /// File ▸ Export PIE…: its dialog, check and write.
    ExportPie(super::dialogs::export_pie::PieCommand),
    /// The Export animation dialog, the running export and its toast.
    Export(super::dialogs::export_animation::ExportCommand),
    /// A change to the light (View ▸ Lighting, Ctrl + drag, Ctrl+L).
    Light(super::lighting::LightCommand),
    /// The Help window (Help menu, F1, `?`).
    Help(super::help::HelpCommand),
    /// Load this model file (not a folder or a design) in the background, for this
    /// purpose.
    Load {
        /// The file.
        file: FileRef,
        /// What the result is for.
        purpose: super::loading::Purpose,
    },
    /// Cancel the job running on this lane (the progress line's Cancel).
    CancelJob(super::loading::JobKind),
}

/// A screenshot to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenshotRequest {
    /// Size in pixels; `None` = the size of the view on screen.
    pub size: Option<[u32; 2]>,
    /// No overlays and a transparent background.
    pub clean: bool,
}

/// Work for the window code after [`apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Run the Open dialog (off the UI thread), starting in this folder.
    PickModel(Option<PathBuf>),
    /// Run a folder dialog for a folder to show as a gallery.
    PickGalleryFolder(Option<PathBuf>),
    /// Run a folder dialog for the screenshot folder.
    PickScreenshotFolder(Option<PathBuf>),
    /// Run a folder (or archive) dialog for a data root to add.
    PickDataRoot {
        /// An archive (`.wz`, `.zip`) rather than a folder.
        archive: bool,
        /// Folder the dialog starts in.
        start: Option<PathBuf>,
        /// The data roots now (the picked one is added after them).
        current: Vec<PathBuf>,
    },
    /// Render and save a screenshot.
    Screenshot(ScreenshotRequest),
    /// Run the glTF save dialog, starting in this folder with this file name.
    PickExportPath(Option<PathBuf>, String),
    /// Export the open model to this path on a worker thread, with these options.
    ExportGltf(PathBuf, crate::export::gltf::ExportOptions),
    /// Run the PIE save dialog, starting at this path.
    PickPiePath(PathBuf),
    /// Close the window.
    Quit,
    /// Copy the link to the view (a page's address with its fragment).
    CopyLink,
    /// Put this text on the clipboard.
    CopyText(String),
    /// Start this animation export on a worker thread.
    ExportAnimation(Box<crate::export::animation::Job>),
    /// Run a save dialog for the animation's output, starting at this path.
    PickAnimationOutput(PathBuf, crate::export::animation::Format),
    /// Open this folder in the file manager.
    OpenFolder(PathBuf),
}

/// Carries out `cmd` on `state` and the follow-up commands it leads to, then takes in
/// the background jobs that finished; returns what is left for the window to do. (A
/// follow-up never needs the window: only the command itself yields an effect.)
pub fn apply(state: &mut AppState, cmd: AppCommand) -> Option<Effect> {
    run(state, VecDeque::from([cmd]))
}

/// Takes in the background jobs that finished (the window calls it every frame) and
/// carries out what they lead to.
pub fn poll_jobs(state: &mut AppState) {
    if let Some(effect) = run(state, VecDeque::new()) {
        log::warn!("a finished job asked for {effect:?}; ignored");
    }
}

fn run(state: &mut AppState, mut queue: VecDeque<AppCommand>) -> Option<Effect> {
    let mut effect = None;
    // The data roots' stats, read again when the roots changed.
    super::panels::assemble::sync_roots(state);
    loop {
        while let Some(cmd) = queue.pop_front() {
            let (e, then) = apply_one(state, cmd);
            queue.extend(then);
            match (&effect, e) {
                (None, e) => effect = e,
                (Some(_), Some(e)) => log::warn!("a follow-up asked for {e:?}; ignored"),
                (Some(_), None) => {}
            }
        }
        if let Some(listing) = state.work.gallery.poll() {
            super::gallery::listed(state, listing);
        }
        if let Some(read) = state.work.stats.poll() {
            state.assemble.stats_read(read);
        }
        if let Some(loaded) = state.work.event.poll() {
            super::timeline::event_models::event_loaded(state, loaded);
        }
        if let Some(done) = state.work.pie.poll() {
            super::dialogs::export_pie::finished(state, done);
        }
        match state.work.document.poll() {
            Some(outcome) => queue.extend(super::loading::finish(state, outcome)),
            None => break,
        }
    }
    effect
}

/// One command: its effect and its follow-ups.
fn apply_one(state: &mut AppState, cmd: AppCommand) -> (Option<Effect>, Vec<AppCommand>) {
    let mut then = Vec::new();
    let effect = apply_to_part(state, cmd, &mut then);
    (effect, then)
}

fn apply_to_part(
    state: &mut AppState,
    cmd: AppCommand,
    then: &mut Vec<AppCommand>,
) -> Option<Effect> {
    match cmd {
        AppCommand::Open(path) => {
            then.extend(open(state, path));
            None
        }
        AppCommand::Load { file, purpose } => {
            super::loading::load(state, file, purpose);
            None
        }
        AppCommand::CancelJob(kind) => {
            match kind {
                super::loading::JobKind::Document => state.work.document.cancel(),
                super::loading::JobKind::Gallery => state.work.gallery.cancel(),
                super::loading::JobKind::Stats => state.work.stats.cancel(),
                super::loading::JobKind::Event => state.work.event.cancel(),
            }
            None
        }
        AppCommand::Checks(c) => {
            then.extend(super::panels::checks::apply(state, c));
            None
        }
        AppCommand::Light(c) => {
            super::lighting::apply(state, c);
            None
        }
        AppCommand::Help(c) => {
            super::help::apply(state, c);
            None
        }
        AppCommand::OpenDialog => Some(Effect::PickModel(state.settings.last_folder.clone())),
        AppCommand::OpenFolderDialog if !state.host.has_folders() => {
            state.toasts.info(super::menu::NO_FOLDERS);
            None
        }
        AppCommand::PickDataRoot { archive: false } if !state.host.has_folders() => {
            state.toasts.info(super::menu::NO_FOLDERS);
            None
        }
        AppCommand::OpenFolderDialog => Some(Effect::PickGalleryFolder(
            state.settings.last_folder.clone(),
        )),
        AppCommand::Gallery(c) => {
            then.extend(super::gallery::apply(state, c));
            None
        }
        AppCommand::ClearRecent => {
            state.settings.recent_files.clear();
            None
        }
        AppCommand::SetTeam(team) => {
            if team < TEAM_COLOURS.len() && team != state.settings.team {
                state.settings.team = team;
            }
            None
        }
        AppCommand::SetBackground(rgb) => {
            if rgb != state.settings.background {
                state.settings.background = rgb;
            }
            None
        }
        AppCommand::Frame => {
            state.frame();
            None
        }
        AppCommand::Preset(p) => {
            state.camera.set_preset(p);
            None
        }
        AppCommand::ToggleOrtho => {
            state.camera.orthographic = !state.camera.orthographic;
            None
        }
        AppCommand::Orbit { dx, dy } => {
            state.camera.orbit(dx, dy);
            state.camera_moved = true;
            None
        }
        AppCommand::Pan {
            dx,
            dy,
            view_height,
        } => {
            state.camera.pan(dx, dy, view_height);
            state.camera_moved = true;
            None
        }
        AppCommand::Zoom(steps) => {
            state.camera.zoom(steps);
            state.camera_moved = true;
            None
        }
        AppCommand::Screenshot(req) => {
            if state.document.is_none() {
                state
                    .toasts
                    .error("Nothing to screenshot: no model is open");
                return None;
            }
            let size = req.size.map(|[w, h]| {
                [
                    w.clamp(1, MAX_SCREENSHOT_SIDE),
                    h.clamp(1, MAX_SCREENSHOT_SIDE),
                ]
            });
            state.dialogs.screenshot = None;
            Some(Effect::Screenshot(ScreenshotRequest { size, ..req }))
        }
        AppCommand::ShowScreenshotDialog => {
            let [w, h] = state.settings.window_size;
            state.dialogs.screenshot.get_or_insert(ScreenshotDialog {
                width: (w as u32).clamp(1, MAX_SCREENSHOT_SIDE),
                height: (h as u32).clamp(1, MAX_SCREENSHOT_SIDE),
                clean: false,
            });
            None
        }
        AppCommand::CloseScreenshotDialog => {
            state.dialogs.screenshot = None;
            None
        }
        AppCommand::ChooseScreenshotFolder => Some(Effect::PickScreenshotFolder(
            state.settings.screenshot_folder(&*state.host),
        )),
        AppCommand::SetScreenshotFolder(dir) => {
            state
                .toasts
                .info(format!("Screenshots will be saved in {}", dir.display()));
            state.settings.screenshot_folder = Some(dir);
            None
        }
        AppCommand::DismissError => {
            state.load_error = None;
            None
        }
        AppCommand::Quit => Some(Effect::Quit),
        AppCommand::CopyLink => Some(Effect::CopyLink),
        AppCommand::CopyWebLink => match super::published::web_link(state) {
            Ok(url) => {
                state.toasts.info(format!("Web link copied: {url}"));
                Some(Effect::CopyText(url))
            }
            Err(why) => {
                state.toasts.error(why);
                None
            }
        },
        AppCommand::ShowPublishedSites(open) => {
            state.dialogs.published_sites = open;
            None
        }
        AppCommand::SetPublishedSites(sites) => {
            state.settings.published_sites = sites;
            None
        }
        AppCommand::Inspect(cmd) => {
            super::inspect::apply(state, cmd);
            None
        }
        AppCommand::SetColourMode(m) => {
            display::set_colour_mode(state, m);
            None
        }
        AppCommand::SetPmfOptions(o) => {
            display::set_pmf_options(state, o);
            None
        }
        AppCommand::SetTileset(t) => {
            display::set_tileset(state, t);
            None
        }
        AppCommand::SetPetRotations(r) => {
            display::set_pet_rotations(state, r);
            None
        }
        AppCommand::SetSectionOpen(key, open) => {
            if state.settings.open_sections.get(&key) != Some(&open) {
                state.settings.open_sections.insert(key, open);
            }
            None
        }
        AppCommand::PickDataRoot { archive } => Some(Effect::PickDataRoot {
            archive,
            start: state.settings.last_folder.clone(),
            current: state.settings.data_roots.clone(),
        }),
        AppCommand::SetDataRoots(roots) => {
            display::set_data_roots(state, roots);
            None
        }
        AppCommand::Reload => {
            display::reload(state);
            None
        }
        AppCommand::SetWatchFiles(on) => {
            state.settings.watch_files = on;
            None
        }
        AppCommand::Timeline(cmd) => {
            super::timeline::apply(state, cmd);
            None
        }
        AppCommand::ShowEvent(index) => {
            super::timeline::event_models::show_event(state, index);
            None
        }
        AppCommand::Assemble(cmd) => super::panels::assemble::apply(state, cmd),
        AppCommand::ExportGltfDialog => {
            let Some(doc) = &state.document else {
                state.toasts.error("Nothing to export: no model is open");
                return None;
            };
            // The model's own folder: an export usually goes beside its source.
            let start = doc
                .path
                .parent()
                .and_then(|p| p.as_disk().map(Path::to_path_buf));
            let name = super::dialogs::export_gltf::default_file_name(&doc.stem());
            Some(Effect::PickExportPath(start, name))
        }
        AppCommand::ExportGltf(path) => {
            if state.document.is_none() {
                state.toasts.error("Nothing to export: no model is open");
                return None;
            }
            let options = super::dialogs::export_gltf::window_options(state.settings.team);
            Some(Effect::ExportGltf(path, options))
        }
        AppCommand::Export(cmd) => super::dialogs::export_animation::apply(state, cmd),
        AppCommand::ExportPie(cmd) => super::dialogs::export_pie::apply(state, cmd),
    }
}

/// Starts opening `path` in the background: a model file (on success it replaces the
/// document, on failure the document stays and the error is shown), a design line (an
/// assembly), or a folder or archive (as a gallery, a follow-up).
fn open(state: &mut AppState, path: FileRef) -> Vec<AppCommand> {
    // `template:ID`, `structure:ID`, `parts:…` (Open Recent of an assembly).
    if let Some(design) = super::panels::assemble::design_of(&path) {
        super::panels::assemble::show(state, design);
        return Vec::new();
    }
    // Remember absolute paths: recent files must work from any working directory.
    let path = absolute(&state.files, path);
    // A folder or an archive opens as a gallery of its models.
    let path = match path {
        FileRef::Disk(p) if crate::files::is_archive_path(&p) => state.files.parse(&p),
        other => other,
    };
    if state.files.is_dir(&path) {
        return vec![AppCommand::Gallery(
            super::gallery::GalleryCommand::OpenSource(path),
        )];
    }
    super::loading::load(state, path, super::loading::Purpose::Open);
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

#[cfg(test)]
mod tests;
