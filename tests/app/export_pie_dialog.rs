//! File ▸ Export PIE… in the window (egui_kittest, no GPU, jobs inline): the dialog shows
//! what the game's rules say before anything is written, an error blocks the write with
//! the rule's message and what to do, Export writes a PIE the loader reads back, and an
//! assembly is not offered.

use crate::app_support;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use vitrine::app::commands::{AppCommand, Effect};
use vitrine::app::dialogs::export_pie::{PieCommand, PieSettings, Preview};
use vitrine::app::dispatch::apply;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::export::pie::PieVersion;

struct Window {
    state: AppState,
    effects: Vec<Effect>,
}

fn harness(state: AppState) -> Harness<'static, Window> {
    Harness::builder()
        .with_size(eframe::egui::vec2(1200.0, 800.0))
        // The frame draws again after each command, as the window does.
        .with_max_steps(8)
        .build_ui_state(
            |ui, w: &mut Window| {
                let effects = app_support::run_frame(ui, &mut w.state, |ui, _| {
                    ui.label("view");
                    Vec::new()
                });
                w.effects.extend(effects);
            },
            Window {
                state,
                effects: Vec::new(),
            },
        )
}

fn cube() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pie/cube.pie")
}

fn open(path: &Path) -> AppState {
    let model = vitrine::formats::load_path(path, &Default::default()).expect("model loads");
    let mut s = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    s.set_document(path.to_path_buf().into(), model);
    s
}

fn settings(h: &Harness<'static, Window>) -> PieSettings {
    h.state()
        .state
        .dialogs
        .pie
        .as_ref()
        .expect("dialog open")
        .settings
        .clone()
}

/// Opens the dialog from the File menu.
fn show_dialog(h: &mut Harness<'static, Window>) {
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Export PIE").click();
    h.run();
    h.run();
}

#[test]
fn the_dialog_shows_the_verdict_then_writes_a_pie_the_loader_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(open(&cube()));
    show_dialog(&mut h);
    let s = settings(&h);
    assert_eq!(s.version, PieVersion::V3);
    assert_eq!(s.scale, 1.0, "a PIE keeps its units");
    assert!(s.output.ends_with("cube-converted.pie"), "{}", s.output);
    // The check ran before anything was written: one level, the fixture's page found.
    h.get_by_label_contains("1 level, page page-90-fixture.png");
    let out = dir.path().join("cube4.pie");
    let s4 = PieSettings {
        version: PieVersion::V4,
        output: out.display().to_string(),
        ..s
    };
    apply(
        &mut h.state_mut().state,
        AppCommand::ExportPie(PieCommand::Set(s4)),
    );
    h.run();
    assert!(!out.exists(), "nothing is written before Export");
    h.get_by_label("Export").click();
    h.run();
    h.run();
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.starts_with("PIE 4\n"), "{text}");
    let model = vitrine::formats::load_path(&out, &Default::default()).expect("reads back");
    let source = vitrine::formats::load_path(&cube(), &Default::default()).unwrap();
    assert_eq!(model.meshes[0].points.len(), source.meshes[0].points.len());
    assert_eq!(
        model.meshes[0].corners.len(),
        source.meshes[0].corners.len()
    );
    let state = &h.state().state;
    assert!(
        state.dialogs.pie.is_none(),
        "the dialog closes once written"
    );
    assert!(
        state
            .services
            .toasts
            .items
            .iter()
            .any(|t| !t.error && t.text.contains("Wrote PIE 4") && t.text.contains("cube4.pie")),
        "{:?}",
        state.services.toasts.items
    );
}

#[test]
fn a_page_the_game_cannot_find_blocks_the_write_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(open(&cube()));
    show_dialog(&mut h);
    let out = dir.path().join("cube.pie");
    let s = PieSettings {
        page: "page-91-nowhere.png".into(),
        output: out.display().to_string(),
        ..settings(&h)
    };
    apply(
        &mut h.state_mut().state,
        AppCommand::ExportPie(PieCommand::Set(s)),
    );
    h.run();
    h.get_by_label_contains("error[pie/texture-missing]");
    // The rule's paragraph: what the game does and what to do.
    h.get_by_label_contains("Ship the page");
    h.get_by_label_contains("Not written: the game would give the model up (1 error)");
    // The button does nothing: even a Write command does not write.
    apply(
        &mut h.state_mut().state,
        AppCommand::ExportPie(PieCommand::Write),
    );
    h.run();
    assert!(!out.exists());
    // Putting the page where the game looks clears it.
    std::fs::create_dir(dir.path().join("texpages")).unwrap();
    std::fs::copy(
        cube().with_file_name("texpages/page-90-fixture.png"),
        dir.path().join("texpages/page-91-nowhere.png"),
    )
    .unwrap();
    let s = PieSettings {
        output: dir.path().join("cube2.pie").display().to_string(),
        ..settings(&h)
    };
    apply(
        &mut h.state_mut().state,
        AppCommand::ExportPie(PieCommand::Set(s)),
    );
    h.run();
    let preview = &h.state().state.dialogs.pie.as_ref().unwrap().preview;
    assert!(
        matches!(preview, Preview::Done(Ok(v)) if v.errors.is_empty()),
        "{preview:?}"
    );
}

#[test]
fn browse_asks_for_a_path_and_the_answer_gets_the_extension() {
    let mut h = harness(open(&cube()));
    show_dialog(&mut h);
    h.get_by_label("Browse…").click();
    h.run();
    let want = PathBuf::from(settings(&h).output);
    assert!(
        h.state().effects.contains(&Effect::PickPiePath(want)),
        "{:?}",
        h.state().effects
    );
    apply(
        &mut h.state_mut().state,
        AppCommand::ExportPie(PieCommand::SetOutput(PathBuf::from("/tmp/x/tank"))),
    );
    assert_eq!(settings(&h).output, "/tmp/x/tank.pie");
}

#[test]
fn an_assembly_is_not_offered_and_the_dialog_says_why() {
    let model = vitrine::formats::load_path(&cube(), &Default::default()).unwrap();
    let mut s = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    s.set_document(PathBuf::from("template:ViperMG").into(), model);
    let mut h = harness(s);
    show_dialog(&mut h);
    h.get_by_label_contains("An assembly is not exported as one PIE");
    assert!(h.query_by_label("Export").is_none(), "no Export button");
    h.get_by_label("Close").click();
    h.run();
    assert!(h.state().state.dialogs.pie.is_none());
}

#[test]
fn copying_the_pages_clears_a_missing_page_and_writes_it_beside_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(open(&cube()));
    show_dialog(&mut h);
    assert!(!settings(&h).pack, "a PIE's pages are the game's already");
    let out = dir.path().join("cube.pie");
    let s = PieSettings {
        page: "page-91-renamed.png".into(),
        output: out.display().to_string(),
        ..settings(&h)
    };
    apply(
        &mut h.state_mut().state,
        AppCommand::ExportPie(PieCommand::Set(s)),
    );
    // The window settles its size and place over a few frames.
    h.run_steps(4);
    h.get_by_label_contains("error[pie/texture-missing]");
    h.get_by_label("Copy the pages into texpages/").click();
    h.run_steps(4);
    assert!(settings(&h).pack, "ticked");
    let page = dir.path().join("texpages/page-91-renamed.png");
    h.get_by_label_contains(&format!("{}: copied there", page.display()));
    assert!(!page.exists(), "nothing is copied before Export");
    h.get_by_label("Export").click();
    h.run();
    h.run();
    assert_eq!(
        std::fs::read(&page).unwrap(),
        std::fs::read(cube().with_file_name("texpages/page-90-fixture.png")).unwrap()
    );
    assert!(out.is_file());
    let toasts = &h.state().state.services.toasts.items;
    assert!(
        toasts.iter().any(|t| t.text.contains("1 page copied")),
        "{toasts:?}"
    );
}

/// The settings of the open dialog with `f` applied, and the check run again.
fn set(h: &mut Harness<'static, Window>, f: impl FnOnce(&mut PieSettings)) {
    let mut s = settings(h);
    f(&mut s);
    apply(
        &mut h.state_mut().state,
        AppCommand::ExportPie(PieCommand::Set(s)),
    );
    // The window settles its size and place over a few frames.
    h.run_steps(4);
}

fn errors(h: &Harness<'static, Window>) -> usize {
    match &h.state().state.dialogs.pie.as_ref().unwrap().preview {
        Preview::Done(Ok(v)) => v.errors.len(),
        other => panic!("{other:?}"),
    }
}

/// A page found nowhere names the way out, as `vitrine convert` does: the model holds
/// it (a `.glb` with its page inside) → a button copies the pages with the file, which
/// clears the error; the model has no image of it → the data roots.
#[test]
fn a_page_found_nowhere_offers_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("tank.glb");
    let cube_model = vitrine::formats::load_path(&cube(), &Default::default()).unwrap();
    let doc = vitrine::export::gltf::export(
        &cube_model,
        &Default::default(),
        &mut vitrine::export::gltf::ImageCache::new(vitrine::files::disk()),
    )
    .unwrap();
    vitrine::export::gltf::writer::write(doc, &glb).unwrap();
    let mut h = harness(open(&glb));
    show_dialog(&mut h);
    let out = dir.path().join("mod/components/bodies/tank.pie");
    set(&mut h, |s| {
        s.pack = false;
        s.output = out.display().to_string();
    });
    h.get_by_label_contains("error[pie/texture-missing]");
    h.get_by_label_contains("The model holds page-90-fixture.png: copy it into texpages/");
    h.get_by_label("Copy the pages too").click();
    h.run_steps(4);
    assert!(settings(&h).pack, "the button ticks Copy the pages");
    assert_eq!(errors(&h), 0);
    assert!(h.query_by_label("Copy the pages too").is_none());

    // A PIE away from its pages: nothing to copy, the data roots are the way.
    let lone = dir.path().join("lone.pie");
    std::fs::copy(cube(), &lone).unwrap();
    let mut h = harness(open(&lone));
    show_dialog(&mut h);
    set(&mut h, |s| {
        s.output = dir.path().join("lone2.pie").display().to_string()
    });
    assert_eq!(errors(&h), 1);
    h.get_by_label_contains("page-90-fixture.png is in no data root: add the mod or game data");
    assert!(h.query_by_label("Copy the pages too").is_none());
}
