//! Animated renders: two frames of an animated model differ where the moving part is and
//! nowhere else (an in-code model and the synthetic PMF robot), and `vitrine render
//! --frame / --time / --clip` end to end. GPU tests are marked `#[vitrine_test(gpu)]`:
//! ignored where the build found no adapter.

use crate::common;
use crate::render_support;

use glam::Vec3;
use render_support::fixtures::{add_mesh, box_model};
use render_support::{Rig, near};
use vitrine_core::model::{Clip, Interpolation, Model, NodeTrack, Pose, Track};
use vitrine_render::{ViewSettings, visible_points};
use vitrine_test_needs::vitrine_test;

/// Pixels per channel two renders may differ by and count as equal.
const TOL: u8 = 2;
const SIZE: u32 = 160;

/// A static box on the left and an "arm" box on the right that rises 1.5 units over the
/// clip "lift" (10 frames at 10 fps).
fn lift_model() -> Model {
    let mut m = box_model(Vec3::new(-2.0, 0.0, -0.5), Vec3::new(-0.5, 1.0, 0.5));
    let arm = box_model(Vec3::new(0.5, 0.0, -0.5), Vec3::new(2.0, 0.5, 0.5));
    let node = add_mesh(&mut m, "arm", arm.meshes[0].clone(), None);
    let mut clip = Clip::new("lift", 10.0, 10, true);
    let mut t = NodeTrack::new(node);
    t.translation = Some(Track::new(
        vec![(0.0, Vec3::ZERO), (0.9, Vec3::new(0.0, 1.5, 0.0))],
        Interpolation::Linear,
    ));
    clip.node_tracks.push(t);
    m.clips.push(clip);
    m.validate().unwrap();
    m
}

/// Renders frames `a` and `b` of clip 0 with one camera and checks that (1) they differ
/// in a good number of pixels, (2) every differing pixel is covered by a node that moved
/// (in either frame), and (3) what only static nodes cover is identical. Returns the
/// number of differing pixels.
fn check_moving_part(rig: &mut Rig, model: &Model, a: f32, b: f32) -> usize {
    let clip = &model.clips[0];
    let pa = Pose::sample(model, Some(0), clip.frame_time(a), 0);
    let pb = Pose::sample(model, Some(0), clip.frame_time(b), 0);
    let moved: Vec<bool> = (0..model.nodes.len())
        .map(|i| !pa.world[i].abs_diff_eq(pb.world[i], 1e-5) || pa.visible[i] != pb.visible[i])
        .collect();
    assert!(
        moved.iter().any(|&m| m),
        "nothing moves between {a} and {b}"
    );
    let mut view = ViewSettings::default();
    let mut points = visible_points(model, &pa);
    points.extend(visible_points(model, &pb));
    view.camera.frame_points(&points, 1.0);
    let hide_moved = |p: &Pose| {
        let mut p = p.clone();
        for (v, m) in p.visible.iter_mut().zip(&moved) {
            *v &= !m;
        }
        p
    };
    let img_a = rig.render_pose(model, &pa, &view, SIZE);
    let img_b = rig.render_pose(model, &pb, &view, SIZE);
    let still_a = rig.render_pose(model, &hide_moved(&pa), &view, SIZE);
    let still_b = rig.render_pose(model, &hide_moved(&pb), &view, SIZE);
    let (mut differ, mut outside, mut static_px) = (0, 0, 0);
    for (x, y, pa_px) in img_a.enumerate_pixels() {
        let pb_px = img_b.get_pixel(x, y).0;
        let moving_here = !near(pa_px.0, still_a.get_pixel(x, y).0, TOL)
            || !near(pb_px, still_b.get_pixel(x, y).0, TOL);
        if !near(pa_px.0, pb_px, TOL) {
            differ += 1;
            if !moving_here {
                outside += 1;
            }
        } else if !moving_here && still_a.get_pixel(x, y).0 != [48, 52, 60, 255] {
            static_px += 1;
        }
    }
    assert!(
        differ > 200,
        "frames {a} and {b} differ in only {differ} pixels"
    );
    assert_eq!(
        outside, 0,
        "{outside} pixels changed away from the moving parts"
    );
    if moved.iter().any(|&m| !m) {
        assert!(
            static_px > 200,
            "the static part is hardly visible ({static_px} px)"
        );
    }
    differ
}

#[vitrine_test(gpu)]
fn two_frames_differ_only_where_the_part_moves() {
    let mut rig = Rig::new();
    let m = lift_model();
    let differ = check_moving_part(&mut rig, &m, 0.0, 6.0);
    // The arm box rises by 1.0 of its 0.5 height: it is fully elsewhere, so about two
    // arm footprints change, and the static box (same size class) does not.
    assert!(differ > 1000, "{differ}");
}

#[vitrine_test(shared, gpu)]
fn robot_walk_frames_differ_only_on_moving_pieces() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let robot = vitrine_test_support::load_path(&dir.join("pmf/robot.pmf"), &Default::default())
        .expect("robot loads");
    check_moving_part(&mut rig, &robot, 0.0, 4.0);
}

#[vitrine_test(shared, gpu)]
fn derrick_pump_moves_and_its_frame_stays_put() {
    let wz = common::wz2100();
    let mut rig = Rig::new();
    let path = wz.join("data/base/structs/blderik_anim.pie");
    let derrick =
        vitrine_test_support::load_path(&path, &Default::default()).expect("derrick loads");
    // 25 frames × 60 ms, as the game plays it; level 1 (the frame) does not move.
    let clip = &derrick.clips[0];
    assert_eq!((clip.frame_count, clip.looping), (25, true));
    assert!((clip.duration() - 1.5).abs() < 1e-4);
    check_moving_part(&mut rig, &derrick, 0.0, 12.0);
}
