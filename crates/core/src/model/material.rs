//! Materials and texture references.

use crate::files::FileRef;

/// What a texture is used for (the `role` of `info --json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextureRole {
    /// Diffuse colour.
    Base,
    /// Team-colour mask (PIE; strength in the alpha channel).
    Tcmask,
    /// Normal map.
    Normal,
    /// Specular map.
    Specular,
    /// Opacity / alpha mask.
    Opacity,
    /// Bump (height) map; recorded, shown in the panel.
    Bump,
}

impl TextureRole {
    /// The lower-case name used in `info --json` and the panel.
    pub fn name(self) -> &'static str {
        match self {
            TextureRole::Base => "base",
            TextureRole::Tcmask => "tcmask",
            TextureRole::Normal => "normal",
            TextureRole::Specular => "specular",
            TextureRole::Opacity => "opacity",
            TextureRole::Bump => "bump",
        }
    }
}

/// A texture file named by the model.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureRef {
    /// Its use.
    pub role: TextureRole,
    /// The name exactly as the file writes it.
    pub name: String,
    /// The file found (on disk or in an archive), or `None` if it is missing (shown as a
    /// checkerboard).
    pub resolved: Option<FileRef>,
    /// PIE tileset slot (0 arizona, 1 urban, 2 rockies); `None` elsewhere.
    pub tileset: Option<u8>,
}

impl TextureRef {
    /// An unresolved reference.
    pub fn new(role: TextureRole, name: impl Into<String>) -> Self {
        TextureRef {
            role,
            name: name.into(),
            resolved: None,
            tileset: None,
        }
    }
}

/// How a material's fragments combine with what is behind them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlendMode {
    /// Written as is.
    #[default]
    Opaque,
    /// Fragments with alpha below 0.5 are discarded; the rest is opaque.
    AlphaTest,
    /// `dst + src · α`.
    Additive,
    /// `src + dst · (1 − α)` with colour already multiplied by alpha.
    Premultiplied,
    /// Ordinary `src · α + dst · (1 − α)`, drawn after the opaque draws; writes depth,
    /// and fully transparent texels are discarded (how Warzone 2100 draws ordinary
    /// models: cut-out trees and the translucent rotor blur both come out right).
    AlphaBlend,
    /// `dst · src`: the fragment's colour multiplies what is behind it (unlit, no depth
    /// written; Warzone 2100's water over the riverbed).
    Multiply,
}

/// Whether a material turns to face the camera (PIE TYPE 0x10 / 0x20), about its node's
/// origin, keeping the node's position and scale. The camera direction is the view's
/// (from the model towards the eye).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Billboard {
    /// Drawn as modelled.
    #[default]
    None,
    /// Turns about its own Z axis until its +Y axis points as nearly at the camera as it
    /// can (a tracer sprite lying in XZ along its flight: Warzone 2100's roll to camera).
    Roll,
    /// Turns about its X axis, then its Z axis, until its +Y axis points at the camera
    /// (a sprite lying in XZ: Warzone 2100's pitch to camera).
    RollPitch,
    /// Turns until its +Z axis points at the camera with its +Y axis up on the screen (a
    /// sprite standing in XY: the game's effects turn by the camera's yaw and pitch).
    Screen,
}

/// Which channel of the opacity texture holds alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AlphaSource {
    /// The alpha channel.
    #[default]
    Alpha,
    /// The red channel (PangYa `_mask.jpg`).
    Red,
    /// Luminance (palettised or grey masks).
    Luminance,
}

/// A material: textures (indices into [`crate::model::Model::textures`]) and render state.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// Name shown in the panel.
    pub name: String,
    /// Linear RGBA multiplied with the base texture (white when textured).
    pub base_color: [f32; 4],
    /// Diffuse texture.
    pub base: Option<usize>,
    /// Team-colour mask: `out = lit + (team − 0.5) × mask.a`.
    pub tcmask: Option<usize>,
    /// Normal map.
    pub normal: Option<usize>,
    /// Specular map.
    pub specular: Option<usize>,
    /// Opacity mask.
    pub opacity: Option<usize>,
    /// Channel of `opacity` that holds alpha.
    pub opacity_source: AlphaSource,
    /// Bump map (not used for shading).
    pub bump: Option<usize>,
    /// Blending.
    pub blend: BlendMode,
    /// Draw back faces too.
    pub double_sided: bool,
    /// Camera-facing mode.
    pub billboard: Billboard,
    /// Shade map: a texture whose red channel multiplies the colour, read with the
    /// corners' second UV set (Warzone 2100's second water page).
    pub shade: Option<usize>,
    /// How fast the base texture's UV set 0 moves, UV units per second of scene time
    /// (Warzone 2100's scrolling water page).
    pub uv_scroll: [f32; 2],
}

impl Material {
    /// An opaque, untextured, single-sided material of the given colour.
    pub fn new(name: impl Into<String>, base_color: [f32; 4]) -> Self {
        Material {
            name: name.into(),
            base_color,
            base: None,
            tcmask: None,
            normal: None,
            specular: None,
            opacity: None,
            opacity_source: AlphaSource::Alpha,
            bump: None,
            blend: BlendMode::Opaque,
            double_sided: false,
            billboard: Billboard::None,
            shade: None,
            uv_scroll: [0.0; 2],
        }
    }
}
