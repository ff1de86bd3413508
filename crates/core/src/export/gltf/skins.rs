//! Model skins → glTF skins: the joints (the model's nodes, same indices) and their
//! inverse bind matrices, with the export scale applied to their translations.
//!
//! A skinned point without weight stays where it is in the viewer; glTF has no such
//! vertex, so a skin that needs one gets an extra joint: a parentless node at identity
//! that no animation moves.

use super::document::Document;
use crate::model::Model;
use glam::Mat4;
use gltf_json as json;

/// Per skin: whether a mesh drawn with it has a point with no weight.
pub(crate) fn needs_static_joint(model: &Model) -> Vec<bool> {
    let mut needs = vec![false; model.skins.len()];
    for m in &model.meshes {
        let Some(s) = m.skin.filter(|&s| s < needs.len()) else {
            continue;
        };
        if m.influences.is_empty() {
            continue;
        }
        let joints = model.skins[s].joints.len();
        let used: Vec<bool> = {
            let mut u = vec![false; m.points.len()];
            for c in &m.corners {
                if let Some(x) = u.get_mut(c.point as usize) {
                    *x = true;
                }
            }
            u
        };
        let unweighted = m.influences.iter().enumerate().any(|(p, inf)| {
            used.get(p).copied().unwrap_or(false)
                && !inf
                    .joints
                    .iter()
                    .zip(inf.weights)
                    .any(|(&j, w)| w > 0.0 && (j as usize) < joints)
        });
        needs[s] |= unweighted || m.influences.len() < m.points.len();
    }
    needs
}

/// Affine `m` with its translation multiplied by `scale` (a uniform scale `S` applied
/// to the whole scene turns every matrix `M` into `S · M · S⁻¹`), its last row exactly
/// (0, 0, 0, 1) as glTF requires of inverse bind matrices (products of floats drift).
pub fn scaled(m: Mat4, scale: f32) -> Mat4 {
    let mut out = m;
    out.w_axis.x *= scale;
    out.w_axis.y *= scale;
    out.w_axis.z *= scale;
    out.x_axis.w = 0.0;
    out.y_axis.w = 0.0;
    out.z_axis.w = 0.0;
    out.w_axis.w = 1.0;
    out
}

/// Exports every skin with joints; `static_node` is the extra joint's node for the skins
/// that [`needs_static_joint`] marked. Returns per model skin its glTF skin.
pub(crate) fn export_skins(
    doc: &mut Document,
    model: &Model,
    scale: f32,
    needs_static: &[bool],
    static_node: Option<json::Index<json::Node>>,
) -> Vec<Option<json::Index<json::Skin>>> {
    model
        .skins
        .iter()
        .enumerate()
        .map(|(s, skin)| {
            if skin.joints.is_empty() {
                return None;
            }
            let mut joints: Vec<json::Index<json::Node>> = skin
                .joints
                .iter()
                .map(|&j| json::Index::new(j as u32))
                .collect();
            let mut matrices: Vec<[f32; 16]> = skin
                .inverse_bind
                .iter()
                .map(|m| scaled(*m, scale).to_cols_array())
                .collect();
            matrices.resize(joints.len(), Mat4::IDENTITY.to_cols_array());
            if needs_static.get(s).copied().unwrap_or(false)
                && let Some(node) = static_node
            {
                joints.push(node);
                matrices.push(Mat4::IDENTITY.to_cols_array());
            }
            let ibm = doc.floats(&matrices, false, false);
            Some(doc.root.push(json::Skin {
                extensions: None,
                extras: None,
                inverse_bind_matrices: Some(ibm),
                joints,
                name: Some(skin.name.clone()),
                skeleton: None,
            }))
        })
        .collect()
}
