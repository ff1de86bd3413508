//! What a rendered picture is framed on: the model over its clip, plus the connector
//! markers and the shadow when they are drawn. `vitrine render` and the animation export
//! frame the same way, so a still of frame N and frame N of an export are the same picture.

use super::{ViewSettings, clip_points, visible_points};
use glam::Vec3;
use vitrine_core::model::{Model, Pose};

/// The points to frame a picture of `model` in `pose` on: every frame of `clip` if one
/// is given (so the model stays in the picture while it plays), else what `pose` shows;
/// the connectors when the view draws them; the shadow mesh or the shadow on the ground
/// when drawn (a scene's own shadows add nothing: they fall on the scene).
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
    // The shadow on a ground plane (not a scene's own shadows: those fall on the scene).
    let ground_shadow = view.shadows && model.environment.shadows.is_none();
    if ground_shadow || view.overlays.shadow_mesh {
        // The shadow mesh, and the shadow on the ground, belong in the picture too.
        use super::inspect::shadows::{shadow_footprint, shadow_light};
        let casters = super::inspect::posed::shadow_casters(model, pose, &view.node_mask);
        let ground = points
            .iter()
            .chain(casters.iter().flatten())
            .map(|p| p.y)
            .fold(f32::INFINITY, f32::min);
        let light = shadow_light(view.lighting.direction(&view.camera));
        if ground_shadow {
            points.extend(shadow_footprint(&casters, ground, light));
        } else {
            points.extend(casters.iter().flatten());
        }
    }
    points
}

/// A picture framed edge to edge (a map's preview): an orthographic camera looking from
/// `yaw` and `pitch` whose picture holds exactly the points `across` from its left edge
/// to its right and from their nearest point at its bottom, up to the highest point of
/// `all` at its top — no margin. Seen
/// from straight above (pitch 90°) a rectangle `across` fills the picture corner to
/// corner; tilted, its near edge is the picture's bottom and what stands highest its top.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeToEdge {
    yaw: f32,
    pitch: f32,
    /// Extent along the picture's right vector, world units.
    across: (f32, f32),
    /// Extent along its up vector.
    down: (f32, f32),
    /// Extent along the direction towards the eye.
    depth: (f32, f32),
}

/// The steepest pitch a camera takes (straight down has no "up" to turn the picture by).
const STEEPEST: f32 = std::f32::consts::FRAC_PI_2 - 1e-3;

impl EdgeToEdge {
    /// The frame of `across` side to side and `all` (with `across`) top to bottom, seen
    /// from `yaw`, `pitch` (radians, as [`Camera`](crate::Camera) has them; the pitch is
    /// kept just under straight down). `None` without points or where they have no width.
    pub fn new(yaw: f32, pitch: f32, across: &[Vec3], all: &[Vec3]) -> Option<EdgeToEdge> {
        let pitch = pitch.clamp(-STEEPEST, STEEPEST);
        let camera = crate::Camera {
            yaw,
            pitch,
            ..Default::default()
        };
        let (right, up, back) = camera.axes();
        let span = |axis: Vec3, points: &mut dyn Iterator<Item = &Vec3>| {
            points.fold(None, |acc: Option<(f32, f32)>, p| {
                let v = p.dot(axis);
                Some(acc.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))))
            })
        };
        let across_span = span(right, &mut across.iter())?;
        // The bottom is `across`'s nearest edge (what dips below it, such as water at a
        // map's edge under its ground, is cut); the top whatever stands highest.
        let bottom = span(up, &mut across.iter())?.0;
        let down = (bottom, span(up, &mut across.iter().chain(all))?.1);
        let depth = span(back, &mut across.iter().chain(all))?;
        (across_span.1 - across_span.0 > 1e-6).then_some(EdgeToEdge {
            yaw,
            pitch,
            across: across_span,
            down,
            depth,
        })
    }

    /// Width over height of the framed extent.
    pub fn aspect(&self) -> f32 {
        (self.across.1 - self.across.0) / (self.down.1 - self.down.0).max(1e-6)
    }

    /// The picture size, in pixels, whose longer side is `longest` and whose shape is the
    /// frame's (each side at least 1): the width first, the height rounded up, so the
    /// frame's sides are the picture's and any part of a pixel left over is at the top.
    pub fn size(&self, longest: u32) -> (u32, u32) {
        let longest = longest.max(1);
        let aspect = self.aspect();
        let w = if aspect >= 1.0 {
            longest
        } else {
            ((longest as f32 * aspect).round() as u32).max(1)
        };
        // (Less a hair, so an exact fit is not a pixel more for a rounding error.)
        (w, ((w as f32 / aspect - 1e-3).ceil() as u32).max(1))
    }

    /// The camera drawing the frame into a `width` × `height` picture: the extent exactly
    /// from the left edge to the right, its bottom on the bottom edge ([`EdgeToEdge::size`]
    /// gives the height that holds the rest).
    pub fn camera(&self, width: u32, height: u32) -> crate::Camera {
        self.camera_in(width, height, width, height)
    }

    /// The camera drawing the frame into the top-left `width` × `height` pixels of a
    /// `target_width` × `target_height` picture (a batch's square target, cropped
    /// afterwards), as [`EdgeToEdge::camera`] draws it into a picture of its own.
    pub fn camera_in(
        &self,
        target_width: u32,
        target_height: u32,
        width: u32,
        height: u32,
    ) -> crate::Camera {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        let (tw, th) = (target_width.max(1) as f32, target_height.max(1) as f32);
        let ext = (
            self.across.1 - self.across.0,
            self.down.1 - self.down.0,
            self.depth.1 - self.depth.0,
        );
        // World units per pixel: the extent exactly across.
        let per_px = (ext.0 / w).max(1e-6);
        let mut camera = crate::Camera {
            yaw: self.yaw,
            pitch: self.pitch,
            orthographic: true,
            ..Default::default()
        };
        let (right, up, back) = camera.axes();
        // The picture's middle: `across.0` at pixel column 0, `down.0` at pixel row `h`.
        let across = self.across.0 + per_px * tw * 0.5;
        let down = self.down.0 + per_px * (h - th * 0.5);
        camera.target = right * across + up * down + back * (self.depth.0 + self.depth.1) * 0.5;
        camera.radius = (Vec3::new(ext.0, ext.1, ext.2).length() * 0.5).max(1e-3);
        // The eye stands clear of the nearest point; the field of view sets the scale.
        camera.distance = camera.radius * 2.0;
        camera.fov_y = 2.0 * (per_px * th * 0.5 / camera.distance).atan();
        camera
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64 × 32 tile map's ground as a map scene has it (x west, z north, y up).
    fn map_corners() -> [Vec3; 4] {
        let (w, h) = (64.0 * 128.0, 32.0 * 128.0);
        [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(-w, 0.0, 0.0),
            Vec3::new(0.0, 0.0, -h),
            Vec3::new(-w, 0.0, -h),
        ]
    }

    #[test]
    fn from_above_the_map_fills_the_picture_corner_to_corner() {
        use std::f32::consts::{FRAC_PI_2, PI};
        let corners = map_corners();
        let frame = EdgeToEdge::new(PI, FRAC_PI_2, &corners, &corners).unwrap();
        assert_eq!(frame.size(1024), (1024, 512));
        let camera = frame.camera(1024, 512);
        // North-west at the top left, south-east at the bottom right.
        let px: Vec<glam::Vec2> = corners
            .iter()
            .map(|c| camera.project(*c, 1024.0, 512.0).unwrap())
            .collect();
        let want = [(0.0, 0.0), (1024.0, 0.0), (0.0, 512.0), (1024.0, 512.0)];
        for (p, (x, y)) in px.iter().zip(want) {
            assert!((p.x - x).abs() < 0.5 && (p.y - y).abs() < 0.5, "{px:?}");
        }
    }

    #[test]
    fn in_a_larger_picture_the_frame_keeps_to_its_top_left_part() {
        use std::f32::consts::{FRAC_PI_2, PI};
        let corners = map_corners();
        let frame = EdgeToEdge::new(PI, FRAC_PI_2, &corners, &corners).unwrap();
        let camera = frame.camera_in(1024, 1024, 1024, 512);
        let se = camera.project(corners[3], 1024.0, 1024.0).unwrap();
        let nw = camera.project(corners[0], 1024.0, 1024.0).unwrap();
        assert!(nw.length() < 0.5, "{nw}");
        assert!((se - glam::Vec2::new(1024.0, 512.0)).length() < 0.5, "{se}");
    }

    #[test]
    fn tilted_the_near_edge_is_the_bottom_and_the_highest_point_the_top() {
        use std::f32::consts::PI;
        let corners = map_corners();
        // A tower 1000 units tall on the map's north edge, mid-way.
        let tower = Vec3::new(-4096.0, 1000.0, 0.0);
        let frame = EdgeToEdge::new(PI, 60f32.to_radians(), &corners, &[tower]).unwrap();
        let (w, h) = frame.size(1000);
        assert_eq!(w, 1000);
        let camera = frame.camera(w, h);
        let p = |v: Vec3| camera.project(v, w as f32, h as f32).unwrap();
        let (sw, se) = (p(corners[2]), p(corners[3]));
        assert!(sw.x.abs() < 0.5 && (sw.y - h as f32).abs() < 0.5, "{sw}");
        assert!((se.x - w as f32).abs() < 0.5 && (se.y - h as f32).abs() < 0.5);
        assert!(
            (0.0..1.0).contains(&p(tower).y),
            "the tower's top is the picture's top"
        );
        let nw = p(corners[0]);
        assert!(
            nw.x.abs() < 0.5 && nw.y > 10.0,
            "the north edge under the tower: {nw}"
        );
        // Every point is between the near and far planes.
        for v in corners.iter().chain([&tower]) {
            let clip = camera.projection(w as f32 / h as f32) * camera.view() * v.extend(1.0);
            assert!((0.0..=1.0).contains(&(clip.z / clip.w)), "{v}");
        }
    }
}
