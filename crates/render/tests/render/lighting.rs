//! The light the user sets is the light the picture has: moving it from the model's
//! front to its right swaps which side is lit, intensity and ambient brighten what they
//! should (`vitrine render --light-dir … --light-fixed` drawing the same is the
//! program's test, tests/cli/render.rs).

use crate::common;
use crate::render_support;

use render_support::{Rig, side_brightness};
use vitrine_core::formats::LoadOptions;
use vitrine_core::model::Model;
use vitrine_render::{ColourMode, Lighting, ViewPreset, ViewSettings};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 128;
/// Blue, so that faces the light does not reach (black) still count as the model.
const BG: [u8; 4] = [0, 0, 192, 255];

fn cube() -> Model {
    vitrine_test_support::load_path(
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

#[vitrine_test(gpu)]
fn moving_the_light_swaps_the_lit_side_and_intensities_scale() {
    let mut rig = Rig::new();
    let model = cube();
    let (right_dark, front_lit) =
        side_brightness(BG, &rig.render(&model, &view(level_light(0.0)), SIZE));
    let (right_lit, front_dark) =
        side_brightness(BG, &rig.render(&model, &view(level_light(90.0)), SIZE));
    assert!(
        front_lit > right_dark + 60.0 && right_lit > front_dark + 60.0,
        "light from the front: front {front_lit:.0} right {right_dark:.0}; \
         from the right: front {front_dark:.0} right {right_lit:.0}"
    );
    assert!(right_dark < 5.0 && front_dark < 5.0, "no ambient, no light");

    let dim = side_brightness(
        BG,
        &rig.render(
            &model,
            &view(Lighting {
                diffuse: 0.4,
                ..level_light(0.0)
            }),
            SIZE,
        ),
    )
    .1;
    assert!(
        dim + 30.0 < front_lit,
        "intensity 0.4: {dim:.0} vs 1.0: {front_lit:.0}"
    );

    let ambient_only = side_brightness(
        BG,
        &rig.render(
            &model,
            &view(Lighting {
                ambient: 0.5,
                diffuse: 0.0,
                ..level_light(0.0)
            }),
            SIZE,
        ),
    );
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
    let a = side_brightness(BG, &rig.render(&model, &turned(follow, 0.0), SIZE));
    let b = side_brightness(
        BG,
        &rig.render(&model, &turned(follow, std::f32::consts::FRAC_PI_2), SIZE),
    );
    assert!(a.1 > a.0 + 40.0 && b.1 > b.0 + 40.0, "{a:?} {b:?}");
    // Fixed at the model's front: a quarter turn (to look from front-left) takes the
    // lit front face from the picture's right to its left.
    let fixed = level_light(0.0);
    let a = side_brightness(BG, &rig.render(&model, &turned(fixed, 0.0), SIZE));
    let b = side_brightness(
        BG,
        &rig.render(&model, &turned(fixed, std::f32::consts::FRAC_PI_2), SIZE),
    );
    assert!(a.1 > a.0 + 40.0 && b.0 > b.1 + 40.0, "{a:?} {b:?}");
}
