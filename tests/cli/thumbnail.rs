//! `vitrine thumbnail INPUT OUTPUT SIZE`, the file managers' thumbnailer, through the
//! binary: a square PNG of the model; nothing written on failure or when the time budget
//! runs out; the `.thumbnailer` file's `Exec` line is the command this tests.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};
use vitrine_test_needs::vitrine_test;

fn thumbnail(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .arg("thumbnail")
        .args(args)
        .output()
        .unwrap()
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pie")
        .join(name)
}

/// The files in `dir`, by name.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

#[vitrine_test(gpu)]
fn a_model_becomes_a_square_png_with_a_transparent_background() {
    let tmp = common::temp_dir("thumbnail-ok");
    let out = tmp.path().join("thumb.png");
    let o = thumbnail(&[
        fixture("cube.pie").as_os_str(),
        out.as_os_str(),
        "96".as_ref(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let img = image::open(&out).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (96, 96));
    let opaque = img.pixels().filter(|p| p[3] == 255).count();
    assert!(img.get_pixel(0, 0)[3] == 0, "the corner is background");
    assert!(
        opaque > 96 * 96 / 20,
        "the model covers the picture: {opaque} pixels"
    );
    assert_eq!(names(tmp.path()), ["thumb.png"], "no temporary file left");
}

#[test]
fn a_broken_model_writes_nothing_and_exits_1() {
    let tmp = common::temp_dir("thumbnail-bad");
    let input = tmp.path().join("broken.pie");
    std::fs::write(&input, "PIE 3\nTYPE 200\nPOINTS 99\n").unwrap();
    let out = tmp.path().join("thumb.png");
    let o = thumbnail(&[input.as_os_str(), out.as_os_str(), "64".as_ref()]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("vitrine thumbnail: "));
    assert_eq!(names(tmp.path()), ["broken.pie"]);
}

#[vitrine_test(gpu)]
fn the_time_budget_ends_the_process_and_writes_nothing() {
    let tmp = common::temp_dir("thumbnail-timeout");
    let out = tmp.path().join("thumb.png");
    let start = std::time::Instant::now();
    let o = thumbnail(&[
        fixture("cube.pie").as_os_str(),
        out.as_os_str(),
        "64".as_ref(),
        "--timeout".as_ref(),
        "0.001".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("gave up after"),
        "{o:?}"
    );
    assert!(start.elapsed().as_secs() < 5);
    assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
}

#[test]
fn the_thumbnailer_file_runs_this_command_for_the_model_types() {
    let file = vitrine::desktop::THUMBNAILER;
    assert!(
        file.contains("\nExec=vitrine thumbnail %i %o %s\n"),
        "{file}"
    );
    let types = file
        .lines()
        .find_map(|l| l.strip_prefix("MimeType="))
        .unwrap();
    for t in vitrine::desktop::mime_types()
        .into_iter()
        .filter(|t| !vitrine::desktop::STANDARD_TYPES.contains(t))
    {
        assert!(types.split(';').any(|x| x == t), "{t} not in {types}");
    }
    assert!(types.contains("application/x-warzone2100-wz;"), "{types}");
}
