//! Tells the tests whether the project's shared test data and a GPU adapter are there.
//!
//! Many integration tests read `../shared/corpus` (the game's models and the synthetic
//! corpora), which lives beside the checkout and not in it. Without it this script sets
//! the cfg `vitrine_no_shared`; without a GPU adapter (crates/build-probe) the cfg
//! `vitrine_no_gpu`. The tests that need them are marked `#[vitrine_test(shared)]`,
//! `#[vitrine_test(gpu)]` or both (crates/test-needs), so `cargo test` lists them as
//! ignored with the reason and counts them, instead of passing them silently.
//! `VITRINE_SHARED` points elsewhere; `VITRINE_REQUIRE_SHARED=1` and
//! `VITRINE_REQUIRE_GPU=1` (CI) make an absence a build error. The corpus half is
//! `vitrine_test_needs::shared_cfg`, which `crates/core`'s build script calls too.
//! Without Warzone 2100 installed, `vitrine_no_game` (`vitrine_test_needs::game_cfg`;
//! `VITRINE_REQUIRE_GAME=1` makes it a build error).
//! Also names the commit and day of the build for `vitrine --version` (`build_stamp`).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    vitrine_build_probe::gpu_cfg();
    vitrine_test_needs::shared_cfg();
    vitrine_test_needs::game_cfg();
    vitrine_build_probe::build_stamp();
}
