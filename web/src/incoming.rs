//! What reaches the page from outside its frames: URLs fetched (`?url=`,
//! `window.vitrine.open`), files dropped or picked in the browser's dialog, and calls
//! from the page's JavaScript. Each is read asynchronously into the page's files, then
//! handed to the app as an [`Incoming`] message that the next frame takes.

use crate::browser;
use crate::fetch;
use crate::opening::{fetch_texture_pages, open_command};
use crate::page_files::PageFiles;
use eframe::egui;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use vitrine_app::commands::AppCommand;
use vitrine_core::files::FileRef;

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

/// Where the asynchronous reads put what they got: the page's files, the app's inbox,
/// and the window to wake when a message is sent.
#[derive(Clone)]
pub struct Arrivals {
    page: PageFiles,
    tx: Sender<Incoming>,
    ctx: egui::Context,
    /// Drops and picks so far: each goes into a folder of its own.
    groups: std::rc::Rc<std::cell::Cell<u32>>,
}

impl Arrivals {
    /// Reads into `page` and sends to `tx`, waking `ctx`.
    pub fn new(page: PageFiles, tx: Sender<Incoming>, ctx: egui::Context) -> Self {
        Arrivals {
            page,
            tx,
            ctx,
            groups: Default::default(),
        }
    }

    /// Sends `msg` to the app and wakes the window.
    pub fn send(&self, msg: Incoming) {
        let _ = self.tx.send(msg);
        self.ctx.request_repaint();
    }

    fn next_group(&self) -> u32 {
        self.groups.set(self.groups.get() + 1);
        self.groups.get()
    }

    /// Downloads `url` into the page's files, then opens it (a model in the viewer, an
    /// archive as a gallery unless `gallery` is false, and a data root as a dropped one
    /// is). Archives are read a piece at a time when the server serves ranges
    /// ([`crate::remote`]). The archives of `data` (the page's `&data=`) become data
    /// roots first, in their order, under `url`'s.
    pub fn open_url(&self, url: String, data: Vec<String>, gallery: bool) {
        let this = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // The archives' directories and the URL's file are fetched side by side (one
            // after the other, a map over the game's archives waited three round trips
            // and two large directories before its first read).
            let roots = futures_util::future::join_all(
                data.iter()
                    .map(|d| add_archive(&this.page, d, this.progress(d))),
            );
            let (roots, opened) =
                futures_util::future::join(roots, this.open_one(&url, gallery)).await;
            let mut added = Vec::new();
            for (d, root) in data.iter().zip(roots) {
                match root {
                    Ok(path) => added.push(path),
                    Err(e) => this.send(Incoming::Failed(FileRef::Disk(d.into()), e)),
                }
            }
            if !added.is_empty() {
                this.send(Incoming::AddDataRoots(added));
            }
            for msg in opened {
                this.send(msg);
            }
        });
    }

    /// A download's progress reports for `url`.
    fn progress(&self, url: &str) -> impl FnMut(u64, Option<u64>) + use<> {
        let (this, url) = (self.clone(), url.to_string());
        move |got, total| this.send(Incoming::Progress(url.clone(), got, total))
    }

    /// Fetches `url` into the page's files: the messages that open it (an archive becomes
    /// a data root too), or the one that says why not.
    async fn open_one(&self, url: &str, gallery: bool) -> Vec<Incoming> {
        let Some(path) = crate::page_files::url_path(url) else {
            return vec![Incoming::Failed(
                FileRef::Disk(url.into()),
                format!("{url}: the URL names no file"),
            )];
        };
        if vitrine_core::files::is_archive_path(&path) {
            return match add_archive(&self.page, url, self.progress(url)).await {
                Ok(p) => {
                    if gallery {
                        prefetch_gallery(&self.page, &p).await;
                    }
                    vec![
                        Incoming::AddDataRoots(vec![p.clone()]),
                        Incoming::Command(open_command(vec![FileRef::Disk(p)])),
                    ]
                }
                Err(e) => vec![Incoming::Failed(FileRef::Disk(path), e)],
            };
        }
        match fetch::fetch_bytes(url, self.progress(url)).await {
            Ok(bytes) => {
                let file = self.page.add(path, bytes);
                fetch_texture_pages(&self.page, url, &file).await;
                vec![Incoming::Command(open_command(vec![file]))]
            }
            Err(e) => vec![Incoming::Failed(FileRef::Disk(path), e)],
        }
    }

    /// Reads the files dropped on the page into a folder of their own, then opens them
    /// (their archives become data roots first).
    pub fn dropped(&self, dropped: Vec<egui::DroppedFileHandle>) {
        if dropped.is_empty() {
            return;
        }
        let (this, group) = (self.clone(), self.next_group());
        wasm_bindgen_futures::spawn_local(async move {
            let mut named = Vec::new();
            for f in &dropped {
                let name = f.path().to_string_lossy().into_owned();
                match f.bytes_async().await {
                    Ok(bytes) => named.push((name, bytes)),
                    Err(e) => this.send(Incoming::Failed(
                        FileRef::Disk(name.clone().into()),
                        format!("{name}: {e}"),
                    )),
                }
            }
            if !named.is_empty() {
                let files = this.page.add_group(group, named);
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
                    this.send(Incoming::AddDataRoots(archives));
                }
                this.send(Incoming::Command(open_command(files)));
            }
        });
    }

    /// The browser's file dialog; the picked files go into a folder of their own and
    /// `then` makes the app's command of them.
    pub fn pick(&self, then: impl FnOnce(Vec<FileRef>) -> Option<AppCommand> + 'static) {
        let (this, group) = (self.clone(), self.next_group());
        let mut extensions: Vec<&str> = vitrine_app::dialogs::MODEL_EXTENSIONS.to_vec();
        extensions.extend(vitrine_core::files::ARCHIVE_EXTENSIONS);
        extensions.extend([
            "png", "jpg", "jpeg", "bmp", "dds", "pcx", "tga", "bin", "txt", "json", "ini",
        ]);
        wasm_bindgen_futures::spawn_local(async move {
            let named = browser::pick_files(&extensions).await;
            if !named.is_empty()
                && let Some(cmd) = then(this.page.add_group(group, named))
            {
                this.send(Incoming::Command(cmd));
            }
        });
    }
}

/// Adds the archive at `url` to the page's files (whole, or read a piece at a time):
/// where it is in them.
async fn add_archive(
    page: &PageFiles,
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
async fn prefetch_gallery(page: &PageFiles, path: &Path) {
    use vitrine_core::formats::{is_model_name, texture::is_image_name};
    let files = page.files();
    let wanted = |p: &str| is_model_name(p) || is_image_name(p);
    crate::remote::settle(page, || {
        if let Ok(archive) = files.archive(path) {
            archive.advise_entries(wanted);
        }
    })
    .await;
}
