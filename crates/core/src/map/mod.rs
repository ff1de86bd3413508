//! Warzone 2100 maps: the files of a map (`game.map`, `ttypes.ttp`, the objects as JSON,
//! BJO or INI), where a map package keeps them, and where the game puts each object when
//! it loads the map. Pure: bytes come through [`crate::files::Files`].
//!
//! bytes → `read` (one reader per file, each refusal naming the file and the byte offset
//! or line) → [`Map`] (the map as its files hold it, format-neutral) → [`place`] (the
//! game's rules at load: footprints snapped, ground flattened, oil under derricks removed,
//! stacked structures refused, modules merged) → [`Placement`].
//!
//! Units are the game's: 1 tile = 128 world units, x east, y south, z up; heights in the
//! same units. Directions are kept as the game keeps them (1/65536 of a turn) and given
//! in degrees by [`MapObject::degrees`].
//!
//! [`scene`] turns a map and its placement into a [`crate::model::Model`] the renderer
//! draws: the terrain, the water and every object.
//!
//! Script-generated maps (`game.js`): [`script`] runs the script (Boa, bounded) and gives
//! the terrain and objects it hands to `setMapData`; from there the map is like any other.

mod bjo;
mod find;
pub mod flat;
pub mod fuzzing;
mod ini;
mod json;
mod json_stream;
mod level;
pub mod package_info;
mod place;
mod read;
mod riverbed;
pub mod scene;
pub mod script;
mod start;
mod terrain;

/// The game's random generator, `std::mt19937` (32-bit Mersenne Twister): a map script's
/// `gameRand` (seeded with the game's seed) and the riverbed pass (seeded 12345).
pub(crate) type GameRng = rand_mt::Mt;

#[cfg(test)]
mod find_tests;
#[cfg(test)]
mod tests;

pub use find::{
    MapSource, Survey, answers_to, defines_levels, find_maps, list_maps, open, open_source, survey,
};
pub use level::{Level, Levels, Shape, Tileset, map_name};
pub use place::{Placed, Placement, Removal, Removed, place};
pub use read::{read_game_map, read_terrain_types};
pub use start::{StartPosition, camera_start, start_positions};
pub use terrain::{Terrain, bits};

use crate::formats::LoadError;

/// Largest map the game loads, in tiles (`MAP_MAXAREA`).
pub const MAX_AREA: u64 = 256 * 256;

/// Most objects of one kind Vitrine reads from one map file (JSON, BJO or INI): 65,535,
/// the game's own limit for a script-generated map (`setMapData` refuses longer lists).
/// The game reads any number from a file; the largest map of `mp.wz` and of the map
/// database (`mapdb-2p`) holds 1,439 structures, 1,386 features and 366 droids. A file
/// with more is refused, naming the file, this limit and the line or byte offset of the
/// first object past it (`map/object-limit`), before the rest is read or allocated for.
pub const MAX_OBJECTS: usize = 65_535;

/// World units per tile (`TILE_UNITS`).
pub const TILE_UNITS: i32 = 128;

/// Whether a file of this name opens as a map (any case): a map's `game.map`, or a
/// script-generated map's `game.js` (which the game prefers where both are).
pub fn is_map_file_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("game.map") || name.eq_ignore_ascii_case("game.js")
}

/// Drops from `files` each `game.map` whose folder's `game.js` is also there: the game
/// runs the script where a folder has both, so the pair is one map, opened by its
/// `game.js`. The order of the rest is kept.
pub fn drop_shadowed_game_maps(files: &mut Vec<crate::files::FileRef>) {
    let scripts: std::collections::HashSet<Option<crate::files::FileRef>> = files
        .iter()
        .filter(|f| f.file_name().eq_ignore_ascii_case("game.js"))
        .map(crate::files::FileRef::parent)
        .collect();
    files.retain(|f| {
        !(f.file_name().eq_ignore_ascii_case("game.map") && scripts.contains(&f.parent()))
    });
}

/// Largest corner height the game stores (`TILE_MAX_HEIGHT`).
pub const MAX_HEIGHT: i32 = 510;

/// What an object on the map is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// A building, defence, wall or module (`struct.*`).
    Structure,
    /// A tree, boulder, oil resource, wreck (`feature.*`).
    Feature,
    /// A unit, by its template (`droid.*`, `dinit.bjo`).
    Droid,
}

impl ObjectKind {
    /// The three kinds, in the order the game loads them.
    pub const ALL: [ObjectKind; 3] = [
        ObjectKind::Droid,
        ObjectKind::Feature,
        ObjectKind::Structure,
    ];

    /// `structure`, `feature`, `droid`.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Structure => "structure",
            ObjectKind::Feature => "feature",
            ObjectKind::Droid => "droid",
        }
    }
}

/// Who owns an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    /// A player slot (a start position in skirmish).
    Player(u32),
    /// The scavengers.
    Scavenger,
    /// Nobody: features.
    None,
}

/// One object as the map's file holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct MapObject {
    /// What it is.
    pub kind: ObjectKind,
    /// The stats id (`name`, or a droid's `template`).
    pub stats_id: String,
    /// Who owns it.
    pub owner: Owner,
    /// World x (east), the object's centre.
    pub x: i32,
    /// World y (south).
    pub y: i32,
    /// Direction, 1/65536 of a turn (0x4000 = 90°).
    pub direction: u16,
    /// The file's id, when it gives one.
    pub id: Option<u32>,
    /// Modules the entry adds to its building (JSON `modules`, INI `modules`).
    pub modules: u32,
    /// Where in its file the entry is (`structure_0017`, `record 3`, `[structure_4]`).
    pub key: String,
    /// Set when the game's reader skips this entry (a key missing or of the wrong type, an
    /// id of 0, more than 255 modules; `jsonGetBaseMapObjectInfo`, `loadJson*Init`): the
    /// entry is in the file but never on the map. The other fields hold what could be read.
    pub refused: Option<ReadIssue>,
    /// Errors the game logs reading this entry while keeping it (a rotation it cannot
    /// read, taken as 0; a list with too many members).
    pub logged: Vec<ReadIssue>,
}

/// What the game's reader says of one entry: the `vitrine check` rule it breaks and the
/// game's own message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadIssue {
    /// The check rule (`map/entry-key-type`).
    pub rule: &'static str,
    /// What the game logs (`Unexpected type of "id" key (expecting number)`).
    pub message: String,
}

impl MapObject {
    /// The direction in degrees, 0 ≤ d < 360.
    pub fn degrees(&self) -> f64 {
        f64::from(self.direction) * 360.0 / 65536.0
    }
}

/// Which format one of the map's files is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileFormat {
    /// `game.map`.
    GameMap,
    /// `ttypes.ttp`.
    TerrainTypes,
    /// JSON objects, `"version": 2` lists.
    JsonV2,
    /// JSON objects keyed `structure_N` (no version).
    JsonV1,
    /// Binary objects (`stru`, `feat`, `dint`).
    Bjo,
    /// 3.x INI objects.
    Ini,
    /// `.gam`, the level's scroll limits.
    Gam,
    /// A script that builds the map (`game.js`).
    Script,
}

/// One file of the map, as `vitrine info` lists it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MapFile {
    /// Its name in the map's folder (`struct.json`).
    pub name: String,
    /// The format.
    pub format: FileFormat,
    /// The version the file states (0 where the format has none).
    pub version: u32,
    /// Records or objects in it.
    pub records: usize,
    /// Whether the game reads it (a package with `struct.json` and `struct.bjo` loads the
    /// JSON; INI files are never read by 4.x).
    pub used: bool,
    /// Why the file could not be read, where it could not (then `used` is false: the game
    /// logs the JSON's error and reads the BJO; a broken file it never reads is listed
    /// only).
    #[serde(skip)]
    pub broken: Option<LoadError>,
}

/// A gateway: a line of tiles the pathfinder uses (not drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gateway {
    /// First tile.
    pub from: (u8, u8),
    /// Last tile.
    pub to: (u8, u8),
}

/// A map as its files hold it: the terrain, the terrain types, the objects, the level's
/// facts. Format-neutral: whatever the files' formats, this is what the viewer and the
/// placement read.
#[derive(Debug, Clone)]
pub struct Map {
    /// The level: name, players, tileset, where it came from.
    pub level: Level,
    /// Heights, tile textures and gateways (`game.map`).
    pub terrain: Terrain,
    /// Terrain type per tile number (`ttypes.ttp`).
    pub terrain_types: Vec<u16>,
    /// Every object of the files the game reads, in file order, droids then features then
    /// structures (the order the game loads them in).
    pub objects: Vec<MapObject>,
    /// Each file read, with its format and version.
    pub files: Vec<MapFile>,
    /// What was read but is not used, or is odd (trailing bytes, an INI the game ignores).
    pub notes: Vec<String>,
    /// The `.gam`'s scroll limits (min x, min y, max x, max y, tiles), where the level
    /// has a `.gam` ([`scene::illumination::scroll_area`] says what the game makes of them).
    pub scroll_limits: Option<[i64; 4]>,
}

impl Map {
    /// Objects of one kind.
    pub fn of_kind(&self, kind: ObjectKind) -> impl Iterator<Item = &MapObject> {
        self.objects.iter().filter(move |o| o.kind == kind)
    }
}

/// Why a map cannot be opened: a file's own error (offset or line), or none found.
pub type MapError = LoadError;
