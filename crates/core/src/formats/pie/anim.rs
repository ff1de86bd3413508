//! ANIMOBJECT keyframes and +4000 texture animation → one clip,
//! `"levels + texture animation"`.
//!
//! ANIMOBJECT, as the game reads it (`lib/ivis_opengl/imdload.cpp`) and draws it
//! (`src/display3d.cpp` `drawShape`): frame `f` of a level is shown from
//! `f × time` ms (the game draws `floor(elapsed / time) mod frames`, so `time` is ms per
//! frame); positions are thousandths, file order x, y, z with y and z swapped relative
//! to the game's model space ((x, z, y) / 1000); rotations are thousandths of degrees
//! with pitch about X = −rotX, yaw about Y = −rotZ, roll about Z = −rotY, composed
//! `rotX · rotY · rotZ`; then mirrored in X like the points (see `build.rs`); scale is x, y, z unswapped, and scale x = −1 hides the level
//! for that frame (a [`VisibilityTrack`]).
//! Each level loops with its own period (`frames × time`); the clip's frame rate is
//! `1000 / time` of the first animated level, its length the longest level's `frames ×
//! cycles` (one cycle when `cycles` is 0, in those frames), and it loops when that
//! level's `cycles` is 0. Every cycle end of a level is an [`EventMarker`]
//! (`"level 2: end of cycle 1 of 3"`; `"level 2: end of cycle"` for a looping level);
//! levels ending a cycle on the same frame share one marker (`"levels 1, 2: …"`).
//!
//! INTERPOLATE, as the game's current `drawShape` (`src/display3d.cpp` of
//! Warzone2100/warzone2100) draws it: with INTERPOLATE 1 (the default) the frame shown is
//! `floor(elapsed / time) mod frames` and the translation and the three rotation angles
//! blend linearly towards the next frame (the last frame blends back into the first),
//! while the scale is the current frame's, never blended; with INTERPOLATE 0 every frame
//! is held until the next one. A hidden frame (scale x = −1) is not drawn at all, but the
//! frame before it still blends towards its translation and rotation, as the game's
//! does. Here the rotation blends as a quaternion slerp where the game lerps pitch, yaw
//! and roll one by one: the same on single-axis turns (the derrick's), at most 0.6° apart
//! on the cyborg runs' three-axis frames (measured over every ANIMOBJECT of the 4.3.3
//! data). An older `drawShape` in the game's history ignores INTERPOLATE and holds every
//! frame.
//!
//! Texture animation: one [`TextureFrameTrack`] per level with +4000 polygons.
//! Legacy team colours: before team-colour masks, an 8-frame +4000 block on a unit or
//! structure page held the 8 player colours and the frame was the player index. The
//! rule used here to tell those from effects: exactly 8 frames, a TYPE without the
//! effect bits (0x2 additive, 0x4 premultiplied, 0x10/0x20 camera-facing) and a base page
//! whose name does not contain `-fx`. In the 4.3.3 data this marks `blwallc4*.pie` and
//! `prhnaval1.pie` (rate 1, structure/propulsion pages) and no effect.

use super::header::{TYPE_ADDITIVE, TYPE_PITCH, TYPE_PREMULTIPLIED, TYPE_ROLL};
use super::level::{AnimFrame, Level};
use crate::model::{
    Clip, EventMarker, Interpolation, NodeTrack, TextureFrameTrack, Track, VisibilityTrack,
};
use glam::{Quat, Vec3};

/// The clip's name.
pub(crate) const CLIP_NAME: &str = "levels + texture animation";

/// What the clip needs to know about a level besides its blocks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LevelContext<'a> {
    /// Effective TYPE flags.
    pub type_flags: u32,
    /// Effective INTERPOLATE.
    pub interpolate: bool,
    /// Effective tileset-0 base page.
    pub(crate) base_page: Option<&'a str>,
}

/// Whether an animation block is a legacy team-colour block (rule in the module docs).
pub(crate) fn is_team_colour(frames: u32, ctx: &LevelContext<'_>) -> bool {
    let effect_bits = TYPE_ADDITIVE | TYPE_PREMULTIPLIED | TYPE_ROLL | TYPE_PITCH;
    frames == 8
        && ctx.type_flags & effect_bits == 0
        && ctx
            .base_page
            .is_some_and(|p| !p.to_ascii_lowercase().contains("-fx"))
}

/// A frame's transform in model terms: the game's axes (y/z swapped, thousandths,
/// negated angles), then the X mirror that takes PIE's left-handed space to the model's
/// right-handed one (`S·T·S`: translation x negated, rotations about Y and Z negated —
/// quaternion (x, −y, −z, w)).
fn transform(f: &AnimFrame) -> (Vec3, Quat, Vec3) {
    let [px, py, pz] = f.position;
    let [rx, ry, rz] = f.rotation;
    let translation = Vec3::new(-px, pz, py) / 1000.0;
    let deg = |v: f32| (-v / 1000.0).to_radians();
    let game = Quat::from_rotation_x(deg(rx))
        * Quat::from_rotation_y(deg(rz))
        * Quat::from_rotation_z(deg(ry));
    let rotation = Quat::from_xyzw(game.x, -game.y, -game.z, game.w);
    (translation, rotation, Vec3::from_array(f.scale))
}

/// Whether the frame hides its level.
pub(crate) fn hidden(f: &AnimFrame) -> bool {
    f.scale[0] == -1.0
}

/// Builds the clip, or `None` when no level is animated. `ctx[i]` belongs to `levels[i]`,
/// and level `i` is node `i` and mesh `i`.
pub(crate) fn clip(levels: &[Level], ctx: &[LevelContext<'_>]) -> Option<Clip> {
    let keyed: Vec<usize> = (0..levels.len())
        .filter(|&i| {
            levels[i]
                .anim
                .as_ref()
                .is_some_and(|a| !a.frames.is_empty())
        })
        .collect();
    let textured: Vec<usize> = (0..levels.len())
        .filter(|&i| levels[i].tex_anim.is_some())
        .collect();
    if keyed.is_empty() && textured.is_empty() {
        return None;
    }
    let first = keyed.first().and_then(|&i| levels[i].anim.as_ref());
    let first_tex = textured
        .iter()
        .filter_map(|&i| levels[i].tex_anim)
        .find(|t| t.ms_per_frame > 0.0);
    let ms = first
        .map(|a| a.time)
        .or(first_tex.map(|t| t.ms_per_frame))
        .unwrap_or(100.0);
    let fps = 1000.0 / ms;
    let looping = first.is_none_or(|a| a.cycles == 0);
    let frame_count = if keyed.is_empty() {
        textured
            .iter()
            .filter_map(|&i| levels[i].tex_anim.map(|t| t.frames))
            .max()
            .unwrap_or(1)
    } else {
        keyed
            .iter()
            .filter_map(|&i| levels[i].anim.as_ref())
            .map(|a| (a.frames.len() as f32 * a.time * a.cycles.max(1) as f32 / ms).round() as u32)
            .max()
            .unwrap_or(1)
    }
    .max(1);
    let mut clip = Clip::new(CLIP_NAME, fps, frame_count, looping);

    for &i in &keyed {
        let Some(anim) = &levels[i].anim else {
            continue;
        };
        let n = anim.frames.len();
        let step = anim.time / 1000.0;
        let interpolation = if ctx.get(i).is_none_or(|c| c.interpolate) {
            Interpolation::Linear
        } else {
            Interpolation::Step
        };
        let visible: Vec<bool> = anim.frames.iter().map(|f| !hidden(f)).collect();
        let first_visible = visible.iter().position(|&v| v);
        let mut translation = Vec::with_capacity(n);
        let mut rotation = Vec::with_capacity(n);
        let mut scale = Vec::with_capacity(n);
        // A hidden frame's scale (−1) is never drawn; it keeps the last shown scale so
        // that nothing is mirrored when bounds are taken over the whole clip.
        let mut shown_scale = first_visible.map_or(Vec3::ONE, |k| transform(&anim.frames[k]).2);
        for (f, &shown) in visible.iter().enumerate() {
            let (t, r, s) = transform(&anim.frames[f]);
            if shown {
                shown_scale = s;
            }
            let time = f as f32 * step;
            translation.push((time, t));
            rotation.push((time, r));
            scale.push((time, shown_scale));
        }
        let period = Some(n as f32 * step);
        clip.node_tracks.push(NodeTrack {
            node: i,
            translation: Some(Track::new(translation, interpolation)),
            rotation: Some(Track::new(rotation, interpolation)),
            // The game never blends the scale.
            scale: Some(Track::new(scale, Interpolation::Step)),
            period,
        });
        if visible.iter().any(|v| !v) {
            clip.visibility.push(VisibilityTrack {
                node: i,
                times: (0..n).map(|f| f as f32 * step).collect(),
                visible,
                period,
            });
        }
        // Keys repeat in every cycle the clip plays.
        clip.keyframes.extend(
            (0..n * anim.cycles.max(1) as usize)
                .map(|f| (f as f32 * anim.time / ms).round() as u32)
                .filter(|&k| k < frame_count),
        );
    }
    clip.keyframes.sort_unstable();
    clip.keyframes.dedup();
    clip.events = cycle_ends(levels, &keyed, ms);

    for &i in &textured {
        let Some(t) = levels[i].tex_anim else {
            continue;
        };
        let team_colour = ctx.get(i).is_some_and(|c| is_team_colour(t.frames, c));
        clip.texture_frames.push(TextureFrameTrack {
            mesh: i,
            frames: t.frames,
            ms_per_frame: t.ms_per_frame,
            frame_size: t.size,
            team_colour,
        });
    }
    Some(clip)
}

/// One marker per frame where animated levels end a cycle (see the module docs).
/// `keyed` are the animated levels, `ms` the clip's milliseconds per frame.
fn cycle_ends(levels: &[Level], keyed: &[usize], ms: f32) -> Vec<EventMarker> {
    // (frame, cycle, cycles, level number)
    let mut ends: Vec<(u32, u32, u32, usize)> = Vec::new();
    for &i in keyed {
        let Some(anim) = &levels[i].anim else {
            continue;
        };
        let length = anim.frames.len() as f32 * anim.time / ms;
        for cycle in 1..=anim.cycles.max(1) {
            let frame = (length * cycle as f32).round() as u32;
            ends.push((frame, cycle, anim.cycles, i + 1));
        }
    }
    ends.sort_unstable();
    let mut markers: Vec<EventMarker> = Vec::new();
    let mut k = 0;
    while k < ends.len() {
        let (frame, cycle, cycles, _) = ends[k];
        let group: Vec<String> = ends[k..]
            .iter()
            .take_while(|e| (e.0, e.1, e.2) == (frame, cycle, cycles))
            .map(|e| e.3.to_string())
            .collect();
        k += group.len();
        let who = if group.len() == 1 {
            format!("level {}", group[0])
        } else {
            format!("levels {}", group.join(", "))
        };
        let text = if cycles == 0 {
            format!("{who}: end of cycle")
        } else {
            format!("{who}: end of cycle {cycle} of {cycles}")
        };
        markers.push(EventMarker { frame, text });
    }
    markers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pie::level::{AnimObject, TexAnim};
    use glam::Vec2;

    fn frame(p: [f32; 3], r: [f32; 3], s: [f32; 3]) -> AnimFrame {
        AnimFrame {
            position: p,
            rotation: r,
            scale: s,
        }
    }

    fn ctx(type_flags: u32, page: &str) -> LevelContext<'_> {
        LevelContext {
            type_flags,
            interpolate: true,
            base_page: Some(page),
        }
    }

    #[test]
    fn axes_swaps_and_negations() {
        let cases: &[(AnimFrame, Vec3, Quat)] = &[
            (
                frame([1000.0, 2000.0, 3000.0], [0.0; 3], [1.0; 3]),
                Vec3::new(-1.0, 3.0, 2.0),
                Quat::IDENTITY,
            ),
            (
                frame([0.0; 3], [90000.0, 0.0, 0.0], [1.0; 3]),
                Vec3::ZERO,
                Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            ),
            (
                frame([0.0; 3], [0.0, 0.0, 90000.0], [1.0; 3]),
                Vec3::ZERO,
                Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            ),
            (
                frame([0.0; 3], [0.0, 90000.0, 0.0], [1.0; 3]),
                Vec3::ZERO,
                Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            ),
        ];
        for (f, t, r) in cases {
            let (got_t, got_r, _) = transform(f);
            assert!(got_t.abs_diff_eq(*t, 1e-6), "{f:?}: {got_t}");
            assert!(got_r.abs_diff_eq(*r, 1e-6), "{f:?}: {got_r}");
        }
        // Composition order: X first (outermost), then Y, then Z; mirrored in X.
        let (_, r, _) = transform(&frame([0.0; 3], [90000.0, 90000.0, 90000.0], [1.0; 3]));
        let h = -std::f32::consts::FRAC_PI_2;
        let want = Quat::from_rotation_x(h) * Quat::from_rotation_y(-h) * Quat::from_rotation_z(-h);
        assert!(r.abs_diff_eq(want, 1e-6));
    }

    #[test]
    fn keyframes_hidden_frames_and_timing() {
        let level = Level {
            anim: Some(AnimObject {
                time: 250.0,
                cycles: 1,
                frames: vec![
                    frame([0.0; 3], [0.0; 3], [-1.0; 3]),
                    frame([1000.0, 0.0, 0.0], [0.0; 3], [1.0; 3]),
                    frame([0.0; 3], [0.0; 3], [-1.0; 3]),
                    frame([3000.0, 0.0, 0.0], [0.0; 3], [2.0; 3]),
                ],
            }),
            ..Level::default()
        };
        let c = clip(&[level], &[ctx(0x200, "page-7.png")]).unwrap();
        assert_eq!(c.name, CLIP_NAME);
        assert_eq!((c.fps, c.frame_count, c.looping), (4.0, 4, false));
        assert_eq!(c.keyframes, vec![0, 1, 2, 3]);
        let tr = &c.node_tracks[0];
        assert_eq!(tr.period, Some(1.0));
        let t = tr.translation.as_ref().unwrap();
        assert_eq!(t.times, vec![0.0, 0.25, 0.5, 0.75]);
        // Hidden frames keep their own translation (the frame before one blends towards
        // it, as in the game); x is mirrored into the model's right-handed space.
        let xs: Vec<f32> = t.values.iter().map(|v| -v.x).collect();
        assert_eq!(xs, vec![0.0, 1.0, 0.0, 3.0]);
        // Their scale (−1) is replaced by the last shown one (the first for a lead-in),
        // and the scale is held, never blended.
        let s = tr.scale.as_ref().unwrap();
        assert_eq!(
            s.values,
            vec![Vec3::ONE, Vec3::ONE, Vec3::ONE, Vec3::splat(2.0)]
        );
        assert_eq!(s.interpolation, Interpolation::Step);
        let v = &c.visibility[0];
        assert_eq!(v.visible, vec![false, true, false, true]);
        assert!(!v.sample(0.1) && v.sample(0.3) && !v.sample(0.6) && v.sample(0.8));
    }

    fn animated(time: f32, cycles: u32, frames: usize) -> Level {
        Level {
            anim: Some(AnimObject {
                time,
                cycles,
                frames: vec![frame([0.0; 3], [0.0; 3], [1.0; 3]); frames],
            }),
            ..Level::default()
        }
    }

    #[test]
    fn finite_cycles_lengthen_the_clip_and_mark_each_cycle_end() {
        // fireknee-like: 3 levels, 150 ms, 2 cycles of 3 frames; one static level between.
        let levels = [
            animated(150.0, 2, 3),
            Level::default(),
            animated(150.0, 2, 3),
            animated(150.0, 2, 3),
        ];
        let c = clip(&levels, &[ctx(0x200, "p.png"); 4]).unwrap();
        assert_eq!((c.frame_count, c.looping), (6, false));
        assert!((c.duration() - 0.9).abs() < 1e-6);
        let ev: Vec<(u32, &str)> = c
            .events
            .iter()
            .map(|e| (e.frame, e.text.as_str()))
            .collect();
        assert_eq!(
            ev,
            vec![
                (3, "levels 1, 3, 4: end of cycle 1 of 2"),
                (6, "levels 1, 3, 4: end of cycle 2 of 2"),
            ]
        );
        // Keyframe ticks repeat in the second cycle.
        assert_eq!(c.keyframes, vec![0, 1, 2, 3, 4, 5]);

        // Levels with their own timing and cycles: each gets its own markers, in clip
        // frames (the first level's 100 ms).
        let levels = [animated(100.0, 3, 2), animated(200.0, 1, 4)];
        let c = clip(&levels, &[ctx(0x200, "p.png"); 2]).unwrap();
        assert_eq!((c.fps, c.frame_count, c.looping), (10.0, 8, false));
        let ev: Vec<(u32, &str)> = c
            .events
            .iter()
            .map(|e| (e.frame, e.text.as_str()))
            .collect();
        assert_eq!(
            ev,
            vec![
                (2, "level 1: end of cycle 1 of 3"),
                (4, "level 1: end of cycle 2 of 3"),
                (6, "level 1: end of cycle 3 of 3"),
                (8, "level 2: end of cycle 1 of 1"),
            ]
        );
    }

    #[test]
    fn looping_levels_mark_the_end_of_their_cycle() {
        // Derrick-like: levels 2 and 3 loop 25 frames of 60 ms.
        let levels = [
            Level::default(),
            animated(60.0, 0, 25),
            animated(60.0, 0, 25),
        ];
        let c = clip(&levels, &[ctx(0x200, "p.png"); 3]).unwrap();
        assert_eq!((c.frame_count, c.looping), (25, true));
        assert_eq!(
            c.events,
            vec![EventMarker {
                frame: 25,
                text: "levels 2, 3: end of cycle".into()
            }]
        );
        // Texture animation alone has no cycle ends.
        let tex = Level {
            tex_anim: Some(TexAnim {
                frames: 4,
                ms_per_frame: 100.0,
                size: Vec2::splat(0.5),
            }),
            ..Level::default()
        };
        assert!(
            clip(&[tex], &[ctx(0x222, "p.png")])
                .unwrap()
                .events
                .is_empty()
        );
    }

    #[test]
    fn interpolate_off_steps() {
        let level = Level {
            anim: Some(AnimObject {
                time: 100.0,
                cycles: 0,
                frames: vec![frame([0.0; 3], [0.0; 3], [1.0; 3]); 2],
            }),
            ..Level::default()
        };
        let mut c = ctx(0x200, "p.png");
        c.interpolate = false;
        let clip = clip(&[level], &[c]).unwrap();
        assert!(clip.looping);
        let tr = clip.node_tracks[0].rotation.as_ref().unwrap();
        assert_eq!(tr.interpolation, Interpolation::Step);
    }

    #[test]
    fn texture_animation_only_and_team_colour_rule() {
        let tex = |frames| Level {
            tex_anim: Some(TexAnim {
                frames,
                ms_per_frame: 100.0,
                size: Vec2::new(0.125, 0.0625),
            }),
            ..Level::default()
        };
        let c = clip(&[tex(8)], &[ctx(0x200, "page-20-fx.png")]).unwrap();
        assert_eq!((c.fps, c.frame_count, c.looping), (10.0, 8, true));
        assert!(c.node_tracks.is_empty());
        assert_eq!(c.texture_frames[0].frame_size, Vec2::new(0.125, 0.0625));
        let cases: &[(u32, u32, &str, bool)] = &[
            (8, 0x200, "page-12-player-buildings.png", true),
            (8, 0x10200, "page-28-naval.png", true),
            (8, 0x200, "page-20-fx.png", false),
            (8, 0x222, "page-9-player-buildings-bases.png", false),
            (8, 0x212, "page-9.png", false),
            (4, 0x200, "page-12-player-buildings.png", false),
        ];
        for &(frames, flags, page, want) in cases {
            assert_eq!(
                is_team_colour(frames, &ctx(flags, page)),
                want,
                "{frames} {flags:x} {page}"
            );
        }
        assert!(clip(&[Level::default()], &[ctx(0x200, "p.png")]).is_none());
    }
}
