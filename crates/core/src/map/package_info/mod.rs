//! The facts `maptools package info` gives of a map package, with the same keys and
//! meanings: the JSON the map database (maps.wz2100.net) reads and validates before it
//! takes a map (`vitrine maptools package info`), and what `vitrine check`'s `mapdb/…`
//! rules judge ([`crate::check::mapdb`]).
//!
//! Sources, read for facts: maptools-cli's `generateMapInfoJSON_FromMapStats` and
//! `generateMapInfoJSON_FromPackage` (the keys and their order), wzmaplib's
//! `loadLevelDetails_JSON` / `loadLevelDetails_LEV` (`details`), `Map::calculateMapStats`
//! (`counts`) and `MapPackage` (`package`).
//!
//! Differences kept on purpose: where wzmaplib refuses a level whose `type` is not
//! `skirmish` or whose `tileset` is none of the three, this keeps what the level states
//! so the database's rules can say what is wrong. Not supported: a map-mod's own
//! `stats/` (wzmaplib counts with them; here the data roots' stats are used).

mod counts;
mod details;
mod package;

pub use counts::MinMax;

use crate::files::Files;
use crate::formats::LoadError;
use crate::map::{Level, Map};
use crate::wz::Stats;
use counts::Class;
use serde::Serialize;

/// A name, as `author` and `additionalAuthors` hold it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Author {
    /// The name.
    pub name: String,
}

/// The map's size in tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MapSize {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// The scavengers' objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scavengers {
    /// Droids.
    pub units: u32,
    /// Structures.
    pub structures: u32,
    /// Factories of any kind.
    pub factories: u32,
    /// Derricks (each on its own tile).
    pub resource_extractors: u32,
}

/// Per-player counts: the smallest and largest over the player slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PerPlayer {
    /// Droids (`max` is the smallest too, as maptools writes it).
    pub units: MinMax,
    /// Structures, with the modules buildings carry.
    pub structures: MinMax,
    /// Derricks.
    pub resource_extractors: MinMax,
    /// Power generators.
    pub power_generators: MinMax,
    /// Factories.
    pub reg_factories: MinMax,
    /// VTOL factories.
    pub vtol_factories: MinMax,
    /// Cyborg factories.
    pub cyborg_factories: MinMax,
    /// Research facilities.
    pub research_centers: MinMax,
    /// Defences (`DEFENSE` structures).
    pub defense_structures: MinMax,
}

/// Whether every player starts with the same objects of each kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartEquality {
    /// Droids, template by template.
    pub units: bool,
    /// Structures, id by id.
    pub structures: bool,
    /// Derricks.
    pub resource_extractors: bool,
    /// Power generators and their modules.
    pub power_generators: bool,
    /// Factories of all three kinds.
    pub factories: bool,
    /// Factories and their modules.
    pub reg_factories: bool,
    /// VTOL factories.
    pub vtol_factories: bool,
    /// Cyborg factories.
    pub cyborg_factories: bool,
    /// Research facilities and their modules.
    pub research_centers: bool,
    /// Defences.
    pub defense_structures: bool,
}

/// `balance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    /// Per kind.
    pub start_equality: StartEquality,
}

/// A player's HQ tile (the last one in the files), or nothing (`{}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Hq {
    /// Tile x.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i32>,
    /// Tile y.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i32>,
}

/// What `maptools package info` writes, key for key and in its order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageInfo {
    /// The level's name (a `.lev` level's without its `-T1`).
    pub name: String,
    /// `skirmish`, or what the level states.
    #[serde(rename = "type")]
    pub kind: String,
    /// Player slots.
    pub players: u32,
    /// `arizona`, `urban`, `rockies`, or what the level states.
    pub tileset: String,
    /// The author, where named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<Author>,
    /// Further authors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub additional_authors: Vec<Author>,
    /// The licence, an SPDX expression, where stated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The created date as stated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// The program that wrote the package.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    /// Size in tiles.
    pub mapsize: MapSize,
    /// The scavengers' objects.
    pub scavenger: Scavengers,
    /// Tiles with an oil resource or a derrick.
    pub oil_wells: u32,
    /// Per-player counts.
    pub player: PerPlayer,
    /// Start equality.
    pub balance: Balance,
    /// Each player's HQ, one entry per player slot.
    pub hq: Vec<Hq>,
    /// Whether the package changes game files beside its map.
    pub map_mod: bool,
    /// What a map-mod changes (`{"stats": true, …}`), where it changes anything.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "as_true_keys")]
    pub mod_types: Vec<&'static str>,
    /// `json` (`level.json`) or `lev`.
    pub level_format: &'static str,
    /// `script`, `jsonv2`, `jsonv1`, `binary`, `mixed` or `unknown`.
    pub map_format: &'static str,
    /// Whether the package is "flat" (`level.json` and the map at its root).
    pub flat_map_package: bool,
}

/// `["a", "b"]` as `{"a": true, "b": true}`.
fn as_true_keys<S: serde::Serializer>(keys: &[&'static str], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(keys.len()))?;
    for k in keys {
        m.serialize_entry(k, &true)?;
    }
    m.end()
}

impl PackageInfo {
    /// The JSON maptools prints: 4-space indentation, keys in its order.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
        let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
        // Plain data: serialising to memory cannot fail.
        if self.serialize(&mut ser).is_err() {
            return String::new();
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The root of the package `level` is in: the folder of its root `level.json` or `.lev`,
/// or the folder above `multiplay/maps/NAME/`.
pub fn package_root(level: &Level) -> crate::files::FileRef {
    package::root(level).0
}

/// The facts of `level`, whose map (already opened, a script map run with the seed
/// asked) is `map`, counted with `stats` (the data roots' stats; wzmaplib's own lists
/// come first, see `counts`).
///
/// # Errors
/// Where maptools finds no level (no `level.json` or `.lev` names the map) or wzmaplib
/// refuses the `level.json` (a required key missing or of the wrong type).
pub fn package_info(
    files: &Files,
    level: &Level,
    map: &Map,
    stats: &Stats,
) -> Result<PackageInfo, LoadError> {
    let d = details::details(files, level)?;
    let c = counts::counts(map, d.players, stats);
    let p = package::package(files, level, map);
    let class = |k: Class| c.per_class.get(&k).copied().unwrap_or_default();
    let even = |k: &[Class]| k.iter().all(|k| c.balanced.get(k).copied().unwrap_or(true));
    let reg = even(&[Class::Factory, Class::FactoryModule]);
    let vtol = even(&[Class::VtolFactory]);
    let cyborg = even(&[Class::CyborgFactory]);
    let hq = (0..d.players)
        .map(|p| {
            let last = c.hq.get(&p).and_then(|l| l.last());
            Hq {
                x: last.map(|t| t.0),
                y: last.map(|t| t.1),
            }
        })
        .collect();
    let nonempty = |s: String| (!s.is_empty()).then_some(s);
    Ok(PackageInfo {
        author: nonempty(d.author).map(|name| Author { name }),
        additional_authors: d
            .additional_authors
            .into_iter()
            .map(|name| Author { name })
            .collect(),
        license: nonempty(d.license),
        created: nonempty(d.created),
        generator: d.generator.filter(|g| !g.is_empty()),
        name: d.name,
        kind: d.kind,
        players: d.players,
        tileset: d.tileset,
        mapsize: MapSize {
            w: map.terrain.width,
            h: map.terrain.height,
        },
        scavenger: Scavengers {
            units: c.scavenger_units,
            structures: c.scavenger_structures,
            factories: c.scavenger_factories,
            resource_extractors: c.scavenger_extractors,
        },
        oil_wells: c.oil_wells,
        player: PerPlayer {
            units: c.units,
            structures: c.structures,
            resource_extractors: class(Class::ResourceExtractor),
            power_generators: class(Class::PowerGenerator),
            reg_factories: class(Class::Factory),
            vtol_factories: class(Class::VtolFactory),
            cyborg_factories: class(Class::CyborgFactory),
            research_centers: class(Class::Research),
            defense_structures: class(Class::Defense),
        },
        balance: Balance {
            start_equality: StartEquality {
                units: c.units_balanced,
                structures: c.structures_balanced,
                resource_extractors: even(&[Class::ResourceExtractor]),
                power_generators: even(&[Class::PowerGenerator, Class::PowerModule]),
                factories: reg && vtol && cyborg,
                reg_factories: reg,
                vtol_factories: vtol,
                cyborg_factories: cyborg,
                research_centers: even(&[Class::Research, Class::ResearchModule]),
                defense_structures: even(&[Class::Defense]),
            },
        },
        hq,
        map_mod: p.map_mod,
        mod_types: p.mod_types,
        level_format: p.level_format,
        map_format: p.map_format,
        flat_map_package: p.flat,
    })
}
