//! The app's background work ([`Work`]): its job lanes and what their jobs bring back
//! (a loaded file, an assembly, a gallery listing, the data roots' stats, an event
//! model). Plain data and lanes: the jobs are started and their results taken in by
//! their owners (the loading of [`crate::loading`], [`crate::timeline::event_models`],
//! the export dialogs), so the services that hold the work ([`crate::services`]) do not
//! depend on any of that logic.

use crate::check::Finding;
use crate::document::Purpose;
use crate::files::FileRef;
use crate::host::Found;
use crate::jobs::{Inline, JobKind, JobRunner, Lane, Refetch, Running};
use crate::model::Model;
use crate::timeline::playback::Playback;
use crate::wz::{Assembly, Design, Stats};
use std::sync::Arc;

/// A model file loaded (or not) by a job, with its checks.
#[derive(Debug)]
pub struct LoadedFile {
    /// The file.
    pub path: FileRef,
    /// What the load was for.
    pub purpose: Purpose,
    /// The model and the `vitrine check` findings on the file, or the load error.
    pub result: Result<(Model, Vec<Finding>), String>,
    /// The model's texture pages, decoded in the job (a map's from their smaller levels,
    /// [`crate::page_detail`]).
    pub pages: Vec<crate::page_detail::DecodedPage>,
}

/// A design assembled (or not) by a job.
#[derive(Debug)]
pub struct Assembled {
    /// The design, its propulsion filled in.
    pub design: Design,
    /// Remember it (Open Recent, the Build tab) on success: a design the user picked,
    /// not a re-assembly for a pose or a reload.
    pub remember: bool,
    /// The assembly and the checks' findings on it, or why not.
    pub result: Result<(Assembly, Vec<Finding>), String>,
}

/// What a document job brings back.
#[derive(Debug)]
pub enum Outcome {
    /// A model file.
    File(Box<LoadedFile>),
    /// A Warzone 2100 assembly.
    Assembly(Box<Assembled>),
    /// The whole texture pages of document generation `.0`, first drawn from their
    /// smaller levels ([`crate::page_detail`]).
    WholePages(u64, Vec<crate::page_detail::DecodedPage>),
}

/// A gallery listing: the folder or archive (`None`: dropped files) and its walk.
#[derive(Debug)]
pub struct Listing {
    /// The folder or archive listed; `None` for dropped files.
    pub source: Option<FileRef>,
    /// The dropped files listed (empty for a source).
    pub files: Vec<FileRef>,
    /// What was found.
    pub walk: Found,
    /// The level name of each map found, by its `game.map`
    /// ([`crate::gallery::maps::level_names`]).
    pub maps: std::collections::HashMap<FileRef, String>,
    /// A new listing of the open gallery's source (models added or removed on disk),
    /// with the tiles whose files changed (drawn again); `None` for a new gallery.
    pub relist: Option<std::collections::HashSet<FileRef>>,
}

/// The Warzone 2100 stats read from data roots by a job.
#[derive(Debug)]
pub struct StatsRead {
    /// The roots, as the settings name them.
    pub roots: Vec<std::path::PathBuf>,
    /// The stats (`None`: none of the roots has any).
    pub stats: Option<Arc<Stats>>,
    /// Problems reading them (file and key).
    pub warnings: Vec<String>,
}

/// The app's background work: the document lane (opens, reloads, assemblies), the
/// gallery lane (listings), the stats lane (the Warzone 2100 stats of the data roots),
/// the event models' lane and the export dialogs' jobs. The front-end provides the
/// runner ([`Work::set_runner`]); until then jobs run inline.
#[derive(Debug)]
pub struct Work {
    /// Loads and assemblies: one at a time, the newest wins.
    pub document: Lane<Outcome>,
    /// Folder and archive listings for the gallery.
    pub gallery: Lane<Listing>,
    /// The stats of the data roots.
    pub stats: Lane<StatsRead>,
    /// PIE event models shown in place of the model.
    pub event: Lane<EventLoaded>,
    /// File ▸ Export PIE…'s check and write.
    pub pie: Lane<crate::dialogs::export_pie::state::PieDone>,
    /// File ▸ Export glTF…'s exports (several may run at once).
    pub gltf: crate::dialogs::export_gltf::ExportJobs,
}

impl Default for Work {
    fn default() -> Self {
        Work {
            document: Lane::new(Box::new(Inline)),
            gallery: Lane::new(Box::new(Inline)),
            stats: Lane::new(Box::new(Inline)),
            event: Lane::new(Box::new(Inline)),
            pie: Lane::new(Box::new(Inline)),
            gltf: Default::default(),
        }
    }
}

impl Work {
    /// Cancels the job running on lane `kind` (the progress line's Cancel).
    pub fn cancel(&mut self, kind: JobKind) {
        match kind {
            JobKind::Document => self.document.cancel(),
            JobKind::Gallery => self.gallery.cancel(),
            JobKind::Stats => self.stats.cancel(),
            JobKind::Event => self.event.cancel(),
        }
    }

    /// Runs the jobs of both lanes with `runner`.
    pub fn set_runner<R: JobRunner + Clone + 'static>(&mut self, runner: R) {
        self.document.set_runner(Box::new(runner.clone()));
        self.gallery.set_runner(Box::new(runner.clone()));
        self.stats.set_runner(Box::new(runner.clone()));
        self.event.set_runner(Box::new(runner.clone()));
        self.pie.set_runner(Box::new(runner));
    }

    /// Runs the reading jobs (loads, assemblies, stats, listings) again when `refetch`
    /// has fetched bytes they asked for (the page's remote archives).
    pub fn set_refetch(&mut self, refetch: std::sync::Arc<dyn Refetch>) {
        self.document.set_refetch(refetch.clone());
        self.gallery.set_refetch(refetch.clone());
        self.stats.set_refetch(refetch);
    }

    /// The jobs running, for the progress line.
    pub fn running(&self) -> impl Iterator<Item = &Running> {
        self.document
            .running()
            .into_iter()
            .chain(self.gallery.running())
            .chain(self.stats.running())
            .chain(self.event.running())
    }

    /// Whether nothing runs.
    pub fn idle(&self) -> bool {
        self.running().next().is_none()
    }
}

/// An event model loaded by a job ([`crate::timeline::event_models`]).
#[derive(Debug)]
pub struct EventLoaded {
    /// The document generation it was asked for (a newer document drops it).
    pub(crate) generation: u64,
    /// The event's index in the base model's `events`.
    pub(crate) index: usize,
    /// The event's name, for messages.
    pub(crate) label: String,
    /// Playback to carry over onto it (a reload kept the event shown): the old playback
    /// and the model it played.
    pub(crate) carry: Option<Box<(Playback, Model)>>,
    /// The event model, or why not.
    pub(crate) result: Result<Model, String>,
}
