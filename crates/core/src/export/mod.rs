//! Ways out of the model: pure writers (no GPU, no UI) that turn a loaded
//! [`crate::model::Model`] into files other programs read — glTF 2.0, Wavefront OBJ and Warzone 2100 PIE.
//! The animation export, which needs the renderer that draws its frames, lives in the
//! program (`vitrine::export`).

pub mod gltf;
pub mod obj;
pub mod pie;

/// Encodes RGBA8 as PNG, as fast or as small as `compression` says (exports and caches
/// favour speed; a published site's thumbnails, fetched by every visitor, size).
pub fn encode_png(
    img: &image::RgbaImage,
    compression: image::codecs::png::CompressionType,
) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    use image::codecs::png::{FilterType, PngEncoder};
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, compression, FilterType::Adaptive)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| format!("cannot encode PNG: {e}"))?;
    Ok(out)
}
