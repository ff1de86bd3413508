//! Colour modes: what colour the renderer gives a surface instead of (or as well as) its
//! material. The same for every format:
//!
//! - [`ColourMode::Textured`]: materials and textures as the file gives them (default).
//! - [`ColourMode::PerNode`]: one flat colour per node that shows a mesh (a PMF piece, a
//!   TPM instance, a PET part, a PIE level), from a stable palette keyed by node index.
//! - [`ColourMode::ByJoint`]: each point takes the colour of its dominant joint (the
//!   joint node's palette colour; a point with no joint is [`UNBOUND`] grey), blended
//!   across triangles as weight-paint views do. Points are bound through their mesh's
//!   skin ([`vitrine_core::model::Mesh::skin`]) or, for meshes drawn static that keep their
//!   binding (TPM skins), through the skin of the same name (`influence_skin`).
//!
//! Lighting still applies, so shapes stay readable; alpha cut-outs still cut. The
//! palette and the legends ([`legend`]) are here so the panel shows exactly the colours
//! the renderer draws.

use vitrine_core::model::colour::{hsv_to_rgb, srgb_to_linear};
use vitrine_core::model::{Model, SkinInfluence};

/// How surfaces are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ColourMode {
    /// Materials and textures as the file gives them.
    #[default]
    Textured,
    /// A distinct flat colour per node (piece, instance, part).
    PerNode,
    /// Each point coloured by its dominant joint (bone); unbound points grey.
    ByJoint,
}

impl ColourMode {
    /// All modes, in menu order.
    pub const ALL: [ColourMode; 3] = [
        ColourMode::Textured,
        ColourMode::PerNode,
        ColourMode::ByJoint,
    ];

    /// The label in the menu and panel.
    pub fn label(self) -> &'static str {
        match self {
            ColourMode::Textured => "Textured",
            ColourMode::PerNode => "Per node / part",
            ColourMode::ByJoint => "By joint (bone)",
        }
    }

    /// The shader's number for the mode.
    pub fn number(self) -> u32 {
        match self {
            ColourMode::Textured => 0,
            ColourMode::PerNode => 1,
            ColourMode::ByJoint => 2,
        }
    }
}

/// Colour of points bound to no joint in [`ColourMode::ByJoint`], sRGB.
pub const UNBOUND: [u8; 3] = [128, 128, 128];

/// The palette colour of node `index`, sRGB bytes: hues a golden angle apart at a fixed
/// saturation and value, so neighbouring indices differ clearly and none is grey.
pub fn node_colour(index: usize) -> [u8; 3] {
    const GOLDEN: f64 = 0.618_033_988_749_895;
    let hue = (0.07 + index as f64 * GOLDEN).fract();
    hsv_to_rgb(hue as f32, 0.62, 0.92).map(|c| (c * 255.0).round() as u8)
}

/// sRGB bytes → linear floats (what the shader multiplies with lighting).
pub fn linear(rgb: [u8; 3]) -> [f32; 4] {
    let l = |b: u8| srgb_to_linear(b as f32 / 255.0);
    [l(rgb[0]), l(rgb[1]), l(rgb[2]), 1.0]
}

/// The skin whose joints mesh `mesh`'s influences index: the mesh's own skin, else (a
/// mesh drawn static that keeps its binding for display) the skin with the mesh's name.
/// `None` when the mesh has no influence per point.
pub(crate) fn influence_skin(model: &Model, mesh: usize) -> Option<usize> {
    let m = model.meshes.get(mesh)?;
    if m.influences.is_empty() || m.influences.len() != m.points.len() {
        return None;
    }
    m.skin
        .filter(|&s| s < model.skins.len())
        .or_else(|| model.skins.iter().position(|s| s.name == m.name))
}

/// Index (into the skin's joints) of the influence's heaviest joint; `None` if it has no
/// weight.
pub(crate) fn dominant_joint(inf: &SkinInfluence) -> Option<u16> {
    let mut best: Option<(u16, f32)> = None;
    for (j, w) in inf.joints.into_iter().zip(inf.weights) {
        if w > 0.0 && best.is_none_or(|(_, bw)| w > bw) {
            best = Some((j, w));
        }
    }
    best.map(|(j, _)| j)
}

/// The joint node that colours each point of mesh `mesh` in [`ColourMode::ByJoint`]
/// (`None` = unbound). Empty if the mesh does not exist.
pub fn point_joint_nodes(model: &Model, mesh: usize) -> Vec<Option<usize>> {
    let Some(m) = model.meshes.get(mesh) else {
        return Vec::new();
    };
    let Some(skin) = influence_skin(model, mesh).and_then(|s| model.skins.get(s)) else {
        return vec![None; m.points.len()];
    };
    m.influences
        .iter()
        .map(|inf| dominant_joint(inf).and_then(|j| skin.joints.get(j as usize).copied()))
        .collect()
}

/// One line of a colour legend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegendEntry {
    /// Node index (`None` for the "unbound" line).
    pub node: Option<usize>,
    /// What the colour stands for (the node's name, or "unbound").
    pub label: String,
    /// The colour, sRGB.
    pub colour: [u8; 3],
}

/// The colours `mode` draws `model` with, in node order: for [`ColourMode::PerNode`] every
/// node that shows triangles; for [`ColourMode::ByJoint`] every joint some point is
/// bound to, then "unbound" if any point is. Empty for [`ColourMode::Textured`].
pub fn legend(model: &Model, mode: ColourMode) -> Vec<LegendEntry> {
    let entry = |i: usize| LegendEntry {
        node: Some(i),
        label: model.nodes[i].name.clone(),
        colour: node_colour(i),
    };
    match mode {
        ColourMode::Textured => Vec::new(),
        ColourMode::PerNode => (0..model.nodes.len())
            .filter(|&i| {
                model.nodes[i]
                    .mesh
                    .and_then(|m| model.meshes.get(m))
                    .is_some_and(|m| m.triangle_count() > 0)
            })
            .map(entry)
            .collect(),
        ColourMode::ByJoint => {
            let mut used = vec![false; model.nodes.len()];
            let mut unbound = false;
            for (mi, mesh) in model.meshes.iter().enumerate() {
                if mesh.triangle_count() == 0 || model.mesh_node(mi).is_none() {
                    continue;
                }
                for node in point_joint_nodes(model, mi) {
                    match node.and_then(|n| used.get_mut(n)) {
                        Some(u) => *u = true,
                        None => unbound = true,
                    }
                }
            }
            let mut out: Vec<LegendEntry> = (0..model.nodes.len())
                .filter(|&i| used[i])
                .map(entry)
                .collect();
            if unbound {
                out.push(LegendEntry {
                    node: None,
                    label: "unbound".into(),
                    colour: UNBOUND,
                });
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use vitrine_core::model::{Format, Mesh, Node, NodeKind, Skin};

    #[test]
    fn palette_is_stable_distinct_and_never_grey() {
        let colours: Vec<_> = (0..24).map(node_colour).collect();
        assert_eq!(node_colour(3), colours[3]);
        for (i, a) in colours.iter().enumerate() {
            let spread = a.iter().max().unwrap() - a.iter().min().unwrap();
            assert!(spread > 80, "colour {i} {a:?} is too grey");
            // Neighbours differ clearly (at least one channel by 40).
            if let Some(b) = colours.get(i + 1) {
                let d = a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).max().unwrap();
                assert!(d >= 40, "{i}: {a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn dominant_joint_is_the_heaviest_and_none_when_unweighted() {
        let inf = SkinInfluence {
            joints: [4, 7, 2, 0],
            weights: [0.25, 0.5, 0.25, 0.0],
        };
        assert_eq!(dominant_joint(&inf), Some(7));
        assert_eq!(dominant_joint(&SkinInfluence::default()), None);
    }

    /// A static mesh named like a skin (the TPM convention) with one unbound point.
    fn static_skin() -> Model {
        let mut m = Model::new(Format::Tpm, "1");
        let mut part = Node::new("Tail", None, NodeKind::Part);
        part.mesh = Some(0);
        m.nodes.push(part);
        m.nodes.push(Node::new("$JTail00", Some(0), NodeKind::Bone));
        m.nodes.push(Node::new("$JTail01", Some(0), NodeKind::Bone));
        let one = |j| SkinInfluence {
            joints: [j, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
        m.meshes.push(Mesh {
            name: "Tail".into(),
            points: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            influences: vec![one(1), SkinInfluence::default(), one(0)],
            corners: (0..3)
                .map(|i| vitrine_core::model::Corner::new(i, glam::Vec2::ZERO))
                .collect(),
            ..Mesh::default()
        });
        m.skins.push(Skin {
            name: "Tail".into(),
            joints: vec![1, 2],
            inverse_bind: vec![glam::Mat4::IDENTITY; 2],
        });
        m
    }

    #[test]
    fn static_skins_bind_through_the_skin_of_their_name() {
        let m = static_skin();
        assert_eq!(influence_skin(&m, 0), Some(0));
        assert_eq!(point_joint_nodes(&m, 0), vec![Some(2), None, Some(1)]);
        let legend = legend(&m, ColourMode::ByJoint);
        let labels: Vec<_> = legend.iter().map(|e| e.label.as_str()).collect();
        assert_eq!(labels, ["$JTail00", "$JTail01", "unbound"]);
        assert_eq!(legend[2].colour, UNBOUND);
        assert_eq!(legend[0].colour, node_colour(1));
        let per_node = super::legend(&m, ColourMode::PerNode);
        assert_eq!(per_node.len(), 1);
        assert_eq!(per_node[0].label, "Tail");
        assert!(super::legend(&m, ColourMode::Textured).is_empty());
    }

    #[test]
    fn a_mesh_without_influences_is_all_unbound() {
        let mut m = static_skin();
        m.meshes[0].influences.clear();
        assert_eq!(influence_skin(&m, 0), None);
        assert_eq!(point_joint_nodes(&m, 0), vec![None; 3]);
        assert!(point_joint_nodes(&m, 9).is_empty());
    }
}
