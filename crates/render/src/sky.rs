//! The sky box of a model's [`Environment`](vitrine_core::model::Environment)
//! (`shaders/sky.wgsl`): its mesh and texture uploaded with the model, drawn first in the
//! scene pass around the eye with no depth test or write, so every mesh covers it.
//!
//! Drawn in perspective views only: in an orthographic view every ray looks the same
//! way, and a sky would be one colour (the fog is left out there too, see
//! [`crate::ViewSettings::environment`]).

use crate::target::DEPTH_FORMAT;
use crate::textures::{GpuTexture, TexClass, TextureCache};
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use std::sync::Arc;
use vitrine_core::model::{Fog, Model, Sky};

/// The WGSL source of the sky shader.
pub(crate) const SKY_WGSL: &str = include_str!("../shaders/sky.wgsl");

/// `sky.wgsl`'s uniform block.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct SkyUniform {
    box_to_clip: [[f32; 4]; 4],
    fog: [f32; 4],
    bands: [f32; 4],
}

/// One corner of the sky box as the shader reads it.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct SkyVertex {
    position: [f32; 3],
    uv: [f32; 2],
}

/// The sky's pipeline, and the current model's sky.
#[derive(Debug)]
pub(crate) struct SkyPass {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    uniform: wgpu::Buffer,
    current: Option<CurrentSky>,
}

/// The uploaded sky of the current model.
#[derive(Debug)]
struct CurrentSky {
    sky: Sky,
    vertices: wgpu::Buffer,
    count: u32,
    bind_group: wgpu::BindGroup,
    _texture: Arc<GpuTexture>,
}

/// What a frame's sky is drawn with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SkyFrame<'a> {
    /// The view's camera.
    pub camera: &'a crate::Camera,
    /// Width / height of the target.
    pub aspect: f32,
    /// Scene time, seconds (the sky turns).
    pub time: f32,
    /// The model's fog, if the view applies it.
    pub fog: Option<&'a Fog>,
}

impl SkyPass {
    /// Builds the pipeline for targets of `format` with `samples` per pixel.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> SkyPass {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("vitrine sky.wgsl"),
            source: wgpu::ShaderSource::Wgsl(SKY_WGSL.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine sky layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(
                            std::mem::size_of::<SkyUniform>() as u64
                        ),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("vitrine sky pipeline layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let constants = [("ENCODE_SRGB", if format.is_srgb() { 0.0 } else { 1.0 })];
        let options = wgpu::PipelineCompilationOptions {
            constants: &constants,
            ..Default::default()
        };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("vitrine sky"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_sky"),
                compilation_options: options.clone(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<SkyVertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x2],
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: samples,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_sky"),
                compilation_options: options,
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("vitrine sky sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vitrine sky uniform"),
            size: std::mem::size_of::<SkyUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        SkyPass {
            pipeline,
            layout,
            sampler,
            uniform,
            current: None,
        }
    }

    /// Uploads `model`'s sky (none: nothing is drawn); a texture that does not decode is
    /// a warning and no sky.
    pub fn set_model(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &Model,
        textures: &mut TextureCache,
        warnings: &mut Vec<String>,
    ) {
        self.current = None;
        let Some(sky) = &model.environment.sky else {
            return;
        };
        let Some(t) = model.textures.get(sky.texture) else {
            return;
        };
        let Some(file) = &t.resolved else {
            return;
        };
        let texture = match textures.get(device, queue, file, TexClass::Color) {
            // Its page not read yet (a map's first frame): no sky until it is.
            Ok(texture) if texture.waiting => return,
            Ok(texture) => texture,
            Err(e) => {
                warnings.push(format!("sky texture {} unreadable ({e}); no sky", t.name));
                return;
            }
        };
        let vertices: Vec<SkyVertex> = sky
            .mesh
            .corners
            .iter()
            .filter_map(|c| {
                Some(SkyVertex {
                    position: sky.mesh.points.get(c.point as usize)?.to_array(),
                    uv: c.uv[0].to_array(),
                })
            })
            .collect();
        if vertices.is_empty() {
            return;
        }
        let buffer = crate::gpu::buffer_with(
            device,
            queue,
            "vitrine sky vertices",
            bytemuck::cast_slice(&vertices),
            wgpu::BufferUsages::VERTEX,
        );
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vitrine sky bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&texture.view),
                },
            ],
        });
        self.current = Some(CurrentSky {
            sky: sky.clone(),
            vertices: buffer,
            count: vertices.len() as u32,
            bind_group,
            _texture: texture,
        });
    }

    /// Writes this frame's uniform; says whether to draw (a sky, a perspective view).
    pub fn prepare(&self, queue: &wgpu::Queue, frame: &SkyFrame<'_>) -> bool {
        let Some(current) = &self.current else {
            return false;
        };
        if frame.camera.orthographic {
            return false;
        }
        let u = SkyUniform {
            box_to_clip: box_to_clip(&current.sky, frame).to_cols_array_2d(),
            fog: frame
                .fog
                .map_or([0.0; 4], |f| [f.colour[0], f.colour[1], f.colour[2], 1.0]),
            bands: [current.sky.fog_below, current.sky.black_below, 0.0, 0.0],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&u));
        true
    }

    /// Records the sky's draw (after [`SkyPass::prepare`] said yes).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some(current) = &self.current else {
            return;
        };
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &current.bind_group, &[]);
        pass.set_vertex_buffer(0, current.vertices.slice(..));
        pass.draw(0..current.count, 0..1);
    }
}

/// Unit box → clip space: the box scaled, turned by the time, lifted, around the eye,
/// seen through the camera's rotation and field of view (its own near and far planes,
/// so the box is never cut by the scene's).
fn box_to_clip(sky: &Sky, frame: &SkyFrame<'_>) -> Mat4 {
    let camera = frame.camera;
    let rotation_only = camera.view() * Mat4::from_translation(camera.eye());
    let reach = Vec3::from_array(sky.scale).max_element().max(1e-3);
    let projection = glam::camera::rh::proj::directx::perspective(
        camera.fov_y,
        frame.aspect,
        reach * 1e-3,
        reach * 10.0,
    );
    let turn = (sky.turn_deg_per_s * frame.time)
        .rem_euclid(360.0)
        .to_radians();
    projection
        * rotation_only
        * Mat4::from_translation(Vec3::Y * sky.lift)
        * Mat4::from_rotation_y(turn)
        * Mat4::from_scale(Vec3::from_array(sky.scale))
}
