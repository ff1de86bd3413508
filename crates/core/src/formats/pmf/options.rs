//! The rules the PMF document leaves unstated, as settings rather than guesses.
//!
//! `../shared/specs/pmf.txt` says rotations are "3 32bit floats" per piece and that a
//! frame stores "the root piece node position", and nothing more. No public reader or
//! sample exists to settle the units, the Euler order or what the root position does, so
//! each is a user setting. The defaults are the conventions of the project's synthetic
//! samples (`corpus/synthetic/README.md`): degrees, X then Y then Z (`R = Rz·Ry·Rx`,
//! column vectors), and the frame's root position replacing the root piece's translation.
//!
//! The CLI flags (`--pmf-units`, `--pmf-euler`, `--pmf-root`, listed in the program's
//! `cli::choice`) use exactly the names `info --json` reports; serde lets the app
//! persist them.

use glam::{Quat, Vec3};

/// What the three rotation floats of a frame measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RotationUnits {
    /// Degrees (default; the synthetic samples' convention).
    #[default]
    Degrees,
    /// Radians.
    Radians,
}

impl RotationUnits {
    /// The name used by the CLI and `info --json`.
    pub fn name(self) -> &'static str {
        match self {
            RotationUnits::Degrees => "degrees",
            RotationUnits::Radians => "radians",
        }
    }

    /// Factor that turns a stored value into radians.
    pub fn to_radians(self) -> f32 {
        match self {
            RotationUnits::Degrees => std::f32::consts::PI / 180.0,
            RotationUnits::Radians => 1.0,
        }
    }
}

/// The order in which a frame's X, Y and Z rotations are applied to a piece (the first
/// letter is applied first). `Xyz` means X, then Y, then Z: `R = Rz·Ry·Rx` acting on
/// column vectors. Each rotation is about the parent-aligned (fixed) axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EulerOrder {
    /// X, then Y, then Z: `R = Rz·Ry·Rx` (default; the synthetic samples' convention).
    #[default]
    Xyz,
    /// X, then Z, then Y: `R = Ry·Rz·Rx`.
    Xzy,
    /// Y, then X, then Z: `R = Rz·Rx·Ry`.
    Yxz,
    /// Y, then Z, then X: `R = Rx·Rz·Ry`.
    Yzx,
    /// Z, then X, then Y: `R = Ry·Rx·Rz`.
    Zxy,
    /// Z, then Y, then X: `R = Rx·Ry·Rz`.
    Zyx,
}

impl EulerOrder {
    /// All six orders.
    pub const ALL: [EulerOrder; 6] = [
        EulerOrder::Xyz,
        EulerOrder::Xzy,
        EulerOrder::Yxz,
        EulerOrder::Yzx,
        EulerOrder::Zxy,
        EulerOrder::Zyx,
    ];

    /// The name used by the CLI and `info --json` (`"xyz"`).
    pub fn name(self) -> &'static str {
        match self {
            EulerOrder::Xyz => "xyz",
            EulerOrder::Xzy => "xzy",
            EulerOrder::Yxz => "yxz",
            EulerOrder::Yzx => "yzx",
            EulerOrder::Zxy => "zxy",
            EulerOrder::Zyx => "zyx",
        }
    }

    /// Axis indices (0 = X, 1 = Y, 2 = Z) in the order they are applied.
    pub fn axes(self) -> [usize; 3] {
        match self {
            EulerOrder::Xyz => [0, 1, 2],
            EulerOrder::Xzy => [0, 2, 1],
            EulerOrder::Yxz => [1, 0, 2],
            EulerOrder::Yzx => [1, 2, 0],
            EulerOrder::Zxy => [2, 0, 1],
            EulerOrder::Zyx => [2, 1, 0],
        }
    }

    /// The composed matrix as text, e.g. `R = Rz·Ry·Rx` for `Xyz`.
    pub fn formula(self) -> String {
        let [a, b, c] = self.axes().map(|i| ["x", "y", "z"][i]);
        format!("R = R{c}·R{b}·R{a}")
    }
}

/// What a frame's root position does to the root piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootMode {
    /// The frame's root position replaces the root piece's translation (default; the
    /// synthetic samples' convention).
    #[default]
    Replace,
    /// The frame's root position is added to the root piece's translation.
    Add,
}

impl RootMode {
    /// The name used by the CLI and `info --json`.
    pub fn name(self) -> &'static str {
        match self {
            RootMode::Replace => "replace",
            RootMode::Add => "add",
        }
    }

    /// The root piece's translation in a frame whose root position is `frame_root`.
    pub(crate) fn root_translation(self, piece_translation: Vec3, frame_root: Vec3) -> Vec3 {
        match self {
            RootMode::Replace => frame_root,
            RootMode::Add => piece_translation + frame_root,
        }
    }
}

/// The PMF settings a user can change (see the module docs for why they exist).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct PmfOptions {
    /// Units of the stored rotations.
    pub units: RotationUnits,
    /// Order the three rotations are applied in.
    pub euler: EulerOrder,
    /// What a frame's root position does.
    pub root: RootMode,
}

impl PmfOptions {
    /// The rotation of a piece whose frame stores `xyz` (file units, X/Y/Z order).
    pub fn rotation(&self, xyz: [f32; 3]) -> Quat {
        let k = self.units.to_radians();
        let about = |axis: usize| match axis {
            0 => Quat::from_rotation_x(xyz[0] * k),
            1 => Quat::from_rotation_y(xyz[1] * k),
            _ => Quat::from_rotation_z(xyz[2] * k),
        };
        let [first, second, third] = self.euler.axes();
        // Column vectors: the rotation applied first stands rightmost.
        (about(third) * about(second) * about(first)).normalize()
    }

    /// The options as the `"options"` object of `info --json`.
    pub fn rules(&self) -> crate::model::details::PmfRules {
        crate::model::details::PmfRules {
            units: self.units.name(),
            euler: self.euler.name(),
            euler_formula: self.euler.formula(),
            root: self.root.name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat3;

    fn mat(q: Quat) -> Mat3 {
        Mat3::from_quat(q)
    }

    #[test]
    fn each_order_composes_its_axes_first_to_last() {
        let (x, y, z) = (10.0f32, 20.0f32, 30.0f32);
        let r = |a: usize| match a {
            0 => Mat3::from_rotation_x(x.to_radians()),
            1 => Mat3::from_rotation_y(y.to_radians()),
            _ => Mat3::from_rotation_z(z.to_radians()),
        };
        for order in EulerOrder::ALL {
            let opts = PmfOptions {
                euler: order,
                ..PmfOptions::default()
            };
            let [a, b, c] = order.axes();
            let want = r(c) * r(b) * r(a);
            let got = mat(opts.rotation([x, y, z]));
            assert!(got.abs_diff_eq(want, 1e-5), "{order:?}: {got} vs {want}");
        }
    }

    #[test]
    fn default_is_degrees_xyz_replace() {
        let o = PmfOptions::default();
        assert_eq!(
            (o.units, o.euler, o.root),
            (RotationUnits::Degrees, EulerOrder::Xyz, RootMode::Replace)
        );
        assert_eq!(o.euler.formula(), "R = Rz·Ry·Rx");
        // Positive X swings a hanging limb (−Y) towards −Z (forward for the robot).
        let hand = Mat3::from_quat(o.rotation([90.0, 0.0, 0.0])) * Vec3::NEG_Y;
        assert!(hand.abs_diff_eq(Vec3::NEG_Z, 1e-6), "{hand}");
    }

    #[test]
    fn radians_and_root_modes() {
        let o = PmfOptions {
            units: RotationUnits::Radians,
            ..PmfOptions::default()
        };
        let q = o.rotation([0.0, std::f32::consts::FRAC_PI_2, 0.0]);
        assert!((Mat3::from_quat(q) * Vec3::X).abs_diff_eq(Vec3::NEG_Z, 1e-6));
        let t = Vec3::new(0.0, 0.98, 0.0);
        let f = Vec3::new(0.02, 0.93, 0.0);
        assert_eq!(RootMode::Replace.root_translation(t, f), f);
        assert!(
            RootMode::Add
                .root_translation(t, f)
                .abs_diff_eq(t + f, 1e-6)
        );
    }
}
