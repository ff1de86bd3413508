//! Sets the cfg `vitrine_no_gpu` when the build finds no GPU adapter, so [`gpu`]'s
//! message says whether the build found one (see crates/build-probe).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    vitrine_build_probe::gpu_cfg();
}
