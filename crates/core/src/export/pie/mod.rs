//! Warzone 2100 PIE 3 / PIE 4 writer: a [`Model`] → the text the game's loader reads
//! (`lib/ivis_opengl/imdload.cpp`) and `doc/PIE.md` describes. Pure: no file system, no
//! clock; bytes out.
//!
//! Conventions (README "Writing PIE"):
//! - **Space.** The model is +Y up, right-handed, PIE mirrored in X; the writer mirrors
//!   back (points and normals (−x, y, z), each triangle's last two corners swapped), so a
//!   PIE read and written again has the file's own numbers. Connectors are written z-up
//!   (x, y, z as the game reads them): [`crate::model::Connector::raw`] when the connector
//!   still sits where the loader put it, else (−x, z, y) of its position, rounded to
//!   integers (the game keeps integers).
//! - **Units.** A model in PIE units keeps them (scale 1): a PIE, or a glTF that `vitrine
//!   export` made of a PIE (the glTF reader undoes the export's scale;
//!   [`Model::units_format`]). Other models are scaled by 128 (one model unit = one game
//!   tile, the inverse of `vitrine export`'s glTF scale), or by [`PieOptions::scale`].
//! - **Levels.** Every node that shows a mesh becomes one level per material it uses, in
//!   node order. A static node's points are baked through its rest transform (PIE has no
//!   hierarchy); an animated node keeps its own space and its model-space transform at
//!   each key becomes an `ANIMOBJECT` frame. Skinned meshes are written in their rest
//!   pose (the skin is dropped, with a warning).
//! - **Geometry.** Triangles only (flags `200`, `4200` with a texture-animation block),
//!   identical points welded (UVs stay per polygon corner, so seams are kept), `NORMALS`
//!   always (a corner without an authored normal gets its face normal).
//! - **Header.** `TYPE` from the PIE file's flags (a PIE 4 level's own too), else from the
//!   material (blend, camera-facing, team-colour mask); `INTERPOLATE 0` only when the
//!   animation holds its frames (or a PIE 4 level said it), `INTERPOLATE 1` only where the
//!   source PIE wrote it; texture lines from the materials. What one PIE 3 header cannot say (levels
//!   that differ in TYPE, INTERPOLATE or page, a mask not named `page-NN_tcmask.png`) is
//!   written per level in PIE 4 and becomes a warning in PIE 3.
//!
//! Everything dropped or changed is a warning in [`Written::warnings`].

mod anim;
pub mod checked;
mod header;
mod levels;
pub mod pack;
mod text;

pub use checked::{CheckedPie, page_names, write_checked};
pub use header::page_name;

use crate::model::{Format, Model};

/// The PIE version written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PieVersion {
    /// PIE 3: read by every game release since 2.3.
    #[default]
    V3,
    /// PIE 4 (game 4.4+): `TCMASK`, per-level overrides, tileset lines, comments.
    V4,
}

impl PieVersion {
    /// `3` or `4`.
    pub fn number(self) -> u32 {
        match self {
            PieVersion::V3 => 3,
            PieVersion::V4 => 4,
        }
    }
}

/// What the writer is asked for.
#[derive(Debug, Clone, Default)]
pub struct PieOptions {
    /// Version to write.
    pub version: PieVersion,
    /// Model units → PIE units [default: [`default_scale`]].
    pub scale: Option<f32>,
    /// Texture page written as every level's `TEXTURE` (renames the page; a derived
    /// team-colour mask follows it).
    pub texture: Option<String>,
    /// A `#` comment line after the header (PIE 4 only; PIE 3 has no comments).
    pub comment: Option<String>,
}

/// The written file.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The PIE text (ASCII, `\n` line ends).
    pub text: String,
    /// What was dropped or changed, one line each.
    pub warnings: Vec<String>,
    /// Levels written.
    pub levels: usize,
    /// Model texture index → the page the game loads for it from this file (the mask the
    /// game derives from the page in PIE 3): what `vitrine convert --pack` copies.
    pub pages: Vec<(usize, String)>,
}

/// Placeholder page for a model without any texture.
pub const PLACEHOLDER_PAGE: &str = "page-0-placeholder.png";

/// The scale `write` uses for `model` when the options give none: 1 for a model in PIE
/// units ([`Model::units_format`]: a PIE, or a glTF exported from one), else 128.
pub fn default_scale(model: &Model) -> f32 {
    if model.units_format() == Format::Pie {
        1.0
    } else {
        128.0
    }
}

/// Writes `model` as PIE text.
///
/// # Errors
/// Nothing can be written: the model has no mesh, or the scale is not a positive
/// number.
pub fn write(model: &Model, options: &PieOptions) -> Result<Written, String> {
    let scale = options.scale.unwrap_or_else(|| default_scale(model));
    if !(scale.is_finite() && scale > 0.0) {
        return Err(format!("scale {scale}: expected a positive number"));
    }
    let mut warnings = Vec::new();
    let levels = levels::flatten(model, scale, &mut warnings);
    if levels.is_empty() {
        return Err("the model has no mesh to write as a PIE level".into());
    }
    let header = header::header(model, &levels, options, &mut warnings);
    let text = text::write(&header, &levels, options.version);
    Ok(Written {
        text,
        warnings,
        levels: levels.len(),
        pages: header.pages,
    })
}

#[cfg(test)]
mod tests;
