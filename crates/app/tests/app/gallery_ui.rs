//! The gallery in the real window layout (egui_kittest, no GPU: tiles show their name
//! and format): opening a folder shows one tile per model, the filter narrows them, a
//! click opens the model, Esc comes back at the same scroll position, Page Down opens
//! the next model, several dropped files become a gallery, and Ctrl+Shift+O asks for a
//! folder.

use crate::app_support;

use app_support::harness;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use std::path::Path;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::dispatch::apply;
use vitrine_app::gallery::GalleryCommand;
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;
use vitrine_core::files::FileRef;

/// A one-triangle PIE model.
const PIE: &str = "PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 3\n\t0 0 0\n\t10 0 0\n\t0 10 0\n\
                   POLYGONS 1\n\t200 3 0 1 2 0 0 1 0 0 1\n";

/// `bodies/` with `n_bodies` models, `weapons/` with `n_weapons`, a broken model and a
/// text file that is not a model.
fn mod_folder(dir: &Path, n_bodies: usize, n_weapons: usize) {
    for (sub, n, stem) in [("bodies", n_bodies, "body"), ("weapons", n_weapons, "gun")] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for i in 0..n {
            std::fs::write(dir.join(sub).join(format!("{stem}{i:02}.pie")), PIE).unwrap();
        }
    }
    std::fs::write(dir.join("broken.pie"), "PIE 3\nTYPE 200\nLEVELS 9").unwrap();
    std::fs::write(dir.join("readme.txt"), "not a model").unwrap();
}

fn open_gallery(dir: &Path) -> AppState {
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(dir.to_path_buf()))),
    );
    state
}

fn document_name(state: &AppState) -> Option<String> {
    state.document.open.as_ref().map(|d| d.file_name())
}

#[test]
fn opening_a_folder_shows_a_tile_per_model_grouped_and_filtered() {
    let dir = tempfile::tempdir().unwrap();
    mod_folder(dir.path(), 5, 3);
    let mut h = harness(open_gallery(dir.path()), 800.0);
    h.run();
    let g = h
        .state()
        .panels
        .gallery
        .as_ref()
        .expect("a folder opens as a gallery");
    assert_eq!(
        g.tiles.len(),
        9,
        "5 + 3 + the broken one; not the text file"
    );
    h.get_by_label("body00.pie");
    h.get_by_label("gun02.pie");
    h.get_by_label("broken.pie");
    h.get_by_label_contains("bodies  (5)");
    h.get_by_label_contains("weapons  (3)");
    h.get_by_label("9 models");

    h.get_by_label("Filter").click();
    h.run();
    h.get_by_label("Filter").type_text("weap");
    h.run();
    h.get_by_label("3 of 9 models");
    assert!(h.query_by_label("body00.pie").is_none());
    h.get_by_label("gun00.pie");
}

#[test]
fn click_opens_esc_returns_at_the_same_scroll_and_page_down_steps() {
    let dir = tempfile::tempdir().unwrap();
    mod_folder(dir.path(), 40, 40);
    let mut h = harness(open_gallery(dir.path()), 600.0);
    h.run();
    // End moves the focus to the last tile and scrolls the grid to it.
    h.key_press(Key::End);
    h.run();
    let scroll = h.state().panels.gallery.as_ref().unwrap().scroll;
    assert!(scroll > 500.0, "scrolled down to the last tile: {scroll}");
    h.get_by_label("gun38.pie").click();
    h.run();
    assert_eq!(document_name(h.state()).as_deref(), Some("gun38.pie"));
    assert!(
        !h.state().panels.gallery.as_ref().unwrap().shown,
        "the viewer shows"
    );
    // broken.pie (top folder), bodies/, then weapons/: gun38 is 80th.
    h.get_by_label("80 / 81");

    // Page Down: the next model of the gallery, in the order shown.
    h.key_press(Key::PageDown);
    h.run();
    assert_eq!(document_name(h.state()).as_deref(), Some("gun39.pie"));
    h.key_press(Key::PageUp);
    h.key_press(Key::PageUp);
    h.run();
    assert_eq!(document_name(h.state()).as_deref(), Some("gun37.pie"));

    // Esc: the gallery again, where it was.
    h.key_press(Key::Escape);
    h.run();
    let g = h.state().panels.gallery.as_ref().unwrap();
    assert!(g.shown);
    assert!((g.scroll - scroll).abs() < 1.0, "{} vs {scroll}", g.scroll);
    h.get_by_label("gun37.pie");

    // Enter opens the focused tile.
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(document_name(h.state()).as_deref(), Some("gun37.pie"));
    assert!(!h.state().panels.gallery.as_ref().unwrap().shown);
}

#[test]
fn a_broken_model_is_an_error_tile_and_the_rest_works() {
    let dir = tempfile::tempdir().unwrap();
    mod_folder(dir.path(), 2, 0);
    let mut h = harness(open_gallery(dir.path()), 600.0);
    h.run();
    h.get_by_label("broken.pie").click();
    h.run();
    let g = h.state().panels.gallery.as_ref().unwrap();
    assert!(g.shown, "a model that fails to load keeps the gallery");
    let tile = &g.tiles[g
        .index_of(&FileRef::Disk(dir.path().join("broken.pie")))
        .unwrap()];
    assert!(tile.error.is_some(), "the tile says why");
    assert!(h.state().document.open.is_none());
    h.get_by_label("1 failed");
    h.get_by_label("body01.pie").click();
    h.run();
    assert_eq!(document_name(h.state()).as_deref(), Some("body01.pie"));
}

#[test]
fn page_down_without_a_gallery_steps_through_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    mod_folder(dir.path(), 3, 0);
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    let first = dir.path().join("bodies/body00.pie");
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(first))),
    );
    let mut h = harness(state, 600.0);
    h.run();
    h.key_press(Key::PageDown);
    h.run();
    assert_eq!(document_name(h.state()).as_deref(), Some("body01.pie"));
    h.key_press(Key::Escape);
    h.run();
    assert!(
        h.state().panels.gallery.is_none(),
        "Esc does nothing without a gallery"
    );
}

#[test]
fn several_dropped_files_open_as_a_gallery() {
    let dir = tempfile::tempdir().unwrap();
    mod_folder(dir.path(), 3, 2);
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    let files = vec![
        FileRef::Disk(dir.path().join("bodies/body01.pie")),
        FileRef::Disk(dir.path().join("weapons")),
    ];
    apply(
        &mut state,
        AppCommand::Gallery(GalleryCommand::OpenFiles(files)),
    );
    let mut h = harness(state, 600.0);
    h.run();
    assert_eq!(h.state().panels.gallery.as_ref().unwrap().tiles.len(), 3);
    h.get_by_label("body01.pie");
    h.get_by_label("gun01.pie");
    h.get_by_label("Close").click();
    h.run();
    assert!(h.state().panels.gallery.is_none());
}

#[test]
fn ctrl_shift_o_asks_for_a_folder_and_ctrl_o_for_a_file() {
    use egui;
    let press = |modifiers: Modifiers| {
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            events: vec![egui::Event::Key {
                key: Key::O,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers,
            }],
            ..Default::default()
        };
        ctx.begin_pass(input);
        let got = vitrine_app::menu::shortcuts(&ctx);
        ctx.end_pass().textures_delta.clear();
        got
    };
    assert_eq!(
        press(Modifiers::COMMAND | Modifiers::SHIFT),
        [AppCommand::Document(DocumentCommand::OpenFolderDialog)]
    );
    assert_eq!(
        press(Modifiers::COMMAND),
        [AppCommand::Document(DocumentCommand::OpenDialog)]
    );
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    state.services.settings.last_folder = Some("/mods".into());
    assert_eq!(
        apply(
            &mut state,
            AppCommand::Document(DocumentCommand::OpenFolderDialog)
        ),
        Some(vitrine_app::commands::Effect::PickGalleryFolder(Some(
            "/mods".into()
        )))
    );
}
