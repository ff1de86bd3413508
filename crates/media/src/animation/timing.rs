//! Which frames an animation export holds: how many, the clip time and camera turn of
//! each, and how long each is shown.
//!
//! Frame delays are whole units of each format (GIF: 1/100 s, WebP: 1/1000 s). Rounding
//! each delay alone would drift (30 fps in GIF: 3.33 cs rounded to 3 cs plays 10 % too
//! fast), so frame `i` ends at `round(unit · (i + 1) / fps)`: the rounding is carried, a
//! 30 fps GIF alternates 3, 3, 4 cs and the delays add up to the true duration.

use serde::{Deserialize, Serialize};

/// Fastest frame rate exported: GIF delays are in 1/100 s and browsers slow down any
/// delay under 2/100 s, so 50 fps is the fastest that plays as written everywhere.
pub const MAX_FPS: f32 = 50.0;
/// Most frames one export may hold (a 2-minute clip at 50 fps).
pub const MAX_FRAMES: u32 = 6000;
/// Longest turntable, seconds.
pub const MAX_TURNTABLE_SECONDS: f32 = 120.0;

/// What moves in an export.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Motion {
    /// A clip's frames `first..=last` once through (at the clip's rate or another).
    Clip {
        /// Clip index into `model.clips`.
        clip: usize,
        /// First frame exported.
        first: u32,
        /// Last frame exported (inclusive); it is shown for one frame time too.
        last: u32,
    },
    /// The camera orbits 360° about the vertical axis in `seconds`; `clip` (if any)
    /// plays meanwhile, from its start and looping.
    Turntable {
        /// Length of one turn.
        seconds: f32,
        /// The clip that plays while turning.
        clip: Option<usize>,
    },
}

/// The frames of one export.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FramePlan {
    /// What moves.
    pub motion: Motion,
    /// Frames per second of the output.
    pub fps: f32,
    /// Number of frames.
    pub count: u32,
    /// Frames per second of the clip (to turn frame numbers into clip seconds).
    clip_fps: f32,
    /// Length of the clip played during a turntable (it wraps).
    clip_period: f32,
}

impl FramePlan {
    /// The frames of `motion` at `fps` (`None`: the clip's own rate; a turntable without
    /// a clip then runs at 25 fps). Rates are capped at [`MAX_FPS`]. Errors name what is
    /// wrong (no such clip, frames out of range, an empty turntable).
    pub fn new(
        model: &crate::model::Model,
        motion: Motion,
        fps: Option<f32>,
    ) -> Result<FramePlan, String> {
        let clip_of = |c: usize| {
            model
                .clips
                .get(c)
                .ok_or_else(|| format!("the model has no clip number {c}"))
        };
        let own_fps = |c: &crate::model::Clip| if c.fps > 0.0 { c.fps } else { 10.0 };
        if let Some(f) = fps
            && !(f.is_finite() && f > 0.0)
        {
            return Err(format!("frame rate {f}: expected a number above 0"));
        }
        let (duration, clip_fps, clip_period, default_fps) = match motion {
            Motion::Clip { clip, first, last } => {
                let c = clip_of(clip)?;
                let last_frame = c.frame_count.saturating_sub(1);
                if first > last || last > last_frame {
                    return Err(format!(
                        "frames {first}–{last}: clip {:?} has frames 0 to {last_frame}",
                        c.name
                    ));
                }
                let cf = own_fps(c);
                ((last - first + 1) as f32 / cf, cf, 0.0, cf)
            }
            Motion::Turntable { seconds, clip } => {
                if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TURNTABLE_SECONDS) {
                    return Err(format!(
                        "turntable of {seconds} s: expected 0 to {MAX_TURNTABLE_SECONDS} seconds"
                    ));
                }
                match clip {
                    Some(c) => {
                        let c = clip_of(c)?;
                        let cf = own_fps(c);
                        (seconds, cf, c.frame_count.max(1) as f32 / cf, cf)
                    }
                    None => (seconds, 25.0, 0.0, 25.0),
                }
            }
        };
        let fps = fps.unwrap_or(default_fps).min(MAX_FPS);
        let count = (duration * fps).round().max(1.0);
        if count > MAX_FRAMES as f32 {
            return Err(format!(
                "{count} frames: an export holds at most {MAX_FRAMES} (lower the frame rate or the length)"
            ));
        }
        Ok(FramePlan {
            motion,
            fps,
            count: count as u32,
            clip_fps,
            clip_period,
        })
    }

    /// The clip posed in the frames, if any.
    pub fn clip(&self) -> Option<usize> {
        match self.motion {
            Motion::Clip { clip, .. } => Some(clip),
            Motion::Turntable { clip, .. } => clip,
        }
    }

    /// Clip time (seconds) of frame `i`.
    pub fn time(&self, i: u32) -> f32 {
        let t = i as f64 / self.fps as f64;
        match self.motion {
            Motion::Clip { first, .. } => (first as f64 / self.clip_fps as f64 + t) as f32,
            Motion::Turntable { .. } if self.clip_period > 0.0 => {
                (t as f32).rem_euclid(self.clip_period)
            }
            Motion::Turntable { .. } => 0.0,
        }
    }

    /// Camera turn of frame `i` in radians about the vertical axis: `2π · i / count`
    /// for a turntable (the last frame is one step short of the first: no frame twice at
    /// the seam), 0 otherwise.
    pub fn turn(&self, i: u32) -> f32 {
        match self.motion {
            Motion::Turntable { .. } => {
                (std::f64::consts::TAU * i as f64 / self.count as f64) as f32
            }
            Motion::Clip { .. } => 0.0,
        }
    }

    /// Length of the whole export, seconds.
    pub fn duration(&self) -> f64 {
        self.count as f64 / self.fps as f64
    }

    /// When frame `i` starts, in `units_per_second` (rounded; frame `count` = the end).
    pub fn boundary(&self, i: u32, units_per_second: u32) -> u64 {
        (i as f64 * units_per_second as f64 / self.fps as f64).round() as u64
    }

    /// How long frame `i` shows, in `units_per_second`, the rounding carried so the
    /// delays add up to the rounded duration.
    pub fn delay(&self, i: u32, units_per_second: u32) -> u64 {
        self.boundary(i + 1, units_per_second) - self.boundary(i, units_per_second)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Clip, Format, Model};

    fn model(fps: f32, frames: u32) -> Model {
        let mut m = Model::new(Format::Pie, "3");
        m.clips.push(Clip::new("walk", fps, frames, true));
        m
    }

    #[test]
    fn gif_delays_carry_the_rounding() {
        let m = model(30.0, 45);
        let p = FramePlan::new(
            &m,
            Motion::Clip {
                clip: 0,
                first: 0,
                last: 44,
            },
            None,
        )
        .unwrap();
        assert_eq!(p.count, 45);
        let delays: Vec<u64> = (0..p.count).map(|i| p.delay(i, 100)).collect();
        assert_eq!(
            delays.iter().sum::<u64>(),
            150,
            "45 frames at 30 fps = 1.5 s"
        );
        assert!(delays.iter().all(|d| (3..=4).contains(d)), "{delays:?}");
        // Rounding each delay alone would have given 45 × 3 cs = 1.35 s.
    }

    #[test]
    fn clip_range_and_chosen_rate() {
        let m = model(10.0, 20);
        let range = Motion::Clip {
            clip: 0,
            first: 4,
            last: 9,
        };
        let p = FramePlan::new(&m, range, Some(20.0)).unwrap();
        assert_eq!(p.count, 12, "6 clip frames at 10 fps = 0.6 s at 20 fps");
        assert!((p.time(0) - 0.4).abs() < 1e-6);
        assert!((p.time(1) - 0.45).abs() < 1e-6);
        assert_eq!(p.turn(5), 0.0);
        // Faster than GIF can show is capped.
        assert_eq!(FramePlan::new(&m, range, Some(120.0)).unwrap().fps, MAX_FPS);
        let bad = Motion::Clip {
            clip: 0,
            first: 4,
            last: 20,
        };
        let e = FramePlan::new(&m, bad, None).unwrap_err();
        assert!(e.contains("0 to 19"), "{e}");
    }

    #[test]
    fn turntable_has_no_seam_frame_and_wraps_the_clip() {
        let m = model(10.0, 10);
        let t = Motion::Turntable {
            seconds: 4.0,
            clip: Some(0),
        };
        let p = FramePlan::new(&m, t, None).unwrap();
        assert_eq!(p.count, 40);
        let step = std::f32::consts::TAU / 40.0;
        assert!((p.turn(1) - step).abs() < 1e-6);
        assert!((p.turn(39) - (std::f32::consts::TAU - step)).abs() < 1e-5);
        // The 1 s clip plays four times.
        assert!((p.time(12) - 0.2).abs() < 1e-5, "{}", p.time(12));
        let still = FramePlan::new(
            &m,
            Motion::Turntable {
                seconds: 2.0,
                clip: None,
            },
            None,
        )
        .unwrap();
        assert_eq!((still.count, still.time(7)), (50, 0.0));
        assert!(
            FramePlan::new(
                &m,
                Motion::Turntable {
                    seconds: 0.0,
                    clip: None
                },
                None
            )
            .is_err()
        );
    }
}
