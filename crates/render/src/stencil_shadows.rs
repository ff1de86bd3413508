//! A scene's own shadows ([`vitrine_core::model::Shadows`]: a Warzone 2100 map's, as the
//! game draws them), by stencil shadow volumes: for each shown mesh whose node casts
//! ([`vitrine_core::model::Node::casts_shadow`]), the triangles that face the light
//! (their counter-clockwise normal against its direction), the edges of those not shared
//! with another of them in the other direction (the outline), each edge `a → b` pulled
//! along the light into the quad `b, b + light, a + light, a`. The quads are drawn after
//! the opaque meshes, into the stencil only: a face turned towards the eye adds one where
//! it passes the depth test, one turned away subtracts one (wrapping), both sides drawn.
//! A triangle over the whole screen then darkens the colour where the stencil is not 0:
//! black at alpha `darkness`, blended over the encoded colour. Blended meshes are drawn
//! after, over the shadows.
//!
//! The volumes are built on the CPU in each mesh's own space, once per mesh and light as
//! that mesh sees it (`W⁻¹ · light` for a node at `W`: a map's thousand copies of one
//! wall, turned four ways, are four volumes), and drawn instanced at each caster's
//! matrix (`W · (v + W⁻¹ · light)` is `W · v + light`); a skinned mesh's volume is
//! built posed, at identity. They are built again only when a caster's place, the shown
//! nodes or the light change (a map's are built once).

use crate::inspect::node_shown;
use crate::target::DEPTH_FORMAT;
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use std::hash::{Hash, Hasher};
use vitrine_core::model::{Model, Pose, Shadows};

/// The WGSL source of the volumes and the darkening.
pub(crate) const STENCIL_SHADOW_WGSL: &str = include_str!("../shaders/stencil_shadow.wgsl");

/// The shader's `Shadow`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct ShadowUniform {
    view_proj: [[f32; 4]; 4],
    darkness: [f32; 4],
}

/// The pipelines, the uniform and the current volumes.
#[derive(Debug)]
pub(crate) struct StencilShadows {
    volume_pipeline: wgpu::RenderPipeline,
    darken_pipeline: wgpu::RenderPipeline,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    /// The volumes' corners and the casters' matrices, once uploaded.
    buffers: Option<(wgpu::Buffer, wgpu::Buffer)>,
    /// Per volume: its corners and its casters (instances).
    draws: Vec<(std::ops::Range<u32>, std::ops::Range<u32>)>,
    /// What the current volumes were built from ([`volume_key`]).
    key: Option<u64>,
}

impl StencilShadows {
    /// Pipelines for targets of `format` with `samples` per pixel.
    pub(crate) fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("vitrine stencil_shadow.wgsl"),
            source: wgpu::ShaderSource::Wgsl(STENCIL_SHADOW_WGSL.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("vitrine stencil shadow layout"),
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
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vitrine stencil shadow uniform"),
            size: std::mem::size_of::<ShadowUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vitrine stencil shadow bind group"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("vitrine stencil shadow pipeline layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let counting = |pass_op| wgpu::StencilFaceState {
            compare: wgpu::CompareFunction::Always,
            fail_op: wgpu::StencilOperation::Keep,
            depth_fail_op: wgpu::StencilOperation::Keep,
            pass_op,
        };
        let volume_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("vitrine shadow volumes"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_volume"),
                compilation_options: Default::default(),
                buffers: &[
                    Some(wgpu::VertexBufferLayout {
                        array_stride: 12,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &wgpu::vertex_attr_array![0 => Float32x3],
                    }),
                    Some(wgpu::VertexBufferLayout {
                        array_stride: 64,
                        step_mode: wgpu::VertexStepMode::Instance,
                        attributes: &wgpu::vertex_attr_array![
                            1 => Float32x4, 2 => Float32x4, 3 => Float32x4, 4 => Float32x4
                        ],
                    }),
                ],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                front_face: wgpu::FrontFace::Ccw,
                cull_mode: None,
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: wgpu::StencilState {
                    front: counting(wgpu::StencilOperation::IncrementWrap),
                    back: counting(wgpu::StencilOperation::DecrementWrap),
                    read_mask: 0xff,
                    write_mask: 0xff,
                },
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: samples,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_volume"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::empty(),
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let inside = wgpu::StencilFaceState {
            compare: wgpu::CompareFunction::NotEqual,
            fail_op: wgpu::StencilOperation::Keep,
            depth_fail_op: wgpu::StencilOperation::Keep,
            pass_op: wgpu::StencilOperation::Keep,
        };
        let darken_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("vitrine shadow darkening"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_darken"),
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
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: wgpu::StencilState {
                    front: inside,
                    back: inside,
                    read_mask: 0xff,
                    write_mask: 0,
                },
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: samples,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_darken"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    // Black at alpha `darkness` over the colour; the alpha kept.
                    blend: Some(wgpu::BlendState {
                        color: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::SrcAlpha,
                            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                            operation: wgpu::BlendOperation::Add,
                        },
                        alpha: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::Zero,
                            dst_factor: wgpu::BlendFactor::One,
                            operation: wgpu::BlendOperation::Add,
                        },
                    }),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        StencilShadows {
            volume_pipeline,
            darken_pipeline,
            uniform,
            bind_group,
            buffers: None,
            draws: Vec::new(),
            key: None,
        }
    }

    /// Builds (where what they come from changed) and uploads this frame's volumes of
    /// `model`'s casters in `pose` (nodes hidden by it or by `mask` cast none, nor those
    /// whose origin is `reach` or farther from `eye`) and its uniform; says whether there
    /// is anything to draw.
    pub(crate) fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (model, pose, mask): (&Model, &Pose, &[bool]),
        shadows: &Shadows,
        (view_proj, eye, reach): (Mat4, Vec3, Option<f32>),
    ) -> bool {
        let mut casters = casters(model, pose, mask);
        if let Some(reach) = reach {
            casters.retain(|&i| {
                let world = pose.world.get(i).copied().unwrap_or(Mat4::IDENTITY);
                world.w_axis.truncate().distance(eye) < reach
            });
        }
        let light = Vec3::from_array(shadows.light);
        let key = volume_key(model, pose, &casters, light);
        if self.key != Some(key) {
            let built = volumes(model, pose, (&casters, eye), light);
            self.draws = built.draws;
            let limit = device.limits().max_buffer_size;
            let fits = |bytes: usize| bytes > 0 && bytes as u64 <= limit;
            let (corners, matrices): (&[u8], &[u8]) = (
                bytemuck::cast_slice(&built.corners),
                bytemuck::cast_slice(&built.instances),
            );
            // Past the device's largest buffer (no map within the game's limits comes
            // near it): no shadows rather than no picture.
            self.buffers = (fits(corners.len()) && fits(matrices.len())).then(|| {
                let upload = |label, bytes: &[u8]| {
                    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some(label),
                        size: bytes.len() as u64,
                        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    });
                    queue.write_buffer(&buffer, 0, bytes);
                    buffer
                };
                (
                    upload("vitrine shadow volumes", corners),
                    upload("vitrine shadow casters", matrices),
                )
            });
            self.key = Some(key);
        }
        let u = ShadowUniform {
            view_proj: view_proj.to_cols_array_2d(),
            darkness: [shadows.darkness.clamp(0.0, 1.0), 0.0, 0.0, 0.0],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&u));
        self.buffers.is_some()
    }

    /// Counts the volumes into the stencil and darkens inside them (the pass's stencil
    /// cleared to 0 before).
    pub(crate) fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some((corners, matrices)) = &self.buffers else {
            return;
        };
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.set_stencil_reference(0);
        pass.set_pipeline(&self.volume_pipeline);
        pass.set_vertex_buffer(0, corners.slice(..));
        pass.set_vertex_buffer(1, matrices.slice(..));
        for (vertices, instances) in &self.draws {
            pass.draw(vertices.clone(), instances.clone());
        }
        pass.set_pipeline(&self.darken_pipeline);
        pass.draw(0..3, 0..1);
    }
}

/// The nodes whose meshes cast: shown, and marked (their own mark, else their nearest
/// ancestor's; none at the root).
fn casters(model: &Model, pose: &Pose, mask: &[bool]) -> Vec<usize> {
    let mut marked: Vec<bool> = Vec::with_capacity(model.nodes.len());
    for n in &model.nodes {
        let parent = n
            .parent
            .and_then(|p| marked.get(p).copied())
            .unwrap_or(false);
        marked.push(n.casts_shadow.unwrap_or(parent));
    }
    (0..model.nodes.len())
        .filter(|&i| marked[i] && model.nodes[i].mesh.is_some() && node_shown(pose, mask, i))
        .collect()
}

/// A hash of what the volumes are built from: the model's address and size, the casters,
/// their places and the light.
fn volume_key(model: &Model, pose: &Pose, casters: &[usize], light: Vec3) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (model as *const Model as usize).hash(&mut h);
    model.nodes.len().hash(&mut h);
    model.meshes.len().hash(&mut h);
    light.to_array().map(f32::to_bits).hash(&mut h);
    for &i in casters {
        i.hash(&mut h);
        let world = pose.world.get(i).copied().unwrap_or(Mat4::IDENTITY);
        world.to_cols_array().map(f32::to_bits).hash(&mut h);
    }
    for m in pose.joint_matrices.iter().flatten() {
        m.to_cols_array().map(f32::to_bits).hash(&mut h);
    }
    h.finish()
}

/// The volumes of a frame: each distinct one's corners once, the casters' matrices
/// grouped by volume, and per volume its corners and its casters.
#[derive(Debug, Default)]
pub(crate) struct Volumes {
    pub(crate) corners: Vec<[f32; 3]>,
    pub(crate) instances: Vec<[[f32; 4]; 4]>,
    pub(crate) draws: Vec<(std::ops::Range<u32>, std::ops::Range<u32>)>,
}

/// The most triangles the volumes of one frame have: 32 times those of the whole of
/// mp.wz's busiest maps (Sk-Manhattan's 723 casters: 33,224), and a few dozen
/// megabytes of a software rasteriser's memory. A map past it (a script's limits: 65,535
/// droids and as many walls) has the shadows of the casters nearest the eye up to it.
pub(crate) const MAX_TRIANGLES: u64 = 1 << 20;

/// The volumes of `casters` in `pose` pulled along `light` (module docs), the casters
/// nearest `eye` first, up to [`MAX_TRIANGLES`].
pub(crate) fn volumes(
    model: &Model,
    pose: &Pose,
    (casters, eye): (&[usize], Vec3),
    light: Vec3,
) -> Volumes {
    let world_of = |i: usize| pose.world.get(i).copied().unwrap_or(Mat4::IDENTITY);
    let mut order: Vec<(f32, usize)> = casters
        .iter()
        .map(|&i| (world_of(i).w_axis.truncate().distance_squared(eye), i))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Per distinct (mesh, light in the mesh's space): its quads and its casters' matrices.
    let mut groups: Vec<(Vec<[f32; 3]>, Vec<Mat4>)> = Vec::new();
    let mut index: std::collections::HashMap<(usize, [u32; 3]), usize> = Default::default();
    let mut edges = Vec::new();
    let mut triangles = 0u64;
    for (_, i) in order {
        let Some(mi) = model.nodes[i].mesh else {
            continue;
        };
        let Some(mesh) = model.meshes.get(mi) else {
            continue;
        };
        let world = world_of(i);
        let g = if mesh.skin.is_some() {
            // Skinned: its own volume, posed in model space, drawn at identity.
            let Some(points) = crate::inspect::posed::posed_points(model, pose, i) else {
                continue;
            };
            let mut quads = Vec::new();
            outline_quads(mesh, &points, light, &mut edges, &mut quads);
            groups.push((quads, Vec::new()));
            groups.len() - 1
        } else {
            let linear = glam::Mat3::from_mat4(world);
            if linear.determinant() == 0.0 {
                continue;
            }
            let local = linear.inverse() * light;
            let key = (mi, local.to_array().map(f32::to_bits));
            *index.entry(key).or_insert_with(|| {
                let mut quads = Vec::new();
                outline_quads(mesh, &mesh.points, local, &mut edges, &mut quads);
                groups.push((quads, Vec::new()));
                groups.len() - 1
            })
        };
        triangles += groups[g].0.len() as u64 / 3;
        if triangles > MAX_TRIANGLES {
            break;
        }
        let at = if mesh.skin.is_some() {
            Mat4::IDENTITY
        } else {
            world
        };
        groups[g].1.push(at);
    }
    let mut out = Volumes::default();
    for (quads, worlds) in groups {
        if quads.is_empty() || worlds.is_empty() {
            continue;
        }
        let start = out.corners.len() as u32;
        out.corners.extend(quads);
        let end = out.corners.len() as u32;
        let at = out.instances.len() as u32;
        out.instances
            .extend(worlds.iter().map(Mat4::to_cols_array_2d));
        out.draws.push((start..end, at..out.instances.len() as u32));
    }
    out
}

/// Adds to `out` the quads (two triangles each) of `mesh`'s outline as `light` sees it,
/// its points at `points`, pulled along `light`: the edges of the triangles facing the
/// light (their counter-clockwise normal against it) that no other of them has the other
/// way round (`edges` is scratch).
fn outline_quads(
    mesh: &vitrine_core::model::Mesh,
    points: &[Vec3],
    light: Vec3,
    edges: &mut Vec<(u32, u32)>,
    out: &mut Vec<[f32; 3]>,
) {
    edges.clear();
    for tri in mesh.corners.chunks_exact(3) {
        let k = [tri[0].point, tri[1].point, tri[2].point];
        let [Some(a), Some(b), Some(c)] = k.map(|k| points.get(k as usize).copied()) else {
            continue;
        };
        if (b - a).cross(c - a).dot(light) < 0.0 {
            edges.extend([(k[0], k[1]), (k[1], k[2]), (k[2], k[0])]);
        }
    }
    edges.sort_unstable();
    for &(a, b) in edges.iter() {
        if edges.binary_search(&(b, a)).is_ok() {
            continue;
        }
        let (pa, pb) = (points[a as usize], points[b as usize]);
        let (qa, qb) = (pa + light, pb + light);
        out.extend([pb, qb, qa, qa, pa, pb].map(|v| v.to_array()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::model::{Corner, Mesh, Node, NodeKind, Submesh};

    /// A closed box `half` around the origin, counter-clockwise outside.
    fn cube(half: f32) -> Mesh {
        let mut mesh = Mesh::default();
        for z in [-half, half] {
            for y in [-half, half] {
                for x in [-half, half] {
                    mesh.points.push(Vec3::new(x, y, z));
                }
            }
        }
        // Faces as corner indices (x + 2y + 4z), counter-clockwise seen from outside.
        let quads = [
            [0, 2, 3, 1], // -z
            [4, 5, 7, 6], // +z
            [0, 1, 5, 4], // -y
            [2, 6, 7, 3], // +y
            [0, 4, 6, 2], // -x
            [1, 3, 7, 5], // +x
        ];
        for q in quads {
            for t in [[q[0], q[1], q[2]], [q[0], q[2], q[3]]] {
                for k in t {
                    mesh.corners.push(Corner::new(k, glam::Vec2::ZERO));
                }
            }
        }
        mesh.submeshes.push(Submesh {
            first_triangle: 0,
            triangle_count: mesh.corners.len() as u32 / 3,
            material: 0,
        });
        mesh
    }

    fn one(mesh: Mesh) -> Model {
        let mut model = Model::new(vitrine_core::model::Format::Pie, "test");
        let mut node = Node::new("box", None, NodeKind::Level);
        node.mesh = Some(0);
        node.casts_shadow = Some(true);
        model.nodes.push(node);
        model.meshes.push(mesh);
        model
    }

    #[test]
    fn a_box_under_a_light_from_straight_above_casts_its_four_side_quads() {
        let model = one(cube(1.0));
        let pose = Pose::rest(&model);
        let casters = casters(&model, &pose, &[]);
        assert_eq!(casters, vec![0]);
        let light = Vec3::new(0.0, -10.0, 0.0);
        let v = volumes(&model, &pose, (&casters, Vec3::ZERO), light);
        // The top's outline: four edges, each a quad of six corners.
        assert_eq!(v.corners.len(), 4 * 6);
        assert_eq!(v.draws, vec![(0..24, 0..1)]);
        for q in &v.corners {
            let y = q[1];
            assert!(y == 1.0 || y == -9.0, "{q:?}");
        }
    }

    #[test]
    fn a_box_lit_at_a_slant_outlines_its_silhouette_of_six_edges() {
        let model = one(cube(1.0));
        let pose = Pose::rest(&model);
        let v = volumes(
            &model,
            &pose,
            (&[0], Vec3::ZERO),
            Vec3::new(-1.0, -2.0, -3.0),
        );
        assert_eq!(v.corners.len(), 6 * 6);
    }

    #[test]
    fn copies_turned_alike_share_one_volume_and_turned_otherwise_get_their_own() {
        let mut model = one(cube(1.0));
        for (x, turn) in [(4.0, 0.0), (8.0, 0.0), (12.0, 1.0)] {
            let mut n = Node::new("copy", None, NodeKind::Level);
            n.mesh = Some(0);
            n.casts_shadow = Some(true);
            n.translation = Vec3::new(x, 0.0, 0.0);
            n.rotation = glam::Quat::from_rotation_y(turn);
            model.nodes.push(n);
        }
        let pose = Pose::rest(&model);
        let casters = casters(&model, &pose, &[]);
        let v = volumes(
            &model,
            &pose,
            (&casters, Vec3::ZERO),
            Vec3::new(-1.0, -2.0, -3.0),
        );
        // The three unturned boxes: one volume drawn three times; the turned one its own.
        assert_eq!(v.draws.len(), 2);
        assert_eq!(v.draws[0].1.len(), 3);
        assert_eq!(v.draws[1].1.len(), 1);
        assert_eq!(v.instances.len(), 4);
    }

    #[test]
    fn an_unmarked_node_or_a_marked_one_hidden_casts_nothing() {
        let mut model = one(cube(1.0));
        let pose = Pose::rest(&model);
        assert!(casters(&model, &pose, &[false]).is_empty());
        model.nodes[0].casts_shadow = None;
        assert!(casters(&model, &pose, &[]).is_empty());
        // Inherited from a marked parent.
        let mut root = Node::new("root", None, NodeKind::Group);
        root.casts_shadow = Some(true);
        model.nodes.insert(0, root);
        model.nodes[1].parent = Some(0);
        let pose = Pose::rest(&model);
        assert_eq!(casters(&model, &pose, &[]), vec![1]);
    }
}
