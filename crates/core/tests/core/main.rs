//! The core's own tests, without a GPU, a window or the program: the loaders (hand-written
//! fixtures, the shared corpus, the synthetic corpora against their manifests, mutations),
//! PIE animation, Warzone 2100 assembly, the `check` rules and the committed fuzz inputs.
//! The files they read come from the disk into a `MemorySource` (`common`), as a
//! front-end would give them; the core itself never touches the disk.
//!
//! One test crate per concern (not per file), so the core's tests link once. Run one
//! file's tests with `cargo test -p vitrine-core --test core pie_corpus::`.

#![allow(
    clippy::disallowed_methods,
    reason = "the tests read their fixtures and the corpus from the disk (crates/clippy.toml \
              bans it in the crate itself)"
)]

mod common;

mod check_rules;
mod fuzz_regressions;
mod ktx2;
mod map_check;
mod mapdb_packages;
mod pet_synthetic;
mod pie_animation;
mod pie_corpus;
mod pie_fixtures;
mod pie_robustness;
mod pmf_synthetic;
mod remote_map;
mod tpm_synthetic;
mod wz_assembly;
mod wz_maps;
