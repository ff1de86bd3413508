//! An export run a slice at a time by its caller, never waiting on the GPU: the
//! browser's way, where the page has one thread and a picture read back from the GPU
//! arrives only once the page's event loop has run. Each [`SteppedExport::step`] takes
//! the picture started by an earlier step if it is back, hands it to the same passes
//! ([`super::frames`]) and encoder ([`super::encoder`]) as [`super::export`], and
//! renders the next frame, until its time slice is used up.

use super::encoder::{Destination, Encoder};
use super::frames::{Frames, Next};
use super::pipeline::{ExportError, Job, Progress, Summary, frame_view};
use crate::files::Files;
use crate::model::Pose;
use crate::render::{Reading, RenderTarget, SceneRenderer, ViewSettings};
use std::sync::Arc;
use std::time::Duration;

/// An export in progress, stepped by its caller.
pub struct SteppedExport<'h> {
    job: Job,
    view: ViewSettings,
    scene: SceneRenderer,
    target: RenderTarget,
    frames: Frames,
    /// The output, until the first pass is over and the encoder takes it.
    destination: Option<Destination<'h>>,
    encoder: Option<Encoder<'h>>,
    /// The frame on its way back from the GPU.
    reading: Option<Reading>,
    progress: Arc<Progress>,
    start: web_time::Instant,
}

impl<'h> SteppedExport<'h> {
    /// Prepares `job` on `device` (texture pages read from `files`), writing to
    /// `destination`; reports to `progress`, whose cancel flag it obeys.
    pub fn new(
        destination: Destination<'h>,
        files: &Files,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        job: Job,
        progress: Arc<Progress>,
    ) -> SteppedExport<'h> {
        let mut view = job.view.clone();
        if view.grid_unit.is_none() {
            view.grid_unit = job.model.grid_unit;
        }
        let mut scene = SceneRenderer::with_samples(device, queue, job.samples, files);
        scene.set_model(device, queue, &job.model);
        let target = RenderTarget::with_samples(device, job.size.0, job.size.1, job.samples);
        let frames = Frames::new(&job);
        progress.set_total(frames.total());
        SteppedExport {
            job,
            view,
            scene,
            target,
            frames,
            destination: Some(destination),
            encoder: None,
            reading: None,
            progress,
            start: web_time::Instant::now(),
        }
    }

    /// Works for about `slice` (at least one step): takes the picture being read back if
    /// it is there, encodes, renders the next frame. `None` while the export goes on
    /// (call again on a later frame); its result once it has ended. Dropping it before
    /// the end writes nothing.
    pub fn step(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        slice: Duration,
    ) -> Option<Result<Summary, ExportError>> {
        let until = web_time::Instant::now() + slice;
        loop {
            if self.progress.is_cancelled() {
                self.encoder = None;
                return Some(Err(ExportError::Cancelled));
            }
            match self.advance(device, queue) {
                Ok(Some(summary)) => return Some(Ok(summary)),
                Ok(None) if self.reading.is_some() || web_time::Instant::now() >= until => {
                    return None;
                }
                Ok(None) => {}
                Err(e) => {
                    self.encoder = None;
                    return Some(Err(ExportError::Failed(e)));
                }
            }
        }
    }

    /// One step: the picture back from the GPU (if it is), a frame encoded or rendered,
    /// or the file finished.
    fn advance(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Option<Summary>, String> {
        if let Some(reading) = &self.reading {
            let Some(picture) = reading.try_take(device) else {
                return Ok(None);
            };
            self.reading = None;
            let img = picture.map_err(|e| e.to_string())?;
            if let Some(img) = self.frames.add(img) {
                self.encode(&img)?;
            }
            self.progress.step();
            return Ok(None);
        }
        match self.frames.next_step() {
            Next::Render(i) => {
                let (job, view) = (&self.job, &self.view);
                let pose = Pose::sample(&job.model, job.plan.clip(), job.plan.time(i), view.team);
                let view = frame_view(view, &job.plan, i);
                self.scene.render(device, queue, &self.target, &pose, &view);
                self.reading = Some(self.target.start_read(device, queue));
                Ok(None)
            }
            Next::Encode(img) => {
                self.encode(&img)?;
                self.progress.step();
                Ok(None)
            }
            Next::Done => {
                let encoder = self.encoder()?;
                let done = encoder.finish().map_err(|e| self.named(e))?;
                Ok(Some(Summary {
                    path: done.path,
                    frames: done.frames,
                    duration: self.job.plan.duration(),
                    bytes: done.bytes,
                    size: self.frames.layout().map_or(self.job.size, |l| l.size),
                    seconds: self.start.elapsed().as_secs_f64(),
                }))
            }
        }
    }

    /// The encoder, made once the first pass is over (it needs the crop box and palette).
    fn encoder(&mut self) -> Result<Encoder<'h>, String> {
        if let Some(e) = self.encoder.take() {
            return Ok(e);
        }
        let layout = self.frames.layout().ok_or("the first pass is not over")?;
        let destination = self.destination.take().ok_or("the output is gone")?;
        Encoder::new(destination, &self.job, layout).map_err(|e| self.named(e))
    }

    fn encode(&mut self, img: &image::RgbaImage) -> Result<(), String> {
        let mut encoder = self.encoder()?;
        let pushed = encoder.push(img).map_err(|e| self.named(e));
        self.encoder = Some(encoder);
        pushed
    }

    /// `error` prefixed with the output's name, as the desktop's errors are.
    fn named(&self, error: String) -> String {
        format!("{}: {error}", self.job.output.display())
    }
}
