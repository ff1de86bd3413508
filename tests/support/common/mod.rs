//! Helpers shared by the integration tests.
#![allow(dead_code)]

// Where the tests' data is, the same for every package's tests (crates/test-needs).
#[allow(unused_imports, reason = "each test crate uses some of them")]
pub use vitrine_test_needs::{
    Rng, fixtures, manifest, manifest_xyz, shared_dir, shared_path, synthetic, temp_dir, wz2100,
};

// A GPU for a test that declared it, the tests' disk, the one image comparison: the same
// for the renderer's and the app's tests (crates/test-support).
#[allow(unused_imports, reason = "each test crate uses some of them")]
pub use vitrine_test_support::{gpu, image_diff, model_files, needs_gpu, no_gpu};
