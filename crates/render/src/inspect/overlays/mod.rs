//! The overlays' geometry, built on the CPU each frame as screen-width line segments
//! (`Segment`), which `shaders/overlay.wgsl` expands to quads. Pure: the same function
//! feeds the window, `vitrine render` and the tests.
//!
//! Sizes: lines and markers are in pixels (a connector marker looks the same at any
//! zoom); lengths in the model (normals, the connector triad, origin axes) are fractions of
//! the visible model's bounding radius. Colours are sRGB bytes.
//!
//! Ground grid: one line per `unit` (the caller's unit, e.g. the Warzone 2100 tile of 128,
//! else [`auto_grid_unit`]), on the plane under the lowest visible point. Bones, axes and
//! connectors are `markers`.

mod markers;

pub use markers::{Label, labels};
use markers::{axes, bones, connectors};

use crate::inspect::posed::{PosedMesh, posed_bounds};
use crate::inspect::stroke_font::{text_segments, text_width};
use crate::inspect::{Overlays, node_shown, subtree};
use crate::{Camera, ViewSettings};
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec2, Vec3};
use std::collections::HashSet;
use vitrine_core::model::{Model, Pose};

/// One line segment as the overlay shader reads it (an instance).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub(crate) struct Segment {
    /// xyz: model-space start, w = 1; or w = 0: xy is a pixel position (origin top-left).
    pub a: [f32; 4],
    /// The end, as `a`.
    pub b: [f32; 4],
    /// Pixel offsets added on screen: xy to `a`, zw to `b` (y down).
    pub offset: [f32; 4],
    /// sRGB colour with straight alpha, 0..1.
    pub color: [f32; 4],
    /// x: width in pixels; y: pull towards the eye (fraction of the distance, so lines
    /// on a surface win the depth test); z: 1 = drawn on top of everything.
    pub style: [f32; 4],
}

impl Segment {
    /// A model-space line.
    pub fn line(a: Vec3, b: Vec3, color: [u8; 4], width: f32, bias: f32) -> Segment {
        Segment {
            a: a.extend(1.0).to_array(),
            b: b.extend(1.0).to_array(),
            offset: [0.0; 4],
            color: rgba(color),
            style: [width, bias, 0.0, 0.0],
        }
    }

    /// A line between two pixel offsets from the model-space point `anchor`.
    pub(crate) fn anchored(anchor: Vec3, a: Vec2, b: Vec2, color: [u8; 4], width: f32) -> Segment {
        Segment {
            a: anchor.extend(1.0).to_array(),
            b: anchor.extend(1.0).to_array(),
            offset: [a.x, a.y, b.x, b.y],
            color: rgba(color),
            style: [width, 0.0, 0.0, 0.0],
        }
    }

    /// A line between two pixel positions, on top of everything.
    pub fn screen(a: Vec2, b: Vec2, color: [u8; 4], width: f32) -> Segment {
        Segment {
            a: [a.x, a.y, 0.0, 0.0],
            b: [b.x, b.y, 0.0, 0.0],
            offset: [0.0; 4],
            color: rgba(color),
            style: [width, 0.0, 1.0, 0.0],
        }
    }

    /// The same segment drawn over everything (bones sit inside the mesh they move).
    pub(crate) fn on_top(mut self) -> Segment {
        self.style[2] = 1.0;
        self
    }
}

fn rgba(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| v as f32 / 255.0)
}

/// Overlay colours (sRGB bytes, alpha).
pub mod colours {
    /// Wireframe edges.
    pub(crate) const WIRE: [u8; 4] = [235, 235, 235, 170];
    /// Vertex normals.
    pub(crate) const NORMAL: [u8; 4] = [60, 210, 255, 255];
    /// Bounding box and its dimensions.
    pub(crate) const BOUNDS: [u8; 4] = [255, 214, 60, 255];
    /// Ground grid.
    pub(crate) const GRID: [u8; 4] = [170, 170, 170, 110];
    /// Connector markers and numbers.
    pub const CONNECTOR: [u8; 4] = [255, 70, 200, 255];
    /// Dark outline behind markers and text.
    pub(crate) const OUTLINE: [u8; 4] = [15, 15, 20, 230];
    /// Bones and joints.
    pub(crate) const BONE: [u8; 4] = [255, 165, 40, 255];
    /// The selected bone.
    pub(crate) const BONE_SELECTED: [u8; 4] = [255, 255, 255, 255];
    /// Collision boxes.
    pub(crate) const COLLISION: [u8; 4] = [90, 255, 130, 255];
    /// Shadow mesh edges.
    pub(crate) const SHADOW_MESH: [u8; 4] = [185, 110, 255, 255];
    /// The X, Y, Z axes.
    pub(crate) const AXES: [[u8; 4]; 3] =
        [[235, 70, 70, 255], [90, 210, 90, 255], [80, 130, 255, 255]];
    /// Tint over the selected node.
    pub(crate) const SELECTION: [u8; 4] = [255, 150, 30, 90];
}

/// Height of connector numbers and dimension text, pixels.
const TEXT_HEIGHT: f32 = 11.0;

/// A grid unit for a model `size` units across when its format has no natural one: a
/// 1, 2 or 5 times a power of ten giving about ten cells across the model.
pub fn auto_grid_unit(size: f32) -> f32 {
    if !(size.is_finite() && size > 0.0) {
        return 1.0;
    }
    let raw = size / 10.0;
    let p = 10f32.powf(raw.log10().floor());
    let m = raw / p;
    let step = if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    };
    step * p
}

/// Short text for a length: at most one decimal, no trailing `.0`.
pub fn length_text(v: f32) -> String {
    let r = (v * 10.0).round() / 10.0;
    if (r - r.round()).abs() < 1e-4 {
        format!("{}", r.round() as i64)
    } else {
        format!("{r:.1}")
    }
}

/// What the overlays are drawn from this frame.
pub(crate) struct OverlayInput<'a> {
    /// The model.
    pub model: &'a Model,
    /// Its pose.
    pub pose: &'a Pose,
    /// View settings (overlays, mask, selection, camera).
    pub view: &'a ViewSettings,
    /// The shown nodes' meshes, posed.
    pub meshes: &'a [PosedMesh],
    /// Viewport size in pixels.
    pub size: Vec2,
    /// Grid unit in model units.
    pub grid_unit: f32,
}

/// The world matrix of node `node` when it is shown (identity for a node the pose lacks).
fn shown_world(inp: &OverlayInput, node: usize) -> Option<Mat4> {
    node_shown(inp.pose, &inp.view.node_mask, node)
        .then(|| inp.pose.world.get(node).copied().unwrap_or(Mat4::IDENTITY))
}

/// Model-space bounds of what is shown: meshes, else joints and connectors.
fn scene_bounds(inp: &OverlayInput) -> Option<(Vec3, Vec3)> {
    posed_bounds(inp.meshes).or_else(|| {
        let pts: Vec<Vec3> = (0..inp.model.nodes.len())
            .filter(|&i| node_shown(inp.pose, &inp.view.node_mask, i))
            .map(|i| inp.pose.world[i].w_axis.truncate())
            .collect();
        let first = *pts.first()?;
        Some(
            pts.iter()
                .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))),
        )
    })
}

/// Every segment the enabled overlays draw, in drawing order. Depth-tested except the
/// corner gizmo and the bones, which are drawn over everything (a skeleton sits inside
/// its mesh).
pub(crate) fn build(inp: &OverlayInput) -> Vec<Segment> {
    let o = &inp.view.overlays;
    let mut out = Vec::new();
    let bounds = scene_bounds(inp);
    let radius = bounds
        .map(|(lo, hi)| ((hi - lo).length() * 0.5).max(1e-3))
        .unwrap_or(inp.view.camera.radius.max(1e-3));
    guides(&mut out, inp);
    if o.grid
        && let Some(b) = bounds
    {
        grid(&mut out, b, inp.grid_unit);
    }
    if o.wireframe {
        wireframe(&mut out, inp);
    }
    if o.normals {
        normals(&mut out, inp, o.normal_length * radius);
    }
    if o.shadow_mesh {
        shadow_mesh(&mut out, inp);
    }
    if o.collision {
        collision(&mut out, inp);
    }
    if o.bounds
        && let Some(b) = bounds
    {
        bounds_box(&mut out, b, &inp.view.camera, inp.size);
    }
    if o.bones {
        bones(&mut out, inp);
    }
    if o.axes {
        axes(&mut out, inp, radius);
    }
    if o.connectors {
        connectors(&mut out, inp, radius);
    }
    out
}

/// The model's guides whose node is shown, whatever the overlay toggles: each segment
/// over a dark outline, depth-tested and pulled a little towards the eye (they lie on
/// surfaces), the label beside the first point.
fn guides(out: &mut Vec<Segment>, inp: &OverlayInput) {
    for g in &inp.model.guides {
        let Some(world) = shown_world(inp, g.node) else {
            continue;
        };
        let at = |p: Vec3| world.transform_point3(p);
        let outline = [
            colours::OUTLINE[0],
            colours::OUTLINE[1],
            colours::OUTLINE[2],
            120,
        ];
        for (c, w) in [(outline, g.width + 2.0), (g.colour, g.width)] {
            for (a, b) in g.segments() {
                out.push(Segment::line(at(a), at(b), c, w, 0.002));
            }
        }
        if let (Some(text), Some(&first)) = (&g.label, g.points.first()) {
            label(out, at(first), Vec2::new(0.0, -TEXT_HEIGHT), text, g.colour);
        }
    }
}

fn grid(out: &mut Vec<Segment>, (lo, hi): (Vec3, Vec3), unit: f32) {
    let mut unit = if unit.is_finite() && unit > 0.0 {
        unit
    } else {
        1.0
    };
    let size = (hi - lo).max_element().max(1e-3);
    let centre = (lo + hi) * 0.5;
    let half = size * 0.75;
    // At most 100 lines per direction: coarsen a unit far smaller than the model.
    while half * 2.0 / unit > 100.0 {
        unit *= 10.0;
    }
    let (x0, x1) = (
        ((centre.x - half) / unit).floor() as i64,
        ((centre.x + half) / unit).ceil() as i64,
    );
    let (z0, z1) = (
        ((centre.z - half) / unit).floor() as i64,
        ((centre.z + half) / unit).ceil() as i64,
    );
    let y = lo.y;
    let f = |i: i64| i as f32 * unit;
    for i in x0..=x1 {
        let c = if i == 0 {
            colours::AXES[2]
        } else {
            colours::GRID
        };
        out.push(Segment::line(
            Vec3::new(f(i), y, f(z0)),
            Vec3::new(f(i), y, f(z1)),
            c,
            1.0,
            0.0,
        ));
    }
    for k in z0..=z1 {
        let c = if k == 0 {
            colours::AXES[0]
        } else {
            colours::GRID
        };
        out.push(Segment::line(
            Vec3::new(f(x0), y, f(k)),
            Vec3::new(f(x1), y, f(k)),
            c,
            1.0,
            0.0,
        ));
    }
}

fn wireframe(out: &mut Vec<Segment>, inp: &OverlayInput) {
    for pm in inp.meshes {
        let mesh = &inp.model.meshes[pm.mesh];
        let mut seen = HashSet::new();
        for tri in mesh.corners.chunks_exact(3) {
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                let (a, b) = (tri[i].point, tri[j].point);
                if !seen.insert((a.min(b), a.max(b))) {
                    continue;
                }
                if let (Some(pa), Some(pb)) = (pm.points.get(a as usize), pm.points.get(b as usize))
                {
                    out.push(Segment::line(*pa, *pb, colours::WIRE, 1.0, 0.002));
                }
            }
        }
    }
}

fn normals(out: &mut Vec<Segment>, inp: &OverlayInput, length: f32) {
    for pm in inp.meshes {
        let mesh = &inp.model.meshes[pm.mesh];
        let mut seen = HashSet::new();
        for (c, n) in mesh.corners.iter().zip(&pm.normals) {
            let Some(p) = pm.points.get(c.point as usize) else {
                continue;
            };
            // One line per distinct (point, normal): shared flat corners repeat.
            let key = (c.point, n.to_array().map(f32::to_bits));
            if n.length_squared() == 0.0 || !seen.insert(key) {
                continue;
            }
            out.push(Segment::line(
                *p,
                *p + *n * length,
                colours::NORMAL,
                1.2,
                0.002,
            ));
        }
    }
}

fn box_edges(corner: impl Fn(usize) -> Vec3) -> [(Vec3, Vec3); 12] {
    let e = |a: usize, b: usize| (corner(a), corner(b));
    [
        e(0, 1),
        e(2, 3),
        e(4, 5),
        e(6, 7),
        e(0, 2),
        e(1, 3),
        e(4, 6),
        e(5, 7),
        e(0, 4),
        e(1, 5),
        e(2, 6),
        e(3, 7),
    ]
}

/// Corner `i` of the box (bit 0: x, bit 1: y, bit 2: z).
fn corner(lo: Vec3, hi: Vec3, i: usize) -> Vec3 {
    Vec3::new(
        if i & 1 == 0 { lo.x } else { hi.x },
        if i & 2 == 0 { lo.y } else { hi.y },
        if i & 4 == 0 { lo.z } else { hi.z },
    )
}

fn shadow_mesh(out: &mut Vec<Segment>, inp: &OverlayInput) {
    for s in &inp.model.shadow_meshes {
        let Some(world) = shown_world(inp, s.node) else {
            continue;
        };
        let mut seen = HashSet::new();
        for t in &s.triangles {
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                let (a, b) = (t[i], t[j]);
                if !seen.insert((a.min(b), a.max(b))) {
                    continue;
                }
                if let (Some(pa), Some(pb)) = (s.points.get(a as usize), s.points.get(b as usize)) {
                    out.push(Segment::line(
                        world.transform_point3(*pa),
                        world.transform_point3(*pb),
                        colours::SHADOW_MESH,
                        1.5,
                        0.003,
                    ));
                }
            }
        }
    }
}

fn collision(out: &mut Vec<Segment>, inp: &OverlayInput) {
    for b in &inp.model.collision_boxes {
        if let Some(n) = b.node
            && !node_shown(inp.pose, &inp.view.node_mask, n)
        {
            continue;
        }
        let world = b
            .node
            .and_then(|n| inp.pose.world.get(n))
            .copied()
            .unwrap_or(Mat4::IDENTITY);
        for (p, q) in box_edges(|i| world.transform_point3(corner(b.min, b.max, i))) {
            out.push(Segment::line(p, q, colours::COLLISION, 1.5, 0.002));
        }
    }
}

/// Text centred on `anchor` (plus `shift` pixels), with a dark outline under it.
fn label(out: &mut Vec<Segment>, anchor: Vec3, shift: Vec2, text: &str, color: [u8; 4]) {
    let origin = shift - Vec2::new(text_width(text, TEXT_HEIGHT), TEXT_HEIGHT) * 0.5;
    let segs = text_segments(text, TEXT_HEIGHT);
    for (c, w) in [(colours::OUTLINE, 3.5), (color, 1.5)] {
        for [a, b] in &segs {
            out.push(Segment::anchored(anchor, origin + *a, origin + *b, c, w));
        }
    }
}

fn bounds_box(out: &mut Vec<Segment>, (lo, hi): (Vec3, Vec3), camera: &Camera, size: Vec2) {
    for (p, q) in box_edges(|i| corner(lo, hi, i)) {
        out.push(Segment::line(p, q, colours::BOUNDS, 1.5, 0.0));
    }
    // Each dimension on the edge along its axis that is nearest the eye, pushed outwards
    // from the box's centre on screen.
    let eye = camera.eye();
    let centre = (lo + hi) * 0.5;
    let centre_px = camera.project(centre, size.x, size.y);
    for axis in 0..3 {
        let bit = 1 << axis;
        let mut best: Option<(f32, Vec3)> = None;
        for i in (0..8).filter(|i| i & bit == 0) {
            let mid = (corner(lo, hi, i) + corner(lo, hi, i | bit)) * 0.5;
            let d = mid.distance_squared(eye);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, mid));
            }
        }
        let Some((_, mid)) = best else { continue };
        let shift = match (camera.project(mid, size.x, size.y), centre_px) {
            (Some(m), Some(c)) => (m - c).normalize_or_zero() * 14.0,
            _ => Vec2::ZERO,
        };
        let extent = (hi - lo)[axis];
        let mut text = Vec::new();
        label(&mut text, mid, shift, &length_text(extent), colours::BOUNDS);
        // Annotations outside the box: never cut by the model.
        out.extend(text.into_iter().map(Segment::on_top));
    }
}

/// Segments of the selection tint: the selected subtree's posed triangles, as filled
/// triangles (three points each) for the tint pipeline.
pub(crate) fn selection_triangles(inp: &OverlayInput) -> Vec<[Vec3; 3]> {
    let Some(sel) = inp.view.selected else {
        return Vec::new();
    };
    let inside = subtree(inp.model, sel);
    let mut out = Vec::new();
    for pm in inp
        .meshes
        .iter()
        .filter(|m| inside.get(m.node).copied().unwrap_or(false))
    {
        for tri in inp.model.meshes[pm.mesh].corners.chunks_exact(3) {
            let p = [0, 1, 2].map(|k| pm.points.get(tri[k].point as usize).copied());
            if let [Some(a), Some(b), Some(c)] = p {
                out.push([a, b, c]);
            }
        }
    }
    out
}

/// Whether `overlays` draw anything for this view (x-ray alone does not).
pub fn wanted(overlays: &Overlays, selected: Option<usize>) -> bool {
    overlays.any() || selected.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_units_are_round_numbers_about_a_tenth_of_the_model() {
        for (size, unit) in [
            (1.0, 0.1),
            (3.0, 0.2),
            (40.0, 5.0),
            (95.0, 10.0),
            (0.0, 1.0),
        ] {
            assert!(
                (auto_grid_unit(size) - unit).abs() < 1e-5,
                "{size}: {}",
                auto_grid_unit(size)
            );
        }
        assert_eq!(length_text(44.0), "44");
        assert_eq!(length_text(12.46), "12.5");
    }
}
