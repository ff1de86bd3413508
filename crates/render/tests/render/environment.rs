//! A model's environment (`Model::environment`: a Warzone 2100 map's fog and sky) and
//! moving materials (`Material::uv_scroll`, the shade map, multiplying blending: the
//! map's water), in format-neutral terms. Marked `#[vitrine_test(gpu)]`.

use crate::render_support;

use glam::{Vec2, Vec3};
use render_support::fixtures;
use render_support::{Rig, near, unlit_front};
use vitrine_core::model::{BlendMode, Fog, FogDistance, Material, Model, Pose, Sky, TextureRole};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 128;

/// White quads: one at z = 0 on the left half of the view, one `far` behind on the
/// right, seen from +Z at distance 10 in perspective.
fn near_and_far(far: f32) -> (Model, vitrine_render::ViewSettings) {
    let mut model = Model::new(vitrine_core::model::Format::Pie, "fog");
    model.materials.push(Material::new("white", [1.0; 4]));
    // The far quad is scaled with its distance so it covers the right half too.
    let s = (10.0 + far) / 10.0;
    let near_quad = fixtures::quad(-3.0, -3.0, 0.0, 3.0, 0.0, Vec2::ZERO, Vec2::ONE);
    let far_quad = fixtures::quad(0.0, -3.0 * s, 3.0 * s, 3.0 * s, -far, Vec2::ZERO, Vec2::ONE);
    fixtures::add_mesh(&mut model, "near", fixtures::mesh_from(&near_quad, 0), None);
    fixtures::add_mesh(&mut model, "far", fixtures::mesh_from(&far_quad, 0), None);
    let mut view = unlit_front();
    view.environment = true;
    view.camera.target = Vec3::ZERO;
    view.camera.distance = 10.0;
    view.camera.radius = 100.0;
    view.camera.orthographic = false;
    (model, view)
}

fn fog(colour: [f32; 3], begin: f32, end: f32) -> Fog {
    Fog {
        colour,
        begin: FogDistance {
            base: begin,
            per_camera_distance: 0.0,
        },
        end: FogDistance {
            base: end,
            per_camera_distance: 0.0,
        },
    }
}

#[vitrine_test(gpu)]
fn fog_turns_far_pixels_to_its_colour_and_leaves_near_ones() {
    let mut rig = Rig::new();
    let (mut model, mut view) = near_and_far(40.0);
    // Begins past the near quad (depth 10), whole before the far one (depth 50).
    model.environment.fog = Some(fog([0.0, 1.0, 0.0], 20.0, 40.0));
    model.validate().unwrap();
    let pose = Pose::rest(&model);
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    let (y, left, right) = (SIZE / 2, SIZE / 4, SIZE * 3 / 4);
    let white = [255, 255, 255, 255];
    assert!(
        near(img.get_pixel(left, y).0, white, 2),
        "near: {:?}",
        img.get_pixel(left, y)
    );
    assert!(
        near(img.get_pixel(right, y).0, [0, 255, 0, 255], 2),
        "far: {:?}",
        img.get_pixel(right, y)
    );
    // Half way through the fog: half way to its colour (mixed in the sRGB encoding).
    model.environment.fog = Some(fog([0.0, 1.0, 0.0], 30.0, 70.0));
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    assert!(
        near(img.get_pixel(right, y).0, [128, 255, 128, 255], 4),
        "half: {:?}",
        img.get_pixel(right, y)
    );
    // An orthographic view, or one without the environment: no fog.
    view.camera.orthographic = true;
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    assert!(
        near(img.get_pixel(right, y).0, white, 2),
        "ortho: {:?}",
        img.get_pixel(right, y)
    );
    view.camera.orthographic = false;
    view.environment = false;
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    assert!(
        near(img.get_pixel(right, y).0, white, 2),
        "off: {:?}",
        img.get_pixel(right, y)
    );
}

/// A model with a small quad in the middle and a sky of one colour (`sky`, sRGB).
fn quad_under_a_sky(sky: [u8; 3], dir: &std::path::Path) -> Model {
    let page = image::RgbaImage::from_pixel(16, 16, image::Rgba([sky[0], sky[1], sky[2], 255]));
    let path = fixtures::write_png(dir, "sky.png", &page);
    let mut model = Model::new(vitrine_core::model::Format::Pie, "sky");
    model
        .materials
        .push(Material::new("red", [1.0, 0.0, 0.0, 1.0]));
    let quad = fixtures::quad(-1.0, -1.0, 1.0, 1.0, 0.0, Vec2::ZERO, Vec2::ONE);
    fixtures::add_mesh(&mut model, "quad", fixtures::mesh_from(&quad, 0), None);
    model
        .textures
        .push(fixtures::tex(TextureRole::Base, "sky.png", Some(path)));
    model.environment.sky = Some(Sky {
        mesh: vitrine_core::map::scene::atmosphere::sky_mesh(),
        texture: 0,
        scale: [1000.0, 500.0, 1000.0],
        lift: 0.0,
        turn_deg_per_s: 0.0,
        fog_below: 0.5,
        black_below: -0.7,
    });
    model.validate().unwrap();
    model
}

#[vitrine_test(gpu)]
fn the_sky_fills_the_background_where_nothing_is_drawn() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("sky");
    let model = quad_under_a_sky([40, 120, 220], dir_guard.path());
    let (_, mut view) = near_and_far(0.0);
    let pose = Pose::rest(&model);
    let img = rig.render_pose(&model, &pose, &view, SIZE);
    let centre = img.get_pixel(SIZE / 2, SIZE / 2).0;
    assert!(
        near(centre, [255, 0, 0, 255], 2),
        "the quad covers the sky: {centre:?}"
    );
    for (x, y) in [(2, 2), (SIZE - 3, 2), (2, SIZE - 3), (SIZE - 3, SIZE - 3)] {
        let p = img.get_pixel(x, y).0;
        assert!(near(p, [40, 120, 220, 255], 2), "({x}, {y}): {p:?}");
    }
    // Without the environment, or orthographic: the background.
    for (environment, ortho) in [(false, false), (true, true)] {
        view.environment = environment;
        view.camera.orthographic = ortho;
        let img = rig.render_pose(&model, &pose, &view, SIZE);
        let p = img.get_pixel(2, 2).0;
        assert!(
            near(p, [0, 0, 0, 255], 1),
            "env {environment} ortho {ortho}: {p:?}"
        );
    }
}

#[vitrine_test(gpu)]
fn a_scrolling_texture_moves_with_the_scene_time() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("scroll");
    let p = fixtures::write_png(
        dir_guard.path(),
        "t.png",
        &fixtures::two_colour_texture([230, 80, 40], [20, 140, 210]),
    );
    let mut mat = Material::new("t", [1.0; 4]);
    mat.base = Some(0);
    mat.uv_scroll = [0.25, 0.0];
    let model = fixtures::quad_model(
        mat,
        vec![fixtures::tex(TextureRole::Base, "t.png", Some(p))],
    );
    let mut view = unlit_front();
    // Scrolling needs no environment: a material's own motion.
    assert!(!view.environment);
    // A quarter of the quad's width left of its centre: the red half at t = 0; two
    // seconds later the texture has moved half a repeat and the blue half is there.
    let at = |img: &image::RgbaImage| img.get_pixel(SIZE * 3 / 8, SIZE / 2).0;
    let still = rig.render(&model, &view, SIZE);
    assert!(
        near(at(&still), [230, 80, 40, 255], 2),
        "t = 0: {:?}",
        at(&still)
    );
    view.time = 2.0;
    let moved = rig.render(&model, &view, SIZE);
    assert!(
        near(at(&moved), [20, 140, 210, 255], 2),
        "t = 2: {:?}",
        at(&moved)
    );
}

#[vitrine_test(gpu)]
fn multiplying_water_darkens_what_is_behind_by_its_colour_and_shade() {
    let mut rig = Rig::new();
    let dir_guard = fixtures::temp_dir("shade");
    // The shade page: red 128 on the right half, 255 on the left.
    let shade = fixtures::write_png(
        dir_guard.path(),
        "shade.png",
        &fixtures::two_colour_texture([255, 0, 0], [128, 0, 0]),
    );
    let mut model = Model::new(vitrine_core::model::Format::Pie, "water");
    model.materials.push(Material::new("bed", [1.0; 4]));
    let mut water = Material::new("water", [1.0, 0.5, 0.25, 1.0]);
    water.blend = BlendMode::Multiply;
    water.shade = Some(0);
    model.materials.push(water);
    model
        .textures
        .push(fixtures::tex(TextureRole::Base, "shade.png", Some(shade)));
    let quad = fixtures::unit_quad();
    fixtures::add_mesh(&mut model, "bed", fixtures::mesh_from(&quad, 0), None);
    let mut mesh = fixtures::mesh_from(&quad, 1);
    for c in &mut mesh.corners {
        c.uv[1] = c.uv[0];
        mesh.points[c.point as usize].z = 0.01;
    }
    mesh.uv_sets = 2;
    fixtures::add_mesh(&mut model, "water", mesh, None);
    model.validate().unwrap();
    let img = rig.render(&model, &unlit_front(), SIZE);
    let (y, left, right) = (SIZE / 2, SIZE * 3 / 8, SIZE * 5 / 8);
    // White bed × the water's colour (sRGB 255, 188, 137); the right half × the
    // shade's 128 (linear 0.216) too: (128, 92, 66).
    assert!(
        near(img.get_pixel(left, y).0, [255, 188, 137, 255], 3),
        "{:?}",
        img.get_pixel(left, y)
    );
    assert!(
        near(img.get_pixel(right, y).0, [128, 92, 66, 255], 3),
        "{:?}",
        img.get_pixel(right, y)
    );
}
