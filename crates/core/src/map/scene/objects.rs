//! Every placed object's model at its place (`renderStructure`, `renderFeature`,
//! `displayComponentObject` in the game; notes §6): structures assembled with their base
//! model, the model for their module count and their turrets; features from
//! `features.json`'s `model`; droids assembled from their template as `vitrine assemble`
//! does. Each sits at `translate(x, z, −y) · rotateY(−direction)` in the game's render
//! space, which in model space (mirrored in x, as PIE points are) is
//! `translate(−x, z, −y) · rotateY(direction)`.
//!
//! An object whose stats or model cannot be found is drawn as a box of its footprint,
//! and the reason is listed among the scene's warnings: never a silent gap.

use super::super::{ObjectKind, Placed, TILE_UNITS};
use super::terrain::model_point;
use crate::model::{Corner, Material, Mesh, Model, Node, NodeKind, Submesh, compose};
use crate::wz::{Design, PartFinder, Stats, TurretPose};
use glam::{Mat4, Vec2, Vec3};
use std::collections::HashMap;
use std::sync::Arc;

/// Height of a marker box, world units.
const MARKER_HEIGHT: f32 = 96.0;

/// Models of the objects, each assembled or loaded once, and put in the scene once: the
/// copies on the map are nodes drawing the first copy's meshes
/// ([`compose::attach_again`]), so a map's memory grows with its objects' nodes, not
/// with their meshes (65,535 droids are a few meshes and 65,535 sets of nodes).
pub(crate) struct Objects<'a> {
    stats: &'a Stats,
    finder: Option<PartFinder>,
    cache: HashMap<(ObjectKind, String, u32), Result<Arc<Model>, String>>,
    /// Where each model's meshes are in the scene, once put there (by its address: one
    /// per entry of `cache`, and per marker box).
    in_scene: HashMap<*const Model, usize>,
    /// The marker boxes, one per kind and footprint.
    markers: HashMap<(ObjectKind, (i32, i32)), Arc<Model>>,
    /// The warnings of each model, once per model however often it stands on the map.
    pub(crate) notes: Vec<String>,
}

impl<'a> Objects<'a> {
    /// Models through `finder`; `None` draws every object as a box (no game data).
    pub(crate) fn new(stats: &'a Stats, finder: Option<PartFinder>) -> Self {
        Objects {
            stats,
            finder,
            cache: HashMap::new(),
            in_scene: HashMap::new(),
            markers: HashMap::new(),
            notes: Vec::new(),
        }
    }

    /// Whether there is game data to draw the objects with (else each is a box).
    pub(crate) fn has_data(&self) -> bool {
        self.finder.is_some()
    }

    /// Reads and assembles the model of each of `placed` (each distinct one once), for
    /// [`Objects::add`] to take from the cache.
    pub(crate) fn prepare(&mut self, placed: &[Placed]) {
        if self.finder.is_none() {
            return;
        }
        for p in placed {
            let _ = self.model(p);
        }
    }

    /// The nodes [`Objects::add`] adds for `placed` (each object's group node and its
    /// model's nodes; a marker box has one), for the scene to make room for them once.
    pub(crate) fn nodes_needed(&self, placed: &[Placed]) -> usize {
        placed
            .iter()
            .map(|p| {
                let o = &p.object;
                let key = (o.kind, o.stats_id.clone(), o.modules);
                1 + self
                    .cache
                    .get(&key)
                    .and_then(|r| r.as_ref().ok())
                    .map_or(1, |m| m.nodes.len())
            })
            .sum()
    }

    /// The model of `p`, or why there is none.
    fn model(&mut self, p: &Placed) -> Result<Arc<Model>, String> {
        let o = &p.object;
        let key = (o.kind, o.stats_id.clone(), o.modules);
        if let Some(r) = self.cache.get(&key) {
            return r.clone();
        }
        let r = self.build(p);
        if let Ok(m) = &r {
            let id = &p.object.stats_id;
            let notes = m.diagnostics.iter().map(|d| format!("{id}: {}", d.message));
            self.notes.extend(notes);
        }
        self.cache.insert(key, r.clone());
        r
    }

    fn build(&mut self, p: &Placed) -> Result<Arc<Model>, String> {
        let o = &p.object;
        let Some(finder) = self.finder.as_mut() else {
            return Err("no game data to draw it with".into());
        };
        let stats = self.stats;
        let assembly = |r: Result<crate::wz::Assembly, String>| {
            let mut a = r?;
            if a.model.meshes.is_empty() {
                let why = a.parts.iter().find_map(|p| p.error.clone());
                return Err(why.unwrap_or_else(|| "its parts have no meshes".into()));
            }
            // The base plate casts no shadow (`renderStructure` draws it with
            // `pie_FORCE_FOG` alone); the rest of the object as its group says.
            for part in a.parts.iter().filter(|p| p.role == "base") {
                if let Some(n) = part.node.and_then(|n| a.model.nodes.get_mut(n)) {
                    n.casts_shadow = Some(false);
                }
            }
            Ok(Arc::new(a.model))
        };
        match o.kind {
            ObjectKind::Structure => assembly(crate::wz::assemble_structure_with_modules(
                stats,
                finder,
                &o.stats_id,
                o.modules,
            )),
            ObjectKind::Droid => assembly(crate::wz::assemble(
                stats,
                finder,
                &Design::Template {
                    id: o.stats_id.clone(),
                },
                TurretPose::default(),
            )),
            ObjectKind::Feature => {
                let f = stats
                    .features
                    .get(&o.stats_id)
                    .ok_or_else(|| format!("no feature {:?} in features.json", o.stats_id))?;
                let name = f
                    .model
                    .as_deref()
                    .ok_or_else(|| format!("feature {} names no model", f.id))?;
                finder.load(name).map(|(_, m)| m)
            }
        }
    }

    /// Adds `p`'s model (or its marker box) to `scene` under a node named after it, a
    /// child of `parent`; returns that node, and why it is a box, if it is.
    pub(crate) fn add(
        &mut self,
        scene: &mut Model,
        parent: Option<usize>,
        p: &Placed,
    ) -> (usize, Option<String>) {
        let o = &p.object;
        let turn = f32::from(o.direction) * std::f32::consts::TAU / 65536.0;
        let at = Mat4::from_translation(model_point(o.x as f32, o.y as f32, p.z as f32))
            * Mat4::from_rotation_y(turn);
        let group = format!("{} {} ({})", o.kind.name(), o.stats_id, o.key);
        let (part, why) = match self.model(p) {
            Ok(part) => (part, None),
            Err(why) => {
                let key = (o.kind, marker_size(p));
                let marker = self
                    .markers
                    .entry(key)
                    .or_insert_with(|| Arc::new(marker(p)));
                (marker.clone(), Some(why))
            }
        };
        let node = self.put(scene, parent, (&group, &o.stats_id), at, &part);
        scene.nodes[node].team = team_of(o.owner);
        let feature_type = (o.kind == ObjectKind::Feature)
            .then(|| self.stats.features.get(&o.stats_id))
            .flatten()
            .and_then(|f| f.kind.as_deref());
        // A marker box is Vitrine's, not the game's: it casts none.
        scene.nodes[node].casts_shadow =
            Some(why.is_none() && super::illumination::casts_shadow(o.kind, feature_type));
        (node, why)
    }

    /// `part` under `parent` at `at`: its first copy whole, the others drawing that
    /// copy's meshes. The part's warnings are in `notes` once, not once per copy.
    fn put(
        &mut self,
        scene: &mut Model,
        parent: Option<usize>,
        names: (&str, &str),
        at: Mat4,
        part: &Arc<Model>,
    ) -> usize {
        let key = Arc::as_ptr(part);
        if let Some(&mesh0) = self.in_scene.get(&key)
            && let Some(node) = compose::attach_again(scene, parent, names, at, part, mesh0)
        {
            return node;
        }
        let before = scene.diagnostics.len();
        let mesh0 = scene.meshes.len();
        let node = compose::attach(scene, parent, names.0, names.1, at, part);
        scene.diagnostics.truncate(before);
        self.in_scene.insert(key, mesh0);
        node
    }
}

/// A marker box's footprint: half a tile for a droid, the object's own for the rest.
fn marker_size(p: &Placed) -> (i32, i32) {
    match p.object.kind {
        ObjectKind::Droid => (0, 0),
        _ => p.size,
    }
}

/// The team colour an owner's objects are drawn with: player N's is colour N, as a
/// skirmish starts (`initPlayerColours`: each player the colour of its index); the
/// scavengers' and features' are the view's.
fn team_of(owner: crate::map::Owner) -> Option<usize> {
    match owner {
        crate::map::Owner::Player(n) => Some(n as usize % crate::model::team::TEAM_COLOURS.len()),
        _ => None,
    }
}

/// The colour of a marker box of each kind (linear RGBA): loud, so a gap is never
/// mistaken for ground.
fn marker_colour(kind: ObjectKind) -> [f32; 4] {
    match kind {
        ObjectKind::Structure => [0.9, 0.1, 0.8, 1.0],
        ObjectKind::Feature => [0.9, 0.8, 0.1, 1.0],
        ObjectKind::Droid => [0.1, 0.6, 0.9, 1.0],
    }
}

/// A box of `p`'s footprint (a droid: half a tile), standing on its origin.
fn marker(p: &Placed) -> Model {
    let tile = TILE_UNITS as f32;
    let (w, b) = match p.object.kind {
        ObjectKind::Droid => (tile / 2.0, tile / 2.0),
        _ => (p.size.0 as f32 * tile, p.size.1 as f32 * tile),
    };
    let mut m = Model::new(crate::model::Format::Pie, "marker");
    m.materials.push(Material::new(
        format!("marker: {}", p.object.kind.name()),
        marker_colour(p.object.kind),
    ));
    m.meshes
        .push(box_mesh(Vec3::new(w / 2.0, MARKER_HEIGHT, b / 2.0)));
    let mut node = Node::new("marker", None, NodeKind::Part);
    node.mesh = Some(0);
    m.nodes.push(node);
    m
}

/// A box from (−hx, 0, −hz) to (hx, hy, hz), faces outwards.
fn box_mesh(half: Vec3) -> Mesh {
    let (x, y, z) = (half.x, half.y, half.z);
    let points: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { -x } else { x },
                if i & 2 == 0 { 0.0 } else { y },
                if i & 4 == 0 { -z } else { z },
            )
        })
        .collect();
    // Each face as a quad, counter-clockwise seen from outside.
    let quads: [[u32; 4]; 6] = [
        [0, 4, 6, 2], // −x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // −y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // −z
        [4, 5, 7, 6], // +z
    ];
    let mut corners = Vec::with_capacity(36);
    for q in quads {
        for k in [0, 1, 2, 0, 2, 3] {
            corners.push(Corner::new(q[k], Vec2::ZERO));
        }
    }
    Mesh {
        name: "marker".into(),
        points,
        corners,
        submeshes: vec![Submesh {
            first_triangle: 0,
            triangle_count: 12,
            material: 0,
        }],
        ..Mesh::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_box_faces_point_outwards() {
        let m = box_mesh(Vec3::new(1.0, 2.0, 1.0));
        let centre = Vec3::new(0.0, 1.0, 0.0);
        for t in 0..m.triangle_count() {
            let c = &m.corners[t * 3..t * 3 + 3];
            let mid = c.iter().map(|c| m.points[c.point as usize]).sum::<Vec3>() / 3.0;
            assert!(m.face_normal(t).dot(mid - centre) > 0.0, "triangle {t}");
        }
    }
}
