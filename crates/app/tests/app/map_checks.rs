//! A map's `vitrine check MAP` findings in the window's Checks panel (maps of the
//! corpus' `mp.wz`, over its `data/mp` and `data/base`): Sk-Concrete's stacked walls are
//! listed as the core's check finds them, a clean map shows no error, and picking a
//! finding selects the object at its place in the map panel and F frames it.

use crate::app_support;
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::dispatch::{apply, poll_jobs};
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;
use vitrine_core::check::{Counts, Element, Finding, map_check};
use vitrine_core::files::{FileRef, Files};
use vitrine_core::map::ObjectKind;
use vitrine_core::map::scene::MapDetails;
use vitrine_test_needs::vitrine_test;

/// Sk-Concrete: two of its walls stand on a third (the game refuses them).
const CONCRETE: &str = "multiplay/maps/8c-concreteplayground/game.map";
/// Sk-Startup: a small map the game loads as it is.
const STARTUP: &str = "multiplay/maps/2c-startup/game.map";

/// The map `map` of `mp.wz` and the data roots, read through `files`.
fn paths(files: &Files, map: &str) -> Option<(FileRef, Vec<FileRef>)> {
    let wz = crate::common::wz2100()?;
    let map = format!("{}!/{map}", wz.join("archives/mp.wz").display());
    let roots = [wz.join("data/mp"), wz.join("data/base")];
    Some((
        files.parse(std::path::Path::new(&map)),
        roots.iter().map(|r| files.parse(r)).collect(),
    ))
}

/// A window (tall enough for the whole panel) with `map` open over the corpus' data.
fn open_map(map: &str) -> Option<Harness<'static, AppState>> {
    let wz = crate::common::wz2100()?;
    let settings = Settings {
        data_roots: vec![wz.join("data/mp"), wz.join("data/base")],
        ..Settings::default()
    };
    let mut state = AppState::new(settings, app_support::DiskHost::new());
    state.services.work.set_runner(vitrine_app::jobs::Inline);
    let (file, _) = paths(&state.services.files, map)?;
    let _ = apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(file)),
    );
    poll_jobs(&mut state);
    assert!(
        state.document.load_error.is_none(),
        "{:?}",
        state.document.load_error
    );
    let mut h = app_support::harness(state, 2400.0);
    h.run();
    Some(h)
}

/// The open document's map facts.
fn details(h: &Harness<'static, AppState>) -> MapDetails {
    let doc = h.state().document.open.as_ref().expect("the map is open");
    doc.map().expect("the document is a map").clone()
}

/// The core's `vitrine check` findings on the open level of `map`, run here.
fn core_findings(map: &str, level: &str) -> Vec<Finding> {
    let files = vitrine_test_support::disk();
    let (file, roots) = paths(files, map).unwrap();
    map_check::check_maps(files, &file, Some(level), &roots).findings
}

#[vitrine_test(shared)]
fn map_checks_list_sk_concretes_stacked_walls() {
    let Some(h) = open_map(CONCRETE) else { return };
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
    let Some(h) = open_map(STARTUP) else { return };
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
    let Some(mut h) = open_map(CONCRETE) else {
        return;
    };
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
    let (file, _) = paths(files, CONCRETE).unwrap();
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
    let whole = h.state().view.camera;
    h.key_press(Key::F);
    h.run();
    let camera = h.state().view.camera;
    let at = glam::Vec3::new(-kept.x as f32, kept.z as f32, -kept.y as f32);
    assert!(
        camera.target.distance(at) < 256.0,
        "{} from the object",
        camera.target.distance(at)
    );
    assert!(camera.distance < whole.distance / 4.0);
}
