//! A map's `vitrine check MAP` findings in the window's Checks panel (maps of the
//! corpus' `mp.wz`, over its `data/mp` and `data/base`): Sk-Concrete's stacked walls are
//! listed as the core's check finds them, a clean map shows no error, and picking a
//! finding selects the object at its place in the map panel and F frames it.

use crate::app_support;
use crate::map_support::{details, f_frames, open_map, paths};
use egui_kittest::kittest::Queryable;
use vitrine_core::check::{Counts, Element, Finding, map_check};
use vitrine_core::map::ObjectKind;
use vitrine_test_needs::vitrine_test;

/// Sk-Concrete: two of its walls stand on a third (the game refuses them).
const CONCRETE: &str = "multiplay/maps/8c-concreteplayground/game.map";
/// Sk-Startup: a small map the game loads as it is.
const STARTUP: &str = "multiplay/maps/2c-startup/game.map";

/// The core's `vitrine check` findings on the open level of `map`, run here.
fn core_findings(map: &str, level: &str) -> Vec<Finding> {
    let files = vitrine_test_support::disk();
    let (file, roots) = paths(files, map);
    map_check::check_maps(files, &file, Some(level), &roots, None).findings
}

#[vitrine_test(shared)]
fn map_checks_list_sk_concretes_stacked_walls() {
    let h = open_map(CONCRETE, |state| app_support::harness(state, 2400.0));
    let d = details(&h);
    let core = core_findings(CONCRETE, &d.name);
    let stacked: Vec<&Finding> = core
        .iter()
        .filter(|f| f.rule == "map/structure-stacked")
        .collect();
    assert!(!stacked.is_empty(), "{core:?}");
    let counts = Counts::of(&core);
    // The panel's findings are the core's, with the same rules, levels and messages.
    let shown = &h.state().document.checks.findings;
    assert_eq!(shown.len(), core.len());
    for (s, c) in shown.iter().zip(&core) {
        assert_eq!((s.rule, s.level, &s.message), (c.rule, c.level, &c.message));
    }
    // Its header counts them, errors on the badge; each stacked wall is a row under
    // Errors, with its rule, the object (stats id, key, place) and the game's reason.
    h.get_by_label_contains(&format!("Checks   {}  errors", counts.errors));
    h.get_by_label(&format!("Errors ({})", counts.errors));
    let rows = h
        .query_all_by_label_contains("map/structure-stacked: structure ")
        .count();
    assert_eq!(rows, stacked.len());
    for f in &stacked {
        h.get_by_label(&vitrine_app::panels::checks::row_text(f));
    }
}

#[vitrine_test(shared)]
fn map_checks_show_no_error_on_a_clean_map() {
    let h = open_map(STARTUP, |state| app_support::harness(state, 2400.0));
    let d = details(&h);
    let counts = Counts::of(&core_findings(STARTUP, &d.name));
    assert_eq!((counts.errors, counts.warnings), (0, 0));
    assert_eq!(h.state().document.checks.counts(), counts);
    h.get_by_label_contains(&format!(
        "Checks  0 warnings · {} note{}",
        counts.notes,
        if counts.notes == 1 { "" } else { "s" }
    ));
    assert!(h.query_by_label_contains("Errors (").is_none());
}

#[vitrine_test(shared)]
fn map_checks_picking_a_finding_selects_and_frames_its_object() {
    let mut h = open_map(CONCRETE, |state| app_support::harness(state, 2400.0));
    let d = details(&h);
    let core = core_findings(CONCRETE, &d.name);
    let f = core
        .iter()
        .find(|f| f.rule == "map/structure-stacked")
        .expect("a stacked wall");
    let Element::Object { object } = f.element else {
        panic!("{f:?} names no object");
    };
    // The refused wall is not on the map: the structure the game keeps on its tile is.
    let files = vitrine_test_support::disk();
    let (file, _) = paths(files, CONCRETE);
    let level = vitrine_core::map::open_source(files, &file, Some(&d.name)).unwrap();
    let map = vitrine_core::map::open(files, &level).unwrap();
    let wall = &map.objects[object];
    let tile = |x: i32| x.div_euclid(vitrine_core::map::TILE_UNITS);
    let kept = d
        .objects
        .iter()
        .find(|o| {
            o.kind == ObjectKind::Structure
                && (tile(o.x), tile(o.y)) == (tile(wall.x), tile(wall.y))
        })
        .expect("a structure kept on the stacked wall's tile")
        .clone();
    assert_eq!(h.state().document.inspect.selected, None);
    h.get_by_label(&vitrine_app::panels::checks::row_text(f))
        .click();
    h.run();
    assert_eq!(h.state().document.inspect.selected, Some(kept.node));
    // The map panel shows the object selected.
    h.get_by_label(&format!("Stats id: {}", kept.stats_id));
    // F frames it: the camera turns on it, much closer than the whole map.
    f_frames(&mut h, (kept.x, kept.y, kept.z), "object");
}
