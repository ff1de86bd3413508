//! The light the user sets is the light the picture has: moving it from the model's
//! front to its right swaps which side is lit, intensity and ambient brighten what they
//! should, and `vitrine render --light-dir … --light-fixed` draws the same.

use crate::common;
use crate::render_support;

use render_support::Rig;
use std::process::Command;
use vitrine::formats::{self, LoadOptions};
use vitrine::model::Model;
use vitrine::render::{ColourMode, Lighting, ViewPreset, ViewSettings};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 128;
/// Blue, so that faces the light does not reach (black) still count as the model.
const BG: [u8; 4] = [0, 0, 192, 255];

fn cube() -> Model {
    formats::load_path(
        &common::fixtures().join("pie/cube.pie"),
        &LoadOptions::default(),
    )
    .unwrap()
}

/// The iso view (from front-right, above): the cube's right face (+X) fills the left of
/// the picture, its front face (−Z) the right. One flat colour per node.
fn view(lighting: Lighting) -> ViewSettings {
    let mut v = ViewSettings {
        lighting,
        background: BG,
        colour_mode: ColourMode::PerNode,
        ..Default::default()
    };
    v.camera.set_preset(ViewPreset::Iso);
    v
}

/// A light fixed to the model, level, from azimuth `az` (0 = front, 90 = right).
fn level_light(az: f32) -> Lighting {
    Lighting {
        ambient: 0.0,
        diffuse: 1.0,
        specular: 0.0,
        azimuth_deg: az,
        elevation_deg: 0.0,
        follows_camera: false,
    }
}

/// Mean brightness of the model's pixels in the left and right thirds of the picture
/// (rows in the middle fifth, below the top face).
fn sides(img: &image::RgbaImage) -> (f32, f32) {
    let (w, h) = img.dimensions();
    let mean = |x0: u32, x1: u32| {
        let v: Vec<f32> = (x0..x1)
            .flat_map(|x| (h * 3 / 5..h * 4 / 5).map(move |y| (x, y)))
            .map(|(x, y)| img.get_pixel(x, y).0)
            .filter(|p| *p != BG)
            .map(|p| (p[0] as f32 + p[1] as f32 + p[2] as f32) / 3.0)
            .collect();
        assert!(v.len() > 20, "model pixels in the band: {}", v.len());
        v.iter().sum::<f32>() / v.len() as f32
    };
    (mean(0, w / 3), mean(w * 2 / 3, w))
}

#[vitrine_test(gpu)]
fn moving_the_light_swaps_the_lit_side_and_intensities_scale() {
    let mut rig = Rig::new();
    let model = cube();
    let (right_dark, front_lit) = sides(&rig.render(&model, &view(level_light(0.0)), SIZE));
    let (right_lit, front_dark) = sides(&rig.render(&model, &view(level_light(90.0)), SIZE));
    assert!(
        front_lit > right_dark + 60.0 && right_lit > front_dark + 60.0,
        "light from the front: front {front_lit:.0} right {right_dark:.0}; \
         from the right: front {front_dark:.0} right {right_lit:.0}"
    );
    assert!(right_dark < 5.0 && front_dark < 5.0, "no ambient, no light");

    let dim = sides(&rig.render(
        &model,
        &view(Lighting {
            diffuse: 0.4,
            ..level_light(0.0)
        }),
        SIZE,
    ))
    .1;
    assert!(
        dim + 30.0 < front_lit,
        "intensity 0.4: {dim:.0} vs 1.0: {front_lit:.0}"
    );

    let ambient_only = sides(&rig.render(
        &model,
        &view(Lighting {
            ambient: 0.5,
            diffuse: 0.0,
            ..level_light(0.0)
        }),
        SIZE,
    ));
    assert!(
        ambient_only.0 > 40.0 && (ambient_only.0 - ambient_only.1).abs() < 3.0,
        "ambient lights both sides alike: {ambient_only:?}"
    );
}

#[vitrine_test(gpu)]
fn a_following_light_keeps_the_shading_as_the_camera_turns_and_a_fixed_one_does_not() {
    let mut rig = Rig::new();
    let model = cube();
    let turned = |lighting: Lighting, yaw: f32| {
        let mut v = view(lighting);
        v.camera.yaw += yaw;
        v
    };
    // From the camera's right: the picture's right-hand face is lit either way.
    let follow = Lighting {
        follows_camera: true,
        azimuth_deg: 60.0,
        ..level_light(0.0)
    };
    let a = sides(&rig.render(&model, &turned(follow, 0.0), SIZE));
    let b = sides(&rig.render(&model, &turned(follow, std::f32::consts::FRAC_PI_2), SIZE));
    assert!(a.1 > a.0 + 40.0 && b.1 > b.0 + 40.0, "{a:?} {b:?}");
    // Fixed at the model's front: a quarter turn (to look from front-left) takes the
    // lit front face from the picture's right to its left.
    let fixed = level_light(0.0);
    let a = sides(&rig.render(&model, &turned(fixed, 0.0), SIZE));
    let b = sides(&rig.render(&model, &turned(fixed, std::f32::consts::FRAC_PI_2), SIZE));
    assert!(a.1 > a.0 + 40.0 && b.0 > b.1 + 40.0, "{a:?} {b:?}");
}

#[vitrine_test(gpu)]
fn render_cli_uses_the_light_options() {
    crate::common::needs_gpu();
    let tmp = common::temp_dir("render-light");
    let render = |name: &str, az: &str| {
        let out = tmp.path().join(name);
        let status = Command::new(env!("CARGO_BIN_EXE_vitrine"))
            .env("VITRINE_CONFIG_DIR", tmp.path().join("config"))
            .arg("render")
            .arg(common::fixtures().join("pie/cube.pie"))
            .args(["-o", out.to_str().unwrap(), "--size", "128x128"])
            .args(["--colour-mode", "per-node", "--background", "#0000c0"])
            .args(["--light-dir", az, "--light-fixed"])
            .args(["--ambient", "0", "--light-intensity", "1"])
            .status()
            .unwrap();
        assert!(status.success());
        image::open(&out).unwrap().into_rgba8()
    };
    let (right_dark, front_lit) = sides(&render("front.png", "0,0"));
    let (right_lit, front_dark) = sides(&render("right.png", "90,0"));
    assert!(
        front_lit > right_dark + 60.0 && right_lit > front_dark + 60.0,
        "{front_lit} {right_dark} {front_dark} {right_lit}"
    );
}
