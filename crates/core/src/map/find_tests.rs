//! Finding the maps of packages in the shapes map makers ship them, built here in memory:
//! FlaME's three levels over one map, several maps in one package, a folder of packages,
//! and the broken level files real packages hold (each a problem naming its file and
//! line, the package's other maps still there).

use super::tests::game_map;
use super::*;
use crate::files::{FileRef, Files, MemorySource};
use crate::model::Location;
use std::io::Write;

fn small_map() -> Vec<u8> {
    game_map(10, 8, 8, &[(1, 40); 64], &[])
}

/// A FlaME `.lev`: three levels over `multiplay/maps/{folder}.gam`, one per old tech
/// level, in the order `order` gives them (1, 2, 3 as FlaME writes them).
fn flame_lev(name: &str, folder: &str, cam: u32, order: &[u32]) -> String {
    let mut s =
        String::from("// Made with FlaME 1.29 Windows\n// Date: 2012/01/02\n// Author: x\n\n");
    for t in order {
        let (kind, dataset) = match t {
            1 => (14, format!("MULTI_CAM_{cam}")),
            2 => (18, format!("MULTI_T2_C{cam}")),
            _ => (19, format!("MULTI_T3_C{cam}")),
        };
        s += &format!(
            "level   {name}-T{t}\nplayers 4\ntype    {kind}\ndataset {dataset}\n\
             game    \"multiplay/maps/{folder}.gam\"\n"
        );
    }
    s
}

fn gam() -> Vec<u8> {
    let mut b = b"game".to_vec();
    b.extend(8u32.to_le_bytes());
    for v in [0u32, 0, 0, 0, 8, 8] {
        b.extend(v.to_le_bytes());
    }
    b.extend([0u8; 20]);
    b
}

/// A feature BJO (version 8, 76-byte records) of `n` oil resources.
fn feat_bjo(n: u32) -> Vec<u8> {
    let mut b = b"feat".to_vec();
    b.extend(8u32.to_le_bytes());
    b.extend(n.to_le_bytes());
    for i in 0..n {
        let mut name = [0u8; 40];
        name[..11].copy_from_slice(b"OilResource");
        b.extend(name);
        for v in [i + 1, 320 + 128 * i, 448, 0, 0, 0, 0, 0, 0] {
            b.extend(v.to_le_bytes());
        }
    }
    b
}

/// The files of a FlaME map `folder` (BJO and INI objects), at `multiplay/maps/`.
fn flame_map(folder: &str) -> Vec<(String, Vec<u8>)> {
    let ini = b"[feature_0]\nname = OilResource\nposition = 320, 448, 0\n".to_vec();
    let dir = format!("multiplay/maps/{folder}");
    vec![
        (format!("{dir}.gam"), gam()),
        (format!("{dir}/game.map"), small_map()),
        (format!("{dir}/feat.bjo"), feat_bjo(2)),
        (format!("{dir}/feature.ini"), ini),
    ]
}

fn files_of(entries: &[(String, Vec<u8>)]) -> Files {
    let mut source = MemorySource::new();
    for (path, bytes) in entries {
        source.insert(format!("p/{path}"), bytes.clone());
    }
    Files::new(source)
}

fn root() -> FileRef {
    FileRef::Disk("p".into())
}

fn zip_of(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    let mut z = zip::ZipWriter::new(&mut buf);
    for (name, bytes) in entries {
        z.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
    buf.into_inner()
}

#[test]
fn flames_three_levels_over_one_map_are_one_map_taken_as_the_skirmish_list_shows_it() {
    // In FlaME's order, and shuffled: the level of type 14 (tech level 1) is taken.
    for order in [[1, 2, 3], [3, 1, 2], [2, 3, 1]] {
        let mut entries = flame_map("4c-ntw");
        entries.push((
            "NTW_Water_4v4.xplayers.lev".into(),
            flame_lev("NTW_Water_4v4", "4c-ntw", 2, &order).into_bytes(),
        ));
        let files = files_of(&entries);
        let maps = find_maps(&files, &root()).unwrap();
        assert_eq!(maps.len(), 1, "{order:?}");
        let m = &maps[0];
        assert_eq!(m.name, "NTW_Water_4v4");
        assert_eq!(m.levels.taken, "NTW_Water_4v4-T1", "{order:?}");
        assert_eq!(m.levels.all.len(), 3);
        assert_eq!((m.tileset, m.players), (Tileset::Urban, Some(4)));
        // Opened with no flag; the BJO objects read, the INI listed but not read.
        let l = open_source(&files, &root(), None).unwrap();
        let map = open(&files, &l).unwrap();
        assert_eq!(map.objects.len(), 2);
        assert!(map.scroll_limits.is_some(), "the .gam read");
        // By the map's name or any level's, in any case: a level's name takes that level
        // (its dataset), the map's name the lobby's.
        for (want, taken, dataset) in [
            ("ntw_water_4v4", "NTW_Water_4v4-T1", "MULTI_CAM_2"),
            ("NTW_WATER_4V4-t3", "NTW_Water_4v4-T3", "MULTI_T3_C2"),
            ("NTW_Water_4v4-T2", "NTW_Water_4v4-T2", "MULTI_T2_C2"),
            ("4C-NTW", "NTW_Water_4v4-T1", "MULTI_CAM_2"),
        ] {
            let l = open_source(&files, &root(), Some(want)).unwrap();
            assert_eq!(l.levels.taken, taken, "{want}");
            assert_eq!(
                l.levels.asked,
                want.contains("-T") || want.contains("-t"),
                "{want}"
            );
            assert_eq!((l.name.as_str(), l.levels.all.len()), ("NTW_Water_4v4", 3));
            assert_eq!(l.tileset, Tileset::Urban, "{want}");
            assert!(
                l.tileset_from.contains(dataset),
                "{want}: {}",
                l.tileset_from
            );
        }
        // The map's folder and its game.map find the same one map.
        let folder = root().join("multiplay").join("maps").join("4c-ntw");
        for at in [folder.clone(), folder.join("game.map")] {
            let found = find_maps(&files, &at).unwrap();
            assert_eq!(found.len(), 1);
            assert_eq!(found[0].name, "NTW_Water_4v4");
        }
    }
    // No level of type 14: the first level.
    let mut entries = flame_map("x");
    entries.push((
        "x.xplayers.lev".into(),
        flame_lev("X", "x", 1, &[3, 2]).into_bytes(),
    ));
    let maps = find_maps(&files_of(&entries), &root()).unwrap();
    assert_eq!((maps.len(), maps[0].levels.taken.as_str()), (1, "X-T3"));
}

#[test]
fn several_maps_in_one_package_are_a_gallery_each_map_once() {
    let mut entries = flame_map("2c-a");
    entries.extend(flame_map("2c-b"));
    let mut lev = flame_lev("Alpha", "2c-a", 1, &[1, 2, 3]);
    lev += &flame_lev("Beta", "2c-b", 3, &[1, 2, 3]);
    entries.push(("pack.addon.lev".into(), lev.into_bytes()));
    let files = files_of(&entries);
    let maps = find_maps(&files, &root()).unwrap();
    let names: Vec<&str> = maps.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Alpha", "Beta"]);
    assert_eq!(maps[1].tileset, Tileset::Rockies);
    // No flag and two maps: the error lists the two maps, each once.
    let e = open_source(&files, &root(), None).unwrap_err().to_string();
    assert!(e.contains("2 maps here"), "{e}");
    assert_eq!(e.matches("Alpha (levels").count(), 1, "{e}");
    assert_eq!(e.matches("Beta (levels").count(), 1, "{e}");
    // A name no map answers to: the maps listed.
    let e = open_source(&files, &root(), Some("Gamma"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no map or level \"Gamma\"") && e.contains("Beta"),
        "{e}"
    );
    assert_eq!(
        open_source(&files, &root(), Some("beta-t2")).unwrap().name,
        "Beta"
    );
}

#[test]
fn a_folder_of_packages_is_a_gallery_of_their_maps() {
    let mut flame = flame_map("4c-ntw");
    flame.push((
        "NTW.xplayers.lev".into(),
        flame_lev("NTW", "4c-ntw", 1, &[1, 2, 3]).into_bytes(),
    ));
    let database = vec![
        (
            "level.json".to_string(),
            br#"{"name": "Db", "type": "skirmish", "players": 2, "tileset": "rockies"}"#.to_vec(),
        ),
        ("game.map".to_string(), small_map()),
    ];
    let mut source = MemorySource::new();
    source.insert("c/a-ntw.wz", zip_of(&flame));
    source.insert("c/b-db.zip", zip_of(&database));
    source.insert("c/c-broken.wz", b"not a zip".to_vec());
    source.insert("c/readme.txt", b"hello".to_vec());
    source.insert("c/models/body.pie", b"PIE 2".to_vec());
    for (path, bytes) in &database {
        source.insert(format!("c/unpacked/db2/{path}"), bytes.clone());
    }
    let files = Files::new(source);
    let s = survey(&files, &FileRef::Disk("c".into())).unwrap();
    let names: Vec<&str> = s.maps.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["NTW", "Db", "Db"]);
    assert!(
        matches!(&s.maps[0].folder, FileRef::Entry { archive, .. } if archive.ends_with("a-ntw.wz"))
    );
    // The archive that does not open is named; the others are not lost.
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    assert!(
        s.problems[0].to_string().contains("c-broken.wz"),
        "{}",
        s.problems[0]
    );
    for m in &s.maps {
        open(&files, m).unwrap();
    }
}

#[test]
fn broken_levels_are_problems_at_their_line_and_the_other_maps_still_open() {
    let mut entries = flame_map("good");
    entries.extend(flame_map("nogam"));
    entries.retain(|(p, _)| p != "multiplay/maps/nogam.gam");
    let lev = "level Good\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/good.gam\"\n\
               level Elsewhere\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/other.gam\"\n\
               level Escape\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"../../x.gam\"\n\
               level Noplayers\nplayers two\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/good.gam\"\n\
               level NoGam\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/nogam.gam\"\n";
    entries.push(("mixed.xplayers.lev".into(), lev.as_bytes().to_vec()));
    let files = files_of(&entries);
    let s = survey(&files, &root()).unwrap();
    let names: Vec<&str> = s.maps.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Good", "NoGam"]);
    let problems: Vec<(String, Location, Option<&str>)> = s
        .problems
        .iter()
        .map(|p| (p.message.clone(), p.location, p.rule))
        .collect();
    let at = |line: u32, what: &str, rule: &str| {
        assert!(
            problems.iter().any(|(m, l, r)| *l == Location::Line(line)
                && m.contains(what)
                && *r == Some(rule)),
            "line {line} {what:?}: {problems:#?}"
        );
    };
    at(10, "does not hold", "map/level-refused");
    at(15, "leaves the package", "map/level-refused");
    at(17, "not a number", "map/level-refused");
    at(25, "is not in the package", "map/gam-missing");
    assert_eq!(s.problems.len(), 4, "{problems:#?}");
    for p in &s.problems {
        assert!(p.to_string().starts_with("p/mixed.xplayers.lev:"), "{p}");
    }
    // Both maps open; the one with no .gam has no scroll limits.
    for m in &s.maps {
        let map = open(&files, m).unwrap();
        assert_eq!(map.scroll_limits.is_some(), m.name == "Good");
    }
    // A package whose only level escapes: the error names the file and the line.
    let files = files_of(&[(
        "x.xplayers.lev".into(),
        b"level X\nplayers 2\ngame \"../../../etc/x.gam\"\n".to_vec(),
    )]);
    let e = find_maps(&files, &root()).unwrap_err().to_string();
    assert!(
        e.starts_with("p/x.xplayers.lev:3: ") && e.contains("leaves the package"),
        "{e}"
    );
}

#[test]
fn a_lev_with_thousands_of_levels_keeps_the_first_1024_and_says_where_it_stopped() {
    let mut entries = flame_map("m");
    let mut lev = String::new();
    for i in 0..5000 {
        lev += &format!("level L{i}\nplayers 2\ntype 14\ngame \"multiplay/maps/m.gam\"\n");
    }
    entries.push(("many.xplayers.lev".into(), lev.into_bytes()));
    let files = files_of(&entries);
    let s = survey(&files, &root()).unwrap();
    assert_eq!(
        s.maps.len(),
        1,
        "thousands of levels over one map are one map"
    );
    assert_eq!(s.maps[0].levels.all.len(), level::MAX_LEV_LEVELS);
    assert_eq!(s.problems.len(), 1);
    let p = &s.problems[0];
    assert_eq!(p.location, Location::Line(1024 * 4 + 1), "{p}");
    assert!(
        p.to_string().contains("many.xplayers.lev") && p.message.contains("L1024"),
        "{p}"
    );
}

#[test]
fn level_json_keys_missing_or_of_the_wrong_type_are_problems_at_their_line() {
    let broken = b"{\n  \"name\": 7,\n  \"players\": \"two\",\n  \"tileset\": \"arizona\"\n}\n";
    let mut entries = vec![
        ("multiplay/maps/bad/level.json".to_string(), broken.to_vec()),
        ("multiplay/maps/bad/game.map".to_string(), small_map()),
        (
            "multiplay/maps/worse/level.json".to_string(),
            b"{\"name\": \"W\",\n".to_vec(),
        ),
        ("multiplay/maps/worse/game.map".to_string(), small_map()),
        (
            "multiplay/maps/list/level.json".to_string(),
            b"[1, 2]".to_vec(),
        ),
        ("multiplay/maps/list/game.map".to_string(), small_map()),
        (
            "multiplay/maps/ok/level.json".to_string(),
            br#"{"name": "Ok", "type": "skirmish", "players": 2, "tileset": "urban"}"#.to_vec(),
        ),
        ("multiplay/maps/ok/game.map".to_string(), small_map()),
    ];
    entries.push((
        "multiplay/maps/nomap/level.json".to_string(),
        br#"{"name": "No", "type": "skirmish", "players": 2, "tileset": "urban"}"#.to_vec(),
    ));
    let files = files_of(&entries);
    let s = survey(&files, &root()).unwrap();
    let names: Vec<&str> = s.maps.iter().map(|m| m.name.as_str()).collect();
    // The map with wrong keys still opens, under its folder's name.
    assert_eq!(names, ["bad", "Ok"]);
    assert_eq!(s.maps[0].players, None);
    let found: Vec<String> = s.problems.iter().map(ToString::to_string).collect();
    for (file_line, what) in [
        ("bad/level.json:2: ", "\"name\" is 7, not a string"),
        ("bad/level.json:3: ", "\"players\" is \"two\""),
        ("bad/level.json:1: ", "no \"type\""),
        ("worse/level.json:2: ", "invalid JSON"),
        ("list/level.json:1: ", "not a JSON object"),
        ("nomap/level.json: ", "no game.map or game.js"),
    ] {
        assert!(
            found
                .iter()
                .any(|f| f.contains(file_line) && f.contains(what)),
            "{file_line} {what}: {found:#?}"
        );
    }
    assert_eq!(found.len(), 6, "{found:#?}");
    for m in &s.maps {
        open(&files, m).unwrap();
    }
}

/// The objects of the one map of `entries` and its files' (name, used, broken).
fn objects_and_files(entries: &[(String, Vec<u8>)]) -> (usize, Vec<(String, bool, bool)>) {
    let files = files_of(entries);
    let l = open_source(&files, &root(), None).unwrap();
    let map = open(&files, &l).unwrap();
    let listed = map
        .files
        .iter()
        .filter(|f| f.name.starts_with("feat"))
        .map(|f| (f.name.clone(), f.used, f.broken.is_some()))
        .collect();
    (map.objects.len(), listed)
}

#[test]
fn objects_are_read_as_the_game_reads_them_json_else_bjo_and_unread_files_cannot_break_a_map() {
    let lev = || {
        (
            "x.xplayers.lev".to_string(),
            flame_lev("X", "x", 1, &[1]).into_bytes(),
        )
    };
    let json = br#"{"version": 2, "features": [{"name": "OilResource", "position": [320, 448], "rotation": 0}]}"#;
    let named = |n: &str, b: bool, broken: bool| (n.to_string(), b, broken);
    // A JSON the game parses: used; a broken BJO and a broken INI beside it change nothing
    // (the game never opens them), listed as broken.
    let mut entries = flame_map("x");
    entries.push(lev());
    entries.retain(|(n, _)| !n.ends_with("feat.bjo") && !n.ends_with("feature.ini"));
    entries.push(("multiplay/maps/x/feature.json".into(), json.to_vec()));
    entries.push((
        "multiplay/maps/x/feat.bjo".into(),
        b"feat\x08\0\0\0".to_vec(),
    ));
    entries.push((
        "multiplay/maps/x/feature.ini".into(),
        b"[feature_0\nname".to_vec(),
    ));
    let (n, listed) = objects_and_files(&entries);
    assert_eq!(n, 1, "the JSON's one feature");
    assert_eq!(
        listed,
        [
            named("feature.json", true, false),
            named("feat.bjo", false, true),
            named("feature.ini", false, true)
        ]
    );
    // A JSON the game cannot parse beside a good BJO: the game logs the JSON's error and
    // reads the BJO (the judge: 5c-bloat with half its struct.json has the BJO's
    // structures).
    let mut entries = flame_map("x");
    entries.push(lev());
    entries.push(("multiplay/maps/x/feature.json".into(), json[..40].to_vec()));
    let (n, listed) = objects_and_files(&entries);
    assert_eq!(n, 2, "the BJO's two oil resources");
    assert_eq!(
        listed[..2],
        [
            named("feature.json", false, true),
            named("feat.bjo", true, false)
        ]
    );
    // A broken JSON and nothing else: the map fails, naming the JSON.
    let mut entries = flame_map("x");
    entries.push(lev());
    entries.retain(|(n, _)| !n.ends_with("feat.bjo"));
    entries.push(("multiplay/maps/x/feature.json".into(), json[..40].to_vec()));
    let files = files_of(&entries);
    let l = open_source(&files, &root(), None).unwrap();
    let e = open(&files, &l).unwrap_err();
    assert!(e.to_string().contains("feature.json"), "{e}");
}

#[test]
fn an_object_file_the_game_never_opens_is_not_read_past_its_size_limit() {
    let lev = (
        "x.xplayers.lev".to_string(),
        flame_lev("X", "x", 1, &[1]).into_bytes(),
    );
    let json = br#"{"version": 2, "features": [{"name": "OilResource", "position": [320, 448], "rotation": 0}]}"#;
    // A JSON the game reads, and beside it an INI over the limit whose every byte is
    // broken: listed, not read, the map fine (parsing it would cost seconds, for a file
    // the game never opens).
    let mut entries = flame_map("x");
    entries.push(lev);
    entries.retain(|(n, _)| !n.ends_with("feature.ini"));
    entries.push(("multiplay/maps/x/feature.json".into(), json.to_vec()));
    let huge = vec![0xffu8; super::find::UNREAD_LOOK_BYTES as usize + 1];
    entries.push(("multiplay/maps/x/feature.ini".into(), huge));
    let files = files_of(&entries);
    let l = open_source(&files, &root(), None).unwrap();
    let map = open(&files, &l).unwrap();
    assert_eq!(
        map.objects
            .iter()
            .filter(|o| o.kind == ObjectKind::Feature)
            .count(),
        1
    );
    let ini = map.files.iter().find(|f| f.name == "feature.ini").unwrap();
    assert!(
        !ini.used && ini.broken.is_none() && ini.records == 0,
        "{ini:?}"
    );
    assert!(
        map.notes
            .iter()
            .any(|n| n.starts_with("feature.ini: not read by the game")
                && n.contains("not looked into")),
        "{:?}",
        map.notes
    );
}
