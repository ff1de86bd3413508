//! The real `vitrine` binary as a user runs it: `info`, `render`, `export`, `check`, the
//! Warzone assembly options, `install-desktop`, a modder's messy folders and archives, and
//! the window relaunching itself after losing its GPU device (under Xvfb).
//!
//! Run one file's tests with `cargo test --test cli check::`.

#[path = "../support/common/mod.rs"]
mod common;
#[path = "../support/render/mod.rs"]
mod render_support;

mod assemble;
mod check;
mod device_relaunch;
mod export;
mod info;
mod inputs;
mod install_desktop;
mod render;
