//! Droids and structures assembled from their parts as the game draws them
//! (src/component.cpp `displayCompObj`, src/display3d.cpp `renderStructureTurrets`).
//!
//! The game's rules, in the game's space (x right, y up, connectors used as (x, z, y)):
//! - the body at the origin, every level drawn; the propulsion is `body.json`
//!   `propulsionExtraModels[propulsion].left` (and `right` where present) at the body's
//!   origin — `propulsion.json`'s `model` is only the design-screen icon;
//! - weapon *i* of a weapon droid: body connector *i* · turn (Ry) · mount · the mount's
//!   connector 0 · pitch (Rx) · barrel. A weapon droid on Lift propulsion (VTOL,
//!   helicopter) uses body connector 5 + *i* and rolls 180° about Z after the turn, with
//!   the pitch negated, so the weapon hangs under the body;
//! - system turrets (sensor, construct, repair, ECM) sit at body connector 0 · turn ·
//!   mount · turret; only cyborgs apply the mount's connector 0. A commander is drawn as
//!   its brain's `turret` weapon, through the weapon path;
//! - cyborgs: the body is the legs, the weapon's `mountModel` is the torso and the gun sits
//!   at the torso's connector; no propulsion is drawn (their bodies name none);
//! - `moving` / `still` models at the origin (additive while moving);
//! - structures: `baseModel` except for defences, the structure model, and per connector
//!   *i* of the model the turret chosen weapon *i* → ECM → sensor: connector · turn ·
//!   mount · mount connector 0 · pitch · weapon. A weapon with no model (bunkers) draws
//!   nothing (the game only shows its muzzle flash while firing).
//!
//! PIE models are mirrored in X on load (their points are left-handed), so the game's
//! matrices are conjugated by that mirror: connectors are taken from the loaded model as
//! they are, a turn of `a` becomes Ry(−(−a)) = Ry(a), pitch and the 180° roll are
//! unchanged.

use super::design::{Design, Parts};
use super::parts::PartFinder;
use super::stats::{self, Stats, is_null_id};
use crate::files::FileRef;
use crate::model::Details;
use crate::model::details::{self, AssemblyDetails, AssemblyPart};
use crate::model::{BlendMode, Model, compose};
use glam::{Mat4, Vec3};

mod droid_type;
mod structure;
pub use droid_type::is_construct_template;
use droid_type::*;
use structure::*;

/// The body connector the first VTOL weapon uses (`VTOL_CONNECTOR_START`).
pub(crate) const VTOL_CONNECTOR_START: usize = 5;

/// Turret direction and pitch, and whether the droid is moving.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TurretPose {
    /// Turret direction in degrees (the game's `rot.direction`).
    pub yaw_deg: f32,
    /// Pitch in degrees, clamped to each weapon's `minElevation`..`maxElevation`.
    pub pitch_deg: f32,
    /// Show the `moving` models (VTOL jets) instead of the `still` ones.
    pub moving: bool,
}

/// One part of an assembly.
#[derive(Debug, Clone)]
pub struct PartInfo {
    /// What it is: `body`, `propulsion`, `weapon 1 mount`, `weapon 1`, `sensor`, …
    pub role: String,
    /// The stats entry it comes from.
    pub stats_id: String,
    /// The model file as the stats name it.
    pub model_name: String,
    /// Where it was found.
    pub file: Option<FileRef>,
    /// Its group node in [`Assembly::model`] (`None` when it could not be loaded).
    pub node: Option<usize>,
    /// Where its origin sits, model space.
    pub transform: Mat4,
    /// Why it is missing, if it is.
    pub error: Option<String>,
}

impl PartInfo {
    /// The part's origin in model space.
    pub fn position(&self) -> Vec3 {
        self.transform.transform_point3(Vec3::ZERO)
    }
}

/// An assembled droid or structure: one model and what went into it.
#[derive(Debug, Clone)]
pub struct Assembly {
    /// Human name (the template's or structure's name, or the body's).
    pub name: String,
    /// The droid type the game would give it (`weapon`, `cyborg`, `sensor`, … `structure`).
    pub kind: String,
    /// The composed model.
    pub model: Model,
    /// Every part, in draw order.
    pub parts: Vec<PartInfo>,
    /// Pitch limits of the first weapon (degrees), if it has a weapon.
    pub elevation: Option<(f32, f32)>,
    /// Problems: missing parts, too few connectors.
    pub warnings: Vec<String>,
    /// Facts worth showing that are not problems (a body without connectors, so the
    /// game draws no turret on it).
    pub notes: Vec<String>,
}

impl Assembly {
    /// The part with this role.
    pub fn part(&self, role: &str) -> Option<&PartInfo> {
        self.parts.iter().find(|p| p.role == role)
    }

    /// Whether every part named was found and loaded.
    pub fn complete(&self) -> bool {
        self.parts.iter().all(|p| p.error.is_none())
    }
}

/// Builds the assembly's model part by part.
struct Builder<'a> {
    finder: &'a mut PartFinder,
    model: Model,
    parts: Vec<PartInfo>,
    warnings: Vec<String>,
    notes: Vec<String>,
}

/// The connectors [`Builder::add`] gives a part not read yet: enough for every turret
/// a body or structure can carry (a VTOL's start at [`VTOL_CONNECTOR_START`]).
const PENDING_CONNECTORS: usize = VTOL_CONNECTOR_START + 4;

/// What [`Builder::add`] returns about a placed part.
struct Placed {
    node: Option<usize>,
    /// Connectors of the part's first level, model axes.
    connectors: Vec<Vec3>,
}

impl Builder<'_> {
    /// Places part `name` (as the stats write it) at `world`, under the group node
    /// `parent` whose model-space matrix is `parent_world`.
    fn add(
        &mut self,
        role: &str,
        stats_id: &str,
        name: &str,
        parent: Option<(usize, Mat4)>,
        world: Mat4,
    ) -> Placed {
        let mut info = PartInfo {
            role: role.to_string(),
            stats_id: stats_id.to_string(),
            model_name: name.to_string(),
            file: None,
            node: None,
            transform: world,
            error: None,
        };
        let placed = match self.finder.load(name) {
            Ok((file, part)) => {
                let label = format!("{role}: {}", file.file_name().to_lowercase());
                let (pnode, pworld) = parent.map_or((None, Mat4::IDENTITY), |(n, w)| (Some(n), w));
                let local = pworld.inverse() * world;
                let node = compose::attach(&mut self.model, pnode, role, &label, local, &part);
                info.file = Some(file);
                info.node = Some(node);
                Placed {
                    node: Some(node),
                    connectors: first_level_connectors(&part),
                }
            }
            Err(e) => {
                self.warnings.push(format!("{role} ({stats_id}): {e}"));
                info.error = Some(e);
                // A part whose bytes are still to come (a remote archive): its stand-in
                // connectors let the parts that hang on it be asked for now, in the same
                // fetch, not one round of fetches per level of the assembly. The
                // assembly is made again once the bytes are in.
                let connectors = if self.finder.pending() {
                    vec![Vec3::ZERO; PENDING_CONNECTORS]
                } else {
                    Vec::new()
                };
                Placed {
                    node: None,
                    connectors,
                }
            }
        };
        self.parts.push(info);
        placed
    }

    fn finish(mut self, name: String, kind: &str, elevation: Option<(f32, f32)>) -> Assembly {
        let parts = self
            .parts
            .iter()
            .map(|p| AssemblyPart {
                role: p.role.clone(),
                stats_id: p.stats_id.clone(),
                model: p.model_name.clone(),
                file: p.file.as_ref().map(|f| f.to_string()),
                node: p.node,
                position: self.model.axes.point_to_file(p.position()).to_array(),
                error: p.error.clone(),
            })
            .collect();
        self.model.details = Details::Assembly(AssemblyDetails {
            assembly: details::Assembly {
                name: name.clone(),
                kind: kind.to_owned(),
                parts,
            },
        });
        self.model.property("Assembly", format!("{name} ({kind})"));
        for p in &self.parts {
            let file = p
                .file
                .as_ref()
                .map_or("missing".to_string(), |f| f.file_name());
            self.model
                .property(format!("  {}", p.role), format!("{} — {file}", p.stats_id));
        }
        for n in &self.notes {
            self.model.property("Note", n.clone());
        }
        for w in &self.warnings {
            self.model.warn(crate::model::Location::File, w.clone());
        }
        Assembly {
            name,
            kind: kind.to_string(),
            model: self.model,
            parts: self.parts,
            elevation,
            warnings: self.warnings,
            notes: self.notes,
        }
    }
}

/// The connectors of a PIE model's first level, model axes (what the game's
/// `iIMDShape::connectors` of the top shape holds).
fn first_level_connectors(m: &Model) -> Vec<Vec3> {
    m.connectors
        .iter()
        .filter(|c| c.node == 0)
        .map(|c| c.position)
        .collect()
}

fn pitch_for(w: &stats::Weapon, pitch_deg: f32) -> f32 {
    let lo = w.min_elevation.unwrap_or(-90.0) as f32;
    let hi = w.max_elevation.unwrap_or(90.0) as f32;
    pitch_deg.clamp(lo.min(hi), hi.max(lo))
}

fn limits(w: &stats::Weapon) -> (f32, f32) {
    (
        w.min_elevation.unwrap_or(-90.0) as f32,
        w.max_elevation.unwrap_or(90.0) as f32,
    )
}

/// Assembles `design` from `stats`, finding and loading parts through `finder`.
/// `Err` only when the design names no template, body or structure the stats know.
pub fn assemble(
    stats: &Stats,
    finder: &mut PartFinder,
    design: &Design,
    pose: TurretPose,
) -> Result<Assembly, String> {
    match design {
        Design::Template { id } => {
            let t = stats
                .templates
                .find(id)
                .ok_or_else(|| format!("no template {id:?} in templates.json"))?;
            let parts = template_parts(t);
            assemble_droid(stats, finder, &t.name, t.kind.as_deref(), &parts, pose)
        }
        Design::Parts(p) => assemble_droid(stats, finder, "", None, p, pose),
        Design::Structure { id } => assemble_structure(stats, finder, id, 0, pose),
    }
}

/// Assembles structure `id` with `modules` modules built on it (a factory with two, a
/// research facility with one): the model the game draws for that many is
/// `structureModel[min(2 · modules, len − 1)]` (notes §6, inferred from
/// `buildStructureDir`'s comment).
pub fn assemble_structure_with_modules(
    stats: &Stats,
    finder: &mut PartFinder,
    id: &str,
    modules: u32,
) -> Result<Assembly, String> {
    assemble_structure(stats, finder, id, modules, TurretPose::default())
}

fn new_builder(finder: &mut PartFinder) -> Builder<'_> {
    let mut model = Model::new(crate::model::Format::Pie, "assembly");
    model.axes = crate::model::FileAxes::y_up_left_handed();
    model.grid_unit = Some(crate::formats::pie::TILE);
    Builder {
        finder,
        model,
        parts: Vec::new(),
        warnings: Vec::new(),
        notes: Vec::new(),
    }
}

fn assemble_droid(
    stats: &Stats,
    finder: &mut PartFinder,
    name: &str,
    kind: Option<&str>,
    p: &Parts,
    pose: TurretPose,
) -> Result<Assembly, String> {
    let body = stats
        .bodies
        .find(&p.body)
        .ok_or_else(|| format!("no body {:?} in body.json", p.body))?;
    let prop = stats.propulsion.find(&p.propulsion);
    let mut b = new_builder(finder);
    if !p.propulsion.is_empty() && prop.is_none() {
        b.warnings.push(format!(
            "no propulsion {:?} in propulsion.json",
            p.propulsion
        ));
    }
    let dtype = droid_type(stats, kind, p);
    let name = if name.is_empty() {
        body.name.clone()
    } else {
        name.to_string()
    };
    let Some(body_model) = body.model.as_deref() else {
        return Err(format!("body {} names no model", body.id));
    };
    // A moving droid draws its body's ACTIVE event model instead (a cyborg's running
    // legs); the turrets still use the body's own connectors (`psShapeBody`).
    let active = pose
        .moving
        .then(|| b.finder.load(body_model).ok())
        .flatten()
        .and_then(|(_, m)| {
            m.events
                .iter()
                .find(|e| e.kind == 1)
                .map(|e| e.file.clone())
        });
    let bodyp = b.add(
        "body",
        &body.id,
        active.as_deref().unwrap_or(body_model),
        None,
        Mat4::IDENTITY,
    );
    let root = bodyp.node.map(|n| (n, Mat4::IDENTITY));
    let conns = match active {
        Some(_) => b
            .finder
            .load(body_model)
            .map(|(_, m)| first_level_connectors(&m))
            .unwrap_or_default(),
        None => bodyp.connectors,
    };

    // Propulsion sides and moving/still models: body.json, keyed by propulsion id.
    let extra = prop.and_then(|pr| body.propulsion_extra_models.get(&pr.id));
    if let (Some(pr), Some(x)) = (prop, extra) {
        for (role, m) in [("propulsion", &x.left), ("propulsion right", &x.right)] {
            if let Some(m) = m {
                b.add(role, &pr.id, m, root, Mat4::IDENTITY);
            }
        }
        let (role, m) = if pose.moving {
            ("moving", &x.moving)
        } else {
            ("still", &x.still)
        };
        if let Some(m) = m {
            let placed = b.add(role, &pr.id, m, root, Mat4::IDENTITY);
            if pose.moving {
                additive(&mut b.model, placed.node);
            }
        }
    }

    let yaw = Mat4::from_rotation_y(pose.yaw_deg.to_radians());
    let mut elevation = None;
    let need_conns = |b: &mut Builder, what: &str, i: usize| {
        b.warnings.push(format!(
            "body {body_model} has {} connectors; {what} needs connector {i}",
            conns.len()
        ));
    };
    // The game draws turrets only on a body with connectors (`psShapeBody->nconnectors`);
    // scavenger vehicles carry their gun in the body model.
    let kind_name = dtype.name();
    let draws_turret = !matches!(
        dtype,
        DroidType::Person | DroidType::Transporter | DroidType::Default
    );
    if draws_turret && conns.is_empty() && bodyp.node.is_some() {
        b.notes.push(format!(
            "body {body_model} has no connectors: the game draws no turret on it"
        ));
    }
    let dtype = if conns.is_empty() {
        DroidType::Default
    } else {
        dtype
    };
    match dtype {
        DroidType::Person | DroidType::Transporter | DroidType::Default => {}
        DroidType::Weapon | DroidType::Cyborg | DroidType::Command => {
            let weapons: Vec<&stats::Weapon> = if dtype == DroidType::Command {
                let brain = id_of(&p.brain).and_then(|id| stats.brains.find(id));
                let turret = brain.and_then(|br| id_of(&br.turret));
                turret
                    .and_then(|t| stats.weapons.find(t))
                    .into_iter()
                    .collect()
            } else {
                let mut v = Vec::new();
                for w in p.weapons.iter().filter(|w| !is_null_id(w)) {
                    match stats.weapons.find(w) {
                        Some(x) => v.push(x),
                        None => b.warnings.push(format!("no weapon {w:?} in weapons.json")),
                    }
                }
                v
            };
            let vtol = dtype == DroidType::Weapon && prop.is_some_and(|x| x.is_lift());
            for (i, w) in weapons.into_iter().enumerate() {
                elevation.get_or_insert(limits(w));
                let index = if vtol { VTOL_CONNECTOR_START + i } else { i };
                let Some(&c) = conns.get(index) else {
                    need_conns(&mut b, &format!("weapon {}", i + 1), index);
                    continue;
                };
                let mut base = Mat4::from_translation(c) * yaw;
                if vtol {
                    base *= Mat4::from_rotation_z(std::f32::consts::PI);
                }
                let pitch = pitch_for(w, pose.pitch_deg).to_radians();
                let pitch = Mat4::from_rotation_x(if vtol { -pitch } else { pitch });
                let n = i + 1;
                weapon_stack(&mut b, root, &format!("weapon {n}"), w, base, pitch);
            }
        }
        DroidType::Sensor
        | DroidType::Ecm
        | DroidType::Construct
        | DroidType::CyborgConstruct
        | DroidType::Repair
        | DroidType::CyborgRepair => {
            let (role, sid, turret, mount) = match dtype {
                DroidType::Sensor => system(&stats.sensors, &p.sensor, "sensor"),
                DroidType::Ecm => system(&stats.ecm, &p.ecm, "ecm"),
                DroidType::Repair | DroidType::CyborgRepair => id_of(&p.repair)
                    .and_then(|r| stats.repair.find(r))
                    .map_or(("repair", String::new(), None, None), |r| {
                        (
                            "repair",
                            r.id.clone(),
                            r.model.clone(),
                            r.mount_model.clone(),
                        )
                    }),
                _ => system(&stats.construction, &p.construct, "construct"),
            };
            if let Some(&c) = conns.first() {
                {
                    let base = Mat4::from_translation(c) * yaw;
                    let mut at = base;
                    let mut parent = root;
                    if let Some(m) = mount.as_deref() {
                        let placed = b.add(&format!("{role} mount"), &sid, m, root, base);
                        if dtype.is_cyborg()
                            && let Some(&mc) = placed.connectors.first()
                        {
                            at = base * Mat4::from_translation(mc);
                        }
                        if let Some(n) = placed.node {
                            parent = Some((n, base));
                        }
                    }
                    if let Some(t) = turret.as_deref() {
                        b.add(role, &sid, t, parent, at);
                    }
                }
            }
        }
    }
    Ok(b.finish(name, kind_name, elevation))
}

fn system(
    table: &stats::Table<stats::SystemTurret>,
    id: &Option<String>,
    role: &'static str,
) -> (&'static str, String, Option<String>, Option<String>) {
    match id_of(id).and_then(|i| table.find(i)) {
        Some(t) => (
            role,
            t.id.clone(),
            t.sensor_model.clone(),
            t.mount_model.clone(),
        ),
        None => (role, String::new(), None, None),
    }
}

/// Mount at `base`, then the mount's connector 0 and `pitch`, then the barrel.
fn weapon_stack(
    b: &mut Builder,
    root: Option<(usize, Mat4)>,
    role: &str,
    w: &stats::Weapon,
    base: Mat4,
    pitch: Mat4,
) {
    let mut barrel = base * pitch;
    let mut parent = root;
    if let Some(m) = w.mount_model.as_deref() {
        let placed = b.add(&format!("{role} mount"), &w.id, m, root, base);
        if let Some(&mc) = placed.connectors.first() {
            barrel = base * Mat4::from_translation(mc) * pitch;
        }
        if let Some(n) = placed.node {
            parent = Some((n, base));
        }
    }
    if let Some(g) = w.model.as_deref() {
        b.add(role, &w.id, g, parent, barrel);
    }
}

/// The game draws `moving` models additively.
fn additive(model: &mut Model, group: Option<usize>) {
    let Some(group) = group else { return };
    let mut under = vec![false; model.nodes.len()];
    under[group] = true;
    for i in group + 1..model.nodes.len() {
        under[i] = model.nodes[i].parent.is_some_and(|p| under[p]);
    }
    for (i, n) in model.nodes.iter().enumerate() {
        if let (true, Some(m)) = (under[i], n.mesh) {
            for s in &model.meshes[m].submeshes {
                model.materials[s.material].blend = BlendMode::Additive;
            }
        }
    }
}
