//! The renderer on a real (software) GPU, without the window: pictures a user would see
//! break (golden images, colour modes, lighting, overlays, shadows, animation, assembled
//! droids, tilesets, texture formats) and the shaders' validation. GPU tests are marked
//! `#[vitrine_test(gpu)]`, those that read the shared corpus `#[vitrine_test(shared)]`:
//! reported as ignored where the build found no adapter or no corpus (build.rs). The
//! models come from the disk through the tests' own [`Files`](vitrine_core::files::Files)
//! (crates/test-support); `vitrine render` through the binary is the program's test
//! (tests/cli/render.rs).
//!
//! Run one file's tests with `cargo test -p vitrine-render --test render overlays::`.

#![allow(
    clippy::disallowed_methods,
    reason = "the tests write textures and read their fixtures and the corpus on the disk \
              (crates/clippy.toml bans it in the crate itself)"
)]

/// Where the tests' data is (crates/test-needs), a GPU for a test that declared it and
/// the image comparison (crates/test-support): the same as the other packages' tests.
mod common {
    pub use vitrine_test_needs::{fixtures, synthetic, wz2100};
    pub use vitrine_test_support::{gpu, image_diff, model_files};
}
mod golden;
use vitrine_test_support::render as render_support;

mod animation;
mod assembly;
mod baked_light;
mod basics;
mod billboard;
mod corpus;
mod display;
mod environment;
mod guides;
mod lighting;
mod overlays;
mod page_detail;
mod pcx_texture;
mod pet_dds;
mod scene_shadows;
mod shader_validation;
mod splat;
mod split;
mod tileset;
mod webgl2;
