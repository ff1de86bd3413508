//! The inspection's own state (selection, hidden nodes, isolate, the model's statistics:
//! [`InspectState`], per document) and its commands ([`InspectCommand`]).

use crate::model::Model;
use crate::panels::stats::ModelStats;
use crate::render::OverlayKind;
use crate::render::inspect::{hidden_mask, isolate_mask};

/// Smallest and largest normal length (fraction of the model's bounding radius).
pub const NORMAL_LENGTH_RANGE: std::ops::RangeInclusive<f32> = 0.01..=0.5;

/// Per-document inspection state (reset when a model is opened).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InspectState {
    /// The selected node.
    pub selected: Option<usize>,
    /// Per node: hidden by the user (its descendants are hidden with it).
    pub hidden: Vec<bool>,
    /// Show only the selected node and its descendants.
    pub isolate: bool,
    /// Counts for the Stats section.
    pub stats: ModelStats,
    /// The [`crate::document::Document::generation`] this state belongs to; another
    /// generation (a new file, an event model shown in its place) means a stale state.
    pub generation: u64,
}

impl InspectState {
    /// Fresh state for `model` of document generation `generation`: nothing selected,
    /// the nodes that start hidden hidden ([`crate::model::Node::hidden`]: a map's grid,
    /// footprints and gateways).
    pub fn for_model(model: &Model, files: &crate::files::Files, generation: u64) -> InspectState {
        InspectState {
            selected: None,
            hidden: model.nodes.iter().map(|n| n.hidden).collect(),
            isolate: false,
            stats: ModelStats::of(model, files),
            generation,
        }
    }

    /// The same selection and hidden nodes for a reloaded `model` with as many nodes
    /// (fresh counts); a fresh state if the node count changed.
    pub fn reloaded(
        &self,
        model: &Model,
        files: &crate::files::Files,
        generation: u64,
    ) -> InspectState {
        let fresh = InspectState::for_model(model, files, generation);
        if self.hidden.len() != model.nodes.len() {
            return fresh;
        }
        InspectState {
            stats: fresh.stats,
            generation,
            ..self.clone()
        }
    }

    /// The per-node mask the renderer ANDs with the pose's visibility (empty: all shown).
    pub fn node_mask(&self, model: &Model) -> Vec<bool> {
        let mut mask = if self.hidden.iter().any(|&h| h) {
            hidden_mask(model, &self.hidden)
        } else {
            Vec::new()
        };
        if self.isolate
            && let Some(sel) = self.selected.filter(|&s| s < model.nodes.len())
        {
            let iso = isolate_mask(model, sel);
            mask = if mask.is_empty() {
                iso
            } else {
                mask.iter().zip(iso).map(|(a, b)| *a && b).collect()
            };
        }
        mask
    }

    /// Whether node `i` is hidden by the user (itself, not through a parent).
    pub fn is_hidden(&self, i: usize) -> bool {
        self.hidden.get(i).copied().unwrap_or(false)
    }
}

/// An inspection intent.
#[derive(Debug, Clone, PartialEq)]
pub enum InspectCommand {
    /// Select a node (or nothing).
    Select(Option<usize>),
    /// Hide or show a node (and with it its descendants).
    ToggleHidden(usize),
    /// Hide the selected node.
    HideSelected,
    /// Show every node again and leave isolate.
    ShowAll,
    /// Show only the selection, or everything again.
    ToggleIsolate,
    /// Switch an overlay on or off.
    ToggleOverlay(OverlayKind),
    /// Normal length as a fraction of the model's bounding radius.
    SetNormalLength(f32),
    /// Shadows on or off.
    ToggleShadows,
}
