//! glTF export read back with the `gltf` crate: world-space positions of every vertex at
//! rest and at a frame of a clip equal what `vitrine info --json --world --at CLIP:N
//! --vertices` reports (its library function, `cli::info::model_json`), within 1e-4;
//! skins, visibility, texture-frame animation, team colour, connectors, PET motions, and
//! the bad cases (missing texture, unwritable output).

use crate::common;
use crate::gltf_support;

use glam::Vec3;
use gltf_support::compare::{Loaded, SCALE, load};
use gltf_support::{Read, blend_model, fixtures, out_dir, read_glb};
use vitrine::export::gltf::{ClipChoice, ExportOptions, ImageCache, export, writer};
use vitrine::model::{Model, Pose};
use vitrine_test_needs::vitrine_test;

/// Exports `model` and reads the `.glb` back.
fn round(model: &Model, options: &ExportOptions) -> Read {
    let doc =
        export(model, options, &mut ImageCache::new(vitrine::files::disk())).expect("exports");
    read_glb(&writer::glb_bytes(doc).expect("GLB bytes"))
}

fn all_clips_at_half_scale() -> ExportOptions {
    ExportOptions {
        clips: ClipChoice::All,
        scale: Some(SCALE),
        ..Default::default()
    }
}

/// A file of the Warzone 2100 corpus, loaded (for a `#[vitrine_test(shared)]` test).
fn wz_model(rel: &str) -> Loaded {
    load(&common::wz2100().join(rel))
}

/// A synthetic sample, loaded (for a `#[vitrine_test(shared)]` test).
fn synthetic_model(rel: &str) -> Loaded {
    load(&common::synthetic().join(rel))
}

/// fireknee.pie: ANIMOBJECT levels with their own periods, hidden frames and
/// texture-frame animation.
const FIREKNEE: &str = "data/base/components/bodies/fireknee.pie";

#[vitrine_test(shared)]
fn pie_animobject_round_trip_with_periods_visibility_and_texture_frames() {
    let loaded = wz_model(FIREKNEE);
    let model = &loaded.model;
    let read = round(model, &all_clips_at_half_scale());
    let clip = "levels + texture animation";
    assert!(loaded.compare_with_info(&read, None, None) >= 3);
    // Frame 4 is in the levels' second cycle (3 frames each): the unrolled keys.
    loaded.compare_frames(&read, (clip, 0), clip, &[1, 2, 4, 5]);
    // Some frame hides a level (the file's hidden frames): checked as scale 0 above.
    let hides = (0..6).any(|f| {
        let p = Pose::sample(model, Some(0), model.clips[0].frame_time(f as f32), 0);
        p.visible.iter().any(|v| !v)
    });
    assert!(hides, "fireknee hides a level in some frame");

    // Texture frames: one STEP pointer channel per animated level's material copy,
    // offsets as the model's track gives them.
    let pointers = &read.pointers[0];
    assert_eq!(pointers.len(), 3, "{pointers:?}");
    let anim = &read.json["animations"][0];
    let track = &model.clips[0].texture_frames[0];
    let (sampler, pointer) = &pointers[0];
    assert!(pointer.ends_with("/baseColorTexture/extensions/KHR_texture_transform/offset"));
    let s = &anim["samplers"][*sampler];
    assert_eq!(s["interpolation"], "STEP");
    let gltf_anim = read.doc.animations().next().unwrap();
    let sampler = gltf_anim.samplers().nth(*sampler).unwrap();
    let times = read.floats(sampler.input(), 1);
    let offsets = read.floats(sampler.output(), 2);
    assert!(times.len() >= 2);
    for (k, t) in times.iter().enumerate() {
        let want = track.offset(track.frame_at(t[0], 0));
        assert!(
            (offsets[k][0] - want.x).abs() < 1e-6 && (offsets[k][1] - want.y).abs() < 1e-6,
            "offset at {t:?}"
        );
    }
    assert!(offsets.iter().any(|o| o[0] > 0.0), "the offset moves");
    let used = read.json["extensionsUsed"].as_array().unwrap();
    assert!(used.iter().any(|e| e == "KHR_animation_pointer"));
    assert!(used.iter().any(|e| e == "KHR_texture_transform"));
}

#[vitrine_test(shared)]
fn pmf_robot_walk_round_trip() {
    let loaded = synthetic_model("pmf/robot.pmf");
    let model = &loaded.model;
    let read = round(model, &all_clips_at_half_scale());
    assert!(loaded.compare_with_info(&read, None, None) >= 5);
    let walk = model.clip_index("walk").unwrap();
    loaded.compare_frames(&read, ("walk", walk), "walk", &[3, 4, 11]);
    // Both clips are there, by name, with their facts.
    assert_eq!(read.animation_names(), ["walk", "wave"]);
    assert_eq!(read.json["animations"][0]["extras"]["fps"], 15.0);
}

#[vitrine_test(shared)]
fn pet_puppet_walk_round_trip_with_skinning_and_motions_as_animations() {
    let loaded = synthetic_model("pet/puppet_v13.pet");
    let model = &loaded.model;
    assert!(
        model.meshes.iter().any(|m| m.skin.is_some()),
        "the puppet is skinned"
    );
    let read = round(model, &all_clips_at_half_scale());
    assert!(read.doc.skins().count() >= 1);
    assert!(loaded.compare_with_info(&read, None, None) >= 1);
    loaded.compare_frames(&read, ("walk", 0), "walk", &[0, 7, 10, 25]);
    // Each motion is its own animation, named after it, starting at 0.
    assert_eq!(read.animation_names(), ["idle", "walk"]);
    let walk = model.clips[0].motions.iter().find(|m| m.name == "walk");
    let motion = &read.json["animations"][1]["extras"]["motion"];
    assert_eq!(motion["start"], walk.unwrap().start);
    assert_eq!(motion["next"], "walk");
}

#[vitrine_test(shared)]
fn tpm_instances_round_trip() {
    let loaded = synthetic_model("tpm/lab_scene.tpm");
    let model = &loaded.model;
    let instances: Vec<_> = model
        .nodes
        .iter()
        .filter(|n| n.mesh.is_some())
        .map(|n| n.mesh)
        .collect();
    let read = round(model, &all_clips_at_half_scale());
    assert_eq!(loaded.compare_with_info(&read, None, None), instances.len());
    // Nodes showing one mesh share one glTF mesh.
    let mut distinct = instances.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() < instances.len() {
        let shared: Vec<_> = read
            .doc
            .nodes()
            .filter_map(|n| n.mesh().map(|m| m.index()))
            .collect();
        let mut d = shared.clone();
        d.sort();
        d.dedup();
        assert!(d.len() < shared.len(), "instances share their mesh");
    }
}

#[vitrine_test(shared)]
fn pie_default_scale_makes_a_tile_one_128th() {
    let Loaded { model, .. } = wz_model(FIREKNEE);
    let read = round(&model, &ExportOptions::default());
    let at_1 = round(&model, &all_clips_at_half_scale());
    let a = read.node_vertices(0, None, 0.0);
    let b = at_1.node_vertices(0, None, 0.0);
    assert_eq!(a.len(), b.len());
    for (p, q) in a.iter().zip(&b) {
        assert!(
            (*p * 128.0 * SCALE).distance(*q) < 1e-3,
            "{p} × 128 × {SCALE} ≠ {q}"
        );
    }
    assert_eq!(read.json["scenes"][0]["extras"]["scale"], 1.0 / 128.0);
}

#[test]
fn team_colour_is_baked_with_the_game_formula_and_the_raw_mask_kept() {
    let tmp = out_dir("team");
    let dir = tmp.path();
    let model = fixtures::tc_quad(dir);
    let team = 4; // red
    let read = round(
        &model,
        &ExportOptions {
            team,
            ..Default::default()
        },
    );
    let material = &read.json["materials"][0];
    let base_tex = material["pbrMetallicRoughness"]["baseColorTexture"]["index"]
        .as_u64()
        .unwrap() as usize;
    let baked = read.texture_image(base_tex);
    let mask_tex = material["extras"]["tcmask_texture"].as_u64().unwrap() as usize;
    let mask = read.texture_image(mask_tex);
    let source_mask = image::open(dir.join("tc-mask.png")).unwrap().into_rgba8();
    assert_eq!(
        mask, source_mask,
        "the raw tcmask page is embedded unchanged"
    );
    assert_eq!(material["extras"]["team"]["name"], "red");
    let red = vitrine::model::team::TEAM_COLOURS[team].rgb;
    let mut changed = 0;
    for (x, y, p) in baked.enumerate_pixels() {
        let a = source_mask.get_pixel(x, y).0[3];
        let want = fixtures::team_formula(fixtures::TC_BASE, red, a as f32 / 255.0);
        assert_eq!(&p.0[..3], &want[..], "texel ({x}, {y}) under mask {a}");
        changed += usize::from(a > 0);
    }
    assert!(changed > 0);
}

#[test]
fn blend_modes_become_alpha_modes_and_a_missing_texture_a_checkerboard() {
    let tmp = out_dir("blend");
    let dir = tmp.path();
    let model = blend_model(dir);
    let doc = export(
        &model,
        &ExportOptions::default(),
        &mut ImageCache::new(vitrine::files::disk()),
    )
    .unwrap();
    let warnings = doc.warnings.clone();
    let read = read_glb(&writer::glb_bytes(doc).unwrap());
    let mats = read.json["materials"].as_array().unwrap();
    let modes: Vec<_> = mats
        .iter()
        .map(|m| m["alphaMode"].as_str().unwrap_or("OPAQUE"))
        .collect();
    assert_eq!(
        modes,
        ["OPAQUE", "MASK", "BLEND", "BLEND", "BLEND", "OPAQUE"]
    );
    assert_eq!(mats[1]["alphaCutoff"], 0.5);
    let unlit: Vec<bool> = mats
        .iter()
        .map(|m| m["extensions"]["KHR_materials_unlit"].is_object())
        .collect();
    assert_eq!(unlit, [false, false, false, true, true, false]);
    assert_eq!(mats[4]["extras"]["blend"], "additive");
    assert_eq!(mats[4]["extras"]["billboard"], "roll");
    assert_eq!(mats[0]["doubleSided"], true);
    assert!(mats[1]["doubleSided"].is_null() || mats[1]["doubleSided"] == false);
    assert!(
        warnings.iter().any(|w| w.contains("additive")),
        "{warnings:?}"
    );
    // The missing texture: a warning naming it, and the magenta/black checkerboard.
    assert!(
        warnings.iter().any(|w| w.contains("gone.png")),
        "{warnings:?}"
    );
    let t = mats[5]["pbrMetallicRoughness"]["baseColorTexture"]["index"]
        .as_u64()
        .unwrap();
    let checker = read.texture_image(t as usize);
    assert_eq!(checker.get_pixel(0, 0).0, [255, 0, 255, 255]);
    assert_eq!(checker.get_pixel(8, 0).0, [0, 0, 0, 255]);
    // The texture shared by five materials is stored once.
    assert_eq!(read.doc.images().count(), 2);
}

#[vitrine_test(shared)]
fn connectors_become_empty_nodes_at_their_positions() {
    let Loaded { model, .. } = wz_model("data/base/components/bodies/cybd_std.pie");
    assert!(!model.connectors.is_empty());
    let read = round(&model, &all_clips_at_half_scale());
    let n = model.nodes.len();
    for (k, c) in model.connectors.iter().enumerate() {
        let node = read.doc.nodes().nth(n + k).expect("connector node");
        assert_eq!(node.name(), Some(format!("connector {}", k + 1).as_str()));
        assert!(node.mesh().is_none());
        let parent = read
            .doc
            .nodes()
            .find(|p| p.children().any(|ch| ch.index() == n + k));
        assert_eq!(parent.map(|p| p.index()), Some(c.node));
        let (t, _, _) = node.transform().decomposed();
        assert!(Vec3::from(t).distance(c.position * SCALE) < 1e-6);
    }
}

#[test]
fn unwritable_output_is_a_clear_error_and_writes_are_atomic() {
    let tmp = out_dir("write");
    let dir = tmp.path();
    let model = fixtures::quad_model(vitrine::model::Material::new("m", [1.0; 4]), Vec::new());
    let doc = || {
        export(
            &model,
            &ExportOptions::default(),
            &mut ImageCache::new(vitrine::files::disk()),
        )
        .unwrap()
    };
    // A folder that cannot exist: its parent is a file.
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, b"x").unwrap();
    let bad = blocker.join("out.glb");
    let err = writer::write(doc(), &bad).expect_err("cannot write under a file");
    assert!(err.to_string().contains("a-file"), "{err}");
    // Not .glb or .gltf.
    let err = writer::write(doc(), &dir.join("out.obj")).expect_err("wrong extension");
    assert!(err.to_string().contains(".glb or .gltf"), "{err}");
    // Replacing a file leaves exactly the new one, no temporary files.
    let target = dir.join("m.glb");
    std::fs::write(&target, b"old").unwrap();
    writer::write(doc(), &target).unwrap();
    let bytes = std::fs::read(&target).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a-file", "m.glb"]);
    // A .gltf writes its buffer beside it and names it.
    let files = writer::write(doc(), &dir.join("m.gltf")).unwrap();
    assert!(files.iter().any(|f| f.ends_with("m.bin")), "{files:?}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("m.gltf")).unwrap()).unwrap();
    assert_eq!(json["buffers"][0]["uri"], "m.bin");
}

#[vitrine_test(shared)]
fn texture_frames_as_extras_load_in_readers_without_animation_pointer() {
    let Loaded { model, .. } = wz_model(FIREKNEE);
    let options = ExportOptions {
        clips: ClipChoice::All,
        texture_frames: vitrine::export::gltf::TextureFrames::Extras,
        ..Default::default()
    };
    let doc = export(
        &model,
        &options,
        &mut ImageCache::new(vitrine::files::disk()),
    )
    .unwrap();
    assert!(
        doc.warnings.iter().any(|w| w.contains("texture_frames")),
        "{:?}",
        doc.warnings
    );
    let bytes = writer::glb_bytes(doc).unwrap();
    // The gltf crate reads it as it is (it rejects pointer channels).
    let gltf = gltf::Gltf::from_slice(&bytes).expect("gltf 1.4 reads the file");
    let described: Vec<_> = gltf
        .materials()
        .filter_map(|m| m.extras().as_ref().map(|e| e.get().to_string()))
        .filter(|e| e.contains("texture_frames"))
        .collect();
    assert_eq!(described.len(), 3, "one per animated level's material");
    let json: serde_json::Value = serde_json::from_str(&described[0]).unwrap();
    let track = &model.clips[0].texture_frames[0];
    assert_eq!(json["texture_frames"]["frames"], track.frames);
    // The levels still move.
    assert!(gltf.animations().next().unwrap().channels().count() > 0);
}
