//! The app's frame: what every front-end — the desktop's window, the page, the tests'
//! windows — runs once a frame, in this order. What differs between them (the 3D view
//! and its GPU, dialogs, downloads, the window's own extras) is a [`FrontEnd`]; the
//! steps themselves are here only, so no front-end can leave one out.
//!
//! 1. what arrived from outside the window (dialog answers, the browser's files);
//! 2. the background jobs that finished ([`poll_jobs`]);
//! 3. the timeline ([`crate::timeline::tick`]) and, on a map, the game camera's keys
//!    ([`crate::game_camera::input`]) by the front-end's clock;
//! 4. live reload (View ▸ Watch files) and the front-end's work of the frame;
//! 5. the gallery's thumbnails;
//! 6. the window's layout, the commands it emitted applied and their effects performed;
//! 7. the glTF exports that finished;
//! 8. the inspector kept on the open model, the toasts;
//! 9. the view's aspect (framing) and the renderer's warnings; the front-end's last part;
//! 10. the settings saved when due.

use crate::commands::AppCommand;

use crate::effect::Effect;

use crate::dispatch::{apply, poll_jobs};
use crate::gallery::thumbs::ThumbDevice;
use crate::layout::window_ui;
use crate::state::AppState;

use web_time::Instant;

/// What a front-end does in the app's frame ([`run`]).
pub trait FrontEnd {
    /// The commands that came from outside the window since the last frame (a native
    /// dialog's answer, files the browser delivered); applied first.
    fn arrived(&mut self, ctx: &egui::Context, state: &mut AppState) -> Vec<AppCommand> {
        let _ = (ctx, state);
        Vec::new()
    }

    /// Seconds since the last frame: how far playback moves. egui's by default; a test
    /// drives time through its own (0: time stands still).
    fn dt(&self, ctx: &egui::Context) -> f32 {
        ctx.input(|i| i.stable_dt)
    }

    /// Now, for the settings' save delay.
    fn now(&self) -> Instant {
        Instant::now()
    }

    /// Whether the window's GPU device is gone so that nothing may be drawn this frame
    /// (the rest of the frame is skipped).
    fn device_lost(&mut self, ctx: &egui::Context, state: &mut AppState) -> bool {
        let _ = (ctx, state);
        false
    }

    /// Work the front-end does a slice a frame before the window is laid out (the
    /// page's animation export and screenshot read-backs).
    fn step(&mut self, ctx: &egui::Context, state: &mut AppState) {
        let _ = (ctx, state);
    }

    /// Where gallery thumbnails are drawn (`None`: no GPU, none are drawn).
    fn thumbnails(&self) -> Option<ThumbDevice> {
        None
    }

    /// Draws the 3D view (or what stands in for it) in `ui`; the commands its input
    /// emitted.
    fn view(&mut self, ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand>;

    /// Does what [`apply`] left for the front-end (dialogs, screenshots, downloads…);
    /// a command it answers at once, applied in turn.
    fn perform(
        &mut self,
        effect: Effect,
        ctx: &egui::Context,
        state: &mut AppState,
    ) -> Option<AppCommand>;

    /// The 3D view's size in pixels and the renderer's warnings about the document
    /// it drew (its generation), when there is a view.
    fn view_report(&self) -> Option<ViewReport<'_>> {
        None
    }

    /// The front-end's own last part of the frame (its title, its windows, what it
    /// keeps of the window's geometry), before the settings are saved.
    fn end(&mut self, ctx: &egui::Context, state: &mut AppState) {
        let _ = (ctx, state);
    }
}

/// What the 3D view reports to the state each frame ([`FrontEnd::view_report`]).
#[derive(Debug, Clone, Copy)]
pub struct ViewReport<'a> {
    /// The view's size in pixels.
    pub size_px: [u32; 2],
    /// The document generation the renderer has uploaded, and its warnings.
    pub uploaded: Option<(u64, &'a [String])>,
}

/// One frame of the app in `ui`, with `front` doing the front-end's part.
pub fn run(ui: &mut egui::Ui, state: &mut AppState, front: &mut dyn FrontEnd) {
    let ctx = ui.ctx().clone();
    let arrived = front.arrived(&ctx, state);
    apply_all(state, front, &ctx, arrived);
    poll_jobs(state);
    if !state.services.work.idle() {
        // The progress line's elapsed time; a finished job wakes the window itself.
        ctx.request_repaint_after(crate::loading::PROGRESS_FRAME);
    }
    let dt = front.dt(&ctx);
    if crate::timeline::tick(state, dt) && dt > 0.0 {
        // Playing: the next frame moves it on (a clock that stands still, as a test's
        // does until the test moves it, asks for none).
        ctx.request_repaint();
    }
    let model = state.document.open.as_ref().map(|d| &d.model);
    if crate::view::advance_scene_time(&mut state.view, model, &state.services.settings, dt) {
        // A map's water and sky move: the next frame in a thirtieth of a second.
        ctx.request_repaint_after(crate::view::SCENE_FRAME);
    }
    // The game camera's keys on a map, by the same clock.
    let camera = crate::game_camera::input(&ctx, state, dt);
    let moving = camera.iter().any(|c| {
        matches!(
            c,
            AppCommand::View(crate::view::ViewCommand::GameStep { .. })
        )
    });
    apply_all(state, front, &ctx, camera);
    if moving && dt > 0.0 {
        // A key held or the scroll slowing down: the next frame moves on (a test's
        // clock that stands still asks for none).
        ctx.request_repaint();
    }
    if front.device_lost(&ctx, state) {
        // Nothing drawn: nothing can be painted on a lost device.
        return;
    }
    let mut live = std::mem::take(&mut state.panels.live_reload);
    let wake = {
        let ctx = ctx.clone();
        move || ctx.request_repaint()
    };
    crate::live_reload::sync(state, &mut live, wake);
    state.panels.live_reload = live;
    front.step(&ctx, state);
    crate::gallery::thumbs::sync(state, &ctx, front.thumbnails());
    let commands = window_ui(ui, state, |ui, state| front.view(ui, state));
    if !commands.is_empty() {
        // The view was drawn before these applied: draw again with their result.
        ctx.request_repaint();
    }
    apply_all(state, front, &ctx, commands);
    for result in state.services.work.gltf.poll() {
        match result {
            Ok(text) => state.services.toasts.info(text),
            Err(e) => state.services.toasts.error(format!("Export failed: {e}")),
        }
    }
    crate::inspect::sync(&mut state.document, &state.services.files);
    for clicked in state.services.toasts.ui(&ctx) {
        let answer = perform(state, front, &ctx, clicked);
        apply_all(state, front, &ctx, answer.into_iter().collect());
    }
    report_view(state, front, &ctx);
    front.end(&ctx, state);
    if let Err(e) = state.services.settings.save_due(front.now()) {
        state.services.toasts.error(e);
    }
    if state.services.settings.unsaved() {
        // Written a second after the change even if nothing else happens.
        ctx.request_repaint_after(crate::settings::SAVE_DELAY);
    }
}

/// Applies `commands` in order, each effect performed ([`perform`]) and the front-end's
/// answers applied in turn.
fn apply_all(
    state: &mut AppState,
    front: &mut dyn FrontEnd,
    ctx: &egui::Context,
    commands: Vec<AppCommand>,
) {
    let mut queue = std::collections::VecDeque::from(commands);
    while let Some(cmd) = queue.pop_front() {
        if let Some(effect) = apply(state, cmd)
            && let Some(answer) = perform(state, front, ctx, effect)
        {
            queue.push_front(answer);
        }
    }
}

/// Performs `effect`: the app's own (glTF exports, the clipboard) here, the rest by
/// `front`; returns the front-end's answer, a command to apply.
fn perform(
    state: &mut AppState,
    front: &mut dyn FrontEnd,
    ctx: &egui::Context,
    effect: Effect,
) -> Option<AppCommand> {
    match effect {
        Effect::ExportGltf(path, options) => {
            let ctx = ctx.clone();
            let services = &mut state.services;
            services.work.gltf.start_document(
                state.document.open.as_ref(),
                services.host.clone(),
                &mut services.toasts,
                path,
                options,
                move || ctx.request_repaint(),
            );
            None
        }
        Effect::CopyText(text) => {
            ctx.copy_text(text);
            None
        }
        effect => front.perform(effect, ctx, state),
    }
}

/// Copies what the view knows into the state: its aspect (for framing) and the
/// renderer's warnings about the open document (for the side panel).
fn report_view(state: &mut AppState, front: &dyn FrontEnd, ctx: &egui::Context) {
    let Some(view) = front.view_report() else {
        return;
    };
    let camera = state.view.camera;
    let [w, h] = view.size_px;
    state.set_view_aspect(w as f32 / h.max(1) as f32);
    if let Some((generation, warnings)) = view.uploaded {
        state.document.set_render_warnings(generation, warnings);
        let doc = state.document.open.as_mut();
        if crate::loading::whole_pages(&mut state.services, doc, generation) {
            // The job starts next frame, once this one is on the screen.
            ctx.request_repaint();
        }
    }
    if state.view.camera != camera {
        // Re-framed for a new view size: show it now, not at the next input event.
        ctx.request_repaint();
    }
}
