//! CPU linear blend skinning: the reference the renderer's GPU skinning is tested
//! against, and what tools without a GPU use.
//!
//! A skinned mesh's points are rest positions in model space; a posed point is
//! `Σ weightₖ · joint_matrix[jointₖ] · point`, where [`Pose::joint_matrices`] holds
//! `world[joint] · inverse_bind[joint]`. The node that shows a skinned mesh does not
//! move it (as in glTF). A point with no weight stays where it is.

use super::{Model, Pose};
use glam::{Mat4, Vec3};

/// The blended matrix of one point of a skinned mesh (`None` if it has no weight).
fn blended(matrices: &[Mat4], joints: [u16; 4], weights: [f32; 4]) -> Option<Mat4> {
    let mut sum = Mat4::ZERO;
    let mut total = 0.0;
    for (j, w) in joints.into_iter().zip(weights) {
        if w > 0.0
            && let Some(m) = matrices.get(j as usize)
        {
            sum += *m * w;
            total += w;
        }
    }
    (total > 0.0).then_some(sum)
}

/// Posed positions (model space) of every point of mesh `mesh` in `pose`.
///
/// Skinned meshes are blended by their skin's joint matrices; other meshes are moved
/// rigidly by the world matrix of the first node that shows them (identity if none).
/// An out-of-range `mesh` gives an empty list.
pub fn skin_positions(model: &Model, mesh: usize, pose: &Pose) -> Vec<Vec3> {
    let Some(m) = model.meshes.get(mesh) else {
        return Vec::new();
    };
    let skin = m.skin.and_then(|s| pose.joint_matrices.get(s));
    match skin {
        Some(matrices) => m
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                m.influences
                    .get(i)
                    .and_then(|inf| blended(matrices, inf.joints, inf.weights))
                    .map_or(*p, |b| b.transform_point3(*p))
            })
            .collect(),
        None => {
            let world = model
                .mesh_node(mesh)
                .and_then(|n| pose.world.get(n))
                .copied()
                .unwrap_or(Mat4::IDENTITY);
            m.points
                .iter()
                .map(|p| world.transform_point3(*p))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        Clip, Format, Interpolation, Mesh, Node, NodeKind, NodeTrack, Skin, SkinInfluence, Track,
    };
    use glam::Quat;

    /// Two bones one unit apart along +Y; the tip bends 90° about Z in the clip.
    fn arm() -> Model {
        let mut m = Model::new(Format::Pet, "test");
        m.nodes.push(Node::new("root", None, NodeKind::Bone));
        let mut tip = Node::new("tip", Some(0), NodeKind::Bone);
        tip.translation = Vec3::Y;
        m.nodes.push(tip);
        let inverse_bind = vec![Mat4::IDENTITY, Mat4::from_translation(-Vec3::Y)];
        m.skins.push(Skin {
            name: "arm".into(),
            joints: vec![0, 1],
            inverse_bind,
        });
        let one = |j: u16| SkinInfluence {
            joints: [j, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
        let half = SkinInfluence {
            joints: [0, 1, 0, 0],
            weights: [0.5, 0.5, 0.0, 0.0],
        };
        m.meshes.push(Mesh {
            name: "arm".into(),
            points: vec![
                Vec3::ZERO,
                Vec3::new(0.0, 2.0, 0.0),
                Vec3::new(0.0, 2.0, 0.0),
            ],
            influences: vec![one(0), one(1), half],
            skin: Some(0),
            ..Mesh::default()
        });
        let mut clip = Clip::new("bend", 1.0, 2, false);
        let mut t = NodeTrack::new(1);
        t.rotation = Some(Track::new(
            vec![
                (0.0, Quat::IDENTITY),
                (1.0, Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            ],
            Interpolation::Linear,
        ));
        clip.node_tracks.push(t);
        m.clips.push(clip);
        m
    }

    #[test]
    fn rest_pose_is_identity_and_bending_moves_the_tip() {
        let m = arm();
        let rest = skin_positions(&m, 0, &Pose::rest(&m));
        assert_eq!(rest, m.meshes[0].points);
        let bent = skin_positions(&m, 0, &Pose::sample(&m, Some(0), 1.0, 0));
        // The tip's point (1 above the joint) swings to −X of the joint at (0, 1, 0).
        assert!(
            bent[1].abs_diff_eq(Vec3::new(-1.0, 1.0, 0.0), 1e-5),
            "{}",
            bent[1]
        );
        // Half weight: halfway between the unbent (0, 2, 0) and the bent point.
        assert!(
            bent[2].abs_diff_eq(Vec3::new(-0.5, 1.5, 0.0), 1e-5),
            "{}",
            bent[2]
        );
        assert!(bent[0].abs_diff_eq(Vec3::ZERO, 1e-6));
    }

    #[test]
    fn unskinned_meshes_follow_their_node() {
        let mut m = arm();
        m.meshes[0].skin = None;
        m.nodes[1].mesh = Some(0);
        let p = skin_positions(&m, 0, &Pose::rest(&m));
        assert!(p[0].abs_diff_eq(Vec3::Y, 1e-6));
        assert!(skin_positions(&m, 5, &Pose::rest(&m)).is_empty());
    }
}
