//! `vitrine info` as a user runs it: the real binary, its JSON lines and exit status.

use crate::common;

use std::process::Command;
use vitrine_test_needs::vitrine_test;

fn info(args: &[&str], dir: &std::path::Path) -> (i32, Vec<serde_json::Value>) {
    let out = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .arg("info")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run vitrine");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (out.status.code().unwrap_or(-1), lines)
}

/// Run inside the model's own folder with a bare file name, the texture pages two folders
/// up (`data/base/texpages`) are still found.
#[vitrine_test(shared)]
fn bare_file_name_in_the_models_folder_finds_texpages_above() {
    let wz = common::wz2100();
    let dir = wz.join("data/base/components/bodies");
    let (code, lines) = info(&["--json", "drtrans.pie"], &dir);
    assert_eq!(code, 0);
    let textures = lines[0]["textures"].as_array().expect("textures");
    assert!(!textures.is_empty());
    assert!(
        textures.iter().all(|t| t["resolved"] == true),
        "{textures:?}"
    );
}

/// The whole corpus through the CLI: one JSON line per file, none failed, exit 0; a
/// broken file among them makes the exit status non-zero and names its line.
#[vitrine_test(shared)]
fn corpus_json_lines_and_exit_status() {
    let wz = common::wz2100();
    let (code, lines) = info(&["--json", "."], &wz);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 855);
    assert!(lines.iter().all(|l| l.get("error").is_none()));
    assert!(lines.iter().all(|l| l["format"] == "pie"));

    let broken = common::fixtures().join("pie");
    let tmp = common::temp_dir("info-bad");
    let bad = tmp.path().join("bad.pie");
    std::fs::write(
        &bad,
        "PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 1\n0 0 0\nPOLYGONS 1\n200 3 0 1 2\n",
    )
    .unwrap();
    let (code, lines) = info(&["--json", bad.to_str().unwrap()], &broken);
    assert_eq!(code, 1);
    let err = lines[0]["error"].as_str().expect("error text");
    assert!(err.contains(":8:"), "{err}");
}

/// `vitrine info … | head`: the reader gone before the output is written ends the program
/// as SIGPIPE ends Unix tools, with no panic and no crash report.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_info_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let config = tempfile::tempdir().unwrap();
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/tank.pie");
    let mut child = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(["info", "--json"])
        .arg(&demo)
        .env("VITRINE_CONFIG_DIR", config.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once: the program's first write finds no reader.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panic"), "{err}");
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
    let reports = std::fs::read_dir(config.path()).unwrap().count();
    assert_eq!(reports, 0, "files written to the config folder");
}
