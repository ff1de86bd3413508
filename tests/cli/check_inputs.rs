//! `vitrine check`'s inputs as the command line gathers them (`cli::check::check_inputs`):
//! folders, a mod as a folder and as a `.wz` archive over a data root, broken stats, and
//! the shipped corpus without errors. (The rules on single files are the core's tests,
//! crates/core/tests/core/check_rules.rs.)

use crate::common;

use vitrine::check::{CheckOptions, Finding, Level};
use vitrine::files::FileRef;
use vitrine::model::Location;
use vitrine_test_needs::vitrine_test;

#[vitrine_test(shared)]
fn the_shipped_corpus_has_no_errors() {
    let wz = common::wz2100();
    let (findings, files) =
        vitrine::cli::check::check_inputs(std::slice::from_ref(&wz), CheckOptions::default());
    assert!(files >= 855, "{files} files");
    let errors: Vec<_> = findings
        .iter()
        .filter(|f| f.level == Level::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The archive over base: also clean of errors and of missing textures.
    let (findings, files) = vitrine::cli::check::check_inputs(
        &[wz.join("archives/mp.wz")],
        CheckOptions {
            data_roots: vec![FileRef::Disk(wz.join("data/base"))],
            allow: Vec::new(),
        },
    );
    assert!(files > 50, "{files}");
    assert!(
        findings
            .iter()
            .all(|f| f.level != Level::Error && f.rule != "pie/texture-missing"),
        "{findings:#?}"
    );
}

/// (rule, file under the fixture mod, line): the fixture mod's one finding of each rule.
const MOD_CASES: &[(&str, &str, Location)] = &[
    ("wz/model-missing", "stats/weapons.json", Location::Line(5)),
    (
        "wz/propulsion-model-missing",
        "stats/body.json",
        Location::Line(10),
    ),
    (
        "wz/weapon-connectors",
        "stats/body.json",
        Location::Line(13),
    ),
    (
        "wz/template-part-missing",
        "stats/templates.json",
        Location::Line(11),
    ),
    (
        "wz/model-unused",
        "components/weapons/orphan.pie",
        Location::File,
    ),
];

fn assert_mod_findings(findings: &[Finding], prefix: &str) {
    for (rule, file, place) in MOD_CASES {
        let hits: Vec<_> = findings.iter().filter(|f| f.rule == *rule).collect();
        assert_eq!(hits.len(), 1, "{rule}: {findings:#?}");
        assert_eq!(hits[0].file, format!("{prefix}{file}"), "{rule}");
        assert_eq!(hits[0].location, *place, "{rule}");
    }
    let other: Vec<_> = findings
        .iter()
        .filter(|f| !MOD_CASES.iter().any(|(r, _, _)| *r == f.rule))
        .collect();
    assert!(other.is_empty(), "{other:#?}");
}

#[test]
fn mod_level_checks_on_the_fixture_mod() {
    let root = common::fixtures().join("check/mod");
    let (findings, files) =
        vitrine::cli::check::check_inputs(std::slice::from_ref(&root), CheckOptions::default());
    assert_eq!(files, 4);
    assert_mod_findings(&findings, &format!("{}/", root.display()));

    // The same mod as a .wz archive, its pages in a data root.
    let dir = tempfile::tempdir().unwrap();
    let wz = dir.path().join("fixture.wz");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&wz).unwrap());
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let name = entry
                .path()
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            zip.start_file(name, zip::write::SimpleFileOptions::default())
                .unwrap();
            std::io::Write::write_all(&mut zip, &std::fs::read(entry.path()).unwrap()).unwrap();
        }
    }
    zip.finish().unwrap();
    let (findings, files) = vitrine::cli::check::check_inputs(
        std::slice::from_ref(&wz),
        CheckOptions {
            data_roots: vec![FileRef::Disk(common::fixtures().join("check"))],
            allow: Vec::new(),
        },
    );
    assert_eq!(files, 4);
    assert_mod_findings(&findings, &format!("{}!/", wz.display()));
}

#[test]
fn broken_stats_json_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("stats")).unwrap();
    std::fs::create_dir_all(dir.path().join("structs")).unwrap();
    std::fs::copy(
        common::fixtures().join("check/pie/clean.pie"),
        dir.path().join("structs/a.pie"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("stats/body.json"),
        "{\n\t\"B\": {\n\t\t\"model\": \"a.pie\",,\n\t}\n}\n",
    )
    .unwrap();
    let (findings, _) = vitrine::cli::check::check_inputs(
        &[dir.path().to_path_buf()],
        CheckOptions {
            data_roots: vec![FileRef::Disk(common::fixtures().join("check"))],
            allow: Vec::new(),
        },
    );
    let bad: Vec<_> = findings
        .iter()
        .filter(|f| f.rule == "wz/stats-unreadable")
        .collect();
    assert_eq!(bad.len(), 1, "{findings:#?}");
    assert_eq!(bad[0].location, Location::Line(3));
}
