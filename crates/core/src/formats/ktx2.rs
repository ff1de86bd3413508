//! KTX2 textures holding Basis Universal data (UASTC or ETC1S blocks, optionally Zstd or
//! BasisLZ supercompressed) → RGBA8: what Warzone 2100 4.x ships its ground textures as
//! (`texpages/page-82-yellow-sand-arizona.ktx2`: vkFormat 0, DFD model 166 = UASTC, Zstd).
//!
//! The header is read and checked here first (the [KTX2 spec]'s layout: identifier,
//! vkFormat at 12, size at 20/24, counts at 28–40, supercompression at 44, the level
//! index from 80), so a claim past the decoding limits is refused before anything is
//! allocated for it, and every refusal names the offset of the field that broke the rule;
//! the blocks are then transcoded by the pure-Rust `basisu` crate (a port of the
//! reference transcoder). Only mip level 0 of a plain 2D texture is decoded: the renderer
//! builds its own mip chain from it.
//!
//! Not supported: cube maps, arrays, 3D textures, and KTX2 files of ordinary Vulkan
//! formats (vkFormat ≠ 0): Warzone 2100 writes none.
//!
//! [KTX2 spec]: https://registry.khronos.org/KTX/specs/2.0/ktxspec.v2.html

/// The 12-byte KTX2 file identifier.
pub const IDENTIFIER: [u8; 12] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
];

/// Bytes of the fixed header before the level index.
const HEADER: usize = 80;
/// Bytes of one level-index entry (offset, length, uncompressed length: three u64).
const LEVEL_ENTRY: usize = 24;
/// Bytes of one Basis block (4×4 texels) before supercompression, for UASTC and ETC1S
/// transcoded slices alike (ETC1S slices are smaller).
const BLOCK_BYTES: u64 = 16;

/// Whether `bytes` start with the KTX2 identifier.
pub fn is_ktx2(bytes: &[u8]) -> bool {
    bytes.starts_with(&IDENTIFIER)
}

/// A refusal at byte `offset` of the file.
fn at(offset: usize, what: impl std::fmt::Display) -> String {
    format!("KTX2 @{offset:#x}: {what}")
}

fn u32_at(bytes: &[u8], offset: usize) -> Result<u32, String> {
    bytes
        .get(offset..offset + 4)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
        .ok_or_else(|| at(offset, "the file ends inside its header"))
}

fn u64_at(bytes: &[u8], offset: usize) -> Result<u64, String> {
    bytes
        .get(offset..offset + 8)
        .and_then(|b| b.try_into().ok())
        .map(u64::from_le_bytes)
        .ok_or_else(|| at(offset, "the file ends inside its level index"))
}

/// The header's facts the decoder relies on, each checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Width of level 0, texels.
    pub width: u32,
    /// Height of level 0, texels.
    pub height: u32,
    /// Mip levels stored (at least 1).
    pub levels: u32,
    /// Supercompression scheme: 0 none, 1 BasisLZ, 2 Zstd.
    pub supercompression: u32,
}

/// Reads and checks the header and level 0's index entry of `bytes`.
///
/// # Errors
/// A message naming the offset of the field that breaks a rule: not a KTX2 file, a
/// Vulkan format other than 0 (Basis data), a size past the decoding limits, a 3D,
/// array or cube texture, an unknown supercompression, or a level 0 outside the file or
/// larger than its blocks can be.
pub fn header(bytes: &[u8]) -> Result<Header, String> {
    if !is_ktx2(bytes) {
        return Err(at(0, "no KTX2 identifier («KTX 20»)"));
    }
    let vk_format = u32_at(bytes, 12)?;
    if vk_format != 0 {
        return Err(at(
            12,
            format!("vkFormat {vk_format}: only Basis Universal data (vkFormat 0) is decoded"),
        ));
    }
    let (width, height) = (u32_at(bytes, 20)?, u32_at(bytes, 24)?);
    if width == 0 || height == 0 {
        return Err(at(20, format!("{width}×{height} texels")));
    }
    super::texture::check_size(width, height).map_err(|e| at(20, e))?;
    for (offset, name) in [(28, "depth"), (32, "layer count"), (36, "face count")] {
        let n = u32_at(bytes, offset)?;
        let plain = if offset == 36 { n == 1 } else { n <= 1 };
        if !plain {
            return Err(at(
                offset,
                format!("{name} {n}: only plain 2D textures are decoded"),
            ));
        }
    }
    let levels = u32_at(bytes, 40)?.max(1);
    let supercompression = u32_at(bytes, 44)?;
    if supercompression > 2 {
        return Err(at(
            44,
            format!("supercompression {supercompression} (known: 0 none, 1 BasisLZ, 2 Zstd)"),
        ));
    }
    let index_fits = (levels as usize)
        .checked_mul(LEVEL_ENTRY)
        .and_then(|n| n.checked_add(HEADER))
        .is_some_and(|end| end <= bytes.len());
    if !index_fits {
        return Err(at(
            HEADER,
            format!("the level index of {levels} levels is cut off"),
        ));
    }
    let (offset, length) = (u64_at(bytes, HEADER)?, u64_at(bytes, HEADER + 8)?);
    let end = offset.checked_add(length);
    if end.is_none_or(|end| end > bytes.len() as u64) || length == 0 {
        return Err(at(
            HEADER,
            format!(
                "level 0 at {offset:#x}, {length} bytes, is outside the file ({} bytes)",
                bytes.len()
            ),
        ));
    }
    let blocks = u64::from(width.div_ceil(4)) * u64::from(height.div_ceil(4));
    let unpacked = u64_at(bytes, HEADER + 16)?;
    if unpacked > blocks * BLOCK_BYTES {
        return Err(at(
            HEADER + 16,
            format!(
                "level 0 claims {unpacked} bytes uncompressed; {width}×{height} texels hold at \
                 most {}",
                blocks * BLOCK_BYTES
            ),
        ));
    }
    Ok(Header {
        width,
        height,
        levels,
        supercompression,
    })
}

/// Decodes level 0 of the KTX2 file `bytes` to RGBA8.
///
/// # Errors
/// The header's refusals ([`header`]), or the transcoder's, at level 0's offset.
pub fn decode(bytes: &[u8]) -> Result<image::RgbaImage, String> {
    let h = header(bytes)?;
    let level0 = u64_at(bytes, HEADER)? as usize;
    let transcoder = basisu::Transcoder::new(bytes).map_err(|e| {
        at(
            level0,
            format!("not Basis Universal data the transcoder reads: {e:?}"),
        )
    })?;
    if transcoder.base_dimensions() != (h.width, h.height) {
        return Err(at(20, "the size disagrees with the Basis data's"));
    }
    let rgba = transcoder
        .transcode(0, basisu::TargetFormat::Rgba32, basisu::DecodeFlags::NONE)
        .map_err(|e| {
            at(
                level0,
                format!("cannot transcode level 0 (broken, or a kind the transcoder lacks): {e:?}"),
            )
        })?;
    image::RgbaImage::from_raw(h.width, h.height, rgba)
        .ok_or_else(|| at(level0, "the transcoder gave the wrong number of texels"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header of `width`×`height`, one level at 104 with `len` bytes.
    fn header_bytes(width: u32, height: u32, len: u64) -> Vec<u8> {
        let mut b = IDENTIFIER.to_vec();
        for v in [0, 1, width, height, 0, 0, 1, 1, 2] {
            b.extend_from_slice(&u32::to_le_bytes(v));
        }
        b.resize(HEADER, 0);
        for v in [104, len, 16] {
            b.extend_from_slice(&u64::to_le_bytes(v));
        }
        b.resize(104 + len as usize, 0);
        b
    }

    #[test]
    fn broken_headers_are_refused_at_their_offset() {
        let good = header_bytes(4, 4, 16);
        assert_eq!(
            header(&good),
            Ok(Header {
                width: 4,
                height: 4,
                levels: 1,
                supercompression: 2
            })
        );
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"PNG".to_vec(), "KTX2 @0x0: no KTX2 identifier"),
            (good[..14].to_vec(), "KTX2 @0xc: the file ends"),
            (
                {
                    let mut b = good.clone();
                    b[12] = 37;
                    b
                },
                "KTX2 @0xc: vkFormat 37",
            ),
            (header_bytes(0, 4, 16), "KTX2 @0x14: 0×4 texels"),
            (
                header_bytes(16384, 16384, 16),
                "KTX2 @0x14: 16384×16384 texels (1024 MiB",
            ),
            (
                {
                    let mut b = good.clone();
                    b[36] = 6;
                    b
                },
                "KTX2 @0x24: face count 6",
            ),
            (
                {
                    let mut b = good.clone();
                    b[44] = 9;
                    b
                },
                "KTX2 @0x2c: supercompression 9",
            ),
            (
                {
                    let mut b = good.clone();
                    b[40] = 200;
                    b
                },
                "KTX2 @0x50: the level index of 200 levels is cut off",
            ),
            (
                good[..110].to_vec(),
                "KTX2 @0x50: level 0 at 0x68, 16 bytes, is outside",
            ),
            (
                {
                    let mut b = good.clone();
                    b[96] = 17;
                    b
                },
                "KTX2 @0x60: level 0 claims 17 bytes uncompressed",
            ),
        ];
        for (bytes, want) in cases {
            let got = header(&bytes).unwrap_err();
            assert!(got.starts_with(want), "{got:?} should start with {want:?}");
        }
        // A header that passes but blocks the transcoder cannot read: refused at level 0.
        let got = decode(&good).unwrap_err();
        assert!(got.starts_with("KTX2 @0x68: "), "{got}");
    }
}
