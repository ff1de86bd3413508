//! The node hierarchy: glTF node `i` is model node `i` (name, rest translation ×
//! scale, rotation, scale, mesh, skin); then one empty node per PIE connector
//! (`connector 1…n`, a child of its level, at its position, the file's numbers in
//! `extras`); then the static joint some skins need; then one node `shadow` per shadow
//! mesh (a child of its level, with a mesh `shadow` drawn fully transparent). The
//! scene's `extras` hold what the model says beyond geometry: format, panel properties,
//! event models, diagnostics, and for a PIE its facts (`"pie"`: TYPE flags,
//! INTERPOLATE, per-level flags, ANIMOBJECT timing, texture animation).

use super::document::{Document, extras};
use crate::model::{Location, Model};
use gltf_json as json;
use serde_json::json;

/// Exports the nodes and the scene. `meshes[m]`/`skinned[m]` per model mesh,
/// `skins[s]` per model skin; `static_joint` adds the extra joint node. Returns the
/// static joint's node.
pub(crate) fn export_nodes(
    doc: &mut Document,
    model: &Model,
    scale: f32,
    meshes: &[Option<json::Index<json::Mesh>>],
    skinned: &[bool],
    skins: &[Option<json::Index<json::Skin>>],
    static_joint: bool,
) -> Option<json::Index<json::Node>> {
    let n = model.nodes.len();
    let mut children: Vec<Vec<json::Index<json::Node>>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, node) in model.nodes.iter().enumerate() {
        match node.parent.filter(|&p| p < i) {
            Some(p) => children[p].push(json::Index::new(i as u32)),
            None => roots.push(json::Index::new(i as u32)),
        }
    }
    // Connector nodes come after the model's nodes.
    for (k, c) in model.connectors.iter().enumerate() {
        if c.node < n {
            children[c.node].push(json::Index::new((n + k) as u32));
        }
    }
    for (i, node) in model.nodes.iter().enumerate() {
        let mesh = node.mesh.and_then(|m| meshes.get(m).copied().flatten());
        let skin = node
            .mesh
            .filter(|&m| skinned.get(m).copied().unwrap_or(false))
            .and_then(|m| model.meshes[m].skin)
            .and_then(|s| skins.get(s).copied().flatten());
        let rotation = super::animations::unit_quat(node.rotation);
        let kids = std::mem::take(&mut children[i]);
        doc.root.push(json::Node {
            camera: None,
            children: (!kids.is_empty()).then_some(kids),
            extensions: None,
            extras: extras(&json!({"kind": node.kind})),
            matrix: None,
            mesh,
            name: Some(node.name.clone()),
            rotation: (rotation != glam::Quat::IDENTITY)
                .then_some(json::scene::UnitQuaternion(rotation.to_array())),
            scale: (node.scale != glam::Vec3::ONE).then_some(node.scale.to_array()),
            translation: (node.translation != glam::Vec3::ZERO)
                .then_some((node.translation * scale).to_array()),
            skin: if mesh.is_some() { skin } else { None },
            weights: None,
        });
    }
    for (k, c) in model.connectors.iter().enumerate() {
        let p = c.position * scale;
        let idx = doc.root.push(json::Node {
            camera: None,
            children: None,
            extensions: None,
            extras: extras(&json!({"connector": k + 1, "file_xyz": c.raw})),
            matrix: None,
            mesh: None,
            name: Some(format!("connector {}", k + 1)),
            rotation: None,
            scale: None,
            translation: (p != glam::Vec3::ZERO).then_some(p.to_array()),
            skin: None,
            weights: None,
        });
        if c.node >= n {
            roots.push(idx);
        }
    }
    let static_node = static_joint.then(|| {
        let idx = doc.root.push(json::Node {
            camera: None,
            children: None,
            extensions: None,
            extras: extras(&json!({"vitrine": "holds skinned points that no bone moves"})),
            matrix: None,
            mesh: None,
            name: Some("static skin joint".into()),
            rotation: None,
            scale: None,
            translation: None,
            skin: None,
            weights: None,
        });
        roots.push(idx);
        idx
    });

    for shadow in &model.shadow_meshes {
        if let Some(idx) = shadow_node(doc, shadow, scale) {
            if shadow.node < n {
                let parent = &mut doc.root.nodes[shadow.node];
                parent.children.get_or_insert_with(Vec::new).push(idx);
            } else {
                roots.push(idx);
            }
        }
    }

    let properties: Vec<_> = model
        .properties
        .iter()
        .map(|p| json!({"key": p.key, "value": p.value}))
        .collect();
    let events: Vec<_> = model
        .events
        .iter()
        .map(|e| json!({"kind": e.kind, "name": e.kind_name(), "file": e.file}))
        .collect();
    let mut facts = json!({
        "format": model.format.name(),
        "version": model.version,
        "file_axes": model.axes.name,
        "scale": scale,
        "properties": properties,
    });
    if !events.is_empty() {
        facts["events"] = json!(events);
    }
    // TYPE flags, INTERPOLATE, per-level flags, ANIMOBJECT timing and texture
    // animation, for the way back to PIE (a glTF that came from a PIE keeps them).
    use crate::model::details::Details;
    match &model.details {
        Details::Pie(p) => facts["pie"] = json!(p),
        Details::Gltf(g) => {
            if let Some(p) = &g.pie {
                facts["pie"] = json!(p);
            }
            if let Some(s) = &g.source {
                facts["format"] = json!(s.format);
            }
        }
        _ => {}
    }
    if !model.diagnostics.is_empty() {
        facts["warnings"] = json!(
            model
                .diagnostics
                .iter()
                .map(|d| match d.location {
                    Location::File => d.message.clone(),
                    Location::Line(l) => format!("line {l}: {}", d.message),
                    Location::Offset(o) => format!("byte 0x{o:x}: {}", d.message),
                })
                .collect::<Vec<_>>()
        );
    }
    let scene = doc.root.push(json::Scene {
        extensions: None,
        extras: extras(&facts),
        name: model.nodes.first().map(|n| n.name.clone()),
        nodes: roots,
    });
    doc.root.scene = Some(scene);
    static_node
}

/// A shadow mesh as a node `shadow` (a child of its level) with a mesh `shadow` whose
/// material is fully transparent: other programs keep it without drawing it, and the
/// loader reads it back as the level's shadow mesh.
fn shadow_node(
    doc: &mut Document,
    shadow: &crate::model::ShadowMesh,
    scale: f32,
) -> Option<json::Index<json::Node>> {
    use json::validation::Checked::Valid;
    if shadow.triangles.is_empty() || shadow.points.is_empty() {
        return None;
    }
    let n = shadow.points.len() as u32;
    if shadow.triangles.iter().flatten().any(|&i| i >= n) {
        return None;
    }
    let positions: Vec<[f32; 3]> = shadow
        .points
        .iter()
        .map(|p| (*p * scale).to_array())
        .collect();
    let indices: Vec<u32> = shadow.triangles.iter().flatten().copied().collect();
    let mut attributes = std::collections::BTreeMap::new();
    attributes.insert(
        Valid(json::mesh::Semantic::Positions),
        doc.floats(&positions, true, true),
    );
    let material = doc.root.push(json::Material {
        alpha_mode: Valid(json::material::AlphaMode::Blend),
        name: Some("shadow (not drawn)".into()),
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            base_color_factor: json::material::PbrBaseColorFactor([0.0, 0.0, 0.0, 0.0]),
            ..Default::default()
        },
        extras: extras(&json!({"shadow": true})),
        ..Default::default()
    });
    let indices = doc.indices(&indices);
    let mesh = doc.root.push(json::Mesh {
        extensions: None,
        extras: None,
        name: Some("shadow".into()),
        primitives: vec![json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: None,
            indices: Some(indices),
            material: Some(material),
            mode: Valid(json::mesh::Mode::Triangles),
            targets: None,
        }],
        weights: None,
    });
    Some(doc.root.push(json::Node {
        camera: None,
        children: None,
        extensions: None,
        extras: extras(&json!({"shadow": true})),
        matrix: None,
        mesh: Some(mesh),
        name: Some("shadow".into()),
        rotation: None,
        scale: None,
        translation: None,
        skin: None,
        weights: None,
    }))
}
