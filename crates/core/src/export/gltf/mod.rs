//! glTF 2.0 export (`.glb` and `.gltf`) of any loaded [`Model`]: node hierarchy,
//! meshes, materials with the team colour baked, skins, animations, connectors.
//!
//! Pure: reads the model (and its texture files from the [`crate::files::Files`] the
//! [`ImageCache`] is given), hands the files it makes to the caller's writer
//! ([`writer::write_with`]); no GPU, no UI, no file system. The JSON is built from
//! `gltf-json`'s schema types.
//!
//! Axes: glTF is +Y up, right-handed, metres, as the model already is, so nothing
//! turns; a uniform scale converts the file's units (`default_scale`: Warzone 2100's
//! 128 units per tile become 1/128, so a tank is about a metre long; other formats keep
//! their units). The scale is baked into positions, translations and inverse bind
//! matrices (no extra root node).
//!
//! ```no_run
//! use vitrine_core::export::gltf::{ExportOptions, ImageCache, export, writer};
//! # fn demo(files: &vitrine_core::files::Files) {
//! let tank = files.parse("tank.pie".as_ref());
//! let model = vitrine_core::formats::load(files, &tank, &Default::default()).unwrap();
//! let doc = export(&model, &ExportOptions::default(), &mut ImageCache::new(files)).unwrap();
//! let mut written = Vec::new();
//! writer::write_with(doc, "tank.glb".as_ref(), |path, bytes| {
//!     written.push((path.to_path_buf(), bytes.to_vec()));
//!     Ok(())
//! })
//! .unwrap();
//! # }
//! ```

mod animations;
mod document;
pub(crate) mod images;
mod materials;
mod meshes;
mod scene;
mod skins;
pub mod writer;

pub use document::Document;
pub use images::ImageCache;
pub use writer::Container;

use crate::model::{Format, Model};
use gltf_json as json;

/// Which clips become animations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ClipChoice {
    /// The model's default (first) clip.
    #[default]
    Default,
    /// The clip, or the motion, with this name.
    Named(String),
    /// Every clip.
    All,
    /// None: a static model.
    None,
}

/// How to export.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExportOptions {
    /// Team colour index baked into team-coloured textures (0 = green, the viewer's
    /// default).
    pub team: usize,
    /// Clips to export.
    pub clips: ClipChoice,
    /// Uniform scale; `None` = `default_scale` of the model's format.
    pub scale: Option<f32>,
    /// How texture-frame animation (PIE) is written.
    pub texture_frames: TextureFrames,
}

/// How texture-frame animation is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TextureFrames {
    /// `KHR_texture_transform` offsets animated through `KHR_animation_pointer`
    /// (Blender 4.2+ and Babylon.js read it).
    #[default]
    Pointer,
    /// Described in the materials' `extras` only, for readers that reject
    /// `KHR_animation_pointer` (the Rust `gltf` crate 1.4, so Bevy).
    Extras,
}

/// Why an export could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// `--clip` named nothing the model has.
    #[error("no clip or motion {name:?} (clips: {available})")]
    NoSuchClip {
        /// The name asked for.
        name: String,
        /// What the model has, comma-separated.
        available: String,
    },
    /// The scale is zero, negative or not a number.
    #[error("scale {0} is not a positive number")]
    BadScale(f32),
}

/// The scale that makes a model of `format` about life-size in metres: PIE 1/128 (128
/// units = one Warzone 2100 tile, so a tank is about a metre long); the other formats'
/// units are kept (1).
pub(crate) fn default_scale(format: Format) -> f32 {
    match format {
        Format::Pie => 1.0 / 128.0,
        Format::Pmf | Format::Pet | Format::Tpm | Format::Gltf | Format::Obj => 1.0,
    }
}

/// The scale `model` is exported at by default: `default_scale` of its format, or the
/// scale of the Vitrine export it was read back from (so a PIE → glTF → glTF trip keeps
/// its size).
pub fn model_scale(model: &Model) -> f32 {
    let source = match &model.details {
        crate::model::details::Details::Gltf(g) => g.source.as_ref(),
        _ => None,
    };
    source
        .map(|s| s.scale as f32)
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or_else(|| default_scale(model.format))
}

/// The animations `choice` asks for.
fn plans(model: &Model, choice: &ClipChoice) -> Result<Vec<animations::Plan>, ExportError> {
    let all = |model: &Model| -> Vec<_> {
        (0..model.clips.len())
            .flat_map(|c| animations::plans_of_clip(model, c))
            .collect()
    };
    Ok(match choice {
        ClipChoice::None => Vec::new(),
        ClipChoice::All => all(model),
        ClipChoice::Default => {
            if model.clips.is_empty() {
                Vec::new()
            } else {
                animations::plans_of_clip(model, 0)
            }
        }
        ClipChoice::Named(name) => match model.clip_index(name) {
            Some(c) => animations::plans_of_clip(model, c),
            None => vec![animations::plan_of_motion(model, name).ok_or_else(|| {
                ExportError::NoSuchClip {
                    name: name.clone(),
                    available: all(model)
                        .iter()
                        .map(|p| p.name.as_str())
                        .chain(model.clips.iter().map(|c| c.name.as_str()))
                        .collect::<Vec<_>>()
                        .join(", "),
                }
            })?],
        },
    })
}

/// Builds the glTF document of `model`. Textures are read, baked and encoded through
/// `cache` (keep one cache for a batch). Problems that do not stop the export (a
/// missing texture, a blend mode glTF lacks) are in [`Document::warnings`].
pub fn export(
    model: &Model,
    options: &ExportOptions,
    cache: &mut ImageCache,
) -> Result<Document, ExportError> {
    let scale = options.scale.unwrap_or_else(|| model_scale(model));
    if !(scale.is_finite() && scale > 0.0) {
        return Err(ExportError::BadScale(scale));
    }
    let plans = plans(model, &options.clips)?;
    let mut doc = Document::default();
    doc.root.asset = json::Asset {
        copyright: None,
        extensions: None,
        extras: None,
        generator: Some(format!("Vitrine {}", env!("CARGO_PKG_VERSION"))),
        min_version: None,
        version: "2.0".into(),
    };

    let mut texture_animated = vec![false; model.meshes.len()];
    for p in &plans {
        for t in &model.clips[p.clip].texture_frames {
            if !t.team_colour
                && let Some(a) = texture_animated.get_mut(t.mesh)
            {
                *a = true;
            }
        }
    }
    let needs_static = skins::needs_static_joint(model);
    let static_joint: Vec<Option<u16>> = model
        .skins
        .iter()
        .zip(&needs_static)
        .map(|(s, &n)| n.then_some(s.joints.len() as u16))
        .collect();

    let mut materials = materials::Materials::default();
    let settings = meshes::MeshSettings {
        scale,
        team: options.team,
        texture_animated: &texture_animated,
        static_joint: &static_joint,
    };
    let exported = meshes::export_meshes(&mut doc, &mut materials, cache, model, &settings);
    materials.finish(&mut doc);
    // Skins refer to nodes by index: glTF node i is model node i, the static joint comes
    // after the model's nodes and connectors.
    let any_static = needs_static.iter().any(|&n| n);
    let static_index =
        any_static.then(|| json::Index::new((model.nodes.len() + model.connectors.len()) as u32));
    let skins = skins::export_skins(&mut doc, model, scale, &needs_static, static_index);
    let static_node = scene::export_nodes(
        &mut doc,
        model,
        scale,
        &exported.meshes,
        &exported.skinned,
        &skins,
        any_static,
    );
    debug_assert_eq!(static_node, static_index);
    animations::export_animations(
        &mut doc,
        model,
        scale,
        &plans,
        &exported.animated_materials,
        options.texture_frames == TextureFrames::Pointer,
    );
    doc.warnings.dedup();
    Ok(doc)
}
