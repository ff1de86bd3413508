//! Screenshots for forums: the view rendered offscreen (at the view's size or a chosen
//! one up to 4096 × 4096), saved as `<model>-<n>.png` in the screenshot folder without
//! ever replacing an existing file.
//!
//! Writing is atomic and never clobbers ([`crate::files::atomic::write_numbered`]): the
//! PNG goes to a temporary file in the target folder, then takes the first free name
//! with a no-replace rename, so two viewers saving at once cannot overwrite each other.

use crate::model::Pose;
use crate::render::{RenderError, RenderTarget, SceneRenderer, ViewSettings};
use std::path::{Path, PathBuf};

/// The view as a clean screenshot draws it: transparent background, no overlays and no
/// selection tint. What the user hid stays hidden; shadows stay as set (they are part of
/// the picture, and fall on the transparent background as translucent black).
pub fn clean_view(view: &ViewSettings) -> ViewSettings {
    let mut v = view.clone();
    v.background[3] = 0;
    v.overlays = crate::render::Overlays::NONE;
    v.selected = None;
    v
}

/// Renders the renderer's current model in `pose` at `width` × `height` and reads it
/// back.
pub fn render_image(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    renderer: &mut SceneRenderer,
    pose: &Pose,
    view: &ViewSettings,
    [width, height]: [u32; 2],
) -> Result<image::RgbaImage, RenderError> {
    let target = RenderTarget::new(device, width, height);
    renderer.render(device, queue, &target, pose, view);
    target.read_rgba(device, queue)
}

/// Encodes `image` as PNG.
pub fn encode_png(image: &image::RgbaImage) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = Vec::new();
    image.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )?;
    Ok(bytes)
}

/// Keeps a model name usable as a file name (no separators or control characters).
fn file_stem(stem: &str) -> String {
    let s: String = stem
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.trim().is_empty() {
        "model".into()
    } else {
        s
    }
}

/// Saves `png` as `folder/<stem>-<n>.png` with the smallest `n ≥ 1` not taken; creates the
/// folder if needed. Returns the path written.
pub fn save_unique(folder: &Path, stem: &str, png: &[u8]) -> std::io::Result<PathBuf> {
    // A write that fails (disk full, quota) leaves nothing behind: the temporary file is
    // removed and no numbered name is taken.
    crate::files::atomic::write_numbered(folder, &file_stem(stem), "png", png)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_count_up_and_never_clobber() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("shots");
        let a = save_unique(&dir, "tank", b"first").unwrap();
        let b = save_unique(&dir, "tank", b"second").unwrap();
        assert_eq!(a, dir.join("tank-1.png"));
        assert_eq!(b, dir.join("tank-2.png"));
        assert_eq!(std::fs::read(&a).unwrap(), b"first");
        // A gap is filled, existing files are left alone.
        std::fs::remove_file(&a).unwrap();
        let c = save_unique(&dir, "tank", b"third").unwrap();
        assert_eq!(c, dir.join("tank-1.png"));
        assert_eq!(std::fs::read(&b).unwrap(), b"second");
        // No temporary files are left.
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["tank-1.png", "tank-2.png"]);
    }

    #[test]
    fn odd_model_names_become_safe_file_names() {
        assert_eq!(file_stem("a/b:c"), "a_b_c");
        assert_eq!(file_stem("  "), "model");
    }

    #[test]
    fn clean_view_is_transparent() {
        let v = ViewSettings::default();
        assert_eq!(clean_view(&v).background[3], 0);
        assert_eq!(clean_view(&v).background[..3], v.background[..3]);
        let busy = ViewSettings {
            overlays: crate::render::Overlays::parse_list("all").unwrap(),
            selected: Some(0),
            node_mask: vec![false, true],
            ..ViewSettings::default()
        };
        let clean = clean_view(&busy);
        assert!(!clean.overlays.any() && clean.selected.is_none());
        assert_eq!(clean.node_mask, busy.node_mask, "hidden parts stay hidden");
    }
}
