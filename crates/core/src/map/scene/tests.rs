use super::terrain::{drawn_height, model_point, terrain_mesh, tile_uvs, water_mesh};
use super::*;
use crate::files::MemorySource;
use crate::map::level::{Level, Shape};
use crate::map::{MapObject, Owner, Terrain, bits, place};
use crate::model::Details;
use glam::{Vec2, Vec3};

pub(super) const W: u32 = 8;
pub(super) const H: u32 = 7;
/// A tile number no tile has by its place.
const WATER_TILE: u16 = 60;

/// An 8×7 map whose corner (x, y) stands at 10·x + 100·y + 7, tile (x, y) numbered
/// x + y·W; `water` lists tiles of tile number [`WATER_TILE`] (terrain type water).
pub(super) fn map(objects: Vec<MapObject>, water: &[(u32, u32)]) -> Map {
    let heights = (0..W * H)
        .map(|i| (10 * (i % W) + 100 * (i / W) + 7) as i32)
        .collect();
    let mut textures: Vec<u16> = (0..(W * H) as u16).collect();
    for &(x, y) in water {
        textures[(x + y * W) as usize] = WATER_TILE;
    }
    let mut types = vec![0u16; 64];
    types[usize::from(WATER_TILE)] = 7;
    Map {
        level: Level {
            name: "Sk-Test".into(),
            players: Some(2),
            tileset: Tileset::Urban,
            tileset_from: String::new(),
            folder: FileRef::Disk("m".into()),
            gam: None,
            defined_in: None,
            tileset_unknown: None,
            shape: Shape::Folder,
            seed: crate::map::script::DEFAULT_SEED,
            levels: Default::default(),
        },
        terrain: Terrain {
            width: W,
            height: H,
            heights,
            textures,
            gateways: Vec::new(),
            version: 40,
        },
        terrain_types: types,
        objects,
        files: Vec::new(),
        notes: Vec::new(),
        scroll_limits: None,
    }
}

const CUBE: &str = "PIE 3\nTYPE 200\nTEXTURE 0 page-90-fixture.png 0 0\nLEVELS 1\nLEVEL 1\n\
POINTS 4\n\t-10 0 -10\n\t10 0 -10\n\t10 20 10\n\t-10 20 10\nPOLYGONS 2\n\
\t200 3 0 2 1 0 1 1 0 1 1\n\t200 3 0 3 2 0 1 0 0 1 0\n";

/// Data roots with the Urban tile images of tiles 0–9 and a structure `Hut` whose model
/// is a small PIE.
pub(super) fn data() -> (Files, Vec<FileRef>) {
    (Files::new(source()), vec![FileRef::Disk("d".into())])
}

/// The files of [`data`].
pub(super) fn source() -> MemorySource {
    let mut source = MemorySource::new()
        .with(
            "d/stats/structure.json",
            r#"{"Hut": {"type": "GENERIC", "width": 1, "breadth": 1, "structureModel": ["hut.pie"]}}"#,
        )
        .with("d/structs/hut.pie", CUBE)
        .with("d/tileset/urbandecals.txt", "urban_decals,1\n03\n")
        .with(
            "d/tileset/urbanground.txt",
            "urban_ground,4\nu_a,u_a,u_a,u_a\nu_b,u_b,u_b,u_b\nu_a,u_b,u_a,u_b\nu_b,u_a,u_b,u_b\n",
        );
    for t in 0..10 {
        source = source.with(
            format!("d/texpages/tertilesc2hw-128/tile-{t:02}.png"),
            "png",
        );
    }
    source
}

/// [`data`] with the Urban ground tables and the ground textures (one missing, `u_b`'s,
/// unless `all`).
fn blended_data(all: bool) -> (Files, Vec<FileRef>) {
    let mut s = source()
        .with("d/tileset/urban_enum.txt", "urban_enum,2\nu_a\nu_b\n")
        .with(
            "d/tileset/tertilesc2hwGtype.txt",
            "tertilesc2hw,2\nu_b,page-91-b.png,2\nu_a,page-90-a.png,4\n",
        )
        .with("d/texpages/page-90-a.ktx2", "ktx2");
    if all {
        s = s.with("d/texpages/page-91-b.png", "png");
    }
    (Files::new(s), vec![FileRef::Disk("d".into())])
}

#[test]
fn blended_ground_is_a_pre_pass_and_a_layer_per_ground_with_decals_over_it() {
    let (files, roots) = blended_data(true);
    let (stats, _) = Stats::load(&files, &roots);
    let mut m = map(Vec::new(), &[]);
    // A block of u_b tiles (tile 1) in the north-west; the rest u_a.
    for y in 0..3 {
        for x in 0..3 {
            m.terrain.textures[x + y * W as usize] = 1;
        }
    }
    let p = place(&m, &stats, &files, &roots);
    let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    s.validate().unwrap();
    let property = |k: &str| {
        s.properties
            .iter()
            .find(|p| p.key == k)
            .unwrap()
            .value
            .clone()
    };
    assert_eq!(property("Terrain"), "blended ground textures (as 4.3)");
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    assert!(
        names.contains(&"ground u_a") && names.contains(&"ground u_b"),
        "{names:?}"
    );
    assert!(!names.contains(&"under decals") && !names.contains(&"terrain"));
    // Each ground: an opaque and an additive material on its texture (KTX2 found first).
    let textured = |name: &str| {
        s.materials
            .iter()
            .filter(|m| m.name == name)
            .map(|m| (m.blend, s.textures[m.base.unwrap()].name.clone()))
            .collect::<Vec<_>>()
    };
    let a = "texpages/page-90-a.ktx2".to_string();
    assert_eq!(
        textured("ground u_a"),
        [(BlendMode::Opaque, a.clone()), (BlendMode::Additive, a)]
    );
    assert_eq!(textured("ground u_b")[1].1, "texpages/page-91-b.png");
    // The pre-pass is black and opaque; the decal tile is blended over the ground.
    let depth = s
        .materials
        .iter()
        .find(|m| m.name == "ground depth")
        .unwrap();
    assert_eq!(
        (depth.base_color, depth.blend),
        ([0.0, 0.0, 0.0, 1.0], BlendMode::Opaque)
    );
    let crate::model::Details::Map(d) = &s.details else {
        panic!("no map details");
    };
    let [decals] = d.layer_nodes(Layer::Decals) else {
        panic!("{:?}", d.layers);
    };
    let decal_mesh = &s.meshes[s.nodes[*decals].mesh.unwrap()];
    let decal = &s.materials[decal_mesh.submeshes[0].material];
    assert!(decal.name.ends_with("/tile-03.png"));
    assert_eq!(
        (decal.blend, decal_mesh.triangle_count()),
        (BlendMode::AlphaBlend, 4)
    );
    // Classic when asked: the tiles and the plain tile under the decal.
    let classic = SceneOptions {
        terrain: TerrainMode::Classic,
        ..SceneOptions::default()
    };
    let c = scene(&m, &p, &stats, &files, &roots, &classic);
    assert!(c.nodes.iter().any(|n| n.name == "under decals"));
    assert!(!c.materials.iter().any(|m| m.blend == BlendMode::Additive));
    // A ground texture missing: the classic tiles, with a note naming it.
    let (files, roots) = blended_data(false);
    let f = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    assert!(f.nodes.iter().any(|n| n.name == "under decals"));
    let note = f
        .diagnostics
        .iter()
        .find(|d| d.message.contains("classic tile images"))
        .unwrap();
    assert!(
        note.message
            .contains("no texpages/page-91-b.ktx2 (or .png)"),
        "{}",
        note.message
    );
}

pub(super) fn hut(x: i32, y: i32, direction: u16) -> MapObject {
    MapObject {
        kind: ObjectKind::Structure,
        stats_id: "Hut".into(),
        owner: Owner::Player(0),
        x,
        y,
        direction,
        id: None,
        modules: 0,
        key: "structure_0".into(),
        refused: None,
        logged: Vec::new(),
    }
}

#[test]
fn terrain_is_four_triangles_per_tile_with_a_zero_border_ring() {
    let m = map(Vec::new(), &[]);
    let (mesh, tiles) = terrain_mesh(&m.terrain);
    let corners = ((W + 1) * (H + 1)) as usize;
    assert_eq!(mesh.points.len(), corners + (W * H) as usize);
    assert_eq!(mesh.triangle_count(), (4 * W * H) as usize);
    // One submesh per tile number, covering every triangle in order.
    assert_eq!(tiles, (0..(W * H) as u16).collect::<Vec<_>>());
    assert_eq!(mesh.submeshes.len(), tiles.len());
    let stride = (W + 1) as usize;
    for j in 0..=H as i32 {
        for i in 0..=W as i32 {
            let p = mesh.points[i as usize + j as usize * stride];
            let ring = i == 0 || j == 0 || i == W as i32 || j == H as i32;
            let want = if ring { 0 } else { 10 * i + 100 * j + 7 };
            assert_eq!(drawn_height(&m.terrain, i, j), want);
            assert_eq!(
                p,
                model_point((i * 128) as f32, (j * 128) as f32, want as f32),
                "corner ({i}, {j})"
            );
        }
    }
    // Tile (2, 1)'s centre: the mean of its corners, in the middle of the tile.
    let c = mesh.points[corners + 2 + W as usize];
    let mean = [(2, 1), (3, 1), (3, 2), (2, 2)]
        .iter()
        .map(|&(i, j)| (10 * i + 100 * j + 7) as f32)
        .sum::<f32>()
        / 4.0;
    assert_eq!(c, model_point(2.5 * 128.0, 1.5 * 128.0, mean));
    // Every triangle faces up, and every normal is lit from above.
    for t in 0..mesh.triangle_count() {
        assert!(mesh.face_normal(t).y > 0.0, "triangle {t} faces down");
    }
    assert!(mesh.corners.iter().all(|c| c.normal.unwrap().y > 0.0));
}

#[test]
fn tile_uvs_follow_flips_then_turns() {
    let v = |x: f32, y: f32| Vec2::new(x, y);
    let plain = [v(0., 0.), v(1., 0.), v(1., 1.), v(0., 1.)];
    assert_eq!(tile_uvs(5), plain);
    // x-flip: the image's left edge on the tile's right.
    assert_eq!(
        tile_uvs(bits::XFLIP),
        [v(1., 0.), v(0., 0.), v(0., 1.), v(1., 1.)]
    );
    assert_eq!(
        tile_uvs(bits::YFLIP),
        [v(0., 1.), v(1., 1.), v(1., 0.), v(0., 0.)]
    );
    // One quarter turn: TL takes BL's UV (the image turned clockwise, y down).
    assert_eq!(
        tile_uvs(0x1000),
        [v(0., 1.), v(0., 0.), v(1., 0.), v(1., 1.)]
    );
    // Four turns are none; two flips are a half turn.
    assert_eq!(tile_uvs(bits::XFLIP | bits::YFLIP), tile_uvs(0x2000));
    // Flip first, then turn.
    assert_eq!(
        tile_uvs(bits::XFLIP | 0x1000),
        [v(1., 1.), v(1., 0.), v(0., 0.), v(0., 1.)]
    );
    // In the mesh: tile (1, 1) turned once puts its TL corner at the image's bottom-left
    // (inset by half a texel).
    let mut m = map(Vec::new(), &[]);
    m.terrain.textures[1 + W as usize] = 61 | 0x1000;
    let (mesh, tiles) = terrain_mesh(&m.terrain);
    let s = mesh.submeshes[tiles.iter().position(|&t| t == 61).unwrap()];
    let tl = 1 + (W + 1);
    let first = s.first_triangle as usize * 3;
    let corner = mesh.corners[first..first + 12]
        .iter()
        .find(|c| c.point == tl)
        .unwrap();
    assert!(corner.uv[0].abs_diff_eq(v(0.5 / 128.0, 1.0 - 0.5 / 128.0), 1e-6));
}

#[test]
fn water_stands_a_third_of_a_tile_under_the_stored_height() {
    let m = map(Vec::new(), &[(2, 2)]);
    let mesh = water_mesh(&m.terrain, &m.terrain_types).unwrap();
    // Tile (2, 2) and its east, south and south-east neighbours.
    assert_eq!(mesh.triangle_count(), 4 * 4);
    let top_left = model_point(256.0, 256.0, (20 + 200 + 7 - 42) as f32);
    assert!(mesh.points.contains(&top_left));
    assert!(water_mesh(&map(Vec::new(), &[]).terrain, &m.terrain_types).is_none());
}

#[test]
fn the_scene_has_terrain_tiles_water_and_objects_at_their_place() {
    let (files, roots) = data();
    let (stats, _) = Stats::load(&files, &roots);
    let m = map(vec![hut(4 * 128 + 64, 4 * 128 + 64, 0x4000)], &[(1, 3)]);
    let p = place(&m, &stats, &files, &roots);
    assert_eq!(p.objects.len(), 1);
    let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    s.validate().unwrap();
    // Tiles 0–9 found, the others and the water page not.
    let tiles = s
        .materials
        .iter()
        .filter(|m| m.name.starts_with("tertilesc2hw-128/"));
    let textured: std::collections::HashSet<&str> = tiles
        .filter(|m| m.base.is_some())
        .map(|m| m.name.as_str())
        .collect();
    let textured = textured.len();
    assert_eq!(textured, 10);
    assert!(s.textures[0].name.ends_with("tertilesc2hw-128/tile-01.png"));
    let warnings: Vec<&str> = s.diagnostics.iter().map(|d| d.message.as_str()).collect();
    let missing = format!("{} tile images missing", W * H - 10);
    assert!(
        warnings.iter().any(|w| w.contains(&missing)),
        "{warnings:?}"
    );
    assert!(warnings.iter().any(|w| w.contains("page-80-water-1.png")));
    let water = s.nodes.iter().position(|n| n.name == "water").unwrap();
    let crate::model::Details::Map(d) = &s.details else {
        panic!("no map details");
    };
    assert_eq!(d.layer_nodes(Layer::Water), [water]);
    // The hut at its place, turned a quarter: its group node.
    let pose = crate::model::Pose::rest(&s);
    let g = s
        .nodes
        .iter()
        .position(|n| n.name.starts_with("structure Hut"))
        .unwrap();
    let at = pose.world[g].transform_point3(Vec3::ZERO);
    assert!(at.abs_diff_eq(model_point(576.0, 576.0, p.objects[0].z as f32), 1e-3));
    let x = pose.world[g].transform_vector3(Vec3::X);
    assert!(x.abs_diff_eq(Vec3::new(0.0, 0.0, -1.0), 1e-5), "{x}");
    assert!(
        s.properties
            .iter()
            .any(|p| p.key == "Structures" && p.value == "1")
    );
    // Tile 3 is a decal: blended, over tile 1 (its corners mostly u_b) on a layer under it.
    let decal = s
        .materials
        .iter()
        .find(|m| m.name.ends_with("/tile-03.png"))
        .unwrap();
    assert_eq!(decal.blend, BlendMode::AlphaBlend);
    decals_are_their_own_layer(&s);
    let under = s.nodes.iter().find(|n| n.name == "under decals").unwrap();
    let mesh = &s.meshes[under.mesh.unwrap()];
    assert_eq!(mesh.triangle_count(), 4);
    assert!(
        s.materials[mesh.submeshes[0].material]
            .name
            .ends_with("/tile-01.png")
    );
    // Without objects: no hut.
    let bare = scene(
        &m,
        &p,
        &stats,
        &files,
        &roots,
        &SceneOptions {
            objects: false,
            ..SceneOptions::default()
        },
    );
    assert!(!bare.nodes.iter().any(|n| n.name.starts_with("structure")));
}

/// The decal tiles (tile 3) of `s` are a node of their own (the decals' layer), every
/// other tile and the plain tile under the decal the terrain's.
fn decals_are_their_own_layer(s: &Model) {
    let crate::model::Details::Map(d) = &s.details else {
        panic!("no map details");
    };
    let [decals] = d.layer_nodes(Layer::Decals) else {
        panic!("{:?}", d.layers);
    };
    let decal_mesh = &s.meshes[s.nodes[*decals].mesh.unwrap()];
    assert_eq!(decal_mesh.submeshes.len(), 1);
    assert!(
        s.materials[decal_mesh.submeshes[0].material]
            .name
            .ends_with("/tile-03.png")
    );
    let terrain: usize = d
        .layer_nodes(Layer::Terrain)
        .iter()
        .map(|&n| s.meshes[s.nodes[n].mesh.unwrap()].triangle_count())
        .sum();
    assert_eq!(
        terrain + decal_mesh.triangle_count(),
        (W * H * 4 + 4) as usize,
        "every tile, and the one under the decal"
    );
}

#[test]
fn without_data_the_ground_is_plain_and_objects_are_boxes() {
    let files = Files::new(MemorySource::new());
    let stats = Stats::default();
    let m = map(vec![hut(4 * 128 + 64, 4 * 128 + 64, 0)], &[]);
    let p = place(&m, &stats, &files, &[]);
    let s = scene(&m, &p, &stats, &files, &[], &SceneOptions::default());
    s.validate().unwrap();
    assert!(s.textures.is_empty());
    let warnings: Vec<&str> = s.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("no tile images")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("drawn as boxes")),
        "{warnings:?}"
    );
    let marker = s.meshes.iter().find(|m| m.name == "marker").unwrap();
    assert_eq!(marker.triangle_count(), 12);
    // The details name the hut's node, under the structures' layer node.
    let crate::model::Details::Map(d) = &s.details else {
        panic!("no map details: {:?}", s.details);
    };
    assert_eq!(d.objects.len(), 1);
    let hut = &d.objects[0];
    assert!(s.nodes[hut.node].name.starts_with("structure Hut"));
    let layer = d.layer_nodes(Layer::Structures);
    assert_eq!(layer, [s.nodes[hut.node].parent.unwrap()]);
    assert_eq!(s.nodes[layer[0]].name, "structures");
    let leaf = (0..s.nodes.len())
        .find(|&n| s.nodes[n].mesh.is_some() && s.nodes[n].parent == Some(hut.node))
        .unwrap();
    assert_eq!(d.object_at_node(&s, leaf), Some(0));
    assert_eq!(d.object_at_node(&s, layer[0]), None);
    assert_eq!(d.counts()[0].1.structures, 1);
    assert_eq!(d.layer_nodes(Layer::Terrain).len(), 1);
    assert!(d.layer_nodes(Layer::Droids).is_empty());
}

#[test]
fn an_unknown_structure_is_a_box_with_a_warning() {
    let (files, roots) = data();
    let (stats, _) = Stats::load(&files, &roots);
    // The hut's model file is missing from these roots: a box, and the reason.
    let files2 = Files::new(MemorySource::new().with(
        "d/stats/structure.json",
        r#"{"Hut": {"type": "GENERIC", "width": 1, "breadth": 1, "structureModel": ["gone.pie"]}}"#,
    ));
    let (stats2, _) = Stats::load(&files2, &roots);
    let m = map(vec![hut(4 * 128 + 64, 4 * 128 + 64, 0)], &[]);
    let p = place(&m, &stats2, &files2, &roots);
    let s = scene(&m, &p, &stats2, &files2, &roots, &SceneOptions::default());
    let w: Vec<&str> = s.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        w.iter()
            .any(|w| w.contains("structure Hut drawn as a box") && w.contains("gone.pie")),
        "{w:?}"
    );
    assert!(s.meshes.iter().any(|m| m.name == "marker"));
    let _ = stats;
}

#[test]
fn a_game_map_opens_through_the_model_loader() {
    use crate::formats::{LoadOptions, load};
    let tiles: Vec<(u16, u16)> = (0..64).map(|i| (i % 10, 20 * (i / 8))).collect();
    let mut source = MemorySource::new().with(
        "p/game.map",
        crate::map::tests::game_map(40, 8, 8, &tiles, &[]),
    );
    for t in 0..10 {
        source = source.with(
            format!("d/texpages/tertilesc1hw-128/tile-{t:02}.png"),
            "png",
        );
    }
    let files = Files::new(source);
    let options = LoadOptions {
        data_roots: vec![FileRef::Disk("d".into())],
        ..LoadOptions::default()
    };
    let m = load(&files, &FileRef::Disk("p/game.map".into()), &options).unwrap();
    let terrain = m.nodes.iter().find(|n| n.name == "terrain").unwrap();
    assert_eq!(m.meshes[terrain.mesh.unwrap()].triangle_count(), 4 * 64);
    assert!(
        m.properties
            .iter()
            .any(|p| p.key == "Size" && p.value == "8 × 8 tiles")
    );
    assert!(m.textures.iter().all(|t| t.resolved.is_some()));
    // A broken game.map: the loader's error names the file and offset.
    let bad = Files::new(MemorySource::new().with("p/game.map", b"map \x28\0\0\0".to_vec()));
    let e = load(&bad, &FileRef::Disk("p/game.map".into()), &options).unwrap_err();
    assert!(e.to_string().contains("game.map @0x"), "{e}");
}

#[test]
fn objects_carry_their_players_team_colour() {
    let (files, roots) = data();
    let (stats, _) = Stats::load(&files, &roots);
    let mut one = hut(4 * 128 + 64, 3 * 128 + 64, 0);
    one.owner = Owner::Player(1);
    let mut scav = hut(4 * 128 + 64, 4 * 128 + 64, 0);
    scav.owner = Owner::Scavenger;
    scav.key = "structure_1".into();
    let m = map(vec![one, scav], &[]);
    let p = place(&m, &stats, &files, &roots);
    assert!(p.removed.is_empty(), "{:?}", p.removed);
    let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    let team = |key: &str| {
        s.nodes
            .iter()
            .find(|n| n.name.starts_with("structure Hut") && n.name.contains(key))
            .unwrap_or_else(|| {
                panic!(
                    "{key}: {:?}",
                    s.nodes.iter().map(|n| &n.name).collect::<Vec<_>>()
                )
            })
            .team
    };
    assert_eq!(team("structure_0"), Some(1));
    assert_eq!(team("structure_1"), None);
}

fn droid(template: &str, player: u32, x: i32, y: i32) -> MapObject {
    MapObject {
        kind: ObjectKind::Droid,
        stats_id: template.into(),
        owner: Owner::Player(player),
        x,
        y,
        direction: 0,
        id: None,
        modules: 0,
        key: format!("droid {template} {x}"),
        refused: None,
        logged: Vec::new(),
    }
}

#[test]
fn start_positions_are_each_players_first_truck_away_from_the_corner() {
    let source = MemorySource::new().with(
        "d/stats/templates.json",
        r#"{"Truck": {"type": "DROID", "body": "Body1", "propulsion": "wheeled01",
                      "construct": "Spade1Mk1"},
            "Tank": {"type": "DROID", "body": "Body1", "propulsion": "wheeled01",
                     "weapons": ["MG1Mk1"]},
            "Engineer": {"type": "CYBORG_CONSTRUCT", "body": "CyborgLightBody",
                         "propulsion": "CyborgLegs", "construct": "CyborgSpade"}}"#,
    );
    let (files, roots) = (Files::new(source), vec![FileRef::Disk("d".into())]);
    let (stats, _) = Stats::load(&files, &roots);
    let m = map(
        vec![
            // Player 1: a tank first, then two trucks: the first truck counts.
            droid("Tank", 1, 200, 200),
            droid("Truck", 1, 300, 310),
            droid("Truck", 1, 600, 600),
            // Player 0: an engineer is no truck; a truck at (0, 0) leaves the position
            // unset for the next.
            droid("Engineer", 0, 100, 100),
            droid("Truck", 0, 0, 0),
            droid("Truck", 0, 700, 500),
            // Player 2: tanks only: no start position.
            droid("Tank", 2, 400, 400),
        ],
        &[],
    );
    let p = place(&m, &stats, &files, &roots);
    let starts = crate::map::start_positions(&p, &stats);
    let at: Vec<(u32, i32, i32)> = starts.iter().map(|s| (s.player, s.x, s.y)).collect();
    assert_eq!(at, vec![(0, 700, 500), (1, 300, 310)]);
    // Each names its truck in the map's objects.
    assert_eq!(m.objects[starts[1].index].x, 300);
    // The scene marks them: a tile outline and a labelled pole per player, in a layer
    // shown when the map opens.
    let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    s.validate().unwrap();
    let Details::Map(d) = &s.details else {
        panic!("a map's details")
    };
    assert_eq!(d.start_positions, starts);
    let nodes = d.layer_nodes(Layer::StartPositions);
    assert_eq!(nodes.len(), 1);
    let labels: Vec<&str> = s
        .guides
        .iter()
        .filter(|g| g.node == nodes[0])
        .filter_map(|g| g.label.as_deref())
        .collect();
    assert_eq!(labels, vec!["0", "1"]);
    assert!(!s.nodes[nodes[0]].hidden);
}

#[test]
fn grid_footprints_and_gateways_lie_on_the_drawn_ground_and_open_hidden() {
    let (files, roots) = data();
    let (stats, _) = Stats::load(&files, &roots);
    let mut m = map(vec![hut(4 * 128 + 64, 3 * 128 + 64, 0)], &[]);
    m.terrain.gateways.push(crate::map::Gateway {
        from: (2, 5),
        to: (5, 5),
    });
    let p = place(&m, &stats, &files, &roots);
    let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    s.validate().unwrap();
    let Details::Map(d) = &s.details else {
        panic!("a map's details")
    };
    let guides = |layer: Layer| -> Vec<&crate::model::Guide> {
        let nodes = d.layer_nodes(layer);
        s.guides
            .iter()
            .filter(|g| nodes.contains(&g.node))
            .collect()
    };
    // Every point of every guide on the ground is a tile corner at its drawn height.
    let ground = &p.terrain;
    let on_corner = |v: Vec3| {
        let (i, j) = ((-v.x / 128.0).round() as i32, (-v.z / 128.0).round() as i32);
        let want = model_point(
            (i * 128) as f32,
            (j * 128) as f32,
            drawn_height(ground, i, j) as f32,
        );
        v.abs_diff_eq(want, 1e-3)
    };
    // One line per row and per column of corners, each across the map.
    let grid = guides(Layer::Grid);
    assert_eq!(grid.len(), (W + 1 + H + 1) as usize);
    assert!(grid.iter().all(|g| g.points.iter().all(|&v| on_corner(v))));
    assert_eq!(grid[0].points.len(), (W + 1) as usize);
    // The hut's 1×1 footprint: its tile's four corners, closed.
    let foot = guides(Layer::Footprints);
    assert_eq!(foot.len(), 1);
    assert!(foot[0].closed);
    let corners: Vec<Vec3> = [(4, 3), (5, 3), (5, 4), (4, 4)]
        .iter()
        .map(|&(i, j)| {
            model_point(
                (i * 128) as f32,
                (j * 128) as f32,
                drawn_height(ground, i, j) as f32,
            )
        })
        .collect();
    assert_eq!(foot[0].points, corners);
    // The gateway over tiles (2..=5, 5): its outline passes every corner of its edges.
    let gate = guides(Layer::Gateways);
    assert_eq!(gate.len(), 1);
    assert_eq!(gate[0].points.len(), 2 * (4 + 1));
    assert!(gate[0].points.iter().all(|&v| on_corner(v)));
    // Inspecting layers open hidden; the others, and no start positions without trucks.
    let hidden = s.hidden_at_first();
    for layer in [Layer::Grid, Layer::Footprints, Layer::Gateways] {
        assert!(d.layer_nodes(layer).iter().all(|&n| hidden[n]), "{layer:?}");
    }
    assert!(d.layer_nodes(Layer::Terrain).iter().all(|&n| !hidden[n]));
    assert!(d.layer_nodes(Layer::StartPositions).is_empty());
}

fn feature(stats_id: &str, key: &str, x: i32, y: i32) -> MapObject {
    MapObject {
        kind: ObjectKind::Feature,
        stats_id: stats_id.into(),
        owner: Owner::Scavenger,
        x,
        y,
        direction: 0,
        id: None,
        modules: 0,
        key: key.into(),
        refused: None,
        logged: Vec::new(),
    }
}

#[test]
fn structures_and_buildings_cast_the_games_shadows_base_plates_trees_and_boxes_none() {
    let files = Files::new(
        source()
            .with(
                "d/stats/structure.json",
                r#"{"Hut": {"type": "GENERIC", "width": 1, "breadth": 1,
                    "baseModel": "hutbase.pie", "structureModel": ["hut.pie"]},
                    "Ghost": {"type": "GENERIC", "width": 1, "breadth": 1,
                    "structureModel": ["nowhere.pie"]}}"#,
            )
            .with("d/structs/hutbase.pie", CUBE)
            .with(
                "d/stats/features.json",
                r#"{"Shop": {"type": "BUILDING", "model": "hut.pie", "width": 1, "breadth": 1},
                    "Oak": {"type": "TREE", "model": "hut.pie", "width": 1, "breadth": 1}}"#,
            ),
    );
    let roots = vec![FileRef::Disk("d".into())];
    let (stats, _) = Stats::load(&files, &roots);
    let mut ghost = hut(4 * 128 + 64, 3 * 128 + 64, 0);
    ghost.stats_id = "Ghost".into();
    ghost.key = "structure_9".into();
    let m = map(
        vec![
            hut(4 * 128 + 64, 4 * 128 + 64, 0),
            feature("Shop", "feature_1", 3 * 128 + 64, 4 * 128 + 64),
            feature("Oak", "feature_2", 5 * 128 + 64, 4 * 128 + 64),
            ghost,
        ],
        &[],
    );
    let p = place(&m, &stats, &files, &roots);
    assert!(p.removed.is_empty(), "{:?}", p.removed);
    let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    s.validate().unwrap();
    assert_eq!(s.environment.shadows, Some(illumination::shadows()));
    let mark = |starts: &str| {
        let n = s.nodes.iter().find(|n| n.name.starts_with(starts));
        n.unwrap_or_else(|| {
            panic!(
                "{starts}: {:?}",
                s.nodes.iter().map(|n| &n.name).collect::<Vec<_>>()
            )
        })
        .casts_shadow
    };
    assert_eq!(mark("structure Hut"), Some(true));
    assert_eq!(mark("Hut · base"), Some(false), "the base plate");
    assert_eq!(mark("Hut · structure"), None, "as its structure");
    assert_eq!(mark("feature Shop"), Some(true));
    assert_eq!(mark("feature Oak"), Some(false));
    assert_eq!(mark("structure Ghost"), Some(false), "a marker box");
    // The sun as the game pulls shadows along it, mirrored into model space.
    let sun = illumination::shadows().light;
    assert_eq!(sun, [-225.0, -600.0, 450.0]);
}
