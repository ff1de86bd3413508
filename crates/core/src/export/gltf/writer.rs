//! A [`Document`] → bytes and files: a `.glb` (JSON and binary chunks, PNGs embedded in
//! the buffer) or a `.gltf` with `<stem>.bin` and `<stem>-<image>.png` beside it. Every
//! file goes through [`crate::files::atomic`] (a temporary name, then a rename); a batch
//! writes without a flush to disk per file ([`write_unsynced`]).

use super::document::Document;
use crate::files::atomic;
use gltf_json as json;
use json::validation::USize64;
use serde::Serialize;
use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};

/// Which container a path asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// Binary glTF: one file.
    Glb,
    /// JSON glTF with the buffer and images as files beside it.
    Gltf,
}

impl Container {
    /// From the output path's extension (`.glb` / `.gltf`, any case).
    pub fn for_path(path: &Path) -> Option<Container> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "glb" => Some(Container::Glb),
            "gltf" => Some(Container::Gltf),
            _ => None,
        }
    }
}

/// A channel whose target is a JSON pointer (`KHR_animation_pointer`): gltf-json 1.4's
/// `Target` requires a node and a TRS path, so these are typed here.
#[derive(Serialize)]
struct PointerChannel<'a> {
    sampler: u32,
    target: PointerTarget<'a>,
}

#[derive(Serialize)]
struct PointerTarget<'a> {
    path: &'static str,
    extensions: PointerExtensions<'a>,
}

#[derive(Serialize)]
struct PointerExtensions<'a> {
    #[serde(rename = "KHR_animation_pointer")]
    pointer: Pointer<'a>,
}

#[derive(Serialize)]
struct Pointer<'a> {
    pointer: &'a str,
}

/// The document's JSON, with the pointer channels added to their animations.
fn json_bytes(doc: &Document) -> io::Result<Vec<u8>> {
    let mut value = serde_json::to_value(&doc.root).map_err(io::Error::other)?;
    if let Some(anims) = value
        .get_mut("animations")
        .and_then(serde_json::Value::as_array_mut)
    {
        for (anim, pointers) in anims.iter_mut().zip(&doc.pointer_channels) {
            if pointers.is_empty() {
                continue;
            }
            let channels = anim
                .as_object_mut()
                .ok_or_else(|| io::Error::other("animation is not an object"))?
                .entry("channels")
                .or_insert_with(|| serde_json::Value::Array(Vec::new()));
            if let Some(list) = channels.as_array_mut() {
                for (sampler, pointer) in pointers {
                    let c = PointerChannel {
                        sampler: *sampler,
                        target: PointerTarget {
                            path: "pointer",
                            extensions: PointerExtensions {
                                pointer: Pointer { pointer },
                            },
                        },
                    };
                    list.push(serde_json::to_value(c).map_err(io::Error::other)?);
                }
            }
        }
    }
    serde_json::to_vec(&value).map_err(io::Error::other)
}

/// Declares the extensions the document uses.
fn declare_extensions(doc: &mut Document) {
    let mut used = Vec::new();
    if doc
        .root
        .materials
        .iter()
        .any(|m| m.extensions.as_ref().is_some_and(|e| e.unlit.is_some()))
    {
        used.push("KHR_materials_unlit");
    }
    let transform = doc.root.materials.iter().any(|m| {
        m.pbr_metallic_roughness
            .base_color_texture
            .as_ref()
            .and_then(|t| t.extensions.as_ref())
            .is_some_and(|e| e.texture_transform.is_some())
    });
    if transform {
        used.push("KHR_texture_transform");
    }
    if doc.pointer_channels.iter().any(|p| !p.is_empty()) {
        used.push("KHR_animation_pointer");
    }
    doc.root.extensions_used = used.into_iter().map(String::from).collect();
}

fn set_buffer(doc: &mut Document, uri: Option<String>) {
    while !doc.bin.len().is_multiple_of(4) {
        doc.bin.push(0);
    }
    doc.root.buffers = if doc.bin.is_empty() {
        Vec::new()
    } else {
        vec![json::Buffer {
            byte_length: USize64::from(doc.bin.len()),
            name: None,
            uri,
            extensions: None,
            extras: None,
        }]
    };
}

/// The whole `.glb` file: images moved into the binary buffer.
pub fn glb_bytes(mut doc: Document) -> io::Result<Vec<u8>> {
    declare_extensions(&mut doc);
    let images = std::mem::take(&mut doc.images);
    for (i, image) in images.iter().enumerate() {
        let view = doc.view(&image.png, None);
        let img = &mut doc.root.images[i];
        img.buffer_view = Some(view);
        img.mime_type = Some(json::image::MimeType("image/png".into()));
    }
    set_buffer(&mut doc, None);
    let json = json_bytes(&doc)?;
    let glb = gltf::binary::Glb {
        header: gltf::binary::Header {
            magic: *b"glTF",
            version: 2,
            length: 0, // computed by to_vec
        },
        json: Cow::Owned(json),
        bin: (!doc.bin.is_empty()).then_some(Cow::Owned(doc.bin)),
    };
    glb.to_vec().map_err(|e| io::Error::other(e.to_string()))
}

/// Writes `doc` to `path` (`.glb` or `.gltf` by extension), flushed to disk; returns
/// every file written.
pub fn write(doc: Document, path: &Path) -> io::Result<Vec<PathBuf>> {
    write_with(doc, path, atomic::write)
}

/// [`write`] for one model of a batch: renamed into place all the same, but not flushed
/// to disk file by file ([`atomic::write_unsynced`] says what that risks).
pub fn write_unsynced(doc: Document, path: &Path) -> io::Result<Vec<PathBuf>> {
    write_with(doc, path, atomic::write_unsynced)
}

fn write_with(
    mut doc: Document,
    path: &Path,
    put: fn(&Path, &[u8]) -> io::Result<()>,
) -> io::Result<Vec<PathBuf>> {
    let container = Container::for_path(path).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: the output must end in .glb or .gltf", path.display()),
        )
    })?;
    match container {
        Container::Glb => {
            let bytes = glb_bytes(doc)?;
            put(path, &bytes)?;
            Ok(vec![path.to_path_buf()])
        }
        Container::Gltf => {
            declare_extensions(&mut doc);
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".into());
            let dir = path.parent().unwrap_or(Path::new(""));
            let mut written = Vec::new();
            for (i, image) in doc.images.iter().enumerate() {
                let name = format!("{stem}-{}.png", image.name);
                let file = dir.join(&name);
                put(&file, &image.png)?;
                written.push(file);
                let img = &mut doc.root.images[i];
                img.uri = Some(uri_escape(&name));
            }
            let bin_name = format!("{stem}.bin");
            if !doc.bin.is_empty() {
                set_buffer(&mut doc, Some(uri_escape(&bin_name)));
                let file = dir.join(&bin_name);
                put(&file, &doc.bin)?;
                written.push(file);
            }
            // The .gltf last: a reader never sees it before its files.
            put(path, &json_bytes(&doc)?)?;
            written.push(path.to_path_buf());
            Ok(written)
        }
    }
}

/// A file name as a relative URI (RFC 3986: unreserved characters kept, the rest
/// percent-encoded).
fn uri_escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_and_uris() {
        assert_eq!(
            Container::for_path(Path::new("a/B.GLB")),
            Some(Container::Glb)
        );
        assert_eq!(
            Container::for_path(Path::new("b.gltf")),
            Some(Container::Gltf)
        );
        assert_eq!(Container::for_path(Path::new("c.obj")), None);
        assert_eq!(uri_escape("tank 2-page_7.png"), "tank%202-page_7.png");
    }
}
