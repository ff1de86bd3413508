//! The real `vitrine` binary as a user runs it: `info`, `render`, `export`, `check`, the
//! Warzone assembly options, `install-desktop`, and a modder's messy folders and archives.
//! (The window under Xvfb is `tests/window/`.) Also here: the checks that keep the tests'
//! `#[vitrine_test(shared, gpu)]` marks honest (`test_needs`, `shared_data`); the core's
//! own tests live with it, `crates/core/tests/core`.
//!
//! Run one file's tests with `cargo test --test cli check::`.

#[path = "../support/common/mod.rs"]
mod common;
use vitrine_test_support::render as render_support;

mod archive_hardening;
mod assemble;
mod check;
mod check_inputs;
mod check_map;
mod convert;
mod export;
#[cfg(unix)]
mod hostile_objects;
mod hostile_packages;
#[cfg(unix)]
mod hostile_scripts;
mod info;
mod info_synthetic;
mod inputs;
mod install_desktop;
mod map_judge;
mod map_packages;
mod map_refusals;
mod maptools;
mod maptools_preview;
mod parity_gate;
mod publish;
mod publish_maps;
mod render;
mod render_game_view;
mod render_map;
mod render_map_golden;
mod shared_data;
mod start_positions;
mod test_needs;
mod thumbnail;
