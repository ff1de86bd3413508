//! A scene's own shadows (`Model::environment.shadows`, the nodes marked
//! `Node::casts_shadow`: a Warzone 2100 map's, as the game draws them), in format-neutral
//! terms: a box standing on a white ground, the light slanting towards +x. Marked
//! `#[vitrine_test(gpu)]`.

use crate::render_support;

use glam::{Vec2, Vec3};
use render_support::{Rig, fixtures, framed, unlit_front};
use vitrine_core::model::{Material, Model, Pose, Shadows};
use vitrine_render::ViewSettings;
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 160;

/// A 2 × 2 × 2 box on a white ground 12 wide at z = 0, seen straight from +Z
/// (orthographic); the light travels along (3, 0, −3), so the box's top edge at x = 1
/// throws its shadow on the ground from x = 1 to x = 3. The box casts where `casts`.
fn box_on_ground(casts: bool) -> (Model, ViewSettings, Pose) {
    let mut model = fixtures::box_model(Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 2.0));
    model.nodes[0].casts_shadow = Some(casts);
    let white = model.materials.len();
    model.materials.push(Material::new("ground", [1.0; 4]));
    let ground = fixtures::quad(-6.0, -6.0, 6.0, 6.0, 0.0, Vec2::ZERO, Vec2::ONE);
    fixtures::add_mesh(
        &mut model,
        "ground",
        fixtures::mesh_from(&ground, white),
        None,
    );
    model.environment.shadows = Some(Shadows {
        light: [3.0, 0.0, -3.0],
        darkness: 128.0 / 255.0,
    });
    model.validate().unwrap();
    let pose = Pose::rest(&model);
    let mut view = unlit_front();
    view.camera.orthographic = true;
    framed(&mut view.camera, &model, &pose);
    view.shadows = true;
    (model, view, pose)
}

/// The pixel world point `p` is drawn at.
fn pixel(view: &ViewSettings, p: Vec3) -> (u32, u32) {
    let s = SIZE as f32;
    let at = view.camera.project(p, s, s).expect("in view");
    (at.x as u32, at.y as u32)
}

/// The red of the ground at world (x, 0, 0).
fn ground_at(img: &image::RgbaImage, view: &ViewSettings, x: f32) -> u8 {
    let (px, py) = pixel(view, Vec3::new(x, 0.0, 0.0));
    img.get_pixel(px, py).0[0]
}

#[vitrine_test(gpu)]
fn a_caster_darkens_the_ground_away_from_the_light_and_not_towards_it() {
    let mut rig = Rig::new();
    let (model, view, pose) = box_on_ground(true);
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    // Away from the light: the ground drawn at half its brightness (255 × (1 − 128/255)).
    let away = ground_at(&img, &view, 2.0);
    assert!((126..=129).contains(&away), "shadowed ground: {away}");
    // Towards the light, and past the shadow's end: untouched.
    assert_eq!(
        ground_at(&img, &view, -2.0),
        255,
        "ground on the light's side"
    );
    assert_eq!(ground_at(&img, &view, 4.5), 255, "ground past the shadow");
}

#[vitrine_test(gpu)]
fn no_shadow_without_the_setting_or_the_casters_mark() {
    let mut rig = Rig::new();
    let (model, mut view, pose) = box_on_ground(true);
    view.shadows = false;
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    assert_eq!(ground_at(&img, &view, 2.0), 255, "shadows off");
    let (model, view, pose) = box_on_ground(false);
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    assert_eq!(ground_at(&img, &view, 2.0), 255, "the box not marked");
}
