//! `vitrine info --json` on the synthetic PET, TPM and PMF samples, through the command
//! line's own argument parser and JSON writer, against their MANIFEST.json: the file's
//! axes, `--world`, `--at`, `--vertices` and the PMF reading flags. (The loaders' own
//! facts are the core's tests, crates/core/tests/core/*_synthetic.rs.)

use crate::common;

use clap::Parser;
use glam::{Mat4, Vec3};
use serde_json::Value;
use std::path::Path;
use vitrine::cli::info::model_json;
use vitrine::cli::{Cli, Command};
use vitrine::formats::pet::PetRotations;
use vitrine::formats::{LoadOptions, load_path};
use vitrine::model::Model;
use vitrine_test_needs::vitrine_test;

fn manifest(dir: &Path) -> Value {
    common::manifest(dir)
}

fn load(path: &Path, options: &LoadOptions) -> Model {
    load_path(path, options).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The synthetic PET samples hold for the plain reading of ANIM rotations.
fn pet_as_stored() -> LoadOptions {
    LoadOptions {
        pet_rotations: PetRotations::AsStored,
        ..LoadOptions::default()
    }
}

fn v3(v: &Value) -> Vec3 {
    Vec3::from(common::manifest_xyz(v))
}

fn close(got: Vec3, want: Vec3, tol: f32, what: &str) {
    assert!(
        got.abs_diff_eq(want, tol),
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

#[vitrine_test(shared)]
fn pet_info_json_reports_file_axes_world_and_vertices() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let f = &m["files"]["pet/puppet_v13.pet"];
    let gt = &f["ground_truth"];
    let path = dir.join("pet/puppet_v13.pet");
    let model = load(&path, &pet_as_stored());
    let args = vitrine::cli::info::InfoArgs {
        files: vec![path.clone()],
        json: true,
        world: true,
        at: Some("puppet_v13:25".into()),
        vertices: true,
        ..Default::default()
    };
    let j = vitrine::cli::info::model_json(&model, &path, &args).unwrap();
    assert_eq!(j["axes"], "y-up left-handed");
    assert_eq!(j["pet"]["kind"], "pet");
    let head = j["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "Bip01 Head")
        .unwrap();
    let w: Vec<f32> = head["world"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    let origin = Mat4::from_cols_slice(&w).transform_point3(Vec3::ZERO);
    close(
        origin,
        v3(&gt["head_bone_model_origin_frame25"]),
        1e-3,
        "info --world --at",
    );
    let positions = j["meshes"][0]["positions"].as_array().unwrap();
    for v in gt["vertices"].as_array().unwrap() {
        let i = v["vertex"].as_u64().unwrap() as usize;
        close(
            v3(&positions[i]),
            v3(&v["rest_model_position"]),
            1e-3,
            "info --vertices",
        );
    }
    let clip = &j["clips"][0];
    assert_eq!(clip["motions"][1]["name"], "walk");
    assert_eq!(clip["events"][2]["text"], "*msg(\"발소리\")");
    // Then one clip per motion, events relative to the motion's first frame.
    let clips = j["clips"].as_array().unwrap();
    let motions = f["motions"].as_array().unwrap();
    assert_eq!(
        clips.len(),
        1 + motions.len(),
        "the timeline plus each motion"
    );
    let fram: Vec<u64> = f["fram_frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let scripts = f["fram_scripts"].as_array().unwrap();
    for (got, want) in clips[1..].iter().zip(motions) {
        let (start, end) = (
            want["start"].as_u64().unwrap(),
            want["end"].as_u64().unwrap(),
        );
        assert_eq!(got["name"], want["name"]);
        assert_eq!(got["frames"].as_u64().unwrap(), end - start + 1);
        assert_eq!(got["fps"].as_f64().unwrap(), 30.0);
        let events: Vec<(u64, &str)> = got["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["frame"].as_u64().unwrap(), e["text"].as_str().unwrap()))
            .collect();
        let want_events: Vec<(u64, &str)> = fram
            .iter()
            .zip(scripts)
            .filter(|(f, _)| (start..=end).contains(*f))
            .map(|(f, t)| (f - start, t.as_str().unwrap()))
            .collect();
        assert_eq!(events, want_events, "{} events", want["name"]);
    }
    // The walk motion holds all three FRAM events (30, 50, 55 → 10, 30, 35).
    assert_eq!(clips[2]["events"].as_array().unwrap().len(), fram.len());
    // --at accepts a motion name: walk:5 is frame 25 of the timeline.
    let (clip, t) = vitrine::cli::info::parse_at(&model, "walk:5").unwrap();
    assert_eq!((clip, t), (0, 25.0 / 30.0));
}

#[vitrine_test(shared)]
fn tpm_info_json_reports_file_axes_world_and_vertices() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let gt = &m["files"]["tpm/lab_scene.tpm"]["ground_truth"];
    let path = dir.join("tpm/lab_scene.tpm");
    let model = load(&path, &LoadOptions::default());
    let args = vitrine::cli::info::InfoArgs {
        files: vec![path.clone()],
        json: true,
        world: true,
        at: None,
        vertices: true,
        ..Default::default()
    };
    let j = vitrine::cli::info::model_json(&model, &path, &args).unwrap();
    assert_eq!(j["format"], "tpm");
    assert_eq!(j["axes"], "z-up right-handed");
    assert_eq!(j["tpm"]["fileinfo"]["formatversion"], "1.0.1");
    assert_eq!(j["tpm"]["fileinfo"]["name"], "lab_scene.max");
    let crate02 = j["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "Crate02")
        .unwrap();
    let cols: Vec<f32> = crate02["world"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    let world = Mat4::from_cols_slice(&cols);
    let mesh = j["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "CrateBox")
        .unwrap();
    let tol = gt["tolerance"].as_f64().unwrap() as f32;
    for (p, want) in mesh["positions"]
        .as_array()
        .unwrap()
        .iter()
        .zip(gt["instance2_all_vertices_world"].as_array().unwrap())
    {
        let got = world.transform_point3(v3(p));
        assert!(got.abs_diff_eq(v3(want), tol), "{got} vs {want}");
    }
}

/// `vitrine info --json <args> <file>` through the CLI's own argument parser and JSON
/// writer (in-process: the shared build folder's binary may belong to another branch).
fn info_json(args: &[&str], file: &Path) -> Value {
    let mut argv = vec!["vitrine", "info", "--json"];
    argv.extend_from_slice(args);
    let file_arg = file.to_string_lossy().into_owned();
    argv.push(&file_arg);
    let cli = Cli::try_parse_from(&argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
    let Some(Command::Info(info)) = cli.command else {
        panic!("{argv:?} is not an info command");
    };
    let model = load(file, &info.load_options());
    model_json(&model, file, &info).expect("JSON")
}

fn json_origin(v: &Value, name: &str) -> Vec3 {
    let n = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no node {name}"));
    let w = n["world"].as_array().expect("--world adds world");
    v3(&Value::Array(w[12..15].to_vec()))
}

#[vitrine_test(shared)]
fn pmf_info_json_world_at_walk_4_and_flags() {
    let dir = common::synthetic();
    let truth = &manifest(&dir)["files"]["pmf/robot.pmf"]["ground_truth"];
    let tol = truth["tolerance"].as_f64().unwrap() as f32;
    let robot = dir.join("pmf/robot.pmf");

    let v = info_json(&["--world", "--at", "walk:4"], &robot);
    assert_eq!(v["format"], "pmf");
    assert_eq!(v["nodes"].as_array().unwrap().len(), 11);
    assert_eq!(v["nodes"][2]["parent"], 1, "head's parent is the torso");
    assert_eq!(v["meshes"][2]["name"], "head");
    assert_eq!(v["meshes"][2]["node"], 2);
    let walk = &v["clips"][0];
    assert_eq!(walk["name"], "walk");
    assert_eq!(walk["keyframes"], serde_json::json!([0, 4, 8, 12]));
    let events: Vec<&Value> = walk["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["frame"])
        .collect();
    assert_eq!(events, [4, 12]);
    assert_eq!(v["pmf"]["options"]["units"], "degrees");
    assert_eq!(v["pmf"]["options"]["euler"], "xyz");
    assert_eq!(v["pmf"]["options"]["root"], "replace");
    for (name, want) in truth["piece_origins_world_walk_frame4"]
        .as_object()
        .unwrap()
    {
        close(
            json_origin(&v, name),
            v3(want),
            tol,
            &format!("json {name}"),
        );
    }
    let rest = info_json(&["--world"], &robot);
    close(
        json_origin(&rest, "head"),
        v3(&truth["head_origin_world_rest"]),
        tol,
        "json rest head",
    );

    let wrong = &truth["wrong_interpretations_head_walk_frame4"];
    for (flags, key) in [
        (["--pmf-units", "radians"], "radians"),
        (["--pmf-euler", "zyx"], "zyx"),
        (["--pmf-root", "add"], "root_added"),
    ] {
        let mut args = vec!["--world", "--at", "walk:4"];
        args.extend(flags);
        let v = info_json(&args, &robot);
        close(json_origin(&v, "head"), v3(&wrong[key]), tol, key);
        let opt = flags[0].trim_start_matches("--pmf-");
        assert_eq!(v["pmf"]["options"][opt], flags[1], "{key}");
    }

    // --vertices: mesh-local positions; the crate piece is unrotated at rest, so its
    // first vertex in the world is its origin plus the local position.
    let crate_truth = &manifest(&dir)["files"]["pmf/crate.pmf"]["ground_truth"];
    let v = info_json(&["--vertices"], &dir.join("pmf/crate.pmf"));
    let first = v3(&v["meshes"][0]["positions"][0]);
    close(
        first + v3(&crate_truth["piece_origin_world_rest"]),
        v3(&crate_truth["first_vertex_world_rest"]),
        1e-4,
        "crate first vertex via --vertices",
    );
}
