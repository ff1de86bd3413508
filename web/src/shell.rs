//! The page's eframe app: the same egui app as the desktop's window, with the browser's
//! ways of doing what the app leaves to its front-end — files dropped, picked (the
//! browser's dialog) or fetched (`?url=`, `window.vitrine.open`) are read into the page's
//! files before they are opened ([`crate::incoming`]); screenshots and exports become
//! downloads; a screenshot is read back over the next frames instead of waiting on the
//! page's only thread, and an animation export is rendered, read back and encoded a
//! slice per frame. The frame itself is the app's ([`vitrine_app::frame`]), with the
//! page as its front-end ([`PageFrame`]); jobs run on the page's thread after the frame
//! ([`WebHost`]).

use crate::host::WebHost;
use crate::incoming::{Arrivals, Incoming};
use crate::opening::open_command;
use crate::screenshots::Screenshots;
use crate::status::{Backend, GalleryStatus, LoadState, PageStatus, Progress};
use crate::{browser, fetch};
use eframe::egui;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};
use vitrine_app::commands::{AppCommand, DocumentCommand, Effect, GltfCommand};
use vitrine_app::dialogs::export_animation::{ExportCommand, PageExport, start_stepped};
use vitrine_app::dispatch::apply;
use vitrine_app::document::LoadFailure;
use vitrine_app::frame::{FrontEnd, ViewReport};
use vitrine_app::gallery::thumbs::ThumbDevice;
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;
use vitrine_app::viewport::{Viewport, view_or_error};
use vitrine_core::files::FileRef;

/// The demo model, opened when the page is given nothing else (as the desktop does).
const DEMO: [(&str, &[u8]); 3] = [
    (
        "demo/tank.pie",
        include_bytes!("../../assets/demo/tank.pie"),
    ),
    (
        "demo/texpages/page-90-demo-tank.png",
        include_bytes!("../../assets/demo/texpages/page-90-demo-tank.png"),
    ),
    (
        "demo/texpages/page-90_tcmask.png",
        include_bytes!("../../assets/demo/texpages/page-90_tcmask.png"),
    ),
];

/// The viewer as the page's eframe app.
pub struct WebApp {
    state: AppState,
    page: Page,
}

/// What the page keeps between frames besides the app's state: its part of the frame.
struct Page {
    host: Arc<WebHost>,
    viewport: Option<Viewport>,
    view_error: String,
    /// Why the GPU device is gone, once the browser took it away.
    device_lost: Option<String>,
    shots: Screenshots,
    /// The animation export running, a slice per frame.
    animation: Option<PageExport>,
    inbox: Receiver<Incoming>,
    arrivals: Arrivals,
    /// A URL being downloaded: its progress line.
    downloading: Option<(String, u64, Option<u64>)>,
    /// What `window.vitrine.status()` reads.
    status: Rc<RefCell<PageStatus>>,
    title: String,
    link: crate::link::Links,
}

/// The page as the app's front-end during one frame (with eframe's frame: the GPU).
struct PageFrame<'a> {
    page: &'a mut Page,
    frame: &'a eframe::Frame,
}

impl WebApp {
    /// Sets up the app on eframe's device; opens `url` (the page's `?url=`) or the demo.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        status: Rc<RefCell<PageStatus>>,
        inbox: (Sender<Incoming>, Receiver<Incoming>),
        url: Option<String>,
        data: Vec<String>,
    ) -> WebApp {
        let host = Arc::new(WebHost::default());
        let _ = host.wake.set(cc.egui_ctx.clone());
        let (settings, warning) = match browser::load_settings() {
            None => (Settings::default(), None),
            Some(json) => match Settings::from_json(json.as_bytes()) {
                Ok(s) => (s, None),
                Err(e) => (
                    Settings::default(),
                    Some(format!(
                        "The saved settings could not be read ({e}); using defaults"
                    )),
                ),
            },
        };
        // The page's files are gone with the page: data roots saved by an earlier visit
        // name files that are no longer there.
        let mut settings = settings;
        settings.data_roots.clear();
        let _ = host.refetch.set(Arc::new(crate::remote::RemoteFetch::new(
            host.page.clone(),
            cc.egui_ctx.clone(),
        )));
        let mut state = AppState::new(settings, host.clone());
        if let Some(w) = warning {
            state.services.toasts.error(w);
        }
        state.services.work.set_runner(host.clone());
        let (viewport, view_error) = match cc.wgpu_render_state.as_ref() {
            Some(rs) => {
                status.borrow_mut().backend = Backend::of(rs.adapter.get_info().backend);
                match Viewport::try_new(rs, &state.services.files) {
                    Ok(v) => (Some(v), String::new()),
                    Err(e) => (None, format!("The 3D view is not available: {e}")),
                }
            }
            None => (
                None,
                "The 3D view is not available: no WebGPU or WebGL2".into(),
            ),
        };
        let (outbox, inbox) = inbox;
        let arrivals = Arrivals::new(host.page.clone(), outbox, cc.egui_ctx.clone());
        let (link, open_link) = crate::link::Links::start(&mut state, url.is_some(), DEMO[0].0);
        let mut page = Page {
            host,
            viewport,
            view_error,
            device_lost: None,
            shots: Screenshots::default(),
            animation: None,
            inbox,
            arrivals,
            downloading: None,
            status,
            title: String::new(),
            link,
        };
        let arrivals = page.arrivals.clone();
        crate::link::listen(move |hash| arrivals.send(Incoming::Link(hash)));
        match url {
            Some(url) => page.open_url(url, data),
            None => {
                for (path, bytes) in DEMO {
                    page.host.page.add(path, bytes.to_vec());
                }
                let open =
                    AppCommand::Document(DocumentCommand::Open(FileRef::Disk(DEMO[0].0.into())));
                for cmd in std::iter::once(open).chain(open_link) {
                    let _ = apply(&mut state, cmd);
                }
            }
        }
        WebApp { state, page }
    }
}

impl Page {
    /// Downloads `url` and opens it ([`Arrivals::open_url`]), with a progress line; a
    /// link to a model opens the model rather than the archive's gallery.
    fn open_url(&mut self, url: String, data: Vec<String>) {
        self.downloading = Some((url.clone(), 0, None));
        self.arrivals.open_url(url, data, !self.link.names_model());
    }

    /// The commands of what arrived from the browser since the last frame.
    fn take_incoming(&mut self, state: &mut AppState) -> Vec<AppCommand> {
        let mut out = Vec::new();
        // Archives arriving in this frame add to each other's roots.
        let mut roots = crate::data_roots::Arriving::default();
        while let Ok(msg) = self.inbox.try_recv() {
            match msg {
                Incoming::OpenUrl(url) => self.open_url(fetch::absolute(&url), Vec::new()),
                Incoming::Progress(url, got, total) => self.downloading = Some((url, got, total)),
                Incoming::Link(hash) => out.extend(self.link.hash_changed(state, &hash)),
                Incoming::Command(cmd) => {
                    out.push(self.link.opening(cmd));
                    self.downloading = None;
                }
                Incoming::AddDataRoots(new) => {
                    let roots = roots.add(new, &state.services.settings.data_roots);
                    out.push(AppCommand::Document(DocumentCommand::SetDataRoots(roots)));
                }
                Incoming::Failed(path, message) => {
                    self.downloading = None;
                    state.document.load_error = Some(LoadFailure { path, message });
                }
                // What the dialog does: open it, name the output, press Export.
                Incoming::ExportAnimation(name) => out.extend(
                    [
                        ExportCommand::Show,
                        ExportCommand::SetOutput(name.into()),
                        ExportCommand::Export,
                    ]
                    .map(AppCommand::Export),
                ),
            }
        }
        out
    }

    /// The download's progress line, at the bottom of the page.
    fn download_ui(&self, ctx: &egui::Context) {
        let Some((url, got, total)) = &self.downloading else {
            return;
        };
        let mb = |n: u64| n as f64 / 1_048_576.0;
        let text = match total {
            Some(t) if *t > 0 => format!("Downloading {url}… {:.1} of {:.1} MB", mb(*got), mb(*t)),
            _ => format!("Downloading {url}… {:.1} MB", mb(*got)),
        };
        egui::Area::new(egui::Id::unique("vitrine download"))
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -48.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    // No spinner (it asks for frames without end, which SwiftShader
                    // draws on the cores the download and the opening need): the
                    // count of bytes moves on as they arrive.
                    ui.label(text)
                })
            });
    }

    /// When the browser has taken the GPU device away (a driver reset, or a browser that
    /// cannot present to the canvas): the view says so, and so does the page's status.
    fn check_device_lost(&mut self, state: &mut AppState) {
        let Some(why) = self.viewport.as_ref().and_then(|v| v.take_lost()) else {
            return;
        };
        let message = format!("The GPU device was lost ({why}). Reload the page to carry on.");
        log::error!("{message}");
        state.services.toasts.error(message.clone());
        self.view_error = message.clone();
        self.device_lost = Some(message);
        self.viewport = None;
    }

    /// Keeps `window.vitrine.status()` and the page title up to date.
    fn update_status(&mut self, state: &AppState) {
        let mut s = self.status.borrow_mut();
        s.frames += 1;
        s.ignored.clone_from(&self.link.ignored);
        s.model = state
            .document
            .open
            .as_ref()
            .filter(|_| state.panels.gallery.as_ref().is_none_or(|g| !g.shown))
            .map(|d| d.file_name());
        s.error = self.device_lost.clone().or_else(|| {
            state
                .document
                .load_error
                .as_ref()
                .map(|e| e.message.clone())
        });
        s.gallery = state.panels.gallery.as_ref().map(|g| GalleryStatus {
            tiles: g.tiles.len(),
            thumbnails: g
                .thumbs
                .as_ref()
                .map_or(Progress { done: 0, total: 0 }, |t| Progress {
                    done: t.done,
                    total: t.total,
                }),
            failed: g.tiles.iter().filter(|t| t.error.is_some()).count(),
        });
        s.state = if self.downloading.is_some() || !state.services.work.idle() {
            LoadState::Loading
        } else if s.error.is_some() {
            LoadState::Error
        } else if state.document.open.is_some() || state.panels.gallery.is_some() {
            LoadState::Ready
        } else {
            LoadState::Loading
        };
        let title = s.title();
        drop(s);
        if title != self.title {
            if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
                doc.set_title(&title);
            }
            self.title = title;
        }
    }
}

impl FrontEnd for PageFrame<'_> {
    fn arrived(&mut self, ctx: &egui::Context, state: &mut AppState) -> Vec<AppCommand> {
        self.page
            .arrivals
            .dropped(ctx.input_mut(|i| std::mem::take(&mut i.raw.dropped_files)));
        self.page.take_incoming(state)
    }

    fn device_lost(&mut self, _ctx: &egui::Context, state: &mut AppState) -> bool {
        // The page carries on without its view; the view says why.
        self.page.check_device_lost(state);
        false
    }

    fn step(&mut self, ctx: &egui::Context, state: &mut AppState) {
        let rs = self.frame.wgpu_render_state();
        if let (Some(run), Some(rs)) = (&mut self.page.animation, rs) {
            // A slice of the export, then this frame is drawn (the progress window moves).
            if run.step(&rs.device, &rs.queue) {
                self.page.animation = None;
            }
            ctx.request_repaint();
        }
        self.page.shots.finish(ctx, rs, state);
    }

    fn thumbnails(&self) -> Option<ThumbDevice> {
        ThumbDevice::for_window(self.frame.wgpu_render_state())
    }

    fn view(&mut self, ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
        let p = &mut *self.page;
        let rs = self.frame.wgpu_render_state();
        view_or_error(ui, state, p.viewport.as_mut(), rs, &p.view_error)
    }

    fn perform(
        &mut self,
        effect: Effect,
        ctx: &egui::Context,
        state: &mut AppState,
    ) -> Option<AppCommand> {
        let not_here = |what: &str| format!("{what} is not available in the browser");
        let page = &mut *self.page;
        match effect {
            Effect::PickModel(_) => page.arrivals.pick(|files| Some(open_command(files))),
            Effect::PickGalleryFolder(_) => state.services.toasts.error(
                not_here("Picking a folder")
                    + ": drop its files or its archive (.wz, .zip) on the page",
            ),
            Effect::PickScreenshotFolder(_) | Effect::OpenFolder(_) => state
                .services
                .toasts
                .info("Screenshots and exports go to your downloads"),
            Effect::PickDataRoot {
                archive, current, ..
            } => {
                if archive {
                    page.arrivals.pick(move |files| {
                        let mut roots = current;
                        roots.extend(files.into_iter().filter_map(|f| match f {
                            FileRef::Disk(p) => Some(p),
                            _ => None,
                        }));
                        Some(AppCommand::Document(DocumentCommand::SetDataRoots(roots)))
                    })
                } else {
                    state.services.toasts.error(
                        not_here("A folder as a data root")
                            + ": add the game's or the mod's archive (.wz) instead",
                    )
                }
            }
            Effect::Screenshot(req) => page.shots.start(
                req,
                page.viewport.as_mut(),
                self.frame.wgpu_render_state(),
                state,
            ),
            Effect::PickExportPath(_, name) => {
                // No save dialog: the export is a download under the suggested name.
                let mut path = PathBuf::from(name);
                if vitrine_core::export::gltf::Container::for_path(&path).is_none() {
                    path.as_mut_os_string().push(".glb");
                }
                return Some(AppCommand::Gltf(GltfCommand::Export(path)));
            }
            Effect::PickPiePath(_) => state
                .services
                .toasts
                .info("The PIE (and its pages) will be downloaded under the name in Save as"),
            Effect::PickAnimationOutput(..) => state
                .services
                .toasts
                .info("The animation will be downloaded under the name in Save as"),
            Effect::ExportAnimation(job) => match self.frame.wgpu_render_state() {
                Some(rs) => {
                    page.animation = start_stepped(
                        &mut state.services,
                        &mut state.dialogs.running_export,
                        &rs.device,
                        &rs.queue,
                        *job,
                    );
                    ctx.request_repaint();
                }
                None => state
                    .services
                    .toasts
                    .error("Export failed: no GPU renderer"),
            },
            Effect::CopyLink => page.link.copy(state),
            Effect::Quit => {}
            // The frame's own (`vitrine_app::frame`): never handed to a front-end.
            Effect::ExportGltf(..) | Effect::CopyText(_) => {}
        }
        None
    }

    fn view_report(&self) -> Option<ViewReport<'_>> {
        let v = self.page.viewport.as_ref()?;
        Some(ViewReport {
            size_px: v.size_px,
            uploaded: v.uploaded(),
        })
    }

    fn end(&mut self, ctx: &egui::Context, state: &mut AppState) {
        self.page.download_ui(ctx);
        self.page.link.sync(state, ctx);
        self.page.update_status(state);
    }
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let mut page = PageFrame {
            page: &mut self.page,
            frame,
        };
        vitrine_app::frame::run(ui, &mut self.state, &mut page);
    }
}
