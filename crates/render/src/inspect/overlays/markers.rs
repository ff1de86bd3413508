//! Markers for the model's frames: bones and joints (with their names as [`Label`]s),
//! the origin axes and the corner gizmo, and the numbered connectors.

use super::{OverlayInput, Segment, colours, label, shown_world};
use crate::ViewSettings;
use crate::inspect::picking::in_sight;
use crate::inspect::stroke_font::{text_segments, text_width};
use crate::inspect::{node_shown, subtree};
use glam::{Vec2, Vec3};
use vitrine_core::model::{Model, NodeKind, Pose};

/// Connector marker ring radius, pixels.
const CONNECTOR_RADIUS: f32 = 6.0;
/// Corner gizmo arm length, pixels.
const GIZMO: f32 = 32.0;

/// Nodes drawn as bones: bone nodes and every skin joint.
pub(crate) fn bone_nodes(model: &Model) -> Vec<bool> {
    let mut is = model
        .nodes
        .iter()
        .map(|n| n.kind == NodeKind::Bone)
        .collect::<Vec<_>>();
    for s in &model.skins {
        for &j in &s.joints {
            if let Some(b) = is.get_mut(j) {
                *b = true;
            }
        }
    }
    is
}

pub(super) fn bones(out: &mut Vec<Segment>, inp: &OverlayInput) {
    let model = inp.model;
    let is_bone = bone_nodes(model);
    let selected = inp
        .view
        .selected
        .map(|s| subtree(model, s))
        .unwrap_or_default();
    let pos = |i: usize| inp.pose.world[i].w_axis.truncate();
    let colour = |i: usize| {
        if selected.get(i).copied().unwrap_or(false) {
            colours::BONE_SELECTED
        } else {
            colours::BONE
        }
    };
    for (i, n) in model.nodes.iter().enumerate() {
        if !is_bone[i] || !node_shown(inp.pose, &inp.view.node_mask, i) {
            continue;
        }
        if let Some(p) = n.parent.filter(|&p| p < i && is_bone[p]) {
            out.push(Segment::line(pos(p), pos(i), colours::OUTLINE, 4.0, 0.0).on_top());
            out.push(Segment::line(pos(p), pos(i), colour(i), 2.0, 0.0).on_top());
        }
    }
    for i in (0..model.nodes.len()).filter(|&i| is_bone[i]) {
        if node_shown(inp.pose, &inp.view.node_mask, i) {
            let p = pos(i);
            let dot = |c, w| Segment::anchored(p, Vec2::ZERO, Vec2::ZERO, c, w).on_top();
            out.push(dot(colours::OUTLINE, 8.0));
            out.push(dot(colour(i), 5.0));
        }
    }
}

pub(super) fn axes(out: &mut Vec<Segment>, inp: &OverlayInput, radius: f32) {
    // At the model's origin, in model units.
    for (k, dir) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
        out.push(Segment::line(
            Vec3::ZERO,
            dir * radius * 0.5,
            colours::AXES[k],
            2.0,
            0.0,
        ));
    }
    // The corner gizmo: which way X, Y, Z point on screen.
    let view = inp.view.camera.view();
    let anchor = Vec2::new(GIZMO + 14.0, inp.size.y - GIZMO - 14.0);
    let mut arms: Vec<(usize, Vec3)> = [Vec3::X, Vec3::Y, Vec3::Z]
        .into_iter()
        .map(|d| view.transform_vector3(d))
        .enumerate()
        .collect();
    // Farthest first, so nearer arms are drawn over them.
    arms.sort_by(|a, b| a.1.z.total_cmp(&b.1.z));
    for (k, v) in arms {
        let tip = anchor + Vec2::new(v.x, -v.y) * GIZMO;
        out.push(Segment::screen(anchor, tip, colours::OUTLINE, 5.0));
        out.push(Segment::screen(anchor, tip, colours::AXES[k], 2.5));
        let name = ["X", "Y", "Z"][k];
        let o = tip + Vec2::new(v.x, -v.y).normalize_or_zero() * 9.0
            - Vec2::new(text_width(name, super::TEXT_HEIGHT), super::TEXT_HEIGHT) * 0.5;
        for [a, b] in text_segments(name, super::TEXT_HEIGHT) {
            out.push(Segment::screen(o + a, o + b, colours::AXES[k], 1.5));
        }
    }
}

/// Pixel offsets of a ring of `r` pixels (an octagon).
fn ring(r: f32) -> Vec<(Vec2, Vec2)> {
    (0..8)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 8.0;
            let b = (k + 1) as f32 * std::f32::consts::TAU / 8.0;
            (
                Vec2::new(a.cos(), a.sin()) * r,
                Vec2::new(b.cos(), b.sin()) * r,
            )
        })
        .collect()
}

pub(super) fn connectors(out: &mut Vec<Segment>, inp: &OverlayInput, radius: f32) {
    for (n, c) in inp.model.connectors.iter().enumerate() {
        let Some(world) = shown_world(inp, c.node) else {
            continue;
        };
        let p = world.transform_point3(c.position);
        // A triad in the node's axes.
        let len = radius * 0.25;
        for (k, d) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
            let q = p + world.transform_vector3(d).normalize_or_zero() * len;
            out.push(Segment::line(p, q, colours::AXES[k], 2.0, 0.01));
        }
        // The marker (a dark ring under a bright one around a centre dot) and its
        // number: over everything when the connector is in plain sight, else
        // depth-tested (hidden unless x-ray).
        let seen = in_sight(inp.model, inp.meshes, &inp.view.camera, p, radius * 1e-3);
        let mut marker = Vec::new();
        for (c, w) in [(colours::OUTLINE, 4.0), (colours::CONNECTOR, 2.0)] {
            for (a, b) in ring(CONNECTOR_RADIUS) {
                marker.push(Segment::anchored(p, a, b, c, w));
            }
        }
        marker.push(Segment::anchored(
            p,
            Vec2::ZERO,
            Vec2::ZERO,
            colours::CONNECTOR,
            3.0,
        ));
        label(
            &mut marker,
            p,
            Vec2::new(CONNECTOR_RADIUS + 8.0, -CONNECTOR_RADIUS - 8.0),
            &(n + 1).to_string(),
            colours::CONNECTOR,
        );
        out.extend(
            marker
                .into_iter()
                .map(|s| if seen { s.on_top() } else { s }),
        );
    }
}

/// A text label the window draws with egui at a model-space point (what the line font
/// cannot write: joint names).
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// Model-space anchor.
    pub position: Vec3,
    /// The text.
    pub text: String,
}

/// Labels for the enabled overlays: joint names when bones are shown.
pub fn labels(model: &Model, pose: &Pose, view: &ViewSettings) -> Vec<Label> {
    if !view.overlays.bones {
        return Vec::new();
    }
    let is_bone = bone_nodes(model);
    (0..model.nodes.len())
        .filter(|&i| is_bone[i] && node_shown(pose, &view.node_mask, i))
        .map(|i| Label {
            position: pose.world[i].w_axis.truncate(),
            text: model.nodes[i].name.clone(),
        })
        .collect()
}
