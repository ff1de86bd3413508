//! The app driven by egui_kittest with the real layout and command handling and a
//! stand-in for the 3D view (no GPU needed): the app's own tests (crates/app, on a
//! [`DiskHost`]) and the program's (tests/app, on the desktop's host and fonts) alike.

use egui_kittest::Harness;
use std::io;
use std::path::Path;
use std::sync::Arc;
use vitrine_app::commands::{AppCommand, Effect};
use vitrine_app::frame::FrontEnd;
use vitrine_app::host::{Host, Job, JobRunner, MemoryHost, Output, OutputFile};
use vitrine_app::state::AppState;
use vitrine_app::viewport::camera_input;
use vitrine_core::files::{Files, MemorySource};

/// A test window as the app's front-end: `view` stands in for the GPU's 3D view, the
/// effects left to the front-end (dialogs, screenshots, animation exports) are kept in
/// `effects` for the test to look at, and time is the test's ([`set_time`],
/// [`set_frame_dt`]): it stands still until the test moves it.
pub struct StandIn<'a> {
    /// What the 3D view's place shows and the commands it gives.
    pub view: fn(&mut egui::Ui, &AppState) -> Vec<AppCommand>,
    /// The effects left to the front-end, in order.
    pub effects: &'a mut Vec<Effect>,
}

impl FrontEnd for StandIn<'_> {
    fn arrived(&mut self, _ctx: &egui::Context, _state: &mut AppState) -> Vec<AppCommand> {
        ANSWERS.with(|a| a.take())
    }

    fn dt(&self, _ctx: &egui::Context) -> f32 {
        FRAME_DT.with(|d| d.get())
    }

    fn now(&self) -> std::time::Instant {
        now()
    }

    fn view(&mut self, ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
        (self.view)(ui, state)
    }

    fn perform(
        &mut self,
        effect: Effect,
        _ctx: &egui::Context,
        _state: &mut AppState,
    ) -> Option<AppCommand> {
        self.effects.push(effect);
        None
    }
}

/// One frame of the app ([`vitrine_app::frame::run`], every step of the real window's
/// frame) with `view` in place of the 3D view; the effects it left to the front-end.
pub fn run_frame(
    ui: &mut egui::Ui,
    state: &mut AppState,
    view: fn(&mut egui::Ui, &AppState) -> Vec<AppCommand>,
) -> Vec<Effect> {
    let mut effects = Vec::new();
    let mut window = StandIn {
        view,
        effects: &mut effects,
    };
    vitrine_app::frame::run(ui, state, &mut window);
    effects
}

/// The real view's input handling on a plain area instead of the GPU image; records
/// where the view was laid out ([`view_rect`]).
pub fn stand_in_view(ui: &mut egui::Ui, _state: &AppState) -> Vec<AppCommand> {
    let rect = ui.available_rect_before_wrap();
    VIEW_RECT.with(|r| r.set(rect));
    let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
    camera_input(ui, &response)
}

/// One frame of the window as the real app runs it ([`run_frame`]) with
/// [`stand_in_view`]; the effects a window shell would perform (dialogs, GPU
/// screenshots) are dropped.
pub fn frame(ui: &mut egui::Ui, state: &mut AppState) {
    run_frame(ui, state, stand_in_view);
}

thread_local! {
    /// The test windows' clock on this thread (set on first use, then only by the test).
    static CLOCK: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
    /// Answers for the test windows on this thread, as a dialog gives them ([`answer`]).
    static ANSWERS: std::cell::Cell<Vec<AppCommand>> = const { std::cell::Cell::new(Vec::new()) };
    /// How many seconds each frame moves playback on (0: it stands still).
    static FRAME_DT: std::cell::Cell<f32> = const { std::cell::Cell::new(0.0) };
    static VIEW_RECT: std::cell::Cell<egui::Rect> =
        const { std::cell::Cell::new(egui::Rect::NOTHING) };
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
pub fn view_rect() -> egui::Rect {
    VIEW_RECT.with(|r| r.get())
}

/// A 1100 points wide window of the given height on `state`, with the app's own fonts
/// (the desktop's tests add the system fonts the real window has as fallbacks).
pub fn harness(state: AppState, height: f32) -> Harness<'static, AppState> {
    Harness::builder()
        .with_size(egui::vec2(1100.0, height))
        // The frame draws again after commands and when a job or the file watcher
        // wakes it, as the window does: more steps than egui_kittest's 4 to settle.
        .with_max_steps(12)
        .build_ui_state(frame, state)
}

/// A new app with default settings on a [`DiskHost`] (its settings are not kept).
pub fn fresh_state() -> AppState {
    AppState::new(vitrine_app::settings::Settings::default(), DiskHost::new())
}

/// The app's tests' front-end: it reads the disk (the tests' [`crate::disk`]: fixtures,
/// the corpus, files a test wrote) and keeps what the app writes in memory, runs jobs at
/// once and lends no thread — a [`MemoryHost`] that reads the disk. The desktop's own host
/// (atomic writes, a thread per job, the settings file, the thumbnail cache, live reload)
/// is the program's, tested in tests/app.
#[derive(Debug)]
pub struct DiskHost {
    memory: Arc<MemoryHost>,
}

impl DiskHost {
    /// A host reading the disk, with nothing written yet.
    pub fn new() -> Arc<DiskHost> {
        Arc::new(DiskHost {
            memory: MemoryHost::new(MemorySource::new()),
        })
    }

    /// The bytes the app wrote to `path`, if any.
    pub fn written(&self, path: &Path) -> Option<Vec<u8>> {
        self.memory.written(path)
    }

    /// The settings last saved, as JSON.
    pub fn settings(&self) -> Option<String> {
        self.memory.settings()
    }
}

impl JobRunner for DiskHost {
    fn spawn(&self, what: &str, job: Job) -> Result<(), String> {
        self.memory.spawn(what, job)
    }
}

impl Output for DiskHost {
    fn files(&self) -> Files {
        crate::disk().clone()
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.memory.write(path, bytes)
    }

    fn write_new(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.memory.write_new(path, bytes)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn OutputFile>> {
        self.memory.create(path)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.memory.remove(path)
    }
}

impl Host for DiskHost {
    /// The disk has folders (a test answers the picker, as a native dialog would).
    fn has_folders(&self) -> bool {
        true
    }

    fn save_settings(&self, json: &str) -> Result<(), String> {
        self.memory.save_settings(json)
    }

    fn save_new(
        &self,
        folder: Option<&Path>,
        stem: &str,
        ext: &str,
        bytes: &[u8],
    ) -> Result<String, String> {
        self.memory.save_new(folder, stem, ext, bytes)
    }
}
