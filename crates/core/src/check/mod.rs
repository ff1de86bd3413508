//! `vitrine check`: lints models (and whole Warzone 2100 mods) against what the games
//! really accept. Pure: no renderer, no window, no command line; files are read through
//! [`crate::files`].
//!
//! A [`Finding`] is an instance of a [`rules::Rule`] (stable id such as
//! `pie/normals-count`, a [`Level`], an explanation with its source) at a place: the file,
//! the line or byte offset, and the [`Element`] (level, polygon, point, bone, …) the
//! window highlights. Findings come from three sources: a load error (the file is
//! refused; one error), the loader's coded diagnostics and source notes
//! ([`crate::model::Diagnostic::rule`]), and rules computed here over the model
//! (`model_rules`). Mod-level rules read `stats/*.json` (`wz_stats`).

pub mod config;
pub mod fuzzing;
mod geometry;
mod load;
pub mod map_check;
pub mod mapdb;
pub(crate) mod model_rules;
pub mod report;
pub mod rules;
pub mod sarif;
pub(crate) mod wz_stats;

pub use load::{CheckOptions, Checked, Checker, walk_error, walk_warning};
pub use rules::{RULES, Rule, RuleSet, rule};

use crate::model::{Location, Model, SourceMap};
use serde::Serialize;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Style, old conventions.
    Note,
    /// It loads but looks or behaves wrong.
    Warning,
    /// The game refuses it or crashes on it.
    Error,
}

impl Level {
    /// `error`, `warning`, `note`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }

    /// Parses `error` / `warning` / `warnings` / `note` / `notes`.
    pub fn parse(s: &str) -> Option<Level> {
        match s.to_ascii_lowercase().as_str() {
            "error" | "errors" => Some(Level::Error),
            "warning" | "warnings" => Some(Level::Warning),
            "note" | "notes" => Some(Level::Note),
            _ => None,
        }
    }
}

/// The model element a finding is about; indices into the loaded [`Model`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Element {
    /// The file as a whole.
    File,
    /// A node (a PIE level, a piece, a bone, an instance).
    Node {
        /// Node index.
        node: usize,
    },
    /// A file polygon of a mesh (one or more triangles).
    Polygon {
        /// Mesh index.
        mesh: usize,
        /// Polygon index in file order.
        polygon: u32,
    },
    /// A point (vertex) of a mesh.
    Point {
        /// Mesh index.
        mesh: usize,
        /// Point index in file order.
        point: u32,
    },
    /// A texture reference.
    Texture {
        /// Index into the model's textures.
        texture: usize,
    },
    /// A material.
    Material {
        /// Index into the model's materials.
        material: usize,
    },
    /// An object of a Warzone 2100 map.
    Object {
        /// Index into the map's objects ([`crate::map::Map::objects`]).
        object: usize,
    },
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Rule id (`pie/normals-count`).
    pub rule: &'static str,
    /// The rule's level.
    pub level: Level,
    /// The file (`mod.wz!/components/bodies/x.pie`), as given.
    pub file: String,
    /// Line or byte offset in the file.
    #[serde(skip)]
    pub location: Location,
    /// What is wrong, in one line.
    pub message: String,
    /// The element to select in the window.
    pub element: Element,
}

impl Finding {
    /// A finding of `rule` (its level from the registry).
    pub fn new(
        rule_id: &'static str,
        file: &str,
        location: Location,
        element: Element,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            rule: rule_id,
            level: rule(rule_id).map_or(Level::Warning, |r| r.level),
            file: file.to_string(),
            location,
            message: message.into(),
            element,
        }
    }

    /// The 1-based line, when the place is a line.
    pub fn line(&self) -> Option<u32> {
        match self.location {
            Location::Line(l) => Some(l),
            _ => None,
        }
    }

    /// The byte offset, when the place is one.
    pub fn offset(&self) -> Option<u64> {
        match self.location {
            Location::Offset(o) => Some(o),
            _ => None,
        }
    }
}

/// Counts of findings by level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Notes.
    pub notes: usize,
}

impl Counts {
    /// Counts `findings`.
    pub fn of<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Counts {
        let mut c = Counts::default();
        for f in findings {
            match f.level {
                Level::Error => c.errors += 1,
                Level::Warning => c.warnings += 1,
                Level::Note => c.notes += 1,
            }
        }
        c
    }

    /// The worst level present.
    pub fn worst(&self) -> Option<Level> {
        if self.errors > 0 {
            Some(Level::Error)
        } else if self.warnings > 0 {
            Some(Level::Warning)
        } else if self.notes > 0 {
            Some(Level::Note)
        } else {
            None
        }
    }
}

/// The element a line or offset of the file falls on: a polygon or point written on that
/// line, else the level (mesh block) the line is inside, else the file.
pub(crate) fn element_at(model: &Model, location: Location) -> Element {
    let Location::Line(line) = location else {
        return Element::File;
    };
    element_at_line(model, &model.source, line)
}

fn element_at_line(model: &Model, source: &SourceMap, line: u32) -> Element {
    let at = Location::Line(line);
    for (mesh, s) in source.meshes.iter().enumerate() {
        if let Some(p) = s.polygons.iter().position(|l| *l == at) {
            return Element::Polygon {
                mesh,
                polygon: p as u32,
            };
        }
        if let Some(p) = s.points.iter().position(|l| *l == at) {
            return Element::Point {
                mesh,
                point: p as u32,
            };
        }
    }
    let block = source
        .meshes
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.start, Location::Line(l) if l <= line))
        .max_by_key(|(_, s)| match s.start {
            Location::Line(l) => l,
            _ => 0,
        });
    match block.and_then(|(mesh, _)| model.mesh_node(mesh)) {
        Some(node) => Element::Node { node },
        None => Element::File,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Format;

    /// The worst level of the model's own rules (no texture look-ups).
    fn worst_level(model: &Model) -> Option<Level> {
        Counts::of(&model_rules::check_model(model, "", None)).worst()
    }

    #[test]
    fn worst_level_of_a_model() {
        let clean = Model::new(Format::Pie, "3");
        assert_eq!(worst_level(&clean), None);
        assert_eq!(
            worst_level(&Model::new(Format::Pie, "2")),
            Some(Level::Note)
        );
        let mut warned = Model::new(Format::Pie, "3");
        warned.diagnostics.push(crate::model::Diagnostic::coded(
            "pie/normals-count",
            Location::Line(9),
            "NORMALS 1 does not match POLYGONS 2",
        ));
        assert_eq!(worst_level(&warned), Some(Level::Warning));
        assert_eq!(Level::parse("warnings"), Some(Level::Warning));
    }
}
