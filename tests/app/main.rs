//! The window's app driven through egui_kittest with the real layout and command handling
//! (panels, timeline, gallery, dialogs, help, inspection, Korean text, crash notice), live
//! reload, and the app's handling of GPU faults.
//!
//! Run one file's tests with `cargo test --test app gallery_ui::`.

#[path = "../support/animation/mod.rs"]
mod animation_support;
#[path = "../support/app/mod.rs"]
mod app_support;
#[path = "../support/common/mod.rs"]
mod common;
use vitrine_test_support::render as render_support;

mod assemble_panel;
mod checks_panel;
mod cjk_text_ui;
mod crash_notice_ui;
mod device_faults;
mod display;
mod export_app;
mod export_dialog;
mod export_pie_dialog;
mod fallback_picker;
mod gallery_archives;
mod gallery_ui;
mod help_window;
mod inspect_app;
mod live_reload;
mod loading;
mod messages_window;
mod panels;
mod share_menu;
mod side_panel_ui;
mod side_panel_width;
mod timeline_ui;
mod toasts;
