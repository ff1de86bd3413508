//! Drawing a model: GPU resources cached per model, pipelines per material state.
//! (Being written: this file fixes the API the window and the CLI use.)

use super::Camera;
use super::RenderTarget;
use crate::model::{Model, Pose};
use glam::Vec3;

/// Per-frame settings of a view.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewSettings {
    /// The camera.
    pub camera: Camera,
    /// Team colour index into [`super::TEAM_COLOURS`].
    pub team: usize,
    /// Background, sRGB bytes with alpha (alpha 0 = transparent PNG).
    pub background: [u8; 4],
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            camera: Camera::default(),
            team: 0,
            background: [48, 52, 60, 255],
        }
    }
}

/// Draws one model at a time; created once per device.
#[derive(Debug)]
pub struct SceneRenderer {}

impl SceneRenderer {
    /// Builds pipelines and samplers.
    pub fn new(_device: &wgpu::Device, _queue: &wgpu::Queue) -> SceneRenderer {
        todo!("render helper")
    }

    /// Uploads `model` (meshes, decoded textures, placeholders for missing ones),
    /// releasing the previous model's resources.
    pub fn set_model(&mut self, _device: &wgpu::Device, _queue: &wgpu::Queue, _model: &Model) {
        todo!("render helper")
    }

    /// Draws the current model in `pose` into `target`.
    pub fn render(
        &mut self,
        _device: &wgpu::Device,
        _queue: &wgpu::Queue,
        _target: &RenderTarget,
        _pose: &Pose,
        _view: &ViewSettings,
    ) {
        todo!("render helper")
    }
}

/// Model-space bounds of everything visible in `pose` (`None` if nothing is).
pub fn model_bounds(model: &Model, pose: &Pose) -> Option<(Vec3, Vec3)> {
    let mut acc: Option<(Vec3, Vec3)> = None;
    for (i, node) in model.nodes.iter().enumerate() {
        let (Some(m), true) = (node.mesh, pose.visible[i]) else {
            continue;
        };
        for p in &model.meshes[m].points {
            let w = pose.world[i].transform_point3(*p);
            acc = Some(match acc {
                Some((lo, hi)) => (lo.min(w), hi.max(w)),
                None => (w, w),
            });
        }
    }
    acc
}
