//! The window driven by egui_kittest with the real layout and command handling and a
//! stand-in for the 3D view (no GPU needed), shared by the window's test files.
#![allow(dead_code)]

use egui_kittest::Harness;
use vitrine::app::commands::{Effect, apply};
use vitrine::app::layout::window_ui;
use vitrine::app::state::AppState;
use vitrine::app::viewport::camera_input;

/// One frame of the window as the real app runs it: take in the background jobs that
/// finished, lay out, then apply the commands.
pub fn frame(ui: &mut eframe::egui::Ui, state: &mut AppState) {
    vitrine::app::commands::poll_jobs(state);
    let commands = window_ui(ui, state, |ui, _| {
        // The real view's input handling on a plain area instead of the GPU image.
        let rect = ui.available_rect_before_wrap();
        VIEW_RECT.with(|r| r.set(rect));
        let response = ui.allocate_rect(rect, eframe::egui::Sense::click_and_drag());
        camera_input(ui, &response)
    });
    for cmd in commands {
        // Effects (dialogs, GPU screenshots) are the window shell's business; the
        // clipboard is egui's, as the shell gives it.
        if let Some(Effect::CopyText(text)) = apply(state, cmd) {
            ui.ctx().copy_text(text);
        }
    }
}

thread_local! {
    static VIEW_RECT: std::cell::Cell<eframe::egui::Rect> =
        const { std::cell::Cell::new(eframe::egui::Rect::NOTHING) };
}

/// Where the 3D view was laid out in the last frame run on this thread (its left edge is
/// the side panel's width).
pub fn view_rect() -> eframe::egui::Rect {
    VIEW_RECT.with(|r| r.get())
}

/// A 1100 points wide window of the given height on `state`, with the system fonts as
/// fallbacks as the real window has them.
pub fn harness(state: AppState, height: f32) -> Harness<'static, AppState> {
    let h = Harness::builder()
        .with_size(eframe::egui::vec2(1100.0, height))
        .build_ui_state(frame, state);
    vitrine::desktop::window::fonts::install(&h.ctx);
    h
}

/// [`harness`] on a new app with default settings that are not saved (no settings file).
pub fn fresh_harness(height: f32) -> Harness<'static, AppState> {
    harness(
        AppState::new(
            vitrine::app::settings::Settings::default(),
            vitrine::desktop::window::DesktopHost::new(None),
        ),
        height,
    )
}

/// A fresh private folder under the system temp dir (`tag` names the test), removed when
/// dropped (also when the test fails).
pub fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("vitrine-app-{tag}-"))
        .tempdir()
        .expect("a temporary folder")
}
