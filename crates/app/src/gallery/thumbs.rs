//! Thumbnails of the gallery's tiles, made without holding up the window.
//!
//! One [`Thumbnails`] keeps the UI's side for every front-end: the job queue (re-ordered
//! every frame the view scrolls, so the tiles on screen come first), the textures, the
//! progress (`thumbnails N / M`). Two producers fill it:
//!
//! - **Desktop**: a [`crate::render::batch`] on a wgpu device of its own: its prepare
//!   threads first look the file up in the host's thumbnail cache (a hit skips parsing
//!   and drawing), else load the model; its render thread draws it with the app's
//!   renderer. A collector job of the host stores new pictures in the cache and hands
//!   them to the UI, which only turns them into textures (a few dozen per frame at most),
//!   so the window keeps drawing while hundreds render.
//! - **Browser** (no threads): `super::sliced` draws on the window's own device, a
//!   bounded slice of each frame, and reads the pictures back over the next frames.
//!
//! A change of team colour, background or data roots starts a new producer
//! ([`Thumbnails::settings`]); the old pictures stay until the new ones replace them.

#[cfg(not(target_arch = "wasm32"))]
use super::cache::Key;
use super::cache::RenderKey;
use super::sliced::Sliced;
use super::{THUMB_PX, Tile};
use crate::files::FileRef;
use crate::formats::LoadOptions;
use crate::render::batch::{self, JobQueue};
#[cfg(not(target_arch = "wasm32"))]
use crate::render::batch::{BatchOptions, Loaded, Step};
use crate::render::{ViewPreset, ViewSettings};
#[cfg(not(target_arch = "wasm32"))]
use crate::{
    files::Files,
    formats::resolve::Resolver,
    host::{Host, ThumbnailCache},
};
use std::collections::{HashMap, HashSet};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::{
    Arc, Mutex,
    mpsc::{Receiver, Sender, channel},
};
use web_time::{Duration, Instant};

/// Textures made from finished thumbnails per frame, at most (a frame stays short).
#[cfg(not(target_arch = "wasm32"))]
const TEXTURES_PER_FRAME: usize = 256;
/// While thumbnails stream in from the batch, the window is asked to redraw at most this
/// often: on a software rasteriser a frame of the whole window costs as much as dozens of
/// thumbnails, and user input still redraws at once.
#[cfg(not(target_arch = "wasm32"))]
const REPAINT_EVERY: Duration = Duration::from_millis(250);
/// A frame's slice of thumbnail work on the window's device (`super::sliced`): the
/// page keeps answering input while the gallery fills.
pub const SLICE: Duration = Duration::from_millis(10);

/// A finished thumbnail for the UI.
pub(super) struct Finished {
    pub id: u64,
    /// From the disk cache (not drawn now).
    pub cached: bool,
    pub image: Result<egui::ColorImage, String>,
}

/// Who makes the pictures.
enum Producer {
    /// The batch's threads; their results.
    #[cfg(not(target_arch = "wasm32"))]
    Batch(Receiver<Finished>),
    /// Slices of the window's frames.
    Sliced(Box<Sliced>),
}

/// The thumbnails of one gallery: the producer making them and the textures made so far.
pub struct Thumbnails {
    queue: JobQueue,
    producer: Producer,
    textures: HashMap<u64, egui::TextureHandle>,
    /// Tiles whose thumbnail is under way (queued or rendering).
    pending: HashSet<u64>,
    /// What the pictures were drawn with.
    pub settings: RenderKey,
    /// Thumbnails finished (drawn, from the cache, or failed).
    pub done: usize,
    /// Thumbnails asked for.
    pub total: usize,
    /// Of `done`, how many came from the disk cache.
    pub from_cache: usize,
    started: Instant,
    /// Time from the start to the last thumbnail, once all are done.
    pub elapsed: Option<Duration>,
    last_visible: Vec<u64>,
}

impl std::fmt::Debug for Thumbnails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thumbnails")
            .field("done", &self.done)
            .field("total", &self.total)
            .field("textures", &self.textures.len())
            .finish_non_exhaustive()
    }
}

/// The loader's options for the gallery's tiles: the models', and the maps' (with no
/// data roots set, the installation found on the machine:
/// [`crate::services::Services::map_load_options`]).
#[derive(Debug, Clone)]
pub struct TileOptions {
    /// For model files.
    pub models: LoadOptions,
    /// For maps (`game.map`).
    pub maps: LoadOptions,
}

impl TileOptions {
    /// The same options for models and maps.
    pub fn all(options: LoadOptions) -> TileOptions {
        TileOptions {
            maps: options.clone(),
            models: options,
        }
    }

    /// The options `file` loads with.
    pub fn for_file(&self, file: &FileRef) -> &LoadOptions {
        if super::maps::is_map_name(&file.file_name()) {
            &self.maps
        } else {
            &self.models
        }
    }
}

/// The render settings thumbnails follow: the viewer's team colour and background, the
/// loader's data roots and rules.
pub fn render_key(team: usize, background: [u8; 3], options: &LoadOptions) -> RenderKey {
    RenderKey {
        size: THUMB_PX,
        team,
        background,
        loading: format!("{:?} {:?}", options.data_roots, options.pmf),
    }
}

/// How thumbnails are drawn with `settings`: the iso camera (framed per model), the team
/// colour and background.
fn view_for(settings: &RenderKey) -> ViewSettings {
    let mut view = ViewSettings {
        team: settings.team,
        ..Default::default()
    };
    let [r, g, b] = settings.background;
    view.background = [r, g, b, 255];
    view.camera.set_preset(ViewPreset::Iso);
    view
}

/// Where thumbnails are drawn.
pub enum ThumbDevice {
    /// A batch on threads ([`batch::BatchDevice::Own`] in the desktop's window, so
    /// thumbnails never queue behind the window's frames).
    #[cfg(not(target_arch = "wasm32"))]
    Batch(batch::BatchDevice),
    /// The window's device, a slice of each frame ([`SLICE`]): the browser's.
    Window(wgpu::Device, wgpu::Queue),
}

impl ThumbDevice {
    /// The window's way, when it has a renderer (`rs`): on the desktop a batch on a
    /// device of its own, in the browser (no threads) the window's device.
    pub fn for_window(rs: Option<&egui_wgpu::RenderState>) -> Option<ThumbDevice> {
        let rs = rs?;
        #[cfg(not(target_arch = "wasm32"))]
        let device = {
            let _ = rs;
            ThumbDevice::Batch(batch::BatchDevice::Own)
        };
        #[cfg(target_arch = "wasm32")]
        let device = ThumbDevice::Window(rs.device.clone(), rs.queue.clone());
        Some(device)
    }
}

impl Thumbnails {
    /// Starts making thumbnails of `tiles` on `device`, reading through `host`'s files and
    /// cache; `repaint` is called when the batch has some ready (the window's slices ask
    /// for their frames themselves). Pictures `carried` over a re-listing are shown at
    /// once and only drawn again when marked to redo.
    pub fn start(
        host: &dyn crate::host::Host,
        device: ThumbDevice,
        tiles: &[Tile],
        carried: Option<super::Carried>,
        settings: RenderKey,
        options: &TileOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Thumbnails {
        let (queue, producer) = match device {
            #[cfg(not(target_arch = "wasm32"))]
            ThumbDevice::Batch(device) => {
                let (finished, queue) = start_batch(host, device, &settings, options, repaint);
                (queue, Producer::Batch(finished))
            }
            ThumbDevice::Window(device, wgpu_queue) => {
                // Each frame takes its slice and asks for the next itself.
                drop(repaint);
                let sliced = Sliced::new(
                    (device, wgpu_queue),
                    view_for(&settings),
                    host.files(),
                    options.clone(),
                    settings.clone(),
                    host.thumbnail_cache(),
                    host.refetch(),
                );
                (JobQueue::default(), Producer::Sliced(Box::new(sliced)))
            }
        };
        Thumbnails::with(queue, producer, settings).seeded(tiles, carried)
    }

    fn with(queue: JobQueue, producer: Producer, settings: RenderKey) -> Thumbnails {
        Thumbnails {
            queue,
            producer,
            textures: HashMap::new(),
            pending: HashSet::new(),
            settings,
            done: 0,
            total: 0,
            from_cache: 0,
            started: Instant::now(),
            elapsed: None,
            last_visible: Vec::new(),
        }
    }

    /// Shows the pictures `carried` over a re-listing and asks for the others.
    fn seeded(mut self, tiles: &[Tile], carried: Option<super::Carried>) -> Thumbnails {
        let mut carried = carried.unwrap_or_default();
        let mut wanted = Vec::new();
        for (i, tile) in tiles.iter().enumerate() {
            if let Some(tex) = carried.textures.remove(&tile.file) {
                self.textures.insert(i as u64, tex);
                if !carried.redo.contains(&tile.file) {
                    continue;
                }
            }
            wanted.push(i);
        }
        self.request(tiles, wanted);
        self
    }

    /// Hands over the textures made so far (by tile index) and stops the batch.
    pub fn take_textures(&mut self) -> HashMap<usize, egui::TextureHandle> {
        self.queue.cancel();
        std::mem::take(&mut self.textures)
            .into_iter()
            .map(|(id, tex)| (id as usize, tex))
            .collect()
    }

    /// Asks for the thumbnails of `tiles[range]` (again: a file changed).
    pub fn request(&mut self, tiles: &[Tile], range: impl IntoIterator<Item = usize>) {
        let jobs: Vec<(u64, FileRef)> = range
            .into_iter()
            .filter_map(|i| tiles.get(i).map(|t| (i, t)))
            .filter(|(i, _)| self.pending.insert(*i as u64))
            .map(|(i, t)| (i as u64, t.file.clone()))
            .collect();
        self.total += jobs.len();
        self.elapsed = None;
        if self.done == 0 {
            self.started = Instant::now();
        }
        self.queue
            .push(jobs.into_iter().map(|(id, file)| batch::Job { id, file }));
    }

    /// Moves the tiles on screen to the front of the queue (when they changed).
    pub fn prioritise(&mut self, visible: &[usize]) {
        let ids: Vec<u64> = visible.iter().map(|&i| i as u64).collect();
        if ids == self.last_visible {
            return;
        }
        let set: HashSet<u64> = ids.iter().copied().collect();
        self.queue.prioritise(|j| set.contains(&j.id));
        self.last_visible = ids;
    }

    /// Whether every tile last reported on screen ([`Thumbnails::prioritise`]) has its
    /// thumbnail or its error (the first screen is complete).
    pub fn on_screen_done(&self) -> bool {
        !self.last_visible.is_empty()
            && self
                .last_visible
                .iter()
                .all(|id| !self.pending.contains(id))
    }

    /// The texture of tile `i`, once made.
    pub fn texture(&self, i: usize) -> Option<&egui::TextureHandle> {
        self.textures.get(&(i as u64))
    }

    /// Whether tile `i`'s thumbnail is still under way.
    pub fn is_pending(&self, i: usize) -> bool {
        self.pending.contains(&(i as u64))
    }

    /// Turns finished thumbnails into textures (a bounded number per call) and records
    /// failures on the tiles; true if anything changed.
    pub fn poll(&mut self, ctx: &egui::Context, tiles: &mut [Tile]) -> bool {
        let finished: Vec<Finished> = match &mut self.producer {
            #[cfg(not(target_arch = "wasm32"))]
            Producer::Batch(rx) => rx.try_iter().take(TEXTURES_PER_FRAME).collect(),
            Producer::Sliced(s) => s.step(&self.queue, SLICE),
        };
        let mut changed = false;
        for f in finished {
            changed = true;
            self.done += 1;
            self.from_cache += usize::from(f.cached);
            self.pending.remove(&f.id);
            let Some(tile) = tiles.get_mut(f.id as usize) else {
                continue;
            };
            match f.image {
                Ok(img) => {
                    tile.error = None;
                    let name = format!("thumbnail {}", tile.file);
                    let tex = ctx.load_texture(name, img, egui::TextureOptions::LINEAR);
                    self.textures.insert(f.id, tex);
                }
                Err(e) => {
                    tile.error = Some(e);
                    self.textures.remove(&f.id);
                }
            }
        }
        if changed && self.pending.is_empty() {
            self.elapsed = Some(self.started.elapsed());
        }
        match &self.producer {
            // More will come; the collector also asks for a repaint when they do.
            #[cfg(not(target_arch = "wasm32"))]
            Producer::Batch(_) if !self.pending.is_empty() => {
                ctx.request_repaint_after(REPAINT_EVERY)
            }
            // The next slice is the next frame's (and a copy on its way back is taken
            // there).
            Producer::Sliced(s) if !self.pending.is_empty() || s.busy() => ctx.request_repaint(),
            _ => {}
        }
        changed
    }
}

impl Drop for Thumbnails {
    fn drop(&mut self) {
        // The threads end after the jobs under way.
        self.queue.cancel();
    }
}

/// Starts the desktop's batch (threads; a device of its own in the window) and its collector: the
/// pictures for the UI and the batch's queue.
#[cfg(not(target_arch = "wasm32"))]
fn start_batch(
    host: &dyn Host,
    device: batch::BatchDevice,
    settings: &RenderKey,
    options: &TileOptions,
    repaint: impl Fn() + Send + 'static,
) -> (Receiver<Finished>, JobQueue) {
    let files: Files = host.files();
    let cache = host.thumbnail_cache();
    let keys: Arc<Mutex<HashMap<u64, Key>>> = Arc::default();
    let run = batch::start(
        device,
        BatchOptions {
            results_capacity: 64,
            // One device draws: the window's frames need the other cores (and a second
            // device's memory is not worth it for the gallery's small tiles).
            renderers: 1,
            ..BatchOptions::new((THUMB_PX, THUMB_PX), view_for(settings), &files)
        },
        || {
            let (options, cache, keys, settings, files) = (
                options.clone(),
                cache.clone(),
                keys.clone(),
                settings.clone(),
                files.clone(),
            );
            let mut resolver = Resolver::new(&files);
            move |file: &FileRef| {
                if let Some(cache) = &cache
                    && let Ok(bytes) = files.read(file)
                {
                    let key = Key::new(file, &bytes, &settings);
                    if let Some(img) = cache.get(key) {
                        return Ok(Step::Ready(img));
                    }
                    keys.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(file_id(file), key);
                }
                let model = crate::formats::load_with(&mut resolver, file, options.for_file(file))
                    .map_err(|e| e.to_string())?;
                Ok(Step::Draw(Box::new(Loaded {
                    model,
                    at: None,
                    camera: None,
                })))
            }
        },
    );
    let (tx, finished) = channel();
    let job_queue = run.queue.clone();
    let spawned = host.spawn(
        "thumbnails",
        Box::new(move || collect(run, tx, cache, keys, repaint)),
    );
    if let Err(e) = spawned {
        log::error!("could not start the thumbnail collector: {e}");
    }
    (finished, job_queue)
}

#[cfg(not(target_arch = "wasm32"))]
/// A thumbnail's job id for the cache-key hand-over (the file's own, stable per run).
fn file_id(file: &FileRef) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    file.hash(&mut h);
    h.finish()
}

/// Stores new pictures in the cache and hands every result to the UI.
#[cfg(not(target_arch = "wasm32"))]
fn collect(
    run: batch::Batch,
    tx: Sender<Finished>,
    cache: Option<std::sync::Arc<dyn ThumbnailCache>>,
    keys: Arc<Mutex<HashMap<u64, Key>>>,
    repaint: impl Fn(),
) {
    let mut last_repaint = None;
    for done in run.results.iter() {
        let key = keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file_id(&done.file));
        if let (Ok(img), true, Some(cache), Some(key)) = (&done.image, done.drawn, &cache, key)
            && let Err(e) = cache.put(key, img, &done.textures)
        {
            log::warn!("thumbnail cache: {e}");
        }
        let image = done.image.map(|img| {
            egui::ColorImage::from_rgba_unmultiplied(
                [img.width() as usize, img.height() as usize],
                img.as_raw(),
            )
        });
        let finished = Finished {
            id: done.id,
            cached: !done.drawn && image.is_ok(),
            image,
        };
        if tx.send(finished).is_err() {
            return;
        }
        if last_repaint.is_none_or(|t: Instant| t.elapsed() >= REPAINT_EVERY) {
            last_repaint = Some(Instant::now());
            repaint();
        }
    }
}

/// Once a frame: starts the thumbnails of a new gallery on `device` (when the window
/// has a renderer: [`ThumbDevice::for_window`]), restarts them when the viewer's team
/// colour, background or data roots change (the old pictures stay until the new ones
/// replace them), and turns finished ones into textures. Without a GPU the tiles keep
/// their name and format only.
pub fn sync(state: &mut crate::state::AppState, ctx: &egui::Context, device: Option<ThumbDevice>) {
    let options = TileOptions {
        models: state.services.load_options(),
        maps: state.services.map_load_options(),
    };
    let key = render_key(
        state.services.settings.team,
        state.services.settings.background,
        &options.models,
    );
    let host = state.services.host.clone();
    let opening = state.services.work.document.running().is_some();
    let Some(g) = &mut state.panels.gallery else {
        return;
    };
    // Pictures drawn on the UI thread a slice a frame (the page's) wait while the
    // gallery is behind the viewer or a document opens: a package of one map opens its
    // map at once, and its tile's picture — the map read, placed and drawn a second
    // time — took the page's one thread from the map's own first frame.
    if matches!(device, Some(ThumbDevice::Window(..))) && (opening || !g.shown) {
        return;
    }
    let stale = g.thumbs.as_ref().is_some_and(|t| t.settings != key);
    if let Some(device) = device
        && (stale || g.thumbs.is_none())
    {
        let old = g.thumbs.take();
        let repaint = {
            let ctx = ctx.clone();
            move || ctx.request_repaint()
        };
        let carried = g.carried.take();
        let mut t = Thumbnails::start(&*host, device, &g.tiles, carried, key, &options, repaint);
        if let Some(mut old) = old {
            // Same tiles, new settings: the old pictures stay until replaced.
            t.textures = std::mem::take(&mut old.textures);
        }
        g.thumbs = Some(t);
    }
    if let Some(t) = &mut g.thumbs {
        t.poll(ctx, &mut g.tiles);
    }
}
