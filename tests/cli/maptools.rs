//! `vitrine maptools package info` in the map database's place of `maptools`, and `vitrine
//! check --rules mapdb` giving the database's verdict: on all 191 two-player maps of the
//! database (`../shared/corpus/wz2100/mapdb-2p/`), every JSON passes the database's own
//! `validate_map_info` (`../shared/tools/mapdb/validate.py`) with no error — each map was
//! accepted, so an error is ours — and the database's warnings and non-fatal errors are
//! `check --rules mapdb`'s findings, map by map.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vitrine_test_needs::vitrine_test;

fn vitrine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(args)
        .output()
        .expect("vitrine runs")
}

/// The rule of each message `validate_map_info` prints as a warning or a non-fatal error
/// (its wording, matched by a part of it).
const DATABASE_MESSAGES: &[(&str, &str)] = &[
    ("'name' is less than 6 chars", "mapdb/name-short"),
    ("'name' is > 30 chars", "mapdb/name-long"),
    ("Missing 'author' key", "mapdb/author-missing"),
    ("Empty 'name' value under 'author'", "mapdb/author-empty"),
    ("Missing 'created' date", "mapdb/created-missing"),
    ("'oilWells' is 0", "mapdb/oil"),
    ("has no HQ", "mapdb/hq"),
    ("no starting 'powerGenerators'", "mapdb/power-generator"),
    ("no starting '*Factories'", "mapdb/factory"),
    ("no starting 'researchCenters'", "mapdb/research"),
    (
        "Map-mod contains texture overrides",
        "mapdb/map-mod-textures",
    ),
    ("Will auto-strip the following mods", "mapdb/map-mod-strip"),
    ("mapMod is True, but no modTypes", "mapdb/map-mod-types"),
];

fn rule_of(message: &str) -> String {
    DATABASE_MESSAGES
        .iter()
        .find(|(m, _)| message.contains(m))
        .map_or_else(|| format!("unknown: {message}"), |(_, r)| (*r).to_string())
}

/// `maptools package info --map-seed 0` of every package, as the database runs it, 4 at
/// a time: (name, JSON file) in `out`.
fn infos(maps: &[PathBuf], out: &Path) -> Vec<(String, PathBuf)> {
    let run = |map: &PathBuf| {
        let name = map.file_stem().unwrap().to_string_lossy().into_owned();
        let json = out.join(format!("{name}.json"));
        let o = Command::new(env!("CARGO_BIN_EXE_vitrine"))
            .args(["maptools", "package", "info", "--map-seed", "0"])
            .arg(map)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && err.is_empty(), "{name}: {err}");
        std::fs::write(&json, &o.stdout).unwrap();
        (name, json)
    };
    let chunks: Vec<&[PathBuf]> = maps.chunks(maps.len().div_ceil(4)).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|c| s.spawn(move || c.iter().map(run).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

#[vitrine_test(shared, mapdb)]
fn every_database_map_passes_the_database_and_check_gives_its_warnings() {
    let dir = vitrine_test_needs::wz2100().join("mapdb-2p");
    let mut maps: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wz"))
        .collect();
    maps.sort();
    assert_eq!(maps.len(), 191);
    let out = vitrine_test_needs::temp_dir("maptools-info");
    let infos = infos(&maps, out.path());
    let (python, validator) = vitrine_test_needs::mapdb_validator();
    let o = Command::new(python)
        .arg(&validator)
        .args(infos.iter().map(|(_, j)| j))
        .output()
        .unwrap();
    let verdicts: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line per file"))
        .collect();
    assert_eq!(
        verdicts.len(),
        191,
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut database: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (v, (name, _)) in verdicts.iter().zip(&infos) {
        assert_eq!(v["errors"], serde_json::json!([]), "{name}: {v}");
        let said = v["warnings"].as_array().unwrap().iter();
        let non_fatal = v["errors_non_fatal"].as_array().unwrap().iter();
        let mut rules: Vec<String> = said
            .chain(non_fatal)
            .map(|m| rule_of(m.as_str().unwrap()))
            .collect();
        rules.sort();
        database.insert(name.clone(), rules);
    }
    assert_eq!(o.status.code(), Some(0));
    let mut args = vec!["check", "--rules", "mapdb", "--json"];
    let paths: Vec<String> = maps.iter().map(|m| m.display().to_string()).collect();
    args.extend(paths.iter().map(String::as_str));
    let o = vitrine(&args);
    let mut ours: BTreeMap<String, Vec<String>> =
        database.keys().map(|k| (k.clone(), Vec::new())).collect();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let f: Value = serde_json::from_str(line).unwrap();
        let file = f["file"].as_str().unwrap();
        let name = Path::new(file.split(".wz!").next().unwrap())
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        ours.entry(name)
            .or_default()
            .push(f["rule"].as_str().unwrap().to_string());
    }
    ours.values_mut().for_each(|r| r.sort());
    let differ: Vec<String> = database
        .iter()
        .filter(|(n, d)| ours.get(*n) != Some(d))
        .map(|(n, d)| format!("{n}: database {d:?}, check {:?}", ours.get(n)))
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Warnings only: check exits 0, and the database warns on a third of the maps.
    assert_eq!(o.status.code(), Some(0));
    let warned = database.values().filter(|r| !r.is_empty()).count();
    assert!(warned > 50, "{warned}");
}

/// A package of the database's shape (its files at the root), with a script map.
fn package(path: &Path, level: &str) {
    use std::io::Write;
    let ttp = [
        b"ttyp".as_slice(),
        &8u32.to_le_bytes(),
        &2u32.to_le_bytes(),
        &[0; 4],
    ]
    .concat();
    let script = "setMapData(8, 8, Array(64).fill(1), Array(64).fill(0),\n\
        [{name: 'A0CommandCentre', position: [448, 448], direction: 0, modules: 0, player: 0},\n\
         {name: 'A0LightFactory', position: [576, 576], direction: 0, modules: 2, player: 0},\n\
         {name: 'A0ResourceExtractor', position: [320, 320], direction: 0, modules: 0, player: 1}],\n\
        [{name: 'ConstructionDroid', position: [320, 64], direction: 0, player: 1}],\n\
        [{name: 'OilResource', position: [320, 320], direction: 0},\n\
         {name: 'OilResource', position: [64, 320], direction: 0}]);\n";
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, bytes) in [
        ("level.json", level.as_bytes()),
        ("gam.json", b"{\"version\": 8}".as_slice()),
        ("game.js", script.as_bytes()),
        ("ttypes.ttp", ttp.as_slice()),
    ] {
        z.start_file(name, opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

/// The JSON maptools writes, key for key: the counts as wzmaplib makes them (an oil
/// resource under a derrick is one well; a factory's two modules count as structures),
/// `-o` writes the file and says so on standard output, nothing on standard error.
#[test]
fn package_info_writes_maptools_keys_and_counts() {
    let dir = vitrine_test_needs::temp_dir("maptools-package");
    let wz = dir.path().join("Two.wz");
    package(
        &wz,
        r#"{"name": "Two", "type": "skirmish", "players": 2, "tileset": "urban",
            "author": {"name": "Ann"}, "spdx-license-id": "CC0-1.0"}"#,
    );
    let wz_arg = wz.to_str().unwrap();
    let o = vitrine(&["maptools", "package", "info", "--map-seed", "0", wz_arg]);
    assert!(o.status.success() && o.stderr.is_empty(), "{o:?}");
    let text = String::from_utf8(o.stdout).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("    \"")?.split('"').next())
        .collect();
    assert_eq!(
        keys,
        [
            "name",
            "type",
            "players",
            "tileset",
            "author",
            "license",
            "mapsize",
            "scavenger",
            "oilWells",
            "player",
            "balance",
            "hq",
            "mapMod",
            "levelFormat",
            "mapFormat",
            "flatMapPackage"
        ]
    );
    assert_eq!(v["oilWells"], 2, "{v}");
    assert_eq!(
        v["player"]["structures"],
        serde_json::json!({"min": 1, "max": 4})
    );
    assert_eq!(
        v["player"]["regFactories"],
        serde_json::json!({"min": 0, "max": 1})
    );
    assert_eq!(v["hq"], serde_json::json!([{"x": 3, "y": 3}, {}]));
    assert_eq!(v["balance"]["startEquality"]["structures"], false);
    assert_eq!(
        (&v["mapFormat"], &v["levelFormat"], &v["flatMapPackage"]),
        (
            &serde_json::json!("script"),
            &serde_json::json!("json"),
            &serde_json::json!(true)
        )
    );
    let out = dir.path().join("info.json");
    let o = vitrine(&[
        "maptools",
        "package",
        "info",
        wz_arg,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success() && o.stderr.is_empty(), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("Wrote output JSON to: "));
    assert_eq!(
        serde_json::from_slice::<Value>(&std::fs::read(&out).unwrap()).unwrap(),
        v
    );
    // check --rules mapdb on the same package: no created date (a warning), players 0
    // and 1 never asked for an HQ, player 1 without a factory: the database's warnings.
    let o = vitrine(&["check", "--rules", "mapdb", "--json", wz_arg]);
    let rules: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["rule"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        rules,
        [
            "mapdb/name-short",
            "mapdb/created-missing",
            "mapdb/power-generator",
            "mapdb/factory",
            "mapdb/research"
        ]
    );
    assert_eq!(o.status.code(), Some(0));
    // --rules game leaves them out; the default (all) has both.
    let o = vitrine(&["check", "--rules", "game", "--json", wz_arg]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("mapdb/"));
    let o = vitrine(&["check", "--json", wz_arg]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("mapdb/created-missing"));
}

/// What the database refuses is an error of `check` (exit 2), each with its rule; a
/// level wzmaplib cannot read is `mapdb/package-refused`.
#[test]
fn database_errors_fail_the_check() {
    let dir = vitrine_test_needs::temp_dir("maptools-errors");
    let wz = dir.path().join("bad.wz");
    package(
        &wz,
        r#"{"name": "Bad Name", "type": "skirmish", "players": 12, "tileset": "urban",
            "spdx-license-id": "MIT", "created-date": "2019/01/01"}"#,
    );
    let o = vitrine(&["check", "--rules", "mapdb", wz.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    for rule in [
        "mapdb/name-characters",
        "mapdb/players",
        "mapdb/license]",
        "mapdb/author]",
        "mapdb/created]",
    ] {
        assert!(text.contains(&format!("error[{rule}")), "{rule}: {text}");
    }
    assert_eq!(o.status.code(), Some(2), "{text}");
    package(
        &wz,
        r#"{"name": "NoPlayers", "type": "skirmish", "tileset": "urban"}"#,
    );
    let o = vitrine(&["check", "--rules", "mapdb", "--json", wz.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("mapdb/package-refused") && text.contains("players"),
        "{text}"
    );
    let o = vitrine(&["maptools", "package", "info", wz.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("players"));
}

/// What maptools does and Vitrine does not is refused by name, never ignored.
#[test]
fn maptools_commands_vitrine_does_not_do_are_refused() {
    for args in [
        [
            "maptools", "package", "convert", "-f", "jsonv2", "in.wz", "out",
        ]
        .as_slice(),
        ["maptools", "map", "genpreview", "-p", "2", "dir", "out.png"].as_slice(),
    ] {
        let o = vitrine(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("`maptools {}", args[1])), "{err}");
        assert!(o.stdout.is_empty());
    }
    let o = vitrine(&["maptools", "package", "info", "x.wz", "-o", "out.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains(".json"));
}

/// `check --rules mapdb` without inputs lists the database's rules only.
#[test]
fn rules_lists_a_set() {
    let o = vitrine(&["check", "--rules", "mapdb"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.lines().count() >= 20, "{text}");
    assert!(text.lines().all(|l| l.starts_with("mapdb/")), "{text}");
    let all = vitrine(&["check", "--rules"]);
    let all = String::from_utf8_lossy(&all.stdout);
    assert!(all.contains("pie/normals-count") && all.contains("mapdb/license"));
}
