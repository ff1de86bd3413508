//! Ways out of the model: the core's pure writers (`gltf`, `obj`, `pie`), and what
//! vitrine-media makes with the renderer (`animation`) or writes beside a converted PIE
//! (`pie_pack`).

pub use vitrine_core::export::{gltf, obj, pie};
pub use vitrine_media::{animation, pie_pack};
