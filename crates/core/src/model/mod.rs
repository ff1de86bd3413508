//! The one format-neutral scene every loader fills and the renderer and UI read.
//!
//! # Coordinate convention
//! Right-handed, **+Y up**, counter-clockwise front faces, units as the file gives them;
//! models face **−Z** (Warzone 2100, PMF and PangYa models do once converted).
//! Loaders convert their file's axes at load time and record the conversion in
//! [`Model::axes`], so the raw file values can be shown (and `info --json` can report
//! positions in the file's own axes) by applying `FileAxes::file_from_model`.
//!
//! Non-goals: the model holds no GPU objects and no decoded images, only references to
//! image files (see [`TextureRef`]).

mod anim;
mod axes;
pub mod colour;
pub(crate) mod compose;
pub mod details;
mod diagnostics;
mod environment;
mod extras;
mod guide;
pub mod json;
mod material;
mod mesh;
mod node;
pub mod pose;
mod skinning;
mod source;
pub mod team;
mod validate;

pub use anim::{
    Clip, EventMarker, Interpolation, Motion, NodeTrack, TextureFrameTrack, Track, VisibilityTrack,
};
pub use axes::FileAxes;
pub use details::Details;
pub use diagnostics::{Diagnostic, Location};
pub use environment::{Environment, Fog, FogDistance, Shadows, Sky};
pub use extras::{CollisionBox, Connector, ModelEvent, ShadowMesh};
pub use guide::Guide;
pub use material::{AlphaSource, Billboard, BlendMode, Material, TextureRef, TextureRole};
pub use mesh::{Corner, Mesh, SkinInfluence, Submesh};
pub use node::{Node, NodeKind};
pub use pose::Pose;
pub use skinning::skin_positions;
pub use source::{MeshSource, SourceMap, TextureLine};

use glam::Mat4;

/// Which file format a model came from. The renderer never looks at this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Warzone 2100 PIE 2/3/4.
    Pie,
    /// Piece Model Editor `PMF1`.
    Pmf,
    /// PangYa PET / APET / BPET / MPET.
    Pet,
    /// Trespasser TPM.
    Tpm,
    /// glTF 2.0 (`.glb`, `.gltf`).
    Gltf,
    /// Wavefront OBJ (with its MTL).
    Obj,
}

impl Format {
    /// The lower-case name used in `info --json` and the UI.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pie => "pie",
            Format::Pmf => "pmf",
            Format::Pet => "pet",
            Format::Tpm => "tpm",
            Format::Gltf => "gltf",
            Format::Obj => "obj",
        }
    }

    /// The format's name as people write it: `PIE`, `PMF`, `PET`, `TPM`, `glTF`, `OBJ`.
    pub fn label(self) -> &'static str {
        match self {
            Format::Pie => "PIE",
            Format::Pmf => "PMF",
            Format::Pet => "PET",
            Format::Tpm => "TPM",
            Format::Gltf => "glTF",
            Format::Obj => "OBJ",
        }
    }

    /// `PIE version 3`, `glTF version 2.0`, `OBJ` (a format without versions: the
    /// loaders write `-`).
    pub fn with_version(self, version: &str) -> String {
        match version.trim() {
            "" | "-" => self.label().to_string(),
            v => format!("{} version {v}", self.label()),
        }
    }

    /// Every format, in the order menus and filters list them.
    pub const ALL: [Format; 6] = [
        Format::Pie,
        Format::Pmf,
        Format::Pet,
        Format::Tpm,
        Format::Gltf,
        Format::Obj,
    ];

    /// The format named `name` as [`Format::name`] writes it (`"pie"`).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A skin: the joints (node indices) a skinned mesh's [`SkinInfluence`]s index, and
/// each joint's inverse bind matrix (model space → joint space at rest).
#[derive(Debug, Clone, Default)]
pub struct Skin {
    /// Name shown in the panel.
    pub name: String,
    /// Node index of each joint; `SkinInfluence::joints` index this list.
    pub joints: Vec<usize>,
    /// One per joint: the inverse of the joint's model-space rest matrix.
    pub inverse_bind: Vec<Mat4>,
}

/// A free-form key/value line for the info panel (`"Type flags" = "0x10200 (…)"`).
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// Label shown in the panel.
    pub key: String,
    /// Value as text.
    pub value: String,
}

/// One loaded model: everything any of the four formats can say, in one shape.
///
/// Invariants (checked by [`Model::validate`]): every index (node parent, mesh, material,
/// texture, skin joint, track node) is in range; parents come before their children in
/// `nodes`; every float is finite.
#[derive(Debug, Clone)]
pub struct Model {
    /// Format the bytes were in.
    pub format: Format,
    /// Version as the file states it (`"3"`, `"PMF1"`, `"1.2"`, `"1.0.1"`).
    pub version: String,
    /// How the file's axes map to the model's (right-handed, Y up).
    pub axes: FileAxes,
    /// Node hierarchy; a parent always precedes its children.
    pub nodes: Vec<Node>,
    /// Meshes; nodes reference them through [`Node::mesh`] (several nodes may share one).
    pub meshes: Vec<Mesh>,
    /// Materials referenced by [`Submesh::material`].
    pub materials: Vec<Material>,
    /// Texture files referenced by materials.
    pub textures: Vec<TextureRef>,
    /// Skins referenced by [`Mesh::skin`].
    pub skins: Vec<Skin>,
    /// Animation clips; the first is the default.
    pub clips: Vec<Clip>,
    /// Attachment points (PIE connectors).
    pub connectors: Vec<Connector>,
    /// Models that replace this one while a game event runs (PIE `EVENT`).
    pub events: Vec<ModelEvent>,
    /// Simplified shadow-casting meshes (PIE `SHADOWPOINTS`/`SHADOWPOLYGONS`).
    pub shadow_meshes: Vec<ShadowMesh>,
    /// Collision boxes (PET `COLL`).
    pub collision_boxes: Vec<CollisionBox>,
    /// Lines drawn over the model where their node is shown (a map's grid, footprints,
    /// gateways, start positions).
    pub guides: Vec<Guide>,
    /// Human-readable facts for the info panel, in display order.
    pub properties: Vec<Property>,
    /// The format-specific object of `info --json` (`"pie": {...}`), already in file terms.
    pub details: Details,
    /// Warnings and notes, each with its place in the file.
    pub diagnostics: Vec<Diagnostic>,
    /// Where elements were written in the file, and facts for `vitrine check`.
    pub source: SourceMap,
    /// The spacing of the grid the model's game lays things out on, if it has one: the
    /// Warzone 2100 map tile ([`TILE`](crate::formats::pie::TILE), 128 units) for PIE
    /// models and assemblies. The loader sets it; the renderer draws its grid in this unit
    /// (or in one derived from the model's size when `None`).
    pub grid_unit: Option<f32>,
    /// Fog and sky around the scene (a map's); empty for a model.
    pub environment: Environment,
}

impl Model {
    /// Per node: whether it starts hidden ([`Node::hidden`]); empty when none does.
    pub fn hidden_at_first(&self) -> Vec<bool> {
        if self.nodes.iter().any(|n| n.hidden) {
            self.nodes.iter().map(|n| n.hidden).collect()
        } else {
            Vec::new()
        }
    }

    /// An empty model of the given format and version, with identity axes.
    pub fn new(format: Format, version: impl Into<String>) -> Self {
        Model {
            format,
            version: version.into(),
            axes: FileAxes::y_up_right_handed(),
            nodes: Vec::new(),
            meshes: Vec::new(),
            materials: Vec::new(),
            textures: Vec::new(),
            skins: Vec::new(),
            clips: Vec::new(),
            connectors: Vec::new(),
            events: Vec::new(),
            shadow_meshes: Vec::new(),
            collision_boxes: Vec::new(),
            guides: Vec::new(),
            properties: Vec::new(),
            details: Details::None,
            diagnostics: Vec::new(),
            source: SourceMap::default(),
            grid_unit: None,
            environment: Environment::default(),
        }
    }

    /// The format whose units and names the model's numbers are in: its own, or, for a
    /// glTF a Vitrine export wrote, the format the export was made from (the glTF reader
    /// undoes the export's scale, so a PIE exported to glTF and read back is in PIE units
    /// and names its pages and event models as the PIE did).
    pub fn units_format(&self) -> Format {
        match &self.details {
            Details::Gltf(g) => g
                .source
                .as_ref()
                .and_then(|s| Format::from_name(&s.format))
                .unwrap_or(self.format),
            _ => self.format,
        }
    }

    /// Adds a warning at `location`.
    pub fn warn(&mut self, location: Location, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::warning(location, message));
    }

    /// Adds a panel property.
    pub fn property(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.properties.push(Property {
            key: key.into(),
            value: value.into(),
        });
    }

    /// Index of the first clip with this name.
    pub fn clip_index(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name == name)
    }

    /// The first node that shows mesh `mesh`, if any.
    pub fn mesh_node(&self, mesh: usize) -> Option<usize> {
        self.nodes.iter().position(|n| n.mesh == Some(mesh))
    }

    /// Children of `node`, in order.
    pub fn children(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(move |(_, n)| n.parent == Some(node))
            .map(|(i, _)| i)
    }

    /// Checks the invariants listed on [`Model`]; returns the first violation.
    pub fn validate(&self) -> Result<(), String> {
        validate::validate(self)
    }
}
