//! What the tests of the renderer (crates/render), the app (crates/app) and the program
//! share, so none keeps a copy: a GPU device for a test that declared it ([`gpu`]), the
//! renderer driven as the tests drive it ([`render`]: the rig, views, models built in
//! code), the disk as the tests read it ([`disk`], [`load_path`]), the one image
//! comparison ([`image_diff`]) and, with the feature `app`, the app driven by
//! egui_kittest (`app`). The places of the tests' data and the
//! `#[vitrine_test(shared, gpu)]` attribute are crates/test-needs'.
//!
//! A dev-dependency only: it reads the disk (the library crates' lints ban that in the
//! crates themselves, not in their tests).

#![allow(
    clippy::disallowed_methods,
    reason = "the tests read their fixtures and write their textures on the disk; this crate \
              is only a dev-dependency"
)]

#[cfg(feature = "app")]
pub mod app;
mod disk;
pub mod image_diff;
pub mod parity;
pub mod render;

pub use disk::{disk, load_path, model_files};

/// A headless GPU device, for a test marked `#[vitrine_test(gpu)]`: it panics in any
/// other test (on every machine), and when there is no adapter — such a test is reported
/// as ignored where the build found none, so reaching this without one means the
/// adapter went away since the build, the probe and wgpu disagree, or the test was run
/// with `--ignored`; never a silent pass.
#[track_caller]
pub fn gpu() -> vitrine_render::Gpu {
    needs_gpu();
    vitrine_render::Gpu::headless().unwrap_or_else(|e| panic!("{}", no_adapter(&e.to_string())))
}

/// For a test that reaches a GPU some other way (a `vitrine` child process, the window):
/// panics unless it is marked `#[vitrine_test(gpu)]`.
#[track_caller]
pub fn needs_gpu() {
    vitrine_test_needs::require(vitrine_test_needs::Need::Gpu, "a GPU adapter");
}

/// A `vitrine` run that exited with the no-GPU code (3): a failure, naming the attribute
/// when the test did not declare the GPU.
#[track_caller]
pub fn no_gpu(output: &str) -> ! {
    needs_gpu();
    panic!("{}", no_adapter(&format!("`vitrine` found none: {output}")))
}

/// Why a test that declared `gpu` found no adapter.
fn no_adapter(why: &str) -> String {
    if cfg!(vitrine_no_gpu) {
        format!(
            "no GPU adapter ({why}); this test is ignored without one, run it with --ignored only where there is one"
        )
    } else {
        format!(
            "no GPU adapter ({why}), but the build found one: the driver went away since \
             the build (`touch build.rs` to probe again), or wgpu refuses what the probe \
             accepted (crates/build-probe)"
        )
    }
}
