//! Shared by the render tests: models built in code, rendering helpers and the golden
//! image comparison.
#![allow(dead_code)]

pub mod fixtures;
pub mod golden;

use vitrine::model::{Model, Pose};
use vitrine::render::{
    Camera, Gpu, Lighting, RenderTarget, SceneRenderer, ViewSettings, visible_points,
};

/// A device plus a renderer, reused across the renders of one test.
pub struct Rig {
    pub gpu: Gpu,
    pub scene: SceneRenderer,
}

impl Rig {
    /// For a test marked `#[vitrine_test(gpu)]` (see `common::gpu`, which panics in any
    /// other test and without an adapter).
    #[track_caller]
    pub fn new() -> Rig {
        let gpu = crate::common::gpu();
        let scene = SceneRenderer::new(&gpu.device, &gpu.queue, vitrine::files::disk());
        Rig { gpu, scene }
    }

    /// Loads `model` and renders it in `pose` at `size`² with `view`.
    pub fn render_pose(
        &mut self,
        model: &Model,
        pose: &Pose,
        view: &ViewSettings,
        size: u32,
    ) -> image::RgbaImage {
        let (d, q) = (&self.gpu.device, &self.gpu.queue);
        self.scene.set_model(d, q, model);
        let target = RenderTarget::new(d, size, size);
        self.scene.render(d, q, &target, pose, view);
        target.read_rgba(d, q).expect("readback")
    }

    /// Renders the rest pose, framed, with `view` (its camera is re-framed).
    pub fn render(&mut self, model: &Model, view: &ViewSettings, size: u32) -> image::RgbaImage {
        let pose = Pose::rest(model);
        let mut view = view.clone();
        framed(&mut view.camera, model, &pose);
        self.render_pose(model, &pose, &view, size)
    }
}

/// Frames `camera` on the model's points in `pose` for a square view (as the CLI does).
pub fn framed(camera: &mut Camera, model: &Model, pose: &Pose) {
    camera.frame_points(&visible_points(model, pose), 1.0);
}

/// Unlit view from +Z (the side the test quads face) on an opaque background: texture
/// bytes come out as stored.
pub fn unlit_front() -> ViewSettings {
    let mut v = ViewSettings {
        lighting: Lighting::UNLIT,
        background: [0, 0, 0, 255],
        ..Default::default()
    };
    look_from_plus_z(&mut v.camera);
    v
}

/// Points `camera` along −Z, from the +Z side the test quads face.
pub fn look_from_plus_z(camera: &mut Camera) {
    camera.yaw = 0.0;
    camera.pitch = 0.0;
}

/// Pixels whose colour differs from `bg` (RGB) or whose alpha differs from `bg`'s.
pub fn foreground_box(img: &image::RgbaImage, bg: [u8; 4]) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in img.enumerate_pixels() {
        if p.0 != bg {
            b = Some(match b {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    b
}

/// Whether two colours are within `tol` per channel.
pub fn near(a: [u8; 4], b: [u8; 4], tol: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tol)
}
