//! What `maptools package info` counts on a map (wzmaplib's `Map::calculateMapStats`):
//! the objects as the map's files hold them (not as the game then places them), per
//! player and for the scavengers; the oil wells as the tiles holding an oil resource or
//! a derrick; each player's HQ.
//!
//! Facts of wzmaplib kept as it has them, since the database reads its numbers:
//! - A player slot past the level's players (an object of player 5 on a 2-player map)
//!   is counted as a slot too, so the slots between hold nothing and each minimum is 0.
//! - A derrick on a tile that already holds one (or, for the scavengers', any oil) is not
//!   counted; an oil resource on a tile with a derrick is one oil well, not two.
//! - A building with modules counts one module more (a factory: one per module) under
//!   the module's own id (`A0PowMod1`, `A0ResearchModule1`, `A0FacMod1`).
//! - Units: `max` is the smallest count, like `min` (wzmaplib takes the minimum twice).
//!
//! What each structure is comes from wzmaplib's own lists of the 4.3 stats' ids (which
//! it uses unless a map-mod brings its own stats), then from the data's `structure.json`
//! `type` and `features.json` `type` (the defences: `DEFENSE`).

use crate::map::{Map, ObjectKind, Owner};
use crate::wz::Stats;
use std::collections::{BTreeMap, BTreeSet};

/// What a structure is, for the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Class {
    ResourceExtractor,
    PowerGenerator,
    PowerModule,
    Factory,
    FactoryModule,
    VtolFactory,
    CyborgFactory,
    Research,
    ResearchModule,
    Hq,
    Defense,
}

/// wzmaplib's default ids per class (`MapStatsConfiguration`), and the stats `type`.
const CLASSES: &[(Class, &[&str], &str)] = &[
    (
        Class::ResourceExtractor,
        &["A0ResourceExtractor"],
        "RESOURCE EXTRACTOR",
    ),
    (
        Class::PowerGenerator,
        &["A0BaBaPowerGenerator", "A0PowerGenerator"],
        "POWER GENERATOR",
    ),
    (Class::PowerModule, &["A0PowMod1"], "POWER MODULE"),
    (
        Class::Factory,
        &["A0BaBaFactory", "A0LightFactory"],
        "FACTORY",
    ),
    (Class::FactoryModule, &["A0FacMod1"], "FACTORY MODULE"),
    (
        Class::VtolFactory,
        &["A0BaBaVtolFactory", "A0VTolFactory1"],
        "VTOL FACTORY",
    ),
    (Class::CyborgFactory, &["A0CyborgFactory"], "CYBORG FACTORY"),
    (Class::Research, &["A0ResearchFacility"], "RESEARCH"),
    (
        Class::ResearchModule,
        &["A0ResearchModule1"],
        "RESEARCH MODULE",
    ),
    (
        Class::Hq,
        &[
            "A0CommandCentre",
            "A0CommandCentreNP",
            "A0CommandCentreCO",
            "A0CommandCentreNE",
        ],
        "HQ",
    ),
    (Class::Defense, &[], "DEFENSE"),
];

/// The id a module a building carries is counted under.
fn module_id(class: Class) -> Option<&'static str> {
    match class {
        Class::PowerGenerator => Some("A0PowMod1"),
        Class::Research => Some("A0ResearchModule1"),
        Class::Factory => Some("A0FacMod1"),
        _ => None,
    }
}

/// What structure `id` is: wzmaplib's lists, then the stats' `type`.
pub(super) fn class(id: &str, stats: &Stats) -> Option<Class> {
    if let Some((c, _, _)) = CLASSES.iter().find(|(_, ids, _)| ids.contains(&id)) {
        return Some(*c);
    }
    let kind = stats.structures.get(id)?.kind.as_deref()?;
    CLASSES
        .iter()
        .find(|(_, _, k)| *k == kind)
        .map(|(c, _, _)| *c)
}

/// Whether feature `id` is an oil resource.
fn is_oil(id: &str, stats: &Stats) -> bool {
    id == "OilResource"
        || stats
            .features
            .get(id)
            .and_then(|f| f.kind.as_deref())
            .is_some_and(|k| k == "OIL RESOURCE")
}

/// The smallest and largest count over the player slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct MinMax {
    /// The smallest.
    pub min: u32,
    /// The largest.
    pub max: u32,
}

/// What wzmaplib counts on a map.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Counts {
    pub scavenger_units: u32,
    pub scavenger_structures: u32,
    pub scavenger_factories: u32,
    pub scavenger_extractors: u32,
    pub oil_wells: u32,
    pub units: MinMax,
    pub structures: MinMax,
    /// Per class (the modules under their own class).
    pub per_class: BTreeMap<Class, MinMax>,
    /// Whether every player has the same count of each id of the class.
    pub balanced: BTreeMap<Class, bool>,
    pub units_balanced: bool,
    pub structures_balanced: bool,
    /// Each player's HQ tiles, in file order, each once.
    pub hq: BTreeMap<u32, Vec<(i32, i32)>>,
}

/// Counts per id, per player slot.
type Slots = BTreeMap<u32, BTreeMap<String, u32>>;

/// Tiles holding oil (a resource or a derrick), as wzmaplib marks them: a tile
/// `x + y·width` for `0 ≤ x ≤ width`, `0 ≤ y ≤ height` (wzmaplib's bounds), the first
/// object on a tile taking it.
struct OilTiles {
    width: i64,
    height: i64,
    taken: BTreeSet<i64>,
}

impl OilTiles {
    /// Marks the tile of world (x, y); false when outside or already taken.
    fn take(&mut self, x: i32, y: i32) -> bool {
        let (tx, ty) = (i64::from(x >> 7), i64::from(y >> 7));
        if tx < 0 || tx > self.width || ty < 0 || ty > self.height {
            return false;
        }
        let at = tx + ty * self.width;
        at < self.width * self.height && self.taken.insert(at)
    }
}

fn add(slots: &mut Slots, player: u32, id: &str, n: u32) {
    *slots
        .entry(player)
        .or_default()
        .entry(id.to_string())
        .or_default() += n;
}

/// Min and max of `value` over slots `0..len` (an absent slot counts 0); `None` when
/// there is no slot.
fn min_max(
    slots: &Slots,
    len: u32,
    value: impl Fn(&BTreeMap<String, u32>) -> u32,
) -> Option<MinMax> {
    if len == 0 {
        return None;
    }
    let mut values: Vec<u32> = slots.values().map(&value).collect();
    if (slots.len() as u64) < u64::from(len) {
        values.push(0);
    }
    Some(MinMax {
        min: values.iter().copied().min()?,
        max: values.iter().copied().max()?,
    })
}

/// Whether every slot `0..len` holds the same count of each id `pick` takes.
fn balanced(slots: &Slots, len: u32, pick: impl Fn(&str) -> bool) -> bool {
    let empty = BTreeMap::new();
    let ids: BTreeSet<&String> = slots
        .values()
        .flat_map(|m| m.keys())
        .filter(|i| pick(i))
        .collect();
    let slot = |p: u32| slots.get(&p).unwrap_or(&empty);
    ids.iter().all(|id| {
        let first = slot(0).get(*id).copied().unwrap_or(0);
        (1..len).all(|p| slot(p).get(*id).copied().unwrap_or(0) == first)
    })
}

/// The number of slots: the level's players, or more where an object names a later one.
fn slot_count(players: u32, slots: &Slots) -> u32 {
    slots
        .keys()
        .next_back()
        .map_or(players, |last| players.max(last.saturating_add(1)))
}

/// wzmaplib's counts of `map` for a level of `players`.
pub(super) fn counts(map: &Map, players: u32, stats: &Stats) -> Counts {
    let mut c = Counts::default();
    let mut oil = OilTiles {
        width: i64::from(map.terrain.width),
        height: i64::from(map.terrain.height),
        taken: BTreeSet::new(),
    };
    let mut units = Slots::new();
    for o in map.of_kind(ObjectKind::Droid) {
        match o.owner {
            Owner::Scavenger => c.scavenger_units += 1,
            Owner::Player(p) => add(&mut units, p, &o.stats_id, 1),
            Owner::None => {}
        }
    }
    let mut structs = Slots::new();
    for o in map.of_kind(ObjectKind::Structure) {
        let class = class(&o.stats_id, stats);
        match o.owner {
            Owner::Scavenger => {
                c.scavenger_structures += 1;
                match class {
                    Some(Class::ResourceExtractor) => {
                        c.scavenger_extractors += u32::from(oil.take(o.x, o.y));
                    }
                    Some(Class::Factory | Class::VtolFactory | Class::CyborgFactory) => {
                        c.scavenger_factories += 1;
                    }
                    _ => {}
                }
            }
            Owner::Player(p) => {
                if class != Some(Class::ResourceExtractor) || oil.take(o.x, o.y) {
                    add(&mut structs, p, &o.stats_id, 1);
                }
                if class == Some(Class::Hq) {
                    let tile = (o.x >> 7, o.y >> 7);
                    let list = c.hq.entry(p).or_default();
                    if !list.contains(&tile) {
                        list.push(tile);
                    }
                }
                if o.modules > 0
                    && let Some(module) = class.and_then(module_id)
                {
                    let n = if class == Some(Class::Factory) {
                        o.modules.min(255)
                    } else {
                        1
                    };
                    add(&mut structs, p, module, n);
                }
            }
            Owner::None => {}
        }
    }
    for o in map.of_kind(ObjectKind::Feature) {
        if is_oil(&o.stats_id, stats) {
            oil.take(o.x, o.y);
        }
    }
    c.oil_wells = oil.taken.len() as u32;
    let unit_slots = slot_count(players, &units);
    let total = |m: &BTreeMap<String, u32>| m.values().sum();
    let u = min_max(&units, unit_slots, total).unwrap_or_default();
    c.units = MinMax {
        min: u.min,
        max: u.min,
    };
    c.units_balanced = balanced(&units, unit_slots, |_| true);
    let struct_slots = slot_count(players, &structs);
    c.structures = min_max(&structs, struct_slots, total).unwrap_or_default();
    c.structures_balanced = balanced(&structs, struct_slots, |_| true);
    for (class_of, _, _) in CLASSES {
        let of = |id: &str| class(id, stats) == Some(*class_of);
        let n = min_max(&structs, struct_slots, |m| {
            m.iter().filter(|(id, _)| of(id)).map(|(_, n)| n).sum()
        });
        c.per_class.insert(*class_of, n.unwrap_or_default());
        c.balanced
            .insert(*class_of, balanced(&structs, struct_slots, of));
    }
    c
}
