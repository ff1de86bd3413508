//! The Checks panel's own state (the open document's findings and the one picked:
//! [`ChecksState`]) and its commands ([`ChecksCommand`]).

use crate::check::{Counts, Element, Finding};
use crate::model::Model;
use crate::render::Highlight;

/// The open document's findings and the one picked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChecksState {
    /// Findings on the open file, in file order.
    pub findings: Vec<Finding>,
    /// Index of the picked finding.
    pub selected: Option<usize>,
    /// The hierarchy should scroll to this node once.
    pub scroll_to: Option<usize>,
}

/// A Checks panel intent.
#[derive(Debug, Clone, PartialEq)]
pub enum ChecksCommand {
    /// Pick a finding (or none).
    Select(Option<usize>),
    /// The hierarchy scrolled to the picked finding's node.
    Scrolled,
}

impl ChecksState {
    /// The findings of `vitrine check` on the open file (run by the job that loaded it,
    /// [`crate::loading::check_file`], or [`crate::loading::map_findings`] for a map),
    /// none picked.
    pub fn with_findings(findings: Vec<Finding>) -> ChecksState {
        ChecksState {
            findings,
            selected: None,
            scroll_to: None,
        }
    }

    /// Counts by level.
    pub fn counts(&self) -> Counts {
        Counts::of(&self.findings)
    }

    /// The picked finding.
    pub fn picked(&self) -> Option<&Finding> {
        self.selected.and_then(|i| self.findings.get(i))
    }

    /// What the view marks for the picked finding on `model`.
    pub fn highlight(&self, model: &Model) -> Highlight {
        let mut h = Highlight::default();
        match self.picked().map(|f| f.element) {
            Some(Element::Polygon { mesh, polygon }) => {
                if let Some(s) = model.source.meshes.get(mesh) {
                    h.triangles = s
                        .polygon_triangles(polygon)
                        .map(|t| (mesh, t as u32))
                        .collect();
                }
            }
            Some(Element::Point { mesh, point }) if mesh < model.meshes.len() => {
                h.points.push((mesh, point));
            }
            _ => {}
        }
        h
    }
}
