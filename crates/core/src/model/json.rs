//! The common-schema JSON of a model (`vitrine info --json`): the model's own shape, the
//! same for every format. Positions and matrices are converted back to the file's own
//! axes so they can be compared with the modder's editor. Pure: the command line prints
//! it, the fuzz targets check that every loaded model serialises.

use super::{Clip, Model, Pose};
use serde_json::{Value, json};
use std::path::Path;

/// What to add beyond the summary.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonOptions {
    /// Every node's model-space matrix (`"world"`, 16 floats, column-major, file axes).
    pub world: bool,
    /// Each mesh's rest positions (`"positions"`, mesh-local, file order).
    pub vertices: bool,
    /// Pose the world matrices at this clip and time in seconds (default: rest pose).
    pub at: Option<(usize, f32)>,
}

/// The `clips` entries of a clip's motions: each motion's range as a clip of its own,
/// with the clip's keyframes and events inside the range, frames relative to its start.
fn motion_clips(c: &Clip) -> Vec<Value> {
    c.motions
        .iter()
        .map(|m| {
            let end = m.end.max(m.start);
            let inside = |f: u32| (m.start..=end).contains(&f);
            json!({
                "name": m.name,
                "frames": end - m.start + 1,
                "fps": c.fps,
                "loop": c.looping,
                "keyframes": c.keyframes.iter().filter(|&&f| inside(f)).map(|f| f - m.start).collect::<Vec<_>>(),
                "events": c.events.iter().filter(|e| inside(e.frame))
                    .map(|e| json!({"frame": e.frame - m.start, "text": e.text})).collect::<Vec<_>>(),
                "motion_of": c.name,
                "start": m.start,
            })
        })
        .collect()
}

/// Parses `CLIP:FRAME` into a clip index and a time in seconds; CLIP may also name a
/// motion (FRAME then counts from the motion's first frame).
pub fn parse_at(model: &Model, at: &str) -> Result<(usize, f32), String> {
    let (name, frame) = at
        .rsplit_once(':')
        .ok_or_else(|| format!("--at {at}: expected CLIP:FRAME"))?;
    let frame: f32 = frame
        .parse()
        .map_err(|_| format!("--at {at}: {frame} is not a frame number"))?;
    if model.clip_index(name).is_none() {
        for (i, c) in model.clips.iter().enumerate() {
            if let Some(m) = c.motions.iter().find(|m| m.name == name) {
                return Ok((i, c.frame_time(m.start as f32 + frame)));
            }
        }
    }
    let clip = model.clip_index(name).ok_or_else(|| {
        let names: Vec<_> = model.clips.iter().map(|c| c.name.as_str()).collect();
        format!("--at {at}: no clip {name:?} (clips: {names:?})")
    })?;
    Ok((clip, model.clips[clip].frame_time(frame)))
}

fn vec3(v: glam::Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

/// The common-schema JSON object of one model read from `path` (`info --json`).
pub fn model_json(model: &Model, path: &Path, options: &JsonOptions) -> Value {
    let axes = &model.axes;
    let pose = match options.at {
        Some((clip, time)) => Pose::sample(model, Some(clip), time, 0),
        None => Pose::rest(model),
    };
    let nodes: Vec<Value> = model
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut o = json!({"name": n.name, "parent": n.parent});
            if options.world {
                o["world"] = json!(axes.matrix_to_file(pose.world[i]).to_cols_array());
            }
            o
        })
        .collect();
    let meshes: Vec<Value> = model
        .meshes
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut o = json!({
                "name": m.name,
                "node": model.mesh_node(i),
                "vertices": m.points.len(),
                "triangles": m.triangle_count(),
            });
            if options.vertices {
                let pts: Vec<Value> = m
                    .points
                    .iter()
                    .map(|p| vec3(axes.point_to_file(*p)))
                    .collect();
                o["positions"] = Value::Array(pts);
            }
            o
        })
        .collect();
    let textures: Vec<Value> = model
        .textures
        .iter()
        .map(|t| json!({"role": t.role, "name": t.name, "resolved": t.resolved.is_some()}))
        .collect();
    // One entry per clip, then one per named motion (PET MOTI ranges of a clip's timeline).
    let clips: Vec<Value> = model
        .clips
        .iter()
        .map(|c| {
            let mut o = json!({
                "name": c.name,
                "frames": c.frame_count,
                "fps": c.fps,
                "loop": c.looping,
                "keyframes": c.keyframes,
                "events": c.events.iter().map(|e| json!({"frame": e.frame, "text": e.text})).collect::<Vec<_>>(),
            });
            if !c.motions.is_empty() {
                o["motions"] = c
                    .motions
                    .iter()
                    .map(|m| json!({"name": m.name, "start": m.start, "end": m.end, "next": m.next}))
                    .collect();
            }
            o
        })
        .chain(model.clips.iter().flat_map(motion_clips))
        .collect();
    let connectors: Vec<Value> = model
        .connectors
        .iter()
        .map(|c| {
            json!({"node": c.node, "raw": c.raw, "position": vec3(axes.point_to_file(c.position))})
        })
        .collect();
    let warnings: Vec<Value> = model
        .diagnostics
        .iter()
        .map(|d| Value::String(d.display_with(&crate::files::file_name(path))))
        .collect();
    let mut o = json!({
        "path": path,
        "format": model.format.name(),
        "version": model.version,
        "axes": axes.name,
        "nodes": nodes,
        "meshes": meshes,
        "textures": textures,
        "clips": clips,
        "connectors": connectors,
        "warnings": warnings,
    });
    o[model.format.name()] = model.details.to_json();
    o
}
