//! `vitrine convert` through the binary: a glTF `vitrine export` made of a PIE comes back
//! at the PIE's size, and a page found nowhere refuses the write with the way out
//! (`--pack` for a page the model holds, `--data` for one it does not).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn vitrine(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(args)
        // The viewer's saved team must not leak in from the machine's settings.
        .env(
            "VITRINE_CONFIG_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("convert-cli-config"),
        )
        .output()
        .expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fixtures() -> PathBuf {
    common::fixtures().join("pie")
}

/// `vitrine export cube.pie -o cube.glb`: the glTF with the page packed inside.
fn exported_cube(dir: &Path) -> PathBuf {
    let glb = dir.join("cube.glb");
    let o = vitrine(&[
        "export".as_ref(),
        fixtures().join("cube.pie").as_os_str(),
        "-o".as_ref(),
        glb.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    glb
}

/// The points of the PIE at `path`, as the loader reads them, in thousandths, sorted (a
/// glTF trip may number them otherwise).
fn points(path: &Path) -> Vec<[i64; 3]> {
    let model = vitrine::formats::load_path(path, &Default::default()).expect("loads");
    let mut p: Vec<[i64; 3]> = model
        .meshes
        .iter()
        .flat_map(|m| &m.points)
        .map(|p| p.to_array().map(|v| (v * 1000.0).round() as i64))
        .collect();
    p.sort();
    p
}

/// PIE → glTF → PIE keeps the model's size: the glTF reader undoes the export's 1/128,
/// so the writer must not scale by 128 again (it did: a tank 128 times too large).
#[test]
fn a_glb_exported_from_a_pie_converts_back_at_the_pies_size() {
    let tmp = common::temp_dir("convert-size");
    let glb = exported_cube(tmp.path());
    let back = tmp.path().join("cube2.pie");
    let o = vitrine(&[
        "convert".as_ref(),
        glb.as_os_str(),
        "-o".as_ref(),
        back.as_os_str(),
        "--data".as_ref(),
        fixtures().as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(points(&back), points(&fixtures().join("cube.pie")));
}

/// A page the data roots lack refuses the write and names how to succeed; doing what
/// it says succeeds.
#[test]
fn a_page_found_nowhere_names_the_way_out() {
    let tmp = common::temp_dir("convert-way-out");
    // The page is inside the .glb: --pack writes it where the game reads pages.
    let glb = exported_cube(tmp.path());
    let out = tmp.path().join("mod/components/bodies/cube.pie");
    let o = vitrine(&[
        "convert".as_ref(),
        glb.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pie/texture-missing"), "{err}");
    let texpages = tmp.path().join("mod/texpages");
    assert!(
        err.contains(&format!(
            "--pack copies page-90-fixture.png from cube.glb into {}",
            texpages.display()
        )),
        "{err}"
    );
    assert!(err.contains("--data ROOT"), "{err}");
    assert!(!out.exists());
    let o = vitrine(&[
        "convert".as_ref(),
        glb.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--pack".as_ref(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.is_file() && texpages.join("page-90-fixture.png").is_file());

    // A PIE away from its pages holds no image: only --data can help.
    let lone = tmp.path().join("lone/cube.pie");
    std::fs::create_dir_all(lone.parent().unwrap()).unwrap();
    std::fs::copy(fixtures().join("cube.pie"), &lone).unwrap();
    let out = tmp.path().join("lone-out/cube.pie");
    let o = vitrine(&[
        "convert".as_ref(),
        lone.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "--data ROOT names the mod or game data whose texpages/ has page-90-fixture.png"
        ),
        "{err}"
    );
    assert!(
        !err.contains("--pack copies"),
        "the model has no image to pack: {err}"
    );
    let o = vitrine(&[
        "convert".as_ref(),
        lone.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--data".as_ref(),
        fixtures().as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}
