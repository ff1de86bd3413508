//! A running export: started on a worker thread on the desktop ([`start`]) or stepped
//! by the page a slice per frame in the browser ([`start_stepped`], [`PageExport`]); its
//! progress and Cancel in the app's state ([`RunningExport`]), and the toast when it
//! ends ([`poll`]).

use super::state::RunningExport;
use crate::export::animation::encoder::Destination;
use crate::export::animation::{ExportError, Job, Progress, SteppedExport, Summary};
use crate::services::Services;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Sender, TryRecvError};
use std::time::Duration;

/// Work done by [`PageExport::step`] in one page frame, at most about (a frame is never
/// split: a large one takes longer). The page keeps drawing and answering in between.
const SLICE: Duration = Duration::from_millis(30);

/// Starts `job` as a job of the host (a worker thread on the desktop) rendering on
/// `device`; `repaint` is asked to draw the window again when it ends.
#[cfg(not(target_arch = "wasm32"))]
pub fn start(
    services: &mut Services,
    running: &mut Option<RunningExport>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    job: Job,
    repaint: impl Fn() + Send + 'static,
) {
    let progress = Arc::new(Progress::default());
    let (tx, rx) = std::sync::mpsc::channel();
    let output = job.output.clone();
    let worker_progress = progress.clone();
    let host = services.host.clone();
    let spawned = services.host.spawn(
        "animation export",
        Box::new(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let beside = host.beside();
                crate::export::animation::export(
                    &*host,
                    beside,
                    &device,
                    &queue,
                    &job,
                    &worker_progress,
                )
            }))
            .unwrap_or_else(|_| Err(ExportError::Failed("the export crashed".into())));
            let _ = tx.send(result);
            repaint();
        }),
    );
    match spawned {
        Ok(()) => {
            *running = Some(RunningExport {
                progress,
                output,
                result: rx,
            })
        }
        Err(e) => services
            .toasts
            .error(format!("Could not start the export: {e}")),
    }
}

/// An export the page steps a slice per frame ([`PageExport::step`]); its progress,
/// Cancel and end show in the app as a worker thread's do.
pub struct PageExport {
    export: SteppedExport<'static>,
    result: Sender<Result<Summary, ExportError>>,
}

/// Starts `job` on `device` as an export stepped by the caller, for a front-end without
/// threads (the browser). A GIF or an APNG: one file, written through the host (a
/// download in the browser) when the export ends. `None` (and a toast) when it cannot
/// start.
pub fn start_stepped(
    services: &mut Services,
    running: &mut Option<RunningExport>,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    job: Job,
) -> Option<PageExport> {
    let destination = match Destination::file(&*services.host, &job) {
        Ok(d) => d,
        Err(e) => {
            services
                .toasts
                .error(format!("Could not start the export: {e}"));
            return None;
        }
    };
    let progress = Arc::new(Progress::default());
    let (tx, rx) = std::sync::mpsc::channel();
    let output = job.output.clone();
    let files = services.host.files();
    let export = SteppedExport::new(destination, &files, device, queue, job, progress.clone());
    *running = Some(RunningExport {
        progress,
        output,
        result: rx,
    });
    Some(PageExport { export, result: tx })
}

impl PageExport {
    /// Works on the export for a slice of this frame; `true` once it has ended (the app's
    /// [`poll`] then says how). Call every frame until then, asking for the next frame.
    pub fn step(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) -> bool {
        match self.export.step(device, queue, SLICE) {
            None => false,
            Some(result) => {
                let _ = self.result.send(result);
                true
            }
        }
    }
}

/// Checks the running export; when it has ended, says how in a toast.
pub fn poll(services: &mut Services, running: &mut Option<RunningExport>) {
    let Some(run) = running else {
        return;
    };
    let result = match run.result.try_recv() {
        Ok(r) => r,
        Err(TryRecvError::Empty) => return,
        Err(TryRecvError::Disconnected) => Err(ExportError::Failed("the export stopped".into())),
    };
    let output = run.output.clone();
    *running = None;
    match result {
        Ok(s) => {
            let folder = s
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."));
            let what = if output == s.path {
                s.path.display().to_string()
            } else {
                format!("{} frames from {}", s.frames, s.path.display())
            };
            let text = format!(
                "Exported {what} ({:.2} MB, {} frames, {}×{}, {:.2} s)",
                s.bytes as f64 / 1e6,
                s.frames,
                s.size.0,
                s.size.1,
                s.duration
            );
            if services.host.has_folders() {
                services.toasts.info_with_action(
                    text,
                    "Open folder",
                    crate::effect::Effect::OpenFolder(folder),
                );
            } else {
                // The browser: the file went to the downloads.
                services.toasts.info(format!("{text} to your downloads"));
            }
        }
        Err(ExportError::Cancelled) => services.toasts.info(format!(
            "Export of {} cancelled; nothing was written",
            output.display()
        )),
        Err(ExportError::Failed(e)) => {
            log::error!("animation export failed: {e}");
            services.toasts.error(format!("Export failed: {e}"))
        }
    }
}
