//! `vitrine check` on the command line: exit codes, compiler-style text, JSON lines,
//! SARIF read back by code scanning's rules of thumb, `--explain`, `--allow` and the
//! mod folder's `vitrine.toml`.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

fn vitrine(args: &[&str], cwd: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_vitrine"));
    c.arg("check").args(args);
    if let Some(d) = cwd {
        c.current_dir(d);
    }
    c.output().expect("runs")
}

fn fixture(name: &str) -> String {
    common::fixtures()
        .join("check/pie")
        .join(format!("{name}.pie"))
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn exit_codes() {
    // Clean: 0, even with --deny warnings.
    assert_eq!(vitrine(&[&fixture("clean")], None).status.code(), Some(0));
    let w = fixture("normals-count");
    assert_eq!(vitrine(&[&w], None).status.code(), Some(0));
    assert_eq!(
        vitrine(&[&w, "--deny", "warnings"], None).status.code(),
        Some(1)
    );
    // Allowing the rule clears the failure.
    let o = vitrine(
        &[&w, "--deny", "warnings", "--allow", "pie/normals-count"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Notes never fail.
    assert_eq!(
        vitrine(&[&fixture("pie2"), "--deny", "warnings"], None)
            .status
            .code(),
        Some(0)
    );
    // Errors: 2, with or without --deny.
    assert_eq!(vitrine(&[&fixture("version")], None).status.code(), Some(2));
    assert_eq!(
        vitrine(&[&w, &fixture("point-index")], None).status.code(),
        Some(2)
    );
    // A missing input is an error; so is an unknown rule.
    assert_eq!(
        vitrine(&["/nonexistent/x.pie"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        vitrine(&[&w, "--allow", "pie/nope"], None).status.code(),
        Some(2)
    );
}

#[test]
fn text_is_compiler_style_with_a_summary() {
    let o = vitrine(&[&fixture("normals-count"), &fixture("version")], None);
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{}:11: warning[pie/normals-count]: NORMALS 1 does not match POLYGONS 2",
            fixture("normals-count")
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("{}:1: error[pie/version]:", fixture("version"))),
        "{out}"
    );
    assert!(
        out.contains("checked 2 files: 1 error, 1 warning, 0 notes"),
        "{out}"
    );
}

#[test]
fn json_is_one_object_per_finding() {
    let o = vitrine(&[&fixture("normals-count"), "--json"], None);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let f = &lines[0];
    assert_eq!(f["rule"], "pie/normals-count");
    assert_eq!(f["level"], "warning");
    assert_eq!(f["line"], 11);
    assert_eq!(f["element"]["kind"], "node");
}

#[test]
fn sarif_reads_back_as_code_scanning_expects() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sarif");
    let o = vitrine(
        &[
            &fixture("normals-count"),
            &fixture("degenerate"),
            &fixture("version"),
            "--sarif",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    let log: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let rules = runs[0]["tool"]["driver"]["rules"].as_array().unwrap();
    let results = runs[0]["results"].as_array().unwrap();
    let mut levels: Vec<&str> = results
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    levels.sort();
    assert_eq!(levels, ["error", "note", "warning"]);
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(
            loc["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .ends_with(".pie")
        );
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1, "{r}");
    }
    let normals = results
        .iter()
        .find(|r| r["ruleId"] == "pie/normals-count")
        .unwrap();
    assert_eq!(
        normals["locations"][0]["physicalLocation"]["region"]["startLine"],
        11
    );
    // The typed structs read it back too.
    let typed: serde_sarif::sarif::Sarif =
        serde_json::from_slice(&std::fs::read(&out).unwrap()).expect("serde-sarif reads it");
    assert_eq!(typed.runs[0].results.as_ref().unwrap().len(), 3);
}

#[test]
fn explain_and_rules() {
    let o = vitrine(&["--explain", "pie/normals-count"], None);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("pie/normals-count (warning):"), "{out}");
    assert!(out.contains("Source: "), "{out}");
    assert_eq!(
        vitrine(&["--explain", "pie/nope"], None).status.code(),
        Some(2)
    );
    let o = vitrine(&["--rules"], None);
    assert!(stdout(&o).lines().count() >= vitrine::check::RULES.len());
}

#[test]
fn vitrine_toml_in_the_mod_folder() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("mod");
    std::fs::create_dir_all(m.join("components")).unwrap();
    std::fs::copy(fixture("normals-count"), m.join("components/a.pie")).unwrap();
    std::fs::copy(fixture("pie2"), m.join("components/b.pie")).unwrap();
    // The pages are found through `data`, relative to the config.
    let data = common::fixtures().join("check");
    std::fs::write(
        m.join("vitrine.toml"),
        format!(
            "allow = [\"pie/pie2\"]\ndata = [{:?}]\ndeny = \"warnings\"\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    let o = vitrine(&["mod"], Some(dir.path()));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        !out.contains("pie/pie2") && !out.contains("texture-missing"),
        "{out}"
    );
    assert!(out.contains("warning[pie/normals-count]"), "{out}");
    // Without flags, from inside the mod folder.
    let o = vitrine(&["."], Some(&m));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    std::fs::write(m.join("vitrine.toml"), "allow = [\"pie/bogus\"]\n").unwrap();
    let o = vitrine(&["mod"], Some(dir.path()));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("pie/bogus"));
}

/// The demo the viewer opens without a file, as `examples/make_demo.rs` writes it.
#[path = "../../examples/make_demo.rs"]
#[allow(dead_code)]
mod make_demo;

fn demo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo")
}

/// The bundled demo passes our own lint: no finding at all (it wrote polygon flags
/// `10200`, the 1999 tools' BSP bit the game ignores, and opened with two
/// `pie/polygon-flags` warnings in Checks).
#[test]
fn the_bundled_demo_passes_check_with_no_finding() {
    let tank = demo().join("tank.pie");
    let o = vitrine(
        &[tank.to_str().unwrap(), "--json", "--deny", "warnings"],
        None,
    );
    let findings: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(o.status.code(), Some(0), "{findings:?}");
    assert!(findings.is_empty(), "{findings:?}");
}

/// The demo in `assets/demo` is what `cargo run --example make_demo` writes: the PIE
/// text byte for byte, the page and the mask pixel for pixel.
#[test]
fn the_bundled_demo_is_what_its_writer_writes() {
    let text = std::fs::read_to_string(demo().join("tank.pie")).unwrap();
    assert!(
        text == make_demo::pie(),
        "assets/demo/tank.pie differs from examples/make_demo.rs: run `cargo run \
         --example make_demo`"
    );
    let (page, mask) = make_demo::textures();
    for (name, made) in [
        ("page-90-demo-tank.png", page),
        ("page-90_tcmask.png", mask),
    ] {
        let shipped = image::open(demo().join("texpages").join(name))
            .unwrap()
            .into_rgba8();
        assert!(shipped == made, "assets/demo/texpages/{name} differs");
    }
}
