//! Warzone 2100 maps: every map of the corpus's `mp.wz` found and read (the five
//! script-generated ones by running their `game.js`), its object counts
//! against the files' own (counted here with serde_json, not through the readers), its
//! tileset, and the placement against what the real game reported on three maps
//! (`../shared/tools/wz_game_map.md`, "What it showed on real maps").

use crate::common;
use std::path::Path;
use vitrine_core::files::{FileRef, Files};
use vitrine_core::map::{self, ObjectKind, Tileset};
use vitrine_core::wz::Stats;
use vitrine_test_needs::vitrine_test;

fn mp_wz(wz: &Path) -> FileRef {
    FileRef::archive_root(&wz.join("archives/mp.wz"))
}

/// The entries of a JSON v1 object file (keys whose value is an object), counted without
/// the map readers.
fn json_entries(files: &Files, file: &FileRef) -> Option<usize> {
    let bytes = files.read(file).ok()?;
    let v: serde_json::Value = serde_json::from_slice(&bytes).expect("valid JSON");
    let obj = v.as_object()?;
    Some(obj.values().filter(|e| e.is_object()).count())
}

#[vitrine_test(shared)]
fn every_mp_map_opens_with_the_files_counts_and_the_levels_tileset() {
    let wz = common::wz2100();
    let files = common::corpus();
    let levels = map::find_maps(&files, &mp_wz(&wz)).expect("mp.wz's levels");
    // addon.lev names 44 levels: 17 on MULTI_*_C1/CAM_1 (Arizona), 13 Urban, 14 Rockies.
    assert_eq!(levels.len(), 44);
    let tally = |t: Tileset| levels.iter().filter(|l| l.tileset == t).count();
    assert_eq!(
        (
            tally(Tileset::Arizona),
            tally(Tileset::Urban),
            tally(Tileset::Rockies)
        ),
        (17, 13, 14)
    );
    let (mut opened, mut scripts, mut objects) = (0, 0, 0);
    for level in &levels {
        let map = map::open(&files, level).unwrap_or_else(|e| panic!("{}: {e}", level.name));
        if level.shape == map::Shape::Script {
            // game.js's own map: the terrain it gave, objects of each kind, ttypes.ttp.
            let t = &map.terrain;
            assert_eq!(
                t.heights.len(),
                (t.width * t.height) as usize,
                "{}",
                level.name
            );
            assert!(t.width <= 256 && t.height <= 256, "{}", level.name);
            assert!(!map.terrain_types.is_empty(), "{}", level.name);
            for kind in ObjectKind::ALL {
                assert!(map.of_kind(kind).count() > 0, "{} {kind:?}", level.name);
            }
            scripts += 1;
            continue;
        }
        opened += 1;
        let t = &map.terrain;
        assert_eq!(t.heights.len(), (t.width * t.height) as usize);
        for (kind, name) in [
            (ObjectKind::Structure, "struct.json"),
            (ObjectKind::Feature, "feature.json"),
            (ObjectKind::Droid, "droid.json"),
        ] {
            let want = json_entries(&files, &level.folder.join(name)).unwrap_or(0);
            assert_eq!(map.of_kind(kind).count(), want, "{} {name}", level.name);
            objects += want;
        }
    }
    assert_eq!((opened, scripts), (39, 5));
    assert!(objects > 15_000, "{objects}");
}

/// Sk-Rush, Sk-Concrete and Sk-Mountain as the game loaded them (`wz_game_map.md`):
/// structures, features and droids kept, and corners the flattening changed.
#[vitrine_test(shared)]
fn placement_keeps_what_the_game_keeps() {
    let wz = common::wz2100();
    let files = common::corpus();
    let roots = [
        FileRef::Disk(wz.join("data/mp")),
        FileRef::Disk(wz.join("data/base")),
    ];
    let (stats, _) = Stats::load(&files, &roots);
    let cases = [
        ("Sk-Rush", [244, 8, 8], 30),
        ("Sk-Concrete", [554, 295, 16], 382),
        ("Sk-Mountain", [145, 148, 8], 34),
    ];
    for (name, want, changed) in cases {
        let level = map::open_source(&files, &mp_wz(&wz), Some(name)).unwrap();
        let m = map::open(&files, &level).unwrap();
        let p = map::place(&m, &stats, &files, &roots);
        let count = |k: ObjectKind| p.objects.iter().filter(|o| o.object.kind == k).count();
        let got = [
            count(ObjectKind::Structure),
            count(ObjectKind::Feature),
            count(ObjectKind::Droid),
        ];
        assert_eq!(got, want, "{name}: {:?}", p.removed);
        let corners = m
            .terrain
            .heights
            .iter()
            .zip(&p.terrain.heights)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(corners, changed, "{name}");
    }
}

/// Sk-UrbanDuel's water buildings stand on the riverbed the game digs at load: the game
/// reported z −111, −115, −238, −258 and −273 for five of them (`wz_game_map.md`, Limits),
/// while the stored corners under them are 0–2.
#[vitrine_test(shared)]
fn features_in_water_stand_on_the_riverbed() {
    let wz = common::wz2100();
    let files = common::corpus();
    let roots = [
        FileRef::Disk(wz.join("data/mp")),
        FileRef::Disk(wz.join("data/base")),
    ];
    let (stats, _) = Stats::load(&files, &roots);
    let level = map::open_source(&files, &mp_wz(&wz), Some("Sk-UrbanDuel")).unwrap();
    let m = map::open(&files, &level).unwrap();
    let p = map::place(&m, &stats, &files, &roots);
    let z = |key: &str| {
        p.objects
            .iter()
            .find(|o| o.object.key == key)
            .map(|o| o.z)
            .unwrap_or_else(|| panic!("{key} not placed"))
    };
    let got = [
        z("feature_0541"),
        z("feature_0133"),
        z("feature_0134"),
        z("feature_0270"),
        z("feature_0406"),
    ];
    assert_eq!(got, [-111, -115, -238, -258, -273]);
    // The heights given stay the stored ones, as the game saves them.
    assert!(p.terrain.heights.iter().all(|h| (0..=510).contains(h)));
}
