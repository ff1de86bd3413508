//! Per-model GPU resources: one vertex and one index buffer for all meshes (each distinct
//! corner of a mesh one vertex, [`MeshBuffers`]), one bind group per material,
//! and the per-draw / per-skin uniform blocks that [`GpuModel::update`] rewrites each frame.
//!
//! A draw is one (node, submesh) pair: every node showing a mesh draws each of its
//! material runs. Opaque and alpha-tested draws come first, with the layers of a surface
//! (`Mesh::surface_layer`) in their place however they blend, the other blended ones after
//! (in model order, not depth-sorted).

use super::colour_mode;
use super::mesh_buffers::MeshBuffers;
use super::pipelines::{PipelineKey, Pipelines, blend_number, is_blended};
use super::textures::{GpuTexture, TexClass, TextureCache};
use super::uniforms::{DrawUniform, JOINTS_BYTES, MAX_JOINTS, MaterialUniform};
use glam::{Mat3, Mat4, Quat, Vec3};
use std::sync::Arc;
use vitrine_core::model::{AlphaSource, Billboard, Model, Node, Pose};

/// One draw call.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DrawItem {
    /// Node whose world matrix places the mesh.
    pub node: usize,
    /// Mesh index (texture-frame offset).
    pub mesh: usize,
    /// First index in the model's index buffer.
    pub(crate) first_index: u32,
    /// Index count (3 per triangle).
    pub(crate) index_count: u32,
    /// Material index.
    pub material: usize,
    /// Skin whose joint block this draw uses.
    pub skin: Option<usize>,
    /// The mesh is a layer of a surface (`Mesh::surface_layer`).
    pub(crate) surface: bool,
}

/// A material's bind group and state.
#[derive(Debug)]
pub(crate) struct GpuMaterial {
    /// Group 1.
    pub(crate) bind_group: wgpu::BindGroup,
    /// Pipeline selector.
    pub key: PipelineKey,
    /// Camera-facing mode.
    pub billboard: Billboard,
    /// One of its textures is a page not read yet
    /// ([`crate::pages::PageImage::waiting`]): its draws are left out until it arrives.
    pub waiting: bool,
    _uniform: wgpu::Buffer,
    _textures: Vec<Arc<GpuTexture>>,
}

/// Everything the GPU holds for the current model.
#[derive(Debug)]
pub(crate) struct GpuModel {
    vertices: Option<wgpu::Buffer>,
    indices: Option<wgpu::Buffer>,
    /// Materials, same order as the model's.
    pub materials: Vec<GpuMaterial>,
    /// Draw calls in submission order.
    pub draws: Vec<DrawItem>,
    draw_buffer: wgpu::Buffer,
    joints_buffer: wgpu::Buffer,
    /// Group 2.
    pub(crate) draw_bind_group: wgpu::BindGroup,
    /// Byte stride between draw uniforms (the device's offset alignment).
    pub(crate) draw_stride: u32,
    /// Byte offset of each skin's joint block.
    pub(crate) joint_offsets: Vec<u32>,
    /// Per node, its team colour for the draw uniform ([`node_teams`]).
    teams: Vec<[f32; 4]>,
    /// Per node, its baked light for the draw uniform ([`node_lights`]).
    lights: Vec<f32>,
    scratch: Vec<u8>,
}

/// Per node of `model`, what `own` gives it or else its nearest ancestor's (`Node::team`,
/// `Node::light`). Parents come before their children, so one pass suffices.
fn inherited<T: Copy>(model: &Model, own: impl Fn(&Node) -> Option<T>) -> Vec<Option<T>> {
    let mut out: Vec<Option<T>> = Vec::with_capacity(model.nodes.len());
    for n in &model.nodes {
        let from_parent = n.parent.and_then(|p| out.get(p).copied().flatten());
        out.push(own(n).or(from_parent));
    }
    out
}

/// Per node of `model`, the team colour it is drawn with as the draw uniform holds it:
/// sRGB 0..1 and w = 1 where the node or an ancestor has one (`Node::team`), else zeros
/// (the view's).
fn node_teams(model: &Model) -> Vec<[f32; 4]> {
    use vitrine_core::model::team::TEAM_COLOURS;
    inherited(model, |n| n.team)
        .into_iter()
        .map(|t| {
            t.map_or([0.0; 4], |t| {
                let [r, g, b] = TEAM_COLOURS[t % TEAM_COLOURS.len()].rgb;
                [r, g, b, 255].map(|c| f32::from(c) / 255.0)
            })
        })
        .collect()
}

/// Per node of `model`, the constant baked light it is drawn with (`Node::light`, its own
/// or its nearest ancestor's) as the draw uniform holds it: the light, or 0 for none (a
/// light of 0 would draw black, which no node asks for).
fn node_lights(model: &Model) -> Vec<f32> {
    inherited(model, |n| n.light)
        .into_iter()
        .map(|l| l.unwrap_or(0.0))
        .collect()
}

fn align(n: u64, a: u64) -> u64 {
    n.div_ceil(a) * a
}

impl GpuModel {
    /// Uploads `model`; texture problems (undecodable files, too many joints) are pushed
    /// to `warnings`.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &Model,
        pipelines: &mut Pipelines,
        textures: &mut TextureCache,
        warnings: &mut Vec<String>,
    ) -> GpuModel {
        // Vertices, each distinct one of a mesh once, and the indices drawing them.
        let buffers = MeshBuffers::build(model);
        log::debug!(
            "{} triangle corners drawn from {} vertices",
            buffers.indices.len(),
            buffers.vertices.len()
        );
        let buffer = |label: &str, bytes: &[u8], usage| {
            (!bytes.is_empty()).then(|| super::gpu::buffer_with(device, queue, label, bytes, usage))
        };
        let vertex_buffer = buffer(
            "vitrine model vertices",
            bytemuck::cast_slice(&buffers.vertices),
            wgpu::BufferUsages::VERTEX,
        );
        let index_buffer = buffer(
            "vitrine model indices",
            bytemuck::cast_slice(&buffers.indices),
            wgpu::BufferUsages::INDEX,
        );
        let mesh_first = buffers.first_index;

        let materials = build_materials(device, queue, model, pipelines, textures, warnings);

        // Draws: opaque first (with a surface's layers, however they blend, in their
        // place), then blended.
        let mut draws = Vec::new();
        for (node_index, node) in model.nodes.iter().enumerate() {
            let Some(mi) = node.mesh else { continue };
            let mesh = &model.meshes[mi];
            for s in &mesh.submeshes {
                if s.triangle_count == 0 {
                    continue;
                }
                draws.push(DrawItem {
                    node: node_index,
                    mesh: mi,
                    first_index: mesh_first[mi] + s.first_triangle * 3,
                    index_count: s.triangle_count * 3,
                    material: s.material,
                    skin: mesh.skin.filter(|&k| k < model.skins.len()),
                    surface: mesh.surface_layer,
                });
            }
        }
        draws.sort_by_key(|d| is_blended(materials[d.material].key.blend) && !d.surface);

        for (i, skin) in model.skins.iter().enumerate() {
            if skin.joints.len() > MAX_JOINTS {
                warnings.push(format!(
                    "skin {i} ({}) has {} joints; only the first {MAX_JOINTS} deform the mesh",
                    skin.name,
                    skin.joints.len()
                ));
            }
        }

        let alignment = device.limits().min_uniform_buffer_offset_alignment as u64;
        let draw_stride = align(std::mem::size_of::<DrawUniform>() as u64, alignment);
        let draw_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vitrine draw uniforms"),
            size: draw_stride * draws.len().max(1) as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut joint_offsets = Vec::with_capacity(model.skins.len());
        let mut joints_size = 0u64;
        for skin in &model.skins {
            joint_offsets.push(joints_size as u32);
            let n = skin.joints.len().min(MAX_JOINTS) as u64;
            joints_size = align(joints_size + n * 64, alignment);
        }
        let last = joint_offsets.last().copied().unwrap_or(0) as u64;
        let joints_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vitrine joint matrices"),
            size: (last + JOINTS_BYTES).max(joints_size),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let draw_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vitrine draw bind group"),
            layout: &pipelines.draw_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &draw_buffer,
                        offset: 0,
                        size: wgpu::BufferSize::new(std::mem::size_of::<DrawUniform>() as u64),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &joints_buffer,
                        offset: 0,
                        size: wgpu::BufferSize::new(JOINTS_BYTES),
                    }),
                },
            ],
        });
        let model = GpuModel {
            vertices: vertex_buffer,
            indices: index_buffer,
            materials,
            draws,
            draw_buffer,
            joints_buffer,
            draw_bind_group,
            draw_stride: draw_stride as u32,
            joint_offsets,
            teams: node_teams(model),
            lights: node_lights(model),
            scratch: Vec::new(),
        };
        model.create_pipelines(device, pipelines);
        model
    }

    /// Creates the pipeline of every draw (its material's, skinned or not).
    fn create_pipelines(&self, device: &wgpu::Device, pipelines: &mut Pipelines) {
        for d in &self.draws {
            pipelines.get_or_create(device, self.draw_key(d));
        }
    }

    /// The pipeline key of draw `d`.
    pub(crate) fn draw_key(&self, d: &DrawItem) -> PipelineKey {
        self.materials[d.material]
            .key
            .for_draw(d.skin.is_some(), d.surface)
    }

    /// Builds the materials' bind groups again from the texture cache (`model` is the
    /// one uploaded): after [`TextureCache::refine`] replaced pages uploaded in part.
    pub fn refresh_materials(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &Model,
        pipelines: &mut Pipelines,
        textures: &mut TextureCache,
        warnings: &mut Vec<String>,
    ) {
        self.materials = build_materials(device, queue, model, pipelines, textures, warnings);
        self.create_pipelines(device, pipelines);
    }

    /// The vertex and index buffers (`None` when the model has no triangles).
    pub fn buffers(&self) -> Option<(&wgpu::Buffer, &wgpu::Buffer)> {
        self.vertices.as_ref().zip(self.indices.as_ref())
    }

    /// Writes this frame's draw uniforms and joint matrices. `view` is the camera's view
    /// matrix (billboards face it).
    pub fn update(&mut self, queue: &wgpu::Queue, pose: &Pose, view: Mat4) {
        let stride = self.draw_stride as usize;
        self.scratch.clear();
        self.scratch.resize(stride * self.draws.len(), 0);
        let camera_rotation = Quat::from_mat4(&view.inverse());
        for (i, d) in self.draws.iter().enumerate() {
            let mut world = pose.world.get(d.node).copied().unwrap_or(Mat4::IDENTITY);
            let billboard = self.materials[d.material].billboard;
            if billboard != Billboard::None {
                let (s, r, t) = world.to_scale_rotation_translation();
                // Towards the eye, in the node's own axes.
                let c = r.inverse() * (camera_rotation * Vec3::Z);
                let turned = match billboard {
                    Billboard::None => r,
                    Billboard::Screen => camera_rotation,
                    // Rz(b)·Y = (−sin b, cos b, 0) along (c.x, c.y).
                    Billboard::Roll => r * Quat::from_rotation_z((-c.x).atan2(c.y)),
                    // Rx(a)·Rz(b)·Y = (−sin b, cos b·cos a, cos b·sin a) = c.
                    Billboard::RollPitch => {
                        let a = c.z.atan2(c.y);
                        let b = (-c.x).atan2(c.y.hypot(c.z));
                        r * Quat::from_rotation_x(a) * Quat::from_rotation_z(b)
                    }
                };
                world = Mat4::from_scale_rotation_translation(s, turned, t);
            }
            let normal = Mat3::from_mat4(world).inverse().transpose();
            let normal = if normal.is_finite() {
                Mat4::from_mat3(normal)
            } else {
                Mat4::IDENTITY
            };
            let offset = pose.texture_offset.get(d.mesh).copied().unwrap_or_default();
            let u = DrawUniform {
                model: world.to_cols_array_2d(),
                normal: normal.to_cols_array_2d(),
                extra: [
                    offset.x,
                    offset.y,
                    if d.skin.is_some() { 1.0 } else { 0.0 },
                    self.lights.get(d.node).copied().unwrap_or(0.0),
                ],
                node_colour: colour_mode::linear(colour_mode::node_colour(d.node)),
                team: self.teams.get(d.node).copied().unwrap_or([0.0; 4]),
            };
            self.scratch[i * stride..i * stride + std::mem::size_of::<DrawUniform>()]
                .copy_from_slice(bytemuck::bytes_of(&u));
        }
        if !self.scratch.is_empty() {
            queue.write_buffer(&self.draw_buffer, 0, &self.scratch);
        }
        for (skin, &offset) in self.joint_offsets.iter().enumerate() {
            let Some(mats) = pose.joint_matrices.get(skin) else {
                continue;
            };
            let n = mats.len().min(MAX_JOINTS);
            if n == 0 {
                continue;
            }
            let cols: Vec<[f32; 16]> = mats[..n].iter().map(|m| m.to_cols_array()).collect();
            queue.write_buffer(
                &self.joints_buffer,
                offset as u64,
                bytemuck::cast_slice(&cols),
            );
        }
    }
}

fn tex_entry(binding: u32, t: &GpuTexture) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::TextureView(&t.view),
    }
}

/// Every material of `model`, its textures fetched from `textures`.
fn build_materials(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    model: &Model,
    pipelines: &Pipelines,
    textures: &mut TextureCache,
    warnings: &mut Vec<String>,
) -> Vec<GpuMaterial> {
    model
        .materials
        .iter()
        .map(|m| build_material(device, queue, model, m, pipelines, textures, warnings))
        .collect()
}

fn build_material(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    model: &Model,
    m: &vitrine_core::model::Material,
    pipelines: &Pipelines,
    textures: &mut TextureCache,
    warnings: &mut Vec<String>,
) -> GpuMaterial {
    // Each slot: the texture if present and decodable, else the placeholder.
    let mut fetch = |slot: Option<usize>, class: TexClass| -> Option<Arc<GpuTexture>> {
        let t = model.textures.get(slot?)?;
        let path = t.resolved.as_ref()?;
        match textures.get(device, queue, path, class) {
            Ok(tex) => Some(tex),
            Err(e) => {
                let role = t.role.name();
                let shown = if class == TexClass::Color {
                    "showing a checkerboard"
                } else {
                    "ignored"
                };
                warnings.push(format!(
                    "{role} texture {} unreadable ({e}); {shown}",
                    t.name
                ));
                None
            }
        }
    };
    let base = fetch(m.base, TexClass::Color);
    let tcmask = fetch(m.tcmask, TexClass::Data);
    let normal = fetch(m.normal, TexClass::Data);
    let specular = fetch(m.specular, TexClass::Data);
    let opacity = fetch(m.opacity, TexClass::Data);
    let shade = fetch(m.shade, TexClass::Color);
    let waiting = [&base, &tcmask, &normal, &specular, &opacity, &shade]
        .into_iter()
        .flatten()
        .any(|t| t.waiting);
    let flags = [
        tcmask.is_some() as u32,
        normal.is_some() as u32,
        specular.is_some() as u32,
        match (&opacity, m.opacity_source) {
            (None, _) => 0,
            (Some(_), AlphaSource::Alpha) => 1,
            (Some(_), AlphaSource::Red) => 2,
            (Some(_), AlphaSource::Luminance) => 3,
        },
    ];
    // A base texture the model names but we could not show: the checkerboard.
    let base = match (m.base, base) {
        (_, Some(t)) => t,
        (Some(_), None) => textures.checker.clone(),
        (None, None) => textures.white.clone(),
    };
    let tcmask = tcmask.unwrap_or_else(|| textures.black.clone());
    let normal = normal.unwrap_or_else(|| textures.flat_normal.clone());
    let specular = specular.unwrap_or_else(|| textures.black.clone());
    let opacity = opacity.unwrap_or_else(|| textures.white.clone());
    let has_shade = shade.is_some();
    let shade = shade.unwrap_or_else(|| textures.white.clone());
    let blend = blend_number(m.blend);
    let uniform = MaterialUniform {
        base_color: m.base_color,
        flags,
        mode: [blend, 0, 0, 0],
        scroll: [
            m.uv_scroll[0],
            m.uv_scroll[1],
            if has_shade { 1.0 } else { 0.0 },
            0.0,
        ],
    };
    let buffer = super::gpu::buffer_with(
        device,
        queue,
        &format!("vitrine material {}", m.name),
        bytemuck::bytes_of(&uniform),
        wgpu::BufferUsages::UNIFORM,
    );
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(&format!("vitrine material {}", m.name)),
        layout: &pipelines.material_layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            },
            tex_entry(1, &base),
            tex_entry(2, &tcmask),
            tex_entry(3, &normal),
            tex_entry(4, &specular),
            tex_entry(5, &opacity),
            tex_entry(6, &shade),
        ],
    });
    GpuMaterial {
        bind_group,
        key: PipelineKey {
            blend,
            double_sided: m.double_sided,
            maps: [
                flags[0] != 0,
                flags[1] != 0,
                flags[2] != 0,
                flags[3] != 0,
                has_shade,
            ],
            skinned: false,
            surface: false,
        },
        billboard: m.billboard,
        waiting,
        _uniform: buffer,
        _textures: vec![base, tcmask, normal, specular, opacity, shade],
    }
}
