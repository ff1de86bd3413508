//! glTF animations → clips: node translation / rotation / scale channels as tracks, a
//! `STEP` scale channel that drops to zero as a visibility track (how the exporter
//! writes hidden frames), the exporter's clip extras (frame rate, frames, loop, events,
//! keyframes), and texture-frame animation from the PIE facts or material extras.
//!
//! A PIE level loops its own `ANIMOBJECT` (`frames × time`), which glTF cannot say: the
//! exporter unrolls its keys over the clip, with a closing key where a linear track
//! blends back to its first. Where the PIE facts give a level's frames and time and the
//! level's keys are the unrolled ones (the first `frames` at `k × time`), they are folded
//! back to one period ([`fold_periods`]), so the level is the ANIMOBJECT it was.

use super::data::{self, Buffer};
use crate::formats::{ErrorKind, LoadError};
use crate::model::{
    Clip, EventMarker, Interpolation, Location, Model, NodeKind, NodeTrack, TextureFrameTrack,
    Track, VisibilityTrack,
};
use glam::{Quat, Vec2, Vec3};
use gltf::animation::{Interpolation as GltfInterpolation, Property};
use serde_json::Value;
use std::collections::HashMap;

/// Blender's default frame rate, for clips whose file does not say.
const DEFAULT_FPS: f32 = 24.0;

fn invalid(message: String) -> LoadError {
    LoadError::new(ErrorKind::Invalid, Location::File, message)
}

/// Adds a clip per glTF animation (`nodes` maps glTF node → model node; `undo` scales
/// translations), then the texture-frame tracks the PIE facts describe.
pub fn clips(
    doc: &gltf::Document,
    buffers: &[Buffer],
    nodes: &HashMap<usize, usize>,
    undo: f32,
    facts: &Value,
    model: &mut Model,
) -> Result<(), LoadError> {
    for a in doc.animations() {
        let x = super::extras(a.extras());
        let name = a
            .name()
            .map_or_else(|| format!("animation {}", a.index()), str::to_string);
        let mut tracks: HashMap<usize, NodeTrack> = HashMap::new();
        let mut visibility = Vec::new();
        let mut end: f32 = 0.0;
        let mut skipped = 0;
        for ch in a.channels() {
            let Some(&node) = nodes.get(&ch.target().node().index()) else {
                skipped += 1;
                continue;
            };
            let s = ch.sampler();
            let what = |m: String| invalid(format!("animation {name:?}: {m}"));
            let times = data::read(&s.input(), buffers).map_err(what)?.data;
            let values = data::read(&s.output(), buffers).map_err(what)?;
            let cubic = s.interpolation() == GltfInterpolation::CubicSpline;
            // Cubic splines store (in-tangent, value, out-tangent) per key: keep values.
            let per_key = if cubic { 3 } else { 1 };
            if times.is_empty() || values.len() != times.len() * per_key {
                return Err(what(format!(
                    "channel of node {}: {} keys but {} values",
                    ch.target().node().index(),
                    times.len(),
                    values.len()
                )));
            }
            if times.windows(2).any(|w| w[1] < w[0]) {
                return Err(what("key times are not ascending".into()));
            }
            end = end.max(*times.last().unwrap_or(&0.0));
            let interpolation = match s.interpolation() {
                GltfInterpolation::Step => Interpolation::Step,
                _ => Interpolation::Linear,
            };
            let value = |k: usize| k * per_key + usize::from(cubic);
            let track = tracks.entry(node).or_insert_with(|| NodeTrack::new(node));
            match ch.target().property() {
                Property::Translation => {
                    let keys = (0..times.len())
                        .map(|k| (times[k], Vec3::from(values.get::<3>(value(k))) * undo))
                        .collect();
                    track.translation = Some(Track::new(keys, interpolation));
                }
                Property::Rotation => {
                    let keys = (0..times.len())
                        .map(|k| {
                            let q = Quat::from_array(values.get::<4>(value(k)));
                            let q = if q.length_squared() > 0.0 {
                                q.normalize()
                            } else {
                                Quat::IDENTITY
                            };
                            (times[k], q)
                        })
                        .collect();
                    track.rotation = Some(Track::new(keys, interpolation));
                }
                Property::Scale => {
                    let keys: Vec<(f32, Vec3)> = (0..times.len())
                        .map(|k| (times[k], Vec3::from(values.get::<3>(value(k)))))
                        .collect();
                    let hides = keys.iter().any(|(_, s)| *s == Vec3::ZERO);
                    if hides && interpolation == Interpolation::Step {
                        // Hidden frames: zero scale while hidden, the scale while shown.
                        visibility.push(VisibilityTrack {
                            node,
                            times: keys.iter().map(|k| k.0).collect(),
                            visible: keys.iter().map(|k| k.1 != Vec3::ZERO).collect(),
                            period: None,
                        });
                        let rest = model.nodes[node].scale;
                        let shown: Vec<_> = keys.iter().filter(|k| k.1 != Vec3::ZERO).collect();
                        if shown.iter().all(|k| k.1 == rest) {
                            continue;
                        }
                        let keys = keys
                            .iter()
                            .map(|&(t, s)| (t, if s == Vec3::ZERO { rest } else { s }))
                            .collect();
                        track.scale = Some(Track::new(keys, interpolation));
                    } else {
                        track.scale = Some(Track::new(keys, interpolation));
                    }
                }
                Property::MorphTargetWeights => skipped += 1,
            }
        }
        if skipped > 0 {
            model.warn(
                Location::File,
                format!(
                    "animation {name:?}: {skipped} channel(s) move nothing this viewer shows \
                     (connectors, shadow meshes, morph weights); not read"
                ),
            );
        }
        let fps = x["fps"]
            .as_f64()
            .map(|f| f as f32)
            .filter(|f| f.is_finite() && *f > 0.0)
            .unwrap_or(DEFAULT_FPS);
        let frames = x["frames"]
            .as_u64()
            .map(|f| f.min(u32::MAX as u64) as u32)
            .unwrap_or_else(|| (end * fps).round() as u32 + 1);
        let mut clip = Clip::new(
            x["clip"].as_str().map_or(name, str::to_string),
            fps,
            frames.max(1),
            x["loop"].as_bool().unwrap_or(true),
        );
        let mut node_tracks: Vec<NodeTrack> = tracks.into_values().collect();
        node_tracks.sort_by_key(|t| t.node);
        node_tracks
            .retain(|t| t.translation.is_some() || t.rotation.is_some() || t.scale.is_some());
        clip.node_tracks = node_tracks;
        visibility.sort_by_key(|v: &VisibilityTrack| v.node);
        clip.visibility = visibility;
        if let Some(events) = x["events"].as_array() {
            clip.events = events
                .iter()
                .filter_map(|e| {
                    Some(EventMarker {
                        frame: u32::try_from(e["frame"].as_u64()?).ok()?,
                        text: e["text"].as_str()?.to_string(),
                    })
                })
                .collect();
        }
        if let Some(k) = x["keyframes"].as_array() {
            clip.keyframes = k
                .iter()
                .filter_map(|f| u32::try_from(f.as_u64()?).ok())
                .collect();
        }
        model.clips.push(clip);
    }
    fold_periods(facts, model);
    texture_frames(facts, model);
    Ok(())
}

/// Each level's keys folded back to its ANIMOBJECT period, as the PIE facts give it
/// (`levels[i].animation`: frames, ms per frame).
fn fold_periods(facts: &Value, model: &mut Model) {
    let Some(levels) = facts["pie"]["levels"].as_array() else {
        return;
    };
    let level_nodes: Vec<usize> = (0..model.nodes.len())
        .filter(|&n| model.nodes[n].kind == NodeKind::Level)
        .collect();
    for (level, &node) in levels.iter().zip(&level_nodes) {
        let a = &level["animation"];
        let (Some(frames), Some(ms)) = (a["frames"].as_u64(), a["ms_per_frame"].as_f64()) else {
            continue;
        };
        let (frames, step) = (frames as usize, ms as f32 / 1000.0);
        if frames == 0 || !(step.is_finite() && step > 0.0) {
            continue;
        }
        let unrolled = |times: &[f32]| {
            times.len() >= frames
                && (0..frames).all(|k| (times[k] - k as f32 * step).abs() <= step * 1e-3)
        };
        for clip in &mut model.clips {
            let track = clip.node_tracks.iter_mut().find(|t| t.node == node);
            let vis = clip.visibility.iter_mut().find(|v| v.node == node);
            let channels_unrolled = track.as_ref().is_none_or(|t| {
                t.period.is_none()
                    && [
                        t.translation.as_ref().map(|k| &k.times),
                        t.rotation.as_ref().map(|k| &k.times),
                        t.scale.as_ref().map(|k| &k.times),
                    ]
                    .into_iter()
                    .flatten()
                    .all(|times| unrolled(times))
            });
            let vis_unrolled = vis
                .as_ref()
                .is_none_or(|v| v.period.is_none() && unrolled(&v.times));
            if !(channels_unrolled && vis_unrolled) || (track.is_none() && vis.is_none()) {
                continue;
            }
            let period = Some(frames as f32 * step);
            if let Some(t) = track {
                fold(&mut t.translation, frames);
                fold(&mut t.rotation, frames);
                fold(&mut t.scale, frames);
                t.period = period;
            }
            if let Some(v) = vis {
                v.times.truncate(frames);
                v.visible.truncate(frames);
                v.period = period;
            }
        }
    }
}

/// The first `frames` keys of `track`.
fn fold<T>(track: &mut Option<Track<T>>, frames: usize) {
    if let Some(t) = track {
        t.times.truncate(frames);
        t.values.truncate(frames);
    }
}

/// Texture-frame tracks from the PIE facts (`levels[i].texture_animation`), for the
/// meshes of level `i` whose corners are marked animated.
fn texture_frames(facts: &Value, model: &mut Model) {
    let Some(levels) = facts["pie"]["levels"].as_array() else {
        return;
    };
    let level_meshes: Vec<Option<usize>> = model
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Level)
        .map(|n| n.mesh)
        .collect();
    let mut tracks = Vec::new();
    for (level, mesh) in levels.iter().zip(level_meshes) {
        let t = &level["texture_animation"];
        let (Some(mesh), Some(frames), Some(ms)) =
            (mesh, t["frames"].as_u64(), t["ms_per_frame"].as_f64())
        else {
            continue;
        };
        let size = Vec2::new(
            t["width"].as_f64().unwrap_or(0.0) as f32,
            t["height"].as_f64().unwrap_or(0.0) as f32,
        );
        // A legacy team-colour block (the frame is the team): its corners draw with the
        // exporter's animated material copy, their UVs the polygons' own.
        let team_colour = t["team_colour"] == true;
        tracks.push(TextureFrameTrack {
            mesh,
            frames: frames.min(u32::MAX as u64) as u32,
            ms_per_frame: ms as f32,
            frame_size: size,
            team_colour,
        });
    }
    if tracks.is_empty() {
        return;
    }
    if model.clips.is_empty() {
        let longest = tracks
            .iter()
            .map(|t| t.frames as f32 * t.ms_per_frame / 1000.0)
            .fold(0.0, f32::max);
        let fps = 1000.0 / tracks[0].ms_per_frame.max(1.0);
        let frames = (longest * fps).round().max(1.0) as u32;
        model
            .clips
            .push(Clip::new("texture animation", fps, frames, true));
    }
    model.clips[0].texture_frames = tracks;
}
