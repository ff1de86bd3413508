//! What a rendered picture is framed on: the model over its clip, plus the connector
//! markers and the shadow when they are drawn. `vitrine render` and the animation export
//! frame the same way, so a still of frame N and frame N of an export are the same picture.

use super::{ViewSettings, clip_points, visible_points};
use glam::Vec3;
use vitrine_core::model::{Model, Pose};

/// The points to frame a picture of `model` in `pose` on: every frame of `clip` if one
/// is given (so the model stays in the picture while it plays), else what `pose` shows;
/// the connectors when the view draws them; the shadow mesh or the shadow on the ground
/// when drawn.
pub fn framing_points(
    model: &Model,
    clip: Option<usize>,
    pose: &Pose,
    view: &ViewSettings,
) -> Vec<Vec3> {
    let mut points = match clip {
        Some(c) => clip_points(model, Some(c), view.team),
        None => visible_points(model, pose),
    };
    if view.overlays.connectors {
        // Markers at the edge of the picture would be cut: frame the connectors too.
        points.extend(model.connectors.iter().map(|c| {
            let world = pose.world.get(c.node).copied().unwrap_or_default();
            world.transform_point3(c.position)
        }));
    }
    if view.shadows || view.overlays.shadow_mesh {
        // The shadow mesh, and the shadow on the ground, belong in the picture too.
        use super::inspect::shadows::{shadow_footprint, shadow_light};
        let casters = super::inspect::posed::shadow_casters(model, pose, &view.node_mask);
        let ground = points
            .iter()
            .chain(casters.iter().flatten())
            .map(|p| p.y)
            .fold(f32::INFINITY, f32::min);
        let light = shadow_light(view.lighting.direction(&view.camera));
        if view.shadows {
            points.extend(shadow_footprint(&casters, ground, light));
        } else {
            points.extend(casters.iter().flatten());
        }
    }
    points
}
