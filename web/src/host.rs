//! The browser's side of the app's [`Host`]: the page's files ([`PageFiles`]), jobs run
//! on the page's thread after the frame that started them (the progress line shows
//! first), what the app makes offered as downloads, the settings in `localStorage`. No
//! folders, no file watching, no thumbnail cache: the app leaves those out.

use crate::browser;
use crate::page_files::PageFiles;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use vitrine_app::host::{Host, Job, JobRunner, Output, OutputFile};
use vitrine_core::files::Files;

/// The page as the app's host.
#[derive(Debug, Default)]
pub struct WebHost {
    /// The files dropped, picked and fetched.
    pub page: PageFiles,
    /// Asked for a frame when a job ends.
    pub wake: OnceLock<eframe::egui::Context>,
    /// Fetches the bytes of remote archives that reads asked for.
    pub refetch: OnceLock<Arc<crate::remote::RemoteFetch>>,
}

impl JobRunner for WebHost {
    /// Runs `job` on the page's thread once the current frame is done, then asks the
    /// page for a frame: the page's one way to run background work. The page has no
    /// other thread: a long job holds the page while it runs, but the frame that
    /// started it (with its progress line) is painted first.
    fn spawn(&self, _what: &str, job: Job) -> Result<(), String> {
        let ctx = self.wake.get().cloned();
        wasm_bindgen_futures::spawn_local(async move {
            job();
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
        });
        Ok(())
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "vitrine-export".into())
}

impl Host for WebHost {
    fn save_settings(&self, json: &str) -> Result<(), String> {
        browser::save_settings(json)
    }

    fn has_links(&self) -> bool {
        true
    }

    fn refetch(&self) -> Option<Arc<dyn vitrine_app::jobs::Refetch>> {
        // The engines a map asks for first (fetched on first use), then the archives' bytes.
        let r = self.refetch.get()?.clone();
        Some(Arc::new(crate::engines::EngineFetch::new(
            r,
            self.wake.get().cloned(),
        )))
    }

    fn settings_location(&self) -> Option<String> {
        Some("this browser's storage for this page".into())
    }

    fn save_new(
        &self,
        _folder: Option<&Path>,
        stem: &str,
        ext: &str,
        bytes: &[u8],
    ) -> Result<String, String> {
        let name = format!("{stem}.{ext}");
        browser::download(&name, bytes)?;
        Ok(format!("your downloads as {name}"))
    }
}

/// What the app writes, offered as downloads (no thread to lend: the animation export
/// is stepped a slice per page frame).
impl Output for WebHost {
    fn files(&self) -> Files {
        self.page.files()
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        browser::download(&file_name(path), bytes).map_err(io::Error::other)
    }

    fn write_new(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        // A download never replaces anything: the browser numbers a name already taken.
        self.write(path, bytes)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn OutputFile>> {
        Ok(Box::new(Download {
            path: path.to_path_buf(),
            bytes: Vec::new(),
        }))
    }

    fn remove(&self, _path: &Path) -> io::Result<()> {
        // Nothing was written: a download is offered only once committed.
        Ok(())
    }
}

/// A file written as a stream, offered as a download when committed.
struct Download {
    path: PathBuf,
    bytes: Vec<u8>,
}

impl io::Write for Download {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl OutputFile for Download {
    fn commit(self: Box<Self>) -> io::Result<PathBuf> {
        browser::download(&file_name(&self.path), &self.bytes).map_err(io::Error::other)?;
        Ok(self.path)
    }
}
