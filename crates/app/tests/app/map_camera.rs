//! The game's keyboard camera on a map (`2c-startup` over the corpus' data): the arrows
//! scroll over the ground relative to the view's turn at the game's speed, speeding up and
//! slowing down as the game does, the point looked at on the ground under it; 4 / 6 turn,
//! 8 / 2 pitch, + / − zoom, Backspace faces north; by the test's clock (its frame `dt`:
//! a clock that stands still moves nothing).

use crate::app_support;
use crate::map_support::open_map;
use egui::Key;
use egui_kittest::Harness;
use glam::Vec3;
use std::f32::consts::PI;
use vitrine_app::state::AppState;
use vitrine_core::map::scene::terrain::model_point;
use vitrine_core::wz::Stats;
use vitrine_test_needs::vitrine_test;

/// The map opened.
const MAP: &str = "multiplay/maps/2c-startup/game.map";

/// Seconds each frame of these tests lasts.
const DT: f32 = 0.1;

fn window(state: AppState) -> Harness<'static, AppState> {
    Harness::builder()
        .with_size(egui::vec2(1100.0, 900.0))
        .with_max_steps(4)
        .build_ui_state(app_support::frame, state)
}

/// The map's terrain as the game holds it after loading, read and placed here.
fn terrain() -> vitrine_core::map::Terrain {
    let files = vitrine_test_support::disk();
    let (file, roots) = crate::map_support::paths(files, MAP);
    let level = vitrine_core::map::open_source(files, &file, None).unwrap();
    let map = vitrine_core::map::open(files, &level).unwrap();
    let (stats, _) = Stats::load(files, &roots);
    vitrine_core::map::place(&map, &stats, files, &roots).terrain
}

/// The camera looking north (the Game view's turn and pitch) at world (x, y) on the
/// map, 2000 units out.
fn look_at(h: &mut Harness<'static, AppState>, x: f32, y: f32) {
    h.key_press(Key::Num9);
    h.run();
    let camera = &mut h.state_mut().view.camera;
    camera.target = model_point(x, y, 0.0);
    camera.distance = 2000.0;
    assert!((camera.yaw - PI).abs() < 1e-6, "{camera:?}");
}

/// Holds `key` for `frames` frames of [`DT`] seconds, then lets it go and runs until the
/// camera stops; time stands still again after (the map's derricks play: a moving clock
/// keeps frames coming).
fn hold(h: &mut Harness<'static, AppState>, key: Key, frames: usize) {
    hold_for(h, key, frames, DT);
}

/// [`hold`] with frames of `dt` seconds.
fn hold_for(h: &mut Harness<'static, AppState>, key: Key, frames: usize, dt: f32) {
    app_support::set_frame_dt(dt);
    h.key_down(key);
    for _ in 0..frames {
        h.step();
    }
    h.key_up(key);
    for _ in 0..40 {
        h.step();
    }
    app_support::set_frame_dt(0.0);
    assert_eq!(
        h.state().view.scroll.velocity,
        glam::Vec2::ZERO,
        "it stopped"
    );
}

/// How far the game's scroll goes when a key is held `t` seconds (less than the time to
/// its top speed) and let go, `distance` units out: 2500 u/s times 1 + 2·(d − 500)/4500
/// at most, reached at half that a second², left at the whole of it.
fn scrolled(t: f32, distance: f32) -> f32 {
    let top = 2500.0 * (1.0 + 2.0 * (distance - 500.0) / 4500.0);
    let (accel, decel) = (top / 2.0, top);
    let v = accel * t;
    accel * t * t / 2.0 + v * v / (2.0 * decel)
}

#[vitrine_test(shared)]
fn the_arrows_scroll_over_the_ground_relative_to_the_views_turn() {
    let mut h = open_map(MAP, window);
    let ground = terrain();
    let (w, ht) = (ground.width as f32 * 128.0, ground.height as f32 * 128.0);
    let on_ground = |at: Vec3| ground.height_at((-at.x).round() as i32, (-at.z).round() as i32);
    // From the middle of the map, a second of ↑ and the slowing down after it: north
    // (world y falls, model z rises), as far as the game goes.
    let (x0, y0) = (w / 2.0, h_mid(ht));
    look_at(&mut h, x0, y0);
    hold(&mut h, Key::ArrowUp, 10);
    let at = h.state().view.camera.target;
    let go = scrolled(1.0, 2000.0);
    assert!((-at.z - (y0 - go)).abs() < 2.0, "north by {go}: {at}");
    assert!((-at.x - x0).abs() < 1e-3, "not sideways: {at}");
    // The point looked at is on the ground there.
    assert_eq!(at.y, on_ground(at) as f32);
    // → goes east.
    look_at(&mut h, x0, y0);
    hold(&mut h, Key::ArrowRight, 10);
    let at = h.state().view.camera.target;
    assert!(
        (-at.x - (x0 + go)).abs() < 2.0 && (-at.z - y0).abs() < 1e-3,
        "east: {at}"
    );
    assert_eq!(at.y, on_ground(at) as f32);
    // Turned left a quarter (4 for half a second at half a turn a second), ↑ goes west.
    look_at(&mut h, x0, y0);
    hold(&mut h, Key::Num4, 5);
    let yaw = h.state().view.camera.yaw;
    assert!((yaw - 1.5 * PI).abs() < 1e-3, "a quarter turn left: {yaw}");
    hold(&mut h, Key::ArrowUp, 10);
    let at = h.state().view.camera.target;
    assert!(
        (-at.x - (x0 - go)).abs() < 2.0 && (-at.z - y0).abs() < 2.0,
        "west: {at}"
    );
    // Further out, faster: at 5000 units three times the speed.
    look_at(&mut h, x0, y0);
    h.state_mut().view.camera.distance = 5000.0;
    hold(&mut h, Key::ArrowDown, 2);
    let at = h.state().view.camera.target;
    let far = scrolled(0.2, 5000.0);
    assert!((-at.z - (y0 + far)).abs() < 2.0, "south by {far}: {at}");
    // The map's edge stops it (the game's scroll limits), on the ground there.
    look_at(&mut h, x0, 200.0);
    hold(&mut h, Key::ArrowUp, 10);
    let at = h.state().view.camera.target;
    assert_eq!(-at.z, 0.0, "at the north edge: {at}");
    assert_eq!(at.y, on_ground(at) as f32);
}

/// The middle of the map's height `ht`, on a tile corner.
fn h_mid(ht: f32) -> f32 {
    (ht / 2.0 / 128.0).round() * 128.0
}

#[vitrine_test(shared)]
fn the_keys_turn_pitch_zoom_and_face_north() {
    let mut h = open_map(MAP, window);
    look_at(&mut h, 2048.0, 2048.0);
    // Without a clock no frame moves it (a test's time that stands still).
    let before = h.state().view.camera;
    hold_for(&mut h, Key::ArrowUp, 5, 0.0);
    hold_for(&mut h, Key::Num4, 5, 0.0);
    assert_eq!(h.state().view.camera, before);
    // 2 pitches forward (down) to 60° at most, 8 back up to 1°.
    hold(&mut h, Key::Num2, 10);
    assert!((h.state().view.camera.pitch.to_degrees() - 60.0).abs() < 1e-3);
    hold(&mut h, Key::Num8, 2);
    assert!((h.state().view.camera.pitch.to_degrees() - 24.0).abs() < 1e-2);
    hold(&mut h, Key::Num8, 10);
    assert!((h.state().view.camera.pitch.to_degrees() - 1.0).abs() < 1e-3);
    // 6 turns right; Backspace looks north again.
    hold(&mut h, Key::Num6, 3);
    assert!((h.state().view.camera.yaw - (PI - 0.3 * PI)).abs() < 1e-3);
    h.key_press(Key::Backspace);
    h.step();
    assert!((h.state().view.camera.yaw - PI).abs() < 1e-6);
    // + and − zoom by the game's 500 units, within 500..5000.
    let d = |h: &Harness<'static, AppState>| h.state().view.camera.distance;
    h.key_press(Key::Plus);
    h.step();
    assert_eq!(d(&h), 1500.0);
    for _ in 0..5 {
        h.key_press(Key::Plus);
        h.step();
    }
    assert_eq!(d(&h), 500.0);
    h.key_press(Key::Minus);
    h.step();
    assert_eq!(d(&h), 1000.0);
    // The turn, the pitch and the zoom did not move the point looked at.
    let at = h.state().view.camera.target;
    assert_eq!((at.x, at.z), (-2048.0, -2048.0));
}
