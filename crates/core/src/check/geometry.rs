//! Mesh facts the PIE rules need: welded vertex count, degenerate triangles, unused and
//! duplicate points. Computed on the model's meshes (points keep the file's order).

use crate::model::Mesh;
use std::collections::{HashMap, HashSet};

/// Distinct (point, UV, normal) corners: the vertices the game's welder keeps.
pub(crate) fn welded_vertices(mesh: &Mesh) -> usize {
    let mut seen = HashSet::with_capacity(mesh.corners.len());
    for c in &mesh.corners {
        let n = c.normal.map(|n| n.to_array().map(f32::to_bits));
        seen.insert((c.point, c.uv[0].to_array().map(f32::to_bits), n));
    }
    seen.len()
}

/// Whether triangle `t` repeats a point or has (numerically) zero area.
pub fn degenerate(mesh: &Mesh, t: usize) -> bool {
    let c = &mesh.corners[t * 3..t * 3 + 3];
    let [a, b, d] = [c[0].point, c[1].point, c[2].point];
    if a == b || b == d || a == d {
        return true;
    }
    let [pa, pb, pd] = [a, b, d].map(|i| mesh.points[i as usize]);
    let cross = (pb - pa).cross(pd - pa);
    let scale = (pb - pa).length() * (pd - pa).length();
    scale == 0.0 || cross.length() <= scale * 1e-7
}

/// Points no triangle uses, in order.
pub(crate) fn unused_points(mesh: &Mesh) -> Vec<u32> {
    let mut used = vec![false; mesh.points.len()];
    for c in &mesh.corners {
        if let Some(u) = used.get_mut(c.point as usize) {
            *u = true;
        }
    }
    (0..mesh.points.len() as u32)
        .filter(|&i| !used[i as usize])
        .collect()
}

/// `(point, earlier point at the same position)` for each point that repeats an earlier
/// one exactly.
pub(crate) fn duplicate_points(mesh: &Mesh) -> Vec<(u32, u32)> {
    let mut first: HashMap<[u32; 3], u32> = HashMap::with_capacity(mesh.points.len());
    let mut out = Vec::new();
    for (i, p) in mesh.points.iter().enumerate() {
        // +0.0 and -0.0 are the same position.
        let key = (*p + glam::Vec3::ZERO)
            .to_array()
            .map(|v| (v + 0.0).to_bits());
        match first.get(&key) {
            Some(&j) => out.push((i as u32, j)),
            None => {
                first.insert(key, i as u32);
            }
        }
    }
    out
}
