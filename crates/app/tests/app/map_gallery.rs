//! Maps in the gallery (egui_kittest, no GPU: tiles show their name and kind): the
//! corpus' `mp.wz` opens as a gallery of its models and its maps, each map a tile named
//! after its level under `multiplay/maps`; the format menu offers the maps alone; a
//! click on a map's tile opens the map document, Esc comes back; a dropped map folder is
//! a gallery with its map; a package of one map (and no model) opens the map at once.

use crate::app_support::{self, harness};
use egui::Key;
use egui_kittest::kittest::Queryable;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::dispatch::{apply, poll_jobs};
use vitrine_app::gallery::{GalleryCommand, TileKind};
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;
use vitrine_core::files::FileRef;
use vitrine_test_needs::vitrine_test;

/// The models and the maps (39 with a `game.map`, 5 script-generated with a `game.js`)
/// of the corpus' `mp.wz`.
const MP_MODELS: usize = 102;
const MP_MAPS: usize = 44;

/// The app over the corpus' data roots, jobs run inline, with `cmd` applied.
fn opened(cmd: AppCommand) -> Option<AppState> {
    let wz = crate::common::wz2100()?;
    let settings = Settings {
        data_roots: vec![wz.join("data/mp"), wz.join("data/base")],
        ..Settings::default()
    };
    let mut state = AppState::new(settings, app_support::DiskHost::new());
    state.services.work.set_runner(vitrine_app::jobs::Inline);
    let _ = apply(&mut state, cmd);
    poll_jobs(&mut state);
    Some(state)
}

#[vitrine_test(shared)]
fn mp_wz_lists_its_maps_as_tiles_and_a_click_opens_the_map() {
    let Some(wz) = crate::common::wz2100() else {
        return;
    };
    let archive = FileRef::Disk(wz.join("archives/mp.wz"));
    let state = opened(AppCommand::Document(DocumentCommand::Open(archive))).unwrap();
    let g = state
        .panels
        .gallery
        .as_ref()
        .expect("mp.wz opens as a gallery");
    let maps: Vec<&vitrine_app::gallery::Tile> =
        g.tiles.iter().filter(|t| t.kind == TileKind::Map).collect();
    assert_eq!(
        (g.tiles.len() - maps.len(), maps.len()),
        (MP_MODELS, MP_MAPS)
    );
    let startup = maps
        .iter()
        .find(|t| t.name == "Sk-Startup")
        .expect("2c-startup's tile is named after its level");
    assert_eq!(startup.folder, "multiplay/maps");
    assert!(
        startup
            .file
            .to_string()
            .ends_with("multiplay/maps/2c-startup/game.map")
    );
    // The script-generated maps are tiles too, each standing for its `game.js`.
    let scripts: Vec<String> = maps
        .iter()
        .map(|t| t.file.to_string())
        .filter(|f| f.ends_with("/game.js"))
        .collect();
    assert_eq!(scripts.len(), 5, "{scripts:?}");
    assert!(scripts.iter().any(|f| f.ends_with("2c-DustyMaze/game.js")));

    let mut h = harness(state, 900.0);
    h.run();
    h.get_by_label(&format!("{MP_MODELS} models, {MP_MAPS} maps"));
    // The format menu: maps alone.
    h.state_mut().panels.gallery.as_mut().unwrap().format = Some(TileKind::Map);
    h.run();
    h.get_by_label(&format!("{MP_MAPS} of {} tiles", MP_MODELS + MP_MAPS));
    h.get_by_label_contains(&format!("multiplay/maps  ({MP_MAPS})"));
    let g = h.state().panels.gallery.as_ref().unwrap();
    assert!(
        g.visible()
            .iter()
            .all(|&i| g.tiles[i].kind == TileKind::Map)
    );

    h.get_by_label("Sk-Startup").click();
    h.run();
    poll_jobs(h.state_mut());
    h.run();
    let doc = h.state().document.open.as_ref().expect("the map opened");
    let map = doc.map().expect("a map document");
    assert_eq!((map.name.as_str(), map.size), ("Sk-Startup", (64, 128)));
    assert!(!h.state().panels.gallery.as_ref().unwrap().shown);
    h.key_press(Key::Escape);
    h.run();
    assert!(h.state().panels.gallery.as_ref().unwrap().shown);
}

/// Copies `mp.wz`'s 2c-startup folder (`game.map`, `ttypes.ttp`, the objects) into `to`.
fn copy_startup(wz: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    let state = AppState::new(Settings::default(), app_support::DiskHost::new());
    let files = &state.services.files;
    let at = format!(
        "{}!/multiplay/maps/2c-startup",
        wz.join("archives/mp.wz").display()
    );
    let entries = files.list(&files.parse(std::path::Path::new(&at))).unwrap();
    for (name, file, _) in entries {
        std::fs::write(to.join(name), files.read(&file).unwrap()).unwrap();
    }
}

#[vitrine_test(shared)]
fn a_dropped_map_folder_is_a_gallery_with_its_map() {
    let Some(wz) = crate::common::wz2100() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("2c-startup");
    copy_startup(&wz, &folder);
    let model = dir.path().join("tank.pie");
    std::fs::write(&model, PIE).unwrap();
    let cmd = AppCommand::Gallery(GalleryCommand::OpenFiles(vec![
        FileRef::Disk(folder.clone()),
        FileRef::Disk(model),
    ]));
    let state = opened(cmd).unwrap();
    let g = state
        .panels
        .gallery
        .as_ref()
        .expect("a gallery of what was dropped");
    let kinds: Vec<(&str, TileKind)> = g.tiles.iter().map(|t| (t.name.as_str(), t.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("2c-startup", TileKind::Map),
            (
                "tank.pie",
                TileKind::Model(vitrine_core::model::Format::Pie)
            )
        ],
        "a bare map folder's tile is named after the folder"
    );
    assert_eq!(g.tiles[0].file, FileRef::Disk(folder.join("game.map")));
    assert!(
        state.document.open.is_none(),
        "two tiles: the gallery shows"
    );
}

#[vitrine_test(shared)]
fn a_package_of_one_map_opens_its_map() {
    let Some(wz) = crate::common::wz2100() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("startup");
    copy_startup(&wz, &package.join("multiplay/maps/2c-startup"));
    let lev = "level Sk-Startup\nplayers 2\ntype 14\ndataset MULTI_CAM_1\n\
               game \"multiplay/maps/2c-startup.gam\"\n";
    std::fs::write(package.join("2c-startup.xplayers.lev"), lev).unwrap();
    let state = opened(AppCommand::Document(DocumentCommand::Open(FileRef::Disk(
        package.clone(),
    ))))
    .unwrap();
    let g = state
        .panels
        .gallery
        .as_ref()
        .expect("the package's gallery");
    assert_eq!(g.tiles.len(), 1);
    assert!(!g.shown, "the map shows, its gallery behind it");
    let doc = state.document.open.as_ref().expect("the one map opened");
    assert_eq!(doc.map().expect("a map document").name, "Sk-Startup");
}

/// A one-triangle PIE model.
const PIE: &str = "PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 3\n\t0 0 0\n\t10 0 0\n\t0 10 0\n\
                   POLYGONS 1\n\t200 3 0 1 2 0 0 1 0 0 1\n";
