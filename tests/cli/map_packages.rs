//! Map packages in the shapes map makers ship them, built here (small maps, written to a
//! temporary folder), opened by `info`, `check`, `render` and `thumbnail` with no flag:
//! FlaME's three levels over one map with BJO and INI objects, several maps in one
//! package, the map database's root shape, a script map calling a helper 4.3.3 does not
//! have, a folder of packages; `--level` by a map's name and by a level's, in any case;
//! broken levels named at their line while the package's other maps still open. The
//! game (`../shared/tools/wz_game_map.sh`) judges the shapes: it places what Vitrine
//! places, and loads no map of a package of two (`check`'s `map/package-several-maps`).

use crate::common;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vitrine_test_needs::vitrine_test;

fn vitrine(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(args)
        .output()
        .unwrap()
}

fn run(args: &[&str], path: &Path) -> Output {
    let mut a: Vec<&std::ffi::OsStr> = args.iter().map(|s| s.as_ref()).collect();
    a.push(path.as_os_str());
    vitrine(&a)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `game.map` version 10, 16×16 tiles, heights rising to the east.
pub(crate) fn game_map() -> Vec<u8> {
    let mut b = b"map ".to_vec();
    for v in [10u32, 16, 16] {
        b.extend(v.to_le_bytes());
    }
    for i in 0..256u32 {
        b.extend(((i % 3) as u16).to_le_bytes());
        b.push((i % 16 * 8) as u8);
    }
    b.extend(1u32.to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b
}

pub(crate) fn ttypes() -> Vec<u8> {
    let mut b = b"ttyp".to_vec();
    b.extend(8u32.to_le_bytes());
    b.extend(3u32.to_le_bytes());
    b.extend([0u8; 6]);
    b
}

pub(crate) fn gam() -> Vec<u8> {
    let mut b = b"game".to_vec();
    for v in [8u32, 0, 0, 0, 0, 16, 16] {
        b.extend(v.to_le_bytes());
    }
    b.extend([0u8; 20]);
    b
}

/// A BJO of `magic` (version 8) with one record per `(name, x, y, player)`: `feat` and
/// `dint` records of 76 bytes, `stru` of 120.
fn bjo(magic: &[u8; 4], objects: &[(&str, u32, u32, u32)]) -> Vec<u8> {
    let mut b = magic.to_vec();
    b.extend(8u32.to_le_bytes());
    b.extend((objects.len() as u32).to_le_bytes());
    for (i, (name, x, y, player)) in objects.iter().enumerate() {
        let mut n = [0u8; 40];
        n[..name.len()].copy_from_slice(name.as_bytes());
        b.extend(n);
        for v in [i as u32 + 1, *x, *y, 0, 0, *player, 0, 0, 0] {
            b.extend(v.to_le_bytes());
        }
        if magic == b"stru" {
            b.extend([1u8, 0, 0, 0]);
            b.extend([0u8; 4 + 9 * 4]);
        }
    }
    b
}

/// The files of a FlaME map in `multiplay/maps/{folder}`: BJO objects (a factory per
/// player, two oil resources, a truck per player) and the same in INI, which 4.x does not
/// read.
fn flame_map(folder: &str) -> Vec<(String, Vec<u8>)> {
    let d = format!("multiplay/maps/{folder}");
    let ini = "[structure_0]\nname = A0LightFactory\nposition = 704, 704, 0\nplayer = 0\n";
    vec![
        (format!("{d}.gam"), gam()),
        (format!("{d}/game.map"), game_map()),
        (format!("{d}/ttypes.ttp"), ttypes()),
        (
            format!("{d}/struct.bjo"),
            bjo(
                b"stru",
                &[
                    ("A0LightFactory", 704, 704, 0),
                    ("A0LightFactory", 1344, 1344, 1),
                ],
            ),
        ),
        (
            format!("{d}/feat.bjo"),
            bjo(
                b"feat",
                &[("OilResource", 448, 1600, 0), ("OilResource", 1600, 448, 0)],
            ),
        ),
        (
            format!("{d}/dinit.bjo"),
            bjo(
                b"dint",
                &[
                    ("ConstructorDroid", 448, 448, 0),
                    ("ConstructorDroid", 1600, 1600, 1),
                ],
            ),
        ),
        (format!("{d}/struct.ini"), ini.as_bytes().to_vec()),
    ]
}

/// FlaME's `.lev`: three levels over `multiplay/maps/{folder}.gam`.
fn flame_lev(name: &str, folder: &str) -> String {
    let mut s = String::from("// Made with FlaME 1.29 Windows\n// Author: tester\n\n");
    for (t, kind, dataset) in [
        (1, 14, "MULTI_CAM_2"),
        (2, 18, "MULTI_T2_C2"),
        (3, 19, "MULTI_T3_C2"),
    ] {
        s += &format!(
            "level {name}-T{t}\nplayers 2\ntype {kind}\ndataset {dataset}\n\
             game \"multiplay/maps/{folder}.gam\"\n"
        );
    }
    s
}

pub(crate) fn write_zip(path: &Path, entries: &[(String, Vec<u8>)]) -> PathBuf {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in entries {
        z.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
    path.to_path_buf()
}

/// `Flame.wz`: FlaME's three levels over one map.
fn flame_package(dir: &Path) -> PathBuf {
    let mut e = flame_map("2c-flame");
    e.push((
        "Flame.xplayers.lev".into(),
        flame_lev("Flame", "2c-flame").into_bytes(),
    ));
    write_zip(&dir.join("Flame.wz"), &e)
}

/// `Pack.wz`: two different maps, three levels each, in one `.addon.lev`.
fn pack_package(dir: &Path) -> PathBuf {
    let mut e = flame_map("2c-alpha");
    e.extend(flame_map("2c-beta"));
    let lev = flame_lev("Alpha", "2c-alpha") + &flame_lev("Beta", "2c-beta");
    e.push(("Pack.addon.lev".into(), lev.into_bytes()));
    write_zip(&dir.join("Pack.wz"), &e)
}

/// `Db.wz`: the map database's shape, every file at the root, JSON v2 objects.
fn database_package(dir: &Path) -> PathBuf {
    let level = r#"{"name": "Db", "type": "skirmish", "players": 2, "tileset": "rockies",
        "author": {"name": "tester"}, "spdx-license-id": "CC0-1.0"}"#;
    let structs = r#"{"version": 2, "structures": [
        {"name": "A0LightFactory", "position": [704, 704], "rotation": 0, "startpos": 0},
        {"name": "A0LightFactory", "position": [1344, 1344], "rotation": 0, "startpos": 1}]}"#;
    let features = r#"{"version": 2, "features": [{"name": "OilResource", "position": [448, 1600], "rotation": 0}]}"#;
    let droids = r#"{"version": 2, "droids": []}"#;
    let gam = r#"{"version": 7, "gameTime": 0, "GameType": 0, "ScrollMinX": 0, "ScrollMinY": 0,
        "ScrollMaxX": 16, "ScrollMaxY": 16, "levelName": ""}"#;
    let e: Vec<(String, Vec<u8>)> = vec![
        ("level.json".into(), level.into()),
        ("game.map".into(), game_map()),
        ("ttypes.ttp".into(), ttypes()),
        ("gam.json".into(), gam.into()),
        ("struct.json".into(), structs.into()),
        ("feature.json".into(), features.into()),
        ("droid.json".into(), droids.into()),
    ];
    write_zip(&dir.join("Db.wz"), &e)
}

/// The `info --json` lines of `path` (with `extra` options): one object per map.
fn info_json(path: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["info", "--json"];
    args.extend(extra);
    let o = run(&args, path);
    assert!(o.status.success(), "{o:?}");
    stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn flames_three_levels_are_one_map_and_info_names_the_level_taken() {
    let tmp = common::temp_dir("map-packages-flame");
    let wz = flame_package(tmp.path());
    let maps = info_json(&wz, &[]);
    assert_eq!(maps.len(), 1, "{maps:?}");
    let m = &maps[0];
    assert_eq!(
        (m["map"].as_str(), m["level"].as_str()),
        (Some("Flame"), Some("Flame-T1"))
    );
    assert_eq!(m["levels"].as_array().unwrap().len(), 3);
    assert_eq!(m["tileset"], "urban");
    // The BJO objects are read; the INI is listed, not read.
    assert_eq!(m["file_counts"]["structure"], 2);
    assert_eq!(m["file_counts"]["feature"], 2);
    assert_eq!(m["file_counts"]["droid"], 2);
    let ini = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "struct.ini");
    assert_eq!(ini.map(|f| f["used"].clone()), Some(Value::Bool(false)));
    // The text names the level taken.
    let text = stdout(&run(&["info"], &wz));
    assert!(text.contains("Warzone 2100 map Flame\n"), "{text}");
    assert!(
        text.contains("level: Flame-T1, the one of Flame-T1, Flame-T2, Flame-T3"),
        "{text}"
    );
    // --level: the map's name or any level's, in any case.
    for want in ["flame", "FLAME-t2", "Flame-T3", "flame-t1"] {
        let maps = info_json(&wz, &["--level", want]);
        assert_eq!(maps[0]["map"], "Flame", "{want}");
    }
    let o = run(&["info", "--level", "nothing"], &wz);
    assert!(!o.status.success());
    assert_eq!(stdout(&o), "", "errors go to standard error");
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(
        text.contains("its maps: Flame (levels Flame-T1, Flame-T2, Flame-T3)"),
        "{text}"
    );
    // check takes the one map.
    let o = run(&["check"], &wz);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(stdout(&o).contains("checked 1 map"), "{}{err}", stdout(&o));
    assert!(!stdout(&o).contains("maps here"), "{}", stdout(&o));
}

#[test]
fn several_maps_the_database_shape_and_a_folder_of_packages_open_with_no_flag() {
    let tmp = common::temp_dir("map-packages-several");
    let pack = pack_package(tmp.path());
    let maps = info_json(&pack, &[]);
    let names: Vec<&str> = maps.iter().map(|m| m["map"].as_str().unwrap()).collect();
    assert_eq!(names, ["Alpha", "Beta"], "each map once");
    assert_eq!(info_json(&pack, &["--level", "beta-T2"])[0]["map"], "Beta");
    let o = run(&["info", "--level", "gamma"], &pack);
    let text = String::from_utf8_lossy(&o.stderr);
    assert_eq!(text.matches("Alpha (levels").count(), 1, "{text}");
    assert_eq!(text.matches("Beta (levels").count(), 1, "{text}");

    let db = database_package(tmp.path());
    let maps = info_json(&db, &[]);
    assert_eq!((maps.len(), maps[0]["map"].as_str()), (1, Some("Db")));
    assert_eq!(maps[0]["shape"], "level_json");
    assert_eq!(maps[0]["file_counts"]["structure"], 2);

    // The folder of the three packages: every map, once.
    flame_package(tmp.path());
    std::fs::write(tmp.path().join("readme.txt"), "maps").unwrap();
    let maps = info_json(tmp.path(), &[]);
    let mut names: Vec<&str> = maps.iter().map(|m| m["map"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["Alpha", "Beta", "Db", "Flame"]);
    let o = run(&["check"], tmp.path());
    assert!(stdout(&o).contains("checked 4 maps"), "{o:?}");
    assert_eq!(info_json(tmp.path(), &["--level", "DB"])[0]["map"], "Db");
    // The game lists no map of a package of two (judged below): one error, on Pack.wz
    // alone, whichever of its maps is asked for; none on the packages of one map.
    let several = |path: &Path, extra: &[&str]| -> Vec<Value> {
        let mut args = vec!["check", "--json", "--rules", "game"];
        args.extend(extra);
        stdout(&run(&args, path))
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|f| f["rule"] == "map/package-several-maps")
            .collect()
    };
    let found = several(tmp.path(), &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["level"], "error");
    assert!(
        found[0]["file"].as_str().unwrap().ends_with("Pack.wz"),
        "{found:?}"
    );
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("2 maps in one package (Alpha, Beta)"),
        "{found:?}"
    );
    assert_eq!(several(&pack, &["--level", "beta"]).len(), 1);
    assert!(several(&db, &[]).is_empty());
}

#[test]
fn broken_levels_are_named_at_their_line_and_the_other_maps_open() {
    let tmp = common::temp_dir("map-packages-broken");
    let mut e = flame_map("2c-good");
    let lev = flame_lev("Good", "2c-good")
        + "level Lost\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/2c-elsewhere.gam\"\n\
           level Up\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"../../up.gam\"\n";
    e.push(("Broken.xplayers.lev".into(), lev.into_bytes()));
    e.push((
        "multiplay/maps/2c-json/level.json".into(),
        b"{\"name\": \"J\",\n\"type\": \"skirmish\",\n\"players\": \"two\",\n\"tileset\": 3}"
            .to_vec(),
    ));
    e.push(("multiplay/maps/2c-json/game.map".into(), game_map()));
    let wz = write_zip(&tmp.path().join("Broken.wz"), &e);
    let maps = info_json(&wz, &[]);
    let names: Vec<&str> = maps.iter().map(|m| m["map"].as_str().unwrap()).collect();
    assert_eq!(names, ["Good", "J"], "the maps that are there open");
    let problems: Vec<String> = maps[0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let has = |what: &str| problems.iter().any(|p| p.contains(what));
    // FlaME's 18 lines, then Lost's `game` at line 23 and Up's at 28.
    assert!(
        has("Broken.xplayers.lev:23: level \"Lost\""),
        "{problems:#?}"
    );
    assert!(
        has("Broken.xplayers.lev:28: level \"Up\": game \"../../up.gam\" leaves the package"),
        "{problems:#?}"
    );
    assert!(
        has("2c-json/level.json:3: \"players\" is \"two\""),
        "{problems:#?}"
    );
    assert!(
        has("2c-json/level.json:4: \"tileset\" is 3, not a string"),
        "{problems:#?}"
    );
    // check: each a finding with its rule; the two maps still checked.
    let o = run(&["check", "--json"], &wz);
    let text = stdout(&o);
    assert!(
        text.contains("map/level-refused") && text.contains("map/level-json"),
        "{text}"
    );
    let o = run(&["check"], &wz);
    assert!(stdout(&o).contains("checked 2 maps"), "{}", stdout(&o));
}

#[test]
fn a_script_calling_a_newer_helper_says_a_newer_game_is_needed() {
    let tmp = common::temp_dir("map-packages-newer");
    let level = r#"{"name": "Fractal", "type": "skirmish", "players": 2, "tileset": "arizona"}"#;
    let js = "const w = 16;\nconst h = generateFractalValueNoise(w, w, 510, 6, 32);\n\
              setMapData(w, w, Array(w * w).fill(0), h, [], [], []);\n";
    let wz = write_zip(
        &tmp.path().join("Fractal.wz"),
        &[
            ("level.json".into(), level.into()),
            ("game.js".into(), js.into()),
            ("ttypes.ttp".into(), ttypes()),
        ],
    );
    let o = run(&["info"], &wz);
    assert!(!o.status.success());
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(
        text.contains("calls generateFractalValueNoise")
            && text.contains("4.3.3 does not have")
            && text.contains("a newer game is needed"),
        "{text}"
    );
}

/// The PNG files in `dir`.
fn pngs(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png"))
        .collect();
    n.sort();
    n
}

#[vitrine_test(gpu)]
fn render_and_thumbnail_draw_each_map_once_with_no_flag() {
    let tmp = common::temp_dir("map-packages-render");
    let packages = tmp.path().join("maps");
    std::fs::create_dir_all(&packages).unwrap();
    let flame = flame_package(&packages);
    let pack = pack_package(&packages);
    database_package(&packages);
    // One map: one picture.
    let out = tmp.path().join("flame.png");
    let o = vitrine(&[
        "render".as_ref(),
        flame.as_os_str(),
        "--size".as_ref(),
        "96x96".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(image::open(&out).unwrap().width(), 96);
    // Several maps: a picture each in the output folder.
    let out = tmp.path().join("pack");
    let o = vitrine(&[
        "render".as_ref(),
        pack.as_os_str(),
        "--size".as_ref(),
        "64x64".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(pngs(&out), ["Alpha.png", "Beta.png"]);
    // A folder of packages, --all-maps: the four maps, the three-level ones once.
    let out = tmp.path().join("all");
    let o = vitrine(&[
        "render".as_ref(),
        packages.as_os_str(),
        "--all-maps".as_ref(),
        "--size".as_ref(),
        "64x64".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(pngs(&out), ["Alpha.png", "Beta.png", "Db.png", "Flame.png"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("4 of 4 maps rendered"), "{err}");
    // The thumbnailer draws the map's preview.
    let thumb = tmp.path().join("thumb.png");
    let o = vitrine(&[
        "thumbnail".as_ref(),
        flame.as_os_str(),
        thumb.as_os_str(),
        "64".as_ref(),
        "--timeout".as_ref(),
        "300".as_ref(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let img = image::open(&thumb).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (64, 64));
    assert_eq!(img.get_pixel(0, 0)[3], 0, "the corner is background");
    let drawn = img.pixels().filter(|p| p[3] == 255).count();
    assert!(
        drawn > 64 * 64 / 10,
        "the map covers the picture: {drawn} pixels"
    );
}

/// The game as judge of the shapes built here: FlaME's three levels over one map (BJO
/// objects beside an INI the game does not read) and the database's root shape — the
/// game places what `info` places (`map_refusals::judge_package`: structures, droids and
/// features, each by kind, name, tile and owner), and `check` has no error where the game
/// builds them all — and a package of two maps, of which the game loads neither
/// (`check`'s `map/package-several-maps`, tried above). The game's own `mp.wz` of 44 maps
/// is no such package.
#[vitrine_test(shared, game)]
fn the_game_places_what_vitrine_places_in_each_shape() {
    let wz = common::wz2100();
    let script = crate::map_judge::map_judge();
    let tmp = common::temp_dir("map-packages-judged");
    for path in [flame_package(tmp.path()), database_package(tmp.path())] {
        let e = crate::map_refusals::judge_package(&wz, &script, &path, None, true);
        assert!(e.dropped.is_empty() && e.kept.is_empty(), "{path:?}");
        assert!(e.rules.is_empty(), "{path:?}: {:?}", e.rules);
    }
    let pack = pack_package(tmp.path());
    for level in ["Alpha-T1", "Beta-T2"] {
        let o = Command::new("bash")
            .arg(&script)
            .arg(&pack)
            .args(["--level", level])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{level}: {err}");
        assert!(err.contains(&format!("Map {level} not found")), "{err}");
    }
    let mp = wz.join("archives/mp.wz");
    let o = run(
        &["check", "--json", "--rules", "game", "--level", "Sk-Rush"],
        &mp,
    );
    let out = stdout(&o);
    assert!(
        out.contains("\"rule\":\"map/"),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(!out.contains("map/package-several-maps"));
}
