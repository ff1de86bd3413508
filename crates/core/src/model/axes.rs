//! The file's axes relative to the model's right-handed, Y-up convention.

use glam::{Mat4, Vec3};

/// How a file's coordinates map to model coordinates: `model = model_from_file · file`.
///
/// Every conversion used here is a rotation and/or mirror (orthonormal), so its inverse
/// is its transpose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FileAxes {
    /// Short description shown by `info` (`"y-up right-handed"`).
    pub name: &'static str,
    /// File → model.
    pub(crate) model_from_file: Mat4,
}

impl FileAxes {
    /// Files already in the model's convention (PIE points, PMF).
    pub(crate) fn y_up_right_handed() -> Self {
        FileAxes {
            name: "y-up right-handed",
            model_from_file: Mat4::IDENTITY,
        }
    }

    /// Z-up right-handed files (TPM, 3ds Max): `(x, y, z)` → `(x, z, −y)`.
    pub(crate) fn z_up_right_handed() -> Self {
        FileAxes {
            name: "z-up right-handed",
            model_from_file: Mat4::from_cols(
                glam::Vec4::X,
                glam::Vec4::NEG_Z,
                glam::Vec4::Y,
                glam::Vec4::W,
            ),
        }
    }

    /// Left-handed Y-up files (PET's Direct3D data, Warzone 2100 PIE): `(x, y, z)` →
    /// `(−x, y, z)`.
    ///
    /// Mirroring X (rather than Z) keeps a model that faces file −Z (a character facing
    /// the Direct3D camera, a Warzone 2100 barrel) facing −Z, the side every model faces
    /// in this convention, so "Front" shows faces for every format.
    pub(crate) fn y_up_left_handed() -> Self {
        FileAxes {
            name: "y-up left-handed",
            model_from_file: Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
        }
    }

    /// Model → file.
    pub(crate) fn file_from_model(&self) -> Mat4 {
        self.model_from_file.transpose()
    }

    /// A model position in file axes.
    pub fn point_to_file(&self, p: Vec3) -> Vec3 {
        self.file_from_model().transform_point3(p)
    }

    /// A model-space matrix expressed in file axes: `F⁻¹ · m · F`.
    pub fn matrix_to_file(&self, m: Mat4) -> Mat4 {
        self.file_from_model() * m * self.model_from_file
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip() {
        for axes in [
            FileAxes::y_up_right_handed(),
            FileAxes::z_up_right_handed(),
            FileAxes::y_up_left_handed(),
        ] {
            let p = Vec3::new(1.0, 2.0, 3.0);
            assert!(
                axes.point_to_file(axes.model_from_file.transform_point3(p))
                    .abs_diff_eq(p, 1e-6)
            );
        }
        // Z up in the file is Y up in the model.
        let z = FileAxes::z_up_right_handed();
        assert!(
            z.model_from_file
                .transform_point3(Vec3::Z)
                .abs_diff_eq(Vec3::Y, 1e-6)
        );
        // Still right-handed: a proper rotation has determinant +1.
        assert!((z.model_from_file.determinant() - 1.0).abs() < 1e-6);
    }
}
