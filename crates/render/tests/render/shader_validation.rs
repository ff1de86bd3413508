//! Every WGSL file of the renderer parses and validates with naga (the shader compiler
//! wgpu uses), with no GPU needed. A failure names the file and shows the span.

/// Every `.wgsl` file under `crates/render/shaders/` is one the renderer builds (none forgotten).
#[test]
fn every_shader_file_is_built() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".wgsl"))
        .collect();
    files.sort();
    let mut built: Vec<String> = vitrine_render::pipelines::SHADERS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    built.sort();
    assert_eq!(files, built);
}

#[test]
fn every_shader_validates() {
    assert!(!vitrine_render::pipelines::SHADERS.is_empty());
    let mut failures = Vec::new();
    for (name, source) in vitrine_render::pipelines::SHADERS {
        let module = match naga::front::wgsl::parse_str(source) {
            Ok(m) => m,
            Err(e) => {
                failures.push(e.emit_to_string_with_path(source, name));
                continue;
            }
        };
        let mut validator = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        );
        if let Err(e) = validator.validate(&module) {
            failures.push(e.emit_to_string_with_path(source, name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The shader's uniform blocks match the Rust structs byte for byte (a mismatch would
/// scramble matrices silently).
#[test]
fn uniform_layouts_match_the_rust_structs() {
    let source = vitrine_render::pipelines::SCENE_WGSL;
    let module = naga::front::wgsl::parse_str(source).unwrap();
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).unwrap();
    let size_of = |name: &str| {
        let (handle, _) = module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no struct {name}"));
        layouter[handle].size as usize
    };
    use vitrine_render::uniforms_sizes as s;
    assert_eq!(size_of("Frame"), s::FRAME);
    assert_eq!(size_of("Material"), s::MATERIAL);
    assert_eq!(size_of("Draw"), s::DRAW);
    assert_eq!(size_of("Joints"), s::JOINTS);
}
