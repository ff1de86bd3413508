//! Real shadows on a ground plane: the casters (per node its shadow mesh, else its render
//! mesh, see [`crate::inspect::posed::shadow_casters`]) are drawn depth-only from the directional
//! light into a 1024² shadow map; the ground quad under the model then darkens what the
//! map says the light cannot reach (`shaders/shadow.wgsl`).
//!
//! The light is the scene's (fixed relative to the camera, upper left); for the shadow
//! it is kept at least `MIN_ELEVATION` above the horizon so the shadow always falls on
//! the ground, also when the camera looks from below.

use crate::inspect::overlay_pass::upload;
use crate::target::DEPTH_FORMAT;

/// The shadow map's own depth format (sampled by comparison; no stencil).
const MAP_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};

/// The WGSL source of the shadow shader.
pub(crate) const SHADOW_WGSL: &str = include_str!("../../shaders/shadow.wgsl");
/// Shadow map side in texels.
pub(crate) const SHADOW_MAP_SIZE: u32 = 1024;
/// Smallest sine of the shadow light's elevation.
pub(crate) const MIN_ELEVATION: f32 = 0.45;
/// Alpha of full shadow on the ground.
pub(crate) const SHADOW_DARKNESS: f32 = 0.6;

/// `shadow.wgsl`'s uniform block.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct ShadowUniform {
    /// Model → light clip.
    pub(crate) light_view_proj: [[f32; 4]; 4],
    /// Model → camera clip.
    pub(crate) view_proj: [[f32; 4]; 4],
    /// xyz: ground centre, w: half size.
    pub ground: [f32; 4],
    /// x: darkness, y: texel size in uv, z: depth bias.
    pub(crate) params: [f32; 4],
}

/// The unit vector towards the light used for shadows, from the scene light `light`.
pub fn shadow_light(light: Vec3) -> Vec3 {
    let l = light.normalize_or(Vec3::Y);
    if l.y >= MIN_ELEVATION {
        return l;
    }
    let flat = Vec3::new(l.x, 0.0, l.z).normalize_or(Vec3::Z);
    let horizontal = (1.0 - MIN_ELEVATION * MIN_ELEVATION).sqrt();
    flat * horizontal + Vec3::Y * MIN_ELEVATION
}

/// The points a picture with shadows should show: every caster point and its shadow on
/// the ground (`ground_y`) along the unit light direction `light` (from
/// [`shadow_light`]). For framing the view.
pub(crate) fn shadow_footprint(casters: &[[Vec3; 3]], ground_y: f32, light: Vec3) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(casters.len() * 6);
    for p in casters.iter().flatten() {
        out.push(*p);
        if light.y > 1e-3 {
            out.push(*p - light * ((p.y - ground_y) / light.y));
        }
    }
    out
}

/// Where the ground goes and how the light sees the casters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ShadowSetup {
    /// Model space → light clip space.
    pub(crate) light_view_proj: Mat4,
    /// Centre of the ground quad (its y is the ground height).
    pub(crate) ground_centre: Vec3,
    /// Half the ground quad's side.
    pub(crate) ground_half: f32,
}

impl ShadowSetup {
    /// The light's orthographic view of the casters' bounds `lo..hi` (the casters and
    /// the shown model), ground at `ground_y`, light towards `light` (unit).
    pub fn new(lo: Vec3, hi: Vec3, ground_y: f32, light: Vec3) -> ShadowSetup {
        let centre = (lo + hi) * 0.5;
        let r = ((hi - lo).length() * 0.5).max(1e-3);
        let eye = centre + light * r * 2.0;
        let up = if light.y.abs() > 0.99 {
            Vec3::Z
        } else {
            Vec3::Y
        };
        let view = glam::camera::rh::view::look_at_mat4(eye, centre, up);
        let proj = glam::camera::rh::proj::directx::orthographic(-r, r, -r, r, r * 0.5, r * 3.5);
        ShadowSetup {
            light_view_proj: proj * view,
            ground_centre: Vec3::new(centre.x, ground_y - r * 1e-3, centre.z),
            ground_half: r * 4.0,
        }
    }
}

/// Shadow map, pipelines and the caster buffer.
#[derive(Debug)]
pub(crate) struct ShadowPass {
    caster_pipeline: wgpu::RenderPipeline,
    ground_pipeline: wgpu::RenderPipeline,
    map_view: wgpu::TextureView,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    caster_bind_group: wgpu::BindGroup,
    casters: Option<wgpu::Buffer>,
    caster_vertices: u32,
}

impl ShadowPass {
    /// Builds the map and pipelines for targets of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> ShadowPass {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("vitrine shadow.wgsl"),
            source: wgpu::ShaderSource::Wgsl(SHADOW_WGSL.into()),
        });
        let map = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("vitrine shadow map"),
            size: wgpu::Extent3d {
                width: SHADOW_MAP_SIZE,
                height: SHADOW_MAP_SIZE,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: MAP_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let map_view = map.create_view(&Default::default());
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("vitrine shadow sampler"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vitrine shadow uniform"),
            size: std::mem::size_of::<ShadowUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine shadow layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(
                            std::mem::size_of::<ShadowUniform>() as u64,
                        ),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    count: None,
                },
            ],
        });
        // The caster pass cannot bind the map it writes: it gets a layout of the uniform
        // only, with its own bind group.
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("vitrine shadow pipeline layout"),
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vitrine shadow bind group"),
            layout: &bgl,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&map_view),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        let caster_bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine shadow caster layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(
                        std::mem::size_of::<ShadowUniform>() as u64
                    ),
                },
                count: None,
            }],
        });
        let caster_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("vitrine shadow caster pipeline layout"),
            bind_group_layouts: &[Some(&caster_bgl)],
            immediate_size: 0,
        });
        let caster_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("vitrine shadow casters"),
            layout: Some(&caster_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_caster"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 12,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x3],
                })],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                cull_mode: None,
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: MAP_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: Default::default(),
                bias: wgpu::DepthBiasState {
                    constant: 2,
                    slope_scale: 2.0,
                    clamp: 0.0,
                },
            }),
            multisample: Default::default(),
            fragment: None,
            multiview_mask: None,
            cache: None,
        });
        let ground_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("vitrine shadow ground"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_ground"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                cull_mode: None,
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: samples,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_ground"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let caster_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vitrine shadow caster bind group"),
            layout: &caster_bgl,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            }],
        });
        ShadowPass {
            caster_pipeline,
            ground_pipeline,
            map_view,
            uniform,
            bind_group,
            casters: None,
            caster_vertices: 0,
            caster_bind_group,
        }
    }

    /// Uploads this frame's casters (model-space triangles) and the uniform.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        setup: &ShadowSetup,
        view_proj: Mat4,
        casters: &[[Vec3; 3]],
    ) {
        let u = ShadowUniform {
            light_view_proj: setup.light_view_proj.to_cols_array_2d(),
            view_proj: view_proj.to_cols_array_2d(),
            ground: setup.ground_centre.extend(setup.ground_half).to_array(),
            params: [SHADOW_DARKNESS, 1.5 / SHADOW_MAP_SIZE as f32, 0.0005, 0.0],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&u));
        let flat: Vec<[f32; 3]> = casters
            .iter()
            .flat_map(|t| t.map(|p| p.to_array()))
            .collect();
        self.caster_vertices = flat.len() as u32;
        upload(
            device,
            queue,
            &mut self.casters,
            bytemuck::cast_slice(&flat),
            "vitrine shadow casters",
        );
    }

    /// Records the shadow-map pass (clears the map, draws the casters).
    pub(crate) fn render_map(&self, encoder: &mut wgpu::CommandEncoder) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("vitrine shadow map pass"),
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.map_view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if self.caster_vertices > 0
            && let Some(b) = &self.casters
        {
            pass.set_pipeline(&self.caster_pipeline);
            pass.set_bind_group(0, &self.caster_bind_group, &[]);
            pass.set_vertex_buffer(0, b.slice(..));
            pass.draw(0..self.caster_vertices, 0..1);
        }
    }

    /// Records the ground quad into the scene pass.
    pub(crate) fn draw_ground(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.ground_pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.draw(0..6, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shadow_light_stays_above_the_horizon() {
        let high = Vec3::new(0.3, 0.9, 0.3).normalize();
        assert_eq!(shadow_light(high), high);
        let low = shadow_light(Vec3::new(1.0, -0.5, 0.0));
        assert!((low.length() - 1.0).abs() < 1e-5);
        assert!((low.y - MIN_ELEVATION).abs() < 1e-5 && low.x > 0.0);
    }

    #[test]
    fn footprints_land_on_the_ground_along_the_light() {
        let l = Vec3::new(1.0, 1.0, 0.0).normalize();
        let f = shadow_footprint(&[[Vec3::new(0.0, 2.0, 0.0); 3]], 0.0, l);
        assert_eq!(f.len(), 6);
        assert!(
            f[1].abs_diff_eq(Vec3::new(-2.0, 0.0, 0.0), 1e-5),
            "{}",
            f[1]
        );
    }

    #[test]
    fn casters_fall_inside_the_light_view() {
        let (lo, hi) = (Vec3::new(-1.0, 0.0, -2.0), Vec3::new(3.0, 2.0, 1.0));
        let s = ShadowSetup::new(lo, hi, 0.0, shadow_light(Vec3::new(-0.3, 0.6, 0.7)));
        for i in 0..8 {
            let c = Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            );
            let p = s.light_view_proj.project_point3(c);
            assert!(p.x.abs() <= 1.0 && p.y.abs() <= 1.0, "{c} -> {p}");
            assert!((0.0..=1.0).contains(&p.z), "{c} -> {p}");
        }
    }
}
