//! What a model costs to draw: points, triangles and draw calls per node (PIE level, PMF
//! piece, mesh part…) and in total, and every texture with its pixel size.
//!
//! Draw calls count as the renderer issues them: one per (node, material run). Texture
//! sizes come from the image files' headers (read once per opened model).

use crate::model::Model;

/// One node that shows a mesh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeStats {
    /// Node index.
    pub node: usize,
    /// Node name.
    pub name: String,
    /// Points in the file's vertex list.
    pub points: usize,
    /// Triangles.
    pub triangles: usize,
    /// Draw calls (material runs with triangles).
    pub draws: usize,
}

/// One texture file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextureStats {
    /// Name as the model writes it.
    pub name: String,
    /// Width × height, when the file was found and its header read.
    pub size: Option<(u32, u32)>,
}

/// Totals and per-node rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelStats {
    /// Nodes with a mesh, in node order.
    pub nodes: Vec<NodeStats>,
    /// Textures in model order.
    pub textures: Vec<TextureStats>,
}

impl ModelStats {
    /// Counts `model` and reads its textures' sizes.
    pub fn of(model: &Model, files: &crate::files::Files) -> ModelStats {
        let nodes = model
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let mesh = model.meshes.get(n.mesh?)?;
                Some(NodeStats {
                    node: i,
                    name: n.name.clone(),
                    points: mesh.points.len(),
                    triangles: mesh.triangle_count(),
                    draws: mesh
                        .submeshes
                        .iter()
                        .filter(|s| s.triangle_count > 0)
                        .count(),
                })
            })
            .collect();
        // Each file read once: a map's scene names the same pages once per object.
        let mut read = std::collections::HashMap::new();
        let textures = model
            .textures
            .iter()
            .map(|t| TextureStats {
                name: t.name.clone(),
                size: t.resolved.as_ref().and_then(|f| {
                    *read
                        .entry(f)
                        .or_insert_with(|| crate::formats::texture::dimensions(files, f))
                }),
            })
            .collect();
        ModelStats { nodes, textures }
    }

    /// (points, triangles, draw calls) over every node.
    pub fn totals(&self) -> (usize, usize, usize) {
        self.nodes.iter().fold((0, 0, 0), |(p, t, d), n| {
            (p + n.points, t + n.triangles, d + n.draws)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Corner, Format, Mesh, Node, NodeKind, Submesh, TextureRef, TextureRole};
    use glam::{Vec2, Vec3};

    #[test]
    fn counts_shared_meshes_per_node_and_reads_texture_sizes() {
        let mut m = Model::new(Format::Tpm, "1");
        m.meshes.push(Mesh {
            points: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
            corners: [0, 1, 2, 0, 2, 3]
                .map(|i| Corner::new(i, Vec2::ZERO))
                .to_vec(),
            submeshes: vec![
                Submesh {
                    first_triangle: 0,
                    triangle_count: 1,
                    material: 0,
                },
                Submesh {
                    first_triangle: 1,
                    triangle_count: 1,
                    material: 1,
                },
                Submesh {
                    first_triangle: 2,
                    triangle_count: 0,
                    material: 0,
                },
            ],
            ..Mesh::default()
        });
        for name in ["a", "b"] {
            let mut n = Node::new(name, None, NodeKind::Instance);
            n.mesh = Some(0);
            m.nodes.push(n);
        }
        m.nodes.push(Node::new("empty", None, NodeKind::Group));
        let mut png = Vec::new();
        image::RgbaImage::new(32, 16)
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let files =
            crate::files::Files::new(crate::files::MemorySource::new().with("m/t.png", png));
        let mut found = TextureRef::new(TextureRole::Base, "t.png");
        found.resolved = Some(std::path::PathBuf::from("m/t.png").into());
        m.textures = vec![found, TextureRef::new(TextureRole::Base, "gone.png")];
        let s = ModelStats::of(&m, &files);
        assert_eq!(s.nodes.len(), 2);
        assert_eq!(
            (s.nodes[1].points, s.nodes[1].triangles, s.nodes[1].draws),
            (4, 2, 2)
        );
        assert_eq!(s.totals(), (8, 4, 4));
        assert_eq!(s.textures[0].size, Some((32, 16)));
        assert_eq!(s.textures[1].size, None);
    }
}
