//! `vitrine check MAP` in the core (`check::map_check`): one map built in code per rule,
//! breaking exactly that rule, and a clean map with no finding; the map's files and the
//! game's stats are bytes in a `MemorySource`, as a front-end would hand them over.

use vitrine_core::check::map_check::{MapReport, check_maps};
use vitrine_core::check::{Element, Level, RULES, rule};
use vitrine_core::files::{FileRef, Files, MemorySource};
use vitrine_core::model::Location;

const STATS: &[(&str, &str)] = &[
    (
        "data/stats/structure.json",
        r#"{"A0LightFactory": {"name": "Factory", "type": "FACTORY", "width": 3, "breadth": 3,
                "userLimits": [0, 2, 5]},
            "A0CommandCentre": {"type": "HQ", "width": 2, "breadth": 2},
            "A0FacMod1": {"type": "FACTORY MODULE", "width": 3, "breadth": 3},
            "A0ResourceExtractor": {"type": "RESOURCE EXTRACTOR", "width": 1, "breadth": 1},
            "A0HardcreteMk1Wall": {"type": "WALL", "width": 1, "breadth": 1}}"#,
    ),
    (
        "data/stats/features.json",
        r#"{"OilResource": {"type": "OIL RESOURCE", "width": 1, "breadth": 1},
            "Boulder1": {"type": "BOULDER", "width": 1, "breadth": 1}}"#,
    ),
    (
        "data/stats/templates.json",
        r#"{"ConstructorDroid": {"id": "ConstructorDroid", "body": "Body1REC",
            "propulsion": "wheeled01", "construct": "Spade1Mk1"},
            "ViperMG": {"id": "ViperMG", "body": "Body1REC", "propulsion": "wheeled01",
            "weapons": ["MG1Mk1"]}}"#,
    ),
];

/// `game.map` of `version`, `w`×`h`, with `tiles` tile records (all height 100) and no
/// gateways.
fn game_map(version: u32, w: u32, h: u32, tiles: usize) -> Vec<u8> {
    let mut b = b"map ".to_vec();
    for v in [version, w, h] {
        b.extend(v.to_le_bytes());
    }
    for _ in 0..tiles {
        b.extend(0u16.to_le_bytes());
        if version >= 40 {
            b.extend(100u16.to_le_bytes());
        } else {
            b.push(50);
        }
    }
    b.extend(1u32.to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b
}

fn ttypes(version: u32) -> Vec<u8> {
    let mut b = b"ttyp".to_vec();
    b.extend(version.to_le_bytes());
    b.extend(2u32.to_le_bytes());
    b.extend([0u8; 4]);
    b
}

/// One JSON v1 entry per `(key, name, x, y, player)`; `player` `None` for features.
fn objects(list: &[(&str, &str, i32, i32, Option<u32>)], name_key: &str) -> String {
    let entries: Vec<String> = list
        .iter()
        .map(|(key, name, x, y, player)| {
            let owner = player.map_or(String::new(), |p| format!(", \"startpos\": {p}"));
            format!(
                "\"{key}\": {{\"{name_key}\": \"{name}\", \"position\": [{x}, {y}, 0], \
                 \"rotation\": [0, 0, 0]{owner}}}"
            )
        })
        .collect();
    format!("{{\n{}\n}}", entries.join(",\n"))
}

/// A 16×16 map folder `m/2c-test` (2 players, from its name) with these objects and
/// extra files, and the game's stats under `data/` unless `stats` is false.
struct MapBuilder {
    source: MemorySource,
    structures: Vec<(&'static str, &'static str, i32, i32, Option<u32>)>,
    features: Vec<(&'static str, &'static str, i32, i32, Option<u32>)>,
    droids: Vec<(&'static str, &'static str, i32, i32, Option<u32>)>,
    /// Report the whole-map rules `map/start-position-missing`,
    /// `map/player-no-constructor` and `map/nothing-placed` (most cases give their
    /// players no truck, or refuse the one object of a kind they have: these rules are
    /// checked by their own cases).
    starts: bool,
    /// Files written over the map's (after its object files, so a case can give its own
    /// `struct.json`).
    extra: Vec<(String, Vec<u8>)>,
}

const DIR: &str = "m/2c-test";

impl MapBuilder {
    fn new() -> MapBuilder {
        let source = MemorySource::new()
            .with(format!("{DIR}/game.map"), game_map(10, 16, 16, 256))
            .with(format!("{DIR}/ttypes.ttp"), ttypes(8));
        MapBuilder {
            source,
            structures: Vec::new(),
            features: Vec::new(),
            droids: Vec::new(),
            starts: false,
            extra: Vec::new(),
        }
    }

    fn file(mut self, name: &str, bytes: impl Into<Vec<u8>>) -> MapBuilder {
        self.extra.push((format!("{DIR}/{name}"), bytes.into()));
        self
    }

    fn check(self, stats: bool) -> MapReport {
        let mut source = self.source;
        source.insert(
            format!("{DIR}/struct.json"),
            objects(&self.structures, "name"),
        );
        source.insert(
            format!("{DIR}/feature.json"),
            objects(&self.features, "name"),
        );
        source.insert(
            format!("{DIR}/droid.json"),
            objects(&self.droids, "template"),
        );
        for (path, bytes) in self.extra {
            source.insert(path, bytes);
        }
        let mut roots = Vec::new();
        if stats {
            for (path, text) in STATS {
                source.insert(*path, *text);
            }
            roots.push(FileRef::Disk("data".into()));
        }
        let files = Files::new(source);
        let mut report = check_maps(&files, &FileRef::Disk(DIR.into()), None, &roots, None);
        if !self.starts {
            report.findings.retain(|f| {
                ![
                    "map/start-position-missing",
                    "map/player-no-constructor",
                    "map/nothing-placed",
                ]
                .contains(&f.rule)
            });
        }
        report
    }
}

/// The rule ids found, sorted.
fn rules(r: &MapReport) -> Vec<&'static str> {
    let mut v: Vec<&str> = r.findings.iter().map(|f| f.rule).collect();
    v.sort();
    v
}

/// A tile's centre, world units.
fn c(tile: i32) -> i32 {
    tile * 128 + 64
}

#[test]
fn a_clean_map_has_no_finding() {
    let mut m = MapBuilder::new();
    m.structures = vec![("structure_1", "A0LightFactory", c(6), c(6), Some(0))];
    m.features = vec![("feature_1", "Boulder1", c(10), c(10), None)];
    m.droids = vec![
        ("droid_0", "ConstructorDroid", c(4), c(12), Some(0)),
        ("droid_1", "ConstructorDroid", c(12), c(12), Some(1)),
    ];
    m.starts = true;
    let r = m.check(true);
    assert_eq!(r.maps, 1);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
}

#[test]
fn every_map_rule_is_registered_and_tested() {
    let ids = [
        "map/game-map-version",
        "map/size",
        "map/tile-count",
        "map/ttypes-version",
        "map/tileset-unknown",
        "map/structure-near-edge",
        "map/feature-off-map",
        "map/feature-stacked",
        "map/droid-off-map",
        "map/structure-stacked",
        "map/module-record",
        "map/module-orphan",
        "map/oil-under-derrick",
        "map/unknown-stats",
        "map/stats-unchecked",
        "map/player-beyond-count",
        "map/start-position-missing",
        "map/script-refused",
        "map/entry-key-missing",
        "map/entry-key-type",
        "map/entry-id-zero",
        "map/entry-modules-range",
        "map/entry-value-unread",
        "map/structure-limit",
        "map/modules-unfit",
        "map/nothing-placed",
        "map/object-id-duplicate",
        "map/player-no-constructor",
        "map/gateway-invalid",
        "map/level-refused",
        "map/level-json",
        "map/package-several-maps",
        "map/gam-missing",
        "map/objects-json-broken",
        "map/objects-file-unread",
        "map/object-limit",
    ];
    for id in ids {
        let r = rule(id).unwrap_or_else(|| panic!("{id} is not registered"));
        assert!(!r.source.is_empty() && !r.explanation.is_empty(), "{id}");
    }
    // And no map rule without its test here.
    for r in RULES.iter().filter(|r| r.id.starts_with("map/")) {
        assert!(ids.contains(&r.id), "rule {} has no test case", r.id);
    }
}

/// A map whose `file` is replaced: exactly one finding, of `rule`, at `at` in that file.
fn refused_file(file: &str, bytes: Vec<u8>, want: &str, at: Location) {
    let r = MapBuilder::new().file(file, bytes).check(true);
    assert_eq!(rules(&r), [want], "{:?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(f.level, Level::Error);
    assert!(f.file.ends_with(file), "{}", f.file);
    assert_eq!(f.location, at, "{}", f.message);
}

#[test]
fn broken_object_files_the_game_passes_over_are_findings_not_refusals() {
    // A broken INI (never read by 4.x) beside the JSON: a note at its line, the map fine.
    let r = MapBuilder::new()
        .file("feature.ini", "[feature_0]\nposition = 1, 2\n[x")
        .check(true);
    assert_eq!(rules(&r), ["map/objects-file-unread"], "{:?}", r.findings);
    assert_eq!(r.findings[0].level, Level::Note);
    assert!(r.findings[0].file.ends_with("feature.ini"));
    // A struct.json the game cannot parse beside a struct.bjo it can: a warning at the
    // JSON's line, the BJO's objects checked (here none).
    let mut bjo = b"stru".to_vec();
    bjo.extend(8u32.to_le_bytes());
    bjo.extend(0u32.to_le_bytes());
    let r = MapBuilder::new()
        .file("struct.json", "{\n \"version\": 2,\n \"structures\": [")
        .file("struct.bjo", bjo)
        .check(true);
    assert_eq!(rules(&r), ["map/objects-json-broken"], "{:?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(f.level, Level::Warning);
    assert!(f.file.ends_with("struct.json"), "{}", f.file);
    assert!(matches!(f.location, Location::Line(_)), "{:?}", f.location);
    // Without the BJO the game's load fails, and the JSON is the refusal.
    let r = MapBuilder::new()
        .file("struct.json", "{\n \"version\": 2,\n \"structures\": [")
        .check(true);
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    assert_eq!(r.findings[0].level, Level::Error);
    assert!(r.findings[0].file.ends_with("struct.json"));
}

#[test]
fn game_map_version_size_and_tile_count() {
    refused_file(
        "game.map",
        game_map(9, 16, 16, 256),
        "map/game-map-version",
        Location::Offset(4),
    );
    refused_file(
        "game.map",
        game_map(41, 16, 16, 256),
        "map/game-map-version",
        Location::Offset(4),
    );
    refused_file(
        "game.map",
        game_map(10, 1, 16, 16),
        "map/size",
        Location::Offset(8),
    );
    refused_file(
        "game.map",
        game_map(10, 257, 256, 0),
        "map/size",
        Location::Offset(8),
    );
    // 16×16 says 256 tiles; 200 are there (and the gateway header after them).
    refused_file(
        "game.map",
        game_map(10, 16, 16, 200),
        "map/tile-count",
        Location::Offset(16),
    );
}

/// An object file with more objects of its kind than Vitrine reads (65,535): refused at
/// the first past the limit, at its line.
#[test]
fn object_files_over_the_limit() {
    let entry = r#"{"name": "Boulder1", "position": [640, 640]}"#;
    let json = format!(
        "{{\"version\": 2,\n\"features\": [\n{}\n]}}",
        vec![entry; vitrine_core::map::MAX_OBJECTS + 1].join(",\n")
    );
    let line = 3 + vitrine_core::map::MAX_OBJECTS as u32;
    refused_file(
        "feature.json",
        json.into(),
        "map/object-limit",
        Location::Line(line),
    );
    // A BJO's count: refused at the count (`bjo.rs`'s own tests).
}

#[test]
fn ttypes_version() {
    refused_file(
        "ttypes.ttp",
        ttypes(6),
        "map/ttypes-version",
        Location::Offset(4),
    );
    refused_file(
        "ttypes.ttp",
        ttypes(40),
        "map/ttypes-version",
        Location::Offset(4),
    );
}

#[test]
fn unknown_tileset() {
    let r = MapBuilder::new()
        .file(
            "level.json",
            r#"{"name": "Test", "type": "skirmish", "players": 2, "tileset": "moon"}"#,
        )
        .check(true);
    assert_eq!(rules(&r), ["map/tileset-unknown"], "{:?}", r.findings);
    assert_eq!(r.findings[0].level, Level::Warning);
    assert!(r.findings[0].file.ends_with("level.json"));
    assert!(r.findings[0].message.contains("\"moon\""));
}

/// The one finding's rule, level, line in its file and object index.
fn one(r: &MapReport) -> (&'static str, Level, Location, Element) {
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    let f = &r.findings[0];
    (f.rule, f.level, f.location, f.element)
}

#[test]
fn structure_near_or_off_the_edge() {
    let mut m = MapBuilder::new();
    m.structures = vec![
        ("structure_1", "A0ResourceExtractor", c(8), c(8), Some(0)),
        ("structure_2", "A0ResourceExtractor", c(2), c(8), Some(0)),
    ];
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/structure-near-edge",
            Level::Error,
            Location::Line(3),
            Element::Object { object: 1 }
        )
    );
    assert!(r.findings[0].file.ends_with("struct.json"));
    let mut m = MapBuilder::new();
    m.structures = vec![("structure_1", "A0ResourceExtractor", c(40), c(8), Some(0))];
    assert_eq!(one(&m.check(true)).0, "map/structure-near-edge");
}

#[test]
fn feature_off_the_map() {
    let mut m = MapBuilder::new();
    m.features = vec![
        ("feature_1", "Boulder1", c(3), c(3), None),
        ("feature_2", "Boulder1", c(16), c(3), None),
    ];
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/feature-off-map",
            Level::Error,
            Location::Line(3),
            Element::Object { object: 1 }
        )
    );
    let mut m = MapBuilder::new();
    m.features = vec![("feature_1", "Boulder1", -5, c(3), None)];
    assert_eq!(one(&m.check(true)).0, "map/feature-off-map");
}

#[test]
fn a_feature_on_a_feature_removes_the_older() {
    let mut m = MapBuilder::new();
    m.features = vec![
        ("feature_1", "Boulder1", c(4), c(4), None),
        ("feature_2", "Boulder1", c(9), c(9), None),
        ("feature_3", "OilResource", c(9) + 30, c(9) - 20, None),
    ];
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/feature-stacked",
            Level::Error,
            Location::Line(3),
            Element::Object { object: 1 }
        )
    );
    assert!(
        r.findings[0]
            .message
            .contains("placing OilResource [feature_3]"),
        "{}",
        r.findings[0].message
    );
}

#[test]
fn droid_off_the_map() {
    let mut m = MapBuilder::new();
    m.droids = vec![("droid_1", "ConstructorDroid", c(3), 16 * 128 + 10, Some(0))];
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/droid-off-map",
            Level::Warning,
            Location::Line(2),
            Element::Object { object: 0 }
        )
    );
}

#[test]
fn stacked_structures_keep_the_first() {
    let mut m = MapBuilder::new();
    m.structures = vec![
        ("structure_1", "A0HardcreteMk1Wall", c(5), c(5), Some(0)),
        (
            "structure_2",
            "A0HardcreteMk1Wall",
            c(5) + 20,
            c(5),
            Some(0),
        ),
        (
            "structure_3",
            "A0HardcreteMk1Wall",
            c(5),
            c(5) - 30,
            Some(1),
        ),
        // The factory's 3×3 footprint covers the wall's tile (6 ± 1).
        ("structure_4", "A0LightFactory", c(6), c(6), Some(0)),
    ];
    let r = m.check(true);
    assert_eq!(
        rules(&r),
        [
            "map/structure-stacked",
            "map/structure-stacked",
            "map/structure-stacked"
        ]
    );
    let objects: Vec<Element> = r.findings.iter().map(|f| f.element).collect();
    assert_eq!(
        objects,
        [1, 2, 3].map(|object| Element::Object { object }),
        "the first in file order is kept"
    );
    assert!(r.findings.iter().all(|f| f.level == Level::Error));
}

#[test]
fn module_records_are_merged_and_orphans_refused() {
    let mut m = MapBuilder::new();
    m.structures = vec![
        ("structure_1", "A0LightFactory", c(6), c(6), Some(0)),
        ("structure_2", "A0FacMod1", c(6), c(6), Some(0)),
    ];
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/module-record",
            Level::Note,
            Location::Line(3),
            Element::Object { object: 1 }
        )
    );
    assert!(
        r.findings[0]
            .message
            .contains("A0LightFactory [structure_1]")
    );
    let mut m = MapBuilder::new();
    m.structures = vec![("structure_1", "A0FacMod1", c(10), c(10), Some(0))];
    let (rule, level, ..) = one(&m.check(true));
    assert_eq!((rule, level), ("map/module-orphan", Level::Error));
}

#[test]
fn oil_under_a_derrick_is_removed() {
    let mut m = MapBuilder::new();
    m.features = vec![
        ("feature_1", "OilResource", c(8), c(8), None),
        ("feature_2", "OilResource", c(10), c(8), None),
    ];
    m.structures = vec![("structure_1", "A0ResourceExtractor", c(8), c(8), Some(0))];
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/oil-under-derrick",
            Level::Note,
            Location::Line(2),
            Element::Object { object: 0 }
        )
    );
    assert!(r.findings[0].file.ends_with("feature.json"));
}

#[test]
fn unknown_stats_ids_or_the_check_skipped_without_data() {
    let mut m = MapBuilder::new();
    m.structures = vec![("structure_1", "A0NoSuchThing", c(6), c(6), Some(0))];
    m.features = vec![("feature_1", "NoSuchTree", c(9), c(9), None)];
    m.droids = vec![("droid_1", "NoSuchTemplate", c(11), c(11), Some(0))];
    let r = m.check(true);
    assert_eq!(rules(&r), ["map/unknown-stats"; 3], "{:?}", r.findings);
    assert!(r.findings.iter().all(|f| f.level == Level::Error));
    let files: Vec<&str> = r
        .findings
        .iter()
        .map(|f| f.file.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(files, ["droid.json", "feature.json", "struct.json"]);
    // Without data roots: one note, and no guess.
    let mut m = MapBuilder::new();
    m.structures = vec![("structure_1", "A0NoSuchThing", c(6), c(6), Some(0))];
    let r = m.check(false);
    assert_eq!(rules(&r), ["map/stats-unchecked"]);
    assert_eq!(r.findings[0].level, Level::Note);
    assert!(r.findings[0].message.contains("no data roots"));
}

#[test]
fn objects_of_players_the_level_does_not_have() {
    let mut m = MapBuilder::new();
    m.structures = vec![("structure_1", "A0ResourceExtractor", c(8), c(8), Some(2))];
    m.droids = vec![("droid_1", "ConstructorDroid", c(11), c(11), Some(1))];
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/player-beyond-count",
            Level::Error,
            Location::Line(2),
            Element::Object { object: 1 }
        )
    );
    assert!(
        r.findings[0]
            .message
            .contains("player 2; the level has 2 players")
    );
}

#[test]
fn a_script_map_is_checked_and_a_failing_one_refused() {
    let files = Files::new(
        MemorySource::new()
            .with(
                "s/level.json",
                r#"{"name": "S", "type": "skirmish", "players": 2, "tileset": "urban"}"#,
            )
            .with("s/game.js", "setMapData(2, 2, [], [], [], [], []);")
            .with("s/ttypes.ttp", ttypes(8)),
    );
    let r = check_maps(&files, &FileRef::Disk("s".into()), None, &[], None);
    assert_eq!(rules(&r), ["map/script-refused"]);
    assert!(r.findings[0].file.ends_with("game.js"));
    assert!(
        r.findings[0].message.contains("texture array length"),
        "{:?}",
        r.findings
    );
    // A script that works is checked like any map: an object off the map is found.
    let files = Files::new(
        MemorySource::new()
            .with(
                "s/level.json",
                r#"{"name": "S", "type": "skirmish", "players": 2, "tileset": "urban"}"#,
            )
            .with(
                "s/game.js",
                "setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], \
                 [{name: 'Tree1', position: [9000, 64], direction: 0}]);",
            )
            .with("s/ttypes.ttp", ttypes(8)),
    );
    let r = check_maps(&files, &FileRef::Disk("s".into()), None, &[], None);
    assert!(
        rules(&r).contains(&"map/feature-off-map"),
        "{:?}",
        rules(&r)
    );
}

#[test]
fn bjo_objects_are_placed_by_their_record_offset() {
    // Two feat v8 records (76 bytes each: a 40-byte name, 9 words); the second off the
    // map. Without feature.json the game reads feat.bjo.
    let mut b = b"feat".to_vec();
    b.extend(8u32.to_le_bytes());
    b.extend(2u32.to_le_bytes());
    for x in [c(3), c(30)] {
        let mut name = [0u8; 40];
        name[..8].copy_from_slice(b"Boulder1");
        b.extend(name);
        for w in [1, x as u32, c(3) as u32, 0, 0, 0, 0, 0, 0] {
            b.extend(w.to_le_bytes());
        }
    }
    let mut source = MemorySource::new()
        .with(format!("{DIR}/game.map"), game_map(10, 16, 16, 256))
        .with(format!("{DIR}/feat.bjo"), b);
    for (path, text) in STATS {
        source.insert(*path, *text);
    }
    let files = Files::new(source);
    let mut r = check_maps(
        &files,
        &FileRef::Disk(DIR.into()),
        None,
        &[FileRef::Disk("data".into())],
        None,
    );
    // No droids: no start positions (their own case).
    r.findings
        .retain(|f| f.rule != "map/start-position-missing");
    assert_eq!(
        one(&r),
        (
            "map/feature-off-map",
            Level::Error,
            Location::Offset(12 + 76),
            Element::Object { object: 1 }
        )
    );
    assert!(r.findings[0].file.ends_with("feat.bjo"));
}

#[test]
fn a_player_without_a_truck_has_no_start_position() {
    // Player 0 has a truck; player 1 only a tank (the first truck sets the position:
    // loadWzMapDroidInit).
    let mut m = MapBuilder::new();
    m.droids = vec![
        ("droid_0", "ViperMG", c(4), c(4), Some(0)),
        ("droid_1", "ConstructorDroid", c(5), c(4), Some(0)),
        ("droid_2", "ViperMG", c(12), c(12), Some(1)),
    ];
    m.starts = true;
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/start-position-missing",
            Level::Warning,
            Location::File,
            Element::File
        )
    );
    assert!(
        r.findings[0].message.contains("player 1 of 2"),
        "{}",
        r.findings[0].message
    );
    assert!(
        r.findings[0].file.ends_with("2c-test/game.map"),
        "{}",
        r.findings[0].file
    );
    // Without the templates nothing is known to be a truck: not checked.
    let mut m = MapBuilder::new();
    m.starts = true;
    let r = m.check(false);
    assert_eq!(rules(&r), ["map/stats-unchecked"]);
}

/// `struct.json` of these v1 entries (`key: {body}`), the rest of the map empty.
fn struct_json(entries: &[(&str, &str)]) -> String {
    let body: Vec<String> = entries
        .iter()
        .map(|(k, b)| format!("\"{k}\": {{{b}}}"))
        .collect();
    format!("{{\n{}\n}}", body.join(",\n"))
}

/// Each kind of entry the game's JSON reader skips: one error each, of its own rule, at
/// the entry's line; and the map then holds no structure at all (said once more).
#[test]
fn entries_the_game_reader_skips() {
    let cases: [(&str, &str); 6] = [
        (
            r#""id": "A0CommandCentre", "name": "A0HardcreteMk1Wall", "position": [832, 832, 0], "startpos": 0"#,
            "map/entry-key-type",
        ),
        (
            r#""name": "A0HardcreteMk1Wall", "startpos": 0"#,
            "map/entry-key-missing",
        ),
        (
            r#""name": "A0HardcreteMk1Wall", "position": [832, 832, 0], "player": "0""#,
            "map/entry-key-type",
        ),
        (
            r#""id": 0, "name": "A0HardcreteMk1Wall", "position": [832, 832, 0], "startpos": 0"#,
            "map/entry-id-zero",
        ),
        (
            r#""name": "A0LightFactory", "position": [832, 832, 0], "startpos": 0, "modules": 256"#,
            "map/entry-modules-range",
        ),
        (
            r#""name": 5, "position": [832, 832, 0], "startpos": 0"#,
            "map/entry-key-type",
        ),
    ];
    for (body, want) in cases {
        let mut m = MapBuilder::new().file("struct.json", struct_json(&[("structure_1", body)]));
        m.starts = true;
        m.droids = vec![
            ("droid_0", "ConstructorDroid", c(4), c(12), Some(0)),
            ("droid_1", "ConstructorDroid", c(12), c(12), Some(1)),
        ];
        let r = m.check(true);
        assert_eq!(
            rules(&r),
            [want, "map/nothing-placed"]
                .iter()
                .copied()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>(),
            "{body}: {:?}",
            r.findings
        );
        let f = r.findings.iter().find(|f| f.rule == want).unwrap();
        assert_eq!(
            (f.level, f.location, f.element),
            (
                Level::Error,
                Location::Line(2),
                Element::Object { object: 2 }
            ),
            "{body}"
        );
        let none = r
            .findings
            .iter()
            .find(|f| f.rule == "map/nothing-placed")
            .unwrap();
        assert!(
            none.message.contains("none of the 1 structures"),
            "{}",
            none.message
        );
        assert!(none.file.ends_with("struct.json"));
    }
}

/// What the game logs and reads past: the rotation it cannot read (the object is kept).
#[test]
fn a_value_the_game_reads_past() {
    let m = MapBuilder::new().file(
        "struct.json",
        struct_json(&[("structure_1", r#""name": "A0HardcreteMk1Wall", "position": [832, 832, 0], "rotation": 16384, "startpos": 0"#)]),
    );
    let (rule, level, location, _) = one(&m.check(true));
    assert_eq!(
        (rule, level, location),
        ("map/entry-value-unread", Level::Error, Location::Line(2))
    );
}

/// The third factory of a player whose limit is 2 is refused, its module record with it;
/// the other player has a limit of its own.
#[test]
fn structures_beyond_the_building_limit() {
    let mut m = MapBuilder::new();
    m.structures = vec![
        ("structure_1", "A0LightFactory", c(4), c(4), Some(0)),
        ("structure_2", "A0LightFactory", c(8), c(4), Some(0)),
        ("structure_3", "A0LightFactory", c(12), c(4), Some(0)),
        ("structure_4", "A0FacMod1", c(12), c(4), Some(0)),
        ("structure_5", "A0LightFactory", c(4), c(8), Some(1)),
    ];
    let r = m.check(true);
    assert_eq!(
        rules(&r),
        ["map/module-orphan", "map/structure-limit"],
        "{:?}",
        r.findings
    );
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "map/structure-limit")
        .unwrap();
    assert_eq!(
        (f.level, f.element),
        (Level::Error, Element::Object { object: 2 })
    );
    assert!(f.message.contains("(has 2, max 2)"), "{}", f.message);
}

#[test]
fn modules_on_a_structure_that_takes_none() {
    let m = MapBuilder::new().file(
        "struct.json",
        struct_json(&[("structure_1", r#""name": "A0HardcreteMk1Wall", "position": [832, 832, 0], "startpos": 0, "modules": 1"#)]),
    );
    let (rule, level, ..) = one(&m.check(true));
    assert_eq!((rule, level), ("map/modules-unfit", Level::Error));
}

#[test]
fn two_objects_with_one_id() {
    let m = MapBuilder::new().file(
        "struct.json",
        struct_json(&[
            ("structure_1", r#""id": 70, "name": "A0HardcreteMk1Wall", "position": [832, 832, 0], "startpos": 0"#),
            ("structure_2", r#""id": 70, "name": "A0HardcreteMk1Wall", "position": [1088, 832, 0], "startpos": 1"#),
        ]),
    );
    let r = m.check(true);
    assert_eq!(
        one(&r),
        (
            "map/object-id-duplicate",
            Level::Warning,
            Location::Line(3),
            Element::Object { object: 1 }
        )
    );
    assert!(r.findings[0].message.contains("[structure_1]"));
}

/// An HQ but no truck: the player has a start position, and nothing to build with once
/// "No bases" removes the HQ.
#[test]
fn a_player_without_a_construction_droid() {
    let mut m = MapBuilder::new();
    m.structures = vec![("structure_1", "A0CommandCentre", c(5), c(5), Some(1))];
    m.droids = vec![("droid_0", "ConstructorDroid", c(4), c(12), Some(0))];
    m.starts = true;
    let r = m.check(true);
    assert_eq!(rules(&r), ["map/player-no-constructor"], "{:?}", r.findings);
    assert_eq!(r.findings[0].level, Level::Warning);
    assert!(r.findings[0].message.contains("player 1 of 2"));
}

/// A diagonal gateway and one off the map, at their records' offsets in game.map.
#[test]
fn gateways_the_game_drops() {
    let mut map = game_map(10, 16, 16, 256);
    map.truncate(map.len() - 4);
    map.extend(3u32.to_le_bytes());
    map.extend([2, 2, 2, 9, 3, 3, 6, 6, 20, 1, 20, 4]);
    let r = MapBuilder::new().file("game.map", map).check(true);
    assert_eq!(
        rules(&r),
        ["map/gateway-invalid", "map/gateway-invalid"],
        "{:?}",
        r.findings
    );
    let at: Vec<Location> = r.findings.iter().map(|f| f.location).collect();
    let first = 16 + 256 * 3 + 8;
    assert_eq!(
        at,
        [Location::Offset(first + 4), Location::Offset(first + 8)]
    );
    assert!(r.findings[0].message.contains("diagonal"));
    assert!(r.findings[1].message.contains("off the map"));
}

/// A package's levels that do not open are findings at their file and line, and its
/// other maps are still checked: a `.lev` level over a map the package does not hold, one
/// whose path leaves the package, one naming a `.gam` that is not there (a note: the
/// map opens), and a `level.json` with a key of the wrong type.
#[test]
fn levels_that_do_not_open_are_findings_and_the_other_maps_are_checked() {
    let map = game_map(10, 16, 16, 256);
    let lev = "level A\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/a.gam\"\n\
               level B\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/b.gam\"\n\
               level C\nplayers 2\ntype 14\ndataset MULTI_CAM_1\ngame \"../c.gam\"\n";
    let files = Files::new(
        MemorySource::new()
            .with("k/pack.xplayers.lev", lev)
            .with("k/multiplay/maps/a/game.map", map.clone())
            .with("k/multiplay/maps/a/ttypes.ttp", ttypes(8))
            .with(
                "k/multiplay/maps/j/level.json",
                "{\"name\": \"J\",\n \"type\": \"skirmish\",\n \"players\": -1,\n \"tileset\": \"urban\"}",
            )
            .with("k/multiplay/maps/j/game.map", map)
            .with("k/multiplay/maps/j/ttypes.ttp", ttypes(8)),
    );
    let r = check_maps(&files, &FileRef::Disk("k".into()), None, &[], None);
    assert_eq!(r.maps, 2, "A and J are checked: {:?}", r.findings);
    let at = |rule: &str| {
        r.findings
            .iter()
            .filter(|f| f.rule == rule)
            .map(|f| {
                (
                    f.file.rsplit('/').next().unwrap_or("").to_string(),
                    f.location,
                    f.level,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        at("map/level-refused"),
        [
            (
                "pack.xplayers.lev".to_string(),
                Location::Line(10),
                Level::Error
            ),
            (
                "pack.xplayers.lev".to_string(),
                Location::Line(15),
                Level::Error
            )
        ],
        "{:?}",
        r.findings
    );
    assert_eq!(
        at("map/gam-missing"),
        [(
            "pack.xplayers.lev".to_string(),
            Location::Line(5),
            Level::Note
        )]
    );
    assert_eq!(
        at("map/level-json"),
        [("level.json".to_string(), Location::Line(3), Level::Error)]
    );
    // A and J are two maps in one package: the game lists neither (one error, on the
    // package).
    let several: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule == "map/package-several-maps")
        .collect();
    assert_eq!(several.len(), 1, "{several:?}");
    assert_eq!(
        (several[0].file.as_str(), several[0].level),
        ("k", Level::Error)
    );
    assert!(several[0].message.starts_with("2 maps in one package"));
    // `--level` by a level's name in another case: that map only, the problems still told.
    let r = check_maps(&files, &FileRef::Disk("k".into()), Some("j"), &[], None);
    assert_eq!(r.maps, 1);
    assert!(r.findings.iter().any(|f| f.rule == "map/level-json"));
    assert!(
        r.findings
            .iter()
            .any(|f| f.rule == "map/package-several-maps")
    );
}
