//! Model clips → glTF animations.
//!
//! - One animation per exported clip; a clip with named motions (PangYa `MOTI`) gives
//!   one animation per motion instead, named after it, its keys shifted to start at 0.
//! - Node tracks → translation / rotation / scale channels, `LINEAR` or `STEP` as the
//!   model's interpolation. Tracks that repeat with their own period (PIE levels) are
//!   unrolled over the clip, with the key that blends the last value back into the first.
//!   Keys are the model's own, plus one at each end of the range; every value comes from
//!   the same sampler the viewer uses, so a glTF player shows what Vitrine shows at
//!   every key and interpolates between keys as it does.
//! - Visibility → a `STEP` scale channel: 0 while hidden, the node's scale while shown
//!   (merged with a scale track of the same node, sampled at every frame if that one
//!   interpolates).
//! - Texture-frame animation (PIE) → `STEP` keys of the `KHR_texture_transform` offset
//!   of the mesh's animated material copies, animated through `KHR_animation_pointer`.
//! - Clip facts (frame rate, frame count, looping, events, keyframes) → `extras`.

use super::document::{Document, extras};
use super::materials::offset_pointer;
use crate::model::{Clip, Interpolation, Model, NodeTrack, Track, VisibilityTrack};
use glam::{Quat, Vec3};
use gltf_json as json;
use json::validation::Checked::Valid;
use serde_json::json;

/// At most this many keys per channel (a 1 ms texture animation over a long clip could
/// otherwise ask for millions).
const MAX_KEYS: usize = 100_000;

/// One animation to write: a time range of one clip.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    /// Animation name (the clip's, or the motion's).
    pub name: String,
    /// Clip index.
    pub clip: usize,
    /// Range start, seconds of the clip.
    pub start: f32,
    /// Range end, seconds of the clip.
    pub end: f32,
    /// Motion index within the clip, for a motion.
    pub motion: Option<usize>,
}

/// The animations of clip `c`: its motions if it has any, else the whole clip.
pub(crate) fn plans_of_clip(model: &Model, c: usize) -> Vec<Plan> {
    let clip = &model.clips[c];
    if clip.motions.is_empty() {
        return vec![Plan {
            name: clip.name.clone(),
            clip: c,
            start: 0.0,
            end: clip_end(clip),
            motion: None,
        }];
    }
    clip.motions
        .iter()
        .enumerate()
        .map(|(i, m)| Plan {
            name: m.name.clone(),
            clip: c,
            start: clip.frame_time(m.start as f32),
            end: clip.frame_time(m.end.max(m.start) as f32),
            motion: Some(i),
        })
        .collect()
}

/// A motion of any clip named `name`, as one plan.
pub(crate) fn plan_of_motion(model: &Model, name: &str) -> Option<Plan> {
    (0..model.clips.len())
        .flat_map(|c| plans_of_clip(model, c))
        .find(|p| p.motion.is_some() && p.name == name)
}

/// Where the clip's timeline ends: its duration, or its last key if it states none.
fn clip_end(clip: &Clip) -> f32 {
    let d = clip.duration();
    if d > 0.0 {
        return d;
    }
    let node = clip.node_tracks.iter().flat_map(|t| {
        [
            t.translation.as_ref().map(Track::end),
            t.rotation.as_ref().map(Track::end),
            t.scale.as_ref().map(Track::end),
        ]
        .into_iter()
        .flatten()
    });
    let vis = clip
        .visibility
        .iter()
        .filter_map(|v| v.times.last().copied());
    node.chain(vis).fold(0.0, f32::max)
}

/// Key times (absolute, ascending) for keys at `times` repeating every `period`, within
/// `[start, end]`, with both ends included. `wrap_key`: also a key at the end of each
/// period (where a looping linear track blends back to its first key).
fn key_times(times: &[f32], period: Option<f32>, wrap_key: bool, start: f32, end: f32) -> Vec<f32> {
    let mut out = vec![start];
    let inside = |t: f32| t > start && t < end;
    match period.filter(|&p| p > 0.0) {
        Some(p) => {
            let first = (start / p).floor().max(0.0) as u64;
            let last = (end / p).ceil() as u64;
            for cycle in first..=last {
                let base = cycle as f32 * p;
                for &t in times.iter().filter(|&&t| t < p) {
                    if inside(base + t) {
                        out.push(base + t);
                    }
                }
                if wrap_key && inside(base + p) {
                    out.push(base + p);
                }
                if out.len() > MAX_KEYS {
                    break;
                }
            }
        }
        None => out.extend(times.iter().copied().filter(|&t| inside(t))),
    }
    if end > start {
        out.push(end);
    }
    out.sort_by(f32::total_cmp);
    out.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    out.truncate(MAX_KEYS);
    out
}

/// Every frame time of the clip within `[start, end]`.
fn frame_times(clip: &Clip, start: f32, end: f32) -> Vec<f32> {
    if clip.fps <= 0.0 {
        return vec![start];
    }
    let first = (start * clip.fps).ceil() as u64;
    let last = (end * clip.fps).floor() as u64;
    (first..=last.min(first + MAX_KEYS as u64))
        .map(|f| clip.frame_time(f as f32))
        .collect()
}

/// `q` normalised (identity if it has no length): the validator rejects other rotations.
pub(crate) fn unit_quat(q: Quat) -> Quat {
    let len = q.length();
    if len.is_finite() && len > 1e-6 {
        q / len
    } else {
        Quat::IDENTITY
    }
}

fn interpolation(i: Interpolation) -> json::animation::Interpolation {
    match i {
        Interpolation::Linear => json::animation::Interpolation::Linear,
        Interpolation::Step => json::animation::Interpolation::Step,
    }
}

/// Builds the channels and samplers of one animation.
struct Builder<'a> {
    doc: &'a mut Document,
    /// Range of the clip being written, seconds.
    start: f32,
    end: f32,
    channels: Vec<json::animation::Channel>,
    samplers: Vec<json::animation::Sampler>,
    pointers: Vec<(u32, String)>,
}

impl Builder<'_> {
    fn sampler<const N: usize>(
        &mut self,
        times: &[f32],
        values: &[[f32; N]],
        interp: json::animation::Interpolation,
    ) -> json::Index<json::animation::Sampler> {
        let rel: Vec<[f32; 1]> = times.iter().map(|t| [(t - self.start).max(0.0)]).collect();
        let input = self.doc.floats(&rel, true, false);
        let output = self.doc.floats(values, false, false);
        json::Index::push(
            &mut self.samplers,
            json::animation::Sampler {
                extensions: None,
                extras: None,
                input,
                interpolation: Valid(interp),
                output,
            },
        )
    }

    fn channel(
        &mut self,
        sampler: json::Index<json::animation::Sampler>,
        node: usize,
        path: json::animation::Property,
    ) {
        self.channels.push(json::animation::Channel {
            sampler,
            target: json::animation::Target {
                extensions: None,
                extras: None,
                node: json::Index::new(node as u32),
                path: Valid(path),
            },
            extensions: None,
            extras: None,
        });
    }
}

/// Scale channel values and interpolation for a node with a visibility track (and maybe
/// a scale track).
fn visibility_scale(
    clip: &Clip,
    rest_scale: Vec3,
    vis: &VisibilityTrack,
    scale: Option<(&Track<Vec3>, Option<f32>)>,
    start: f32,
    end: f32,
) -> (Vec<f32>, Vec<[f32; 3]>) {
    let mut times = key_times(&vis.times, vis.period, false, start, end);
    if let Some((track, period)) = scale {
        times.extend(key_times(&track.times, period, false, start, end));
        let varies = track.values.windows(2).any(|w| w[0] != w[1]);
        if varies && track.interpolation == Interpolation::Linear {
            times.extend(frame_times(clip, start, end));
        }
        times.sort_by(f32::total_cmp);
        times.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
        times.truncate(MAX_KEYS);
    }
    let values = times
        .iter()
        .map(|&t| {
            if !vis.sample(t) {
                return [0.0; 3];
            }
            scale
                .map_or(rest_scale, |(track, period)| track.sample(t, period))
                .to_array()
        })
        .collect();
    (times, values)
}

/// Adds the channels of one node track (and the node's visibility, if any).
fn node_channels(
    b: &mut Builder,
    model: &Model,
    clip: &Clip,
    track: Option<&NodeTrack>,
    vis: Option<&VisibilityTrack>,
    node: usize,
    scale: f32,
) {
    use json::animation::{Interpolation as I, Property};
    let (start, end) = (b.start, b.end);
    let period = track.and_then(|t| t.period);
    let keys = |times: &[f32], interp: Interpolation| {
        key_times(times, period, interp == Interpolation::Linear, start, end)
    };
    if let Some(t) = track.and_then(|t| t.translation.as_ref()) {
        let times = keys(&t.times, t.interpolation);
        let values: Vec<[f32; 3]> = times
            .iter()
            .map(|&x| (t.sample(x, period) * scale).to_array())
            .collect();
        let s = b.sampler(&times, &values, interpolation(t.interpolation));
        b.channel(s, node, Property::Translation);
    }
    if let Some(t) = track.and_then(|t| t.rotation.as_ref()) {
        let times = keys(&t.times, t.interpolation);
        let values: Vec<[f32; 4]> = times
            .iter()
            .map(|&x| unit_quat(t.sample(x, period)).to_array())
            .collect();
        let s = b.sampler(&times, &values, interpolation(t.interpolation));
        b.channel(s, node, Property::Rotation);
    }
    let scale_track = track.and_then(|t| t.scale.as_ref().map(|s| (s, period)));
    match (vis, scale_track) {
        (Some(v), s) => {
            let rest = model.nodes[node].scale;
            let (times, values) = visibility_scale(clip, rest, v, s, start, end);
            let s = b.sampler(&times, &values, I::Step);
            b.channel(s, node, Property::Scale);
        }
        (None, Some((t, period))) => {
            let times = keys(&t.times, t.interpolation);
            let values: Vec<[f32; 3]> = times
                .iter()
                .map(|&x| t.sample(x, period).to_array())
                .collect();
            let s = b.sampler(&times, &values, interpolation(t.interpolation));
            b.channel(s, node, Property::Scale);
        }
        (None, None) => {}
    }
}

/// Without `KHR_animation_pointer`: the texture-frame animation described in the
/// `extras` of each material copy it would move (`"texture_frames"`), with a warning.
fn describe_texture_frames(
    doc: &mut Document,
    model: &Model,
    tex: &crate::model::TextureFrameTrack,
    mats: &[json::Index<json::Material>],
) {
    let per_row = if tex.frame_size.x > 0.0 {
        ((1.0 / tex.frame_size.x).floor() as u32).max(1)
    } else {
        1
    };
    let facts = json!({
        "frames": tex.frames,
        "ms_per_frame": tex.ms_per_frame,
        "frame_size_uv": [tex.frame_size.x, tex.frame_size.y],
        "frames_per_row": per_row,
    });
    for m in mats {
        let mat = &mut doc.root.materials[m.value()];
        let mut extra: serde_json::Value = mat
            .extras
            .as_ref()
            .and_then(|r| serde_json::from_str(r.get()).ok())
            .unwrap_or_else(|| json!({}));
        extra["texture_frames"] = facts.clone();
        mat.extras = extras(&extra);
    }
    let mesh = model.meshes.get(tex.mesh).map_or("?", |m| m.name.as_str());
    let warning = format!(
        "texture animation of {mesh}: described in its material's extras only \
         (\"texture_frames\"); players will not animate it"
    );
    if !doc.warnings.contains(&warning) {
        doc.warnings.push(warning);
    }
}

/// Exports the animations of `plans`. `animated_materials[mesh]` are the material copies
/// whose texture offset a texture-frame track of that mesh moves; `pointer`: animate
/// it through `KHR_animation_pointer`, else describe it in their extras.
pub(crate) fn export_animations(
    doc: &mut Document,
    model: &Model,
    scale: f32,
    plans: &[Plan],
    animated_materials: &[Vec<json::Index<json::Material>>],
    pointer: bool,
) {
    for plan in plans {
        let Some(clip) = model.clips.get(plan.clip) else {
            continue;
        };
        let (start, end) = (plan.start, plan.end.max(plan.start));
        let mut b = Builder {
            doc: &mut *doc,
            start,
            end,
            channels: Vec::new(),
            samplers: Vec::new(),
            pointers: Vec::new(),
        };
        let mut done = vec![false; model.nodes.len()];
        for track in &clip.node_tracks {
            if track.node >= model.nodes.len() || std::mem::replace(&mut done[track.node], true) {
                continue;
            }
            let vis = clip.visibility.iter().find(|v| v.node == track.node);
            node_channels(&mut b, model, clip, Some(track), vis, track.node, scale);
        }
        for vis in &clip.visibility {
            if vis.node < model.nodes.len() && !std::mem::replace(&mut done[vis.node], true) {
                node_channels(&mut b, model, clip, None, Some(vis), vis.node, scale);
            }
        }
        for tex in clip.texture_frames.iter().filter(|t| !t.team_colour) {
            let Some(mats) = animated_materials.get(tex.mesh).filter(|m| !m.is_empty()) else {
                continue;
            };
            if tex.ms_per_frame <= 0.0 || tex.frames < 2 {
                continue;
            }
            if !pointer {
                describe_texture_frames(b.doc, model, tex, mats);
                continue;
            }
            let step = tex.ms_per_frame / 1000.0;
            let first = (start / step).floor() as u64;
            let last = ((end / step).ceil() as u64).min(first + MAX_KEYS as u64);
            let times: Vec<f32> = (first..=last)
                .map(|k| (k as f32 * step).clamp(start, end.max(start)))
                .collect::<Vec<_>>();
            let mut times = times;
            times.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
            let values: Vec<[f32; 2]> = times
                .iter()
                .map(|&t| tex.offset(tex.frame_at(t, 0)).to_array())
                .collect();
            let s = b.sampler(&times, &values, json::animation::Interpolation::Step);
            for m in mats {
                b.pointers.push((s.value() as u32, offset_pointer(*m)));
            }
        }
        if b.channels.is_empty() && b.pointers.is_empty() {
            doc.warnings.push(format!(
                "animation {}: nothing moves in it; not exported",
                plan.name
            ));
            continue;
        }
        let mut facts = json!({
            "clip": clip.name,
            "fps": clip.fps,
            "frames": clip.frame_count,
            "loop": clip.looping,
        });
        let in_range = |f: u32| {
            let t = clip.frame_time(f as f32);
            t >= start - 1e-6 && t <= end + 1e-6
        };
        let first_frame = (start * clip.fps).round() as u32;
        let events: Vec<_> = clip
            .events
            .iter()
            .filter(|e| in_range(e.frame))
            .map(|e| json!({"frame": e.frame - first_frame, "text": e.text}))
            .collect();
        if !events.is_empty() {
            facts["events"] = json!(events);
        }
        let keyframes: Vec<u32> = clip
            .keyframes
            .iter()
            .filter(|&&f| in_range(f))
            .map(|f| f - first_frame)
            .collect();
        if !keyframes.is_empty() {
            facts["keyframes"] = json!(keyframes);
        }
        if let Some(m) = plan.motion.and_then(|m| clip.motions.get(m)) {
            facts["motion"] = json!({
                "start": m.start, "end": m.end, "next": m.next, "blend_time": m.blend_time,
            });
        }
        let (channels, samplers, pointers) = (b.channels, b.samplers, b.pointers);
        doc.root.push(json::Animation {
            extensions: None,
            extras: extras(&facts),
            channels,
            name: Some(plan.name.clone()),
            samplers,
        });
        doc.pointer_channels.push(pointers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periodic_keys_unroll_over_the_range_with_the_wrap_key() {
        // Keys at 0 and 0.5 s repeating every 1 s, clip 0..2.5 s.
        let t = key_times(&[0.0, 0.5], Some(1.0), true, 0.0, 2.5);
        assert_eq!(t, vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5]);
        // A motion's sub-range keeps its ends.
        let t = key_times(&[0.0, 0.5], Some(1.0), false, 0.25, 1.75);
        assert_eq!(t, vec![0.25, 0.5, 1.0, 1.5, 1.75]);
        // Without a period, keys past the end are cut and the end sampled.
        assert_eq!(
            key_times(&[0.0, 1.0, 3.0], None, false, 0.0, 2.0),
            vec![0.0, 1.0, 2.0]
        );
    }

    #[test]
    fn hidden_frames_scale_to_zero() {
        let clip = Clip::new("c", 10.0, 10, true);
        let vis = VisibilityTrack {
            node: 0,
            times: vec![0.0, 0.3, 0.6],
            visible: vec![true, false, true],
            period: None,
        };
        let (times, values) = visibility_scale(&clip, Vec3::splat(2.0), &vis, None, 0.0, 1.0);
        assert_eq!(times, vec![0.0, 0.3, 0.6, 1.0]);
        assert_eq!(values, vec![[2.0; 3], [0.0; 3], [2.0; 3], [2.0; 3]]);
    }
}
