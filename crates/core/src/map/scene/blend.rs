//! The blended ground of Warzone 2100 4.3 (`drawTerrain`: `drawDepthOnly`, then
//! `drawTerrainLayers`; notes §5) as meshes the renderer draws like any other:
//!
//! - a depth pre-pass: black and opaque, so the layers have black under them and a depth
//!   to be tested against;
//! - one layer per ground type (`ground`), drawn additively: the tiles with a corner of
//!   that ground, each point's opacity 1 where its ground is the layer's and 0 elsewhere
//!   (a tile's centre: the mean of its corners), so at every point the layers' opacities
//!   sum to 1 and the additive draws blend the ground textures;
//! - a shortcut the picture cannot tell from the game's: a tile whose four corners are of
//!   one ground is that ground's texture alone, so it is drawn opaque in its layer and
//!   left out of the pre-pass and the additive draws; only the tiles where grounds meet
//!   take the three draws (on the 250×250 Sk-Concrete this keeps the triangles near the
//!   classic tiles' count);
//! - each layer's texture laid in world space and repeating: corner (i, j) at
//!   `uv = (j, i) / size` (the game's `paramsX`/`paramsY`: u along world y, v along
//!   world x), `size` the tileset's tiles per repeat.
//!
//! The normals are those of the whole terrain (the faces around each point), so a layer's
//! edge is lit as the pre-pass under it.

use super::super::Terrain;
use super::terrain::{FAN, grid_points, tile_points};
use crate::model::{Corner, Mesh, Submesh};
use glam::{Vec2, Vec3};

/// The normal of each [`grid_points`] point: the normalised sum of the faces of every
/// tile's four triangles around it (what the game's per-vertex illumination sums).
pub fn grid_normals(ground: &Terrain, points: &[Vec3]) -> Vec<Vec3> {
    let (w, h) = (ground.width as i32, ground.height as i32);
    let mut sum = vec![Vec3::ZERO; points.len()];
    for y in 0..h {
        for x in 0..w {
            let (k, centre) = tile_points(ground, x, y);
            for [a, b] in FAN {
                let [p, q, r] = [centre, k[a], k[b]].map(|i| i as usize);
                let n = (points[q] - points[p])
                    .cross(points[r] - points[p])
                    .normalize_or_zero();
                for i in [p, q, r] {
                    sum[i] += n;
                }
            }
        }
    }
    sum.into_iter().map(|n| n.normalize_or(Vec3::Y)).collect()
}

/// Whether tile (x, y)'s corners are not all of one ground (`grounds`: one per corner).
fn mixed(ground: &Terrain, grounds: &[u8], x: i32, y: i32) -> bool {
    let (k, _) = tile_points(ground, x, y);
    let g = |i: usize| grounds.get(k[i] as usize).copied().unwrap_or(0);
    (1..4).any(|i| g(i) != g(0))
}

/// The depth pre-pass: the triangles of the tiles where grounds meet, one submesh
/// (material 0); `None` where every tile is of one ground.
pub fn depth_mesh(ground: &Terrain, grounds: &[u8], normals: &[Vec3]) -> Option<Mesh> {
    let (w, h) = (ground.width as i32, ground.height as i32);
    let mut mesh = Mesh {
        name: "ground depth".into(),
        points: grid_points(ground, 0.0),
        uv_sets: 1,
        ..Mesh::default()
    };
    for y in 0..h {
        for x in 0..w {
            if !mixed(ground, grounds, x, y) {
                continue;
            }
            let (k, centre) = tile_points(ground, x, y);
            for [a, b] in FAN {
                for p in [centre, k[a], k[b]] {
                    let mut c = Corner::new(p, Vec2::ZERO);
                    c.normal = normals.get(p as usize).copied();
                    mesh.corners.push(c);
                }
            }
        }
    }
    if mesh.corners.is_empty() {
        return None;
    }
    mesh.submeshes.push(Submesh {
        first_triangle: 0,
        triangle_count: mesh.triangle_count() as u32,
        material: 0,
    });
    Some(mesh)
}

/// One layer per ground index `0..sizes.len()` that some corner of `grounds` (a ground
/// per corner, as [`super::ground::corner_grounds`] gives) has: `(ground, mesh)` in index
/// order. Each mesh has the tiles of that ground alone (material 0, to be drawn opaque)
/// then the tiles where it meets others (material 1, additive), either run left out where
/// empty; its points' opacities are the ground's weight, its UVs repeat every
/// `sizes[ground]` tiles. `points` and `normals` are the grid's ([`grid_points`],
/// [`grid_normals`]).
pub fn layer_meshes(
    ground: &Terrain,
    points: &[Vec3],
    normals: &[Vec3],
    grounds: &[u8],
    sizes: &[f32],
) -> Vec<(usize, Mesh)> {
    let (w, h) = (ground.width as i32, ground.height as i32);
    let stride = w as usize + 1;
    let corner_count = stride * (h as usize + 1);
    let mut out = Vec::new();
    for (g, &size) in sizes.iter().enumerate() {
        if !grounds.iter().any(|&c| usize::from(c) == g) {
            continue;
        }
        let mut alpha: Vec<f32> = grounds
            .iter()
            .map(|&c| if usize::from(c) == g { 1.0 } else { 0.0 })
            .collect();
        alpha.resize(corner_count, 0.0);
        alpha.resize(points.len(), 0.0);
        let uv_of = |p: u32| {
            let p = p as usize;
            let (i, j) = if p < corner_count {
                ((p % stride) as f32, (p / stride) as f32)
            } else {
                let t = p - corner_count;
                let w = w as usize;
                ((t % w) as f32 + 0.5, (t / w) as f32 + 0.5)
            };
            Vec2::new(j, i) / size
        };
        // [alone, mixed]
        let mut runs: [Vec<Corner>; 2] = [Vec::new(), Vec::new()];
        for y in 0..h {
            for x in 0..w {
                let (k, centre) = tile_points(ground, x, y);
                let sum: f32 = k.iter().map(|&p| alpha[p as usize]).sum();
                if sum == 0.0 {
                    continue;
                }
                alpha[centre as usize] = sum / 4.0;
                let run = &mut runs[usize::from(mixed(ground, grounds, x, y))];
                for [a, b] in FAN {
                    for p in [centre, k[a], k[b]] {
                        let mut c = Corner::new(p, uv_of(p));
                        c.normal = normals.get(p as usize).copied();
                        run.push(c);
                    }
                }
            }
        }
        let mut mesh = Mesh {
            name: format!("ground {g}"),
            points: points.to_vec(),
            uv_sets: 1,
            point_alpha: alpha,
            ..Mesh::default()
        };
        for (material, run) in runs.into_iter().enumerate() {
            if run.is_empty() {
                continue;
            }
            mesh.submeshes.push(Submesh {
                first_triangle: mesh.triangle_count() as u32,
                triangle_count: (run.len() / 3) as u32,
                material,
            });
            mesh.corners.extend(run);
        }
        out.push((g, mesh));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3×2 map; corners' grounds: all 0 except corners (2, 0) and (3, 0), ground 2, and
    /// (3, 1) and (3, 2), ground 1.
    fn case() -> (Terrain, Vec<u8>) {
        let t = Terrain {
            width: 3,
            height: 2,
            heights: vec![0, 50, 100, 20, 70, 120],
            textures: vec![0; 6],
            gateways: Vec::new(),
            version: 40,
        };
        let mut g = vec![0u8; 12];
        g[2] = 2;
        g[3] = 2;
        g[7] = 1;
        g[11] = 1;
        (t, g)
    }

    #[test]
    fn layers_weigh_every_point_to_one_and_only_mixed_tiles_blend() {
        let (t, grounds) = case();
        let points = grid_points(&t, 0.0);
        let normals = grid_normals(&t, &points);
        let layers = layer_meshes(&t, &points, &normals, &grounds, &[4.0, 5.0, 6.4, 1.0]);
        // Ground 3 is on no corner: no layer.
        assert_eq!(layers.iter().map(|l| l.0).collect::<Vec<_>>(), [0, 1, 2]);
        // Every point of every tile: the layers' opacities sum to 1.
        for p in 0..points.len() {
            let sum: f32 = layers.iter().map(|(_, m)| m.point_alpha[p]).sum();
            assert!((sum - 1.0).abs() < 1e-6, "point {p}: {sum}");
        }
        // Ground 0: tiles (0, 0), (0, 1), (1, 1) alone (opaque), (1, 0), (2, 0), (2, 1)
        // mixed; 4 triangles each.
        let m0 = &layers[0].1;
        let runs: Vec<(u32, usize)> = m0
            .submeshes
            .iter()
            .map(|s| (s.triangle_count, s.material))
            .collect();
        assert_eq!(runs, [(12, 0), (12, 1)]);
        // Ground 2 is only mixed.
        assert_eq!(layers[2].1.submeshes.len(), 1);
        assert_eq!(layers[2].1.submeshes[0].material, 1);
        // UVs: corner (i, j) at (j, i) / size.
        let c = m0.corners.iter().find(|c| c.point == 5).unwrap();
        assert_eq!(c.uv[0], Vec2::new(1.0, 1.0) / 4.0);
        let c = m0.corners.iter().find(|c| c.point == 1).unwrap();
        assert_eq!(c.uv[0], Vec2::new(0.0, 1.0) / 4.0);
        // The pre-pass holds the three mixed tiles.
        let depth = depth_mesh(&t, &grounds, &normals).unwrap();
        assert_eq!(depth.triangle_count(), 12);
        // Normals are the whole terrain's: the same on a point in every mesh.
        for (_, m) in &layers {
            for c in &m.corners {
                assert_eq!(c.normal, Some(normals[c.point as usize]));
            }
        }
        // One ground everywhere: no pre-pass, one opaque run.
        assert!(depth_mesh(&t, &[0; 12], &normals).is_none());
        let one = layer_meshes(&t, &points, &normals, &[0; 12], &[4.0]);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].1.submeshes.len(), 1);
        assert_eq!(one[0].1.submeshes[0].material, 0);
    }
}
