//! The app driven by egui_kittest (crates/test-support's `app`), as the desktop runs it:
//! on the desktop's host, with the system fonts as fallbacks as the real window has them.
#![allow(dead_code)]

pub use vitrine_test_needs::temp_dir;
#[allow(unused_imports, reason = "each test file uses some of them")]
pub use vitrine_test_support::app::*;

use egui_kittest::Harness;
use vitrine::app::state::AppState;

/// A 1100 points wide window of the given height on `state` (see
/// `vitrine_test_support::app::harness`), with the desktop's fonts.
pub fn harness(state: AppState, height: f32) -> Harness<'static, AppState> {
    let h = vitrine_test_support::app::harness(state, height);
    vitrine::desktop::window::fonts::install(&h.ctx);
    h
}

/// [`harness`] on a new app with default settings that are not saved (no settings file),
/// on the desktop's host.
pub fn fresh_harness(height: f32) -> Harness<'static, AppState> {
    harness(
        AppState::new(
            vitrine::app::settings::Settings::default(),
            vitrine::desktop::window::DesktopHost::new(None),
        ),
        height,
    )
}
