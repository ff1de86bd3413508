//! Opening in the background, as the user sees it in the window (egui_kittest, the real
//! layout and command handling, no GPU): jobs run on a queue the test runs when it
//! wants, as a front-end's worker would finish them later. While a file loads the
//! progress line says so with Cancel and the previous model stays open; a second open
//! cancels the first; a failed load keeps the old model and shows the error; settings
//! are not written per frame of a drag.

use crate::{app_support, common};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use vitrine::app::commands::{AppCommand, DocumentCommand, SettingsCommand, ViewCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::inspect::InspectCommand;
use vitrine::app::jobs::Queued;
use vitrine::app::settings::{SAVE_DELAY, Settings};
use vitrine::app::state::AppState;
use vitrine::desktop::window::SettingsFile;

fn pie(name: &str) -> PathBuf {
    common::fixtures().join("pie").join(name)
}

/// A window whose jobs wait on `queue`.
fn window(settings_file: Option<SettingsFile>) -> (Harness<'static, AppState>, Queued) {
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(settings_file),
    );
    let queue = Queued::default();
    state.services.work.set_runner(queue.clone());
    let mut h = app_support::harness(state, 900.0);
    h.run_steps(4);
    (h, queue)
}

/// Opens `path` and lets its job finish, as a worker thread would.
fn open_and_finish(h: &mut Harness<'static, AppState>, queue: &Queued, path: &Path) {
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(path.into())),
    );
    queue.run_all();
    h.run_steps(4);
    assert!(
        h.state().document.load_error.is_none(),
        "{:?}",
        h.state().document.load_error
    );
}

fn open_file(h: &Harness<'static, AppState>) -> Option<String> {
    h.state().document.open.as_ref().map(|d| d.file_name())
}

#[test]
fn the_old_model_stays_usable_while_the_new_one_loads() {
    let (mut h, queue) = window(None);
    open_and_finish(&mut h, &queue, &pie("cube.pie"));
    assert_eq!(open_file(&h).as_deref(), Some("cube.pie"));

    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(pie("events.pie").into())),
    );
    h.run_steps(4);
    // The progress line names the file, the old model is still the document and drawn
    // (its name heads the side panel), and the window still takes commands.
    h.get_by_label_contains("Opening events.pie…");
    h.get_by_label("Cancel");
    assert_eq!(open_file(&h).as_deref(), Some("cube.pie"));
    h.get_by_label("cube.pie");
    let camera = h.state().view.camera;
    let _ = apply(
        h.state_mut(),
        AppCommand::View(ViewCommand::Orbit { dx: 30.0, dy: 0.0 }),
    );
    assert_ne!(
        h.state().view.camera,
        camera,
        "the view no longer turns while loading"
    );

    assert_eq!(queue.run_all(), 1);
    h.run_steps(4);
    assert_eq!(open_file(&h).as_deref(), Some("events.pie"));
    assert!(h.query_by_label_contains("Opening events.pie").is_none());
    assert!(h.query_by_label("Cancel").is_none());
}

#[test]
fn a_second_open_cancels_the_first() {
    let (mut h, queue) = window(None);
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(pie("cube.pie").into())),
    );
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(pie("events.pie").into())),
    );
    h.run_steps(4);
    assert!(h.query_by_label_contains("Opening cube.pie").is_none());
    h.get_by_label_contains("Opening events.pie…");
    // Both jobs still run (a worker cannot be stopped mid-parse); the first one's model
    // is dropped when it arrives.
    assert_eq!(queue.run_all(), 2);
    h.run_steps(4);
    assert_eq!(open_file(&h).as_deref(), Some("events.pie"));
    let recent = &h.state().services.settings.recent_files;
    assert_eq!(recent.len(), 1, "{recent:?}");
    assert!(recent[0].ends_with("events.pie"), "{recent:?}");
}

#[test]
fn cancel_keeps_the_model_that_is_open() {
    let (mut h, queue) = window(None);
    open_and_finish(&mut h, &queue, &pie("cube.pie"));
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(pie("events.pie").into())),
    );
    h.run_steps(4);
    h.get_by_label("Cancel").click();
    h.run_steps(4);
    assert!(h.query_by_label_contains("Opening events.pie").is_none());
    queue.run_all();
    h.run_steps(4);
    assert_eq!(open_file(&h).as_deref(), Some("cube.pie"));
    assert!(h.state().document.load_error.is_none());
}

#[test]
fn a_failed_background_load_keeps_the_old_model_and_shows_the_error() {
    let (mut h, queue) = window(None);
    open_and_finish(&mut h, &queue, &pie("cube.pie"));
    let generation = h.state().document.open.as_ref().unwrap().generation;
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(pie("bad_index.pie").into())),
    );
    h.run_steps(4);
    assert!(
        h.state().document.load_error.is_none(),
        "no error before the job ends"
    );
    queue.run_all();
    h.run_steps(4);
    let err = h
        .state()
        .document
        .load_error
        .clone()
        .expect("the load error");
    assert!(err.message.starts_with("bad_index.pie"), "{}", err.message);
    h.get_by_label("Could not open bad_index.pie");
    let doc = h.state().document.open.as_ref().unwrap();
    assert_eq!(doc.file_name(), "cube.pie");
    assert_eq!(doc.generation, generation, "the old model was replaced");
}

#[test]
fn reload_runs_in_the_background_and_keeps_the_camera() {
    let (mut h, queue) = window(None);
    open_and_finish(&mut h, &queue, &pie("cube.pie"));
    let _ = apply(h.state_mut(), AppCommand::View(ViewCommand::Zoom(2.0)));
    let (camera, generation) = (
        h.state().view.camera,
        h.state().document.open.as_ref().unwrap().generation,
    );
    let _ = apply(h.state_mut(), AppCommand::Document(DocumentCommand::Reload));
    h.run_steps(4);
    h.get_by_label_contains("Reloading cube.pie…");
    queue.run_all();
    h.run_steps(4);
    let doc = h.state().document.open.as_ref().unwrap();
    assert_ne!(doc.generation, generation, "not reloaded");
    assert_eq!(h.state().view.camera, camera);
}

#[test]
fn settings_are_not_written_per_frame_of_a_drag() {
    let dir = app_support::temp_dir("loading-settings");
    let file = SettingsFile::in_dir(dir.path());
    let (mut h, _queue) = window(Some(file.clone()));
    let t0 = std::time::Instant::now();
    // Sixty frames of dragging the normal-length slider and the background colour
    // picker, as the widgets emit them, 15 ms apart on the window's clock; the frame
    // checks whether the settings are due for saving.
    for i in 0..60u8 {
        let len = 0.05 + f32::from(i) * 0.001;
        let _ = apply(
            h.state_mut(),
            AppCommand::Inspect(InspectCommand::SetNormalLength(len)),
        );
        let _ = apply(
            h.state_mut(),
            AppCommand::Settings(SettingsCommand::SetBackground([i, 40, 80])),
        );
        app_support::set_time(t0 + std::time::Duration::from_millis(15 * u64::from(i)));
        h.run_steps(4);
    }
    assert_eq!(
        h.state().services.settings.writes(),
        0,
        "written during the drag"
    );
    assert_eq!(file.load().0.background, Settings::default().background);
    // A second after the drag started the window writes once, with the last values.
    app_support::set_time(t0 + SAVE_DELAY);
    h.step();
    assert_eq!(h.state().services.settings.writes(), 1);
    let saved = file.load().0;
    assert_eq!(saved.background, [59, 40, 80]);
    assert_eq!(
        saved.overlays.normal_length,
        h.state().services.settings.overlays.normal_length
    );
    // Closing the window with nothing new writes nothing more.
    h.state_mut().services.settings.flush().unwrap();
    assert_eq!(h.state().services.settings.writes(), 1);
}

/// A PIE event model is loaded in the background: the base model stays shown, the
/// progress line names it, and it replaces the base model once its job has run.
#[test]
fn an_event_model_loads_in_the_background() {
    let (mut h, queue) = window(None);
    open_and_finish(&mut h, &queue, &pie("events.pie"));
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::ShowEvent(Some(0))),
    );
    h.run_steps(2);
    let doc = h.state().document.open.as_ref().unwrap();
    assert_eq!(doc.shown_event(), None, "not loaded on the UI thread");
    h.get_by_label_contains("Loading event model");
    assert!(queue.run_all() >= 1);
    h.run_steps(4);
    let doc = h.state().document.open.as_ref().unwrap();
    assert_eq!(doc.shown_event(), Some(0));
    assert!(h.state().services.work.idle());
}
