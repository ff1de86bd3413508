//! The eframe integration: owns the state, the GPU view and the dialogs, and runs the
//! app's frame ([`crate::app::frame`]) as its front-end (`Window`): native dialogs,
//! screenshots and exports on the window's device, the title, the window's geometry in
//! the settings, and the relaunch after a lost device. Background jobs run on the
//! host's threads ([`super::DesktopHost`]).

use super::dialogs::Dialogs;
use crate::app::commands::{AppCommand, DocumentCommand, Effect, ScreenshotRequest};
use crate::app::dialogs::screenshot::{clean_view, encode_png, render_image, save_unique};
use crate::app::dispatch::apply;
use crate::app::frame::{FrontEnd, ViewReport};
use crate::app::gallery::thumbs::ThumbDevice;
use crate::app::state::AppState;
use crate::app::viewport::{Viewport, view_or_error};
use eframe::egui;
use eframe::egui_wgpu;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The viewer as an eframe app.
#[derive(Debug)]
pub struct ViewerApp {
    state: AppState,
    window: Window,
}

/// What the window keeps between frames besides the app's state: its part of the frame.
#[derive(Debug)]
struct Window {
    viewport: Option<Viewport>,
    /// Why there is no viewport, shown where the view would be.
    view_error: String,
    dialogs: Dialogs,
    /// Close the window after this many frames (`VITRINE_EXIT_AFTER_FRAMES`, for the
    /// smoke test).
    exit_after_frames: Option<u64>,
    frames: u64,
    title: String,
    /// A crash report from an earlier run, offered once.
    crash_notice: Option<super::crash_notice::CrashNotice>,
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

/// The window as the app's front-end during one frame (with eframe's frame: the GPU).
struct WindowFrame<'a> {
    window: &'a mut Window,
    frame: &'a eframe::Frame,
}

impl ViewerApp {
    /// Sets up the view on eframe's wgpu device and opens `initial`; a relaunch after a
    /// lost device (`start`) then puts the view back as it was. `host` is the state's.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        mut state: AppState,
        host: Arc<super::DesktopHost>,
        initial: PathBuf,
        start: super::relaunch::Start,
        exit_after_frames: Option<u64>,
    ) -> ViewerApp {
        super::fonts::install(&cc.egui_ctx);
        let (viewport, view_error) = match cc
            .wgpu_render_state
            .as_ref()
            .map(|rs| Viewport::try_new(rs, &state.services.files))
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
        host.wake(&cc.egui_ctx);
        let open =
            AppCommand::Document(DocumentCommand::Open(state.services.files.parse(&initial)));
        let resumed_loss = if matches!(start, super::relaunch::Start::Fresh) {
            // The window shows while the file loads.
            state.services.work.set_runner(host);
            let _ = apply(&mut state, open);
            None
        } else {
            // A relaunch after a lost device puts the view back as it was: the file is
            // opened (inline) before the first frame, then the view restored on it.
            let _ = apply(&mut state, open);
            let loss = start.apply(&mut state);
            state.services.work.set_runner(host);
            loss
        };
        let lose_device_at =
            super::relaunch::lose_device_after().map(|d| std::time::Instant::now() + d);
        let window = Window {
            viewport,
            view_error,
            dialogs: Dialogs::default(),
            exit_after_frames,
            frames: 0,
            title: String::new(),
            crash_notice: crate::files::folders::config_dir()
                .and_then(|d| super::crash_notice::CrashNotice::find(&d)),
            resumed_loss,
            lost: false,
            lose_device_at,
            last_frame: None,
        };
        ViewerApp { state, window }
    }
}

impl Window {
    /// Renders the document offscreen and saves it; a toast says where it went.
    fn screenshot(
        &mut self,
        state: &mut AppState,
        req: ScreenshotRequest,
        rs: Option<&egui_wgpu::RenderState>,
    ) {
        let (Some(viewport), Some(rs)) = (&mut self.viewport, rs) else {
            state
                .services
                .toasts
                .error("Screenshot failed: no GPU renderer");
            return;
        };
        let Some(doc) = &state.document.open else {
            return;
        };
        let size = req.size.unwrap_or(viewport.size_px);
        let view = state.view_settings();
        let view = if req.clean { clean_view(&view) } else { view };
        let pose = doc.pose.clone();
        let stem = doc.stem();
        let renderer = viewport.renderer_for(rs, state);
        let host = state.services.host.clone();
        let folder = state.services.settings.screenshot_folder(&*host);
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
                state
                    .services
                    .toasts
                    .info(format!("Saved {kind} {}×{} to {path}", size[0], size[1],));
            }
            Err(e) => state
                .services
                .toasts
                .error(format!("Screenshot failed: {e}")),
        }
    }

    /// After wgpu reported the device lost; `true` from then on: the frame must draw
    /// nothing. eframe keeps the device it created for the window (egui 0.37 cannot swap
    /// it), a lost device never comes back, and egui-wgpu panics painting anything on it,
    /// so Vitrine relaunches itself on a new device with what the user sees
    /// ([`super::relaunch`]) and this window closes. If it was itself relaunched less than
    /// [`super::relaunch::LOOP_GUARD`] ago, or the relaunch fails, it closes all the same
    /// and says why once closed (standard error and a message box).
    fn device_lost(&mut self, ctx: &egui::Context, state: &mut AppState) -> bool {
        if self.lost {
            return true;
        }
        let Some(why) = self.viewport.as_ref().and_then(|v| v.take_lost()) else {
            return false;
        };
        self.lost = true;
        self.viewport = None;
        let outcome = super::relaunch::after_loss(
            state,
            &why,
            self.resumed_loss,
            std::time::SystemTime::now(),
            std::env::current_exe(),
            crate::files::folders::config_dir().as_deref(),
        );
        let file = state.document.open.as_ref().map(|d| d.path.to_string());
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

    /// Logs the interval since the previous frame and what asked for it
    /// (`RUST_LOG=vitrine::frames=debug`: egui's repaint causes, each a source line).
    fn log_interval(&mut self, ctx: &egui::Context, state: &AppState) {
        let now = std::time::Instant::now();
        let Some(last) = self.last_frame.replace(now) else {
            return;
        };
        let pending = state
            .panels
            .gallery
            .as_ref()
            .and_then(|g| g.thumbs.as_ref())
            .map_or(0, |t| t.total - t.done);
        let shown = match (&state.panels.gallery, &state.document.open) {
            (Some(_), _) => "a gallery".to_string(),
            (None, Some(doc)) => doc.file_name(),
            (None, None) => "nothing".to_string(),
        };
        let causes: Vec<String> = ctx.repaint_causes().iter().map(|c| c.to_string()).collect();
        log::debug!(
            target: "vitrine::frames",
            "frame interval {:.1} ms, {pending} thumbnails pending, showing {shown}; asked by {}",
            (now - last).as_secs_f64() * 1000.0,
            causes.join(", ")
        );
    }

    /// Keeps the window title naming the open file.
    fn update_title(&mut self, ctx: &egui::Context, state: &AppState) {
        let title = match &state.document.open {
            Some(doc) => format!("{} — Vitrine", doc.title()),
            None => "Vitrine".to_string(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}

/// Keeps the window's size, place and maximised state in the settings: the restored size
/// and place, not the maximised ones, so un-maximising next time gives the window back
/// as it was.
fn keep_geometry(ctx: &egui::Context, state: &mut AppState) {
    let (inner, outer, maximized) = ctx.input(|i| {
        let v = i.viewport();
        (v.inner_rect, v.outer_rect, v.maximized)
    });
    if let Some(m) = maximized {
        state.services.settings.maximized = m;
    }
    if maximized != Some(true) {
        if let Some(rect) = inner {
            state.services.settings.window_size = [rect.width(), rect.height()];
        }
        if let Some(rect) = outer {
            state.services.settings.window_pos = Some([rect.min.x, rect.min.y]);
        }
    }
}

impl FrontEnd for WindowFrame<'_> {
    fn arrived(&mut self, ctx: &egui::Context, state: &mut AppState) -> Vec<AppCommand> {
        self.window.log_interval(ctx, state);
        // Vitrine's own picker (where the system has no file dialog) is a window of this
        // frame; its answer, or a system dialog's, arrives here.
        self.window.dialogs.ui(ctx);
        self.window.dialogs.poll().into_iter().collect()
    }

    fn device_lost(&mut self, ctx: &egui::Context, state: &mut AppState) -> bool {
        self.window.lose_device_when_due(ctx, self.frame);
        self.window.device_lost(ctx, state)
    }

    fn thumbnails(&self) -> Option<ThumbDevice> {
        ThumbDevice::for_window(self.frame.wgpu_render_state())
    }

    fn view(&mut self, ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
        let w = &mut *self.window;
        let rs = self.frame.wgpu_render_state();
        view_or_error(ui, state, w.viewport.as_mut(), rs, &w.view_error)
    }

    fn perform(
        &mut self,
        effect: Effect,
        ctx: &egui::Context,
        state: &mut AppState,
    ) -> Option<AppCommand> {
        let Some(effect) = self.window.dialogs.perform(ctx, effect) else {
            if let Some(notice) = self.window.dialogs.take_notice() {
                state.services.toasts.info(notice);
            }
            return None;
        };
        match effect {
            Effect::Screenshot(req) => {
                self.window
                    .screenshot(state, req, self.frame.wgpu_render_state())
            }
            Effect::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            // No Copy link on the desktop (its host has no links): Copy web link instead.
            Effect::CopyLink => {}
            // Taken by `self.window.dialogs.perform` above.
            Effect::PickModel(_)
            | Effect::PickGalleryFolder(_)
            | Effect::PickScreenshotFolder(_)
            | Effect::PickDataRoot { .. }
            | Effect::PickExportPath(..)
            | Effect::PickPiePath(_)
            | Effect::PickAnimationOutput(..) => {}
            Effect::ExportAnimation(job) => match self.frame.wgpu_render_state() {
                Some(rs) => {
                    let ctx = ctx.clone();
                    crate::app::dialogs::export_animation::start(
                        &mut state.services,
                        &mut state.dialogs.running_export,
                        rs.device.clone(),
                        rs.queue.clone(),
                        *job,
                        move || ctx.request_repaint(),
                    );
                }
                None => state
                    .services
                    .toasts
                    .error("Export failed: no GPU renderer"),
            },
            Effect::OpenFolder(dir) => {
                if let Err(e) = open::that_detached(&dir) {
                    state
                        .services
                        .toasts
                        .error(format!("Could not open {}: {e}", dir.display()));
                }
            }
            // The frame's own (`crate::app::frame`): never handed to a front-end.
            Effect::ExportGltf(..) | Effect::CopyText(_) => {}
        }
        None
    }

    fn view_report(&self) -> Option<ViewReport<'_>> {
        let v = self.window.viewport.as_ref()?;
        Some(ViewReport {
            size_px: v.size_px,
            uploaded: v.uploaded(),
        })
    }

    fn end(&mut self, ctx: &egui::Context, state: &mut AppState) {
        let w = &mut *self.window;
        if let Some(notice) = &mut w.crash_notice
            && !super::crash_notice::ui(ctx, notice)
        {
            w.crash_notice = None;
        }
        w.update_title(ctx, state);
        keep_geometry(ctx, state);
        w.frames += 1;
        if let Some(n) = w.exit_after_frames {
            if w.frames >= n {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                ctx.request_repaint_after(Duration::from_millis(50));
            }
        }
    }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let mut window = WindowFrame {
            window: &mut self.window,
            frame,
        };
        crate::app::frame::run(ui, &mut self.state, &mut window);
    }

    fn on_exit(&mut self) {
        if let Err(e) = self.state.services.settings.flush() {
            eprintln!("vitrine: {e}");
        }
    }
}
