//! Exports read back: glTF (world-space vertices against `vitrine info`, the Khronos
//! glTF-Validator), glTF and OBJ through Vitrine's own loaders (Blender's files, PIE →
//! glTF / OBJ → model, bad files) and animations (GIF / APNG / WebP decoded by
//! independent decoders and compared with still renders).
//!
//! The export as the browser steps it matches the desktop's (`stepped_export`).
//!
//! Run one file's tests with `cargo test --test export gltf_export::`.

#[path = "../support/animation/mod.rs"]
mod animation_support;
#[path = "../support/common/mod.rs"]
mod common;
#[path = "../support/gltf/mod.rs"]
mod gltf_support;

mod animation_export;
mod gltf_export;
mod gltf_obj_import;
mod gltf_validator;
mod stepped_export;
