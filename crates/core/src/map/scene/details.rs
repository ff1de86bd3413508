//! What a map's scene says about itself beyond the drawn model ([`MapDetails`], the
//! model's [`crate::model::Details::Map`]): the map's facts (size, tileset, players, its
//! files with their formats and versions), every placed object with the node that holds
//! it, and the nodes of each layer (terrain, decals, water, features, structures,
//! droids). A viewer hides a layer or an object, selects and frames one, by these node
//! numbers, without loading the map again; the renderer only sees nodes and never learns
//! it draws a map.

use super::super::{FileFormat, Map, MapFile, ObjectKind, Owner, Placed, Placement};
use crate::model::Model;
use serde::Serialize;

/// A part of the map's picture that can be shown or hidden as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// The ground's tiles (and the plain tiles drawn under decals).
    Terrain,
    /// The decal tiles blended over the ground.
    Decals,
    /// The water surface.
    Water,
    /// Trees, boulders, oil resources, wrecks.
    Features,
    /// Buildings, defences, walls.
    Structures,
    /// Units.
    Droids,
    /// The tile grid, on the ground.
    Grid,
    /// Each structure's footprint, outlined on the ground.
    Footprints,
    /// The gateways of `game.map` (the pathfinding's zone borders), outlined.
    Gateways,
    /// Each player's start position: its tile outlined, a pole with the player's number.
    StartPositions,
}

impl Layer {
    /// Every layer, in the order a panel lists them.
    pub const ALL: [Layer; 10] = [
        Layer::Terrain,
        Layer::Decals,
        Layer::Water,
        Layer::Features,
        Layer::Structures,
        Layer::Droids,
        Layer::Grid,
        Layer::Footprints,
        Layer::Gateways,
        Layer::StartPositions,
    ];

    /// `Terrain`, `Decals`, … (a panel's label).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Terrain => "Terrain",
            Layer::Decals => "Decals",
            Layer::Water => "Water",
            Layer::Features => "Features",
            Layer::Structures => "Structures",
            Layer::Droids => "Droids",
            Layer::Grid => "Grid",
            Layer::Footprints => "Footprints",
            Layer::Gateways => "Gateways",
            Layer::StartPositions => "Start positions",
        }
    }

    /// Whether a map opens with the layer shown: all but the grid, the footprints and
    /// the gateways, which are for inspecting.
    pub fn shown_at_first(self) -> bool {
        !matches!(self, Layer::Grid | Layer::Footprints | Layer::Gateways)
    }

    /// Parses a [`Layer::name`] in any case, `-` or `_` for the space
    /// (`start-positions`).
    pub fn parse(s: &str) -> Option<Layer> {
        let s = s.trim().to_lowercase().replace(['-', '_'], " ");
        Layer::ALL
            .into_iter()
            .find(|l| l.name().to_lowercase() == s)
    }

    /// The layer objects of `kind` are drawn in.
    pub fn of_kind(kind: ObjectKind) -> Layer {
        match kind {
            ObjectKind::Structure => Layer::Structures,
            ObjectKind::Feature => Layer::Features,
            ObjectKind::Droid => Layer::Droids,
        }
    }
}

/// One placed object of the scene.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SceneObject {
    /// What it is.
    pub kind: ObjectKind,
    /// Its stats id (a droid's template).
    pub stats_id: String,
    /// Who owns it.
    pub owner: Owner,
    /// World x (east) of its centre, as placed.
    pub x: i32,
    /// World y (south).
    pub y: i32,
    /// Height of its origin (world z, up).
    pub z: i32,
    /// Direction, 1/65536 of a turn.
    pub direction: u16,
    /// Footprint in tiles (along x, along y) after rotation.
    pub footprint: (i32, i32),
    /// Where in its file the entry is (`structure_0017`, `record 3`).
    pub key: String,
    /// The group node holding its model (or its marker box); always a node of the scene.
    pub node: usize,
    /// Its index in [`crate::map::Map::objects`] (what a `vitrine check` finding on it
    /// names: [`crate::check::Element::Object`]).
    pub index: usize,
}

impl SceneObject {
    /// The object `p` of the placement, held by node `node`.
    pub(crate) fn new(p: &Placed, node: usize) -> SceneObject {
        let o = &p.object;
        SceneObject {
            kind: o.kind,
            stats_id: o.stats_id.clone(),
            owner: o.owner,
            x: o.x,
            y: o.y,
            z: p.z,
            direction: o.direction,
            footprint: p.size,
            key: o.key.clone(),
            node,
            index: p.index,
        }
    }

    /// The direction in degrees, 0 ≤ d < 360.
    pub fn degrees(&self) -> f64 {
        f64::from(self.direction) * 360.0 / 65536.0
    }
}

impl Owner {
    /// `player 0`, `scavengers`, `none` (features).
    pub fn label(self) -> String {
        match self {
            Owner::Player(p) => format!("player {p}"),
            Owner::Scavenger => "scavengers".into(),
            Owner::None => "none".into(),
        }
    }
}

/// A file of the map in words: `game.map v40`, `struct.json JSON v2`.
pub fn file_label(f: &MapFile) -> String {
    let format = match f.format {
        FileFormat::GameMap | FileFormat::TerrainTypes | FileFormat::Gam => "",
        FileFormat::JsonV2 => " JSON v2",
        FileFormat::JsonV1 => " JSON v1",
        FileFormat::Bjo => " BJO",
        FileFormat::Ini => " INI",
        FileFormat::Script => " script",
    };
    let version = match f.format {
        FileFormat::JsonV1 | FileFormat::JsonV2 | FileFormat::Ini => String::new(),
        _ if f.version == 0 => String::new(),
        _ => format!(" v{}", f.version),
    };
    format!("{}{format}{version}", f.name)
}

/// Objects of each kind one owner has: structures, features, droids.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Structures (a building with its modules counts once).
    pub structures: usize,
    /// Features.
    pub features: usize,
    /// Droids.
    pub droids: usize,
}

/// The map's facts and what each node of its scene is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapDetails {
    /// The level's name.
    pub name: String,
    /// Width and height in tiles.
    pub size: (u32, u32),
    /// The tileset's name (`Arizona`).
    pub tileset: String,
    /// Player slots, where the level says.
    pub players: Option<u32>,
    /// How the package keeps the map.
    pub shape: super::super::Shape,
    /// Each file read, with its format and version.
    pub files: Vec<MapFile>,
    /// Every object the game keeps, in load order (droids, features, structures).
    pub objects: Vec<SceneObject>,
    /// Objects of the files the game removes on load (oil under derricks, stacked
    /// structures…), each with where it stood.
    pub removed: Vec<RemovedObject>,
    /// Each player's start position, by player (as the game sets them from the trucks,
    /// then the HQs).
    pub start_positions: Vec<crate::map::StartPosition>,
    /// The nodes of each layer that has any.
    pub layers: Vec<(Layer, Vec<usize>)>,
    /// The seed a script-generated map's `game.js` ran with (`None`: not a script map).
    #[serde(skip)]
    pub seed: Option<u32>,
    /// The terrain as the game holds it after loading (structures' flattening done): what
    /// [`MapDetails::ground_height`] reads. Not in `info --json` (`--heights` prints it).
    #[serde(skip)]
    pub terrain: crate::map::Terrain,
}

/// An object of the map's files that the game removes on load, where it stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RemovedObject {
    /// Its index in the files' objects (what `vitrine check MAP`'s findings name).
    pub index: usize,
    /// World x of its origin, as the file has it.
    pub x: i32,
    /// World y of its origin, as the file has it.
    pub y: i32,
}

impl MapDetails {
    /// The ground's height at model point `at` (its x and z; y is ignored), as the game's
    /// `map_Height` reads the loaded terrain, in model units (a model y); points off the
    /// map read the nearest edge.
    pub fn ground_height(&self, at: glam::Vec3) -> f32 {
        // Model (x, y, z) is world (−x, −z) on the ground ([`super::terrain::model_point`]).
        let (x, y) = (-at.x, -at.z);
        let clamp = |v: f32| v.clamp(i32::MIN as f32, i32::MAX as f32).round() as i32;
        self.terrain.height_at(clamp(x), clamp(y)) as f32
    }

    /// The four corners of the map's ground in model space, at height 0 as the game
    /// holds the map's edge (north-west, north-east, south-west, south-east): the
    /// rectangle a preview frames edge to edge.
    pub fn ground_corners(&self) -> [glam::Vec3; 4] {
        use super::terrain::model_point;
        let tile = crate::map::TILE_UNITS as f32;
        let (w, h) = (self.size.0 as f32 * tile, self.size.1 as f32 * tile);
        [
            model_point(0.0, 0.0, 0.0),
            model_point(w, 0.0, 0.0),
            model_point(0.0, h, 0.0),
            model_point(w, h, 0.0),
        ]
    }

    /// The object the game's camera starts over, by its index in the map's objects: the
    /// one that set player 0's start position ([`crate::map::camera_start`]: player 0's
    /// HQ, else their first truck).
    pub fn camera_start(&self) -> Option<usize> {
        crate::map::camera_start(&self.start_positions)
    }

    /// The model point the game's camera starts over: [`MapDetails::camera_start`]'s
    /// object (player 0's HQ, else their start position's truck) at its height, or the
    /// map's centre at height 0 where player 0 has neither. (The game's camera pivots 500
    /// units above the ground around that point and draws the pivot a quarter down the
    /// screen, which puts the point near the picture's centre, where a camera looking at
    /// it draws it: docs/maps.md, "The game and Vitrine side by side".)
    pub fn game_start_target(&self) -> glam::Vec3 {
        use super::terrain::model_point;
        let tile = crate::map::TILE_UNITS as f32;
        let start = self.camera_start().and_then(|index| {
            let o = self.objects.iter().find(|o| o.index == index)?;
            Some(model_point(o.x as f32, o.y as f32, o.z as f32))
        });
        start.unwrap_or_else(|| {
            let (w, h) = (self.size.0 as f32 * tile, self.size.1 as f32 * tile);
            model_point(w / 2.0, h / 2.0, 0.0)
        })
    }

    /// The nodes of `layer` (none where the map has nothing of it).
    pub fn layer_nodes(&self, layer: Layer) -> &[usize] {
        self.layers
            .iter()
            .find(|(l, _)| *l == layer)
            .map_or(&[], |(_, n)| n.as_slice())
    }

    /// The object whose node is `node` or an ancestor of it in `model` (a part picked in
    /// the view belongs to the object it is under).
    pub fn object_at_node(&self, model: &Model, node: usize) -> Option<usize> {
        let mut at = Some(node);
        while let Some(n) = at {
            if let Some(i) = self.objects.iter().position(|o| o.node == n) {
                return Some(i);
            }
            at = model.nodes.get(n).and_then(|x| x.parent);
        }
        None
    }

    /// The object the game keeps whose index in [`crate::map::Map::objects`] is `index`.
    pub fn object_of_index(&self, index: usize) -> Option<usize> {
        self.objects.iter().position(|o| o.index == index)
    }

    /// The object that stands for the files' object `index`: itself where the game keeps
    /// it, else (a stacked wall, a merged module, oil under a derrick) the object at the
    /// place the removed one stood.
    pub fn object_for_index(&self, index: usize) -> Option<usize> {
        self.object_of_index(index).or_else(|| {
            let gone = self.removed.iter().find(|r| r.index == index)?;
            self.object_at(gone.x, gone.y)
        })
    }

    /// The object whose footprint covers the world point (`x`, `y`), the one whose centre
    /// is nearest if several do (where a stacked wall or a merged module stood).
    pub fn object_at(&self, x: i32, y: i32) -> Option<usize> {
        let half = i64::from(crate::map::TILE_UNITS) / 2;
        let (x, y) = (i64::from(x), i64::from(y));
        (0..self.objects.len())
            .filter(|&i| {
                let o = &self.objects[i];
                let (w, h) = (i64::from(o.footprint.0), i64::from(o.footprint.1));
                (x - i64::from(o.x)).abs() < w.max(1) * half
                    && (y - i64::from(o.y)).abs() < h.max(1) * half
            })
            .min_by_key(|&i| {
                let o = &self.objects[i];
                (x - i64::from(o.x)).pow(2) + (y - i64::from(o.y)).pow(2)
            })
    }

    /// The objects of each owner, owners in order (players, scavengers, none).
    pub fn counts(&self) -> Vec<(Owner, Counts)> {
        let mut by: std::collections::BTreeMap<Owner, Counts> = Default::default();
        for o in &self.objects {
            let c = by.entry(o.owner).or_default();
            match o.kind {
                ObjectKind::Structure => c.structures += 1,
                ObjectKind::Feature => c.features += 1,
                ObjectKind::Droid => c.droids += 1,
            }
        }
        by.into_iter().collect()
    }
}

/// The map's facts as panel properties.
pub(super) fn facts(model: &mut Model, map: &Map, placement: &Placement) {
    let t = &placement.terrain;
    model.property("Map", map.level.name.clone());
    model.property("Size", format!("{} × {} tiles", t.width, t.height));
    model.property("Tileset", map.level.tileset.name());
    if let Some(p) = map.level.players {
        model.property("Players", p.to_string());
    }
    for kind in [
        ObjectKind::Structure,
        ObjectKind::Feature,
        ObjectKind::Droid,
    ] {
        let n = placement
            .objects
            .iter()
            .filter(|p| p.object.kind == kind)
            .count();
        model.property(format!("{}s", capitalised(kind.name())), n.to_string());
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(
        kind: ObjectKind,
        x: i32,
        y: i32,
        footprint: (i32, i32),
        index: usize,
    ) -> SceneObject {
        SceneObject {
            kind,
            stats_id: "id".into(),
            owner: Owner::None,
            x,
            y,
            z: 0,
            direction: 0,
            footprint,
            key: format!("k{index}"),
            node: 10 + index,
            index,
        }
    }

    /// An 8 × 8 Arizona map's details over [`slope`] with `objects` and `removed`.
    fn eight_by_eight(objects: Vec<SceneObject>, removed: Vec<RemovedObject>) -> MapDetails {
        MapDetails {
            name: "m".into(),
            size: (8, 8),
            tileset: "Arizona".into(),
            players: None,
            shape: super::super::super::Shape::Classic,
            files: Vec::new(),
            objects,
            removed,
            start_positions: Vec::new(),
            layers: Vec::new(),
            seed: None,
            terrain: slope(8),
        }
    }

    /// `n × n` tiles whose corner (x, y) is 10·x units high: a slope rising east.
    fn slope(n: u32) -> crate::map::Terrain {
        crate::map::Terrain {
            width: n,
            height: n,
            heights: (0..n * n).map(|i| 10 * (i % n) as i32).collect(),
            textures: vec![0; (n * n) as usize],
            gateways: Vec::new(),
            version: 40,
        }
    }

    #[test]
    fn the_ground_height_is_read_under_a_model_point() {
        use super::super::terrain::model_point;
        let d = eight_by_eight(Vec::new(), Vec::new());
        // World (x, y) → model (−x, ·, −y); the height rises 10 a tile eastwards, halfway
        // across a tile it is halfway between its corners; off the map, the edge's.
        for (x, y, want) in [
            (384.0, 256.0, 30.0),
            (448.0, 320.0, 35.0),
            (0.0, 0.0, 0.0),
            (-500.0, 300.0, 0.0),
            // The last column of corners is not stored: 0 (`map_TileHeight`).
            (5000.0, 300.0, 1.0),
        ] {
            let at = model_point(x, y, 999.0);
            assert_eq!(d.ground_height(at), want, "({x}, {y})");
        }
    }

    #[test]
    fn objects_found_by_file_index_and_by_place() {
        // A 2×2 factory on tiles (1..3, 1..3), a wall on tile (5, 5); file index 1 is
        // not kept (merged, stacked).
        let d = eight_by_eight(
            vec![
                object(ObjectKind::Structure, 256, 256, (2, 2), 0),
                object(ObjectKind::Structure, 704, 704, (1, 1), 2),
            ],
            vec![RemovedObject {
                index: 1,
                x: 256,
                y: 256,
            }],
        );
        assert_eq!(d.object_of_index(2), Some(1));
        assert_eq!(d.object_of_index(1), None);
        // The removed object 1 stood on the factory: the factory stands for it.
        assert_eq!(d.object_for_index(2), Some(1));
        assert_eq!(d.object_for_index(1), Some(0));
        assert_eq!(d.object_for_index(7), None);
        for (x, y, want) in [
            (256, 256, Some(0)),
            (140, 370, Some(0)),
            (127, 256, None),
            (384, 256, None),
            (704, 704, Some(1)),
            (650, 760, Some(1)),
            (768, 704, None),
        ] {
            assert_eq!(d.object_at(x, y), want, "({x}, {y})");
        }
    }
}
