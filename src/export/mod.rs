//! Ways out of the model: writers that turn a loaded [`crate::model::Model`] into files
//! other programs read, and the animations modders post. `gltf` is pure (no GPU, no UI):
//! it sits beside the loaders, not inside the renderer; `animation` needs the renderer
//! that draws its frames, so it comes with the `gui` feature.

#[cfg(feature = "gui")]
pub mod animation;
pub mod gltf;
pub mod pie;
