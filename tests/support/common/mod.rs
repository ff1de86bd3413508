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

/// The game-as-judge script `../shared/tools/NAME` (`wz_game_load.sh`,
/// `wz_game_map.sh`). Only for a test marked `#[vitrine_test(shared, game)]`: such a test
/// is reported as ignored where the corpus or the game is absent, and this panics in a
/// test that did not declare both.
pub fn game_tool(name: &str) -> std::path::PathBuf {
    let script = shared_dir().join("tools").join(name);
    let _program = vitrine_test_needs::game_bin();
    assert!(script.is_file(), "{} is missing", script.display());
    script
}

/// The installed Warzone 2100 data folder (`base.wz`, `mp.wz`), for a test marked
/// `#[vitrine_test(game)]` ([`vitrine_test_needs::game_data`]).
#[allow(unused_imports, reason = "each test crate uses some of them")]
pub use vitrine_test_needs::game_data;

/// Hostile map packages built in a test, and the `vitrine` child measured (peak memory,
/// time).
#[cfg(unix)]
pub mod hostile;
