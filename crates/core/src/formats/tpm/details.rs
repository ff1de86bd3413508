//! What a TPM file says about itself, kept in its own terms: the panel's lines (the
//! `fileinfo` fields, material maps, bone extras) and the `"tpm"` object of `info --json`
//! (Z up, degrees, raw values).

use super::blocks::{FileInfo, TpmFile};
use super::build::bone_target;
use crate::model::details::{TpmBone, TpmDetails, TpmInstance, TpmMaterial, TpmMesh, TpmSkin};
use crate::model::{Details, Model};

/// Panel lines: the fileinfo fields, material maps, bone extras.
pub(super) fn properties(model: &mut Model, file: &TpmFile) {
    let FileInfo { fields, .. } = &file.fileinfo;
    for (key, value) in fields {
        let label = match key.to_ascii_lowercase().as_str() {
            "formatversion" => "Format version".to_string(),
            "name" => "Name".to_string(),
            "version" => "Version".to_string(),
            "source" => "Source".to_string(),
            "date" => "Date".to_string(),
            "comments" => "Comments".to_string(),
            _ => key.clone(),
        };
        model.property(label, value.as_str());
    }
    model.property(
        "Contents",
        format!(
            "{} materials, {} meshes, {} skins, {} instances, {} bones",
            file.materials.len(),
            file.meshes.iter().filter(|m| !m.skin).count(),
            file.meshes.iter().filter(|m| m.skin).count(),
            file.instances.len(),
            file.bones.len()
        ),
    );
    for m in &file.materials {
        let maps: Vec<String> = [
            ("colour", &m.colormap),
            ("bump", &m.bumpmap),
            ("opacity", &m.opacitymap),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k} {v}")))
        .collect();
        let value = if maps.is_empty() {
            "no maps".to_string()
        } else {
            maps.join(", ")
        };
        model.property(format!("Material \"{}\"", m.name), value);
    }
    for b in file.bones.iter().filter(|b| !b.extra.is_empty()) {
        let extra: Vec<String> = b.extra.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        model.property(format!("Bone \"{}\"", b.name), extra.join(", "));
    }
}

/// The `"tpm"` object of `info --json`, in file terms (Z up, degrees, raw values).
pub(super) fn details(
    file: &TpmFile,
    face_materials: &[Vec<String>],
    instance_shown: &[bool],
    skins: Vec<TpmSkin>,
) -> Details {
    let materials = file
        .materials
        .iter()
        .map(|m| TpmMaterial {
            name: m.name.clone(),
            line: m.line,
            colormap: m.colormap.clone(),
            bumpmap: m.bumpmap.clone(),
            opacitymap: m.opacitymap.clone(),
        })
        .collect();
    let meshes = file
        .meshes
        .iter()
        .zip(face_materials)
        .map(|(m, faces)| TpmMesh {
            name: m.name.clone(),
            line: m.line,
            skin: m.skin,
            materials: m.materials.iter().map(|(n, _)| n.clone()).collect(),
            vertices: m.positions.len(),
            uvs: m.uvs.len(),
            normals: m.normals.len(),
            triangles: m.faces.len(),
            face_materials: faces.clone(),
        })
        .collect();
    let instances = file
        .instances
        .iter()
        .zip(instance_shown)
        .map(|(i, &shown)| TpmInstance {
            name: i.name.clone(),
            line: i.line,
            mesh: i.mesh.clone(),
            position: i.position,
            rotation: i.rotation,
            scale: i.scale,
            shown,
        })
        .collect();
    let bones = file
        .bones
        .iter()
        .map(|b| {
            let target = bone_target(&b.name);
            TpmBone {
                name: b.name.clone(),
                line: b.line,
                skin: target.map(|t| t.0.to_owned()),
                index: target.map(|t| t.1),
                position: b.position,
                rotation: b.rotation,
                properties: b.extra.clone(),
            }
        })
        .collect();
    Details::Tpm(TpmDetails {
        fileinfo: file.fileinfo.fields.iter().cloned().collect(),
        materials,
        meshes,
        instances,
        bones,
        skins,
    })
}
