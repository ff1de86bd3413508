//! Triangle meshes.
//!
//! Every format this viewer reads stores per-corner attributes (PIE UVs per polygon,
//! PET per-corner normals, TPM independent index arrays), so a mesh keeps the file's own
//! vertex list ([`Mesh::points`]) and a flat list of triangle corners that index it.

use glam::{Vec2, Vec3};

/// Up to four joint influences of one point; weights sum to 1 (or all zero = unbound).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SkinInfluence {
    /// Indices into the mesh's [`crate::model::Skin::joints`].
    pub joints: [u16; 4],
    /// Blend weights, same order as `joints`.
    pub weights: [f32; 4],
}

/// One triangle corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    /// Index into [`Mesh::points`].
    pub point: u32,
    /// Authored normal (model axes), or `None` to shade with the face normal.
    pub normal: Option<Vec3>,
    /// UV sets 0 and 1; origin at the image's top-left, V down (loaders flip as needed).
    pub uv: [Vec2; 2],
    /// Whether the texture-frame animation of the mesh's material offsets this UV.
    pub animated: bool,
}

impl Corner {
    /// A corner with one UV set, no normal and no animation.
    pub fn new(point: u32, uv: Vec2) -> Self {
        Corner {
            point,
            normal: None,
            uv: [uv, Vec2::ZERO],
            animated: false,
        }
    }
}

/// A run of triangles drawn with one material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Submesh {
    /// First triangle (corner index / 3).
    pub first_triangle: u32,
    /// Number of triangles.
    pub triangle_count: u32,
    /// Index into [`crate::model::Model::materials`].
    pub material: usize,
}

/// A mesh: points in its own (node-local, model-axes) space and triangles over them.
#[derive(Debug, Clone, Default)]
pub struct Mesh {
    /// Name shown in the panel (`level 1`, a piece name, a TPM mesh name).
    pub name: String,
    /// The file's vertex list in file order, converted to model axes, mesh-local.
    pub points: Vec<Vec3>,
    /// Per-point skin influences; empty unless [`Mesh::skin`] is set, or the mesh is drawn
    /// static but keeps its bone binding for display (a TPM skin: then they index the
    /// joints of the [`crate::model::Skin`] with the mesh's name).
    pub influences: Vec<SkinInfluence>,
    /// Triangle corners, three per triangle, front faces counter-clockwise.
    pub corners: Vec<Corner>,
    /// Material runs covering every triangle exactly once, in order.
    pub submeshes: Vec<Submesh>,
    /// Skin (index into [`crate::model::Model::skins`]) whose joints drive this mesh.
    pub skin: Option<usize>,
    /// How many UV sets the file stored (0, 1 or 2).
    pub uv_sets: u8,
    /// Per-point opacity, 0–1, interpolated across each triangle and multiplied into its
    /// material's alpha (so an additive layer adds `colour · α`); empty: 1 everywhere.
    /// Otherwise one per point. A splatted ground layer's weight (a Warzone 2100 map's
    /// ground types) is one; no loader of a model file sets it.
    pub point_alpha: Vec<f32>,
    /// Per-point baked light, 0–1 in the sRGB encoding (a lightmap's grey), interpolated
    /// across each triangle: the encoded colour is multiplied by it *instead of* the
    /// scene's lighting (no ambient, diffuse or specular). Empty: lit by the scene's
    /// light. Otherwise one per point. A Warzone 2100 map's terrain has one (the light
    /// the game bakes for each tile corner); no loader of a model file sets it.
    pub point_light: Vec<f32>,
    /// One layer of a surface that is drawn whole before anything stands on it: its
    /// draws keep their place in the model's order among the opaque ones, however they
    /// blend (a splatted ground's additive layers and its decals over an opaque pre-pass;
    /// what is drawn later at the same depth covers them). Otherwise blended draws come
    /// after every opaque one. A Warzone 2100 map's terrain and decals are; no loader of a
    /// model file sets it.
    pub surface_layer: bool,
}

impl Mesh {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.corners.len() / 3
    }

    /// The opacity of `corner`'s point ([`Mesh::point_alpha`]; 1 where it is empty).
    pub fn corner_alpha(&self, corner: &Corner) -> f32 {
        self.point_alpha
            .get(corner.point as usize)
            .copied()
            .unwrap_or(1.0)
    }

    /// The baked light of `corner`'s point ([`Mesh::point_light`]), `None` where the mesh
    /// has none (lit by the scene).
    pub fn corner_light(&self, corner: &Corner) -> Option<f32> {
        self.point_light.get(corner.point as usize).copied()
    }

    /// Position of a corner.
    pub fn corner_position(&self, corner: &Corner) -> Vec3 {
        self.points[corner.point as usize]
    }

    /// The normal of triangle `t` from its winding (zero for a degenerate triangle).
    pub fn face_normal(&self, t: usize) -> Vec3 {
        let c = &self.corners[t * 3..t * 3 + 3];
        let [a, b, d] = [0, 1, 2].map(|i| self.corner_position(&c[i]));
        (b - a).cross(d - a).normalize_or_zero()
    }

    /// The normal to shade each corner with: the authored one, else the face normal.
    pub fn shading_normals(&self) -> Vec<Vec3> {
        let mut out = Vec::with_capacity(self.corners.len());
        for (t, tri) in self.corners.chunks_exact(3).enumerate() {
            let face = self.face_normal(t);
            out.extend(tri.iter().map(|c| c.normal.unwrap_or(face)));
        }
        out
    }

    /// Axis-aligned bounds of the points, or `None` for an empty mesh.
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let first = *self.points.first()?;
        Some(
            self.points
                .iter()
                .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))),
        )
    }
}
