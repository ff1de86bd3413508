//! Marks on parts of a mesh smaller than a node (the `vitrine check` finding the user
//! picked): triangles outlined and points ringed, drawn over everything so a marked
//! element inside the model stays visible. Format-neutral: mesh indices, triangle
//! indices and point indices of the [`vitrine_core::model::Model`], posed like the view.

use crate::inspect::overlays::{OverlayInput, Segment};
use glam::{Vec2, Vec3};

/// Colour of the marks (sRGB, alpha).
pub(crate) const HIGHLIGHT: [u8; 4] = [255, 40, 70, 255];
/// Ring radius around a marked point, pixels.
const POINT_RING: f32 = 7.0;

/// Elements to mark; empty marks nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlight {
    /// `(mesh, triangle)` pairs to outline.
    pub triangles: Vec<(usize, u32)>,
    /// `(mesh, point)` pairs to ring.
    pub points: Vec<(usize, u32)>,
}

impl Highlight {
    /// Whether nothing is marked.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty() && self.points.is_empty()
    }
}

/// The segments marking `inp.view.highlight` on the shown, posed meshes.
pub(crate) fn segments(inp: &OverlayInput) -> Vec<Segment> {
    let h = &inp.view.highlight;
    let mut out = Vec::new();
    for &(mesh, t) in &h.triangles {
        let Some(pm) = inp.meshes.iter().find(|m| m.mesh == mesh) else {
            continue;
        };
        let Some(tri) = inp.model.meshes[mesh]
            .corners
            .get(t as usize * 3..t as usize * 3 + 3)
        else {
            continue;
        };
        let p: Vec<Vec3> = tri
            .iter()
            .filter_map(|c| pm.points.get(c.point as usize).copied())
            .collect();
        if p.len() != 3 {
            continue;
        }
        for (a, b) in [(p[0], p[1]), (p[1], p[2]), (p[2], p[0])] {
            out.push(Segment::line(a, b, HIGHLIGHT, 3.0, 0.0).on_top());
        }
        // A ring at the centre finds a sliver or a degenerate triangle too.
        ring(&mut out, (p[0] + p[1] + p[2]) / 3.0);
    }
    for &(mesh, point) in &h.points {
        if let Some(p) = inp
            .meshes
            .iter()
            .find(|m| m.mesh == mesh)
            .and_then(|pm| pm.points.get(point as usize))
        {
            ring(&mut out, *p);
        }
    }
    out
}

fn ring(out: &mut Vec<Segment>, at: Vec3) {
    const N: usize = 12;
    let p = |k: usize| {
        let a = k as f32 / N as f32 * std::f32::consts::TAU;
        Vec2::new(a.cos(), a.sin()) * POINT_RING
    };
    for k in 0..N {
        out.push(Segment::anchored(at, p(k), p(k + 1), HIGHLIGHT, 2.5).on_top());
    }
}
