//! The renderer driven as the tests drive it: a device and a renderer reused across one
//! test's renders ([`Rig`]), views and framing, and models built in code ([`fixtures`]).

pub mod fixtures;

use vitrine_core::model::{Model, Pose};
use vitrine_render::{
    Camera, Gpu, Lighting, RenderTarget, SceneRenderer, ViewSettings, visible_points,
};

/// A device plus a renderer, reused across the renders of one test.
pub struct Rig {
    /// The headless device.
    pub gpu: Gpu,
    /// The renderer, with the last model set.
    pub scene: SceneRenderer,
}

impl Rig {
    /// For a test marked `#[vitrine_test(gpu)]` (see [`crate::gpu`], which panics in any
    /// other test and without an adapter); textures are read from [`crate::disk`].
    #[track_caller]
    #[allow(
        clippy::new_without_default,
        reason = "it opens a GPU device and panics without one: not a default value"
    )]
    pub fn new() -> Rig {
        let gpu = crate::gpu();
        let scene = SceneRenderer::new(&gpu.device, &gpu.queue, crate::disk());
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

/// Mean brightness of the model's pixels (those not `bg`) in the left and right thirds
/// of the picture, rows in the middle fifth (below a cube's top face in the iso view):
/// which side a light reaches.
pub fn side_brightness(bg: [u8; 4], img: &image::RgbaImage) -> (f32, f32) {
    let (w, h) = img.dimensions();
    let mean = |x0: u32, x1: u32| {
        let v: Vec<f32> = (x0..x1)
            .flat_map(|x| (h * 3 / 5..h * 4 / 5).map(move |y| (x, y)))
            .map(|(x, y)| img.get_pixel(x, y).0)
            .filter(|p| *p != bg)
            .map(|p| (p[0] as f32 + p[1] as f32 + p[2] as f32) / 3.0)
            .collect();
        assert!(v.len() > 20, "model pixels in the band: {}", v.len());
        v.iter().sum::<f32>() / v.len() as f32
    };
    (mean(0, w / 3), mean(w * 2 / 3, w))
}
