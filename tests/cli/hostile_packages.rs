//! Hostile map packages (issue 46), each built here in a temporary folder (small maps, no
//! stored file): a `.lev` whose `game` climbs above its package, levels whose names make
//! one file name, object files the game never opens made broken, huge or a FIFO, `info`'s
//! errors, the thumbnailer on a 4.x package and on a script that never ends, and what
//! `render`, `check`, `info` and `thumbnail` write outside the output they are given
//! (nothing, with the home and XDG folders pointed at an empty folder).
//! docs/reliability.md ("Hostile map packages") lists each attack and what happens.

use crate::common;
use crate::map_packages::{gam, game_map, ttypes, write_zip};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use vitrine_test_needs::vitrine_test;

fn vitrine<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(args)
        .output()
        .unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `entries` (path, bytes) under `root`.
fn write_folder(root: &Path, entries: &[(String, Vec<u8>)]) -> PathBuf {
    for (name, bytes) in entries {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    root.to_path_buf()
}

/// A classic map folder `multiplay/maps/{name}` with its `.gam` (no objects).
fn map_folder(name: &str) -> Vec<(String, Vec<u8>)> {
    let d = format!("multiplay/maps/{name}");
    vec![
        (format!("{d}.gam"), gam()),
        (format!("{d}/game.map"), game_map()),
        (format!("{d}/ttypes.ttp"), ttypes()),
    ]
}

/// A `.lev` level (5 lines and a blank one) named `name` over `game`.
fn lev_level(name: &str, game: &str) -> String {
    format!("level {name}\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"{game}\"\n\n")
}

/// The files in `dir` and below, relative to it, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            found.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() && !p.is_symlink() {
                todo.push(p);
            }
        }
    }
    found.sort();
    found
}

/// The `check --json` findings of `path` (every rule).
fn findings(path: &Path) -> Vec<Value> {
    out(&vitrine(&[
        "check".as_ref(),
        "--json".as_ref(),
        path.as_os_str(),
    ]))
    .lines()
    .map(|l| serde_json::from_str(l).unwrap())
    .filter(|f: &Value| f.get("rule").is_some())
    .collect()
}

/// The `.lev` of the climbing attack: `game` above the package by `..`, by `..` after a
/// folder, with Windows separators, and absolute.
const CLIMBING: [&str; 4] = [
    "../../../secret/s.gam",
    "multiplay/maps/../../../../secret/s.gam",
    "..\\..\\..\\secret\\s.gam",
    "/secret/s.gam",
];

/// `home/user/maps/pkg` (a folder package) and `home/user/maps/Evil.wz` (the same as an
/// archive), whose `.lev` names the map `home/secret/s` above them in four ways.
fn climbing_packages(root: &Path) -> (PathBuf, PathBuf) {
    let mut secret = map_folder("s");
    for (name, _) in &mut secret {
        *name = name.replace("multiplay/maps/", "home/secret/");
    }
    write_folder(root, &secret);
    let lev: String = CLIMBING
        .iter()
        .enumerate()
        .map(|(i, g)| lev_level(&format!("Evil{i}"), g))
        .collect();
    let entries = vec![("Evil.xplayers.lev".to_string(), lev.into_bytes())];
    let maps = root.join("home/user/maps");
    let folder = write_folder(&maps.join("pkg"), &entries);
    let archive = write_zip(&maps.join("Evil.wz"), &entries);
    (folder, archive)
}

#[test]
fn a_level_naming_a_map_above_its_package_reads_nothing_there_and_says_where() {
    let tmp = common::temp_dir("hostile-climb");
    let (folder, archive) = climbing_packages(tmp.path());
    for package in [&folder, &archive] {
        let start = Instant::now();
        let o = vitrine(&["info".as_ref(), package.as_os_str()]);
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        assert_eq!(out(&o), "", "nothing of the map above is shown");
        let e = err(&o);
        assert!(
            e.contains("Evil.xplayers.lev:5: level \"Evil0\": game \"../../../secret/s.gam\" leaves the package"),
            "{e}"
        );
        // check: each level refused at its `game` line; the absolute one is looked for
        // inside the package (where the game's file system puts it) and is not there.
        let found = findings(package);
        for (i, line) in [5, 11, 17, 23].into_iter().enumerate() {
            let f = found
                .iter()
                .find(|f| {
                    f["message"]
                        .as_str()
                        .unwrap()
                        .contains(&format!("\"Evil{i}\""))
                })
                .unwrap_or_else(|| panic!("Evil{i}: {found:#?}"));
            assert_eq!(f["rule"], "map/level-refused", "{f}");
            assert_eq!(f["line"], line, "{f}");
            assert!(f["file"].as_str().unwrap().ends_with("Evil.xplayers.lev"));
            let m = f["message"].as_str().unwrap();
            let why = if i < 3 {
                "leaves the package"
            } else {
                "does not hold"
            };
            assert!(m.contains(why), "{m}");
        }
        // render draws nothing and writes nothing.
        let png = tmp.path().join("out.png");
        let o = vitrine(&[
            "render".as_ref(),
            package.as_os_str(),
            "-o".as_ref(),
            png.as_os_str(),
        ]);
        assert!(!o.status.success() && !png.exists(), "{o:?}");
        let took = start.elapsed();
        assert!(took < Duration::from_secs(5), "{took:?}");
        eprintln!(
            "{}: info, check and render refused in {took:.2?}",
            package.display()
        );
    }
}

#[vitrine_test(gpu)]
fn render_check_info_and_thumbnail_write_nothing_outside_their_output() {
    let tmp = common::temp_dir("hostile-home");
    let home = tmp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let mut entries = map_folder("good");
    let lev = lev_level("Good", "multiplay/maps/good.gam") + &lev_level("Up", "../../up.gam");
    entries.push(("Good.xplayers.lev".into(), lev.into_bytes()));
    let package = write_zip(&tmp.path().join("Good.wz"), &entries);
    let output = tmp.path().join("out");
    std::fs::create_dir(&output).unwrap();
    let (png, thumb) = (output.join("r.png"), output.join("t.png"));
    let start = Instant::now();
    let runs: [Vec<&OsStr>; 4] = [
        vec![
            "render".as_ref(),
            package.as_os_str(),
            "--size".as_ref(),
            "48x48".as_ref(),
            "-o".as_ref(),
            png.as_os_str(),
        ],
        vec![
            "thumbnail".as_ref(),
            package.as_os_str(),
            thumb.as_os_str(),
            "48".as_ref(),
            "--timeout".as_ref(),
            "30".as_ref(),
        ],
        vec!["check".as_ref(), package.as_os_str()],
        vec!["info".as_ref(), package.as_os_str()],
    ];
    for args in runs {
        let mut c = Command::new(env!("CARGO_BIN_EXE_vitrine"));
        c.args(&args)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_CACHE_HOME", home.join(".cache"))
            .env("XDG_DATA_HOME", home.join(".local/share"));
        // What would keep a cache away from the home folder whatever Vitrine does.
        for var in [
            "VITRINE_CONFIG_DIR",
            "MESA_SHADER_CACHE_DISABLE",
            "MESA_GLSL_CACHE_DISABLE",
            "MESA_SHADER_CACHE_DIR",
            "__GL_SHADER_DISK_CACHE",
        ] {
            c.env_remove(var);
        }
        let o = c.output().unwrap();
        assert!(o.status.code().is_some_and(|c| c <= 2), "{args:?}: {o:?}");
    }
    let took = start.elapsed();
    assert_eq!(
        tree(&home),
        Vec::<String>::new(),
        "the home folder stays empty"
    );
    assert_eq!(tree(&output), ["r.png", "t.png"], "only the outputs named");
    eprintln!("render, thumbnail, check and info in {took:.2?}, nothing outside");
}

/// `Many.wz`: the issue's eight levels (each over a map of its own) whose names make one
/// file name (`a/b`, `a_b`, any case, `:` `?` `*` and a space).
const CLASHING: [&str; 8] = ["a/b", "a_b", "a\\b", "A_B", "a:b", "a?b", "a b", "a*b"];

#[vitrine_test(gpu)]
fn levels_whose_names_make_one_file_name_get_a_picture_each_and_a_note() {
    let tmp = common::temp_dir("hostile-names");
    let mut entries = Vec::new();
    let mut lev = String::new();
    for (i, name) in CLASHING.iter().enumerate() {
        entries.extend(map_folder(&format!("m{i}")));
        lev += &lev_level(name, &format!("multiplay/maps/m{i}.gam"));
    }
    entries.push(("Many.addon.lev".into(), lev.into_bytes()));
    let package = write_zip(&tmp.path().join("Many.wz"), &entries);
    let output = tmp.path().join("all");
    let start = Instant::now();
    let o = vitrine(&[
        "render".as_ref(),
        package.as_os_str(),
        "--all-maps".as_ref(),
        "--size".as_ref(),
        "32x32".as_ref(),
        "-o".as_ref(),
        output.as_os_str(),
    ]);
    let took = start.elapsed();
    assert!(o.status.success(), "{o:?}");
    let pictures = tree(&output);
    assert_eq!(pictures.len(), 8, "one picture per level: {pictures:?}");
    let lower: std::collections::BTreeSet<String> =
        pictures.iter().map(|p| p.to_lowercase()).collect();
    assert_eq!(
        lower.len(),
        8,
        "distinct on a file system that ignores case"
    );
    let e = err(&o);
    assert_eq!(e.matches("note: map ").count(), 7, "{e}");
    assert!(
        e.contains("note: map \"a_b\" is written to a_b-2.png: a_b.png is \"a/b\"'s"),
        "{e}"
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
    eprintln!("8 levels, 8 pictures in {took:.2?}");
}

#[test]
fn maptools_previews_of_packages_of_one_name_are_a_picture_each() {
    let tmp = common::temp_dir("hostile-preview-names");
    let mut entries = map_folder("r");
    entries.push((
        "Rush.xplayers.lev".into(),
        lev_level("Rush", "multiplay/maps/r.gam").into_bytes(),
    ));
    let maps = tmp.path().join("maps");
    std::fs::create_dir(&maps).unwrap();
    for name in ["Rush.wz", "rush.zip", "RUSH.wz"] {
        write_zip(&maps.join(name), &entries);
    }
    let output = tmp.path().join("previews");
    let o = vitrine(&[
        "maptools".as_ref(),
        "package".as_ref(),
        "genpreview".as_ref(),
        "--2d".as_ref(),
        maps.as_os_str(),
        output.as_os_str(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(tree(&output), ["RUSH.png", "Rush-2.png", "rush-3.png"]);
    assert_eq!(err(&o).matches("note: package ").count(), 2, "{}", err(&o));
}

/// The database's root shape with good JSON objects (two factories, no features or
/// droids) and, beside them, the object files 4.3 never opens: `struct.bjo` and
/// `struct.ini` broken, `feature.ini` past the size Vitrine looks into.
fn unread_files_package() -> Vec<(String, Vec<u8>)> {
    let level = r#"{"name": "Unread", "type": "skirmish", "players": 2, "tileset": "arizona"}"#;
    let structs = r#"{"version": 2, "structures": [
        {"name": "A0LightFactory", "position": [704, 704], "rotation": 0, "startpos": 0},
        {"name": "A0LightFactory", "position": [1344, 1344], "rotation": 0, "startpos": 1}]}"#;
    vec![
        ("level.json".into(), level.into()),
        ("game.map".into(), game_map()),
        ("ttypes.ttp".into(), ttypes()),
        ("struct.json".into(), structs.into()),
        (
            "feature.json".into(),
            br#"{"version": 2, "features": []}"#.to_vec(),
        ),
        (
            "droid.json".into(),
            br#"{"version": 2, "droids": []}"#.to_vec(),
        ),
        (
            "struct.bjo".into(),
            b"stru\x08\0\0\0\xff\xff\xff\xff".to_vec(),
        ),
        (
            "struct.ini".into(),
            b"[structure_0\n\xff\xfe = =\n".to_vec(),
        ),
        ("feature.ini".into(), vec![0xff; 5 << 20]),
    ]
}

#[test]
fn object_files_the_game_never_opens_cannot_refuse_a_package() {
    let tmp = common::temp_dir("hostile-unread");
    let entries = unread_files_package();
    let archive = write_zip(&tmp.path().join("Unread.wz"), &entries);
    let folder = write_folder(&tmp.path().join("unread"), &entries);
    // In the folder, droid.ini is a FIFO: opening it would wait for a writer for ever.
    #[cfg(unix)]
    {
        let fifo = std::ffi::CString::new(folder.join("droid.ini").to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path; mkfifo reads it and touches nothing else.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    }
    for package in [&archive, &folder] {
        let start = Instant::now();
        let o = vitrine(&["info".as_ref(), "--json".as_ref(), package.as_os_str()]);
        assert!(o.status.success(), "{o:?}");
        let v: Value = serde_json::from_str(out(&o).trim()).unwrap();
        assert_eq!(v["file_counts"]["structure"], 2, "the JSON's: {v}");
        let found = findings(package);
        let unread: Vec<&Value> = found
            .iter()
            .filter(|f| f["rule"] == "map/objects-file-unread")
            .collect();
        assert!(unread.iter().all(|f| f["level"] == "note"), "{unread:#?}");
        let mut noted = vec!["struct.bjo", "struct.ini"];
        if cfg!(unix) && package == &folder {
            noted.push("droid.ini");
        }
        for name in noted {
            assert!(
                unread
                    .iter()
                    .any(|f| f["file"].as_str().unwrap().ends_with(name)),
                "{name}: {found:#?}"
            );
        }
        assert!(
            !found
                .iter()
                .any(|f| f["level"] == "error" && f["rule"].as_str().unwrap().starts_with("map/")),
            "no map error: {found:#?}"
        );
        let took = start.elapsed();
        assert!(took < Duration::from_secs(5), "{took:?}");
        eprintln!("{}: opened and checked in {took:.2?}", package.display());
    }
}

#[test]
fn info_says_its_errors_on_standard_error_and_exits_1() {
    let tmp = common::temp_dir("hostile-info-errors");
    let (folder, _) = climbing_packages(tmp.path());
    let gone = tmp.path().join("gone.pie");
    for input in [&folder, &gone] {
        let o = vitrine(&["info".as_ref(), input.as_os_str()]);
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        assert_eq!(out(&o), "", "{o:?}");
        assert!(err(&o).contains(": error: "), "{o:?}");
        // --json: the input's line on standard output, as documented, and the error for
        // the person reading the terminal on standard error.
        let o = vitrine(&["info".as_ref(), "--json".as_ref(), input.as_os_str()]);
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        let v: Value = serde_json::from_str(out(&o).trim()).unwrap();
        assert!(v["error"].is_string(), "{v}");
        assert!(err(&o).contains(": error: "), "{o:?}");
    }
}

/// A 4.x package with its level in the map's folder (`multiplay/maps/NAME/level.json`,
/// no `.lev`), which the thumbnailer took for a folder of models.
fn inner_level_json_package() -> Vec<(String, Vec<u8>)> {
    let level = r#"{"name": "Inner", "type": "skirmish", "players": 2, "tileset": "arizona"}"#;
    let mut e: Vec<(String, Vec<u8>)> = map_folder("2c-inner")
        .into_iter()
        .filter(|(n, _)| !n.ends_with(".gam"))
        .collect();
    e.push(("multiplay/maps/2c-inner/level.json".into(), level.into()));
    e
}

#[vitrine_test(gpu)]
fn the_thumbnailer_draws_a_map_package_as_render_previews_it() {
    let tmp = common::temp_dir("hostile-thumb-map");
    let entries = inner_level_json_package();
    let archive = write_zip(&tmp.path().join("Inner.wz"), &entries);
    let folder = write_folder(&tmp.path().join("inner"), &entries);
    for (i, package) in [archive, folder].iter().enumerate() {
        let thumb = tmp.path().join(format!("thumb{i}.png"));
        let o = vitrine(&[
            "thumbnail".as_ref(),
            package.as_os_str(),
            thumb.as_os_str(),
            "64".as_ref(),
            "--timeout".as_ref(),
            "30".as_ref(),
        ]);
        assert!(o.status.success(), "{o:?}");
        let img = image::open(&thumb).unwrap().to_rgba8();
        assert_eq!(img.dimensions(), (64, 64));
        assert_eq!(img.get_pixel(0, 0)[3], 0, "the corner is background");
        let drawn: Vec<&image::Rgba<u8>> = img.pixels().filter(|p| p[3] == 255).collect();
        assert!(
            drawn.len() > 64 * 64 / 10,
            "the map covers the picture: {}",
            drawn.len()
        );
        let colours: std::collections::HashSet<[u8; 4]> = drawn.iter().map(|p| p.0).collect();
        assert!(
            colours.len() > 8,
            "shaded ground, not a flat shape: {} colours",
            colours.len()
        );
    }
}

#[vitrine_test(gpu)]
fn a_hostile_package_thumbnail_ends_within_its_budget_and_writes_nothing() {
    let tmp = common::temp_dir("hostile-thumb-budget");
    let level = r#"{"name": "Forever", "type": "skirmish", "players": 2, "tileset": "arizona"}"#;
    let forever = write_zip(
        &tmp.path().join("Forever.wz"),
        &[
            ("level.json".into(), level.into()),
            ("game.js".into(), b"while (true) {}\n".to_vec()),
            ("ttypes.ttp".into(), ttypes()),
        ],
    );
    let (climbing, _) = climbing_packages(&tmp.path().join("climb"));
    let output = tmp.path().join("out");
    std::fs::create_dir(&output).unwrap();
    for package in [&forever, &climbing] {
        let thumb = output.join("thumb.png");
        let start = Instant::now();
        let o = vitrine(&[
            "thumbnail".as_ref(),
            package.as_os_str(),
            thumb.as_os_str(),
            "64".as_ref(),
            "--timeout".as_ref(),
            "2".as_ref(),
        ]);
        let took = start.elapsed();
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        assert!(
            took < Duration::from_secs(4),
            "the 2 s budget held: {took:?}"
        );
        assert_eq!(
            tree(&output),
            Vec::<String>::new(),
            "nothing written, no temporary file"
        );
        eprintln!("{}: {} in {took:.2?}", package.display(), err(&o).trim());
    }
}
