//! A PangYa model whose `TEXT` names a `[`-prefixed DXT1 `.dds`: the texture is found
//! under its bare name, decoded (not the checkerboard) and its own alpha cuts out (no
//! `_mask.jpg` lookup). Needs `../shared` (the synthetic ball) and a GPU adapter.

use crate::common;
use crate::render_support;

use render_support::{Rig, near, unlit_front};
use std::path::Path;
use vitrine_core::formats::LoadOptions;
use vitrine_core::model::BlendMode;
use vitrine_render::textures::CHECKER_COLOURS;
use vitrine_test_needs::vitrine_test;

/// A DXT1 `.dds` of `side`² texels (multiple of 4), every block colour `c0` (RGB565),
/// opaque (c0 > c1 = 0, all indices 0).
fn dxt1_solid(side: u32, c0: u16) -> Vec<u8> {
    let mut h = vec![0u8; 128];
    let mut put = |at: usize, v: u32| h[at..at + 4].copy_from_slice(&v.to_le_bytes());
    put(4, 124); // header size
    put(8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x8_0000); // caps, height, width, pixel format, linear size
    put(12, side);
    put(16, side);
    put(20, (side / 4) * (side / 4) * 8);
    put(76, 32); // pixel format size
    put(80, 0x4); // DDPF_FOURCC
    put(108, 0x1000); // DDSCAPS_TEXTURE
    h[..4].copy_from_slice(b"DDS ");
    h[84..88].copy_from_slice(b"DXT1");
    for _ in 0..(side / 4) * (side / 4) {
        h.extend_from_slice(&c0.to_le_bytes());
        h.extend_from_slice(&0u16.to_le_bytes());
        h.extend_from_slice(&0u32.to_le_bytes());
    }
    h
}

/// RGB565 → RGB888 by bit replication (as DXT decoders expand).
fn expand565(c: u16) -> [u8; 3] {
    let (r, g, b) = ((c >> 11) & 31, (c >> 5) & 63, c & 31);
    [
        ((r << 3) | (r >> 2)) as u8,
        ((g << 2) | (g >> 4)) as u8,
        ((b << 3) | (b >> 2)) as u8,
    ]
}

/// Copies the synthetic ball with its `TEXT` name changed to `[item_ball01.dds` and writes
/// that `.dds` (bare name) beside it.
fn ball_with_dds(src: &Path, dir: &Path, colour: u16) -> std::path::PathBuf {
    let mut bytes = std::fs::read(src.join("pet/item_ball01.pet")).unwrap();
    let at = bytes
        .windows(16)
        .position(|w| w == b"item_ball01.jpg\0")
        .expect("TEXT name in the ball");
    bytes[at..at + 17].copy_from_slice(b"[item_ball01.dds\0");
    let model = dir.join("ball_dds.pet");
    std::fs::write(&model, bytes).unwrap();
    std::fs::write(dir.join("item_ball01.dds"), dxt1_solid(16, colour)).unwrap();
    model
}

#[vitrine_test(shared, gpu)]
fn prefixed_dds_texture_is_found_decoded_and_uses_its_own_alpha() {
    let src = common::synthetic();
    let dir_guard = render_support::fixtures::temp_dir("pet-dds");
    let dir = dir_guard.path().to_path_buf();
    // r 31, g 16, b 6: an orange no checkerboard texel has.
    let colour: u16 = (31 << 11) | (16 << 5) | 6;
    let path = ball_with_dds(&src, &dir, colour);
    let model = vitrine_test_support::load_path(&path, &LoadOptions::default()).unwrap();

    let tex = &model.textures[0];
    assert_eq!(
        tex.name, "item_ball01.dds",
        "the flag prefix is not in the file name"
    );
    assert_eq!(tex.resolved, Some(dir.join("item_ball01.dds").into()));
    assert_eq!(model.textures.len(), 1, "no _mask.jpg companion is added");
    let mat = &model.materials[0];
    assert_eq!(mat.name, "[item_ball01.dds");
    assert_eq!(
        (mat.blend, mat.double_sided, mat.opacity),
        (BlendMode::AlphaTest, true, None)
    );
    assert!(
        !model
            .diagnostics
            .iter()
            .any(|d| d.message.contains("not found")),
        "{:?}",
        model.diagnostics
    );

    let mut rig = Rig::new();
    let img = rig.render(&model, &unlit_front(), 128);
    let px = img.get_pixel(64, 64).0;
    let [r, g, b] = expand565(colour);
    assert!(
        near(px, [r, g, b, 255], 3),
        "centre {px:?}, want {r},{g},{b}"
    );
    for c in CHECKER_COLOURS {
        assert!(!near(px, c, 40), "checkerboard shows: {px:?}");
    }
}
