//! The renderer under GPU faults, on a real (software) device: a device lost while a
//! model is shown (`wgpu::Device::destroy`, the one loss a test can cause on purpose)
//! reaches the window's `DeviceWatch`, nothing panics while the dead device is still
//! used (uploads, renders, a renderer rebuilt on it), and a renderer rebuilt on a new
//! device shows the model again.
//! Marked `#[vitrine_test(gpu)]`: ignored where the build found no adapter.

use crate::app_support;
use crate::render_support;

use render_support::{Rig, foreground_box, framed, near, unlit_front};
use vitrine_core::model::{Material, Pose};
use vitrine_render::{DeviceWatch, Gpu, RenderTarget, SceneRenderer};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 64;

fn quad() -> vitrine_core::model::Model {
    render_support::fixtures::quad_model(Material::new("grey", [0.6, 0.6, 0.6, 1.0]), vec![])
}

#[vitrine_test(gpu)]
fn a_destroyed_device_reports_loss_and_a_rebuilt_renderer_shows_the_model_again() {
    let mut rig = Rig::new();
    let model = quad();
    let bg = unlit_front().background;
    let before = rig.render(&model, &unlit_front(), SIZE);
    assert!(foreground_box(&before, bg).is_some(), "the quad is drawn");

    // What the window installs on eframe's device.
    let watch = DeviceWatch::install(&rig.gpu.device);
    let woken = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = woken.clone();
    watch.on_lost(move || {
        counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    });
    assert!(!watch.is_lost());
    rig.gpu.device.destroy();
    let _ = rig.gpu.device.poll(wgpu::PollType::wait_indefinitely());
    assert!(watch.is_lost());
    assert_eq!(
        woken.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "the window is woken to notice the loss"
    );
    let why = watch.take_lost();
    assert!(
        why.as_deref().is_some_and(|w| w.starts_with("Destroyed")),
        "device-lost callback: {why:?}"
    );

    // The frames between the loss and the rebuild still use the dead device: uploading,
    // rendering and reading back must not panic (the read-back reports an error or
    // nothing drawn; the window shows the last frame meanwhile).
    let (d, q) = (&rig.gpu.device, &rig.gpu.queue);
    let mut view = unlit_front();
    let pose = Pose::rest(&model);
    framed(&mut view.camera, &model, &pose);
    let used = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rig.scene.set_model(d, q, &model);
        let target = RenderTarget::new(d, SIZE, SIZE);
        rig.scene.render(d, q, &target, &pose, &view);
        target.read_rgba(d, q).map(|_| ())
    }));
    assert!(used.is_ok(), "using the lost device panicked");
    let rebuilt_on_dead = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        SceneRenderer::new(d, q, vitrine_test_support::disk());
    }));
    assert!(
        rebuilt_on_dead.is_ok(),
        "building a renderer on the lost device panicked"
    );

    // A new device and a renderer built on it show the model again.
    let gpu = Gpu::headless().expect("a second device");
    let mut scene = SceneRenderer::new(&gpu.device, &gpu.queue, vitrine_test_support::disk());
    scene.set_model(&gpu.device, &gpu.queue, &model);
    let target = RenderTarget::new(&gpu.device, SIZE, SIZE);
    scene.render(&gpu.device, &gpu.queue, &target, &pose, &view);
    let after = target.read_rgba(&gpu.device, &gpu.queue).expect("readback");
    assert_eq!(
        foreground_box(&after, bg),
        foreground_box(&before, bg),
        "the rebuilt renderer draws the model where it was"
    );
}

/// A texture page the GPU has no memory for (lavapipe never runs out, so the error its
/// `OutOfMemory` scope would catch is simulated): the model is drawn with the
/// checkerboard in its place, and the warning naming the page reaches the side panel.
#[vitrine_test(gpu)]
fn a_texture_out_of_gpu_memory_shows_the_checkerboard_and_a_warning_in_the_side_panel() {
    use egui_kittest::kittest::Queryable;
    use vitrine_app::commands::{AppCommand, DocumentCommand};
    use vitrine_app::dispatch::apply;
    use vitrine_app::settings::Settings;
    use vitrine_app::state::AppState;
    use vitrine_render::textures::CHECKER_COLOURS;

    let mut rig = Rig::new();
    let file = vitrine_test_needs::fixtures().join("pie/cube.pie");
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(
            vitrine_test_support::disk().parse(&file),
        )),
    );
    let doc = state.document.open.as_ref().expect("cube.pie opens");
    let (model, generation) = (doc.model.clone(), doc.generation);
    let page = model.textures[0]
        .resolved
        .clone()
        .expect("the page is found");
    let magenta = |img: &image::RgbaImage| {
        img.pixels()
            .filter(|p| near(p.0, CHECKER_COLOURS[0], 40))
            .count()
    };

    let mut view = unlit_front();
    framed(&mut view.camera, &model, &Pose::rest(&model));
    let textured = rig.render(&model, &view, SIZE);
    assert!(
        rig.scene.warnings().is_empty(),
        "{:?}",
        rig.scene.warnings()
    );
    assert_eq!(
        magenta(&textured),
        0,
        "the page itself has no checker magenta"
    );

    // A fresh renderer: the page is not in its cache, so it is uploaded again.
    rig.scene = SceneRenderer::new(
        &rig.gpu.device,
        &rig.gpu.queue,
        vitrine_test_support::disk(),
    );
    rig.scene.simulate_texture_out_of_memory(page.clone());
    let fallback = rig.render(&model, &view, SIZE);
    assert!(
        magenta(&fallback) > (SIZE * SIZE / 20) as usize,
        "the checkerboard is drawn in the page's place"
    );
    let warnings = rig.scene.warnings().to_vec();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains(&page.to_string()) && warnings[0].contains("ran out of memory"),
        "{warnings:?}"
    );

    // What the window does with the renderer's warnings, then the side panel.
    state.document.set_render_warnings(generation, &warnings);
    let mut h = app_support::harness(state, 900.0);
    h.run();
    h.get_by_label_contains("Warnings (1)");
    h.get_by_label_contains("the GPU ran out of memory uploading it");
}
