//! The shader module, bind group layouts and one render pipeline per material state
//! (blend mode × culling), created on first use and kept for the renderer's lifetime.

use super::target::DEPTH_FORMAT;
use super::uniforms::{DrawUniform, FrameUniform, JOINTS_BYTES, MaterialUniform, Vertex};
use std::collections::HashMap;
use vitrine_core::model::BlendMode;

/// The WGSL source of the model shader.
pub const SCENE_WGSL: &str = include_str!("../shaders/scene.wgsl");

/// Every shader file of the renderer as `(file name, source)`, for validation tests.
pub const SHADERS: &[(&str, &str)] = &[
    ("scene.wgsl", SCENE_WGSL),
    ("overlay.wgsl", super::inspect::overlay_pass::OVERLAY_WGSL),
    ("shadow.wgsl", super::inspect::shadows::SHADOW_WGSL),
    ("sky.wgsl", super::sky::SKY_WGSL),
    (
        "stencil_shadow.wgsl",
        super::stencil_shadows::STENCIL_SHADOW_WGSL,
    ),
];

/// What selects a pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    /// Blend mode number (see [`blend_number`]).
    pub blend: u32,
    /// Draw back faces too (no culling).
    pub double_sided: bool,
    /// Which optional maps are sampled: tcmask, normal, specular, opacity, shade.
    pub maps: [bool; 5],
    /// Points deformed by a skin's joints (a draw's, not a material's: see
    /// [`PipelineKey::for_draw`]).
    pub skinned: bool,
    /// A layer of a surface (`Mesh::surface_layer`, a draw's): drawn a little farther
    /// than it is ([`SURFACE_BIAS`]), so that what stands on it at its very depth (a
    /// structure's base plate on flat ground) shows over it whatever the rounding.
    pub surface: bool,
}

impl PipelineKey {
    /// The key of a draw of a material keyed `self`, deformed by a skin or not, a layer of
    /// a surface or not.
    pub(crate) fn for_draw(self, skinned: bool, surface: bool) -> PipelineKey {
        PipelineKey {
            skinned,
            surface,
            ..self
        }
    }
}

/// The depth bias of a surface's layers: each the same, so they keep the same depth as
/// each other (the additive layers over the pre-pass test "less or equal" against it).
const SURFACE_BIAS: wgpu::DepthBiasState = wgpu::DepthBiasState {
    constant: 2,
    slope_scale: 1.0,
    clamp: 0.0,
};

/// The shader's number for a blend mode.
pub(crate) fn blend_number(b: BlendMode) -> u32 {
    match b {
        BlendMode::Opaque => 0,
        BlendMode::AlphaTest => 1,
        BlendMode::Additive => 2,
        BlendMode::Premultiplied => 3,
        BlendMode::AlphaBlend => 4,
        BlendMode::Multiply => 5,
    }
}

/// Whether a blend mode number draws after the opaque and alpha-tested draws.
pub(crate) fn is_blended(blend: u32) -> bool {
    blend >= 2
}

/// Whether a blend mode number writes depth: opaque, alpha-test and alpha-blend do
/// (alpha-blend discards fully transparent texels), additive and premultiplied glows and
/// multiplying water do not.
pub(crate) fn writes_depth(blend: u32) -> bool {
    matches!(blend, 0 | 1 | 4)
}

/// Layouts, the shader and the pipeline cache.
#[derive(Debug)]
pub(crate) struct Pipelines {
    shader: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
    /// Group 0: frame uniform + sampler.
    pub(crate) frame_layout: wgpu::BindGroupLayout,
    /// Group 1: material uniform + six textures.
    pub(crate) material_layout: wgpu::BindGroupLayout,
    /// Group 2: draw uniform + joint block, both with dynamic offsets.
    pub(crate) draw_layout: wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
    samples: u32,
    cache: HashMap<PipelineKey, wgpu::RenderPipeline>,
}

fn uniform_entry(binding: u32, dynamic: bool, size: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: wgpu::BufferSize::new(size),
        },
        count: None,
    }
}

fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

impl Pipelines {
    /// Builds the shader and layouts for targets of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> Pipelines {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("vitrine scene.wgsl"),
            source: wgpu::ShaderSource::Wgsl(SCENE_WGSL.into()),
        });
        let size = |n: usize| n as u64;
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine frame layout"),
            entries: &[
                uniform_entry(0, false, size(std::mem::size_of::<FrameUniform>())),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let material_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine material layout"),
            entries: &[
                uniform_entry(0, false, size(std::mem::size_of::<MaterialUniform>())),
                texture_entry(1),
                texture_entry(2),
                texture_entry(3),
                texture_entry(4),
                texture_entry(5),
                texture_entry(6),
            ],
        });
        let draw_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine draw layout"),
            entries: &[
                uniform_entry(
                    0,
                    true,
                    size(std::mem::size_of::<DrawUniform>())
                        * u64::from(crate::draw_runs::INSTANCES),
                ),
                uniform_entry(1, true, JOINTS_BYTES),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("vitrine scene pipeline layout"),
            bind_group_layouts: &[
                Some(&frame_layout),
                Some(&material_layout),
                Some(&draw_layout),
            ],
            immediate_size: 0,
        });
        Pipelines {
            shader,
            layout,
            frame_layout,
            material_layout,
            draw_layout,
            format,
            samples,
            cache: HashMap::new(),
        }
    }

    /// Samples per pixel of the targets these pipelines draw into.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// The pipeline for `key`, created if needed.
    pub(crate) fn get_or_create(
        &mut self,
        device: &wgpu::Device,
        key: PipelineKey,
    ) -> &wgpu::RenderPipeline {
        let (shader, layout) = (&self.shader, &self.layout);
        let target = (self.format, self.samples);
        self.cache
            .entry(key)
            .or_insert_with(|| create(device, shader, layout, target, key))
    }

    /// The pipeline for `key` if it was created.
    pub fn get(&self, key: PipelineKey) -> Option<&wgpu::RenderPipeline> {
        self.cache.get(&key)
    }
}

fn blend_state(blend: u32) -> Option<wgpu::BlendState> {
    use wgpu::{BlendComponent, BlendFactor as F, BlendOperation::Add};
    let c = |src, dst| BlendComponent {
        src_factor: src,
        dst_factor: dst,
        operation: Add,
    };
    match blend {
        2 => Some(wgpu::BlendState {
            color: c(F::SrcAlpha, F::One),
            alpha: c(F::One, F::One),
        }),
        3 => Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
        4 => Some(wgpu::BlendState::ALPHA_BLENDING),
        // dst · src; the target's alpha kept.
        5 => Some(wgpu::BlendState {
            color: c(F::Zero, F::Src),
            alpha: c(F::Zero, F::One),
        }),
        _ => None,
    }
}

fn create(
    device: &wgpu::Device,
    shader: &wgpu::ShaderModule,
    layout: &wgpu::PipelineLayout,
    (format, samples): (wgpu::TextureFormat, u32),
    key: PipelineKey,
) -> wgpu::RenderPipeline {
    let label = format!(
        "vitrine scene blend {} {}",
        key.blend,
        if key.double_sided {
            "double-sided"
        } else {
            "cull back"
        }
    );
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let constants = [
        ("ENCODE_SRGB", flag(!format.is_srgb())),
        ("HAS_TCMASK", flag(key.maps[0])),
        ("HAS_NORMAL_MAP", flag(key.maps[1])),
        ("HAS_SPECULAR_MAP", flag(key.maps[2])),
        ("HAS_OPACITY_MAP", flag(key.maps[3])),
        ("HAS_SHADE_MAP", flag(key.maps[4])),
        ("SKINNED", flag(key.skinned)),
    ];
    let compilation_options = wgpu::PipelineCompilationOptions {
        constants: &constants,
        ..Default::default()
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(&label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: shader,
            entry_point: Some("vs_main"),
            compilation_options: compilation_options.clone(),
            buffers: &[Some(Vertex::layout())],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: (!key.double_sided).then_some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(writes_depth(key.blend)),
            depth_compare: Some(wgpu::CompareFunction::LessEqual),
            stencil: Default::default(),
            bias: if key.surface {
                SURFACE_BIAS
            } else {
                Default::default()
            },
        }),
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: shader,
            entry_point: Some("fs_main"),
            compilation_options,
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: blend_state(key.blend),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
