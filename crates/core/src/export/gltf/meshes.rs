//! Model meshes → glTF meshes.
//!
//! The model keeps per-corner attributes (every format stores them that way); glTF wants
//! one index per vertex, so each distinct (point, normal, UV sets, animated) combination
//! becomes one glTF vertex and identical corners share it. One primitive per material
//! run, split where some triangles take part in a texture-frame animation (those draw
//! with the material's animated copy). Normals are the authored ones, else the flat face
//! normal, as the viewer shades. Legacy team-colour texture blocks draw with the
//! animated copy too, its texture offset fixed at the chosen team's frame (the UVs stay
//! the polygons' own, so the way back to PIE keeps the block).

use super::document::Document;
use super::images::ImageCache;
use super::materials::Materials;
use crate::model::{Mesh, Model};
use glam::{Vec2, Vec3};
use gltf_json as json;
use json::validation::Checked::Valid;
use std::collections::{BTreeMap, HashMap};

/// A triangle's UV bounding rectangle: (min, max).
type UvRect = ([f32; 2], [f32; 2]);

/// What the mesh export needs to know about the whole export.
#[derive(Debug)]
pub(crate) struct MeshSettings<'a> {
    /// Uniform scale applied to positions.
    pub scale: f32,
    /// Team whose colour and legacy texture frame are baked.
    pub team: usize,
    /// Per mesh: whether an exported clip animates its texture frames.
    pub(crate) texture_animated: &'a [bool],
    /// Per skin: the index of the extra static joint that holds unweighted points, if
    /// the skin has one.
    pub(crate) static_joint: &'a [Option<u16>],
}

/// The exported meshes and, per model mesh, the animated material copies it uses.
#[derive(Debug, Default)]
pub(crate) struct ExportedMeshes {
    /// Per model mesh: its glTF mesh (`None` for a mesh without triangles).
    pub meshes: Vec<Option<json::Index<json::Mesh>>>,
    /// Per model mesh: whether it was exported with joints and weights.
    pub skinned: Vec<bool>,
    /// Per model mesh: glTF materials whose texture offset its texture animation moves.
    pub(crate) animated_materials: Vec<Vec<json::Index<json::Material>>>,
}

/// A unit normal (the glTF validator rejects others): the given one normalised, else
/// the face normal, else up.
fn unit_normal(n: Vec3, face: Vec3) -> Vec3 {
    n.try_normalize()
        .or_else(|| face.try_normalize())
        .unwrap_or(Vec3::Y)
}

/// UV offset of the legacy team-colour block of `mesh` for `team`, if it has one.
pub(crate) fn team_offset(model: &Model, mesh: usize, team: usize) -> Option<Vec2> {
    model
        .clips
        .iter()
        .flat_map(|c| &c.texture_frames)
        .find(|t| t.mesh == mesh && t.team_colour)
        .map(|t| t.offset(t.frame_at(0.0, team)))
}

/// glTF vertex attributes being collected for one mesh.
#[derive(Default)]
struct Vertices {
    map: HashMap<(u32, [u32; 3], [u32; 4], bool), u32>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uv0: Vec<[f32; 2]>,
    uv1: Vec<[f32; 2]>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
}

/// Joints and weights of point `p` for glTF: weights normalised to sum 1 (only joints
/// the skin has count), unused slots zero; a point with no weight goes to the static
/// joint with weight 1 (it stays where it is, as in the viewer).
fn influence(
    m: &Mesh,
    p: usize,
    joint_count: usize,
    static_joint: Option<u16>,
) -> ([u16; 4], [f32; 4]) {
    let inf = m.influences.get(p).copied().unwrap_or_default();
    let mut joints = [0u16; 4];
    let mut weights = [0f32; 4];
    let mut total = 0.0;
    for k in 0..4 {
        if inf.weights[k] > 0.0 && (inf.joints[k] as usize) < joint_count {
            joints[k] = inf.joints[k];
            weights[k] = inf.weights[k];
            total += inf.weights[k];
        }
    }
    if total <= 0.0 {
        return ([static_joint.unwrap_or(0), 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
    }
    for w in &mut weights {
        *w /= total;
    }
    (joints, weights)
}

/// Exports every mesh of `model`.
pub(crate) fn export_meshes(
    doc: &mut Document,
    materials: &mut Materials,
    cache: &mut ImageCache,
    model: &Model,
    settings: &MeshSettings,
) -> ExportedMeshes {
    let mut out = ExportedMeshes::default();
    for (i, m) in model.meshes.iter().enumerate() {
        let (mesh, skinned, animated) = export_mesh(doc, materials, cache, model, settings, i, m);
        out.meshes.push(mesh);
        out.skinned.push(skinned);
        out.animated_materials.push(animated);
    }
    out
}

fn export_mesh(
    doc: &mut Document,
    materials: &mut Materials,
    cache: &mut ImageCache,
    model: &Model,
    settings: &MeshSettings,
    index: usize,
    m: &Mesh,
) -> (
    Option<json::Index<json::Mesh>>,
    bool,
    Vec<json::Index<json::Material>>,
) {
    if m.triangle_count() == 0 {
        return (None, false, Vec::new());
    }
    let skin = m
        .skin
        .filter(|_| !m.influences.is_empty())
        .and_then(|s| model.skins.get(s).map(|sk| (s, sk.joints.len())));
    let team_offset = team_offset(model, index, settings.team);
    let texture_animated = settings
        .texture_animated
        .get(index)
        .copied()
        .unwrap_or(false);
    let textured = m.submeshes.iter().any(|s| {
        model
            .materials
            .get(s.material)
            .is_some_and(|mat| mat.base.is_some())
    });
    let write_uv0 = m.uv_sets >= 1 || textured;
    let write_uv1 = m.uv_sets >= 2;

    let mut v = Vertices::default();
    // Triangle indices per (submesh, animated), and each triangle's UV rectangle.
    let mut groups: BTreeMap<(usize, bool), Vec<u32>> = BTreeMap::new();
    let mut rects: BTreeMap<(usize, bool), Vec<UvRect>> = BTreeMap::new();
    for (si, sub) in m.submeshes.iter().enumerate() {
        let first = sub.first_triangle as usize;
        for t in first..first + sub.triangle_count as usize {
            let Some(tri) = m.corners.get(t * 3..t * 3 + 3) else {
                continue;
            };
            let face = m.face_normal(t);
            let animated = tri.iter().any(|c| c.animated);
            let animated_group = animated && (texture_animated || team_offset.is_some());
            let list = groups.entry((si, animated_group)).or_default();
            let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
            for c in tri {
                let normal = unit_normal(c.normal.unwrap_or(face), face);
                let uv = c.uv;
                lo = [lo[0].min(uv[0].x), lo[1].min(uv[0].y)];
                hi = [hi[0].max(uv[0].x), hi[1].max(uv[0].y)];
                let key = (
                    c.point,
                    normal.to_array().map(f32::to_bits),
                    [uv[0].x, uv[0].y, uv[1].x, uv[1].y].map(f32::to_bits),
                    animated_group,
                );
                let next = v.positions.len() as u32;
                let id = *v.map.entry(key).or_insert(next);
                if id == next {
                    let p = m.points[c.point as usize] * settings.scale;
                    v.positions.push(p.to_array());
                    v.normals.push(normal.to_array());
                    v.uv0.push(uv[0].to_array());
                    v.uv1.push(uv[1].to_array());
                    if let Some((s, count)) = skin {
                        let static_joint = settings.static_joint.get(s).copied().flatten();
                        let (j, w) = influence(m, c.point as usize, count, static_joint);
                        v.joints.push(j);
                        v.weights.push(w);
                    }
                }
                list.push(id);
            }
            rects
                .entry((si, animated_group))
                .or_default()
                .push((lo, hi));
        }
    }

    let mut attributes = BTreeMap::new();
    attributes.insert(
        Valid(json::mesh::Semantic::Positions),
        doc.floats(&v.positions, true, true),
    );
    attributes.insert(
        Valid(json::mesh::Semantic::Normals),
        doc.floats(&v.normals, false, true),
    );
    if write_uv0 {
        attributes.insert(
            Valid(json::mesh::Semantic::TexCoords(0)),
            doc.floats(&v.uv0, false, true),
        );
    }
    if write_uv1 {
        attributes.insert(
            Valid(json::mesh::Semantic::TexCoords(1)),
            doc.floats(&v.uv1, false, true),
        );
    }
    if skin.is_some() {
        attributes.insert(
            Valid(json::mesh::Semantic::Joints(0)),
            doc.joints(&v.joints),
        );
        attributes.insert(
            Valid(json::mesh::Semantic::Weights(0)),
            doc.floats(&v.weights, false, true),
        );
    }

    let mut animated_materials = Vec::new();
    let mut primitives = Vec::new();
    for ((si, animated), indices) in groups {
        let material = m.submeshes[si].material;
        let mat = (material < model.materials.len()).then(|| {
            materials.get(
                doc,
                cache,
                model,
                settings.team,
                material,
                animated.then_some(index),
            )
        });
        if let Some(mat) = mat {
            if animated {
                animated_materials.push(mat);
            }
            for &(lo, hi) in rects.get(&(si, animated)).into_iter().flatten() {
                materials.note_uvs(mat, lo, hi);
            }
        }
        primitives.push(json::mesh::Primitive {
            attributes: attributes.clone(),
            extensions: None,
            extras: None,
            indices: Some(doc.indices(&indices)),
            material: mat,
            mode: Valid(json::mesh::Mode::Triangles),
            targets: None,
        });
    }
    animated_materials.sort_by_key(|m| m.value());
    animated_materials.dedup();
    let mesh = doc.root.push(json::Mesh {
        extensions: None,
        extras: None,
        name: Some(m.name.clone()),
        primitives,
        weights: None,
    });
    (Some(mesh), skin.is_some(), animated_materials)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Corner, Format, Material, SkinInfluence, Submesh};

    /// Two triangles sharing an edge: the shared corners are identical, so they share
    /// glTF vertices; a corner with another UV at the same point gets its own vertex.
    #[test]
    fn identical_corners_share_a_vertex_and_different_ones_split() {
        let mut model = Model::new(Format::Pmf, "test");
        model.materials.push(Material::new("m", [1.0; 4]));
        let p = |x, y| Vec3::new(x, y, 0.0);
        let c = |i, u: f32| Corner::new(i, Vec2::new(u, 0.0));
        model.meshes.push(Mesh {
            name: "quad".into(),
            points: vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)],
            corners: vec![
                c(0, 0.0),
                c(1, 0.0),
                c(2, 0.0),
                c(0, 0.0),
                c(2, 0.0),
                c(3, 0.5),
            ],
            submeshes: vec![Submesh {
                first_triangle: 0,
                triangle_count: 2,
                material: 0,
            }],
            uv_sets: 1,
            ..Mesh::default()
        });
        model.meshes[0].corners[4].uv[0].x = 0.25;
        let mut doc = Document::default();
        let settings = MeshSettings {
            scale: 2.0,
            team: 0,
            texture_animated: &[false],
            static_joint: &[],
        };
        let out = export_meshes(
            &mut doc,
            &mut Materials::default(),
            &mut ImageCache::new(&crate::files::Files::new(crate::files::MemorySource::new())),
            &model,
            &settings,
        );
        assert!(out.meshes[0].is_some());
        // Corner 3 repeats corner 0 (shared); corner 4 differs from corner 2 by its UV.
        let positions = &doc.root.accessors[0];
        assert_eq!(positions.count.0, 5);
        assert_eq!(positions.max, Some(serde_json::json!([2.0, 2.0, 0.0])));
        assert_eq!(doc.root.meshes[0].primitives.len(), 1);
    }

    #[test]
    fn weights_are_normalised_and_unweighted_points_go_to_the_static_joint() {
        let m = Mesh {
            influences: vec![
                SkinInfluence {
                    joints: [1, 9, 0, 0],
                    weights: [0.2, 0.5, 0.2, 0.0],
                },
                SkinInfluence::default(),
            ],
            ..Mesh::default()
        };
        // Joint 9 is out of range for a 3-joint skin: its weight is dropped.
        let (j, w) = influence(&m, 0, 3, Some(3));
        assert_eq!(j, [1, 0, 0, 0]);
        assert!((w[0] - 0.5).abs() < 1e-6 && (w[2] - 0.5).abs() < 1e-6 && w[1] == 0.0);
        assert_eq!(
            influence(&m, 1, 3, Some(3)),
            ([3, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
        );
    }
}
