//! Live reload (View ▸ Watch files): rewriting the open model's file changes the view
//! with the camera kept; rewriting its texture shows the new texture (never a stale
//! cache); a half-written file keeps the previous model and shows the error.

use crate::render_support;

use render_support::Rig;
use std::path::Path;
use std::time::{Duration, Instant};
use vitrine::app::commands::{AppCommand, DocumentCommand, SettingsCommand, ViewCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::dispatch::poll_jobs;
use vitrine::app::gallery::GalleryCommand;
use vitrine::app::live_reload::{LiveReload, sync};
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::files::FileRef;
use vitrine_test_needs::vitrine_test;

/// The issue asks for the view to change within 2 s; the debounce is 0.25 s. The bound
/// here is wider so a loaded CI machine does not fail the test; the delay is printed.
const PATIENCE: Duration = Duration::from_secs(10);

/// A textured box `height` units tall (PIE units: 128 per tile).
fn box_pie(height: i32) -> String {
    let h = height;
    format!(
        "PIE 3\nTYPE 200\nTEXTURE 0 page.png 16 16\nLEVELS 1\nLEVEL 1\nPOINTS 8\n\
         \t-20 0 -20\n\t20 0 -20\n\t20 {h} -20\n\t-20 {h} -20\n\
         \t-20 0 20\n\t20 0 20\n\t20 {h} 20\n\t-20 {h} 20\n\
         POLYGONS 12\n\
         \t200 3 0 2 1 0 1 1 0 1 1\n\t200 3 0 3 2 0 1 0 0 1 0\n\
         \t200 3 4 5 6 0 1 1 0 1 1\n\t200 3 4 6 7 0 1 0 0 1 0\n\
         \t200 3 0 4 7 0 1 1 0 1 1\n\t200 3 0 7 3 0 1 0 0 1 0\n\
         \t200 3 1 2 6 0 1 1 0 1 1\n\t200 3 1 6 5 0 1 0 0 1 0\n\
         \t200 3 3 7 6 0 1 1 0 1 1\n\t200 3 3 6 2 0 1 0 0 1 0\n\
         \t200 3 0 1 5 0 1 1 0 1 1\n\t200 3 0 5 4 0 1 0 0 1 0\n"
    )
}

fn write_page(dir: &Path, rgb: [u8; 3]) {
    let [r, g, b] = rgb;
    let img = image::RgbaImage::from_pixel(16, 16, image::Rgba([r, g, b, 255]));
    img.save(dir.join("page.png")).unwrap();
}

fn render(rig: &mut Rig, state: &AppState) -> image::RgbaImage {
    let doc = state.document.open.as_ref().expect("a model is open");
    rig.render_pose(&doc.model, &doc.pose, &state.view_settings(), 96)
}

/// Polls the watcher as the window does every frame until the document is replaced or
/// a load error appears; returns how long it took.
fn wait_for_reload(state: &mut AppState, live: &mut LiveReload) -> Duration {
    let start = Instant::now();
    let before = state.document.open.as_ref().map(|d| d.generation);
    while start.elapsed() < PATIENCE {
        sync(state, live, || {});
        // The window takes in finished loads every frame.
        poll_jobs(state);
        let now = state.document.open.as_ref().map(|d| d.generation);
        if now != before || state.document.load_error.is_some() {
            return start.elapsed();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no reload within {PATIENCE:?}");
}

fn centre(img: &image::RgbaImage) -> [u8; 4] {
    img.get_pixel(img.width() / 2, img.height() / 2).0
}

#[vitrine_test(gpu)]
fn rewriting_the_model_and_its_texture_reloads_with_the_camera_kept() {
    let mut rig = Rig::new();
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("box.pie");
    std::fs::write(&model, box_pie(40)).unwrap();
    write_page(dir.path(), [220, 30, 30]);

    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(model.clone()))),
    );
    assert!(
        state.document.load_error.is_none(),
        "{:?}",
        state.document.load_error
    );
    apply(
        &mut state,
        AppCommand::View(ViewCommand::Orbit { dx: 40.0, dy: 10.0 }),
    );
    let camera = state.view.camera;
    let mut live = LiveReload::default();
    sync(&mut state, &mut live, || {});
    let first = render(&mut rig, &state);
    let red = centre(&first);
    assert!(
        red[0] > 60 && red[0] as u32 > 2 * red[2] as u32,
        "red box: {red:?}"
    );

    // The exporter writes a taller box.
    std::fs::write(&model, box_pie(120)).unwrap();
    let took = wait_for_reload(&mut state, &mut live);
    eprintln!("model reloaded {took:?} after the write");
    assert!(
        state.document.load_error.is_none(),
        "{:?}",
        state.document.load_error
    );
    assert_eq!(
        state.view.camera, camera,
        "the camera stays where the user put it"
    );
    let taller = render(&mut rig, &state);
    // Same camera, taller box: it now reaches the top edge of the view.
    let top_row_covered = |img: &image::RgbaImage| {
        let bg = img.get_pixel(0, img.height() - 1).0;
        (0..img.width()).any(|x| img.get_pixel(x, 0).0 != bg)
    };
    assert!(!top_row_covered(&first), "the first box fits in the view");
    assert!(top_row_covered(&taller), "the taller box reaches the top");

    // The texture is repainted blue.
    write_page(dir.path(), [30, 30, 220]);
    let took = wait_for_reload(&mut state, &mut live);
    eprintln!("texture reloaded {took:?} after the write");
    let blue = centre(&render(&mut rig, &state));
    assert!(
        blue[2] > 60 && blue[2] as u32 > 2 * blue[0] as u32,
        "blue box now: {blue:?}"
    );
    assert_eq!(state.view.camera, camera);

    // Half-written: the error shows, the previous model stays.
    let generation = state.document.open.as_ref().unwrap().generation;
    std::fs::write(
        &model,
        "PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 8\n\t-20 0",
    )
    .unwrap();
    wait_for_reload(&mut state, &mut live);
    let err = state
        .document
        .load_error
        .as_ref()
        .expect("the error is shown");
    assert!(
        err.message.contains("previous model stays"),
        "{}",
        err.message
    );
    assert_eq!(state.document.open.as_ref().unwrap().generation, generation);
    // The exporter finishes: loaded again, error gone.
    std::fs::write(&model, box_pie(60)).unwrap();
    let deadline = Instant::now() + PATIENCE;
    while state.document.open.as_ref().unwrap().generation == generation
        && Instant::now() < deadline
    {
        sync(&mut state, &mut live, || {});
        poll_jobs(&mut state);
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_ne!(state.document.open.as_ref().unwrap().generation, generation);
    assert!(state.document.load_error.is_none());
}

#[test]
fn watching_can_be_turned_off() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("box.pie");
    std::fs::write(&model, box_pie(40)).unwrap();
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(model.clone()))),
    );
    apply(
        &mut state,
        AppCommand::Settings(SettingsCommand::SetWatchFiles(false)),
    );
    let mut live = LiveReload::default();
    sync(&mut state, &mut live, || {});
    let generation = state.document.open.as_ref().unwrap().generation;
    std::fs::write(&model, box_pie(120)).unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        sync(&mut state, &mut live, || {});
        poll_jobs(&mut state);
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(state.document.open.as_ref().unwrap().generation, generation);
}

/// Polls the watcher as the window does until the gallery shows `n` tiles.
fn wait_for_tiles(state: &mut AppState, live: &mut LiveReload, n: usize) -> Duration {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        sync(state, live, || {});
        // The new listing is a job: taken in as the window does every frame.
        poll_jobs(state);
        if state.panels.gallery.as_ref().map(|g| g.tiles.len()) == Some(n) {
            return start.elapsed();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let names: Vec<String> = state
        .panels
        .gallery
        .as_ref()
        .unwrap()
        .tiles
        .iter()
        .map(|t| t.name.clone())
        .collect();
    panic!("the gallery did not reach {n} tiles within {PATIENCE:?}: {names:?}");
}

#[test]
fn models_added_to_or_removed_from_an_open_gallery_folder_appear_and_vanish() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a_box.pie", "b_box.pie"] {
        std::fs::write(dir.path().join(name), box_pie(40)).unwrap();
    }
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    let _ = apply(
        &mut state,
        AppCommand::Gallery(GalleryCommand::OpenSource(FileRef::Disk(
            dir.path().to_path_buf(),
        ))),
    );
    {
        let g = state.panels.gallery.as_mut().expect("the gallery opened");
        assert_eq!(g.tiles.len(), 2);
        g.filter = "box".into();
        g.scroll = 37.0;
        g.selected = g.tiles.iter().position(|t| t.name == "b_box.pie");
    }
    let mut live = LiveReload::default();
    sync(&mut state, &mut live, || {});

    // A new model (written as exporters do: a temporary file renamed) and a file that
    // is not a model.
    vitrine::files::atomic::write(&dir.path().join("c_box.pie"), box_pie(80).as_bytes()).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a model").unwrap();
    let took = wait_for_tiles(&mut state, &mut live, 3);
    eprintln!("a new model showed after {took:?}");
    let g = state.panels.gallery.as_ref().unwrap();
    let names: Vec<&str> = g.tiles.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a_box.pie", "b_box.pie", "c_box.pie"]);
    assert_eq!(
        (g.filter.as_str(), g.scroll),
        ("box", 37.0),
        "the user's view is kept"
    );
    assert_eq!(
        g.selected.map(|i| g.tiles[i].name.as_str()),
        Some("b_box.pie")
    );

    // Removing one: its tile goes, the selection follows its file.
    std::fs::remove_file(dir.path().join("a_box.pie")).unwrap();
    wait_for_tiles(&mut state, &mut live, 2);
    let g = state.panels.gallery.as_ref().unwrap();
    let names: Vec<&str> = g.tiles.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["b_box.pie", "c_box.pie"]);
    assert_eq!(
        g.selected.map(|i| g.tiles[i].name.as_str()),
        Some("b_box.pie")
    );
}
