//! `vitrine export` end to end through the binary: one file to `.glb` / `.gltf`, a folder
//! batch that reports a bad file and goes on, and the clear errors.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine_test_needs::vitrine_test;

fn vitrine() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_vitrine"));
    // The viewer's saved team must not leak in from the machine's settings.
    c.env(
        "VITRINE_CONFIG_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-cli-config"),
    );
    c
}

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("export-cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn glb_json(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap();
    let glb = gltf::binary::Glb::from_slice(&bytes).expect("a GLB file");
    serde_json::from_slice(&glb.json).unwrap()
}

#[vitrine_test(shared)]
fn one_file_with_team_clip_and_scale() {
    let syn = common::synthetic();
    let out = out_dir("one").join("robot.glb");
    let o = vitrine()
        .args(["export", "--clip", "wave", "--scale", "2"])
        .arg(syn.join("pmf/robot.pmf"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = glb_json(&out);
    let names: Vec<_> = json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].clone())
        .collect();
    assert_eq!(names, ["wave"]);
    assert_eq!(json["scenes"][0]["extras"]["scale"], 2.0);

    // An unknown clip names the ones there are; nothing is written.
    let bad = out.with_file_name("none.glb");
    let o = vitrine()
        .args(["export", "--clip", "dance"])
        .arg(syn.join("pmf/robot.pmf"))
        .arg("-o")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("dance") && err.contains("walk"), "{err}");
    assert!(!bad.exists());
}

#[vitrine_test(shared)]
fn gltf_output_writes_its_files_beside_it() {
    let syn = common::synthetic();
    let dir = out_dir("gltf");
    let o = vitrine()
        .arg("export")
        .arg(syn.join("tpm/lab_scene.tpm"))
        .arg("-o")
        .arg(dir.join("lab.gltf"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("lab.gltf")).unwrap()).unwrap();
    for img in json["images"].as_array().unwrap() {
        let uri = img["uri"].as_str().unwrap();
        assert!(dir.join(uri).is_file(), "{uri} beside the .gltf");
    }
    assert!(dir.join("lab.bin").is_file());
}

#[test]
fn folder_batch_reports_bad_files_and_goes_on() {
    let input = out_dir("batch-in");
    let fixtures = common::fixtures().join("pie");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(fixtures.join("cube.pie"), input.join("cube.pie")).unwrap();
    std::fs::copy(fixtures.join("events.pie"), input.join("sub/events.pie")).unwrap();
    std::fs::write(
        input.join("sub/broken.pie"),
        b"PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 999999\n",
    )
    .unwrap();
    let out = out_dir("batch-out");
    let o = vitrine()
        .args(["export", "--team", "red"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(out.join("cube.glb").is_file(), "{err}");
    assert!(out.join("sub/events.glb").is_file(), "{err}");
    assert!(!out.join("sub/broken.glb").exists());
    assert!(err.contains("2 of 3 models exported"), "{err}");
    assert!(err.contains("broken.pie"), "the failure is named: {err}");
    assert!(err.contains("[3/3]"), "progress: {err}");
    // The batch's threads write the same file as a single export (flushed or not).
    let single = out.join("single.glb");
    let o = vitrine()
        .args(["export", "--team", "red"])
        .arg(input.join("sub/events.pie"))
        .arg("-o")
        .arg(&single)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&single).unwrap(),
        std::fs::read(out.join("sub/events.glb")).unwrap(),
        "a batch exports a model as a single export does"
    );
}

#[test]
fn output_that_is_not_gltf_or_obj_is_refused() {
    let o = vitrine()
        .arg("export")
        .arg(common::fixtures().join("pie/cube.pie"))
        .arg("-o")
        .arg(out_dir("refuse").join("cube.fbx"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(".glb, .gltf or .obj"));
}

#[vitrine_test(shared)]
fn an_archive_entry_exports_with_textures_from_a_data_root() {
    let wz = common::wz2100();
    let entry = format!(
        "{}!/components/weapons/gnmrepr2.pie",
        wz.join("archives/mp.wz").display()
    );
    let dir = out_dir("archive");
    let with = vitrine()
        .args(["export", &entry, "-o"])
        .arg(dir.join("with.glb"))
        .arg("--data")
        .arg(wz.join("data/base"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&with.stderr);
    assert!(with.status.success(), "{err}");
    assert!(!err.contains("checkerboard"), "{err}");
    let json = glb_json(&dir.join("with.glb"));
    assert_eq!(
        json["images"].as_array().unwrap().len(),
        3,
        "baked page, the page itself (for the way back to PIE) and raw tcmask"
    );
    // Without the data root the page is missing: a checkerboard and a warning.
    let without = vitrine()
        .args(["export", &entry, "-o"])
        .arg(dir.join("without.glb"))
        .output()
        .unwrap();
    assert!(without.status.success());
    assert!(String::from_utf8_lossy(&without.stderr).contains("checkerboard"));
}
