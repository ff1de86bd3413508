//! The scene's light: one directional light plus ambient, as Warzone 2100 and WMIT light
//! a model. The window (View ▸ Lighting, Ctrl + drag, Ctrl+L), `vitrine render`
//! (`--light-dir`, `--light-intensity`, `--ambient`, `--light-fixed`) and screenshots
//! and exports all draw with one [`Lighting`].
//!
//! The direction is an azimuth and an elevation in degrees. Azimuth 0 is the light
//! straight from the front, positive to the right, ±180 from behind; elevation 0 is level,
//! 90 straight from above, negative from below. *Front* is the camera while the light
//! follows the camera (a head-light that keeps every side of the model readable as it
//! turns), and the model's front (−Z, the side models face) while it is fixed to the
//! model (it then stays put as the camera orbits, so shapes read from the shading).

use super::Camera;
use glam::Vec3;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// Directional intensities offered (0 = ambient only).
pub const INTENSITY_RANGE: RangeInclusive<f32> = 0.0..=3.0;
/// Ambient intensities offered.
pub const AMBIENT_RANGE: RangeInclusive<f32> = 0.0..=1.5;
/// How much one press of Ctrl+L / Ctrl+Shift+L changes the intensity.
pub(crate) const INTENSITY_STEP: f32 = 0.1;

/// One directional light and ambient.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Lighting {
    /// Ambient factor on the surface colour (also lights faces turned away).
    pub ambient: f32,
    /// Directional (diffuse) factor: the light's intensity.
    pub diffuse: f32,
    /// Strength of the specular-map highlight.
    pub specular: f32,
    /// Where the light comes from, degrees; 0 = the front, positive = the right.
    pub azimuth_deg: f32,
    /// Height of the light, degrees; 90 = from straight above.
    pub elevation_deg: f32,
    /// Whether the direction is relative to the camera (true) or to the model.
    pub follows_camera: bool,
}

impl Lighting {
    /// The viewer's light: upper left, in front of the camera, following it. A surface
    /// facing the camera shows its texture at about full brightness; surfaces turned
    /// away from the light keep a third (linear), about 60 % in sRGB bytes.
    pub const DEFAULT: Lighting = Lighting {
        ambient: 0.35,
        diffuse: 0.8,
        specular: 0.5,
        // The view-space direction (−0.35, 0.55, 0.75) of earlier versions.
        azimuth_deg: -25.017,
        elevation_deg: 33.605,
        follows_camera: true,
    };

    /// Texture colours exactly as stored (ambient 1, no directional light).
    pub const UNLIT: Lighting = Lighting {
        ambient: 1.0,
        diffuse: 0.0,
        specular: 0.0,
        ..Lighting::DEFAULT
    };

    /// The unit vector towards the light in model space, for `camera`.
    pub fn direction(&self, camera: &Camera) -> Vec3 {
        let (az, el) = (
            self.azimuth_deg.to_radians(),
            self.elevation_deg.to_radians(),
        );
        let (x, y, z) = (az.sin() * el.cos(), el.sin(), az.cos() * el.cos());
        if self.follows_camera {
            // View space: +Z points at the viewer.
            camera
                .view()
                .inverse()
                .transform_vector3(Vec3::new(x, y, z))
                .normalize()
        } else {
            // Model space: the front is −Z.
            Vec3::new(x, y, -z)
        }
    }

    /// Switches between following the camera and staying fixed to the model, keeping
    /// the light where it is for `camera` (nothing jumps when the box is ticked).
    pub fn set_follows_camera(&mut self, follows: bool, camera: &Camera) {
        if follows == self.follows_camera {
            return;
        }
        let dir = self.direction(camera);
        self.follows_camera = follows;
        let local = if follows {
            camera.view().transform_vector3(dir)
        } else {
            Vec3::new(dir.x, dir.y, -dir.z)
        };
        let local = local.normalize_or(Vec3::Y);
        self.azimuth_deg = local.x.atan2(local.z).to_degrees();
        self.elevation_deg = local.y.clamp(-1.0, 1.0).asin().to_degrees();
    }

    /// Turns the light by a drag: `d_azimuth` to the right, `d_elevation` up, degrees.
    pub fn turn(&mut self, d_azimuth: f32, d_elevation: f32) {
        self.azimuth_deg = wrap_degrees(self.azimuth_deg + d_azimuth);
        self.elevation_deg = (self.elevation_deg + d_elevation).clamp(-90.0, 90.0);
    }

    /// Brighter (`steps` > 0) or dimmer by `INTENSITY_STEP`s, within
    /// [`INTENSITY_RANGE`].
    pub fn brighten(&mut self, steps: i32) {
        let v = self.diffuse + steps as f32 * INTENSITY_STEP;
        // Round to the step so repeated presses land on 0.8, not 0.80000007.
        let v = (v / INTENSITY_STEP).round() * INTENSITY_STEP;
        self.diffuse = v.clamp(*INTENSITY_RANGE.start(), *INTENSITY_RANGE.end());
    }

    /// Values brought into range (a hand-edited settings file may hold anything).
    pub fn sanitised(self) -> Lighting {
        let d = Lighting::DEFAULT;
        let fix = |v: f32, default: f32, range: RangeInclusive<f32>| {
            if v.is_finite() {
                v.clamp(*range.start(), *range.end())
            } else {
                default
            }
        };
        Lighting {
            ambient: fix(self.ambient, d.ambient, AMBIENT_RANGE),
            diffuse: fix(self.diffuse, d.diffuse, INTENSITY_RANGE),
            specular: fix(self.specular, d.specular, 0.0..=4.0),
            azimuth_deg: wrap_degrees(fix(self.azimuth_deg, d.azimuth_deg, -1e6..=1e6)),
            elevation_deg: fix(self.elevation_deg, d.elevation_deg, -90.0..=90.0),
            follows_camera: self.follows_camera,
        }
    }

    /// Parses `AZIMUTH,ELEVATION` in degrees (`--light-dir -30,45`).
    pub fn parse_direction(s: &str) -> Result<(f32, f32), String> {
        let (a, e) = s
            .split_once(',')
            .ok_or_else(|| format!("{s}: expected AZIMUTH,ELEVATION in degrees, e.g. -30,45"))?;
        let num = |v: &str| -> Result<f32, String> {
            v.trim()
                .parse::<f32>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| format!("{v}: not a number of degrees"))
        };
        let (a, e) = (num(a)?, num(e)?);
        if !(-90.0..=90.0).contains(&e) {
            return Err(format!("{e}: the elevation goes from -90 to 90 degrees"));
        }
        Ok((wrap_degrees(a), e))
    }
}

impl Default for Lighting {
    fn default() -> Self {
        Lighting::DEFAULT
    }
}

/// `deg` in (−180, 180].
fn wrap_degrees(deg: f32) -> f32 {
    if deg > -180.0 && deg <= 180.0 {
        return deg; // exactly as given: a saved value reads back unchanged
    }
    let w = (deg + 180.0).rem_euclid(360.0) - 180.0;
    if w == -180.0 { 180.0 } else { w }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-4
    }

    #[test]
    fn the_default_is_the_earlier_fixed_head_light() {
        let camera = Camera::default();
        let old = camera
            .view()
            .inverse()
            .transform_vector3(Vec3::new(-0.35, 0.55, 0.75))
            .normalize();
        assert!(close(Lighting::DEFAULT.direction(&camera), old));
    }

    #[test]
    fn fixed_directions_are_in_model_space() {
        let mut l = Lighting {
            follows_camera: false,
            elevation_deg: 0.0,
            ..Lighting::DEFAULT
        };
        let cam = Camera::default();
        for (az, want) in [
            (0.0, Vec3::NEG_Z),
            (90.0, Vec3::X),
            (-90.0, Vec3::NEG_X),
            (180.0, Vec3::Z),
        ] {
            l.azimuth_deg = az;
            assert!(close(l.direction(&cam), want), "azimuth {az}");
        }
        l.elevation_deg = 90.0;
        assert!(close(l.direction(&cam), Vec3::Y));
    }

    #[test]
    fn a_following_light_turns_with_the_camera_and_a_fixed_one_does_not() {
        let mut a = Camera::default();
        let mut b = a;
        b.yaw += 1.0;
        let follow = Lighting::DEFAULT;
        assert!(!close(follow.direction(&a), follow.direction(&b)));
        let mut fixed = follow;
        fixed.set_follows_camera(false, &a);
        assert!(!fixed.follows_camera);
        assert!(
            close(fixed.direction(&a), follow.direction(&a)),
            "toggling keeps the light where it is"
        );
        assert!(close(fixed.direction(&a), fixed.direction(&b)));
        a.pitch = -0.3;
        let mut back = fixed;
        back.set_follows_camera(true, &a);
        assert!(close(back.direction(&a), fixed.direction(&a)));
    }

    #[test]
    fn turning_wraps_and_clamps_and_brightening_steps() {
        let mut l = Lighting {
            azimuth_deg: 170.0,
            elevation_deg: 80.0,
            ..Lighting::DEFAULT
        };
        l.turn(20.0, 30.0);
        assert_eq!((l.azimuth_deg, l.elevation_deg), (-170.0, 90.0));
        l.brighten(3);
        assert!((l.diffuse - 1.1).abs() < 1e-6, "{}", l.diffuse);
        l.brighten(-100);
        assert_eq!(l.diffuse, 0.0);
    }

    #[test]
    fn parsing_and_sanitising() {
        assert_eq!(Lighting::parse_direction("-30, 45"), Ok((-30.0, 45.0)));
        assert_eq!(Lighting::parse_direction("270,0"), Ok((-90.0, 0.0)));
        assert!(Lighting::parse_direction("30").is_err());
        assert!(Lighting::parse_direction("0,91").is_err());
        assert!(Lighting::parse_direction("x,1").is_err());
        let s = Lighting {
            ambient: f32::NAN,
            diffuse: 99.0,
            azimuth_deg: 540.0,
            elevation_deg: -400.0,
            ..Lighting::DEFAULT
        }
        .sanitised();
        assert_eq!(s.ambient, Lighting::DEFAULT.ambient);
        assert_eq!(s.diffuse, *INTENSITY_RANGE.end());
        assert_eq!((s.azimuth_deg, s.elevation_deg), (180.0, -90.0));
    }
}
