//! Animation clips: key tracks, visibility, texture frames, events and motions.
//!
//! Times are seconds from the start of the clip. A clip also has a frame rate so that
//! frame numbers (what modders and the files talk in) convert to times and back.

use glam::{Quat, Vec2, Vec3};

/// How values between two keys are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Interpolation {
    /// Lerp (vectors) / slerp (rotations).
    #[default]
    Linear,
    /// Hold each key until the next.
    Step,
}

/// Keys of one value over time. `times` is sorted, same length as `values`, never empty.
#[derive(Debug, Clone, PartialEq)]
pub struct Track<T> {
    /// Key times in seconds, ascending.
    pub times: Vec<f32>,
    /// Key values.
    pub values: Vec<T>,
    /// Between keys.
    pub interpolation: Interpolation,
}

/// Values a [`Track`] can blend.
pub trait Blend: Copy {
    /// `a` at `t = 0`, `b` at `t = 1`.
    fn blend(a: Self, b: Self, t: f32) -> Self;
}

impl Blend for Vec3 {
    fn blend(a: Self, b: Self, t: f32) -> Self {
        a.lerp(b, t)
    }
}

impl Blend for Quat {
    fn blend(a: Self, b: Self, t: f32) -> Self {
        a.slerp(b, t)
    }
}

impl<T: Blend> Track<T> {
    /// A track from `(time, value)` keys, which must be sorted by time.
    pub fn new(keys: Vec<(f32, T)>, interpolation: Interpolation) -> Self {
        let (times, values) = keys.into_iter().unzip();
        Track {
            times,
            values,
            interpolation,
        }
    }

    /// The value at `time`. Before the first key the first value holds, after the last
    /// the last. With `period`, time wraps and the last key blends back into the first.
    pub fn sample(&self, time: f32, period: Option<f32>) -> T {
        let n = self.times.len();
        let time = match period {
            Some(p) if p > 0.0 => time.rem_euclid(p),
            _ => time,
        };
        // Index of the last key at or before `time`.
        let i = self.times.partition_point(|&k| k <= time);
        if i == 0 {
            return self.values[0];
        }
        let a = i - 1;
        let (b, t_b) = if i < n {
            (i, self.times[i])
        } else if let Some(p) = period.filter(|&p| p > self.times[n - 1]) {
            (0, p + self.times[0])
        } else {
            return self.values[n - 1];
        };
        if self.interpolation == Interpolation::Step {
            return self.values[a];
        }
        let span = t_b - self.times[a];
        let f = if span > 0.0 {
            ((time - self.times[a]) / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        T::blend(self.values[a], self.values[b], f)
    }

    /// Time of the last key.
    pub fn end(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }
}

/// Animated translation / rotation / scale of one node. A missing channel keeps the
/// node's rest value; a present one replaces it.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeTrack {
    /// Node index.
    pub node: usize,
    /// Translation keys.
    pub translation: Option<Track<Vec3>>,
    /// Rotation keys.
    pub rotation: Option<Track<Quat>>,
    /// Scale keys.
    pub scale: Option<Track<Vec3>>,
    /// If set, this track repeats with its own period regardless of the clip's length
    /// (PIE levels each loop their own ANIMOBJECT).
    pub period: Option<f32>,
}

impl NodeTrack {
    /// A track for `node` with no channels yet.
    pub fn new(node: usize) -> Self {
        NodeTrack {
            node,
            translation: None,
            rotation: None,
            scale: None,
            period: None,
        }
    }
}

/// Whether a node is shown, over time (always step-interpolated).
#[derive(Debug, Clone, PartialEq)]
pub struct VisibilityTrack {
    /// Node index.
    pub node: usize,
    /// Key times, ascending.
    pub times: Vec<f32>,
    /// Visibility from each key on.
    pub visible: Vec<bool>,
    /// Own repeat period, as for [`NodeTrack::period`].
    pub period: Option<f32>,
}

impl VisibilityTrack {
    /// Visibility at `time`.
    pub fn sample(&self, time: f32) -> bool {
        let time = match self.period {
            Some(p) if p > 0.0 => time.rem_euclid(p),
            _ => time,
        };
        let i = self.times.partition_point(|&k| k <= time);
        self.visible
            .get(i.saturating_sub(1))
            .copied()
            .unwrap_or(true)
    }
}

/// Texture-frame animation of one mesh: corners marked [`crate::model::Corner::animated`]
/// get their UV offset by the current frame's cell in a grid of `frame_size` cells laid out
/// left to right, then wrapping to the next row.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureFrameTrack {
    /// Mesh index.
    pub mesh: usize,
    /// Number of frames (> 1).
    pub frames: u32,
    /// Milliseconds per frame.
    pub ms_per_frame: f32,
    /// Size of one frame in UV units.
    pub frame_size: Vec2,
    /// Legacy team-colour block (8 frames on a droid/structure page): the frame is the
    /// team colour index, not time.
    pub team_colour: bool,
}

impl TextureFrameTrack {
    /// The frame shown at `time` seconds (or for team colour `team`).
    pub fn frame_at(&self, time: f32, team: usize) -> u32 {
        if self.frames == 0 {
            return 0;
        }
        if self.team_colour {
            return (team as u32) % self.frames;
        }
        if self.ms_per_frame <= 0.0 {
            return 0;
        }
        let f = (time.max(0.0) * 1000.0 / self.ms_per_frame).floor() as u64;
        (f % self.frames as u64) as u32
    }

    /// UV offset of frame `frame`.
    pub fn offset(&self, frame: u32) -> Vec2 {
        let per_line = if self.frame_size.x > 0.0 {
            ((1.0 / self.frame_size.x).floor() as u32).max(1)
        } else {
            1
        };
        Vec2::new(
            (frame % per_line) as f32 * self.frame_size.x,
            (frame / per_line) as f32 * self.frame_size.y,
        )
    }
}

/// A marker on the timeline (PMF event frame, PET FRAM script, PIE cycle end).
#[derive(Debug, Clone, PartialEq)]
pub struct EventMarker {
    /// Frame number.
    pub frame: u32,
    /// Text to show (a script, a label).
    pub text: String,
}

/// A named range of a clip's timeline (PET `MOTI`).
#[derive(Debug, Clone, PartialEq)]
pub struct Motion {
    /// Name.
    pub name: String,
    /// First frame.
    pub start: u32,
    /// Last frame (inclusive).
    pub end: u32,
    /// Motion that follows, if any.
    pub next: Option<String>,
    /// Blend time into the next motion, seconds.
    pub blend_time: f32,
}

/// One animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Name (`walk`, `levels + texture animation`).
    pub name: String,
    /// Frames per second used to convert frames to seconds.
    pub fps: f32,
    /// Number of frames on the timeline.
    pub frame_count: u32,
    /// Loops by default.
    pub looping: bool,
    /// Node transform tracks.
    pub node_tracks: Vec<NodeTrack>,
    /// Node visibility tracks.
    pub visibility: Vec<VisibilityTrack>,
    /// Texture-frame animations.
    pub texture_frames: Vec<TextureFrameTrack>,
    /// Markers.
    pub events: Vec<EventMarker>,
    /// Frames the author marked as keyframes.
    pub keyframes: Vec<u32>,
    /// Named sub-ranges.
    pub motions: Vec<Motion>,
}

impl Clip {
    /// An empty clip.
    pub fn new(name: impl Into<String>, fps: f32, frame_count: u32, looping: bool) -> Self {
        Clip {
            name: name.into(),
            fps,
            frame_count,
            looping,
            node_tracks: Vec::new(),
            visibility: Vec::new(),
            texture_frames: Vec::new(),
            events: Vec::new(),
            keyframes: Vec::new(),
            motions: Vec::new(),
        }
    }

    /// Seconds of frame `frame`.
    pub fn frame_time(&self, frame: f32) -> f32 {
        if self.fps > 0.0 {
            frame / self.fps
        } else {
            0.0
        }
    }

    /// Frame at `time` seconds (fractional).
    pub fn time_frame(&self, time: f32) -> f32 {
        time * self.fps
    }

    /// Length in seconds: `frame_count / fps` (a looping clip returns to frame 0 then).
    pub fn duration(&self) -> f32 {
        self.frame_time(self.frame_count as f32)
    }

    /// How the node tracks move between their keys, for the timeline's readout:
    /// `(blending, holding)` counts the node tracks whose translation or rotation keys
    /// blend (linear) and those whose keys are all held (step).
    pub fn between_keys(&self) -> (usize, usize) {
        let blends = |t: &NodeTrack| {
            t.translation
                .as_ref()
                .is_some_and(|k| k.interpolation == Interpolation::Linear)
                || t.rotation
                    .as_ref()
                    .is_some_and(|k| k.interpolation == Interpolation::Linear)
        };
        let blending = self.node_tracks.iter().filter(|t| blends(t)).count();
        (blending, self.node_tracks.len() - blending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(interp: Interpolation) -> Track<Vec3> {
        Track::new(vec![(0.0, Vec3::ZERO), (1.0, Vec3::X * 10.0)], interp)
    }

    #[test]
    fn linear_lerps_and_clamps() {
        let t = track(Interpolation::Linear);
        assert_eq!(t.sample(-1.0, None), Vec3::ZERO);
        assert!(t.sample(0.25, None).abs_diff_eq(Vec3::X * 2.5, 1e-6));
        assert_eq!(t.sample(5.0, None), Vec3::X * 10.0);
    }

    #[test]
    fn step_holds() {
        let t = track(Interpolation::Step);
        assert_eq!(t.sample(0.99, None), Vec3::ZERO);
        assert_eq!(t.sample(1.0, None), Vec3::X * 10.0);
    }

    #[test]
    fn period_wraps_back_to_first_key() {
        let t = track(Interpolation::Linear);
        // period 2: from t=1 (x=10) back to x=0 at t=2.
        assert!(t.sample(1.5, Some(2.0)).abs_diff_eq(Vec3::X * 5.0, 1e-5));
        assert!(t.sample(2.25, Some(2.0)).abs_diff_eq(Vec3::X * 2.5, 1e-5));
    }

    #[test]
    fn slerp_rotations() {
        let q = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let t = Track::new(vec![(0.0, Quat::IDENTITY), (1.0, q)], Interpolation::Linear);
        let half = t.sample(0.5, None);
        assert!(half.abs_diff_eq(Quat::from_rotation_y(std::f32::consts::FRAC_PI_4), 1e-5));
    }

    #[test]
    fn texture_frames_wrap_rows() {
        let tr = TextureFrameTrack {
            mesh: 0,
            frames: 6,
            ms_per_frame: 100.0,
            frame_size: Vec2::new(0.25, 0.5),
            team_colour: false,
        };
        assert_eq!(tr.frame_at(0.35, 0), 3);
        assert_eq!(tr.frame_at(0.65, 0), 0);
        assert_eq!(tr.offset(5), Vec2::new(0.25, 0.5));
        let team = TextureFrameTrack {
            team_colour: true,
            frames: 8,
            ..tr
        };
        assert_eq!(team.frame_at(123.0, 5), 5);
    }

    #[test]
    fn visibility_steps() {
        let v = VisibilityTrack {
            node: 0,
            times: vec![0.0, 1.0],
            visible: vec![true, false],
            period: Some(2.0),
        };
        assert!(v.sample(0.5));
        assert!(!v.sample(1.5));
        assert!(v.sample(2.5));
    }
}
