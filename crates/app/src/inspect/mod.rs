//! Inspection state and its commands: the selected node, the nodes the user hid, isolate,
//! and the overlay / shadow toggles (those persist in the settings).
//!
//! [`InspectCommand`]s arrive wrapped in [`super::commands::AppCommand::Inspect`] and are
//! carried out by [`apply`] with an [`InspectContext`]: the document, the settings and
//! the files, nothing else of the app.

pub mod overlay_menu;
pub mod state;
pub mod view_inspect;

pub use state::{InspectCommand, InspectState, NORMAL_LENGTH_RANGE};

use crate::document::DocumentState;
use crate::files::Files;
use crate::settings::SettingsStore;

/// What an inspection command reaches: the document (its inspection, and the model for
/// the node count), the settings (overlays and shadows persist), the files (a new
/// model's statistics).
pub struct InspectContext<'a> {
    /// The open document and its inspection.
    pub document: &'a mut DocumentState,
    /// The overlays and shadows.
    pub settings: &'a mut SettingsStore,
    /// What the model's statistics read.
    pub files: &'a Files,
}

/// Carries out `cmd` on the inspection.
pub fn apply(ctx: InspectContext<'_>, cmd: InspectCommand) {
    let InspectContext {
        document,
        settings,
        files,
    } = ctx;
    sync(document, files);
    let nodes = document.open.as_ref().map_or(0, |d| d.model.nodes.len());
    let inspect = &mut document.inspect;
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
            let o = &mut settings.overlays;
            o.set(kind, !o.get(kind));
        }
        InspectCommand::SetNormalLength(len) => {
            let len = len.clamp(*NORMAL_LENGTH_RANGE.start(), *NORMAL_LENGTH_RANGE.end());
            if len.is_finite() && len != settings.overlays.normal_length {
                settings.overlays.normal_length = len;
            }
        }
        InspectCommand::ToggleShadows => {
            settings.shadows = !settings.shadows;
        }
    }
}

/// Resets the inspection state if the document's model changed under it (an event
/// model shown in place of the base model, or back).
pub fn sync(document: &mut DocumentState, files: &Files) {
    if let Some(doc) = &document.open
        && doc.generation != document.inspect.generation
    {
        document.inspect = InspectState::for_model(&doc.model, files, doc.generation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::FileRef;
    use crate::model::Model;
    use crate::model::{Format, Node, NodeKind};
    use crate::render::OverlayKind;
    use crate::settings::Settings;
    use crate::state::AppState;

    /// Applies `cmd` as the dispatcher does, with the inspection's narrow context.
    fn apply(s: &mut AppState, cmd: InspectCommand) {
        let ctx = InspectContext {
            document: &mut s.document,
            settings: &mut s.services.settings,
            files: &s.services.files,
        };
        super::apply(ctx, cmd);
    }

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
        assert!(mask(&s).iter().all(|&v| v) && !s.document.inspect.isolate);
        // Out-of-range nodes are ignored; deselecting leaves isolate.
        apply(&mut s, InspectCommand::ToggleHidden(9));
        apply(&mut s, InspectCommand::Select(Some(9)));
        assert_eq!(s.document.inspect.selected, None);
        apply(&mut s, InspectCommand::ToggleIsolate);
        assert!(!s.document.inspect.isolate, "isolate needs a selection");
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
        let m = s.document.open.as_ref().unwrap().model.clone();
        // A reload of the same file keeps selection and hidden nodes…
        s.set_document(FileRef::Disk("t.pie".into()), m.clone());
        assert_eq!(s.view_settings().selected, Some(2));
        assert_eq!(s.view_settings().node_mask, [true, false, true]);
        // …another file starts afresh.
        s.set_document(FileRef::Disk("u.pie".into()), m.clone());
        assert_eq!(s.document.inspect.selected, None);
        assert!(s.view_settings().node_mask.is_empty());
        // A model swapped in under the state (an event model) makes it stale: ignored.
        apply(&mut s, InspectCommand::Select(Some(1)));
        let g = s.document.bump_generation();
        s.document.open.as_mut().unwrap().generation = g;
        assert_eq!(s.view_settings().selected, None);
        sync(&mut s.document, &s.services.files);
        assert_eq!(s.document.inspect.generation, g);
        assert!(s.view_settings().overlays.normals, "overlays persist");
    }
}
