//! `vitrine convert --pack`: the texture pages a written PIE makes the game load (base
//! colour, team-colour mask, normal and specular maps), read from where the model found
//! them — a file beside a glTF or OBJ, an image packed inside a `.glb`, a page of the data
//! roots — and made PNG under the page name the file gives them. Pure: the caller writes
//! them (under `texpages/`, never over a different file).

use super::Written;
use crate::files::{FileRef, Files};
use crate::model::Model;

/// One page to write beside the PIE.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The page's file name, as the PIE names it (`page-90-tank.png`).
    pub name: String,
    /// Where the image came from.
    pub source: FileRef,
    /// PNG bytes: the source's own when it is a PNG already, else the image re-encoded.
    pub png: Vec<u8>,
}

/// The pages `written` (the writer's output for `model`) makes the game load, read through
/// `files`; a page whose image is missing or cannot be read becomes a warning.
pub fn pages(model: &Model, written: &Written, files: &Files) -> (Vec<Page>, Vec<String>) {
    let mut out: Vec<Page> = Vec::new();
    let mut warnings = Vec::new();
    for (index, name) in &written.pages {
        if out.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
            continue;
        }
        let Some(texture) = model.textures.get(*index) else {
            continue;
        };
        let Some(source) = &texture.resolved else {
            warnings.push(format!(
                "page {name} not packed: its image {:?} was not found",
                texture.name
            ));
            continue;
        };
        match png(files, source) {
            Ok(png) => out.push(Page {
                name: name.clone(),
                source: source.clone(),
                png,
            }),
            Err(e) => warnings.push(format!("page {name} not packed: {e}")),
        }
    }
    (out, warnings)
}

/// `file` as PNG bytes: a PNG as it is (after checking the game can decode it), anything
/// else decoded and encoded again.
fn png(files: &Files, file: &FileRef) -> Result<Vec<u8>, String> {
    let bytes = files.read(file).map_err(|e| format!("{file}: {e}"))?;
    let image = crate::formats::texture::decode_bytes(&bytes, &file.file_name())
        .map_err(|e| format!("{file}: {e}"))?;
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Ok(bytes);
    }
    let mut out = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| format!("{file}: cannot encode as PNG: {e}"))?;
    Ok(out.into_inner())
}
