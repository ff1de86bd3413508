//! Filling the [`Model`] from typed TPM blocks.
//!
//! # Axes
//! TPM is the 3ds Max frame: right-handed, **Z up** (X left/right, Y front/back). The
//! model is right-handed, Y up. With `F` = `FileAxes::z_up_right_handed`
//! (`(x, y, z)` → `(x, z, −y)`, a proper rotation, so winding is kept):
//! points and normals become `F·p`, and an instance's file transform
//! `W = T(position) · Rz · Ry · Rx · S(scale)` (degrees, X applied first, column vectors)
//! becomes the node transform `F·W·F⁻¹`: translation `F·position`, rotation
//! `qF · (Rz·Ry·Rx) · qF⁻¹`, the same uniform scale. So a model-space world position is
//! `F·W·p_file`, and `F⁻¹` of it is the file-space answer a modder's editor shows.
//! UVs have their origin bottom-left in TPM; the model's is top-left, so `v' = 1 − v`.
//!
//! # Nodes
//! One [`NodeKind::Instance`] node per `instance` whose mesh exists (several may share
//! one mesh); one [`NodeKind::Part`] node at identity for each mesh or skin that no
//! instance places. Bones become [`NodeKind::Bone`] children of every node that shows
//! their skin, placed with their own position and Euler rotation (read like an
//! instance's, X then Y then Z — the spec says "Euler angles (XYZ)"; the Blender add-on's
//! ZYX bone display is a known bug), in the skin's local space. A bone that names no skin
//! of the file becomes a root node with a warning.
//!
//! # Skins (drawn static)
//! A `skin` block becomes an ordinary [`Mesh`] with [`Mesh::skin`] left `None`, so every
//! renderer draws it rigidly at its node, exactly as authored. Its vertex → bone binding
//! is kept for display (colour by bone, joint markers): [`Mesh::influences`] has one
//! entry per point whose `joints[0]` indexes the joints of the [`crate::model::Skin`] of
//! the **same name** in [`Model::skins`] (weight 1), or all-zero weights when unbound
//! (a negative index, an index ≥ 100, or a bone block that does not exist). That skin's
//! joints are the bone nodes under the first node showing the mesh, in file order, and
//! its inverse bind matrices are the inverses of their rest world matrices, so even a
//! renderer that did skin it would leave the rest pose unchanged.
//!
//! # Materials
//! One [`Material`] per `material` block, in file order: `colormap` → base texture,
//! `opacitymap` → opacity with [`AlphaSource::Luminance`] (Trespasser opacity maps are
//! 8-bit palettised grey ramps; the palette's luminance is the mask, and luminance also
//! works for 24-bit grey maps where the red channel of a tinted palette would not),
//! alpha-tested and double-sided (the add-on writes mirrored faces for such materials);
//! `bumpmap` → a recorded [`TextureRole::Bump`] texture. A mesh `m` line naming no
//! material block gets one neutral grey placeholder material of that name and a warning.

use super::blocks::{BoneDef, MaterialDef, MeshDef, TpmFile};
use crate::model::details::TpmSkin;
use crate::model::{
    AlphaSource, BlendMode, Corner, FileAxes, Format, Location, Material, Mesh, Model, Node,
    NodeKind, Pose, Skin, SkinInfluence, Submesh, TextureRef, TextureRole,
};
use glam::{Mat4, Quat, Vec2, Vec3};
use std::collections::HashMap;

/// Colour of a material block without a colour map.
const UNTEXTURED: [f32; 4] = [0.8, 0.8, 0.8, 1.0];
/// Colour of the placeholder for a material name with no block.
const MISSING: [f32; 4] = [0.5, 0.5, 0.5, 1.0];

/// File → model axis change for points, vectors and rotations.
struct Axes {
    f: Mat4,
    q: Quat,
}

fn v3(p: [f64; 3]) -> Vec3 {
    Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32)
}

impl Axes {
    fn new(axes: &FileAxes) -> Self {
        Axes {
            f: axes.model_from_file,
            q: Quat::from_mat4(&axes.model_from_file),
        }
    }

    fn point(&self, p: [f64; 3]) -> Vec3 {
        self.f.transform_point3(v3(p))
    }

    fn normal(&self, n: [f64; 3]) -> Option<Vec3> {
        let n = self.f.transform_vector3(v3(n)).normalize_or_zero();
        (n != Vec3::ZERO).then_some(n)
    }

    /// `Rz·Ry·Rx` from Euler degrees (X first), conjugated into model axes.
    fn rotation(&self, degrees: [f64; 3]) -> Quat {
        let [x, y, z] = degrees.map(|d| d.to_radians() as f32);
        let file = Quat::from_rotation_z(z) * Quat::from_rotation_y(y) * Quat::from_rotation_x(x);
        (self.q * file * self.q.conjugate()).normalize()
    }

    /// A node placed by a file position, Euler rotation and uniform scale.
    fn node(&self, mut node: Node, position: [f64; 3], rotation: [f64; 3], scale: f64) -> Node {
        node.translation = self.point(position);
        node.rotation = self.rotation(rotation);
        node.scale = Vec3::splat(scale as f32);
        node
    }
}

/// Model materials and textures from the material blocks; returns name → material.
fn materials<'a>(model: &mut Model, defs: &'a [MaterialDef]) -> HashMap<&'a str, usize> {
    let mut by_name = HashMap::new();
    let mut textures: HashMap<(TextureRole, &str), usize> = HashMap::new();
    let mut texture = |model: &mut Model, role: TextureRole, name: &'a str| {
        *textures.entry((role, name)).or_insert_with(|| {
            model.textures.push(TextureRef::new(role, name));
            model.textures.len() - 1
        })
    };
    for def in defs {
        let mut m = Material::new(&def.name, UNTEXTURED);
        if let Some(c) = &def.colormap {
            m.base = Some(texture(model, TextureRole::Base, c));
            m.base_color = [1.0; 4];
        }
        if let Some(o) = &def.opacitymap {
            m.opacity = Some(texture(model, TextureRole::Opacity, o));
            m.opacity_source = AlphaSource::Luminance;
            m.blend = BlendMode::AlphaTest;
            m.double_sided = true;
        }
        if let Some(b) = &def.bumpmap {
            m.bump = Some(texture(model, TextureRole::Bump, b));
        }
        model.materials.push(m);
        if let Some(&first) = by_name.get(def.name.as_str()) {
            let first_line = defs.get(first).map_or(0, |d: &MaterialDef| d.line);
            model.warn(
                Location::Line(def.line),
                format!(
                    "material \"{}\" is defined again; meshes use the first definition (line {first_line})",
                    def.name
                ),
            );
        } else {
            by_name.insert(def.name.as_str(), model.materials.len() - 1);
        }
    }
    by_name
}

/// Consecutive faces with the same material as submeshes.
fn submeshes(face_materials: &[usize]) -> Vec<Submesh> {
    let mut out: Vec<Submesh> = Vec::new();
    for (t, &material) in face_materials.iter().enumerate() {
        match out.last_mut() {
            Some(s) if s.material == material => s.triangle_count += 1,
            _ => out.push(Submesh {
                first_triangle: t as u32,
                triangle_count: 1,
                material,
            }),
        }
    }
    out
}

/// Geometry of one mesh/skin block (influences are filled later for skins).
fn mesh(axes: &Axes, def: &MeshDef, material_of_m: &[usize]) -> Mesh {
    let normals: Vec<Option<Vec3>> = def.normals.iter().map(|&n| axes.normal(n)).collect();
    let uvs: Vec<Vec2> = def
        .uvs
        .iter()
        .map(|t| Vec2::new(t[0] as f32, 1.0 - t[1] as f32))
        .collect();
    let mut corners = Vec::with_capacity(def.faces.len() * 3);
    for f in &def.faces {
        for k in 0..3 {
            corners.push(Corner {
                point: f.v[k],
                // Indices were range-checked in `blocks`.
                normal: normals.get(f.n[k] as usize).copied().flatten(),
                uv: [
                    uvs.get(f.t[k] as usize).copied().unwrap_or(Vec2::ZERO),
                    Vec2::ZERO,
                ],
                animated: false,
            });
        }
    }
    let face_materials: Vec<usize> = def
        .faces
        .iter()
        .map(|f| material_of_m.get(f.m as usize).copied().unwrap_or(0))
        .collect();
    Mesh {
        name: def.name.clone(),
        points: def.positions.iter().map(|&p| axes.point(p)).collect(),
        influences: Vec::new(),
        corners,
        submeshes: submeshes(&face_materials),
        skin: None,
        uv_sets: 1,
        point_alpha: Vec::new(),
        point_light: Vec::new(),
        surface_layer: false,
    }
}

/// `(skin name, NN)` of a bone named `$J<skin><NN>`.
pub(super) fn bone_target(name: &str) -> Option<(&str, u8)> {
    let rest = name.strip_prefix("$J")?;
    let split = rest.len().checked_sub(2)?;
    let (skin, digits) = (rest.get(..split)?, rest.get(split..)?);
    if skin.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((skin, digits.parse().ok()?))
}

/// Everything the node pass needs to know about one skin mesh.
struct SkinBones {
    /// `(bone block index, NN)` in file order.
    bones: Vec<(usize, u8)>,
    /// Bone nodes under the first node that shows the skin.
    joint_nodes: Vec<usize>,
}

/// Adds `bones` as children of `parent`; returns their node indices.
fn add_bones(
    model: &mut Model,
    axes: &Axes,
    defs: &[BoneDef],
    bones: &[(usize, u8)],
    parent: usize,
) -> Vec<usize> {
    bones
        .iter()
        .filter_map(|&(b, _)| defs.get(b))
        .map(|b| {
            let node = Node::new(&b.name, Some(parent), NodeKind::Bone);
            model
                .nodes
                .push(axes.node(node, b.position, b.rotation, 1.0));
            model.nodes.len() - 1
        })
        .collect()
}

/// Builds the model. Never fails: everything was checked by [`super::blocks`].
pub(crate) fn build(file: TpmFile) -> Model {
    let mut model = Model::new(Format::Tpm, file.fileinfo.formatversion.as_str());
    model.axes = FileAxes::z_up_right_handed();
    model.diagnostics = file.warnings.clone();
    let axes = Axes::new(&model.axes);

    let material_index = materials(&mut model, &file.materials);

    // Meshes, with placeholder materials for names that have no block.
    let mut placeholders: HashMap<&str, usize> = HashMap::new();
    let mut face_material_names: Vec<Vec<String>> = Vec::new();
    for def in &file.meshes {
        let mut of_m = Vec::with_capacity(def.materials.len());
        for (name, line) in &def.materials {
            let index = match material_index.get(name.as_str()) {
                Some(&i) => i,
                None => {
                    model.warn(
                        Location::Line(*line),
                        format!(
                            "{} \"{}\": no material block named \"{name}\"; its faces are drawn in neutral grey",
                            if def.skin { "skin" } else { "mesh" },
                            def.name
                        ),
                    );
                    *placeholders.entry(name.as_str()).or_insert_with(|| {
                        model.materials.push(Material::new(name.as_str(), MISSING));
                        model.materials.len() - 1
                    })
                }
            };
            of_m.push(index);
        }
        face_material_names.push(
            def.faces
                .iter()
                .map(|f| {
                    def.materials
                        .get(f.m as usize)
                        .map_or(String::new(), |m| m.0.clone())
                })
                .collect(),
        );
        model.meshes.push(mesh(&axes, def, &of_m));
    }

    // Names → meshes (the first of a repeated name wins).
    let mut mesh_by_name: HashMap<&str, usize> = HashMap::new();
    for (i, def) in file.meshes.iter().enumerate() {
        if let Some(&first) = mesh_by_name.get(def.name.as_str()) {
            let first_line = file.meshes.get(first).map_or(0, |d| d.line);
            model.warn(
                Location::Line(def.line),
                format!(
                    "a second mesh or skin named \"{}\"; instances use the first (line {first_line}); this one is shown once at the origin",
                    def.name
                ),
            );
        } else {
            mesh_by_name.insert(def.name.as_str(), i);
        }
    }

    // Bones → skins.
    let mut skin_bones: HashMap<usize, SkinBones> = HashMap::new();
    let mut orphans = Vec::new();
    for (b, bone) in file.bones.iter().enumerate() {
        let target = bone_target(&bone.name).and_then(|(skin, nn)| {
            let &mesh = mesh_by_name.get(skin)?;
            file.meshes.get(mesh).filter(|m| m.skin)?;
            Some((mesh, nn))
        });
        match target {
            Some((mesh, nn)) => skin_bones
                .entry(mesh)
                .or_insert_with(|| SkinBones {
                    bones: Vec::new(),
                    joint_nodes: Vec::new(),
                })
                .bones
                .push((b, nn)),
            None => orphans.push(b),
        }
    }

    // Nodes: instances in file order, then unplaced meshes at identity, then orphan bones.
    let mut placed = vec![false; file.meshes.len()];
    let mut attach = |model: &mut Model, mesh: usize, node: usize| {
        if let Some(sb) = skin_bones.get_mut(&mesh) {
            let nodes = add_bones(model, &axes, &file.bones, &sb.bones, node);
            if sb.joint_nodes.is_empty() {
                sb.joint_nodes = nodes;
            }
        }
    };
    let mut instance_shown = Vec::with_capacity(file.instances.len());
    for inst in &file.instances {
        let Some(mesh_name) = &inst.mesh else {
            model.warn(
                Location::Line(inst.line),
                format!("instance \"{}\" has no `mesh`; not shown", inst.name),
            );
            instance_shown.push(false);
            continue;
        };
        let Some(&mesh) = mesh_by_name.get(mesh_name.as_str()) else {
            model.warn(
                Location::Line(inst.line),
                format!(
                    "instance \"{}\" uses mesh \"{mesh_name}\", which no mesh or skin block defines; skipped",
                    inst.name
                ),
            );
            instance_shown.push(false);
            continue;
        };
        let mut node = Node::new(&inst.name, None, NodeKind::Instance);
        node.mesh = Some(mesh);
        model
            .nodes
            .push(axes.node(node, inst.position, inst.rotation, inst.scale));
        placed[mesh] = true;
        instance_shown.push(true);
        let index = model.nodes.len() - 1;
        attach(&mut model, mesh, index);
    }
    for (mesh, def) in file.meshes.iter().enumerate() {
        if !placed[mesh] {
            model.source.notes.push(crate::model::Diagnostic::coded(
                "tpm/mesh-not-instanced",
                Location::Line(def.line),
                format!(
                    "{} \"{}\" is placed by no instance (shown once at the origin)",
                    if def.skin { "skin" } else { "mesh" },
                    def.name
                ),
            ));
            let mut node = Node::new(&def.name, None, NodeKind::Part);
            node.mesh = Some(mesh);
            model.nodes.push(node);
            let index = model.nodes.len() - 1;
            attach(&mut model, mesh, index);
        }
    }
    for &b in &orphans {
        let bone = &file.bones[b];
        model.warn(
            Location::Line(bone.line),
            format!(
                "bone \"{}\" names no skin of this file (bones are named $J<skin><two digits>); shown at the origin",
                bone.name
            ),
        );
        let node = Node::new(&bone.name, None, NodeKind::Bone);
        model
            .nodes
            .push(axes.node(node, bone.position, bone.rotation, 1.0));
    }

    // Skins: bone binding kept for display; meshes stay static (see the module docs).
    let rest = Pose::rest(&model);
    let mut skins_json = Vec::new();
    for (mesh, def) in file.meshes.iter().enumerate().filter(|(_, d)| d.skin) {
        let (bones, joints) = skin_bones
            .get(&mesh)
            .map(|s| (s.bones.clone(), s.joint_nodes.clone()))
            .unwrap_or_default();
        let mut influences = Vec::with_capacity(def.bones.len());
        let mut vertex_bones = Vec::with_capacity(def.bones.len());
        let mut missing: Vec<(i64, usize)> = Vec::new();
        for &index in &def.bones {
            let joint = u8::try_from(index)
                .ok()
                .and_then(|nn| bones.iter().position(|&(_, n)| n == nn));
            match joint {
                Some(j) => {
                    influences.push(SkinInfluence {
                        joints: [j as u16, 0, 0, 0],
                        weights: [1.0, 0.0, 0.0, 0.0],
                    });
                    vertex_bones.push(Some(file.bones[bones[j].0].name.clone()));
                }
                None => {
                    if index >= 0 {
                        match missing.iter_mut().find(|(i, _)| *i == index) {
                            Some((_, n)) => *n += 1,
                            None => missing.push((index, 1)),
                        }
                    }
                    influences.push(SkinInfluence::default());
                    vertex_bones.push(None);
                }
            }
        }
        for (index, count) in missing {
            let why = if index > 99 {
                "bone names have two digits, so it can name no bone".to_string()
            } else {
                format!("there is no bone \"$J{}{index:02}\"", def.name)
            };
            model.diagnostics.push(crate::model::Diagnostic::coded(
                "tpm/unbound-vertices",
                Location::Line(def.line),
                format!(
                    "skin \"{}\": {count} vertices use bone index {index}, but {why}; they are left unbound",
                    def.name
                ),
            ));
        }
        let inverse_bind = joints
            .iter()
            .map(|&j| {
                let w = rest.world.get(j).copied().unwrap_or(Mat4::IDENTITY);
                if w.determinant().abs() > 1e-12 {
                    w.inverse()
                } else {
                    Mat4::IDENTITY
                }
            })
            .collect();
        let unbound: Vec<usize> = def
            .bones
            .iter()
            .enumerate()
            .filter(|(i, _)| vertex_bones.get(*i).is_some_and(Option::is_none))
            .map(|(i, _)| i + 1)
            .collect();
        skins_json.push(TpmSkin {
            name: def.name.clone(),
            mesh,
            skin: model.skins.len(),
            bones: bones
                .iter()
                .map(|&(b, _)| file.bones[b].name.clone())
                .collect(),
            vertex_bones,
            vertex_bone_indices: def.bones.clone(),
            unbound_vertices_1based: unbound,
        });
        if let Some(m) = model.meshes.get_mut(mesh) {
            m.influences = influences;
        }
        model.skins.push(Skin {
            name: def.name.clone(),
            joints,
            inverse_bind,
        });
    }

    super::details::properties(&mut model, &file);
    model.details =
        super::details::details(&file, &face_material_names, &instance_shown, skins_json);
    model
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bone_names() {
        let cases: &[(&str, Option<(&str, u8)>)] = &[
            ("$JRaptorB23", Some(("RaptorB", 23))),
            ("$JTail00", Some(("Tail", 0))),
            ("$JTail7", None),
            ("$J00", None),
            ("JTail00", None),
            ("$JTailx1", None),
            ("$JÄ01", Some(("Ä", 1))),
            ("$J", None),
        ];
        for (name, want) in cases {
            assert_eq!(bone_target(name), *want, "{name}");
        }
    }

    #[test]
    fn axes_conjugate_rotations() {
        let axes = Axes::new(&FileAxes::z_up_right_handed());
        // A quarter turn about file Z (up) is a quarter turn about model Y (up).
        let q = axes.rotation([0.0, 0.0, 90.0]);
        assert!(q.abs_diff_eq(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2), 1e-6));
        // File +Y (forward) → model −Z.
        assert!(axes.point([0.0, 1.0, 0.0]).abs_diff_eq(Vec3::NEG_Z, 1e-6));
    }

    #[test]
    fn runs_of_materials() {
        let s = submeshes(&[0, 0, 1, 1, 1, 0]);
        let runs: Vec<_> = s
            .iter()
            .map(|s| (s.first_triangle, s.triangle_count, s.material))
            .collect();
        assert_eq!(runs, [(0, 2, 0), (2, 3, 1), (5, 1, 0)]);
    }
}
