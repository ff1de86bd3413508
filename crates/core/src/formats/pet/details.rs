//! What a PET file says about itself, in file terms: the panel's lines and the `"pet"`
//! object of `info --json` (the file's own axes, as stored).

use super::Kind;
use super::build::frame_of;
use super::events::CollRecord;
use super::sections::PetFile;
use crate::model::details::{
    PetAnim, PetBone, PetCollision, PetDetails, PetFanm, PetFrame, PetMesh, PetMotion, PetTexture,
};
use crate::model::{FileAxes, Model};

fn colour_hex(argb: u32) -> String {
    format!("#{argb:08X}")
}

/// The `"pet"` object of `info --json` for one file (file axes).
pub(crate) fn file_details(file: &PetFile, name: &str) -> PetDetails {
    let mesh = file.mesh.as_ref().map(|m| {
        let mut weight_pairs = std::collections::BTreeMap::<String, usize>::new();
        for v in &m.vertices {
            *weight_pairs.entry(v.stored_pairs.to_string()).or_default() += 1;
        }
        PetMesh {
            uv_sets: m.uv_sets,
            vertices: m.vertices.len(),
            triangles: m.polygons.len(),
            weight_pairs,
            submeshes: m.submesh_records.clone(),
        }
    });
    let anim = file.anim.as_ref().map(|a| PetAnim {
        anim_layout: a.layout.name(),
        anim_tracks: a.tracks.iter().map(|t| t.bone).collect(),
        timeline_frames: frame_of(a.end_time()).saturating_add(1),
    });
    PetDetails {
        file: name.to_owned(),
        kind: file.kind.extension(),
        version: file.version_string(),
        sections: file.sections.iter().map(|s| s.tag.clone()).collect(),
        axes: FileAxes::y_up_left_handed().name,
        bones: file
            .bones
            .iter()
            .flat_map(|b| &b.bones)
            .map(|b| PetBone {
                name: b.name.clone(),
                parent: b.parent,
            })
            .collect(),
        bone_matrices: file
            .bones
            .as_ref()
            .is_some_and(|b| b.bones.iter().all(|b| b.matrix.is_some())),
        textures: file
            .textures
            .iter()
            .map(|t| PetTexture {
                name: t.name.clone(),
                flags: t.flags,
                group: t.group,
                colour: colour_hex(t.colour),
            })
            .collect(),
        motions: file
            .motions
            .iter()
            .map(|m| PetMotion {
                name: m.name.clone(),
                start: m.start,
                end: m.end,
                next: m.next.clone(),
                blend_method: m.blend_method.clone(),
                blend_time: m.blend_time,
                top_version: m.top_version.clone(),
            })
            .collect(),
        fram: file
            .frames
            .iter()
            .map(|f| PetFrame {
                frame: f.frame,
                scripts: f.scripts.clone(),
                check: f.check,
            })
            .collect(),
        collision_boxes: file.collision.iter().map(collision).collect(),
        fanm: file
            .fanm
            .iter()
            .map(|f| PetFanm {
                group: f.group,
                name: f.name.clone(),
                material: f.material.clone(),
            })
            .collect(),
        mesh,
        anim,
    }
}

fn collision(c: &CollRecord) -> PetCollision {
    PetCollision {
        name: c.name.clone(),
        bone: c.bone.clone(),
        shape: c.shape,
        show: c.show,
        options: c.options.clone(),
        min: c.min.to_array(),
        max: c.max.to_array(),
    }
}

/// Panel lines for one file.
pub(crate) fn file_properties(model: &mut Model, file: &PetFile, name: &str) {
    let mut parts = vec![format!(
        "{} v{}",
        file.kind.extension(),
        file.version_string()
    )];
    parts.push(format!(
        "sections {}",
        file.sections
            .iter()
            .map(|s| s.tag.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    ));
    model.property(name, parts.join(", "));
    if let Some(a) = &file.anim {
        model.property(
            format!("{name} ANIM"),
            format!("{} tracks, {} layout", a.tracks.len(), a.layout.name()),
        );
    }
    if !file.fanm.is_empty() {
        let list: Vec<String> = file
            .fanm
            .iter()
            .map(|f| format!("{} -> {} (group {})", f.name, f.material, f.group))
            .collect();
        model.property(format!("{name} FANM"), list.join("; "));
    }
    if file.kind == Kind::Apet && file.bones.is_some() {
        model.property(
            format!("{name} BONE"),
            "names and parents only (no matrices in .apet)",
        );
    }
}
