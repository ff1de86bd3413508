//! Sets the cfg `vitrine_no_gpu` when the build finds no GPU adapter, so the unit tests
//! marked `#[vitrine_test(gpu)]` are reported as ignored (see crates/build-probe).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    vitrine_build_probe::gpu_cfg();
}
