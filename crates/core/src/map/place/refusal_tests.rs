//! What the game refuses on each object file shape (JSON v1, JSON v2, BJO): every entry
//! its reader skips, every structure beyond its owner's building limit and the modules of
//! what it did not build are kept out of the placement, each with its rule.

use crate::files::{FileRef, Files, MemorySource};
use crate::map::tests::game_map;
use crate::map::{Removal, find_maps, open, place};
use crate::wz::Stats;

/// A 24×24 map package (root `level.json`, 2 players) with `objects` (file name, bytes)
/// beside the stats its objects name; a factory's limit is 2.
fn placed(objects: &[(&str, Vec<u8>)]) -> Vec<(String, String)> {
    let mut source = MemorySource::new();
    source.insert(
        "p/level.json",
        br#"{"name": "Refusals", "players": 2, "tileset": "arizona"}"#.to_vec(),
    );
    source.insert("p/game.map", game_map(40, 24, 24, &[(1, 100); 576], &[]));
    for (name, bytes) in objects {
        source.insert(format!("p/{name}"), bytes.clone());
    }
    source.insert(
        "d/stats/structure.json",
        br#"{"A0LightFactory": {"name": "Factory", "type": "FACTORY", "width": 3, "breadth": 3,
                "userLimits": [0, 2, 5]},
             "A0FacMod1": {"type": "FACTORY MODULE", "width": 3, "breadth": 3},
             "A0TankTrap": {"name": "Tank Trap", "type": "DEFENSE", "width": 1, "breadth": 1}}"#
            .to_vec(),
    );
    source.insert(
        "d/stats/features.json",
        br#"{"Tree1": {"type": "TREE", "width": 1, "breadth": 1}}"#.to_vec(),
    );
    source.insert(
        "d/stats/templates.json",
        br#"{"ConstructorDroid": {"body": "Body1", "propulsion": "wheeled01", "construct": "Spade1Mk1"}}"#
            .to_vec(),
    );
    let files = Files::new(source);
    let roots = [FileRef::Disk("d".into())];
    let (stats, _) = Stats::load(&files, &roots);
    let level = find_maps(&files, &FileRef::Disk("p".into()))
        .unwrap()
        .remove(0);
    let map = open(&files, &level).unwrap();
    let p = place(&map, &stats, &files, &roots);
    let mut out: Vec<(String, String)> = p
        .objects
        .iter()
        .map(|o| (o.object.key.clone(), format!("placed {}", o.object.modules)))
        .collect();
    out.extend(p.removed.iter().map(|r| {
        let why = match &r.why {
            Removal::Refused { rule, message } => format!("{rule}: {message}"),
            other => other.tag().to_string(),
        };
        (map.objects[r.index].key.clone(), why)
    }));
    out.sort();
    out
}

/// The verdict on `key`: `placed N` (N modules) or the rule and the game's message.
fn verdict<'a>(all: &'a [(String, String)], key: &str) -> &'a str {
    all.iter()
        .find(|(k, _)| k == key)
        .map_or_else(|| panic!("{key} not in {all:#?}"), |(_, v)| v.as_str())
}

/// Tile (x, y)'s centre, world units.
fn at(x: i32, y: i32) -> [i32; 2] {
    [x * 128 + 64, y * 128 + 64]
}

/// The same entries in JSON: `(key, body)`, body without `position`'s brackets.
fn json_entries() -> Vec<(&'static str, String)> {
    let p = |x, y| {
        let [a, b] = at(x, y);
        format!("{a}, {b}")
    };
    vec![
        (
            "a",
            format!(
                r#""name": "A0LightFactory", "position": [{}], "startpos": 0"#,
                p(6, 6)
            ),
        ),
        (
            "b",
            format!(
                r#""name": "A0LightFactory", "position": [{}], "startpos": 0, "modules": 1"#,
                p(12, 6)
            ),
        ),
        // The third factory of player 0: beyond the limit of 2, its modules with it.
        (
            "c",
            format!(
                r#""name": "A0LightFactory", "position": [{}], "startpos": 0, "modules": 2"#,
                p(18, 6)
            ),
        ),
        (
            "c_module",
            format!(
                r#""name": "A0FacMod1", "position": [{}], "startpos": 0"#,
                p(18, 6)
            ),
        ),
        // Player 1 has a limit of its own.
        (
            "d",
            format!(
                r#""name": "A0LightFactory", "position": [{}], "startpos": 1"#,
                p(6, 14)
            ),
        ),
        (
            "string_id",
            format!(
                r#""id": "A0TankTrap", "name": "A0TankTrap", "position": [{}], "startpos": 0"#,
                p(10, 18)
            ),
        ),
        (
            "no_position",
            r#""name": "A0TankTrap", "startpos": 0"#.into(),
        ),
        (
            "string_player",
            format!(
                r#""name": "A0TankTrap", "position": [{}], "player": "0""#,
                p(11, 18)
            ),
        ),
        (
            "id_zero",
            format!(
                r#""id": 0, "name": "A0TankTrap", "position": [{}], "startpos": 0"#,
                p(12, 18)
            ),
        ),
        (
            "modules_300",
            format!(
                r#""name": "A0LightFactory", "position": [{}], "startpos": 1, "modules": 300"#,
                p(14, 14)
            ),
        ),
        (
            "unknown",
            format!(
                r#""name": "A0Nope", "position": [{}], "startpos": 0"#,
                p(13, 18)
            ),
        ),
        (
            "near_edge",
            format!(
                r#""name": "A0TankTrap", "position": [{}], "startpos": 0"#,
                p(1, 1)
            ),
        ),
        (
            "player_5",
            format!(
                r#""name": "A0TankTrap", "position": [{}], "startpos": 5"#,
                p(14, 18)
            ),
        ),
    ]
}

fn json_v1() -> Vec<u8> {
    let body: Vec<String> = json_entries()
        .into_iter()
        .map(|(k, b)| {
            // Version 1 positions are [x, y, z].
            let b = match b.find("\"position\": [") {
                Some(at) => {
                    let end = at + b[at..].find(']').unwrap();
                    format!("{}, 0{}", &b[..end], &b[end..])
                }
                None => b,
            };
            format!("\"{k}\": {{{b}}}")
        })
        .collect();
    format!("{{{}}}", body.join(",\n")).into_bytes()
}

fn json_v2() -> (Vec<u8>, Vec<&'static str>) {
    let entries = json_entries();
    let keys = entries.iter().map(|(k, _)| *k).collect();
    let body: Vec<String> = entries
        .into_iter()
        .map(|(_, b)| format!("{{{b}}}"))
        .collect();
    (
        format!("{{\"version\": 2, \"structures\": [{}]}}", body.join(",\n")).into_bytes(),
        keys,
    )
}

/// The JSON entries' verdicts, by key (v2 keys are list places: map them back).
fn json_verdicts(v2: bool) -> Vec<(String, String)> {
    if !v2 {
        return placed(&[("struct.json", json_v1())]);
    }
    let (bytes, keys) = json_v2();
    placed(&[("struct.json", bytes)])
        .into_iter()
        .map(|(k, v)| {
            let i: usize = k
                .trim_start_matches("structures[")
                .trim_end_matches(']')
                .parse()
                .unwrap();
            (keys[i].to_string(), v)
        })
        .collect()
}

#[test]
fn json_v1_and_v2_entries_the_game_refuses_are_not_placed() {
    for v2 in [false, true] {
        let all = json_verdicts(v2);
        let v = |k| verdict(&all, k);
        assert_eq!(v("a"), "placed 0", "v2 {v2}");
        assert_eq!(v("b"), "placed 1");
        assert_eq!(v("d"), "placed 0");
        assert_eq!(
            v("c"),
            "map/structure-limit: Player 0: Building Factory could not be built due to building \
             limits (has 2, max 2)!"
        );
        assert!(
            v("c_module")
                .starts_with("map/module-orphan: No owning structure for module - A0FacMod1"),
            "{}",
            v("c_module")
        );
        assert!(v("string_id").starts_with("map/entry-key-type: Unexpected type of \"id\" key"));
        assert!(
            v("no_position").starts_with("map/entry-key-missing: Missing required \"position\"")
        );
        assert!(
            v("string_player").starts_with("map/entry-key-type: Missing required player/startpos")
        );
        assert!(v("id_zero").starts_with("map/entry-id-zero"));
        assert!(v("modules_300").starts_with("map/entry-modules-range"));
        assert!(v("unknown").starts_with("map/unknown-stats: Structure type \"A0Nope\" unknown"));
        assert!(v("near_edge").starts_with("map/structure-near-edge"));
        assert_eq!(v("player_5"), "no_such_player");
        assert_eq!(all.len(), json_entries().len(), "{all:#?}");
    }
}

/// One BJO structure record (version 8: 40-byte name, 120 bytes in all).
fn bjo_record(name: &str, [x, y]: [i32; 2], player: u32) -> Vec<u8> {
    let mut v = vec![0u8; 40];
    v[..name.len()].copy_from_slice(name.as_bytes());
    for w in [1, x as u32, y as u32, 0, 0, player, 0, 0, 0] {
        v.extend(w.to_le_bytes());
    }
    v.extend([0u8; 44]);
    v
}

#[test]
fn bjo_records_the_game_refuses_are_not_placed() {
    let records = [
        ("A0LightFactory", at(6, 6), 0),
        ("A0FacMod1", at(6, 6), 0),
        ("A0LightFactory", at(12, 6), 0),
        // Beyond the limit, and its module record with it.
        ("A0LightFactory", at(18, 6), 0),
        ("A0FacMod1", at(18, 6), 0),
        ("A0Nope", at(10, 18), 0),
        ("A0TankTrap", at(1, 1), 0),
        ("A0TankTrap", at(11, 18), 5),
        // 200 is the game's int8_t −56: the scavengers'.
        ("A0TankTrap", at(12, 18), 200),
    ];
    let mut bjo = b"stru".to_vec();
    bjo.extend(8u32.to_le_bytes());
    bjo.extend((records.len() as u32).to_le_bytes());
    for (name, xy, player) in records {
        bjo.extend(bjo_record(name, xy, player));
    }
    let all = placed(&[("struct.bjo", bjo)]);
    let v = |i: usize| verdict(&all, &format!("record {i}")).to_string();
    assert_eq!(v(0), "placed 1");
    assert_eq!(v(1), "module");
    assert_eq!(v(2), "placed 0");
    assert!(
        v(3).starts_with("map/structure-limit: Player 0: Building Factory"),
        "{}",
        v(3)
    );
    assert!(v(4).starts_with("map/module-orphan"), "{}", v(4));
    assert!(v(5).starts_with("map/unknown-stats"));
    assert!(v(6).starts_with("map/structure-near-edge"));
    assert_eq!(v(7), "no_such_player");
    assert_eq!(v(8), "placed 0");
}

/// A file whose every entry has a string id (the community's older maps): nothing of it
/// is placed.
#[test]
fn a_file_of_string_ids_places_nothing() {
    let body = (0..5)
        .map(|i| {
            let [x, y] = at(4 + 3 * i, 10);
            format!(r#""structure_{i}": {{"id": "A0TankTrap", "name": "A0TankTrap", "position": [{x}, {y}, 0], "rotation": [0, 0, 0], "startpos": 0}}"#)
        })
        .collect::<Vec<_>>()
        .join(",");
    let all = placed(&[("struct.json", format!("{{{body}}}").into_bytes())]);
    assert_eq!(all.len(), 5);
    assert!(
        all.iter().all(|(_, v)| v.starts_with("map/entry-key-type")),
        "{all:#?}"
    );
}
