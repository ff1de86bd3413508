//! Maps in the gallery (egui_kittest, no GPU: tiles show their name and kind): the
//! corpus' `mp.wz` opens as a gallery of its models and its maps, each map a tile named
//! after its level under `multiplay/maps`; the format menu offers the maps alone; a
//! click on a map's tile opens the map document, Esc comes back; a dropped map folder is
//! a gallery with its map; a package of one map (and no model) opens the map at once; a
//! FlaME package (three levels over one map) is one map and opens at once; a folder of
//! map packages (`.wz` files) is a gallery of their maps, each once.

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
fn opened(cmd: AppCommand) -> AppState {
    let wz = crate::common::wz2100();
    let settings = Settings {
        data_roots: vec![wz.join("data/mp"), wz.join("data/base")],
        ..Settings::default()
    };
    let mut state = AppState::new(settings, app_support::DiskHost::new());
    state.services.work.set_runner(vitrine_app::jobs::Inline);
    let _ = apply(&mut state, cmd);
    poll_jobs(&mut state);
    state
}

#[vitrine_test(shared)]
fn mp_wz_lists_its_maps_as_tiles_and_a_click_opens_the_map() {
    let wz = crate::common::wz2100();
    let archive = FileRef::Disk(wz.join("archives/mp.wz"));
    let state = opened(AppCommand::Document(DocumentCommand::Open(archive)));
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
    let wz = crate::common::wz2100();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("2c-startup");
    copy_startup(&wz, &folder);
    let model = dir.path().join("tank.pie");
    std::fs::write(&model, PIE).unwrap();
    let cmd = AppCommand::Gallery(GalleryCommand::OpenFiles(vec![
        FileRef::Disk(folder.clone()),
        FileRef::Disk(model),
    ]));
    let state = opened(cmd);
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
    let wz = crate::common::wz2100();
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("startup");
    copy_startup(&wz, &package.join("multiplay/maps/2c-startup"));
    let lev = "level Sk-Startup\nplayers 2\ntype 14\ndataset MULTI_CAM_1\n\
               game \"multiplay/maps/2c-startup.gam\"\n";
    std::fs::write(package.join("2c-startup.xplayers.lev"), lev).unwrap();
    let state = opened(AppCommand::Document(DocumentCommand::Open(FileRef::Disk(
        package.clone(),
    ))));
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

/// `NTW_Test.wz` in `dir`: `mp.wz`'s 2c-startup as FlaME packages it, three levels over
/// the one map (`NTW_Test-T1` type 14, `-T2` 18, `-T3` 19).
fn flame_package(wz: &std::path::Path, dir: &std::path::Path) -> std::path::PathBuf {
    use std::io::{Read, Write};
    let mut src =
        zip::ZipArchive::new(std::fs::File::open(wz.join("archives/mp.wz")).unwrap()).unwrap();
    let mut lev = String::from("// Made with FlaME 1.29 Windows\n");
    for (t, kind, dataset) in [
        (1, 14, "MULTI_CAM_1"),
        (2, 18, "MULTI_T2_C1"),
        (3, 19, "MULTI_T3_C1"),
    ] {
        lev += &format!(
            "level NTW_Test-T{t}\nplayers 2\ntype {kind}\ndataset {dataset}\n\
             game \"multiplay/maps/2c-startup.gam\"\n"
        );
    }
    let path = dir.join("NTW_Test.wz");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    z.start_file("NTW_Test.xplayers.lev", opts).unwrap();
    z.write_all(lev.as_bytes()).unwrap();
    let names: Vec<String> = src.file_names().map(|n| n.unwrap().into_owned()).collect();
    for name in names {
        if !name.starts_with("multiplay/maps/2c-startup") || name.ends_with('/') {
            continue;
        }
        let mut bytes = Vec::new();
        src.by_name(&name).unwrap().read_to_end(&mut bytes).unwrap();
        z.start_file(name.as_str(), opts).unwrap();
        z.write_all(&bytes).unwrap();
    }
    z.finish().unwrap();
    path
}

#[vitrine_test(shared)]
fn a_flame_package_of_three_levels_opens_its_one_map() {
    let wz = crate::common::wz2100();
    let dir = tempfile::tempdir().unwrap();
    let package = flame_package(&wz, dir.path());
    // Open (and Open Recent, which opens the remembered path the same way), and a drop
    // of the one file (the window parses it: the archive's root).
    for cmd in [
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(package.clone()))),
        AppCommand::Document(DocumentCommand::Open(FileRef::archive_root(&package))),
    ] {
        let state = opened(cmd);
        let g = state
            .panels
            .gallery
            .as_ref()
            .expect("the package's gallery");
        let names: Vec<&str> = g.tiles.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["NTW_Test"],
            "one map, named as the skirmish list names it"
        );
        let doc = state
            .document
            .open
            .as_ref()
            .expect("the one map opened at once");
        assert_eq!(doc.map().expect("a map document").name, "NTW_Test");
        assert!(state.document.load_error.is_none());
    }
}

#[vitrine_test(shared)]
fn a_folder_of_map_packages_is_a_gallery_of_their_maps() {
    let wz = crate::common::wz2100();
    let dir = tempfile::tempdir().unwrap();
    flame_package(&wz, dir.path());
    for name in ["AValley.wz", "Abbey-t-1.wz"] {
        std::fs::copy(wz.join("mapdb-2p").join(name), dir.path().join(name)).unwrap();
    }
    std::fs::write(dir.path().join("notes.txt"), "my maps").unwrap();
    let state = opened(AppCommand::Document(DocumentCommand::Open(FileRef::Disk(
        dir.path().to_path_buf(),
    ))));
    let g = state.panels.gallery.as_ref().expect("the folder's gallery");
    let mut names: Vec<&str> = g.tiles.iter().map(|t| t.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        ["AValley", "Abbey-t-1", "NTW_Test"],
        "each package's map once"
    );
    assert!(g.tiles.iter().all(|t| t.kind == TileKind::Map));
    assert!(g.listing_errors.is_empty(), "{:?}", g.listing_errors);
    assert!(
        state.document.open.is_none(),
        "three maps: the gallery shows"
    );
    // A drop of two of the packages: a gallery of their maps.
    let drop = AppCommand::Gallery(GalleryCommand::OpenFiles(vec![
        FileRef::archive_root(&dir.path().join("NTW_Test.wz")),
        FileRef::archive_root(&dir.path().join("AValley.wz")),
    ]));
    let dropped = opened(drop);
    let names: Vec<&str> = dropped
        .panels
        .gallery
        .as_ref()
        .unwrap()
        .tiles
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, ["NTW_Test", "AValley"]);
    // A click on a tile opens its map.
    let i = g.tiles.iter().position(|t| t.name == "NTW_Test").unwrap();
    let mut state = state;
    let _ = apply(&mut state, AppCommand::Gallery(GalleryCommand::OpenTile(i)));
    poll_jobs(&mut state);
    let doc = state.document.open.as_ref().expect("the tile's map opened");
    assert_eq!(doc.map().unwrap().name, "NTW_Test");
}
