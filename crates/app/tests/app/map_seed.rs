//! A script-generated map of the corpus' `mp.wz` (`2c-DustyMaze`, its `game.js`) in the
//! window: it opens with the default seed, the map panel shows the seed, and *Run again*
//! with another seed runs the script again: another map, the one the core makes with
//! that seed.

use crate::app_support;
use crate::map_support::{details, open_map, paths};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use vitrine_app::commands::AppCommand;
use vitrine_app::dispatch::apply;
use vitrine_app::panels::map::MapCommand;
use vitrine_app::state::AppState;
use vitrine_test_needs::vitrine_test;

/// The map opened: a script-generated one.
const MAP: &str = "multiplay/maps/2c-DustyMaze/game.js";

/// A seed the game logged for this map (docs/maps.md).
const SEED: u32 = 33_634_164;

fn window(state: AppState) -> Harness<'static, AppState> {
    Harness::builder()
        .with_size(egui::vec2(1100.0, 1400.0))
        .with_max_steps(12)
        .build_ui_state(app_support::frame, state)
}

/// The objects' (stats id, x, y) the core places on the map run with `seed`, sorted.
fn placed(seed: u32) -> Vec<(String, i32, i32)> {
    let files = vitrine_test_support::disk();
    let (file, roots) = paths(files, MAP);
    let mut level = vitrine_core::map::open_source(files, &file, None).unwrap();
    level.seed = seed;
    let map = vitrine_core::map::open(files, &level).unwrap();
    let (stats, _) = vitrine_core::wz::Stats::load(files, &roots);
    let placement = vitrine_core::map::place(&map, &stats, files, &roots);
    let mut v: Vec<_> = placement
        .objects
        .iter()
        .map(|p| (p.object.stats_id.clone(), p.object.x, p.object.y))
        .collect();
    v.sort();
    v
}

/// The open map's objects' (stats id, x, y), sorted.
fn shown(h: &Harness<'static, AppState>) -> Vec<(String, i32, i32)> {
    let mut v: Vec<_> = details(h)
        .objects
        .iter()
        .map(|o| (o.stats_id.clone(), o.x, o.y))
        .collect();
    v.sort();
    v
}

#[vitrine_test(shared)]
fn a_script_map_shows_its_seed_and_runs_again_with_another() {
    let mut h = open_map(MAP, window);
    assert_eq!(details(&h).seed, Some(5489), "the default seed");
    h.get_by_label("Seed: 5489");
    let first = shown(&h);
    assert_eq!(first, placed(5489));
    let _ = apply(h.state_mut(), AppCommand::Map(MapCommand::SetSeed(SEED)));
    h.run();
    h.get_by_label("Run again").click();
    h.run();
    vitrine_app::dispatch::poll_jobs(h.state_mut());
    h.run();
    assert_eq!(details(&h).seed, Some(SEED));
    h.get_by_label(&format!("Seed: {SEED}"));
    let again = shown(&h);
    assert_ne!(first, again, "another seed, another map");
    // What the core's run of the script with that seed places, where it puts it.
    assert_eq!(again, placed(SEED));
}
