//! Meshes as the GPU poses them, computed on the CPU: what picking, the overlays and the
//! shadow casters use, so they match the shaded picture.
//!
//! Same rules as `shaders/scene.wgsl`: a skinned mesh's point with some weight is moved by
//! the blend of its joints' matrices (normals by that matrix too); every other point by
//! the world matrix of the node that shows it (normals by its inverse transpose).

use crate::inspect::node_shown;
use glam::{Mat3, Mat4, Vec3};
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

/// The mesh node `node` shows, posed; `None` if it shows none.
pub(crate) fn posed_mesh(model: &Model, pose: &Pose, node: usize) -> Option<PosedMesh> {
    let mi = model.nodes.get(node)?.mesh?;
    let mesh = model.meshes.get(mi)?;
    let world = pose.world.get(node).copied().unwrap_or(Mat4::IDENTITY);
    let normal_world = Mat3::from_mat4(world).inverse().transpose();
    let normal_world = if normal_world.is_finite() {
        normal_world
    } else {
        Mat3::IDENTITY
    };
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
    let points = mesh
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| match skinned.get(i).copied().flatten() {
            Some(m) => m.transform_point3(*p),
            None => world.transform_point3(*p),
        })
        .collect();
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
}
