//! The real game as the judge of `vitrine info --json --heights MAP`: Warzone 2100 4.3.3
//! loads the map headless (`../shared/tools/wz_game_map.sh`, see its `.md`) and reports,
//! from its own save, every object's x, y, z and direction and the heights after loading;
//! Vitrine must hold the same objects, each within 1 world unit and at the same direction
//! (features in water on the riverbed the game digs at load), and the same heights (water
//! corners excepted: the game saves them as stored, so the judge cannot see the riverbed).
//!
//! Runs three maps, one per tileset (Sk-Rush, Sk-Concrete, Sk-Mountain: ~20 s), and two
//! packages built from `mp.wz` maps in the other shapes (BJO classic, JSON v2 database); with
//! `VITRINE_MAP_JUDGE_ALL=1`, every map of `mp.wz` (~8 min), printing the figures
//! `docs/maps.md` gives. Marked `#[vitrine_test(shared, game)]`: reported ignored without the
//! game (`VITRINE_REQUIRE_GAME=1` makes that a build error).

use crate::common;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine_test_needs::vitrine_test;

/// The map judge script (the test declared `shared, game`).
pub(crate) fn map_judge() -> PathBuf {
    common::game_tool("wz_game_map.sh")
}

/// How far Vitrine and the game agree on one map.
#[derive(Debug, Default)]
struct Agreement {
    objects: usize,
    matched: usize,
    heights: usize,
    heights_matched: usize,
    /// Every disagreement.
    other: Vec<String>,
}

impl Agreement {
    /// Adds map `name`'s agreement `a` to the total, printing it.
    fn add(&mut self, name: &str, a: Agreement) {
        eprintln!(
            "{name}: objects {}/{}, heights {}/{}",
            a.matched, a.objects, a.heights_matched, a.heights
        );
        self.objects += a.objects;
        self.matched += a.matched;
        self.heights += a.heights;
        self.heights_matched += a.heights_matched;
        self.other.extend(a.other);
    }

    /// Prints the total of `what`; asserts that nothing disagreed and something was
    /// compared.
    fn assert_agreed(&self, what: &str) {
        eprintln!(
            "{what}: objects {}/{}, heights {}/{} (water corners excepted)",
            self.matched, self.objects, self.heights_matched, self.heights
        );
        assert!(
            self.other.is_empty(),
            "disagreements:\n{}",
            self.other.join("\n")
        );
        assert!(self.objects > 0 && self.heights > 0, "nothing compared");
    }
}

pub(crate) fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Runs the game on `map` (a level or map file name) and `vitrine info` on the same map
/// in the corpus's `mp.wz`; compares them.
fn judge(script: &Path, wz: &Path, map: &str) -> Agreement {
    let game = Command::new("bash").arg(script).arg(map).output().unwrap();
    assert!(
        matches!(game.status.code(), Some(0 | 1)),
        "{map}: the game did not load the map: {}",
        String::from_utf8_lossy(&game.stderr)
    );
    let game = lines(&game.stdout);
    let folder = game
        .iter()
        .find(|v| v["kind"] == "summary")
        .and_then(|v| v["map_folder"].as_str())
        .expect("a summary line")
        .trim_end_matches('/')
        .to_string();
    let ours = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(["info", "--json", "--heights", "--data"])
        .arg(wz.join("data/mp"))
        .arg("--data")
        .arg(wz.join("data/base"))
        .arg(format!("{}!/{folder}", wz.join("archives/mp.wz").display()))
        .output()
        .unwrap();
    let ours: Value =
        serde_json::from_slice(&ours.stdout).unwrap_or_else(|e| panic!("{map}: info --json: {e}"));
    assert!(ours.get("error").is_none(), "{map}: {}", ours["error"]);
    compare(map, &game, &ours)
}

fn compare(map: &str, game: &[Value], ours: &Value) -> Agreement {
    let terrain = game
        .iter()
        .find(|v| v["kind"] == "terrain")
        .expect("terrain line");
    let water = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && terrain["water"][y as usize]
                .as_str()
                .is_some_and(|row| row.as_bytes().get(x as usize) == Some(&b'1'))
    };
    let mine: HashMap<(String, String), &Value> = ours["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| ((o["kind"].to_string(), o["key"].to_string()), o))
        .collect();
    let mut a = Agreement::default();
    let mut seen = 0;
    for g in game
        .iter()
        .filter(|v| matches!(v["kind"].as_str(), Some("structure" | "feature" | "droid")))
    {
        a.objects += 1;
        let key = (g["kind"].to_string(), g["map_key"].to_string());
        let Some(o) = mine.get(&key) else {
            a.other.push(format!(
                "{map}: {} {} {}: not in vitrine",
                g["kind"], g["name"], g["map_key"]
            ));
            continue;
        };
        seen += 1;
        let num = |v: &Value, k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        let close = |k: &str| (num(g, k) - num(o, k)).abs() <= 1.0;
        let turn = (num(g, "direction") - num(o, "direction") + 540.0).rem_euclid(360.0) - 180.0;
        let player = g["kind"] == "feature" || g["player"] == o["player"];
        let modules = g["kind"] != "structure" || g["modules"] == o["modules"];
        let same_place =
            close("x") && close("y") && turn.abs() < 0.01 && g["name"] == o["stats_id"];
        if same_place && close("z") && player && modules {
            a.matched += 1;
            continue;
        }
        let line = format!(
            "{map}: {} {} {}: game ({}, {}, {}, {}°, player {}, modules {}), vitrine ({}, {}, {}, {}°, player {}, modules {})",
            g["kind"],
            g["name"],
            g["map_key"],
            g["x"],
            g["y"],
            g["z"],
            g["direction"],
            g["player"],
            g["modules"],
            o["x"],
            o["y"],
            o["z"],
            o["direction"],
            o["player"],
            o["modules"]
        );
        a.other.push(line);
    }
    if seen < mine.len() {
        a.other.push(format!(
            "{map}: {} objects vitrine has and the game not",
            mine.len() - seen
        ));
    }
    let heights = ours["heights"].as_array().expect("--heights");
    for (y, row) in terrain["heights"].as_array().unwrap().iter().enumerate() {
        for (x, h) in row.as_array().unwrap().iter().enumerate() {
            if water(x as i64, y as i64) {
                continue;
            }
            a.heights += 1;
            if heights[y][x] == *h {
                a.heights_matched += 1;
            } else if a.other.len() < 50 {
                a.other.push(format!(
                    "{map}: corner ({x}, {y}): game {h}, vitrine {}",
                    heights[y][x]
                ));
            }
        }
    }
    a
}

/// The skirmish maps of the corpus's `mp.wz` Vitrine reads (script-generated ones left
/// out), by folder name.
fn all_maps(wz: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(["info", "--json", "--level", "none"])
        .arg(wz.join("archives/mp.wz"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let msg = v["error"].as_str().unwrap_or_default();
    let names = msg.split("it has: ").nth(1).unwrap_or_default();
    names.split(", ").map(str::to_string).collect()
}

#[vitrine_test(shared, game)]
fn the_game_places_every_object_where_vitrine_does() {
    let wz = common::wz2100();
    let script = map_judge();
    let all = std::env::var("VITRINE_MAP_JUDGE_ALL").as_deref() == Ok("1");
    let maps: Vec<String> = if all {
        all_maps(&wz)
    } else {
        ["Sk-Rush", "Sk-Concrete", "Sk-Mountain"]
            .map(String::from)
            .to_vec()
    };
    let mut total = Agreement::default();
    for map in &maps {
        if SCRIPT_MAPS.iter().any(|(_, level)| level == map) {
            eprintln!("{map}: script-generated, judged with its seed below");
            continue;
        }
        total.add(map, judge(&script, &wz, map));
    }
    total.assert_agreed("all");
    assert_eq!(total.matched, total.objects);
}

/// The five script-generated maps of `mp.wz`: folder and level names.
const SCRIPT_MAPS: [(&str, &str); 5] = [
    ("2c-DustyMaze", "DustyMaze"),
    ("4c-DustyMaze-2v2", "DustyMaze-2v2"),
    ("4c-DustyMaze-FFA", "DustyMaze-FFA"),
    ("6c-Entropy", "Entropy"),
    ("10c-WaterLoop", "WaterLoop"),
];

/// The game's whole log, from the work folder the judge kept (`WZMAP_KEEP=1`: its stderr
/// names it); the folder is removed.
pub(crate) fn kept_game_log(stderr: &str) -> String {
    let kept = stderr
        .lines()
        .find_map(|l| l.split("work dir kept: ").nth(1))
        .expect("the judge's kept work folder")
        .trim()
        .to_string();
    let log = std::fs::read_to_string(Path::new(&kept).join("game.log")).unwrap();
    std::fs::remove_dir_all(&kept).ok();
    log
}

/// The seed the game ran `game.js` with, from its log ("Loaded script-generated map …
/// with random seed: N").
fn game_seed(stderr: &str) -> u32 {
    kept_game_log(stderr)
        .lines()
        .find_map(|l| l.split("with random seed: ").nth(1))
        .expect("the game logs the map's seed")
        .trim()
        .parse()
        .unwrap()
}

/// The game draws a new seed for every game; its log names it, and `info --seed` runs
/// `game.js` with the same one: every object and height must then agree. Objects carry no
/// file key (no file), so they are paired by kind, stats id and the nearest position.
#[vitrine_test(shared, game)]
fn the_game_agrees_on_script_generated_maps() {
    let wz = common::wz2100();
    let script = map_judge();
    let mut total = Agreement::default();
    for (folder, level) in SCRIPT_MAPS {
        let game = Command::new("bash")
            .arg(&script)
            .arg(folder)
            .env("WZMAP_KEEP", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&game.stderr);
        assert!(
            matches!(game.status.code(), Some(0 | 1)),
            "{level}: {stderr}"
        );
        let seed = game_seed(&stderr);
        let game = lines(&game.stdout);
        let ours = Command::new(env!("CARGO_BIN_EXE_vitrine"))
            .args([
                "info",
                "--json",
                "--heights",
                "--seed",
                &seed.to_string(),
                "--data",
            ])
            .arg(wz.join("data/mp"))
            .arg("--data")
            .arg(wz.join("data/base"))
            .arg(format!(
                "{}!/multiplay/maps/{folder}",
                wz.join("archives/mp.wz").display()
            ))
            .output()
            .unwrap();
        let ours: Value = serde_json::from_slice(&ours.stdout)
            .unwrap_or_else(|e| panic!("{level}: info --json: {e}"));
        assert!(ours.get("error").is_none(), "{level}: {}", ours["error"]);
        let a = compare_by_place(level, &game, &ours);
        total.add(&format!("{level} (seed {seed})"), a);
    }
    total.assert_agreed("script maps");
}

/// One file of the corpus's `mp.wz`.
pub(crate) fn mp_file(wz: &Path, name: &str) -> Vec<u8> {
    use std::io::Read;
    let f = std::fs::File::open(wz.join("archives/mp.wz")).unwrap();
    let mut z = zip::ZipArchive::new(f).unwrap();
    let mut out = Vec::new();
    z.by_name(name).unwrap().read_to_end(&mut out).unwrap();
    out
}

/// Writes a zip of `files` at `path`.
pub(crate) fn write_zip(path: &Path, files: &[(String, Vec<u8>)]) {
    use std::io::Write;
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, bytes) in files {
        z.start_file(name.as_str(), opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    std::fs::write(path, z.finish().unwrap().into_inner()).unwrap();
}

/// A JSON v1 object file of `mp.wz` as version 2 (`list`: `structures`, …).
pub(crate) fn json_v2(v1: &[u8], list: &str) -> Vec<u8> {
    let v1: Value = serde_json::from_slice(v1).unwrap();
    let entries: Vec<Value> = v1
        .as_object()
        .unwrap()
        .values()
        .map(|o| {
            let mut e = o.clone();
            e["position"] = serde_json::json!([o["position"][0], o["position"][1]]);
            e["rotation"] = o["rotation"][0].clone();
            e
        })
        .collect();
    serde_json::to_vec(&serde_json::json!({"version": 2, list: entries})).unwrap()
}

/// Packages in two of the three shapes, built from `mp.wz` maps: a classic package whose
/// objects are BJO only (5c-bloat's `struct.bjo` lists 55 modules as records of their
/// own), and a 4.x map-database package (root `level.json`, JSON v2) of 2c-highground.
/// The judge cannot tie BJO objects to their records, so objects are matched by kind,
/// stats id and the nearest position.
#[vitrine_test(shared, game)]
fn the_game_agrees_on_packages_in_each_shape() {
    let wz = common::wz2100();
    let script = map_judge();
    let dir = common::temp_dir("map-packages");
    let bloat = "multiplay/maps/5c-bloat/";
    let mut classic = vec![
        (
            "bjotest.xplayers.lev".to_string(),
            b"level Sk-BjoTest\nplayers 5\ntype 14\ndataset MULTI_CAM_2\n\
              game \"multiplay/maps/bjotest.gam\"\n"
                .to_vec(),
        ),
        (
            "multiplay/maps/bjotest.gam".into(),
            mp_file(&wz, "multiplay/maps/5c-bloat.gam"),
        ),
    ];
    for f in [
        "game.map",
        "ttypes.ttp",
        "struct.bjo",
        "feat.bjo",
        "dinit.bjo",
    ] {
        classic.push((
            format!("multiplay/maps/bjotest/{f}"),
            mp_file(&wz, &format!("{bloat}{f}")),
        ));
    }
    let hg = "multiplay/maps/2c-highground/";
    let level = br#"{"name": "HgVTwo", "type": "skirmish", "players": 2, "tileset": "rockies"}"#;
    let gam = br#"{"version": 8, "gameTime": 0, "GameType": 0, "ScrollMinX": 0, "ScrollMinY": 0,
        "ScrollMaxX": 48, "ScrollMaxY": 96, "levelName": "HgVTwo"}"#;
    let database = vec![
        ("level.json".to_string(), level.to_vec()),
        ("gam.json".into(), gam.to_vec()),
        ("game.map".into(), mp_file(&wz, &format!("{hg}game.map"))),
        (
            "ttypes.ttp".into(),
            mp_file(&wz, &format!("{hg}ttypes.ttp")),
        ),
        (
            "struct.json".into(),
            json_v2(&mp_file(&wz, &format!("{hg}struct.json")), "structures"),
        ),
        (
            "feature.json".into(),
            json_v2(&mp_file(&wz, &format!("{hg}feature.json")), "features"),
        ),
        (
            "droid.json".into(),
            json_v2(&mp_file(&wz, &format!("{hg}droid.json")), "droids"),
        ),
    ];
    for (name, files, objects) in [("bjo.wz", classic, 320), ("v2.wz", database, 167)] {
        let path = dir.path().join(name);
        write_zip(&path, &files);
        let game = Command::new("bash")
            .arg(&script)
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(
            game.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&game.stderr)
        );
        let game = lines(&game.stdout);
        let ours = Command::new(env!("CARGO_BIN_EXE_vitrine"))
            .args(["info", "--json", "--heights", "--data"])
            .arg(wz.join("data/mp"))
            .arg("--data")
            .arg(wz.join("data/base"))
            .arg(&path)
            .output()
            .unwrap();
        let ours: Value = serde_json::from_slice(&ours.stdout).unwrap();
        let a = compare_by_place(name, &game, &ours);
        eprintln!(
            "{name}: objects {}/{}, heights {}/{}",
            a.matched, a.objects, a.heights_matched, a.heights
        );
        assert!(a.other.is_empty(), "{}", a.other.join("\n"));
        assert_eq!((a.matched, a.objects), (objects, objects));
    }
}

/// [`compare`] with objects matched by kind, stats id and the nearest position (for
/// files whose entries the judge cannot name): each pair gets a shared key.
fn compare_by_place(map: &str, game: &[Value], ours: &Value) -> Agreement {
    let is_object =
        |v: &&Value| matches!(v["kind"].as_str(), Some("structure" | "feature" | "droid"));
    let mut mine: Vec<Value> = ours["objects"].as_array().unwrap().clone();
    let mut paired = Vec::new();
    let mut keyed: Vec<Value> = game.iter().filter(|v| !is_object(v)).cloned().collect();
    for (n, g) in game.iter().filter(is_object).enumerate() {
        let dist = |m: &Value| {
            (m["x"].as_i64().unwrap_or(0) - g["x"].as_i64().unwrap_or(0)).abs()
                + (m["y"].as_i64().unwrap_or(0) - g["y"].as_i64().unwrap_or(0)).abs()
        };
        let best = mine
            .iter()
            .enumerate()
            .filter(|(_, m)| m["kind"] == g["kind"] && m["stats_id"] == g["name"])
            .min_by_key(|(_, m)| dist(m))
            .map(|(i, _)| i);
        let key = Value::String(format!("#{n}"));
        if let Some(i) = best {
            let mut m = mine.remove(i);
            m["key"] = key.clone();
            paired.push(m);
        }
        let mut g = g.clone();
        g["map_key"] = key;
        keyed.push(g);
    }
    let mut ours = ours.clone();
    paired.extend(mine);
    ours["objects"] = Value::Array(paired);
    compare(map, &keyed, &ours)
}
