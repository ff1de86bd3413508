//! Splatted layers (what a Warzone 2100 map's blended ground is made of, in format-neutral
//! terms): a black opaque pre-pass, then additive layers whose per-point opacities
//! (`Mesh::point_alpha`) sum to 1 — the layers blend, and nothing of the background shows.
//! Marked `#[vitrine_test(gpu)]`.

use crate::render_support;

use glam::Vec3;
use render_support::fixtures;
use render_support::{Rig, unlit_front};
use vitrine_core::model::{BlendMode, Material, Mesh, Model};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 128;

/// The unit quad (material `material`) with each point's opacity `alpha(x)`.
fn layer(material: usize, alpha: impl Fn(f32) -> f32) -> Mesh {
    let mut mesh = fixtures::mesh_from(&fixtures::unit_quad(), material);
    mesh.point_alpha = mesh.points.iter().map(|p: &Vec3| alpha(p.x)).collect();
    mesh
}

#[vitrine_test(gpu)]
fn additive_layers_weighted_per_point_blend_over_a_black_pre_pass() {
    let mut rig = Rig::new();
    let mut model = Model::new(vitrine_core::model::Format::Pie, "splat");
    model
        .materials
        .push(Material::new("pre-pass", [0.0, 0.0, 0.0, 1.0]));
    for colour in [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]] {
        let mut m = Material::new("layer", colour);
        m.blend = BlendMode::Additive;
        model.materials.push(m);
    }
    // Red weighs 1 on the left edge (x = −1), green 1 on the right.
    let red = |x: f32| (1.0 - x) / 2.0;
    fixtures::add_mesh(&mut model, "pre-pass", layer(0, |_| 1.0), None);
    fixtures::add_mesh(&mut model, "red", layer(1, red), None);
    fixtures::add_mesh(&mut model, "green", layer(2, |x| 1.0 - red(x)), None);
    model.validate().unwrap();
    let mut view = unlit_front();
    view.background = [90, 90, 200, 255];
    let img = rig.render(&model, &view, SIZE);
    let row = SIZE / 2;
    let half = SIZE as f32 * 0.45;
    for u in [0.1f32, 0.25, 0.5, 0.75, 0.9] {
        let x = (SIZE as f32 * 0.5 - half + u * 2.0 * half) as u32;
        let p = img.get_pixel(x, row).0;
        // The weights are linear across the quad: red (1 − u), green u, times 255 (the
        // layers are added after encoding, as the game adds them); no blue: the
        // background is hidden by the pre-pass.
        let want = [255.0 * (1.0 - u), 255.0 * u];
        assert!(
            (f32::from(p[0]) - want[0]).abs() <= 6.0 && (f32::from(p[1]) - want[1]).abs() <= 6.0,
            "u {u}: {p:?}, want about {want:?}"
        );
        assert!(p[2] <= 2, "u {u}: the background shows through: {p:?}");
    }
}

#[vitrine_test(gpu)]
fn surface_layers_are_drawn_before_what_stands_on_them() {
    // A map's ground (a black pre-pass and an additive red layer) and, later in the
    // model, an opaque blue plate at the very same depth (a structure's base plate on
    // flat ground): the plate covers the ground as in the game, which draws its terrain
    // before its objects. Without `surface_layer` the additive layer would be drawn after
    // every opaque draw and add its red to the plate.
    let mut rig = Rig::new();
    let mut model = Model::new(vitrine_core::model::Format::Pie, "ground and plate");
    model
        .materials
        .push(Material::new("pre-pass", [0.0, 0.0, 0.0, 1.0]));
    let mut red = Material::new("layer", [1.0, 0.0, 0.0, 1.0]);
    red.blend = BlendMode::Additive;
    model.materials.push(red);
    model
        .materials
        .push(Material::new("plate", [0.0, 0.0, 1.0, 1.0]));
    for (name, material) in [("pre-pass", 0), ("red", 1)] {
        let mut mesh = layer(material, |_| 1.0);
        mesh.surface_layer = true;
        fixtures::add_mesh(&mut model, name, mesh, None);
    }
    fixtures::add_mesh(&mut model, "plate", layer(2, |_| 1.0), None);
    model.validate().unwrap();
    let img = rig.render(&model, &unlit_front(), SIZE);
    let p = img.get_pixel(SIZE / 2, SIZE / 2).0;
    assert!(
        p[0] <= 2 && p[2] >= 250,
        "the plate should cover the ground: {p:?}"
    );
    // And unmarked, the additive layer comes after the plate and adds its red.
    for i in 0..2 {
        model.meshes[i].surface_layer = false;
    }
    let img = rig.render(&model, &unlit_front(), SIZE);
    let p = img.get_pixel(SIZE / 2, SIZE / 2).0;
    assert!(p[0] >= 250 && p[2] >= 250, "{p:?}");
}
