//! glTF 2.0 (`.glb`, `.gltf`) → [`Model`], read with the `gltf` crate's schema and
//! validation; buffers and images come through [`crate::files`] ([`load`]), never
//! `std::fs`.
//!
//! Conventions (the ones `vitrine export` writes, documented in README):
//! - **levels**: nodes named `level N` (numbered in that order), else the top-level
//!   nodes with a mesh, in order; other nodes are kept as parts or groups;
//! - **connectors**: nodes without a mesh named `connector N` (`Connector::raw` from
//!   the exporter's `file_xyz` extras, else the position in PIE's z-up order);
//! - **shadow meshes**: a node (or mesh) named `shadow` under a level;
//! - **textures**: the base colour texture's image; a `*_tcmask` image (or the
//!   exporter's `tcmask_texture` extras) as the team-colour mask; the exporter's
//!   `pages` extras give each texture the page name the model named it by;
//! - **animations**: node TRS channels as clips (a `STEP` scale channel of zeros is a
//!   visibility track); the exporter's clip extras (frame rate, frames, loop, events);
//! - the exporter's scene extras: its scale is undone (a Warzone 2100 model comes back
//!   in PIE units), its events and the PIE facts (`"pie"`: TYPE flags, INTERPOLATE,
//!   per-level flags, ANIMOBJECT timing, texture animation) land in
//!   [`Model::events`] and the `pie` of [`crate::model::details::GltfDetails`].
//!
//! Axes: glTF is +Y up, right-handed, counter-clockwise, UV origin top-left — the
//! model's own convention, so nothing turns or flips.

mod anim;
mod build;
pub mod data;
mod materials;

use crate::files::FileRef;
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Location, Model};
use serde_json::Value;

/// Parses glTF `bytes` with nothing beside them: a `.glb` or a `.gltf` whose buffers are
/// `data:` URIs (a buffer in another file is an error; images stay unresolved).
pub fn parse(bytes: &[u8]) -> Result<Model, LoadError> {
    let mut no_files = |uri: &str| -> Result<(FileRef, Vec<u8>), String> {
        Err(format!(
            "{uri}: a file beside the glTF, which is not available here"
        ))
    };
    parse_with(bytes, None, &mut no_files)
}

/// Reads and parses the glTF `file`: buffers and images named by relative URIs are read
/// from its folder (or below it) through [`crate::files`]; a URI that leaves the folder
/// is refused.
pub fn load(file: &FileRef) -> Result<Model, LoadError> {
    let name = file.file_name();
    let bytes = crate::formats::read_file(file).map_err(|e| e.in_file(&name))?;
    let dir = file.parent();
    let mut fetch = |path: &str| -> Result<(FileRef, Vec<u8>), String> {
        let dir = dir.as_ref().ok_or("the glTF has no folder")?;
        let f = dir.join(path);
        let bytes = crate::files::read(&f).map_err(|e| e.to_string())?;
        Ok((f, bytes))
    };
    parse_with(&bytes, Some(file), &mut fetch).map_err(|e| e.in_file(&name))
}

/// The parse shared by [`parse`] and [`load`]; `holder` is the file the bytes are (for
/// naming embedded images).
fn parse_with(
    bytes: &[u8],
    holder: Option<&FileRef>,
    fetch: &mut data::Fetch<'_>,
) -> Result<Model, LoadError> {
    let container = data::split(bytes)?;
    let (document, dropped) = document(&container)?;
    check_image_uris(&document)?;
    let buffers = data::buffers(&document, &container, holder, fetch)?;
    let source = build::Source {
        doc: &document,
        buffers: &buffers,
        holder,
        container: &container,
    };
    let mut model = build::build(source)?;
    if dropped > 0 {
        model.warn(
            Location::File,
            format!(
                "{dropped} KHR_animation_pointer channel(s) not read (texture animation comes \
                 from the exporter's extras where present)"
            ),
        );
    }
    Ok(model)
}

/// Refuses an image URI that leaves the glTF's folder (buffers are checked as they
/// are read).
fn check_image_uris(doc: &gltf::Document) -> Result<(), LoadError> {
    for image in doc.images() {
        if let gltf::image::Source::Uri { uri, .. } = image.source()
            && !uri.starts_with("data:")
        {
            data::relative_path(uri).map_err(|m| {
                LoadError::new(
                    ErrorKind::Invalid,
                    Location::File,
                    format!("image {}: {m}", image.index()),
                )
            })?;
        }
    }
    Ok(())
}

/// The validated document. Channels targeting `KHR_animation_pointer` (which the `gltf`
/// crate's schema refuses) are taken out first; returns how many.
fn document(container: &data::Container<'_>) -> Result<(gltf::Document, usize), LoadError> {
    let mut value: Value = serde_json::from_slice(container.json).map_err(|e| {
        let (line, col) = (e.line(), e.column());
        let location = if container.json_offset == 0 {
            Location::Line(line as u32)
        } else {
            Location::Offset(container.json_offset)
        };
        LoadError::new(
            ErrorKind::Syntax,
            location,
            format!("glTF JSON, line {line} column {col}: {e}"),
        )
    })?;
    let mut dropped = 0;
    if let Some(anims) = value.get_mut("animations").and_then(Value::as_array_mut) {
        for a in anims {
            if let Some(ch) = a.get_mut("channels").and_then(Value::as_array_mut) {
                let before = ch.len();
                ch.retain(|c| c["target"]["path"] != "pointer");
                dropped += before - ch.len();
            }
        }
    }
    for key in ["extensionsUsed", "extensionsRequired"] {
        if let Some(list) = value.get_mut(key).and_then(Value::as_array_mut) {
            list.retain(|e| e != "KHR_animation_pointer");
        }
    }
    let root: gltf::json::Root = serde_json::from_value(value).map_err(|e| {
        LoadError::new(
            ErrorKind::Invalid,
            Location::Offset(container.json_offset),
            format!("not a glTF 2.0 document: {e}"),
        )
    })?;
    let doc = gltf::Document::from_json(root).map_err(|e| {
        LoadError::new(
            ErrorKind::Invalid,
            Location::Offset(container.json_offset),
            format!("invalid glTF: {e}"),
        )
    })?;
    Ok((doc, dropped))
}

/// The `extras` of a glTF object as JSON (`Null` when absent or unreadable).
pub(crate) fn extras(raw: &Option<Box<serde_json::value::RawValue>>) -> Value {
    raw.as_ref()
        .and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or(Value::Null)
}

/// The number in `level N` / `connector N` (case-insensitive; `_` for the space, as
/// Blender's OBJ exporter writes names).
pub fn numbered(name: &str, word: &str) -> Option<u32> {
    let name = name.trim();
    let head = name.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let rest = name[word.len()..].strip_prefix([' ', '_'])?;
    // Blender adds `.001` to duplicate names.
    let digits = rest.split('.').next()?;
    digits.parse().ok()
}

#[cfg(test)]
mod tests;
