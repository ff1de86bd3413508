//! glTF materials and images → model materials and texture references.
//!
//! An image packed in the file (a `.glb`'s binary chunk, a buffer beside a `.gltf`, a
//! `data:` URI in the JSON) resolves to a [`FileRef::Embedded`] naming its bytes, so the
//! renderer, the exporters and `check` read it like any texture file; an image in a file
//! beside resolves to that file. Page names come from the exporter's `pages` extras
//! (what the model named the texture), else the image's URI or name (with the
//! extension its MIME type gives when the name has none).

use super::build::Source;
use super::data::{self, Buffer, Container, Origin};
use super::extras;
use crate::files::{FileRef, Files};
use crate::model::{Billboard, BlendMode, Location, Material, Model, TextureRef, TextureRole};
use serde_json::Value;
use std::collections::HashMap;

/// Model materials made so far, by glTF material.
pub struct Materials<'a> {
    doc: &'a gltf::Document,
    buffers: &'a [Buffer],
    holder: Option<&'a FileRef>,
    files: Option<&'a Files>,
    container: &'a Container<'a>,
    from_pie: bool,
    made: HashMap<Option<usize>, (usize, bool)>,
    /// Model texture per (glTF image, role, page name).
    textures: HashMap<(usize, TextureRole, String), usize>,
    /// Images named `*_tcmask`: (index, stem without `_tcmask`, lower case).
    tcmasks: Vec<(usize, String)>,
    warnings: Vec<String>,
}

/// The stem of an image's name or URI, lower case (`page-90-scratch-tank`).
fn image_stem(image: &gltf::Image<'_>) -> String {
    let name = match image.source() {
        gltf::image::Source::Uri { uri, .. } if !uri.starts_with("data:") => {
            crate::files::percent_decode(uri.rsplit('/').next().unwrap_or(uri))
        }
        _ => image.name().unwrap_or("").to_string(),
    };
    let stem = match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => &name,
    };
    stem.to_lowercase()
}

fn extension_of(mime: &str) -> &'static str {
    match mime {
        "image/jpeg" => ".jpg",
        "image/webp" => ".webp",
        "image/ktx2" => ".ktx2",
        _ => ".png",
    }
}

impl<'a> Materials<'a> {
    /// Materials of `src`'s document; `from_pie`: a Warzone 2100 model exported by
    /// Vitrine (its ordinary materials alpha-blend, as the game draws them).
    pub fn new(src: &Source<'a>, from_pie: bool) -> Self {
        let tcmasks = src
            .doc
            .images()
            .filter_map(|i| {
                let stem = image_stem(&i);
                stem.strip_suffix("_tcmask")
                    .map(|s| (i.index(), s.to_string()))
            })
            .collect();
        Materials {
            doc: src.doc,
            buffers: src.buffers,
            holder: src.holder,
            files: src.files,
            container: src.container,
            from_pie,
            made: HashMap::new(),
            textures: HashMap::new(),
            tcmasks,
            warnings: Vec::new(),
        }
    }

    /// Warnings gathered while making materials (images not found), added to `model`.
    pub fn finish(self, model: &mut Model) {
        for w in self.warnings {
            model.warn(Location::File, w);
        }
    }

    /// The model material of glTF material `m` (a plain grey one for none) and whether
    /// it is a texture-animated copy (its corners are animated).
    pub fn get(&mut self, m: gltf::Material<'_>, model: &mut Model) -> (usize, bool) {
        if let Some(&made) = self.made.get(&m.index()) {
            return made;
        }
        let mut made = self.make(&m, model);
        // The exporter's texture-animated copy of a material and the material itself are
        // one material of the model (its animated corners say which triangles move).
        let (index, animated) = made;
        let twin = self.made.values().find(|&&(other, other_animated)| {
            other_animated != animated && model.materials[other] == model.materials[index]
        });
        if let Some(&(twin, _)) = twin
            && index + 1 == model.materials.len()
        {
            model.materials.pop();
            made = (twin, animated);
        }
        self.made.insert(m.index(), made);
        made
    }

    fn make(&mut self, m: &gltf::Material<'_>, model: &mut Model) -> (usize, bool) {
        let x = extras(m.extras());
        let pages = &x["pages"];
        let pbr = m.pbr_metallic_roughness();
        let name = m.name().map_or_else(
            || match m.index() {
                Some(i) => format!("material {i}"),
                None => "default".into(),
            },
            str::to_string,
        );
        let animated = x["texture_animated"] == true || name.contains("(texture animation of ");
        // The exporter's copy for a texture animation is named after the original.
        let shown = name
            .split(" (texture animation of ")
            .next()
            .unwrap_or(&name)
            .to_string();
        let mut mat = Material::new(shown, pbr.base_color_factor());
        // The exporter's unbaked page when the team colour was baked into the base.
        let base_image = self.image_of_texture(&x["page_texture"]).or_else(|| {
            pbr.base_color_texture()
                .map(|t| t.texture().source().index())
        });
        if let Some(img) = base_image {
            mat.base = Some(self.texture(img, TextureRole::Base, &pages["base"], model));
        }
        let tcmask_image = self.image_of_texture(&x["tcmask_texture"]).or_else(|| {
            let stem = image_stem(&self.doc.images().nth(base_image?)?);
            let by_page = self
                .tcmasks
                .iter()
                .find(|(_, s)| !s.is_empty() && stem.starts_with(s.as_str()));
            match (by_page, self.tcmasks.as_slice()) {
                (Some((i, _)), _) => Some(*i),
                (None, [(i, _)]) => Some(*i),
                _ => None,
            }
        });
        if let Some(img) = tcmask_image {
            mat.tcmask = Some(self.texture(img, TextureRole::Tcmask, &pages["tcmask"], model));
        }
        if let Some(img) = self.image_of_texture(&x["specular_texture"]) {
            mat.specular =
                Some(self.texture(img, TextureRole::Specular, &pages["specular"], model));
        }
        if let Some(n) = m.normal_texture() {
            let img = n.texture().source().index();
            mat.normal = Some(self.texture(img, TextureRole::Normal, &pages["normal"], model));
        }
        mat.double_sided = m.double_sided();
        use gltf::material::AlphaMode;
        mat.blend = match (x["blend"].as_str(), m.alpha_mode()) {
            (Some("additive"), _) => BlendMode::Additive,
            (Some("premultiplied"), _) => BlendMode::Premultiplied,
            // The game alpha-blends every ordinary model (the PIE loader's reading).
            _ if self.from_pie => BlendMode::AlphaBlend,
            (_, AlphaMode::Opaque) => BlendMode::Opaque,
            (_, AlphaMode::Mask) => BlendMode::AlphaTest,
            (_, AlphaMode::Blend) => BlendMode::AlphaBlend,
        };
        mat.billboard = match x["billboard"].as_str() {
            Some("roll") => Billboard::Roll,
            Some("roll_pitch") => Billboard::RollPitch,
            Some("screen") => Billboard::Screen,
            _ => Billboard::None,
        };
        model.materials.push(mat);
        (model.materials.len() - 1, animated)
    }

    /// The image of the glTF texture whose index `v` holds.
    fn image_of_texture(&self, v: &Value) -> Option<usize> {
        let t = self
            .doc
            .textures()
            .nth(usize::try_from(v.as_u64()?).ok()?)?;
        Some(t.source().index())
    }

    /// The model texture for image `img` in `role`, named `page` (the exporter's page
    /// name) or after the image.
    fn texture(&mut self, img: usize, role: TextureRole, page: &Value, model: &mut Model) -> usize {
        let Some(image) = self.doc.images().nth(img) else {
            return 0;
        };
        let (name, resolved) = self.image_file(&image);
        let name = page.as_str().map_or(name, str::to_string);
        let key = (img, role, name.clone());
        if let Some(&t) = self.textures.get(&key) {
            return t;
        }
        model.textures.push(TextureRef {
            role,
            name,
            resolved,
            tileset: None,
        });
        let t = model.textures.len() - 1;
        self.textures.insert(key, t);
        t
    }

    /// The name of an image and the file holding its bytes, if they can be named.
    fn image_file(&mut self, image: &gltf::Image<'_>) -> (String, Option<FileRef>) {
        let i = image.index();
        let named = |mime: &str| {
            let n = image.name().unwrap_or("").trim();
            match n {
                "" => format!("image {i}{}", extension_of(mime)),
                n if n.contains('.') => n.to_string(),
                n => format!("{n}{}", extension_of(mime)),
            }
        };
        match image.source() {
            gltf::image::Source::View { view, mime_type } => {
                let name = named(mime_type);
                let file = match &self.buffers.get(view.buffer().index()).map(|b| &b.origin) {
                    Some(Origin::File(file, at)) => Some(FileRef::Embedded {
                        file: Box::new(file.clone()),
                        offset: at + view.offset() as u64,
                        len: view.length() as u64,
                        base64: false,
                        name: name.clone(),
                    }),
                    _ => {
                        self.warnings.push(format!(
                            "image {i} ({name}): held in a data: URI buffer; not shown"
                        ));
                        None
                    }
                };
                (name, file)
            }
            gltf::image::Source::Uri { uri, mime_type } if uri.starts_with("data:") => {
                let mime = mime_type.unwrap_or_else(|| {
                    uri.get(5..)
                        .and_then(|r| r.split([';', ',']).next())
                        .unwrap_or("image/png")
                });
                let name = named(mime);
                let payload = data::data_uri(uri)
                    .filter(|&(_, b64)| b64)
                    .and_then(|(start, _)| {
                        let text = &uri.as_bytes()[start..];
                        let at = find(self.container.json, text)?;
                        Some(self.container.json_offset + at as u64)
                    });
                let file = match (self.holder, payload) {
                    (Some(h), Some(at)) => Some(FileRef::Embedded {
                        file: Box::new(h.clone()),
                        offset: at,
                        len: (uri.len() - data::data_uri(uri).map_or(0, |d| d.0)) as u64,
                        base64: true,
                        name: name.clone(),
                    }),
                    _ => {
                        self.warnings
                            .push(format!("image {i} ({name}): its data: URI cannot be read"));
                        None
                    }
                };
                (name, file)
            }
            gltf::image::Source::Uri { uri, .. } => {
                let name = crate::files::percent_decode(uri.rsplit('/').next().unwrap_or(uri));
                // `check_uris` refused URIs that leave the folder before this runs.
                let file = data::relative_path(uri).ok().and_then(|p| {
                    let f = self.holder?.parent()?.join(&p);
                    self.files?.is_file(&f).then_some(f)
                });
                if file.is_none() {
                    self.warnings
                        .push(format!("image {i}: {uri} not found beside the glTF"));
                }
                (name, file)
            }
        }
    }
}

/// The first position of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}
