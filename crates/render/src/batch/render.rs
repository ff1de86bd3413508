//! A batch's render thread: one of its renderers ([`super::BatchOptions::renderers`]),
//! with a device, a [`SceneRenderer`] and two [`Slot`]s of its own.
//!
//! Each renderer takes the jobs its prepare threads made, draws each into the slot not
//! being read back, and hands the picture over once it is copied back. Renderers share
//! nothing but the results channel: on Mesa's lavapipe a device has its own queue thread
//! (where vertex shading and binning run) and its own drawing threads, so two renderers
//! keep two cores busy where one left them waiting on each other.

use super::draw_unframed;
use super::slot::Slot;
use super::{BatchDevice, BatchOptions, Prepared, Rendered, Step, draw_framed, panic_text};
use super::{Loaded, texture_files};
use crate::SceneRenderer;
use crate::ViewSettings;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::{Receiver, SyncSender};

/// What a renderer takes its jobs from: its channel, and the count of jobs waiting in it
/// that the prepare threads route by ([`super::route`]).
pub(super) struct Input {
    pub(super) rx: Receiver<Prepared>,
    pub(super) waiting: Arc<AtomicUsize>,
}

/// A picture drawn and being copied back.
struct InFlight {
    done: Rendered,
    slot: usize,
    index: wgpu::SubmissionIndex,
    mapped: Receiver<Result<(), wgpu::BufferAsyncError>>,
}

/// The device renderer number `renderer` of a batch on `device` draws on: the first one
/// the batch was given (a shared device), every other a device of its own — on the same
/// kind of adapter [`crate::Gpu::headless`] picks; where none can be made, the shared
/// device again (drawing still overlaps, lavapipe's queue does not).
fn open(device: &BatchDevice, renderer: usize) -> Result<(wgpu::Device, wgpu::Queue), String> {
    match device {
        BatchDevice::Shared(d, q) if renderer == 0 => Ok((d.clone(), q.clone())),
        BatchDevice::Shared(d, q) => Ok(crate::Gpu::headless().map_or_else(
            |e| {
                log::warn!(
                    "batch renderer {renderer}: no device of its own ({e}); sharing the first"
                );
                (d.clone(), q.clone())
            },
            |g| (g.device, g.queue),
        )),
        BatchDevice::Own => crate::Gpu::headless()
            .map(|g| (g.device, g.queue))
            .map_err(|e| e.to_string()),
    }
}

/// What a job becomes when its renderer has no device: every job's error.
fn no_device(rx: Receiver<Prepared>, waiting: &AtomicUsize, tx: &SyncSender<Rendered>, e: &str) {
    for p in rx {
        super::route::taken(waiting);
        let done = Rendered {
            id: p.job.id,
            file: p.job.file,
            image: Err(format!("no thumbnail: {e}")),
            warnings: Vec::new(),
            textures: Vec::new(),
            drawn: false,
        };
        if tx.send(done).is_err() {
            return;
        }
    }
}

/// One renderer's loop: draws what `rx` brings until it ends (or the caller stops
/// reading `tx`).
pub(super) fn render_loop(
    device: BatchDevice,
    renderer: usize,
    options: BatchOptions,
    input: Input,
    tx: SyncSender<Rendered>,
) {
    let Input { rx, waiting } = input;
    let (device, queue) = match open(&device, renderer) {
        Ok(d) => d,
        Err(e) => return no_device(rx, &waiting, &tx, &e),
    };
    let mut lane = Lane::new(device, queue, options);
    loop {
        let p = match rx.try_recv() {
            Ok(p) => p,
            Err(_) => {
                // Nothing waiting (or the end): hand over what is drawn before blocking,
                // so a gallery whose queue stays open gets its last pictures.
                for done in lane.drain() {
                    if tx.send(done).is_err() {
                        return;
                    }
                }
                match rx.recv() {
                    Ok(p) => p,
                    Err(_) => return,
                }
            }
        };
        super::route::taken(&waiting);
        for done in lane.take(p) {
            if tx.send(done).is_err() {
                return;
            }
        }
    }
}

/// A renderer's device and what it draws with.
struct Lane {
    device: wgpu::Device,
    queue: wgpu::Queue,
    options: BatchOptions,
    scene: SceneRenderer,
    slots: [Slot; 2],
    in_flight: [Option<InFlight>; 2],
    /// The slot the next picture is drawn into.
    next: usize,
}

impl Lane {
    fn new(device: wgpu::Device, queue: wgpu::Queue, options: BatchOptions) -> Lane {
        let mut scene =
            SceneRenderer::with_samples(&device, &queue, options.samples, &options.files);
        let (w, h) = options.size;
        let slot = || Slot::new(&device, (w, h), options.samples);
        let slots = [slot(), slot()];
        // A thumbnail never needs texels finer than a few per pixel.
        scene.set_max_texture_size(&device, (w.max(h) * 4).next_power_of_two());
        // The renderers together keep what one would: each device holds its own copy
        // of a page, and a map's ground pages alone fill a budget.
        scene.set_texture_budget(crate::textures::CACHE_BUDGET / options.renderers.max(1) as u64);
        Lane {
            device,
            queue,
            options,
            scene,
            slots,
            in_flight: [None, None],
            next: 0,
        }
    }

    /// The picture of `f`, once copied back.
    fn finish(&self, f: InFlight) -> Rendered {
        let mut done = f.done;
        done.image = self.slots[f.slot].finish_readback(&self.device, f.index, f.mapped);
        done
    }

    /// Every picture still being copied back, oldest first.
    fn drain(&mut self) -> Vec<Rendered> {
        let order = [self.next, 1 - self.next];
        let flights: Vec<InFlight> = order
            .into_iter()
            .filter_map(|s| self.in_flight[s].take())
            .collect();
        flights.into_iter().map(|f| self.finish(f)).collect()
    }

    /// Takes a prepared job: what is finished now (the job itself when there is nothing to
    /// draw; the slot's previous picture when it starts drawing).
    fn take(&mut self, p: Prepared) -> Vec<Rendered> {
        let Prepared { job, loaded, pages } = p;
        for (file, stamp, image) in pages {
            self.scene.provide_texture(file, stamp, image);
        }
        let mut done = Rendered {
            id: job.id,
            file: job.file,
            image: Err(String::new()),
            warnings: Vec::new(),
            textures: Vec::new(),
            drawn: matches!(loaded, Ok(Step::Draw(_))),
        };
        let l = match loaded {
            Ok(Step::Draw(l)) => *l,
            Ok(Step::Ready(img)) => {
                done.image = Ok(img);
                return vec![done];
            }
            Err(e) => {
                done.image = Err(e);
                return vec![done];
            }
        };
        // The slot's previous picture must be read before drawing over it.
        let slot = self.next;
        self.next = 1 - slot;
        let mut finished = Vec::new();
        if let Some(f) = self.in_flight[slot].take() {
            finished.push(self.finish(f));
        }
        if let Some(failed) = self.draw(slot, done, &l) {
            finished.push(failed);
        }
        finished
    }

    /// Starts drawing `l` into `slot`; returns the job only if drawing crashed.
    fn draw(&mut self, slot: usize, mut done: Rendered, l: &Loaded) -> Option<Rendered> {
        let name = done.file.file_name();
        done.warnings
            .extend(l.model.diagnostics.iter().map(|d| d.display_with(&name)));
        done.textures = texture_files(&l.model)
            .into_iter()
            .map(|f| {
                let s = self.options.files.stamp(&f).unwrap_or_default();
                (f, s)
            })
            .collect();
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let target = &self.slots[slot].target;
            match l.camera {
                Some(camera) => {
                    let view = ViewSettings {
                        camera,
                        ..self.options.view.clone()
                    };
                    draw_unframed(
                        &self.device,
                        &self.queue,
                        &mut self.scene,
                        target,
                        &l.model,
                        &view,
                    );
                }
                None => draw_framed(
                    &self.device,
                    &self.queue,
                    &mut self.scene,
                    target,
                    (&l.model, l.at),
                    &self.options.view,
                ),
            }
            self.slots[slot].start_readback(&self.device, &self.queue)
        }));
        done.warnings.extend(self.scene.warnings().iter().cloned());
        // Not kept until the next model: with a map per renderer that is a map's meshes
        // more per renderer.
        self.scene.release_model();
        match drawn {
            Ok((index, mapped)) => {
                self.in_flight[slot] = Some(InFlight {
                    done,
                    slot,
                    index,
                    mapped,
                });
                None
            }
            Err(p) => {
                done.image = Err(format!(
                    "{}: internal error: crashed while rendering ({}); please report this file",
                    done.file,
                    panic_text(p)
                ));
                Some(done)
            }
        }
    }
}
