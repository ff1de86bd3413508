//! The picture Warzone 2100 4.3.3 draws when a level starts, as numbers a perspective
//! camera can take: where its camera pivots, how far its eye is, its focal length and
//! where on the screen it draws the pivot (docs/maps.md, "The game and Vitrine side by
//! side", where a screenshot of the game checks them).
//!
//! From the game's `src/display3d.cpp` and `lib/ivis_opengl/`:
//! - the camera pivots over the start position ([`MapDetails::camera_start`]) at
//!   `calculateCameraHeight`: the mean height of the 9 × 9 tiles around it (at least the
//!   centre tile's; `calcAverageTerrainHeight`) rounded up to 50 (`HEIGHT_TRACK_INCREMENTS`)
//!   plus 500 (`CAMERA_PIVOT_HEIGHT`), which `trackHeight` eases it to;
//! - it looks north, 40° down (`INITIAL_STARTING_PITCH`), from `distance` = the `mapZoom`
//!   setting (2,600 by default: `war_GetMapZoom`), the world scaled by
//!   `pie_GetResScalingFactor` / 100 first (`drawTiles`' view matrix), which is the eye at
//!   `distance` ÷ that scale in world units;
//! - `pie_PerspectiveGet`: `glm::frustum(±width/6, ±height/6, 330, …)`: a focal length of
//!   330 · 3 = 990 pixels whatever the window, and the projection's centre moved to
//!   (width / 2, 192) (`pie_SetGeometricOffset(width / 2, geoOffset)`, `geoOffset` = 192):
//!   the pivot is drawn 192 pixels from the top, not in the middle.
//!
//! [`GameCamera`] puts that camera elsewhere, as the game's scripts do
//! (`centreView(x, y)`: the pivot on a tile corner, at the same height over the ground
//! there; `cameraZoom(distance)`: another distance before the scale): the views
//! `tools/parity_capture.sh` takes of the game (docs/parity.md).
//!
//! Not covered: the camera's pitch and turn (the game's scripts cannot change them); the
//! display scale (`displayscale`, 100 % here); windows narrower than 5:4 use the width in
//! the scale.

use super::MapDetails;
use super::terrain::model_point;
use crate::map::TILE_UNITS;
use glam::Vec3;

/// The game's `mapZoom` default: how far its camera starts, before the resolution's scale.
pub const GAME_MAP_ZOOM: f32 = 2600.0;
/// `CAMERA_PIVOT_HEIGHT`: how far above the ground's mean the camera pivots.
pub const GAME_PIVOT_HEIGHT: i32 = 500;
/// `HEIGHT_TRACK_INCREMENTS`: the ground's mean under the camera is rounded up to it.
pub const GAME_HEIGHT_STEP: i32 = 50;
/// The focal length of the game's projection in pixels (`glm::frustum` at 330 with a
/// height of `height / 6` each way).
pub const GAME_FOCAL_PX: f32 = 990.0;
/// `SHADOW_END_DISTANCE` (`lib/ivis_opengl/piedraw.cpp`): a shape whose origin is this
/// far from the eye or farther, in the game's scaled view space, casts no shadow
/// (`pie_Draw3DShape`).
pub const GAME_SHADOW_REACH: f32 = 8000.0;
/// How far from the top of the window the game draws the point its camera pivots on
/// (`geoOffset`).
pub const GAME_PIVOT_ROW: f32 = 192.0;

/// What 4.3.3 shows past the map's edge with its fog off (the default), sRGB bytes: the
/// same near black on every tileset, read from its frames (`tests/parity/`, e.g.
/// Sk-Mountain's, Sk-UrbanChasm's and Sk-Valley's; docs/parity.md). With the fog on it
/// draws the tileset's sky there instead.
pub const GAME_PAST_EDGE: [u8; 3] = [10, 13, 16];

/// The game's start camera for a window `width` × `height` ([`MapDetails::game_view`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameView {
    /// The point the camera pivots on, in model space.
    pub pivot: Vec3,
    /// The eye's distance from the pivot, world units (looking north, 40° down).
    pub distance: f32,
    /// The focal length, pixels.
    pub focal_px: f32,
    /// Where the pivot is drawn: pixels from the window's left and top.
    pub pivot_px: (f32, f32),
    /// How far from the eye a shadow caster's origin may be, world units
    /// ([`GAME_SHADOW_REACH`] ÷ the resolution's scale).
    pub shadow_reach: f32,
}

/// Where a script puts the game's camera: over which point, how far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameCamera {
    /// The point the camera pivots over, world units (x east, y south; the game's own).
    pub x: f32,
    /// See [`GameCamera::x`].
    pub y: f32,
    /// The view distance before the window's scale (`cameraZoom`; the game's `mapZoom`
    /// setting, [`GAME_MAP_ZOOM`], at the start).
    pub zoom: f32,
}

impl GameCamera {
    /// Reads `X,Y` or `X,Y,ZOOM` (world units; ZOOM defaults to [`GAME_MAP_ZOOM`]), as
    /// `vitrine render --camera` takes it.
    pub fn parse(text: &str) -> Result<GameCamera, String> {
        let numbers = text
            .split(',')
            .map(|n| n.trim().parse::<f32>().ok().filter(|v| v.is_finite()))
            .collect::<Option<Vec<f32>>>()
            .ok_or_else(|| format!("{text:?}: expected X,Y or X,Y,ZOOM (numbers)"))?;
        match numbers[..] {
            [x, y] => Ok(GameCamera {
                x,
                y,
                zoom: GAME_MAP_ZOOM,
            }),
            [x, y, zoom] if zoom > 0.0 => Ok(GameCamera { x, y, zoom }),
            [_, _, _] => Err(format!("{text:?}: the zoom must be above 0")),
            _ => Err(format!("{text:?}: expected X,Y or X,Y,ZOOM")),
        }
    }
}

impl MapDetails {
    /// The camera the game starts the level with in a window of `width` × `height` pixels
    /// (module docs): over [`MapDetails::camera_start`]'s object (the map's centre where
    /// player 0 has none).
    pub fn game_view(&self, width: u32, height: u32) -> GameView {
        let start = self.game_start_target();
        // Model (x, y, z) is world (−x, −z, y): back to world x, y.
        let camera = GameCamera {
            x: -start.x,
            y: -start.z,
            zoom: GAME_MAP_ZOOM,
        };
        self.game_view_at(width, height, &camera)
    }

    /// The game's camera put over `camera`'s point at its distance (a script's
    /// `centreView` and `cameraZoom`), in a window of `width` × `height`: the pivot at
    /// the same height over the ground there as at the start (module docs).
    pub fn game_view_at(&self, width: u32, height: u32, camera: &GameCamera) -> GameView {
        let pivot_z = camera_height(&self.terrain, camera.x as i32, camera.y as i32);
        let scale = resolution_scale(width, height);
        GameView {
            pivot: model_point(camera.x, camera.y, pivot_z as f32),
            distance: camera.zoom / scale,
            focal_px: GAME_FOCAL_PX,
            pivot_px: (width as f32 / 2.0, GAME_PIVOT_ROW),
            shadow_reach: GAME_SHADOW_REACH / scale,
        }
    }
}

/// `pie_GetResScalingFactor() / 100`: the world's scale at this window size (integer
/// steps, as the game computes it).
fn resolution_scale(width: u32, height: u32) -> f32 {
    let percent = if width.saturating_mul(4) > height.saturating_mul(5) {
        height.saturating_mul(5) / 4 / 6
    } else {
        width / 6
    };
    percent.max(1) as f32 / 100.0
}

/// `calculateCameraHeight(calcAverageTerrainHeight(tile of (x, y)))`, world units.
fn camera_height(terrain: &crate::map::Terrain, x: i32, y: i32) -> i32 {
    let (tx, ty) = (x.div_euclid(TILE_UNITS), y.div_euclid(TILE_UNITS));
    let tile = |i: i32, j: i32| -> Option<i32> {
        let (w, h) = (terrain.width as i32, terrain.height as i32);
        let inside = (0..w).contains(&i) && (0..h).contains(&j);
        inside.then(|| terrain.heights.get((i + j * w) as usize).copied())?
    };
    let around: Vec<i32> = (-4..=4)
        .flat_map(|j| (-4..=4).map(move |i| (i, j)))
        .filter_map(|(i, j)| tile(tx + i, ty + j))
        .collect();
    let mean = match around.len() {
        0 => TILE_UNITS * 2, // off the map: the game's ELEVATION_SCALE · TILE_UNITS
        n => (around.iter().sum::<i32>() / n as i32).max(tile(tx, ty).unwrap_or(0)),
    };
    let step = GAME_HEIGHT_STEP;
    (mean + step - 1).div_euclid(step) * step + GAME_PIVOT_HEIGHT
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrain(n: u32, height: impl Fn(i32, i32) -> i32) -> crate::map::Terrain {
        crate::map::Terrain {
            width: n,
            height: n,
            heights: (0..(n * n) as i32)
                .map(|i| height(i % n as i32, i / n as i32))
                .collect(),
            textures: vec![0; (n * n) as usize],
            gateways: Vec::new(),
            version: 39,
        }
    }

    #[test]
    fn the_pivot_is_500_over_the_mean_of_9_by_9_tiles_rounded_up_to_50() {
        // Flat at 242: 250 + 500.
        assert_eq!(camera_height(&terrain(20, |_, _| 242), 1280, 1280), 750);
        // Exactly a step: not rounded further.
        assert_eq!(camera_height(&terrain(20, |_, _| 300), 1280, 1280), 800);
        // A ramp rising east by 10 a tile: the mean of tiles 6..=14 is 100 (tile 10's).
        assert_eq!(camera_height(&terrain(20, |x, _| 10 * x), 1280, 1280), 600);
        // In a corner only the tiles on the map count: tiles 0..=4, mean 20 → 50 + 500.
        assert_eq!(camera_height(&terrain(20, |x, _| 10 * x), 0, 0), 550);
        // The centre tile higher than the mean wins: 0 around, 400 under the camera.
        let peak = terrain(20, |x, y| if (x, y) == (10, 10) { 400 } else { 0 });
        assert_eq!(camera_height(&peak, 1300, 1300), 900);
    }

    #[test]
    fn a_camera_reads_as_x_y_and_an_optional_zoom() {
        let c = GameCamera::parse("9600, 3200").unwrap();
        assert_eq!((c.x, c.y, c.zoom), (9600.0, 3200.0, GAME_MAP_ZOOM));
        let c = GameCamera::parse("5888,5888,5000").unwrap();
        assert_eq!(c.zoom, 5000.0);
        for bad in ["", "1", "1,2,3,4", "a,b", "1,2,0", "1,NaN"] {
            assert!(GameCamera::parse(bad).is_err(), "{bad:?} was taken");
        }
    }

    #[test]
    fn the_eye_is_closer_the_taller_the_window() {
        // 1024 × 768 (wider than 5:4): 768 · 5 / 4 / 6 = 160 % → 2600 / 1.6.
        assert_eq!(resolution_scale(1024, 768), 1.6);
        // 1920 × 1080: 225 %; 800 × 800 (narrower than 5:4): the width, 133 %.
        assert_eq!(resolution_scale(1920, 1080), 2.25);
        assert_eq!(resolution_scale(800, 800), 1.33);
        assert_eq!(resolution_scale(1, 1), 0.01);
    }
}
