//! Ways out of the model: writers that turn a loaded [`crate::model::Model`] into files
//! other programs read. Pure (no GPU, no UI): they sit beside the loaders, not inside
//! the renderer.

pub mod gltf;
