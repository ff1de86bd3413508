//! The page's screenshots (F12, Ctrl+F12, File ▸ Screenshot…): drawn when asked for and
//! read back from the GPU over the next frames — the page's only thread must never wait
//! on the GPU — then encoded and downloaded.

use eframe::egui;
use eframe::egui_wgpu::RenderState;
use vitrine_app::commands::ScreenshotRequest;
use vitrine_app::dialogs::screenshot::{clean_view, encode_png, save_unique};
use vitrine_app::state::AppState;
use vitrine_app::viewport::Viewport;

/// A screenshot on its way back from the GPU.
struct PendingShot {
    reading: vitrine_render::Reading,
    /// Kept until the copy is back: WebGPU fails the copy of a texture destroyed before
    /// it ran.
    _target: vitrine_render::RenderTarget,
    stem: String,
    clean: bool,
    size: [u32; 2],
}

/// The screenshots on their way back.
#[derive(Default)]
pub struct Screenshots {
    pending: Vec<PendingShot>,
}

impl Screenshots {
    /// Draws the screenshot `req` asks for now; its pixels come back over the next frames
    /// ([`Screenshots::finish`]).
    pub fn start(
        &mut self,
        req: ScreenshotRequest,
        viewport: Option<&mut Viewport>,
        rs: Option<&RenderState>,
        state: &mut AppState,
    ) {
        let (Some(viewport), Some(rs), Some(doc)) = (viewport, rs, &state.document.open) else {
            state
                .services
                .toasts
                .error("Screenshot failed: no GPU renderer");
            return;
        };
        let size = req.size.unwrap_or(viewport.size_px);
        let view = state.view_settings();
        let view = if req.clean { clean_view(&view) } else { view };
        let (pose, stem) = (doc.pose.clone(), doc.stem());
        let renderer = viewport.renderer_for(rs, state);
        let target = vitrine_render::RenderTarget::new(&rs.device, size[0], size[1]);
        renderer.render(&rs.device, &rs.queue, &target, &pose, &view);
        self.pending.push(PendingShot {
            reading: target.start_read(&rs.device, &rs.queue),
            _target: target,
            stem,
            clean: req.clean,
            size,
        });
    }

    /// Screenshots whose pixels are back: encoded and downloaded, with a toast.
    pub fn finish(&mut self, ctx: &egui::Context, rs: Option<&RenderState>, state: &mut AppState) {
        let Some(rs) = rs else { return };
        let mut still = Vec::new();
        for shot in std::mem::take(&mut self.pending) {
            let Some(done) = shot.reading.try_take(&rs.device) else {
                still.push(shot);
                continue;
            };
            let host = state.services.host.clone();
            let saved = done
                .map_err(|e| e.to_string())
                .and_then(|img| encode_png(&img).map_err(|e| e.to_string()))
                .and_then(|png| save_unique(&*host, None, &shot.stem, &png));
            match saved {
                Ok(to) => {
                    let kind = if shot.clean {
                        "clean screenshot"
                    } else {
                        "screenshot"
                    };
                    state.services.toasts.info(format!(
                        "Saved {kind} {}×{} to {to}",
                        shot.size[0], shot.size[1]
                    ))
                }
                Err(e) => {
                    log::error!("screenshot failed: {e}");
                    state
                        .services
                        .toasts
                        .error(format!("Screenshot failed: {e}"))
                }
            }
        }
        if !still.is_empty() {
            ctx.request_repaint();
        }
        self.pending = still;
    }
}
