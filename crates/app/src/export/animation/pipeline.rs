//! An export's [`Job`], and [`export`]: render its frames on the calling thread, waiting
//! for each picture, and stream them to the encoder of its format on a thread of its own
//! (the desktop's way; the browser steps the same passes and encoder a frame at a time:
//! [`super::stepped`]).

use super::Format;
use super::encoder::{Destination, Encoder};
use super::frames::{Frames, Next};
use super::timing::{FramePlan, Motion};
use crate::host::Host;
use crate::model::{Model, Pose};
use crate::render::{Camera, RenderTarget, SceneRenderer, ViewSettings, framing_points};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Frames rendered ahead of the encoder (bounds memory to a few frames).
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
    /// The output file (for a PNG sequence: the name pattern, see [`sequence`]).
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
    view.grid_unit = model.format.grid_unit();
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
/// and writes the output through `host`; blocks until done.
pub fn export(
    host: &dyn Host,
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
        view.grid_unit = job.model.format.grid_unit();
    }
    let mut scene = SceneRenderer::with_samples(device, queue, job.samples, &host.files());
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
    let destination = Destination::create(host, job).map_err(fail)?;

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

    // Second pass: render and stream to the encoder thread, which ends the file unless
    // cancelled (libwebp's encoder stays on the thread that made it).
    let out_size = layout.size;
    let (tx, rx) = std::sync::mpsc::sync_channel::<image::RgbaImage>(QUEUE);
    let mut rendered: Result<(), ExportError> = Ok(());
    let encoded = std::thread::scope(|s| {
        let encoder = s.spawn(move || {
            let mut encoder = Encoder::new(destination, job, &layout)?;
            for img in rx {
                encoder.push(&img)?;
            }
            if progress.is_cancelled() {
                return Ok(None);
            }
            encoder.finish().map(Some)
        });
        loop {
            if progress.is_cancelled() {
                rendered = Err(ExportError::Cancelled);
                break;
            }
            let img = match frames.next_step() {
                Next::Done => break,
                Next::Encode(img) => img,
                Next::Render(i) => match render(i) {
                    Ok(img) => match frames.add(img) {
                        Some(img) => img,
                        None => continue, // Not reached: the first pass is over.
                    },
                    Err(e) => {
                        rendered = Err(e);
                        break;
                    }
                },
            };
            if tx.send(img).is_err() {
                break; // The encoder failed; its error says why.
            }
            progress.step();
        }
        drop(tx);
        encoder
            .join()
            .unwrap_or_else(|_| Err("the encoder crashed".into()))
    });
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
