//! The window's file dialogs, behind one controller ([`Dialogs`]): it takes the app's
//! dialog effects, shows each [`request::Request`] and hands back the command its
//! answer asks for. Only one dialog is open at a time.
//!
//! Where the system has a file dialog ([`backend::Backend::Native`]) it is rfd's, run on
//! its own thread so the window keeps drawing; the answer comes back through a channel,
//! polled every frame. Where it has none (no zenity, no desktop portal: rfd would only
//! report "cancelled" at once, leaving File ▸ Open dead), Vitrine's own picker is drawn
//! in the window instead ([`picker::Picker`]), and a notice says once what to install
//! for the system's dialogs.

pub mod backend;
pub mod picker;
pub mod request;

use crate::app::commands::{AppCommand, Effect};
use backend::Backend;
use eframe::egui;
use picker::{Outcome, Picker};
use request::Request;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Said once when Vitrine's own picker stands in for the system's dialogs.
pub const FALLBACK_NOTICE: &str = "No system file dialog was found (install zenity, or a \
     desktop portal such as xdg-desktop-portal-gtk): Vitrine shows its own file picker.";

/// The dialog that may be open.
#[derive(Debug)]
pub struct Dialogs {
    backend: Backend,
    /// A system dialog's answer, to come.
    pending: Option<Receiver<Option<AppCommand>>>,
    /// Vitrine's own picker, open.
    picker: Option<Picker>,
    /// The picker's answer, taken by the next [`Dialogs::poll`].
    answered: Option<AppCommand>,
    /// [`FALLBACK_NOTICE`] is still to be said.
    notice_due: bool,
}

impl Default for Dialogs {
    /// Dialogs for this system ([`Backend::probe`]).
    fn default() -> Dialogs {
        Dialogs::with_backend(Backend::probe())
    }
}

impl Dialogs {
    /// Dialogs shown by `backend`.
    pub fn with_backend(backend: Backend) -> Dialogs {
        Dialogs {
            backend,
            pending: None,
            picker: None,
            answered: None,
            notice_due: backend == Backend::Fallback,
        }
    }

    /// Whether a dialog is open.
    pub fn is_open(&self) -> bool {
        self.pending.is_some() || self.picker.is_some()
    }

    /// Shows the dialog `effect` asks for; any other effect is handed back.
    pub fn perform(&mut self, ctx: &egui::Context, effect: Effect) -> Option<Effect> {
        let request = match effect {
            Effect::PickModel(start) => Request::open_model(start),
            Effect::PickGalleryFolder(start) => Request::gallery_folder(start),
            Effect::PickScreenshotFolder(start) => Request::screenshot_folder(start),
            Effect::PickDataRoot {
                archive,
                start,
                current,
            } => Request::data_root(archive, start, current),
            Effect::PickExportPath(start, name) => Request::gltf_export(start, name),
            Effect::PickPiePath(start) => Request::pie_output(start),
            Effect::PickAnimationOutput(start, format) => Request::animation_output(start, format),
            other => return Some(other),
        };
        self.show(ctx, request);
        None
    }

    /// Shows `request` (nothing if a dialog is already open).
    pub fn show(&mut self, ctx: &egui::Context, request: Request) {
        if self.is_open() {
            return;
        }
        match self.backend {
            Backend::Native => self.spawn(ctx, request),
            Backend::Fallback => {
                self.picker = Some(Picker::open(request));
                ctx.request_repaint();
            }
        }
    }

    /// Once, when Vitrine's own picker first stands in: [`FALLBACK_NOTICE`].
    pub fn take_notice(&mut self) -> Option<&'static str> {
        (self.picker.is_some() && std::mem::take(&mut self.notice_due)).then_some(FALLBACK_NOTICE)
    }

    /// Draws Vitrine's own picker while it is open.
    pub fn ui(&mut self, ctx: &egui::Context) {
        let Some(picker) = &mut self.picker else {
            return;
        };
        if let Outcome::Closed(answer) = picker.ui(ctx) {
            self.picker = None;
            self.answered = answer;
            // The answer is applied in the next frame.
            ctx.request_repaint();
        }
    }

    fn spawn(&mut self, ctx: &egui::Context, request: Request) {
        let (tx, rx) = channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("vitrine dialog".into())
            .spawn(move || {
                let _ = tx.send(request.run_native());
                ctx.request_repaint();
            });
        match spawned {
            Ok(_) => self.pending = Some(rx),
            Err(e) => log::error!("could not start a thread for a file dialog: {e}"),
        }
    }

    /// The dialog's answer once it has closed (`None` while open, or if cancelled).
    pub fn poll(&mut self) -> Option<AppCommand> {
        if let Some(answer) = self.answered.take() {
            return Some(answer);
        }
        let rx = self.pending.as_ref()?;
        match rx.try_recv() {
            Ok(answer) => {
                self.pending = None;
                answer
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.pending = None;
                None
            }
        }
    }
}
