//! Ways out of the model: pure writers (no GPU, no UI) that turn a loaded
//! [`crate::model::Model`] into files other programs read — glTF 2.0, Wavefront OBJ and Warzone 2100 PIE.
//! The animation export, which needs the renderer that draws its frames, lives in the
//! program (`vitrine::export`).

pub mod gltf;
pub mod obj;
pub mod pie;
