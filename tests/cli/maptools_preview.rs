//! `vitrine maptools package genpreview`, as the map database's pipeline runs it
//! (`--playercolors=wz --map-seed=0 MAP OUT.png`) on the database's own packages
//! (`../shared/corpus/wz2100/mapdb-2p/`, over the installed game's data): the 3D preview
//! fills its picture edge to edge (straight down: every pixel is the map; tilted: the
//! south edge is the bottom row, the east and west edges the sides, only the sky above
//! the north edge transparent); a folder of packages gives the same pictures in one run;
//! `--2d` puts each tile's colour, a structure's player colour, an HQ's magenta and oil's
//! yellow where the map has them; and what a mode cannot honour is refused by name.

use crate::common;
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vitrine_core::files::FileRef;
use vitrine_core::map::{self, ObjectKind, Owner, flat};
use vitrine_test_needs::vitrine_test;

fn genpreview(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .args(["maptools", "package", "genpreview"])
        .args(args)
        .output()
        .unwrap()
}

fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A map package of the database (two players, water, cliffs, both bases).
fn package(name: &str) -> PathBuf {
    let p = common::wz2100().join("mapdb-2p").join(format!("{name}.wz"));
    assert!(p.is_file(), "{}", p.display());
    p
}

fn data_args(data: &Path) -> Vec<String> {
    ["mp.wz", "base.wz"]
        .iter()
        .flat_map(|f| ["--data".to_string(), data.join(f).display().to_string()])
        .collect()
}

/// Runs genpreview on `input` into `out` with `extra`, over the game's data.
fn preview(input: &Path, out: &Path, extra: &[&str]) -> Output {
    let data = data_args(&common::game_data());
    let mut args: Vec<&str> = data.iter().map(String::as_str).collect();
    args.extend(extra);
    args.push(input.to_str().unwrap());
    args.push(out.to_str().unwrap());
    genpreview(&args)
}

fn alpha(img: &RgbaImage, x: u32, y: u32) -> u8 {
    img.get_pixel(x, y).0[3]
}

#[vitrine_test(shared, gpu, game)]
fn straight_down_the_map_is_every_pixel_of_the_picture() {
    common::needs_gpu();
    let tmp = common::temp_dir("genpreview-top");
    let out = tmp.path().join("top.png");
    let run = preview(
        &package("AValley"),
        &out,
        &["--pitch", "90", "--size", "256"],
    );
    assert!(run.status.success(), "{}", said(&run));
    assert!(said(&run).contains("saved to"), "{}", said(&run));
    let img = image::open(&out).unwrap().into_rgba8();
    // AValley is 100 × 100 tiles: a square picture, the map corner to corner.
    assert_eq!(img.dimensions(), (256, 256));
    let clear = img.pixels().filter(|p| p.0[3] < 255).count();
    assert_eq!(clear, 0, "every pixel is the map's, none the background");
}

#[vitrine_test(shared, gpu, game)]
fn tilted_the_map_fills_the_frame_from_edge_to_edge() {
    common::needs_gpu();
    let tmp = common::temp_dir("genpreview-tilted");
    let out = tmp.path().join("tilted.png");
    let run = preview(
        &package("AValley"),
        &out,
        &["--playercolors=wz", "--map-seed=0", "--size", "256"],
    );
    assert!(run.status.success(), "{}", said(&run));
    let img = image::open(&out).unwrap().into_rgba8();
    let (w, h) = img.dimensions();
    assert_eq!(w, 256, "the longer side");
    // Seen 60° down a square map is less tall than wide (sin 60° = 0.87), plus what
    // stands above its north edge.
    assert!(h > 200 && h < 256, "{w}×{h}");
    // The south edge is the bottom row, the west and east edges the sides.
    for x in 0..w {
        assert_eq!(alpha(&img, x, h - 1), 255, "bottom row at x {x}");
    }
    for y in h / 8..h {
        assert_eq!(alpha(&img, 0, y), 255, "west edge at y {y}");
        assert_eq!(alpha(&img, w - 1, y), 255, "east edge at y {y}");
    }
    // The map's bottom corners are the picture's; what is transparent is the sky above
    // the map (in every column, below the skyline's anti-aliased edge nothing is clear),
    // and something reaches the top row.
    for x in 0..w {
        let first = (0..h).find(|&y| alpha(&img, x, y) == 255).unwrap();
        assert!(
            (first..h).all(|y| alpha(&img, x, y) == 255),
            "column {x}: a hole below {first}"
        );
    }
    assert!((0..w).any(|x| alpha(&img, x, 0) > 0), "nothing at the top");
    let clear = img.pixels().filter(|p| p.0[3] == 0).count();
    assert!(
        clear * 10 < (w * h) as usize,
        "the map fills the frame: {clear} of {} pixels clear",
        w * h
    );
}

#[vitrine_test(shared, gpu, game)]
fn a_folder_of_packages_gives_each_its_own_preview_in_one_run() {
    common::needs_gpu();
    let tmp = common::temp_dir("genpreview-folder");
    let folder = tmp.path().join("maps");
    std::fs::create_dir_all(&folder).unwrap();
    let names = ["AValley", "Arena_22", "Battlefield"];
    for n in names {
        std::fs::copy(package(n), folder.join(format!("{n}.wz"))).unwrap();
    }
    let outs = tmp.path().join("previews");
    let run = preview(&folder, &outs, &["--size", "192"]);
    assert!(run.status.success(), "{}", said(&run));
    assert!(
        said(&run).contains("3 of 3 maps previewed"),
        "{}",
        said(&run)
    );
    // Each the picture a run of its own draws: the same size, the same pixels (the batch
    // draws into a square and keeps the frame's part).
    let name = names[1];
    let one = tmp.path().join("one.png");
    let single = preview(&package(name), &one, &["--size", "192"]);
    assert!(single.status.success(), "{}", said(&single));
    let single = image::open(&one).unwrap().into_rgba8();
    let batch = image::open(outs.join(format!("{name}.png")))
        .unwrap()
        .into_rgba8();
    assert_eq!(batch.dimensions(), single.dimensions());
    let differ = batch
        .pixels()
        .zip(single.pixels())
        .filter(|(a, b)| (0..4).any(|i| (a.0[i] as i32 - b.0[i] as i32).abs() > 8))
        .count();
    assert!(
        differ * 100 < (batch.width() * batch.height()) as usize,
        "{differ} pixels differ"
    );
    for n in names {
        assert!(outs.join(format!("{n}.png")).is_file(), "{n}");
    }
}

/// The map of `package` and where the game puts its objects, over the game's data.
fn open(package: &Path) -> (map::Map, map::Placement) {
    let files = vitrine::files::disk();
    let data = common::game_data();
    let roots: Vec<FileRef> = ["mp.wz", "base.wz"]
        .iter()
        .map(|f| FileRef::archive_root(&data.join(f)))
        .collect();
    let (stats, _) = vitrine_core::wz::Stats::load(files, &roots);
    let level = map::open_source(files, &vitrine::files::parse(package), None).unwrap();
    let m = map::open(files, &level).unwrap();
    let placed = map::place(&m, &stats, files, &roots);
    (m, placed)
}

fn rgb(img: &image::RgbImage, x: i32, y: i32) -> [u8; 3] {
    img.get_pixel(x as u32, y as u32).0
}

#[vitrine_test(shared, game)]
fn the_2d_preview_puts_tiles_structures_and_oil_where_the_map_has_them() {
    let tmp = common::temp_dir("genpreview-2d");
    let out = tmp.path().join("flat.png");
    let pkg = package("AValley");
    let run = preview(&pkg, &out, &["--2d", "--playercolors=wz", "--map-seed=0"]);
    assert!(run.status.success(), "{}", said(&run));
    let img = image::open(&out).unwrap();
    assert_eq!(
        img.color(),
        image::ColorType::Rgb8,
        "RGB, as maptools writes"
    );
    let img = img.into_rgb8();
    let (m, placed) = open(&pkg);
    assert_eq!(img.dimensions(), (m.terrain.width, m.terrain.height));
    // Tiles no object covers: water blue, cliffs and ground their tileset's colours.
    let mut covered = std::collections::HashSet::new();
    for p in &placed.objects {
        let o = &p.object;
        let (sx, sy) = (p.size.0.max(1), p.size.1.max(1));
        let (l, t) = (
            (o.x - sx * 64).div_euclid(128),
            (o.y - sy * 64).div_euclid(128),
        );
        for y in t..t + sy {
            for x in l..l + sx {
                covered.insert((x, y));
            }
        }
    }
    let kind = |x: u32, y: u32| {
        let n = m.terrain.tile_number(x, y).unwrap();
        m.terrain_types.get(usize::from(n)).copied().unwrap_or(0)
    };
    let (mut water, mut cliff) = (0, 0);
    for y in 0..m.terrain.height {
        for x in 0..m.terrain.width {
            if covered.contains(&(x as i32, y as i32)) {
                continue;
            }
            let got = rgb(&img, x as i32, y as i32);
            assert_eq!(got, flat::terrain_colour(&m, x, y), "tile ({x}, {y})");
            match kind(x, y) {
                7 => {
                    assert_eq!(got, flat::WATER);
                    water += 1;
                }
                8 => cliff += 1,
                _ => {}
            }
        }
    }
    assert!(
        water > 20 && cliff > 20,
        "{water} water, {cliff} cliff tiles"
    );
    // A structure's tiles in its player's colour, an HQ magenta.
    let structures: Vec<_> = placed
        .objects
        .iter()
        .filter(|p| p.object.kind == ObjectKind::Structure)
        .collect();
    let mut players = std::collections::BTreeSet::new();
    for p in &structures {
        let o = &p.object;
        let (x, y) = (o.x.div_euclid(128), o.y.div_euclid(128));
        // Oil is drawn over structures (a derrick's well too).
        let oil_here = m.objects.iter().any(|f| {
            f.kind == ObjectKind::Feature
                && (f.stats_id.starts_with("OilResource") || f.stats_id.starts_with("OilDrum"))
                && (f.x.div_euclid(128), f.y.div_euclid(128)) == (x, y)
        });
        if oil_here {
            continue;
        }
        let want = match o.owner {
            _ if o.stats_id.starts_with("A0CommandCentre") => flat::HQ,
            Owner::Player(n) => {
                players.insert(n);
                flat::WZ_PLAYERS[n as usize]
            }
            _ => continue,
        };
        assert_eq!(rgb(&img, x, y), want, "{} at ({x}, {y})", o.stats_id);
    }
    assert_eq!(players.len(), 2, "both players' bases: {players:?}");
    // Oil wells yellow (those under a derrick too).
    let wells: Vec<_> = m
        .objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Feature && o.stats_id.starts_with("OilResource"))
        .collect();
    assert!(!wells.is_empty());
    for o in wells {
        let (x, y) = (o.x.div_euclid(128), o.y.div_euclid(128));
        assert_eq!(rgb(&img, x, y), flat::OIL_RESOURCE, "oil at ({x}, {y})");
    }
    // --playercolors simple (maptools' default): every player one green.
    let simple = tmp.path().join("simple.png");
    let run = preview(&pkg, &simple, &["--2d", "--layers", "structures"]);
    assert!(run.status.success(), "{}", said(&run));
    let simple = image::open(&simple).unwrap().into_rgb8();
    let factory = structures
        .iter()
        .find(|p| p.object.stats_id == "A0LightFactory")
        .expect("a factory");
    let (x, y) = (
        factory.object.x.div_euclid(128),
        factory.object.y.div_euclid(128),
    );
    assert_eq!(rgb(&simple, x, y), flat::SIMPLE_PLAYER);
    assert_eq!(rgb(&simple, 0, 0), [0, 0, 0], "no terrain layer: black");
}

#[test]
fn what_a_mode_cannot_honour_is_refused_by_name() {
    let tmp = common::temp_dir("genpreview-refused");
    let out = tmp.path().join("out.png");
    let o = out.to_str().unwrap();
    // No map needs to exist: the command line is refused before anything is read.
    let cases: [(&[&str], &str); 7] = [
        (
            &["--scavcolor", "#00ff00", "m.wz", o],
            "--scavcolor: the 3D preview",
        ),
        (
            &["--2d", "--size", "512", "m.wz", o],
            "--size: the 2D preview",
        ),
        (
            &["--2d", "--pitch", "90", "m.wz", o],
            "--pitch: the 2D preview",
        ),
        (
            &["--2d", "--layers", "terrain,droids", "m.wz", o],
            "--layers: droids: the 2D preview draws terrain, structures and oil only",
        ),
        (
            &["--layers", "roads", "m.wz", o],
            "--layers: roads: expected all",
        ),
        (
            &["-c", "rainbow", "m.wz", o],
            "rainbow: expected simple or wz",
        ),
        (
            &["--2d", "--scavcolor", "#12345", "m.wz", o],
            "#12345: expected an RGB hex",
        ),
    ];
    for (args, want) in cases {
        let run = genpreview(args);
        let text = said(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains(want), "{args:?}: {text}");
        assert!(!out.exists(), "{args:?} wrote a picture");
    }
    // maptools' -i / -o are taken for the positional INPUT and OUTPUT; a .png it must be.
    let run = genpreview(&["--2d", "-i", "missing.wz", "-o", "out.txt"]);
    assert_eq!(run.status.code(), Some(1), "{}", said(&run));
    assert!(said(&run).contains("out.txt: the output must be a .png file"));
}
