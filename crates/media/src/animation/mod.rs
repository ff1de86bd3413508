//! Animation export for forum posts: a clip once through (or a range of it), or a
//! turntable (the camera orbiting 360°, optionally while the clip plays), rendered
//! offscreen at any size and written as an animated GIF, APNG, animated WebP or a PNG
//! sequence. The window's Export animation dialog and `vitrine render -o out.gif` both
//! run [`export`]; the browser page runs the same passes and encoders a slice at a time
//! ([`SteppedExport`]).
//!
//! On the desktop the frames are rendered by the windowless renderer on the calling
//! thread and streamed through a short queue to an encoder on the thread the front-end
//! lends ([`crate::Beside`]), so rendering and encoding overlap and memory does not grow
//! with the frame count; without one the encoder runs between frames. Only
//! crop-to-content and the GIF palette need to see frames before encoding starts: a first
//! pass renders them ([`frames`]). The encoders take one frame at a time
//! ([`encoder::Encoder`]).
//!
//! The output goes through the front-end's [`crate::Output`]: on the desktop a temporary
//! file renamed into place at the end, in the browser a download offered at the end; a
//! cancelled or failed export leaves nothing.

pub mod apng;
pub mod crop;
pub mod encoder;
pub mod frames;
pub mod gif;
mod pipeline;
pub mod sequence;
mod stepped;
pub mod timing;
#[cfg(feature = "webp")]
pub mod webp;

pub use gif::GifOptions;
pub use pipeline::{
    Encoding, ExportError, Job, Progress, Summary, WEBP_UNAVAILABLE, export, frame_camera,
    frame_view,
};
pub use stepped::SteppedExport;
pub use timing::{FramePlan, MAX_FPS, MAX_FRAMES, MAX_TURNTABLE_SECONDS, Motion};

use serde::{Deserialize, Serialize};
use std::path::Path;

/// Why the browser does not write PNG sequences.
pub const PNG_SEQUENCE_UNAVAILABLE: &str = "A PNG sequence is not available in the browser (each of its \
     files would be a download of its own); choose GIF or APNG";

/// Largest exported side, pixels.
pub const MAX_SIDE: u32 = 2048;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Format {
    /// Animated GIF (256 colours, 1-bit transparency).
    #[default]
    Gif,
    /// Animated PNG (full colour and alpha).
    Apng,
    /// Animated WebP (lossless or lossy, full alpha).
    Webp,
    /// One PNG per frame.
    PngSequence,
}

impl Format {
    /// Every format, in the order the dialog lists them.
    pub const ALL: [Format; 4] = [Format::Gif, Format::Apng, Format::Webp, Format::PngSequence];

    /// The format a file name asks for: `.gif`, `.apng`, `.webp`, or `.png` for a PNG
    /// sequence.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
        match ext.as_str() {
            "gif" => Some(Format::Gif),
            "apng" => Some(Format::Apng),
            "webp" => Some(Format::Webp),
            "png" => Some(Format::PngSequence),
            _ => None,
        }
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Gif => "gif",
            Format::Apng => "apng",
            Format::Webp => "webp",
            Format::PngSequence => "png",
        }
    }

    /// Whether this build can write it: WebP needs libwebp (the `webp` feature, on the
    /// desktop; not in the browser), a PNG sequence a folder to write its files to (not in
    /// the browser, where every file would be a download of its own).
    pub fn available(self) -> bool {
        self.unavailable().is_none()
    }

    /// Why this build cannot write it, if it cannot.
    pub fn unavailable(self) -> Option<&'static str> {
        match self {
            Format::Webp if !cfg!(feature = "webp") => Some(WEBP_UNAVAILABLE),
            Format::PngSequence if cfg!(target_arch = "wasm32") => Some(PNG_SEQUENCE_UNAVAILABLE),
            _ => None,
        }
    }

    /// Name in the dialog.
    pub fn label(self) -> &'static str {
        match self {
            Format::Gif => "GIF",
            Format::Apng => "APNG",
            Format::Webp => "WebP",
            Format::PngSequence => "PNG sequence",
        }
    }
}
