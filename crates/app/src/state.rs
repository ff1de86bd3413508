//! What the window shows, as plain structs with no window, GPU object or clock in them,
//! split by owner: [`AppState`] holds five groups and nothing else.
//!
//! - [`Services`]: what any part may use (the host, the files, the settings — written a
//!   second after a change and on close, never per frame —, the toasts, the background
//!   work);
//! - [`DocumentState`]: the open model, its load error, its inspection and its checks;
//! - [`View`]: the camera, the view's shape, the colour mode;
//! - [`PanelStates`] and [`DialogStates`]: each panel's and each dialog's own state.
//!
//! This module holds data, what reads across groups ([`AppState::view_settings`]) and
//! hand-offs to the owners ([`AppState::frame`], [`AppState::set_view_aspect`] to the
//! view, [`AppState::set_document`] to the document's life through its
//! [`AppState::document_context`]); what changes a group is its owner's. Panels read it
//! and emit commands; [`super::dispatch::apply`] routes each to its owner, which applies
//! it with its own state and a narrow context of short borrows (a view command sees the
//! view and the open model, a settings command the settings and the toasts, the
//! document's the services, the document, the view and the assembly, an export dialog
//! its own state, the services and the document, the animation's the view too). A part that needs another to act
//! returns follow-up commands. The window (the front-end's shell:
//! `src/desktop/window/shell.rs`, `web/src/shell.rs`) owns the wgpu device and the GPU
//! view, runs the jobs and saves the settings when due.
//! Not yet moved out: the running animation export's worker and the gallery's thumbnail
//! worker and egui textures (in [`super::gallery::Gallery`]).

use super::document::DocumentState;
use super::host::Host;
use super::opening::DocumentContext;
use super::services::Services;
use super::settings::Settings;
use super::view::View;
use crate::check::Finding;
use crate::files::FileRef;
use crate::model::Model;
use crate::render::ViewSettings;
use std::sync::Arc;

/// The state of each dialog while it is open: each changes only its own.
#[derive(Debug, Default)]
pub struct DialogStates {
    /// The "Screenshot…" dialog.
    pub screenshot: Option<super::dialogs::screenshot_dialog::ScreenshotDialog>,
    /// The Export animation dialog.
    pub animation: Option<super::dialogs::export_animation::state::AnimationDialog>,
    /// File ▸ Export PIE…, while open.
    pub pie: Option<super::dialogs::export_pie::state::PieDialog>,
    /// The Help window's page.
    pub help: Option<super::help::state::HelpTab>,
    /// Settings ▸ Published sites…, while open.
    pub published_sites: bool,
    /// The animation export running on its worker thread, if any.
    pub running_export: Option<super::dialogs::export_animation::state::RunningExport>,
}

/// The panels' own state that outlives a frame.
#[derive(Debug, Default)]
pub struct PanelStates {
    /// Warzone 2100 stats and the Assemble panel's assembly.
    pub assemble: super::panels::assemble::state::AssembleState,
    /// The gallery of a folder, an archive or dropped files, while open.
    pub gallery: Option<super::gallery::Gallery>,
    /// The watcher of View ▸ Watch files, kept on what is open by the frame
    /// ([`super::frame`]).
    pub live_reload: super::watching::LiveReload,
    /// The session's messages (View ▸ Messages…).
    pub messages: super::messages::state::MessageLog,
    /// The map panel's object search.
    pub map: super::panels::map::MapPanelState,
}

/// Everything the window shows, by owner (the wgpu device and the eframe window are the
/// shell's).
#[derive(Debug)]
pub struct AppState {
    /// What any part may use: host, files, settings, toasts, background work.
    pub services: Services,
    /// The open model, its load error, inspection and checks.
    pub document: DocumentState,
    /// The camera, the view's shape and colour mode.
    pub view: View,
    /// The panels' own state (Assemble, gallery, live reload, messages).
    pub panels: PanelStates,
    /// The dialogs' own state (Screenshot…, Export animation, Export PIE, Help…).
    pub dialogs: DialogStates,
}

impl AppState {
    /// A state with no document, on `host`.
    pub fn new(settings: Settings, host: Arc<dyn Host>) -> AppState {
        // The stats are read by the first frame's job (`panels::assemble::sync_roots`).
        let mut panels = PanelStates::default();
        // The Build tab carries on from the design last shown (it is not opened).
        panels.assemble.shown.design = settings.assembly.clone();
        AppState {
            services: Services::new(settings, host),
            document: DocumentState::default(),
            view: View::default(),
            panels,
            dialogs: DialogStates::default(),
        }
    }

    /// What the renderer needs for this frame ([`super::view::view_settings`]).
    pub fn view_settings(&self) -> ViewSettings {
        super::view::view_settings(&self.view, &self.document, &self.services.settings)
    }

    /// Frames the open model so it fills the view ([`View::frame`]).
    pub fn frame(&mut self) {
        let team = self.services.team();
        self.view.frame(self.document.open.as_ref(), team);
    }

    /// The document's narrow context: the services, the document, the view and the
    /// Assemble panel's state ([`crate::opening`] applies the document's commands with
    /// it).
    pub fn document_context(&mut self) -> DocumentContext<'_> {
        DocumentContext {
            services: &mut self.services,
            document: &mut self.document,
            view: &mut self.view,
            assemble: &mut self.panels.assemble,
        }
    }

    /// Makes `model` (loaded from `path`) the open document and frames it
    /// ([`crate::opening::set_document`]).
    pub fn set_document(&mut self, path: FileRef, model: Model) {
        crate::opening::set_document(&mut self.document_context(), path, model);
    }

    /// Makes `model` (loaded from `path`, with the checks' `findings` on it) the open
    /// document ([`crate::opening::show_loaded`]).
    pub fn show_loaded(&mut self, path: FileRef, model: Model, findings: Vec<Finding>) {
        crate::opening::show_loaded(&mut self.document_context(), path, model, findings);
    }

    /// Tells the view its width / height ([`View::set_aspect`]).
    pub fn set_view_aspect(&mut self, aspect: f32) {
        let team = self.services.team();
        self.view
            .set_aspect(aspect, self.document.open.as_ref(), team);
    }
}
