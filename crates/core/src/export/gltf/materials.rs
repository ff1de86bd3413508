//! Model materials → glTF materials and textures.
//!
//! - base colour: the base texture with the team colour baked in (the game's formula,
//!   [`crate::model::team`]) and an opacity map moved into its alpha; a missing texture
//!   becomes a checkerboard and a warning;
//! - alpha mode from the blend mode: opaque → `OPAQUE`, alpha test → `MASK` (cutoff 0.5,
//!   as the viewer), alpha blend and premultiplied → `BLEND`; additive has no glTF
//!   equivalent: `BLEND`, marked in `extras` (`"blend": "additive"`) and warned about;
//! - `KHR_materials_unlit` for additive and premultiplied materials (Warzone 2100 draws
//!   its effects without lighting);
//! - the raw team-colour mask and a specular map are embedded as extra textures named
//!   in `extras` (glTF has no slot for them); a normal map is the normal texture;
//! - for the way back (`formats::gltf`): `extras.pages` names each texture as the model
//!   names it (`page-11-player-buildings.png`, not the baked copy's name), and when the
//!   team colour was baked the page itself is embedded too (`extras.page_texture`);
//!   a texture-animated copy says `"texture_animated": true`.
//!
//! A material on a mesh with a texture-frame animation gets its own copy carrying a
//! `KHR_texture_transform` offset, which the animation moves (see [`super::animations`]);
//! a legacy team-colour block's copy keeps the offset fixed at the team's frame.

use super::document::{AlphaTiles, Coverage, Document, extras};
use super::images::{self, ImageCache, ImageKey};
use crate::model::team::TEAM_COLOURS;
use crate::model::{Billboard, BlendMode, Model};
use glam::Vec2;
use gltf_json as json;
use json::validation::Checked::Valid;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// The glTF materials and textures of one export, each made once.
#[derive(Debug, Default)]
pub struct Materials {
    made: HashMap<(usize, Option<usize>), json::Index<json::Material>>,
    textures: HashMap<ImageKey, json::Index<json::Texture>>,
    sampler: Option<json::Index<json::texture::Sampler>>,
    /// Model texture indices already warned about.
    warned: Vec<usize>,
    /// Alpha tiles of each glTF texture's image.
    alpha: HashMap<u32, Arc<AlphaTiles>>,
    /// Alpha-blended materials whose mode follows the texels they use.
    blended: HashMap<u32, Blended>,
}

/// What an alpha-blended material's triangles cover of its base image.
#[derive(Debug)]
struct Blended {
    tiles: Arc<AlphaTiles>,
    coverage: Coverage,
}

/// The JSON pointer of a material's base-colour texture offset (animated per frame).
pub(crate) fn offset_pointer(material: json::Index<json::Material>) -> String {
    format!(
        "/materials/{}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset",
        material.value()
    )
}

impl Materials {
    fn sampler(&mut self, doc: &mut Document) -> json::Index<json::texture::Sampler> {
        *self.sampler.get_or_insert_with(|| {
            use json::texture::{MagFilter, MinFilter, WrappingMode};
            doc.root.push(json::texture::Sampler {
                mag_filter: Some(Valid(MagFilter::Linear)),
                min_filter: Some(Valid(MinFilter::LinearMipmapLinear)),
                name: None,
                wrap_s: Valid(WrappingMode::Repeat),
                wrap_t: Valid(WrappingMode::Repeat),
                extensions: None,
                extras: None,
            })
        })
    }

    /// The texture of image `key`, or of the checkerboard (with a warning naming model
    /// texture `texture`) when the image is missing or cannot be read. `None` only if
    /// not even the checkerboard could be encoded (warned too).
    fn texture(
        &mut self,
        doc: &mut Document,
        cache: &mut ImageCache,
        key: Option<ImageKey>,
        model: &Model,
        texture: usize,
    ) -> Option<json::Index<json::Texture>> {
        let name = &model.textures[texture].name;
        let base = model.textures[texture].role == crate::model::TextureRole::Base;
        let key = match key.map(|k| cache.get(&k).map(|_| k)) {
            Some(Ok(k)) => k,
            problem => {
                let first = !self.warned.contains(&texture);
                if first {
                    self.warned.push(texture);
                }
                let why = match problem {
                    Some(Err(e)) => e,
                    _ => "not found".into(),
                };
                if !base {
                    // A mask or map that is missing is left out; the base still shows.
                    if first {
                        let role = model.textures[texture].role.name();
                        doc.warnings
                            .push(format!("{role} texture {name}: {why}; left out"));
                    }
                    return None;
                }
                if first {
                    doc.warnings.push(format!(
                        "texture {name}: {why}; a checkerboard is exported in its place"
                    ));
                }
                ImageKey::Checkerboard
            }
        };
        if let Some(&t) = self.textures.get(&key) {
            return Some(t);
        }
        let mut data = match cache.get(&key) {
            Ok(d) => d,
            Err(e) => {
                doc.warnings
                    .push(format!("texture {name}: {e}; exported untextured"));
                return None;
            }
        };
        // Unique image names within the document (two pages may share a stem).
        let base = data.name.clone();
        let mut n = 1;
        while doc.images.iter().any(|i| i.name == data.name) {
            n += 1;
            data.name = format!("{base}-{n}");
        }
        let sampler = self.sampler(doc);
        let tiles = data.alpha.clone();
        let t = doc.texture(data, sampler);
        self.alpha.insert(t.value() as u32, tiles);
        self.textures.insert(key, t);
        Some(t)
    }

    /// The glTF material for model material `material`; `animated_mesh` asks for the
    /// copy with a texture transform for that mesh's texture-frame animation.
    pub fn get(
        &mut self,
        doc: &mut Document,
        cache: &mut ImageCache,
        model: &Model,
        team: usize,
        material: usize,
        animated_mesh: Option<usize>,
    ) -> json::Index<json::Material> {
        if let Some(&m) = self.made.get(&(material, animated_mesh)) {
            return m;
        }
        let m = self.make(doc, cache, model, team, material, animated_mesh);
        self.made.insert((material, animated_mesh), m);
        m
    }

    fn make(
        &mut self,
        doc: &mut Document,
        cache: &mut ImageCache,
        model: &Model,
        team: usize,
        material: usize,
        animated_mesh: Option<usize>,
    ) -> json::Index<json::Material> {
        use json::material::AlphaMode;
        let mat = &model.materials[material];
        let tex = |i: Option<usize>| i.and_then(|i| model.textures.get(i).map(|t| (i, t)));
        let mut extra = Map::new();

        let base_texture = tex(mat.base).and_then(|(i, base)| {
            let key = images::base_key(
                base,
                tex(mat.tcmask).map(|(_, t)| t),
                team,
                tex(mat.opacity).map(|(_, t)| (t, mat.opacity_source)),
            );
            let index = self.texture(doc, cache, key, model, i)?;
            // A legacy team-colour block shows the team's frame; a timed one starts at 0.
            let offset = animated_mesh
                .and_then(|mesh| super::meshes::team_offset(model, mesh, team))
                .unwrap_or(Vec2::ZERO);
            let transform = animated_mesh.map(|_| json::extensions::texture::TextureTransform {
                offset: json::extensions::texture::TextureTransformOffset(offset.to_array()),
                rotation: json::extensions::texture::TextureTransformRotation(0.0),
                scale: json::extensions::texture::TextureTransformScale([1.0, 1.0]),
                tex_coord: Some(0),
                extras: None,
            });
            Some(json::texture::Info {
                index,
                tex_coord: 0,
                extensions: transform.map(|t| json::extensions::texture::Info {
                    texture_transform: Some(t),
                    others: Map::new(),
                }),
                extras: None,
            })
        });
        // The way back: the page names as the model names them, and the page itself
        // when the team colour was baked into the base colour.
        let mut pages = Map::new();
        for (role, slot) in [
            ("base", mat.base),
            ("tcmask", mat.tcmask),
            ("normal", mat.normal),
            ("specular", mat.specular),
        ] {
            if let Some((_, t)) = tex(slot) {
                pages.insert(role.into(), json!(t.name));
            }
        }
        if !pages.is_empty() {
            extra.insert("pages".into(), Value::Object(pages));
        }
        if animated_mesh.is_some() {
            extra.insert("texture_animated".into(), json!(true));
        }
        if let (Some((i, t)), Some(_)) = (tex(mat.base), tex(mat.tcmask))
            && t.resolved.is_some()
            && let Some(index) = self.texture(doc, cache, images::plain_key(t), model, i)
        {
            extra.insert("page_texture".into(), json!(index.value()));
        }
        if let Some((i, t)) = tex(mat.tcmask) {
            let key = images::plain_key(t);
            if let Some(index) = self.texture(doc, cache, key, model, i) {
                extra.insert("tcmask_texture".into(), json!(index.value()));
            }
            let colour = TEAM_COLOURS[team % TEAM_COLOURS.len()];
            extra.insert(
                "team".into(),
                json!({"index": team, "name": colour.name, "rgb": colour.rgb}),
            );
        }
        if let Some((i, t)) = tex(mat.specular) {
            let key = images::plain_key(t);
            if let Some(index) = self.texture(doc, cache, key, model, i) {
                extra.insert("specular_texture".into(), json!(index.value()));
            }
        }
        let normal_texture = tex(mat.normal).and_then(|(i, t)| {
            let key = images::plain_key(t);
            Some(json::material::NormalTexture {
                index: self.texture(doc, cache, key, model, i)?,
                scale: 1.0,
                tex_coord: 0,
                extensions: None,
                extras: None,
            })
        });

        let (alpha_mode, cutoff) = match mat.blend {
            BlendMode::Opaque => (AlphaMode::Opaque, None),
            BlendMode::AlphaTest => (AlphaMode::Mask, Some(json::material::AlphaCutoff(0.5))),
            BlendMode::AlphaBlend
            | BlendMode::Premultiplied
            | BlendMode::Additive
            | BlendMode::Multiply => (AlphaMode::Blend, None),
        };
        // Alpha blending over opaque texels looks opaque: the mode is settled by
        // `finish` from the texels the triangles use (glTF viewers sort and skip depth
        // writes for BLEND, which Warzone 2100's ordinary models do not need).
        let follow_texels = mat.blend == BlendMode::AlphaBlend && mat.base_color[3] >= 1.0;
        let base_tiles = base_texture
            .as_ref()
            .and_then(|t| self.alpha.get(&(t.index.value() as u32)).cloned());
        let unlit = matches!(mat.blend, BlendMode::Additive | BlendMode::Premultiplied);
        match mat.blend {
            BlendMode::Additive => {
                extra.insert("blend".into(), json!("additive"));
                doc.warnings.push(format!(
                    "material {}: additive blending has no glTF equivalent; exported as \
                     alpha blending (marked \"blend\": \"additive\" in its extras)",
                    mat.name
                ));
            }
            BlendMode::Premultiplied => {
                extra.insert("blend".into(), json!("premultiplied"));
            }
            BlendMode::Multiply => {
                extra.insert("blend".into(), json!("multiply"));
                doc.warnings.push(format!(
                    "material {}: multiplying blending has no glTF equivalent; exported as \
                     alpha blending (marked \"blend\": \"multiply\" in its extras)",
                    mat.name
                ));
            }
            _ => {}
        }
        match mat.billboard {
            Billboard::None => {}
            Billboard::Roll => {
                extra.insert("billboard".into(), json!("roll"));
            }
            Billboard::RollPitch => {
                extra.insert("billboard".into(), json!("roll_pitch"));
            }
            Billboard::Screen => {
                extra.insert("billboard".into(), json!("screen"));
            }
        }
        let mut name = mat.name.clone();
        if let Some(mesh) = animated_mesh {
            name = format!("{name} (texture animation of {})", model.meshes[mesh].name);
        }
        let extensions = unlit.then(|| json::extensions::material::Material {
            unlit: Some(json::extensions::material::Unlit {}),
            ..Default::default()
        });
        let base_color = mat.base_color.map(|c| c.clamp(0.0, 1.0));
        let index = doc.root.push(json::Material {
            alpha_cutoff: cutoff,
            alpha_mode: Valid(alpha_mode),
            double_sided: mat.double_sided,
            name: Some(name),
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: json::material::PbrBaseColorFactor(base_color),
                base_color_texture: base_texture,
                metallic_factor: json::material::StrengthFactor(0.0),
                roughness_factor: json::material::StrengthFactor(1.0),
                metallic_roughness_texture: None,
                extensions: None,
                extras: None,
            },
            normal_texture,
            occlusion_texture: None,
            emissive_texture: None,
            emissive_factor: json::material::EmissiveFactor([0.0, 0.0, 0.0]),
            extensions,
            extras: if extra.is_empty() {
                None
            } else {
                extras(&Value::Object(extra))
            },
        });
        if follow_texels && let Some(tiles) = base_tiles {
            // A texture animation moves the UVs over the page: judge the whole page.
            let coverage = if animated_mesh.is_some() {
                tiles.coverage([-1.0, -1.0], [2.0, 2.0])
            } else {
                Coverage::Opaque
            };
            self.blended
                .insert(index.value() as u32, Blended { tiles, coverage });
        }
        index
    }

    /// Records that material `m` draws a triangle whose UVs span `lo..hi`.
    pub(crate) fn note_uvs(&mut self, m: json::Index<json::Material>, lo: [f32; 2], hi: [f32; 2]) {
        if let Some(b) = self.blended.get_mut(&(m.value() as u32))
            && b.coverage != Coverage::Translucent
        {
            b.coverage = b.coverage.max(b.tiles.coverage(lo, hi));
        }
    }

    /// Settles the alpha mode of the alpha-blended materials: `OPAQUE` when every texel
    /// their triangles use is opaque, `MASK` (cutoff 0.5) when texels are opaque or
    /// fully transparent (the viewer discards those), else `BLEND`.
    pub fn finish(&mut self, doc: &mut Document) {
        use json::material::AlphaMode;
        for (&m, b) in &self.blended {
            let mat = &mut doc.root.materials[m as usize];
            let (mode, cutoff) = match b.coverage {
                Coverage::Opaque => (AlphaMode::Opaque, None),
                Coverage::CutOut => (AlphaMode::Mask, Some(json::material::AlphaCutoff(0.5))),
                Coverage::Translucent => (AlphaMode::Blend, None),
            };
            mat.alpha_mode = Valid(mode);
            mat.alpha_cutoff = cutoff;
        }
    }
}
