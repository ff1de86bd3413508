//! Parsed PET files → the neutral [`Model`], converting Direct3D's left-handed Y-up
//! axes to the model's right-handed Y-up ones on the way.
//!
//! The conversion is the mirror `S = diag(−1, 1, 1)`: positions and normals become
//! `S·p`, matrices `S·M·S`, quaternions `(x, y, z, w)` → `(x, −y, −z, w)`, and each
//! triangle's last two corners swap, because the mirror turns the file's clockwise
//! front faces clockwise in the model too, and the model's front faces are
//! counter-clockwise.
//!
//! A [`Builder`] takes a skeleton, then any number of skinned mesh parts and animation
//! clips whose bones are matched to it (by index for a single file, by name for the
//! parts of a multi-file character).

use super::Kind;
use super::anim::{self, AnimData};
use super::bones::BoneData;
use super::details;
use super::mesh::MeshData;
use super::sections::PetFile;
use super::textures;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Details;
use crate::model::{
    Clip, CollisionBox, Corner, Diagnostic, EventMarker, FileAxes, Format, Interpolation, Location,
    Material, Mesh, Model, Motion, Node, NodeKind, NodeTrack, Skin, SkinInfluence, Submesh,
    TextureRef, TextureRole, Track,
};
use glam::{Mat4, Quat, Vec3};

/// The file → model mirror.
fn mirror() -> Mat4 {
    FileAxes::y_up_left_handed().model_from_file
}

/// A file position or direction in model axes.
fn to_model(v: Vec3) -> Vec3 {
    mirror().transform_vector3(v)
}

/// A file matrix in model axes: `S·M·S`.
fn matrix_to_model(m: Mat4) -> Mat4 {
    mirror() * m * mirror()
}

/// A file quaternion in model axes: for a mirror `S` (det −1) the rotation `S·R·S` has
/// the vector part `−S·v`.
fn quat_to_model(q: Quat) -> Quat {
    let v = -mirror().transform_vector3(Vec3::new(q.x, q.y, q.z));
    Quat::from_xyzw(v.x, v.y, v.z, q.w)
}

/// Builds one model from a skeleton and parts.
#[derive(Debug)]
pub struct Builder {
    model: Model,
    untextured: Option<usize>,
}

impl Builder {
    /// An empty PET model of `version` in Direct3D axes.
    pub fn new(version: String) -> Self {
        let mut model = Model::new(Format::Pet, version);
        model.axes = FileAxes::y_up_left_handed();
        Builder {
            model,
            untextured: None,
        }
    }

    /// The model so far.
    pub fn model(&mut self) -> &mut Model {
        &mut self.model
    }

    /// The finished model.
    pub fn finish(self) -> Model {
        self.model
    }

    /// Adds notes found while parsing.
    pub fn notes(&mut self, notes: &[Diagnostic]) {
        self.model.diagnostics.extend_from_slice(notes);
    }

    /// Adds every bone of `bones` as a node; returns each file bone's node.
    pub(crate) fn add_skeleton(&mut self, bones: &BoneData, file: &str) -> Vec<usize> {
        let mut node_of = vec![usize::MAX; bones.bones.len()];
        for &i in &bones.order {
            let node = self.add_bone(bones, i, &node_of, file);
            node_of[i] = node;
        }
        node_of
    }

    fn add_bone(&mut self, bones: &BoneData, i: usize, node_of: &[usize], file: &str) -> usize {
        let b = &bones.bones[i];
        // `order` puts parents first, so the parent's node exists.
        let parent = b.parent.map(|p| node_of[p]);
        let mut node = Node::new(b.name.clone(), parent, NodeKind::Bone);
        if let Some(m) = b.matrix {
            let local = matrix_to_model(m);
            let (s, r, t) = local.to_scale_rotation_translation();
            let back = Mat4::from_scale_rotation_translation(s, r, t);
            if !(back.abs_diff_eq(local, 1e-3) && s.is_finite() && r.is_finite()) {
                self.model.warn(
                    Location::Offset(b.offset),
                    format!(
                        "{file}: bone {i} ({}) matrix is sheared or singular; shown as its \
                         nearest rotation and scale",
                        b.name
                    ),
                );
            }
            if s.is_finite() && r.is_finite() && t.is_finite() {
                node.translation = t;
                node.rotation = r.normalize();
                node.scale = s;
            }
        }
        self.model.nodes.push(node);
        self.model.nodes.len() - 1
    }

    /// Matches the bones of another file of the character to the skeleton by name;
    /// a bone the skeleton lacks is added (with a warning). Returns each file bone's
    /// node.
    pub(crate) fn merge_bones(&mut self, bones: &BoneData, file: &str) -> Vec<usize> {
        let mut node_of = vec![usize::MAX; bones.bones.len()];
        for &i in &bones.order {
            let b = &bones.bones[i];
            let existing = self
                .model
                .nodes
                .iter()
                .position(|n| n.kind == NodeKind::Bone && n.name == b.name);
            node_of[i] = match existing {
                Some(n) => n,
                None => {
                    self.model.warn(
                        Location::Offset(b.offset),
                        format!("{file}: bone {} is not in the skeleton; added", b.name),
                    );
                    self.add_bone(bones, i, &node_of, file)
                }
            };
        }
        node_of
    }

    /// Adds the `TEXT` entries of a file as textures and one material each; returns the
    /// material index of the file's texture 0.
    pub(crate) fn add_textures(&mut self, file: &PetFile) -> usize {
        let first = self.model.materials.len();
        for t in &file.textures {
            let tex = self.model.textures.len();
            // The flag prefix is not part of the file name on disk.
            let (_, bare) = textures::split_prefix(&t.name);
            self.model
                .textures
                .push(TextureRef::new(TextureRole::Base, bare));
            let mut mat = Material::new(t.name.clone(), [1.0; 4]);
            mat.base = Some(tex);
            self.model.materials.push(mat);
        }
        first
    }

    fn untextured(&mut self) -> usize {
        *self.untextured.get_or_insert_with(|| {
            self.model
                .materials
                .push(Material::new("untextured", [0.8, 0.8, 0.8, 1.0]));
            self.model.materials.len() - 1
        })
    }

    /// Adds the `MESH` of `file` as a skinned mesh on a new part node named `name`.
    /// `node_of` maps the file's bones to nodes; `first_material` is the material of
    /// the file's texture 0 ([`Builder::add_textures`]).
    pub(crate) fn add_mesh(
        &mut self,
        file: &PetFile,
        mesh: &MeshData,
        name: &str,
        node_of: &[usize],
        first_material: usize,
    ) -> Result<usize, LoadError> {
        let bones = file.bones.as_ref();
        let file_models = bones.map(|b| b.model_matrices()).unwrap_or_default();
        let model_models: Vec<Mat4> = file_models.iter().map(|m| matrix_to_model(*m)).collect();
        let mut inverse_bind = Vec::with_capacity(model_models.len());
        for (i, m) in model_models.iter().enumerate() {
            let det = m.determinant();
            if !det.is_finite() || det.abs() < 1e-12 {
                let (offset, bname) = bones
                    .map(|b| (b.bones[i].offset, b.bones[i].name.clone()))
                    .unwrap_or_default();
                return Err(LoadError::new(
                    ErrorKind::BadValue,
                    Location::Offset(offset),
                    format!("bone {i} ({bname}) has a singular rest matrix; cannot skin to it"),
                ));
            }
            inverse_bind.push(m.inverse());
        }

        let mut points = Vec::with_capacity(mesh.vertices.len());
        let mut influences = Vec::with_capacity(mesh.vertices.len());
        for (i, v) in mesh.vertices.iter().enumerate() {
            // Stored relative to the first weighted bone.
            let first = v.weights.first().map(|w| w.1);
            let file_rest = match first.and_then(|b| file_models.get(b)) {
                Some(m) => m.transform_point3(v.position),
                None => v.position,
            };
            if !file_rest.is_finite() {
                // Finite numbers whose product overflows (found by fuzzing).
                let at = file.sections.iter().find(|s| s.tag == "MESH");
                return Err(LoadError::new(
                    ErrorKind::NonFiniteFloat,
                    Location::Offset(at.map_or(0, |s| s.offset)),
                    format!(
                        "MESH vertex {i}: its position placed by bone {} is not a finite number",
                        first.unwrap_or_default()
                    ),
                ));
            }
            points.push(to_model(file_rest));
            let total: u32 = v.weights.iter().map(|w| w.0 as u32).sum();
            let mut inf = SkinInfluence::default();
            for (k, &(w, bone)) in v.weights.iter().enumerate().take(4) {
                inf.joints[k] = bone as u16;
                inf.weights[k] = if total > 0 {
                    w as f32 / total as f32
                } else {
                    0.0
                };
            }
            influences.push(inf);
        }

        let n_tex = file.textures.len();
        let mut tris: Vec<(usize, [Corner; 3])> = Vec::with_capacity(mesh.polygons.len());
        let mut bad_textures = 0;
        for (i, p) in mesh.polygons.iter().enumerate() {
            let material = if (p.texture as usize) < n_tex {
                first_material + p.texture as usize
            } else {
                if bad_textures == 0 {
                    self.model.warn(
                        Location::Offset(mesh.texture_bytes_at + i as u64),
                        format!(
                            "{name}: triangle {i} uses texture {}, but TEXT lists {n_tex}; \
                             drawn untextured",
                            p.texture
                        ),
                    );
                }
                bad_textures += 1;
                self.untextured()
            };
            let corner = |c: &super::mesh::PolyCorner| {
                let n = to_model(c.normal).normalize_or_zero();
                Corner {
                    point: c.vertex,
                    normal: (n != Vec3::ZERO).then_some(n),
                    uv: c.uv,
                    animated: false,
                }
            };
            let [a, b, c] = &p.corners;
            tris.push((material, [corner(a), corner(c), corner(b)]));
        }
        if bad_textures > 1 {
            self.model.warn(
                Location::Offset(mesh.texture_bytes_at),
                format!("{name}: {bad_textures} triangles use a texture index past TEXT"),
            );
        }
        // One run per material, triangles otherwise in file order.
        tris.sort_by_key(|t| t.0);
        let mut submeshes: Vec<Submesh> = Vec::new();
        let mut corners = Vec::with_capacity(tris.len() * 3);
        for (t, (material, c)) in tris.iter().enumerate() {
            match submeshes.last_mut() {
                Some(s) if s.material == *material => s.triangle_count += 1,
                _ => submeshes.push(Submesh {
                    first_triangle: t as u32,
                    triangle_count: 1,
                    material: *material,
                }),
            }
            corners.extend_from_slice(c);
        }

        let skin = self.model.skins.len();
        self.model.skins.push(Skin {
            name: name.to_string(),
            joints: node_of.to_vec(),
            inverse_bind,
        });
        let mesh_index = self.model.meshes.len();
        self.model.meshes.push(Mesh {
            name: name.to_string(),
            points,
            influences,
            corners,
            submeshes,
            skin: Some(skin),
            uv_sets: mesh.uv_sets.min(2),
            point_alpha: Vec::new(),
            point_light: Vec::new(),
            surface_layer: false,
        });
        let mut node = Node::new(name, None, NodeKind::Part);
        node.mesh = Some(mesh_index);
        self.model.nodes.push(node);
        Ok(mesh_index)
    }

    /// Adds the animation, motions and event scripts of `file` as one clip named
    /// `name` over the whole timeline (30 fps; keys replace the bind transforms).
    pub(crate) fn add_clip(&mut self, file: &PetFile, name: &str, node_of: &[usize]) {
        let mut clip = Clip::new(name, anim::FPS, 0, true);
        let mut last_frame = 0u32;
        let mut keyframes = Vec::new();
        if let Some(a) = &file.anim {
            self.add_tracks(a, &mut clip, node_of, &mut keyframes, name);
            last_frame = frame_of(a.end_time());
        }
        for m in &file.motions {
            if m.start > m.end {
                self.model.warn(
                    Location::File,
                    format!(
                        "{name}: motion {} starts at {} after its end {}",
                        m.name, m.start, m.end
                    ),
                );
            }
            last_frame = last_frame.max(m.end);
            clip.motions.push(Motion {
                name: m.name.clone(),
                start: m.start,
                end: m.end,
                next: (!m.next.is_empty()).then(|| m.next.clone()),
                blend_time: m.blend_time,
            });
        }
        for f in &file.frames {
            last_frame = last_frame.max(f.frame);
            for s in f.scripts.iter().filter(|s| !s.is_empty()) {
                clip.events.push(EventMarker {
                    frame: f.frame,
                    text: s.clone(),
                });
            }
        }
        keyframes.sort_unstable();
        keyframes.dedup();
        clip.keyframes = keyframes;
        clip.frame_count = last_frame.saturating_add(1);
        self.model.clips.push(clip);
    }

    fn add_tracks(
        &mut self,
        a: &AnimData,
        clip: &mut Clip,
        node_of: &[usize],
        keyframes: &mut Vec<u32>,
        name: &str,
    ) {
        for k in &a.tracks {
            let Some(&node) = node_of.get(k.bone) else {
                continue;
            };
            if clip.node_tracks.iter().any(|t| t.node == node) {
                self.model.warn(
                    Location::Offset(k.offset),
                    format!(
                        "{name}: a second ANIM track for bone {} replaces the first",
                        k.bone
                    ),
                );
                clip.node_tracks.retain(|t| t.node != node);
            }
            let mut unsorted = false;
            let mut track = NodeTrack::new(node);
            let linear = Interpolation::Linear;
            track.translation =
                sorted_keys(&k.position, to_model, &mut unsorted).map(|k| Track::new(k, linear));
            track.rotation = sorted_keys(&k.rotation, quat_to_model, &mut unsorted)
                .map(|k| Track::new(k, linear));
            track.scale =
                sorted_keys(&k.scale, |s| s, &mut unsorted).map(|k| Track::new(k, linear));
            if unsorted {
                self.model.warn(
                    Location::Offset(k.offset),
                    format!(
                        "{name}: keys of bone {} are not in time order; sorted",
                        k.bone
                    ),
                );
            }
            keyframes.extend(
                k.position
                    .iter()
                    .map(|p| p.0)
                    .chain(k.rotation.iter().map(|r| r.0))
                    .chain(k.scale.iter().map(|s| s.0))
                    .map(frame_of),
            );
            clip.node_tracks.push(track);
        }
    }

    /// Adds `COLL` boxes; bones are looked up by name among the file's bones
    /// (`node_of`), then among every bone node.
    pub(crate) fn add_collision(&mut self, file: &PetFile, node_of: &[usize], name: &str) {
        for c in &file.collision {
            let node = file
                .bones
                .as_ref()
                .and_then(|b| b.find(&c.bone))
                .and_then(|i| node_of.get(i).copied())
                .or_else(|| {
                    self.model
                        .nodes
                        .iter()
                        .position(|n| n.kind == NodeKind::Bone && n.name == c.bone)
                });
            if node.is_none() {
                self.model.warn(
                    Location::Offset(c.offset),
                    format!(
                        "{name}: collision box {} names missing bone {:?}",
                        c.name, c.bone
                    ),
                );
            }
            let (a, b) = (to_model(c.min), to_model(c.max));
            self.model.collision_boxes.push(CollisionBox {
                name: c.name.clone(),
                node,
                min: a.min(b),
                max: a.max(b),
            });
        }
    }
}

pub(super) fn frame_of(time: f32) -> u32 {
    (time * anim::FPS).round().clamp(0.0, u32::MAX as f32) as u32
}

/// Keys converted to model axes and sorted by time (`unsorted` set if they were not).
fn sorted_keys<T, U: Copy>(
    keys: &[(f32, U)],
    convert: impl Fn(U) -> T,
    unsorted: &mut bool,
) -> Option<Vec<(f32, T)>> {
    if keys.is_empty() {
        return None;
    }
    let mut keys: Vec<(f32, T)> = keys.iter().map(|&(t, v)| (t, convert(v))).collect();
    if keys.windows(2).any(|w| w[0].0 > w[1].0) {
        *unsorted = true;
        keys.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    Some(keys)
}

/// Builds the model of one file on its own.
pub(crate) fn single(file: &PetFile, name: &str, stem: &str) -> Result<Model, LoadError> {
    if file.bones.is_none() && file.mesh.is_none() && file.anim.is_none() {
        return Err(LoadError::new(
            ErrorKind::Missing,
            Location::File,
            "nothing to show: the file has no BONE, MESH or ANIM section",
        ));
    }
    let mut b = Builder::new(file.version_string());
    b.notes(&file.notes);
    let node_of = match &file.bones {
        Some(bones) => b.add_skeleton(bones, name),
        None => Vec::new(),
    };
    if file.kind == Kind::Apet && file.bones.is_some() {
        b.model().warn(
            Location::File,
            format!(
                "{name}: an .apet has no skeleton (its bones carry no rest matrices); no \
                 .bpet of the same prefix was found, so the bones rest at identity"
            ),
        );
    }
    let first_material = b.add_textures(file);
    if let Some(mesh) = &file.mesh {
        b.add_mesh(file, mesh, "mesh", &node_of, first_material)?;
    }
    if file.anim.is_some() || !file.motions.is_empty() || !file.frames.is_empty() {
        b.add_clip(file, stem, &node_of);
    }
    b.add_collision(file, &node_of, name);
    details::file_properties(b.model(), file, name);
    let mut model = b.finish();
    model.details = Details::Pet(details::file_details(file, name));
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pet::bones::matrix_from_rows;

    #[test]
    fn mirror_conversions_agree() {
        // A file bone rotated 30° about Y (left-handed data, same numbers) at (1, 2, 3).
        let q = Quat::from_rotation_y(std::f32::consts::FRAC_PI_6);
        let file = Mat4::from_rotation_translation(q, Vec3::new(1.0, 2.0, 3.0));
        let cols = file.to_cols_array();
        let rows = [
            cols[0], cols[1], cols[2], cols[4], cols[5], cols[6], cols[8], cols[9], cols[10],
            cols[12], cols[13], cols[14],
        ];
        assert!(matrix_from_rows(rows).abs_diff_eq(file, 1e-6));
        let model = matrix_to_model(file);
        let (_, r, t) = model.to_scale_rotation_translation();
        assert!(t.abs_diff_eq(Vec3::new(-1.0, 2.0, 3.0), 1e-6));
        // The quaternion rule gives the same rotation as conjugating the matrix.
        assert!(r.dot(quat_to_model(q)).abs() > 0.99999);
        // Points map the same way either way round.
        let p = Vec3::new(0.3, -0.2, 0.7);
        assert!(
            model
                .transform_point3(to_model(p))
                .abs_diff_eq(to_model(file.transform_point3(p)), 1e-6)
        );
    }
}
