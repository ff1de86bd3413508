//! Named nodes with local transforms.

use glam::{Quat, Vec3};

/// What a node stands for in its file; the panel shows it, the renderer ignores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A grouping node with nothing of its own (a model root, a TPM skin root).
    Group,
    /// A PIE level.
    Level,
    /// A PMF piece.
    Piece,
    /// A PET or TPM bone.
    Bone,
    /// A TPM instance (a placed mesh).
    Instance,
    /// A mesh part (a PET `.mpet` part, a TPM mesh shown at identity).
    Part,
}

/// One node of the hierarchy. Its local transform is `T · R · S` relative to its parent.
#[derive(Debug, Clone)]
pub struct Node {
    /// Name as the file gives it (or a made-up one such as `level 1`).
    pub name: String,
    /// Parent index; always smaller than this node's own index.
    pub parent: Option<usize>,
    /// What the node is.
    pub kind: NodeKind,
    /// Rest translation relative to the parent.
    pub translation: Vec3,
    /// Rest rotation relative to the parent.
    pub rotation: Quat,
    /// Rest scale.
    pub scale: Vec3,
    /// Mesh drawn at this node (rigidly, unless the mesh is skinned).
    pub mesh: Option<usize>,
    /// The team colour (index into [`crate::model::team::TEAM_COLOURS`]) this node and its
    /// descendants are drawn with instead of the view's; `None`: its parent's, at the
    /// root the view's. A map's objects carry their player's; no model file sets it.
    pub team: Option<usize>,
    /// A constant baked light, 0–1 in the sRGB encoding, this node and its descendants
    /// are drawn with in place of the scene's lighting (the encoded colour times it, as
    /// [`crate::model::Mesh::point_light`], which wins where a mesh has its own); `None`:
    /// its parent's, at the root the scene's. A map's objects carry the brightness the
    /// game draws them with; no model file sets it.
    pub light: Option<f32>,
    /// Hidden (with its descendants) until the viewer asks for it: a map's grid,
    /// footprints and gateways. A picture drawn without a node mask leaves it out; the
    /// window opens with it hidden and shows it on its toggle.
    pub hidden: bool,
    /// Whether this node's mesh and its descendants' cast the scene's shadows
    /// ([`crate::model::Shadows`]); `None`: as its parent, at the root no.
    /// A map sets it on the objects the game casts shadows of; no model file sets it.
    pub casts_shadow: Option<bool>,
}

impl Node {
    /// A node at identity.
    pub fn new(name: impl Into<String>, parent: Option<usize>, kind: NodeKind) -> Self {
        Node {
            name: name.into(),
            parent,
            kind,
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            mesh: None,
            team: None,
            light: None,
            hidden: false,
            casts_shadow: None,
        }
    }
}
