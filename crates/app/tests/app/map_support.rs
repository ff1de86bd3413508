//! What the map tests share: a map of the corpus' `mp.wz` with its data roots, the window
//! with it open, its facts, and "F frames this object".

use crate::app_support;
use egui::Key;
use egui_kittest::Harness;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::dispatch::{apply, poll_jobs};
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;
use vitrine_core::files::{FileRef, Files};
use vitrine_core::map::scene::MapDetails;
use vitrine_core::map::scene::terrain::model_point;

/// The map `map` of `mp.wz` (a path inside it) and the data roots (`data/mp` over
/// `data/base`), read through `files`.
pub fn paths(files: &Files, map: &str) -> (FileRef, Vec<FileRef>) {
    let wz = crate::common::wz2100();
    let map = format!("{}!/{map}", wz.join("archives/mp.wz").display());
    let roots = [wz.join("data/mp"), wz.join("data/base")];
    (
        files.parse(std::path::Path::new(&map)),
        roots.iter().map(|r| files.parse(r)).collect(),
    )
}

/// `map` opened over the corpus' data (loaded inline, no load error), in the window
/// `harness` builds around the state.
pub fn open_map(
    map: &str,
    harness: impl FnOnce(AppState) -> Harness<'static, AppState>,
) -> Harness<'static, AppState> {
    let wz = crate::common::wz2100();
    let settings = Settings {
        data_roots: vec![wz.join("data/mp"), wz.join("data/base")],
        ..Settings::default()
    };
    let mut state = AppState::new(settings, app_support::DiskHost::new());
    state.services.work.set_runner(vitrine_app::jobs::Inline);
    let (file, _) = paths(&state.services.files, map);
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
    let mut h = harness(state);
    h.run();
    h
}

/// The open document's map facts.
pub fn details(h: &Harness<'static, AppState>) -> MapDetails {
    let doc = h.state().document.open.as_ref().expect("the map is open");
    doc.map().expect("the document is a map").clone()
}

/// F frames the selection at world (x, y, z): the camera turns on it (within 256 units)
/// and comes at least four times closer than it was.
pub fn f_frames(h: &mut Harness<'static, AppState>, (x, y, z): (i32, i32, i32), what: &str) {
    let whole = h.state().view.camera;
    h.key_press(Key::F);
    h.run();
    let camera = h.state().view.camera;
    let at = model_point(x as f32, y as f32, z as f32);
    assert!(
        camera.target.distance(at) < 256.0,
        "{} from the {what}",
        camera.target.distance(at)
    );
    assert!(camera.distance < whole.distance / 4.0);
}
