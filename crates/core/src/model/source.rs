//! Where a model's elements were written in its file: per mesh the place of each point
//! and each file polygon and which polygon each triangle came from, plus facts a loader
//! records for `vitrine check` that are no problem when viewing (legacy conventions,
//! unused directives). Loaders fill what they know; an empty map is valid.

use super::{Diagnostic, Location};

/// Source places of one mesh, indexed like the mesh's points and triangles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshSource {
    /// Where the mesh's block starts (PIE: the `LEVEL` line).
    pub start: Location,
    /// Where each point was written (empty when the loader does not record it).
    pub points: Vec<Location>,
    /// Where each file polygon was written (a polygon may become several triangles).
    pub polygons: Vec<Location>,
    /// For each triangle of the mesh, the index into `polygons` it came from.
    pub(crate) triangle_polygon: Vec<u32>,
}

impl MeshSource {
    /// The triangles (mesh triangle indices) that file polygon `polygon` became.
    pub fn polygon_triangles(&self, polygon: u32) -> impl Iterator<Item = usize> + '_ {
        self.triangle_polygon
            .iter()
            .enumerate()
            .filter(move |(_, p)| **p == polygon)
            .map(|(t, _)| t)
    }
}

/// A texture-like directive and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureLine {
    /// The file name as written.
    pub name: String,
    /// Where.
    pub location: Location,
}

/// Source places and checker facts of a model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SourceMap {
    /// One per mesh of [`super::Model::meshes`], or empty.
    pub meshes: Vec<MeshSource>,
    /// Texture directives in file order.
    pub textures: Vec<TextureLine>,
    /// Facts for the checker (each with its rule id) that are not shown as warnings.
    pub notes: Vec<Diagnostic>,
}

impl SourceMap {
    /// Where texture `name` was named first (case-insensitive).
    pub(crate) fn texture_location(&self, name: &str) -> Location {
        self.textures
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map_or(Location::File, |t| t.location)
    }
}
