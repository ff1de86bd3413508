//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod image_diff;

use std::path::PathBuf;

// Where the tests' data is, the same for every package's tests (crates/test-needs).
#[allow(unused_imports, reason = "each test crate uses some of them")]
pub use vitrine_test_needs::{
    Rng, fixtures, manifest, manifest_xyz, shared_dir, shared_path, synthetic, temp_dir, wz2100,
};

/// Every model file under `dir` (sorted, through the app's one folder walk); panics if the
/// walk reports an error.
pub fn model_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let walk = vitrine::files::walk::walk(&[dir.to_path_buf()], vitrine::formats::is_model_name);
    assert!(walk.errors.is_empty(), "{:?}", walk.errors);
    walk.files
        .into_iter()
        .map(|f| f.as_disk().expect("a loose file").to_path_buf())
        .collect()
}

/// A headless GPU device, for a test marked `#[vitrine_test(gpu)]`: it panics in any
/// other test (on every machine), and when there is no adapter — such a test is reported
/// as ignored where the build found none, so reaching this without one means the
/// adapter went away since the build, the probe and wgpu disagree, or the test was run
/// with `--ignored`; never a silent pass.
#[track_caller]
pub fn gpu() -> vitrine::render::Gpu {
    needs_gpu();
    vitrine::render::Gpu::headless().unwrap_or_else(|e| panic!("{}", no_adapter(&e.to_string())))
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
pub fn no_adapter(why: &str) -> String {
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
