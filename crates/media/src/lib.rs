//! What Vitrine makes from a model, for people rather than for other programs: the
//! animations modders post ([`animation`]: GIF, APNG, animated WebP, PNG frames, drawn by
//! the windowless renderer) and the texture pages a converted PIE makes the game load
//! ([`pie_pack`], for `vitrine convert --pack` and File ▸ Export PIE…'s *Copy the
//! pages*). The core's writers (glTF, OBJ, PIE) are pure and stay in the core; these need
//! the renderer, or write more than the one file a writer returns.
//!
//! No UI, no disk, no threads of its own: what it writes goes through the front-end's
//! [`Output`] (the desktop's disk, the page's downloads, memory in tests), and the one
//! thread the desktop's export runs beside its renderer is lent by the front-end
//! ([`Beside`]); without one the encoder runs between frames. The egui app's `Host`
//! extends [`Output`], so the window, the page and the command line share these.

pub mod animation;
pub mod beside;
pub mod output;
pub mod pie_pack;

pub use beside::Beside;
pub use output::{MemoryOutput, Output, OutputFile};

// The core and the renderer under the names the modules use.
use vitrine_core::{files, model};
use vitrine_render as render;
