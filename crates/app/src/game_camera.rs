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
//!   ([`MapDetails::ground_height`](crate::map::scene::MapDetails::ground_height)); the
//!   motion itself is [`crate::game_motion`].
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
use crate::game_motion::{Held, ZOOM_STEP};
use crate::state::AppState;
use egui::Key;
use glam::Vec2;

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
