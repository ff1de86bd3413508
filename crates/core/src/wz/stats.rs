//! The game's stats files (`stats/*.json`) read through a stack of data roots.
//!
//! How the game merges them (lib/framework/wzconfig.cpp, `WzConfig::WzConfig`): the file
//! is opened by its path in the PhysFS search path, so the **whole file** comes from the
//! first layer that has it (a mod's `stats/body.json` replaces `mp`'s, which replaces
//! `base`'s; entries are not merged across layers). Then every `diffs/<name>/stats/X.json`
//! found in any layer is applied in name order as a JSON merge patch (objects merge key
//! by key, `null` deletes a key, anything else replaces). Both are done here.
//!
//! Unknown fields are ignored; a missing file is a warning, a malformed file or entry is
//! a warning naming the file and the key, and loading carries on.

use crate::files::{self, FileRef, Files, Lookup};
use serde::Deserialize;
use serde_json::{Map, Value};

mod load;
use load::*;
use std::collections::BTreeMap;
use std::fmt;

/// A problem found while reading stats: the file, the entry (if any) and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// The file as `Display`ed by [`FileRef`] (or `stats/X.json` when it is missing).
    pub file: String,
    /// The entry id (top-level key) or field the problem is in.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(k) => write!(f, "{}: {k}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// A number or a numeric string (mods write both).
fn lenient_num<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// One string or a list of strings.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => vec![s],
        Value::Array(a) => a
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    })
}

/// The per-propulsion models of a body (`body.json` `propulsionExtraModels.<id>`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct PropulsionModels {
    /// Left side (4.3.3: both sides in one model).
    pub left: Option<String>,
    /// Right side, where the data splits them.
    pub right: Option<String>,
    /// Drawn while the droid moves (VTOL jets).
    pub moving: Option<String>,
    /// Drawn while it stands still (helicopter rotor at rest).
    pub still: Option<String>,
}

/// `body.json` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Body {
    /// Stats id (the JSON key).
    pub id: String,
    /// Human name.
    pub name: String,
    /// The body model.
    pub model: Option<String>,
    /// How many weapons it carries.
    #[serde(deserialize_with = "lenient_num")]
    pub weapon_slots: Option<f64>,
    /// LIGHT, MEDIUM, HEAVY, SUPER HEAVY.
    pub size: Option<String>,
    /// Propulsion id → models drawn with this body.
    pub propulsion_extra_models: BTreeMap<String, PropulsionModels>,
    /// Design-screen flag.
    #[serde(deserialize_with = "lenient_num")]
    pub(crate) designable: Option<f64>,
}

/// `propulsion.json` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Propulsion {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// Design-screen icon (never drawn on a droid).
    pub model: Option<String>,
    /// Wheeled, Tracked, Half-Tracked, Hover, Lift, Propellor, Legged, Lift.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Design-screen flag.
    #[serde(deserialize_with = "lenient_num")]
    pub(crate) designable: Option<f64>,
}

impl Propulsion {
    /// Lift propulsion (VTOL, helicopter): weapon droids hang their weapons underneath.
    pub(crate) fn is_lift(&self) -> bool {
        self.kind
            .as_deref()
            .is_some_and(|k| k.eq_ignore_ascii_case("lift"))
    }
}

/// `weapons.json` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Weapon {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// The barrel (or the whole gun of a cyborg).
    pub model: Option<String>,
    /// The mount (a cyborg's torso).
    pub mount_model: Option<String>,
    /// Muzzle flash effect.
    pub(crate) muzzle_gfx: Option<String>,
    /// `ShootAir`, `AirOnly`, … as written.
    pub flags: Option<String>,
    /// Lowest pitch, degrees.
    #[serde(deserialize_with = "lenient_num")]
    pub(crate) min_elevation: Option<f64>,
    /// Highest pitch, degrees.
    #[serde(deserialize_with = "lenient_num")]
    pub(crate) max_elevation: Option<f64>,
    /// Design-screen flag.
    #[serde(deserialize_with = "lenient_num")]
    pub(crate) designable: Option<f64>,
    /// Weapon sub-class (MACHINE GUN, CANNON, …).
    pub(crate) weapon_sub_class: Option<String>,
}

/// `sensor.json`, `ecm.json` and `construction.json` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SystemTurret {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// The turret.
    pub sensor_model: Option<String>,
    /// Its mount.
    pub mount_model: Option<String>,
    /// `TURRET` or `DEFAULT` (built into the body, not drawn).
    pub location: Option<String>,
    /// Design-screen flag.
    #[serde(deserialize_with = "lenient_num")]
    pub(crate) designable: Option<f64>,
}

impl SystemTurret {
    /// Whether it is a turret of its own (not built into the body).
    pub fn is_turret(&self) -> bool {
        self.location
            .as_deref()
            .is_none_or(|l| l.eq_ignore_ascii_case("turret"))
    }
}

/// `repair.json` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Repair {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// The turret.
    pub model: Option<String>,
    /// Its mount.
    pub mount_model: Option<String>,
    /// `TURRET` or `DEFAULT`.
    pub location: Option<String>,
    /// Design-screen flag.
    #[serde(deserialize_with = "lenient_num")]
    pub(crate) designable: Option<f64>,
}

/// `brain.json` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Brain {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// The weapon a commander is drawn as.
    pub turret: Option<String>,
}

/// `structure.json` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Structure {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// DEFENSE, WALL, FACTORY, …
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The building (the first is drawn; later ones are upgrades).
    #[serde(deserialize_with = "one_or_many")]
    pub(crate) structure_model: Vec<String>,
    /// The base plate (not drawn for defences).
    pub base_model: Option<String>,
    /// Weapons at the model's connectors.
    #[serde(deserialize_with = "one_or_many")]
    pub weapons: Vec<String>,
    /// Sensor turret.
    #[serde(rename = "sensorID")]
    pub(crate) sensor_id: Option<String>,
    /// ECM (or repair-facility) turret.
    #[serde(rename = "ecmID")]
    pub(crate) ecm_id: Option<String>,
    /// Footprint along x, in tiles (before rotation).
    #[serde(deserialize_with = "lenient_num")]
    pub width: Option<f64>,
    /// Footprint along y, in tiles (before rotation).
    #[serde(deserialize_with = "lenient_num")]
    pub breadth: Option<f64>,
    /// How many of it each player may have before the lobby's settings apply: the middle
    /// of `userLimits` [min, default, max] (`loadStructureStats`); `None` (no
    /// `userLimits`) is the game's `LOTS_OF`, no limit.
    #[serde(rename = "userLimits", deserialize_with = "middle_limit")]
    pub build_limit: Option<u32>,
}

/// `userLimits`' middle number (`ini.vector3i`: a list of three numbers).
fn middle_limit<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(a) => a
            .get(1)
            .and_then(Value::as_f64)
            .map(|f| f.clamp(0.0, f64::from(u32::MAX)) as u32),
        _ => None,
    })
}

/// `features.json` entry: trees, boulders, oil resources, wrecks.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Feature {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// OIL RESOURCE, TREE, BOULDER, BUILDING, …
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The model.
    pub model: Option<String>,
    /// Footprint along x, in tiles.
    #[serde(deserialize_with = "lenient_num")]
    pub width: Option<f64>,
    /// Footprint along y, in tiles.
    #[serde(deserialize_with = "lenient_num")]
    pub breadth: Option<f64>,
}

impl Structure {
    /// A defence: no base plate is drawn.
    pub(crate) fn is_defense(&self) -> bool {
        self.kind
            .as_deref()
            .is_some_and(|k| k.eq_ignore_ascii_case("defense"))
    }
}

/// `templates.json` entry: a named droid design.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Template {
    /// Stats id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// DROID, CYBORG, CYBORG_SUPER, CYBORG_CONSTRUCT, CYBORG_REPAIR, PERSON, TRANSPORTER, …
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Body id.
    pub body: String,
    /// Propulsion id.
    pub propulsion: String,
    /// Weapon ids, one per slot.
    #[serde(deserialize_with = "one_or_many")]
    pub weapons: Vec<String>,
    /// Sensor id.
    pub sensor: Option<String>,
    /// Construct id.
    pub construct: Option<String>,
    /// Repair id.
    pub repair: Option<String>,
    /// ECM id.
    pub ecm: Option<String>,
    /// Brain id (commanders).
    pub brain: Option<String>,
}

/// An id naming nothing: empty, or the game's `ZNULL…` placeholder entries.
pub fn is_null_id(id: &str) -> bool {
    id.is_empty() || id.to_ascii_uppercase().starts_with("ZNULL")
}

/// What every stats entry has.
pub trait Entry {
    /// Stats id.
    fn id(&self) -> &str;
    /// Human name.
    fn name(&self) -> &str;
    /// `(role, model file)` of every model file it names.
    fn models(&self) -> Vec<(&'static str, &str)>;
    /// Sets the id (the game identifies entries by their JSON key).
    fn set_id(&mut self, id: String);
}

macro_rules! entry {
    ($t:ty, |$s:ident| $models:expr) => {
        impl Entry for $t {
            fn id(&self) -> &str {
                &self.id
            }
            fn name(&self) -> &str {
                &self.name
            }
            fn models(&self) -> Vec<(&'static str, &str)> {
                let $s = self;
                $models
            }
            fn set_id(&mut self, id: String) {
                self.id = id;
            }
        }
    };
}

fn some<'a>(v: &[(&'static str, &'a Option<String>)]) -> Vec<(&'static str, &'a str)> {
    v.iter()
        .filter_map(|(r, m)| m.as_deref().map(|m| (*r, m)))
        .collect()
}

entry!(Feature, |s| some(&[("model", &s.model)]));
entry!(Body, |s| {
    let mut v = some(&[("model", &s.model)]);
    for m in s.propulsion_extra_models.values() {
        v.extend(some(&[
            ("propulsion left", &m.left),
            ("propulsion right", &m.right),
            ("moving", &m.moving),
            ("still", &m.still),
        ]));
    }
    v
});
entry!(Propulsion, |s| some(&[("model", &s.model)]));
entry!(Weapon, |s| some(&[
    ("model", &s.model),
    ("mountModel", &s.mount_model),
    ("muzzleGfx", &s.muzzle_gfx),
]));
entry!(SystemTurret, |s| some(&[
    ("sensorModel", &s.sensor_model),
    ("mountModel", &s.mount_model),
]));
entry!(Repair, |s| some(&[
    ("model", &s.model),
    ("mountModel", &s.mount_model)
]));
entry!(Brain, |_s| Vec::new());
entry!(Structure, |s| {
    let mut v: Vec<_> = s
        .structure_model
        .iter()
        .map(|m| ("structureModel", m.as_str()))
        .collect();
    v.extend(some(&[("baseModel", &s.base_model)]));
    v
});
entry!(Template, |_s| Vec::new());

/// One stats file's entries by id, in the file's key order, plus where it came from.
#[derive(Debug, Clone)]
pub struct Table<T> {
    /// Entries in the file's order.
    pub entries: Vec<T>,
    /// The file the entries came from (`None`: no layer has it).
    pub source: Option<FileRef>,
    index: BTreeMap<String, usize>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            entries: Vec::new(),
            source: None,
            index: BTreeMap::new(),
        }
    }
}

impl<T: Entry> Table<T> {
    /// The entry with this id (exact).
    pub fn get(&self, id: &str) -> Option<&T> {
        self.index.get(id).map(|&i| &self.entries[i])
    }

    /// By id, then by human name, then by a model file name, all case-insensitive.
    pub fn find(&self, query: &str) -> Option<&T> {
        let q = query.trim();
        if let Some(e) = self.get(q) {
            return Some(e);
        }
        let eq = |a: &str| a.eq_ignore_ascii_case(q);
        self.entries
            .iter()
            .find(|e| eq(e.id()))
            .or_else(|| self.entries.iter().find(|e| eq(e.name())))
            .or_else(|| {
                self.entries
                    .iter()
                    .find(|e| e.models().iter().any(|(_, m)| eq(m)))
            })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Every stats file Vitrine reads, merged over the data roots as the game does.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// `body.json`.
    pub bodies: Table<Body>,
    /// `propulsion.json`.
    pub propulsion: Table<Propulsion>,
    /// `weapons.json`.
    pub weapons: Table<Weapon>,
    /// `sensor.json`.
    pub sensors: Table<SystemTurret>,
    /// `construction.json`.
    pub construction: Table<SystemTurret>,
    /// `ecm.json`.
    pub ecm: Table<SystemTurret>,
    /// `repair.json`.
    pub repair: Table<Repair>,
    /// `brain.json`.
    pub brains: Table<Brain>,
    /// `structure.json`.
    pub structures: Table<Structure>,
    /// `templates.json`.
    pub templates: Table<Template>,
    /// `features.json`.
    pub features: Table<Feature>,
}

impl Stats {
    /// Reads every stats file from `files` through `roots` (first wins, then `diffs/`
    /// patches). Never fails: what cannot be read is a [`Warning`].
    pub fn load(files: &Files, roots: &[FileRef]) -> (Stats, Vec<Warning>) {
        let mut lookup = Lookup::new(files);
        let mut w = Vec::new();
        let mut s = Stats::default();
        let lk = &mut lookup;
        s.bodies = load_table(lk, roots, "body.json", &mut w);
        s.propulsion = load_table(lk, roots, "propulsion.json", &mut w);
        s.weapons = load_table(lk, roots, "weapons.json", &mut w);
        s.sensors = load_table(lk, roots, "sensor.json", &mut w);
        s.construction = load_table(lk, roots, "construction.json", &mut w);
        s.ecm = load_table(lk, roots, "ecm.json", &mut w);
        s.repair = load_table(lk, roots, "repair.json", &mut w);
        s.brains = load_table(lk, roots, "brain.json", &mut w);
        s.structures = load_table(lk, roots, "structure.json", &mut w);
        s.templates = load_table(lk, roots, "templates.json", &mut w);
        s.features = load_table(lk, roots, "features.json", &mut w);
        (s, w)
    }

    /// Whether any layer had a `templates.json` or `body.json` (the roots hold Warzone
    /// stats at all).
    pub fn is_present(&self) -> bool {
        self.templates.source.is_some() || self.bodies.source.is_some()
    }
}

#[cfg(test)]
mod tests;
