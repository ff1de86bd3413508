//! Ways out of the model: the core's pure writers (`gltf`, `obj`, `pie`) and the
//! animation export, which needs the renderer that draws its frames.

pub mod animation;
pub use vitrine_core::export::{gltf, obj, pie};
