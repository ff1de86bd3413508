//! Hostile object counts (issue #46, item 2): one test per attack found on `mp.wz`'s maps,
//! each package built here from a map of the shared corpus's `mp.wz`, its object files
//! written in a temporary folder (never stored), and the `vitrine` child measured
//! (`common::hostile`: peak memory by `wait4`, time; a child past three minutes has hung).
//!
//! - a `.lev` or `level.json` of 4,294,967,295 players: refused at its line (`check`
//!   made a finding per player slot: aborted at 5.8 GB);
//! - 200,000 droids: refused at the limit of 65,535 a kind (`map::MAX_OBJECTS`), at the
//!   line of the first past it, by `info`, `check` and `render` (rendered: 6 GB);
//! - a map at the game's script limits (256 × 256 tiles, 65,535 of each kind) and
//!   11,000 droids (a 1.5 MB package): drawn, objects and all (a panic on the GPU's
//!   256 MiB buffer limit, then 6.2 GB);
//! - `check --sarif` of 1,000,000 structures: refused at the limit (hung past 120 s);
//! - 65,535 features stacked on one tile: checked, each one the game removes found
//!   (quadratic before: 40,000 took 14 s); 200,000: refused at the limit.
//!
//! Memory: `info` and `check` within [`BUDGET`]. A render's peak holds the GPU driver's
//! own memory (Mesa's lavapipe keeps the buffers, textures and its rasteriser's bins in
//! the process) and the map's ground; a render with objects is held to [`BUDGET`] more
//! than the same map drawn without them (`--no-objects`), both printed. Times are
//! printed, never asserted (docs/reliability.md has them).

use crate::common;
use crate::common::hostile::{self, MB, Measured, args, run_measured};
use image::RgbaImage;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use vitrine_test_needs::vitrine_test;

/// Peak memory of a command, or of a render's objects over the same map without them.
const BUDGET: u64 = 512 * MB;

/// The limit of objects of a kind in a map file, as the messages write it.
const LIMIT: &str = "65535";

fn shared() -> PathBuf {
    common::shared_dir()
}

/// A refusal, not a crash: a failing exit code of vitrine's own (no panic, no signal).
fn assert_refused(m: &Measured, what: &str) {
    println!("{}", m.line(what));
    assert!(
        m.code > 0 && m.code != 101,
        "{what}: exit {}\n{}{}",
        m.code,
        m.stdout,
        m.stderr
    );
    assert!(!m.stderr.contains("panicked"), "{what}: {}", m.stderr);
    assert!(m.peak <= BUDGET, "{what}: peak {} MB", m.peak / MB);
}

/// The output of `m` has a line naming `file`, `line` and all of `words`.
fn assert_names(m: &Measured, file: &str, line: u32, words: &[&str]) {
    let text = format!("{}{}", m.stdout, m.stderr);
    let place = format!("{file}:{line}:");
    let found = text
        .lines()
        .any(|l| l.contains(&place) && words.iter().all(|w| l.contains(w)));
    assert!(found, "no line with {place} and {words:?}:\n{text}");
}

#[vitrine_test(shared)]
fn a_lev_of_4294967295_players_is_refused_at_its_line() {
    let shared = shared();
    let tmp = common::temp_dir("hostile-lev");
    let root = tmp.path();
    let maps = root.join("multiplay/maps");
    std::fs::create_dir_all(maps.join("4c-hostile")).unwrap();
    let wz = hostile::mp_wz(&shared);
    for f in [
        "game.map",
        "ttypes.ttp",
        "struct.json",
        "feature.json",
        "droid.json",
    ] {
        let bytes = hostile::read_entry(&wz, &format!("multiplay/maps/4c-rush/{f}"));
        std::fs::write(maps.join("4c-hostile").join(f), bytes).unwrap();
    }
    let gam = hostile::read_entry(&wz, "multiplay/maps/4c-rush.gam");
    std::fs::write(maps.join("4c-hostile.gam"), gam).unwrap();
    let lev = "level Hostile-T1\ntype 14\nplayers 4294967295\ndataset MULTI_CAM_1\n\
               game \"multiplay/maps/4c-hostile.gam\"\n";
    std::fs::write(root.join("4c-hostile.xplayers.lev"), lev).unwrap();
    let m = run_measured(&args(&[OsString::from("check"), root.into()]));
    assert_refused(&m, "check of a .lev of 4294967295 players");
    assert_names(
        &m,
        "4c-hostile.xplayers.lev",
        3,
        &["map/level-refused", "4294967295", "over 255"],
    );
}

#[vitrine_test(shared)]
fn a_level_json_of_4294967295_players_is_refused_at_its_line() {
    let shared = shared();
    let tmp = common::temp_dir("hostile-level-json");
    let game_map = hostile::mp_game_map(&shared, "4c-rush");
    let dir = hostile::package(tmp.path(), &shared, "4c-rush", game_map, 4_294_967_295);
    for what in ["check", "info"] {
        let m = run_measured(&args(&[OsString::from(what), dir.clone().into()]));
        println!(
            "{}",
            m.line(&format!("{what} of a level.json of 4294967295 players"))
        );
        assert!(m.peak <= BUDGET && !m.stderr.contains("panicked"), "{m:?}");
        assert_names(
            &m,
            "level.json",
            1,
            &["\"players\" is 4294967295", "0 to 255"],
        );
    }
}

/// A package on `mp.wz`'s 4c-rush with `n` ConstructorDroids on its tiles.
fn droids_on_rush(dir: &Path, shared: &Path, n: usize) -> PathBuf {
    let game_map = hostile::mp_game_map(shared, "4c-rush");
    let dir = hostile::package(dir, shared, "4c-rush", game_map, 4);
    let entries = hostile::tile_centres(n, (92, 92), 4)
        .enumerate()
        .map(|(i, at)| hostile::droid("ConstructorDroid", at, i % 4));
    hostile::write_objects(&dir, "droid.json", "droids", entries);
    dir
}

/// `vitrine render` of `dir` over the shared data, top view, 256², `extra` options.
fn render(shared: &Path, dir: &Path, out: &Path, extra: &[&str]) -> Measured {
    let mut a = args(&[
        "render", "--view", "top", "--size", "256x256", "--msaa", "1",
    ]);
    a.extend(args(extra));
    a.extend(hostile::data_args(shared));
    a.extend([
        dir.as_os_str().to_owned(),
        "-o".into(),
        out.as_os_str().to_owned(),
    ]);
    run_measured(&a)
}

#[vitrine_test(shared, gpu)]
fn two_hundred_thousand_droids_are_refused_at_the_limit() {
    let shared = shared();
    let tmp = common::temp_dir("hostile-200k");
    let dir = droids_on_rush(tmp.path(), &shared, 200_000);
    // The 65,536th droid (index 65,535) is on line 65,538 of the file.
    let line = 3 + 65_535;
    for what in ["info", "check"] {
        let m = run_measured(&args(&[OsString::from(what), dir.clone().into()]));
        assert_refused(&m, &format!("{what} of 200,000 droids"));
        assert_names(&m, "droid.json", line, &[LIMIT, "droids[65535]"]);
    }
    let m = render(&shared, &dir, &tmp.path().join("out.png"), &[]);
    assert_refused(&m, "render of 200,000 droids");
    assert_names(&m, "droid.json", line, &[LIMIT, "droids[65535]"]);
}

/// How many pixels of `a` and `b` differ (by more than 24 over the three channels).
fn differing(a: &RgbaImage, b: &RgbaImage) -> usize {
    a.pixels()
        .zip(b.pixels())
        .filter(|(p, q)| (0..3).map(|i| p[i].abs_diff(q[i]) as u32).sum::<u32>() > 24)
        .count()
}

/// Renders `dir` with and without its objects: the objects must show (a share of the
/// pixels changes) and cost at most [`BUDGET`] over the map without them.
fn objects_drawn(shared: &Path, dir: &Path, what: &str, share: f64) {
    let (with, without) = (dir.join("with.png"), dir.join("without.png"));
    let bare = render(shared, dir, &without, &["--no-objects"]);
    println!("{}", bare.line(&format!("{what}, --no-objects")));
    assert_eq!(bare.code, 0, "{}", bare.stderr);
    let m = render(shared, dir, &with, &[]);
    println!("{}", m.line(what));
    assert_eq!(m.code, 0, "{}", m.stderr);
    let over = m.peak.saturating_sub(bare.peak);
    println!("{what}: the objects' memory {} MB", over / MB);
    assert!(over <= BUDGET, "{what}: {} MB over the map", over / MB);
    let (a, b) = (image::open(&with).unwrap(), image::open(&without).unwrap());
    let changed = differing(&a.into_rgba8(), &b.into_rgba8());
    assert!(
        changed as f64 >= share * 256.0 * 256.0,
        "{what}: only {changed} pixels show objects"
    );
}

#[vitrine_test(shared, gpu)]
fn eleven_thousand_droids_render() {
    let shared = shared();
    let tmp = common::temp_dir("hostile-11k");
    let dir = droids_on_rush(tmp.path(), &shared, 11_000);
    let size = std::fs::metadata(dir.join("droid.json")).unwrap().len();
    println!("11,000 droids: droid.json {size} bytes");
    objects_drawn(&shared, &dir, "render of 11,000 droids", 0.1);
}

#[vitrine_test(shared, gpu)]
fn a_map_at_the_scripts_limits_renders() {
    let shared = shared();
    let tmp = common::temp_dir("hostile-limits");
    let game_map = hostile::flat_game_map(256, 256);
    let dir = hostile::package(tmp.path(), &shared, "4c-rush", game_map, 4);
    let n = vitrine_core::map::MAX_OBJECTS;
    let at = || hostile::tile_centres(n, (256, 256), 4);
    let droids = at()
        .enumerate()
        .map(|(i, p)| hostile::droid("ConstructorDroid", p, i % 4));
    hostile::write_objects(&dir, "droid.json", "droids", droids);
    let walls = at()
        .enumerate()
        .map(|(i, p)| hostile::structure("A0HardcreteMk1Wall", p, i % 4));
    hostile::write_objects(&dir, "struct.json", "structures", walls);
    let boulders = at().map(|p| hostile::feature("Boulder1", p));
    hostile::write_objects(&dir, "feature.json", "features", boulders);
    objects_drawn(
        &shared,
        &dir,
        "render of 65,535 droids, structures, features",
        0.3,
    );
}

#[vitrine_test(shared)]
fn check_sarif_of_a_million_structures_is_refused() {
    let shared = shared();
    let tmp = common::temp_dir("hostile-sarif");
    let game_map = hostile::mp_game_map(&shared, "4c-rush");
    let dir = hostile::package(tmp.path(), &shared, "4c-rush", game_map, 4);
    let walls = hostile::tile_centres(1_000_000, (92, 92), 4)
        .enumerate()
        .map(|(i, p)| hostile::structure("A0HardcreteMk1Wall", p, i % 4));
    hostile::write_objects(&dir, "struct.json", "structures", walls);
    let sarif = tmp.path().join("out.sarif");
    let a = args(&[
        OsString::from("check"),
        "--sarif".into(),
        sarif.clone().into(),
        dir.into(),
    ]);
    let m = run_measured(&a);
    assert_refused(&m, "check --sarif of 1,000,000 structures");
    assert_names(&m, "struct.json", 3 + 65_535, &["map/object-limit", LIMIT]);
    let log: serde_json::Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    let results = &log["runs"][0]["results"];
    assert!(
        results
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["ruleId"] == "map/object-limit"),
        "{results}"
    );
}

#[vitrine_test(shared)]
fn stacked_features_are_checked_in_linear_time() {
    let shared = shared();
    let tmp = common::temp_dir("hostile-stacked");
    let stack = |dir: &Path, n: usize| {
        let game_map = hostile::mp_game_map(&shared, "4c-rush");
        let dir = hostile::package(dir, &shared, "4c-rush", game_map, 4);
        let entries = (0..n).map(|_| hostile::feature("Boulder1", (2000, 2000)));
        hostile::write_objects(&dir, "feature.json", "features", entries);
        dir
    };
    // At the limit: every feature but the last is removed by the next, each a finding.
    let dir = stack(&tmp.path().join("at-limit"), vitrine_core::map::MAX_OBJECTS);
    let mut a = args(&[OsString::from("check"), "--json".into()]);
    a.extend(hostile::data_args(&shared));
    a.push(dir.into());
    let m = run_measured(&a);
    println!("{}", m.line("check of 65,535 features on one tile"));
    assert!(
        m.peak <= BUDGET && m.code != 101 && m.code >= 0,
        "{}",
        m.stderr
    );
    let stacked = m.stdout.matches("map/feature-stacked").count();
    assert_eq!(stacked, vitrine_core::map::MAX_OBJECTS - 1, "{}", m.stderr);
    // Past it: refused at the first feature over the limit.
    let dir = stack(&tmp.path().join("past-limit"), 200_000);
    let m = run_measured(&args(&[OsString::from("check"), dir.into()]));
    assert_refused(&m, "check of 200,000 features on one tile");
    assert_names(
        &m,
        "feature.json",
        3 + 65_535,
        &["map/object-limit", "features[65535]"],
    );
}
