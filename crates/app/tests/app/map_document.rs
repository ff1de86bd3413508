//! A Warzone 2100 `game.map` opened like a model (File ▸ Open, a drop, Open Recent all
//! reach the same loader): the map's scene is the document, its facts are on the side
//! panel, and without the game's data the warning says which data to add.

use crate::app_support;

use egui_kittest::kittest::Queryable;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::dispatch::apply;
use vitrine_app::jobs::Queued;
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;

/// An 8×6 `game.map` (version 40): tile i numbered i % 10, corners rising to the south.
fn game_map() -> Vec<u8> {
    let (w, h) = (8u32, 6u32);
    let mut b = b"map ".to_vec();
    for v in [40, w, h] {
        b.extend(v.to_le_bytes());
    }
    for i in 0..w * h {
        b.extend(((i % 10) as u16).to_le_bytes());
        b.extend(((i / w) as u16 * 30).to_le_bytes());
    }
    b.extend(1u32.to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b
}

#[test]
fn a_game_map_opens_as_a_scene_with_its_facts_on_the_side_panel() {
    let dir = vitrine_test_needs::temp_dir("map-document");
    let file = dir.path().join("game.map");
    std::fs::write(&file, game_map()).unwrap();
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    let queue = Queued::default();
    state.services.work.set_runner(queue.clone());
    let mut h = app_support::harness(state, 900.0);
    h.run_steps(2);
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(file.into())),
    );
    queue.run_all();
    h.run_steps(4);
    let doc = h.state().document.open.as_ref().expect("the map is open");
    let terrain = doc
        .model
        .nodes
        .iter()
        .find(|n| n.name == "terrain")
        .unwrap();
    assert_eq!(
        doc.model.meshes[terrain.mesh.unwrap()].triangle_count(),
        4 * 48
    );
    h.get_by_label("Size: 8 × 6 tiles");
    assert!(
        doc.model
            .diagnostics
            .iter()
            .any(|d| d.message.contains("no tile images")),
        "{:?}",
        doc.model.diagnostics
    );
}

/// With no data roots set, a map's tiles come from the Warzone 2100 installation the host
/// found (here a folder holding the Arizona tiles the map uses): the ground is textured,
/// not the one-colour fallback; data roots the user set win over it.
#[test]
fn a_map_without_data_roots_takes_the_detected_installation() {
    let dir = vitrine_test_needs::temp_dir("map-detected");
    let file = dir.path().join("game.map");
    std::fs::write(&file, game_map()).unwrap();
    let install = dir.path().join("warzone2100");
    let tiles = install.join("texpages/tertilesc1hw-128");
    std::fs::create_dir_all(&tiles).unwrap();
    for n in 0..10 {
        image::RgbaImage::from_pixel(4, 4, image::Rgba([200, 150, 90, 255]))
            .save(tiles.join(format!("tile-{n:02}.png")))
            .unwrap();
    }
    let open = |roots: Vec<std::path::PathBuf>| {
        let settings = Settings {
            data_roots: roots,
            ..Settings::default()
        };
        let mut state = AppState::new(settings, app_support::DiskHost::new());
        state.services.detected_warzone = Some(vec![install.clone()]);
        state.services.work.set_runner(vitrine_app::jobs::Inline);
        let _ = apply(
            &mut state,
            AppCommand::Document(DocumentCommand::Open(file.clone().into())),
        );
        vitrine_app::dispatch::poll_jobs(&mut state);
        let doc = state.document.open.as_ref().expect("the map is open");
        doc.model
            .diagnostics
            .iter()
            .any(|d| d.message.contains("no tile images"))
    };
    assert!(
        !open(Vec::new()),
        "the detected installation's tiles are used"
    );
    let elsewhere = dir.path().join("empty-root");
    std::fs::create_dir_all(&elsewhere).unwrap();
    assert!(open(vec![elsewhere]), "the user's data roots win");
}

/// A data root with what the blended ground needs for `game_map`'s Arizona tiles 0–9:
/// the tile images, the tileset's ground tables (tiles 0–4 ground `a_x`, 5–9 `a_y`) and
/// the two ground textures.
fn blended_install(root: &std::path::Path) {
    let save = |path: &str, rgb: [u8; 3]| {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        image::RgbaImage::from_pixel(4, 4, image::Rgba([rgb[0], rgb[1], rgb[2], 255]))
            .save(p)
            .unwrap();
    };
    for n in 0..10 {
        save(
            &format!("texpages/tertilesc1hw-128/tile-{n:02}.png"),
            [200, 150, 90],
        );
    }
    save("texpages/page-1-x.png", [220, 180, 60]);
    save("texpages/page-2-y.png", [60, 120, 40]);
    let tables = root.join("tileset");
    std::fs::create_dir_all(&tables).unwrap();
    let ground: String = (0..10)
        .map(|n| {
            if n < 5 {
                "a_x,a_x,a_x,a_x\n"
            } else {
                "a_y,a_y,a_y,a_y\n"
            }
        })
        .collect();
    for (name, text) in [
        ("arizona_enum.txt", "arizona_enum,2\na_x\na_y\n".to_string()),
        (
            "tertilesc1hwGtype.txt",
            "tertilesc1hw,2\na_x,page-1-x.png,4\na_y,page-2-y.png,4\n".to_string(),
        ),
        ("arizonaground.txt", format!("arizona_ground,10\n{ground}")),
        ("arizonadecals.txt", "arizona_decals,0\n".to_string()),
    ] {
        std::fs::write(tables.join(name), text).unwrap();
    }
}

/// `game_map` in `dir` with [`blended_install`] as its data root: the file and the app's
/// state over that data.
fn blended_map(dir: &std::path::Path) -> (std::path::PathBuf, AppState) {
    let file = dir.join("game.map");
    std::fs::write(&file, game_map()).unwrap();
    let install = dir.join("data");
    blended_install(&install);
    let settings = Settings {
        data_roots: vec![install],
        ..Settings::default()
    };
    (file, AppState::new(settings, app_support::DiskHost::new()))
}

/// [`blended_map`] opened by its job, run inline: the state with the map open.
fn blended_map_open(dir: &std::path::Path) -> AppState {
    let (file, mut state) = blended_map(dir);
    state.services.work.set_runner(vitrine_app::jobs::Inline);
    let _ = apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(file.into())),
    );
    vitrine_app::dispatch::poll_jobs(&mut state);
    state
}

/// The map panel's *Classic tiles* switches the open map between the blended ground and
/// the tile images, reloading it, and the choice is saved in the settings.
#[test]
fn classic_tiles_in_the_map_panel_switches_the_ground_and_is_saved() {
    let dir = vitrine_test_needs::temp_dir("map-terrain");
    let (file, mut state) = blended_map(dir.path());
    let queue = Queued::default();
    state.services.work.set_runner(queue.clone());
    let mut h = app_support::harness(state, 1400.0);
    h.run_steps(2);
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(file.into())),
    );
    queue.run_all();
    h.run_steps(4);
    let nodes = |h: &egui_kittest::Harness<'_, AppState>| -> Vec<String> {
        let doc = h.state().document.open.as_ref().expect("the map is open");
        doc.model.nodes.iter().map(|n| n.name.clone()).collect()
    };
    let blended = nodes(&h);
    assert!(
        blended.contains(&"ground a_x".to_string()) && blended.contains(&"ground a_y".to_string()),
        "{blended:?}"
    );
    assert!(!blended.contains(&"terrain".to_string()));
    h.get_by_label("Classic tiles").click();
    h.run_steps(2);
    queue.run_all();
    h.run_steps(4);
    assert_eq!(
        h.state().services.settings.map_terrain,
        vitrine_core::map::scene::TerrainMode::Classic
    );
    let classic = nodes(&h);
    assert!(classic.contains(&"terrain".to_string()), "{classic:?}");
    assert!(!classic.iter().any(|n| n.starts_with("ground ")));
    h.get_by_label("Classic tiles").click();
    h.run_steps(2);
    queue.run_all();
    h.run_steps(4);
    assert!(nodes(&h).contains(&"ground a_x".to_string()));
}

/// The opening job decodes the map's texture pages (its tiles and ground textures), so
/// the window's first frame only uploads them: the document holds each page, decoded at
/// its size, handed over once.
#[test]
fn the_opening_job_decodes_the_maps_pages_for_the_renderer() {
    let dir = vitrine_test_needs::temp_dir("map-pages");
    let state = blended_map_open(dir.path());
    let doc = state.document.open.as_ref().expect("the map is open");
    let pages = doc.pages.take();
    let mut names: Vec<String> = pages.iter().map(|(f, _, _)| f.file_name()).collect();
    names.sort();
    let wanted: Vec<String> = vitrine_render::batch::texture_files(&doc.model)
        .iter()
        .map(|f| f.file_name())
        .collect();
    assert!(
        names.contains(&"page-1-x.png".to_string()) && names.contains(&"page-2-y.png".to_string()),
        "the ground textures: {names:?}"
    );
    assert_eq!(
        names.len(),
        wanted.len(),
        "every page the map uses: {names:?}"
    );
    assert!(
        pages
            .iter()
            .all(|(_, _, p)| p.as_ref().is_ok_and(|p| p.dimensions() == (4, 4)))
    );
    assert!(doc.pages.take().is_empty(), "handed over once");
}

/// Hovering the ground of a map names the tile under the pointer and its height, in the
/// game's terms, not a terrain layer's mesh.
#[test]
fn hovering_the_ground_names_the_tile_and_its_height() {
    use vitrine_app::inspect::view_inspect::map_hover_text;
    use vitrine_render::inspect::picking::{Ray, pick_shown};
    let dir = vitrine_test_needs::temp_dir("map-hover");
    let state = blended_map_open(dir.path());
    let doc = state.document.open.as_ref().expect("the map is open");
    let map = doc.map().expect("a map");
    // Straight down onto the middle of tile (2, 3): world (2.5, 3.5) tiles, model −x, −z.
    let (east, south) = (2.5 * 128.0, 3.5 * 128.0);
    let ray = Ray {
        origin: glam::Vec3::new(-east, 5000.0, -south),
        dir: glam::Vec3::NEG_Y,
    };
    let hit = pick_shown(&doc.model, &doc.pose, &[], &ray).expect("the ground is hit");
    let text = map_hover_text(map, &doc.model, &hit).expect("the ground is named");
    let height = map.ground_height(hit.point);
    assert!(text.starts_with("Ground, tile (2, 3), height "), "{text}");
    assert_eq!(
        text,
        format!("Ground, tile (2, 3), height {:.0}", hit.point.y)
    );
    assert!(
        (hit.point.y - height).abs() < 1.0,
        "{} vs {height}",
        hit.point.y
    );
}
