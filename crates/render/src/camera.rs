//! The orbit camera: orbit, pan and zoom around a target; frame-to-fit; view presets.
//!
//! Y is up. Yaw 0 looks at the model's front, i.e. from +Z towards −Z... see
//! [`ViewPreset`]. Pure math: the window feeds it mouse deltas, the CLI sets presets.

use glam::{Mat4, Vec3};

/// Standard views (keys 1 / 3 / 7 / 0 as in Blender and f3d).
///
/// "Front" is the side models face: Warzone 2100 models (barrels, cyborgs), the PMF
/// robot and PangYa characters all face **−Z** in the model's convention, so the front
/// view looks from −Z towards +Z, and their right-hand side is +X.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewPreset {
    /// Looking along +Z (from −Z, the side models face).
    Front,
    /// Looking along −X (from +X, the model's right side).
    Side,
    /// Looking down −Y, the model's front at the bottom of the image.
    Top,
    /// Three-quarter view from above front-right.
    Iso,
    /// Warzone 2100's camera: 40° down (`INITIAL_STARTING_PITCH`), looking along +Z at
    /// the model's front, a map's north up the screen.
    Game,
}

impl ViewPreset {
    /// `(yaw, pitch)` in radians.
    fn angles(self) -> (f32, f32) {
        use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
        match self {
            ViewPreset::Front => (PI, 0.0),
            ViewPreset::Side => (FRAC_PI_2, 0.0),
            ViewPreset::Top => (PI, FRAC_PI_2 - 1e-3),
            ViewPreset::Iso => (3.0 * FRAC_PI_4, 35.264_f32.to_radians()),
            ViewPreset::Game => (PI, GAME_PITCH_DEG.to_radians()),
        }
    }
}

/// How far Warzone 2100's camera looks down, degrees (`INITIAL_STARTING_PITCH`, −40).
pub const GAME_PITCH_DEG: f32 = 40.0;

/// How far Warzone 2100's camera starts from the point it looks at, world units:
/// `START_DISTANCE` of the game's display code. 4.3.3 starts at its `mapZoom` setting
/// (2,600 by default) with the world scaled by `pie_GetResScalingFactor` and a field of
/// view that grows with the window's height; at 1024×768 and above (wider than 5:4) that
/// shows the same ±630 units around the point looked at as 2,000 at this camera's 35°
/// (docs/maps.md, "The game and Vitrine side by side").
pub const GAME_START_DISTANCE: f32 = 2000.0;

/// An orbit camera.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Camera {
    /// Point orbited around.
    pub target: Vec3,
    /// Rotation about +Y, radians; 0 = looking from +Z.
    pub yaw: f32,
    /// Elevation, radians, in (−π/2, π/2); positive looks down on the model.
    pub pitch: f32,
    /// Distance from the target.
    pub distance: f32,
    /// Vertical field of view, radians (perspective).
    pub fov_y: f32,
    /// Orthographic instead of perspective.
    pub orthographic: bool,
    /// Radius of the framed bounds (sets near/far planes and the ortho size at fit).
    pub radius: f32,
}

impl Default for Camera {
    fn default() -> Self {
        let (yaw, pitch) = ViewPreset::Iso.angles();
        Camera {
            target: Vec3::ZERO,
            yaw,
            pitch,
            distance: 3.0,
            fov_y: 35f32.to_radians(),
            orthographic: false,
            radius: 1.0,
        }
    }
}

/// Fraction of the shorter viewport side the framed bounding sphere fills.
const FIT_FILL: f32 = 0.9;

impl Camera {
    /// Unit vector from the target towards the eye.
    pub fn direction(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(sy * cp, sp, cy * cp)
    }

    /// The picture's right and up vectors and the direction towards the eye, in world
    /// space (as [`Camera::view`] turns them: no roll, +Y up the picture).
    pub(crate) fn axes(&self) -> (Vec3, Vec3, Vec3) {
        let back = self.direction();
        let right = Vec3::Y.cross(back).normalize_or(Vec3::X);
        (right, back.cross(right), back)
    }

    /// Eye position.
    pub fn eye(&self) -> Vec3 {
        self.target + self.direction() * self.distance
    }

    /// Centres on the box `min..max` and sets the distance so its bounding sphere fills
    /// `FIT_FILL` of the shorter viewport side (for either projection).
    pub fn frame(&mut self, min: Vec3, max: Vec3) {
        self.target = (min + max) * 0.5;
        self.radius = ((max - min).length() * 0.5).max(1e-3);
        self.distance = self.radius / ((self.fov_y * 0.5).tan() * FIT_FILL);
    }

    /// Frame-to-fit for the current view direction: centres on the box `min..max` and sets
    /// the distance so the box's eight corners, as seen from this direction, fill
    /// `FIT_FILL` of the viewport along whichever axis is tighter (`aspect` = width /
    /// height). Unlike [`Camera::frame`] (a bounding sphere), a long thin model seen
    /// end-on still fills the view.
    pub fn frame_view(&mut self, min: Vec3, max: Vec3, aspect: f32) {
        let corners: Vec<Vec3> = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { min.x } else { max.x },
                    if i & 2 == 0 { min.y } else { max.y },
                    if i & 4 == 0 { min.z } else { max.z },
                )
            })
            .collect();
        self.frame_points(&corners, aspect);
    }

    /// Frame-to-fit on the points themselves (e.g. every vertex of the model): as
    /// [`Camera::frame_view`], but the picture of the points, not of their bounding box, is
    /// centred and fills `FIT_FILL` of the tighter viewport axis. A diamond-shaped model
    /// seen diagonally is not shrunk by its box's empty corners. No-op without points.
    pub fn frame_points(&mut self, points: &[Vec3], aspect: f32) {
        let Some(first) = points.first() else {
            return;
        };
        let (min, max) = points
            .iter()
            .fold((*first, *first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        self.frame(min, max);
        let aspect = aspect.max(1e-3);
        let corners = points;
        let back = self.direction();
        let right = Vec3::Y.cross(back).normalize_or(Vec3::X);
        let up = back.cross(right);
        let tan = (self.fov_y * 0.5).tan();
        let fit_distance = |target: Vec3, orthographic: bool| {
            let mut distance: f32 = 1e-3;
            for c in corners {
                let d = *c - target;
                let (x, y, z) = (d.dot(right).abs(), d.dot(up).abs(), d.dot(back));
                let need = (x / aspect).max(y) / (tan * FIT_FILL);
                // Perspective: the corner is `z` nearer the eye than the target.
                distance = distance.max(if orthographic { need } else { need + z });
            }
            distance
        };
        // Alternate: fit the distance around the target, then move target and eye sideways
        // so the projected corners are centred (in perspective near corners look bigger, so
        // the box's centre is not the picture's). Each step is a Newton step on the
        // centring error using the two extreme corners' depths.
        for _ in 0..6 {
            self.distance = fit_distance(self.target, self.orthographic);
            let eye = self.target + back * self.distance;
            let mut shift = Vec3::ZERO;
            for axis in [right, up] {
                let (mut lo, mut hi) = ((f32::MAX, 1.0), (f32::MIN, 1.0));
                for c in corners {
                    let rel = *c - eye;
                    let depth = if self.orthographic {
                        1.0
                    } else {
                        (-rel.dot(back)).max(1e-6)
                    };
                    let p = rel.dot(axis) / depth;
                    if p < lo.0 {
                        lo = (p, depth);
                    }
                    if p > hi.0 {
                        hi = (p, depth);
                    }
                }
                let error = (lo.0 + hi.0) * 0.5;
                let slope = 0.5 * (1.0 / lo.1 + 1.0 / hi.1);
                shift += axis * (error / slope);
            }
            self.target += shift;
        }
        self.distance = fit_distance(self.target, self.orthographic);
    }

    /// This camera turned by `angle` radians about the vertical axis through its target:
    /// one step of a turntable (the model seems to turn the other way).
    pub fn orbited(&self, angle: f32) -> Camera {
        Camera {
            yaw: self.yaw + angle,
            ..*self
        }
    }

    /// Frame-to-fit for a turntable: the target goes on the vertical axis through the
    /// middle of the points' bounds, and the distance is such that the points stay inside
    /// `FIT_FILL` of the picture whatever [`Camera::orbited`] angle is drawn. The view
    /// direction and projection are kept. No-op without points.
    pub fn frame_turntable(&mut self, points: &[Vec3], aspect: f32) {
        let Some(first) = points.first() else {
            return;
        };
        let (lo, hi) = points
            .iter()
            .fold((*first, *first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let centre = (lo + hi) * 0.5;
        // What the turning points sweep: per height band the widest radius, as a ring.
        const BANDS: usize = 64;
        const STEPS: usize = 36;
        let span = (hi.y - lo.y).max(1e-6);
        let mut widest = [None::<(f32, f32)>; BANDS];
        for p in points {
            let band = (((p.y - lo.y) / span) * (BANDS - 1) as f32).round() as usize;
            let r = glam::Vec2::new(p.x - centre.x, p.z - centre.z).length();
            let slot = &mut widest[band.min(BANDS - 1)];
            if slot.is_none_or(|(wr, _)| r > wr) {
                *slot = Some((r, p.y));
            }
        }
        let ring: Vec<Vec3> = widest
            .iter()
            .flatten()
            .flat_map(|&(r, y)| {
                (0..STEPS).map(move |k| {
                    let a = std::f32::consts::TAU * k as f32 / STEPS as f32;
                    Vec3::new(centre.x + r * a.cos(), y, centre.z + r * a.sin())
                })
            })
            .collect();
        self.frame_points(&ring, aspect);
        // Orbit about the model's own axis; step back until every angle fits.
        self.target.x = centre.x;
        self.target.z = centre.z;
        let fits = |c: &Camera| {
            ring.iter().all(|p| {
                let clip = c.view_proj(aspect) * p.extend(1.0);
                clip.w > 0.0 && {
                    let ndc = clip.truncate() / clip.w;
                    ndc.x.abs() <= FIT_FILL + 1e-3 && ndc.y.abs() <= FIT_FILL + 1e-3
                }
            })
        };
        for _ in 0..200 {
            if fits(self) {
                break;
            }
            self.distance *= 1.02;
        }
    }

    /// Switches to a preset view, keeping target and distance.
    pub fn set_preset(&mut self, preset: ViewPreset) {
        (self.yaw, self.pitch) = preset.angles();
    }

    /// Warzone 2100's camera as the game starts a level: the Game view, in perspective,
    /// [`GAME_START_DISTANCE`] from `target` (a map's: the start position the game puts the
    /// camera over). Keeps the field of view and the radius (near and far planes).
    pub fn set_game_start(&mut self, target: Vec3) {
        self.set_preset(ViewPreset::Game);
        self.target = target;
        self.distance = GAME_START_DISTANCE;
        self.orthographic = false;
    }

    /// Orbits by a mouse drag of `dx`, `dy` pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        let lim = std::f32::consts::FRAC_PI_2 - 1e-3;
        self.yaw -= dx * 0.01;
        self.pitch = (self.pitch + dy * 0.01).clamp(-lim, lim);
    }

    /// Pans so the point under the cursor follows a drag of `dx`, `dy` pixels in a
    /// viewport `viewport_height` pixels tall.
    pub fn pan(&mut self, dx: f32, dy: f32, viewport_height: f32) {
        let world_per_px = 2.0 * self.half_height() / viewport_height.max(1.0);
        let forward = -self.direction();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        self.target += (-dx * right + dy * up) * world_per_px;
    }

    /// Zooms by `steps` wheel notches (positive = closer).
    pub fn zoom(&mut self, steps: f32) {
        self.distance =
            (self.distance * 0.9f32.powf(steps)).clamp(self.radius * 0.05, self.radius * 200.0);
    }

    /// Half the visible height at the target's distance (world units).
    pub(crate) fn half_height(&self) -> f32 {
        self.distance * (self.fov_y * 0.5).tan()
    }

    /// View matrix (world → view).
    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    /// Projection matrix for `aspect` = width / height (depth 0..1, as wgpu wants).
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let near = (self.distance - self.radius * 4.0)
            .max(self.distance * 1e-3)
            .max(1e-4);
        let far = self.distance + self.radius * 4.0;
        if self.orthographic {
            let h = self.half_height();
            let w = h * aspect;
            glam::camera::rh::proj::directx::orthographic(-w, w, -h, h, near, far)
        } else {
            glam::camera::rh::proj::directx::perspective(self.fov_y, aspect, near, far)
        }
    }

    /// `projection · view`.
    pub(crate) fn view_proj(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// Projects a world point to pixel coordinates (origin top-left) in a viewport of
    /// `width` × `height`; `None` behind the camera.
    pub fn project(&self, p: Vec3, width: f32, height: f32) -> Option<glam::Vec2> {
        let clip = self.view_proj(width / height) * p.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(glam::Vec2::new(
            (ndc.x * 0.5 + 0.5) * width,
            (0.5 - ndc.y * 0.5) * height,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_centres_the_box() {
        let mut c = Camera::default();
        c.frame(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(3.0, 2.0, 1.0));
        let centre = c.project(Vec3::new(1.0, 1.0, 0.0), 200.0, 100.0).unwrap();
        assert!((centre - glam::Vec2::new(100.0, 50.0)).length() < 1e-3);
    }

    #[test]
    fn presets_look_from_the_named_side() {
        let mut c = Camera::default();
        c.set_preset(ViewPreset::Front);
        assert!(c.direction().abs_diff_eq(Vec3::NEG_Z, 1e-5));
        c.set_preset(ViewPreset::Side);
        assert!(c.direction().abs_diff_eq(Vec3::X, 1e-5));
        c.set_preset(ViewPreset::Top);
        assert!(c.direction().y > 0.999);
    }

    #[test]
    fn a_turntable_keeps_the_model_in_view_at_every_angle() {
        // A long bar off the origin: seen end-on and side-on it must stay inside.
        let points = [Vec3::new(4.0, 0.0, -1.0), Vec3::new(10.0, 1.0, -1.5)];
        let mut c = Camera::default();
        c.frame_turntable(&points, 1.5);
        assert!((c.target.x - 7.0).abs() < 1e-4 && (c.target.z + 1.25).abs() < 1e-4);
        for k in 0..24 {
            let turned = c.orbited(std::f32::consts::TAU * k as f32 / 24.0);
            for p in points {
                let px = turned.project(p, 300.0, 200.0).unwrap();
                assert!(
                    (0.0..=300.0).contains(&px.x) && (0.0..=200.0).contains(&px.y),
                    "{k}: {px}"
                );
            }
        }
        assert_eq!(c.orbited(0.5).yaw, c.yaw + 0.5);
    }

    #[test]
    fn pan_moves_target_sideways() {
        let mut c = Camera::default();
        c.set_preset(ViewPreset::Front);
        // Dragging left moves the model left, i.e. the target towards the screen's
        // right, which is −X when looking from −Z.
        c.pan(-10.0, 0.0, 100.0);
        assert!(c.target.x < 0.0 && c.target.y.abs() < 1e-6);
    }
}
