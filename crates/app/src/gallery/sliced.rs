//! Thumbnails made on the window's own device, a bounded slice of each frame at a time:
//! the browser's producer, where there are no threads for [`crate::render::batch`].
//!
//! Every frame [`Sliced::step`] first takes the pictures whose copy back from the GPU has
//! finished ([`RenderTarget::start_read`], [`crate::render::Reading::try_take`]: never a
//! wait, which on the page's only thread would never end), then loads and draws the next
//! jobs of the gallery's queue (the tiles on screen first, as the batch takes them) until
//! the slice's time is spent, starting each one's copy back. One target serves every
//! job: the GPU runs each copy before the next drawing, and each copy has its own buffer.
//! The pictures go to the UI as the batch's do ([`super::thumbs::Thumbnails::poll`]);
//! the host's thumbnail cache, where it has one (the page has none), is read before
//! drawing and written when a picture is back.

use super::cache::{Key, RenderKey};
use super::thumbs::Finished;
use crate::files::{FileRef, Files, Stamp};
use crate::formats::{LoadOptions, resolve::Resolver};
use crate::host::ThumbnailCache;
use crate::render::batch::{self, JobQueue};
use crate::render::{Reading, RenderTarget, SceneRenderer, ViewSettings};
use std::collections::VecDeque;
use std::sync::Arc;
use web_time::{Duration, Instant};

/// Pictures on their way back at most (64 KiB each at 128²): drawing pauses beyond it.
const MAX_IN_FLIGHT: usize = 32;

/// A drawn picture being copied back.
struct InFlight {
    id: u64,
    reading: Reading,
    /// Where it goes in the host's cache, with the texture files it was drawn with.
    cache: Option<(Key, Vec<(FileRef, Stamp)>)>,
}

/// The time-sliced producer: a renderer and a target on the window's device.
pub(super) struct Sliced {
    device: wgpu::Device,
    queue: wgpu::Queue,
    scene: SceneRenderer,
    target: RenderTarget,
    view: ViewSettings,
    files: Files,
    resolver: Resolver,
    options: LoadOptions,
    settings: RenderKey,
    cache: Option<Arc<dyn ThumbnailCache>>,
    in_flight: VecDeque<InFlight>,
}

impl Sliced {
    /// A producer drawing on `device`/`queue` with `view` at `settings.size`, reading
    /// models from `files` with `options`, and `cache` (if any) before drawing.
    pub(super) fn new(
        (device, queue): (wgpu::Device, wgpu::Queue),
        view: ViewSettings,
        files: Files,
        options: LoadOptions,
        settings: RenderKey,
        cache: Option<Arc<dyn ThumbnailCache>>,
    ) -> Sliced {
        let samples = crate::render::MSAA_SAMPLES;
        let mut scene = SceneRenderer::with_samples(&device, &queue, samples, &files);
        let px = settings.size;
        // A thumbnail never needs texels finer than a few per pixel (as the batch).
        scene.set_max_texture_size(&device, (px * 4).next_power_of_two());
        let target = RenderTarget::with_samples(&device, px, px, samples);
        Sliced {
            scene,
            target,
            view,
            resolver: Resolver::new(&files),
            files,
            options,
            settings,
            cache,
            in_flight: VecDeque::new(),
            device,
            queue,
        }
    }

    /// Whether pictures are still on their way back.
    pub(super) fn busy(&self) -> bool {
        !self.in_flight.is_empty()
    }

    /// One frame's work: the pictures that are back, then jobs from `jobs` drawn until
    /// `budget` is spent (at least one when any waits and there is room). Never waits.
    pub(super) fn step(&mut self, jobs: &JobQueue, budget: Duration) -> Vec<Finished> {
        let start = Instant::now();
        let mut out = Vec::new();
        self.take_readbacks(&mut out);
        while self.in_flight.len() < MAX_IN_FLIGHT {
            let Some(job) = jobs.try_pop() else { break };
            self.draw(job, &mut out);
            if start.elapsed() >= budget {
                break;
            }
        }
        out
    }

    /// Hands over the pictures whose copy is done, in the order they were drawn.
    fn take_readbacks(&mut self, out: &mut Vec<Finished>) {
        let mut still = VecDeque::new();
        for f in std::mem::take(&mut self.in_flight) {
            let Some(result) = f.reading.try_take(&self.device) else {
                still.push_back(f);
                continue;
            };
            let image = result.map_err(|e| format!("no thumbnail: {e}"));
            if let Err(e) = &image {
                log::warn!("{e}");
            }
            if let (Ok(img), Some(cache), Some((key, textures))) = (&image, &self.cache, &f.cache)
                && let Err(e) = cache.put(*key, img, textures)
            {
                log::warn!("thumbnail cache: {e}");
            }
            out.push(Finished {
                id: f.id,
                cached: false,
                image: image.map(color_image),
            });
        }
        self.in_flight = still;
    }

    /// Loads `job`'s model (or finds its picture in the cache) and draws it, starting the
    /// copy back; a failure is the job's result at once.
    fn draw(&mut self, job: batch::Job, out: &mut Vec<Finished>) {
        let bytes = || self.files.read(&job.file).ok();
        let key = match self.cache.as_ref().and_then(|c| Some((c, bytes()?))) {
            Some((cache, bytes)) => {
                let key = Key::new(&job.file, &bytes, &self.settings);
                if let Some(img) = cache.get(key) {
                    out.push(Finished {
                        id: job.id,
                        cached: true,
                        image: Ok(color_image(img)),
                    });
                    return;
                }
                Some(key)
            }
            None => None,
        };
        let model = match crate::formats::load_with(&mut self.resolver, &job.file, &self.options) {
            Ok(m) => m,
            Err(e) => {
                out.push(Finished {
                    id: job.id,
                    cached: false,
                    image: Err(e.to_string()),
                });
                return;
            }
        };
        batch::draw_framed(
            &self.device,
            &self.queue,
            &mut self.scene,
            &self.target,
            (&model, None),
            &self.view,
        );
        let cache = key.map(|k| {
            let textures = batch::texture_files(&model)
                .into_iter()
                .map(|f| {
                    let s = self.files.stamp(&f).unwrap_or_default();
                    (f, s)
                })
                .collect();
            (k, textures)
        });
        self.in_flight.push_back(InFlight {
            id: job.id,
            reading: self.target.start_read(&self.device, &self.queue),
            cache,
        });
    }
}

/// A picture as egui takes it.
fn color_image(img: image::RgbaImage) -> egui::ColorImage {
    egui::ColorImage::from_rgba_unmultiplied(
        [img.width() as usize, img.height() as usize],
        img.as_raw(),
    )
}
