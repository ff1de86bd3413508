//! The renderer on a real (software) GPU, without the window: pictures a user would see
//! break (golden images, colour modes, lighting, overlays, shadows, animation, assembled
//! droids, tilesets, texture formats) and the shaders' validation. GPU tests are marked
//! `#[vitrine_test(gpu)]`: reported as ignored where the build found no adapter.
//!
//! Run one file's tests with `cargo test --test render overlays::`.

#[path = "../support/common/mod.rs"]
mod common;
#[path = "../support/render/mod.rs"]
mod render_support;

mod animation;
mod assembly;
mod basics;
mod billboard;
mod corpus;
mod display;
mod lighting;
mod overlays;
mod pcx_texture;
mod pet_dds;
mod shader_validation;
mod tileset;
mod webgl2;
