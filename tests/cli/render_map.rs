//! `vitrine render MAP` on the skirmish maps of the installed game (`base.wz` holds the
//! tile images, `mp.wz` the maps: [`common::game_data`], reported ignored without them): a top
//! view puts the terrain where the map's tiles are, north up and east right (the water
//! darkens and tints a lake tile, not its mirrors), the objects change the picture where a structure stands, and
//! every map of `mp.wz` Vitrine reads is drawn. Marked `#[vitrine_test(gpu, game)]`.

use crate::common;
use image::RgbaImage;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine_test_needs::vitrine_test;

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("render-map-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The background `vitrine render` clears to.
const BACKGROUND: [u8; 3] = [48, 52, 60];

/// Renders `level` of the game's `mp.wz` in the top view at 512², with `extra` options.
fn top_view(data: &Path, level: &str, out: &Path, extra: &[&str]) -> RgbaImage {
    let output = vitrine()
        .args([
            "render", "--view", "top", "--size", "512x512", "--level", level,
        ])
        .args(extra)
        .arg(data.join("mp.wz"))
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{level}: {err}");
    image::open(out).unwrap().into_rgba8()
}

/// The box of pixels that are not the background: the map's rectangle in a top view.
fn terrain_box(img: &RgbaImage) -> (f32, f32, f32, f32) {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (x, y, p) in img.enumerate_pixels() {
        let d: i32 = (0..3)
            .map(|i| (p[i] as i32 - BACKGROUND[i] as i32).abs())
            .sum();
        if d > 12 {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
    }
    assert!(x1 > x0 && y1 > y0, "nothing drawn");
    (x0 as f32, y0 as f32, (x1 + 1) as f32, (y1 + 1) as f32)
}

/// The pixel over world (x, y) (world units) of a `w`×`h`-tile map in a top view.
fn pixel_at(b: (f32, f32, f32, f32), size: (u32, u32), x: f32, y: f32) -> (u32, u32) {
    let px = b.0 + x / (size.0 as f32 * 128.0) * (b.2 - b.0);
    let py = b.1 + y / (size.1 as f32 * 128.0) * (b.3 - b.1);
    (px as u32, py as u32)
}

/// `vitrine info --json` of `level`.
fn info(data: &Path, level: &str) -> Value {
    let out = vitrine()
        .args(["info", "--json", "--level", level])
        .arg(data.join("mp.wz"))
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The water tile of `level` farthest inside its lake (the most water tiles in the 5×5
/// around it), read with the core's map readers.
fn lake_tile(data: &Path, level: &str) -> (u32, u32) {
    use vitrine_core::files::FileRef;
    use vitrine_core::map;
    let files = vitrine::files::disk();
    let wz = FileRef::archive_root(&data.join("mp.wz"));
    let source = map::open_source(files, &wz, Some(level)).unwrap();
    let m = map::open(files, &source).unwrap();
    let t = &m.terrain;
    let water = |x: i32, y: i32| {
        (x >= 0 && y >= 0)
            .then(|| t.tile_number(x as u32, y as u32))
            .flatten()
            .is_some_and(|n| m.terrain_types.get(usize::from(n)) == Some(&7))
    };
    let score = |x: i32, y: i32| {
        let around = (-2..=2).flat_map(|dy| (-2..=2).map(move |dx| (dx, dy)));
        around.filter(|(dx, dy)| water(x + dx, y + dy)).count()
    };
    let (x, y) = (0..t.height as i32)
        .flat_map(|y| (0..t.width as i32).map(move |x| (x, y)))
        .filter(|&(x, y)| water(x, y))
        .max_by_key(|&(x, y)| score(x, y))
        .expect("the map has water");
    (x as u32, y as u32)
}

#[vitrine_test(gpu, game)]
fn a_top_view_puts_the_lake_where_the_map_has_it() {
    let data = common::game_data();
    common::needs_gpu();
    let level = "Sk-Mountain";
    let img = top_view(&data, level, &out_dir("lake").join("top.png"), &[]);
    let b = terrain_box(&img);
    let facts = info(&data, level);
    let size = (
        facts["width"].as_u64().unwrap() as u32,
        facts["height"].as_u64().unwrap() as u32,
    );
    // A square map stays square.
    assert!(((b.2 - b.0) - (b.3 - b.1)).abs() <= 2.0, "{b:?}");
    let (tx, ty) = lake_tile(&data, level);
    // The same view without the water layer: the riverbed alone.
    let dry_layers = "terrain,decals,features,structures,droids,start-positions";
    let dry = top_view(
        &data,
        level,
        &out_dir("lake").join("dry.png"),
        &["--layers", dry_layers],
    );
    let at_in = |img: &RgbaImage, x: u32, y: u32| {
        let (x, y) = (x as f32 * 128.0 + 64.0, y as f32 * 128.0 + 64.0);
        let (px, py) = pixel_at(b, size, x, y);
        img.get_pixel(px, py).0.map(i32::from)
    };
    let (water, bed) = (at_in(&img, tx, ty), at_in(&dry, tx, ty));
    // The water multiplies the riverbed by its pages (bluish: the first page's mean is
    // sRGB 174, 201, 213): darker by a fifth at least, and bluer than the bed (its blue a
    // larger share of its colour). The bed is dark (the game's baked light of a riverbed
    // under a Rockies lake), hence shares, not differences.
    let (ws, bs) = (water[..3].iter().sum::<i32>(), bed[..3].iter().sum::<i32>());
    assert!(
        ws * 5 < bs * 4 && water[2] * bs > bed[2] * ws,
        "tile ({tx}, {ty}): water {water:?} over the bed {bed:?}"
    );
    // Mirrored east–west or north–south, the same pixel has no water on it.
    for (mx, my) in [(size.0 - 1 - tx, ty), (tx, size.1 - 1 - ty)] {
        let (p, q) = (at_in(&img, mx, my), at_in(&dry, mx, my));
        assert!(
            (0..3).all(|i| (p[i] - q[i]).abs() <= 2),
            "the mirror ({mx}, {my}) of the lake has water too: {p:?} over {q:?}"
        );
    }
}

#[vitrine_test(gpu, game)]
fn objects_change_the_picture_where_a_structure_stands() {
    let data = common::game_data();
    common::needs_gpu();
    let level = "Sk-Rush";
    let dir = out_dir("objects");
    let with = top_view(&data, level, &dir.join("with.png"), &[]);
    let without = top_view(&data, level, &dir.join("without.png"), &["--no-objects"]);
    let facts = info(&data, level);
    let size = (
        facts["width"].as_u64().unwrap() as u32,
        facts["height"].as_u64().unwrap() as u32,
    );
    let b = terrain_box(&without);
    let factory = facts["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["stats_id"] == "A0LightFactory")
        .expect("Sk-Rush has factories");
    let (x, y) = (
        factory["x"].as_f64().unwrap() as f32,
        factory["y"].as_f64().unwrap() as f32,
    );
    let (px, py) = pixel_at(b, size, x, y);
    let diff = |a: &RgbaImage, c: &RgbaImage, px: u32, py: u32| -> i32 {
        let (p, q) = (a.get_pixel(px, py), c.get_pixel(px, py));
        (0..3).map(|i| (p[i] as i32 - q[i] as i32).abs()).sum()
    };
    assert!(
        diff(&with, &without, px, py) > 30,
        "the factory at ({x}, {y}) does not show at pixel ({px}, {py})"
    );
    // Away from every object (the map's corner tile), the two agree.
    let (cx, cy) = pixel_at(b, size, 100.0, 100.0);
    assert!(diff(&with, &without, cx, cy) < 8);
}

#[vitrine_test(gpu, game)]
fn every_map_of_mp_wz_vitrine_reads_is_drawn() {
    let data = common::game_data();
    common::needs_gpu();
    let dir = out_dir("all");
    let out = vitrine()
        // Two renderers (one by default for maps): the batch's routing and devices.
        .args(["render", "--all-maps", "--size", "96x64", "--msaa", "1"])
        .args(["--renderers", "2"])
        .arg(data.join("mp.wz"))
        .arg("-o")
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // All 44, the five script-generated ones by running their game.js.
    assert!(err.contains("44 of 44 maps rendered"), "{err}");
    let pngs = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(pngs, 44);
    let rush = image::open(dir.join("Sk-Rush.png")).unwrap().into_rgba8();
    assert_eq!(rush.dimensions(), (96, 64));
}

/// The mean colour of the pixels that are not the background.
fn mean_foreground(img: &RgbaImage) -> [f32; 3] {
    let (mut sum, mut n) = ([0f32; 3], 0f32);
    for p in img.pixels() {
        let d: i32 = (0..3)
            .map(|i| (p[i] as i32 - BACKGROUND[i] as i32).abs())
            .sum();
        if d > 12 {
            for i in 0..3 {
                sum[i] += f32::from(p[i]);
            }
            n += 1.0;
        }
    }
    assert!(n > 0.0, "nothing drawn");
    sum.map(|s| s / n)
}

#[vitrine_test(gpu, game)]
fn a_turntable_of_a_map_is_drawn_over_the_games_data() {
    let data = common::game_data();
    common::needs_gpu();
    let dir = out_dir("turntable");
    let output = vitrine()
        .args([
            "render", "--view", "top", "--size", "256x256", "--level", "Sk-Rush",
        ])
        .args(["--turntable", "0.04", "--fps", "25", "--animate"])
        .arg(data.join("mp.wz"))
        .arg("-o")
        .arg(dir.join("frame.png"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    // Over the game's data, as a still render: no flat ground, no boxes for objects.
    assert!(!err.contains("no tile images"), "{err}");
    assert!(!err.contains("no Warzone 2100 data"), "{err}");
    assert!(err.contains("Sk-Rush: "), "warnings name the level: {err}");
    let frame = image::open(dir.join("frame_0001.png"))
        .unwrap()
        .into_rgba8();
    let still = top_view(&data, "Sk-Rush", &dir.join("still.png"), &[]);
    let (a, b) = (mean_foreground(&frame), mean_foreground(&still));
    for i in 0..3 {
        assert!((a[i] - b[i]).abs() < 12.0, "turntable {a:?} vs still {b:?}");
    }
}

#[vitrine_test(gpu, game)]
fn base_plates_on_flat_ground_show_over_it() {
    // Sk-Mountain's player 0 base stands on ground at height 0: its structures' base
    // plates (flat models at the ground's very height) must cover the ground as in the
    // game, which draws its terrain before its objects. Over the plate of every research
    // facility and factory, the picture with the terrain is the picture without it.
    let data = common::game_data();
    common::needs_gpu();
    let level = "Sk-Mountain";
    let dir = out_dir("plates");
    let with = top_view(
        &data,
        level,
        &dir.join("with.png"),
        &["--layers", "terrain,structures"],
    );
    let without = top_view(
        &data,
        level,
        &dir.join("without.png"),
        &["--layers", "structures"],
    );
    let b = terrain_box(&with);
    let facts = info(&data, level);
    let size = (
        facts["width"].as_u64().unwrap() as u32,
        facts["height"].as_u64().unwrap() as u32,
    );
    let mut checked = 0;
    for o in facts["objects"].as_array().unwrap() {
        let id = o["stats_id"].as_str().unwrap_or("");
        if o["player"] != 0 || !matches!(id, "A0ResearchFacility" | "A0LightFactory") {
            continue;
        }
        let (x, y) = (
            o["x"].as_f64().unwrap() as f32,
            o["y"].as_f64().unwrap() as f32,
        );
        // The plates are 262 units wide with soft edges: their middle 150 units.
        for dy in (-75..=75).step_by(25) {
            for dx in (-75..=75).step_by(25) {
                let (px, py) = pixel_at(b, size, x + dx as f32, y + dy as f32);
                let (p, q) = (with.get_pixel(px, py).0, without.get_pixel(px, py).0);
                let d: i32 = (0..3).map(|i| (p[i] as i32 - q[i] as i32).abs()).sum();
                assert!(
                    d <= 12,
                    "{id} at ({x}, {y}) + ({dx}, {dy}): the ground covers the structure: \
                     {p:?} with the terrain, {q:?} without"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 4 * 49, "{checked} points: the base changed");
}
