//! The renderer under GPU faults, on a real (software) device: a device lost while a
//! model is shown (`wgpu::Device::destroy`, the one loss a test can cause on purpose)
//! reaches the window's `DeviceWatch`, nothing panics while the dead device is still
//! used (uploads, renders, a renderer rebuilt on it), and a renderer rebuilt on a new
//! device shows the model again.
//! They skip without an adapter unless VITRINE_REQUIRE_GPU=1.

mod render_support;

use render_support::{Rig, foreground_box, framed, unlit_front};
use vitrine::model::{Material, Pose};
use vitrine::render::{DeviceWatch, Gpu, RenderTarget, SceneRenderer};

const SIZE: u32 = 64;

fn quad() -> vitrine::model::Model {
    render_support::fixtures::quad_model(Material::new("grey", [0.6, 0.6, 0.6, 1.0]), vec![])
}

#[test]
fn a_destroyed_device_reports_loss_and_a_rebuilt_renderer_shows_the_model_again() {
    let Some(mut rig) = Rig::new() else { return };
    let model = quad();
    let bg = unlit_front().background;
    let before = rig.render(&model, &unlit_front(), SIZE);
    assert!(foreground_box(&before, bg).is_some(), "the quad is drawn");

    // What the window installs on eframe's device.
    let watch = DeviceWatch::install(&rig.gpu.device);
    assert!(!watch.is_lost());
    rig.gpu.device.destroy();
    let _ = rig.gpu.device.poll(wgpu::PollType::wait_indefinitely());
    assert!(watch.is_lost());
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
        SceneRenderer::new(d, q);
    }));
    assert!(
        rebuilt_on_dead.is_ok(),
        "building a renderer on the lost device panicked"
    );

    // A new device and a renderer built on it show the model again.
    let gpu = Gpu::headless().expect("a second device");
    let mut scene = SceneRenderer::new(&gpu.device, &gpu.queue);
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
