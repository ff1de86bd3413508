//! Where the game puts each object when it loads a map, and what it refuses — read in
//! `src/game.cpp` (`loadWzMap{DroidInit,Feature,Structure}`: droids, then features, then
//! structures) and `src/structure.cpp` (`buildStructureDir`, `alignStructure`,
//! `foundationHeight`, `buildFlatten`):
//!
//! - entries the game's reader skipped ([`MapObject::refused`]) are never placed;
//! - structures: direction rounded to 90°, the footprint (`width` × `breadth`, swapped at
//!   90°/270°) snapped to the grid (odd sizes on a tile centre, even on an edge), refused
//!   within 3 tiles of the edge, beyond their owner's building limit (`structure.json`
//!   `userLimits`' default: the rules script sets the lobby's limits only after the map
//!   is placed) or on another structure's tile (a defence or gate replaces a wall); a
//!   derrick removes the oil resource on its tile; a module entry upgrades the building
//!   on its tile, and is refused where the game built none;
//! - non-defensive structures flatten their footprint's corners to (min + max) / 2 and
//!   sit at that height, raising features on those tiles and realigning defences around;
//! - defences, walls, gates and rearm pads are not flattened: z = the highest
//!   `map_Height` under the four corners of their model's box, turned with them;
//! - features keep their file position and direction, at the height of their footprint's
//!   top-left corner; one whose footprint leaves the map is refused, and one placed on
//!   another feature removes that older one (`buildFeature`);
//! - droids keep theirs, at `map_Height` — ground droids raised out of a trough to the
//!   mean of the heights 20 units either side along x and along y
//!   (`updateDroidOrientation`), on the ground as it is before structures flatten it.
//!
//! Water: features in water stand on the riverbed the game digs at load
//! (`generateRiverbed`, `riverbed.rs`); the heights given stay the stored ones, as
//! the game saves them.

use super::terrain::Terrain;
use super::{Map, MapObject, ObjectKind, Owner, ReadIssue, TILE_UNITS};
use crate::files::{FileRef, Files};
use crate::wz::Stats;
use std::collections::HashMap;

/// Tiles from the edge within which the game refuses structures (`TOO_NEAR_EDGE`).
const TOO_NEAR_EDGE: i32 = 3;

/// Why an object of the files is not on the loaded map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// An oil resource under a derrick.
    UnderDerrick,
    /// A module entry merged into the building on its tile (the building's index).
    Module(usize),
    /// The owner's slot is beyond the level's player count (dropped silently).
    NoSuchPlayer,
    /// A wall a defence or gate was built on.
    ReplacedWall,
    /// Refused by the game: the `vitrine check` rule it breaks and the game's reason.
    Refused {
        /// The check rule (`map/structure-stacked`).
        rule: &'static str,
        /// What the game logs.
        message: String,
    },
}

impl Removal {
    /// A short tag (`under_derrick`, `module`, `no_such_player`, `replaced_wall`, `refused`).
    pub fn tag(&self) -> &'static str {
        match self {
            Removal::UnderDerrick => "under_derrick",
            Removal::Module(_) => "module",
            Removal::NoSuchPlayer => "no_such_player",
            Removal::ReplacedWall => "replaced_wall",
            Removal::Refused { .. } => "refused",
        }
    }
}

/// One object of the files that is not on the loaded map.
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    /// Index in [`Map::objects`].
    pub index: usize,
    /// Why.
    pub why: Removal,
}

/// One object as the game holds it after loading.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Index in [`Map::objects`].
    pub index: usize,
    /// The object, with `x`, `y`, `direction` and `modules` as placed.
    pub object: MapObject,
    /// Height of its origin, world units.
    pub z: i32,
    /// Footprint in tiles (width along x, breadth along y) after rotation.
    pub size: (i32, i32),
}

/// The map as the game holds it after loading: the objects it keeps, where, and the
/// terrain after flattening.
#[derive(Debug, Clone)]
pub struct Placement {
    /// Objects kept, in load order (droids, features, structures).
    pub objects: Vec<Placed>,
    /// Objects of the files the game does not keep.
    pub removed: Vec<Removed>,
    /// The terrain after structures flattened it.
    pub terrain: Terrain,
    /// Stats ids without stats in the data roots (placed with a 1×1 footprint).
    pub unknown: Vec<String>,
    /// Errors the game logs about objects it keeps (index in [`Map::objects`]): the
    /// reader's ([`MapObject::logged`]) and the placement's (modules on a structure that
    /// takes none).
    pub logged: Vec<(usize, ReadIssue)>,
}

/// What occupies a tile.
#[derive(Clone, Copy, PartialEq)]
enum Occupant {
    Feature(usize),
    Structure(usize),
}

struct State<'a> {
    map: &'a Map,
    stats: &'a Stats,
    bounds: BoundsCache<'a>,
    terrain: Terrain,
    /// Corner heights after the riverbed pass (where features in water stand).
    riverbed: Vec<i32>,
    tiles: Vec<Option<Occupant>>,
    placed: Vec<Placed>,
    /// Per placed object: its model (structures), whether it was removed later.
    models: Vec<Option<String>>,
    gone: Vec<bool>,
    removed: Vec<Removed>,
    unknown: Vec<String>,
    logged: Vec<(usize, ReadIssue)>,
    /// Structures built per owner and stats id (`curCount`), against the building limits.
    built: HashMap<(Owner, String), u32>,
    /// Tiles visited placing and removing objects: linear in the objects and their
    /// footprints (the tests count it; a removal that swept the map made stacked
    /// features quadratic).
    work: u64,
}

/// Places the map's objects as the game does at load. `stats` gives footprints and types
/// (the data roots' `structure.json`, `features.json`); `files` and `roots` give the
/// structure models whose boxes set a defence's height. Objects whose stats are missing
/// are placed with a 1×1 footprint and listed in [`Placement::unknown`].
pub fn place(map: &Map, stats: &Stats, files: &Files, roots: &[FileRef]) -> Placement {
    place_counting(map, stats, files, roots).0
}

/// [`place`], and the tiles it visited placing and removing the objects.
pub(crate) fn place_counting(
    map: &Map,
    stats: &Stats,
    files: &Files,
    roots: &[FileRef],
) -> (Placement, u64) {
    let area = map.terrain.heights.len();
    let mut s = State {
        map,
        stats,
        bounds: BoundsCache::new(files, roots),
        terrain: map.terrain.clone(),
        riverbed: super::riverbed::riverbed(&map.terrain, &map.terrain_types),
        tiles: vec![None; area],
        placed: Vec::new(),
        models: Vec::new(),
        gone: Vec::new(),
        removed: Vec::new(),
        unknown: Vec::new(),
        logged: Vec::new(),
        built: HashMap::new(),
        work: 0,
    };
    for kind in ObjectKind::ALL {
        for (i, o) in map
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == kind)
        {
            if let Some(r) = &o.refused {
                let why = refused(r.rule, r.message.clone());
                s.removed.push(Removed { index: i, why });
                continue;
            }
            s.logged.extend(o.logged.iter().map(|l| (i, l.clone())));
            if let Some(why) = s.owner_check(o) {
                s.removed.push(Removed { index: i, why });
                continue;
            }
            match kind {
                ObjectKind::Droid => s.droid(i, o),
                ObjectKind::Feature => s.feature(i, o),
                ObjectKind::Structure => s.structure(i, o),
            }
        }
    }
    let gone = std::mem::take(&mut s.gone);
    let mut kept: Vec<Placed> = s
        .placed
        .into_iter()
        .zip(gone)
        .filter(|(_, g)| !g)
        .map(|(p, _)| p)
        .collect();
    kept.sort_by_key(|p| (kind_order(p.object.kind), p.index));
    s.unknown.sort();
    s.unknown.dedup();
    let placement = Placement {
        objects: kept,
        removed: s.removed,
        terrain: s.terrain,
        unknown: s.unknown,
        logged: s.logged,
    };
    (placement, s.work)
}

/// A refusal of `rule` with the game's message.
fn refused(rule: &'static str, message: impl Into<String>) -> Removal {
    Removal::Refused {
        rule,
        message: message.into(),
    }
}

fn kind_order(k: ObjectKind) -> usize {
    ObjectKind::ALL.iter().position(|&x| x == k).unwrap_or(0)
}

fn map_coord(v: i32) -> i32 {
    v.div_euclid(TILE_UNITS)
}

impl State<'_> {
    fn push(&mut self, p: Placed, model: Option<String>) -> usize {
        self.placed.push(p);
        self.models.push(model);
        self.gone.push(false);
        self.placed.len() - 1
    }

    fn owner_check(&self, o: &MapObject) -> Option<Removal> {
        match (o.owner, self.map.level.players) {
            (Owner::Player(p), Some(n)) if p >= n => Some(Removal::NoSuchPlayer),
            _ => None,
        }
    }

    fn tile(&self, x: i32, y: i32) -> Option<usize> {
        let t = &self.terrain;
        (x >= 0 && y >= 0 && (x as u32) < t.width && (y as u32) < t.height)
            .then(|| x as usize + y as usize * t.width as usize)
    }

    /// `mapTile`: coordinates clamped onto the map.
    fn clamped_tile(&self, x: i32, y: i32) -> usize {
        let t = &self.terrain;
        let x = x.clamp(0, t.width as i32 - 1);
        let y = y.clamp(0, t.height as i32 - 1);
        x as usize + y as usize * t.width as usize
    }

    fn droid(&mut self, index: usize, o: &MapObject) {
        if self.stats.templates.source.is_some() && self.stats.templates.get(&o.stats_id).is_none()
        {
            self.removed.push(Removed {
                index,
                why: refused(
                    "map/unknown-stats",
                    format!("Unable to find template {}", o.stats_id),
                ),
            });
            return;
        }
        let z = self.droid_height(o);
        let p = Placed {
            index,
            object: o.clone(),
            z,
            size: (1, 1),
        };
        self.push(p, None);
    }

    fn feature(&mut self, index: usize, o: &MapObject) {
        let stats = self.stats.features.get(&o.stats_id);
        if stats.is_none() {
            if self.stats.features.source.is_some() {
                self.removed.push(Removed {
                    index,
                    why: refused(
                        "map/unknown-stats",
                        format!("Feature type \"{}\" unknown", o.stats_id),
                    ),
                });
                return;
            }
            self.unknown.push(o.stats_id.clone());
        }
        let dim = |v: Option<f64>| v.map_or(1, |v| v.clamp(1.0, 16.0) as i32);
        let size = stats.map_or((1, 1), |f| (dim(f.width), dim(f.breadth)));
        let (mx, my) = (map_coord(o.x) - size.0 / 2, map_coord(o.y) - size.1 / 2);
        // `buildFeature` gives up a footprint that leaves the map ("coord bigger than map").
        let (w, h) = (self.terrain.width as i32, self.terrain.height as i32);
        if mx < 0 || my < 0 || mx + size.0 > w || my + size.1 > h {
            self.removed.push(Removed {
                index,
                why: refused(
                    "map/feature-off-map",
                    format!("Unable to create feature {}: off the map", o.stats_id),
                ),
            });
            return;
        }
        // The footprint's top-left corner; in water, on the riverbed.
        let z = match self.tile(mx, my) {
            Some(t)
                if super::riverbed::is_water_corner(
                    &self.terrain,
                    &self.map.terrain_types,
                    mx,
                    my,
                ) =>
            {
                self.riverbed[t]
            }
            _ => self.terrain.corner(mx, my),
        };
        let slot = self.placed.len();
        for ty in my..my + size.1 {
            for tx in mx..mx + size.0 {
                self.work += 1;
                let Some(t) = self.tile(tx, ty) else { continue };
                // `buildFeature`: a feature already on the tile is removed (logged).
                if let Some(Occupant::Feature(older)) = self.tiles[t] {
                    let why = format!(
                        "{} already placed when placing {} [{}] on its tile - removing it",
                        self.placed[older].object.stats_id, o.stats_id, o.key
                    );
                    self.remove_placed(older, refused("map/feature-stacked", why));
                }
                self.tiles[t] = Some(Occupant::Feature(slot));
            }
        }
        let p = Placed {
            index,
            object: o.clone(),
            z,
            size,
        };
        self.push(p, None);
    }

    fn structure(&mut self, index: usize, o: &MapObject) {
        let Some(st) = self.stats.structures.get(&o.stats_id) else {
            if self.stats.structures.source.is_some() {
                self.removed.push(Removed {
                    index,
                    why: refused(
                        "map/unknown-stats",
                        format!("Structure type \"{}\" unknown", o.stats_id),
                    ),
                });
                return;
            }
            self.unknown.push(o.stats_id.clone());
            return self.building(index, o, "", (1, 1), None);
        };
        let kind = st.kind.clone().unwrap_or_default().to_ascii_uppercase();
        if kind.ends_with("MODULE") {
            return self.module(index, o, &kind);
        }
        let dim = |v: Option<f64>| v.map_or(1, |v| v.clamp(1.0, 16.0) as i32);
        let (w, b) = (dim(st.width), dim(st.breadth));
        let turned = (o.direction.wrapping_add(0x2000)) & 0x4000 != 0;
        let size = if turned { (b, w) } else { (w, b) };
        let model = st.structure_model.first().cloned();
        self.building(index, o, &kind, size, model)
    }

    fn module(&mut self, index: usize, o: &MapObject, kind: &str) {
        let host = self
            .tile(map_coord(o.x), map_coord(o.y))
            .and_then(|t| self.tiles[t]);
        let Some(Occupant::Structure(slot)) = host else {
            self.removed.push(Removed {
                index,
                why: refused(
                    "map/module-orphan",
                    format!(
                        "No owning structure for module - {} for player - {}",
                        o.stats_id,
                        owner_number(self.map, o.owner)
                    ),
                ),
            });
            return;
        };
        let host_kind = self.structure_kind(slot);
        let fits = match kind {
            "FACTORY MODULE" => host_kind == "FACTORY" || host_kind == "VTOL FACTORY",
            "RESEARCH MODULE" => host_kind == "RESEARCH",
            "POWER MODULE" => host_kind == "POWER GENERATOR",
            _ => false,
        };
        if !fits {
            self.removed.push(Removed {
                index,
                why: refused(
                    "map/module-orphan",
                    format!(
                        "Structure {} couldn't be built (probably on top of another \
                         structure): a module that does not fit the {host_kind} on its tile",
                        o.stats_id
                    ),
                ),
            });
            return;
        }
        self.placed[slot].object.modules += 1;
        let host_index = self.placed[slot].index;
        self.removed.push(Removed {
            index,
            why: Removal::Module(host_index),
        });
    }

    fn structure_kind(&self, slot: usize) -> String {
        let id = &self.placed[slot].object.stats_id;
        self.stats
            .structures
            .get(id)
            .and_then(|s| s.kind.clone())
            .unwrap_or_default()
            .to_ascii_uppercase()
    }

    fn building(
        &mut self,
        index: usize,
        o: &MapObject,
        kind: &str,
        size: (i32, i32),
        model: Option<String>,
    ) {
        let snap = |v: i32, n: i32| (v & !(TILE_UNITS - 1)) + (n % 2) * TILE_UNITS / 2;
        let (x, y) = (snap(o.x, size.0), snap(o.y, size.1));
        let (w, h) = (self.terrain.width as i32, self.terrain.height as i32);
        let (cx, cy) = (map_coord(x), map_coord(y));
        if cx < TOO_NEAR_EDGE
            || cx > w - TOO_NEAR_EDGE
            || cy < TOO_NEAR_EDGE
            || cy > h - TOO_NEAR_EDGE
        {
            self.removed.push(Removed {
                index,
                why: refused(
                    "map/structure-near-edge",
                    "coord too near the edge of the map",
                ),
            });
            return;
        }
        if let Some(why) = self.over_limit(o) {
            self.removed.push(Removed { index, why });
            return;
        }
        let (mx, my) = (cx - size.0 / 2, cy - size.1 / 2);
        if kind == "RESOURCE EXTRACTOR" {
            self.remove_oil(cx, cy);
        }
        let on_walls = kind == "DEFENSE" || kind == "GATE";
        let mut walls = Vec::new();
        for ty in my..my + size.1 {
            for tx in mx..mx + size.0 {
                let Some(Occupant::Structure(s)) = self.tile(tx, ty).and_then(|t| self.tiles[t])
                else {
                    continue;
                };
                let other = self.structure_kind(s);
                if on_walls && (other == "WALL" || other == "CORNER WALL") {
                    walls.push(s);
                } else {
                    let why = format!(
                        "{} couldn't be built (probably on top of another structure: {})",
                        o.stats_id, self.placed[s].object.stats_id
                    );
                    self.removed.push(Removed {
                        index,
                        why: refused("map/structure-stacked", why),
                    });
                    return;
                }
            }
        }
        for s in walls {
            self.remove_placed(s, Removal::ReplacedWall);
            let wall = &self.placed[s].object;
            if let Some(n) = self.built.get_mut(&(wall.owner, wall.stats_id.clone())) {
                *n = n.saturating_sub(1);
            }
        }
        *self.built.entry((o.owner, o.stats_id.clone())).or_default() += 1;
        let slot = self.placed.len();
        for ty in my..my + size.1 {
            for tx in mx..mx + size.0 {
                if let Some(t) = self.tile(tx, ty) {
                    self.tiles[t] = Some(Occupant::Structure(slot));
                }
            }
        }
        let mut object = o.clone();
        object.x = x;
        object.y = y;
        object.direction = o.direction.wrapping_add(0x2000) & 0xC000;
        self.push(
            Placed {
                index,
                object,
                z: 0,
                size,
            },
            model,
        );
        self.align(slot);
        self.placed[slot].object.modules = o.modules.min(max_modules(kind));
        if o.modules > 0 && max_modules(kind) == 0 {
            // `loadWzMapStructure`: logged, and the structure left as it is.
            let message = format!("Structure {} can't have modules.", o.stats_id);
            self.logged.push((
                index,
                ReadIssue {
                    rule: "map/modules-unfit",
                    message,
                },
            ));
        }
    }

    /// `buildStructureDir`'s first check: one more of `o`'s kind than its owner's limit
    /// (`curCount + 1 > limit`) is refused.
    fn over_limit(&self, o: &MapObject) -> Option<Removal> {
        let st = self.stats.structures.get(&o.stats_id)?;
        let limit = st.build_limit?;
        let has = self
            .built
            .get(&(o.owner, o.stats_id.clone()))
            .copied()
            .unwrap_or(0);
        (u64::from(has) + 1 > u64::from(limit)).then(|| {
            let name = if st.name.is_empty() { &st.id } else { &st.name };
            refused(
                "map/structure-limit",
                format!(
                    "Player {}: Building {name} could not be built due to building limits \
                     (has {has}, max {limit})!",
                    owner_number(self.map, o.owner)
                ),
            )
        })
    }
}

/// The player number the game logs for `owner`: the scavengers' slot is the level's
/// player count, at least 7 (`scavengerSlot`).
fn owner_number(map: &Map, owner: Owner) -> u32 {
    match owner {
        Owner::Player(p) => p,
        Owner::Scavenger | Owner::None => map.level.players.unwrap_or(0).max(7),
    }
}

/// Most modules a building of `kind` takes.
fn max_modules(kind: &str) -> u32 {
    match kind {
        "FACTORY" | "VTOL FACTORY" => 2,
        "RESEARCH" | "POWER GENERATOR" => 1,
        _ => 0,
    }
}

mod align;
use align::BoundsCache;

#[cfg(test)]
mod refusal_tests;
#[cfg(test)]
mod tests;
