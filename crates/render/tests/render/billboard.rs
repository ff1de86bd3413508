//! Camera-facing effects (PIE TYPE 0x20) as the game draws them: the proximity blip and
//! the muzzle flare of Warzone 2100 4.3.3 are modelled lying flat in XZ, and the game
//! turns such a sprite's +Y axis to the camera. Seen from the front, the side and above
//! the sprite then covers about the same area; drawn as modelled it would vanish
//! edge-on from the front and the side. An effect standing in XY (the plasma
//! explosion) turns to the screen and covers the same area too.

use crate::common;
use crate::render_support;

use render_support::{Rig, unlit_front};
use vitrine_core::formats::LoadOptions;
use vitrine_core::model::{Billboard, Pose};
use vitrine_test_needs::vitrine_test;

/// Foreground pixels of the model seen from (yaw, pitch), all views at the distance
/// that frames the sprite seen from above (where it lies square to the camera as
/// modelled).
fn covered(rig: &mut Rig, file: &std::path::Path, yaw: f32, pitch: f32) -> usize {
    let model = vitrine_test_support::load_path(file, &LoadOptions::default())
        .expect("corpus effect loads");
    let pose = Pose::rest(&model);
    let mut view = unlit_front();
    view.camera.yaw = 0.3;
    view.camera.pitch = 1.45;
    render_support::framed(&mut view.camera, &model, &pose);
    view.camera.distance *= 1.5;
    view.camera.yaw = yaw;
    view.camera.pitch = pitch;
    let img = rig.render_pose(&model, &pose, &view, 256);
    img.pixels().filter(|p| p.0 != [0, 0, 0, 255]).count()
}

#[vitrine_test(shared, gpu)]
fn effects_cover_a_similar_area_from_the_front_the_side_and_above() {
    let wz = common::wz2100();
    let mut rig = Rig::new();
    let effects = wz.join("data/base/effects");
    for (file, kind) in [
        ("fxblip.pie", Billboard::RollPitch),
        ("fxmflare.pie", Billboard::RollPitch),
        ("fxplasma.pie", Billboard::Screen),
    ] {
        let path = effects.join(file);
        let m = vitrine_test_support::load_path(&path, &LoadOptions::default()).unwrap();
        assert_eq!(m.materials[0].billboard, kind, "{file}");
        let views = [
            ("front", 0.0, 0.0),
            ("side", std::f32::consts::FRAC_PI_2, 0.0),
            ("above", 0.3, 1.45),
        ];
        let areas: Vec<usize> = views
            .iter()
            .map(|&(_, yaw, pitch)| covered(&mut rig, &path, yaw, pitch))
            .collect();
        let (lo, hi) = (*areas.iter().min().unwrap(), *areas.iter().max().unwrap());
        // Tolerance: the same sprite seen square-on from the same distance covers the
        // same pixels up to its turn on screen (a square turned 45° gains up to 41 %
        // in its bounding pixels only; its own area stays) and edge sampling: 25 %.
        // Drawn as modelled, the front and side views would cover a line of pixels.
        assert!(lo > 200, "{file}: {areas:?} (front, side, above)");
        assert!(hi * 4 <= lo * 5, "{file}: {areas:?} (front, side, above)");
    }
}
