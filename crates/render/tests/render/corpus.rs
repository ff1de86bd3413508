//! f3d-style image cases on real models of the shared corpus: (model, options) →
//! `tests/golden/<name>.png`, compared with the tolerance written in
//! `render_support/golden.rs`. Skips without `../shared` or without a GPU.

use crate::common;
use crate::render_support;

use crate::golden;
use render_support::Rig;
use vitrine_core::formats::{self, LoadOptions};
use vitrine_core::model::Billboard;
use vitrine_render::{ViewPreset, ViewSettings};
use vitrine_test_needs::vitrine_test;

fn view(preset: ViewPreset, team: usize) -> ViewSettings {
    let mut v = ViewSettings {
        team,
        ..Default::default()
    };
    v.camera.set_preset(preset);
    v
}

#[vitrine_test(shared, gpu)]
fn corpus_golden_images() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let cases = [
        ("pmf-robot-iso", "pmf/robot.pmf", view(ViewPreset::Iso, 0)),
        (
            "pmf-crate-front",
            "pmf/crate.pmf",
            view(ViewPreset::Front, 0),
        ),
        (
            "tpm-lab-scene-iso",
            "tpm/lab_scene.tpm",
            view(ViewPreset::Iso, 0),
        ),
        (
            "tpm-tail-skin-side",
            "tpm/tail_skin.tpm",
            view(ViewPreset::Side, 0),
        ),
    ];
    for (name, file, view) in cases {
        let model = vitrine_test_support::load_path(&dir.join(file), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let img = rig.render(&model, &view, 128);
        golden::check(name, &img);
    }
}

/// The demo model the viewer opens without a file, in two team colours.
#[vitrine_test(gpu)]
fn demo_golden_images() {
    let mut rig = Rig::new();
    let path = vitrine_test_needs::workspace().join("assets/demo/tank.pie");
    let model =
        vitrine_test_support::load_path(&path, &LoadOptions::default()).expect("demo loads");
    assert!(
        model.textures.iter().all(|t| t.resolved.is_some()),
        "the demo ships its texture page and tcmask"
    );
    for (name, view) in [
        ("demo-tank-iso-green", view(ViewPreset::Iso, 0)),
        ("demo-tank-top-red", view(ViewPreset::Top, 4)),
    ] {
        golden::check(name, &rig.render(&model, &view, 160));
    }
}

/// Real Warzone 2100 models: a team-coloured body, a structure, an alpha-tested tree,
/// a PIE 2 weapon and a cyborg.
#[vitrine_test(shared, gpu)]
fn wz2100_golden_images() {
    let dir = common::wz2100();
    let mut rig = Rig::new();
    let cases = [
        (
            "wz-drtrans-iso-blue",
            "data/base/components/bodies/drtrans.pie",
            view(ViewPreset::Iso, 5),
        ),
        (
            "wz-blfact2-iso",
            "data/base/structs/blfact2.pie",
            view(ViewPreset::Iso, 1),
        ),
        (
            "wz-arizonatree1-front",
            "data/base/features/arizonatree1.pie",
            view(ViewPreset::Front, 0),
        ),
        (
            "wz-gnlmg1-side",
            "data/base/components/weapons/gnlmg1.pie",
            view(ViewPreset::Side, 0),
        ),
    ];
    for (name, file, view) in cases {
        let model = vitrine_test_support::load_path(&dir.join(file), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        golden::check(name, &rig.render(&model, &view, 160));
    }
}

/// Every corpus model renders headless on one device, framed, with something drawn.
/// Two have nothing to draw (an empty propulsion placeholder and a single degenerate
/// triangle) and must come out empty; camera-facing billboards may turn edge-on to the
/// camera (a flat muzzle flare), so they are not required to show.
#[vitrine_test(shared, gpu)]
fn every_wz2100_model_renders() {
    let dir = common::wz2100();
    let mut rig = Rig::new();
    let files = common::model_files(&dir);
    assert_eq!(files.len(), 855, "the corpus holds 855 .pie files");
    let mut resolver = formats::resolve::Resolver::new(vitrine_test_support::disk());
    let mut wrong = Vec::new();
    for file in &files {
        let model = formats::load_with(
            &mut resolver,
            &file.as_path().into(),
            &LoadOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let view = ViewSettings {
            background: [0, 0, 0, 0],
            ..Default::default()
        };
        let img = rig.render(&model, &view, 48);
        // Additive effects leave alpha at 0 over a transparent background: count colour too.
        let drawn = img.pixels().any(|p| p.0 != [0, 0, 0, 0]);
        let (mut area, mut fixed_area) = (false, false);
        for mesh in &model.meshes {
            for s in &mesh.submeshes {
                let range =
                    s.first_triangle as usize..(s.first_triangle + s.triangle_count) as usize;
                if range
                    .into_iter()
                    .any(|t| mesh.face_normal(t) != glam::Vec3::ZERO)
                {
                    area = true;
                    fixed_area |= model.materials[s.material].billboard == Billboard::None;
                }
            }
        }
        if (fixed_area && !drawn) || (!area && drawn) {
            wrong.push(format!("{} (drawn: {drawn})", file.display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "drawn iff it has a triangle with area: {wrong:?}"
    );
}

/// Animated poses against references: the PMF robot at `walk` frame 4 and the PET
/// puppet mid-walk (GPU-skinned), each framed on its whole clip as `vitrine render
/// --frame` does, so the camera does not move between frames.
#[vitrine_test(shared, gpu)]
fn animated_golden_images() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    for (name, file, clip, frame) in [
        ("pmf-robot-walk-4", "pmf/robot.pmf", "walk", 4.0),
        (
            "pet-puppet-frame-35",
            "pet/puppet_v13.pet",
            "puppet_v13",
            35.0,
        ),
    ] {
        // The puppet's reference was drawn with the plain reading of its ANIM rotations,
        // the one the synthetic samples were written with.
        let options = LoadOptions {
            pet_rotations: vitrine_core::formats::pet::PetRotations::AsStored,
            ..LoadOptions::default()
        };
        let model = vitrine_test_support::load_path(&dir.join(file), &options)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let c = model
            .clip_index(clip)
            .unwrap_or_else(|| panic!("{file}: no clip {clip}"));
        let mut view = view(ViewPreset::Iso, 0);
        view.camera
            .frame_points(&vitrine_render::clip_points(&model, Some(c), 0), 1.0);
        let pose =
            vitrine_core::model::Pose::sample(&model, Some(c), model.clips[c].frame_time(frame), 0);
        golden::check(name, &rig.render_pose(&model, &pose, &view, 160));
    }
}
