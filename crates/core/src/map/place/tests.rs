use super::*;
use crate::files::MemorySource;
use crate::map::level::{Level, Shape};
use crate::map::{FileFormat, MapFile};

fn map_with(objects: Vec<MapObject>) -> Map {
    let (w, h) = (16u32, 16u32);
    let mut heights = vec![100; (w * h) as usize];
    heights[5 + 5 * 16] = 300;
    Map {
        level: Level {
            name: "t".into(),
            players: Some(2),
            tileset: Default::default(),
            tileset_from: String::new(),
            folder: FileRef::Disk("t".into()),
            gam: None,
            defined_in: None,
            tileset_unknown: None,
            shape: Shape::Folder,
            seed: crate::map::script::DEFAULT_SEED,
            levels: Default::default(),
        },
        terrain: Terrain {
            width: w,
            height: h,
            heights,
            textures: vec![0; (w * h) as usize],
            gateways: Vec::new(),
            version: 40,
        },
        terrain_types: Vec::new(),
        objects,
        files: vec![MapFile {
            name: "game.map".into(),
            format: FileFormat::GameMap,
            version: 40,
            records: 0,
            used: true,
            broken: None,
        }],
        notes: Vec::new(),
        scroll_limits: None,
    }
}

fn obj(kind: ObjectKind, id: &str, x: i32, y: i32, owner: Owner) -> MapObject {
    MapObject {
        kind,
        stats_id: id.into(),
        owner,
        x,
        y,
        direction: 0,
        id: None,
        modules: 0,
        key: String::new(),
        refused: None,
        logged: Vec::new(),
    }
}

fn stats() -> Stats {
    let files = Files::new(
        MemorySource::new()
            .with(
                "d/stats/structure.json",
                r#"{"A0PowerGen": {"type": "POWER GENERATOR", "width": 2, "breadth": 2},
                    "A0ResourceExtractor": {"type": "RESOURCE EXTRACTOR", "width": 1, "breadth": 1},
                    "A0PowMod1": {"type": "POWER MODULE", "width": 2, "breadth": 2}}"#,
            )
            .with(
                "d/stats/features.json",
                r#"{"OilResource": {"type": "OIL RESOURCE", "width": 1, "breadth": 1}}"#,
            ),
    );
    Stats::load(&files, &[FileRef::Disk("d".into())]).0
}

#[test]
fn flattens_removes_oil_merges_modules_and_refuses() {
    use ObjectKind::*;
    let map = map_with(vec![
        obj(
            Feature,
            "OilResource",
            7 * 128 + 64,
            7 * 128 + 64,
            Owner::None,
        ),
        obj(
            Structure,
            "A0PowerGen",
            5 * 128 + 10,
            5 * 128 + 100,
            Owner::Player(0),
        ),
        obj(Structure, "A0PowMod1", 5 * 128, 5 * 128, Owner::Player(0)),
        obj(
            Structure,
            "A0ResourceExtractor",
            7 * 128 + 64,
            7 * 128 + 64,
            Owner::Player(1),
        ),
        obj(
            Structure,
            "A0ResourceExtractor",
            7 * 128 + 64,
            7 * 128 + 64,
            Owner::Player(1),
        ),
        obj(Structure, "A0ResourceExtractor", 64, 64, Owner::Player(1)),
        obj(Droid, "X", 64, 64, Owner::Player(5)),
    ]);
    let files = Files::new(MemorySource::new());
    let p = place(&map, &stats(), &files, &[]);
    let why: Vec<(usize, &str)> = p.removed.iter().map(|r| (r.index, r.why.tag())).collect();
    assert_eq!(
        why,
        [
            (6, "no_such_player"),
            (2, "module"),
            (0, "under_derrick"),
            (4, "refused"),
            (5, "refused")
        ]
    );
    let building = &p.objects[0];
    // A 2×2 building snaps to the tile edge and flattens its 3×3 corners to (100 + 300) / 2.
    assert_eq!(
        (
            building.object.x,
            building.object.y,
            building.z,
            building.object.modules
        ),
        (640, 640, 200, 1)
    );
    assert_eq!(p.terrain.corner(4, 4), 200);
    assert_eq!(p.terrain.corner(6, 6), 200);
    assert_eq!(p.terrain.corner(7, 4), 100);
    assert_eq!(p.objects.len(), 2);
}

#[test]
fn a_transporter_hovers_over_the_ground_a_truck_stands_on_it() {
    let files = Files::new(MemorySource::new().with(
        "d/stats/templates.json",
        r#"{"SuperTransport": {"type": "SUPERTRANSPORTER", "body": "B", "propulsion": "P"},
            "Truck": {"type": "CONSTRUCT", "body": "B", "propulsion": "P"}}"#,
    ));
    let stats = Stats::load(&files, &[FileRef::Disk("d".into())]).0;
    let at = 10 * 128 + 64;
    let map = map_with(vec![
        obj(
            ObjectKind::Droid,
            "SuperTransport",
            at,
            at,
            Owner::Player(0),
        ),
        obj(ObjectKind::Droid, "Truck", at, 12 * 128, Owner::Player(1)),
    ]);
    let p = place(&map, &stats, &files, &[]);
    let z: Vec<i32> = p.objects.iter().map(|o| o.z).collect();
    assert_eq!(z, [110, 100], "the ground is at 100");
}

#[test]
fn pie_box_reads_the_first_level() {
    let pie = "PIE 2\nTYPE 200\nLEVELS 2\nLEVEL 1\nPOINTS 2\n -10 0 20\n 30 5 -40\nPOLYGONS 0\nLEVEL 2\nPOINTS 1\n 99 0 99\n";
    assert_eq!(align::pie_box(pie), Some([-10, 30, -40, 20]));
    assert_eq!(align::pie_box("PIE 2\n"), None);
}

/// Features stacked on one tile of the largest map the game loads (256 × 256): each
/// removes the one before it (`map/feature-stacked`), and the placement's work — tiles
/// visited placing and removing — grows with the features, not with features × the
/// map's tiles (a removal swept the whole map: 10,000, 20,000, 40,000 stacked features
/// took 1, 3 and 14 s). Counted, not timed.
#[test]
fn stacked_features_cost_their_footprints_not_the_map() {
    let work = |n: usize| {
        let mut map = map_with(
            (0..n)
                .map(|_| obj(ObjectKind::Feature, "OilResource", 640, 640, Owner::None))
                .collect(),
        );
        map.terrain.width = 256;
        map.terrain.height = 256;
        map.terrain.heights = vec![100; 256 * 256];
        map.terrain.textures = vec![0; 256 * 256];
        let files = Files::new(MemorySource::new());
        let (placed, work) = place_counting(&map, &stats(), &files, &[]);
        assert_eq!(placed.objects.len(), 1, "the last feature stays");
        assert_eq!(placed.removed.len(), n - 1);
        work
    };
    let (small, large) = (work(1_000), work(4_000));
    // One tile placed and one freed per feature (an oil resource is 1×1).
    assert!(
        large <= 2 * 4_000,
        "{large} tiles visited for 4,000 features"
    );
    assert!(large <= 4 * small + 8, "work {small} → {large}: not linear");
}
