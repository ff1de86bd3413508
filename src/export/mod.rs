//! Ways out of the model: writers that turn a loaded [`crate::model::Model`] into files
//! other programs read, and the animations modders post. `gltf` and `obj` are pure (no
//! GPU, no UI) and live in the core (`vitrine_core::export::{gltf, obj}`), beside the
//! loaders, not inside the renderer; `animation` needs the renderer that draws its
//! frames and `pie_pack` writes the pages beside a converted PIE: both are
//! vitrine-media's, with the `cli` feature, written through [`crate::files::DiskOutput`]
//! and encoding on the [`EncoderThread`] the program lends.

#[cfg(feature = "cli")]
mod encoder_thread;
pub mod gltf;
pub mod obj;

#[cfg(feature = "cli")]
pub use encoder_thread::EncoderThread;
pub use vitrine_core::export::pie;
#[cfg(feature = "cli")]
pub use vitrine_media::{animation, pie_pack};
