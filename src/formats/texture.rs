//! Texture images: bytes (through [`crate::files`]) → RGBA8, for the renderer and the
//! exporters alike.
//!
//! Decoded with the `image` crate (PNG incl. paletted with `tRNS`, JPEG, BMP incl. 8-bit
//! palettised, DDS with DXT1/3/5 blocks). The format comes from the content, falling back
//! to the name's extension. Decoding is bounded ([`decode_limits`]): a claim past the
//! limits is refused from the header, before anything is allocated for it.

use crate::files::FileRef;

/// Largest texture side decoded, in texels (the largest any GPU samples).
pub const MAX_TEXTURE_SIDE: u32 = 16384;
/// Most memory one texture decode may allocate: 512 MiB, an 11585² RGBA page. Real
/// texture pages are 256² to 2048²; a larger claim (a 16384² page is 1 GiB decoded, a
/// decompression bomb claims more) is refused before decoding, and the model shows the
/// checkerboard with a warning instead of exhausting memory.
pub const MAX_DECODE_BYTES: u64 = 512 << 20;

/// The decoding limits: [`MAX_TEXTURE_SIDE`] and [`MAX_DECODE_BYTES`].
pub fn decode_limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_TEXTURE_SIDE);
    limits.max_image_height = Some(MAX_TEXTURE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    limits
}

/// Reads and decodes the image `file` (loose or inside an archive). The error names the
/// file.
pub fn decode(file: &FileRef) -> Result<image::RgbaImage, String> {
    let bytes = crate::files::read(file).map_err(|e| e.to_string())?;
    decode_bytes(&bytes, &file.file_name()).map_err(|e| format!("{file}: {e}"))
}

/// Decodes image bytes; `name` gives the format when the content does not.
/// Within [`decode_limits`]; the RGBA result must fit [`MAX_DECODE_BYTES`] too.
pub fn decode_bytes(bytes: &[u8], name: &str) -> Result<image::RgbaImage, String> {
    let reader = || -> Result<_, String> {
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
        reader.limits(decode_limits());
        Ok(reader)
    };
    let (w, h) = reader()?
        .into_dimensions()
        .map_err(|e| format!("cannot decode: {e}"))?;
    let rgba = u64::from(w) * u64::from(h) * 4;
    if rgba > MAX_DECODE_BYTES {
        return Err(format!(
            "{w}×{h} texels ({} MiB as RGBA); the limit is {} MiB",
            rgba >> 20,
            MAX_DECODE_BYTES >> 20
        ));
    }
    let img = reader()?
        .decode()
        .map_err(|e| format!("cannot decode: {e}"))?;
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
