//! Texture images: bytes (through [`crate::files`]) → RGBA8, for the renderer and the
//! exporters alike.
//!
//! Decoded with the `image` crate (PNG incl. paletted with `tRNS`, JPEG, BMP incl. 8-bit
//! palettised, DDS with DXT1/3/5 blocks). The format comes from the content, falling back
//! to the name's extension.

use crate::files::FileRef;

/// Reads and decodes the image `file` (loose or inside an archive). The error names the
/// file.
pub fn decode(file: &FileRef) -> Result<image::RgbaImage, String> {
    let bytes = crate::files::read(file).map_err(|e| e.to_string())?;
    decode_bytes(&bytes, &file.file_name()).map_err(|e| format!("{file}: {e}"))
}

/// Decodes image bytes; `name` gives the format when the content does not.
pub fn decode_bytes(bytes: &[u8], name: &str) -> Result<image::RgbaImage, String> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    if reader.format().is_none()
        && let Some(f) = std::path::Path::new(name)
            .extension()
            .and_then(image::ImageFormat::from_extension)
    {
        reader.set_format(f);
    }
    let img = reader.decode().map_err(|e| format!("cannot decode: {e}"))?;
    Ok(img.into_rgba8())
}

/// The width and height of the image `file`, from its header; `None` if it cannot be
/// read or is not an image.
pub fn dimensions(file: &FileRef) -> Option<(u32, u32)> {
    let bytes = crate::files::read(file).ok()?;
    image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?
        .into_dimensions()
        .ok()
}
