//! A skirmish map of the game's `mp.wz` in the window (`2c-startup`, over the corpus'
//! `data/mp` and `data/base`): the side panel shows the map's facts and the objects of
//! each owner as the map reader and the placement count them, the object list's search
//! narrows it, a click in the list or in the view selects an object and shows its facts,
//! F frames it, a layer toggle takes its objects out of the drawn picture, and the fog
//! and moving water are the panel's settings.

use crate::app_support;
use crate::map_support::{details, f_frames, open_map, paths};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::cell::Cell;
use vitrine_app::inspect::view_inspect::view_inspect_ui;
use vitrine_app::state::AppState;
use vitrine_app::viewport::camera_input;
use vitrine_core::map::scene::{Layer, MapDetails, SceneObject};
use vitrine_core::map::{ObjectKind, Owner, Placement};
use vitrine_core::wz::Stats;
use vitrine_render::{RenderTarget, SceneRenderer};
use vitrine_test_needs::vitrine_test;

/// The map opened.
const MAP: &str = "multiplay/maps/2c-startup/game.map";

thread_local! {
    static VIEW_RECT: Cell<egui::Rect> = const { Cell::new(egui::Rect::NOTHING) };
}

/// The window the tests drive: tall enough for the whole panel, with [`frame`].
fn window(state: AppState) -> Harness<'static, AppState> {
    Harness::builder()
        .with_size(egui::vec2(1100.0, 1800.0))
        .with_max_steps(12)
        .build_ui_state(frame, state)
}

/// The app's frame with the real view's input (camera, picking) on a plain area.
fn frame(ui: &mut egui::Ui, state: &mut AppState) {
    app_support::run_frame(ui, state, |ui, state| {
        let rect = ui.available_rect_before_wrap();
        VIEW_RECT.with(|r| r.set(rect));
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        let mut out = camera_input(ui, &response);
        out.extend(view_inspect_ui(ui, &response, state));
        out
    });
}

/// The map as the reader reads it and the game places it, with the same data.
fn read_and_place() -> (vitrine_core::map::Map, Placement) {
    let files = vitrine_test_support::disk();
    let (file, roots) = paths(files, MAP);
    let level = vitrine_core::map::open_source(files, &file, None).unwrap();
    let map = vitrine_core::map::open(files, &level).unwrap();
    let (stats, _) = Stats::load(files, &roots);
    let placed = vitrine_core::map::place(&map, &stats, files, &roots);
    (map, placed)
}

#[vitrine_test(shared)]
fn the_side_panel_shows_the_maps_facts_and_its_real_counts() {
    let h = open_map(MAP, window);
    let (map, placed) = read_and_place();
    let (w, ht) = (map.terrain.width, map.terrain.height);
    h.get_by_label(&format!("Size: {w} × {ht} tiles"));
    h.get_by_label(&format!("Tileset: {}", map.level.tileset.name()));
    if let Some(p) = map.level.players {
        h.get_by_label(&format!("Players: {p}"));
    }
    // The objects of each owner, counted here from the placement.
    let mut owners: Vec<Owner> = placed.objects.iter().map(|p| p.object.owner).collect();
    owners.sort();
    owners.dedup();
    assert!(owners.len() >= 3, "players and features: {owners:?}");
    for owner in owners {
        let n = |kind| {
            let of = |p: &&vitrine_core::map::Placed| p.object.owner == owner;
            placed
                .objects
                .iter()
                .filter(of)
                .filter(|p| p.object.kind == kind)
                .count()
        };
        let text = format!(
            "{}: {} structures, {} features, {} droids",
            owner.label(),
            n(ObjectKind::Structure),
            n(ObjectKind::Feature),
            n(ObjectKind::Droid)
        );
        h.get_by_label(&text);
    }
    let structures = map.of_kind(ObjectKind::Structure).count();
    assert!(structures > 10, "{structures} structures in the files");
    // The files with their shapes and versions: game.map's own, the objects' JSON.
    let game_map = map.files.iter().find(|f| f.name == "game.map").unwrap();
    h.get_by_label_contains(&format!("game.map v{}", game_map.version));
    h.get_by_label_contains("struct.json JSON v");
    // Not a model's facts: no "PIE version map"; the hierarchy says it is a map's scene.
    assert!(h.query_by_label_contains("PIE").is_none());
    let doc = h.state().document.open.as_ref().unwrap();
    h.get_by_label_contains(&format!("Map scene ({} nodes)", doc.model.nodes.len()));
    assert!(doc.title().contains("map"), "{}", doc.title());
    h.get_by_label_contains("(map)");
    // The map is checked as `vitrine check MAP` checks it (no "not a model file" error
    // on it): 2c-startup's findings are notes only (crate::map_checks holds their count).
    let checks = h.state().document.checks.counts();
    assert_eq!((checks.errors, checks.warnings), (0, 0));
    assert!(h.query_by_label_contains("not a model file").is_none());
}

/// The first object of the list whose stats id is `id`.
fn object(d: &MapDetails, id: &str) -> SceneObject {
    d.objects
        .iter()
        .find(|o| o.stats_id == id)
        .unwrap_or_else(|| panic!("no {id} on the map"))
        .clone()
}

#[vitrine_test(shared)]
fn search_select_frame_and_pick_an_object() {
    let mut h = open_map(MAP, window);
    let d = details(&h);
    let factory = object(&d, "A0LightFactory");
    // The search narrows the list to the one player's factories.
    let owner = factory.owner.label();
    h.get_by_label("Search").click();
    h.run();
    h.get_by_label("Search")
        .type_text(&format!("lightfactory {owner}"));
    h.run();
    assert_eq!(h.state().panels.map.search, format!("lightfactory {owner}"));
    // Keys typed into the search are text, not the view's shortcuts (C: connectors).
    h.key_press(Key::C);
    h.run();
    assert!(!h.state().services.settings.overlays.connectors);
    let row = format!(
        "structure A0LightFactory · {owner} · {}, {}",
        factory.x, factory.y
    );
    let matching = d
        .objects
        .iter()
        .filter(|o| o.stats_id == "A0LightFactory" && o.owner == factory.owner)
        .count();
    let count = format!("{matching} of {} objects", d.objects.len());
    if h.query_by_label(&count).is_none() {
        let seen: Vec<String> = h
            .query_all_by_label_contains("objects")
            .map(|n| format!("{n:?}"))
            .collect();
        panic!("no {count:?}: {seen:?}");
    }
    assert!(h.query_by_label_contains("feature OilResource ·").is_none());
    h.get_by_label(&row).click();
    h.run();
    assert_eq!(h.state().document.inspect.selected, Some(factory.node));
    h.get_by_label("Stats id: A0LightFactory");
    h.get_by_label(&format!(
        "Position: x {}, y {}, z {}",
        factory.x, factory.y, factory.z
    ));
    h.get_by_label(&format!(
        "Footprint: {} × {} tiles",
        factory.footprint.0, factory.footprint.1
    ));
    // F frames the factory: the camera turns on it, much closer than the whole map.
    f_frames(&mut h, (factory.x, factory.y, factory.z), "factory");
    // Esc clears the selection; a click on the factory in the view (now in its middle)
    // selects the whole factory, not one of its parts.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().document.inspect.selected, None);
    let centre = VIEW_RECT.with(|r| r.get()).center();
    h.hover_at(centre);
    h.run();
    h.drag_at(centre);
    h.run();
    h.drop_at(centre);
    h.run();
    assert_eq!(h.state().document.inspect.selected, Some(factory.node));
    h.get_by_label("Stats id: A0LightFactory");
}

/// The picture the window's renderer draws for this state, 512² pixels.
fn picture(state: &AppState) -> image::RgbaImage {
    let gpu = crate::common::gpu();
    let doc = state.document.open.as_ref().unwrap();
    let mut scene = SceneRenderer::new(&gpu.device, &gpu.queue, vitrine_test_support::disk());
    scene.set_model(&gpu.device, &gpu.queue, &doc.model);
    let target = RenderTarget::new(&gpu.device, 512, 512);
    scene.render(
        &gpu.device,
        &gpu.queue,
        &target,
        &doc.pose,
        &state.view_settings(),
    );
    target.read_rgba(&gpu.device, &gpu.queue).unwrap()
}

/// Pixels of `a` and `b` that differ by more than a rounding.
fn differing(a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    a.pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 8))
        .count()
}

#[vitrine_test(shared, gpu)]
fn a_layer_toggle_takes_its_objects_out_of_the_picture() {
    let mut h = open_map(MAP, window);
    let d = details(&h);
    let before = picture(h.state());
    let opened = h.state().view_settings().node_mask;
    h.get_by_label("Structures").click();
    h.run();
    // Every structure's node is masked out, the terrain's is not.
    let mask = h.state().view_settings().node_mask;
    assert!(d.objects.iter().all(|o| {
        let hidden = !mask[o.node];
        hidden == (o.kind == ObjectKind::Structure)
    }));
    assert!(d.layer_nodes(Layer::Terrain).iter().all(|&n| mask[n]));
    let hidden = picture(h.state());
    let gone = differing(&before, &hidden);
    // The whole 2c-startup framed at 512²: its structures, small and drawn at the
    // game's brightness over its dark baked ground, cover some 900 pixels.
    assert!(
        gone > 500,
        "only {gone} pixels changed without the structures"
    );
    // Shown again: the same picture as before.
    h.get_by_label("Structures").click();
    h.run();
    assert_eq!(h.state().view_settings().node_mask, opened);
    let again = picture(h.state());
    assert!(differing(&before, &again) < 10);
    // Hiding the features changes the picture too (trees, boulders, oil).
    h.get_by_label("Features").click();
    h.run();
    assert!(differing(&before, &picture(h.state())) > 50);
}

#[vitrine_test(shared, gpu)]
fn inspecting_layers_open_hidden_and_show_on_their_toggle() {
    let mut h = open_map(MAP, window);
    let d = details(&h);
    // Each player's start is marked and shown; grid and footprints open hidden.
    assert_eq!(d.start_positions.len(), 2, "{:?}", d.start_positions);
    let mask = h.state().view_settings().node_mask;
    let shown = |layer: Layer, mask: &[bool]| d.layer_nodes(layer).iter().all(|&n| mask[n]);
    assert!(shown(Layer::StartPositions, &mask));
    for layer in [Layer::Grid, Layer::Footprints] {
        assert!(!d.layer_nodes(layer).is_empty(), "{layer:?}");
        assert!(d.layer_nodes(layer).iter().all(|&n| !mask[n]), "{layer:?}");
    }
    // The panel lists them, each at its player's HQ (Sk-Startup's players have one; the
    // game sets the start there over the first truck).
    let starts: Vec<String> = d
        .start_positions
        .iter()
        .map(|s| {
            let o = d.objects.iter().find(|o| o.index == s.index).unwrap();
            assert_eq!(
                (o.kind, o.owner, o.stats_id.as_str()),
                (
                    ObjectKind::Structure,
                    Owner::Player(s.player),
                    "A0CommandCentre"
                )
            );
            format!("{} ({}, {})", s.player, o.x, o.y)
        })
        .collect();
    h.get_by_label(&format!("Start positions: {}", starts.join(", ")));
    let before = picture(h.state());
    h.get_by_label("Grid").click();
    h.run();
    let mask = h.state().view_settings().node_mask;
    assert!(shown(Layer::Grid, &mask));
    let grid = differing(&before, &picture(h.state()));
    assert!(
        grid > 2000,
        "only {grid} pixels changed with the grid shown"
    );
    h.get_by_label("Start positions").click();
    h.run();
    assert!(!shown(
        Layer::StartPositions,
        &h.state().view_settings().node_mask
    ));
}

#[vitrine_test(shared)]
fn the_game_view_starts_where_the_game_does() {
    let mut h = open_map(MAP, window);
    let d = details(&h);
    h.state_mut().view.camera.orthographic = true;
    h.key_press(Key::Num9);
    h.run();
    let cam = h.state().view.camera;
    // Over player 0's HQ (4.3.3 starts the camera there, not at the first truck), looking
    // north (the game's −40° pitch), in perspective.
    let s = d
        .start_positions
        .first()
        .expect("Sk-Startup's players have starts");
    assert_eq!(s.player, 0);
    assert_eq!(Some(s.index), d.camera_start(), "player 0's start");
    let hq = d
        .objects
        .iter()
        .find(|o| Some(o.index) == d.camera_start())
        .expect("player 0's HQ");
    assert_eq!(hq.stats_id, "A0CommandCentre");
    assert_eq!(hq.owner, vitrine_core::map::Owner::Player(0));
    // Its first truck stands elsewhere.
    let truck = d
        .objects
        .iter()
        .find(|o| o.kind == ObjectKind::Droid && o.owner == Owner::Player(0))
        .expect("player 0's truck");
    assert_ne!((hq.x, hq.y), (truck.x, truck.y));
    let want =
        vitrine_core::map::scene::terrain::model_point(hq.x as f32, hq.y as f32, hq.z as f32);
    assert!(
        cam.target.abs_diff_eq(want, 1e-3),
        "{} vs {want}",
        cam.target
    );
    assert!(
        (cam.pitch.to_degrees() - 40.0).abs() < 1e-3,
        "{}",
        cam.pitch
    );
    assert!((cam.yaw - std::f32::consts::PI).abs() < 1e-4, "{}", cam.yaw);
    assert!(!cam.orthographic);
    assert_eq!(cam.distance, vitrine_app::view::GAME_START_DISTANCE);
    // The eye is south of the HQ (world y larger: model z smaller) and above it.
    let eye = cam.eye();
    assert!(eye.z < want.z && eye.y > want.y, "{eye} vs {want}");
}

#[vitrine_test(shared)]
fn fog_and_sky_and_moving_water_are_settings_of_the_map_panel() {
    let mut h = open_map(MAP, window);
    // The scene has its fog; the view applies it once asked (off by default).
    let doc = h.state().document.open.as_ref().unwrap();
    assert!(doc.model.environment.fog.is_some());
    assert!(!h.state().view_settings().environment);
    h.get_by_label("Fog and sky").click();
    h.run();
    assert!(h.state().services.settings.map_fog);
    assert!(h.state().view_settings().environment);
    // Moving water and sky: on by default, off at a click.
    assert!(h.state().services.settings.map_animate);
    h.get_by_label("Moving water and sky").click();
    h.run();
    assert!(!h.state().services.settings.map_animate);
}
