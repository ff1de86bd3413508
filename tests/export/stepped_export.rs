//! The export as the browser runs it ([`SteppedExport`]: a slice per page frame, each
//! picture read back without waiting) writes the very bytes the desktop's threaded
//! [`export`] writes, never waits on the GPU inside a step, and writes nothing when
//! cancelled. GPU tests are marked `#[vitrine_test(gpu)]`: ignored without an adapter.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use vitrine::export::animation::encoder::Destination;
use vitrine::export::animation::{
    Encoding, ExportError, Format, FramePlan, Job, Motion, Progress, SteppedExport, Summary,
    export, frame_camera,
};
use vitrine::render::{Gpu, ViewSettings};
use vitrine_test_needs::vitrine_test;

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("stepped-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A turntable of the demo tank, `frames` frames at 8 fps, 96×80.
fn job(format: Format, frames: u32, crop_margin: Option<u32>, output: PathBuf) -> Job {
    let tank = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/tank.pie");
    let model = vitrine::formats::load_path(&tank, &Default::default()).unwrap();
    let motion = Motion::Turntable {
        seconds: frames as f32 / 8.0,
        clip: None,
    };
    let plan = FramePlan::new(&model, motion, Some(8.0)).unwrap();
    let mut view = ViewSettings::default();
    view.camera = frame_camera(&model, &plan, &view, (96, 80));
    Job {
        model: Arc::new(model),
        plan,
        view,
        size: (96, 80),
        samples: vitrine::render::MSAA_SAMPLES,
        crop_margin,
        encoding: Encoding {
            format,
            ..Encoding::default()
        },
        output,
    }
}

/// Runs `job` stepped as the page does, a zero-length slice at a time (one step each);
/// returns the result and the number of steps.
fn stepped(gpu: &Gpu, job: &Job, progress: Arc<Progress>) -> (Result<Summary, ExportError>, u32) {
    let output = vitrine::files::DiskOutput;
    let destination = Destination::create(&output, job).unwrap();
    let files = vitrine::files::disk();
    let mut run = SteppedExport::new(
        destination,
        files,
        &gpu.device,
        &gpu.queue,
        job.clone(),
        progress,
    );
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 100_000, "the stepped export never ended");
        if let Some(result) = run.step(&gpu.device, &gpu.queue, Duration::ZERO) {
            return (result, steps);
        }
    }
}

#[vitrine_test(gpu)]
fn stepped_export_writes_what_the_threaded_export_writes() {
    let gpu = crate::common::gpu();
    let output = vitrine::files::DiskOutput;
    for (format, crop) in [
        (Format::Gif, None),
        (Format::Gif, Some(4)),
        (Format::Apng, Some(2)),
    ] {
        let what = format!("{format:?} crop {crop:?}");
        let dir = out_dir(&format!("{}-{}", format.extension(), crop.is_some()));
        let a = job(
            format,
            16,
            crop,
            dir.join(format!("a.{}", format.extension())),
        );
        let b = job(
            format,
            16,
            crop,
            dir.join(format!("b.{}", format.extension())),
        );
        let threaded = export(
            &output,
            Some(&vitrine::export::EncoderThread),
            &gpu.device,
            &gpu.queue,
            &a,
            &Progress::default(),
        )
        .unwrap();
        let progress = Arc::new(Progress::default());
        let (result, steps) = stepped(&gpu, &b, progress.clone());
        let summary = result.unwrap();
        assert_eq!(
            (summary.frames, summary.size, summary.bytes),
            (threaded.frames, threaded.size, threaded.bytes),
            "{what}"
        );
        assert_eq!(
            std::fs::read(&a.output).unwrap(),
            std::fs::read(&b.output).unwrap(),
            "{what}: the two exports differ"
        );
        // Every frame rendered took a step of its own to come back (the steps never
        // waited for the GPU), and the progress counted every frame of both passes.
        assert!(steps > 16, "{what}: {steps} steps");
        let (done, total) = progress.get();
        assert_eq!(done, total, "{what}");
        assert!(total >= 16, "{what}");
    }
}

#[vitrine_test(gpu)]
fn a_cancelled_stepped_export_writes_nothing() {
    let gpu = crate::common::gpu();
    let dir = out_dir("cancel");
    let j = job(Format::Gif, 40, None, dir.join("tank.gif"));
    let output = vitrine::files::DiskOutput;
    let destination = Destination::create(&output, &j).unwrap();
    let progress = Arc::new(Progress::default());
    let mut run = SteppedExport::new(
        destination,
        vitrine::files::disk(),
        &gpu.device,
        &gpu.queue,
        j.clone(),
        progress.clone(),
    );
    while progress.get().0 < 5 {
        assert!(
            run.step(&gpu.device, &gpu.queue, Duration::ZERO).is_none(),
            "ended early"
        );
    }
    progress.cancel();
    let result = run.step(&gpu.device, &gpu.queue, Duration::ZERO);
    assert_eq!(result, Some(Err(ExportError::Cancelled)));
    drop(run);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "a file was left"
    );
}
