//! The pose sampler: model + clip + time → every node's local and world transform and
//! visibility, every mesh's texture frame and every skin's joint matrices.
//!
//! One sampler for every format; the renderer draws any [`Pose`] without knowing where
//! it came from.

use super::Model;
use glam::{Mat4, Vec2};

/// A model's state at one instant.
#[derive(Debug, Clone, PartialEq)]
pub struct Pose {
    /// Per node: local matrix (relative to the parent).
    pub local: Vec<Mat4>,
    /// Per node: model-space matrix (`world[parent] · local`).
    pub world: Vec<Mat4>,
    /// Per node: shown (own visibility track and every ancestor's).
    pub visible: Vec<bool>,
    /// Per mesh: current texture-animation frame (0 when not animated).
    pub texture_frame: Vec<u32>,
    /// Per mesh: UV offset to add to animated corners.
    pub texture_offset: Vec<Vec2>,
    /// Per skin, per joint: `world[joint] · inverse_bind[joint]` (model space → posed).
    pub joint_matrices: Vec<Vec<Mat4>>,
}

impl Pose {
    /// The rest pose (no clip).
    pub fn rest(model: &Model) -> Pose {
        Pose::sample(model, None, 0.0, 0)
    }

    /// Samples `clip` (index into `model.clips`; `None` or out of range = rest pose) at
    /// `time` seconds. A looping clip wraps at its duration; a non-looping one holds its
    /// last frame. `team` picks the frame of legacy team-colour texture blocks; those do
    /// not depend on time, so they apply in the rest pose too (from any clip).
    pub fn sample(model: &Model, clip: Option<usize>, time: f32, team: usize) -> Pose {
        let clip = clip.and_then(|c| model.clips.get(c));
        let n = model.nodes.len();
        let mut translation: Vec<_> = model.nodes.iter().map(|n| n.translation).collect();
        let mut rotation: Vec<_> = model.nodes.iter().map(|n| n.rotation).collect();
        let mut scale: Vec<_> = model.nodes.iter().map(|n| n.scale).collect();
        let mut own_visible = vec![true; n];
        let mut texture_frame = vec![0u32; model.meshes.len()];
        let mut texture_offset = vec![Vec2::ZERO; model.meshes.len()];

        // Legacy team-colour blocks show the team's frame whatever is playing.
        for track in model.clips.iter().flat_map(|c| &c.texture_frames) {
            if track.team_colour && track.mesh < texture_frame.len() {
                let f = track.frame_at(0.0, team);
                texture_frame[track.mesh] = f;
                texture_offset[track.mesh] = track.offset(f);
            }
        }

        if let Some(clip) = clip {
            let duration = clip.duration();
            let time = if clip.looping && duration > 0.0 {
                time.rem_euclid(duration)
            } else {
                time.clamp(0.0, duration.max(0.0))
            };
            for track in &clip.node_tracks {
                let Some(i) = (track.node < n).then_some(track.node) else {
                    continue;
                };
                if let Some(t) = &track.translation {
                    translation[i] = t.sample(time, track.period);
                }
                if let Some(t) = &track.rotation {
                    // A zero (or denormal) key, or a slerp towards one, has no direction:
                    // keep the rest rotation rather than a NaN matrix.
                    let q = t.sample(time, track.period);
                    if q.is_finite() && q.length_squared() > 1e-12 {
                        rotation[i] = q.normalize();
                    }
                }
                if let Some(t) = &track.scale {
                    scale[i] = t.sample(time, track.period);
                }
            }
            for track in &clip.visibility {
                if let Some(v) = own_visible.get_mut(track.node) {
                    *v = track.sample(time);
                }
            }
            for track in &clip.texture_frames {
                if track.mesh < texture_frame.len() {
                    let f = track.frame_at(time, team);
                    texture_frame[track.mesh] = f;
                    texture_offset[track.mesh] = track.offset(f);
                }
            }
        }

        let mut local = Vec::with_capacity(n);
        let mut world: Vec<Mat4> = Vec::with_capacity(n);
        let mut visible = Vec::with_capacity(n);
        for (i, node) in model.nodes.iter().enumerate() {
            let l = Mat4::from_scale_rotation_translation(scale[i], rotation[i], translation[i]);
            // Parents precede children (Model::validate), so world[parent] exists.
            let (pw, pv) = match node.parent.filter(|&p| p < i) {
                Some(p) => (world[p], visible[p]),
                None => (Mat4::IDENTITY, true),
            };
            // Values that are finite on their own can still overflow once composed (a
            // hostile file's 1e28 scale under another): such a node is hidden and sits at
            // its parent's frame, so nothing downstream sees a non-finite matrix.
            let w = pw * l;
            if w.is_finite() {
                local.push(l);
                world.push(w);
                visible.push(pv && own_visible[i]);
            } else {
                local.push(Mat4::IDENTITY);
                world.push(pw);
                visible.push(false);
            }
        }

        let joint_matrices = model
            .skins
            .iter()
            .map(|skin| {
                skin.joints
                    .iter()
                    .zip(&skin.inverse_bind)
                    .map(|(&j, ib)| {
                        let m = world.get(j).copied().unwrap_or(Mat4::IDENTITY) * *ib;
                        if m.is_finite() { m } else { Mat4::IDENTITY }
                    })
                    .collect()
            })
            .collect();

        Pose {
            local,
            world,
            visible,
            texture_frame,
            texture_offset,
            joint_matrices,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        Clip, Format, Interpolation, Node, NodeKind, NodeTrack, Track, VisibilityTrack,
    };
    use glam::{Quat, Vec3};

    #[test]
    fn overflowing_transforms_are_hidden_not_infinite() {
        let mut m = two_nodes();
        m.nodes[0].scale = Vec3::splat(1e30);
        m.nodes[1].scale = Vec3::splat(1e30);
        let pose = Pose::rest(&m);
        assert!(pose.world.iter().all(|w| w.is_finite()));
        assert!(pose.visible[0], "the root alone is finite");
        assert!(!pose.visible[1], "1e30 × 1e30 overflows: hidden");
        assert_eq!(pose.world[1], pose.world[0], "at its parent's frame");
    }

    fn two_nodes() -> Model {
        let mut m = Model::new(Format::Pmf, "test");
        let mut root = Node::new("root", None, NodeKind::Piece);
        root.translation = Vec3::new(0.0, 1.0, 0.0);
        m.nodes.push(root);
        let mut child = Node::new("child", Some(0), NodeKind::Piece);
        child.translation = Vec3::new(1.0, 0.0, 0.0);
        m.nodes.push(child);
        let mut clip = Clip::new("spin", 10.0, 10, true);
        let mut t = NodeTrack::new(0);
        t.rotation = Some(Track::new(
            vec![
                (0.0, Quat::IDENTITY),
                (0.5, Quat::from_rotation_y(std::f32::consts::FRAC_PI_2)),
            ],
            Interpolation::Linear,
        ));
        clip.node_tracks.push(t);
        clip.visibility.push(VisibilityTrack {
            node: 0,
            times: vec![0.0, 0.5],
            visible: vec![true, false],
            period: None,
        });
        m.clips.push(clip);
        m
    }

    #[test]
    fn rest_pose_composes_parents() {
        let m = two_nodes();
        let p = Pose::rest(&m);
        let child_origin = p.world[1].transform_point3(Vec3::ZERO);
        assert!(child_origin.abs_diff_eq(Vec3::new(1.0, 1.0, 0.0), 1e-6));
        assert!(p.visible.iter().all(|&v| v));
    }

    #[test]
    fn parent_rotation_moves_child_and_hides_subtree() {
        let m = two_nodes();
        // A quarter turn about Y at t = 0.5 s: the child's +X offset goes to −Z.
        let p = Pose::sample(&m, Some(0), 0.5, 0);
        let child_origin = p.world[1].transform_point3(Vec3::ZERO);
        assert!(
            child_origin.abs_diff_eq(Vec3::new(0.0, 1.0, -1.0), 1e-5),
            "{child_origin}"
        );
        assert!(
            !p.visible[0] && !p.visible[1],
            "hiding a parent hides its child"
        );
    }

    #[test]
    fn team_colour_frames_follow_the_team_even_at_rest_and_effects_follow_time() {
        use crate::model::{Mesh, TextureFrameTrack};
        let mut m = two_nodes();
        m.meshes = vec![Mesh::default(), Mesh::default()];
        let block = |mesh, team_colour| TextureFrameTrack {
            mesh,
            frames: 8,
            ms_per_frame: 100.0,
            frame_size: Vec2::new(0.25, 0.125),
            team_colour,
        };
        m.clips[0].texture_frames = vec![block(0, true), block(1, false)];
        // Team 5 of a 4-per-row grid: column 1, row 1.
        let rest = Pose::sample(&m, None, 0.0, 5);
        assert_eq!(rest.texture_frame, vec![5, 0]);
        assert_eq!(rest.texture_offset[0], Vec2::new(0.25, 0.125));
        // 0.35 s at 100 ms per frame = frame 3 of the effect; the team block stays on 5.
        let p = Pose::sample(&m, Some(0), 0.35, 5);
        assert_eq!(p.texture_frame, vec![5, 3]);
        assert_eq!(p.texture_offset[1], Vec2::new(0.75, 0.0));
    }

    #[test]
    fn step_tracks_hold_between_keys_and_linear_ones_blend() {
        let mut m = two_nodes();
        let key = |x: f32| (x, Vec3::new(x * 10.0, 0.0, 0.0));
        let mut t = NodeTrack::new(1);
        t.translation = Some(Track::new(vec![key(0.0), key(0.5)], Interpolation::Step));
        m.clips[0].node_tracks = vec![t.clone()];
        let held = Pose::sample(&m, Some(0), 0.4, 0);
        assert_eq!(held.local[1].w_axis.x, 0.0, "step holds the first key");
        t.translation.as_mut().unwrap().interpolation = Interpolation::Linear;
        m.clips[0].node_tracks = vec![t];
        let blended = Pose::sample(&m, Some(0), 0.4, 0);
        assert!((blended.local[1].w_axis.x - 4.0).abs() < 1e-5);
    }

    #[test]
    fn looping_wraps_at_duration() {
        let m = two_nodes();
        let a = Pose::sample(&m, Some(0), 0.25, 0);
        let b = Pose::sample(&m, Some(0), 1.25, 0);
        assert!(a.world[1].abs_diff_eq(b.world[1], 1e-5));
    }
}
