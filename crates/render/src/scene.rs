//! Drawing a model: [`SceneRenderer`] owns the long-lived pipelines, samplers and texture
//! cache; [`super::gpu_model::GpuModel`] holds the current model's buffers. Each frame
//! only writes uniforms and records one render pass.
//!
//! Shading (see `shaders/scene.wgsl`): texture × (ambient + directional light) in linear
//! space, per-vertex normals (authored, else flat face normals), Warzone 2100's team colour
//! through the tcmask alpha, normal and specular maps when present, back faces culled
//! unless the material is double-sided. The light is [`Lighting`]: by default it follows
//! the camera (upper left, in front) so every view shows the model's shape.
//!
//! Approximations: billboard materials turn to face the camera about their node's origin
//! (the game does the same per effect); blended draws are not depth-sorted.

use super::Camera;
use super::ColourMode;
use super::Lighting;
use super::RenderTarget;
use super::gpu_model::GpuModel;
use super::inspect::node_shown;
use super::inspect::overlay_pass::OverlayPass;
use super::inspect::overlays::{self, OverlayInput};
use super::inspect::posed::{posed_bounds, posed_meshes, shadow_casters};
use super::inspect::shadows::{ShadowPass, ShadowSetup, shadow_light};
use super::pipelines::Pipelines;
use super::sky::{SkyFrame, SkyPass};
use super::stencil_shadows::StencilShadows;
use super::target::COLOR_FORMAT;
use super::textures::TextureCache;
use super::uniforms::FrameUniform;
use glam::Vec3;
use std::sync::Arc;
use vitrine_core::files::Files;
use vitrine_core::model::team::TEAM_COLOURS;
use vitrine_core::model::{Model, Pose};

/// Per-frame settings of a view.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewSettings {
    /// The camera.
    pub camera: Camera,
    /// Team colour index into [`super::TEAM_COLOURS`].
    pub team: usize,
    /// Background, sRGB bytes with alpha (alpha 0 = transparent PNG).
    pub background: [u8; 4],
    /// The light (direction, intensity, ambient).
    pub lighting: Lighting,
    /// Overlays drawn over the model (see [`super::Overlays`]).
    pub overlays: super::Overlays,
    /// Draw shadows: the model's own where its scene has them
    /// (`Model::environment.shadows`: a map's, as the game draws them; in a perspective
    /// or orthographic view alike), else cast onto a ground plane under the model.
    pub shadows: bool,
    /// The scene's shadows: a caster whose node's origin is this far from the eye or
    /// farther casts none (the game's view: `GameView::shadow_reach`); `None`: no limit.
    pub shadow_reach: Option<f32>,
    /// Selected node: it and its descendants are tinted.
    pub selected: Option<usize>,
    /// Per node: shown by the user (ANDed with the pose's visibility; missing = shown).
    /// Empty: every node but those that start hidden (`Node::hidden`).
    pub node_mask: Vec<bool>,
    /// Ground-grid spacing in model units (`None`: a round number from the model size).
    pub grid_unit: Option<f32>,
    /// How surfaces are coloured (materials, per node, by joint).
    pub colour_mode: ColourMode,
    /// Triangles and points marked over everything (a picked check finding).
    pub highlight: super::inspect::highlight::Highlight,
    /// Apply the model's fog and draw its sky (`Model::environment`; a map's), in a
    /// perspective view (an orthographic one has neither: its eye can move back without
    /// changing the picture, so a distance from it means nothing). Off by default.
    pub environment: bool,
    /// Scene time in seconds: what scrolls (`Material::uv_scroll`) and the sky's turn
    /// are drawn at this time; 0 for a still picture.
    pub time: f32,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            camera: Camera::default(),
            team: 0,
            background: [48, 52, 60, 255],
            lighting: Lighting::default(),
            overlays: super::Overlays::NONE,
            shadows: false,
            shadow_reach: None,
            selected: None,
            node_mask: Vec::new(),
            grid_unit: None,
            colour_mode: ColourMode::default(),
            highlight: Default::default(),
            environment: false,
            time: 0.0,
        }
    }
}

/// Draws one model at a time; created once per device.
#[derive(Debug)]
pub struct SceneRenderer {
    pipelines: Pipelines,
    textures: TextureCache,
    frame_buffer: wgpu::Buffer,
    frame_bind_group: wgpu::BindGroup,
    model: Option<GpuModel>,
    warnings: Vec<String>,
    /// The current model's data, for overlays, shadows and picking (shared with the
    /// caller where it hands one over, [`SceneRenderer::set_model_shared`]).
    source: Option<Arc<Model>>,
    overlay_pass: OverlayPass,
    shadow_pass: ShadowPass,
    stencil_shadows: StencilShadows,
    sky_pass: SkyPass,
    /// Bytes of a GPU buffer at most, where less than the device's `max_buffer_size`
    /// ([`SceneRenderer::set_buffer_cap`]).
    buffer_cap: Option<u64>,
}

impl SceneRenderer {
    /// Builds pipelines and samplers for targets of [`super::target::MSAA_SAMPLES`];
    /// texture pages are read from `files`.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, files: &Files) -> SceneRenderer {
        SceneRenderer::with_samples(device, queue, super::target::MSAA_SAMPLES, files)
    }

    /// Builds pipelines and samplers for targets of `samples` per pixel
    /// ([`RenderTarget::with_samples`]; 1 draws without anti-aliasing); texture pages are
    /// read from `files`.
    pub fn with_samples(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        samples: u32,
        files: &Files,
    ) -> SceneRenderer {
        let samples = super::target::checked_samples(samples);
        let pipelines = Pipelines::new(device, COLOR_FORMAT, samples);
        let textures = TextureCache::new(device, queue, files);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("vitrine texture sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            address_mode_w: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vitrine frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vitrine frame bind group"),
            layout: &pipelines.frame_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: frame_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        SceneRenderer {
            pipelines,
            textures,
            frame_buffer,
            frame_bind_group,
            model: None,
            warnings: Vec::new(),
            source: None,
            overlay_pass: OverlayPass::new(device, COLOR_FORMAT, samples),
            shadow_pass: ShadowPass::new(device, COLOR_FORMAT, samples),
            stencil_shadows: StencilShadows::new(device, COLOR_FORMAT, samples),
            sky_pass: SkyPass::new(device, COLOR_FORMAT, samples),
            buffer_cap: None,
        }
    }

    /// Makes no GPU buffer larger than `bytes` from the next [`SceneRenderer::set_model`]
    /// on (the device's `max_buffer_size` stays the limit where it is less): what a
    /// device with small limits gets, the model's vertices, indices and draw uniforms
    /// split over more buffers. The picture is the same; the tests draw with a small cap.
    pub fn set_buffer_cap(&mut self, bytes: Option<u64>) {
        self.buffer_cap = bytes;
    }

    /// Uploads `model` (meshes, decoded textures, placeholders for missing ones),
    /// releasing the previous model's resources. Decoded textures stay cached by file for
    /// the next model (within a memory budget).
    pub fn set_model(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, model: &Model) {
        self.set_model_shared(device, queue, Arc::new(model.clone()));
    }

    /// [`SceneRenderer::set_model`] of a model the renderer may keep without a copy of
    /// its own (a map's nodes are hundreds of MB).
    pub fn set_model_shared(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: Arc<Model>,
    ) {
        // The previous model goes first: a map's is hundreds of MB.
        self.model = None;
        self.source = None;
        self.warnings.clear();
        self.textures.begin_model();
        self.model = Some(GpuModel::new(
            device,
            queue,
            &model,
            (&mut self.pipelines, &mut self.textures),
            &mut self.warnings,
            self.buffer_cap,
        ));
        self.sky_pass.set_model(
            device,
            queue,
            &model,
            &mut self.textures,
            &mut self.warnings,
        );
        self.textures.end_model();
        self.source = Some(model);
    }

    /// Lets the current model's meshes and copy go (the next [`SceneRenderer::render`]
    /// draws only the background), keeping the cached textures and the warnings: a batch's
    /// renderer once its picture is submitted (wgpu keeps what the GPU still reads).
    #[cfg(not(target_arch = "wasm32"))] // the batch's threads
    pub(crate) fn release_model(&mut self) {
        self.model = None;
        self.source = None;
    }

    /// Hands over a texture page decoded on another thread
    /// ([`super::pages::decode_page`], [`super::pages::read_and_decode_pages`]; shared
    /// between the batch's renderers): call before [`SceneRenderer::set_model`] of the
    /// model that uses it, which then only uploads it.
    pub fn provide_texture(
        &mut self,
        file: vitrine_core::files::FileRef,
        stamp: vitrine_core::files::Stamp,
        page: Result<std::sync::Arc<super::pages::PageImage>, String>,
    ) {
        self.textures.provide(file, stamp, page);
    }

    /// Replaces the pages the current model's textures were uploaded from in part (their
    /// smaller levels, [`super::pages::PageImage::is_complete`]: a map's first frame)
    /// with the whole `pages`, decoded on another thread, and builds the materials using
    /// them again; returns whether anything changed (the next frame is to be drawn). A
    /// page that failed to decode whole keeps its smaller levels, with a warning saying
    /// why.
    pub fn refine_textures(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pages: Vec<super::pages::DecodedPage>,
    ) -> bool {
        let mut failed = Vec::new();
        let mut changed = false;
        for (file, stamp, page) in pages {
            match page {
                Ok(page) => changed |= self.textures.refine(&file, stamp, page),
                // A page not read for the first frame: shown as any page that does not
                // decode (the material's warning says why).
                Err(e) if self.textures.refine_failed(&file, stamp, e.clone()) => changed = true,
                Err(e) => failed.push(format!(
                    "texture {file} shown from its smaller levels: the whole page does not \
                     decode ({e})"
                )),
            }
        }
        if changed && let (Some(gpu), Some(model)) = (&mut self.model, &self.source) {
            // The materials' warnings come again (a texture that did not decode still
            // does not): each kept once, with the model's others.
            let mut again = Vec::new();
            gpu.refresh_materials(
                device,
                queue,
                model,
                &mut self.pipelines,
                &mut self.textures,
                &mut again,
            );
            self.sky_pass
                .set_model(device, queue, model, &mut self.textures, &mut again);
            self.textures.end_model();
            for w in again {
                if !self.warnings.contains(&w) {
                    self.warnings.push(w);
                }
            }
        }
        // A whole page that now decodes replaces its earlier warning.
        self.warnings
            .retain(|w| !w.contains("shown from its smaller levels") || failed.contains(w));
        changed |= !failed.is_empty();
        self.warnings.extend(failed);
        changed
    }

    /// Reads and decodes the pages `model` uses that are not uploaded yet, across the
    /// cores, and hands them over ([`super::pages::read_and_decode_pages`]), so
    /// [`SceneRenderer::set_model`] only uploads them: a single picture of a map
    /// (`vitrine render MAP`) decodes its dozens of pages at once instead of one after
    /// another.
    pub fn decode_pages_of(&mut self, model: &Model) {
        let files = self.textures.files().clone();
        let wanted = super::batch::texture_files(model)
            .into_iter()
            .filter(|f| !self.textures.has(f, files.stamp(f).unwrap_or_default()))
            .collect();
        for (file, stamp, page) in
            super::pages::read_and_decode_pages(&files, wanted, super::pages::FULL)
                .unwrap_or_default()
        {
            self.textures.provide(file, stamp, page);
        }
    }

    /// Keeps at most `bytes` of uploaded textures beyond those the current model uses
    /// (512 MiB by default): a batch's renderers share that budget.
    #[cfg(not(target_arch = "wasm32"))] // the batch's threads
    pub(crate) fn set_texture_budget(&mut self, bytes: u64) {
        self.textures.set_budget(bytes);
    }

    /// Problems found by the last [`SceneRenderer::set_model`] that the loader could not
    /// know (texture files that exist but do not decode, too many joints).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Testing aid: the next upload of the texture `file` fails as on a GPU out of memory
    /// (`super::textures::TextureCache::simulate_out_of_memory`).
    pub fn simulate_texture_out_of_memory(&mut self, file: vitrine_core::files::FileRef) {
        self.textures.simulate_out_of_memory(file);
    }

    /// Caps uploaded texture size (texels per side; smaller mips are used). Thumbnails at
    /// 256² look the same with 512² pages and render faster. Affects textures decoded
    /// after the call.
    pub fn set_max_texture_size(&mut self, device: &wgpu::Device, size: u32) {
        self.textures.set_max_size(device, size);
    }

    /// Draws the current model in `pose` into `target` (a clear only, if no model is set).
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &RenderTarget,
        pose: &Pose,
        view: &ViewSettings,
    ) {
        assert_eq!(
            target.samples,
            self.pipelines.samples(),
            "a render target must have the sample count its renderer was built for"
        );
        // No mask from the caller: the nodes that start hidden stay hidden.
        let defaults;
        let view = match &self.source {
            Some(m) if view.node_mask.is_empty() && m.nodes.iter().any(|n| n.hidden) => {
                defaults = ViewSettings {
                    node_mask: crate::inspect::hidden_mask(m, &m.hidden_at_first()),
                    ..view.clone()
                };
                &defaults
            }
            _ => view,
        };
        let aspect = target.width as f32 / target.height.max(1) as f32;
        let cam = &view.camera;
        let view_matrix = cam.view();
        let light = view.lighting.direction(cam);
        let team = TEAM_COLOURS[view.team % TEAM_COLOURS.len()].rgb;
        let mut frame = FrameUniform {
            view_proj: cam.view_proj(aspect).to_cols_array_2d(),
            eye: cam.eye().extend(1.0).to_array(),
            light_dir: light.extend(0.0).to_array(),
            light: [
                view.lighting.ambient,
                view.lighting.diffuse,
                view.lighting.specular,
                0.0,
            ],
            team: [
                team[0] as f32 / 255.0,
                team[1] as f32 / 255.0,
                team[2] as f32 / 255.0,
                1.0,
            ],
            mode: [view.colour_mode.number(), 0, 0, 0],
            fog: [0.0; 4],
            fog_range: [0.0, 0.0, view.time, 0.0],
            view_dir: (cam.target - cam.eye())
                .normalize_or(Vec3::NEG_Z)
                .extend(0.0)
                .to_array(),
        };
        let fog = self
            .source
            .as_ref()
            .and_then(|m| m.environment.fog.as_ref())
            // An orthographic picture does not change as its eye moves back: a fog by
            // distance from the eye would be arbitrary there.
            .filter(|_| view.environment && !cam.orthographic);
        if let Some(f) = fog {
            let (begin, end) = f.range(cam.distance);
            frame.fog = [f.colour[0], f.colour[1], f.colour[2], 1.0];
            frame.fog_range[..2].copy_from_slice(&[begin, end]);
        }
        let sky = view.environment
            && self.sky_pass.prepare(
                queue,
                &SkyFrame {
                    camera: cam,
                    aspect,
                    time: view.time,
                    fog,
                },
            );
        queue.write_buffer(&self.frame_buffer, 0, bytemuck::bytes_of(&frame));
        if let Some(m) = &mut self.model {
            m.update(queue, pose, view_matrix, &view.node_mask);
        }
        let extras = self.prepare_extras(device, queue, target, pose, view, light);
        let scene_shadows = match (&self.source, view.shadows) {
            (Some(model), true) => model.environment.shadows.is_some_and(|s| {
                self.stencil_shadows.prepare(
                    device,
                    queue,
                    (model, pose, &view.node_mask),
                    &s,
                    (cam.view_proj(aspect), cam.eye(), view.shadow_reach),
                )
            }),
            _ => false,
        };

        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("vitrine scene"),
        });
        if extras.shadows {
            self.shadow_pass.render_map(&mut encoder);
        }
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("vitrine scene pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    // Multisampled: drawn into the MSAA texture and resolved into the
                    // colour texture; with one sample, drawn into it directly.
                    view: target.msaa_view.as_ref().unwrap_or(&target.color_view),
                    depth_slice: None,
                    resolve_target: target.msaa_view.as_ref().map(|_| &target.color_view),
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(clear_colour(view.background)),
                        store: if target.msaa_view.is_some() {
                            wgpu::StoreOp::Discard
                        } else {
                            wgpu::StoreOp::Store
                        },
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &target.depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(0),
                        store: wgpu::StoreOp::Discard,
                    }),
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            if sky {
                self.sky_pass.draw(&mut pass);
            }
            if let Some(m) = &self.model {
                // The scene's shadows darken what is drawn opaque before them, not the
                // blended meshes drawn over them.
                let split = if scene_shadows {
                    m.first_blended_run()
                } else {
                    m.runs.len()
                };
                self.draw_model(&mut pass, m, pose, &view.node_mask, 0..split);
                if scene_shadows {
                    self.stencil_shadows.draw(&mut pass);
                }
                self.draw_model(&mut pass, m, pose, &view.node_mask, split..m.runs.len());
            }
            if extras.shadows {
                self.shadow_pass.draw_ground(&mut pass);
            }
            if extras.overlays {
                self.overlay_pass.draw(&mut pass);
            }
        }
        queue.submit([encoder.finish()]);
    }

    /// Draws `m`'s runs `runs` ([`crate::draw_runs`]): each an instanced call of its
    /// draws, binding the geometry chunk and uniform buffer it is in. A run of one hidden
    /// draw is skipped; a hidden draw among instances is written hidden
    /// (`GpuModel::update`).
    fn draw_model(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        m: &GpuModel,
        pose: &Pose,
        mask: &[bool],
        runs: std::ops::Range<usize>,
    ) {
        if runs.is_empty() {
            return;
        }
        pass.set_bind_group(0, &self.frame_bind_group, &[]);
        let mut bound: Option<(usize, crate::pipelines::PipelineKey)> = None;
        let mut geometry: Option<u32> = None;
        for run in &m.runs[runs] {
            let d = &m.draws[run.first as usize];
            if run.count == 1 && !node_shown(pose, mask, d.node) {
                continue;
            }
            let mat = &m.materials[d.material];
            if mat.waiting {
                continue;
            }
            let key = m.draw_key(d);
            if bound.map(|b| b.1) != Some(key) {
                let Some(p) = self.pipelines.get(key) else {
                    continue;
                };
                pass.set_pipeline(p);
            }
            if bound.map(|b| b.0) != Some(d.material) {
                pass.set_bind_group(1, &mat.bind_group, &[]);
            }
            bound = Some((d.material, key));
            if geometry != Some(d.chunk) {
                let Some((vertices, indices)) = m.buffers(d.chunk) else {
                    continue;
                };
                pass.set_vertex_buffer(0, vertices.slice(..));
                pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
                geometry = Some(d.chunk);
            }
            let joints = d.skin.map(|s| m.joint_offsets[s]).unwrap_or(0);
            let uniforms = &m.draw_chunks[run.chunk as usize].bind_group;
            pass.set_bind_group(2, uniforms, &[run.offset, joints]);
            pass.draw_indexed(
                d.first_index..d.first_index + d.index_count,
                0,
                0..run.count,
            );
        }
    }

    /// Builds and uploads this frame's shadow casters and overlay geometry; says which
    /// of the two to draw.
    fn prepare_extras(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &RenderTarget,
        pose: &Pose,
        view: &ViewSettings,
        light: Vec3,
    ) -> Extras {
        let mut extras = Extras::default();
        let Some(model) = &self.source else {
            return extras;
        };
        let inspecting =
            overlays::wanted(&view.overlays, view.selected) || !view.highlight.is_empty();
        let want_overlays = inspecting || !model.guides.is_empty();
        // A scene with shadows of its own draws those ([`StencilShadows`]), not these.
        let ground_shadows = view.shadows && model.environment.shadows.is_none();
        if !want_overlays && !ground_shadows {
            return extras;
        }
        let aspect = target.width as f32 / target.height.max(1) as f32;
        let view_proj = view.camera.view_proj(aspect);
        // Guides alone need no posed meshes (posing a map's every mesh each frame would).
        let meshes = if inspecting || ground_shadows {
            posed_meshes(model, pose, &view.node_mask)
        } else {
            Vec::new()
        };
        if ground_shadows {
            let casters = shadow_casters(model, pose, &view.node_mask);
            let points = casters.iter().flatten().copied();
            let all = meshes.iter().flat_map(|m| m.points.iter().copied());
            if let Some((lo, hi)) = bounds_of(points.chain(all.clone())) {
                let ground = bounds_of(all).map_or(lo.y, |(l, _)| l.y).min(lo.y);
                let setup = ShadowSetup::new(lo, hi, ground, shadow_light(light));
                self.shadow_pass
                    .prepare(device, queue, &setup, view_proj, &casters);
                extras.shadows = true;
            }
        }
        if want_overlays {
            let size = glam::Vec2::new(target.width as f32, target.height as f32);
            let unit = view.grid_unit.unwrap_or_else(|| {
                let size = posed_bounds(&meshes).map_or(1.0, |(lo, hi)| (hi - lo).max_element());
                overlays::auto_grid_unit(size)
            });
            let input = OverlayInput {
                model,
                pose,
                view,
                meshes: &meshes,
                size,
                grid_unit: unit,
            };
            let mut segments = overlays::build(&input);
            segments.extend(super::inspect::highlight::segments(&input));
            let tint = overlays::selection_triangles(&input);
            self.overlay_pass.prepare(
                device,
                queue,
                view_proj,
                view.camera.eye(),
                [target.width, target.height],
                &segments,
                &tint,
                overlays::colours::SELECTION,
                view.overlays.xray,
            );
            extras.overlays = true;
        }
        extras
    }

    /// The current model as uploaded (for picking and labels).
    pub fn model(&self) -> Option<&Model> {
        self.source.as_deref()
    }
}

/// Which extra draws this frame records.
#[derive(Debug, Default, Clone, Copy)]
struct Extras {
    shadows: bool,
    overlays: bool,
}

fn bounds_of(points: impl Iterator<Item = Vec3>) -> Option<(Vec3, Vec3)> {
    points.fold(None, |acc, p| {
        Some(match acc {
            Some((lo, hi)) => (p.min(lo), p.max(hi)),
            None => (p, p),
        })
    })
}

/// The clear value for a background given as sRGB bytes: the bytes themselves on the
/// `Rgba8Unorm` target (which holds sRGB bytes), linearised on an `*Srgb` one.
fn clear_colour(bg: [u8; 4]) -> wgpu::Color {
    let c = |b: u8| {
        let v = b as f32 / 255.0;
        f64::from(if COLOR_FORMAT.is_srgb() {
            vitrine_core::model::colour::srgb_to_linear(v)
        } else {
            v
        })
    };
    wgpu::Color {
        r: c(bg[0]),
        g: c(bg[1]),
        b: c(bg[2]),
        a: bg[3] as f64 / 255.0,
    }
}

/// Model-space positions of every point of every visible mesh in `pose`, posed as the
/// renderer draws them (skinned meshes by their joints), each distinct position once
/// (in the order first met; a repeated point changes no bound or framing); feed them to
/// [`super::Camera::frame_points`].
pub fn visible_points(model: &Model, pose: &Pose) -> Vec<Vec3> {
    super::inspect::posed::shown_points(model, pose)
}

/// Most poses sampled by [`clip_points`] (evenly spread over a long clip).
const MAX_FRAMING_SAMPLES: u32 = 240;

/// [`visible_points`] over the whole of `clip` (every frame, up to
/// `MAX_FRAMING_SAMPLES` of them), or of the rest pose without a clip: framing on these
/// keeps an animation inside the picture while it plays.
pub fn clip_points(model: &Model, clip: Option<usize>, team: usize) -> Vec<Vec3> {
    let Some((c, clip)) = clip.and_then(|c| model.clips.get(c).map(|clip| (c, clip))) else {
        return visible_points(model, &Pose::rest(model));
    };
    let frames = clip.frame_count.max(1);
    let samples = frames.min(MAX_FRAMING_SAMPLES);
    // What stays still over the clip is met once per frame: kept once. A frame that
    // places and shows everything as the first does (a clip that only moves textures:
    // a map's) is not posed again.
    let mut first: Option<Pose> = None;
    super::inspect::posed::distinct((0..samples).flat_map(|k| {
        let f = k as f32 * frames as f32 / samples as f32;
        let pose = Pose::sample(model, Some(c), clip.frame_time(f), team);
        if let Some(p) = &first
            && p.world == pose.world
            && p.visible == pose.visible
            && p.joint_matrices == pose.joint_matrices
        {
            return Vec::new();
        }
        let points = visible_points(model, &pose);
        first.get_or_insert(pose);
        points
    }))
}

/// Model-space bounds of everything visible in `pose` (`None` if nothing is).
pub fn model_bounds(model: &Model, pose: &Pose) -> Option<(Vec3, Vec3)> {
    let mut acc: Option<(Vec3, Vec3)> = None;
    for (i, node) in model.nodes.iter().enumerate() {
        let (Some(m), true) = (node.mesh, pose.visible[i]) else {
            continue;
        };
        for p in &model.meshes[m].points {
            let w = pose.world[i].transform_point3(*p);
            acc = Some(match acc {
                Some((lo, hi)) => (lo.min(w), hi.max(w)),
                None => (w, w),
            });
        }
    }
    acc
}
