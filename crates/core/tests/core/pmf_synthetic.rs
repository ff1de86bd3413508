//! Every PMF sample of `../shared/corpus/synthetic` against its `MANIFEST.json` facts:
//! names, parents, counts, animations, the ground-truth world positions (through the pose
//! sampler; `info --json --world --at` is the program's `tests/cli/info_synthetic.rs`), the misreadings the manifest
//! lists (reproduced by the matching settings), and every broken `bad/pmf_*` file.

use crate::common;

use glam::{Mat3, Vec3};
use serde_json::Value;
use std::path::{Path, PathBuf};
use vitrine_core::formats::pmf::{EulerOrder, PmfOptions, RootMode, RotationUnits};
use vitrine_core::formats::{ErrorKind, LoadOptions};
use vitrine_core::model::{Location, Model, Pose};
use vitrine_test_needs::vitrine_test;

fn manifest(dir: &Path) -> Value {
    common::manifest(dir)
}

fn v3(v: &Value) -> Vec3 {
    Vec3::from(common::manifest_xyz(v))
}

fn load(path: &Path, pmf: PmfOptions) -> Model {
    let options = LoadOptions {
        pmf,
        ..LoadOptions::default()
    };
    common::load_path(path, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn node(model: &Model, name: &str) -> usize {
    model
        .nodes
        .iter()
        .position(|n| n.name == name)
        .unwrap_or_else(|| panic!("no piece {name}"))
}

/// World origin of piece `name` at `frame` of `clip` (rest pose for `None`).
fn origin_at(model: &Model, name: &str, at: Option<(&str, f32)>) -> Vec3 {
    let pose = match at {
        Some((clip, frame)) => {
            let c = model.clip_index(clip).expect("clip");
            Pose::sample(model, Some(c), model.clips[c].frame_time(frame), 0)
        }
        None => Pose::rest(model),
    };
    pose.world[node(model, name)].transform_point3(Vec3::ZERO)
}

fn assert_close(got: Vec3, want: Vec3, tol: f32, what: &str) {
    assert!(
        got.abs_diff_eq(want, tol),
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

fn pmf_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir.join("pmf"))
        .expect("pmf folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pmf"))
        .collect();
    v.sort();
    v
}

#[vitrine_test(shared)]
fn every_sample_matches_the_manifest() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let files = pmf_files(&dir);
    assert!(
        files.len() >= 4,
        "expected the 4 PMF samples, found {files:?}"
    );
    for path in files {
        let rel = format!("pmf/{}", path.file_name().unwrap().to_string_lossy());
        let facts = &m["files"][&rel];
        assert!(facts.is_object(), "{rel} is not in MANIFEST.json");
        let model = load(&path, PmfOptions::default());
        assert_eq!(model.version, facts["version"], "{rel}");
        assert!(
            model.diagnostics.is_empty(),
            "{rel}: {:?}",
            model.diagnostics
        );

        let pieces = facts["pieces"].as_array().unwrap();
        assert_eq!(model.nodes.len(), pieces.len(), "{rel}: piece count");
        let names: Vec<&str> = model.nodes.iter().map(|n| n.name.as_str()).collect();
        let want: Vec<&str> = facts["names"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(names, want, "{rel}: names");
        let (mut vertices, mut triangles) = (0, 0);
        for (i, p) in pieces.iter().enumerate() {
            let n = &model.nodes[i];
            let parent = n.parent.map(|j| model.nodes[j].name.as_str());
            assert_eq!(parent, p["parent"].as_str(), "{rel}: parent of {}", n.name);
            assert_close(n.translation, v3(&p["translation"]), 1e-6, &n.name);
            let mesh = &model.meshes[n.mesh.expect("every piece has a mesh")];
            assert_eq!(mesh.points.len() as u64, p["vertices"].as_u64().unwrap());
            assert_eq!(
                mesh.triangle_count() as u64,
                p["triangles"].as_u64().unwrap()
            );
            vertices += mesh.points.len();
            triangles += mesh.triangle_count();
            // The details repeat the file's own numbers.
            let d = &model.details.to_json()["pieces"][i];
            assert_eq!(d["name"], p["name"], "{rel}");
            assert_eq!(d["parent"], p["parent"], "{rel}");
            assert_eq!(d["vertices"], p["vertices"], "{rel}");
            assert_eq!(d["translation"], p["translation"], "{rel}: as written");
        }
        assert_eq!(
            vertices as u64,
            facts["totals"]["vertices"].as_u64().unwrap()
        );
        assert_eq!(
            triangles as u64,
            facts["totals"]["triangles"].as_u64().unwrap()
        );

        let anims = facts["animations"].as_array().unwrap();
        assert_eq!(model.clips.len(), anims.len(), "{rel}: clips");
        for (clip, a) in model.clips.iter().zip(anims) {
            assert_eq!(clip.name, a["name"].as_str().unwrap(), "{rel}");
            assert_eq!(u64::from(clip.frame_count), a["frames"].as_u64().unwrap());
            assert_eq!(f64::from(clip.fps), a["fps"].as_f64().unwrap());
            assert_eq!(clip.looping, a["loop"].as_bool().unwrap());
            assert_eq!(serde_json::json!(clip.keyframes), a["keyframes"]);
            let events: Vec<u32> = clip.events.iter().map(|e| e.frame).collect();
            assert_eq!(serde_json::json!(events), a["event_frames"], "{rel}");
            // A rotation track per piece, a translation track on the root only.
            assert_eq!(clip.node_tracks.len(), model.nodes.len());
            for t in &clip.node_tracks {
                assert!(t.rotation.is_some());
                assert_eq!(
                    t.translation.is_some(),
                    model.nodes[t.node].parent.is_none()
                );
            }
        }
        for (d, a) in model.details.to_json()["animations"]
            .as_array()
            .unwrap()
            .iter()
            .zip(anims)
        {
            for key in ["name", "frames", "fps", "loop", "keyframes", "event_frames"] {
                assert_eq!(d[key], a[key], "{rel}: details {key}");
            }
        }
    }
}

#[vitrine_test(shared)]
fn long_and_garbage_padded_names() {
    let dir = common::synthetic();
    let model = load(&dir.join("pmf/long_name.pmf"), PmfOptions::default());
    assert_eq!(model.nodes[1].name.len(), 31);
    assert_eq!(model.nodes[1].name, "left_front_wheel_assembly_mount");
    assert_eq!(
        model.nodes[2].name, "arm",
        "bytes after the length are ignored"
    );
}

#[vitrine_test(shared)]
fn robot_ground_truth_rest_and_walk_frame_4() {
    let dir = common::synthetic();
    let truth = &manifest(&dir)["files"]["pmf/robot.pmf"]["ground_truth"];
    let tol = truth["tolerance"].as_f64().unwrap() as f32;
    let model = load(&dir.join("pmf/robot.pmf"), PmfOptions::default());
    let head = truth["head_piece"].as_str().unwrap();
    assert_close(
        origin_at(&model, head, None),
        v3(&truth["head_origin_world_rest"]),
        tol,
        "head at rest",
    );
    assert_close(
        origin_at(&model, head, Some(("walk", 4.0))),
        v3(&truth["head_origin_world_walk_frame4"]),
        tol,
        "head at walk 4",
    );
    for (key, at) in [
        ("piece_origins_world_rest", None),
        ("piece_origins_world_walk_frame4", Some(("walk", 4.0))),
    ] {
        let origins = truth[key].as_object().unwrap();
        assert_eq!(origins.len(), model.nodes.len());
        for (name, want) in origins {
            assert_close(
                origin_at(&model, name, at),
                v3(want),
                tol,
                &format!("{key} {name}"),
            );
        }
    }
    // The frame-4 local rotations are the stored degrees, X then Y then Z.
    let walk = model.clip_index("walk").unwrap();
    let pose = Pose::sample(&model, Some(walk), model.clips[walk].frame_time(4.0), 0);
    for (name, deg) in truth["walk_frame4_rotations_deg"].as_object().unwrap() {
        let d = v3(deg);
        let want = Mat3::from_rotation_z(d.z.to_radians())
            * Mat3::from_rotation_y(d.y.to_radians())
            * Mat3::from_rotation_x(d.x.to_radians());
        let got = Mat3::from_mat4(pose.local[node(&model, name)]);
        assert!(got.abs_diff_eq(want, 1e-5), "{name}: {got} vs {want}");
    }
    let pelvis = pose.local[0].transform_point3(Vec3::ZERO);
    assert_close(
        pelvis,
        v3(&truth["walk_frame4_root_position"]),
        tol,
        "root at walk 4",
    );
}

#[vitrine_test(shared)]
fn wrong_interpretations_are_what_the_settings_give() {
    let dir = common::synthetic();
    let truth = &manifest(&dir)["files"]["pmf/robot.pmf"]["ground_truth"];
    let tol = truth["tolerance"].as_f64().unwrap() as f32;
    let wrong = &truth["wrong_interpretations_head_walk_frame4"];
    let d = PmfOptions::default();
    let cases = [
        (
            "radians",
            PmfOptions {
                units: RotationUnits::Radians,
                ..d
            },
        ),
        (
            "zyx",
            PmfOptions {
                euler: EulerOrder::Zyx,
                ..d
            },
        ),
        (
            "root_added",
            PmfOptions {
                root: RootMode::Add,
                ..d
            },
        ),
    ];
    let right = v3(&truth["head_origin_world_walk_frame4"]);
    for (key, options) in cases {
        let model = load(&dir.join("pmf/robot.pmf"), options);
        let head = origin_at(&model, "head", Some(("walk", 4.0)));
        assert_close(head, v3(&wrong[key]), tol, key);
        assert!(
            !head.abs_diff_eq(right, 0.01),
            "{key} must differ from the default"
        );
        // The setting in use is reported.
        let o = &model.details.to_json()["options"];
        let shown = [o["units"].as_str(), o["euler"].as_str(), o["root"].as_str()];
        let want = [
            Some(options.units.name()),
            Some(options.euler.name()),
            Some(options.root.name()),
        ];
        assert_eq!(shown, want, "{key}");
    }
}

#[vitrine_test(shared)]
fn crate_and_tentacle_ground_truth() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let truth = &m["files"]["pmf/crate.pmf"]["ground_truth"];
    let tol = truth["tolerance"].as_f64().unwrap() as f32;
    let model = load(&dir.join("pmf/crate.pmf"), PmfOptions::default());
    let rest = Pose::rest(&model);
    assert_close(
        rest.world[0].transform_point3(Vec3::ZERO),
        v3(&truth["piece_origin_world_rest"]),
        tol,
        "crate origin",
    );
    assert_close(
        rest.world[0].transform_point3(model.meshes[0].points[0]),
        v3(&truth["first_vertex_world_rest"]),
        tol,
        "crate first vertex",
    );

    let truth = &m["files"]["pmf/tentacle.pmf"]["ground_truth"];
    let tol = truth["tolerance"].as_f64().unwrap() as f32;
    let model = load(&dir.join("pmf/tentacle.pmf"), PmfOptions::default());
    let tip = truth["tip_piece"].as_str().unwrap();
    let frame = truth["probe_frame"].as_f64().unwrap() as f32;
    assert_close(
        origin_at(&model, tip, None),
        v3(&truth["tip_origin_world_rest"]),
        tol,
        "tip rest",
    );
    let key = format!("tip_origin_world_frame{frame}");
    assert_close(
        origin_at(&model, tip, Some(("sway", frame))),
        v3(&truth[&key]),
        tol,
        &key,
    );
}

/// MANIFEST error code → the ErrorKind this loader reports for it.
fn kind_of(code: &str) -> ErrorKind {
    match code {
        "bad_magic" => ErrorKind::BadMagic,
        "bad_name_length" => ErrorKind::BadValue,
        "count_too_large" => ErrorKind::CountTooLarge,
        "empty_file" => ErrorKind::EmptyFile,
        "non_finite_float" => ErrorKind::NonFiniteFloat,
        "truncated" => ErrorKind::Truncated,
        other => panic!("no ErrorKind for fatal code {other}"),
    }
}

/// For `invalid` files: words the load warning must contain.
fn warning_of(code: &str) -> &'static str {
    match code {
        "trailing_data" => "after the last animation",
        "bad_vertex_count" => "not a multiple of 3",
        other => panic!("no warning for invalid code {other}"),
    }
}

#[vitrine_test(shared)]
fn every_bad_pmf_fails_or_warns_as_the_manifest_says() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let bad = m["bad"].as_object().unwrap();
    let on_disk = common::bad_files_on_disk(&dir, "pmf_");
    let listed: Vec<&String> = bad.keys().filter(|k| k.starts_with("bad/pmf_")).collect();
    assert_eq!(
        on_disk.iter().collect::<Vec<_>>(),
        listed,
        "bad/pmf_* on disk vs manifest"
    );
    assert!(listed.len() >= 16);
    for (rel, facts) in bad.iter().filter(|(k, _)| k.starts_with("bad/pmf_")) {
        let path = dir.join(rel);
        let code = facts["error"].as_str().unwrap();
        let result = common::load_path(&path, &LoadOptions::default());
        match facts["severity"].as_str().unwrap() {
            "fatal" => {
                let e = result.expect_err(rel);
                let mut allowed = vec![kind_of(code)];
                for alt in facts["also_acceptable"].as_array().into_iter().flatten() {
                    allowed.push(kind_of(alt.as_str().unwrap()));
                }
                assert!(
                    allowed.contains(&e.kind),
                    "{rel}: {:?} not in {allowed:?}: {e}",
                    e.kind
                );
                assert!(
                    matches!(e.location, Location::Offset(_)),
                    "{rel}: no offset: {e}"
                );
                assert!(e.to_string().contains(" @0x"), "{rel}: {e}");
            }
            "invalid" => {
                let model = result.unwrap_or_else(|e| panic!("{rel}: lenient load failed: {e}"));
                let want = warning_of(code);
                assert!(
                    model.diagnostics.iter().any(|d| {
                        matches!(d.location, Location::Offset(_)) && d.message.contains(want)
                    }),
                    "{rel}: no warning with {want:?}: {:?}",
                    model.diagnostics
                );
            }
            other => panic!("{rel}: unknown severity {other}"),
        }
    }
}

#[vitrine_test(shared)]
fn sidecar_png_becomes_the_texture() {
    let dir = common::synthetic();
    let tmp_guard = common::temp_dir("pmf-sidecar");
    let tmp = tmp_guard.path();
    let pmf = tmp.join("robot.pmf");
    std::fs::copy(dir.join("pmf/robot.pmf"), &pmf).unwrap();

    let plain = load(&pmf, PmfOptions::default());
    assert!(plain.textures.is_empty(), "no image, no texture");
    assert!(
        plain.diagnostics.is_empty(),
        "a missing sidecar is not a warning"
    );
    assert!(plain.materials.iter().all(|m| m.base.is_none()));

    std::fs::write(tmp.join("Robot.PNG"), b"not decoded here").unwrap();
    let textured = load(&pmf, PmfOptions::default());
    assert_eq!(textured.textures.len(), 1);
    assert_eq!(textured.textures[0].name, "robot.png");
    assert_eq!(
        textured.textures[0]
            .resolved
            .as_ref()
            .map(|p| p.file_name()),
        Some("Robot.PNG".to_string()),
        "found case-insensitively by formats::resolve"
    );
    assert!(textured.materials.iter().all(|m| m.base == Some(0)));
    assert_eq!(textured.details.to_json()["texture"], "robot.png");
}

#[vitrine_test(shared)]
fn ten_thousand_mutations_never_panic() {
    let dir = common::synthetic();
    let good = std::fs::read(dir.join("pmf/robot.pmf")).unwrap();
    let mut rng = common::Rng::new(0x9E37_79B9_7F4A_7C15);
    let specials: [[u8; 4]; 6] = [
        [0xff; 4],
        [0; 4],
        [0xff, 0xff, 0, 0],
        f32::NAN.to_le_bytes(),
        f32::INFINITY.to_le_bytes(),
        1e30f32.to_le_bytes(),
    ];
    let (mut ok, mut failed) = (0, 0);
    for variant in 0..10_000 {
        let mut b = good.clone();
        match variant % 4 {
            0 => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(b.len() - 4);
                b[i..i + 4].copy_from_slice(&specials[rng.below(specials.len())]);
            }
            2 => b.truncate(rng.below(b.len())),
            _ => {
                for _ in 0..1 + rng.below(8) {
                    let i = rng.below(b.len());
                    b[i] = rng.next() as u8;
                }
            }
        }
        match vitrine_core::formats::pmf::parse(&b, &PmfOptions::default()) {
            Ok(model) => {
                model
                    .validate()
                    .unwrap_or_else(|e| panic!("variant {variant}: invalid model: {e}"));
                ok += 1;
            }
            Err(e) => {
                assert!(
                    matches!(e.location, Location::Offset(o) if o <= b.len() as u64),
                    "variant {variant}: {e}"
                );
                failed += 1;
            }
        }
    }
    // Both outcomes must occur, or the mutations test nothing.
    assert!(ok > 100 && failed > 100, "{ok} loaded, {failed} failed");
    eprintln!("mutations: {ok} loaded, {failed} failed");
}
