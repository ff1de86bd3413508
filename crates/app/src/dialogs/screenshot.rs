//! Screenshots for forums: the view rendered offscreen (at the view's size or a chosen
//! one up to 4096 × 4096), kept by the front-end as a new `<model>-<n>.png`
//! ([`super::super::host::Host::save_new`]): on the desktop in the screenshot folder,
//! written atomically and never over an existing file.

use crate::model::Pose;
use crate::render::{RenderError, RenderTarget, SceneRenderer, ViewSettings};
use std::path::Path;

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

/// Keeps `png` as a new `<stem>-<n>.png` (in `folder` on the desktop, with the smallest
/// `n ≥ 1` not taken); the message naming where it went.
pub fn save_unique(
    host: &dyn super::super::host::Host,
    folder: Option<&Path>,
    stem: &str,
    png: &[u8],
) -> Result<String, String> {
    host.save_new(folder, &file_stem(stem), "png", png)
}

#[cfg(test)]
mod tests {
    use super::*;

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
