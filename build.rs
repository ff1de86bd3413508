//! Tells the tests whether the project's shared test data and a GPU adapter are there.
//!
//! Many integration tests read `../shared/corpus` (the game's models and the synthetic
//! corpora), which lives beside the checkout and not in it. Without it this script sets
//! the cfg `vitrine_no_shared`; without a GPU adapter (crates/build-probe) the cfg
//! `vitrine_no_gpu`. The tests that need them are marked `#[vitrine_test(shared)]`,
//! `#[vitrine_test(gpu)]` or both (crates/test-needs), so `cargo test` lists them as
//! ignored with the reason and counts them, instead of passing them silently.
//! `VITRINE_SHARED` points elsewhere; `VITRINE_REQUIRE_SHARED=1` and
//! `VITRINE_REQUIRE_GPU=1` (CI) make an absence a build error.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vitrine_no_shared)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=VITRINE_SHARED");
    println!("cargo::rerun-if-env-changed=VITRINE_REQUIRE_SHARED");
    vitrine_build_probe::gpu_cfg();
    let shared = std::env::var_os("VITRINE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default())
                .join("../shared")
        });
    let corpus = shared.join("corpus");
    if corpus.is_dir() {
        // Watched while it exists (cargo compares the files' times), so removing it
        // reruns this script; a missing path is not watched, as cargo would rerun the
        // script, and rebuild the package, on every build.
        println!("cargo::rerun-if-changed={}", corpus.display());
        return;
    }
    if std::env::var("VITRINE_REQUIRE_SHARED").as_deref() == Ok("1") {
        eprintln!(
            "error: VITRINE_REQUIRE_SHARED=1 but {} is not a folder (set VITRINE_SHARED to the \
             shared/ folder, or unset VITRINE_REQUIRE_SHARED to skip the tests that need it)",
            corpus.display()
        );
        std::process::exit(1);
    }
    println!("cargo::rustc-cfg=vitrine_no_shared");
    println!(
        "cargo::warning={} not found: the tests that need it are reported as ignored \
         (after adding it, `touch build.rs` to run them)",
        corpus.display()
    );
}
