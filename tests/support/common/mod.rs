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

/// The game-as-judge script `../shared/tools/NAME` (`wz_game_load.sh`, `wz_game_map.sh`)
/// when it and the game (`WZ_BIN`, else `/usr/games/warzone2100`) are there; else a
/// message and `None` — a failure instead under `VITRINE_REQUIRE_GAME=1`.
pub fn game_tool(name: &str) -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let script = shared_dir()?.join("tools").join(name);
    let bin =
        std::env::var_os("WZ_BIN").map_or(PathBuf::from("/usr/games/warzone2100"), PathBuf::from);
    if !bin.is_file() || !script.is_file() {
        if std::env::var("VITRINE_REQUIRE_GAME").as_deref() == Ok("1") {
            panic!(
                "VITRINE_REQUIRE_GAME=1 but {} or {} is missing",
                bin.display(),
                script.display()
            );
        }
        eprintln!(
            "SKIPPED: Warzone 2100 is not installed ({} missing); `apt-get install warzone2100 \
             unzip` runs the game-as-judge tests",
            bin.display()
        );
        return None;
    }
    Some(script)
}

/// The installed Warzone 2100 data folder (`base.wz` and `mp.wz`: `$WZ_DATA`, else
/// `/usr/share/games/warzone2100`, where Debian's `warzone2100-data` puts it) when both
/// archives are there; else a message and `None` — a failure instead under
/// `VITRINE_REQUIRE_GAME=1`.
pub fn game_data() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let dir = std::env::var_os("WZ_DATA")
        .map_or(PathBuf::from("/usr/share/games/warzone2100"), PathBuf::from);
    let present = ["base.wz", "mp.wz"].iter().all(|f| dir.join(f).is_file());
    if !present {
        if std::env::var("VITRINE_REQUIRE_GAME").as_deref() == Ok("1") {
            panic!(
                "VITRINE_REQUIRE_GAME=1 but {} has no base.wz and mp.wz",
                dir.display()
            );
        }
        eprintln!(
            "SKIPPED: the Warzone 2100 data is not installed ({} has no base.wz and mp.wz); \
             `apt-get install warzone2100-data` runs the tests that draw maps",
            dir.display()
        );
        return None;
    }
    Some(dir)
}
