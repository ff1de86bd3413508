//! The Export animation dialog's data, apart from its logic: its settings (kept in the
//! settings file), the open dialog, the running export and its commands. The settings,
//! the app's state and the command list name these, not the dialog's logic.

use crate::export::animation::{
    self as export, ExportError, Format, MAX_FPS, MAX_SIDE, Progress, Summary,
};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Receiver;

/// What the dialog exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Source {
    /// The current clip once through.
    #[default]
    Clip,
    /// The range the timeline plays (the selected motion of the clip).
    Range,
    /// The camera orbits 360° about the model.
    Turntable,
}

/// The dialog's settings; persisted in the settings file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnimationOptions {
    /// What to export.
    pub source: Source,
    /// Seconds for one turn of the turntable.
    pub turntable_seconds: f32,
    /// The clip plays while the turntable turns.
    pub turntable_plays_clip: bool,
    /// Use the clip's own frame rate (else [`AnimationOptions::fps`]).
    pub own_fps: bool,
    /// Chosen frame rate (1–50).
    pub fps: f32,
    /// Picture size in pixels.
    pub size: [u32; 2],
    /// Transparent background (else the view's colour).
    pub transparent: bool,
    /// Crop to the content of all frames.
    pub crop: bool,
    /// Margin kept around the content when cropping, pixels.
    pub margin: u32,
    /// Draw the view's overlays (clean by default).
    pub overlays: bool,
    /// Frame the model to fit the picture (else the view's camera exactly).
    pub fit: bool,
    /// Output format.
    pub format: Format,
    /// GIF: dithering.
    pub dither: bool,
    /// GIF: the page colour transparent edges are blended over.
    pub matte: [u8; 3],
    /// Times the animation plays (0 = forever).
    pub loops: u32,
    /// WebP: lossless (else lossy at [`AnimationOptions::webp_quality`]).
    pub webp_lossless: bool,
    /// WebP lossy quality, 0–100.
    pub webp_quality: f32,
    /// Folder of the last export (`None`: the screenshot folder).
    pub folder: Option<PathBuf>,
}

impl Default for AnimationOptions {
    fn default() -> Self {
        AnimationOptions {
            source: Source::Clip,
            turntable_seconds: 4.0,
            turntable_plays_clip: false,
            own_fps: true,
            fps: 25.0,
            size: [512, 512],
            transparent: false,
            crop: false,
            margin: 8,
            overlays: false,
            fit: true,
            format: Format::Gif,
            dither: true,
            matte: [255, 255, 255],
            loops: 0,
            webp_lossless: true,
            webp_quality: 80.0,
            folder: None,
        }
    }
}

impl AnimationOptions {
    /// Brings values from a hand-edited settings file into range.
    pub fn sanitised(mut self) -> AnimationOptions {
        let finite = |v: f32, d: f32| if v.is_finite() { v } else { d };
        self.turntable_seconds =
            finite(self.turntable_seconds, 4.0).clamp(0.5, export::MAX_TURNTABLE_SECONDS);
        self.fps = finite(self.fps, 25.0).clamp(1.0, MAX_FPS);
        self.size = self.size.map(|s| s.clamp(16, MAX_SIDE));
        self.margin = self.margin.min(512);
        self.webp_quality = finite(self.webp_quality, 80.0).clamp(0.0, 100.0);
        self
    }
}

/// The dialog while it is open: its settings and the output path being edited.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationDialog {
    /// The settings.
    pub options: AnimationOptions,
    /// Output file (a PNG sequence: the first frame's name pattern).
    pub output: String,
}

/// An export running (on its worker thread, or stepped by the page; started by
/// [`super::start`] or [`super::start_stepped`], ended by [`super::poll`]).
#[derive(Debug)]
pub struct RunningExport {
    /// Frames done / total, and the Cancel flag.
    pub progress: Arc<Progress>,
    /// Where it writes.
    pub output: PathBuf,
    /// How it ended, once it has.
    pub(super) result: Receiver<Result<Summary, ExportError>>,
}

/// Commands of the dialog and the progress window (the toast's Open folder is an
/// [`crate::effect::Effect`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ExportCommand {
    /// Open the dialog.
    Show,
    /// Close it.
    Close,
    /// Pick the output file with a save dialog.
    Browse,
    /// Use this output file (from the save dialog).
    SetOutput(PathBuf),
    /// Start the export with the dialog's settings.
    Export,
    /// Stop the running export (nothing is written).
    Cancel,
}
