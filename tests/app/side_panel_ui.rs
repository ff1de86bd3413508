//! The side panel fits the model: the format's own sections come first, the team-colour
//! swatches only open for a model with a team-colour mask, and sections stay opened or
//! closed across sessions. The PIE tileset switch reloads the model with the tileset's
//! pages and is saved.

use crate::app_support;
use crate::common;

use egui_kittest::kittest::Queryable;
use vitrine::app::commands::{AppCommand, DocumentCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::desktop::window::SettingsFile;
use vitrine::formats::pie::Tileset;

/// A window session on `settings` saving to `file`, with `model` open.
fn session(
    settings: Settings,
    file: &SettingsFile,
    model: &std::path::Path,
) -> egui_kittest::Harness<'static, AppState> {
    let mut h = app_support::harness(
        AppState::new(
            settings,
            vitrine::desktop::window::DesktopHost::new(Some(file.clone())),
        ),
        1000.0,
    );
    h.run_steps(8);
    open(&mut h, model);
    h
}

fn open(h: &mut egui_kittest::Harness<'static, AppState>, file: &std::path::Path) {
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(file.into())),
    );
    h.run_steps(8);
    assert!(
        h.state().document.load_error.is_none(),
        "{:?}",
        h.state().document.load_error
    );
}

#[test]
fn team_colour_opens_only_with_a_mask_and_format_sections_come_first() {
    let fixtures = common::fixtures().join("pie");
    let mut h = app_support::fresh_harness(1000.0);
    h.run_steps(8);
    // No mask: the section is closed and says why.
    open(&mut h, &fixtures.join("cube.pie"));
    h.get_by_label_contains("Team colour (no mask in this model)");
    assert!(h.query_by_label("Team colour: green (0)").is_none());
    // The PIE's own sections sit above the view controls.
    let top = |label: &str| h.get_by_label_contains(label).rect().top();
    assert!(top("Textures (") < top("Team colour"));
    assert!(top("Levels (1)") < top("Team colour"));
    assert!(top("Team colour") < h.get_by_label("Perspective").rect().top());
    // A mask (TYPE 0x10000): the swatches are shown.
    open(&mut h, &fixtures.join("tcmask_derived.pie"));
    h.get_by_label("Team colour: green (0)");
    assert!(h.query_by_label_contains("no mask in this model").is_none());
}

#[test]
fn sections_remember_being_closed_and_the_tileset_is_saved() {
    let dir = app_support::temp_dir("side-panel-sections");
    let file = SettingsFile::in_dir(dir.path());
    let fixtures = common::fixtures().join("pie");
    let mut h = session(
        Settings::default(),
        &file,
        &fixtures.join("pie4_overrides.pie"),
    );
    h.get_by_label_contains("level 2 [Level]");
    h.get_by_label_contains("Levels (2)").click();
    h.run_steps(8);
    h.run_steps(8);
    assert!(h.query_by_label_contains("level 2 [Level]").is_none());
    // PIE 4's own urban line: the switch reloads with it and saves the choice.
    h.get_by_label("urban").click();
    h.run_steps(8);
    let m = &h.state().document.open.as_ref().unwrap().model;
    let base = &m.textures[m.materials[0].base.unwrap()];
    assert_eq!(base.name, "page-90-fixture-urban.png");
    h.state_mut().services.settings.flush().unwrap(); // as the window does within a second
    let (saved, _) = file.load();
    assert_eq!(saved.tileset, Tileset::Urban);
    assert_eq!(saved.open_sections.get("pie levels"), Some(&false));

    // A new session with the saved settings: still closed, still urban.
    let h = session(saved, &file, &fixtures.join("pie4_overrides.pie"));
    h.get_by_label_contains("Levels (2)");
    assert!(h.query_by_label_contains("level 2 [Level]").is_none());
    assert_eq!(h.state().services.load_options().tileset, Tileset::Urban);
}

/// The format line names glTF and OBJ as people write them (not `GLTF`), and a format
/// without versions gets none.
#[test]
fn the_format_line_says_gltf_and_obj() {
    let dir = app_support::temp_dir("side-panel-format");
    let obj = dir.path().join("tri.obj");
    std::fs::write(&obj, "o level_1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let mut h = app_support::fresh_harness(1000.0);
    h.run_steps(8);
    open(&mut h, &obj);
    h.get_by_label_contains("OBJ · file axes");
    assert!(h.query_by_label_contains("version -").is_none());
    open(&mut h, &common::fixtures().join("pie/cube.pie"));
    h.get_by_label_contains("PIE version 3 · file axes");
    assert_eq!(
        vitrine::model::Format::Gltf.with_version("2.0"),
        "glTF version 2.0"
    );
}

/// The display sections (Colour, Data roots), Stats and Checks are remembered as the
/// format's own sections are: closed or opened by hand, they come back so in a new
/// session (they used to live in egui's memory only and reset at every start).
#[test]
fn colour_data_roots_stats_and_checks_sections_are_remembered() {
    let dir = app_support::temp_dir("side-panel-more-sections");
    let file = SettingsFile::in_dir(dir.path());
    let fixtures = common::fixtures().join("pie");
    let mut h = session(Settings::default(), &file, &fixtures.join("cube.pie"));
    // Defaults: Colour open, Data roots and Stats closed.
    h.get_by_label("Per node / part");
    assert!(h.query_by_label("Add archive…").is_none());
    assert!(h.query_by_label_contains("draw calls").is_none());
    h.get_by_label("Colour").click();
    h.run_steps(8);
    h.get_by_label("Data roots").click();
    h.run_steps(8);
    h.get_by_label("Stats").click();
    h.run_steps(8);
    h.get_by_label_contains("Checks").click();
    h.run_steps(8);
    let checks_key = if h.state().document.checks.counts().errors
        + h.state().document.checks.counts().warnings
        > 0
    {
        "checks"
    } else {
        "checks clean"
    };
    let checks_open = h
        .state()
        .services
        .settings
        .open_sections
        .get(checks_key)
        .copied();
    assert!(
        checks_open.is_some(),
        "{:?}",
        h.state().services.settings.open_sections
    );
    assert!(h.query_by_label("Per node / part").is_none());
    h.get_by_label("Add archive…");
    h.get_by_label_contains("draw calls");
    h.state_mut().services.settings.flush().unwrap(); // as the window does within a second
    let (saved, _) = file.load();
    for (key, open) in [("colour", false), ("data roots", true), ("stats", true)] {
        assert_eq!(saved.open_sections.get(key), Some(&open), "{key}");
    }

    // A new session with the saved settings: the same sections open and closed.
    let h = session(saved, &file, &fixtures.join("cube.pie"));
    assert!(h.query_by_label("Per node / part").is_none());
    h.get_by_label("Add archive…");
    h.get_by_label_contains("draw calls");
    assert_eq!(
        h.state()
            .services
            .settings
            .open_sections
            .get(checks_key)
            .copied(),
        checks_open
    );
}
