//! Renderer tests on a real (software) GPU: what a user would see break.
//! Marked `#[vitrine_test(gpu)]`: ignored where the build found no adapter.

use crate::render_support;

use crate::golden;
use glam::{Mat4, Vec2, Vec3};
use render_support::fixtures::{self, TC_BASE};
use render_support::{Rig, foreground_box, framed, near, unlit_front};
use vitrine_core::model::{BlendMode, Material, Pose, TextureRole};
use vitrine_render::textures::CHECKER_COLOURS;
use vitrine_render::{TEAM_COLOURS, ViewPreset, ViewSettings};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 128;

/// Pixel of texture coordinate (u, v) on the unit quad −1..1 framed in the front view
/// (frame-to-fit makes the quad span 90 % of the side).
fn quad_px(u: f32, v: f32) -> (u32, u32) {
    let half = SIZE as f32 * 0.5 * 0.9;
    let c = SIZE as f32 * 0.5;
    (
        (c - half + u * 2.0 * half) as u32,
        (c - half + v * 2.0 * half) as u32,
    )
}

fn rgb(p: &image::Rgba<u8>) -> [u8; 3] {
    [p.0[0], p.0[1], p.0[2]]
}

#[vitrine_test(gpu)]
fn texture_colours_come_back_unchanged_when_unlit() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("srgb");
    let dir = dir_guard.path().to_path_buf();
    let p = fixtures::write_png(
        &dir,
        "t.png",
        &fixtures::two_colour_texture([230, 80, 40], [20, 140, 210]),
    );
    let mut mat = Material::new("t", [1.0; 4]);
    mat.base = Some(0);
    let model = fixtures::quad_model(
        mat,
        vec![fixtures::tex(TextureRole::Base, "t.png", Some(p))],
    );
    let img = rig.render(&model, &unlit_front(), SIZE);
    let (lx, ly) = quad_px(0.25, 0.5);
    let (rx, ry) = quad_px(0.75, 0.5);
    assert!(
        near(img.get_pixel(lx, ly).0, [230, 80, 40, 255], 1),
        "{:?}",
        img.get_pixel(lx, ly)
    );
    assert!(
        near(img.get_pixel(rx, ry).0, [20, 140, 210, 255], 1),
        "{:?}",
        img.get_pixel(rx, ry)
    );
}

#[vitrine_test(gpu)]
fn team_colour_changes_only_masked_pixels_by_the_game_formula() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("team");
    let dir = dir_guard.path().to_path_buf();
    let model = fixtures::tc_quad(&dir);
    let (a_team, b_team) = (0usize, 5usize);
    let mut view = unlit_front();
    view.team = a_team;
    let a = rig.render(&model, &view, SIZE);
    view.team = b_team;
    let b = rig.render(&model, &view, SIZE);

    // Masked pixels follow the formula for each team; the unmasked half is plain texture.
    for (img, team) in [(&a, a_team), (&b, b_team)] {
        let t = TEAM_COLOURS[team].rgb;
        let (x, y) = quad_px(0.25, 0.2);
        assert!(near(
            img.get_pixel(x, y).0,
            [TC_BASE[0], TC_BASE[1], TC_BASE[2], 255],
            1
        ));
        for (v, mask) in [(0.15, 1.0), (0.85, 1.0), (0.5, 128.0 / 255.0)] {
            let (x, y) = quad_px(0.69, v);
            let want = fixtures::team_formula(TC_BASE, t, mask);
            let got = rgb(img.get_pixel(x, y));
            assert!(
                got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 2),
                "team {team} mask {mask}: got {got:?}, want {want:?}"
            );
        }
    }
    // Every pixel that changed with the team lies over the masked band (u 0.5..0.875).
    let (band_lo, band_hi) = (quad_px(0.5, 0.0).0 - 2, quad_px(0.875, 0.0).0 + 2);
    let mut changed = 0;
    for (x, y, pa) in a.enumerate_pixels() {
        if pa != b.get_pixel(x, y) {
            changed += 1;
            assert!(
                (band_lo..=band_hi).contains(&x),
                "pixel ({x}, {y}) changed outside the mask"
            );
        }
    }
    assert!(changed > 1000, "only {changed} pixels changed");
}

/// A node's own team colour (`Node::team`: a map object's player) wins over the view's,
/// for its descendants too; a model without one keeps the view's.
#[vitrine_test(gpu)]
fn a_nodes_own_team_colour_wins_over_the_views() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("node-team");
    let mut model = fixtures::tc_quad(dir_guard.path());
    let mut view = unlit_front();
    view.team = 0;
    let plain = rig.render(&model, &view, SIZE);
    // A root above the quad's node, with team 4 (red).
    let mut root =
        vitrine_core::model::Node::new("player 4", None, vitrine_core::model::NodeKind::Group);
    root.team = Some(4);
    model.nodes.insert(0, root);
    for n in &mut model.nodes[1..] {
        n.parent = Some(n.parent.map_or(0, |p| p + 1));
    }
    model.validate().unwrap();
    let owned = rig.render(&model, &view, SIZE);
    let (x, y) = quad_px(0.69, 0.15);
    for (img, team) in [(&plain, 0), (&owned, 4)] {
        let want = fixtures::team_formula(TC_BASE, TEAM_COLOURS[team].rgb, 1.0);
        let got = rgb(img.get_pixel(x, y));
        assert!(
            got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 2),
            "team {team}: got {got:?}, want {want:?}"
        );
    }
}

#[vitrine_test(gpu)]
fn missing_base_texture_shows_the_checkerboard() {
    let mut rig = Rig::new();
    let mut mat = Material::new("m", [1.0; 4]);
    mat.base = Some(0);
    let model = fixtures::quad_model(
        mat,
        vec![fixtures::tex(TextureRole::Base, "gone.png", None)],
    );
    let img = rig.render(&model, &unlit_front(), SIZE);
    let (mut magenta, mut black) = (0, 0);
    let (x0, y0) = quad_px(0.1, 0.1);
    let (x1, y1) = quad_px(0.9, 0.9);
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.get_pixel(x, y).0;
            if near(p, CHECKER_COLOURS[0], 8) {
                magenta += 1;
            } else if near(p, CHECKER_COLOURS[1], 8) {
                black += 1;
            }
        }
    }
    let area = (x1 - x0) * (y1 - y0);
    assert!(
        magenta > area / 4 && black > area / 4,
        "magenta {magenta}, black {black} of {area}"
    );
}

#[vitrine_test(gpu)]
fn undecodable_texture_is_a_warning_and_a_checkerboard() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("broken");
    let dir = dir_guard.path().to_path_buf();
    let p = dir.join("broken.png");
    std::fs::write(&p, b"\x89PNG\r\n\x1a\nnot really").unwrap();
    let mut mat = Material::new("m", [1.0; 4]);
    mat.base = Some(0);
    let model = fixtures::quad_model(
        mat,
        vec![fixtures::tex(TextureRole::Base, "broken.png", Some(p))],
    );
    let img = rig.render(&model, &unlit_front(), SIZE);
    assert!(
        rig.scene
            .warnings()
            .iter()
            .any(|w| w.contains("broken.png")),
        "{:?}",
        rig.scene.warnings()
    );
    // The centre of a checker cell.
    let (x, y) = quad_px(0.5 + 1.0 / 16.0, 0.5 + 1.0 / 16.0);
    let c = img.get_pixel(x, y).0;
    assert!(
        near(c, CHECKER_COLOURS[0], 8) || near(c, CHECKER_COLOURS[1], 8),
        "{c:?}"
    );
}

#[vitrine_test(gpu)]
fn transparent_background_has_alpha_zero_outside_the_model() {
    let mut rig = Rig::new();
    let model = fixtures::box_model(Vec3::new(-1.0, -0.5, -0.7), Vec3::new(1.0, 0.5, 0.7));
    let view = ViewSettings {
        background: [0, 0, 0, 0],
        ..Default::default()
    };
    let img = rig.render(&model, &view, SIZE);
    assert_eq!(img.get_pixel(0, 0).0[3], 0);
    assert_eq!(img.get_pixel(SIZE - 1, SIZE - 1).0[3], 0);
    assert_eq!(img.get_pixel(SIZE / 2, SIZE / 2).0[3], 255);
    let opaque = img.pixels().filter(|p| p.0[3] == 255).count();
    let clear = img.pixels().filter(|p| p.0[3] == 0).count();
    assert!(
        opaque > 2000 && clear > 2000,
        "opaque {opaque}, clear {clear}"
    );
}

#[vitrine_test(gpu)]
fn framed_model_is_centred_and_fills_most_of_the_view() {
    let mut rig = Rig::new();
    let bg = [10, 20, 30, 255];
    for (lo, hi) in [
        (Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, 1.0)),
        (Vec3::new(10.0, 0.0, 5.0), Vec3::new(40.0, 8.0, 12.0)),
        (Vec3::new(-0.1, 0.0, -0.1), Vec3::new(0.1, 3.0, 0.1)),
    ] {
        let model = fixtures::box_model(lo, hi);
        for preset in [
            ViewPreset::Front,
            ViewPreset::Side,
            ViewPreset::Top,
            ViewPreset::Iso,
        ] {
            let mut view = ViewSettings {
                background: bg,
                ..Default::default()
            };
            view.camera.set_preset(preset);
            let img = rig.render(&model, &view, SIZE);
            let (x0, y0, x1, y1) = foreground_box(&img, bg).expect("model visible");
            let (cx, cy) = ((x0 + x1) as f32 / 2.0, (y0 + y1) as f32 / 2.0);
            let mid = SIZE as f32 / 2.0;
            assert!(
                (cx - mid).abs() < SIZE as f32 * 0.05 && (cy - mid).abs() < SIZE as f32 * 0.05,
                "{preset:?} {lo}..{hi}: centre ({cx}, {cy})"
            );
            let extent = (x1 - x0 + 1).max(y1 - y0 + 1) as f32 / SIZE as f32;
            assert!(
                (0.6..=0.95).contains(&extent),
                "{preset:?} {lo}..{hi}: fills {extent}"
            );
        }
    }
}

#[vitrine_test(gpu)]
fn back_faces_are_culled_unless_double_sided() {
    let mut rig = Rig::new();
    let view = unlit_front();
    for double_sided in [false, true] {
        let mut mat = Material::new("m", [1.0, 1.0, 1.0, 1.0]);
        mat.double_sided = double_sided;
        let model = fixtures::quad_model(mat, vec![]);
        let pose = Pose::rest(&model);
        let mut v = view.clone();
        framed(&mut v.camera, &model, &pose);
        v.camera.yaw = std::f32::consts::PI; // look at the quad's back
        let img = rig.render_pose(&model, &pose, &v, SIZE);
        let centre = img.get_pixel(SIZE / 2, SIZE / 2).0;
        if double_sided {
            assert!(near(centre, [255, 255, 255, 255], 1), "{centre:?}");
        } else {
            assert_eq!(centre, [0, 0, 0, 255]);
        }
    }
}

#[vitrine_test(gpu)]
fn hidden_node_disappears() {
    let mut rig = Rig::new();
    let model = fixtures::skinned_pair();
    let mut pose = Pose::rest(&model);
    let mut view = unlit_front();
    framed(&mut view.camera, &model, &pose);
    let shown = rig.render_pose(&model, &pose, &view, SIZE);
    let lit = |img: &image::RgbaImage| img.pixels().filter(|p| p.0[0] > 40).count();
    assert!(lit(&shown) > 500);
    pose.visible[0] = false;
    pose.visible[1] = false;
    let hidden = rig.render_pose(&model, &pose, &view, SIZE);
    assert_eq!(lit(&hidden), 0, "hidden nodes still drawn");
}

#[vitrine_test(gpu)]
fn skinned_mesh_follows_its_joint_matrices() {
    let mut rig = Rig::new();
    let model = fixtures::skinned_pair();
    let mut pose = Pose::rest(&model);
    let mut view = unlit_front();
    // Frame a fixed region so the camera does not follow the mesh.
    view.camera
        .frame(Vec3::new(-2.0, -2.0, -0.1), Vec3::new(2.0, 2.0, 0.1));
    // White (skinned) pixels' mean x, and the grey (rigid) ones'.
    let centroid = |img: &image::RgbaImage, white: bool| {
        let (mut sx, mut n) = (0.0, 0.0);
        for (x, _, p) in img.enumerate_pixels() {
            let is_white = p.0.iter().all(|&c| c > 200);
            let is_red = p.0[0] > 100 && p.0[1] < 60;
            if (white && is_white) || (!white && is_red) {
                sx += x as f32;
                n += 1.0;
            }
        }
        assert!(n > 50.0, "too few pixels");
        sx / n
    };
    let rest = rig.render_pose(&model, &pose, &view, SIZE);
    let shift = Vec3::new(0.0, 1.0, 0.0);
    pose.joint_matrices[0][0] = Mat4::from_translation(shift);
    let moved = rig.render_pose(&model, &pose, &view, SIZE);
    let centroid_y = |img: &image::RgbaImage| {
        let (mut sy, mut n) = (0.0, 0.0);
        for (_, y, p) in img.enumerate_pixels() {
            if p.0.iter().all(|&c| c > 200) {
                sy += y as f32;
                n += 1.0;
            }
        }
        sy / n
    };
    let at = |p: Vec3| view.camera.project(p, SIZE as f32, SIZE as f32).unwrap();
    let want_dy = at(Vec3::new(1.0, 1.0, 0.0)).y - at(Vec3::new(1.0, 0.0, 0.0)).y;
    let dy = centroid_y(&moved) - centroid_y(&rest);
    assert!(
        (dy - want_dy).abs() < 2.0,
        "moved {dy} px, expected {want_dy}"
    );
    // The rigid quad stays put.
    assert!((centroid(&moved, false) - centroid(&rest, false)).abs() < 0.5);
    assert!((centroid(&moved, true) - centroid(&rest, true)).abs() < 0.5);
}

#[vitrine_test(gpu)]
fn texture_frame_offset_shifts_the_sampled_texels() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("frames");
    let dir = dir_guard.path().to_path_buf();
    let model = fixtures::frame_quad(&dir);
    let mut pose = Pose::rest(&model);
    let mut view = unlit_front();
    framed(&mut view.camera, &model, &pose);
    let (x, y) = quad_px(0.5, 0.5);
    let first = rig.render_pose(&model, &pose, &view, SIZE);
    assert!(
        near(first.get_pixel(x, y).0, [220, 30, 30, 255], 2),
        "{:?}",
        first.get_pixel(x, y)
    );
    pose.texture_offset[0] = Vec2::new(0.5, 0.0);
    let second = rig.render_pose(&model, &pose, &view, SIZE);
    assert!(
        near(second.get_pixel(x, y).0, [30, 30, 220, 255], 2),
        "{:?}",
        second.get_pixel(x, y)
    );
}

#[vitrine_test(gpu)]
fn lighting_darkens_faces_turned_from_the_light() {
    let mut rig = Rig::new();
    // A white box in the iso view (from front-right-above): the three visible faces get different brightness, none
    // black, the brightest near the texture's own value.
    let mut model = fixtures::box_model(Vec3::splat(-1.0), Vec3::ONE);
    for m in &mut model.materials {
        m.base_color = [1.0; 4];
    }
    let pose = Pose::rest(&model);
    let mut view = ViewSettings::default();
    framed(&mut view.camera, &model, &pose);
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    let face = |c: Vec3| {
        let p = view.camera.project(c, SIZE as f32, SIZE as f32).unwrap();
        img.get_pixel(p.x as u32, p.y as u32).0[0]
    };
    let mut faces = [face(Vec3::Y), face(Vec3::X), face(Vec3::NEG_Z)];
    faces.sort();
    assert!(faces[2] >= 230, "brightest face {faces:?}");
    assert!(faces[0] >= 120, "darkest face {faces:?}");
    assert!(
        faces[1] - faces[0] > 8 && faces[2] - faces[1] > 8,
        "faces {faces:?}"
    );
}

#[vitrine_test(gpu)]
fn alpha_test_discards_transparent_texels() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("alphatest");
    let dir = dir_guard.path().to_path_buf();
    let img = image::RgbaImage::from_fn(64, 64, |x, _| {
        image::Rgba([255, 255, 255, if x < 32 { 0 } else { 255 }])
    });
    let p = fixtures::write_png(&dir, "cut.png", &img);
    let mut mat = Material::new("cut", [1.0; 4]);
    mat.base = Some(0);
    mat.blend = BlendMode::AlphaTest;
    let model = fixtures::quad_model(
        mat,
        vec![fixtures::tex(TextureRole::Base, "cut.png", Some(p))],
    );
    let out = rig.render(&model, &unlit_front(), SIZE);
    let (lx, ly) = quad_px(0.25, 0.5);
    let (rx, ry) = quad_px(0.75, 0.5);
    assert_eq!(out.get_pixel(lx, ly).0, [0, 0, 0, 255]);
    assert!(near(out.get_pixel(rx, ry).0, [255, 255, 255, 255], 1));
}

/// f3d-style image cases: (reference name, model, view options).
#[vitrine_test(gpu)]
fn golden_images() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("golden");
    let dir = dir_guard.path().to_path_buf();
    let boxed = fixtures::box_model(Vec3::new(-1.0, -0.5, -0.7), Vec3::new(1.0, 0.5, 0.7));
    let tc = fixtures::tc_quad(&dir);
    let cases: Vec<(&str, &vitrine_core::model::Model, ViewSettings)> = vec![
        ("box-iso", &boxed, ViewSettings::default()),
        ("box-top-transparent", &boxed, {
            let mut v = ViewSettings {
                background: [0, 0, 0, 0],
                ..Default::default()
            };
            v.camera.set_preset(ViewPreset::Top);
            v
        }),
        (
            "tcquad-team-red",
            &tc,
            ViewSettings {
                team: 4,
                ..unlit_front()
            },
        ),
        (
            "tcquad-team-cyan-lit",
            &tc,
            ViewSettings {
                team: 7,
                ..ViewSettings::default()
            },
        ),
    ];
    for (name, model, view) in cases {
        let img = rig.render(model, &view, SIZE);
        golden::check(name, &img);
    }
}
