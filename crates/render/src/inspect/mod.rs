//! What an inspecting user asks the renderer for beyond the plain model: which overlays
//! to draw ([`Overlays`]), which nodes they hid, which node is selected, and the shadow.
//!
//! Visibility: the renderer shows node `i` when the pose shows it *and* the user's
//! [`node_mask`] does (`mask[i]`; a mask shorter than the node list shows the rest). The
//! mask is final, not propagated: whoever builds it (the window's hierarchy, see
//! [`hidden_mask`] and [`isolate_mask`]) decides what hiding a parent does to its
//! children.
//!
//! [`node_mask`]: super::ViewSettings::node_mask

pub mod highlight;
pub(crate) mod overlay_pass;
pub mod overlays;
pub mod picking;
pub mod posed;
pub mod shadows;
pub(crate) mod stroke_font;

use vitrine_core::model::{Model, Pose};

/// The overlay toggles, persisted by the window and parsed by `vitrine render --overlays`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Overlays {
    /// Connectors as numbered markers with a small axis triad.
    pub connectors: bool,
    /// Vertex (shading) normals as short lines.
    pub normals: bool,
    /// Normal length as a fraction of the model's bounding radius.
    pub normal_length: f32,
    /// Triangle edges over the shaded model.
    pub wireframe: bool,
    /// The bounding box of what is visible, with its dimensions.
    pub bounds: bool,
    /// A ground grid under the model.
    pub grid: bool,
    /// An axes gizmo in the view's corner and axes at the model origin.
    pub axes: bool,
    /// Bones: joints and lines to their parents.
    pub bones: bool,
    /// Collision boxes in their bone's space.
    pub collision: bool,
    /// The shadow mesh as a wireframe.
    pub shadow_mesh: bool,
    /// Draw overlays through the model instead of depth-tested.
    pub xray: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays::NONE
    }
}

/// One overlay, for menus, shortcuts and the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OverlayKind {
    /// [`Overlays::connectors`].
    Connectors,
    /// [`Overlays::normals`].
    Normals,
    /// [`Overlays::wireframe`].
    Wireframe,
    /// [`Overlays::bounds`].
    Bounds,
    /// [`Overlays::grid`].
    Grid,
    /// [`Overlays::axes`].
    Axes,
    /// [`Overlays::bones`].
    Bones,
    /// [`Overlays::collision`].
    Collision,
    /// [`Overlays::shadow_mesh`].
    ShadowMesh,
    /// [`Overlays::xray`].
    Xray,
}

impl OverlayKind {
    /// Every overlay, in menu order.
    pub const ALL: [OverlayKind; 10] = [
        OverlayKind::Connectors,
        OverlayKind::Normals,
        OverlayKind::Wireframe,
        OverlayKind::Bounds,
        OverlayKind::Grid,
        OverlayKind::Axes,
        OverlayKind::Bones,
        OverlayKind::Collision,
        OverlayKind::ShadowMesh,
        OverlayKind::Xray,
    ];

    /// The name used by `--overlays` (`shadow-mesh`, `xray`, …).
    pub fn name(self) -> &'static str {
        match self {
            OverlayKind::Connectors => "connectors",
            OverlayKind::Normals => "normals",
            OverlayKind::Wireframe => "wireframe",
            OverlayKind::Bounds => "bounds",
            OverlayKind::Grid => "grid",
            OverlayKind::Axes => "axes",
            OverlayKind::Bones => "bones",
            OverlayKind::Collision => "collision",
            OverlayKind::ShadowMesh => "shadow-mesh",
            OverlayKind::Xray => "xray",
        }
    }

    /// The label shown in the View menu.
    pub fn label(self) -> &'static str {
        match self {
            OverlayKind::Connectors => "Connectors",
            OverlayKind::Normals => "Normals",
            OverlayKind::Wireframe => "Wireframe",
            OverlayKind::Bounds => "Bounding box",
            OverlayKind::Grid => "Ground grid",
            OverlayKind::Axes => "Axes",
            OverlayKind::Bones => "Bones",
            OverlayKind::Collision => "Collision boxes",
            OverlayKind::ShadowMesh => "Shadow mesh",
            OverlayKind::Xray => "X-ray overlays",
        }
    }

    /// Parses a [`OverlayKind::name`].
    pub fn parse(s: &str) -> Option<OverlayKind> {
        let s = s.trim().to_ascii_lowercase().replace('_', "-");
        OverlayKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl Overlays {
    /// Everything off (normal length at its default).
    pub const NONE: Overlays = Overlays {
        connectors: false,
        normals: false,
        normal_length: 0.08,
        wireframe: false,
        bounds: false,
        grid: false,
        axes: false,
        bones: false,
        collision: false,
        shadow_mesh: false,
        xray: false,
    };

    /// The flag of one overlay.
    pub fn get(&self, kind: OverlayKind) -> bool {
        *self.flag(kind)
    }

    /// Sets one overlay.
    pub fn set(&mut self, kind: OverlayKind, on: bool) {
        *self.flag_mut(kind) = on;
    }

    fn flag(&self, kind: OverlayKind) -> &bool {
        match kind {
            OverlayKind::Connectors => &self.connectors,
            OverlayKind::Normals => &self.normals,
            OverlayKind::Wireframe => &self.wireframe,
            OverlayKind::Bounds => &self.bounds,
            OverlayKind::Grid => &self.grid,
            OverlayKind::Axes => &self.axes,
            OverlayKind::Bones => &self.bones,
            OverlayKind::Collision => &self.collision,
            OverlayKind::ShadowMesh => &self.shadow_mesh,
            OverlayKind::Xray => &self.xray,
        }
    }

    fn flag_mut(&mut self, kind: OverlayKind) -> &mut bool {
        match kind {
            OverlayKind::Connectors => &mut self.connectors,
            OverlayKind::Normals => &mut self.normals,
            OverlayKind::Wireframe => &mut self.wireframe,
            OverlayKind::Bounds => &mut self.bounds,
            OverlayKind::Grid => &mut self.grid,
            OverlayKind::Axes => &mut self.axes,
            OverlayKind::Bones => &mut self.bones,
            OverlayKind::Collision => &mut self.collision,
            OverlayKind::ShadowMesh => &mut self.shadow_mesh,
            OverlayKind::Xray => &mut self.xray,
        }
    }

    /// Whether any overlay that draws something is on (x-ray alone draws nothing).
    pub fn any(&self) -> bool {
        OverlayKind::ALL
            .into_iter()
            .any(|k| k != OverlayKind::Xray && self.get(k))
    }

    /// Parses a comma-separated list of [`OverlayKind::name`]s (`all` = every overlay
    /// but x-ray).
    pub fn parse_list(s: &str) -> Result<Overlays, String> {
        let mut o = Overlays::NONE;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part.eq_ignore_ascii_case("all") {
                for k in OverlayKind::ALL {
                    o.set(k, k != OverlayKind::Xray);
                }
                continue;
            }
            let kind = OverlayKind::parse(part).ok_or_else(|| {
                let names: Vec<_> = OverlayKind::ALL.iter().map(|k| k.name()).collect();
                format!("{part}: expected all or one of {}", names.join(", "))
            })?;
            o.set(kind, true);
        }
        Ok(o)
    }
}

/// Whether node `i` is drawn: shown by the pose and by the user's mask.
pub(crate) fn node_shown(pose: &Pose, mask: &[bool], i: usize) -> bool {
    pose.visible.get(i).copied().unwrap_or(true) && mask.get(i).copied().unwrap_or(true)
}

/// Per node: whether it is `root` or one of its descendants.
pub(crate) fn subtree(model: &Model, root: usize) -> Vec<bool> {
    let mut inside = vec![false; model.nodes.len()];
    // Parents precede children (Model::validate), so one pass sees every parent first.
    for (i, n) in model.nodes.iter().enumerate() {
        inside[i] = i == root || n.parent.is_some_and(|p| p < i && inside[p]);
    }
    inside
}

/// The mask for nodes the user hid: a hidden node hides its descendants too.
pub fn hidden_mask(model: &Model, hidden: &[bool]) -> Vec<bool> {
    let mut shown = vec![true; model.nodes.len()];
    for (i, n) in model.nodes.iter().enumerate() {
        let parent = n.parent.filter(|&p| p < i).is_none_or(|p| shown[p]);
        shown[i] = parent && !hidden.get(i).copied().unwrap_or(false);
    }
    shown
}

/// The mask that shows only `selected` and its descendants.
pub fn isolate_mask(model: &Model, selected: usize) -> Vec<bool> {
    subtree(model, selected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::model::{Format, Node, NodeKind};

    /// root ─┬─ a ── a1
    ///       └─ b
    fn tree() -> Model {
        let mut m = Model::new(Format::Pie, "3");
        m.nodes.push(Node::new("root", None, NodeKind::Group));
        m.nodes.push(Node::new("a", Some(0), NodeKind::Level));
        m.nodes.push(Node::new("a1", Some(1), NodeKind::Level));
        m.nodes.push(Node::new("b", Some(0), NodeKind::Level));
        m
    }

    #[test]
    fn hiding_a_node_hides_its_subtree_only() {
        let m = tree();
        assert_eq!(
            hidden_mask(&m, &[false, true, false, false]),
            [true, false, false, true]
        );
        assert_eq!(hidden_mask(&m, &[true]), [false; 4]);
        assert_eq!(hidden_mask(&m, &[]), [true; 4]);
    }

    #[test]
    fn isolate_shows_the_selection_and_its_children() {
        let m = tree();
        assert_eq!(isolate_mask(&m, 1), [false, true, true, false]);
        assert_eq!(isolate_mask(&m, 3), [false, false, false, true]);
    }

    #[test]
    fn overlay_lists_parse_and_name_errors() {
        let o = Overlays::parse_list("connectors, shadow-mesh,grid").unwrap();
        assert!(o.connectors && o.shadow_mesh && o.grid && !o.normals && !o.xray);
        let all = Overlays::parse_list("all").unwrap();
        assert!(
            OverlayKind::ALL
                .iter()
                .all(|&k| all.get(k) == (k != OverlayKind::Xray))
        );
        let e = Overlays::parse_list("normals,sparkles").unwrap_err();
        assert!(e.starts_with("sparkles:") && e.contains("wireframe"), "{e}");
        assert!(!Overlays::parse_list("xray").unwrap().any());
    }
}
