//! Inputs as a modder's folders really are, through the real binary: links that loop,
//! files that cannot be read, two models sharing a stem, models inside `.wz` archives
//! with their textures in a lower data root.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vitrine_test_needs::vitrine_test;

fn vitrine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(args)
        .output()
        .expect("run vitrine")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn is_root() -> bool {
    // Root reads any file whatever its mode; the unreadable-file case then cannot happen.
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A folder with one model as `a.pie` and one as `a.tpm` (same stem), a link to itself
/// (`loop`) and to its parent (`sub/up`), a broken link, a FIFO with a model's name and a
/// file without read permission.
#[cfg(unix)]
fn hostile_folder(dir: &Path) {
    let fixtures = common::fixtures();
    std::fs::copy(fixtures.join("pie/cube.pie"), dir.join("a.pie")).unwrap();
    std::fs::copy(fixtures.join("tpm/spec_examples.tpm"), dir.join("a.tpm")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("loop")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("sub/up")).unwrap();
    std::os::unix::fs::symlink("nowhere.pie", dir.join("gone.pie")).unwrap();
    let fifo = dir.join("pipe.pie");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let locked = dir.join("locked.pie");
    std::fs::copy(fixtures.join("pie/cube.pie"), &locked).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
}

#[cfg(unix)]
#[test]
fn info_reports_each_input_once_and_each_unreadable_entry() {
    let tmp = tempfile::tempdir().unwrap();
    hostile_folder(tmp.path());
    let dir = tmp.path().to_str().unwrap();
    let out = vitrine(&["info", "--json", dir]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let by_name = |n: &str| {
        lines
            .iter()
            .filter(|l| l["path"].as_str().unwrap().ends_with(n))
            .collect::<Vec<_>>()
    };
    // Each model once: the loop and the parent link are not followed.
    assert_eq!(by_name("a.pie").len(), 1, "{lines:?}");
    assert_eq!(by_name("a.tpm").len(), 1);
    assert!(by_name("a.pie")[0]["error"].is_null());
    assert!(by_name("a.tpm")[0]["error"].is_null());
    let error_of = |n: &str| by_name(n)[0]["error"].as_str().unwrap_or("").to_string();
    assert!(error_of("gone.pie").contains("broken link"), "{lines:?}");
    assert!(
        error_of("pipe.pie").contains("not a regular file"),
        "{lines:?}"
    );
    if !is_root() {
        assert!(error_of("locked.pie").contains("ermission"), "{lines:?}");
    }
    assert_eq!(
        lines.len(),
        5,
        "a.pie, a.tpm, gone, pipe, locked: {lines:?}"
    );
    assert!(text(&out).contains("not followed"), "{}", text(&out));
}

#[cfg(unix)]
#[vitrine_test(gpu)]
fn render_gives_stem_sharing_inputs_their_own_pictures() {
    let tmp = tempfile::tempdir().unwrap();
    hostile_folder(tmp.path());
    let outdir = tempfile::tempdir().unwrap();
    let out = vitrine(&[
        "render",
        tmp.path().to_str().unwrap(),
        "-o",
        outdir.path().to_str().unwrap(),
        "--size",
        "64x64",
    ]);
    let code = out.status.code();
    if code == Some(3) {
        common::no_gpu(&text(&out));
    }
    assert_eq!(code, Some(1), "{}", text(&out));
    let mut names: Vec<String> = std::fs::read_dir(outdir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want = vec!["a.pie.png", "a.tpm.png"];
    if is_root() {
        want.push("locked.png");
    }
    assert_eq!(names, want, "{}", text(&out));
    let t = text(&out);
    assert!(t.contains("gone.pie") && t.contains("pipe.pie"), "{t}");
}

#[test]
fn an_empty_folder_says_so_and_fails() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("notes.txt"), "x").unwrap();
    let out = vitrine(&["info", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("no model files found under"),
        "{}",
        text(&out)
    );
}

/// A mod archive: nested, mixed-case folders, an entry that tries to leave the archive,
/// and a model whose texture page is only in a lower data root.
fn mod_archive(dir: &Path) -> PathBuf {
    let wz = dir.join("mod.wz");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&wz).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    let cube = std::fs::read(common::fixtures().join("pie/cube.pie")).unwrap();
    for (name, bytes) in [
        ("Components/Bodies/Cube.PIE", cube.as_slice()),
        ("structs/deep/inner/cube2.pie", cube.as_slice()),
        ("../escape.pie", cube.as_slice()),
        ("readme.txt", b"not a model".as_slice()),
    ] {
        z.start_file(name, opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
    wz
}

#[test]
fn archives_are_walked_and_entries_addressed_with_their_textures_in_a_lower_root() {
    let tmp = tempfile::tempdir().unwrap();
    let wz = mod_archive(tmp.path());
    let base = common::fixtures().join("pie");
    let out = vitrine(&["info", "--json", wz.to_str().unwrap()]);
    let t = text(&out);
    // The `..` entry is reported, never read; the two models are.
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("escape.pie") && t.contains("leaves the archive"),
        "{t}"
    );
    assert!(t.contains("mod.wz!/Components/Bodies/Cube.PIE"), "{t}");
    assert!(t.contains("mod.wz!/structs/deep/inner/cube2.pie"), "{t}");

    // One entry, any case, with the lower layer as a data root: its texture is found.
    let entry = format!("{}!/components/bodies/cube.pie", wz.display());
    let without = vitrine(&["info", "--json", &entry]);
    let with = vitrine(&["info", "--json", &entry, "--data", base.to_str().unwrap()]);
    assert_eq!(with.status.code(), Some(0), "{}", text(&with));
    let json = |o: &Output| -> serde_json::Value {
        serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().next().unwrap()).unwrap()
    };
    assert_eq!(json(&without)["textures"][0]["resolved"], false);
    assert_eq!(json(&with)["textures"][0]["resolved"], true);
}

/// `--version` names the commit checked out here (what a bug report must say), or
/// "unknown" where git cannot tell, and the day of the build.
#[test]
fn version_names_the_commit_and_the_day_of_the_build() {
    let out = vitrine(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let t = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let head = Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let commit = std::env::var("VITRINE_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or(head)
        .unwrap_or_else(|| "unknown".into());
    let prefix = format!(
        "vitrine {} (commit {commit}, built ",
        env!("CARGO_PKG_VERSION")
    );
    let date = t
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{t:?} is not {prefix:?}YYYY-MM-DD)"));
    let digits: Vec<&str> = date.split('-').collect();
    assert!(
        digits.len() == 3
            && [4, 2, 2].iter().zip(&digits).all(|(n, d)| d.len() == *n)
            && digits.iter().all(|d| d.bytes().all(|b| b.is_ascii_digit()))
            && date > "2025-01-01",
        "the day of the build: {date:?}"
    );
}

#[test]
fn completions_and_help_document_the_exit_codes() {
    let help = vitrine(&["--help"]);
    let t = text(&help);
    assert!(
        t.contains("Exit codes") && t.contains("3  no GPU adapter"),
        "{t}"
    );
    assert!(t.contains("!/"), "the archive syntax is documented: {t}");
    let bash = vitrine(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&bash.stdout).contains("complete -F"));
    let usage = vitrine(&["info"]);
    assert_eq!(usage.status.code(), Some(2), "a usage error is 2");
}
