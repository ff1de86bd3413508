//! The game's keyboard camera on a map document: Warzone 2100's scrolling, turning,
//! pitching and zooming keys, moving the view's [`Camera`](crate::render::Camera) as the
//! game moves its own, with the point looked at kept on the ground.
//!
//! What the game does, read in its source (`src/keymap.cpp`'s default bindings,
//! `src/display.cpp` `handleCameraScrolling` / `calcScroll`, `src/keybind.cpp`,
//! `src/warzoneconfig.h`):
//!
//! - The arrow keys (held) scroll over the ground relative to the view's turn: up is
//!   away from the camera, right is to the view's right. The speed is the camera speed
//!   (`CAMERASPEED_DEFAULT`, 2500 world units a second, camera acceleration on as by
//!   default) times `1 + 2 · (distance − MINDISTANCE) / (MAXDISTANCE − MINDISTANCE)`, so a
//!   camera further out scrolls up to three times faster; it is reached with an
//!   acceleration of half the speed a second and left with twice that (`calcScroll`), and
//!   reversing stops at once. The scroll stays inside the map (`CheckScrollLimits`).
//! - The keypad's 4 / 6 turn the view (`kf_RotateLeft` / `kf_RotateRight`, half a turn a
//!   second), 8 / 2 pitch it back and forward (`kf_PitchBack` / `kf_PitchForward`, the same
//!   rate, between 1° and 60° down); the number row's 4 / 6 / 8 / 2 do the same here (egui
//!   does not tell the keypad's digits from the row's).
//! - Keypad + / − zoom in and out by the zoom rate (`MAP_ZOOM_RATE_DEFAULT`, 500 units a
//!   press), between `MINDISTANCE` and `MAXDISTANCE` (500–5000); Backspace turns the view
//!   back to north (`kf_SeekNorth`).
//! - The point looked at follows the terrain: after each move its height is the ground's
//!   under it, read as the game's `map_Height` reads the loaded terrain
//!   ([`MapDetails::ground_height`]).
//!
//! Where our shortcuts win: W A S D are the wireframe, axes and selection shortcuts, so
//! only the arrows scroll; keypad 5 (the game's *Reset pitch*) is our perspective /
//! orthographic toggle, and 9 (the Game view) puts the whole camera back where the game
//! starts; the game's Ctrl + arrows (face a compass direction) and the mouse's edge
//! scrolling are not offered. On a map the arrows scroll: the timeline's ← / → frame
//! steps are a model's.
//!
//! Time comes from the frame loop ([`crate::frame`], the front-end's `dt`); nothing here
//! reads a clock.

use crate::commands::{AppCommand, ViewCommand};
use crate::map::scene::MapDetails;
use crate::state::AppState;
use crate::view::View;
use egui::Key;
use glam::{Vec2, Vec3};

/// Nearest the game's camera comes to the point it looks at, world units (`MINDISTANCE`).
pub const MIN_DISTANCE: f32 = 500.0;
/// Farthest, world units (`MAXDISTANCE`).
pub const MAX_DISTANCE: f32 = 5000.0;
/// Scroll speed at the nearest distance, world units a second (`CAMERASPEED_DEFAULT`).
pub const CAMERA_SPEED: f32 = 2500.0;
/// How fast the view turns and pitches, degrees a second (`MAP_SPIN_RATE`,
/// `MAP_PITCH_RATE`: 360° in `SECS_PER_SPIN` = 2 s).
pub const TURN_RATE_DEG: f32 = 180.0;
/// Least and most the camera looks down, degrees (`MAX_PLAYER_X_ANGLE` −1,
/// `MIN_PLAYER_X_ANGLE` −60).
pub const PITCH_RANGE_DEG: (f32, f32) = (1.0, 60.0);
/// What one press of a zoom key moves the camera, world units (`MAP_ZOOM_RATE_DEFAULT`).
pub const ZOOM_STEP: f32 = 500.0;
/// The longest frame a step takes as it is (the game clamps its own scroll time to half a
/// second, so a stalled frame does not throw the camera across the map).
const MAX_DT: f32 = 0.5;

/// The game camera's keys held this frame: each −1, 0 or 1.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Held {
    /// Scroll right (+1) or left (−1).
    pub right: f32,
    /// Scroll forward, away from the camera (+1), or back (−1).
    pub forward: f32,
    /// Turn the view left (+1, anticlockwise seen from above) or right (−1).
    pub turn: f32,
    /// Look further down (+1) or further up (−1).
    pub pitch: f32,
}

impl Held {
    /// Whether no key is held.
    pub fn is_none(&self) -> bool {
        *self == Held::default()
    }
}

/// The scroll's speed, kept between frames (the game's `scrollSpeedLeftRight`,
/// `scrollSpeedUpDown`): world units a second to the right (x) and forward (y).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Scroll {
    /// Right (x) and forward (y) speed.
    pub velocity: Vec2,
}

/// The keys held down (no modifier) and what each adds to [`Held`], for the input and
/// the Help window.
pub fn held_keys() -> [(Key, Held, &'static str); 8] {
    let h = |right, forward, turn, pitch| Held {
        right,
        forward,
        turn,
        pitch,
    };
    [
        (Key::ArrowUp, h(0.0, 1.0, 0.0, 0.0), "Scroll forward"),
        (Key::ArrowDown, h(0.0, -1.0, 0.0, 0.0), "Scroll back"),
        (Key::ArrowLeft, h(-1.0, 0.0, 0.0, 0.0), "Scroll left"),
        (Key::ArrowRight, h(1.0, 0.0, 0.0, 0.0), "Scroll right"),
        (Key::Num4, h(0.0, 0.0, 1.0, 0.0), "Turn left"),
        (Key::Num6, h(0.0, 0.0, -1.0, 0.0), "Turn right"),
        (Key::Num8, h(0.0, 0.0, 0.0, -1.0), "Pitch back (look up)"),
        (
            Key::Num2,
            h(0.0, 0.0, 0.0, 1.0),
            "Pitch forward (look down)",
        ),
    ]
}

/// The keys pressed (no modifier) and their command, for the input and the Help window.
pub fn pressed_keys() -> [(Key, ViewCommand, &'static str); 4] {
    [
        (Key::Plus, ViewCommand::GameZoom(-ZOOM_STEP), "Zoom in"),
        (Key::Equals, ViewCommand::GameZoom(-ZOOM_STEP), "Zoom in"),
        (Key::Minus, ViewCommand::GameZoom(ZOOM_STEP), "Zoom out"),
        (Key::Backspace, ViewCommand::FaceNorth, "Face north"),
    ]
}

/// The game camera's commands this frame, `dt` seconds after the last: a step while a
/// key is held or the scroll is still slowing down, and the pressed keys' commands. None
/// unless a map document is shown (not the gallery) and no text field has the focus.
pub fn input(ctx: &egui::Context, state: &AppState, dt: f32) -> Vec<AppCommand> {
    let gallery = state.panels.gallery.as_ref().is_some_and(|g| g.shown);
    let map = state.document.open.as_ref().and_then(|d| d.map()).is_some();
    if !map || gallery || ctx.text_edit_focused() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut held = Held::default();
    ctx.input_mut(|i| {
        // `+` may come with Shift: a pressed key matches whatever Shift does.
        for (key, cmd, _) in pressed_keys() {
            while i.consume_key(egui::Modifiers::NONE, key) {
                out.push(AppCommand::View(cmd));
            }
        }
        if !i.modifiers.is_none() {
            // Held keys only alone (Ctrl + an arrow is no scroll in the game either).
            return;
        }
        for (key, add, _) in held_keys() {
            if i.key_down(key) {
                held.right += add.right;
                held.forward += add.forward;
                held.turn += add.turn;
                held.pitch += add.pitch;
            }
        }
    });
    if !held.is_none() || state.view.scroll.velocity != Vec2::ZERO {
        out.push(AppCommand::View(ViewCommand::GameStep { held, dt }));
    }
    out
}

/// Moves `view`'s camera over `map` by the keys `held` for `dt` seconds, as the game
/// does (see the module's documentation). Returns whether the camera is still moving
/// (a key held, or the scroll slowing down): the caller draws another frame.
pub fn step(view: &mut View, map: &MapDetails, held: Held, dt: f32) -> bool {
    let dt = if dt.is_finite() {
        dt.clamp(0.0, MAX_DT)
    } else {
        0.0
    };
    let camera = &mut view.camera;
    let before = *camera;
    camera.yaw += held.turn.clamp(-1.0, 1.0) * TURN_RATE_DEG.to_radians() * dt;
    if held.pitch != 0.0 {
        let (lo, hi) = PITCH_RANGE_DEG;
        camera.pitch = (camera.pitch
            + held.pitch.clamp(-1.0, 1.0) * TURN_RATE_DEG.to_radians() * dt)
            .clamp(lo.to_radians(), hi.to_radians());
    }
    // Further out, faster: 1× at MINDISTANCE to 3× at MAXDISTANCE.
    let distance = camera.distance.clamp(MIN_DISTANCE, MAX_DISTANCE);
    let top =
        CAMERA_SPEED * (1.0 + 2.0 * (distance - MIN_DISTANCE) / (MAX_DISTANCE - MIN_DISTANCE));
    let accel = top / 2.0;
    let v = &mut view.scroll.velocity;
    let right = scroll(
        &mut v.x,
        accel,
        2.0 * accel,
        held.right.clamp(-1.0, 1.0) * top,
        dt,
    );
    let forward = scroll(
        &mut v.y,
        accel,
        2.0 * accel,
        held.forward.clamp(-1.0, 1.0) * top,
        dt,
    );
    if right != 0.0 || forward != 0.0 {
        let (s, c) = camera.yaw.sin_cos();
        // The camera looks along −direction; its ground-level forward and right.
        let ahead = Vec3::new(-s, 0.0, -c);
        let side = Vec3::new(c, 0.0, -s);
        camera.target += side * right + ahead * forward;
        camera.target = inside(map, camera.target);
        camera.target.y = map.ground_height(camera.target);
    }
    if *camera != before {
        view.camera_moved = true;
    }
    !held.is_none() || view.scroll.velocity != Vec2::ZERO
}

/// `at` moved inside the map's scroll limits (the game's `CheckInScrollLimits`: world x
/// from 0 to the last tile's corner, y likewise), in model space.
fn inside(map: &MapDetails, at: Vec3) -> Vec3 {
    let tile = crate::map::TILE_UNITS as f32;
    let (w, h) = (map.size.0 as f32, map.size.1 as f32);
    // Model x = −world x, model z = −world y.
    let x = at.x.clamp(-((w - 1.0).max(0.0) * tile), 0.0);
    let z = at.z.clamp(-((h - 1.0).max(0.0) * tile), 0.0);
    Vec3::new(x, at.y, z)
}

/// One axis of the scroll over `dt` seconds (the game's `calcScroll`): the speed
/// `velocity` first falls towards 0 at `decel` units/s² where it is above `target` (a
/// reversal stops at once), then goes towards `target` at `accel`; the distance covered
/// is returned.
fn scroll(velocity: &mut f32, accel: f32, decel: f32, target: f32, dt: f32) -> f32 {
    if target * *velocity < 0.0 {
        *velocity = 0.0;
    }
    let sign = if target < *velocity { -1.0 } else { 1.0 };
    let mut left = dt;
    let mut covered = 0.0;
    for (goal, rate) in [(0.0, sign * decel), (target, sign * accel)] {
        if rate == 0.0 {
            continue;
        }
        let t = ((goal - *velocity) / rate).clamp(0.0, left);
        covered += *velocity * t + rate / 2.0 * t * t;
        *velocity += rate * t;
        left -= t;
    }
    covered += *velocity * left;
    if velocity.abs() < 1e-3 {
        // Stopped: rounding leaves no crawl that keeps frames coming.
        *velocity = 0.0;
    }
    covered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scroll_speeds_up_holds_its_top_speed_and_slows_down() {
        let (top, accel) = (2500.0, 1250.0);
        // From rest, 2 s to the top speed: 2500 units covered, then 2500 a second.
        let mut v = 0.0;
        let d = scroll(&mut v, accel, 2.0 * accel, top, 2.0);
        assert!(
            (d - 2500.0).abs() < 1e-2 && (v - top).abs() < 1e-3,
            "{d} {v}"
        );
        let d = scroll(&mut v, accel, 2.0 * accel, top, 1.0);
        assert!((d - 2500.0).abs() < 1e-2, "{d}");
        // Let go: it stops in 1 s (decelerating at 2500/s²) after 1250 more units.
        let d = scroll(&mut v, accel, 2.0 * accel, 0.0, 3.0);
        assert!((d - 1250.0).abs() < 1e-2 && v == 0.0, "{d} {v}");
        // Reversing stops at once, then speeds up the other way.
        let mut v = top;
        let d = scroll(&mut v, accel, 2.0 * accel, -top, 0.5);
        assert!(
            (d + 156.25).abs() < 1e-2 && (v + 625.0).abs() < 1e-3,
            "{d} {v}"
        );
        // Frames of any length add up to the same distance.
        let (mut v1, mut v2) = (0.0, 0.0);
        let whole = scroll(&mut v1, accel, 2.0 * accel, top, 1.5);
        let parts: f32 = (0..150)
            .map(|_| scroll(&mut v2, accel, 2.0 * accel, top, 0.01))
            .sum();
        assert!((whole - parts).abs() < 0.5, "{whole} {parts}");
    }
}
