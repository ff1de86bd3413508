//! The glTF document → [`Model`]: nodes (levels, parts, groups), meshes, connectors and
//! shadow meshes by the naming conventions of [`super`], then materials and clips.

use super::data::{self, Buffer, Container};
use super::materials::Materials;
use super::{extras, numbered};
use crate::files::{FileRef, Files};
use crate::formats::{ErrorKind, LoadError};
use crate::model::details::{Details, GltfDetails, GltfSource, PieDetails};
use crate::model::{
    Connector, Corner, FileAxes, Format, Location, Mesh, Model, ModelEvent, Node, NodeKind,
    ShadowMesh, Submesh,
};
use glam::{Mat4, Quat, Vec2, Vec3};
use gltf::mesh::Mode;
use serde_json::Value;
use std::collections::HashMap;

/// What the document and its bytes are.
pub struct Source<'a> {
    /// The validated document.
    pub doc: &'a gltf::Document,
    /// Its buffers' bytes.
    pub buffers: &'a [Buffer],
    /// The file it was read from, if known.
    pub holder: Option<&'a FileRef>,
    /// What files beside it are looked up in, if any.
    pub files: Option<&'a Files>,
    /// Its container (for `data:` URI images inside the JSON).
    pub container: &'a Container<'a>,
}

fn invalid(message: String) -> LoadError {
    LoadError::new(ErrorKind::Invalid, Location::File, message)
}

/// What a glTF node becomes.
enum Role {
    /// A model node (its index).
    Node(usize),
    /// A connector: its number, the model node it belongs to (if any), its translation.
    Connector,
    /// A shadow mesh of the model node given.
    Shadow,
}

/// The rest transform of a glTF node, its translation scaled by `undo`.
fn trs(node: &gltf::Node<'_>, undo: f32) -> Result<(Vec3, Quat, Vec3), LoadError> {
    let (t, r, s) = node.transform().decomposed();
    let (t, r, s) = (Vec3::from(t) * undo, Quat::from_array(r), Vec3::from(s));
    if !(t.is_finite() && r.is_finite() && s.is_finite()) {
        return Err(invalid(format!(
            "node {} ({:?}): its transform is not finite",
            node.index(),
            node.name().unwrap_or("")
        )));
    }
    let r = if r.length_squared() > 0.0 {
        r.normalize()
    } else {
        Quat::IDENTITY
    };
    Ok((t, r, s))
}

/// Builds the model.
pub fn build(src: Source<'_>) -> Result<Model, LoadError> {
    let doc = src.doc;
    let scene = doc.default_scene().or_else(|| doc.scenes().next());
    let facts = scene.as_ref().map_or(Value::Null, |s| extras(s.extras()));
    let generator = doc.as_json().asset.generator.clone().unwrap_or_default();
    let vitrine = generator.starts_with("Vitrine");
    let scale = facts["scale"].as_f64().filter(|s| vitrine && *s > 0.0);
    let undo = scale.map_or(1.0, |s| (1.0 / s) as f32);
    let from_pie = vitrine && facts["format"] == "pie";

    let mut model = Model::new(Format::Gltf, "2.0");
    model.axes = FileAxes::y_up_right_handed();

    // Roots: the scene's nodes, else every node no other node has as a child.
    let mut has_parent = vec![false; doc.nodes().len()];
    for n in doc.nodes() {
        for c in n.children() {
            has_parent[c.index()] = true;
        }
    }
    let mut roots: Vec<gltf::Node<'_>> = match &scene {
        Some(s) => s.nodes().collect(),
        None => doc.nodes().filter(|n| !has_parent[n.index()]).collect(),
    };
    let named_levels = doc
        .nodes()
        .any(|n| n.name().and_then(|s| numbered(s, "level")).is_some());
    if named_levels {
        roots.sort_by_key(|n| {
            n.name()
                .and_then(|s| numbered(s, "level"))
                .unwrap_or(u32::MAX)
        });
    }

    // Depth first, parents before children; each glTF node visited once.
    let mut roles: HashMap<usize, Role> = HashMap::new();
    let mut connectors: Vec<(u32, Option<usize>, gltf::Node<'_>)> = Vec::new();
    let mut shadows: Vec<(usize, gltf::Node<'_>)> = Vec::new();
    let mut stack: Vec<(gltf::Node<'_>, Option<usize>, bool)> =
        roots.into_iter().rev().map(|n| (n, None, true)).collect();
    let mut mesh_of: HashMap<usize, usize> = HashMap::new();
    let mut meshes_to_build: Vec<gltf::Mesh<'_>> = Vec::new();
    while let Some((node, parent, top)) = stack.pop() {
        if roles.contains_key(&node.index()) {
            continue;
        }
        let name = node.name().unwrap_or("").to_string();
        let mesh = node.mesh();
        if mesh.is_none()
            && let Some(n) = numbered(&name, "connector")
        {
            roles.insert(node.index(), Role::Connector);
            connectors.push((n, parent, node));
            continue;
        }
        let shadow_named = name.eq_ignore_ascii_case("shadow")
            || mesh
                .as_ref()
                .is_some_and(|m| m.name().is_some_and(|s| s.eq_ignore_ascii_case("shadow")));
        if let (Some(p), true, true) = (parent, shadow_named, mesh.is_some()) {
            roles.insert(node.index(), Role::Shadow);
            shadows.push((p, node));
            continue;
        }
        let kind = if numbered(&name, "level").is_some() || (!named_levels && top && mesh.is_some())
        {
            NodeKind::Level
        } else if mesh.is_some() {
            NodeKind::Part
        } else {
            NodeKind::Group
        };
        let (t, r, s) = trs(&node, undo)?;
        let index = model.nodes.len();
        let mut n = Node::new(
            if name.is_empty() {
                format!("node {}", node.index())
            } else {
                name
            },
            parent,
            kind,
        );
        (n.translation, n.rotation, n.scale) = (t, r, s);
        if let Some(m) = mesh {
            let next = meshes_to_build.len();
            n.mesh = Some(*mesh_of.entry(m.index()).or_insert_with(|| {
                meshes_to_build.push(m.clone());
                next
            }));
        }
        if node.skin().is_some() {
            model.warn(
                Location::File,
                format!("node {:?}: skinning is not read; drawn at rest", n.name),
            );
        }
        model.nodes.push(n);
        roles.insert(node.index(), Role::Node(index));
        for c in node.children().collect::<Vec<_>>().into_iter().rev() {
            stack.push((c, Some(index), false));
        }
    }

    let mut materials = Materials::new(&src, from_pie);
    for m in &meshes_to_build {
        let mesh = mesh(m, src.buffers, undo, &mut materials, &mut model)?;
        model.meshes.push(mesh);
    }
    materials.finish(&mut model);

    // Connectors, by number.
    connectors.sort_by_key(|(n, _, _)| *n);
    let world = world_matrices(&model);
    for (_, parent, node) in &connectors {
        let (t, _, _) = trs(node, undo)?;
        let (owner, position) = match parent {
            Some(p) => (*p, t),
            None => {
                if model.nodes.is_empty() {
                    model.nodes.push(Node::new("scene", None, NodeKind::Group));
                }
                let owner = model
                    .nodes
                    .iter()
                    .position(|n| n.kind == NodeKind::Level)
                    .unwrap_or(0);
                let inv = world
                    .get(owner)
                    .copied()
                    .unwrap_or(Mat4::IDENTITY)
                    .inverse();
                (owner, inv.transform_point3(t))
            }
        };
        let file_xyz = extras(node.extras())["file_xyz"].clone();
        let raw = match serde_json::from_value::<[f32; 3]>(file_xyz) {
            Ok(r) if r.iter().all(|v| v.is_finite()) => r,
            _ => [-position.x, position.z, position.y],
        };
        model.connectors.push(Connector {
            node: owner,
            raw,
            position,
        });
    }

    // Shadow meshes, in their level's space.
    for (owner, node) in &shadows {
        let (t, r, s) = trs(node, undo)?;
        let local = Mat4::from_scale_rotation_translation(s, r, t);
        if let Some(m) = node.mesh() {
            let shadow = shadow_mesh(&m, src.buffers, undo, local, *owner)?;
            model.shadow_meshes.push(shadow);
        }
    }
    model.shadow_meshes.sort_by_key(|s| s.node);

    let map: HashMap<usize, usize> = roles
        .iter()
        .filter_map(|(&g, r)| match r {
            Role::Node(i) => Some((g, *i)),
            _ => None,
        })
        .collect();
    super::anim::clips(doc, src.buffers, &map, undo, &facts, &mut model)?;

    facts_of(&mut model, &facts, &generator, scale);
    Ok(model)
}

/// Each model node's rest world matrix.
fn world_matrices(model: &Model) -> Vec<Mat4> {
    let mut out: Vec<Mat4> = Vec::with_capacity(model.nodes.len());
    for n in &model.nodes {
        let local = Mat4::from_scale_rotation_translation(n.scale, n.rotation, n.translation);
        let parent = n.parent.and_then(|p| out.get(p)).copied();
        out.push(parent.map_or(local, |p| p * local));
    }
    out
}

/// Events, the PIE facts, panel lines and `info --json` details.
fn facts_of(model: &mut Model, facts: &Value, generator: &str, scale: Option<f64>) {
    if let Some(events) = facts["events"].as_array() {
        for e in events {
            if let (Some(kind), Some(file)) = (e["kind"].as_u64(), e["file"].as_str()) {
                model.events.push(ModelEvent {
                    kind: kind as u32,
                    file: file.to_string(),
                    resolved: None,
                });
            }
        }
    }
    let triangles: usize = model.meshes.iter().map(Mesh::triangle_count).sum();
    if !generator.is_empty() {
        model.property("Generator", generator);
    }
    model.property(
        "Levels",
        model
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Level)
            .count()
            .to_string(),
    );
    model.property("Triangles", triangles.to_string());
    if let Some(s) = scale {
        model.property(
            "Units",
            format!("exported by Vitrine at scale {s}; read back in the source's units"),
        );
    }
    let events: Vec<_> = model
        .events
        .iter()
        .map(|e| {
            (
                format!("Event {} ({})", e.kind, e.kind_name()),
                e.file.clone(),
            )
        })
        .collect();
    for (k, v) in events {
        model.property(k, v);
    }
    let pie: Option<PieDetails> = serde_json::from_value(facts["pie"].clone()).ok();
    if let Some(p) = &pie {
        model.property("Type flags (from the PIE)", p.type_flags.clone());
    }
    model.details = Details::Gltf(GltfDetails {
        generator: generator.to_string(),
        levels: model
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Level)
            .count(),
        connectors: model.connectors.len(),
        shadow_meshes: model.shadow_meshes.len(),
        source: scale.map(|scale| GltfSource {
            format: facts["format"].as_str().unwrap_or("").to_string(),
            scale,
        }),
        pie,
    });
    // A Vitrine export of a PIE comes back in PIE units (the export's scale undone): its
    // grid is the map tile, as the PIE's is.
    if model.units_format() == crate::model::Format::Pie {
        model.grid_unit = Some(crate::formats::pie::TILE);
    }
}

/// The triangles of a primitive as index triples into its vertices.
fn triangles(mode: Mode, indices: &[u32]) -> Option<Vec<[u32; 3]>> {
    let n = indices.len();
    Some(match mode {
        Mode::Triangles => indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect(),
        Mode::TriangleStrip => (0..n.saturating_sub(2))
            .map(|i| {
                if i % 2 == 0 {
                    [indices[i], indices[i + 1], indices[i + 2]]
                } else {
                    [indices[i + 1], indices[i], indices[i + 2]]
                }
            })
            .collect(),
        Mode::TriangleFan => (1..n.saturating_sub(1))
            .map(|i| [indices[i], indices[i + 1], indices[0]])
            .collect(),
        Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => return None,
    })
}

/// The indices of a primitive (0..n without an index accessor), each checked against
/// the `vertices` it may address.
fn primitive_indices(
    p: &gltf::Primitive<'_>,
    buffers: &[Buffer],
    vertices: usize,
    what: &dyn Fn(String) -> LoadError,
) -> Result<Vec<u32>, LoadError> {
    let Some(a) = p.indices() else {
        return Ok((0..vertices as u32).collect());
    };
    let indices = data::read_indices(&a, buffers).map_err(what)?;
    if let Some((k, &i)) = indices
        .iter()
        .enumerate()
        .find(|&(_, &i)| i as usize >= vertices)
    {
        return Err(what(format!(
            "index {i} (element {k} of accessor {}) is past its {vertices} vertices",
            a.index()
        )));
    }
    Ok(indices)
}

fn read_attr(
    p: &gltf::Primitive<'_>,
    semantic: gltf::Semantic,
    buffers: &[Buffer],
    vertices: Option<usize>,
    what: &dyn Fn(String) -> LoadError,
) -> Result<Option<data::Values>, LoadError> {
    let Some(a) = p.get(&semantic) else {
        return Ok(None);
    };
    let v = data::read(&a, buffers).map_err(what)?;
    if let Some(n) = vertices
        && v.len() != n
    {
        return Err(what(format!(
            "{semantic:?} has {} elements, POSITION {n}",
            v.len()
        )));
    }
    Ok(Some(v))
}

/// One glTF mesh → a model mesh: positions welded into points, one submesh per
/// primitive.
fn mesh(
    m: &gltf::Mesh<'_>,
    buffers: &[Buffer],
    undo: f32,
    materials: &mut Materials<'_>,
    model: &mut Model,
) -> Result<Mesh, LoadError> {
    let name = m.name().unwrap_or("").to_string();
    let mut out = Mesh {
        name: if name.is_empty() {
            format!("mesh {}", m.index())
        } else {
            name.clone()
        },
        ..Mesh::default()
    };
    let mut weld: HashMap<[u32; 3], u32> = HashMap::new();
    for p in m.primitives() {
        let pi = p.index();
        let what = |msg: String| {
            invalid(format!(
                "mesh {} ({name:?}) primitive {pi}: {msg}",
                m.index()
            ))
        };
        let Some(positions) = read_attr(&p, gltf::Semantic::Positions, buffers, None, &what)?
        else {
            return Err(what("no POSITION attribute".into()));
        };
        let n = positions.len();
        let normals = read_attr(&p, gltf::Semantic::Normals, buffers, Some(n), &what)?;
        let uv0 = read_attr(&p, gltf::Semantic::TexCoords(0), buffers, Some(n), &what)?;
        let uv1 = read_attr(&p, gltf::Semantic::TexCoords(1), buffers, Some(n), &what)?;
        let indices = primitive_indices(&p, buffers, n, &what)?;
        let Some(tris) = triangles(p.mode(), &indices) else {
            model.warn(
                Location::File,
                format!(
                    "mesh {name:?} primitive {pi}: {:?} are not drawn (only triangles are)",
                    p.mode()
                ),
            );
            continue;
        };
        let (material, animated) = materials.get(p.material(), model);
        let first = out.triangle_count() as u32;
        out.uv_sets = out
            .uv_sets
            .max(u8::from(uv0.is_some()) + u8::from(uv1.is_some()));
        for tri in &tris {
            for &v in tri {
                let v = v as usize;
                let pos = Vec3::from(positions.get::<3>(v)) * undo;
                let next = out.points.len() as u32;
                let point = *weld.entry(pos.to_array().map(f32::to_bits)).or_insert(next);
                if point == next {
                    out.points.push(pos);
                }
                let normal = normals.as_ref().map(|a| Vec3::from(a.get::<3>(v)));
                let normal = normal
                    .filter(|n| n.length_squared() > 0.0)
                    .map(Vec3::normalize);
                let uv = |a: &Option<data::Values>| {
                    a.as_ref().map_or(Vec2::ZERO, |a| Vec2::from(a.get::<2>(v)))
                };
                out.corners.push(Corner {
                    point,
                    normal,
                    uv: [uv(&uv0), uv(&uv1)],
                    animated,
                });
            }
        }
        if !tris.is_empty() {
            out.submeshes.push(Submesh {
                first_triangle: first,
                triangle_count: tris.len() as u32,
                material,
            });
        }
    }
    Ok(out)
}

/// A mesh named `shadow` → the shadow mesh of model node `owner`, its points moved by
/// `local` (the shadow node's transform) into the owner's space.
fn shadow_mesh(
    m: &gltf::Mesh<'_>,
    buffers: &[Buffer],
    undo: f32,
    local: Mat4,
    owner: usize,
) -> Result<ShadowMesh, LoadError> {
    let mut out = ShadowMesh {
        node: owner,
        ..ShadowMesh::default()
    };
    let mut weld: HashMap<[u32; 3], u32> = HashMap::new();
    for p in m.primitives() {
        let what = |msg: String| {
            invalid(format!(
                "shadow mesh {} primitive {}: {msg}",
                m.index(),
                p.index()
            ))
        };
        let Some(positions) = read_attr(&p, gltf::Semantic::Positions, buffers, None, &what)?
        else {
            return Err(what("no POSITION attribute".into()));
        };
        let indices = primitive_indices(&p, buffers, positions.len(), &what)?;
        for tri in triangles(p.mode(), &indices).unwrap_or_default() {
            out.triangles.push(tri.map(|v| {
                let pos = local.transform_point3(Vec3::from(positions.get::<3>(v as usize)) * undo);
                let next = out.points.len() as u32;
                let point = *weld.entry(pos.to_array().map(f32::to_bits)).or_insert(next);
                if point == next {
                    out.points.push(pos);
                }
                point
            }));
        }
    }
    Ok(out)
}
