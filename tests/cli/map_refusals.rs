//! The real game as the judge of what Vitrine refuses on loading a map
//! (`../shared/tools/wz_game_map.sh`): packages built here with every kind of entry the
//! game refuses, in JSON v1, JSON v2 and BJO, and map-database maps that run into the
//! building limits. On each, Vitrine's placed objects are the game's, and `check`'s
//! errors on objects are exactly the entries the game did not build (the judge's
//! `map_only` lines of `refused` or `missing`); the errors on objects the game keeps
//! (`map/entry-value-unread`, `map/modules-unfit`) each quote a line of the game's log.
//! Marked `#[vitrine_test(shared, game)]`: reported ignored without the game.

use crate::common;
use crate::map_judge::{kept_game_log, lines, map_judge, mp_file, write_zip};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use vitrine_test_needs::vitrine_test;

/// `vitrine ARGS --data mp --data base PATH` from the corpus's data roots.
fn vitrine(wz: &Path, args: &[&str], path: &Path) -> Vec<u8> {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(args)
        .arg("--data")
        .arg(wz.join("data/mp"))
        .arg("--data")
        .arg(wz.join("data/base"))
        .arg(path)
        .output()
        .unwrap()
        .stdout
}

/// The game on `path`: its lines and its whole log (the judge's stderr shows 20 error
/// lines; its kept work folder has them all, and is removed here).
fn game(script: &Path, path: &Path, level: Option<&str>) -> (Vec<Value>, String) {
    let o = Command::new("bash")
        .arg(script)
        .arg(path)
        .args(level.map(|l| ["--level", l]).into_iter().flatten())
        .env("WZMAP_KEEP", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}: {err}",
        path.display()
    );
    (lines(&o.stdout), kept_game_log(&err))
}

/// `(kind, key)` of each entry the game did not build for a loader error. A droid the
/// judge calls `missing` while the game holds a droid it could tie to no entry on that very
/// spot was built: the game named it by its parts ("Truck *Baba Jeep Body* ": a scavenger
/// template whose parts 4.3.3 swaps), which the judge matches to no template.
fn game_refused(game: &[Value]) -> BTreeSet<(String, String)> {
    let untied: Vec<(&Value, &Value)> = game
        .iter()
        .filter(|g| g["kind"] == "droid" && g["map_key"].is_null())
        .map(|g| (&g["x"], &g["y"]))
        .collect();
    game.iter()
        .filter(|g| {
            g["kind"] == "map_only" && matches!(g["why"].as_str(), Some("refused" | "missing"))
        })
        .filter(|g| {
            !(g["why"] == "missing"
                && g["map_kind"] == "droid"
                && untied.contains(&(&g["x"], &g["y"])))
        })
        .map(|g| {
            (
                g["map_kind"].as_str().unwrap().to_string(),
                g["map_key"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `check --json`'s error findings: on objects the game drops (`(kind, key)`), and on
/// objects it keeps (`(rule, message)`), told apart by `info`'s placed keys.
pub(crate) struct Errors {
    pub(crate) dropped: BTreeSet<(String, String)>,
    pub(crate) kept: Vec<(String, String)>,
    pub(crate) rules: BTreeSet<String>,
}

fn errors(wz: &Path, path: &Path, level: &[&str], info: &Value) -> Errors {
    let placed: BTreeSet<(String, String)> = info["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["kind"].as_str().unwrap().into(),
                o["key"].as_str().unwrap().into(),
            )
        })
        .collect();
    let args = [&["check", "--json", "--rules", "game"][..], level].concat();
    let out = vitrine(wz, &args, path);
    let mut e = Errors {
        dropped: BTreeSet::new(),
        kept: Vec::new(),
        rules: BTreeSet::new(),
    };
    for f in lines(&out).iter().filter(|f| f["level"] == "error") {
        e.rules.insert(f["rule"].as_str().unwrap().to_string());
        if f["element"]["kind"] != "object" {
            continue;
        }
        // "structure NAME [KEY] at (x, y): message"
        let m = f["message"].as_str().unwrap();
        let kind = m.split(' ').next().unwrap().to_string();
        let key = m
            .split(" [")
            .nth(1)
            .and_then(|r| r.split("] at").next())
            .unwrap()
            .to_string();
        let message = m.split("): ").nth(1).unwrap_or_default().to_string();
        if placed.contains(&(kind.clone(), key.clone())) {
            e.kept
                .push((f["rule"].as_str().unwrap().to_string(), message));
        } else {
            e.dropped.insert((kind, key));
        }
    }
    e
}

/// Free tile centres of `info`'s map, at least 3 tiles from every object and 4 from the
/// edge, `step` tiles apart.
fn free_tiles(info: &Value, step: i64) -> Vec<(i64, i64)> {
    let (w, h) = (
        info["width"].as_i64().unwrap(),
        info["height"].as_i64().unwrap(),
    );
    let taken: Vec<(i64, i64)> = info["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["x"].as_i64().unwrap() / 128,
                o["y"].as_i64().unwrap() / 128,
            )
        })
        .collect();
    let mut out = Vec::new();
    for ty in (5..h - 5).step_by(step as usize) {
        for tx in (5..w - 5).step_by(step as usize) {
            if taken
                .iter()
                .all(|&(x, y)| (x - tx).abs() > 3 || (y - ty).abs() > 3)
            {
                out.push((tx, ty));
            }
        }
    }
    out
}

/// Every kind of entry the game refuses (or logs and keeps), as JSON v1 entries at free
/// tiles: player 0 gets 6 research facilities more than it has room for under its limit
/// of 5, each with a module record.
fn planted(free: &[(i64, i64)]) -> Vec<(String, Value)> {
    let at = |i: usize| {
        let (x, y) = free[i];
        json!([x * 128 + 64, y * 128 + 64, 0])
    };
    let mut v = vec![
        ("zz_string_id", json!({"id": "A0TankTrap", "name": "A0TankTrap", "position": at(0), "rotation": [0, 0, 0], "startpos": 0})),
        ("zz_id_zero", json!({"id": 0, "name": "A0TankTrap", "position": at(1), "rotation": [0, 0, 0], "startpos": 0})),
        ("zz_no_position", json!({"name": "A0TankTrap", "rotation": [0, 0, 0], "startpos": 0})),
        ("zz_string_player", json!({"name": "A0TankTrap", "position": at(2), "rotation": [0, 0, 0], "player": "1"})),
        ("zz_modules_256", json!({"name": "A0LightFactory", "position": at(3), "rotation": [0, 0, 0], "startpos": 1, "modules": 256})),
        ("zz_unknown", json!({"name": "A0NoSuchThing", "position": at(4), "rotation": [0, 0, 0], "startpos": 1})),
        ("zz_near_edge", json!({"name": "A0TankTrap", "position": [192, 192, 0], "rotation": [0, 0, 0], "startpos": 1})),
        ("zz_rotation_number", json!({"name": "A0TankTrap", "position": at(5), "rotation": 16384, "startpos": 0})),
        ("zz_wall_modules", json!({"name": "A0HardcreteMk1Wall", "position": at(6), "rotation": [0, 0, 0], "startpos": 0, "modules": 1})),
    ]
    .into_iter()
    .map(|(k, e)| (k.to_string(), e))
    .collect::<Vec<_>>();
    for i in 0..6 {
        let p = at(7 + i);
        v.push((format!("zz_research_{i}"), json!({"name": "A0ResearchFacility", "position": p, "rotation": [0, 0, 0], "startpos": 0})));
        v.push((format!("zz_research_{i}_module"), json!({"name": "A0ResearchModule1", "position": p, "rotation": [0, 0, 0], "startpos": 0})));
    }
    v
}

/// One judged package (`level`: the judge's level and Vitrine's `--level`, where the
/// package holds several maps): the placement agrees, and check's errors are where the
/// game's are.
pub(crate) fn judge_package(
    wz: &Path,
    script: &Path,
    path: &Path,
    level: Option<(&str, &str)>,
    by_key: bool,
) -> Errors {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let (game, log) = game(script, path, level.map(|l| l.0));
    let ours_level: Vec<&str> = level.map(|l| vec!["--level", l.1]).unwrap_or_default();
    let args = [&["info", "--json"][..], &ours_level].concat();
    let ours: Value = serde_json::from_slice(&vitrine(wz, &args, path)).unwrap();
    // The same objects: each of the game's is Vitrine's (kind, stats id, tile, owner and
    // modules; heights are `map_judge.rs`'s business), and no more.
    // Droids are named by template in Vitrine, by parts in the judge (names with spaces,
    // such as "Truck *Baba Jeep Body* "): a droid by its tile and owner.
    let placed = |v: &Value, name_key: &str, player: &Value| {
        let name = if v["kind"] == "droid" {
            &Value::Null
        } else {
            &v[name_key]
        };
        format!(
            "{} {} {} {} {} {}",
            v["kind"],
            name,
            v["x"].as_i64().unwrap() / 128,
            v["y"].as_i64().unwrap() / 128,
            player,
            v["modules"]
        )
    };
    let mut theirs: Vec<String> = game
        .iter()
        .filter(|g| matches!(g["kind"].as_str(), Some("structure" | "droid")))
        .map(|g| placed(g, "name", &g["player"]))
        .collect();
    let mut mine: Vec<String> = ours["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["kind"] != "feature")
        .map(|o| placed(o, "stats_id", &o["player"]))
        .collect();
    theirs.sort();
    mine.sort();
    let only = |a: &[String], b: &[String]| {
        let mut b = b.to_vec();
        a.iter()
            .filter(|x| match b.iter().position(|y| y == *x) {
                Some(k) => {
                    b.remove(k);
                    false
                }
                None => true,
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    assert!(
        theirs == mine,
        "{name}: the game's only {:?}; Vitrine's only {:?}",
        only(&theirs, &mine),
        only(&mine, &theirs)
    );
    let features = |v: &[Value]| v.iter().filter(|o| o["kind"] == "feature").count();
    assert_eq!(
        features(&game),
        features(ours["objects"].as_array().unwrap()),
        "{name}: features"
    );
    let e = errors(wz, path, &ours_level, &ours);
    if by_key {
        // Every entry the game did not build for an error is one of check's; every
        // error of check's is an entry the game did not build, tied to it by the judge
        // or named in the game's log ("Invalid \"id\" = 0 for: 0" on an oil resource
        // the judge, seeing a derrick there, puts under it). A module beyond what its
        // building takes is merged by both (the judge's `missing`: the game says nothing).
        let merged: BTreeSet<(String, String)> = ours["removed"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["why"] == "module")
            .map(|r| {
                (
                    r["kind"].as_str().unwrap().into(),
                    r["key"].as_str().unwrap().into(),
                )
            })
            .collect();
        let refused = game_refused(&game);
        let missed: Vec<_> = refused
            .difference(&merged)
            .filter(|k| !e.dropped.contains(*k))
            .collect();
        assert!(
            missed.is_empty(),
            "{name}: the game dropped, check says nothing: {missed:?}"
        );
        let named = |key: &str| {
            let index = key
                .split('[')
                .nth(1)
                .map_or(key, |i| i.trim_end_matches(']'));
            log.contains(&format!("for: {index}\n")) || log.contains(&format!("for: {key}\n"))
        };
        let extra: Vec<_> = e
            .dropped
            .iter()
            .filter(|k| !refused.contains(*k) && !named(&k.1))
            .collect();
        assert!(
            extra.is_empty(),
            "{name}: check's errors the game does not report: {extra:?}"
        );
    }
    for (rule, message) in &e.kept {
        // The game's message, less the file and key the game prefixes.
        let words = message.split("; the direction").next().unwrap();
        assert!(
            log.contains(words),
            "{name}: {rule}: {words} not in the game's log"
        );
    }
    eprintln!(
        "{name}: {} structures and droids agree; check: {} dropped, {} kept with an error, rules {:?}",
        mine.len(),
        e.dropped.len(),
        e.kept.len(),
        e.rules
    );
    e
}

#[vitrine_test(shared, game)]
fn the_game_refuses_what_vitrine_refuses_in_each_object_format() {
    let wz = common::wz2100();
    let script = map_judge();
    let dir = common::temp_dir("map-refusals");
    let hg = "multiplay/maps/2c-highground/";
    let base_info: Value = serde_json::from_slice(&vitrine(
        &wz,
        &["info", "--json"],
        Path::new(&format!("{}!/{hg}", wz.join("archives/mp.wz").display())),
    ))
    .unwrap();
    let free = free_tiles(&base_info, 3);
    assert!(free.len() > 14, "{} free tiles", free.len());
    let mut structs: serde_json::Map<String, Value> =
        serde_json::from_slice(&mp_file(&wz, &format!("{hg}struct.json"))).unwrap();
    for (k, e) in planted(&free) {
        structs.insert(k, e);
    }
    let v1 = serde_json::to_vec(&Value::Object(structs.clone())).unwrap();
    // Version 2: the same entries as a list (positions [x, y], rotations as they are).
    let v2_list: Vec<Value> = structs
        .values()
        .map(|e| {
            let mut e = e.clone();
            if let Some(p) = e["position"].as_array().cloned() {
                e["position"] = json!([p[0], p[1]]);
            }
            e
        })
        .collect();
    let v2 = serde_json::to_vec(&json!({"version": 2, "structures": v2_list})).unwrap();
    let level = br#"{"name": "Refusals", "type": "skirmish", "players": 2, "tileset": "rockies"}"#;
    let gam = br#"{"version": 8, "gameTime": 0, "GameType": 0, "ScrollMinX": 0, "ScrollMinY": 0,
        "ScrollMaxX": 48, "ScrollMaxY": 96, "levelName": "Refusals"}"#;
    let to_v2 = |name: &str, list: &str| {
        crate::map_judge::json_v2(&mp_file(&wz, &format!("{hg}{name}")), list)
    };
    let mut want_rules: BTreeSet<&str> = [
        "map/entry-key-type",
        "map/entry-id-zero",
        "map/entry-key-missing",
        "map/entry-modules-range",
        "map/unknown-stats",
        "map/structure-near-edge",
        "map/structure-limit",
        "map/module-orphan",
        "map/modules-unfit",
    ]
    .into();
    for (name, structs, v) in [("v1.wz", v1, 1), ("v2.wz", v2, 2)] {
        let mut files = vec![
            ("level.json".to_string(), level.to_vec()),
            ("gam.json".into(), gam.to_vec()),
            ("game.map".into(), mp_file(&wz, &format!("{hg}game.map"))),
            (
                "ttypes.ttp".into(),
                mp_file(&wz, &format!("{hg}ttypes.ttp")),
            ),
            ("struct.json".into(), structs),
        ];
        if v == 1 {
            files.push((
                "feature.json".into(),
                mp_file(&wz, &format!("{hg}feature.json")),
            ));
            files.push((
                "droid.json".into(),
                mp_file(&wz, &format!("{hg}droid.json")),
            ));
        } else {
            files.push(("feature.json".into(), to_v2("feature.json", "features")));
            files.push(("droid.json".into(), to_v2("droid.json", "droids")));
        }
        let path = dir.path().join(name);
        write_zip(&path, &files);
        let e = judge_package(&wz, &script, &path, None, true);
        // Version 1's rotation given as a number; version 2's rotations kept as v1's
        // three-member lists: the game logs both and reads on.
        let mut want = want_rules.clone();
        want.insert("map/entry-value-unread");
        assert_eq!(
            e.rules.iter().map(String::as_str).collect::<BTreeSet<_>>(),
            want,
            "{name}"
        );
    }
    want_rules.clear();
    // BJO: 5c-bloat's records and, after them, 12 power generators for player 0 (limit
    // 10) each with a module record, an unknown name and one too near the edge.
    let bloat = "multiplay/maps/5c-bloat/";
    let bloat_info: Value = serde_json::from_slice(&vitrine(
        &wz,
        &["info", "--json"],
        Path::new(&format!("{}!/{bloat}", wz.join("archives/mp.wz").display())),
    ))
    .unwrap();
    let free = free_tiles(&bloat_info, 4);
    let mut bjo = mp_file(&wz, &format!("{bloat}struct.bjo"));
    let record = |name: &str, (x, y): (i64, i64), player: u32| {
        let mut r = vec![0u8; 40];
        r[..name.len()].copy_from_slice(name.as_bytes());
        for w in [
            0,
            x as u32 * 128 + 128,
            y as u32 * 128 + 128,
            0,
            0,
            player,
            0,
            0,
            0,
        ] {
            r.extend(w.to_le_bytes());
        }
        r.push(1);
        r.extend([0u8; 43]);
        r
    };
    let mut added = Vec::new();
    for &tile in &free[..12] {
        added.push(record("A0PowerGenerator", tile, 0));
        added.push(record("A0PowMod1", tile, 0));
    }
    added.push(record("A0NoSuchThing", free[12], 1));
    added.push(record("A0TankTrap", (0, 0), 1));
    let count = u32::from_le_bytes(bjo[8..12].try_into().unwrap()) + added.len() as u32;
    bjo[8..12].copy_from_slice(&count.to_le_bytes());
    bjo.extend(added.concat());
    let mut classic = vec![
        (
            "refusals.xplayers.lev".to_string(),
            b"level Sk-Refusals\nplayers 5\ntype 14\ndataset MULTI_CAM_2\ngame \"multiplay/maps/refusals.gam\"\n".to_vec(),
        ),
        ("multiplay/maps/refusals.gam".into(), mp_file(&wz, "multiplay/maps/5c-bloat.gam")),
        ("multiplay/maps/refusals/struct.bjo".into(), bjo),
    ];
    for f in ["game.map", "ttypes.ttp", "feat.bjo", "dinit.bjo"] {
        classic.push((
            format!("multiplay/maps/refusals/{f}"),
            mp_file(&wz, &format!("{bloat}{f}")),
        ));
    }
    let path = dir.path().join("bjo.wz");
    write_zip(&path, &classic);
    let e = judge_package(&wz, &script, &path, None, false);
    let want: BTreeSet<String> = [
        "map/structure-limit",
        "map/module-orphan",
        "map/unknown-stats",
        "map/structure-near-edge",
    ]
    .map(String::from)
    .into();
    assert!(want.is_subset(&e.rules), "{:?}", e.rules);
}

/// Map-database maps that run into the building limits (and one whose first feature has
/// id 0; Scrappy_Mountain, Entry and Face_Hare: scavenger droids the game names by their
/// parts, unknown HQ variants): the game's placement and check's errors, map by map.
#[vitrine_test(shared, game)]
fn the_game_agrees_on_map_database_maps_at_their_limits() {
    let wz = common::wz2100();
    let script = map_judge();
    let db = wz.join("mapdb-2p");
    let mut limited = 0;
    for map in [
        "InstaWar",
        "NoArtyMap1vs1",
        "horizon7",
        "Sepi",
        "RQ_face2face",
        "ExperimentArena",
        "Confrontation",
        "Scrappy_Mountain",
        "Entry",
        "Face_Hare",
    ] {
        let e = judge_package(&wz, &script, &db.join(format!("{map}.wz")), None, true);
        limited += usize::from(e.rules.contains("map/structure-limit"));
    }
    assert_eq!(limited, 7);
}
