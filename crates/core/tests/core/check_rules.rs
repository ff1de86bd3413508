//! `vitrine check` rules: one fixture per rule triggers it exactly once at the right
//! place, a clean fixture triggers nothing. (The command line's gathering of inputs — mods,
//! archives, the shipped corpus without errors — is the program's `tests/cli/check_inputs.rs`.)

use crate::common;

use std::path::{Path, PathBuf};
use vitrine_core::check::{CheckOptions, Checker, Finding, Level};
use vitrine_core::files::FileRef;
use vitrine_core::model::Location;
use vitrine_test_needs::vitrine_test;

fn fixture(name: &str) -> PathBuf {
    common::fixtures()
        .join("check/pie")
        .join(format!("{name}.pie"))
}

fn check(path: &Path) -> Vec<Finding> {
    // The fixtures' own texpages/ for files written elsewhere.
    let data_dir = common::fixtures().join("check");
    let data = FileRef::Disk(data_dir.clone());
    Checker::new(
        &common::files_for(&[path, &data_dir]),
        CheckOptions {
            data_roots: vec![data],
            allow: Vec::new(),
        },
    )
    .check_file(&FileRef::Disk(path.to_path_buf()))
    .findings
}

/// (fixture, rule, place): each fixture's one finding of `rule` is at `place`.
const CASES: &[(&str, &str, Location)] = &[
    ("version", "pie/version", Location::Line(1)),
    ("not-triangle", "pie/not-triangle", Location::Line(12)),
    ("point-index", "pie/point-index", Location::Line(13)),
    ("tileset", "pie/tileset", Location::Line(3)),
    ("tileset-ignored", "pie/tileset-ignored", Location::Line(3)),
    (
        "header-directive",
        "pie/header-directive",
        Location::Line(4),
    ),
    ("levels-count", "pie/levels-count", Location::Line(4)),
    ("animobject-time", "pie/animobject-time", Location::Line(14)),
    ("event-missing", "pie/event-missing", Location::File),
    (
        "texture-undecodable",
        "pie/texture-undecodable",
        Location::Line(3),
    ),
    (
        "texture-extension",
        "pie/texture-extension",
        Location::Line(3),
    ),
    ("shadow-flags", "pie/shadow-flags", Location::Line(19)),
    ("shadow-order", "pie/shadow-order", Location::Line(14)),
    ("event-type", "pie/event-type", Location::Line(4)),
    ("normals-count", "pie/normals-count", Location::Line(11)),
    ("tcmask-missing", "pie/tcmask-missing", Location::Line(3)),
    ("tcmask-flag", "pie/tcmask-flag", Location::Line(4)),
    ("texture-missing", "pie/texture-missing", Location::Line(3)),
    ("texture-name", "pie/texture-name", Location::Line(3)),
    (
        "texture-page-number",
        "pie/texture-page-number",
        Location::Line(3),
    ),
    (
        "texture-page-prefix",
        "pie/texture-page-prefix",
        Location::Line(3),
    ),
    (
        "texanim-mismatch",
        "pie/texanim-mismatch",
        Location::Line(13),
    ),
    ("texanim-size", "pie/texanim-size", Location::Line(13)),
    ("texanim-block", "pie/texanim-block", Location::Line(12)),
    (
        "animobject-frames",
        "pie/animobject-frames",
        Location::Line(14),
    ),
    ("polygon-flags", "pie/polygon-flags", Location::Line(12)),
    ("legacy-ngon", "pie/legacy-ngon", Location::Line(12)),
    (
        "legacy-texture-extension",
        "pie/legacy-texture-extension",
        Location::Line(3),
    ),
    ("uv-range", "pie/uv-range", Location::Line(5)),
    ("pie4-feature", "pie/pie4-feature", Location::Line(4)),
    ("shadow-dropped", "pie/shadow-dropped", Location::Line(5)),
    ("extra-levels", "pie/extra-levels", Location::Line(14)),
    ("trailing-junk", "pie/trailing-junk", Location::Line(14)),
    ("degenerate", "pie/degenerate", Location::Line(14)),
    ("negative-scale", "pie/negative-scale", Location::Line(14)),
    ("unused-point", "pie/unused-point", Location::Line(11)),
    ("duplicate-point", "pie/duplicate-point", Location::Line(11)),
    ("pie2", "pie/pie2", Location::File),
    (
        "interpolate-unused",
        "pie/interpolate-unused",
        Location::Line(3),
    ),
    (
        "ignored-directive",
        "pie/ignored-directive",
        Location::Line(6),
    ),
    ("bsp", "pie/bsp", Location::Line(14)),
    ("refused", "load/refused", Location::Line(5)),
    ("loader-warning", "load/warning", Location::Line(4)),
];

#[test]
fn each_rule_fires_once_at_its_place() {
    for (name, rule, place) in CASES {
        let findings = check(&fixture(name));
        let hits: Vec<_> = findings.iter().filter(|f| f.rule == *rule).collect();
        assert_eq!(
            hits.len(),
            1,
            "{name}: {rule} should fire once: {findings:#?}"
        );
        assert_eq!(hits[0].location, *place, "{name}: {:?}", hits[0]);
        let level = vitrine_core::check::rule(rule).unwrap().level;
        assert_eq!(hits[0].level, level, "{name}");
    }
}

#[test]
fn the_clean_fixture_has_no_findings() {
    let findings = check(&fixture("clean"));
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn every_pie_rule_has_a_fixture_or_a_generated_case() {
    let generated = [
        "pie/polygon-limit",
        "pie/welded-vertices",
        "pie/points-limit",
    ];
    for r in vitrine_core::check::RULES
        .iter()
        .filter(|r| r.id.starts_with("pie/"))
    {
        assert!(
            CASES.iter().any(|(_, id, _)| *id == r.id) || generated.contains(&r.id),
            "rule {} has no test case",
            r.id
        );
    }
}

/// A one-level PIE 3 file of `triangles` separate triangles (three points each).
fn big_pie(triangles: usize) -> String {
    let mut s = format!(
        "PIE 3\nTYPE 200\nTEXTURE 0 page-7-test.png 256 256\nLEVELS 1\nLEVEL 1\nPOINTS {}\n",
        triangles * 3
    );
    for t in 0..triangles {
        s += &format!("\t{t} 0 0\n\t{t} 1 0\n\t{t} 0 1\n");
    }
    s += &format!("POLYGONS {triangles}\n");
    for t in 0..triangles {
        let a = t * 3;
        s += &format!("\t200 3 {a} {} {} 0 0 1 0 1 1\n", a + 1, a + 2);
    }
    s
}

#[test]
fn size_limits_are_found_on_generated_files() {
    let dir = tempfile::tempdir().unwrap();
    let put = |name: &str, text: String| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    // 22,000 triangles of their own points: 66,000 welded vertices, 8,193+ polygons.
    let findings = check(&put("huge.pie", big_pie(22_000)));
    let one = |rule: &str| {
        let hits: Vec<&Finding> = findings.iter().filter(|f| f.rule == rule).collect();
        assert_eq!(hits.len(), 1, "{rule}: {hits:#?}");
        hits[0].clone()
    };
    assert_eq!(one("pie/welded-vertices").location, Location::Line(5));
    // POLYGONS is after 66,000 point lines.
    assert_eq!(
        one("pie/polygon-limit").location,
        Location::Line(6 + 66_000 + 1)
    );
    assert_eq!(one("pie/points-limit").location, Location::Line(7 + 768));
    assert_eq!(one("pie/welded-vertices").level, Level::Error);
    // 300 triangles: 900 points (past 768) but within every game limit.
    let findings = check(&put("big.pie", big_pie(300)));
    let rules: Vec<_> = findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, vec!["pie/points-limit"], "{findings:#?}");
}

#[test]
fn tpm_rules_on_their_fixture() {
    let path = common::fixtures().join("check/tpm/unbound-unused.tpm");
    let findings = check(&path);
    let place = |rule: &str| {
        let hits: Vec<_> = findings.iter().filter(|f| f.rule == rule).collect();
        assert_eq!(hits.len(), 1, "{rule}: {findings:#?}");
        hits[0].location
    };
    assert_eq!(place("tpm/unbound-vertices"), Location::Line(26));
    assert_eq!(place("tpm/mesh-not-instanced"), Location::Line(43));
    assert_eq!(place("tpm/material-unused"), Location::File);
    assert_eq!(findings.len(), 3, "{findings:#?}");
}

#[vitrine_test(shared)]
fn pmf_rules_on_the_synthetic_bad_files() {
    let syn = common::synthetic();
    let cases: &[(&str, &str, Location)] = &[
        (
            "bad/pmf_vertex_count_not_multiple_of_3.pmf",
            "pmf/vertex-count",
            Location::Offset(48),
        ),
        (
            "bad/pmf_trailing_garbage.pmf",
            "pmf/trailing-bytes",
            Location::Offset(17384),
        ),
    ];
    for (file, rule, place) in cases {
        let findings = check(&syn.join(file));
        let hits: Vec<_> = findings.iter().filter(|f| f.rule == *rule).collect();
        assert_eq!(hits.len(), 1, "{file}: {findings:#?}");
        assert_eq!(hits[0].location, *place, "{file}");
    }
    // PMF1 magic, then a structure that is not a Piece Model file.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("fake.pmf");
    std::fs::write(&p, b"PMF1\xff\xff\xff\xff not pieces").unwrap();
    let findings = check(&p);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].rule, "pmf/not-piece-model");
    assert_eq!(findings[0].level, Level::Error);
    // Every clean synthetic PMF model: no errors.
    for e in std::fs::read_dir(syn.join("pmf")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "pmf") {
            assert!(
                check(&p).iter().all(|f| f.level != Level::Error),
                "{}",
                p.display()
            );
        }
    }
}

/// A PNG declaring `w`×`h` RGBA pixels, with a few bytes of them (the header reads).
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let chunk = |kind: &[u8], data: &[u8]| {
        let body = [kind, data].concat();
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        c.extend(&body);
        c.extend(crc32fast::hash(&body).to_be_bytes());
        c
    };
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    let mut idat = vec![0x78, 0x01, 0x00, 0x00, 0x40, 0xff, 0xbf];
    idat.extend(std::iter::repeat_n(0u8, 0x400));
    [
        b"\x89PNG\r\n\x1a\n".to_vec(),
        chunk(b"IHDR", &ihdr),
        chunk(b"IDAT", &idat),
        chunk(b"IEND", &[]),
    ]
    .concat()
}

/// One size limit for a page: `check` calls undecodable exactly what the viewer refuses
/// to decode — a side past 16384, or within it but past 512 MiB as RGBA (12000²).
#[test]
fn check_and_the_viewer_share_the_page_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("texpages")).unwrap();
    for (w, h, refused) in [(20000, 16, true), (12000, 12000, true), (8192, 8192, false)] {
        let page = format!("page-9{w}-big.png");
        let bytes = png_header(w, h);
        std::fs::write(dir.path().join("texpages").join(&page), &bytes).unwrap();
        let pie = dir.path().join(format!("big{w}.pie"));
        let text = std::fs::read_to_string(fixture("clean")).unwrap();
        std::fs::write(&pie, text.replace("page-7-test.png", &page)).unwrap();
        let flagged = check(&pie)
            .iter()
            .any(|f| f.rule == "pie/texture-undecodable");
        let viewer = vitrine_core::formats::texture::decode_bytes(&bytes, &page);
        // Refused for its size (not for the pixels missing after the header).
        let too_big = viewer
            .as_ref()
            .err()
            .is_some_and(|e| e.contains("texels") || e.contains("exceeds limit"));
        assert_eq!(flagged, refused, "{w}×{h}: check {:?}", check(&pie));
        assert_eq!(too_big, refused, "{w}×{h}: viewer {viewer:?}");
    }
}

/// A page that is there by its exact name is that page, even when another page of the
/// same number sorts first in the folder (`page-90-fixture-urban.png` beside
/// `page-90-fixture.png`): no `pie/texture-page-number`.
#[test]
fn an_exact_page_wins_over_one_of_the_same_number() {
    let cube = common::fixtures().join("pie/cube.pie");
    let findings = check(&cube);
    assert!(
        findings.iter().all(|f| f.rule != "pie/texture-page-number"),
        "{findings:#?}"
    );
}
