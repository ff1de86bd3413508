//! `vitrine render MAP --view game` draws the level's start as Warzone 2100 4.3.3 draws it
//! in a window of `--size` (`vitrine_core::map::scene::GameView`): the camera over player
//! 0's HQ (not its truck), its height, distance, focal length and the pivot 192 pixels
//! from the top. Checked against where the game's own 1024×768 screenshot of Sk-Rush
//! (`tools/side_by_side.sh`, docs/maps.md "The game and Vitrine side by side") draws the
//! HQ. Marked `#[vitrine_test(gpu, game)]`.

use crate::common;
use std::path::Path;
use std::process::Command;
use vitrine_test_needs::vitrine_test;

/// The box of the pixels brighter than black in `x0..x1` × `y0..y1` of `img`.
fn lit_box(img: &image::RgbaImage, (x0, x1, y0, y1): (u32, u32, u32, u32)) -> [u32; 4] {
    let mut b = [u32::MAX, u32::MAX, 0, 0];
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.get_pixel(x, y);
            if p[0].max(p[1]).max(p[2]) > 8 {
                b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
            }
        }
    }
    assert!(b[2] > b[0] && b[3] > b[1], "nothing drawn in the box");
    b
}

#[vitrine_test(gpu, game)]
fn the_game_view_draws_player_0s_hq_where_the_game_does() {
    // The structures alone on black, so the HQ's outline is the only thing lit around it.
    let img = game_view(
        "sk-rush.png",
        &[
            "--size",
            "1024x768",
            "--level",
            "Sk-Rush",
            "--layers",
            "structures",
            "--background",
            "#000000",
        ],
    );
    assert_eq!(img.dimensions(), (1024, 768));
    // The HQ (2176, 2304) and nothing else in x 400..624, y 200..500 (the factory starts
    // at x 635, the research facility at y 520); over the truck 6 tiles east, it would be
    // some 300 pixels further left. The game's screenshot has the HQ's roof
    // from x 440 to 584 and its plate's front edge at y 458; 5 pixels' tolerance (the
    // roof's corners are a few pixels wide; the game draws its shadow beside them).
    let [left, _top, right, bottom] = lit_box(&img, (400, 624, 200, 500));
    for (what, got, game) in [
        ("left", left, 440),
        ("right", right, 584),
        ("bottom", bottom, 458),
    ] {
        assert!(
            got.abs_diff(game) <= 5,
            "HQ's {what} edge at {got}, the game's at {game}"
        );
    }
}

#[vitrine_test(gpu, game)]
fn past_the_maps_edge_the_game_view_shows_what_the_game_does() {
    // Sk-Mountain's view over player 1's HQ (tools/parity_capture.sh's `p1`): the map's
    // north edge a third down the window, nothing but the space past it above. With the
    // fog off the game fills that with near black (10, 13, 16 on every tileset; its frame
    // is tests/parity/sk-mountain/p1.png), not the grey of a model's background.
    let draw = |extra: &[&str], name: &str| {
        let at = [
            "--size",
            "640x480",
            "--level",
            "Sk-Mountain",
            "--layers",
            "terrain",
            "--camera",
            "2432,1408",
        ];
        game_view(name, &[&at[..], extra].concat())
    };
    let img = draw(&[], "past-edge.png");
    let game =
        image::open(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parity/sk-mountain/p1.png"))
            .unwrap()
            .into_rgba8();
    for (x, y) in [(10, 10), (320, 40), (630, 20)] {
        let (ours, theirs) = (img.get_pixel(x, y).0, game.get_pixel(x, y).0);
        assert_eq!(ours, [10, 13, 16, 255], "({x}, {y})");
        for c in 0..3 {
            assert!(
                ours[c].abs_diff(theirs[c]) <= 2,
                "({x}, {y}): {ours:?}, the game's {theirs:?}"
            );
        }
    }
    // The ground below the edge is drawn, and --background still says what lies beyond.
    assert_ne!(img.get_pixel(320, 300).0, [10, 13, 16, 255]);
    let white = draw(&["--background", "#ffffff"], "past-edge-white.png");
    assert_eq!(white.get_pixel(320, 40).0, [255, 255, 255, 255]);
}

/// `vitrine render --view game ARGS` of the installed game's `mp.wz`, written as `name`:
/// the picture.
fn game_view(name: &str, args: &[&str]) -> image::RgbaImage {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("render-game-view");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(name);
    let run = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(["render", "--view", "game"])
        .args(args)
        .arg(common::game_data().join("mp.wz"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    image::open(&out).unwrap().into_rgba8()
}

/// Sk-Rush's start in the game view at 640 × 480 with `extra` options, written as `name`.
fn sk_rush_start(name: &str, extra: &[&str]) -> image::RgbaImage {
    let at = ["--size", "640x480", "--level", "Sk-Rush"];
    game_view(name, &[&at[..], extra].concat())
}

#[vitrine_test(gpu, game)]
fn the_objects_shadows_darken_by_half_on_the_side_away_from_the_sun_by_default() {
    let default = sk_rush_start("shadows-default.png", &[]);
    let on = sk_rush_start("shadows-on.png", &["--shadows", "on"]);
    let off = sk_rush_start("shadows-off.png", &["--shadows", "off"]);
    assert!(default == on, "the default is --shadows on");
    // Where the pictures differ, the shadows only darken: by the game's alpha of 128
    // (× 127/255), measured on the brighter pixels (the dark ones round too coarsely).
    let (mut darker, mut ratios, mut east, mut west) = (0usize, Vec::new(), 0usize, 0usize);
    let hq_x = 320; // the start view is centred on player 0's HQ
    for (x, y, p) in on.enumerate_pixels() {
        let q = off.get_pixel(x, y);
        if (0..3).all(|c| p[c].abs_diff(q[c]) <= 2) {
            continue;
        }
        assert!(
            (0..3).all(|c| p[c] <= q[c].saturating_add(2)),
            "({x}, {y}) brighter with shadows: {p:?} against {q:?}"
        );
        darker += 1;
        if x > hq_x {
            east += 1
        } else {
            west += 1
        }
        let (lum_on, lum_off) = (
            (0..3).map(|c| f32::from(p[c])).sum::<f32>(),
            (0..3).map(|c| f32::from(q[c])).sum::<f32>(),
        );
        if lum_off > 150.0 {
            ratios.push(lum_on / lum_off);
        }
    }
    // The HQ's alone is some 1,500 pixels; without shadows, none.
    println!("{darker} pixels darker, {east} east and {west} west of the HQ");
    assert!(darker > 1000, "only {darker} pixels in shadow");
    ratios.sort_by(f32::total_cmp);
    let median = ratios[ratios.len() / 2];
    assert!(
        (0.47..=0.53).contains(&median),
        "darkened to {median} of the colour"
    );
    // The sun is in the south-west: the shadows fall east (and north) of what casts them;
    // the HQ at the picture's centre and the base east of it, most of them on the right.
    assert!(
        east > 2 * west,
        "{east} shadowed pixels east of the HQ, {west} west"
    );
}
