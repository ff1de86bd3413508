//! Golden images of `vitrine render MAP` on the installed game's maps: one map per
//! tileset with the ground blended as Warzone 2100 4.3 draws it (Arizona `Sk-Rush`, Urban
//! `Sk-UrbanDuel`, Rockies `Sk-Mountain`), `Sk-Rush` in Classic mode (the tile images
//! only), seen from its side in perspective (the fog and Arizona's sky, `--fog on`) and
//! in the Game view (the level's start as the game draws it).
//! References: `tests/golden/maps/`; `UPDATE_GOLDEN=1 cargo test --test cli
//! render_map_golden` rewrites them (look at them before committing). On failure
//! `<name>-actual.png` and `<name>-diff.png` are written to the cargo target temp dir.
//!
//! Tolerance: the golden images' (`image_diff`): a pixel matches within
//! [`CHANNEL_TOLERANCE`] of 255 per channel, and up to [`MAX_OUTLIER_FRACTION`](image_diff::MAX_OUTLIER_FRACTION) of the
//! pixels may fail that. The references are rendered on Mesa's lavapipe (CPU Vulkan, as
//! CI renders); the ground textures are minified about 60× at this size, so a GPU whose
//! mipmap filtering differs may need a fresh set. Marked `#[vitrine_test(gpu, game)]`.

use crate::common::image_diff::{self, CHANNEL_TOLERANCE};
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine_test_needs::vitrine_test;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/maps")
}

/// Renders `level` of the game's `mp.wz` at 320² in the default (isometric) view with
/// `extra` options.
fn render(level: &str, extra: &[&str]) -> RgbaImage {
    let data = crate::common::game_data();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("render-map-golden");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!("{level}{}.png", extra.join("")));
    let output = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(["render", "--size", "320x320", "--level", level])
        .args(extra)
        .arg(data.join("mp.wz"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{level}: {err}");
    image::open(&out).unwrap().into_rgba8()
}

/// Compares `actual` with `tests/golden/maps/<name>.png`.
fn check(name: &str, actual: &RgbaImage) {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    image_diff::check_golden(&golden_dir(), &scratch, name, actual);
}

#[vitrine_test(gpu, game)]
fn each_tileset_draws_its_blended_ground() {
    crate::common::needs_gpu();
    for (level, name) in [
        ("Sk-Rush", "map-rush-arizona"),
        ("Sk-UrbanDuel", "map-urbanduel-urban"),
        ("Sk-Mountain", "map-mountain-rockies"),
    ] {
        check(name, &render(level, &[]));
    }
}

#[vitrine_test(gpu, game)]
fn classic_mode_draws_the_tile_images() {
    crate::common::needs_gpu();
    let classic = render("Sk-Rush", &["--terrain", "classic"]);
    check("map-rush-classic", &classic);
    // The two modes differ over the whole ground, not at a few pixels.
    let blended = render("Sk-Rush", &["--terrain", "blended"]);
    let d = image_diff::diff(&blended, &classic);
    let ground = d.count_over(CHANNEL_TOLERANCE);
    assert!(
        ground > d.pixels() / 10,
        "{ground} of {} pixels",
        d.pixels()
    );
}

#[vitrine_test(gpu, game)]
fn a_perspective_view_has_fog_and_the_tilesets_sky() {
    crate::common::needs_gpu();
    // The whole map seen from its side, in perspective: the fog over the far ground, the
    // sky above the horizon.
    let foggy = render("Sk-Rush", &["--view", "front", "--fog", "on"]);
    check("map-rush-front-fog", &foggy);
    // Off (the default): neither, over much of the picture (the sky's rows and the far
    // ground).
    let clear = render("Sk-Rush", &["--view", "front"]);
    let d = image_diff::diff(&foggy, &clear);
    let changed = d.count_over(CHANNEL_TOLERANCE);
    assert!(
        changed > d.pixels() / 4,
        "{changed} of {} pixels",
        d.pixels()
    );
}

#[vitrine_test(gpu, game)]
fn the_game_view_draws_the_levels_start() {
    crate::common::needs_gpu();
    // The game's start camera for a 320² window (`render_game_view` checks it against
    // the game's own picture at 1024×768): over player 0's HQ, north, 40° down, the pivot
    // 192 pixels from the top.
    check(
        "map-rush-game-start",
        &render("Sk-Rush", &["--view", "game"]),
    );
}
