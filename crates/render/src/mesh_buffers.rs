//! A model's meshes as the GPU draws them: vertices and a list of indices, three per
//! triangle, in the model's order ([`MeshBuffers::build`]).
//!
//! The core gives each triangle corner its own data (a PIE corner its own UV, a flat
//! shaded corner its face's normal), and the vertex the renderer makes of a corner is a
//! pure function of it: a corner that makes the same vertex bytes as the last corner of
//! its point is drawn from that vertex. A map's terrain layers meet each grid point in up
//! to eight triangle corners with the same position, UV, normal and weight, so the
//! 1,894,932 corners of 8c-concreteplayground are drawn from 510,513 vertices: less
//! memory to fill and upload, and fewer vertices to shade (a GPU, and a CPU rasteriser
//! such as Mesa's lavapipe, shades a vertex met again in a small window of indices once).
//! The pictures are the same: the same triangles, in the same order, from the same vertex
//! values.

use super::colour_mode;
use super::uniforms::Vertex;
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use vitrine_core::model::Model;

/// The vertices and indices of every mesh of a model, each mesh's indices a run of
/// [`MeshBuffers::indices`] starting at [`MeshBuffers::first_index`].
#[derive(Debug, Default)]
pub(crate) struct MeshBuffers {
    /// Distinct vertices, the model's meshes' in turn.
    pub vertices: Vec<Vertex>,
    /// Per triangle corner, its vertex.
    pub indices: Vec<u32>,
    /// Per mesh, its first index (three per triangle follow, in its corners' order).
    pub first_index: Vec<u32>,
    /// Per mesh, its first vertex: a mesh's vertices are a run of their own, from here
    /// to the next mesh's, and its indices draw only those (the buffers can be cut
    /// between meshes).
    pub first_vertex: Vec<u32>,
}

impl MeshBuffers {
    /// Builds the vertices of `model`'s meshes, a point's repeated vertex once: on
    /// the desktop across the cores (a map has 1.9 million corners), in the browser on its
    /// one thread.
    pub fn build(model: &Model) -> MeshBuffers {
        let meshes: Vec<usize> = (0..model.meshes.len()).collect();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let corners: usize = model.meshes.iter().map(|m| m.corners.len()).sum();
            if threads > 1 && corners >= PARALLEL_CORNERS {
                return build_on(threads, model, &meshes);
            }
        }
        MeshBuffers::of(model, &meshes)
    }

    /// The buffers of `meshes` (indices of `model`'s meshes), in their order.
    fn of(model: &Model, meshes: &[usize]) -> MeshBuffers {
        let mut out = MeshBuffers {
            first_index: Vec::with_capacity(meshes.len()),
            first_vertex: Vec::with_capacity(meshes.len()),
            ..MeshBuffers::default()
        };
        let corners: usize = meshes.iter().map(|&m| model.meshes[m].corners.len()).sum();
        out.indices.reserve(corners);
        // The by-joint colour of each node, decoded once.
        let mut colours: HashMap<Option<usize>, [u16; 4], FxBuildHasher> = HashMap::default();
        for &mi in meshes {
            let mesh = &model.meshes[mi];
            out.first_index.push(out.indices.len() as u32);
            out.first_vertex.push(out.vertices.len() as u32);
            // Per point, the vertex its last corner made: a corner making the same
            // bytes again draws from it (a map's terrain: every corner of a point; a
            // model's: those with the same UV and normal in a row).
            let mut last = vec![u32::MAX; mesh.points.len()];
            let normals = mesh.shading_normals();
            let joint_colours: Vec<[u16; 4]> = colour_mode::point_joint_nodes(model, mi)
                .into_iter()
                .map(|node| {
                    *colours.entry(node).or_insert_with(|| {
                        vertex_colour(node.map_or(colour_mode::UNBOUND, colour_mode::node_colour))
                    })
                })
                .collect();
            let unbound = vertex_colour(colour_mode::UNBOUND);
            let skinned = mesh.skin.is_some() && mesh.influences.len() == mesh.points.len();
            for (c, n) in mesh.corners.iter().zip(&normals) {
                let (joints, weights) = if skinned {
                    let inf = mesh.influences[c.point as usize];
                    (inf.joints, inf.weights)
                } else {
                    ([0; 4], [0.0; 4])
                };
                let v = Vertex {
                    position: mesh.corner_position(c).to_array(),
                    normal: n.to_array(),
                    uv: c.uv[0].to_array(),
                    animated: if c.animated { 1.0 } else { 0.0 },
                    joints,
                    weights,
                    joint_colour: joint_colours
                        .get(c.point as usize)
                        .copied()
                        .unwrap_or(unbound),
                    alpha: mesh.corner_alpha(c),
                    uv2: c.uv[1].to_array(),
                    light: mesh.corner_light(c).unwrap_or(-1.0),
                };
                let same = |i: u32| {
                    out.vertices
                        .get(i as usize)
                        .is_some_and(|w| bytemuck::bytes_of(w) == bytemuck::bytes_of(&v))
                };
                let point = c.point as usize;
                let index = match last.get(point).copied() {
                    Some(i) if same(i) => i,
                    _ => {
                        let i = out.vertices.len() as u32;
                        out.vertices.push(v);
                        if let Some(l) = last.get_mut(point) {
                            *l = i;
                        }
                        i
                    }
                };
                out.indices.push(index);
            }
        }
        out
    }

    /// `other` appended: its vertices after these, its indices moved with them.
    #[cfg(not(target_arch = "wasm32"))]
    fn append(&mut self, other: MeshBuffers) {
        let base = self.vertices.len() as u32;
        let first = self.indices.len() as u32;
        self.vertices.extend(other.vertices);
        self.indices
            .extend(other.indices.into_iter().map(|i| i + base));
        self.first_index
            .extend(other.first_index.into_iter().map(|i| i + first));
        self.first_vertex
            .extend(other.first_vertex.into_iter().map(|v| v + base));
    }
}

/// Corners below which one thread builds the buffers (a model, not a map).
#[cfg(not(target_arch = "wasm32"))]
const PARALLEL_CORNERS: usize = 200_000;

/// [`MeshBuffers::build`] of `meshes` on `threads` threads, each a run of meshes with
/// about an equal share of the corners; the runs joined in order.
#[cfg(not(target_arch = "wasm32"))]
#[allow(
    clippy::disallowed_methods,
    reason = "the desktop's upload of a model, on scoped threads as the batch's (crates/clippy.toml); not built for wasm32"
)]
fn build_on(threads: usize, model: &Model, meshes: &[usize]) -> MeshBuffers {
    let total: usize = meshes.iter().map(|&m| model.meshes[m].corners.len()).sum();
    let share = total.div_ceil(threads);
    let mut runs: Vec<&[usize]> = Vec::new();
    let (mut start, mut count) = (0, 0);
    for (i, &m) in meshes.iter().enumerate() {
        count += model.meshes[m].corners.len();
        if count >= share {
            runs.push(&meshes[start..=i]);
            (start, count) = (i + 1, 0);
        }
    }
    runs.push(&meshes[start..]);
    let parts: Vec<MeshBuffers> = std::thread::scope(|scope| {
        let workers: Vec<_> = runs
            .iter()
            .map(|run| scope.spawn(move || MeshBuffers::of(model, run)))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut out = MeshBuffers::default();
    for part in parts {
        out.append(part);
    }
    out
}

/// An sRGB colour as a vertex's linear `Unorm16x4`.
fn vertex_colour(rgb: [u8; 3]) -> [u16; 4] {
    colour_mode::linear(rgb).map(|c| (c.clamp(0.0, 1.0) * 65535.0).round() as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};
    use vitrine_core::model::{Corner, Format, Mesh, Node, NodeKind, Submesh};

    /// Two triangles of a square sharing an edge, smooth (normals given), plus a
    /// third triangle over the same points with other UVs.
    fn model() -> Model {
        let corner = |p: u32, u: f32| {
            let mut c = Corner::new(p, Vec2::new(u, 0.0));
            c.normal = Some(Vec3::Z);
            c
        };
        let mesh = Mesh {
            name: "square".into(),
            points: vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
            corners: vec![
                corner(0, 0.0),
                corner(1, 1.0),
                corner(2, 2.0),
                corner(0, 0.0),
                corner(2, 2.0),
                corner(3, 3.0),
                corner(0, 5.0),
                corner(1, 5.0),
                corner(2, 5.0),
            ],
            submeshes: vec![Submesh {
                first_triangle: 0,
                triangle_count: 3,
                material: 0,
            }],
            uv_sets: 1,
            ..Mesh::default()
        };
        let mut model = Model::new(Format::Pie, "3");
        model.meshes = vec![mesh.clone(), mesh];
        let mut node = Node::new("root", None, NodeKind::Level);
        node.mesh = Some(0);
        model.nodes = vec![node];
        model
    }

    #[test]
    fn corners_making_the_same_vertex_share_it_within_a_mesh() {
        let m = model();
        let b = MeshBuffers::build(&m);
        // Mesh 0: points 0 and 2 met twice with the same UV; the third triangle's UVs
        // differ: 4 + 3 vertices. Mesh 1 likewise, its own.
        assert_eq!(b.vertices.len(), 14);
        assert_eq!(b.first_index, [0, 9]);
        assert_eq!(b.first_vertex, [0, 7]);
        assert_eq!(&b.indices[..9], &[0, 1, 2, 0, 2, 3, 4, 5, 6]);
        assert_eq!(&b.indices[9..], &[7, 8, 9, 7, 9, 10, 11, 12, 13]);
        // Built in runs on several threads and joined: the same buffers.
        #[cfg(not(target_arch = "wasm32"))]
        {
            let joined = build_on(3, &m, &[0, 1]);
            let bytes = |v: &[Vertex]| bytemuck::cast_slice::<Vertex, u8>(v).to_vec();
            assert_eq!(bytes(&joined.vertices), bytes(&b.vertices));
            assert_eq!(joined.indices, b.indices);
            assert_eq!(joined.first_index, b.first_index);
            assert_eq!(joined.first_vertex, b.first_vertex);
        }
        // Each index's vertex is the corner's own.
        for (i, c) in m.meshes[0].corners.iter().enumerate() {
            let v = b.vertices[b.indices[i] as usize];
            assert_eq!(v.position, m.meshes[0].points[c.point as usize].to_array());
            assert_eq!(v.uv, c.uv[0].to_array());
        }
    }
}
