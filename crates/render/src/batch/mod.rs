//! The thumbnail pipeline shared by `vitrine render DIR` and the window's gallery: many
//! models to pictures of one size, with the stages overlapped across the cores.
//!
//! ```text
//!  JobQueue ─► prepare × N ─(bounded)─► render × R (a thread, a device, ─► Rendered
//!             parse + resolve,           a SceneRenderer each): upload     (caller:
//!             decode new texture pages   the decoded pages, draw, read     PNG, tiles)
//!                                        back
//! ```
//!
//! - **Prepare** threads (one per core) take jobs from a [`JobQueue`] — which the gallery
//!   re-orders so the visible tiles come first — load the model with the caller's loader,
//!   choose its renderer (`route`: the one that has its texture pages, unless another is
//!   less busy) and decode each page that renderer has not seen yet (claimed once per
//!   renderer, keyed by file and [`Stamp`], so an edited page is decoded again).
//! - **Render**: [`BatchOptions::renderers`] threads, each owning a device, a
//!   [`SceneRenderer`] and two [`RenderTarget`]s (`render`, `slot`). Decoded pages are
//!   handed to the renderer's texture cache, so it only uploads. With one renderer its
//!   thread and the GPU wait on each other (on Mesa's lavapipe: the device's one queue
//!   thread, which shades vertices and bins triangles, then its drawing threads); with a
//!   device per core those waits overlap. Channels between stages are bounded: memory
//!   stays flat however long the batch.
//! - What happens to the picture (PNG encoding, the gallery's tiles and disk cache) is the
//!   caller's: it reads [`Rendered`] from [`Batch::results`], on its own thread.
//!
//! The loader is the caller's (this module never parses a file format); a panic in a
//! loader or in the renderer becomes that job's error, and the batch goes on.
//!
//! Not here: ordering of results (they come in completion order, each with its job id),
//! animation of the thumbnails, sharing a decoded page between renderers (a page drawn on
//! two renderers is decoded and uploaded on each; `route` keeps that rare).

// The pipeline's threads: not in the browser (wasm32 has no threads; wgpu's objects are
// not `Send` there). The queue, the drawing and `render_framed` are the same everywhere.
#[cfg(not(target_arch = "wasm32"))]
mod pages;
#[cfg(not(target_arch = "wasm32"))]
mod render;
#[cfg(not(target_arch = "wasm32"))]
mod route;
#[cfg(not(target_arch = "wasm32"))]
mod slot;

use super::{RenderTarget, SceneRenderer, ViewSettings, framing_points};
use std::collections::{HashSet, VecDeque};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::Receiver;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Condvar, Mutex};
use vitrine_core::files::{FileRef, Files, Stamp};
use vitrine_core::model::{Model, Pose};

/// One model to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// The caller's id for it (results carry it back).
    pub id: u64,
    /// The model file.
    pub file: FileRef,
}

/// What a loader makes of a job's file.
#[derive(Debug)]
pub struct Loaded {
    /// The model.
    pub model: Model,
    /// Pose it at (clip, seconds) instead of the rest pose.
    pub at: Option<(usize, f32)>,
    /// Draw it with this camera instead of framing it (a map's preview framed edge to
    /// edge: [`crate::EdgeToEdge`]).
    pub camera: Option<crate::Camera>,
}

/// What the prepare stage made of a job.
#[derive(Debug)]
pub enum Step {
    /// A model to draw.
    Draw(Box<Loaded>),
    /// The picture is already known (the gallery's disk cache): nothing to draw.
    Ready(image::RgbaImage),
}

/// A finished job.
#[derive(Debug)]
pub struct Rendered {
    /// The job's id.
    pub id: u64,
    /// The job's file.
    pub file: FileRef,
    /// The picture, or why there is none (the loader's message, a crash, a readback
    /// failure).
    pub image: Result<image::RgbaImage, String>,
    /// The loader's diagnostics and the renderer's warnings (textures that do not decode).
    pub warnings: Vec<String>,
    /// The texture files the model uses (with their versions when drawn): what a cache of
    /// this picture depends on.
    pub textures: Vec<(FileRef, Stamp)>,
    /// Whether it was drawn now (not [`Step::Ready`]).
    pub drawn: bool,
}

/// How the batch draws.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Picture size in pixels.
    pub size: (u32, u32),
    /// Camera direction, team, background, overlays… (the camera is framed per model).
    pub view: ViewSettings,
    /// Prepare threads (at least 1); `default_prepare_threads` by default.
    pub prepare_threads: usize,
    /// Render threads, each with a device of its own (at least 1, at most
    /// `prepare_threads`); [`default_renderers`] by default. Each costs a device (with
    /// lavapipe: a queue thread and a drawing thread per core), its pipelines, its texture
    /// cache and two targets; on a shared device ([`BatchDevice::Shared`]) the first uses
    /// that device and the others make their own.
    pub renderers: usize,
    /// Finished pictures that may wait for the caller before rendering pauses.
    pub results_capacity: usize,
    /// Samples per pixel ([`crate::SAMPLE_COUNTS`]; 4 by default).
    pub samples: u32,
    /// Where texture pages are read from (the loader reads the models itself).
    pub files: Files,
}

impl BatchOptions {
    /// Pictures of `size` drawn with `view`, one prepare thread per core, texture pages
    /// read from `files`.
    pub fn new(size: (u32, u32), view: ViewSettings, files: &Files) -> BatchOptions {
        BatchOptions {
            size,
            view,
            prepare_threads: default_prepare_threads(),
            renderers: default_renderers(),
            results_capacity: 8,
            samples: crate::MSAA_SAMPLES,
            files: files.clone(),
        }
    }
}

/// One prepare thread per core, at most 8 (a render thread mostly waits on the GPU or,
/// with a software rasteriser, on its worker threads).
pub(crate) fn default_prepare_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 8))
}

/// One renderer per core, at most 4: on a CPU rasteriser one renderer leaves the cores
/// waiting on its render thread and its device's queue (see the module's notes); past 4
/// the devices' memory grows faster than the rate.
pub fn default_renderers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4))
}

#[derive(Debug, Default)]
struct QueueState {
    jobs: VecDeque<Job>,
    closed: bool,
}

/// The jobs waiting for a prepare thread; shared with the caller, who may add jobs,
/// move some to the front and close it.
#[derive(Debug, Clone, Default)]
pub struct JobQueue {
    inner: Arc<(Mutex<QueueState>, Condvar)>,
}

impl JobQueue {
    fn state(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.inner.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds jobs at the back.
    pub fn push(&self, jobs: impl IntoIterator<Item = Job>) {
        self.state().jobs.extend(jobs);
        self.inner.1.notify_all();
    }

    /// Moves the waiting jobs for which `first` holds to the front, keeping the order
    /// within each part (the gallery: the tiles on screen).
    pub fn prioritise(&self, first: impl Fn(&Job) -> bool) {
        let mut s = self.state();
        let (mut front, back): (VecDeque<Job>, VecDeque<Job>) =
            s.jobs.drain(..).partition(|j| first(j));
        front.extend(back);
        s.jobs = front;
    }

    /// Drops waiting jobs for which `drop` holds.
    pub fn remove(&self, drop: impl Fn(&Job) -> bool) {
        self.state().jobs.retain(|j| !drop(j));
    }

    /// Jobs not yet taken by a prepare thread.
    pub fn len(&self) -> usize {
        self.state().jobs.len()
    }

    /// Whether no job waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// No more jobs will come: the threads end once the queue is empty.
    pub fn close(&self) {
        self.state().closed = true;
        self.inner.1.notify_all();
    }

    /// Drops waiting jobs and closes: the batch ends after the jobs under way.
    pub fn cancel(&self) {
        let mut s = self.state();
        s.jobs.clear();
        s.closed = true;
        self.inner.1.notify_all();
    }

    /// The next job without waiting; `None` while none waits (or once closed): what a
    /// producer on the UI thread takes a frame's slice of work from.
    pub fn try_pop(&self) -> Option<Job> {
        self.state().jobs.pop_front()
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// The next job; `None` once closed and empty.
    fn pop(&self) -> Option<Job> {
        let mut s = self.state();
        loop {
            if let Some(j) = s.jobs.pop_front() {
                return Some(j);
            }
            if s.closed {
                return None;
            }
            s = self.inner.1.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A running batch: its queue and its results.
#[derive(Debug)]
pub struct Batch {
    /// Where jobs go (close it when all are pushed, or the batch runs until dropped).
    pub queue: JobQueue,
    /// Finished jobs, in completion order; ends when the queue is closed and drained.
    pub results: Receiver<Rendered>,
    /// The batch's threads, joined when it is dropped.
    #[cfg(not(target_arch = "wasm32"))]
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Drop for Batch {
    /// Cancels what waits and lets the threads end: the results are let go first (a
    /// renderer waiting to hand one over stops), then every thread is joined. A program
    /// that exits right after its batch so never unloads the GPU driver while a render
    /// thread still runs in it (Mesa's lavapipe then crashed at exit, now and then, under
    /// load).
    fn drop(&mut self) {
        self.queue.cancel();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (_, closed) = sync_channel(0);
            drop(std::mem::replace(&mut self.results, closed));
            for t in self.threads.drain(..) {
                let _ = t.join();
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// A job after the prepare stage.
struct Prepared {
    job: Job,
    loaded: Result<Step, String>,
    pages: Vec<(FileRef, Stamp, pages::Page)>,
}

/// The device a batch draws on.
#[derive(Debug, Clone)]
pub enum BatchDevice {
    /// This one (the command line's).
    Shared(wgpu::Device, wgpu::Queue),
    /// A device of its own, created on the render thread ([`super::Gpu::headless`]): the
    /// window's gallery uses one, so its thumbnails never queue behind the window's
    /// frames (or the frames behind them); a failure becomes every job's error.
    Own,
}

#[cfg(not(target_arch = "wasm32"))]
/// Starts a batch on `device`/`queue`. `make_loader` is called once per prepare thread
/// (so each can keep its own look-up caches); the loader turns a file into a model to
/// draw (or a picture it already has).
#[allow(
    clippy::disallowed_methods,
    reason = "the desktop's batch threads (crates/clippy.toml); not built for wasm32"
)]
pub fn start<L>(
    device: BatchDevice,
    mut options: BatchOptions,
    make_loader: impl Fn() -> L,
) -> Batch
where
    L: FnMut(&FileRef) -> Result<Step, String> + Send + 'static,
{
    let jobs = JobQueue::default();
    let threads = options.prepare_threads.max(1);
    let renderers = options.renderers.clamp(1, threads);
    options.renderers = renderers;
    let (done_tx, done_rx) = sync_channel::<Rendered>(options.results_capacity.max(1));
    // As many jobs wait for the renderers as for one before (two per prepare thread).
    let capacity = (threads * 2).div_ceil(renderers).max(2);
    let mut inboxes = Vec::with_capacity(renderers);
    let mut handles = Vec::with_capacity(renderers + threads);
    for r in 0..renderers {
        let (prepared_tx, prepared_rx) = sync_channel::<Prepared>(capacity);
        let waiting = Arc::new(AtomicUsize::new(0));
        inboxes.push(route::Inbox::new(prepared_tx, waiting.clone()));
        let (device, options, done_tx) = (device.clone(), options.clone(), done_tx.clone());
        let input = render::Input {
            rx: prepared_rx,
            waiting,
        };
        let spawned = std::thread::Builder::new()
            .name(format!("vitrine render {r}"))
            .spawn(move || render::render_loop(device, r, options, input, done_tx));
        match spawned {
            Ok(t) => handles.push(t),
            Err(e) => log::error!("could not start a render thread: {e}"),
        }
    }
    drop(done_tx);
    let inboxes: Arc<[route::Inbox]> = inboxes.into();
    // One renderer uploads each page once: only the newest is kept (for a job that
    // overtakes the one its page was decoded for).
    let kept = if renderers > 1 { pages::KEPT_BYTES } else { 0 };
    let decoded = Arc::new(pages::Pages::new(options.files.clone(), kept));
    for i in 0..threads {
        let loader = make_loader();
        let (jobs, inboxes, decoded) = (jobs.clone(), inboxes.clone(), decoded.clone());
        let files = options.files.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("vitrine prepare {i}"))
            .spawn(move || prepare_loop(jobs, loader, &files, (&inboxes, &decoded)));
        match spawned {
            Ok(t) => handles.push(t),
            Err(e) => log::error!("could not start a prepare thread: {e}"),
        }
    }
    Batch {
        queue: jobs,
        results: done_rx,
        threads: handles,
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn panic_text(panic: Box<dyn std::any::Any + Send>) -> String {
    vitrine_core::crash::payload_text(&*panic).unwrap_or_else(|| "unknown panic".into())
}

#[cfg(not(target_arch = "wasm32"))]
fn prepare_loop<L>(
    jobs: JobQueue,
    mut loader: L,
    files: &Files,
    (inboxes, decoded): (&[route::Inbox], &pages::Pages),
) where
    L: FnMut(&FileRef) -> Result<Step, String>,
{
    while let Some(job) = jobs.pop() {
        let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| loader(&job.file)))
            .unwrap_or_else(|p| {
                Err(format!(
                    "{}: internal error: crashed while loading ({}); please report this file",
                    job.file,
                    panic_text(p)
                ))
            });
        let needs: Vec<(FileRef, Stamp)> = match &loaded {
            Ok(Step::Draw(l)) => texture_files(&l.model)
                .into_iter()
                .map(|file| {
                    let stamp = files.stamp(&file).unwrap_or_default();
                    (file, stamp)
                })
                .collect(),
            _ => Vec::new(),
        };
        let inbox = &inboxes[route::choose(inboxes, &needs)];
        let mut pages = Vec::new();
        for page in needs {
            // New to this renderer: decoded (or taken from another's). Already claimed:
            // handed over again while kept (its first job may not have arrived yet).
            let image = if inbox.claim(&page) {
                Some(decoded.get(&page))
            } else {
                decoded.if_kept(&page)
            };
            if let Some(image) = image {
                pages.push((page.0, page.1, image));
            }
        }
        if !inbox.send(Prepared { job, loaded, pages }) {
            return;
        }
    }
}

/// The distinct texture files `model` draws with (what a cached picture of it depends
/// on): those its materials' slots the renderer samples (not the bump map) and its sky
/// name. A model may list textures it does
/// not draw: a PIE's pages for the other tilesets (a map's structures list their
/// arizona, urban and rockies bases, and draw the level's), which are not read.
pub fn texture_files(model: &Model) -> Vec<FileRef> {
    let mut seen = HashSet::new();
    let slots = model
        .materials
        .iter()
        .flat_map(|m| [m.base, m.tcmask, m.normal, m.specular, m.opacity, m.shade]);
    let sky = model.environment.sky.as_ref().map(|s| s.texture);
    slots
        .chain(std::iter::once(sky))
        .flatten()
        .filter_map(|i| model.textures.get(i)?.resolved.clone())
        .filter(|f| seen.insert(f.clone()))
        .collect()
}

/// Draws `model` framed to fit `target`, without reading it back (the browser reads it
/// with [`RenderTarget::start_read`]).
pub fn draw_framed(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scene: &mut SceneRenderer,
    target: &RenderTarget,
    (model, at): (&Model, Option<(usize, f32)>),
    view: &ViewSettings,
) {
    let set = |scene: &mut SceneRenderer| scene.set_model(device, queue, model);
    draw_framed_with(device, queue, (scene, target), (model, at), view, set);
}

/// [`draw_framed`] of a model the renderer keeps without a copy of its own
/// ([`SceneRenderer::set_model_shared`]: a map's nodes are hundreds of MB).
pub fn draw_framed_shared(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scene: &mut SceneRenderer,
    target: &RenderTarget,
    (model, at): (&std::sync::Arc<Model>, Option<(usize, f32)>),
    view: &ViewSettings,
) {
    let set = |scene: &mut SceneRenderer| scene.set_model_shared(device, queue, model.clone());
    draw_framed_with(device, queue, (scene, target), (model, at), view, set);
}

/// [`draw_framed`], the model handed to the renderer by `set`.
fn draw_framed_with(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    (scene, target): (&mut SceneRenderer, &RenderTarget),
    (model, at): (&Model, Option<(usize, f32)>),
    view: &ViewSettings,
    set: impl FnOnce(&mut SceneRenderer),
) {
    let pose = Pose::sample(model, at.map(|a| a.0), at.map_or(0.0, |a| a.1), view.team);
    let mut view = view.clone();
    view.grid_unit = model.grid_unit;
    let aspect = target.width as f32 / target.height as f32;
    let points = framing_points(model, at.map(|a| a.0), &pose, &view);
    view.camera.frame_points(&points, aspect);
    drop(points);
    set(scene);
    scene.render(device, queue, target, &pose, &view);
}

/// Draws `model` in its rest pose with `view`'s camera as it is (a job's own camera,
/// [`Loaded::camera`]), without reading it back.
pub fn draw_unframed(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scene: &mut SceneRenderer,
    target: &RenderTarget,
    model: &Model,
    view: &ViewSettings,
) {
    let pose = Pose::sample(model, None, 0.0, view.team);
    let mut view = view.clone();
    view.grid_unit = model.grid_unit;
    scene.set_model(device, queue, model);
    scene.render(device, queue, target, &pose, &view);
}

/// Draws `model` framed to fit `target` and reads the picture back: in the rest pose, or
/// at `at` = (clip, seconds), framed on everything the clip shows over all its frames.
pub fn render_framed(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scene: &mut SceneRenderer,
    target: &RenderTarget,
    model: (&Model, Option<(usize, f32)>),
    view: &ViewSettings,
) -> Result<image::RgbaImage, String> {
    draw_framed(device, queue, scene, target, model, view);
    target.read_rgba(device, queue).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A structure's PIE lists its base page for each tileset and its material draws the
    /// level's: the pages of the other tilesets are not what its picture depends on, nor
    /// read for it; the sky's page is.
    #[test]
    fn the_texture_files_are_those_drawn() {
        use vitrine_core::model::{Material, TextureRef, TextureRole};
        let mut model = Model::new(vitrine_core::model::Format::Pie, "structure");
        for name in [
            "page-8-bases.png",
            "page-8-bases-urban.png",
            "page-8-bases-rockies.png",
            "sky.png",
        ] {
            let mut t = TextureRef::new(TextureRole::Base, name);
            t.resolved = Some(FileRef::Disk(format!("texpages/{name}").into()));
            model.textures.push(t);
        }
        let mut material = Material::new("base", [1.0; 4]);
        material.base = Some(2);
        model.materials.push(material.clone());
        model.materials.push(material);
        model.environment.sky = Some(vitrine_core::model::Sky {
            mesh: Default::default(),
            texture: 3,
            scale: [1.0; 3],
            lift: 0.0,
            turn_deg_per_s: 0.0,
            fog_below: 0.0,
            black_below: 0.0,
        });
        let names: Vec<String> = texture_files(&model)
            .iter()
            .map(|f| f.file_name())
            .collect();
        assert_eq!(names, ["page-8-bases-rockies.png", "sky.png"]);
    }

    fn job(id: u64) -> Job {
        Job {
            id,
            file: FileRef::Disk(format!("m{id}.pie").into()),
        }
    }

    #[test]
    fn queue_prioritises_keeping_order_and_closes() {
        let q = JobQueue::default();
        q.push((0..6).map(job));
        q.prioritise(|j| j.id == 4 || j.id == 2);
        q.remove(|j| j.id == 5);
        q.close();
        let order: Vec<u64> = std::iter::from_fn(|| q.pop()).map(|j| j.id).collect();
        assert_eq!(order, [2, 4, 0, 1, 3]);
    }

    #[test]
    fn cancel_empties_the_queue() {
        let q = JobQueue::default();
        q.push((0..3).map(job));
        q.cancel();
        assert!(q.is_empty());
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn try_pop_takes_in_order_without_waiting() {
        let q = JobQueue::default();
        assert_eq!(q.try_pop(), None, "an open, empty queue does not wait");
        q.push((0..2).map(job));
        q.prioritise(|j| j.id == 1);
        assert_eq!(q.try_pop().map(|j| j.id), Some(1));
        assert_eq!(q.try_pop().map(|j| j.id), Some(0));
        assert_eq!(q.try_pop(), None);
    }
}
