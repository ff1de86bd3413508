//! `vitrine check MAP` on the command line: every map of the corpus's `mp.wz` in one run,
//! its findings against what the real game did with those maps (`../shared/notes/wz-maps.md`
//! §10 and `../shared/tools/wz_game_map.md`, "What it showed on real maps": the objects in
//! the files and those the game held), the JSON lines and the SARIF read back as the model
//! checks' are, and the exit codes of the model `check`.

use crate::common;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};
use vitrine_test_needs::vitrine_test;

fn vitrine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .arg("check")
        .args(args)
        .output()
        .expect("runs")
}

fn json_lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect()
}

/// The map folders of `mp.wz` (`multiplay/maps/NAME/`), read with the zip crate.
fn map_folders(mp: &Path) -> Vec<String> {
    let zip = zip::ZipArchive::new(std::fs::File::open(mp).unwrap()).unwrap();
    let names: Vec<String> = zip
        .file_names()
        .map(|n| n.expect("an entry name").into_owned())
        .collect();
    let mut dirs: Vec<String> = names
        .iter()
        .filter_map(|n| n.strip_prefix("multiplay/maps/"))
        .filter_map(|rest| rest.split_once('/').map(|(d, _)| d.to_string()))
        .filter(|d| !d.is_empty())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The map folder a finding's file is in (`…/multiplay/maps/4c-rush/struct.json`).
fn folder_of(file: &str) -> String {
    let rest = file.split("multiplay/maps/").nth(1).expect("a map's file");
    rest.split('/').next().unwrap().to_string()
}

/// What the game did on four maps (wz_game_map.md's table): structures and features in
/// the map's files, and held by the game after loading.
const JUDGED: &[(&str, [usize; 4])] = &[
    ("4c-rush", [244, 244, 29, 8]),
    ("8c-concreteplayground", [556, 554, 295, 295]),
    ("4c-mountain", [145, 145, 165, 148]),
    ("2c-highground", [113, 113, 51, 41]),
];

/// The rules whose finding is an object of the file the game does not hold.
const REMOVING: &[&str] = &[
    "map/structure-near-edge",
    "map/feature-off-map",
    "map/feature-stacked",
    "map/structure-stacked",
    "map/module-record",
    "map/module-orphan",
    "map/oil-under-derrick",
    "map/unknown-stats",
    "map/player-beyond-count",
];

#[vitrine_test(shared, game)]
fn every_mp_map_is_checked_and_agrees_with_the_game() {
    let Some(wz) = common::wz2100() else { return };
    let mp = wz.join("archives/mp.wz");
    let folders = map_folders(&mp);
    assert_eq!(folders.len(), 44, "{folders:?}");
    let inputs: Vec<String> = folders
        .iter()
        .map(|f| format!("{}!/multiplay/maps/{f}", mp.display()))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("maps.sarif");
    let mut args: Vec<&str> = inputs.iter().map(String::as_str).collect();
    args.extend(["--json", "--sarif", sarif.to_str().unwrap()]);
    let o = vitrine(&args);
    // Sk-Concrete's stacked walls are errors.
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let findings = json_lines(&o);
    let mut per_map: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &findings {
        let rule = f["rule"].as_str().unwrap();
        assert!(rule.starts_with("map/"), "{f}");
        *per_rule.entry(rule).or_default() += 1;
        per_map
            .entry(folder_of(f["file"].as_str().unwrap()))
            .or_default()
            .push(f);
    }
    eprintln!("findings per rule on the 44 maps of mp.wz: {per_rule:?}");
    let count = |map: &str, rule: &str| {
        per_map
            .get(map)
            .map_or(0, |v| v.iter().filter(|f| f["rule"] == rule).count())
    };
    // The objects the game dropped, per kind, are the removing findings on that kind.
    for (map, [s_file, s_game, f_file, f_game]) in JUDGED {
        let removed = |kind: &str| {
            per_map.get(*map).map_or(0, |v| {
                v.iter()
                    .filter(|f| REMOVING.contains(&f["rule"].as_str().unwrap()))
                    .filter(|f| f["message"].as_str().unwrap().starts_with(kind))
                    .count()
            })
        };
        assert_eq!(removed("structure "), s_file - s_game, "{map} structures");
        assert_eq!(removed("feature "), f_file - f_game, "{map} features");
        assert_eq!(removed("droid "), 0, "{map} droids");
    }
    // Which rules: Sk-Concrete's three walls on one tile keep one; oil under derricks.
    assert_eq!(count("8c-concreteplayground", "map/structure-stacked"), 2);
    assert_eq!(count("4c-rush", "map/oil-under-derrick"), 29 - 8);
    assert_eq!(count("4c-mountain", "map/oil-under-derrick"), 165 - 148);
    assert_eq!(count("2c-highground", "map/oil-under-derrick"), 51 - 41);
    // The five script-generated maps: one note each, nothing else.
    for map in [
        "10c-WaterLoop",
        "2c-DustyMaze",
        "4c-DustyMaze-2v2",
        "4c-DustyMaze-FFA",
        "6c-Entropy",
    ] {
        let v = per_map.get(map).map(Vec::as_slice).unwrap_or_default();
        assert_eq!(v.len(), 1, "{map}: {v:?}");
        assert_eq!(v[0]["rule"], "map/script-unchecked");
    }
    // With the game's own data (mp.wz and base.wz beside it), every stats id is defined.
    assert_eq!(per_rule.get("map/unknown-stats"), None);
    assert_eq!(per_rule.get("map/stats-unchecked"), None);
    // Every skirmish map gives each of its players a truck, so a start position.
    assert_eq!(per_rule.get("map/start-position-missing"), None);
    // Every finding on an object names it; the JSON v1 files give the key's line.
    for f in &findings {
        if f["element"]["kind"] == "object" {
            assert!(f["element"]["object"].as_u64().is_some(), "{f}");
            assert!(f["line"].as_u64().is_some_and(|l| l > 1), "{f}");
        }
    }
    sarif_reads_back(&sarif, findings.len());
}

/// The SARIF log of the run: one result per finding, each pointing at its rule, at
/// `mp.wz` with the entry in the message.
fn sarif_reads_back(path: &Path, results: usize) {
    let log: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let got = run["results"].as_array().unwrap();
    assert_eq!(got.len(), results);
    for r in got {
        let id = r["ruleId"].as_str().unwrap();
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(uri.ends_with("mp.wz"), "{uri}");
        assert!(
            r["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with("multiplay/maps/"),
            "{r}"
        );
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1, "{r}");
    }
    let typed: serde_sarif::sarif::Sarif =
        serde_json::from_slice(&std::fs::read(path).unwrap()).expect("serde-sarif reads it");
    assert_eq!(typed.runs[0].results.as_ref().unwrap().len(), results);
}

#[vitrine_test(shared, game)]
fn exit_codes_text_and_levels_as_the_model_check() {
    let Some(wz) = common::wz2100() else { return };
    let mp = wz.join("archives/mp.wz");
    let mp = mp.to_str().unwrap();
    let data = common::game_data();
    let (game_mp, game_base) = (data.join("mp.wz"), data.join("base.wz"));
    // Sk-Rush by its level name, with the installed game's data: notes only, exit 0, even
    // with --deny warnings.
    let rush = [
        mp,
        "--level",
        "Sk-Rush",
        "--data",
        game_mp.to_str().unwrap(),
        "--data",
        game_base.to_str().unwrap(),
    ];
    let o = vitrine(&rush);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("4c-rush/feature.json:") && text.contains("note[map/oil-under-derrick]"),
        "{text}"
    );
    assert!(text.contains("0 errors, 0 warnings, 21 notes"), "{text}");
    let mut denied = rush.to_vec();
    denied.extend(["--deny", "warnings"]);
    assert_eq!(vitrine(&denied).status.code(), Some(0));
    // --allow drops a rule's findings.
    let mut allowed = rush.to_vec();
    allowed.extend(["--allow", "map/oil-under-derrick", "--json"]);
    assert!(json_lines(&vitrine(&allowed)).is_empty());
    // Errors: exit 2 (Sk-Concrete's stacked walls), by its folder.
    let concrete = format!("{mp}!/multiplay/maps/8c-concreteplayground");
    let o = vitrine(&[&concrete]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("error[map/structure-stacked]"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // A level the package does not have: one load finding, exit 2.
    let o = vitrine(&[mp, "--level", "Sk-Nowhere", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let f = json_lines(&o);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0]["message"].as_str().unwrap().contains("Sk-Rush"),
        "{f:?}"
    );
}
