//! The page's eframe app: the same egui app as the desktop's window, with the browser's
//! ways of doing what the app leaves to its front-end — files dropped, picked (the
//! browser's dialog) or fetched (`?url=`, `window.vitrine.open`) go into the page's
//! files before they are opened; screenshots and exports become downloads; a screenshot
//! is read back over the next frames instead of waiting on the page's only thread, and an
//! animation export is rendered, read back and encoded a slice per frame.

use crate::host::{WebHost, run_later};
use crate::opening::{fetch_texture_pages, open_command};
use crate::screenshots::Screenshots;
use crate::status::{Backend, GalleryStatus, LoadState, PageStatus, Progress};
use crate::{browser, fetch};
use eframe::egui;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};
use vitrine_app::commands::{AppCommand, Effect, apply};
use vitrine_app::dialogs::export_animation::{ExportCommand, PageExport, start_stepped};
use vitrine_app::jobs::{Job, JobRunner};
use vitrine_app::layout::window_ui;
use vitrine_app::settings::Settings;
use vitrine_app::state::{AppState, LoadFailure};
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

/// What the page's JavaScript side and the asynchronous browser calls hand the app.
pub enum Incoming {
    /// Open a URL (`window.vitrine.open(url)`).
    OpenUrl(String),
    /// A command for the app (a picked or dropped file, ready in the page's files).
    Command(AppCommand),
    /// A download or a file read failed.
    Failed(FileRef, String),
    /// A download's progress.
    Progress(String, u64, Option<u64>),
    /// Archives dropped or picked: data roots from now on, before the earlier ones (a mod
    /// dropped over the game's `base.wz` finds its pages there, as the game layers them).
    AddDataRoots(Vec<PathBuf>),
    /// Export the open model's animation with the Export animation dialog's settings as a
    /// download of this name (`window.vitrine.exportAnimation(name)`).
    ExportAnimation(String),
    /// The page's fragment changed (`hashchange`): the view it links to.
    Link(String),
}

/// The viewer as the page's eframe app.
pub struct WebApp {
    state: AppState,
    host: Arc<WebHost>,
    viewport: Option<Viewport>,
    view_error: String,
    /// Why the GPU device is gone, once the browser took it away.
    device_lost: Option<String>,
    exports: vitrine_app::dialogs::export_gltf::ExportJobs,
    shots: Screenshots,
    /// The animation export running, a slice per frame.
    animation: Option<PageExport>,
    inbox: Receiver<Incoming>,
    outbox: Sender<Incoming>,
    /// A URL being downloaded: its progress line.
    downloading: Option<(String, u64, Option<u64>)>,
    /// What `window.vitrine.status()` reads.
    status: Rc<RefCell<PageStatus>>,
    drops: u32,
    title: String,
    link: crate::link::Links,
}

/// Runs the app's jobs on the page's thread after the frame.
#[derive(Clone)]
struct PageRunner {
    ctx: egui::Context,
}

impl JobRunner for PageRunner {
    fn spawn(&self, _what: &str, job: Job) {
        run_later(job, Some(self.ctx.clone()));
    }
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
            state.toasts.error(w);
        }
        state.work.set_runner(PageRunner {
            ctx: cc.egui_ctx.clone(),
        });
        let (viewport, view_error) = match cc.wgpu_render_state.as_ref() {
            Some(rs) => {
                status.borrow_mut().backend = Backend::of(rs.adapter.get_info().backend);
                match Viewport::try_new(rs, &state.files) {
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
        let (link, open_link) = crate::link::Links::start(&mut state, url.is_some(), DEMO[0].0);
        let mut app = WebApp {
            state,
            host,
            viewport,
            view_error,
            device_lost: None,
            exports: Default::default(),
            shots: Screenshots::default(),
            animation: None,
            inbox,
            outbox,
            downloading: None,
            status,
            drops: 0,
            title: String::new(),
            link,
        };
        let (tx, ctx) = (app.outbox.clone(), cc.egui_ctx.clone());
        crate::link::listen(move |hash| {
            let _ = tx.send(Incoming::Link(hash));
            ctx.request_repaint();
        });
        match url {
            Some(url) => app.open_url(url, data, &cc.egui_ctx),
            None => {
                for (path, bytes) in DEMO {
                    app.host.page.add(path, bytes.to_vec());
                }
                let open = AppCommand::Open(FileRef::Disk(DEMO[0].0.into()));
                for cmd in std::iter::once(open).chain(open_link) {
                    let _ = apply(&mut app.state, cmd);
                }
            }
        }
        app
    }

    /// Downloads `url` into the page's files, then opens it (a model in the viewer, an
    /// archive as a gallery, and a data root as a dropped one is). Archives are read a
    /// piece at a time when the server serves ranges ([`crate::remote`]). The archives
    /// of `data` (the page's `&data=`) become data roots first, in their order, under
    /// `url`'s.
    fn open_url(&mut self, url: String, data: Vec<String>, ctx: &egui::Context) {
        self.downloading = Some((url.clone(), 0, None));
        let gallery = !self.link.names_model();
        let (tx, ctx) = (self.outbox.clone(), ctx.clone());
        let page = self.host.page.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let progress = |url: &str| {
                let (tx, ctx, url) = (tx.clone(), ctx.clone(), url.to_string());
                move |got, total| {
                    let _ = tx.send(Incoming::Progress(url.clone(), got, total));
                    ctx.request_repaint();
                }
            };
            let mut roots = Vec::new();
            for d in &data {
                match add_archive(&page, d, progress(d)).await {
                    Ok(path) => roots.push(path),
                    Err(e) => {
                        let _ = tx.send(Incoming::Failed(FileRef::Disk(d.into()), e));
                    }
                }
            }
            if !roots.is_empty() {
                let _ = tx.send(Incoming::AddDataRoots(roots));
            }
            let path = crate::page_files::url_path(&url);
            let msg = match &path {
                None => Incoming::Failed(
                    FileRef::Disk(url.clone().into()),
                    format!("{url}: the URL names no file"),
                ),
                Some(p) if vitrine_core::files::is_archive_path(p) => {
                    match add_archive(&page, &url, progress(&url)).await {
                        Ok(p) => {
                            if gallery {
                                prefetch_gallery(&page, &p).await;
                            }
                            let _ = tx.send(Incoming::AddDataRoots(vec![p.clone()]));
                            Incoming::Command(open_command(vec![FileRef::Disk(p)]))
                        }
                        Err(e) => Incoming::Failed(FileRef::Disk(p.clone()), e),
                    }
                }
                Some(p) => match fetch::fetch_bytes(&url, progress(&url)).await {
                    Ok(bytes) => {
                        let file = page.add(p.clone(), bytes);
                        fetch_texture_pages(&page, &url, &file).await;
                        Incoming::Command(open_command(vec![file]))
                    }
                    Err(e) => Incoming::Failed(FileRef::Disk(p.clone()), e),
                },
            };
            let _ = tx.send(msg);
            ctx.request_repaint();
        });
    }

    /// Reads the files dropped on the page into a folder of their own, then opens them.
    fn take_drops(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input_mut(|i| std::mem::take(&mut i.raw.dropped_files));
        if dropped.is_empty() {
            return;
        }
        self.drops += 1;
        let (group, page, tx, ctx) = (
            self.drops,
            self.host.page.clone(),
            self.outbox.clone(),
            ctx.clone(),
        );
        wasm_bindgen_futures::spawn_local(async move {
            let mut named = Vec::new();
            for f in &dropped {
                let name = f.path().to_string_lossy().into_owned();
                match f.bytes_async().await {
                    Ok(bytes) => named.push((name, bytes)),
                    Err(e) => {
                        let _ = tx.send(Incoming::Failed(
                            FileRef::Disk(name.clone().into()),
                            format!("{name}: {e}"),
                        ));
                    }
                }
            }
            if !named.is_empty() {
                let files = page.add_group(group, named);
                let archives: Vec<PathBuf> = files
                    .iter()
                    .filter_map(|f| match f {
                        FileRef::Disk(p) if vitrine_core::files::is_archive_path(p) => {
                            Some(p.clone())
                        }
                        _ => None,
                    })
                    .collect();
                if !archives.is_empty() {
                    let _ = tx.send(Incoming::AddDataRoots(archives));
                }
                let _ = tx.send(Incoming::Command(open_command(files)));
            }
            ctx.request_repaint();
        });
    }

    /// The browser's file dialog; the picked files are opened like dropped ones.
    fn pick(
        &mut self,
        ctx: &egui::Context,
        then: impl FnOnce(Vec<FileRef>) -> Option<AppCommand> + 'static,
    ) {
        self.drops += 1;
        let (group, page, tx, ctx) = (
            self.drops,
            self.host.page.clone(),
            self.outbox.clone(),
            ctx.clone(),
        );
        let mut extensions: Vec<&str> = vitrine_app::dialogs::MODEL_EXTENSIONS.to_vec();
        extensions.extend(vitrine_core::files::ARCHIVE_EXTENSIONS);
        extensions.extend([
            "png", "jpg", "jpeg", "bmp", "dds", "pcx", "tga", "bin", "txt", "json", "ini",
        ]);
        wasm_bindgen_futures::spawn_local(async move {
            let named = browser::pick_files(&extensions).await;
            if !named.is_empty()
                && let Some(cmd) = then(page.add_group(group, named))
            {
                let _ = tx.send(Incoming::Command(cmd));
            }
            ctx.request_repaint();
        });
    }

    /// Does what [`apply`] left for the page.
    fn perform(&mut self, effect: Effect, ctx: &egui::Context, frame: &eframe::Frame) {
        let not_here = |what: &str| format!("{what} is not available in the browser");
        match effect {
            Effect::PickModel(_) => self.pick(ctx, |files| Some(open_command(files))),
            Effect::PickGalleryFolder(_) => self.state.toasts.error(
                not_here("Picking a folder")
                    + ": drop its files or its archive (.wz, .zip) on the page",
            ),
            Effect::PickScreenshotFolder(_) | Effect::OpenFolder(_) => self
                .state
                .toasts
                .info("Screenshots and exports go to your downloads"),
            Effect::PickDataRoot {
                archive, current, ..
            } => {
                if archive {
                    self.pick(ctx, move |files| {
                        let mut roots = current;
                        roots.extend(files.into_iter().filter_map(|f| match f {
                            FileRef::Disk(p) => Some(p),
                            _ => None,
                        }));
                        Some(AppCommand::SetDataRoots(roots))
                    })
                } else {
                    self.state.toasts.error(
                        not_here("A folder as a data root")
                            + ": add the game's or the mod's archive (.wz) instead",
                    )
                }
            }
            Effect::Screenshot(req) => self.shots.start(
                req,
                self.viewport.as_mut(),
                frame.wgpu_render_state(),
                &mut self.state,
            ),
            Effect::PickExportPath(_, name) => {
                // No save dialog: the export is a download under the suggested name.
                let mut path = PathBuf::from(name);
                if vitrine_core::export::gltf::Container::for_path(&path).is_none() {
                    path.as_mut_os_string().push(".glb");
                }
                if let Some(e) = apply(&mut self.state, AppCommand::ExportGltf(path)) {
                    self.perform(e, ctx, frame);
                }
            }
            Effect::ExportGltf(path, options) => {
                let ctx = ctx.clone();
                self.exports
                    .start_document(&mut self.state, path, options, move || {
                        ctx.request_repaint()
                    });
            }
            Effect::PickPiePath(_) => self
                .state
                .toasts
                .info("The PIE (and its pages) will be downloaded under the name in Save as"),
            Effect::PickAnimationOutput(..) => self
                .state
                .toasts
                .info("The animation will be downloaded under the name in Save as"),
            Effect::ExportAnimation(job) => match frame.wgpu_render_state() {
                Some(rs) => {
                    self.animation = start_stepped(&mut self.state, &rs.device, &rs.queue, *job);
                    ctx.request_repaint();
                }
                None => self.state.toasts.error("Export failed: no GPU renderer"),
            },
            Effect::CopyLink => self.link.copy(&self.state),
            Effect::CopyText(text) => ctx.copy_text(text),
            Effect::Quit => {}
        }
    }

    /// What arrived from the browser since the last frame.
    fn take_incoming(&mut self, ctx: &egui::Context, frame: &eframe::Frame) {
        while let Ok(msg) = self.inbox.try_recv() {
            match msg {
                Incoming::OpenUrl(url) => self.open_url(fetch::absolute(&url), Vec::new(), ctx),
                Incoming::Progress(url, got, total) => self.downloading = Some((url, got, total)),
                Incoming::Link(hash) => {
                    if let Some(cmd) = self.link.hash_changed(&mut self.state, &hash)
                        && let Some(e) = apply(&mut self.state, cmd)
                    {
                        self.perform(e, ctx, frame);
                    }
                }
                Incoming::Command(cmd) => {
                    let cmd = self.link.opening(cmd);
                    self.downloading = None;
                    if let Some(e) = apply(&mut self.state, cmd) {
                        self.perform(e, ctx, frame);
                    }
                }
                Incoming::AddDataRoots(new) => {
                    let mut roots = new;
                    for r in &self.state.settings.data_roots {
                        if !roots.contains(r) {
                            roots.push(r.clone());
                        }
                    }
                    if let Some(e) = apply(&mut self.state, AppCommand::SetDataRoots(roots)) {
                        self.perform(e, ctx, frame);
                    }
                }
                Incoming::Failed(path, message) => {
                    self.downloading = None;
                    self.state.load_error = Some(LoadFailure { path, message });
                }
                Incoming::ExportAnimation(name) => {
                    // What the dialog does: open it, name the output, press Export.
                    for cmd in [
                        ExportCommand::Show,
                        ExportCommand::SetOutput(name.into()),
                        ExportCommand::Export,
                    ] {
                        if let Some(e) = apply(&mut self.state, AppCommand::Export(cmd)) {
                            self.perform(e, ctx, frame);
                        }
                    }
                }
            }
        }
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
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(text);
                    })
                })
            });
    }

    /// When the browser has taken the GPU device away (a driver reset, or a browser that
    /// cannot present to the canvas): the view says so, and so does the page's status.
    fn check_device_lost(&mut self) {
        let Some(why) = self.viewport.as_ref().and_then(|v| v.take_lost()) else {
            return;
        };
        let message = format!("The GPU device was lost ({why}). Reload the page to carry on.");
        log::error!("{message}");
        self.state.toasts.error(message.clone());
        self.view_error = message.clone();
        self.device_lost = Some(message);
        self.viewport = None;
    }

    /// Keeps `window.vitrine.status()` and the page title up to date.
    fn update_status(&mut self) {
        let mut s = self.status.borrow_mut();
        s.frames += 1;
        s.ignored.clone_from(&self.link.ignored);
        s.model = self
            .state
            .document
            .as_ref()
            .filter(|_| self.state.gallery.as_ref().is_none_or(|g| !g.shown))
            .map(|d| d.file_name());
        s.error = self
            .device_lost
            .clone()
            .or_else(|| self.state.load_error.as_ref().map(|e| e.message.clone()));
        s.gallery = self.state.gallery.as_ref().map(|g| GalleryStatus {
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
        s.state = if self.downloading.is_some() || !self.state.work.idle() {
            LoadState::Loading
        } else if s.error.is_some() {
            LoadState::Error
        } else if self.state.document.is_some() || self.state.gallery.is_some() {
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

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.take_drops(&ctx);
        self.take_incoming(&ctx, frame);
        self.check_device_lost();
        vitrine_app::commands::poll_jobs(&mut self.state);
        if !self.state.work.idle() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        let dt = ctx.input(|i| i.stable_dt);
        if vitrine_app::timeline::tick(&mut self.state, dt) {
            ctx.request_repaint();
        }
        let rs = frame.wgpu_render_state();
        if let (Some(run), Some(rs)) = (&mut self.animation, rs) {
            // A slice of the export, then this frame is drawn (the progress window moves).
            if run.step(&rs.device, &rs.queue) {
                self.animation = None;
            }
            ctx.request_repaint();
        }
        let device = vitrine_app::gallery::thumbs::ThumbDevice::for_window(rs);
        vitrine_app::gallery::thumbs::sync(&mut self.state, &ctx, device);
        let viewport = &mut self.viewport;
        let view_error = &self.view_error;
        let commands = window_ui(ui, &mut self.state, |ui, state| {
            view_or_error(ui, state, viewport.as_mut(), rs, view_error)
        });
        if !commands.is_empty() {
            ctx.request_repaint();
        }
        for cmd in commands {
            if let Some(effect) = apply(&mut self.state, cmd) {
                self.perform(effect, &ctx, frame);
            }
        }
        self.shots
            .finish(&ctx, frame.wgpu_render_state(), &mut self.state);
        for result in self.exports.poll() {
            match result {
                Ok(text) => self.state.toasts.info(text),
                Err(e) => self.state.toasts.error(format!("Export failed: {e}")),
            }
        }
        vitrine_app::inspect::sync(&mut self.state);
        for cmd in self.state.toasts.ui(&ctx) {
            if let Some(effect) = apply(&mut self.state, cmd) {
                self.perform(effect, &ctx, frame);
            }
        }
        self.download_ui(&ctx);
        if let Some(viewport) = &self.viewport {
            let [w, h] = viewport.size_px;
            self.state.set_view_aspect(w as f32 / h.max(1) as f32);
            if let Some((generation, warnings)) = viewport.uploaded() {
                self.state.set_render_warnings(generation, warnings);
            }
        }
        self.link.sync(&mut self.state, &ctx);
        self.update_status();
        if let Err(e) = self.state.settings.save_due(web_time::Instant::now()) {
            self.state.toasts.error(e);
        }
        if self.state.settings.unsaved() {
            ctx.request_repaint_after(vitrine_app::settings::SAVE_DELAY);
        }
    }
}

/// Adds the archive at `url` to the page's files (whole, or read a piece at a time):
/// where it is in them.
async fn add_archive(
    page: &crate::page_files::PageFiles,
    url: &str,
    progress: impl FnMut(u64, Option<u64>),
) -> Result<PathBuf, String> {
    let path =
        crate::page_files::url_path(url).ok_or_else(|| format!("{url}: the URL names no file"))?;
    match crate::remote::open_archive(url, progress).await? {
        crate::remote::Opened::Whole(bytes) => page.add(path.clone(), bytes),
        crate::remote::Opened::Pieces(pieces) => page.add_remote(path.clone(), url, pieces),
    };
    Ok(path)
}

/// Fetches the models and images of the archive at `path` when it is read a piece at a
/// time, in a few requests, before it opens as a gallery (whose thumbnails read them
/// all); other entries (sounds, scripts, maps) stay on the server.
async fn prefetch_gallery(page: &crate::page_files::PageFiles, path: &std::path::Path) {
    const IMAGES: [&str; 7] = ["png", "jpg", "jpeg", "bmp", "tga", "dds", "pcx"];
    let files = page.files();
    let wanted = |p: &str| {
        let ext = p.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        vitrine_core::formats::is_model_name(p) || ext.is_some_and(|e| IMAGES.contains(&e.as_str()))
    };
    crate::remote::settle(page, || {
        if let Ok(archive) = files.archive(path) {
            archive.advise_entries(wanted);
        }
    })
    .await;
}
