//! What is left for the front-end after a command ([`Effect`]): dialogs, screenshots,
//! exports on a worker, the clipboard, quitting. Plain data, named by the parts that
//! ask for it and performed by the front-end's shell.

use std::path::PathBuf;

/// Largest screenshot side, in pixels.
pub const MAX_SCREENSHOT_SIDE: u32 = 4096;

/// A screenshot to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenshotRequest {
    /// Size in pixels; `None` = the size of the view on screen.
    pub size: Option<[u32; 2]>,
    /// No overlays and a transparent background.
    pub clean: bool,
}

/// Work for the front-end after [`crate::dispatch::apply`].
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
