//! Animation export for forum posts: a clip once through (or a range of it), or a
//! turntable (the camera orbiting 360°, optionally while the clip plays), rendered
//! offscreen at any size and written as an animated GIF, APNG, animated WebP or a PNG
//! sequence. The window's Export animation dialog and `vitrine render -o out.gif` both
//! run [`export`].
//!
//! The frames are rendered by the windowless renderer on the calling thread and streamed
//! through a short queue to an encoder thread, so rendering and encoding overlap and
//! memory does not grow with the frame count. Only crop-to-content and the GIF palette
//! need to see frames before encoding starts: a first pass renders them (every frame for
//! the crop box, a few spread over the animation for the palette) and keeps only the box
//! and a bounded sample of pixels.
//!
//! The output goes to a temporary file renamed into place at the end
//! ([`crate::files::atomic::AtomicFile`]): a cancelled or failed export leaves nothing.

pub mod apng;
pub mod crop;
pub mod gif;
mod pipeline;
pub mod sequence;
pub mod timing;
#[cfg(feature = "webp")]
pub mod webp;

pub use pipeline::{
    Encoding, ExportError, Job, Progress, Summary, WEBP_UNAVAILABLE, export, frame_camera,
    frame_view,
};
pub use timing::{FramePlan, MAX_FPS, MAX_FRAMES, MAX_TURNTABLE_SECONDS, Motion};

use serde::{Deserialize, Serialize};
use std::path::Path;

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
    /// desktop; not in the browser).
    pub fn available(self) -> bool {
        self != Format::Webp || cfg!(feature = "webp")
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
