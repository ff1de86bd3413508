//! File ▸ Export glTF… and Ctrl+E in the window (egui_kittest, no GPU): they ask for a
//! save path starting beside the model, the chosen path exports the open model with the
//! view's team and every clip on a worker, and the result is a toast naming the file.

use crate::app_support;
use eframe::egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::PathBuf;
use vitrine::app::commands::{AppCommand, Effect, GltfCommand, SettingsCommand};
use vitrine::app::dialogs::export_gltf::ExportJobs;
use vitrine::app::dispatch::apply;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::export::gltf::ClipChoice;
use vitrine::model::{Format, Model};

/// The window's state plus the effects its commands asked the shell for.
struct Window {
    state: AppState,
    effects: Vec<Effect>,
}

fn harness(state: AppState) -> Harness<'static, Window> {
    Harness::builder()
        .with_size(eframe::egui::vec2(1100.0, 700.0))
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

fn with_model() -> AppState {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pie/cube.pie");
    let model = vitrine::formats::load_path(&path, &Default::default()).expect("cube loads");
    let mut s = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    s.set_document(path.into(), model);
    s
}

fn pick_export(effects: &[Effect]) -> Option<&Effect> {
    effects
        .iter()
        .find(|e| matches!(e, Effect::PickExportPath(..)))
}

#[test]
fn menu_item_and_ctrl_e_ask_where_to_save() {
    let mut h = harness(with_model());
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Export glTF").click();
    h.run();
    let want = Effect::PickExportPath(
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pie")),
        "cube.glb".into(),
    );
    assert_eq!(pick_export(&h.state().effects), Some(&want));

    h.state_mut().effects.clear();
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    assert_eq!(pick_export(&h.state().effects), Some(&want), "Ctrl+E");
}

#[test]
fn without_a_model_the_item_is_disabled_and_ctrl_e_says_why() {
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    ));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    assert!(pick_export(&h.state().effects).is_none());
    let toasts = &h.state().state.services.toasts.items;
    assert!(
        toasts
            .iter()
            .any(|t| t.error && t.text.contains("no model")),
        "{toasts:?}"
    );
}

#[test]
fn the_chosen_path_exports_with_the_team_and_every_clip_then_toasts() {
    let mut state = with_model();
    apply(
        &mut state,
        AppCommand::Settings(SettingsCommand::SetTeam(7)),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cube.glb");
    let Some(Effect::ExportGltf(p, options)) = apply(
        &mut state,
        AppCommand::Gltf(GltfCommand::Export(path.clone())),
    ) else {
        panic!("an export effect")
    };
    assert_eq!(options.team, 7);
    assert_eq!(options.clips, ClipChoice::All);
    // What the shell does with the effect.
    let model: Model = state.document.open.as_ref().unwrap().model.clone();
    assert_eq!(model.format, Format::Pie);
    let mut jobs = ExportJobs::default();
    jobs.start(state.services.host.clone(), model, p, options, || {})
        .unwrap();
    let mut results = Vec::new();
    while jobs.busy() {
        results.extend(jobs.poll());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let text = results.pop().expect("a result").expect("exported");
    assert!(
        text.starts_with("Exported glTF to ") && text.contains("cube.glb"),
        "{text}"
    );
    assert_eq!(&std::fs::read(&path).unwrap()[..4], b"glTF");
}

/// The whole way through the window's frame: the save dialog's answer starts the export
/// on a worker, and the toast naming the file shows in the window when it is done.
#[test]
fn the_dialogs_answer_exports_and_the_window_shows_the_toast() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cube.glb");
    let mut h = harness(with_model());
    h.run();
    app_support::answer(AppCommand::Gltf(GltfCommand::Export(path.clone())));
    let start = std::time::Instant::now();
    while h.query_by_label_contains("Exported glTF to").is_none() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "no toast; toasts {:?}",
            h.state().state.services.toasts.items
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    assert_eq!(&std::fs::read(&path).unwrap()[..4], b"glTF");
    assert!(
        !h.state()
            .effects
            .iter()
            .any(|e| matches!(e, Effect::ExportGltf(..))),
        "the export is the app's own, not left to the window"
    );
}
