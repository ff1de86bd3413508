//! What each of the window's file dialogs asks for (title, kind, filters, starting folder,
//! suggested name) and what its answer becomes, apart from who shows it: the system's
//! dialog through rfd ([`Request::run_native`]) or Vitrine's own picker
//! ([`super::picker::Picker`]).

use crate::app::commands::{AppCommand, DocumentCommand, GltfCommand, SettingsCommand};
use crate::app::dialogs::MODEL_EXTENSIONS;
use std::path::{Path, PathBuf};

/// What the dialog picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An existing file.
    OpenFile,
    /// An existing folder.
    Folder,
    /// A file to write (it may not exist yet).
    Save,
}

/// A named filter: files whose extension is one of `extensions` (`*`: any file).
#[derive(Debug, Clone)]
pub struct Filter {
    /// Shown to the user.
    pub name: String,
    /// Extensions without the dot, compared without regard to case.
    pub extensions: Vec<String>,
}

impl Filter {
    fn new(name: &str, extensions: &[&str]) -> Filter {
        Filter {
            name: name.into(),
            extensions: extensions.iter().map(|e| e.to_string()).collect(),
        }
    }

    /// Whether this filter lets every file through.
    pub fn is_any(&self) -> bool {
        self.extensions.iter().any(|e| e == "*" || e.is_empty())
    }

    /// Whether `path` passes this filter.
    pub fn accepts(&self, path: &Path) -> bool {
        self.is_any()
            || path.extension().is_some_and(|ext| {
                let ext = ext.to_string_lossy();
                self.extensions.iter().any(|e| e.eq_ignore_ascii_case(&ext))
            })
    }
}

/// Turns the picked path into the command to apply (`None`: nothing to do).
type Answer = Box<dyn FnOnce(PathBuf) -> Option<AppCommand> + Send>;

/// One file dialog to show.
pub struct Request {
    /// The dialog's title.
    pub title: &'static str,
    /// What it picks.
    pub kind: Kind,
    /// Its filters, the first one chosen at first.
    pub filters: Vec<Filter>,
    /// The folder it starts in (an existing one, else the dialog's own choice).
    pub start: Option<PathBuf>,
    /// The name it suggests (save dialogs).
    pub file_name: Option<String>,
    answer: Answer,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("title", &self.title)
            .field("kind", &self.kind)
            .field("filters", &self.filters)
            .field("start", &self.start)
            .field("file_name", &self.file_name)
            .finish_non_exhaustive()
    }
}

impl Request {
    fn new(
        title: &'static str,
        kind: Kind,
        start: Option<PathBuf>,
        answer: impl FnOnce(PathBuf) -> Option<AppCommand> + Send + 'static,
    ) -> Request {
        Request {
            title,
            kind,
            filters: Vec::new(),
            start: start.filter(|d| d.is_dir()),
            file_name: None,
            answer: Box::new(answer),
        }
    }

    fn filter(mut self, name: &str, extensions: &[&str]) -> Request {
        self.filters.push(Filter::new(name, extensions));
        self
    }

    /// The command the picked `path` asks for.
    pub fn answer(self, path: PathBuf) -> Option<AppCommand> {
        (self.answer)(path)
    }

    /// File ▸ Open: a model or an archive, starting in `start`.
    pub fn open_model(start: Option<PathBuf>) -> Request {
        Request::new("Open model", Kind::OpenFile, start, |p| {
            Some(AppCommand::Document(DocumentCommand::Open(
                crate::files::parse(&p),
            )))
        })
        .filter("Models", MODEL_EXTENSIONS)
        .filter("Archives (.wz, .zip)", crate::files::ARCHIVE_EXTENSIONS)
        .filter("All files", &["*"])
    }

    /// File ▸ Open folder: a folder to open as a gallery.
    pub fn gallery_folder(start: Option<PathBuf>) -> Request {
        Request::new("Open folder as a gallery", Kind::Folder, start, |p| {
            Some(AppCommand::Gallery(
                crate::app::gallery::GalleryCommand::OpenSource(crate::files::FileRef::Disk(p)),
            ))
        })
    }

    /// The screenshot folder.
    pub fn screenshot_folder(start: Option<PathBuf>) -> Request {
        Request::new("Screenshot folder", Kind::Folder, start, |p| {
            Some(AppCommand::Settings(SettingsCommand::SetScreenshotFolder(
                p,
            )))
        })
    }

    /// A data root to add after `current`: a folder, or an archive (`.wz`, `.zip`).
    pub fn data_root(archive: bool, start: Option<PathBuf>, current: Vec<PathBuf>) -> Request {
        let (title, kind) = if archive {
            ("Add a data archive", Kind::OpenFile)
        } else {
            ("Add a data folder", Kind::Folder)
        };
        let request = Request::new(title, kind, start, move |picked| {
            let mut roots = current;
            roots.retain(|r| *r != picked);
            roots.push(picked);
            Some(AppCommand::Document(DocumentCommand::SetDataRoots(roots)))
        });
        if archive {
            request.filter("Archives", crate::files::ARCHIVE_EXTENSIONS)
        } else {
            request
        }
    }

    /// File ▸ Export glTF: where to write, starting in `start` with `name`; a name typed
    /// without an extension gets the binary one.
    pub fn gltf_export(start: Option<PathBuf>, name: String) -> Request {
        let mut request = Request::new("Export glTF", Kind::Save, start, |mut path| {
            if crate::export::gltf::Container::for_path(&path).is_none() {
                path.as_mut_os_string().push(".glb");
            }
            Some(AppCommand::Gltf(GltfCommand::Export(path)))
        })
        .filter("glTF binary (.glb)", &["glb"])
        .filter("glTF with files beside it (.gltf)", &["gltf"]);
        request.file_name = Some(name);
        request
    }

    /// Export animation: where to write, suggested as `start` (folder and name).
    pub fn animation_output(start: PathBuf, format: crate::export::animation::Format) -> Request {
        Request::new(
            "Export animation",
            Kind::Save,
            start.parent().map(Path::to_path_buf),
            |p| {
                Some(AppCommand::Export(
                    crate::app::dialogs::export_animation::ExportCommand::SetOutput(p),
                ))
            },
        )
        .filter(format.label(), &[format.extension()])
        .suggesting(&start)
    }

    /// Export PIE: where to write the PIE file, suggested as `start`.
    pub fn pie_output(start: PathBuf) -> Request {
        Request::new(
            "Export PIE",
            Kind::Save,
            start.parent().map(Path::to_path_buf),
            |p| {
                Some(AppCommand::ExportPie(
                    crate::app::dialogs::export_pie::PieCommand::SetOutput(p),
                ))
            },
        )
        .filter("Warzone 2100 PIE (.pie)", &["pie"])
        .suggesting(&start)
    }

    fn suggesting(mut self, path: &Path) -> Request {
        self.file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        self
    }

    /// Shows the system's dialog (rfd) and waits for it; `None` if cancelled — or if
    /// there is no system dialog, which rfd reports the same way (hence
    /// [`super::backend::Backend`]).
    pub fn run_native(self) -> Option<AppCommand> {
        let mut d = rfd::FileDialog::new().set_title(self.title);
        for f in &self.filters {
            d = d.add_filter(&f.name, &f.extensions);
        }
        if let Some(dir) = &self.start {
            d = d.set_directory(dir);
        }
        if let Some(name) = &self.file_name {
            d = d.set_file_name(name);
        }
        let picked = match self.kind {
            Kind::OpenFile => d.pick_file(),
            Kind::Folder => d.pick_folder(),
            Kind::Save => d.save_file(),
        }?;
        self.answer(picked)
    }
}
