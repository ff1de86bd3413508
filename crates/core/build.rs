//! Sets the cfg `vitrine_no_shared` when `../shared/corpus` is absent and `vitrine_no_game`
//! when Warzone 2100 is not installed, so the core's tests marked
//! `#[vitrine_test(shared)]` / `#[vitrine_test(game)]` are reported as ignored with the
//! reason (`VITRINE_REQUIRE_SHARED=1`, `VITRINE_REQUIRE_GAME=1`: a build error); see
//! crates/test-needs.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    vitrine_test_needs::shared_cfg();
    vitrine_test_needs::game_cfg();
}
