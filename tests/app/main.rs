//! The window's app driven through egui_kittest with the real layout and command handling,
//! where the desktop front-end is part of what is tested: its host (atomic writes into
//! the folders the user chose, the settings file, jobs on threads, the gallery's disk
//! cache, live reload through the file watcher), the system fonts (Korean text, the
//! menus' arrows), the desktop's file picker and crash notice — the side panel, display
//! and export dialogs, loading, the Share menu. The app's own tests, on a host that reads
//! the disk (timeline, gallery, Help, checks, messages, assembly, inspection, GPU faults),
//! are crates/app/tests/app (`cargo test -p vitrine-app`).
//!
//! Run one file's tests with `cargo test --test app panels::`.

#[path = "../support/animation/mod.rs"]
mod animation_support;
#[path = "../support/app/mod.rs"]
mod app_support;
#[path = "../support/common/mod.rs"]
mod common;
use vitrine_test_support::render as render_support;

mod cjk_text_ui;
mod crash_notice_ui;
mod display;
mod export_app;
mod export_dialog;
mod export_pie_dialog;
mod fallback_picker;
mod gallery_archives;
mod gallery_maps;
mod live_reload;
mod loading;
mod panels;
mod share_menu;
mod side_panel_ui;
mod side_panel_width;
