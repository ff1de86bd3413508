//! The 3D view filling the central panel.
//!
//! The scene is drawn by the shared windowless renderer into an offscreen
//! [`RenderTarget`] the size of the panel in physical pixels; that texture is registered
//! with egui once (again only when the panel is resized) and shown as an image. A new
//! frame is rendered, before egui paints, whenever what it would show changed (model,
//! camera, team colour, background, size, pose); otherwise the last one is shown again.
//!
//! Input: left drag orbits, middle drag or Shift + left drag pans, Ctrl + left drag turns
//! the light, the wheel zooms; F frames; 1 / 3 / 7 / 0 front / side / top / iso; 5
//! perspective ↔ orthographic.

use super::commands::{AppCommand, ViewCommand};
use super::lighting::command::LightCommand;
use super::state::AppState;
use crate::files::Files;
use crate::model::Pose;
use crate::page_detail::DecodedPage;
use crate::render::{DeviceWatch, RenderTarget, SceneRenderer, ViewPreset, ViewSettings};

/// The view part of every front-end's window: the 3D view in `ui` when there is one and
/// a renderer to draw it, else `error` (why there is none) in its place.
pub fn view_or_error(
    ui: &mut egui::Ui,
    state: &AppState,
    viewport: Option<&mut Viewport>,
    rs: Option<&egui_wgpu::RenderState>,
    error: &str,
) -> Vec<AppCommand> {
    match (viewport, rs) {
        (Some(v), Some(rs)) => v.ui(ui, state, rs),
        _ => {
            ui.centered_and_justified(|ui| ui.colored_label(ui.visuals().error_fg_color, error));
            Vec::new()
        }
    }
}

/// Scroll distance (points) of one wheel notch.
const POINTS_PER_NOTCH: f32 = 50.0;

/// What the view's texture currently shows.
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    generation: u64,
    view: ViewSettings,
    size: [u32; 2],
    pose: Pose,
}

/// The GPU side of the view.
pub struct Viewport {
    renderer: SceneRenderer,
    target: Option<RenderTarget>,
    texture: Option<egui::TextureId>,
    uploaded: Option<u64>,
    /// Whether the document uploaded has every texture page whole (not only its smaller
    /// levels, [`crate::page_detail`]).
    whole_pages: bool,
    shown: Option<Shown>,
    /// Size of the view in physical pixels at the last frame.
    pub size_px: [u32; 2],
    /// The device-lost callback's record (set on any thread) and the error policy
    /// that keeps frames on the dead device from panicking.
    lost: DeviceWatch,
}

impl std::fmt::Debug for Viewport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Viewport")
            .field("uploaded", &self.uploaded)
            .field("size_px", &self.size_px)
            .finish_non_exhaustive()
    }
}

impl Viewport {
    /// Creates the renderer on eframe's device. A renderer that fails to build (it
    /// panics on a device it cannot use) is reported instead of closing the window, so
    /// the side panel still shows what the file holds.
    pub fn try_new(rs: &egui_wgpu::RenderState, files: &Files) -> Result<Viewport, String> {
        vitrine_core::crash::set_adapter(crate::render::describe_adapter(&rs.adapter.get_info()));
        let renderer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            SceneRenderer::new(&rs.device, &rs.queue, files)
        }))
        .map_err(|panic| {
            vitrine_core::crash::payload_text(&*panic)
                .unwrap_or_else(|| "the renderer failed to start".into())
        })?;
        let lost = DeviceWatch::install(&rs.device);
        Ok(Viewport {
            renderer,
            target: None,
            texture: None,
            uploaded: None,
            whole_pages: true,
            shown: None,
            size_px: [1, 1],
            lost,
        })
    }

    /// Why the GPU device was lost, once (then `None` again): the window relaunches
    /// Vitrine on a new device (`src/desktop/window/relaunch/`).
    pub fn take_lost(&self) -> Option<String> {
        self.lost.take_lost()
    }

    /// Calls `wake` (on wgpu's thread) when the device is lost, so an idle window draws a
    /// frame and notices.
    pub fn wake_on_loss(&self, wake: impl Fn() + Send + Sync + 'static) {
        self.lost.on_lost(wake);
    }

    /// The generation of the document on the GPU, and what the renderer found uploading it.
    pub fn uploaded(&self) -> Option<(u64, &[String])> {
        self.uploaded.map(|g| (g, self.renderer.warnings()))
    }

    /// The renderer with the open document uploaded (for screenshots).
    pub fn renderer_for(
        &mut self,
        rs: &egui_wgpu::RenderState,
        state: &AppState,
    ) -> &mut SceneRenderer {
        self.upload(rs, state);
        self.whole_pages_now(rs, state);
        &mut self.renderer
    }

    /// Uploads the document if it is not the one on the GPU, and its whole texture pages
    /// when they arrive ([`crate::page_detail`]).
    fn upload(&mut self, rs: &egui_wgpu::RenderState, state: &AppState) {
        let Some(doc) = &state.document.open else {
            return;
        };
        if self.uploaded != Some(doc.generation) {
            for (file, stamp, page) in doc.pages.take() {
                self.renderer.provide_texture(file, stamp, page);
            }
            self.renderer.set_model(&rs.device, &rs.queue, &doc.model);
            self.uploaded = Some(doc.generation);
            self.whole_pages = doc.page_detail.partial.is_empty();
        }
        let whole = doc.page_detail.whole.take();
        if !whole.is_empty() {
            self.refine(rs, whole);
        }
    }

    /// Replaces the pages uploaded from their smaller levels with `whole`, drawing again.
    fn refine(&mut self, rs: &egui_wgpu::RenderState, whole: Vec<DecodedPage>) {
        log::debug!(target: "vitrine::frames", "{} whole texture pages uploaded", whole.len());
        if self.renderer.refine_textures(&rs.device, &rs.queue, whole) {
            self.shown = None;
        }
        self.whole_pages = true;
    }

    /// The document's whole pages now, where it was drawn from their smaller levels and
    /// the job decoding them has not delivered yet: a screenshot or an export draws
    /// every page whole. Decoded here, on the UI thread, once (unless their bytes have
    /// still to arrive: then the job's pages replace them when it delivers).
    fn whole_pages_now(&mut self, rs: &egui_wgpu::RenderState, state: &AppState) {
        let Some(doc) = &state.document.open else {
            return;
        };
        if self.whole_pages || self.uploaded != Some(doc.generation) {
            return;
        }
        let files = state.services.files.clone();
        let partial = doc.page_detail.partial.clone();
        // `None`: bytes still to arrive (the page's remote archives); the job delivers.
        if let Some(pages) =
            crate::render::pages::read_and_decode_pages(&files, partial, crate::render::pages::FULL)
        {
            self.refine(rs, pages);
        }
    }

    /// Draws the view into the rest of `ui` and returns the camera commands of its input.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        rs: &egui_wgpu::RenderState,
    ) -> Vec<AppCommand> {
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        let ppp = ui.ctx().pixels_per_point();
        let size = [
            ((rect.width() * ppp).round() as u32).max(1),
            ((rect.height() * ppp).round() as u32).max(1),
        ];
        self.size_px = size;
        let view = state.view_settings();
        match &state.document.open {
            Some(doc) => {
                self.upload(rs, state);
                self.ensure_target(rs, size);
                let want = Shown {
                    generation: doc.generation,
                    view: view.clone(),
                    size,
                    pose: doc.pose.clone(),
                };
                if let Some(target) = &self.target
                    && self.shown.as_ref() != Some(&want)
                {
                    self.renderer
                        .render(&rs.device, &rs.queue, target, &doc.pose, &view);
                    self.shown = Some(want);
                }
                if let Some(tex) = self.texture {
                    let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
                    ui.painter().image(tex, rect, uv, egui::Color32::WHITE);
                }
            }
            None => {
                let [r, g, b, _] = view.background;
                ui.painter()
                    .rect_filled(rect, 0.0, egui::Color32::from_rgb(r, g, b));
                ui.painter().text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    "Drop a model here, or File > Open… (Ctrl+O)",
                    egui::FontId::proportional(18.0),
                    egui::Color32::from_gray(200),
                );
            }
        }
        let mut out = camera_input(ui, &response);
        out.extend(super::inspect::view_inspect::view_inspect_ui(
            ui, &response, state,
        ));
        out
    }

    /// Makes the target `size` pixels, (re)registering its texture with egui.
    fn ensure_target(&mut self, rs: &egui_wgpu::RenderState, size: [u32; 2]) {
        if self
            .target
            .as_ref()
            .is_some_and(|t| [t.width, t.height] == size)
        {
            return;
        }
        let target = RenderTarget::new(&rs.device, size[0], size[1]);
        let mut renderer = rs.renderer.write();
        match self.texture {
            Some(id) => renderer.update_egui_texture_from_wgpu_texture(
                &rs.device,
                &target.color_view,
                wgpu::FilterMode::Linear,
                id,
            ),
            None => {
                self.texture = Some(renderer.register_native_texture(
                    &rs.device,
                    &target.color_view,
                    wgpu::FilterMode::Linear,
                ));
            }
        }
        self.target = Some(target);
        self.shown = None;
    }
}

/// Camera commands from the pointer over the view and the view's keys.
pub fn camera_input(ui: &egui::Ui, response: &egui::Response) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let shift = ui.input(|i| i.modifiers.shift);
    let delta = response.drag_delta();
    if delta != egui::Vec2::ZERO {
        let pan = response.dragged_by(egui::PointerButton::Middle)
            || (response.dragged_by(egui::PointerButton::Primary) && shift);
        let light = response.dragged_by(egui::PointerButton::Primary)
            && ui.input(|i| super::lighting::is_light_drag(i.modifiers));
        if light {
            out.push(AppCommand::Light(LightCommand::Drag {
                dx: delta.x,
                dy: delta.y,
            }));
        } else if pan {
            out.push(AppCommand::View(ViewCommand::Pan {
                dx: delta.x,
                dy: delta.y,
                view_height: response.rect.height(),
            }));
        } else if response.dragged_by(egui::PointerButton::Primary) {
            out.push(AppCommand::View(ViewCommand::Orbit {
                dx: delta.x,
                dy: delta.y,
            }));
        }
    }
    if response.drag_stopped_by(egui::PointerButton::Primary)
        && ui.input(|i| super::lighting::is_light_drag(i.modifiers))
    {
        out.push(AppCommand::Light(LightCommand::Save));
    }
    if response.hovered() {
        let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let mut steps = scroll / POINTS_PER_NOTCH;
        if zoom != 1.0 && zoom > 0.0 {
            // Ctrl + wheel and pinch arrive as a zoom factor; 0.9 per notch as the camera.
            steps += zoom.ln() / (1.0f32 / 0.9).ln();
        }
        if steps != 0.0 {
            out.push(AppCommand::View(ViewCommand::Zoom(steps)));
        }
    }
    if !ui.ctx().text_edit_focused() {
        ui.ctx().input_mut(|i| {
            let none = egui::Modifiers::NONE;
            for (key, cmd, _) in view_keys() {
                if i.consume_key(none, key) {
                    out.push(cmd);
                }
            }
        });
    }
    out
}

/// The view presets as the menu and the side panel offer them: label ("Front"), key
/// ("1") and preset, taken from [`view_keys`] so the three cannot disagree.
pub fn preset_buttons() -> impl Iterator<Item = (&'static str, &'static str, ViewPreset)> {
    view_keys()
        .into_iter()
        .filter_map(|(key, command, what)| match command {
            AppCommand::View(ViewCommand::Preset(preset)) => {
                Some((what.trim_end_matches(" view"), key.symbol_or_name(), preset))
            }
            _ => None,
        })
}

/// The view's keys (no modifier): what [`camera_input`] handles and the Help window
/// lists.
pub fn view_keys() -> [(egui::Key, AppCommand, &'static str); 7] {
    [
        (
            egui::Key::F,
            AppCommand::View(ViewCommand::Frame),
            "Frame the model",
        ),
        (
            egui::Key::Num1,
            AppCommand::View(ViewCommand::Preset(ViewPreset::Front)),
            "Front view",
        ),
        (
            egui::Key::Num3,
            AppCommand::View(ViewCommand::Preset(ViewPreset::Side)),
            "Side view",
        ),
        (
            egui::Key::Num7,
            AppCommand::View(ViewCommand::Preset(ViewPreset::Top)),
            "Top view",
        ),
        (
            egui::Key::Num0,
            AppCommand::View(ViewCommand::Preset(ViewPreset::Iso)),
            "Iso view",
        ),
        (
            egui::Key::Num9,
            AppCommand::View(ViewCommand::Preset(ViewPreset::Game)),
            "Game view",
        ),
        (
            egui::Key::Num5,
            AppCommand::View(ViewCommand::ToggleOrtho),
            "Perspective / orthographic",
        ),
    ]
}

/// The mouse over the view ([`camera_input`], and clicks in
/// [`super::inspect::view_inspect::view_inspect_ui`]), for the Help window. `{mod}` stands for the
/// light-drag modifier as the platform writes it.
pub const MOUSE: &[(&str, &str)] = &[
    ("Left drag", "Orbit"),
    ("Shift + left drag, middle drag", "Pan"),
    ("{mod} + left drag", "Turn the light"),
    ("Wheel, {mod} + wheel, pinch", "Zoom"),
    ("Click", "Select the part under the pointer"),
    ("Hover", "Name the part under the pointer"),
];
