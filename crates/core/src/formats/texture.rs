//! Texture images: bytes (through [`crate::files`]) → RGBA8, for the renderer and the
//! exporters alike.
//!
//! Decoded with the `image` crate (PNG incl. paletted with `tRNS`, JPEG, BMP incl. 8-bit
//! palettised, DDS with DXT1/3/5 blocks) and the `pcx` crate (ZSoft PCX, the 1999-era
//! Warzone 2100 texture pages: 8-bit paletted, 24-bit, and the 1–4-bit EGA kinds; no
//! alpha, so every texel is opaque) and `ktx2` (Basis Universal KTX2, Warzone 2100 4.x's
//! ground textures). The format comes from the content, falling back to
//! the name's extension. Decoding is bounded (`decode_limits`): a claim past the limits
//! is refused from the header, before anything is allocated for it.

use crate::files::{FileRef, Files};

/// Largest texture side decoded, in texels (the largest any GPU samples).
pub(crate) const MAX_TEXTURE_SIDE: u32 = 16384;
/// Most memory one texture decode may allocate: 512 MiB, an 11585² RGBA page. Real
/// texture pages are 256² to 2048²; a larger claim (a 16384² page is 1 GiB decoded, a
/// decompression bomb claims more) is refused before decoding, and the model shows the
/// checkerboard with a warning instead of exhausting memory.
pub(crate) const MAX_DECODE_BYTES: u64 = 512 << 20;

/// The decoding limits: [`MAX_TEXTURE_SIDE`] and [`MAX_DECODE_BYTES`].
pub(crate) fn decode_limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_TEXTURE_SIDE);
    limits.max_image_height = Some(MAX_TEXTURE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    limits
}

/// Reads the image `file` (loose or inside an archive) from `files` and decodes it. The
/// error names the file.
pub fn decode(files: &Files, file: &FileRef) -> Result<image::RgbaImage, String> {
    let bytes = files.read(file).map_err(|e| e.to_string())?;
    decode_bytes(&bytes, &file.file_name()).map_err(|e| format!("{file}: {e}"))
}

/// Decodes image bytes; `name` gives the format when the content does not.
/// Within `decode_limits`; the RGBA result must fit `MAX_DECODE_BYTES` too.
pub fn decode_bytes(bytes: &[u8], name: &str) -> Result<image::RgbaImage, String> {
    if is_pcx(bytes, name) {
        return decode_pcx(bytes);
    }
    if super::ktx2::is_ktx2(bytes) {
        return super::ktx2::decode(bytes);
    }
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
    check_size(w, h)?;
    let img = reader()?
        .decode()
        .map_err(|e| format!("cannot decode: {e}"))?;
    Ok(rgba8(img))
}

/// `img` as RGBA8: an RGB image (most opaque texture pages) widened by a plain copy, any
/// other kind through `image`'s conversion (which takes an RGB page through a float
/// colour conversion, several times slower).
fn rgba8(img: image::DynamicImage) -> image::RgbaImage {
    match img {
        image::DynamicImage::ImageRgba8(rgba) => rgba,
        image::DynamicImage::ImageRgb8(rgb) => {
            let (w, h) = rgb.dimensions();
            let mut out = Vec::with_capacity(w as usize * h as usize * 4);
            for p in rgb.as_raw().chunks_exact(3) {
                out.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
            image::RgbaImage::from_raw(w, h, out).expect("4 bytes per texel")
        }
        other => other.into_rgba8(),
    }
}

/// An image decoded with the mip levels its file stores ([`decode_levels_bytes`]).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredLevels {
    /// Width and height of the file's full-size image (level 0).
    pub full_size: (u32, u32),
    /// The levels decoded, largest first, each half the one before: the file's own mip
    /// chain (a KTX2 file) from the first within the size asked for, or the full-size
    /// image alone (any other format).
    pub levels: Vec<image::RgbaImage>,
}

/// Decodes image bytes with the mip levels the file stores, from the first no wider or
/// taller than `max_side` texels: a KTX2 file's own chain ([`super::ktx2::decode_levels`];
/// its small levels cost a fraction of the whole), any other format's full-size image
/// alone (it stores no levels; the caller builds them). `name` gives the format when the
/// content does not.
///
/// # Errors
/// As [`decode_bytes`].
pub fn decode_levels_bytes(
    bytes: &[u8],
    name: &str,
    max_side: u32,
) -> Result<StoredLevels, String> {
    if super::ktx2::is_ktx2(bytes) {
        let h = super::ktx2::header(bytes)?;
        return Ok(StoredLevels {
            full_size: (h.width, h.height),
            levels: super::ktx2::decode_levels(bytes, max_side)?,
        });
    }
    let image = decode_bytes(bytes, name)?;
    Ok(StoredLevels {
        full_size: image.dimensions(),
        levels: vec![image],
    })
}

/// Refuses a `w`×`h` image whose RGBA texels would not fit [`MAX_DECODE_BYTES`] (or
/// whose side passes [`MAX_TEXTURE_SIDE`]) before anything is allocated for it.
pub(crate) fn check_size(w: u32, h: u32) -> Result<(), String> {
    if w > MAX_TEXTURE_SIDE || h > MAX_TEXTURE_SIDE {
        return Err(format!(
            "{w}×{h} texels; the largest side decoded is {MAX_TEXTURE_SIDE}"
        ));
    }
    let rgba = u64::from(w) * u64::from(h) * 4;
    if rgba > MAX_DECODE_BYTES {
        return Err(format!(
            "{w}×{h} texels ({} MiB as RGBA); the limit is {} MiB",
            rgba >> 20,
            MAX_DECODE_BYTES >> 20
        ));
    }
    Ok(())
}

/// Whether `name` has an image's extension (one the `image` crate names, or `.pcx`): a
/// file a texture may be read from.
pub fn is_image_name(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|e| {
            e == "pcx" || e == "ktx2" || image::ImageFormat::from_extension(&e).is_some()
        })
}

/// Whether `bytes` are a PCX file: ZSoft's header (`0x0A`, version 0–5, encoding 0 or 1,
/// 1, 2, 4 or 8 bits per plane) and a name that claims no other format (`image` knows
/// the `.pcx` extension but has no decoder for it).
fn is_pcx(bytes: &[u8], name: &str) -> bool {
    let header = matches!(bytes, [0x0a, 0 | 2..=5, 0 | 1, 1 | 2 | 4 | 8, ..]);
    let ext = std::path::Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let claims_other = ext
        .as_deref()
        .is_some_and(|e| e != "pcx" && image::ImageFormat::from_extension(e).is_some());
    header && !claims_other
}

/// Decodes a PCX file to RGBA (opaque), within the same limits as every other format.
fn decode_pcx(bytes: &[u8]) -> Result<image::RgbaImage, String> {
    let bad = |e: std::io::Error| format!("cannot decode PCX: {e}");
    let mut reader = pcx::Reader::from_mem(bytes).map_err(bad)?;
    let (w, h) = reader.dimensions();
    let (w, h) = (u32::from(w), u32::from(h));
    check_size(w, h)?;
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    reader.read_rgb_pixels(&mut rgb).map_err(bad)?;
    let rgba = rgb
        .chunks_exact(3)
        .flat_map(|c| [c[0], c[1], c[2], 255])
        .collect();
    image::RgbaImage::from_raw(w, h, rgba).ok_or_else(|| "cannot decode PCX: bad size".into())
}

/// Bytes of an image's start [`dimensions`] reads first: every header Vitrine reads fits
/// (a JPEG's size may come after its metadata: then the whole file is read).
const HEADER_BYTES: u64 = 64 << 10;

/// The width and height of the image `file`, from its header; `None` if it cannot be
/// read or is not an image. Only the file's start is read when its header is there (a
/// texture page of an archive read over the network is not fetched whole for its size).
pub fn dimensions(files: &Files, file: &FileRef) -> Option<(u32, u32)> {
    let head = files.read_prefix(file, HEADER_BYTES).ok()?;
    if super::ktx2::is_ktx2(&head) {
        // The header's own fields (its checks want the whole file's level index).
        let field = |at: usize| Some(u32::from_le_bytes(head.get(at..at + 4)?.try_into().ok()?));
        return Some((field(20)?, field(24)?)).filter(|&(w, h)| w > 0 && h > 0);
    }
    if let Some(size) = dimensions_of(&head, file) {
        return Some(size);
    }
    if (head.len() as u64) < HEADER_BYTES {
        return None;
    }
    dimensions_of(&files.read(file).ok()?, file)
}

/// [`dimensions`] of the bytes of `file` (all of it, or its start).
fn dimensions_of(bytes: &[u8], file: &FileRef) -> Option<(u32, u32)> {
    if is_pcx(bytes, &file.file_name()) {
        let (w, h) = pcx::Reader::from_mem(bytes).ok()?.dimensions();
        return Some((w.into(), h.into()));
    }
    header_dimensions(bytes).ok()
}

/// The width and height an image's header declares (any format `image` reads; not PCX),
/// without decoding its pixels.
pub(crate) fn header_dimensions(bytes: &[u8]) -> Result<(u32, u32), String> {
    image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?
        .into_dimensions()
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w`×`h` 8-bit paletted PCX (RLE) whose texel (x, y) has palette index
    /// `(x + 2y) % 4`, palette entry i = (60i, 255 − 60i, 7i).
    fn paletted_pcx(w: u16, h: u16) -> Vec<u8> {
        let mut out = Vec::new();
        let mut writer = pcx::WriterPaletted::new(&mut out, (w, h), (72, 72)).unwrap();
        for y in 0..h {
            let row: Vec<u8> = (0..w).map(|x| ((x + 2 * y) % 4) as u8).collect();
            writer.write_row(&row).unwrap();
        }
        let palette: Vec<u8> = (0..256u32)
            .flat_map(|i| [(60 * i) as u8, (255 - 60 * i.min(4)) as u8, (7 * i) as u8])
            .collect();
        writer.write_palette(&palette).unwrap();
        out
    }

    #[test]
    fn image_names_are_told_by_extension_in_any_case() {
        for name in [
            "texpages/page-14.PNG",
            "a.tga",
            "b.dds",
            "c.pcx",
            "d.jpeg",
            "e.bmp",
        ] {
            assert!(is_image_name(name), "{name}");
        }
        for name in [
            "tank.pie",
            "page-14.png.txt",
            "png",
            "stats/body.json",
            "x.",
        ] {
            assert!(!is_image_name(name), "{name}");
        }
    }

    #[test]
    fn paletted_pcx_decodes_to_its_palette_colours() {
        let img = decode_bytes(&paletted_pcx(5, 3), "page-6.pcx").unwrap();
        assert_eq!(img.dimensions(), (5, 3));
        assert_eq!(img.get_pixel(0, 0).0, [0, 255, 0, 255]);
        assert_eq!(img.get_pixel(1, 0).0, [60, 195, 7, 255]);
        assert_eq!(
            img.get_pixel(3, 2).0,
            [180, 75, 21, 255],
            "index (3 + 2·2) % 4 = 3"
        );
    }

    #[test]
    fn rgb_pcx_decodes_and_content_wins_over_a_missing_extension() {
        let mut out = Vec::new();
        let mut writer = pcx::WriterRgb::new(&mut out, (2, 1), (72, 72)).unwrap();
        writer.write_row(&[10, 20, 30, 200, 100, 50]).unwrap();
        writer.finish().unwrap();
        let img = decode_bytes(&out, "page").unwrap();
        assert_eq!(img.as_raw(), &[10, 20, 30, 255, 200, 100, 50, 255]);
    }

    #[test]
    fn broken_pcx_is_an_error_not_a_panic() {
        let good = paletted_pcx(16, 16);
        assert!(
            decode_bytes(&good[..60], "a.pcx").is_err(),
            "truncated header"
        );
        let mut huge = good.clone();
        huge[8..12].copy_from_slice(&[0xfe, 0xff, 0xfe, 0xff]); // 65535 × 65535
        huge[66..68].copy_from_slice(&[0xff, 0xff]); // bytes per line to match
        let err = decode_bytes(&huge, "a.pcx").unwrap_err();
        assert!(err.contains("65535×65535"), "{err}");
        // Seeded mutations of a real file: decoding returns, whatever it returns.
        let mut rng = fastrand::Rng::with_seed(0x9c_0001);
        for _ in 0..2000 {
            let mut b = good.clone();
            for _ in 0..1 + rng.usize(..4) {
                let i = rng.usize(..b.len());
                b[i] = rng.u8(..);
            }
            b.truncate(rng.usize(1..=b.len()));
            let _ = decode_bytes(&b, "m.pcx");
        }
    }

    /// An RGB page widened by the copy gives what `image`'s own conversion gives.
    #[test]
    fn rgb_pages_widen_to_opaque_rgba_as_image_converts_them() {
        let rgb =
            image::RgbImage::from_fn(5, 3, |x, y| image::Rgb([x as u8 * 50, y as u8 * 80, 7]));
        let want = image::DynamicImage::ImageRgb8(rgb.clone()).into_rgba8();
        assert_eq!(rgba8(image::DynamicImage::ImageRgb8(rgb)), want);
        let la = image::GrayAlphaImage::from_pixel(2, 2, image::LumaA([9, 100]));
        let want = image::DynamicImage::ImageLumaA8(la.clone()).into_rgba8();
        assert_eq!(rgba8(image::DynamicImage::ImageLumaA8(la)), want);
    }
}
