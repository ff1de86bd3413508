//! A node's keys → `ANIMOBJECT` frames, undoing what the loader does
//! (`formats/pie/anim.rs`): model translation (−px, pz, py) / 1000 → file (px, py, pz);
//! the X mirror undone on the rotation (quaternion (x, −y, −z, w)), then the game's
//! `rotX · rotY · rotZ` angles with pitch = −rotX, yaw = −rotZ, roll = −rotY in
//! thousandths of degrees; scale x, y, z as is, `-1 -1 -1` for a hidden frame.
//! Angles are unwrapped frame to frame (the game blends the three numbers one by one, so
//! 350° → 10° must not become a turn the long way round).

use crate::model::{Clip, Model, Pose};
use glam::{EulerRot, Quat, Vec3};

/// One frame in file numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Position x, y, z (file order, thousandths).
    pub position: [i64; 3],
    /// Rotation x, y, z (thousandths of degrees).
    pub rotation: [i64; 3],
    /// Scale x, y, z (`-1` in x hides the level).
    pub scale: [f32; 3],
}

/// An `ANIMOBJECT` block.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimObject {
    /// Milliseconds per frame (> 0).
    pub ms_per_frame: f32,
    /// Cycles (0 = loop).
    pub cycles: u32,
    /// Frames.
    pub frames: Vec<Frame>,
}

/// The game's angles (radians: pitch about X, yaw about Y, roll about Z) of a model
/// rotation.
fn game_angles(model_rotation: Quat) -> Vec3 {
    let r = model_rotation;
    let game = Quat::from_xyzw(r.x, -r.y, -r.z, r.w).normalize();
    let (a, b, c) = game.to_euler(EulerRot::XYZ);
    Vec3::new(a, b, c)
}

/// File rotation numbers (thousandths of degrees: x, y, z) of a model rotation.
pub fn file_rotation(model_rotation: Quat) -> [f64; 3] {
    let g = game_angles(model_rotation);
    let t = |v: f32| -f64::from(v).to_degrees() * 1000.0;
    // pitch = −rotX, yaw (about Y) = −rotZ, roll (about Z) = −rotY.
    [t(g.x), t(g.z), t(g.y)]
}

/// File position numbers (thousandths, x y z) of a model translation.
pub fn file_position(t: Vec3) -> [f64; 3] {
    [
        -f64::from(t.x) * 1000.0,
        f64::from(t.z) * 1000.0,
        f64::from(t.y) * 1000.0,
    ]
}

/// `v` moved by whole turns to lie nearest `previous`.
fn unwrap(v: f64, previous: Option<f64>) -> f64 {
    const TURN: f64 = 360_000.0;
    match previous {
        Some(p) => v + TURN * ((p - v) / TURN).round(),
        None => v,
    }
}

/// The cycles of level `node` as the PIE file wrote them (in `info --json`'s details),
/// else 0 for a looping clip and the clip's length in periods otherwise.
fn cycles(model: &Model, clip: &Clip, node: usize, period: f32) -> u32 {
    if let Some(d) = model.details.pie()
        && d.levels.len() == model.nodes.len()
        && let Some(a) = &d.levels[node].animation
    {
        return a.cycles;
    }
    if clip.looping {
        0
    } else {
        ((clip.duration() / period.max(1e-6)).round() as u32).max(1)
    }
}

/// The frames of `node`, whose (or whose ancestor `keyed`'s) transform is animated in
/// `clip`, with translations multiplied by `scale`.
pub fn frames(
    model: &Model,
    clip: &Clip,
    node: usize,
    keyed: usize,
    scale: f32,
    warnings: &mut Vec<String>,
) -> Option<AnimObject> {
    let track = clip.node_tracks.iter().find(|t| t.node == keyed);
    let vis = clip.visibility.iter().find(|t| t.node == keyed);
    let times: Vec<f32> = track
        .and_then(|t| {
            let a = t.translation.as_ref().map(|x| &x.times);
            let b = t.rotation.as_ref().map(|x| &x.times);
            let c = t.scale.as_ref().map(|x| &x.times);
            [a, b, c]
                .into_iter()
                .flatten()
                .max_by_key(|t| t.len())
                .cloned()
        })
        .or_else(|| vis.map(|v| v.times.clone()))?;
    let name = &model.nodes[node].name;
    let fallback = 1.0 / clip.fps.max(1e-3);
    let step = match times.len() {
        0 => return None,
        1 => track.and_then(|t| t.period).unwrap_or(fallback),
        _ => times[1] - times[0],
    };
    let uniform = times
        .windows(2)
        .all(|w| ((w[1] - w[0]) - step).abs() <= step * 1e-3);
    let times: Vec<f32> = if uniform && step > 0.0 {
        times
    } else {
        // Resample at the smallest gap over the keys' span.
        let gap = times
            .windows(2)
            .map(|w| w[1] - w[0])
            .filter(|g| *g > 0.0)
            .fold(f32::INFINITY, f32::min);
        let gap = if gap.is_finite() { gap } else { fallback };
        let end = times.last().copied().unwrap_or(0.0);
        let n = ((end - times[0]) / gap).round() as usize + 1;
        warnings.push(format!(
            "{name}: keys are not evenly spaced; resampled every {:.0} ms ({n} frames)",
            gap * 1000.0
        ));
        (0..n.min(10_000))
            .map(|i| times[0] + i as f32 * gap)
            .collect()
    };
    let step = if times.len() > 1 {
        times[1] - times[0]
    } else {
        step
    };
    let period = track
        .and_then(|t| t.period)
        .unwrap_or(step * times.len() as f32);
    let clip_index = model.clips.iter().position(|c| std::ptr::eq(c, clip));
    let direct = keyed == node && model.nodes[node].parent.is_none();
    let mut previous: Option<[f64; 3]> = None;
    let mut frames = Vec::with_capacity(times.len());
    for &time in &times {
        let (t, r, s, shown) = if direct {
            let n = &model.nodes[node];
            let p = track.and_then(|t| t.period);
            let t = track
                .and_then(|k| k.translation.as_ref())
                .map_or(n.translation, |k| k.sample(time, p));
            let r = track
                .and_then(|k| k.rotation.as_ref())
                .map_or(n.rotation, |k| k.sample(time, p));
            let s = track
                .and_then(|k| k.scale.as_ref())
                .map_or(n.scale, |k| k.sample(time, p));
            (t, r, s, vis.is_none_or(|v| v.sample(time)))
        } else {
            let pose = Pose::sample(model, clip_index, time, 0);
            let (s, r, t) = pose.world[node].to_scale_rotation_translation();
            (t, r, s, pose.visible[node])
        };
        let position = file_position(t * scale).map(|v| v.round() as i64);
        let raw = file_rotation(r);
        let rotation: [f64; 3] = std::array::from_fn(|i| unwrap(raw[i], previous.map(|p| p[i])));
        previous = Some(rotation);
        frames.push(Frame {
            position,
            rotation: rotation.map(|v| v.round() as i64),
            scale: if shown { s.to_array() } else { [-1.0; 3] },
        });
    }
    Some(AnimObject {
        ms_per_frame: step * 1000.0,
        cycles: cycles(model, clip, node, period),
        frames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loader's conversion (`formats/pie/anim.rs`), repeated here as the reference.
    fn loader(rot: [f32; 3]) -> Quat {
        let [rx, ry, rz] = rot;
        let deg = |v: f32| (-v / 1000.0).to_radians();
        let game = Quat::from_rotation_x(deg(rx))
            * Quat::from_rotation_y(deg(rz))
            * Quat::from_rotation_z(deg(ry));
        Quat::from_xyzw(game.x, -game.y, -game.z, game.w)
    }

    #[test]
    fn rotations_invert_the_loaders() {
        for rot in [
            [0.0, 0.0, 0.0],
            [90000.0, 0.0, 0.0],
            [0.0, 45000.0, 0.0],
            [0.0, 0.0, -30000.0],
            [12000.0, -34000.0, 56000.0],
            [-170000.0, 20000.0, 135000.0],
        ] {
            let back = file_rotation(loader(rot)).map(|v| v as f32);
            let again = loader(back);
            assert!(
                again.abs_diff_eq(loader(rot), 1e-5) || again.abs_diff_eq(-loader(rot), 1e-5),
                "{rot:?} → {back:?}"
            );
            // Single-axis and small turns come back as the same numbers.
            if rot.iter().filter(|v| **v != 0.0).count() <= 1 {
                for (a, b) in rot.iter().zip(back) {
                    assert!((a - b).abs() < 1.0, "{rot:?} → {back:?}");
                }
            }
        }
    }

    #[test]
    fn positions_swap_back() {
        // The loader: (px, py, pz) → (−px, pz, py) / 1000.
        let model = Vec3::new(-1.0, 3.0, 2.0);
        assert_eq!(file_position(model), [1000.0, 2000.0, 3000.0]);
    }

    #[test]
    fn angles_unwrap_to_the_nearest_turn() {
        assert_eq!(unwrap(-10_000.0, Some(350_000.0)), 350_000.0);
        assert_eq!(unwrap(10_000.0, Some(-350_000.0)), -350_000.0);
        assert_eq!(unwrap(10_000.0, None), 10_000.0);
    }
}
