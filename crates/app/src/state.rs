//! What the window shows, as plain structs with no window, GPU object or clock in them:
//! the open document and its camera, the settings' owner ([`SettingsStore`]: written a
//! second after a change and on close, never per frame), the gallery, the panels' and
//! each dialog's own state ([`DialogStates`]), and the background work under way
//! ([`super::loading::Work`]: loads, assemblies, listings, with the checks). Panels read
//! it and emit commands; [`super::commands::apply`] routes each to the part it concerns,
//! and a part that needs another to act returns follow-up commands. The window (the
//! front-end's shell: `src/desktop/window/shell.rs`, `web/src/shell.rs`) owns the wgpu
//! device and the GPU view, runs the jobs and saves the settings when due. Not yet moved
//! out: the running animation export's worker and the gallery's thumbnail worker and
//! egui textures (in [`super::gallery::Gallery`]).

use super::host::Host;
use super::settings::{Settings, SettingsStore};
use super::timeline::event_models::{ShownEvent, carry_over};
use super::timeline::playback::Playback;
use super::toasts::Toasts;
use crate::check::Finding;
use crate::files::{FileRef, Files};
use crate::formats::LoadOptions;
use crate::model::{Model, Pose};
use crate::render::{Camera, ColourMode, TEAM_COLOURS, ViewSettings, clip_points};
use std::path::PathBuf;
use std::sync::Arc;

/// An open model file.
#[derive(Debug, Clone)]
pub struct Document {
    /// Where it was loaded from (a file, or an entry of an archive).
    pub path: FileRef,
    /// What the loader made of it.
    pub model: Model,
    /// The pose drawn: [`Pose::sample`] of `model` at the playback's time, every frame.
    pub pose: Pose,
    /// Animation playback (clip, time, play / pause…) of `model`.
    pub playback: Playback,
    /// The PIE event model shown in place of the file's own model, if any.
    pub event: Option<ShownEvent>,
    /// Changes whenever a new model is loaded, so the view knows to upload it again.
    pub generation: u64,
    /// Problems the renderer found uploading it (textures that exist but do not decode).
    pub render_warnings: Vec<String>,
}

impl Document {
    /// The file name, for titles and messages.
    pub fn file_name(&self) -> String {
        self.path.file_name()
    }

    /// The file name without extension (screenshot names).
    pub fn stem(&self) -> String {
        Some(self.path.stem())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "model".into())
    }
}

/// A load that failed: shown in a banner until dismissed or until a load succeeds.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadFailure {
    /// The file that failed.
    pub path: FileRef,
    /// The full [`crate::formats::LoadError`] text.
    pub message: String,
}

/// Settings of the "Screenshot…" dialog while it is open.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScreenshotDialog {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Clean: no overlays and a transparent background.
    pub clean: bool,
}

/// The state of each dialog while it is open: each changes only its own.
#[derive(Debug, Default)]
pub struct DialogStates {
    /// The "Screenshot…" dialog.
    pub screenshot: Option<ScreenshotDialog>,
    /// The Export animation dialog.
    pub animation: Option<super::dialogs::export_animation::AnimationDialog>,
    /// File ▸ Export PIE…, while open.
    pub pie: Option<super::dialogs::export_pie::PieDialog>,
    /// The Help window's page.
    pub help: Option<super::help::HelpTab>,
    /// Settings ▸ Published sites…, while open.
    pub published_sites: bool,
}

/// Everything the window shows, and the workers and thumbnail textures behind it (the
/// wgpu device and the eframe window are the shell's).
#[derive(Debug)]
pub struct AppState {
    /// The front-end: where files come from and what is made goes.
    pub host: Arc<dyn Host>,
    /// What every read of the app goes through (the host's).
    pub files: Files,
    /// The open model, if any.
    pub document: Option<Document>,
    /// The last failed load, if not dismissed.
    pub load_error: Option<LoadFailure>,
    /// Persisted settings (team colour, background, recent files…) and their saving.
    pub settings: SettingsStore,
    /// The camera of the 3D view.
    pub camera: Camera,
    /// Width / height of the 3D view (kept up to date by the window), for framing.
    pub view_aspect: f32,
    /// The user moved the camera (orbit, pan, zoom) since the model was framed; until
    /// then a resized view frames the model again.
    pub camera_moved: bool,
    /// Short messages in the corner.
    pub toasts: Toasts,
    /// The dialogs' own state (Screenshot…, Export animation, Help).
    pub dialogs: DialogStates,
    /// Selection, hidden nodes, isolate (per document).
    pub inspect: super::inspect::InspectState,
    /// How the view colours surfaces (View ▸ Colour mode).
    pub colour_mode: ColourMode,
    /// Warzone 2100 stats and the Assemble panel's assembly.
    pub assemble: super::panels::assemble::AssembleState,
    /// `vitrine check` findings on the open file (the Checks panel).
    pub checks: super::panels::checks::ChecksState,
    /// A Warzone 2100 installation found on this machine (`mp` over `base`), offered in
    /// Settings ▸ Data roots.
    pub detected_warzone: Option<Vec<PathBuf>>,
    /// The animation export running on its worker thread, if any.
    pub animation_export: Option<super::dialogs::export_animation::RunningExport>,
    /// The gallery of a folder, an archive or dropped files, while open.
    pub gallery: Option<super::gallery::Gallery>,
    /// Loads, assemblies and listings running in the background.
    pub work: super::loading::Work,
    /// The watcher of View ▸ Watch files, kept on what is open by the frame
    /// ([`super::frame`]).
    pub live_reload: super::watching::LiveReload,
    /// Only the view and the timeline: no menu bar, no side panel (a page in an
    /// `<iframe>`, [`super::link`]).
    pub embedded: bool,
    /// Counter behind [`Document::generation`].
    next_generation: u64,
}

impl AppState {
    /// A state with no document, on `host`.
    pub fn new(settings: Settings, host: Arc<dyn Host>) -> AppState {
        // The stats are read by the first frame's job (`panels::assemble::sync_roots`).
        let mut assemble = super::panels::assemble::AssembleState::default();
        // The Build tab carries on from the design last shown (it is not opened).
        assemble.shown.design = settings.assembly.clone();
        let files = host.files();
        let mut work = super::loading::Work::default();
        // Reading jobs wait for what the host fetches (the page's remote archives).
        if let Some(refetch) = host.refetch() {
            work.set_refetch(refetch);
        }
        AppState {
            files,
            detected_warzone: host.detected_warzone(),
            settings: SettingsStore::new(settings, host.clone()),
            host,
            assemble,
            document: None,
            load_error: None,
            camera: Camera::default(),
            view_aspect: 1.0,
            camera_moved: false,
            toasts: Toasts::default(),
            dialogs: DialogStates::default(),
            animation_export: None,
            colour_mode: ColourMode::default(),
            checks: Default::default(),
            inspect: Default::default(),
            gallery: None,
            work,
            live_reload: Default::default(),
            embedded: false,
            next_generation: 1,
        }
    }

    /// The loader options (data roots, PMF rules, tileset, PET rotations): the
    /// settings' own.
    pub fn load_options(&self) -> LoadOptions {
        self.settings.load_options(&self.files)
    }

    /// What the renderer needs for this frame.
    pub fn view_settings(&self) -> ViewSettings {
        let [r, g, b] = self.settings.background;
        ViewSettings {
            camera: self.camera,
            team: self.settings.team.min(TEAM_COLOURS.len() - 1),
            background: [r, g, b, 255],
            overlays: self.settings.overlays,
            shadows: self.settings.shadows,
            lighting: self.settings.lighting,
            selected: self.inspect_current().and(self.inspect.selected),
            node_mask: self
                .inspect_current()
                .map(|d| self.inspect.node_mask(&d.model))
                .unwrap_or_default(),
            grid_unit: self.document.as_ref().and_then(|d| d.model.grid_unit),
            colour_mode: self.colour_mode,
            highlight: self
                .inspect_current()
                .map(|d| self.checks.highlight(&d.model))
                .unwrap_or_default(),
        }
    }

    /// Makes `model` (loaded from `path`, with the checks' `findings` on it) the open
    /// document, as [`AppState::set_document`] does.
    pub fn show_loaded(&mut self, path: FileRef, model: Model, findings: Vec<Finding>) {
        self.set_document(path, model);
        self.checks = super::panels::checks::ChecksState::with_findings(findings);
    }

    /// Makes `model` (loaded from `path`) the open document and frames it; no checks
    /// have run on it. Opening the file that is already open (a reload) keeps the clip,
    /// time and event model shown, and the camera if the user moved it.
    pub fn set_document(&mut self, path: FileRef, model: Model) {
        let pose = Pose::rest(&model);
        let playback = Playback::for_model(&model);
        let generation = self.bump_generation();
        let reload = self.document.as_ref().is_some_and(|d| d.path == path);
        self.inspect = if reload {
            self.inspect.reloaded(&model, &self.files, generation)
        } else {
            super::inspect::InspectState::for_model(&model, &self.files, generation)
        };
        self.checks = Default::default();
        let previous = self.document.take().filter(|d| d.path == path);
        let keep_camera = previous.is_some() && self.camera_moved;
        self.document = Some(Document {
            path,
            model,
            pose,
            playback,
            event: None,
            generation,
            render_warnings: Vec::new(),
        });
        self.load_error = None;
        if let Some(old) = previous {
            carry_over(self, old);
        }
        let team = self.view_settings().team;
        if let Some(doc) = &mut self.document {
            doc.resample(team);
        }
        if !keep_camera {
            self.frame();
        }
    }

    /// What the renderer found uploading document generation `generation` (texture
    /// pages that do not decode or did not fit in GPU memory): listed under the side
    /// panel's Warnings while that model is open.
    pub fn set_render_warnings(&mut self, generation: u64, warnings: &[String]) {
        if let Some(doc) = &mut self.document
            && doc.generation == generation
            && doc.render_warnings != warnings
        {
            doc.render_warnings = warnings.to_vec();
        }
    }

    /// The document, if the inspection state (selection, hidden nodes) belongs to the
    /// model it shows now.
    pub fn inspect_current(&self) -> Option<&Document> {
        self.document
            .as_ref()
            .filter(|d| d.generation == self.inspect.generation)
    }

    /// A new [`Document::generation`] number.
    pub fn bump_generation(&mut self) -> u64 {
        let g = self.next_generation;
        self.next_generation += 1;
        g
    }

    /// Frames the whole visible model so it fills the view (keeps the view direction
    /// and projection).
    pub fn frame(&mut self) {
        if let Some(doc) = &self.document {
            // The whole of the current clip, so the model stays in view while it plays.
            let team = self.settings.team.min(TEAM_COLOURS.len() - 1);
            let points = clip_points(&doc.model, doc.playback.clip, team);
            self.camera.frame_points(&points, self.view_aspect);
        }
        self.camera_moved = false;
    }

    /// Tells the state the view's width / height; re-frames if the user has not moved
    /// the camera since the model was framed.
    pub fn set_view_aspect(&mut self, aspect: f32) {
        if aspect.is_finite() && aspect > 0.0 && (aspect - self.view_aspect).abs() > 1e-4 {
            self.view_aspect = aspect;
            if !self.camera_moved {
                self.frame();
            }
        }
    }
}

/// Loads a model file for the viewer from `files`: the loader's
/// [`crate::formats::LoadError`] text on failure. A panicking loader (a bug) is reported
/// the same way instead of closing the window and losing the model that is open.
pub fn load_model(files: &Files, path: &FileRef, options: &LoadOptions) -> Result<Model, String> {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        vitrine_core::formats::load(files, path, options)
    }));
    match result {
        Ok(Ok(model)) => Ok(model),
        Ok(Err(e)) => Err(e.to_string()),
        Err(panic) => {
            let what = vitrine_core::crash::payload_text(&*panic)
                .unwrap_or_else(|| "unknown panic".into());
            Err(format!(
                "{}: internal error: the loader crashed ({what}); please report this file",
                path.file_name()
            ))
        }
    }
}
