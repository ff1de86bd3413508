//! The format's own facts about a model, in the file's terms: the object `info --json`
//! prints under the format's name (`"pie": {…}`), the PMF panel's pieces, the checks'
//! PET limits. Typed, so a renamed field is a compile error in every reader; each type
//! serialises to exactly the JSON documented in README (field names and value types are
//! the schema's, numbers are those the loader read).
//!
//! Not here: the format-neutral scene (the rest of [`Model`](super::Model)), and anything
//! computed from it — these are facts only the file itself carries.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One model's format-specific facts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Details {
    /// Nothing beyond the neutral model (serialises as `null`).
    #[default]
    None,
    /// A Warzone 2100 PIE file.
    Pie(PieDetails),
    /// A Piece Model Editor file.
    Pmf(PmfDetails),
    /// One PangYa file.
    Pet(PetDetails),
    /// A PangYa character assembled from sibling files.
    PetCharacter(PetCharacterDetails),
    /// A Trespasser TPM file.
    Tpm(TpmDetails),
    /// A Warzone 2100 droid or structure assembled from parts.
    Assembly(AssemblyDetails),
    /// A glTF file (with the PIE facts a Vitrine export carries).
    Gltf(GltfDetails),
    /// A Wavefront OBJ file.
    Obj(ObjDetails),
    /// A Warzone 2100 map's scene: the map's facts and what each node is.
    Map(Box<crate::map::scene::MapDetails>),
}

impl Details {
    /// The JSON object `info --json` prints (`null` for [`Details::None`]).
    pub fn to_json(&self) -> Value {
        // Every field is a plain number, string, list or map: serialising cannot fail.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The PIE facts: a PIE file's own, or those a Vitrine glTF export of a PIE carries.
    pub fn pie(&self) -> Option<&PieDetails> {
        match self {
            Details::Pie(d) => Some(d),
            Details::Gltf(g) => g.pie.as_ref(),
            _ => None,
        }
    }

    /// The PET file's facts, for a single file or each part of a character.
    pub fn pet_files(&self) -> Vec<&PetDetails> {
        match self {
            Details::Pet(p) => vec![p],
            Details::PetCharacter(c) => c.parts.iter().collect(),
            _ => Vec::new(),
        }
    }
}

/// A PIE number as the file writes it: whole numbers without a fraction.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PieNumber {
    /// A whole number.
    Whole(i64),
    /// Anything else.
    Fraction(f64),
}

impl From<f32> for PieNumber {
    fn from(v: f32) -> Self {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            PieNumber::Whole(v as i64)
        } else {
            PieNumber::Fraction(f64::from(v))
        }
    }
}

/// The `"pie"` object. Also carried by the glTF export (scene `extras.pie`) and read
/// back by the glTF loader, for the way back to PIE.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieDetails {
    /// `TYPE` as written, in hex (`"0x10200"`).
    pub type_flags: String,
    /// `INTERPOLATE` as written (`null` when absent: on by default).
    #[serde(default)]
    pub interpolate: Option<bool>,
    /// `EVENT` lines.
    pub events: Vec<PieEvent>,
    /// Per level.
    pub levels: Vec<PieLevel>,
}

/// One PIE `EVENT` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieEvent {
    /// The event's number (1 moving, 2 firing, 3 dying).
    #[serde(rename = "type")]
    pub kind: u32,
    /// The model file it names.
    pub file: String,
}

/// One PIE level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieLevel {
    /// `POINTS` count.
    pub points: usize,
    /// Triangles after fanning the polygons.
    pub triangles: usize,
    /// `CONNECTORS` count.
    pub connectors: usize,
    /// `ANIMOBJECT`, if any.
    pub animation: Option<PieAnimation>,
    /// `SHADOWPOINTS` count (0 without a shadow mesh).
    pub shadow_points: usize,
    /// `SHADOWPOLYGONS` triangles.
    pub shadow_triangles: usize,
    /// The level's own `TYPE`, in hex (`null`: the header's).
    #[serde(default)]
    pub type_flags: Option<String>,
    /// The level's own `INTERPOLATE` (`null`: the header's).
    #[serde(default)]
    pub interpolate: Option<bool>,
    /// Texture-frame animation of its polygons (flag 0x4000), if any.
    #[serde(default)]
    pub texture_animation: Option<PieTextureAnimation>,
}

/// A level's texture-frame animation (its polygons' animation block).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieTextureAnimation {
    /// Frames.
    pub frames: u32,
    /// Milliseconds per frame.
    pub ms_per_frame: PieNumber,
    /// Frame width in UV units.
    pub width: PieNumber,
    /// Frame height in UV units.
    pub height: PieNumber,
    /// A legacy team-colour block (the frame is the team, not time).
    pub team_colour: bool,
}

/// A level's `ANIMOBJECT` header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieAnimation {
    /// Frames listed.
    pub frames: usize,
    /// Milliseconds per frame.
    pub ms_per_frame: PieNumber,
    /// Cycles (0 = forever).
    pub cycles: u32,
}

impl PieNumber {
    /// The number as an `f32`.
    pub fn as_f32(self) -> f32 {
        match self {
            PieNumber::Whole(v) => v as f32,
            PieNumber::Fraction(v) => v as f32,
        }
    }
}

/// The `"gltf"` object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GltfDetails {
    /// The `asset.generator` (`Khronos glTF Blender I/O v3.4.50`, `Vitrine 0.1.0`).
    pub generator: String,
    /// Nodes read as levels.
    pub levels: usize,
    /// Connectors.
    pub connectors: usize,
    /// Shadow meshes.
    pub shadow_meshes: usize,
    /// What a Vitrine export says it came from (`null` for other files).
    pub source: Option<GltfSource>,
    /// The PIE facts a Vitrine export of a PIE carries.
    pub pie: Option<PieDetails>,
}

/// The source of a Vitrine export.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GltfSource {
    /// Its format's name (`pie`).
    pub format: String,
    /// The scale it was exported at (undone on reading).
    pub scale: f64,
}

/// The `"obj"` object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjDetails {
    /// Object names, in file order.
    pub objects: Vec<String>,
    /// Faces as written (before triangulation).
    pub faces: usize,
    /// Triangles.
    pub triangles: usize,
    /// Material names from the MTL.
    pub materials: Vec<String>,
}

/// The `"pmf"` object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PmfDetails {
    /// The magic (`PMF1`).
    pub magic: &'static str,
    /// Per piece, in file order.
    pub pieces: Vec<PmfPiece>,
    /// Per animation.
    pub animations: Vec<PmfAnimation>,
    /// The transform rules the model was read with.
    pub options: PmfRules,
    /// The sidecar texture's name, if one was found beside the file.
    pub texture: Option<String>,
}

/// One PMF piece.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PmfPiece {
    /// Its name.
    pub name: String,
    /// Its parent's name (`null` for a root).
    pub parent: Option<String>,
    /// Its translation, each number as the shortest decimal that reads back the same
    /// `f32` (`0.55`, not `0.550000011920929`); `null` where that fails.
    pub translation: [Option<f64>; 3],
    /// Vertex count.
    pub vertices: usize,
    /// Triangle count.
    pub triangles: usize,
}

/// One PMF animation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PmfAnimation {
    /// Its name.
    pub name: String,
    /// Frame count.
    pub frames: usize,
    /// Frames per second.
    pub fps: u8,
    /// Whether it loops.
    #[serde(rename = "loop")]
    pub looping: bool,
    /// The flag byte.
    pub flags: u8,
    /// Frames flagged as keyframes.
    pub keyframes: Vec<u32>,
    /// Frames flagged as events.
    pub event_frames: Vec<u32>,
}

/// The PMF transform rules in force.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PmfRules {
    /// Rotation units.
    pub units: &'static str,
    /// Euler order.
    pub euler: &'static str,
    /// The order as a formula.
    pub euler_formula: String,
    /// How a root piece's position combines.
    pub root: &'static str,
}

/// The `"pet"` object of one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetDetails {
    /// The file's name.
    pub file: String,
    /// Its kind (`pet`, `apet`, `bpet`, `mpet`).
    pub kind: &'static str,
    /// `VERS` as `major.minor`.
    pub version: String,
    /// Section tags in file order.
    pub sections: Vec<String>,
    /// The file's axes.
    pub axes: &'static str,
    /// Bones in file order.
    pub bones: Vec<PetBone>,
    /// Whether every bone has a rest matrix (`.apet` files have none).
    pub bone_matrices: bool,
    /// `TEXT` entries.
    pub textures: Vec<PetTexture>,
    /// `MOTI` entries.
    pub motions: Vec<PetMotion>,
    /// `FRAM` entries.
    pub fram: Vec<PetFrame>,
    /// `COLL` entries.
    pub collision_boxes: Vec<PetCollision>,
    /// `FANM` entries.
    pub fanm: Vec<PetFanm>,
    /// What the `MESH` section holds, if there is one.
    #[serde(flatten)]
    pub mesh: Option<PetMesh>,
    /// What the `ANIM` section holds, if there is one.
    #[serde(flatten)]
    pub anim: Option<PetAnim>,
}

/// One PET bone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetBone {
    /// Its name.
    pub name: String,
    /// Its parent's index.
    pub parent: Option<usize>,
}

/// One PET `TEXT` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetTexture {
    /// File name as written.
    pub name: String,
    /// Flag byte.
    pub flags: u8,
    /// Group byte.
    pub group: u8,
    /// Diffuse colour as `#AARRGGBB`.
    pub colour: String,
}

/// One PET `MOTI` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetMotion {
    /// Motion name.
    pub name: String,
    /// First frame.
    pub start: u32,
    /// Last frame (inclusive).
    pub end: u32,
    /// Motion that follows.
    pub next: String,
    /// Blend method.
    pub blend_method: String,
    /// Blend time, seconds.
    pub blend_time: f32,
    /// The last string.
    pub top_version: String,
}

/// One PET `FRAM` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetFrame {
    /// Frame of the timeline.
    pub frame: u32,
    /// The three script strings.
    pub scripts: [String; 3],
    /// The trailing u32, if present.
    pub check: Option<u32>,
}

/// One PET `COLL` entry (file axes, bone space).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetCollision {
    /// Its name.
    pub name: String,
    /// The bone it follows.
    pub bone: String,
    /// Shape number.
    pub shape: u32,
    /// Show flag.
    pub show: u32,
    /// The two option strings.
    pub options: [String; 2],
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
}

/// One PET `FANM` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetFanm {
    /// Group byte.
    pub group: u8,
    /// Its name.
    pub name: String,
    /// The material it animates.
    pub material: String,
}

/// A PET file's `MESH` facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetMesh {
    /// UV sets per corner.
    pub uv_sets: u8,
    /// Vertex count.
    pub vertices: usize,
    /// Triangle count.
    pub triangles: usize,
    /// How many vertices store how many (weight, bone) pairs.
    pub weight_pairs: BTreeMap<String, usize>,
    /// The submesh records as stored.
    pub submeshes: Vec<[u32; 5]>,
}

/// A PET file's `ANIM` facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetAnim {
    /// The layout the keys were read with.
    pub anim_layout: &'static str,
    /// The bone of each track.
    pub anim_tracks: Vec<usize>,
    /// Frames of the timeline (30 per second).
    pub timeline_frames: u32,
}

/// The `"pet"` object of a character assembled from sibling files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PetCharacterDetails {
    /// Always `"assembled"`.
    pub kind: &'static str,
    /// The file that was opened.
    pub file: String,
    /// The character's name prefix.
    pub prefix: String,
    /// The opened file's version.
    pub version: String,
    /// The opened file's sections.
    pub sections: Vec<String>,
    /// The model's axes.
    pub axes: &'static str,
    /// The skeleton's bones.
    pub bones: Vec<PetBone>,
    /// The most UV sets of any part.
    pub uv_sets: u8,
    /// Every part's motions.
    pub motions: Vec<PetMotion>,
    /// Every part's `FRAM` entries.
    pub fram: Vec<PetFrame>,
    /// Every part's collision boxes.
    pub collision_boxes: Vec<PetCollision>,
    /// Every part's submesh records.
    pub submeshes: Vec<[u32; 5]>,
    /// Each part's own facts.
    pub parts: Vec<PetDetails>,
}

/// The `"tpm"` object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TpmDetails {
    /// The `fileinfo` block's fields.
    pub fileinfo: BTreeMap<String, String>,
    /// Material blocks.
    pub materials: Vec<TpmMaterial>,
    /// Mesh blocks.
    pub meshes: Vec<TpmMesh>,
    /// Instance blocks.
    pub instances: Vec<TpmInstance>,
    /// Bone blocks.
    pub bones: Vec<TpmBone>,
    /// Skins bound to bones.
    pub skins: Vec<TpmSkin>,
}

/// One TPM material block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TpmMaterial {
    /// Its name.
    pub name: String,
    /// The line it starts on.
    pub line: u32,
    /// `colormap`, as written.
    pub colormap: Option<String>,
    /// `bumpmap`, as written.
    pub bumpmap: Option<String>,
    /// `opacitymap`, as written.
    pub opacitymap: Option<String>,
}

/// One TPM mesh block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TpmMesh {
    /// Its name.
    pub name: String,
    /// The line it starts on.
    pub line: u32,
    /// Whether it is a skin.
    pub skin: bool,
    /// The materials it lists.
    pub materials: Vec<String>,
    /// Vertex count.
    pub vertices: usize,
    /// UV count.
    pub uvs: usize,
    /// Normal count.
    pub normals: usize,
    /// Face count.
    pub triangles: usize,
    /// Each face's material name.
    pub face_materials: Vec<String>,
}

/// One TPM instance block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TpmInstance {
    /// Its name.
    pub name: String,
    /// The line it starts on.
    pub line: u32,
    /// The mesh it places.
    pub mesh: Option<String>,
    /// Position (file axes).
    pub position: [f64; 3],
    /// Rotation in degrees (file axes).
    pub rotation: [f64; 3],
    /// Uniform scale.
    pub scale: f64,
    /// Whether the viewer shows it.
    pub shown: bool,
}

/// One TPM bone block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TpmBone {
    /// Its name.
    pub name: String,
    /// The line it starts on.
    pub line: u32,
    /// The skin its name binds it to.
    pub skin: Option<String>,
    /// Its index in that skin.
    pub index: Option<u8>,
    /// Position (file axes).
    pub position: [f64; 3],
    /// Rotation in degrees (file axes).
    pub rotation: [f64; 3],
    /// Other `key = value` lines.
    pub properties: Vec<(String, String)>,
}

/// One TPM skin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TpmSkin {
    /// The mesh's name.
    pub name: String,
    /// The mesh's index.
    pub mesh: usize,
    /// The model's skin index.
    pub skin: usize,
    /// Bones of the skin, by name.
    pub bones: Vec<String>,
    /// Each vertex's bone name (`null` when unbound).
    pub vertex_bones: Vec<Option<String>>,
    /// Each vertex's bone index as written.
    pub vertex_bone_indices: Vec<i64>,
    /// Unbound vertices, counted from 1.
    pub unbound_vertices_1based: Vec<usize>,
}

/// A Warzone 2100 assembly: `{"assembly": {…}}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AssemblyDetails {
    /// The assembly.
    pub assembly: Assembly,
}

/// What was assembled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assembly {
    /// Its name.
    pub name: String,
    /// Its kind (droid type or structure).
    #[serde(rename = "type")]
    pub kind: String,
    /// Each part.
    pub parts: Vec<AssemblyPart>,
}

/// One part of an assembly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AssemblyPart {
    /// Its role (body, propulsion, weapon 1, …).
    pub role: String,
    /// The stats id it came from.
    pub stats_id: String,
    /// The model file the stats name.
    pub model: String,
    /// Where the model was found.
    pub file: Option<String>,
    /// Its node in the model.
    pub node: Option<usize>,
    /// Where it sits (file axes).
    pub position: [f32; 3],
    /// Why it could not be placed.
    pub error: Option<String>,
}
