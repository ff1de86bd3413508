//! The window driven by egui_kittest with the real layout and command handling and a
//! stand-in for the 3D view (no GPU needed), shared by the window's test files.
#![allow(dead_code)]

use egui_kittest::Harness;
use vitrine::app::commands::{AppCommand, Effect};
use vitrine::app::frame::FrontEnd;
use vitrine::app::state::AppState;
use vitrine::app::viewport::camera_input;

/// A test window as the app's front-end: `view` stands in for the GPU's 3D view, the
/// effects left to the front-end (dialogs, screenshots, animation exports) are kept in
/// `effects` for the test to look at, and time is the test's ([`set_time`],
/// [`set_frame_dt`]): it stands still until the test moves it.
pub struct StandIn<'a> {
    pub view: fn(&mut eframe::egui::Ui, &AppState) -> Vec<AppCommand>,
    pub effects: &'a mut Vec<Effect>,
}

impl FrontEnd for StandIn<'_> {
    fn arrived(&mut self, _ctx: &eframe::egui::Context, _state: &mut AppState) -> Vec<AppCommand> {
        ANSWERS.with(|a| a.take())
    }

    fn dt(&self, _ctx: &eframe::egui::Context) -> f32 {
        FRAME_DT.with(|d| d.get())
    }

    fn now(&self) -> std::time::Instant {
        now()
    }

    fn view(&mut self, ui: &mut eframe::egui::Ui, state: &AppState) -> Vec<AppCommand> {
        (self.view)(ui, state)
    }

    fn perform(
        &mut self,
        effect: Effect,
        _ctx: &eframe::egui::Context,
        _state: &mut AppState,
    ) -> Option<AppCommand> {
        self.effects.push(effect);
        None
    }
}

/// One frame of the app ([`vitrine::app::frame::run`], every step of the real window's
/// frame) with `view` in place of the 3D view; the effects it left to the front-end.
pub fn run_frame(
    ui: &mut eframe::egui::Ui,
    state: &mut AppState,
    view: fn(&mut eframe::egui::Ui, &AppState) -> Vec<AppCommand>,
) -> Vec<Effect> {
    let mut effects = Vec::new();
    let mut window = StandIn {
        view,
        effects: &mut effects,
    };
    vitrine::app::frame::run(ui, state, &mut window);
    effects
}

/// The real view's input handling on a plain area instead of the GPU image; records
/// where the view was laid out ([`view_rect`]).
pub fn stand_in_view(ui: &mut eframe::egui::Ui, _state: &AppState) -> Vec<AppCommand> {
    let rect = ui.available_rect_before_wrap();
    VIEW_RECT.with(|r| r.set(rect));
    let response = ui.allocate_rect(rect, eframe::egui::Sense::click_and_drag());
    camera_input(ui, &response)
}

/// One frame of the window as the real app runs it ([`run_frame`]) with
/// [`stand_in_view`]; the effects a window shell would perform (dialogs, GPU
/// screenshots) are dropped.
pub fn frame(ui: &mut eframe::egui::Ui, state: &mut AppState) {
    run_frame(ui, state, stand_in_view);
}

thread_local! {
    /// The test windows' clock on this thread (set on first use, then only by the test).
    static CLOCK: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
    /// Answers for the test windows on this thread, as a dialog gives them ([`answer`]).
    static ANSWERS: std::cell::Cell<Vec<AppCommand>> = const { std::cell::Cell::new(Vec::new()) };
    /// How many seconds each frame moves playback on (0: it stands still).
    static FRAME_DT: std::cell::Cell<f32> = const { std::cell::Cell::new(0.0) };
    static VIEW_RECT: std::cell::Cell<eframe::egui::Rect> =
        const { std::cell::Cell::new(eframe::egui::Rect::NOTHING) };
}

/// The time of the test windows on this thread: the time of the first frame that asked,
/// until [`set_time`] moves it.
pub fn now() -> std::time::Instant {
    CLOCK.with(|c| {
        let t = c.get().unwrap_or_else(std::time::Instant::now);
        c.set(Some(t));
        t
    })
}

/// Sets the test windows' time on this thread (the settings' save delay reads it).
pub fn set_time(t: std::time::Instant) {
    CLOCK.with(|c| c.set(Some(t)));
}

/// Makes each frame of the test windows on this thread move playback on by `dt` seconds.
pub fn set_frame_dt(dt: f32) {
    FRAME_DT.with(|d| d.set(dt));
}

/// Hands `cmd` to the next frame of a test window on this thread, as a native dialog's
/// answer comes to the window.
pub fn answer(cmd: AppCommand) {
    ANSWERS.with(|a| {
        let mut all = a.take();
        all.push(cmd);
        a.set(all);
    });
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
        // The frame draws again after commands and when a job or the file watcher
        // wakes it, as the window does: more steps than egui_kittest's 4 to settle.
        .with_max_steps(12)
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
