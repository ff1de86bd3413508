//! Connectors, event models, shadow meshes and collision boxes.

use crate::files::FileRef;
use glam::Vec3;

/// An attachment point (PIE `CONNECTORS`).
#[derive(Debug, Clone, PartialEq)]
pub struct Connector {
    /// Node (level) it belongs to.
    pub node: usize,
    /// The three numbers as the file writes them (PIE: x, y, z with z up).
    pub raw: [f32; 3],
    /// Position in the node's space, model axes.
    pub position: Vec3,
}

/// A model shown instead of this one while a game event runs (PIE `EVENT`).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelEvent {
    /// Event type number (PIE: 1 active, 2 firing, 3 dying).
    pub kind: u32,
    /// File name as written.
    pub file: String,
    /// Where it was found, if anywhere.
    pub resolved: Option<FileRef>,
}

impl ModelEvent {
    /// The game's name for a PIE event type.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            1 => "active",
            2 => "firing",
            3 => "dying",
            _ => "unknown",
        }
    }
}

/// A simplified mesh used only to cast shadows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShadowMesh {
    /// Node it belongs to.
    pub node: usize,
    /// Points, model axes, node-local.
    pub points: Vec<Vec3>,
    /// Triangles over `points`, counter-clockwise front.
    pub triangles: Vec<[u32; 3]>,
}

/// An axis-aligned box in a node's (bone's) space.
#[derive(Debug, Clone, PartialEq)]
pub struct CollisionBox {
    /// Name as the file writes it.
    pub name: String,
    /// Node (bone) whose space the box is in.
    pub node: Option<usize>,
    /// Minimum corner, model axes.
    pub min: Vec3,
    /// Maximum corner, model axes.
    pub max: Vec3,
}
