//! glTF export read back with the `gltf` crate: world-space positions of every vertex at
//! rest and at a frame of a clip equal what `vitrine info --json --world --at CLIP:N
//! --vertices` reports (its library function, `cli::info::model_json`), within 1e-4;
//! skins, visibility, texture-frame animation, team colour, connectors, PET motions, and
//! the bad cases (missing texture, unwritable output).

mod common;
mod gltf_support;

use glam::{Mat4, Vec3};
use gltf_support::{Read, assert_same_points, read_glb};
use std::path::{Path, PathBuf};
use vitrine::cli::info::{InfoArgs, model_json, parse_at};
use vitrine::export::gltf::{ClipChoice, ExportOptions, ImageCache, export, writer};
use vitrine::formats::{self, LoadOptions};
use vitrine::model::{Model, Pose, skin_positions};

const TOL: f32 = 1e-4;
/// Export scale of the round trips (not 1, so a translation left unscaled shows).
const SCALE: f32 = 0.5;

fn load(path: &Path) -> Model {
    formats::load_path(path, &LoadOptions::default()).expect("loads")
}

/// Exports `model` and reads the `.glb` back.
fn round(model: &Model, options: &ExportOptions) -> Read {
    let doc = export(model, options, &mut ImageCache::new()).expect("exports");
    read_glb(&writer::glb_bytes(doc).expect("GLB bytes"))
}

fn all_clips_at_half_scale() -> ExportOptions {
    ExportOptions {
        clips: ClipChoice::All,
        scale: Some(SCALE),
        ..Default::default()
    }
}

fn mat(v: &serde_json::Value) -> Mat4 {
    let a: Vec<f32> = v
        .as_array()
        .expect("16 floats")
        .iter()
        .map(|x| x.as_f64().expect("number") as f32)
        .collect();
    Mat4::from_cols_slice(&a)
}

fn vec3(v: &serde_json::Value) -> Vec3 {
    Vec3::new(
        v[0].as_f64().unwrap() as f32,
        v[1].as_f64().unwrap() as f32,
        v[2].as_f64().unwrap() as f32,
    )
}

/// Compares the export's world-space vertices with `info --json --world [--at AT]
/// --vertices` (file axes) for every node that shows a mesh. `anim`: the glTF
/// animation standing for AT and the time into it. Returns how many nodes were checked.
fn compare_with_info(
    path: &Path,
    model: &Model,
    read: &Read,
    at: Option<&str>,
    anim: Option<(&str, f32)>,
) -> usize {
    let args = InfoArgs {
        files: vec![path.to_path_buf()],
        json: true,
        world: true,
        at: at.map(String::from),
        vertices: true,
        ..Default::default()
    };
    let info = model_json(model, path, &args).expect("info JSON");
    let pose = match at {
        Some(at) => {
            let (clip, time) = parse_at(model, at).expect("--at");
            Pose::sample(model, Some(clip), time, 0)
        }
        None => Pose::rest(model),
    };
    let animation = anim.map(|(name, _)| read.animation(name));
    let time = anim.map_or(0.0, |a| a.1);
    let axes = &model.axes;
    let mut checked = 0;
    for (i, node) in model.nodes.iter().enumerate() {
        let Some(m) = node.mesh else { continue };
        let mesh = &model.meshes[m];
        if mesh.triangle_count() == 0 {
            continue;
        }
        let got: Vec<Vec3> = read
            .node_vertices(i, animation.as_ref(), time)
            .into_iter()
            .map(|p| axes.point_to_file(p / SCALE))
            .collect();
        let what = format!("{} node {i} ({}) at {at:?}", path.display(), node.name);
        if !pose.visible[i] {
            // Hidden: scaled to nothing, every vertex at the node's origin.
            let origin = axes.point_to_file(pose.world[i].transform_point3(Vec3::ZERO));
            assert_same_points(&what, &got, &[origin], TOL);
            checked += 1;
            continue;
        }
        let mut used = vec![false; mesh.points.len()];
        for c in &mesh.corners {
            used[c.point as usize] = true;
        }
        let want: Vec<Vec3> = if mesh.skin.is_some() && !mesh.influences.is_empty() {
            // Skinned: the pose's skinning (info lists rest positions only).
            skin_positions(model, m, &pose)
                .into_iter()
                .map(|p| axes.point_to_file(p))
                .collect()
        } else {
            let world = mat(&info["nodes"][i]["world"]);
            info["meshes"][m]["positions"]
                .as_array()
                .expect("positions")
                .iter()
                .map(|p| world.transform_point3(vec3(p)))
                .collect()
        };
        let want: Vec<Vec3> = want
            .into_iter()
            .zip(&used)
            .filter(|(_, u)| **u)
            .map(|(p, _)| p)
            .collect();
        assert_same_points(&what, &got, &want, TOL);
        checked += 1;
    }
    checked
}

#[test]
fn pie_animobject_round_trip_with_periods_visibility_and_texture_frames() {
    let Some(wz) = common::wz2100() else { return };
    let path = wz.join("data/base/components/bodies/fireknee.pie");
    let model = load(&path);
    let read = round(&model, &all_clips_at_half_scale());
    let clip = "levels + texture animation";
    assert!(compare_with_info(&path, &model, &read, None, None) >= 3);
    // Frame 4 is in the levels' second cycle (3 frames each): the unrolled keys.
    for frame in [1usize, 2, 4, 5] {
        let t = model.clips[0].frame_time(frame as f32);
        let at = format!("{clip}:{frame}");
        compare_with_info(&path, &model, &read, Some(&at), Some((clip, t)));
    }
    // Some frame hides a level (the file's hidden frames): checked as scale 0 above.
    let hides = (0..6).any(|f| {
        let p = Pose::sample(&model, Some(0), model.clips[0].frame_time(f as f32), 0);
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
    let times = floats(&read, sampler.input(), 1);
    let offsets = floats(&read, sampler.output(), 2);
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

/// The float components of accessor `a` (`n` per element).
fn floats(read: &Read, a: gltf::Accessor, n: usize) -> Vec<Vec<f32>> {
    let view = a.view().expect("view");
    let start = view.offset() + a.offset();
    let bytes = &read.blob[start..start + a.count() * n * 4];
    bytes
        .chunks_exact(n * 4)
        .map(|e| {
            e.chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                .collect()
        })
        .collect()
}

#[test]
fn pmf_robot_walk_round_trip() {
    let Some(syn) = common::synthetic() else {
        return;
    };
    let path = syn.join("pmf/robot.pmf");
    let model = load(&path);
    let read = round(&model, &all_clips_at_half_scale());
    assert!(compare_with_info(&path, &model, &read, None, None) >= 5);
    let walk = &model.clips[model.clip_index("walk").unwrap()];
    for frame in [3usize, 4, 11] {
        let at = format!("walk:{frame}");
        compare_with_info(
            &path,
            &model,
            &read,
            Some(&at),
            Some(("walk", walk.frame_time(frame as f32))),
        );
    }
    // Both clips are there, by name, with their facts.
    let names: Vec<_> = read
        .doc
        .animations()
        .filter_map(|a| a.name().map(String::from))
        .collect();
    assert_eq!(names, ["walk", "wave"]);
    assert_eq!(read.json["animations"][0]["extras"]["fps"], 15.0);
}

#[test]
fn pet_puppet_walk_round_trip_with_skinning_and_motions_as_animations() {
    let Some(syn) = common::synthetic() else {
        return;
    };
    let path = syn.join("pet/puppet_v13.pet");
    let model = load(&path);
    assert!(
        model.meshes.iter().any(|m| m.skin.is_some()),
        "the puppet is skinned"
    );
    let read = round(&model, &all_clips_at_half_scale());
    assert!(read.doc.skins().count() >= 1);
    assert!(compare_with_info(&path, &model, &read, None, None) >= 1);
    let clip = &model.clips[0];
    let walk = clip.motions.iter().find(|m| m.name == "walk").unwrap();
    for frame in [0u32, 7, 10, 25] {
        let at = format!("walk:{frame}");
        compare_with_info(
            &path,
            &model,
            &read,
            Some(&at),
            Some(("walk", clip.frame_time(frame as f32))),
        );
    }
    // Each motion is its own animation, named after it, starting at 0.
    let names: Vec<_> = read
        .doc
        .animations()
        .filter_map(|a| a.name().map(String::from))
        .collect();
    assert_eq!(names, ["idle", "walk"]);
    let motion = &read.json["animations"][1]["extras"]["motion"];
    assert_eq!(motion["start"], walk.start);
    assert_eq!(motion["next"], "walk");
}

#[test]
fn tpm_instances_round_trip() {
    let Some(syn) = common::synthetic() else {
        return;
    };
    let path = syn.join("tpm/lab_scene.tpm");
    let model = load(&path);
    let instances: Vec<_> = model
        .nodes
        .iter()
        .filter(|n| n.mesh.is_some())
        .map(|n| n.mesh)
        .collect();
    let read = round(&model, &all_clips_at_half_scale());
    assert_eq!(
        compare_with_info(&path, &model, &read, None, None),
        instances.len()
    );
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

#[test]
fn pie_default_scale_makes_a_tile_one_128th() {
    let Some(wz) = common::wz2100() else { return };
    let path = wz.join("data/base/components/bodies/fireknee.pie");
    let model = load(&path);
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

/// `common::shared_dir` is used by the tests above; this keeps a path helper honest.
#[allow(dead_code)]
fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vitrine-gltf-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
