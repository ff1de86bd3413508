//! A page first uploaded from its smaller levels (a map's first frame,
//! `vitrine_app::page_detail`) and then handed over whole: the picture becomes exactly
//! the one a renderer given the whole page at once draws, and a page whose whole does
//! not decode stays drawn from its smaller levels with a warning saying so.

use crate::render_support;

use render_support::{Rig, framed, unlit_front};
use std::sync::Arc;
use vitrine_core::formats::LoadOptions;
use vitrine_core::formats::texture::StoredLevels;
use vitrine_core::model::{BlendMode, Pose};
use vitrine_render::pages::PageImage;
use vitrine_test_needs::vitrine_test;

/// A 64-unit square facing +Z, textured all over from page 7.
const QUAD: &str = "PIE 2
TYPE 200
TEXTURE 0 page-7-cells.png 256 256
LEVELS 1
LEVEL 1
POINTS 4
-32 -32 0
32 -32 0
32 32 0
-32 32 0
POLYGONS 2
200 3 0 1 2 0 256 256 256 256 0
200 3 0 2 3 0 256 256 0 0 0
";

/// 64² of 8-texel red and blue cells: its levels of 8² and smaller are one purple.
fn cells() -> image::RgbaImage {
    image::RgbaImage::from_fn(64, 64, |x, y| {
        if (x / 8 + y / 8) % 2 == 0 {
            image::Rgba([230, 20, 20, 255])
        } else {
            image::Rgba([20, 20, 230, 255])
        }
    })
}

/// The mean difference per channel (the pictures are opaque: every pixel counts).
fn mean_diff(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    crate::common::image_diff::diff(a, b).mean()
}

#[vitrine_test(gpu)]
fn a_page_drawn_from_its_small_levels_becomes_the_whole_page_when_handed_over() {
    let tmp = tempfile::Builder::new()
        .prefix("vitrine-detail-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("cells.pie"), QUAD).unwrap();
    cells().save(dir.join("page-7-cells.png")).unwrap();
    let model =
        vitrine_test_support::load_path(&dir.join("cells.pie"), &LoadOptions::default()).unwrap();
    let page_file = model.textures[0].resolved.clone().expect("page found");
    let files = vitrine_test_support::disk();
    let stamp = files.stamp(&page_file).unwrap_or_default();
    let pose = Pose::rest(&model);
    let mut view = unlit_front();
    framed(&mut view.camera, &model, &pose);

    // The whole page at once: the cells, close up.
    let mut whole_rig = Rig::new();
    let whole = whole_rig.render_pose(&model, &pose, &view, 96);

    // Its levels up to 4² first: one purple where the cells were.
    let mut rig = Rig::new();
    let part = PageImage::from_levels(
        StoredLevels {
            full_size: (64, 64),
            levels: vec![cells()],
        },
        4,
    );
    assert!(!part.is_complete());
    assert_eq!(part.dimensions(), (4, 4));
    rig.scene
        .provide_texture(page_file.clone(), stamp, Ok(Arc::new(part)));
    let first = rig.render_pose(&model, &pose, &view, 96);
    let d = mean_diff(&first, &whole);
    assert!(
        d > 20.0,
        "the small levels draw the cells' mean, not the cells: {d}"
    );

    // A whole page that fails to decode: still the small levels, and a warning.
    let (d, q) = (&rig.gpu.device, &rig.gpu.queue);
    let failed = vec![(page_file.clone(), stamp, Err("broken".to_string()))];
    assert!(rig.scene.refine_textures(d, q, failed));
    let w = rig.scene.warnings().join("\n");
    assert!(
        w.contains("page-7-cells.png shown from its smaller levels"),
        "{w}"
    );
    assert!(w.contains("broken"), "{w}");

    // The whole page handed over: exactly the picture drawn from it at once.
    let page = Arc::new(PageImage::new(cells()));
    let refined = vec![(page_file.clone(), stamp, Ok(page.clone()))];
    assert!(rig.scene.refine_textures(d, q, refined));
    assert!(
        rig.scene.warnings().is_empty(),
        "{:?}",
        rig.scene.warnings()
    );
    let target = vitrine_render::RenderTarget::new(d, 96, 96);
    rig.scene.render(d, q, &target, &pose, &view);
    let after = target.read_rgba(d, q).unwrap();
    assert_eq!(
        after,
        whole,
        "refined differs from whole by {}",
        mean_diff(&after, &whole)
    );
    // Once whole, a page handed over again changes nothing.
    let again = vec![(page_file, stamp, Ok(page))];
    assert!(!rig.scene.refine_textures(d, q, again));
}

/// A page not read for the first frame (a map's objects' PNG pages,
/// `PageImage::waiting`): what is drawn with it is left out — the background shows where
/// the model is, no checkerboard, no transparent black — until the whole page arrives,
/// which draws exactly what a renderer given it at once draws; a whole page that does not
/// decode then shows as any undecodable page (the checkerboard and a warning), not as
/// nothing.
#[vitrine_test(gpu)]
fn a_page_not_read_yet_leaves_its_draws_out_until_it_arrives() {
    let tmp = tempfile::Builder::new()
        .prefix("vitrine-waiting-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("cells.pie"), QUAD).unwrap();
    cells().save(dir.join("page-7-cells.png")).unwrap();
    let mut model =
        vitrine_test_support::load_path(&dir.join("cells.pie"), &LoadOptions::default()).unwrap();
    // Drawn opaque, as the ground's layers are: the waiting page's transparent texel
    // would draw black there (and multiply the riverbed black as the water), not
    // nothing — only leaving the draw out shows the background.
    model.materials[0].blend = BlendMode::Opaque;
    let page_file = model.textures[0].resolved.clone().expect("page found");
    let stamp = vitrine_test_support::disk()
        .stamp(&page_file)
        .unwrap_or_default();
    let pose = Pose::rest(&model);
    let mut view = unlit_front();
    // Not black: a black quad is not the background.
    view.background = [0, 90, 160, 255];
    framed(&mut view.camera, &model, &pose);

    let nothing = vitrine_core::model::Model::new(model.format, "nothing");
    let background = Rig::new().render_pose(&nothing, &Pose::rest(&nothing), &view, 96);
    let whole = Rig::new().render_pose(&model, &pose, &view, 96);
    assert!(mean_diff(&background, &whole) > 20.0, "the quad is in view");

    let waiting = || Ok(Arc::new(PageImage::waiting()));
    let mut rig = Rig::new();
    rig.scene
        .provide_texture(page_file.clone(), stamp, waiting());
    let first = rig.render_pose(&model, &pose, &view, 96);
    assert_eq!(
        first, background,
        "the quad is left out while its page waits"
    );
    assert!(
        rig.scene.warnings().is_empty(),
        "{:?}",
        rig.scene.warnings()
    );

    let (d, q) = (&rig.gpu.device, &rig.gpu.queue);
    let page = Arc::new(PageImage::new(cells()));
    assert!(
        rig.scene
            .refine_textures(d, q, vec![(page_file.clone(), stamp, Ok(page))])
    );
    let target = vitrine_render::RenderTarget::new(d, 96, 96);
    rig.scene.render(d, q, &target, &pose, &view);
    assert_eq!(target.read_rgba(d, q).unwrap(), whole, "the page arrived");

    // Waiting, then a whole page that does not decode: the checkerboard, with a warning.
    let mut rig = Rig::new();
    rig.scene
        .provide_texture(page_file.clone(), stamp, waiting());
    rig.render_pose(&model, &pose, &view, 96);
    let (d, q) = (&rig.gpu.device, &rig.gpu.queue);
    let failed = vec![(page_file, stamp, Err("broken".to_string()))];
    assert!(rig.scene.refine_textures(d, q, failed));
    let w = rig.scene.warnings().join("\n");
    assert!(
        w.contains("unreadable (broken); showing a checkerboard"),
        "{w}"
    );
    let target = vitrine_render::RenderTarget::new(d, 96, 96);
    rig.scene.render(d, q, &target, &pose, &view);
    let shown = target.read_rgba(d, q).unwrap();
    let magenta = shown
        .pixels()
        .filter(|p| p[0] > 200 && p[1] < 60 && p[2] > 200)
        .count();
    assert!(
        magenta > 100,
        "the checkerboard is drawn: {magenta} magenta pixels"
    );
}
