//! Wavefront OBJ with its MTL → [`Model`], read with the `tobj` crate; the MTL comes
//! through [`crate::files`] ([`load`]).
//!
//! Conventions (as for glTF): objects named `level N` (Blender writes `level_N`) are the
//! levels, numbered in that order, else every object in file order; quads and n-gons
//! are split into triangles as fans from their first corner; a material's `map_Kd` is
//! its base texture (found like any texture: beside the file, then in `texpages/`); a
//! texture named `*_tcmask.*` in its MTL is its team-colour mask.
//!
//! Axes: Blender's default OBJ export (−Z forward, Y up) is the model's convention; OBJ's
//! V runs up from the bottom, so V is flipped (`1 − v`) to the model's top-left origin.

use crate::files::{FileRef, Files};
use crate::formats::gltf::data::relative_path;
use crate::formats::gltf::numbered;
use crate::formats::{ErrorKind, LoadError};
use crate::model::details::{Details, ObjDetails};
use crate::model::{
    BlendMode, Corner, FileAxes, Format, Location, Material, Mesh, Model, Node, NodeKind, Submesh,
    TextureRef, TextureRole,
};
use glam::{Vec2, Vec3};
use std::cell::RefCell;

/// Reads a file beside the OBJ by its relative name: its [`FileRef`] and bytes.
pub type Fetch<'a> = dyn FnMut(&str) -> Result<(FileRef, Vec<u8>), String> + 'a;

/// A fetch for parsing without the file's folder: every MTL is missing.
pub fn no_files(name: &str) -> Result<(FileRef, Vec<u8>), String> {
    Err(format!(
        "{name}: a file beside the OBJ, which is not available here"
    ))
}

/// Reads and parses the OBJ `file`, its MTL files read from its folder.
pub fn load(files: &Files, file: &FileRef) -> Result<Model, LoadError> {
    let name = file.file_name();
    let bytes = crate::formats::read_file(files, file).map_err(|e| e.in_file(&name))?;
    let dir = file.parent();
    let mut fetch = |path: &str| -> Result<(FileRef, Vec<u8>), String> {
        let dir = dir.as_ref().ok_or("the OBJ has no folder")?;
        let f = dir.join(path);
        let bytes = files.read(&f).map_err(|e| e.to_string())?;
        Ok((f, bytes))
    };
    parse(&bytes, &mut fetch).map_err(|e| e.in_file(&name))
}

/// Checks every face corner's indices against the elements defined before it (OBJ
/// indices are 1-based; negative ones count back), so a bad index is reported with its
/// line before `tobj` sees the file.
fn check_indices(text: &str) -> Result<(), LoadError> {
    let mut counts = [0i64; 3];
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let kind = words.next().unwrap_or("");
        match kind {
            "v" => counts[0] += 1,
            "vt" => counts[1] += 1,
            "vn" => counts[2] += 1,
            "f" => {
                let mut corners = 0;
                for corner in words {
                    corners += 1;
                    for (slot, part) in corner.split('/').enumerate().take(3) {
                        if part.is_empty() && slot > 0 {
                            continue;
                        }
                        let what = ["vertex", "texture coordinate", "normal"][slot];
                        let bad = |m: String| {
                            LoadError::new(
                                ErrorKind::IndexOutOfRange,
                                Location::Line(n as u32 + 1),
                                m,
                            )
                        };
                        let i: i64 = part.parse().map_err(|_| {
                            bad(format!("face corner {corner:?}: {part:?} is not an index"))
                        })?;
                        let count = counts[slot];
                        let ok = (i > 0 && i <= count) || (i < 0 && -i <= count);
                        if !ok {
                            return Err(bad(format!(
                                "face corner {corner:?}: {what} {i} does not exist ({count} defined \
                                 so far)"
                            )));
                        }
                    }
                }
                if corners < 3 {
                    return Err(LoadError::new(
                        ErrorKind::Invalid,
                        Location::Line(n as u32 + 1),
                        format!("a face of {corners} corners"),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The file name of an MTL texture statement's value (options such as `-s 1 1 1` come
/// first; the name is the rest).
fn texture_name(value: &str) -> String {
    let mut words: Vec<&str> = value.split_whitespace().collect();
    // Options take the words after them; the file name is what remains at the end.
    while words.len() > 1 && words[0].starts_with('-') {
        let takes = match words[0] {
            "-s" | "-o" | "-t" => 4,
            "-mm" => 3,
            _ => 2,
        };
        let takes = takes.min(words.len() - 1);
        words.drain(..takes);
    }
    words.join(" ")
}

/// Parses OBJ `bytes`; `fetch` reads the MTL files it names.
pub fn parse(bytes: &[u8], fetch: &mut Fetch<'_>) -> Result<Model, LoadError> {
    let text = String::from_utf8_lossy(bytes);
    check_indices(&text)?;
    let fetch = RefCell::new(fetch);
    let problems = RefCell::new(Vec::new());
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let (objects, materials) =
        tobj::load_obj_buf(&mut text.as_bytes(), &options, |path: &std::path::Path| {
            let name = path.to_string_lossy().into_owned();
            let read = relative_path(&name).and_then(|p| (fetch.borrow_mut())(&p));
            match read {
                Ok((_, mtl)) => tobj::load_mtl_buf(&mut mtl.as_slice()),
                Err(e) => {
                    problems
                        .borrow_mut()
                        .push(format!("material library {name}: {e}"));
                    Err(tobj::LoadError::OpenFileFailed)
                }
            }
        })
        .map_err(|e| LoadError::new(ErrorKind::Syntax, Location::File, format!("OBJ: {e}")))?;
    // Text with no face is no model (tobj ignores lines it does not know, so any text
    // parses): say so rather than show an empty view.
    if objects.iter().all(|o| o.mesh.indices.is_empty()) {
        return Err(LoadError::new(
            ErrorKind::BadMagic,
            Location::File,
            "OBJ: no faces (`f` lines) — not a Wavefront OBJ model",
        ));
    }
    // OBJ states no version.
    let mut model = Model::new(Format::Obj, "-");
    model.axes = FileAxes::y_up_right_handed();
    for p in problems.into_inner() {
        model.warn(Location::File, p);
    }
    let materials = materials.unwrap_or_default();
    for m in &materials {
        add_material(&mut model, m);
    }
    // A grey material for faces without one (only when some face has none).
    let default_material = model.materials.len();
    if objects
        .iter()
        .any(|o| o.mesh.material_id.is_none_or(|m| m >= materials.len()))
    {
        model
            .materials
            .push(Material::new("default", [0.8, 0.8, 0.8, 1.0]));
    }

    // Objects of one name (tobj splits them per material) become one mesh.
    let mut groups: Vec<(String, Vec<&tobj::Mesh>)> = Vec::new();
    for o in &objects {
        match groups.iter_mut().find(|(n, _)| *n == o.name) {
            Some((_, list)) => list.push(&o.mesh),
            None => groups.push((o.name.clone(), vec![&o.mesh])),
        }
    }
    let named_levels = groups.iter().any(|(n, _)| numbered(n, "level").is_some());
    if named_levels {
        groups.sort_by_key(|(n, _)| numbered(n, "level").unwrap_or(u32::MAX));
    }
    let mut polygons = 0usize;
    for (name, parts) in &groups {
        let mut mesh = Mesh {
            name: if name.is_empty() {
                "object".into()
            } else {
                name.clone()
            },
            ..Mesh::default()
        };
        for part in parts {
            let material = part
                .material_id
                .filter(|&m| m < materials.len())
                .unwrap_or(default_material);
            polygons += add_part(&mut mesh, part, material);
        }
        if mesh.corners.is_empty() {
            continue;
        }
        let kind = if !named_levels || numbered(name, "level").is_some() {
            NodeKind::Level
        } else {
            NodeKind::Part
        };
        let mut node = Node::new(mesh.name.clone(), None, kind);
        node.mesh = Some(model.meshes.len());
        model.meshes.push(mesh);
        model.nodes.push(node);
    }
    let triangles: usize = model.meshes.iter().map(Mesh::triangle_count).sum();
    model.property("Objects", model.nodes.len().to_string());
    model.property("Triangles", format!("{triangles} from {polygons} faces"));
    model.details = Details::Obj(ObjDetails {
        objects: model.nodes.iter().map(|n| n.name.clone()).collect(),
        faces: polygons,
        triangles,
        materials: materials.iter().map(|m| m.name.clone()).collect(),
    });
    Ok(model)
}

/// An MTL material → a model material (and its textures).
fn add_material(model: &mut Model, m: &tobj::Material) {
    let d = m.dissolve.unwrap_or(1.0).clamp(0.0, 1.0);
    let textured = m.diffuse_texture.is_some();
    let rgb = if textured {
        [1.0; 3]
    } else {
        m.diffuse.unwrap_or([0.8; 3])
    };
    let mut mat = Material::new(m.name.clone(), [rgb[0], rgb[1], rgb[2], d]);
    if d < 1.0 {
        mat.blend = BlendMode::AlphaBlend;
    }
    let mut add = |role, value: &str| {
        model
            .textures
            .push(TextureRef::new(role, texture_name(value)));
        Some(model.textures.len() - 1)
    };
    let is_mask = |v: &str| {
        let n = texture_name(v).to_lowercase();
        let stem = n.rsplit_once('.').map_or(n.as_str(), |(s, _)| s);
        stem.ends_with("_tcmask")
    };
    if let Some(t) = &m.diffuse_texture {
        mat.base = add(TextureRole::Base, t);
    }
    if let Some(t) = &m.normal_texture {
        mat.normal = add(TextureRole::Normal, t);
    }
    if let Some(t) = &m.specular_texture {
        mat.specular = add(TextureRole::Specular, t);
    }
    // A team-colour mask is named `*_tcmask.*` in any texture statement.
    let mask = [
        &m.ambient_texture,
        &m.shininess_texture,
        &m.dissolve_texture,
    ]
    .into_iter()
    .flatten()
    .cloned()
    .chain(m.unknown_param.values().cloned())
    .find(|v| is_mask(v));
    if let Some(t) = mask {
        mat.tcmask = add(TextureRole::Tcmask, &t);
    }
    model.materials.push(mat);
}

/// Adds one `tobj` mesh's faces to `mesh` (fans from each face's first corner) with
/// `material`; returns the number of faces.
fn add_part(mesh: &mut Mesh, part: &tobj::Mesh, material: usize) -> usize {
    let base = mesh.points.len() as u32;
    mesh.points.extend(
        part.positions
            .chunks_exact(3)
            .map(|p| Vec3::new(p[0], p[1], p[2])),
    );
    let uvs = !part.texcoord_indices.is_empty();
    if uvs {
        mesh.uv_sets = 1;
    }
    let corner = |k: usize| {
        let pi = part.indices[k];
        let normal = part.normal_indices.get(k).and_then(|&n| {
            let n = part.normals.get(n as usize * 3..n as usize * 3 + 3)?;
            let v = Vec3::new(n[0], n[1], n[2]);
            (v.length_squared() > 0.0).then(|| v.normalize())
        });
        let uv = part
            .texcoord_indices
            .get(k)
            .and_then(|&t| part.texcoords.get(t as usize * 2..t as usize * 2 + 2))
            .map_or(Vec2::ZERO, |t| Vec2::new(t[0], 1.0 - t[1]));
        Corner {
            point: base + pi,
            normal,
            uv: [uv, Vec2::ZERO],
            animated: false,
        }
    };
    let first = mesh.triangle_count() as u32;
    let arities: Vec<usize> = if part.face_arities.is_empty() {
        vec![3; part.indices.len() / 3]
    } else {
        part.face_arities.iter().map(|&a| a as usize).collect()
    };
    let mut at = 0;
    for &n in &arities {
        if at + n > part.indices.len() {
            break;
        }
        for i in 1..n.saturating_sub(1) {
            for k in [at, at + i, at + i + 1] {
                mesh.corners.push(corner(k));
            }
        }
        at += n;
    }
    let count = mesh.triangle_count() as u32 - first;
    if count > 0 {
        mesh.submeshes.push(Submesh {
            first_triangle: first,
            triangle_count: count,
            material,
        });
    }
    arities.len()
}
