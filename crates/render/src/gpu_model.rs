//! Per-model GPU resources: the meshes' vertices and indices (each distinct corner of a
//! mesh one vertex, [`MeshBuffers`]) in as many buffer pairs as the device's buffer size
//! needs ([`geometry`](crate::geometry)), one bind group per material, and the per-draw /
//! per-skin uniform blocks that [`GpuModel::update`] rewrites each frame, in as many
//! buffers as needed ([`draw_runs`]).
//!
//! A draw is one (node, submesh) pair: every node showing a mesh draws each of its
//! material runs. Opaque and alpha-tested draws come first, with the layers of a surface
//! (`Mesh::surface_layer`) in their place however they blend, the other blended ones after
//! (in model order, not depth-sorted). Repeats of one opaque draw (a map's copies of one
//! model) are drawn together, instanced ([`draw_runs`]).

use super::colour_mode;
use super::draw_runs::{self, INSTANCES, Run};
use super::geometry::{self, Geometry};
use super::mesh_buffers::MeshBuffers;
use super::pipelines::{PipelineKey, Pipelines, blend_number, is_blended, writes_depth};
use super::textures::{GpuTexture, TexClass, TextureCache};
use super::uniforms::{DrawUniform, JOINTS_BYTES, MAX_JOINTS, MaterialUniform};
use glam::{Mat4, Quat, Vec3};
use std::sync::Arc;
use vitrine_core::model::{AlphaSource, Billboard, Model, Node, Pose};

/// One draw call.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DrawItem {
    /// Node whose world matrix places the mesh.
    pub node: usize,
    /// Mesh index (texture-frame offset).
    pub mesh: usize,
    /// The geometry chunk (vertex and index buffer) the mesh is in.
    pub(crate) chunk: u32,
    /// First index in the chunk's index buffer.
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

/// One buffer of draw uniforms and its bind group (with the joints).
#[derive(Debug)]
pub(crate) struct DrawChunk {
    buffer: wgpu::Buffer,
    /// Group 2: this buffer's draws and the joint matrices.
    pub(crate) bind_group: wgpu::BindGroup,
    size: u64,
}

/// Everything the GPU holds for the current model.
#[derive(Debug)]
pub(crate) struct GpuModel {
    geometry: Geometry,
    /// Materials, same order as the model's.
    pub materials: Vec<GpuMaterial>,
    /// Draws in submission order (repeats gathered, [`draw_runs::gather`]).
    pub draws: Vec<DrawItem>,
    /// The calls drawing them, instanced ([`draw_runs::runs`]).
    pub(crate) runs: Vec<Run>,
    /// The uniform buffers the runs' draws are in.
    pub(crate) draw_chunks: Vec<DrawChunk>,
    joints_buffer: wgpu::Buffer,
    /// Byte offset of each skin's joint block.
    pub(crate) joint_offsets: Vec<u32>,
    /// Per node, its team colour for the draw uniform ([`node_teams`]).
    teams: Vec<[f32; 4]>,
    /// Per node, its baked light for the draw uniform ([`node_lights`]).
    lights: Vec<f32>,
}

/// Bytes of one draw's uniforms (the shader's `Draw`).
const DRAW_SIZE: u64 = std::mem::size_of::<DrawUniform>() as u64;

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
    /// to `warnings`. Each buffer is at most the device's `max_buffer_size`, or `cap`
    /// bytes where that is less.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &Model,
        (pipelines, textures): (&mut Pipelines, &mut TextureCache),
        warnings: &mut Vec<String>,
        cap: Option<u64>,
    ) -> GpuModel {
        // Vertices, each distinct one of a mesh once, and the indices drawing them.
        let buffers = MeshBuffers::build(model);
        log::debug!(
            "{} triangle corners drawn from {} vertices",
            buffers.indices.len(),
            buffers.vertices.len()
        );
        let limit = device.limits().max_buffer_size.min(cap.unwrap_or(u64::MAX));
        let geometry = geometry::upload(device, queue, &buffers, limit, warnings);
        drop(buffers);
        let materials = build_materials(device, queue, model, pipelines, textures, warnings);
        // Repeats of a draw that writes depth go together (see `draw_runs`).
        let opaque = |d: &DrawItem| writes_depth(materials[d.material].key.blend);
        let draws = draw_runs::gather(draw_list(model, &geometry, &materials), opaque);
        for (i, skin) in model.skins.iter().enumerate() {
            if skin.joints.len() > MAX_JOINTS {
                warnings.push(format!(
                    "skin {i} ({}) has {} joints; only the first {MAX_JOINTS} deform the mesh",
                    skin.name,
                    skin.joints.len()
                ));
            }
        }
        let alignment = u64::from(device.limits().min_uniform_buffer_offset_alignment);
        let chunk = draw_runs::chunk_limit(device.limits().max_buffer_size, cap);
        let (runs, sizes) = draw_runs::runs(&draws, opaque, (DRAW_SIZE, alignment, chunk));
        log::debug!(
            "{} draws in {} calls, {} uniform buffers, {} geometry buffers",
            draws.len(),
            runs.len(),
            sizes.len(),
            geometry.chunks.len()
        );
        let (joints_buffer, joint_offsets) = joints_buffer(device, model, alignment);
        let draw_chunks = sizes
            .iter()
            .enumerate()
            .map(|(i, &size)| draw_chunk(device, pipelines, &joints_buffer, size, i))
            .collect();
        let model = GpuModel {
            geometry,
            materials,
            draws,
            runs,
            draw_chunks,
            joints_buffer,
            joint_offsets,
            teams: node_teams(model),
            lights: node_lights(model),
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

    /// The index of the first run drawn blended and not as a layer of a surface (the
    /// runs' count where there is none): the opaque draws, and the surfaces' layers
    /// however they blend, come before it.
    pub(crate) fn first_blended_run(&self) -> usize {
        self.runs
            .iter()
            .position(|run| {
                let d = &self.draws[run.first as usize];
                !d.surface && is_blended(self.materials[d.material].key.blend)
            })
            .unwrap_or(self.runs.len())
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

    /// The vertex and index buffer of geometry chunk `chunk` ([`DrawItem::chunk`]).
    pub fn buffers(&self, chunk: u32) -> Option<(&wgpu::Buffer, &wgpu::Buffer)> {
        let c = self.geometry.chunks.get(chunk as usize)?;
        Some((&c.vertices, &c.indices))
    }

    /// Writes this frame's draw uniforms and joint matrices. `view` is the camera's view
    /// matrix (billboards face it); a draw whose node `mask` or the pose hides is
    /// written hidden (the shader puts its triangles outside the view).
    pub fn update(&mut self, queue: &wgpu::Queue, pose: &Pose, view: Mat4, mask: &[bool]) {
        let camera_rotation = Quat::from_mat4(&view.inverse());
        // Each buffer's draws written straight into the queue's staging memory.
        let mut runs = self.runs.iter().peekable();
        while let Some(first) = runs.peek().copied() {
            let chunk = &self.draw_chunks[first.chunk as usize];
            let size = wgpu::BufferSize::new(chunk.size);
            let mut view = size.and_then(|size| queue.write_buffer_with(&chunk.buffer, 0, size));
            while let Some(run) = runs.next_if(|r| r.chunk == first.chunk) {
                for j in 0..run.count {
                    let d = &self.draws[(run.first + j) as usize];
                    let shown = crate::inspect::node_shown(pose, mask, d.node);
                    let u = self.draw_uniform(d, pose, camera_rotation, shown);
                    let at = run.offset as usize + j as usize * DRAW_SIZE as usize;
                    if let Some(view) = view.as_mut() {
                        let bytes = bytemuck::bytes_of(&u);
                        view.slice(at..at + bytes.len()).copy_from_slice(bytes);
                    }
                }
            }
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

    /// The uniforms of draw `d` this frame; `extra.z` −1 where it is hidden.
    fn draw_uniform(&self, d: &DrawItem, pose: &Pose, camera: Quat, shown: bool) -> DrawUniform {
        let mut world = pose.world.get(d.node).copied().unwrap_or(Mat4::IDENTITY);
        let billboard = self.materials[d.material].billboard;
        if billboard != Billboard::None {
            world = billboarded(world, billboard, camera);
        }
        let offset = pose.texture_offset.get(d.mesh).copied().unwrap_or_default();
        let skinned = match (shown, d.skin) {
            (false, _) => -1.0,
            (true, Some(_)) => 1.0,
            (true, None) => 0.0,
        };
        DrawUniform {
            model: world.to_cols_array_2d(),
            extra: [
                offset.x,
                offset.y,
                skinned,
                self.lights.get(d.node).copied().unwrap_or(0.0),
            ],
            node_colour: colour_mode::linear(colour_mode::node_colour(d.node)),
            team: self.teams.get(d.node).copied().unwrap_or([0.0; 4]),
        }
    }
}

/// `world` turned to face the camera (`camera`: the camera's rotation) as `billboard`
/// asks, in the node's own axes.
fn billboarded(world: Mat4, billboard: Billboard, camera: Quat) -> Mat4 {
    let (s, r, t) = world.to_scale_rotation_translation();
    // Towards the eye, in the node's own axes.
    let c = r.inverse() * (camera * Vec3::Z);
    let turned = match billboard {
        Billboard::None => r,
        Billboard::Screen => camera,
        // Rz(b)·Y = (−sin b, cos b, 0) along (c.x, c.y).
        Billboard::Roll => r * Quat::from_rotation_z((-c.x).atan2(c.y)),
        // Rx(a)·Rz(b)·Y = (−sin b, cos b·cos a, cos b·sin a) = c.
        Billboard::RollPitch => {
            let a = c.z.atan2(c.y);
            let b = (-c.x).atan2(c.y.hypot(c.z));
            r * Quat::from_rotation_x(a) * Quat::from_rotation_z(b)
        }
    };
    Mat4::from_scale_rotation_translation(s, turned, t)
}

/// Every (node, submesh) draw of `model`, opaque first (a surface's layers in their
/// place), a mesh no buffer could hold left out.
fn draw_list(model: &Model, geometry: &Geometry, materials: &[GpuMaterial]) -> Vec<DrawItem> {
    let mut draws = Vec::new();
    for (node_index, node) in model.nodes.iter().enumerate() {
        let Some(mi) = node.mesh else { continue };
        let (Some(mesh), Some(Some((chunk, first)))) =
            (model.meshes.get(mi), geometry.place.get(mi))
        else {
            continue;
        };
        for s in &mesh.submeshes {
            if s.triangle_count == 0 {
                continue;
            }
            draws.push(DrawItem {
                node: node_index,
                mesh: mi,
                chunk: *chunk,
                first_index: first + s.first_triangle * 3,
                index_count: s.triangle_count * 3,
                material: s.material,
                skin: mesh.skin.filter(|&k| k < model.skins.len()),
                surface: mesh.surface_layer,
            });
        }
    }
    draws.sort_by_key(|d| is_blended(materials[d.material].key.blend) && !d.surface);
    draws
}

/// The joint matrices' buffer, each skin's block at an offset of `alignment`.
fn joints_buffer(device: &wgpu::Device, model: &Model, alignment: u64) -> (wgpu::Buffer, Vec<u32>) {
    let mut joint_offsets = Vec::with_capacity(model.skins.len());
    let mut joints_size = 0u64;
    for skin in &model.skins {
        joint_offsets.push(joints_size as u32);
        let n = skin.joints.len().min(MAX_JOINTS) as u64;
        joints_size = align(joints_size + n * 64, alignment);
    }
    let last = joint_offsets.last().copied().unwrap_or(0) as u64;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("vitrine joint matrices"),
        size: (last + JOINTS_BYTES).max(joints_size),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    (buffer, joint_offsets)
}

/// Uniform buffer `index` of `size` bytes for draws, bound with the joints.
fn draw_chunk(
    device: &wgpu::Device,
    pipelines: &Pipelines,
    joints: &wgpu::Buffer,
    size: u64,
    index: usize,
) -> DrawChunk {
    let label = format!("vitrine draw uniforms {index}");
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(&label),
        size: size.max(DRAW_SIZE * u64::from(INSTANCES)),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(&label),
        layout: &pipelines.draw_layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &buffer,
                    offset: 0,
                    size: wgpu::BufferSize::new(DRAW_SIZE * u64::from(INSTANCES)),
                }),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: joints,
                    offset: 0,
                    size: wgpu::BufferSize::new(JOINTS_BYTES),
                }),
            },
        ],
    });
    DrawChunk {
        buffer,
        bind_group,
        size,
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
