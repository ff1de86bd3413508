//! Native file dialogs (rfd) run on their own thread so the window keeps drawing while
//! one is open; the answer comes back through a channel, polled every frame. Only one
//! dialog runs at a time. Without a desktop portal or zenity rfd returns "cancelled" at
//! once (rfd's portal → zenity fallback chain ends in "cancelled"), which is treated like the user cancelling.

use crate::app::commands::AppCommand;
use crate::app::dialogs::MODEL_EXTENSIONS;
use eframe::egui;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// A dialog that may be open.
#[derive(Debug, Default)]
pub struct Dialogs {
    pending: Option<Receiver<Option<AppCommand>>>,
}

impl Dialogs {
    /// Whether a dialog is open.
    pub fn is_open(&self) -> bool {
        self.pending.is_some()
    }

    /// Shows the Open dialog starting in `start`.
    pub fn pick_model(&mut self, ctx: &egui::Context, start: Option<PathBuf>) {
        self.spawn(ctx, move || {
            let mut d = rfd::FileDialog::new()
                .set_title("Open model")
                .add_filter("Models", MODEL_EXTENSIONS)
                .add_filter("Archives (.wz, .zip)", crate::files::ARCHIVE_EXTENSIONS)
                .add_filter("All files", &["*"]);
            if let Some(dir) = start.filter(|d| d.is_dir()) {
                d = d.set_directory(dir);
            }
            d.pick_file()
                .map(|p| AppCommand::Open(crate::files::parse(&p)))
        });
    }

    /// Shows a folder dialog for a folder to open as a gallery.
    pub fn pick_gallery_folder(&mut self, ctx: &egui::Context, start: Option<PathBuf>) {
        self.spawn(ctx, move || {
            let mut d = rfd::FileDialog::new().set_title("Open folder as a gallery");
            if let Some(dir) = start.filter(|d| d.is_dir()) {
                d = d.set_directory(dir);
            }
            d.pick_folder().map(|p| {
                AppCommand::Gallery(crate::app::gallery::GalleryCommand::OpenSource(
                    crate::files::FileRef::Disk(p),
                ))
            })
        });
    }

    /// Shows a folder dialog for the screenshot folder.
    pub fn pick_screenshot_folder(&mut self, ctx: &egui::Context, start: Option<PathBuf>) {
        self.spawn(ctx, move || {
            let mut d = rfd::FileDialog::new().set_title("Screenshot folder");
            if let Some(dir) = start.filter(|d| d.is_dir()) {
                d = d.set_directory(dir);
            }
            d.pick_folder().map(AppCommand::SetScreenshotFolder)
        });
    }

    /// Shows a dialog for a data root to add after `current`: a folder, or an archive
    /// (`.wz`, `.zip`).
    pub fn pick_data_root(
        &mut self,
        ctx: &egui::Context,
        archive: bool,
        start: Option<PathBuf>,
        current: Vec<PathBuf>,
    ) {
        self.spawn(ctx, move || {
            let mut d = rfd::FileDialog::new().set_title(if archive {
                "Add a data archive"
            } else {
                "Add a data folder"
            });
            if let Some(dir) = start.filter(|d| d.is_dir()) {
                d = d.set_directory(dir);
            }
            let picked = if archive {
                d.add_filter("Archives", crate::files::ARCHIVE_EXTENSIONS)
                    .pick_file()
            } else {
                d.pick_folder()
            }?;
            let mut roots = current;
            roots.retain(|r| *r != picked);
            roots.push(picked);
            Some(AppCommand::SetDataRoots(roots))
        });
    }

    /// Shows the save dialog for a glTF export, starting in `start` with `name`.
    pub fn pick_export_path(&mut self, ctx: &egui::Context, start: Option<PathBuf>, name: String) {
        self.spawn(ctx, move || {
            let mut d = rfd::FileDialog::new()
                .set_title("Export glTF")
                .add_filter("glTF binary (.glb)", &["glb"])
                .add_filter("glTF with files beside it (.gltf)", &["gltf"])
                .set_file_name(name);
            if let Some(dir) = start.filter(|d| d.is_dir()) {
                d = d.set_directory(dir);
            }
            d.save_file().map(|mut path| {
                // A name typed without an extension gets the binary one.
                if crate::export::gltf::Container::for_path(&path).is_none() {
                    path.as_mut_os_string().push(".glb");
                }
                AppCommand::ExportGltf(path)
            })
        });
    }

    /// Shows a save dialog for an exported animation, starting at `start`.
    pub fn pick_animation_output(
        &mut self,
        ctx: &egui::Context,
        start: PathBuf,
        format: crate::export::animation::Format,
    ) {
        self.spawn(ctx, move || {
            let mut d = rfd::FileDialog::new()
                .set_title("Export animation")
                .add_filter(format.label(), &[format.extension()]);
            if let Some(dir) = start.parent().filter(|d| d.is_dir()) {
                d = d.set_directory(dir);
            }
            if let Some(name) = start.file_name() {
                d = d.set_file_name(name.to_string_lossy());
            }
            d.save_file().map(|p| {
                AppCommand::Export(
                    crate::app::dialogs::export_animation::ExportCommand::SetOutput(p),
                )
            })
        });
    }

    /// Shows the save dialog for the PIE file, starting at `start`.
    pub fn pick_pie_path(&mut self, ctx: &egui::Context, start: PathBuf) {
        self.spawn(ctx, move || {
            let mut d = rfd::FileDialog::new()
                .set_title("Export PIE")
                .add_filter("Warzone 2100 PIE (.pie)", &["pie"]);
            if let Some(dir) = start.parent().filter(|d| d.is_dir()) {
                d = d.set_directory(dir);
            }
            if let Some(name) = start.file_name() {
                d = d.set_file_name(name.to_string_lossy());
            }
            d.save_file().map(|p| {
                AppCommand::ExportPie(crate::app::dialogs::export_pie::PieCommand::SetOutput(p))
            })
        });
    }

    fn spawn(
        &mut self,
        ctx: &egui::Context,
        dialog: impl FnOnce() -> Option<AppCommand> + Send + 'static,
    ) {
        if self.is_open() {
            return;
        }
        let (tx, rx) = channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("vitrine dialog".into())
            .spawn(move || {
                let _ = tx.send(dialog());
                ctx.request_repaint();
            });
        if spawned.is_ok() {
            self.pending = Some(rx);
        }
    }

    /// The dialog's answer once it has closed (`None` while open, or if cancelled).
    pub fn poll(&mut self) -> Option<AppCommand> {
        let rx = self.pending.as_ref()?;
        match rx.try_recv() {
            Ok(answer) => {
                self.pending = None;
                answer
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.pending = None;
                None
            }
        }
    }
}
