//! The installed game's KTX2 ground textures (`base.wz`, Warzone 2100 4.3: UASTC blocks,
//! Zstd supercompressed) decoded by the core, and the same bytes broken. Marked
//! `#[vitrine_test(game)]`: reported ignored without the game.

use std::io::Read;
use vitrine_core::formats::{ktx2, texture};
use vitrine_test_needs::vitrine_test;

/// The bytes of `name` in the installed game's `base.wz`.
fn base_entry(name: &str) -> Vec<u8> {
    let path = vitrine_test_needs::game_data().join("base.wz");
    let file = std::fs::File::open(&path).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    let mut entry = zip.by_name(name).unwrap();
    let mut bytes = Vec::new();
    entry.read_to_end(&mut bytes).unwrap();
    bytes
}

/// The mean of each channel and the spread of red over the image.
fn stats(img: &image::RgbaImage) -> ([f64; 4], f64) {
    let n = f64::from(img.width() * img.height());
    let mut mean = [0.0; 4];
    for p in img.pixels() {
        for (m, c) in mean.iter_mut().zip(p.0) {
            *m += f64::from(c) / n;
        }
    }
    let var = img
        .pixels()
        .map(|p| (f64::from(p[0]) - mean[0]).powi(2) / n)
        .sum::<f64>();
    (mean, var.sqrt())
}

#[vitrine_test(game)]
fn the_games_ground_textures_decode_to_their_colours() {
    let name = "texpages/page-82-yellow-sand-arizona.ktx2";
    let bytes = base_entry(name);
    let header = ktx2::header(&bytes).unwrap();
    assert_eq!(
        (
            header.width,
            header.height,
            header.levels,
            header.supercompression
        ),
        (1024, 1024, 11, 2)
    );
    let img = texture::decode_bytes(&bytes, name).unwrap();
    assert_eq!(img.dimensions(), (1024, 1024));
    // Measured once (the transcoder is bit-exact, so these hold to the texel): yellow
    // sand, green-brown grass, white snow; opaque; textured, not one flat colour.
    let cases = [
        (name, [180.5, 140.7, 77.9]),
        ("texpages/page-88-grass-arizona.ktx2", [68.7, 67.2, 36.8]),
        ("texpages/page-105-snow-rockies.ktx2", [237.7, 239.9, 240.6]),
    ];
    for (name, want) in cases {
        let img = texture::decode_bytes(&base_entry(name), name).unwrap();
        let (mean, spread) = stats(&img);
        for c in 0..3 {
            assert!((mean[c] - want[c]).abs() < 0.5, "{name}: mean {mean:?}");
        }
        assert_eq!(mean[3], 255.0, "{name}");
        assert!(spread > 10.0, "{name}: red spread {spread}");
    }
}

#[vitrine_test(game)]
fn broken_ground_textures_are_refused_at_their_offset() {
    let name = "texpages/page-82-yellow-sand-arizona.ktx2";
    let bytes = base_entry(name);
    // Cut inside level 0's data: the level index points past the end.
    let cut = &bytes[..bytes.len() / 2];
    let err = texture::decode_bytes(cut, name).unwrap_err();
    assert!(
        err.starts_with("KTX2 @0x50: level 0 at 0x53565, 1043747 bytes, is outside the file"),
        "{err}"
    );
    // Level 0's Zstd frame overwritten.
    let level0 = u64::from_le_bytes(bytes[80..88].try_into().unwrap()) as usize;
    let mut broken = bytes.clone();
    for b in &mut broken[level0..level0 + 64] {
        *b = 0xA5;
    }
    let err = texture::decode_bytes(&broken, name).unwrap_err();
    assert!(
        err.starts_with("KTX2 @0x53565: cannot transcode level 0"),
        "{err}"
    );
    // Random bytes changed anywhere: an image or an error, never a panic, never an
    // allocation the header did not pass (the header's sizes are checked first).
    let mut rng = vitrine_test_needs::Rng::new(33);
    for _ in 0..24 {
        let mut m = bytes.clone();
        for _ in 0..8 {
            let at = if rng.below(2) == 0 {
                rng.below(level0 + 64)
            } else {
                rng.below(m.len())
            };
            m[at] = rng.next() as u8;
        }
        if let Ok(img) = texture::decode_bytes(&m, name) {
            assert!(img.width() <= 1024 && img.height() <= 1024);
        }
    }
}

/// Box-filters `img` to half its size (2×2 means, rounded), as a stand-in for how far a
/// stored level may be from its level above.
fn halved(img: &image::RgbaImage) -> image::RgbaImage {
    image::imageops::resize(
        img,
        img.width() / 2,
        img.height() / 2,
        image::imageops::FilterType::Triangle,
    )
}

/// The mean absolute difference of two images of one size, per channel value.
fn mean_diff(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let n = a.as_raw().len() as f64;
    a.as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| f64::from(x.abs_diff(*y)))
        .sum::<f64>()
        / n
}

#[vitrine_test(game)]
fn a_ground_texture_decodes_its_own_mip_levels_from_a_size_down() {
    let name = "texpages/page-82-yellow-sand-arizona.ktx2";
    let bytes = base_entry(name);
    // Every level the file stores, level 0 first: the same level 0 as a plain decode.
    let all = ktx2::decode_levels(&bytes, u32::MAX).unwrap();
    let sizes: Vec<u32> = all.iter().map(|l| l.width()).collect();
    assert_eq!(sizes, [1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1]);
    assert_eq!(all[0], texture::decode_bytes(&bytes, name).unwrap());
    // From 256² down: the file's levels 2 to 10, not level 0 scaled.
    let small = ktx2::decode_levels(&bytes, 256).unwrap();
    assert_eq!(small.len(), 9);
    assert_eq!(small[..], all[2..]);
    // Each stored level is its level above halved, near enough: the same sand.
    for pair in all[..6].windows(2) {
        let d = mean_diff(&halved(&pair[0]), &pair[1]);
        assert!(d < 8.0, "{}² vs its level above: {d}", pair[1].width());
    }
    // A size below the smallest level still gives that level.
    assert_eq!(ktx2::decode_levels(&bytes, 0).unwrap().len(), 1);
    // Through the texture API: the full size named, the levels from 256².
    let stored = texture::decode_levels_bytes(&bytes, name, 256).unwrap();
    assert_eq!(stored.full_size, (1024, 1024));
    assert_eq!(stored.levels, small);
    // Level 0's data broken: the small levels still decode, the whole page does not,
    // and says which level.
    let level0 = u64::from_le_bytes(bytes[80..88].try_into().unwrap()) as usize;
    let mut broken = bytes.clone();
    for b in &mut broken[level0..level0 + 64] {
        *b = 0xA5;
    }
    assert_eq!(ktx2::decode_levels(&broken, 256).unwrap(), small);
    let err = ktx2::decode_levels(&broken, u32::MAX).unwrap_err();
    assert!(
        err.starts_with("KTX2 @0x53565: cannot transcode level 0"),
        "{err}"
    );
    // Level 3's index entry pointing past the end: refused at that entry.
    let mut cut = bytes.clone();
    cut[80 + 3 * 24..80 + 3 * 24 + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    let err = ktx2::decode_levels(&cut, 256).unwrap_err();
    assert!(
        err.starts_with("KTX2 @0x98: level 3 at 0xffffffffffffffff"),
        "{err}"
    );
}

/// The game's ground pages store their levels smallest first: the levels up to 256² are a
/// prefix of the file (about a sixteenth of it), and decoded from that prefix alone, the
/// rest of the file zeros, they are the levels decoded from the whole file (the page's
/// first frame of a map reads only that prefix over HTTP ranges).
#[vitrine_test(game)]
fn the_small_levels_of_the_games_ground_pages_are_a_prefix() {
    use vitrine_core::formats::ktx2_prefix::{HEAD, Prefix, prefix};
    for name in [
        "texpages/page-82-yellow-sand-arizona.ktx2",
        "texpages/page-105-snow-rockies.ktx2",
        "texpages/page-93-big-tiles-urban.ktx2",
    ] {
        let bytes = base_entry(name);
        let Prefix::Part { len, file_len } = prefix(&bytes[..HEAD as usize], 256) else {
            panic!("{name}: no prefix");
        };
        assert_eq!(file_len, bytes.len() as u64, "{name}");
        assert!(len * 8 < file_len, "{name}: {len} of {file_len} bytes");
        let mut part = bytes[..len as usize].to_vec();
        part.resize(bytes.len(), 0);
        let from_part = ktx2::decode_levels(&part, 256).unwrap();
        let from_whole = ktx2::decode_levels(&bytes, 256).unwrap();
        assert_eq!(from_part.len(), 9, "{name}: 256² down to 1×1");
        assert!(from_part == from_whole, "{name}: the same texels");
    }
}
