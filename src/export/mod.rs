//! Ways out of the model: writers that turn a loaded [`crate::model::Model`] into files
//! other programs read, and the animations modders post. `gltf` and `obj` are pure (no
//! GPU, no UI) and live in the core (`vitrine_core::export::{gltf, obj}`), beside the
//! loaders, not inside the renderer; `animation` needs the renderer that draws its
//! frames, so it comes with the `gui` feature.

#[cfg(feature = "gui")]
pub use vitrine_app::export::animation;
pub mod gltf;
pub mod obj;
pub use vitrine_core::export::pie;
