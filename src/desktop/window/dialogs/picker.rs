//! Vitrine's own file picker, drawn in the window (the `egui_file` crate) where the
//! system has no file dialog ([`super::backend::Backend::Fallback`]): the same title,
//! starting folder and suggested name as the system dialog would have, listing the
//! files its filters accept (every filter but "All files" at once: the picker has no
//! filter menu), with folders always shown.
//!
//! It only reads folders: its "New folder" and "Rename" buttons are turned off, since
//! nothing may be written or moved but the output a user chose.

use super::request::{Kind, Request};
use crate::app::commands::AppCommand;
use eframe::egui;

/// An open picker for one [`Request`].
pub struct Picker {
    dialog: egui_file::FileDialog,
    request: Option<Request>,
}

impl std::fmt::Debug for Picker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Picker")
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

/// What became of a picker this frame.
#[derive(Debug)]
pub enum Outcome {
    /// Still open.
    Open,
    /// Closed: the command the picked path asks for, or `None` (cancelled).
    Closed(Option<AppCommand>),
}

impl Picker {
    /// Opens a picker for `request`.
    pub fn open(request: Request) -> Picker {
        let mut dialog = match request.kind {
            Kind::OpenFile => egui_file::FileDialog::open_file(),
            Kind::Folder => egui_file::FileDialog::select_folder(),
            Kind::Save => egui_file::FileDialog::save_file(),
        }
        .title(request.title)
        .default_size(egui::vec2(640.0, 460.0))
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show_new_folder(false)
        .show_rename(false)
        .keep_on_top(true);
        let filters: Vec<_> = request
            .filters
            .iter()
            .filter(|f| !f.is_any())
            .cloned()
            .collect();
        if !filters.is_empty() {
            dialog = dialog.show_files_filter(Box::new(move |path: &std::path::Path| {
                filters.iter().any(|f| f.accepts(path))
            }));
        }
        if let Some(start) = request.start.clone().or_else(home) {
            dialog = dialog.initial_path(start);
        }
        if let Some(name) = &request.file_name {
            dialog = dialog.default_filename(name.clone());
        }
        dialog.open();
        Picker {
            dialog,
            request: Some(request),
        }
    }

    /// Draws the picker; says whether it is still open and, once closed, what to do.
    pub fn ui(&mut self, ctx: &egui::Context) -> Outcome {
        self.dialog.show(ctx);
        match self.dialog.state() {
            egui_file::State::Open => Outcome::Open,
            egui_file::State::Selected => {
                let path = self.dialog.path().map(|p| p.to_path_buf());
                let request = self.request.take();
                Outcome::Closed(path.zip(request).and_then(|(p, r)| r.answer(p)))
            }
            egui_file::State::Cancelled | egui_file::State::Closed => Outcome::Closed(None),
        }
    }
}

/// The user's home folder: where the picker starts when nothing better is known (the
/// system dialogs start there too; `egui_file` would start in the working folder).
fn home() -> Option<std::path::PathBuf> {
    directories::UserDirs::new().map(|u| u.home_dir().to_path_buf())
}
