//! Tilesets on real Warzone 2100 4.3.3 models: the scavenger factory (page-7, barbarians)
//! and the factory base plate (page-9, structure bases) are drawn with other pages for
//! urban and rockies maps, as the game's rules script swaps them; a hardpoint on page-12
//! (no swap) looks the same on every tileset; nothing outside the model changes.

use crate::common;
use crate::render_support;

use render_support::{Rig, unlit_front};
use vitrine_core::formats::LoadOptions;
use vitrine_core::formats::pie::Tileset;
use vitrine_test_needs::vitrine_test;

fn render(rig: &mut Rig, file: &std::path::Path, tileset: Tileset) -> image::RgbaImage {
    let options = LoadOptions {
        tileset,
        ..LoadOptions::default()
    };
    let model = vitrine_test_support::load_path(file, &options).expect("corpus model loads");
    let mut view = unlit_front();
    view.camera.yaw = 0.6;
    view.camera.pitch = 0.5;
    rig.render(&model, &view, 160)
}

/// (pixels whose colour differs, foreground pixels of `a`, differing pixels outside
/// `a`'s foreground box grown by 2 px).
fn compare(a: &image::RgbaImage, b: &image::RgbaImage) -> (usize, usize, usize) {
    let bg = [0, 0, 0, 255];
    let (x0, y0, x1, y1) = render_support::foreground_box(a, bg).expect("model drawn");
    let inside = |x: u32, y: u32| x + 2 >= x0 && x <= x1 + 2 && y + 2 >= y0 && y <= y1 + 2;
    let fg = a.pixels().filter(|p| p.0 != bg).count();
    let diff = common::image_diff::diff(a, b);
    let outside = diff
        .positions_over(0)
        .filter(|&(x, y)| !inside(x, y))
        .count();
    (diff.count_over(0), fg, outside)
}

#[vitrine_test(shared, gpu)]
fn swapped_pages_change_the_picture_and_other_pages_do_not() {
    let wz = common::wz2100();
    let mut rig = Rig::new();
    let structs = wz.join("data/base/structs");
    // (file, page, tilesets that swap it)
    let cases = [
        ("blbrbfac.pie", [Tileset::Urban, Tileset::Rockies]),
        ("blbfact.pie", [Tileset::Urban, Tileset::Rockies]),
    ];
    for (file, swapped) in cases {
        let path = structs.join(file);
        let arizona = render(&mut rig, &path, Tileset::Arizona);
        for t in swapped {
            let other = render(&mut rig, &path, t);
            let (differ, fg, outside) = compare(&arizona, &other);
            assert_eq!(outside, 0, "{file} {t}: pixels changed outside the model");
            // Tolerance: the swapped pages are recoloured versions of the same layout;
            // a quarter of the covered pixels is far below what they change (measured:
            // well over half) and far above lavapipe's rounding noise (none: the same
            // texels are sampled at the same places).
            assert!(
                differ * 4 > fg,
                "{file} {t}: only {differ} of {fg} pixels changed"
            );
        }
    }
    // A page no tileset swaps: identical pictures.
    let path = structs.join("blguard1.pie");
    let arizona = render(&mut rig, &path, Tileset::Arizona);
    for t in [Tileset::Urban, Tileset::Rockies] {
        let (differ, fg, _) = compare(&arizona, &render(&mut rig, &path, t));
        assert!(fg > 500, "the hardpoint is drawn");
        assert_eq!(differ, 0, "blguard1.pie {t}: page-12 is never swapped");
    }
}

#[vitrine_test(shared)]
fn the_textures_list_names_each_tilesets_page() {
    let wz = common::wz2100();
    let path = wz.join("data/base/structs/blbfact.pie");
    for (tileset, page) in [
        (Tileset::Arizona, "page-9-player-buildings-bases.png"),
        (Tileset::Urban, "page-9-player-buildings-bases-urban.png"),
        (
            Tileset::Rockies,
            "page-9-player-buildings-bases-rockies.png",
        ),
    ] {
        let options = LoadOptions {
            tileset,
            ..LoadOptions::default()
        };
        let m = vitrine_test_support::load_path(&path, &options).unwrap();
        // The material draws the tileset's page, found in the corpus' texpages.
        let base = &m.textures[m.materials[0].base.unwrap()];
        assert_eq!(base.name, page, "{tileset}");
        assert!(base.resolved.is_some(), "{tileset}: {page} not found");
        // Every tileset's page is listed (and resolved) whichever is shown.
        for other in ["", "-urban", "-rockies"] {
            let name = format!("page-9-player-buildings-bases{other}.png");
            assert!(
                m.textures
                    .iter()
                    .any(|t| t.name == name && t.resolved.is_some()),
                "{tileset}: {name} not listed"
            );
        }
    }
}
