//! Baked light (`Mesh::point_light`, what a Warzone 2100 map's terrain carries: the
//! game's lightmap): the encoded colour times the point's light, whatever the scene's
//! light is, interpolated across the triangles; a mesh without it stays lit by the scene.
//! Marked `#[vitrine_test(gpu)]`.

use crate::render_support;

use glam::Vec3;
use render_support::fixtures;
use render_support::{Rig, look_from_plus_z};
use vitrine_core::model::{Material, Mesh, Model};
use vitrine_render::{Lighting, ViewSettings};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 128;
/// The quad's colour, sRGB-encoded 200 (linear in the material).
const ENCODED: f32 = 200.0;

fn srgb_to_linear(c: f32) -> f32 {
    let c = c / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The unit quad in one grey, its points' light `light(x)` (`None`: no baked light).
fn quad(light: Option<fn(f32) -> f32>) -> Model {
    let mut model = Model::new(vitrine_core::model::Format::Pie, "baked");
    let g = srgb_to_linear(ENCODED);
    model.materials.push(Material::new("grey", [g, g, g, 1.0]));
    let mut mesh: Mesh = fixtures::mesh_from(&fixtures::unit_quad(), 0);
    if let Some(light) = light {
        mesh.point_light = mesh.points.iter().map(|p: &Vec3| light(p.x)).collect();
    }
    fixtures::add_mesh(&mut model, "quad", mesh, None);
    model.validate().unwrap();
    model
}

/// A light fixed to the model from azimuth `az` (0: the model's front, −Z; 180: its
/// back, +Z, which the quad faces and the camera looks from), elevation `el`.
fn view(az: f32, el: f32) -> ViewSettings {
    let mut v = ViewSettings {
        lighting: Lighting {
            ambient: 0.2,
            diffuse: 1.0,
            specular: 0.0,
            azimuth_deg: az,
            elevation_deg: el,
            follows_camera: false,
        },
        background: [0, 0, 255, 255],
        ..Default::default()
    };
    look_from_plus_z(&mut v.camera);
    v
}

/// The grey at fraction `u` (0 left, 1 right) across the middle row.
fn grey_at(img: &image::RgbaImage, u: f32) -> f32 {
    let half = SIZE as f32 * 0.45;
    let x = (SIZE as f32 * 0.5 - half + u * 2.0 * half) as u32;
    f32::from(img.get_pixel(x, SIZE / 2).0[0])
}

#[vitrine_test(gpu)]
fn baked_light_multiplies_the_encoded_colour_whatever_the_scenes_light() {
    let mut rig = Rig::new();
    // From 0.2 on the left edge (x = −1) to 1 on the right.
    let model = quad(Some(|x| 0.6 + 0.4 * x));
    let front = rig.render(&model, &view(180.0, 0.0), SIZE);
    let grazing = rig.render(&model, &view(90.0, 10.0), SIZE);
    for u in [0.1f32, 0.3, 0.5, 0.7, 0.9] {
        let light = 0.2 + 0.8 * u;
        let want = ENCODED * light;
        let (a, b) = (grey_at(&front, u), grey_at(&grazing, u));
        assert!(
            (a - want).abs() <= 4.0,
            "u {u}: grey {a}, want about {want} (the encoded colour times the light)"
        );
        assert!(
            (a - b).abs() <= 1.0,
            "u {u}: the scene's light changed a baked-lit quad: {a} against {b}"
        );
    }
}

#[vitrine_test(gpu)]
fn a_mesh_without_baked_light_is_lit_by_the_scene() {
    let mut rig = Rig::new();
    let model = quad(None);
    let front = grey_at(&rig.render(&model, &view(180.0, 0.0), SIZE), 0.5);
    let grazing = grey_at(&rig.render(&model, &view(90.0, 10.0), SIZE), 0.5);
    assert!(
        front > grazing + 40.0,
        "the light turned from the quad's front to its side, but it stays {front} → {grazing}"
    );
}

#[vitrine_test(gpu)]
fn a_nodes_light_reaches_its_descendants_and_a_meshs_own_wins() {
    let mut rig = Rig::new();
    // The quad under a group node with light 0.5 (what a map's structures get).
    let mut model = quad(None);
    let mut group =
        vitrine_core::model::Node::new("structures", None, vitrine_core::model::NodeKind::Group);
    group.light = Some(0.5);
    model.nodes.push(group);
    let g = model.nodes.len() - 1;
    model.nodes[0].parent = Some(g);
    // Parents come first in a model's node list.
    model.nodes.swap(0, g);
    model.nodes[g].parent = Some(0);
    model.validate().unwrap();
    for (az, el) in [(180.0, 0.0), (90.0, 10.0)] {
        let grey = grey_at(&rig.render(&model, &view(az, el), SIZE), 0.5);
        assert!(
            (grey - ENCODED * 0.5).abs() <= 3.0,
            "light from ({az}, {el}): grey {grey}, want about {}",
            ENCODED * 0.5
        );
    }
    // The mesh's own light (1 everywhere) wins over the node's.
    let mesh = model.nodes[g].mesh.unwrap();
    let n = model.meshes[mesh].points.len();
    model.meshes[mesh].point_light = vec![1.0; n];
    let grey = grey_at(&rig.render(&model, &view(90.0, 10.0), SIZE), 0.5);
    assert!(
        (grey - ENCODED).abs() <= 3.0,
        "grey {grey}, want about {ENCODED}"
    );
}
