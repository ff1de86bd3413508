//! The open document's animation playback as plain state: which clip (and which named
//! range of it), the time, play / pause, speed and what happens at the end.
//!
//! No UI here: [`crate::timeline`] shows it and emits [`TimelineCommand`]s, which
//! [`crate::dispatch::apply`] hands to [`Playback::apply`]. The window advances it once a
//! frame with [`Playback::advance`]; the pose is then sampled at [`Playback::sample_time`].
//!
//! Times are clip seconds. The span played is the whole clip, or a [`Motion`]'s frames
//! (PET `MOTI`) when one is selected. Frames are numbered from 0 as the files number them;
//! the readout shows `frame / frame count`.
//!
//! [`Motion`]: crate::model::Motion

use crate::model::{Clip, Model};

/// Slowest playback speed.
pub const MIN_SPEED: f32 = 0.1;
/// Fastest playback speed.
pub const MAX_SPEED: f32 = 4.0;

/// What happens when playback reaches the end of the span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum LoopMode {
    /// Start again from the beginning.
    #[default]
    Loop,
    /// Stop on the last frame.
    Once,
    /// Turn round and play backwards, then forwards again.
    PingPong,
}

impl LoopMode {
    /// Every mode, in the order the timeline shows them.
    pub const ALL: [LoopMode; 3] = [LoopMode::Loop, LoopMode::Once, LoopMode::PingPong];

    /// Label in the timeline.
    pub fn label(self) -> &'static str {
        match self {
            LoopMode::Loop => "Loop",
            LoopMode::Once => "Once",
            LoopMode::PingPong => "Ping-pong",
        }
    }
}

/// A user intent on the timeline.
#[derive(Debug, Clone, PartialEq)]
pub enum TimelineCommand {
    /// Play if paused, pause if playing (Space).
    PlayPause,
    /// Move this many frames (← / →); pauses.
    Step(i32),
    /// Go to the first frame of the span (Home).
    First,
    /// Go to the last frame of the span (End).
    Last,
    /// Go to this time (seconds, clamped to the span); playing continues from there.
    Seek(f32),
    /// Playback speed factor (clamped to [`MIN_SPEED`]..=[`MAX_SPEED`]).
    SetSpeed(f32),
    /// What happens at the end.
    SetMode(LoopMode),
    /// Play clip `clip`, or only its motion `motion`, from the start.
    SelectClip {
        /// Index into `model.clips`.
        clip: usize,
        /// Index into that clip's `motions`; `None` = the whole clip.
        motion: Option<usize>,
    },
}

/// How a clip plays until the user picks otherwise: as its file says (PIE cycles,
/// PMF loop flag, PET / PIE loops).
fn default_mode(clip: &crate::model::Clip) -> LoopMode {
    if clip.looping {
        LoopMode::Loop
    } else {
        LoopMode::Once
    }
}

/// The part of a clip being played, in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// First frame.
    pub first_frame: u32,
    /// Last frame (inclusive).
    pub last_frame: u32,
    /// Time of the first frame.
    pub start: f32,
    /// Time of the last frame: the end of the scrubber.
    pub end: f32,
    /// Length of one loop: up to the end of the last frame; for a whole looping clip
    /// that is its duration (the last frame blends back into the first).
    pub period: f32,
    /// Frames per second.
    pub fps: f32,
}

/// Playback of the open document's animation.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Playback {
    /// Clip index into the shown model's `clips` (`None`: the model has no animation).
    pub clip: Option<usize>,
    /// Motion (named range) of that clip being played; `None` = the whole clip.
    pub motion: Option<usize>,
    /// Current time in clip seconds.
    pub time: f32,
    /// Whether time advances.
    pub playing: bool,
    /// Speed factor.
    pub speed: f32,
    /// What happens at the end of the span.
    pub mode: LoopMode,
    /// Ping-pong is on its way back.
    pub backwards: bool,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            clip: None,
            motion: None,
            time: 0.0,
            playing: false,
            speed: 1.0,
            mode: LoopMode::Loop,
            backwards: false,
        }
    }
}

impl Playback {
    /// Playback of a freshly opened model: its first clip, from the start, playing.
    pub fn for_model(model: &Model) -> Playback {
        Playback {
            clip: (!model.clips.is_empty()).then_some(0),
            playing: !model.clips.is_empty(),
            mode: model.clips.first().map_or(LoopMode::Loop, default_mode),
            ..Playback::default()
        }
    }

    /// The same clip (by name), motion (by name), time, speed and mode on a reloaded
    /// model; what no longer exists falls back to [`Playback::for_model`].
    pub fn carried_to(&self, old: &Model, new: &Model) -> Playback {
        let mut p = Playback::for_model(new);
        let old_clip = self.clip.and_then(|c| old.clips.get(c));
        let Some((ci, clip)) = old_clip.and_then(|c| {
            let i = new.clip_index(&c.name)?;
            Some((i, &new.clips[i]))
        }) else {
            return p;
        };
        p.clip = Some(ci);
        let old_motion = self
            .motion
            .and_then(|m| old_clip.and_then(|c| c.motions.get(m)));
        p.motion = old_motion.and_then(|om| clip.motions.iter().position(|m| m.name == om.name));
        p.playing = self.playing;
        p.speed = self.speed;
        p.mode = self.mode;
        p.backwards = self.backwards;
        p.time = self.time;
        if let Some(span) = p.span(new) {
            p.time = p.time.clamp(span.start, span.start + span.period);
        }
        p
    }

    /// The clip being played.
    pub fn clip<'m>(&self, model: &'m Model) -> Option<&'m Clip> {
        self.clip.and_then(|c| model.clips.get(c))
    }

    /// The span being played (`None` without a clip).
    pub fn span(&self, model: &Model) -> Option<Span> {
        let clip = self.clip(model)?;
        let fps = if clip.fps > 0.0 { clip.fps } else { 1.0 };
        let count = clip.frame_count.max(1);
        let (first, last, whole) = match self.motion.and_then(|m| clip.motions.get(m)) {
            Some(m) => {
                let first = m.start.min(count - 1);
                (first, m.end.clamp(first, count - 1), false)
            }
            None => (0, count - 1, true),
        };
        let start = first as f32 / fps;
        let end = last as f32 / fps;
        let period = if whole && clip.looping {
            count as f32 / fps
        } else {
            (last - first + 1) as f32 / fps
        };
        Some(Span {
            first_frame: first,
            last_frame: last,
            start,
            end,
            period,
            fps,
        })
    }

    /// The time to sample the pose at: the current time, holding the last frame for the
    /// rest of its frame time (except in a whole looping clip, which blends back to 0).
    pub fn sample_time(&self, model: &Model) -> f32 {
        match (self.span(model), self.clip(model)) {
            (Some(span), Some(clip)) if self.motion.is_none() && clip.looping => {
                self.time.clamp(span.start, span.start + span.period)
            }
            (Some(span), _) => self.time.clamp(span.start, span.end),
            _ => 0.0,
        }
    }

    /// The frame shown now (whole frames, counted from 0 in the clip).
    pub fn frame(&self, model: &Model) -> u32 {
        match self.span(model) {
            Some(span) => {
                let t = self.time.clamp(span.start, span.end);
                ((t * span.fps + 1e-3).floor().max(0.0) as u32).min(span.last_frame)
            }
            None => 0,
        }
    }

    /// Moves time on by `dt` seconds of wall-clock time (× speed) when playing.
    pub fn advance(&mut self, model: &Model, dt: f32) {
        let Some(span) = self.span(model) else {
            self.playing = false;
            return;
        };
        if !self.playing || !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let d = dt * self.speed;
        match self.mode {
            LoopMode::Loop => {
                let t = self.time + d - span.start;
                self.time = span.start
                    + if span.period > 0.0 {
                        t.rem_euclid(span.period)
                    } else {
                        0.0
                    };
            }
            LoopMode::Once => {
                self.time += d;
                if self.time >= span.end {
                    self.time = span.end;
                    self.playing = false;
                }
            }
            LoopMode::PingPong => {
                let len = span.end - span.start;
                if len <= 0.0 {
                    self.time = span.start;
                    return;
                }
                // Unfold the bounce into a sawtooth of period 2·len.
                let pos = if self.backwards {
                    2.0 * len - (self.time - span.start)
                } else {
                    self.time - span.start
                };
                let pos = (pos + d).rem_euclid(2.0 * len);
                self.backwards = pos > len;
                let pos = if self.backwards { 2.0 * len - pos } else { pos };
                self.time = span.start + pos;
            }
        }
    }

    /// Carries out a timeline command.
    pub fn apply(&mut self, model: &Model, cmd: TimelineCommand) {
        if let TimelineCommand::SelectClip { clip, motion } = cmd {
            if let Some(c) = model.clips.get(clip) {
                if self.clip != Some(clip) {
                    // A newly chosen clip plays the way its file says (loops or once).
                    self.mode = default_mode(c);
                }
                self.clip = Some(clip);
                self.motion = motion.filter(|&m| m < c.motions.len());
                self.backwards = false;
                self.time = self.span(model).map_or(0.0, |s| s.start);
            }
            return;
        }
        let Some(span) = self.span(model) else {
            return;
        };
        match cmd {
            TimelineCommand::PlayPause => {
                self.playing = !self.playing;
                if self.playing && self.mode == LoopMode::Once && self.time >= span.end {
                    self.time = span.start;
                }
            }
            TimelineCommand::Step(n) => {
                self.playing = false;
                let frames = (span.last_frame - span.first_frame + 1) as i64;
                let current = self.frame(model) as i64 - span.first_frame as i64;
                let next = current + n as i64;
                let next = if self.mode == LoopMode::Loop {
                    next.rem_euclid(frames)
                } else {
                    next.clamp(0, frames - 1)
                };
                self.time = (span.first_frame as i64 + next) as f32 / span.fps;
            }
            TimelineCommand::First => {
                self.time = span.start;
                self.backwards = false;
            }
            TimelineCommand::Last => self.time = span.end,
            TimelineCommand::Seek(t) => {
                if t.is_finite() {
                    self.time = t.clamp(span.start, span.end);
                }
            }
            TimelineCommand::SetSpeed(s) => {
                if s.is_finite() {
                    self.speed = s.clamp(MIN_SPEED, MAX_SPEED);
                }
            }
            TimelineCommand::SetMode(m) => {
                self.mode = m;
                self.backwards = false;
            }
            TimelineCommand::SelectClip { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Motion};

    #[test]
    fn a_clip_plays_as_its_file_says_until_the_user_changes_it() {
        let m = model();
        let mut p = Playback::for_model(&m);
        assert_eq!(p.mode, LoopMode::Loop, "walk loops");
        p.apply(
            &m,
            TimelineCommand::SelectClip {
                clip: 1,
                motion: None,
            },
        );
        assert_eq!(p.mode, LoopMode::Once, "wave plays once");
        p.mode = LoopMode::PingPong;
        p.apply(
            &m,
            TimelineCommand::SelectClip {
                clip: 1,
                motion: None,
            },
        );
        assert_eq!(
            p.mode,
            LoopMode::PingPong,
            "reselecting keeps the user's choice"
        );
    }

    /// Clip 0: "walk", 10 frames at 10 fps, looping, with motions "a" 0–3 and "b" 4–9.
    /// Clip 1: "wave", 5 frames at 5 fps, once.
    fn model() -> Model {
        let mut m = Model::new(Format::Pet, "1.3");
        let mut walk = Clip::new("walk", 10.0, 10, true);
        for (name, start, end) in [("a", 0, 3), ("b", 4, 9)] {
            walk.motions.push(Motion {
                name: name.into(),
                start,
                end,
                next: None,
                blend_time: 0.0,
            });
        }
        m.clips.push(walk);
        m.clips.push(Clip::new("wave", 5.0, 5, false));
        m
    }

    fn approx(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn loop_wraps_at_the_clip_duration_and_motion_ranges_wrap_inside_the_motion() {
        let m = model();
        let mut p = Playback::for_model(&m);
        assert!(p.playing && p.clip == Some(0));
        p.advance(&m, 0.95);
        assert_eq!(p.frame(&m), 9);
        // 0.95 s is between frame 9 and the loop back to frame 0: sampled as is.
        assert!(approx(p.sample_time(&m), 0.95));
        p.advance(&m, 0.1);
        assert!(approx(p.time, 0.05), "{}", p.time);
        p.apply(
            &m,
            TimelineCommand::SelectClip {
                clip: 0,
                motion: Some(1),
            },
        );
        assert!(approx(p.time, 0.4));
        p.advance(&m, 0.55); // 0.95: frame 9 held, not blended towards frame 10
        assert!(approx(p.sample_time(&m), 0.9));
        p.advance(&m, 0.1); // 1.05 → wraps to frame 4 + 0.05 s
        assert!(approx(p.time, 0.45), "{}", p.time);
    }

    #[test]
    fn once_stops_on_the_last_frame_and_play_restarts() {
        let m = model();
        let mut p = Playback::for_model(&m);
        p.apply(&m, TimelineCommand::SetMode(LoopMode::Once));
        p.advance(&m, 5.0);
        assert!(!p.playing);
        assert_eq!(p.frame(&m), 9);
        assert!(approx(p.sample_time(&m), 0.9));
        p.apply(&m, TimelineCommand::PlayPause);
        assert!(p.playing && p.time == 0.0);
    }

    #[test]
    fn ping_pong_turns_at_both_ends() {
        let m = model();
        let mut p = Playback::for_model(&m);
        p.apply(&m, TimelineCommand::SetMode(LoopMode::PingPong));
        p.advance(&m, 1.0); // end is 0.9: 0.1 back
        assert!(approx(p.time, 0.8) && p.backwards, "{}", p.time);
        p.advance(&m, 0.85); // down to 0, 0.05 forward again
        assert!(approx(p.time, 0.05) && !p.backwards, "{}", p.time);
        p.apply(&m, TimelineCommand::SetSpeed(2.0));
        p.advance(&m, 0.1);
        assert!(approx(p.time, 0.25), "{}", p.time);
    }

    #[test]
    fn step_first_last_seek_and_speed_limits() {
        let m = model();
        let mut p = Playback::for_model(&m);
        p.apply(&m, TimelineCommand::Step(1));
        assert!(!p.playing, "stepping pauses");
        assert_eq!(p.frame(&m), 1);
        p.apply(&m, TimelineCommand::Step(-2));
        assert_eq!(p.frame(&m), 9, "loop mode wraps");
        p.apply(&m, TimelineCommand::SetMode(LoopMode::Once));
        p.apply(&m, TimelineCommand::Step(5));
        assert_eq!(p.frame(&m), 9, "once clamps");
        p.apply(&m, TimelineCommand::First);
        assert_eq!(p.frame(&m), 0);
        p.apply(&m, TimelineCommand::Last);
        assert_eq!(p.frame(&m), 9);
        p.apply(&m, TimelineCommand::Seek(0.42));
        assert_eq!(p.frame(&m), 4);
        p.apply(&m, TimelineCommand::Seek(-3.0));
        assert_eq!(p.time, 0.0);
        p.apply(&m, TimelineCommand::SetSpeed(40.0));
        assert_eq!(p.speed, MAX_SPEED);
        p.apply(&m, TimelineCommand::SetSpeed(0.0));
        assert_eq!(p.speed, MIN_SPEED);
        p.apply(
            &m,
            TimelineCommand::SelectClip {
                clip: 1,
                motion: None,
            },
        );
        let s = p.span(&m).unwrap();
        assert_eq!((s.first_frame, s.last_frame), (0, 4));
        assert!(approx(s.end, 0.8) && approx(s.period, 1.0));
    }

    #[test]
    fn reload_keeps_clip_motion_and_time_by_name() {
        let m = model();
        let mut p = Playback::for_model(&m);
        p.apply(
            &m,
            TimelineCommand::SelectClip {
                clip: 0,
                motion: Some(1),
            },
        );
        p.apply(&m, TimelineCommand::Seek(0.7));
        p.apply(&m, TimelineCommand::PlayPause);
        // The reloaded file has the clips in another order.
        let mut reloaded = model();
        reloaded.clips.reverse();
        let q = p.carried_to(&m, &reloaded);
        assert_eq!((q.clip, q.motion, q.playing), (Some(1), Some(1), false));
        assert!(approx(q.time, 0.7));
        // A clip that is gone: back to the first clip, from the start.
        reloaded.clips[1].name = "renamed".into();
        let r = p.carried_to(&m, &reloaded);
        assert_eq!((r.clip, r.time), (Some(0), 0.0));
    }
}
