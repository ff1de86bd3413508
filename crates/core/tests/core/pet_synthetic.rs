//! The synthetic PET corpus (`../shared/corpus/synthetic/pet` and `bad/pet_*`) against
//! the facts in its MANIFEST.json, which a generator outside this project wrote.
//!
//! Ground-truth positions are in the file's own (Direct3D) axes; the model converts
//! to right-handed on load, so every comparison goes back through `model.axes`.

use crate::common;

use glam::Vec3;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use vitrine_core::formats::pet::PetRotations;
use vitrine_core::formats::{self, ErrorKind, LoadOptions};
use vitrine_core::model::{Location, Model, NodeKind, Pose, TextureRole, skin_positions};
use vitrine_test_needs::vitrine_test;

fn manifest(dir: &Path) -> Value {
    common::manifest(dir)
}

/// The synthetic samples were written with the plain reading of ANIM rotations (see
/// `formats::pet::PetRotations`); their facts in MANIFEST.json hold for it.
fn as_stored() -> LoadOptions {
    LoadOptions {
        pet_rotations: PetRotations::AsStored,
        ..LoadOptions::default()
    }
}

fn load(dir: &Path, rel: &str) -> Model {
    common::load_path(&dir.join(rel), &as_stored()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn v3(v: &Value) -> Vec3 {
    Vec3::from(common::manifest_xyz(v))
}

fn close(got: Vec3, want: Vec3, tol: f32, what: &str) {
    assert!(
        (got - want).abs().max_element() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

fn bone(model: &Model, name: &str) -> usize {
    model
        .nodes
        .iter()
        .position(|n| n.kind == NodeKind::Bone && n.name == name)
        .unwrap_or_else(|| panic!("no bone {name}"))
}

/// Origin of node `n` in `pose`, in file axes.
fn origin_in_file(model: &Model, pose: &Pose, n: usize) -> Vec3 {
    model
        .axes
        .point_to_file(pose.world[n].transform_point3(Vec3::ZERO))
}

fn pet_files(m: &Value) -> Vec<(String, Value)> {
    m["files"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, f)| f["format"] == "pet")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The `"pet"` details of the file itself (a part, for an assembled character).
fn own_details(model: &Model, rel: &str) -> Value {
    let name = Path::new(rel).file_name().unwrap().to_str().unwrap();
    let details = model.details.to_json();
    match details["parts"].as_array() {
        Some(parts) => parts
            .iter()
            .find(|p| p["file"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{rel}: no part details")),
        None => details,
    }
}

#[vitrine_test(shared)]
fn structure_matches_manifest() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let files = pet_files(&m);
    assert_eq!(files.len(), 9, "the corpus has 9 PET files");
    for (rel, f) in &files {
        let model = load(&dir, rel);
        let d = own_details(&model, rel);
        assert_eq!(
            model.version,
            f["version"].as_str().unwrap(),
            "{rel} version"
        );
        assert_eq!(d["version"], f["version"], "{rel} version of the part");
        assert_eq!(d["sections"], f["sections"], "{rel} sections");
        assert_eq!(model.details.to_json()["axes"], "y-up left-handed", "{rel}");

        // Bones: names and parents as the file stores them.
        let names = f["names"]["bones"].as_array().unwrap();
        let bones = d["bones"].as_array().unwrap();
        assert_eq!(bones.len(), names.len(), "{rel} bone count");
        for (i, (b, want)) in bones.iter().zip(names).enumerate() {
            assert_eq!(&b["name"], want, "{rel} bone {i}");
            let parent = match &f["bone_parents"] {
                Value::Array(p) => p[i].clone(),
                _ if i > 0 => Value::from(i - 1),
                _ => Value::Null,
            };
            assert_eq!(b["parent"], parent, "{rel} bone {i} parent");
        }
        let nodes: Vec<&str> = model
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Bone)
            .map(|n| n.name.as_str())
            .collect();
        assert_eq!(nodes, *names, "{rel} bone nodes");
        for n in model.nodes.iter().filter(|n| n.kind == NodeKind::Bone) {
            if let Some(p) = n.parent {
                assert_eq!(
                    model.nodes[p].kind,
                    NodeKind::Bone,
                    "{rel}: {} parent",
                    n.name
                );
            }
        }

        if let Some(t) = f["names"]["textures"].as_array() {
            assert_eq!(d["textures"].as_array().unwrap().len(), t.len(), "{rel}");
            for (got, want) in d["textures"].as_array().unwrap().iter().zip(t) {
                assert_eq!(&got["name"], want, "{rel} texture");
            }
            for want in t {
                let tex = model.textures.iter().find(|x| x.name == *want).unwrap();
                assert_eq!(tex.role, TextureRole::Base);
                assert!(
                    tex.resolved.is_some(),
                    "{rel}: {want} resolves next to the file"
                );
            }
        }
        if let Some(meshes) = f["meshes"].as_array() {
            assert_eq!(meshes.len(), 1, "{rel}");
            let want = &meshes[0];
            let mesh = if rel.ends_with(".pet") {
                assert_eq!(model.meshes.len(), 1);
                assert_eq!(model.meshes[0].name, want["name"].as_str().unwrap());
                &model.meshes[0]
            } else {
                let stem = Path::new(rel).file_stem().unwrap().to_str().unwrap();
                model
                    .meshes
                    .iter()
                    .find(|x| x.name == stem)
                    .expect("part mesh")
            };
            assert_eq!(
                mesh.points.len() as u64,
                want["vertices"].as_u64().unwrap(),
                "{rel}"
            );
            assert_eq!(
                mesh.triangle_count() as u64,
                want["triangles"].as_u64().unwrap()
            );
            assert_eq!(
                u64::from(mesh.uv_sets),
                f["uv_sets"].as_u64().unwrap(),
                "{rel} uv"
            );
            assert_eq!(d["uv_sets"], f["uv_sets"], "{rel}");
        }
        if let Some(h) = f.get("weights_pairs_histogram") {
            assert_eq!(&d["weight_pairs"], h, "{rel} weight pairs");
        }
        if let Some(tp) = f["texture_polygons"].as_object() {
            let mut got = BTreeMap::new();
            for s in &model.meshes[0].submeshes {
                let base = model.materials[s.material].base.unwrap();
                *got.entry(base.to_string()).or_insert(0u64) += u64::from(s.triangle_count);
            }
            let want: BTreeMap<String, u64> = tp
                .iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                .collect();
            assert_eq!(got, want, "{rel} triangles per texture");
        }
        if let Some(sm) = f["submeshes"].as_array() {
            let got: Vec<Vec<u64>> = d["submeshes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    r.as_array().unwrap()[1..]
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .collect()
                })
                .collect();
            let want: Vec<Vec<u64>> = sm
                .iter()
                .map(|r| {
                    r.as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .collect()
                })
                .collect();
            assert_eq!(got, want, "{rel} sub-mesh records");
        }
        if let Some(c) = f["collision_boxes"].as_array() {
            let got: Vec<&str> = model
                .collision_boxes
                .iter()
                .map(|b| b.name.as_str())
                .collect();
            assert_eq!(got, *c, "{rel} collision boxes");
            assert!(
                model.collision_boxes.iter().all(|b| b.node.is_some()),
                "{rel}"
            );
        }
    }
}

#[vitrine_test(shared)]
fn animation_motions_and_events_match_manifest() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    for (rel, f) in pet_files(&m) {
        let model = load(&dir, &rel);
        let d = own_details(&model, &rel);
        let stem = Path::new(&rel)
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let anim = &f["animation"];
        if anim.is_null() {
            assert!(
                model.clips.is_empty() || !rel.ends_with(".pet"),
                "{rel} has no clip"
            );
            continue;
        }
        let Some(clip) = model.clips.iter().find(|c| c.name == stem) else {
            // .bpet / .mpet: the clip is the .apet's.
            continue;
        };
        assert_eq!(clip.fps, anim["fps"].as_f64().unwrap() as f32, "{rel}");
        assert_eq!(
            u64::from(clip.frame_count),
            anim["timeline_frames"].as_u64().unwrap()
        );
        assert_eq!(
            clip.node_tracks.len() as u64,
            anim["tracks"].as_u64().unwrap(),
            "{rel}"
        );
        if let Some(tb) = anim.get("track_bones") {
            assert_eq!(&d["anim_tracks"], tb, "{rel}: escaped ANIM bone ids");
        }
        if let Some(kf) = anim["key_frames_bone0"].as_array() {
            let t = clip.node_tracks.iter().find(|t| t.node == 0).unwrap();
            let frames: Vec<u64> = t
                .rotation
                .as_ref()
                .unwrap()
                .times
                .iter()
                .map(|s| (s * 30.0).round() as u64)
                .collect();
            let want: Vec<u64> = kf.iter().map(|x| x.as_u64().unwrap()).collect();
            assert_eq!(frames, want, "{rel} bone 0 key frames");
        }
        if let Some(motions) = f["motions"].as_array() {
            assert_eq!(clip.motions.len(), motions.len(), "{rel}");
            for (got, want) in clip.motions.iter().zip(motions) {
                assert_eq!(got.name, want["name"].as_str().unwrap());
                assert_eq!(u64::from(got.start), want["start"].as_u64().unwrap());
                assert_eq!(u64::from(got.end), want["end"].as_u64().unwrap());
                let next = want["next"].as_str().unwrap();
                assert_eq!(got.next.as_deref(), (!next.is_empty()).then_some(next));
            }
        }
        if let Some(frames) = f["fram_frames"].as_array() {
            let got: Vec<u64> = clip.events.iter().map(|e| u64::from(e.frame)).collect();
            let want: Vec<u64> = frames.iter().map(|x| x.as_u64().unwrap()).collect();
            assert_eq!(got, want, "{rel} FRAM frames");
        }
        if let Some(scripts) = f["fram_scripts"].as_array() {
            let got: Vec<&str> = clip.events.iter().map(|e| e.text.as_str()).collect();
            assert_eq!(got, *scripts, "{rel} FRAM scripts (cp949 decoded)");
            assert!(
                got.iter().any(|s| s.contains("발소리")),
                "the Korean script"
            );
        }
    }
}

#[vitrine_test(shared)]
fn escapes_of_the_260_bone_chain() {
    let dir = common::synthetic();
    let model = load(&dir, "pet/chain260.pet");
    let bones = model
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Bone)
        .count();
    assert_eq!(bones, 260, "u8 0 + u16 count escape");
    assert_eq!(model.nodes[259].parent, Some(258), "0xFE + u16 parent");
    assert_eq!(model.nodes[255].name, "bone255");
    let mesh = &model.meshes[0];
    let skin = &model.skins[mesh.skin.unwrap()];
    // Vertex 511 is weighted 200 to bone 255 (escaped) and 55 to bone 254.
    let inf = mesh.influences[511];
    assert_eq!(skin.joints[inf.joints[0] as usize], 255);
    assert_eq!(skin.joints[inf.joints[1] as usize], 254);
    assert!((inf.weights[0] - 200.0 / 255.0).abs() < 1e-6);
}

#[vitrine_test(shared)]
fn ground_truth_positions_in_file_axes() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    for (rel, f) in pet_files(&m) {
        let gt = &f["ground_truth"];
        if gt.is_null() {
            continue;
        }
        let tol = gt["tolerance"].as_f64().unwrap() as f32;
        let model = load(&dir, &rel);
        let rest = Pose::rest(&model);
        let stem = Path::new(&rel).file_stem().unwrap().to_str().unwrap();
        let mesh_index = if rel.ends_with(".pet") {
            0
        } else {
            model.meshes.iter().position(|x| x.name == stem).unwrap()
        };
        let mesh = &model.meshes[mesh_index];
        let skin = &model.skins[mesh.skin.unwrap()];
        for v in gt["vertices"].as_array().into_iter().flatten() {
            let i = v["vertex"].as_u64().unwrap() as usize;
            let want = v3(&v["rest_model_position"]);
            let got = model.axes.point_to_file(mesh.points[i]);
            close(got, want, tol, &format!("{rel} vertex {i} rest position"));
            let first = skin.joints[mesh.influences[i].joints[0] as usize];
            assert_eq!(
                model.nodes[first].name,
                v["first_bone"].as_str().unwrap(),
                "{rel}"
            );
            let pairs = v["weights"].as_array().unwrap();
            for (k, pair) in pairs.iter().enumerate() {
                let w = pair[0].as_f64().unwrap() as f32 / 255.0;
                assert!(
                    (mesh.influences[i].weights[k] - w).abs() < 1e-6,
                    "{rel} v{i} w{k}"
                );
            }
        }
        let origins = gt["bone_model_origins_rest"]
            .as_object()
            .into_iter()
            .flatten();
        for (name, want) in origins {
            let got = origin_in_file(&model, &rest, bone(&model, name));
            close(got, v3(want), tol, &format!("{rel} {name} rest origin"));
        }
        if let Some(tip) = gt.get("tip_bone_model_origin_rest") {
            let got = origin_in_file(&model, &rest, bone(&model, "bone259"));
            close(got, v3(tip), tol, &format!("{rel} tip origin"));
        }
        if let Some(head) = gt.get("head_bone_model_origin_frame25") {
            let frame = gt["probe_frame"].as_f64().unwrap() as f32;
            let clip = model.clip_index(stem).unwrap();
            let time = model.clips[clip].frame_time(frame);
            let pose = Pose::sample(&model, Some(clip), time, 0);
            let h = bone(&model, gt["head_bone"].as_str().unwrap());
            close(
                origin_in_file(&model, &pose, h),
                v3(head),
                tol,
                &format!("{rel} head f25"),
            );
            // It moved: a reader that ignores ANIM would pass the rest check only.
            assert!(origin_in_file(&model, &rest, h).distance(v3(head)) > 0.02);
        }
    }
}

#[vitrine_test(shared)]
fn trio_assembles_from_any_of_its_files() {
    let dir = common::synthetic();
    for rel in [
        "pet/kuma_body.mpet",
        "pet/kuma_skel.bpet",
        "pet/kuma_motion.apet",
    ] {
        let model = load(&dir, rel);
        let details = model.details.to_json();
        assert_eq!(details["kind"], "assembled", "{rel}");
        assert_eq!(details["prefix"], "kuma");
        let parts: Vec<&str> = details["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["file"].as_str().unwrap())
            .collect();
        assert_eq!(
            parts,
            ["kuma_skel.bpet", "kuma_body.mpet", "kuma_motion.apet"],
            "{rel}"
        );
        let bones = model
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Bone)
            .count();
        assert_eq!(bones, 13, "{rel}: one skeleton, parts matched by name");
        assert_eq!(model.meshes.len(), 1);
        assert_eq!(model.clips.len(), 1);
        assert_eq!(model.clips[0].name, "kuma_motion");
        assert_eq!(model.collision_boxes.len(), 1);
        // The .bpet skeleton supplies the rest pose the .apet lacks.
        assert!(
            !model
                .diagnostics
                .iter()
                .any(|d| d.message.contains("no rest matrices"))
        );
    }
}

#[vitrine_test(shared)]
fn apet_alone_says_it_has_no_skeleton() {
    let dir = common::synthetic();
    let tmp = common::temp_dir("pet-apet");
    let path = tmp.path().join("kuma_motion.apet");
    std::fs::copy(dir.join("pet/kuma_motion.apet"), &path).unwrap();
    let model = common::load_path(&path, &as_stored()).unwrap();
    assert!(
        model
            .diagnostics
            .iter()
            .any(|d| d.message.contains("no rest matrices")),
        "{:?}",
        model.diagnostics
    );
    assert_eq!(model.clips.len(), 1);
    assert!(model.meshes.is_empty());
}

#[vitrine_test(shared)]
fn keys_at_time_zero_equal_the_bind_pose() {
    // The manifest says so; it checks that matrices and quaternions are converted to
    // model axes the same way.
    let dir = common::synthetic();
    for rel in [
        "pet/puppet_v10.pet",
        "pet/puppet_v13.pet",
        "pet/kuma_body.mpet",
    ] {
        let model = load(&dir, rel);
        let clip = &model.clips[0];
        for t in &clip.node_tracks {
            let n = &model.nodes[t.node];
            let r = t.rotation.as_ref().unwrap().values[0];
            assert!(
                r.dot(n.rotation).abs() > 0.9999,
                "{rel} {} rotation",
                n.name
            );
            let p = t.translation.as_ref().unwrap().values[0];
            assert!(
                p.abs_diff_eq(n.translation, 1e-4),
                "{rel} {} translation",
                n.name
            );
        }
    }
}

#[vitrine_test(shared)]
fn faces_point_outward_and_masked_cape_is_double_sided() {
    let dir = common::synthetic();
    for rel in [
        "pet/puppet_v10.pet",
        "pet/puppet_v13.pet",
        "pet/kuma_body.mpet",
    ] {
        let model = load(&dir, rel);
        let mesh = &model.meshes[0];
        // Authored normals point outward; with front faces counter-clockwise the
        // winding's normal must agree (a mirrored or inside-out load disagrees).
        let mut agree = 0;
        for t in 0..mesh.triangle_count() {
            let face = mesh.face_normal(t);
            let authored = mesh.corners[t * 3].normal.unwrap();
            if face.dot(authored) > 0.0 {
                agree += 1;
            }
        }
        assert_eq!(agree, mesh.triangle_count(), "{rel}: winding vs normals");
    }
    let model = load(&dir, "pet/puppet_v13.pet");
    let cape = model
        .materials
        .iter()
        .find(|m| m.name == "puppet_cape.jpg")
        .unwrap();
    let mask = &model.textures[cape.opacity.expect("mask companion found")];
    assert_eq!(mask.name, "puppet_cape_mask.jpg");
    assert_eq!(mask.role, TextureRole::Opacity);
    assert!(cape.double_sided);
    assert_eq!(cape.opacity_source, vitrine_core::model::AlphaSource::Red);
    let body = model
        .materials
        .iter()
        .find(|m| m.name == "puppet_body.jpg")
        .unwrap();
    assert!(body.opacity.is_none() && !body.double_sided);
}

#[vitrine_test(shared)]
fn cpu_skinning_rest_and_frame_25() {
    let dir = common::synthetic();
    for rel in [
        "pet/puppet_v11.pet",
        "pet/puppet_v13.pet",
        "pet/kuma_body.mpet",
        "pet/chain260.pet",
    ] {
        let model = load(&dir, rel);
        let rest = skin_positions(&model, 0, &Pose::rest(&model));
        for (i, (a, b)) in rest.iter().zip(&model.meshes[0].points).enumerate() {
            assert!(
                a.abs_diff_eq(*b, 1e-4),
                "{rel} vertex {i}: rest skinning moved it"
            );
        }
    }
    let model = load(&dir, "pet/puppet_v13.pet");
    let head = bone(&model, "Bip01 Head");
    let rest = Pose::rest(&model);
    let pose = Pose::sample(&model, Some(0), 25.0 / 30.0, 0);
    let posed = skin_positions(&model, 0, &pose);
    let mesh = &model.meshes[0];
    let skin = &model.skins[mesh.skin.unwrap()];
    let follow = pose.world[head] * rest.world[head].inverse();
    let mut head_only = 0;
    for (i, inf) in mesh.influences.iter().enumerate() {
        if skin.joints[inf.joints[0] as usize] == head && inf.weights[0] == 1.0 {
            head_only += 1;
            let want = follow.transform_point3(mesh.points[i]);
            assert!(
                posed[i].abs_diff_eq(want, 1e-4),
                "vertex {i} follows the head"
            );
            assert!(posed[i].distance(mesh.points[i]) > 0.01, "vertex {i} moved");
        }
    }
    assert!(
        head_only >= 4,
        "the head has its own vertices ({head_only})"
    );
}

fn expected_kinds(code: &str) -> &'static [ErrorKind] {
    match code {
        "truncated" => &[ErrorKind::Truncated],
        "count_too_large" => &[ErrorKind::CountTooLarge],
        "section_past_eof" => &[ErrorKind::SectionPastEof],
        "bone_cycle" => &[ErrorKind::BoneCycle],
        "index_out_of_range" => &[ErrorKind::IndexOutOfRange],
        "empty_file" => &[ErrorKind::EmptyFile],
        "non_finite_float" => &[ErrorKind::NonFiniteFloat],
        "unsupported_version" => &[ErrorKind::UnsupportedVersion],
        "no_geometry" => &[ErrorKind::Missing],
        "bad_weights" => &[ErrorKind::BadValue],
        other => panic!("no ErrorKind mapped for manifest code {other}"),
    }
}

#[vitrine_test(shared)]
fn bad_files_fail_with_the_expected_kind_and_offset() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let bad: Vec<_> = m["bad"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| k.starts_with("bad/pet_"))
        .collect();
    assert_eq!(bad.len(), 19);
    for (rel, b) in bad {
        let mut allowed: Vec<ErrorKind> = expected_kinds(b["error"].as_str().unwrap()).to_vec();
        for a in b["also_acceptable"].as_array().into_iter().flatten() {
            allowed.extend_from_slice(expected_kinds(a.as_str().unwrap()));
        }
        let result = common::load_path(&dir.join(rel), &as_stored());
        match (b["severity"].as_str().unwrap(), result) {
            ("invalid", Ok(model)) => assert!(
                !model.diagnostics.is_empty(),
                "{rel}: loaded leniently, so it must warn"
            ),
            (_, Err(e)) => {
                assert!(
                    allowed.contains(&e.kind),
                    "{rel}: {:?} not in {allowed:?}: {e}",
                    e.kind
                );
                let whole_file = matches!(e.kind, ErrorKind::EmptyFile | ErrorKind::Missing);
                assert!(
                    whole_file || matches!(e.location, Location::Offset(_)),
                    "{rel}: error without an offset: {e}"
                );
                assert!(
                    e.to_string().starts_with(rel.trim_start_matches("bad/")),
                    "{e}"
                );
            }
            (sev, Ok(_)) => panic!("{rel} ({sev}) loaded without an error"),
        }
    }
}

#[vitrine_test(shared)]
fn mutated_files_never_panic() {
    // 12 000 deterministic mutations of real files: byte flips, count-sized writes and
    // truncations. Every one must return (Ok or Err) without panicking.
    let dir = common::synthetic();
    let sources = [
        "pet/puppet_v13.pet",
        "pet/puppet_v10.pet",
        "pet/kuma_body.mpet",
        "pet/kuma_motion.apet",
    ];
    let mut rng = common::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next();
    let mut variants = 0;
    for src in sources {
        let bytes = std::fs::read(dir.join(src)).unwrap();
        let name = Path::new(src).file_name().unwrap().to_str().unwrap();
        for _ in 0..3000 {
            let mut b = bytes.clone();
            match next() % 4 {
                0 => {
                    let i = (next() as usize) % b.len();
                    b[i] ^= 1 << (next() % 8);
                }
                1 => {
                    let i = (next() as usize) % (b.len() - 4);
                    let v =
                        [0u32, 0xFF, 0xFE, 0xFFFF, 0xFFFF_FFFF, 0x7FFF_FFFF][next() as usize % 6];
                    b[i..i + 4].copy_from_slice(&v.to_le_bytes());
                }
                2 => b.truncate((next() as usize) % b.len()),
                _ => {
                    let i = (next() as usize) % b.len();
                    b[i] = next() as u8;
                    let j = (next() as usize) % b.len();
                    b[j] = 0xFE;
                }
            }
            let _ = formats::parse(
                vitrine_core::model::Format::Pet,
                &b,
                name,
                &Default::default(),
            )
            .map(|m| {
                m.validate()
                    .unwrap_or_else(|e| panic!("{src} mutation gave an invalid model: {e}"))
            });
            variants += 1;
        }
    }
    assert_eq!(variants, 12_000);
}
