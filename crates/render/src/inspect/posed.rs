//! Meshes as the GPU poses them, computed on the CPU: what picking, the overlays and the
//! shadow casters use, so they match the shaded picture.
//!
//! Same rules as `shaders/scene.wgsl`: a skinned mesh's point with some weight is moved by
//! the blend of its joints' matrices (normals by that matrix too); every other point by
//! the world matrix of the node that shows it (normals by its inverse transpose).

use crate::inspect::node_shown;
use glam::{Mat3, Mat4, Vec3};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use vitrine_core::model::{Model, Pose};

/// One node's mesh in model space.
#[derive(Debug, Clone, PartialEq)]
pub struct PosedMesh {
    /// The node that shows it.
    pub node: usize,
    /// Index into `model.meshes`.
    pub mesh: usize,
    /// Posed points, same order as the mesh's.
    pub points: Vec<Vec3>,
    /// Posed unit shading normal of every corner (zero for a degenerate face).
    pub normals: Vec<Vec3>,
}

/// The blended matrix of a skinned point (`None` without weight), as the shader blends.
fn blended(matrices: &[Mat4], joints: [u16; 4], weights: [f32; 4]) -> Option<Mat4> {
    let total: f32 = weights.iter().sum();
    if total <= 1e-4 {
        return None;
    }
    let last = crate::uniforms::MAX_JOINTS - 1;
    let mut sum = Mat4::ZERO;
    for (j, w) in joints.into_iter().zip(weights) {
        let m = matrices
            .get((j as usize).min(last))
            .copied()
            .unwrap_or(Mat4::ZERO);
        sum += m * w;
    }
    Some(sum)
}

/// The mesh node `node` shows (its index in `model.meshes`) and, per point, the matrix
/// that moves it where skinned; `None` if it shows none.
#[allow(clippy::type_complexity)]
fn mesh_and_skin<'m>(
    model: &'m Model,
    pose: &Pose,
    node: usize,
) -> Option<(usize, &'m vitrine_core::model::Mesh, Vec<Option<Mat4>>)> {
    let mi = model.nodes.get(node)?.mesh?;
    let mesh = model.meshes.get(mi)?;
    let skin = mesh
        .skin
        .filter(|_| mesh.influences.len() == mesh.points.len())
        .and_then(|s| pose.joint_matrices.get(s));
    // Per point: the matrix that moves it, if skinned.
    let skinned: Vec<Option<Mat4>> = match skin {
        Some(mats) => mesh
            .influences
            .iter()
            .map(|inf| blended(mats, inf.joints, inf.weights))
            .collect(),
        None => Vec::new(),
    };
    Some((mi, mesh, skinned))
}

/// The points of `mesh` posed: each by its skinning matrix (`skinned`), else by `world`.
fn pose_points(
    mesh: &vitrine_core::model::Mesh,
    skinned: &[Option<Mat4>],
    world: Mat4,
) -> Vec<Vec3> {
    mesh.points
        .iter()
        .enumerate()
        .map(|(i, p)| match skinned.get(i).copied().flatten() {
            Some(m) => m.transform_point3(*p),
            None => world.transform_point3(*p),
        })
        .collect()
}

/// The points of the mesh node `node` shows, posed as [`posed_mesh`] poses them (without
/// the normals, which framing does not need); `None` if it shows none.
pub(crate) fn posed_points(model: &Model, pose: &Pose, node: usize) -> Option<Vec<Vec3>> {
    let (_, mesh, skinned) = mesh_and_skin(model, pose, node)?;
    let world = pose.world.get(node).copied().unwrap_or(Mat4::IDENTITY);
    Some(pose_points(mesh, &skinned, world))
}

/// The mesh node `node` shows, posed; `None` if it shows none.
pub(crate) fn posed_mesh(model: &Model, pose: &Pose, node: usize) -> Option<PosedMesh> {
    let (mi, mesh, skinned) = mesh_and_skin(model, pose, node)?;
    let world = pose.world.get(node).copied().unwrap_or(Mat4::IDENTITY);
    let normal_world = Mat3::from_mat4(world).inverse().transpose();
    let normal_world = if normal_world.is_finite() {
        normal_world
    } else {
        Mat3::IDENTITY
    };
    let points = pose_points(mesh, &skinned, world);
    let normals = mesh
        .corners
        .iter()
        .zip(mesh.shading_normals())
        .map(
            |(c, n)| match skinned.get(c.point as usize).copied().flatten() {
                Some(m) => m.transform_vector3(n).normalize_or_zero(),
                None => (normal_world * n).normalize_or_zero(),
            },
        )
        .collect();
    Some(PosedMesh {
        node,
        mesh: mi,
        points,
        normals,
    })
}

/// Every distinct point of every shown node's mesh, posed (nodes hidden by the pose left
/// out), in the order first met: what framing looks at.
///
/// A static mesh shown by [`MANY`] nodes or more (a map's copies of one tree, wall or
/// droid) is framed by the corners of its box at each of its nodes, without looking at
/// its points again and again: a box holds its mesh, so the frame holds them all, a
/// little looser at most; a map's 196,605 objects at the script's limits frame in
/// 1.6 million corners, not tens of millions of points hashed one by one.
pub(crate) fn shown_points(model: &Model, pose: &Pose) -> Vec<Vec3> {
    let shown: Vec<usize> = (0..model.nodes.len())
        .filter(|&i| node_shown(pose, &[], i))
        .collect();
    let boxes = instance_boxes(model, &shown);
    let mut placed = Placed::default();
    let mut points = distinct(
        shown
            .iter()
            .copied()
            .filter(|i| !model.nodes[*i].mesh.is_some_and(|m| boxes.contains_key(&m)))
            .filter(|&i| !placed.repeats(model, pose, i))
            .filter_map(|i| posed_points(model, pose, i))
            .flatten(),
    );
    for &i in &shown {
        let Some(corners) = model.nodes[i].mesh.and_then(|m| boxes.get(&m)) else {
            continue;
        };
        let world = pose.world.get(i).copied().unwrap_or(Mat4::IDENTITY);
        points.extend(corners.iter().map(|c| world.transform_point3(*c)));
    }
    points
}

/// Nodes showing one mesh from which on its copies are framed by their boxes
/// ([`shown_points`]): as many as the renderer draws in one instanced call.
pub(crate) const MANY: usize = crate::draw_runs::INSTANCES as usize;

/// The corners of the box of each static mesh that [`MANY`] or more of `shown` show.
fn instance_boxes(model: &Model, shown: &[usize]) -> HashMap<usize, [Vec3; 8], FxBuildHasher> {
    let mut uses: HashMap<usize, usize, FxBuildHasher> = HashMap::default();
    for &i in shown {
        if let Some(m) = model.nodes[i].mesh {
            *uses.entry(m).or_default() += 1;
        }
    }
    uses.into_iter()
        .filter(|&(_, n)| n >= MANY)
        .filter_map(|(m, _)| {
            let mesh = model.meshes.get(m).filter(|mesh| mesh.skin.is_none())?;
            let first = *mesh.points.first()?;
            let (lo, hi) = mesh
                .points
                .iter()
                .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
            let corner = |k: usize| {
                Vec3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                )
            };
            Some((m, std::array::from_fn(corner)))
        })
        .collect()
}

/// The meshes met by [`shown_points`], by their points' content and where they are
/// placed: a node showing the same points at the same place as one met before adds no
/// point (a map's terrain layers each hold the whole grid: on Sk-Concrete, ten copies of
/// 125,000 points, which [`distinct`] would otherwise hash one by one).
#[derive(Default)]
struct Placed {
    /// (the points' key, the world matrix's bits) → the first mesh met with them.
    first: HashMap<(u64, [u32; 16]), usize, FxBuildHasher>,
    /// Per mesh index, the key of its points (a hash of their count and a few of them).
    hashes: HashMap<usize, u64, FxBuildHasher>,
}

impl Placed {
    /// Whether node `node` shows a static mesh whose points equal those of a mesh met
    /// before, placed by the same matrix (then its posed points are the same).
    fn repeats(&mut self, model: &Model, pose: &Pose, node: usize) -> bool {
        let Some(mi) = model.nodes.get(node).and_then(|n| n.mesh) else {
            return false;
        };
        let Some(mesh) = model.meshes.get(mi).filter(|m| m.skin.is_none()) else {
            return false;
        };
        let world = pose.world.get(node).copied().unwrap_or(Mat4::IDENTITY);
        // A cheap key (the count, and the first, middle and last points); equal keys
        // are then compared point by point.
        let hash = *self.hashes.entry(mi).or_insert_with(|| {
            let mut h = rustc_hash::FxHasher::default();
            let n = mesh.points.len();
            n.hash(&mut h);
            for i in [0, n / 2, n.saturating_sub(1)] {
                if let Some(p) = mesh.points.get(i) {
                    p.to_array().map(f32::to_bits).hash(&mut h);
                }
            }
            h.finish()
        });
        let key = (hash, world.to_cols_array().map(f32::to_bits));
        match self.first.get(&key) {
            Some(&first) => first == mi || model.meshes[first].points == mesh.points,
            None => {
                self.first.insert(key, mi);
                false
            }
        }
    }
}

/// `points` with each position kept once (the same bits), in the order first met. A
/// point met again (a map's terrain layers share their grid: on Sk-Concrete most points
/// are such repeats) changes no bound and no framing
/// ([`crate::Camera::frame_points`] keeps the first of equal extremes).
pub(crate) fn distinct(points: impl Iterator<Item = Vec3>) -> Vec<Vec3> {
    let mut seen: std::collections::HashSet<u128, PointHash> = Default::default();
    points
        .filter(|p| {
            let [x, y, z] = p.to_array().map(f32::to_bits);
            seen.insert(u128::from(x) << 64 | u128::from(y) << 32 | u128::from(z))
        })
        .collect()
}

/// The hasher of [`distinct`]: FxHash's rotate, xor and multiply over a point's bits,
/// finished by MurmurHash3's 64-bit mix (a product's low bits depend only on the input's
/// low bits, and grid coordinates' low mantissa bits are zero: without the mix, the hash
/// table's buckets collide). The keys are the model's own points, not an attacker's, and
/// the standard library's SipHash cost more than the framing the distinct points save.
#[derive(Debug, Default, Clone, Copy)]
struct PointHasher(u64);

impl PointHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for PointHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.add(u64::from(*b));
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }
}

type PointHash = std::hash::BuildHasherDefault<PointHasher>;

/// The points of every shown node's mesh, posed (nodes hidden by the pose or `mask` left
/// out; no normals): what framing a part of a model looks at.
pub fn posed_points_of(model: &Model, pose: &Pose, mask: &[bool]) -> Vec<Vec3> {
    (0..model.nodes.len())
        .filter(|&i| node_shown(pose, mask, i))
        .filter_map(|i| posed_points(model, pose, i))
        .flatten()
        .collect()
}

/// Every shown node's mesh, posed (nodes hidden by the pose or `mask` are left out).
pub fn posed_meshes(model: &Model, pose: &Pose, mask: &[bool]) -> Vec<PosedMesh> {
    (0..model.nodes.len())
        .filter(|&i| node_shown(pose, mask, i))
        .filter_map(|i| posed_mesh(model, pose, i))
        .collect()
}

/// Model-space bounds of posed meshes (`None` when there is no point).
pub(crate) fn posed_bounds(meshes: &[PosedMesh]) -> Option<(Vec3, Vec3)> {
    let mut it = meshes.iter().flat_map(|m| m.points.iter().copied());
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
}

/// Triangles (three model-space points each) that cast shadows: per shown node, its
/// shadow meshes when it has any, else its posed render mesh.
pub fn shadow_casters(model: &Model, pose: &Pose, mask: &[bool]) -> Vec<[Vec3; 3]> {
    let mut out = Vec::new();
    for i in 0..model.nodes.len() {
        if !node_shown(pose, mask, i) {
            continue;
        }
        let world = pose.world.get(i).copied().unwrap_or(Mat4::IDENTITY);
        let mut has_shadow = false;
        for s in model.shadow_meshes.iter().filter(|s| s.node == i) {
            has_shadow = true;
            for t in &s.triangles {
                let p = t.map(|k| s.points.get(k as usize).copied());
                if let [Some(a), Some(b), Some(c)] = p {
                    out.push([a, b, c].map(|q| world.transform_point3(q)));
                }
            }
        }
        if has_shadow {
            continue;
        }
        if let Some(pm) = posed_mesh(model, pose, i) {
            let mesh = &model.meshes[pm.mesh];
            for tri in mesh.corners.chunks_exact(3) {
                let p = [0, 1, 2].map(|k| pm.points.get(tri[k].point as usize).copied());
                if let [Some(a), Some(b), Some(c)] = p {
                    out.push([a, b, c]);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;
    use vitrine_core::model::{
        Corner, Format, Mesh, Node, NodeKind, ShadowMesh, Skin, SkinInfluence,
    };

    fn tri_mesh(skin: Option<usize>) -> Mesh {
        Mesh {
            name: "t".into(),
            points: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            corners: (0..3).map(|i| Corner::new(i, Vec2::ZERO)).collect(),
            skin,
            ..Mesh::default()
        }
    }

    #[test]
    fn rigid_meshes_follow_their_node_and_normals_turn_with_it() {
        let mut m = Model::new(Format::Pmf, "t");
        m.meshes.push(tri_mesh(None));
        let mut n = Node::new("n", None, NodeKind::Piece);
        n.mesh = Some(0);
        n.translation = Vec3::new(0.0, 0.0, 5.0);
        n.rotation = glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        m.nodes.push(n);
        let pm = posed_mesh(&m, &Pose::rest(&m), 0).unwrap();
        // +X turns to −Z; the face normal +Z turns to +X.
        assert!(pm.points[1].abs_diff_eq(Vec3::new(0.0, 0.0, 4.0), 1e-5));
        assert!(
            pm.normals[0].abs_diff_eq(Vec3::X, 1e-5),
            "{}",
            pm.normals[0]
        );
    }

    #[test]
    fn skinned_points_follow_joints_and_unweighted_ones_the_node() {
        let mut m = Model::new(Format::Pet, "t");
        let mut mesh = tri_mesh(Some(0));
        let one = SkinInfluence {
            joints: [0; 4],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
        mesh.influences = vec![one, one, SkinInfluence::default()];
        m.meshes.push(mesh);
        let mut shown = Node::new("mesh", None, NodeKind::Part);
        shown.mesh = Some(0);
        shown.translation = Vec3::new(0.0, 0.0, 1.0);
        m.nodes.push(shown);
        let mut bone = Node::new("bone", None, NodeKind::Bone);
        bone.translation = Vec3::new(10.0, 0.0, 0.0);
        m.nodes.push(bone);
        m.skins.push(Skin {
            name: "s".into(),
            joints: vec![1],
            inverse_bind: vec![Mat4::IDENTITY],
        });
        let pm = posed_mesh(&m, &Pose::rest(&m), 0).unwrap();
        assert!(pm.points[0].abs_diff_eq(Vec3::new(10.0, 0.0, 0.0), 1e-5));
        assert!(pm.points[2].abs_diff_eq(Vec3::new(0.0, 1.0, 1.0), 1e-5));
    }

    #[test]
    fn the_shadow_mesh_replaces_its_nodes_render_mesh_as_caster() {
        let mut m = Model::new(Format::Pie, "3");
        m.meshes.push(tri_mesh(None));
        for name in ["a", "b"] {
            let mut n = Node::new(name, None, NodeKind::Level);
            n.mesh = Some(0);
            m.nodes.push(n);
        }
        m.shadow_meshes.push(ShadowMesh {
            node: 0,
            points: vec![Vec3::ZERO, Vec3::Z, Vec3::X, Vec3::ONE],
            triangles: vec![[0, 1, 2], [1, 3, 2], [0, 9, 1]],
        });
        let casters = shadow_casters(&m, &Pose::rest(&m), &[]);
        // Node a: its two valid shadow triangles; node b: its render triangle.
        assert_eq!(casters.len(), 3);
        assert_eq!(casters[0], [Vec3::ZERO, Vec3::Z, Vec3::X]);
        assert_eq!(casters[2], [Vec3::ZERO, Vec3::X, Vec3::Y]);
        // Hiding node a removes its shadow mesh too.
        assert_eq!(shadow_casters(&m, &Pose::rest(&m), &[false]).len(), 1);
    }

    #[test]
    fn distinct_points_keep_the_first_of_each_and_frame_the_same() {
        let (a, b, c) = (
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::new(-4.0, 0.5, 9.0),
            Vec3::new(0.0, -1.0, 0.0),
        );
        // -0.0 is other bits than 0.0: kept (it frames the same either way).
        let minus = Vec3::new(-0.0, -1.0, 0.0);
        let all = [a, b, a, c, b, minus, c, a];
        assert_eq!(distinct(all.iter().copied()), [a, b, c, minus]);
        for orthographic in [false, true] {
            let mut with_repeats = crate::Camera {
                orthographic,
                ..Default::default()
            };
            let mut once = with_repeats;
            with_repeats.frame_points(&all, 1.6);
            once.frame_points(&distinct(all.iter().copied()), 1.6);
            assert_eq!(with_repeats, once, "orthographic {orthographic}");
        }
    }

    #[test]
    fn posed_points_are_the_posed_meshes_points() {
        let mut m = Model::new(Format::Pmf, "t");
        m.meshes.push(tri_mesh(None));
        let mut n = Node::new("n", None, NodeKind::Piece);
        n.mesh = Some(0);
        n.translation = Vec3::new(2.0, 0.0, -1.0);
        m.nodes.push(n);
        let pose = Pose::rest(&m);
        assert_eq!(
            posed_points(&m, &pose, 0).unwrap(),
            posed_mesh(&m, &pose, 0).unwrap().points
        );
        assert_eq!(
            shown_points(&m, &pose),
            [
                Vec3::new(2.0, 0.0, -1.0),
                Vec3::new(3.0, 0.0, -1.0),
                Vec3::new(2.0, 1.0, -1.0)
            ]
        );
    }

    /// Copies of one mesh at one place add nothing (skipped before posing); the same
    /// points elsewhere, or other points, do: the set is what every node's points give.
    #[test]
    fn repeated_meshes_at_one_place_are_met_once() {
        let mut m = Model::new(Format::Pie, "3");
        let mut other = tri_mesh(None);
        other.points[2] = Vec3::new(0.0, 7.0, 0.0);
        m.meshes = vec![tri_mesh(None), tri_mesh(None), other];
        for (mesh, x) in [(0, 0.0), (1, 0.0), (1, 5.0), (2, 0.0)] {
            let mut n = Node::new("n", None, NodeKind::Level);
            n.mesh = Some(mesh);
            n.translation = Vec3::new(x, 0.0, 0.0);
            m.nodes.push(n);
        }
        let pose = Pose::rest(&m);
        let every = distinct((0..4).filter_map(|i| posed_points(&m, &pose, i)).flatten());
        assert_eq!(shown_points(&m, &pose), every);
        assert_eq!(every.len(), 3 + 3 + 1);
        let mut placed = Placed::default();
        let met: Vec<bool> = (0..4).map(|i| placed.repeats(&m, &pose, i)).collect();
        assert_eq!(met, [false, true, false, false]);
    }
}
