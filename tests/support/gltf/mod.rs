//! Reading exported glTF back for the export tests: the `gltf` crate's document and
//! buffer, an animation sampler (LINEAR / STEP as the glTF spec defines them) and
//! world-space vertex positions with skinning, computed from the glTF alone.
#![allow(dead_code)]

pub mod compare;
pub use vitrine_test_support::render::fixtures;

use glam::{Mat4, Quat, Vec3};
use gltf::animation::util::ReadOutputs;
use serde_json::Value;
use std::path::Path;
use vitrine::model::Model;

/// An exported file read back.
pub struct Read {
    /// The document (KHR_animation_pointer channels removed: gltf 1.4 cannot parse them).
    pub doc: gltf::Document,
    /// Buffer 0.
    pub blob: Vec<u8>,
    /// The JSON as written.
    pub json: Value,
    /// Per animation: the pointer channels removed, (sampler, pointer).
    pub pointers: Vec<Vec<(usize, String)>>,
}

/// Parses `.glb` bytes.
pub fn read_glb(bytes: &[u8]) -> Read {
    let glb = gltf::binary::Glb::from_slice(bytes).expect("a GLB container");
    let json: Value = serde_json::from_slice(&glb.json).expect("JSON chunk");
    let mut stripped = json.clone();
    let mut pointers = Vec::new();
    if let Some(anims) = stripped.get_mut("animations").and_then(Value::as_array_mut) {
        for a in anims {
            let mut mine = Vec::new();
            if let Some(channels) = a["channels"].as_array_mut() {
                channels.retain(|c| {
                    if c["target"]["path"] == "pointer" {
                        let p = c["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
                            .as_str()
                            .expect("pointer")
                            .to_string();
                        mine.push((c["sampler"].as_u64().expect("sampler") as usize, p));
                        false
                    } else {
                        true
                    }
                });
            }
            pointers.push(mine);
        }
    }
    let root: gltf::json::Root =
        serde_json::from_value(stripped).expect("the schema types read the JSON");
    let doc = gltf::Document::from_json(root).expect("a valid document");
    let blob = glb.bin.map(|b| b.into_owned()).unwrap_or_default();
    Read {
        doc,
        blob,
        json,
        pointers,
    }
}

impl Read {
    /// The animations' names, in order.
    pub fn animation_names(&self) -> Vec<String> {
        self.doc
            .animations()
            .filter_map(|a| a.name().map(String::from))
            .collect()
    }

    /// The float components of accessor `a` (`n` per element).
    pub fn floats(&self, a: gltf::Accessor, n: usize) -> Vec<Vec<f32>> {
        let view = a.view().expect("view");
        let start = view.offset() + a.offset();
        let bytes = &self.blob[start..start + a.count() * n * 4];
        bytes
            .chunks_exact(n * 4)
            .map(|e| {
                e.chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                    .collect()
            })
            .collect()
    }

    /// The PNG of image `i` of an exported `.glb`, decoded.
    pub fn image(&self, i: usize) -> image::RgbaImage {
        let img = self.doc.images().nth(i).expect("image");
        let gltf::image::Source::View { view, mime_type } = img.source() else {
            panic!("a .glb embeds its images")
        };
        assert_eq!(mime_type, "image/png");
        let bytes = &self.blob[view.offset()..view.offset() + view.length()];
        image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .expect("PNG")
            .into_rgba8()
    }

    /// The image behind texture `t`.
    pub fn texture_image(&self, t: usize) -> image::RgbaImage {
        let tex = self.doc.textures().nth(t).expect("texture");
        self.image(tex.source().index())
    }

    /// The animation named `name`.
    pub fn animation(&self, name: &str) -> gltf::Animation<'_> {
        self.doc
            .animations()
            .find(|a| a.name() == Some(name))
            .unwrap_or_else(|| panic!("no animation {name}"))
    }

    /// Per node: local TRS at rest, with `anim` sampled at `time` applied.
    pub fn locals(&self, anim: Option<&gltf::Animation>, time: f32) -> Vec<(Vec3, Quat, Vec3)> {
        let mut out: Vec<(Vec3, Quat, Vec3)> = self
            .doc
            .nodes()
            .map(|n| {
                let (t, r, s) = n.transform().decomposed();
                (Vec3::from(t), Quat::from_array(r), Vec3::from(s))
            })
            .collect();
        let Some(anim) = anim else { return out };
        for ch in anim.channels() {
            let reader = ch.reader(|_| Some(&self.blob[..]));
            let times: Vec<f32> = reader.read_inputs().expect("inputs").collect();
            let step = ch.sampler().interpolation() == gltf::animation::Interpolation::Step;
            let node = ch.target().node().index();
            // Index of the last key at or before `time`, and the blend factor to the next.
            let i = times.partition_point(|&k| k <= time).saturating_sub(1);
            let f = match times.get(i + 1) {
                Some(&next) if !step && time > times[i] => (time - times[i]) / (next - times[i]),
                _ => 0.0,
            };
            let j = (i + 1).min(times.len() - 1);
            match reader.read_outputs().expect("outputs") {
                ReadOutputs::Translations(v) => {
                    let v: Vec<Vec3> = v.map(Vec3::from).collect();
                    out[node].0 = v[i].lerp(v[j], f);
                }
                ReadOutputs::Rotations(r) => {
                    let v: Vec<Quat> = r.into_f32().map(Quat::from_array).collect();
                    out[node].1 = v[i].slerp(v[j], f);
                }
                ReadOutputs::Scales(v) => {
                    let v: Vec<Vec3> = v.map(Vec3::from).collect();
                    out[node].2 = v[i].lerp(v[j], f);
                }
                ReadOutputs::MorphTargetWeights(_) => panic!("no morph targets are exported"),
            }
        }
        out
    }

    /// Per node: world matrix for the given locals.
    pub fn worlds(&self, locals: &[(Vec3, Quat, Vec3)]) -> Vec<Mat4> {
        let mut parent = vec![None; locals.len()];
        for n in self.doc.nodes() {
            for c in n.children() {
                parent[c.index()] = Some(n.index());
            }
        }
        let mut world = vec![None; locals.len()];
        fn resolve(
            i: usize,
            parent: &[Option<usize>],
            locals: &[(Vec3, Quat, Vec3)],
            world: &mut Vec<Option<Mat4>>,
        ) -> Mat4 {
            if let Some(w) = world[i] {
                return w;
            }
            let (t, r, s) = locals[i];
            let local = Mat4::from_scale_rotation_translation(s, r, t);
            let w = match parent[i] {
                Some(p) => resolve(p, parent, locals, world) * local,
                None => local,
            };
            world[i] = Some(w);
            w
        }
        (0..locals.len())
            .map(|i| resolve(i, &parent, locals, &mut world))
            .collect()
    }

    /// World positions of every vertex of the mesh on node `node` (skinned if the node
    /// has a skin), for `anim` at `time`.
    pub fn node_vertices(
        &self,
        node: usize,
        anim: Option<&gltf::Animation>,
        time: f32,
    ) -> Vec<Vec3> {
        let worlds = self.worlds(&self.locals(anim, time));
        let n = self.doc.nodes().nth(node).expect("node");
        let Some(mesh) = n.mesh() else {
            return Vec::new();
        };
        let skin = n.skin().map(|s| {
            let reader = s.reader(|_| Some(&self.blob[..]));
            let ibm: Vec<Mat4> = reader
                .read_inverse_bind_matrices()
                .expect("inverse bind matrices")
                .map(|m| Mat4::from_cols_array_2d(&m))
                .collect();
            s.joints()
                .zip(ibm)
                .map(|(j, ib)| worlds[j.index()] * ib)
                .collect::<Vec<Mat4>>()
        });
        let mut out = Vec::new();
        // Primitives share one attribute set; read it once.
        let prim = mesh.primitives().next().expect("a primitive");
        let reader = prim.reader(|_| Some(&self.blob[..]));
        let positions: Vec<Vec3> = reader
            .read_positions()
            .expect("positions")
            .map(Vec3::from)
            .collect();
        match skin {
            Some(joints) => {
                let js: Vec<[u16; 4]> = reader.read_joints(0).expect("joints").into_u16().collect();
                let ws: Vec<[f32; 4]> = reader
                    .read_weights(0)
                    .expect("weights")
                    .into_f32()
                    .collect();
                for ((p, j), w) in positions.iter().zip(js).zip(ws) {
                    let mut m = Mat4::ZERO;
                    for k in 0..4 {
                        m += joints[j[k] as usize] * w[k];
                    }
                    out.push(m.transform_point3(*p));
                }
            }
            None => out.extend(positions.iter().map(|p| worlds[node].transform_point3(*p))),
        }
        out
    }
}

/// A fresh temporary folder for test `name`'s files, removed when dropped (also when
/// the test panics).
pub fn out_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("vitrine-gltf-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// Asserts that every point of `got` is within `tol` of some point of `want` and the
/// other way round (glTF splits the file's points into several vertices).
pub fn assert_same_points(what: &str, got: &[Vec3], want: &[Vec3], tol: f32) {
    assert!(!got.is_empty() && !want.is_empty(), "{what}: no points");
    let nearest = |p: &Vec3, set: &[Vec3]| {
        set.iter()
            .map(|q| q.distance(*p))
            .fold(f32::INFINITY, f32::min)
    };
    for p in got {
        let d = nearest(p, want);
        assert!(
            d <= tol,
            "{what}: exported vertex {p} is {d} from every model point"
        );
    }
    for p in want {
        let d = nearest(p, got);
        assert!(
            d <= tol,
            "{what}: model point {p} is {d} from every exported vertex"
        );
    }
}

/// One quad per blend mode, plus a material whose texture is missing.
pub fn blend_model(dir: &Path) -> Model {
    use vitrine::model::{Billboard, BlendMode, Material, TextureRole};
    let img = image::RgbaImage::from_fn(8, 8, |x, _| image::Rgba([200, 100, 50, (x * 30) as u8]));
    let p = fixtures::write_png(dir, "fx.png", &img);
    let mut model = fixtures::quad_model(
        Material::new("plain", [1.0; 4]),
        vec![
            fixtures::tex(TextureRole::Base, "fx.png", Some(p)),
            fixtures::tex(TextureRole::Base, "gone.png", None),
        ],
    );
    let modes = [
        BlendMode::Opaque,
        BlendMode::AlphaTest,
        BlendMode::AlphaBlend,
        BlendMode::Premultiplied,
        BlendMode::Additive,
    ];
    model.materials.clear();
    for (i, mode) in modes.iter().enumerate() {
        let mut m = Material::new(format!("{mode:?}"), [1.0; 4]);
        m.base = Some(0);
        m.blend = *mode;
        m.double_sided = i % 2 == 0;
        m.billboard = if i == 4 {
            Billboard::Roll
        } else {
            Billboard::None
        };
        model.materials.push(m);
    }
    let mut missing = Material::new("missing", [1.0; 4]);
    missing.base = Some(1);
    model.materials.push(missing);
    model.meshes.clear();
    model.nodes.clear();
    for i in 0..model.materials.len() {
        let x = i as f32 * 3.0;
        let q = fixtures::quad(x, 0.0, x + 2.0, 2.0, 0.0, glam::Vec2::ZERO, glam::Vec2::ONE);
        fixtures::add_mesh(
            &mut model,
            &format!("quad {i}"),
            fixtures::mesh_from(&q, i),
            None,
        );
    }
    model.validate().unwrap();
    model
}
