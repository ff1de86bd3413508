//! A 1999-era PIE whose texture page is a real `.pcx` file beside it: the page is found,
//! decoded and drawn (not the checkerboard), and wins over a `.png` of the same stem.

use crate::render_support;

use render_support::{Rig, unlit_front};
use std::path::Path;
use vitrine_core::formats::LoadOptions;
use vitrine_render::textures::CHECKER_COLOURS;
use vitrine_test_needs::vitrine_test;

/// The PCX's one colour and the decoy PNG's.
const PCX_RGB: [u8; 3] = [200, 60, 30];
const PNG_RGB: [u8; 3] = [20, 200, 90];

/// A 64-unit square facing both ways (two triangles per side), textured from page 7.
const QUAD: &str = "PIE 2
TYPE 200
TEXTURE 0 page-7-ruins.pcx 256 256
LEVELS 1
LEVEL 1
POINTS 4
-32 -32 0
32 -32 0
32 32 0
-32 32 0
POLYGONS 4
200 3 0 1 2 0 256 256 256 256 0
200 3 0 2 3 0 256 256 0 0 0
200 3 2 1 0 256 0 256 256 0 256
200 3 3 2 0 0 0 256 0 0 256
";

/// An 8-bit paletted, RLE-compressed 16×16 PCX of one colour (the 1999 pages' kind).
fn write_pcx(path: &Path, rgb: [u8; 3]) {
    let mut bytes = Vec::new();
    let mut w = pcx::WriterPaletted::new(&mut bytes, (16, 16), (72, 72)).unwrap();
    for _ in 0..16 {
        w.write_row(&[5; 16]).unwrap();
    }
    let mut palette = vec![0u8; 256 * 3];
    palette[15..18].copy_from_slice(&rgb);
    w.write_palette(&palette).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[vitrine_test(gpu)]
fn a_pcx_page_beside_the_model_is_drawn() {
    let tmp = tempfile::Builder::new()
        .prefix("vitrine-pcx-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("ruin.pie"), QUAD).unwrap();
    write_pcx(&dir.join("page-7-ruins.pcx"), PCX_RGB);
    image::RgbaImage::from_pixel(
        16,
        16,
        image::Rgba([PNG_RGB[0], PNG_RGB[1], PNG_RGB[2], 255]),
    )
    .save(dir.join("page-7-ruins.png"))
    .unwrap();

    let model =
        vitrine_test_support::load_path(&dir.join("ruin.pie"), &LoadOptions::default()).unwrap();
    let resolved = model.textures[0].resolved.as_ref().expect("page found");
    assert_eq!(
        resolved.file_name(),
        "page-7-ruins.pcx",
        "the exact name wins"
    );

    let mut rig = Rig::new();
    let img = rig.render(&model, &unlit_front(), 96);
    assert!(
        rig.scene.warnings().is_empty(),
        "{:?}",
        rig.scene.warnings()
    );
    let centre = img.get_pixel(48, 48).0;
    let rgb = [centre[0], centre[1], centre[2]];
    let close = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 2);
    assert!(
        close(rgb, PCX_RGB),
        "centre {rgb:?}, want the PCX's {PCX_RGB:?}"
    );
    for c in CHECKER_COLOURS {
        assert!(
            !close(rgb, [c[0], c[1], c[2]]),
            "checkerboard drawn: {rgb:?}"
        );
    }
}
