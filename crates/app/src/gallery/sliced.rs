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
//! drawing and written when a picture is back. A job whose model or pages were not there
//! yet (an archive the page reads over the network a piece at a time) waits while the
//! host fetches them ([`crate::jobs::Refetch`]), then is drawn again.

use super::cache::{Key, RenderKey};
use super::thumbs::Finished;
use crate::files::{FileRef, Files, Stamp};
use crate::formats::resolve::Resolver;
use crate::host::ThumbnailCache;
use crate::jobs::Refetch;
use crate::render::batch::{self, JobQueue};
use crate::render::{Reading, RenderTarget, SceneRenderer, ViewSettings};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::{Duration, Instant};

/// Pictures on their way back at most (64 KiB each at 128²): drawing pauses beyond it.
const MAX_IN_FLIGHT: usize = 32;

/// Times one job is drawn again for bytes that arrived (the model, then its pages…).
const MOST_TRIES: u32 = 8;

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
    options: super::thumbs::TileOptions,
    settings: RenderKey,
    cache: Option<Arc<dyn ThumbnailCache>>,
    in_flight: VecDeque<InFlight>,
    /// Fetches what reads asked for (the page's remote archives).
    refetch: Option<Arc<dyn Refetch>>,
    /// Jobs waiting for bytes to arrive, with the times they were tried.
    waiting: Vec<(batch::Job, u32)>,
    /// Set when the fetch the waiting jobs wait on is done.
    arrived: Arc<AtomicBool>,
    /// Jobs whose bytes arrived, drawn before the queue's.
    again: VecDeque<(batch::Job, u32)>,
}

impl Sliced {
    /// A producer drawing on `device`/`queue` with `view` at `settings.size`, reading
    /// models from `files` with `options`, and `cache` (if any) before drawing.
    pub(super) fn new(
        (device, queue): (wgpu::Device, wgpu::Queue),
        view: ViewSettings,
        files: Files,
        options: super::thumbs::TileOptions,
        settings: RenderKey,
        cache: Option<Arc<dyn ThumbnailCache>>,
        refetch: Option<Arc<dyn Refetch>>,
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
            refetch,
            waiting: Vec::new(),
            arrived: Arc::new(AtomicBool::new(false)),
            again: VecDeque::new(),
            device,
            queue,
        }
    }

    /// Whether pictures are still on their way back.
    pub(super) fn busy(&self) -> bool {
        !self.in_flight.is_empty() || !self.waiting.is_empty() || !self.again.is_empty()
    }

    /// One frame's work: the pictures that are back, then jobs from `jobs` drawn until
    /// `budget` is spent (at least one when any waits and there is room). Never waits.
    pub(super) fn step(&mut self, jobs: &JobQueue, budget: Duration) -> Vec<Finished> {
        let start = Instant::now();
        let mut out = Vec::new();
        self.take_readbacks(&mut out);
        if self.arrived.swap(false, Ordering::Relaxed) {
            self.again.extend(self.waiting.drain(..));
        }
        while self.in_flight.len() < MAX_IN_FLIGHT {
            let next = self.again.pop_front();
            let Some((job, tries)) = next.or_else(|| Some((jobs.try_pop()?, 0))) else {
                break;
            };
            self.draw(job, tries, &mut out);
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
    /// Whether `job` read bytes that have not arrived: then it waits for them (the
    /// host fetches them; the first waiting job asks) instead of showing what it drew.
    fn waits(&mut self, job: &batch::Job, tries: u32) -> bool {
        let Some(refetch) = &self.refetch else {
            return false;
        };
        if tries >= MOST_TRIES || !self.files.wanting() {
            return false;
        }
        if self.waiting.is_empty() {
            let arrived = self.arrived.clone();
            refetch.fetch_then(Box::new(move || arrived.store(true, Ordering::Relaxed)));
        }
        self.waiting.push((job.clone(), tries + 1));
        true
    }

    fn draw(&mut self, job: batch::Job, tries: u32, out: &mut Vec<Finished>) {
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
        let loaded = crate::formats::load_with(
            &mut self.resolver,
            &job.file,
            self.options.for_file(&job.file),
        );
        if self.waits(&job, tries) {
            return;
        }
        let model = match loaded {
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
        // Its pages are on their way: drawn again once they are here.
        if self.waits(&job, tries) {
            return;
        }
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
