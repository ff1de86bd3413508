//! Render the frames of a [`Job`] and stream them to the encoder of its format.

use super::crop::{ContentBox, Rect, crop};
use super::gif::{GifOptions, PaletteSampler};
use super::timing::{FramePlan, Motion};
use super::{Format, sequence};
use crate::host::Host;
use crate::model::{Model, Pose};
use crate::render::{Camera, RenderTarget, SceneRenderer, ViewSettings, framing_points};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Frames rendered for the GIF palette when no crop pass sees them all.
const PALETTE_FRAMES: u32 = 12;
/// Frames rendered ahead of the encoder (bounds memory to a few frames).
const QUEUE: usize = 2;
/// Bytes of first-pass frames kept to be encoded without rendering them again (the GIF
/// palette's sample frames at 512² take 12 MiB; at 2048² only a few are kept).
const KEEP_BYTES: usize = 64 << 20;

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

    fn step(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
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
    let enc = job.encoding;
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
    let mut file = match enc.format {
        Format::PngSequence => None,
        _ => Some(host.create(&job.output).map_err(|e| fail(e.to_string()))?),
    };

    // First pass: the crop box and the GIF palette.
    let transparent = view.background[3] == 0;
    let gif_options = GifOptions {
        dither: enc.dither,
        matte: enc.matte,
        transparent,
        loops: enc.loops,
    };
    let gif = enc.format == Format::Gif;
    let first_pass: Vec<u32> = if job.crop_margin.is_some() {
        (0..plan.count).collect()
    } else if gif {
        let n = plan.count.min(PALETTE_FRAMES);
        (0..n).map(|k| k * plan.count / n).collect()
    } else {
        Vec::new()
    };
    let sample_every = (first_pass.len() as u32).div_ceil(PALETTE_FRAMES).max(1);
    progress
        .total
        .store(plan.count + first_pass.len() as u32, Ordering::Relaxed);
    // First-pass frames kept for the second pass, while they fit in KEEP_BYTES (not when
    // cropping: that pass sees every frame, and the frames are cropped afterwards).
    let keep_each = (w as usize * h as usize * 4).max(1);
    let keep_max = if job.crop_margin.is_some() {
        0
    } else {
        KEEP_BYTES / keep_each
    };
    let mut kept: std::collections::HashMap<u32, image::RgbaImage> = Default::default();
    let mut content = ContentBox::default();
    let mut sampler = PaletteSampler::new(
        gif_options,
        first_pass.len().div_ceil(sample_every as usize),
        (w * h) as usize,
    );
    for (k, &i) in first_pass.iter().enumerate() {
        if progress.is_cancelled() {
            return Err(ExportError::Cancelled);
        }
        let img = render(i)?;
        if job.crop_margin.is_some() {
            content.add(&img, view.background);
        }
        if gif && (k as u32).is_multiple_of(sample_every) {
            sampler.add(&img);
        }
        if kept.len() < keep_max {
            kept.insert(i, img);
        }
        progress.step();
    }
    let rect = match job.crop_margin {
        Some(m) => content.rect(m, w, h),
        None => Rect {
            x: 0,
            y: 0,
            width: w,
            height: h,
        },
    };
    let out_size = (rect.width, rect.height);
    let palette = gif.then(|| sampler.palette());

    // Second pass: render and stream to the encoder thread.
    let (tx, rx) = std::sync::mpsc::sync_channel::<image::RgbaImage>(QUEUE);
    let mut rendered: Result<(), ExportError> = Ok(());
    let encoded = std::thread::scope(|s| {
        let file = file.as_mut();
        let encoder = s.spawn(move || -> Result<(u32, u64), String> {
            let mut frames = rx.into_iter();
            let Some(file) = file else {
                return sequence::write(host, &job.output, plan.count, &mut frames);
            };
            let mut out = Counting::new(std::io::BufWriter::new(file));
            let n = match enc.format {
                Format::Gif => {
                    let palette = palette.as_ref().ok_or("no palette")?;
                    super::gif::write(&mut out, out_size, palette, plan, gif_options, &mut frames)
                }
                Format::Apng => super::apng::write(
                    &mut out,
                    out_size,
                    plan,
                    transparent,
                    enc.loops,
                    &mut frames,
                ),
                #[cfg(feature = "webp")]
                Format::Webp => {
                    let options = super::webp::WebpOptions {
                        quality: enc.webp_quality,
                        loops: enc.loops,
                    };
                    super::webp::write(&mut out, out_size, plan, options, &mut frames)
                }
                #[cfg(not(feature = "webp"))]
                Format::Webp => Err(WEBP_UNAVAILABLE.to_string()),
                Format::PngSequence => unreachable!("handled above"),
            }?;
            out.flush().map_err(|e| e.to_string())?;
            Ok((n, out.count))
        });
        for i in 0..plan.count {
            if progress.is_cancelled() {
                rendered = Err(ExportError::Cancelled);
                break;
            }
            let img = match kept.remove(&i).map_or_else(|| render(i), Ok) {
                Ok(img) if job.crop_margin.is_some() => crop(&img, rect),
                Ok(img) => img,
                Err(e) => {
                    rendered = Err(e);
                    break;
                }
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
    let (frames, bytes) = encoded.map_err(|e| fail(format!("{}: {e}", job.output.display())))?;
    if progress.is_cancelled() {
        return Err(ExportError::Cancelled);
    }
    if frames != plan.count {
        return Err(fail(format!(
            "{}: only {frames} of {} frames were encoded",
            job.output.display(),
            plan.count
        )));
    }
    let path = match file {
        Some(f) => f.commit().map_err(|e| fail(e.to_string()))?,
        None => sequence::frame_path(&job.output, 0, plan.count),
    };
    Ok(Summary {
        path,
        frames,
        duration: plan.duration(),
        bytes,
        size: out_size,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// A writer that counts the bytes through it.
struct Counting<W> {
    inner: W,
    count: u64,
}

impl<W> Counting<W> {
    fn new(inner: W) -> Self {
        Counting { inner, count: 0 }
    }
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
