//! KTX2 textures holding Basis Universal data (UASTC or ETC1S blocks, optionally Zstd or
//! BasisLZ supercompressed) → RGBA8: what Warzone 2100 4.x ships its ground textures as
//! (`texpages/page-82-yellow-sand-arizona.ktx2`: vkFormat 0, DFD model 166 = UASTC, Zstd).
//!
//! The header is read and checked here first (the [KTX2 spec]'s layout: identifier,
//! vkFormat at 12, size at 20/24, counts at 28–40, supercompression at 44, the level
//! index from 80), so a claim past the decoding limits is refused before anything is
//! allocated for it, and every refusal names the offset of the field that broke the rule;
//! the blocks are then transcoded by the pure-Rust `basisu` crate (a port of the
//! reference transcoder; [`super::basis`]: built in, or the module the page fetches). A
//! plain 2D texture's level 0 is decoded ([`decode`]), or the mip levels the file stores
//! from a given size down ([`decode_levels`]: the renderer's pages, a map's first frame
//! from the small levels alone).
//!
//! Not supported: cube maps, arrays, 3D textures, and KTX2 files of ordinary Vulkan
//! formats (vkFormat ≠ 0): Warzone 2100 writes none.
//!
//! [KTX2 spec]: https://registry.khronos.org/KTX/specs/2.0/ktxspec.v2.html

use super::basis::Transcoder;

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
    check_level(bytes, 0, width, height)?;
    Ok(Header {
        width,
        height,
        levels,
        supercompression,
    })
}

/// Checks level `level`'s index entry (the level `width`×`height` texels at level 0):
/// its data inside the file, and no more bytes uncompressed than its blocks can hold.
fn check_level(bytes: &[u8], level: u32, width: u32, height: u32) -> Result<(), String> {
    let entry = HEADER + level as usize * LEVEL_ENTRY;
    let (offset, length) = (u64_at(bytes, entry)?, u64_at(bytes, entry + 8)?);
    let end = offset.checked_add(length);
    if end.is_none_or(|end| end > bytes.len() as u64) || length == 0 {
        return Err(at(
            entry,
            format!(
                "level {level} at {offset:#x}, {length} bytes, is outside the file ({} bytes)",
                bytes.len()
            ),
        ));
    }
    let (w, h) = ((width >> level).max(1), (height >> level).max(1));
    let blocks = u64::from(w.div_ceil(4)) * u64::from(h.div_ceil(4));
    let unpacked = u64_at(bytes, entry + 16)?;
    if unpacked > blocks * BLOCK_BYTES {
        return Err(at(
            entry + 16,
            format!(
                "level {level} claims {unpacked} bytes uncompressed; {w}×{h} texels hold at \
                 most {}",
                blocks * BLOCK_BYTES
            ),
        ));
    }
    Ok(())
}

/// Decodes level 0 of the KTX2 file `bytes` to RGBA8.
///
/// # Errors
/// The header's refusals ([`header`]), or the transcoder's, at level 0's offset.
pub fn decode(bytes: &[u8]) -> Result<image::RgbaImage, String> {
    let (h, transcoder) = open(bytes)?;
    transcode(bytes, &transcoder, &h, 0)
}

/// Decodes the mip levels the KTX2 file `bytes` stores, from the first no wider or
/// taller than `max_side` texels down to its last, each to RGBA8: the file's own mip
/// chain, as the game's KTX2 loader (`loadImageTextureFromFile_KTX2`) uploads it. A file
/// whose smallest level is still larger than `max_side` gives that level alone. With
/// `max_side` at least the file's size this is every level, level 0 first.
///
/// # Errors
/// The header's refusals ([`header`]), a level whose index entry points outside the file
/// (at that entry's offset), or the transcoder's refusal of a level (at its data).
pub fn decode_levels(bytes: &[u8], max_side: u32) -> Result<Vec<image::RgbaImage>, String> {
    let (h, transcoder) = open(bytes)?;
    // A count past the full chain (down to 1×1) names levels that cannot exist.
    let full_chain = 32 - h.width.max(h.height).leading_zeros();
    let count = h
        .levels
        .min(full_chain)
        .min(transcoder.info().levels.max(1));
    let first = (0..count)
        .find(|&l| (h.width >> l).max(h.height >> l) <= max_side)
        .unwrap_or(count - 1);
    (first..count)
        .map(|level| {
            check_level(bytes, level, h.width, h.height)?;
            transcode(bytes, &transcoder, &h, level)
        })
        .collect()
}

/// The header of `bytes`, checked, and the transcoder over them.
fn open(bytes: &[u8]) -> Result<(Header, Transcoder<'_>), String> {
    let h = header(bytes)?;
    let level0 = u64_at(bytes, HEADER)? as usize;
    let transcoder = Transcoder::new(bytes).map_err(|e| {
        at(
            level0,
            format!("not Basis Universal data the transcoder reads: {e}"),
        )
    })?;
    let info = transcoder.info();
    if (info.width, info.height) != (h.width, h.height) {
        return Err(at(20, "the size disagrees with the Basis data's"));
    }
    Ok((h, transcoder))
}

/// Level `level` of the file `bytes` (header `h`) transcoded to RGBA8.
fn transcode(
    bytes: &[u8],
    transcoder: &Transcoder<'_>,
    h: &Header,
    level: u32,
) -> Result<image::RgbaImage, String> {
    let data = u64_at(bytes, HEADER + level as usize * LEVEL_ENTRY)? as usize;
    let rgba = transcoder.rgba(level).map_err(|e| {
        at(
            data,
            format!("cannot transcode level {level} (broken, or a kind the transcoder lacks): {e}"),
        )
    })?;
    let (w, h) = ((h.width >> level).max(1), (h.height >> level).max(1));
    image::RgbaImage::from_raw(w, h, rgba)
        .ok_or_else(|| at(data, "the transcoder gave the wrong number of texels"))
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
