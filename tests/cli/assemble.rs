//! `vitrine info --template` and `vitrine render --template / --body / --all-templates`
//! end to end through the binary, on the game's 4.3.3 data (`../shared/corpus/wz2100`).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine_test_needs::vitrine_test;

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

fn data_args(wz: &Path) -> Vec<PathBuf> {
    vec![
        "--data".into(),
        wz.join("data/mp"),
        "--data".into(),
        wz.join("data/base"),
    ]
}

#[vitrine_test(shared)]
fn info_json_lists_the_parts_with_files_nodes_and_positions() {
    let wz = common::wz2100();
    // By human name, against mp.wz over the base folder.
    let out = vitrine()
        .args([
            "info",
            "--json",
            "--template",
            "Machinegun Viper Wheels",
            "--data",
        ])
        .arg(wz.join("archives/mp.wz"))
        .arg("--data")
        .arg(wz.join("data/base"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["design"], "template:Machinegun Viper Wheels");
    let parts = v["assembly"]["parts"].as_array().unwrap();
    let roles: Vec<_> = parts.iter().map(|p| p["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["body", "propulsion", "weapon 1 mount", "weapon 1"]);
    let gun = &parts[3];
    assert_eq!(gun["model"], "GNLMG1.PIE");
    assert!(
        gun["file"]
            .as_str()
            .unwrap()
            .ends_with("components/weapons/gnlmg1.pie")
    );
    assert_eq!(gun["position"], serde_json::json!([0.0, 23.0, 10.0]));
    let node = gun["node"].as_u64().unwrap() as usize;
    assert_eq!(v["nodes"][node]["name"], "weapon 1");
    assert_eq!(v["nodes"][node + 1]["name"], "weapon 1: gnlmg1.pie");

    // An unknown template is an error naming it, exit code 1.
    let out = vitrine()
        .args(["info", "--template", "NoSuchDroid"])
        .args(data_args(&wz))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no template \"NoSuchDroid\""));
}

#[vitrine_test(shared, gpu)]
fn render_template_parts_and_all_templates() {
    let wz = common::wz2100();
    crate::common::needs_gpu();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("assemble-cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let one = dir.join("tracked.png");
    let status = vitrine()
        .args(["render", "--body", "Body14SUP", "--propulsion", "tracked01"])
        .args([
            "--weapon",
            "Missile-MdArt",
            "--weapon",
            "RailGun3Mk1",
            "--size",
            "96x96",
        ])
        .args(data_args(&wz))
        .arg("-o")
        .arg(&one)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        image::open(&one).unwrap().into_rgba8().dimensions(),
        (96, 96)
    );

    let all = dir.join("all");
    let out = vitrine()
        .args(["render", "--all-templates", "--size", "32x32"])
        .args(data_args(&wz))
        .arg("-o")
        .arg(&all)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("280 of 280 templates rendered"), "{err}");
    assert_eq!(std::fs::read_dir(&all).unwrap().count(), 280);
    assert!(all.join("ViperMG01Wheels.png").is_file());
}
