//! Ways out of the model: pure writers (no GPU, no UI) that turn a loaded
//! [`crate::model::Model`] into files other programs read. The animation export, which
//! needs the renderer that draws its frames, lives in the program (`vitrine::export`).

pub mod gltf;
