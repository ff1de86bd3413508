//! How Warzone 2100's camera moves on a map (`src/display.cpp` `handleCameraScrolling` /
//! `calcScroll`, `src/keybind.cpp`, `src/warzoneconfig.h`; the keys are
//! [`crate::game_camera`]'s): scrolling over the ground relative to the view's turn at the
//! camera speed, up to three times faster zoomed out, reached and left with the game's
//! acceleration; turning and pitching at the game's rates; the point looked at kept on
//! the ground ([`MapDetails::ground_height`]) and inside the map. Time is the caller's
//! `dt`; nothing here reads a clock, the view or the app's state.

use crate::map::scene::MapDetails;
use crate::render::Camera;
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

/// Moves `camera` over `map` by the keys `held` for `dt` seconds, as the game does (see
/// the module's documentation), `scroll_speed` the speed kept between frames. Returns
/// whether the camera moved. (Whether it goes on moving — a key held, or the scroll
/// slowing down — is the input's to tell: `crate::game_camera::input`.)
pub fn step(
    camera: &mut Camera,
    scroll_speed: &mut Scroll,
    map: &MapDetails,
    held: Held,
    dt: f32,
) -> bool {
    let dt = if dt.is_finite() {
        dt.clamp(0.0, MAX_DT)
    } else {
        0.0
    };
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
    let v = &mut scroll_speed.velocity;
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
    *camera != before
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
