//! Inspection state and its commands: the selected node, the nodes the user hid, isolate,
//! and the overlay / shadow toggles (those persist in the settings).
//!
//! [`InspectCommand`]s arrive wrapped in [`super::commands::AppCommand::Inspect`] and are
//! carried out by [`apply`], which changes only [`AppState`].

pub mod overlay_menu;
pub mod view_inspect;

use super::panels::stats::ModelStats;
use super::state::AppState;
use crate::model::Model;
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
    /// The [`super::state::Document::generation`] this state belongs to; another
    /// generation (a new file, an event model shown in its place) means a stale state.
    pub generation: u64,
}

impl InspectState {
    /// Fresh state for `model` of document generation `generation`: nothing selected
    /// or hidden.
    pub fn for_model(model: &Model, files: &crate::files::Files, generation: u64) -> InspectState {
        InspectState {
            selected: None,
            hidden: vec![false; model.nodes.len()],
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

/// Carries out `cmd` on `state`.
pub fn apply(state: &mut AppState, cmd: InspectCommand) {
    sync(state);
    let nodes = state.document.as_ref().map_or(0, |d| d.model.nodes.len());
    let inspect = &mut state.inspect;
    match cmd {
        InspectCommand::Select(sel) => {
            inspect.selected = sel.filter(|&s| s < nodes);
            if inspect.selected.is_none() {
                inspect.isolate = false;
            }
        }
        InspectCommand::ToggleHidden(i) => {
            if i < nodes {
                inspect.hidden.resize(nodes, false);
                inspect.hidden[i] = !inspect.hidden[i];
            }
        }
        InspectCommand::HideSelected => {
            if let Some(i) = inspect.selected.filter(|&i| i < nodes) {
                inspect.hidden.resize(nodes, false);
                inspect.hidden[i] = true;
            }
        }
        InspectCommand::ShowAll => {
            inspect.hidden = vec![false; nodes];
            inspect.isolate = false;
        }
        InspectCommand::ToggleIsolate => {
            inspect.isolate = !inspect.isolate && inspect.selected.is_some();
        }
        InspectCommand::ToggleOverlay(kind) => {
            let o = &mut state.settings.overlays;
            o.set(kind, !o.get(kind));
        }
        InspectCommand::SetNormalLength(len) => {
            let len = len.clamp(*NORMAL_LENGTH_RANGE.start(), *NORMAL_LENGTH_RANGE.end());
            if len.is_finite() && len != state.settings.overlays.normal_length {
                state.settings.overlays.normal_length = len;
            }
        }
        InspectCommand::ToggleShadows => {
            state.settings.shadows = !state.settings.shadows;
        }
    }
}

/// Resets the inspection state if the document's model changed under it (an event
/// model shown in place of the base model, or back).
pub fn sync(state: &mut AppState) {
    if let Some(doc) = &state.document
        && doc.generation != state.inspect.generation
    {
        state.inspect = InspectState::for_model(&doc.model, &state.files, doc.generation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::FileRef;
    use crate::model::{Format, Node, NodeKind};
    use crate::settings::Settings;

    fn state() -> AppState {
        let mut m = Model::new(Format::Pie, "3");
        // As the PIE loader sets it.
        m.grid_unit = Some(crate::formats::pie::TILE);
        m.nodes.push(Node::new("hull", None, NodeKind::Level));
        m.nodes.push(Node::new("turret", Some(0), NodeKind::Level));
        m.nodes.push(Node::new("gun", None, NodeKind::Level));
        let mut s = AppState::new(
            Settings::default(),
            crate::host::MemoryHost::new(Default::default()),
        );
        s.set_document(FileRef::Disk("t.pie".into()), m);
        s
    }

    #[test]
    fn hide_isolate_and_show_all_build_the_mask() {
        let mut s = state();
        // The effective mask (empty = every node shown).
        let mask = |s: &AppState| {
            let m = s.view_settings().node_mask;
            if m.is_empty() { vec![true; 3] } else { m }
        };
        assert!(s.view_settings().node_mask.is_empty());
        apply(&mut s, InspectCommand::ToggleHidden(0));
        assert_eq!(mask(&s), [false, false, true]);
        apply(&mut s, InspectCommand::ToggleHidden(0));
        assert_eq!(mask(&s), [true, true, true]);
        apply(&mut s, InspectCommand::Select(Some(1)));
        assert_eq!(s.view_settings().selected, Some(1));
        apply(&mut s, InspectCommand::ToggleIsolate);
        assert_eq!(mask(&s), [false, true, false]);
        apply(&mut s, InspectCommand::HideSelected);
        assert_eq!(mask(&s), [false, false, false]);
        apply(&mut s, InspectCommand::ShowAll);
        assert!(mask(&s).iter().all(|&v| v) && !s.inspect.isolate);
        // Out-of-range nodes are ignored; deselecting leaves isolate.
        apply(&mut s, InspectCommand::ToggleHidden(9));
        apply(&mut s, InspectCommand::Select(Some(9)));
        assert_eq!(s.inspect.selected, None);
        apply(&mut s, InspectCommand::ToggleIsolate);
        assert!(!s.inspect.isolate, "isolate needs a selection");
    }

    #[test]
    fn overlay_toggles_reach_the_view_and_a_new_model_resets_the_selection() {
        let mut s = state();
        apply(&mut s, InspectCommand::ToggleOverlay(OverlayKind::Normals));
        apply(&mut s, InspectCommand::ToggleShadows);
        apply(&mut s, InspectCommand::SetNormalLength(9.0));
        let v = s.view_settings();
        assert!(v.overlays.normals && v.shadows);
        assert_eq!(v.overlays.normal_length, 0.5);
        assert_eq!(
            v.grid_unit,
            Some(128.0),
            "the model's grid (PIE: map tiles) reaches the view"
        );
        apply(&mut s, InspectCommand::Select(Some(2)));
        apply(&mut s, InspectCommand::ToggleHidden(1));
        let m = s.document.as_ref().unwrap().model.clone();
        // A reload of the same file keeps selection and hidden nodes…
        s.set_document(FileRef::Disk("t.pie".into()), m.clone());
        assert_eq!(s.view_settings().selected, Some(2));
        assert_eq!(s.view_settings().node_mask, [true, false, true]);
        // …another file starts afresh.
        s.set_document(FileRef::Disk("u.pie".into()), m.clone());
        assert_eq!(s.inspect.selected, None);
        assert!(s.view_settings().node_mask.is_empty());
        // A model swapped in under the state (an event model) makes it stale: ignored.
        apply(&mut s, InspectCommand::Select(Some(1)));
        let g = s.bump_generation();
        s.document.as_mut().unwrap().generation = g;
        assert_eq!(s.view_settings().selected, None);
        sync(&mut s);
        assert_eq!(s.inspect.generation, g);
        assert!(s.view_settings().overlays.normals, "overlays persist");
    }
}
