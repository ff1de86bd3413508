//! The pure core without a GPU or a window: the loaders (hand-written fixtures, the shared
//! corpus, the synthetic corpora against their manifests, mutations), PIE animation,
//! Warzone 2100 assembly, the `check` rules and the committed fuzz inputs.
//!
//! One test crate per concern (not per file), so CI links the program a handful of times
//! instead of once per file. Run one file's tests with `cargo test --test core pie_corpus::`.

#[path = "../support/common/mod.rs"]
mod common;

mod check_rules;
mod fuzz_regressions;
mod pet_synthetic;
mod pie_animation;
mod pie_corpus;
mod pie_fixtures;
mod pie_robustness;
mod pmf_synthetic;
mod shared_data;
mod test_needs;
mod tpm_synthetic;
mod wz_assembly;
