//! An export's [`Job`], and [`export`]: render its frames on the calling thread, waiting
//! for each picture, and stream them to the encoder of its format on a thread the
//! front-end lends ([`Beside`]: the desktop's way), or encode each between frames (where
//! none is lent; the browser steps the same passes and encoder a frame at a time:
//! [`super::stepped`]).

use super::Format;
use super::encoder::{Destination, Encoded, Encoder};
use super::frames::Layout;
use super::frames::{Frames, Next};
use super::timing::{FramePlan, Motion};
use crate::beside::Beside;
use crate::model::{Model, Pose};
use crate::output::Output;
use crate::render::{Camera, RenderTarget, SceneRenderer, ViewSettings, framing_points};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Frames rendered ahead of the encoder thread (bounds memory to a few frames).
const QUEUE: usize = 2;

/// How the frames are encoded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Encoding {
    /// The output format.
    pub format: Format,
    /// GIF: Floyd–Steinberg dithering.
    pub dither: bool,
    /// GIF: colour partly transparent edges are blended over.
    pub matte: [u8; 3],
    /// Times the animation plays; 0 = forever (GIF, APNG, WebP).
    pub loops: u32,
    /// WebP: `None` lossless, else lossy at this quality (0–100).
    pub webp_quality: Option<f32>,
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding {
            format: Format::Gif,
            dither: true,
            matte: [255, 255, 255],
            loops: 0,
            webp_quality: None,
        }
    }
}

/// One export, fully decided: what to render, how, and where to write it.
#[derive(Debug, Clone)]
pub struct Job {
    /// The model.
    pub model: Arc<Model>,
    /// The frames.
    pub plan: FramePlan,
    /// The view of frame 0 (camera, team, background with alpha 0 for transparent,
    /// overlays); a turntable orbits its camera.
    pub view: ViewSettings,
    /// Rendered size in pixels (the output is smaller when cropped).
    pub size: (u32, u32),
    /// Samples per pixel ([`crate::render::SAMPLE_COUNTS`]).
    pub samples: u32,
    /// Crop to the content of all frames, with this margin in pixels.
    pub crop_margin: Option<u32>,
    /// How to encode.
    pub encoding: Encoding,
    /// The output file (for a PNG sequence: the name pattern, see `sequence`).
    pub output: PathBuf,
}

impl PartialEq for Job {
    /// Same settings on the same model object (models are compared by identity).
    fn eq(&self, other: &Job) -> bool {
        Arc::ptr_eq(&self.model, &other.model)
            && self.plan == other.plan
            && self.view == other.view
            && self.size == other.size
            && self.crop_margin == other.crop_margin
            && self.encoding == other.encoding
            && self.output == other.output
    }
}

/// Progress of a running export, shared with the thread that shows it.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU32,
    total: AtomicU32,
    cancel: AtomicBool,
}

impl Progress {
    /// Asks the export to stop; it removes what it wrote and returns
    /// [`ExportError::Cancelled`].
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether [`Progress::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// (frames rendered, frames to render), first pass included.
    pub fn get(&self) -> (u32, u32) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    pub(super) fn step(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn set_total(&self, total: u32) {
        self.total.store(total, Ordering::Relaxed);
    }
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The file written (a PNG sequence: its first frame).
    pub path: PathBuf,
    /// Frames.
    pub frames: u32,
    /// Playing time, seconds.
    pub duration: f64,
    /// Bytes written (all files of a sequence).
    pub bytes: u64,
    /// Size of each frame.
    pub size: (u32, u32),
    /// Wall-clock seconds the export took.
    pub seconds: f64,
}

/// Why an export wrote nothing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExportError {
    /// The user cancelled.
    #[error("cancelled")]
    Cancelled,
    /// Rendering, encoding or writing failed.
    #[error("{0}")]
    Failed(String),
}

/// The camera of frame 0: `base`'s direction and projection, framed so the whole
/// animation fits a `size` picture (every frame of the clip; for a turntable, every
/// angle).
pub fn frame_camera(
    model: &Model,
    plan: &FramePlan,
    view: &ViewSettings,
    size: (u32, u32),
) -> Camera {
    let aspect = size.0 as f32 / size.1.max(1) as f32;
    let pose = Pose::sample(model, plan.clip(), plan.time(0), view.team);
    let mut view = view.clone();
    view.grid_unit = model.grid_unit;
    let points = framing_points(model, plan.clip(), &pose, &view);
    let mut camera = view.camera;
    match plan.motion {
        Motion::Clip { .. } => camera.frame_points(&points, aspect),
        Motion::Turntable { .. } => camera.frame_turntable(&points, aspect),
    }
    camera
}

/// `view` as frame `i` of `plan` draws it: the camera turned for a turntable.
pub fn frame_view(view: &ViewSettings, plan: &FramePlan, i: u32) -> ViewSettings {
    let mut v = view.clone();
    v.camera = view.camera.orbited(plan.turn(i));
    v
}

/// Why WebP cannot be written by a build without the `webp` feature.
pub const WEBP_UNAVAILABLE: &str = "WebP is not available in this build (it needs libwebp, which the browser build lacks); \
     choose GIF or APNG";

/// Renders and encodes `job` on `device`, reporting to `progress`; reads texture pages
/// and writes the output through `output`; encodes on the thread `beside` lends while
/// the next frames render (`None`: between frames, on this thread); blocks until done.
pub fn export(
    output: &dyn Output,
    beside: Option<&dyn Beside>,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    job: &Job,
    progress: &Progress,
) -> Result<Summary, ExportError> {
    let start = web_time::Instant::now();
    let fail = |e: String| ExportError::Failed(e);
    let plan = &job.plan;
    let (w, h) = job.size;
    let mut view = job.view.clone();
    if view.grid_unit.is_none() {
        view.grid_unit = job.model.grid_unit;
    }
    let mut scene = SceneRenderer::with_samples(device, queue, job.samples, &output.files());
    scene.set_model(device, queue, &job.model);
    let target = RenderTarget::with_samples(device, w, h, job.samples);
    let mut render = |i: u32| -> Result<image::RgbaImage, ExportError> {
        let pose = Pose::sample(&job.model, plan.clip(), plan.time(i), view.team);
        scene.render(device, queue, &target, &pose, &frame_view(&view, plan, i));
        target
            .read_rgba(device, queue)
            .map_err(|e| fail(e.to_string()))
    };

    // The output file first, so an unwritable path fails before any rendering.
    let destination = Destination::create(output, job).map_err(fail)?;

    // First pass: the crop box and the GIF palette.
    let mut frames = Frames::new(job);
    progress.set_total(frames.total());
    let layout = loop {
        if let Some(layout) = frames.layout() {
            break layout.clone();
        }
        if progress.is_cancelled() {
            return Err(ExportError::Cancelled);
        }
        if let Next::Render(i) = frames.next_step() {
            frames.add(render(i)?);
        }
        progress.step();
    };

    // Second pass: render each frame and hand it to the encoder, which ends the file
    // unless cancelled.
    let out_size = layout.size;
    let pass: &mut dyn FnMut(Sink<'_>) -> Result<(), ExportError> =
        &mut |push| second_pass(&mut frames, &mut render, progress, push);
    let (rendered, encoded) = match beside {
        Some(beside) => encode_beside(beside, destination, job, &layout, progress, pass),
        None => encode_between(destination, job, &layout, progress, pass),
    };
    rendered?;
    let done = encoded
        .map_err(|e| fail(format!("{}: {e}", job.output.display())))?
        .ok_or(ExportError::Cancelled)?;
    Ok(Summary {
        path: done.path,
        frames: done.frames,
        duration: plan.duration(),
        bytes: done.bytes,
        size: out_size,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The second pass's frames, in order, each handed to `push` (false: the encoder failed,
/// its error says why); stops early when cancelled or a render fails.
fn second_pass(
    frames: &mut Frames,
    render: &mut dyn FnMut(u32) -> Result<image::RgbaImage, ExportError>,
    progress: &Progress,
    push: Sink<'_>,
) -> Result<(), ExportError> {
    loop {
        if progress.is_cancelled() {
            return Err(ExportError::Cancelled);
        }
        let img = match frames.next_step() {
            Next::Done => return Ok(()),
            Next::Encode(img) => img,
            Next::Render(i) => match frames.add(render(i)?) {
                Some(img) => img,
                None => continue, // Not reached: the first pass is over.
            },
        };
        if !push(img) {
            return Ok(());
        }
        progress.step();
    }
}

/// Where the second pass hands each frame: false when the encoder failed.
type Sink<'a> = &'a mut dyn FnMut(image::RgbaImage) -> bool;

/// What [`encode`] gives back: how the second pass ended, and what the encoder wrote
/// (`None`: cancelled, the file removed).
type Outcome = (Result<(), ExportError>, Result<Option<Encoded>, String>);

/// Runs `pass` with a sink that encodes each frame into `destination`, the encoder on
/// the thread `beside` lends while the next frames render, a few frames ahead at most
/// (libwebp's encoder stays on the thread that made it).
fn encode_beside(
    beside: &dyn Beside,
    destination: Destination<'_>,
    job: &Job,
    layout: &Layout,
    progress: &Progress,
    pass: &mut dyn FnMut(Sink<'_>) -> Result<(), ExportError>,
) -> Outcome {
    let (tx, rx) = std::sync::mpsc::sync_channel::<image::RgbaImage>(QUEUE);
    let mut encoded = Err("the encoder crashed".to_string());
    let mut rendered = Ok(());
    let (encoded_to, rendered_to) = (&mut encoded, &mut rendered);
    let task = Box::new(move || {
        *encoded_to = (|| {
            let mut encoder = Encoder::new(destination, job, layout)?;
            for img in rx {
                encoder.push(&img)?;
            }
            if progress.is_cancelled() {
                return Ok(None);
            }
            encoder.finish().map(Some)
        })();
    });
    // The sender is dropped when `here` ends, which ends the encoder's loop.
    let here = Box::new(move || *rendered_to = pass(&mut |img| tx.send(img).is_ok()));
    if let Err(e) = beside.run(task, here) {
        return (rendered, Err(e));
    }
    (rendered, encoded)
}

/// Runs `pass` with a sink that encodes each frame into `destination` between frames, on
/// this thread (no thread lent: the page, the tests).
fn encode_between(
    destination: Destination<'_>,
    job: &Job,
    layout: &Layout,
    progress: &Progress,
    pass: &mut dyn FnMut(Sink<'_>) -> Result<(), ExportError>,
) -> Outcome {
    let mut encoder = match Encoder::new(destination, job, layout) {
        Ok(encoder) => encoder,
        Err(e) => return (Ok(()), Err(e)),
    };
    let mut failed = None;
    let rendered = pass(&mut |img| match encoder.push(&img) {
        Ok(()) => true,
        Err(e) => {
            failed = Some(e);
            false
        }
    });
    let encoded = match failed {
        Some(e) => Err(e),
        None if progress.is_cancelled() => Ok(None),
        None => encoder.finish().map(Some),
    };
    (rendered, encoded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::MemoryOutput;
    use std::path::Path;

    /// The demo tank (with its pages) in memory, and a 12-frame turntable of it to `out`.
    fn tank_job(output: &MemoryOutput, out: &str) -> Job {
        let files = output.files();
        let model =
            vitrine_core::formats::load_path(&files, Path::new("tank.pie"), &Default::default())
                .expect("the demo tank loads");
        let motion = Motion::Turntable {
            seconds: 1.5,
            clip: None,
        };
        let plan = FramePlan::new(&model, motion, Some(8.0)).expect("a plan");
        let mut view = ViewSettings::default();
        view.camera = frame_camera(&model, &plan, &view, (64, 48));
        Job {
            model: Arc::new(model),
            plan,
            view,
            size: (64, 48),
            samples: 1,
            crop_margin: Some(2),
            encoding: Encoding::default(),
            output: out.into(),
        }
    }

    /// The export encoding between frames (no thread lent) writes what the browser's
    /// stepped export writes (`tests/export/stepped_export.rs` checks the desktop's, on
    /// the encoder thread it lends).
    #[vitrine_test_needs::vitrine_test(gpu)]
    fn export_writes_what_the_stepped_export_writes() {
        vitrine_test_needs::require(vitrine_test_needs::Need::Gpu, "a GPU adapter");
        let gpu = crate::render::Gpu::headless().expect("a GPU adapter (the build found one)");
        let source = crate::files::MemorySource::new()
            .with(
                "tank.pie",
                include_bytes!("../../../../assets/demo/tank.pie").to_vec(),
            )
            .with(
                "texpages/page-90-demo-tank.png",
                include_bytes!("../../../../assets/demo/texpages/page-90-demo-tank.png").to_vec(),
            )
            .with(
                "texpages/page-90_tcmask.png",
                include_bytes!("../../../../assets/demo/texpages/page-90_tcmask.png").to_vec(),
            );
        let output = MemoryOutput::new(source);
        let (a, b) = (
            tank_job(&output, "out/a.gif"),
            tank_job(&output, "out/b.gif"),
        );
        let done = export(
            &output,
            None,
            &gpu.device,
            &gpu.queue,
            &a,
            &Progress::default(),
        )
        .expect("the export writes");
        assert_eq!(done.frames, 12);
        let destination = Destination::create(&output, &b).expect("a destination");
        let files = output.files();
        let mut stepped = super::super::SteppedExport::new(
            destination,
            &files,
            &gpu.device,
            &gpu.queue,
            b.clone(),
            Arc::new(Progress::default()),
        );
        let stepped_done = loop {
            if let Some(r) = stepped.step(&gpu.device, &gpu.queue, std::time::Duration::ZERO) {
                break r.expect("the stepped export writes");
            }
        };
        assert_eq!(stepped_done.frames, 12);
        let written = |p: &str| output.written(Path::new(p)).expect("written");
        let gif = written("out/a.gif");
        assert!(gif.starts_with(b"GIF89a"), "a GIF");
        assert!(gif == written("out/b.gif"), "the same bytes both ways");
    }
}
