//! GPU side of the overlays: the segment pipelines (depth-tested and x-ray) and the
//! selection-tint pipeline of `shaders/overlay.wgsl`, with buffers that grow as needed.
//! Drawn inside the scene's render pass, after the model, so they share its depth.

use crate::inspect::overlays::Segment;
use crate::target::DEPTH_FORMAT;
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};

/// The WGSL source of the overlay shader.
pub(crate) const OVERLAY_WGSL: &str = include_str!("../../shaders/overlay.wgsl");

/// Group 0 binding 0 of `overlay.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct OverlayFrame {
    /// Projection · view.
    pub(crate) view_proj: [[f32; 4]; 4],
    /// xyz: eye.
    pub eye: [f32; 4],
    /// xy: viewport size in pixels.
    pub viewport: [f32; 4],
}

/// Group 0 binding 1: the tint colour.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct FillUniform {
    color: [f32; 4],
}

/// Pipelines and buffers of the overlays.
#[derive(Debug)]
pub(crate) struct OverlayPass {
    depth_tested: wgpu::RenderPipeline,
    xray: wgpu::RenderPipeline,
    fill: wgpu::RenderPipeline,
    frame: wgpu::Buffer,
    fill_uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    segments: Option<wgpu::Buffer>,
    segment_count: u32,
    triangles: Option<wgpu::Buffer>,
    vertex_count: u32,
    xray_on: bool,
}

/// What every overlay pipeline shares.
struct Parts<'a> {
    device: &'a wgpu::Device,
    layout: &'a wgpu::PipelineLayout,
    module: &'a wgpu::ShaderModule,
    format: wgpu::TextureFormat,
    samples: u32,
}

fn pipeline(
    parts: &Parts,
    label: &str,
    entry: &str,
    buffers: &[Option<wgpu::VertexBufferLayout>],
    compare: wgpu::CompareFunction,
) -> wgpu::RenderPipeline {
    let Parts {
        device,
        layout,
        module,
        format,
        samples,
    } = *parts;
    let constants = [("ENCODE_SRGB", if format.is_srgb() { 0.0 } else { 1.0 })];
    let options = wgpu::PipelineCompilationOptions {
        constants: &constants,
        ..Default::default()
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(entry),
            compilation_options: options.clone(),
            buffers,
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(false),
            depth_compare: Some(compare),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs_main"),
            compilation_options: options,
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

const SEGMENT_ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
    0 => Float32x4,
    1 => Float32x4,
    2 => Float32x4,
    3 => Float32x4,
    4 => Float32x4,
];

const FILL_ATTRIBUTES: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Float32x3];

impl OverlayPass {
    /// Builds the pipelines for targets of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> OverlayPass {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("vitrine overlay.wgsl"),
            source: wgpu::ShaderSource::Wgsl(OVERLAY_WGSL.into()),
        });
        let uniform = |binding, size: usize| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: wgpu::BufferSize::new(size as u64),
            },
            count: None,
        };
        let bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine overlay layout"),
            entries: &[
                uniform(0, std::mem::size_of::<OverlayFrame>()),
                uniform(1, std::mem::size_of::<FillUniform>()),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("vitrine overlay pipeline layout"),
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        let segment_layout = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Segment>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &SEGMENT_ATTRIBUTES,
        };
        let fill_layout = wgpu::VertexBufferLayout {
            array_stride: 12,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &FILL_ATTRIBUTES,
        };
        use wgpu::CompareFunction::{Always, LessEqual};
        let seg = [Some(segment_layout)];
        let parts = Parts {
            device,
            layout: &layout,
            module: &module,
            format,
            samples,
        };
        let depth_tested = pipeline(
            &parts,
            "vitrine overlay segments",
            "vs_segment",
            &seg,
            LessEqual,
        );
        let xray = pipeline(
            &parts,
            "vitrine overlay segments x-ray",
            "vs_segment",
            &seg,
            Always,
        );
        let fill = pipeline(
            &parts,
            "vitrine selection tint",
            "vs_fill",
            &[Some(fill_layout)],
            LessEqual,
        );
        let buffer = |label, size: usize| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let frame = buffer("vitrine overlay frame", std::mem::size_of::<OverlayFrame>());
        let fill_uniform = buffer("vitrine selection tint colour", 16);
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vitrine overlay bind group"),
            layout: &bgl,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: frame.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: fill_uniform.as_entire_binding(),
                },
            ],
        });
        OverlayPass {
            depth_tested,
            xray,
            fill,
            frame,
            fill_uniform,
            bind_group,
            segments: None,
            segment_count: 0,
            triangles: None,
            vertex_count: 0,
            xray_on: false,
        }
    }

    /// Uploads this frame's segments and tint triangles.
    #[allow(clippy::too_many_arguments)]
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        view_proj: Mat4,
        eye: Vec3,
        size: [u32; 2],
        segments: &[Segment],
        tint: &[[Vec3; 3]],
        tint_colour: [u8; 4],
        xray: bool,
    ) {
        let frame = OverlayFrame {
            view_proj: view_proj.to_cols_array_2d(),
            eye: eye.extend(1.0).to_array(),
            viewport: [size[0] as f32, size[1] as f32, 0.0, 0.0],
        };
        queue.write_buffer(&self.frame, 0, bytemuck::bytes_of(&frame));
        let colour = FillUniform {
            color: tint_colour.map(|c| c as f32 / 255.0),
        };
        queue.write_buffer(&self.fill_uniform, 0, bytemuck::bytes_of(&colour));
        self.xray_on = xray;
        self.segment_count = segments.len() as u32;
        upload(
            device,
            queue,
            &mut self.segments,
            bytemuck::cast_slice(segments),
            "vitrine overlay segments",
        );
        let flat: Vec<[f32; 3]> = tint.iter().flat_map(|t| t.map(|p| p.to_array())).collect();
        self.vertex_count = flat.len() as u32;
        upload(
            device,
            queue,
            &mut self.triangles,
            bytemuck::cast_slice(&flat),
            "vitrine selection triangles",
        );
    }

    /// Records the draws into the scene's pass: the tint, then the segments.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_bind_group(0, &self.bind_group, &[]);
        if self.vertex_count > 0
            && let Some(b) = &self.triangles
        {
            pass.set_pipeline(&self.fill);
            pass.set_vertex_buffer(0, b.slice(..));
            pass.draw(0..self.vertex_count, 0..1);
        }
        if self.segment_count > 0
            && let Some(b) = &self.segments
        {
            pass.set_pipeline(if self.xray_on {
                &self.xray
            } else {
                &self.depth_tested
            });
            pass.set_vertex_buffer(0, b.slice(..));
            pass.draw(0..6, 0..self.segment_count);
        }
    }
}

/// Writes `bytes` into `buffer`, replacing it with a larger one when it is too small.
pub fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &mut Option<wgpu::Buffer>,
    bytes: &[u8],
    label: &str,
) {
    if bytes.is_empty() {
        return;
    }
    let len = bytes.len() as u64;
    if buffer.as_ref().is_none_or(|b| b.size() < len) {
        *buffer = Some(device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: len.next_power_of_two().max(256),
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }));
    }
    if let Some(b) = buffer {
        queue.write_buffer(b, 0, bytes);
    }
}
