//! The real `vitrine` binary as a user runs it: `info`, `render`, `export`, `check`, the
//! Warzone assembly options, `install-desktop`, and a modder's messy folders and archives.
//! (The window under Xvfb is `tests/window/`.)
//!
//! Run one file's tests with `cargo test --test cli check::`.

#[path = "../support/common/mod.rs"]
mod common;
#[path = "../support/render/mod.rs"]
mod render_support;

mod archive_hardening;
mod assemble;
mod check;
mod convert;
mod export;
mod info;
mod inputs;
mod install_desktop;
mod publish;
mod render;
