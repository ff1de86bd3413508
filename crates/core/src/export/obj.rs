//! Wavefront OBJ export: the model at rest as an `.obj`, its materials as an `.mtl` and
//! the base textures as PNGs beside them (`<stem>-<page>.png`, the team colour baked in
//! as the glTF export bakes it, through the same [`ImageCache`]).
//!
//! One object per node with a mesh, named as the node with spaces as `_` (`level_1`, as
//! Blender writes it, which [`crate::formats::obj`] reads back as level 1); positions
//! and normals in the node's rest world space times the scale; V flipped to OBJ's
//! bottom-left origin; one `usemtl` per material run. OBJ has no place for connectors,
//! animation, shadow meshes or the PIE facts: use glTF for those.

use super::gltf::images::{self, ImageCache};
use crate::files::atomic;
use crate::model::{Model, Pose};
use glam::{Mat3, Vec2};
use std::collections::HashMap;
use std::fmt::Write;
use std::io;
use std::path::{Path, PathBuf};

/// How to export.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjOptions {
    /// Team colour index baked into team-coloured textures.
    pub team: usize,
    /// Uniform scale; `None` = the glTF export's default for the model.
    pub scale: Option<f32>,
}

/// An OBJ export in memory.
#[derive(Debug, Default)]
pub struct ObjDocument {
    /// The `.obj` text, without its `mtllib` line (the writer adds it).
    pub obj: String,
    /// The `.mtl` text, texture names relative (`{stem}` stands for the output's stem).
    pub mtl: String,
    /// PNGs: (name suffix after `<stem>-`, bytes).
    pub images: Vec<(String, std::sync::Arc<Vec<u8>>)>,
    /// Problems that did not stop the export.
    pub warnings: Vec<String>,
}

/// An OBJ/MTL name: no spaces (they end the name for many readers).
fn obj_name(s: &str) -> String {
    let s: String = s
        .trim()
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    if s.is_empty() { "unnamed".into() } else { s }
}

/// Builds the OBJ of `model` at rest.
pub fn export(
    model: &Model,
    options: &ObjOptions,
    cache: &mut ImageCache,
) -> Result<ObjDocument, String> {
    let scale = options
        .scale
        .unwrap_or_else(|| super::gltf::model_scale(model));
    if !(scale.is_finite() && scale > 0.0) {
        return Err(format!("scale {scale} is not a positive number"));
    }
    let mut doc = ObjDocument::default();
    let pose = Pose::rest(model);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Vitrine {} OBJ export, scale {scale}",
        env!("CARGO_PKG_VERSION")
    );
    let material_names = materials(model, options.team, cache, &mut doc);
    let (mut nv, mut nt, mut nn) = (0usize, 0usize, 0usize);
    for (ni, node) in model.nodes.iter().enumerate() {
        let Some(mesh) = node.mesh.and_then(|m| model.meshes.get(m)) else {
            continue;
        };
        if mesh.triangle_count() == 0 {
            continue;
        }
        let world = pose.world.get(ni).copied().unwrap_or_default();
        let normal_matrix = Mat3::from_mat4(world).inverse().transpose();
        let _ = writeln!(out, "o {}", obj_name(&node.name));
        for p in &mesh.points {
            let v = world.transform_point3(*p) * scale;
            let _ = writeln!(out, "v {} {} {}", v.x, v.y, v.z);
        }
        let normals = mesh.shading_normals();
        let mut vt: HashMap<[u32; 2], usize> = HashMap::new();
        let mut vn: HashMap<[u32; 3], usize> = HashMap::new();
        let mut faces = String::new();
        for sub in &mesh.submeshes {
            let name = material_names
                .get(sub.material)
                .map_or("default", String::as_str);
            let _ = writeln!(faces, "usemtl {name}");
            let first = sub.first_triangle as usize;
            for t in first..first + sub.triangle_count as usize {
                let Some(tri) = mesh.corners.get(t * 3..t * 3 + 3) else {
                    continue;
                };
                faces.push('f');
                for (k, c) in tri.iter().enumerate() {
                    let uv = Vec2::new(c.uv[0].x, 1.0 - c.uv[0].y);
                    let next = vt.len();
                    let ti = *vt
                        .entry(uv.to_array().map(f32::to_bits))
                        .or_insert_with(|| {
                            let _ = writeln!(out, "vt {} {}", uv.x, uv.y);
                            next
                        });
                    let n = (normal_matrix * normals[t * 3 + k]).normalize_or_zero();
                    let next = vn.len();
                    let ni = *vn.entry(n.to_array().map(f32::to_bits)).or_insert_with(|| {
                        let _ = writeln!(out, "vn {} {} {}", n.x, n.y, n.z);
                        next
                    });
                    let _ = write!(
                        faces,
                        " {}/{}/{}",
                        nv + c.point as usize + 1,
                        nt + ti + 1,
                        nn + ni + 1
                    );
                }
                faces.push('\n');
            }
        }
        out.push_str(&faces);
        nv += mesh.points.len();
        nt += vt.len();
        nn += vn.len();
    }
    doc.obj = out;
    Ok(doc)
}

/// The MTL of `model`'s materials (names returned, one per material) and their PNGs.
fn materials(
    model: &Model,
    team: usize,
    cache: &mut ImageCache,
    doc: &mut ObjDocument,
) -> Vec<String> {
    let mut names = Vec::new();
    let mut mtl = format!("# Vitrine {} MTL export\n", env!("CARGO_PKG_VERSION"));
    let tex = |i: Option<usize>| i.and_then(|i| model.textures.get(i));
    for (i, m) in model.materials.iter().enumerate() {
        let mut name = obj_name(&m.name);
        if names.contains(&name) {
            name = format!("{name}_{i}");
        }
        let [r, g, b, a] = m.base_color.map(|c| c.clamp(0.0, 1.0));
        let _ = write!(mtl, "\nnewmtl {name}\nKd {r} {g} {b}\nd {a}\nillum 1\n");
        if let Some(base) = tex(m.base) {
            let key = images::base_key(
                base,
                tex(m.tcmask),
                team,
                tex(m.opacity).map(|t| (t, m.opacity_source)),
            );
            match key.map(|k| cache.get(&k)) {
                Some(Ok(image)) => {
                    let file = format!("{}.png", image.name);
                    if !doc.images.iter().any(|(n, _)| *n == file) {
                        doc.images.push((file.clone(), image.png.clone()));
                    }
                    let _ = writeln!(mtl, "map_Kd {{stem}}-{file}");
                }
                Some(Err(e)) => doc
                    .warnings
                    .push(format!("texture {}: {e}; exported untextured", base.name)),
                None => doc.warnings.push(format!(
                    "texture {}: not found; exported untextured",
                    base.name
                )),
            }
        }
        names.push(name);
    }
    doc.mtl = mtl;
    names
}

/// Writes `doc` as `path` (`.obj`), `<stem>.mtl` and `<stem>-<page>.png` beside it,
/// each through [`atomic`]; returns the files written.
pub fn write(doc: ObjDocument, path: &Path) -> io::Result<Vec<PathBuf>> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into());
    let dir = path.parent().unwrap_or(Path::new(""));
    let mtl_path = dir.join(format!("{stem}.mtl"));
    let mut written = Vec::new();
    for (file, png) in &doc.images {
        let p = dir.join(format!("{stem}-{file}"));
        atomic::write(&p, png)?;
        written.push(p);
    }
    atomic::write(&mtl_path, doc.mtl.replace("{stem}", &stem).as_bytes())?;
    written.push(mtl_path);
    let obj = format!("mtllib {stem}.mtl\n{}", doc.obj);
    atomic::write(path, obj.as_bytes())?;
    written.push(path.to_path_buf());
    Ok(written)
}

/// Whether `path` asks for an OBJ (by its extension).
pub fn is_obj_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("obj"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn names_lose_their_spaces() {
        assert_eq!(obj_name("level 1"), "level_1");
        assert_eq!(obj_name("  "), "unnamed");
        assert_eq!(obj_name("página 2"), "página_2");
    }

    #[test]
    fn quads_of_a_model_come_out_as_its_triangles() {
        use crate::model::{Corner, Format, Material, Mesh, Node, NodeKind, Submesh};
        let mut m = Model::new(Format::Pmf, "t");
        m.materials
            .push(Material::new("grey paint", [0.5, 0.5, 0.5, 1.0]));
        m.meshes.push(Mesh {
            name: "quad".into(),
            points: vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
            corners: [0, 1, 2, 0, 2, 3]
                .map(|p| Corner::new(p, Vec2::ZERO))
                .to_vec(),
            submeshes: vec![Submesh {
                first_triangle: 0,
                triangle_count: 2,
                material: 0,
            }],
            ..Mesh::default()
        });
        let mut node = Node::new("the quad", None, NodeKind::Part);
        node.mesh = Some(0);
        m.nodes.push(node);
        let doc = export(&m, &ObjOptions::default(), &mut ImageCache::new()).unwrap();
        assert!(doc.obj.contains("o the_quad"), "{}", doc.obj);
        assert_eq!(doc.obj.lines().filter(|l| l.starts_with("v ")).count(), 4);
        assert_eq!(doc.obj.lines().filter(|l| l.starts_with("f ")).count(), 2);
        assert!(doc.obj.contains("usemtl grey_paint"));
        assert!(doc.mtl.contains("newmtl grey_paint\nKd 0.5 0.5 0.5"));
    }
}
