//! Sets the cfg `vitrine_no_shared` when `../shared/corpus` is absent, so the core's
//! tests marked `#[vitrine_test(shared)]` are reported as ignored with the reason
//! (`VITRINE_REQUIRE_SHARED=1` makes the absence a build error); see crates/test-needs.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    vitrine_test_needs::shared_cfg();
}
