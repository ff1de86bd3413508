//! Sampled PIE animation against values worked out by hand from the file's own numbers
//! and the game's rules (frame `f` of an ANIMOBJECT level shows from `f × time` ms;
//! position thousandths with y and z swapped; a +4000 polygon's frame `f` offsets its UVs
//! by `(f mod per_line × width, f div per_line × height)`), not from the loader:
//! the WZ oil derrick's pump (level 2) and a +4000 effect's texture frames.

use crate::common;

use glam::{Quat, Vec2, Vec3};
use vitrine_core::formats::LoadOptions;
use vitrine_core::model::Pose;
use vitrine_test_needs::vitrine_test;

/// The ANIMOBJECT header and frame `frame` of level `level`, read by plain string
/// splitting: `(time, cycles, frames)` and `[index, pos x y z, rot x y z, scale x y z]`.
fn animobject_line(text: &str, level: u32, frame: usize) -> ([f32; 3], Vec<f32>) {
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim() != format!("LEVEL {level}"))
        .skip_while(|l| !l.trim_start().starts_with("ANIMOBJECT"));
    let header: Vec<f32> = lines
        .next()
        .expect("level has an ANIMOBJECT")
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    let row: Vec<f32> = lines
        .nth(frame)
        .expect("frame line")
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(row[0], frame as f32, "frame lines are numbered");
    ([header[0], header[1], header[2]], row)
}

/// Position in model terms: file (x, y, z) thousandths → (x, z, y) / 1000.
fn position(row: &[f32]) -> Vec3 {
    Vec3::new(row[1], row[3], row[2]) / 1000.0
}

/// Pitch, yaw, roll in degrees: −rotX, −rotZ, −rotY thousandths of degrees.
fn angles(row: &[f32]) -> [f32; 3] {
    [-row[4] / 1000.0, -row[6] / 1000.0, -row[5] / 1000.0]
}

fn rotation([pitch, yaw, roll]: [f32; 3]) -> Quat {
    Quat::from_rotation_x(pitch.to_radians())
        * Quat::from_rotation_y(yaw.to_radians())
        * Quat::from_rotation_z(roll.to_radians())
}

fn same_rotation(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() > 1.0 - 1e-5
}

#[vitrine_test(shared)]
fn derrick_levels_2_and_3_at_frame_6_and_between_6_and_7() {
    let wz = common::wz2100();
    let path = wz.join("data/base/structs/blderik_anim.pie");
    let text = std::fs::read_to_string(&path).expect("derrick file");
    let m = common::load_path(&path, &LoadOptions::default()).expect("derrick loads");
    assert!(m.clips[0].looping);

    // Transforms are compared in the game's own (left-handed) axes: `matrix_to_file`
    // undoes the model's X mirror.
    // Level 2 (the pump rod) only rises: file z 14085 → model y 14.085 at frame 6.
    // Level 3 (the beam) swings: file (−23053, 0, 9556) → model (−23.053, 9.556, 0), and
    // rotY 17365 → roll −17.365°.
    let checks: [(u32, Vec3, [f32; 3]); 2] = [
        (2, Vec3::new(0.0, 14.085, 0.0), [0.0, 0.0, 0.0]),
        (3, Vec3::new(-23.053, 9.556, 0.0), [0.0, 0.0, -17.365]),
    ];
    for (level, hand_t, hand_angles) in checks {
        let node = level as usize - 1;
        let ([ms, cycles, frames], f6) = animobject_line(&text, level, 6);
        let (_, f7) = animobject_line(&text, level, 7);
        // The file says 60 ms per frame, 25 frames, looping.
        assert_eq!((ms, cycles, frames), (60.0, 0.0, 25.0));
        // The string-split reading agrees with the numbers worked out above.
        assert!(position(&f6).abs_diff_eq(hand_t, 1e-5), "{}", position(&f6));
        assert_eq!(angles(&f6).map(|a| a + 0.0), hand_angles);

        // Frame 6 starts at 6 × 60 ms = 0.36 s.
        let pose = Pose::sample(&m, Some(0), 6.0 * ms / 1000.0, 0);
        let (s, r, t) = m
            .axes
            .matrix_to_file(pose.world[node])
            .to_scale_rotation_translation();
        assert!(
            t.abs_diff_eq(hand_t, 1e-4),
            "level {level}: {t} vs {hand_t}"
        );
        assert!(
            same_rotation(r, rotation(hand_angles)),
            "level {level}: {r}"
        );
        assert!(s.abs_diff_eq(Vec3::ONE, 1e-5));

        // Halfway to frame 7 (INTERPOLATE defaults on): the midpoints; both frames turn
        // only about Z, so the slerp midpoint is the mean roll.
        let pose = Pose::sample(&m, Some(0), 6.5 * ms / 1000.0, 0);
        let (_, r, t) = m
            .axes
            .matrix_to_file(pose.world[node])
            .to_scale_rotation_translation();
        let want_t = (position(&f6) + position(&f7)) / 2.0;
        assert!(
            t.abs_diff_eq(want_t, 1e-4),
            "level {level}: {t} vs {want_t}"
        );
        let [a6, a7] = [angles(&f6), angles(&f7)];
        let mid = [0, 1, 2].map(|k| (a6[k] + a7[k]) / 2.0);
        assert!(same_rotation(r, rotation(mid)), "level {level}: {r}");

        // Looping: one cycle later (25 × 60 ms) the level is back at frame 6.
        let later = Pose::sample(&m, Some(0), (25.0 + 6.0) * ms / 1000.0, 0);
        let (_, _, t) = m
            .axes
            .matrix_to_file(later.world[node])
            .to_scale_rotation_translation();
        assert!(t.abs_diff_eq(hand_t, 1e-3), "level {level}: {t}");

        // Level 1 (the frame) has no ANIMOBJECT and stays at the origin.
        let (_, r, t) = m
            .axes
            .matrix_to_file(pose.world[0])
            .to_scale_rotation_translation();
        assert!(t.abs_diff_eq(Vec3::ZERO, 1e-6) && same_rotation(r, Quat::IDENTITY));
    }
}

#[test]
fn effect_texture_offsets_follow_time_over_rate_mod_frames() {
    let path = common::fixtures().join("pie/texanim_effect.pie");
    let m = common::load_path(&path, &LoadOptions::default()).expect("fixture loads");
    // From the fixture's polygon lines: 4 frames, 300 ms each, cells 0.5 × 0.5, so two
    // frames per row: frame f sits at ((f mod 2) × 0.5, floor(f / 2) × 0.5).
    let cases: &[(f32, Vec2)] = &[
        (0.0, Vec2::new(0.0, 0.0)),   // 0 ms: frame 0
        (0.299, Vec2::new(0.0, 0.0)), // still frame 0
        (0.3, Vec2::new(0.5, 0.0)),   // 300 ms: frame 1
        (0.75, Vec2::new(0.0, 0.5)),  // 750 / 300 = 2: next row
        (1.0, Vec2::new(0.5, 0.5)),   // frame 3
        (1.25, Vec2::new(0.0, 0.0)),  // 4 mod 4 = frame 0 again
        (1.55, Vec2::new(0.5, 0.0)),  // 5 mod 4 = 1
    ];
    for &(t, want) in cases {
        let pose = Pose::sample(&m, Some(0), t, 0);
        assert!(
            pose.texture_offset[0].abs_diff_eq(want, 1e-6),
            "t={t}: {} vs {want}",
            pose.texture_offset[0]
        );
    }
}

#[vitrine_test(shared)]
fn fireknee_plays_both_cycles_and_marks_their_ends() {
    let wz = common::wz2100();
    let path = wz.join("data/base/components/bodies/fireknee.pie");
    let text = std::fs::read_to_string(&path).expect("fireknee file");
    let ([ms, cycles, frames], _) = animobject_line(&text, 1, 0);
    assert_eq!((ms, cycles, frames), (150.0, 2.0, 3.0));
    let m = common::load_path(&path, &LoadOptions::default()).expect("fireknee loads");
    let clip = &m.clips[0];
    // 2 cycles × 3 frames × 150 ms, played once.
    assert_eq!((clip.frame_count, clip.looping), (6, false));
    assert!((clip.duration() - 0.9).abs() < 1e-5);
    let frames: Vec<u32> = clip.events.iter().map(|e| e.frame).collect();
    assert_eq!(frames, vec![3, 6]);
    assert!(clip.events[1].text.ends_with("end of cycle 2 of 2"));
}

/// INTERPOLATE as the game's current `drawShape` draws it (`src/display3d.cpp`): with 1, translation and rotation blend towards the next frame
/// (the last back into the first) while the scale is held; with 0, every frame is held.
#[test]
fn interpolate_1_blends_and_0_holds_as_the_game_draws() {
    let path = common::fixtures().join("pie/interpolate_both.pie");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let m = common::load_path(&path, &LoadOptions::default()).expect("fixture loads");
    let clip = &m.clips[0];
    let ([ms, _, _], f0) = animobject_line(&text, 1, 0);
    let (_, f1) = animobject_line(&text, 1, 1);
    let at = |seconds: f32, node: usize| {
        m.axes
            .matrix_to_file(Pose::sample(&m, Some(0), seconds, 0).world[node])
            .to_scale_rotation_translation()
    };
    let (p0, p1) = (position(&f0), position(&f1));
    let (a0, a1) = (angles(&f0), angles(&f1));
    // A quarter and three quarters into frame 0 → 1, and halfway through the wrap 1 → 0.
    for (frames, from, to, scale) in [
        (0.25, (p0, a0), (p1, a1), 1.0),
        (0.75, (p0, a0), (p1, a1), 1.0),
        (1.5, (p1, a1), (p0, a0), 2.0),
    ] {
        let seconds = frames * ms / 1000.0;
        let k = frames.fract();
        // Level 1, INTERPOLATE 1: blended (both frames turn about X only, so the slerp
        // and the game's per-angle lerp agree), scale held at the current frame's.
        let (s, r, t) = at(seconds, 0);
        let want_t = from.0.lerp(to.0, k);
        let want_a = [0, 1, 2].map(|i| from.1[i] + (to.1[i] - from.1[i]) * k);
        assert!(t.abs_diff_eq(want_t, 1e-4), "{frames}: {t} vs {want_t}");
        assert!(same_rotation(r, rotation(want_a)), "{frames}: {r}");
        assert!(s.abs_diff_eq(Vec3::splat(scale), 1e-4), "{frames}: {s}");
        // Level 2, INTERPOLATE 0: the current frame, unchanged.
        let (s, r, t) = at(seconds, 1);
        assert!(t.abs_diff_eq(from.0, 1e-4), "{frames}: {t}");
        assert!(same_rotation(r, rotation(from.1)), "{frames}: {r}");
        assert!(s.abs_diff_eq(Vec3::splat(scale), 1e-4), "{frames}: {s}");
    }
    // The timeline's readout counts one blending and one holding level.
    assert_eq!(clip.between_keys(), (1, 1));
}
