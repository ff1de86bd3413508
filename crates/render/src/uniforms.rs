//! Uniform and vertex layouts shared with `shaders/scene.wgsl` (keep the two in step).

use bytemuck::{Pod, Zeroable};

/// Joints per skin the shader's uniform array holds (16 KiB, the downlevel binding limit).
pub(crate) const MAX_JOINTS: usize = 256;
/// Bytes of one skin's joint block.
pub(crate) const JOINTS_BYTES: u64 = (MAX_JOINTS * 64) as u64;

/// Group 0: per frame.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct FrameUniform {
    /// Projection · view.
    pub(crate) view_proj: [[f32; 4]; 4],
    /// xyz: eye position.
    pub eye: [f32; 4],
    /// xyz: unit vector towards the light, world space.
    pub light_dir: [f32; 4],
    /// x ambient, y diffuse, z specular.
    pub light: [f32; 4],
    /// rgb: team colour, sRGB-encoded 0..1.
    pub team: [f32; 4],
    /// x: colour mode number ([`crate::ColourMode::number`]).
    pub mode: [u32; 4],
    /// rgb: fog colour (sRGB-encoded 0..1), w: 1 with fog, else 0.
    pub fog: [f32; 4],
    /// x: fog begin, y: fog end (depth, model units), z: scene time (seconds).
    pub fog_range: [f32; 4],
    /// xyz: unit view direction (from the eye towards the target).
    pub view_dir: [f32; 4],
}

/// Group 1: per material.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct MaterialUniform {
    /// Linear RGBA factor.
    pub base_color: [f32; 4],
    /// has tcmask, has normal map, has specular map, opacity source.
    pub flags: [u32; 4],
    /// x: blend mode number.
    pub mode: [u32; 4],
    /// xy: UV set 0's scroll, UV units per second; z: 1 with a shade map.
    pub scroll: [f32; 4],
}

/// Group 2: per draw.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct DrawUniform {
    /// Mesh → model space (the shader derives the normals' matrix from it: its 3×3's
    /// inverse transpose).
    pub model: [[f32; 4]; 4],
    /// xy UV offset of animated corners; z = 1 when skinned; w the node's baked light
    /// (`Node::light`), 0 for none.
    pub extra: [f32; 4],
    /// Linear RGBA of the draw's node in the per-node colour mode.
    pub node_colour: [f32; 4],
    /// rgb: the team colour of the draw's node (sRGB-encoded 0..1), w: 1 when it has
    /// one (`Node::team`, its own or an ancestor's), else 0 (the frame's is used).
    pub team: [f32; 4],
}

/// One triangle corner as the vertex shader reads it.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub struct Vertex {
    /// Mesh-local position.
    pub position: [f32; 3],
    /// Shading normal (authored or the face's).
    pub normal: [f32; 3],
    /// UV set 0.
    pub uv: [f32; 2],
    /// 1.0 when the texture-frame offset applies.
    pub animated: f32,
    /// Joint indices into the skin's joint list.
    pub joints: [u16; 4],
    /// Joint weights.
    pub weights: [f32; 4],
    /// Linear colour of the point's dominant joint (grey if unbound), for the by-joint
    /// mode: decoded from sRGB here, once, not per vertex in the shader.
    pub(crate) joint_colour: [u16; 4],
    /// Opacity of the corner's point (`Mesh::point_alpha`), multiplied into the alpha.
    pub alpha: f32,
    /// UV set 1 (the shade map's).
    pub uv2: [f32; 2],
    /// Baked light of the corner's point (`Mesh::point_light`, 0–1 in the sRGB encoding)
    /// multiplying the encoded colour in place of the scene's lighting; −1 where the
    /// mesh has none (lit by the scene).
    pub light: f32,
}

impl Vertex {
    /// Attribute layout matching `VertexIn` in the shader.
    pub(crate) const ATTRIBUTES: [wgpu::VertexAttribute; 10] = wgpu::vertex_attr_array![
        0 => Float32x3,
        1 => Float32x3,
        2 => Float32x2,
        3 => Float32,
        4 => Uint16x4,
        5 => Float32x4,
        6 => Unorm16x4,
        7 => Float32,
        8 => Float32x2,
        9 => Float32,
    ];

    /// The buffer layout.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

/// Byte sizes of the uniform structs, for checking them against the shader.
pub mod sizes {
    /// `Frame`.
    pub const FRAME: usize = std::mem::size_of::<super::FrameUniform>();
    /// `Material`.
    pub const MATERIAL: usize = std::mem::size_of::<super::MaterialUniform>();
    /// `Draw`.
    pub const DRAW: usize = std::mem::size_of::<super::DrawUniform>();
    /// `Joints`.
    pub const JOINTS: usize = super::JOINTS_BYTES as usize;
}
