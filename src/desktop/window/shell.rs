//! The eframe integration: owns the state, the GPU view and the dialogs; runs the app's
//! background jobs on threads ([`ThreadRunner`]); each frame it takes in the jobs that
//! finished, lays out the window, applies the commands the panels emitted, performs the
//! effects that need the window, a dialog thread or the GPU, and saves the settings when
//! due.

use super::dialogs::Dialogs;
use crate::app::commands::{AppCommand, Effect, ScreenshotRequest, apply};
use crate::app::dialogs::screenshot::{clean_view, encode_png, render_image, save_unique};
use crate::app::layout::window_ui;
use crate::app::state::AppState;
use crate::app::viewport::{Viewport, view_or_error};
use eframe::egui;
use eframe::egui_wgpu;
use std::path::PathBuf;
use std::time::Duration;

/// The viewer as an eframe app.
#[derive(Debug)]
pub struct ViewerApp {
    state: AppState,
    viewport: Option<Viewport>,
    /// Why there is no viewport, shown where the view would be.
    view_error: String,
    dialogs: Dialogs,
    /// glTF exports running on worker threads.
    exports: crate::app::dialogs::export_gltf::ExportJobs,
    /// Close the window after this many frames (`VITRINE_EXIT_AFTER_FRAMES`, for the
    /// smoke test).
    exit_after_frames: Option<u64>,
    frames: u64,
    title: String,
    /// A crash report from an earlier run, offered once.
    crash_notice: Option<super::crash_notice::CrashNotice>,
    /// Watches the open files (View ▸ Watch files).
    live_reload: crate::app::live_reload::LiveReload,
    /// The device loss this process was relaunched after, if it was: the loop guard
    /// ([`super::relaunch::LOOP_GUARD`]).
    resumed_loss: Option<std::time::SystemTime>,
    /// The window's device was lost: the window draws nothing more and closes.
    lost: bool,
    /// When to destroy the window's device (`VITRINE_DEBUG_LOSE_DEVICE_AFTER`, a testing
    /// aid).
    lose_device_at: Option<std::time::Instant>,
    /// When the previous frame started (`RUST_LOG=vitrine::frames=debug` logs the
    /// interval: the window's real frame rate, painting included).
    last_frame: Option<std::time::Instant>,
}

impl ViewerApp {
    /// Sets up the view on eframe's wgpu device and opens `initial`; a relaunch after a
    /// lost device (`start`) then puts the view back as it was.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        mut state: AppState,
        initial: PathBuf,
        start: super::relaunch::Start,
        exit_after_frames: Option<u64>,
    ) -> ViewerApp {
        super::fonts::install(&cc.egui_ctx);
        let (viewport, view_error) = match cc
            .wgpu_render_state
            .as_ref()
            .map(|rs| Viewport::try_new(rs, &state.files))
        {
            Some(Ok(v)) => (Some(v), String::new()),
            Some(Err(e)) => (None, format!("The 3D view is not available: {e}")),
            None => (None, "The 3D view is not available: no wgpu device".into()),
        };
        if let Some(v) = &viewport {
            // A loss in an idle window is seen at once, not at the next input.
            let ctx = cc.egui_ctx.clone();
            v.wake_on_loss(move || ctx.request_repaint());
        }
        let open = AppCommand::Open(state.files.parse(&initial));
        let runner = ThreadRunner {
            ctx: cc.egui_ctx.clone(),
        };
        let resumed_loss = if matches!(start, super::relaunch::Start::Fresh) {
            // The window shows while the file loads.
            state.work.set_runner(runner);
            let _ = apply(&mut state, open);
            None
        } else {
            // A relaunch after a lost device puts the view back as it was: the file is
            // opened (inline) before the first frame, then the view restored on it.
            let _ = apply(&mut state, open);
            let loss = start.apply(&mut state);
            state.work.set_runner(runner);
            loss
        };
        let lose_device_at =
            super::relaunch::lose_device_after().map(|d| std::time::Instant::now() + d);
        ViewerApp {
            state,
            viewport,
            view_error,
            dialogs: Dialogs::default(),
            exports: Default::default(),
            exit_after_frames,
            frames: 0,
            title: String::new(),
            crash_notice: crate::files::folders::config_dir()
                .and_then(|d| super::crash_notice::CrashNotice::find(&d)),
            live_reload: Default::default(),
            resumed_loss,
            lost: false,
            lose_device_at,
            last_frame: None,
        }
    }

    /// Does what [`apply`] left for the window.
    fn perform(&mut self, effect: Effect, ctx: &egui::Context, frame: &eframe::Frame) {
        let Some(effect) = self.dialogs.perform(ctx, effect) else {
            if let Some(notice) = self.dialogs.take_notice() {
                self.state.toasts.info(notice);
            }
            return;
        };
        match effect {
            Effect::Screenshot(req) => self.screenshot(req, frame.wgpu_render_state()),
            Effect::ExportGltf(path, options) => {
                let ctx = ctx.clone();
                self.exports
                    .start_document(&mut self.state, path, options, move || {
                        ctx.request_repaint()
                    });
            }
            Effect::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            // Taken by `self.dialogs.perform` above.
            Effect::PickModel(_)
            | Effect::PickGalleryFolder(_)
            | Effect::PickScreenshotFolder(_)
            | Effect::PickDataRoot { .. }
            | Effect::PickExportPath(..)
            | Effect::PickPiePath(_)
            | Effect::PickAnimationOutput(..) => {}
            // No Copy link on the desktop (its host has no links): Copy web link instead.
            Effect::CopyLink => {}
            Effect::CopyText(text) => ctx.copy_text(text),
            Effect::ExportAnimation(job) => match frame.wgpu_render_state() {
                Some(rs) => {
                    let ctx = ctx.clone();
                    crate::app::dialogs::export_animation::start(
                        &mut self.state,
                        rs.device.clone(),
                        rs.queue.clone(),
                        *job,
                        move || ctx.request_repaint(),
                    );
                }
                None => self.state.toasts.error("Export failed: no GPU renderer"),
            },
            Effect::OpenFolder(dir) => {
                if let Err(e) = open::that_detached(&dir) {
                    self.state
                        .toasts
                        .error(format!("Could not open {}: {e}", dir.display()));
                }
            }
        }
    }

    /// Renders the document offscreen and saves it; a toast says where it went.
    fn screenshot(&mut self, req: ScreenshotRequest, rs: Option<&egui_wgpu::RenderState>) {
        let (Some(viewport), Some(rs)) = (&mut self.viewport, rs) else {
            self.state
                .toasts
                .error("Screenshot failed: no GPU renderer");
            return;
        };
        let Some(doc) = &self.state.document else {
            return;
        };
        let size = req.size.unwrap_or(viewport.size_px);
        let view = self.state.view_settings();
        let view = if req.clean { clean_view(&view) } else { view };
        let pose = doc.pose.clone();
        let stem = doc.stem();
        let renderer = viewport.renderer_for(rs, &self.state);
        let host = self.state.host.clone();
        let folder = self.state.settings.screenshot_folder(&*host);
        let result = render_image(&rs.device, &rs.queue, renderer, &pose, &view, size)
            .map_err(|e| e.to_string())
            .and_then(|img| encode_png(&img).map_err(|e| e.to_string()))
            .and_then(|png| save_unique(&*host, folder.as_deref(), &stem, &png));
        match result {
            Ok(path) => {
                let kind = if req.clean {
                    "clean screenshot"
                } else {
                    "screenshot"
                };
                self.state
                    .toasts
                    .info(format!("Saved {kind} {}×{} to {path}", size[0], size[1],));
            }
            Err(e) => self.state.toasts.error(format!("Screenshot failed: {e}")),
        }
    }

    /// Copies what the view knows into the state: its aspect (for framing) and the
    /// renderer's warnings about the open document (for the side panel).
    fn sync_view(&mut self) {
        let Some(viewport) = &self.viewport else {
            return;
        };
        let [w, h] = viewport.size_px;
        self.state.set_view_aspect(w as f32 / h.max(1) as f32);
        if let Some((generation, warnings)) = viewport.uploaded() {
            self.state.set_render_warnings(generation, warnings);
        }
    }

    /// After wgpu reported the device lost; `true` from then on: the frame must draw
    /// nothing. eframe keeps the device it created for the window (egui 0.37 cannot swap
    /// it), a lost device never comes back, and egui-wgpu panics painting anything on it,
    /// so Vitrine relaunches itself on a new device with what the user sees
    /// ([`super::relaunch`]) and this window closes. If it was itself relaunched less than
    /// [`super::relaunch::LOOP_GUARD`] ago, or the relaunch fails, it closes all the same
    /// and says why once closed (standard error and a message box).
    fn device_lost(&mut self, ctx: &egui::Context) -> bool {
        if self.lost {
            return true;
        }
        let Some(why) = self.viewport.as_ref().and_then(|v| v.take_lost()) else {
            return false;
        };
        self.lost = true;
        self.viewport = None;
        let outcome = super::relaunch::after_loss(
            &mut self.state,
            &why,
            self.resumed_loss,
            std::time::SystemTime::now(),
            std::env::current_exe(),
            crate::files::folders::config_dir().as_deref(),
        );
        let file = self.state.document.as_ref().map(|d| d.path.to_string());
        match outcome.farewell(&why, file.as_deref()) {
            None => {
                if let super::relaunch::Outcome::Relaunched { pid, resume } = &outcome {
                    eprintln!(
                        "vitrine: the GPU device was lost ({why}); reopened in process {pid} \
                         (resume file {})",
                        resume.display()
                    );
                }
            }
            Some(message) => super::relaunch::say_after_closing(message),
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        true
    }

    /// The testing aid `VITRINE_DEBUG_LOSE_DEVICE_AFTER`: destroys the window's device
    /// once its time has come.
    fn lose_device_when_due(&mut self, ctx: &egui::Context, frame: &eframe::Frame) {
        let (Some(at), Some(rs)) = (self.lose_device_at, frame.wgpu_render_state()) else {
            return;
        };
        let now = std::time::Instant::now();
        if now >= at {
            self.lose_device_at = None;
            super::relaunch::lose_device(&rs.device);
            ctx.request_repaint();
        } else {
            ctx.request_repaint_after(at - now);
        }
    }

    /// Keeps the window title naming the open file.
    fn update_title(&mut self, ctx: &egui::Context) {
        let title = match &self.state.document {
            Some(doc) => format!("{} — Vitrine", doc.file_name()),
            None => "Vitrine".to_string(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let now = std::time::Instant::now();
        if let Some(last) = self.last_frame.replace(now) {
            let pending = self
                .state
                .gallery
                .as_ref()
                .and_then(|g| g.thumbs.as_ref())
                .map_or(0, |t| t.total - t.done);
            let shown = match (&self.state.gallery, &self.state.document) {
                (Some(_), _) => "a gallery".to_string(),
                (None, Some(doc)) => doc.file_name(),
                (None, None) => "nothing".to_string(),
            };
            log::debug!(
                target: "vitrine::frames",
                "frame interval {:.1} ms, {pending} thumbnails pending, showing {shown}",
                (now - last).as_secs_f64() * 1000.0
            );
        }
        crate::app::commands::poll_jobs(&mut self.state);
        if !self.state.work.idle() {
            // The progress line's elapsed time; a finished job wakes the window itself.
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        let dt = ctx.input(|i| i.stable_dt);
        if crate::app::timeline::tick(&mut self.state, dt) {
            ctx.request_repaint();
        }
        self.lose_device_when_due(&ctx, frame);
        if self.device_lost(&ctx) {
            // Nothing painted: egui-wgpu cannot paint on a lost device.
            return;
        }
        let wake = {
            let ctx = ctx.clone();
            move || ctx.request_repaint()
        };
        crate::app::live_reload::sync(&mut self.state, &mut self.live_reload, wake);
        let rs = frame.wgpu_render_state();
        crate::app::gallery::thumbs::sync(
            &mut self.state,
            &ctx,
            crate::app::gallery::thumbs::ThumbDevice::for_window(rs),
        );
        self.dialogs.ui(&ctx);
        let mut commands: Vec<AppCommand> = self.dialogs.poll().into_iter().collect();
        let viewport = &mut self.viewport;
        let rs = frame.wgpu_render_state();
        let view_error = &self.view_error;
        commands.extend(window_ui(ui, &mut self.state, |ui, state| {
            view_or_error(ui, state, viewport.as_mut(), rs, view_error)
        }));
        if !commands.is_empty() {
            // The view was drawn before these applied: draw again with their result.
            ctx.request_repaint();
        }
        for cmd in commands {
            if let Some(effect) = apply(&mut self.state, cmd) {
                self.perform(effect, &ctx, frame);
            }
        }
        for result in self.exports.poll() {
            match result {
                Ok(text) => self.state.toasts.info(text),
                Err(e) => self.state.toasts.error(format!("Export failed: {e}")),
            }
        }
        crate::app::inspect::sync(&mut self.state);
        for cmd in self.state.toasts.ui(&ctx) {
            if let Some(effect) = apply(&mut self.state, cmd) {
                self.perform(effect, &ctx, frame);
            }
        }
        if let Some(notice) = &mut self.crash_notice
            && !super::crash_notice::ui(&ctx, notice)
        {
            self.crash_notice = None;
        }
        self.update_title(&ctx);
        let camera = self.state.camera;
        self.sync_view();
        if self.state.camera != camera {
            // Re-framed for a new view size: show it now, not at the next input event.
            ctx.request_repaint();
        }
        let (inner, outer, maximized) = ctx.input(|i| {
            let v = i.viewport();
            (v.inner_rect, v.outer_rect, v.maximized)
        });
        if let Some(m) = maximized {
            self.state.settings.maximized = m;
        }
        // The restored size and place, not the maximised ones, so un-maximising next time
        // gives the window back as it was.
        if maximized != Some(true) {
            if let Some(rect) = inner {
                self.state.settings.window_size = [rect.width(), rect.height()];
            }
            if let Some(rect) = outer {
                self.state.settings.window_pos = Some([rect.min.x, rect.min.y]);
            }
        }
        if let Err(e) = self.state.settings.save_due(web_time::Instant::now()) {
            self.state.toasts.error(e);
        }
        if self.state.settings.unsaved() {
            // Written a second after the change even if nothing else happens.
            ctx.request_repaint_after(crate::app::settings::SAVE_DELAY);
        }
        self.frames += 1;
        if let Some(n) = self.exit_after_frames {
            if self.frames >= n {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                ctx.request_repaint_after(Duration::from_millis(50));
            }
        }
    }

    fn on_exit(&mut self) {
        if let Err(e) = self.state.settings.flush() {
            eprintln!("vitrine: {e}");
        }
    }
}

/// Runs each of the app's jobs on a thread of its own and wakes the window when it ends.
#[derive(Clone)]
pub struct ThreadRunner {
    ctx: egui::Context,
}

impl crate::app::jobs::JobRunner for ThreadRunner {
    fn spawn(&self, what: &str, job: crate::app::jobs::Job) {
        let ctx = self.ctx.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("vitrine: {what}"))
            .spawn(move || {
                job();
                ctx.request_repaint();
            });
        if let Err(e) = spawned {
            // The progress line stays until cancelled; say why.
            log::error!("could not start a thread for {what}: {e}");
        }
    }
}
