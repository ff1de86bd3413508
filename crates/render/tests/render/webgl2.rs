//! The renderer within WebGL2, the browser build's fallback where WebGPU is missing:
//! - every shader translates to GLSL ES 3.00 for WebGL the way wgpu's GL backend does it
//!   (naga's GLSL writer, the override constants applied, the GL backend's binding slots
//!   and writer flags) for each entry point and each combination of its override
//!   constants, and each entry point stays within WebGL2's per-stage limits;
//! - the whole renderer — texture pages with a team-colour mask, skinning, every overlay,
//!   shadows, 4× MSAA — draws on a device created with exactly
//!   `wgpu::Limits::downlevel_webgl2_defaults()`: wgpu checks each bind group layout,
//!   pipeline layout, vertex layout and texture against them (a breach panics the test);
//! - a target asked for past that device's texture size is clamped instead.

use crate::render_support::{self, fixtures};
use naga::back::glsl;
use vitrine_core::model::{Pose, TextureRole};
use vitrine_render::wgpu;
use vitrine_render::{Lighting, OverlayKind, Overlays, RenderTarget, SceneRenderer, ViewSettings};
use vitrine_test_needs::vitrine_test;

/// What a WebGL2 context is guaranteed to offer.
fn webgl2() -> wgpu::Limits {
    wgpu::Limits::downlevel_webgl2_defaults()
}

/// The resources one entry point uses, counted as WebGL2's limits count them.
#[derive(Debug, Default)]
struct StageUse {
    uniform_buffers: u32,
    largest_uniform: u32,
    storage_buffers: u32,
    textures: u32,
    storage_textures: u32,
    samplers: u32,
    highest_group: Option<u32>,
}

fn stage_use(module: &naga::Module, info: &naga::valid::FunctionInfo) -> StageUse {
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    let mut u = StageUse::default();
    for (handle, var) in module.global_variables.iter() {
        if info[handle].is_empty() {
            continue;
        }
        if let Some(b) = &var.binding {
            u.highest_group = u.highest_group.max(Some(b.group));
        }
        match var.space {
            naga::AddressSpace::Uniform => {
                u.uniform_buffers += 1;
                u.largest_uniform = u.largest_uniform.max(layouter[var.ty].size);
            }
            naga::AddressSpace::Storage { .. } => u.storage_buffers += 1,
            naga::AddressSpace::Handle => match module.types[var.ty].inner {
                naga::TypeInner::Image {
                    class: naga::ImageClass::Storage { .. },
                    ..
                } => u.storage_textures += 1,
                naga::TypeInner::Image { .. } => u.textures += 1,
                naga::TypeInner::Sampler { .. } => u.samplers += 1,
                _ => {}
            },
            _ => {}
        }
    }
    u
}

/// Locations a function's arguments or result carry (vertex attributes in, varyings out).
fn locations(
    module: &naga::Module,
    ty: naga::Handle<naga::Type>,
    b: Option<&naga::Binding>,
) -> u32 {
    match (&module.types[ty].inner, b) {
        (_, Some(naga::Binding::Location { .. })) => 1,
        (naga::TypeInner::Struct { members, .. }, None) => members
            .iter()
            .map(|m| locations(module, m.ty, m.binding.as_ref()))
            .sum(),
        _ => 0,
    }
}

/// The binding slots wgpu's GL backend gives: per kind of resource, counted in group and
/// binding order.
fn gl_binding_map(module: &naga::Module) -> glsl::BindingMap {
    let mut bound: Vec<(naga::ResourceBinding, u8)> = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let Some(b) = var.binding else { continue };
        let kind = match (var.space, &module.types[var.ty].inner) {
            (naga::AddressSpace::Uniform, _) => 0,
            (naga::AddressSpace::Storage { .. }, _) => 1,
            (_, naga::TypeInner::Sampler { .. }) => 2,
            (_, naga::TypeInner::Image { .. }) => 3,
            _ => 4,
        };
        bound.push((b, kind));
    }
    bound.sort_by_key(|(b, _)| (b.group, b.binding));
    let mut next = [0u8; 5];
    let mut map = glsl::BindingMap::default();
    for (b, kind) in bound {
        map.insert(b, next[kind as usize]);
        next[kind as usize] += 1;
    }
    map
}

/// Every combination of 0/1 for the module's override constants (the pipelines set
/// them to flags: sRGB encoding, which maps a material samples).
fn override_combinations(module: &naga::Module) -> Vec<naga::back::PipelineConstants> {
    let names: Vec<String> = module
        .overrides
        .iter()
        .filter_map(|(_, o)| o.name.clone())
        .collect();
    (0..1u32 << names.len())
        .map(|bits| {
            let mut c = naga::back::PipelineConstants::default();
            for (i, n) in names.iter().enumerate() {
                c.insert(n.clone(), f64::from((bits >> i) & 1));
            }
            c
        })
        .collect()
}

#[test]
fn every_shader_translates_to_webgl2_glsl_within_its_limits() {
    let limits = webgl2();
    let mut failures = Vec::new();
    let (mut translated, mut expected) = (0, 0);
    for (name, source) in vitrine_render::pipelines::SHADERS {
        let module = naga::front::wgsl::parse_str(source)
            .unwrap_or_else(|e| panic!("{}", e.emit_to_string_with_path(source, name)));
        // A WebGL2 device has no optional feature: naga's capabilities stay empty.
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string_with_path(source, name)));
        let options = glsl::Options {
            version: glsl::Version::Embedded {
                version: 300,
                is_webgl: true,
            },
            writer_flags: glsl::WriterFlags::ADJUST_COORDINATE_SPACE
                | glsl::WriterFlags::FORCE_POINT_SIZE,
            binding_map: gl_binding_map(&module),
            zero_initialize_workgroup_memory: true,
        };
        let combinations = override_combinations(&module);
        expected += module.entry_points.len() * combinations.len();
        for (index, ep) in module.entry_points.iter().enumerate() {
            let at = format!("{name} {}", ep.name);
            let used = stage_use(&module, info.get_entry_point(index));
            let mut over = |what: &str, n: u32, max: u32| {
                if n > max {
                    failures.push(format!("{at}: {what} {n}, WebGL2 allows {max}"));
                }
            };
            over(
                "uniform buffers",
                used.uniform_buffers,
                limits.max_uniform_buffers_per_shader_stage,
            );
            over(
                "uniform block bytes",
                used.largest_uniform,
                limits.max_uniform_buffer_binding_size as u32,
            );
            over(
                "storage buffers",
                used.storage_buffers,
                limits.max_storage_buffers_per_shader_stage,
            );
            over(
                "storage textures",
                used.storage_textures,
                limits.max_storage_textures_per_shader_stage,
            );
            over(
                "sampled textures",
                used.textures,
                limits.max_sampled_textures_per_shader_stage,
            );
            over(
                "samplers",
                used.samplers,
                limits.max_samplers_per_shader_stage,
            );
            over(
                "bind groups",
                used.highest_group.map_or(0, |g| g + 1),
                limits.max_bind_groups,
            );
            let inputs: u32 = ep
                .function
                .arguments
                .iter()
                .map(|a| locations(&module, a.ty, a.binding.as_ref()))
                .sum();
            let outputs = ep
                .function
                .result
                .as_ref()
                .map_or(0, |r| locations(&module, r.ty, r.binding.as_ref()));
            match ep.stage {
                naga::ShaderStage::Vertex => {
                    over("vertex attributes", inputs, limits.max_vertex_attributes);
                    over("varyings", outputs, limits.max_inter_stage_shader_variables);
                }
                naga::ShaderStage::Fragment => {
                    over("varyings", inputs, limits.max_inter_stage_shader_variables);
                    over("colour attachments", outputs, limits.max_color_attachments);
                }
                _ => failures.push(format!("{at}: WebGL2 has only vertex and fragment shaders")),
            }
            for constants in &combinations {
                let (m, i) = match naga::back::pipeline_constants::process_overrides(
                    &module,
                    &info,
                    Some((ep.stage, ep.name.as_str())),
                    constants,
                ) {
                    Ok(done) => done,
                    Err(e) => {
                        failures.push(format!("{at} {constants:?}: {e}"));
                        continue;
                    }
                };
                let pipeline = glsl::PipelineOptions {
                    shader_stage: ep.stage,
                    entry_point: ep.name.clone(),
                    multiview: None,
                };
                let policies = naga::proc::BoundsCheckPolicies::default();
                let mut text = String::new();
                let written = glsl::Writer::new(&mut text, &m, &i, &options, &pipeline, policies)
                    .and_then(|mut w| w.write());
                match written {
                    Ok(_) if text.starts_with("#version 300 es") => translated += 1,
                    Ok(_) => failures.push(format!("{at}: not GLSL ES 3.00: {}", &text[..40])),
                    Err(e) => failures.push(format!("{at} {constants:?}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Each entry point with each combination of its module's flags.
    assert_eq!(translated, expected, "translations");
}

/// A headless device with WebGL2's limits (and no optional feature), for a test marked
/// `#[vitrine_test(gpu)]`.
fn webgl2_device() -> (wgpu::Device, wgpu::Queue) {
    let gpu = crate::common::gpu();
    let (device, queue) = pollster::block_on(gpu.adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("vitrine test device with WebGL2 limits"),
        required_limits: webgl2(),
        ..Default::default()
    }))
    .expect("an adapter that runs the renderer offers WebGL2's limits");
    assert_eq!(device.limits().max_storage_buffers_per_shader_stage, 0);
    (device, queue)
}

#[vitrine_test(gpu)]
fn the_renderer_draws_everything_within_webgl2_limits() {
    let (device, queue) = webgl2_device();
    let dir = fixtures::temp_dir("webgl2");
    // A textured quad with a team-colour mask, and a skinned pair of boxes.
    let tc = fixtures::tc_quad(dir.path());
    assert!(tc.textures.iter().any(|t| t.role == TextureRole::Tcmask));
    let skinned = fixtures::skinned_pair();
    assert!(!skinned.skins.is_empty());
    let mut scene = SceneRenderer::new(&device, &queue, vitrine_test_support::disk());
    let target = RenderTarget::new(&device, 96, 96);
    let mut overlays = Overlays::NONE;
    for kind in OverlayKind::ALL {
        overlays.set(kind, true);
    }
    for (what, model, view) in [
        ("the team-coloured quad", &tc, render_support::unlit_front()),
        (
            "the skinned pair with overlays and shadows",
            &skinned,
            ViewSettings {
                overlays,
                shadows: true,
                lighting: Lighting::default(),
                ..Default::default()
            },
        ),
    ] {
        let pose = Pose::rest(model);
        let mut view = view;
        render_support::framed(&mut view.camera, model, &pose);
        scene.set_model(&device, &queue, model);
        scene.render(&device, &queue, &target, &pose, &view);
        let img = target.read_rgba(&device, &queue).expect("readback");
        let bg = view.background;
        let drawn = img.pixels().filter(|p| p.0 != bg).count();
        assert!(drawn > 96 * 96 / 20, "{what} drew {drawn} pixels");
    }
}

#[vitrine_test(gpu)]
fn a_target_past_the_device_texture_limit_is_clamped() {
    let (device, _queue) = webgl2_device();
    let max = device.limits().max_texture_dimension_2d;
    let target = RenderTarget::new(&device, max + 1000, 64);
    assert_eq!((target.width, target.height), (max, 64));
}

/// The browser's readback (start, then take on a later frame, never waiting) gives the
/// picture the desktop's waiting readback gives.
#[vitrine_test(gpu)]
fn reading_back_without_waiting_gives_the_same_picture() {
    let (device, queue) = webgl2_device();
    let model = fixtures::skinned_pair();
    let pose = Pose::rest(&model);
    let mut view = ViewSettings::default();
    render_support::framed(&mut view.camera, &model, &pose);
    let mut scene = SceneRenderer::new(&device, &queue, vitrine_test_support::disk());
    let target = RenderTarget::new(&device, 64, 48);
    scene.set_model(&device, &queue, &model);
    scene.render(&device, &queue, &target, &pose, &view);
    let waited = target.read_rgba(&device, &queue).expect("readback");
    let reading = target.start_read(&device, &queue);
    let started = std::time::Instant::now();
    let taken = loop {
        if let Some(done) = reading.try_take(&device) {
            break done.expect("readback");
        }
        assert!(started.elapsed().as_secs() < 60, "the copy never finished");
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    assert_eq!((taken.width(), taken.height()), (64, 48));
    assert!(taken == waited, "the two readbacks differ");
}
