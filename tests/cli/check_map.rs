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

/// The script-generated maps of `mp.wz`.
const SCRIPTED: [&str; 5] = [
    "10c-WaterLoop",
    "2c-DustyMaze",
    "4c-DustyMaze-2v2",
    "4c-DustyMaze-FFA",
    "6c-Entropy",
];

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
    let wz = common::wz2100();
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
    // The five script-generated maps run (their game.js) and are checked like the others.
    for map in SCRIPTED {
        let v = per_map.get(map).map(Vec::as_slice).unwrap_or_default();
        assert!(
            v.iter()
                .all(|f| !f["rule"].as_str().unwrap().starts_with("map/script")),
            "{map}: {v:?}"
        );
    }
    assert_eq!(per_rule.get("map/script-refused"), None);
    // With the game's own data (mp.wz and base.wz beside it), every stats id is defined.
    assert_eq!(per_rule.get("map/unknown-stats"), None);
    assert_eq!(per_rule.get("map/stats-unchecked"), None);
    // Every skirmish map gives each of its players a truck, so a start position.
    assert_eq!(per_rule.get("map/start-position-missing"), None);
    // Every finding on an object names it; the JSON v1 files give the key's line (a
    // script's objects have none: they name the script's map folder).
    for f in &findings {
        if f["element"]["kind"] == "object" {
            assert!(f["element"]["object"].as_u64().is_some(), "{f}");
            let script = SCRIPTED
                .iter()
                .any(|m| f["file"].as_str().unwrap().ends_with(m));
            assert!(script || f["line"].as_u64().is_some_and(|l| l > 1), "{f}");
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
    let wz = common::wz2100();
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

/// A 4×3 script map's `game.js`: heights from `gameRand`, a command centre, a truck and an
/// oil resource.
const SCRIPT: &str = "var h = [];\nfor (var i = 0; i < 12; i++) h.push(gameRand(500));\n\
    setMapData(4, 3, Array(12).fill(1), h,\n\
    [{name: 'A0CommandCentre', position: [192, 192], direction: 0, modules: 0, player: 0}],\n\
    [{name: 'ConstructionDroid', position: [320, 64], direction: 0, player: 1}],\n\
    [{name: 'OilResource', position: [64, 320], direction: 0}]);\n";

/// [`SCRIPT`] behind a line that throws when the first `gameRand` draw is
/// `std::mt19937(5489)`'s (3499211612): the map builds with any seed but the default.
fn picky_script() -> String {
    format!("if (gameRand() === 3499211612) throw new Error('the default seed');\n{SCRIPT}")
}

/// Writes a script-generated package as the community shares them (`level.json`,
/// `gam.json`, `game.js`, `ttypes.ttp` at the archive root) with `script` at `path`.
fn script_package(path: &Path, script: &str) {
    use std::io::Write;
    let ttp = [
        b"ttyp".as_slice(),
        &8u32.to_le_bytes(),
        &2u32.to_le_bytes(),
        &[0, 0, 0, 0],
    ]
    .concat();
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    let level = br#"{"name": "Scripted", "type": "skirmish", "players": 2, "tileset": "rockies"}"#;
    for (name, bytes) in [
        ("level.json", level.as_slice()),
        ("gam.json", b"{\"version\": 8}".as_slice()),
        ("game.js", script.as_bytes()),
        ("ttypes.ttp", ttp.as_slice()),
    ] {
        z.start_file(name, opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

/// A script-generated package as the community shares them opens: `info` gives the map
/// its script builds (with `--seed`, another map), `check` runs on it (with `--seed`, the
/// script run with that seed), and a failing script is named with its line.
#[test]
fn a_root_level_script_package_opens() {
    let dir = common::temp_dir("script-package");
    let zip_of = script_package;
    let js = SCRIPT;
    let package = dir.path().join("scripted.wz");
    zip_of(&package, js);
    let info = |seed: &str| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_vitrine"))
            .args(["info", "--json", "--heights", "--seed", seed])
            .arg(&package)
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).expect("info --json")
    };
    let v = info("5489");
    assert!(v.get("error").is_none(), "{v}");
    assert_eq!(v["heights"].as_array().unwrap().len(), 3, "{v}");
    // The droid and the feature; the command centre is too near the edge of a 4×3 map
    // for the game, which refuses it.
    assert_eq!(v["objects"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v["file_counts"]["structure"], 1, "{v}");
    // std::mt19937(5489)'s first output is 3499211612: the first corner is its % 500.
    assert_eq!(v["heights"][0][0], 3_499_211_612u64 % 500, "{v}");
    assert_ne!(v["heights"], info("1")["heights"]);
    let out = vitrine(&[package.to_str().unwrap(), "--json"]);
    assert!(
        json_lines(&out)
            .iter()
            .all(|f| f["rule"] != "map/script-refused"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let broken = dir.path().join("broken.wz");
    zip_of(&broken, "var a = 1;\nthrow new Error('no map today');\n");
    let out = vitrine(&[broken.to_str().unwrap(), "--json"]);
    let f = json_lines(&out);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0]["rule"], "map/script-refused");
    assert!(f[0]["file"].as_str().unwrap().ends_with("game.js"), "{f:?}");
    assert_eq!(f[0]["line"], 2, "{f:?}");
    // `--seed`: a script that refuses the default seed is refused without one and with
    // 5489, and checks clean with another.
    let picky = dir.path().join("picky.wz");
    zip_of(&picky, &picky_script());
    let refused = |seed: Option<&str>| {
        let mut args = vec![picky.to_str().unwrap(), "--json"];
        args.extend(seed.iter().flat_map(|s| ["--seed", s]));
        json_lines(&vitrine(&args))
            .iter()
            .any(|f| f["rule"] == "map/script-refused")
    };
    assert!(refused(None));
    assert!(refused(Some("5489")));
    assert!(!refused(Some("1")));
}

/// `vitrine render --seed`: the script map that refuses the default seed draws with
/// another, and fails without `--seed`.
#[vitrine_test(gpu)]
fn render_runs_a_script_map_with_the_seed_asked() {
    common::needs_gpu();
    let dir = common::temp_dir("script-render");
    let package = dir.path().join("picky.wz");
    script_package(&package, &picky_script());
    let render = |seed: Option<&str>, out: &Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_vitrine"));
        c.args(["render", "--size", "64x64"])
            .arg(&package)
            .arg("-o")
            .arg(out);
        if let Some(s) = seed {
            c.args(["--seed", s]);
        }
        c.output().unwrap()
    };
    let default = dir.path().join("default.png");
    let out = render(None, &default);
    assert!(!out.status.success() && !default.exists());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the default seed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seeded = dir.path().join("seeded.png");
    let out = render(Some("1"), &seeded);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(image::image_dimensions(&seeded).unwrap(), (64, 64));
}
