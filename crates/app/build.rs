//! Sets the cfg `vitrine_no_gpu` when the build finds no GPU adapter (crates/build-probe)
//! and `vitrine_no_shared` when the shared corpus is absent (crates/test-needs), so the
//! tests marked `#[vitrine_test(gpu)]` / `#[vitrine_test(shared)]` are reported as ignored
//! with the reason (`VITRINE_REQUIRE_GPU=1`, `VITRINE_REQUIRE_SHARED=1`: a build error).
//! Also names the commit and day of the build for Help ▸ About (`build_stamp`).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    vitrine_build_probe::gpu_cfg();
    vitrine_test_needs::shared_cfg();
    vitrine_build_probe::build_stamp();
}
