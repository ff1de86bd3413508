//! The document: the open model ([`Document`]), the last load that failed, and what the
//! user looks at in it (the inspection: selection, hidden nodes) and found in it (the
//! checks) — [`DocumentState`], the place a map document will join — and the commands
//! of its life ([`DocumentCommand`]: open, load, reload…), applied by
//! [`crate::opening`]; the loading itself runs as a job ([`crate::loading`]).

use crate::files::{FileRef, Files};
use crate::formats::LoadOptions;
use crate::jobs::JobKind;
use crate::model::{Model, Pose};
use crate::timeline::playback::Playback;
use std::path::PathBuf;

/// The open document and what belongs to it.
#[derive(Debug)]
pub struct DocumentState {
    /// The open model, if any.
    pub open: Option<Document>,
    /// The last failed load, if not dismissed.
    pub load_error: Option<LoadFailure>,
    /// Selection, hidden nodes, isolate (per document).
    pub inspect: crate::inspect::state::InspectState,
    /// `vitrine check` findings on the open file (the Checks panel).
    pub checks: crate::panels::checks::state::ChecksState,
    /// Counter behind [`Document::generation`].
    next_generation: u64,
}

impl Default for DocumentState {
    fn default() -> DocumentState {
        DocumentState {
            open: None,
            load_error: None,
            inspect: Default::default(),
            checks: Default::default(),
            next_generation: 1,
        }
    }
}

impl DocumentState {
    /// The document, if the inspection state (selection, hidden nodes) belongs to the
    /// model it shows now.
    pub fn inspect_current(&self) -> Option<&Document> {
        self.open
            .as_ref()
            .filter(|d| d.generation == self.inspect.generation)
    }

    /// A new [`Document::generation`] number.
    pub fn bump_generation(&mut self) -> u64 {
        let g = self.next_generation;
        self.next_generation += 1;
        g
    }

    /// What the renderer found uploading document generation `generation` (texture
    /// pages that do not decode or did not fit in GPU memory): listed under the side
    /// panel's Warnings while that model is open.
    pub fn set_render_warnings(&mut self, generation: u64, warnings: &[String]) {
        if let Some(doc) = &mut self.open
            && doc.generation == generation
            && doc.render_warnings != warnings
        {
            doc.render_warnings = warnings.to_vec();
        }
    }
}

/// An open model file.
#[derive(Debug, Clone)]
pub struct Document {
    /// Where it was loaded from (a file, or an entry of an archive).
    pub path: FileRef,
    /// What the loader made of it.
    pub model: Model,
    /// The pose drawn: [`Pose::sample`] of `model` at the playback's time, every frame.
    pub pose: Pose,
    /// Animation playback (clip, time, play / pause…) of `model`.
    pub playback: Playback,
    /// The PIE event model shown in place of the file's own model, if any.
    pub event: Option<ShownEvent>,
    /// Changes whenever a new model is loaded, so the view knows to upload it again.
    pub generation: u64,
    /// Problems the renderer found uploading it (textures that exist but do not decode).
    pub render_warnings: Vec<String>,
    /// Its texture pages as the opening job decoded them, for the renderer's first upload.
    pub pages: crate::page_detail::DecodedPages,
    /// Which of them were decoded from their smaller levels, and their whole pages once
    /// decoded.
    pub page_detail: crate::page_detail::PageDetail,
    /// The points it was last framed on ([`crate::view::View::frame`]).
    pub framing: Framing,
}

/// The points a document was last framed on, for its model (its
/// [`Document::generation`]), clip and team: the next framing of the same — the view
/// resized, F pressed — does not pose the whole model again (a map's hundreds of
/// thousands of points: 150–200 ms a time on the page, twice for its first frame).
#[derive(Debug, Clone, Default)]
pub struct Framing(std::sync::Arc<std::sync::Mutex<Option<(FramingKey, FramingPoints)>>>);

/// What framing points depend on: the model's generation, the clip, the team.
type FramingKey = (u64, Option<usize>, usize);
/// Framing points, shared.
type FramingPoints = std::sync::Arc<Vec<glam::Vec3>>;

impl Framing {
    /// The points for `key`, made by `make` unless they were kept for it.
    pub fn points(&self, key: FramingKey, make: impl FnOnce() -> Vec<glam::Vec3>) -> FramingPoints {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, points)) = kept.as_ref()
            && *k == key
        {
            return points.clone();
        }
        let points = std::sync::Arc::new(make());
        *kept = Some((key, points.clone()));
        points
    }
}

impl Document {
    /// The file name, for titles and messages.
    pub fn file_name(&self) -> String {
        self.path.file_name()
    }

    /// The map's facts and what each node of its scene is, when the document is a
    /// Warzone 2100 map (a `game.map` opened as its scene): a map is a document of its
    /// own kind, whose side panel shows the map instead of a model's facts.
    pub fn map(&self) -> Option<&crate::map::scene::MapDetails> {
        match &self.base_model().details {
            crate::model::Details::Map(d) => Some(d),
            _ => None,
        }
    }

    /// What the window's title names: the file, and for a map the level
    /// (`game.map — map 2c-Startup`).
    pub fn title(&self) -> String {
        match self.map() {
            Some(map) => format!("{} — map {}", self.file_name(), map.name),
            None => self.file_name(),
        }
    }

    /// The file name without extension (screenshot names).
    pub fn stem(&self) -> String {
        Some(self.path.stem())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "model".into())
    }
}

/// A load that failed: shown in a banner until dismissed or until a load succeeds.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadFailure {
    /// The file that failed.
    pub path: FileRef,
    /// The full [`crate::formats::LoadError`] text.
    pub message: String,
}

/// Loads a model file for the viewer from `files`: the loader's
/// [`crate::formats::LoadError`] text on failure. A panicking loader (a bug) is reported
/// the same way instead of closing the window and losing the model that is open.
pub fn load_model(files: &Files, path: &FileRef, options: &LoadOptions) -> Result<Model, String> {
    guarded(path, || vitrine_core::formats::load(files, path, options))
}

/// Loads the map whose `game.map` is `path` as [`load_model`] does, with the
/// `vitrine check` findings on its level made from the same read and placement
/// ([`crate::check::map_check::load_checked_resuming`]: a run that waited for bytes
/// leaves in `resume` what the next one starts from); failures as [`load_model`]'s.
pub fn load_map(
    files: &Files,
    path: &FileRef,
    options: &LoadOptions,
    resume: &mut crate::check::map_check::Resume,
) -> Result<(Model, Vec<crate::check::Finding>), String> {
    guarded(path, || {
        crate::check::map_check::load_checked_resuming(files, path, options, resume)
    })
}

/// `load`'s result, its error as text, a panic in it reported as the loader's crash.
fn guarded<T>(
    path: &FileRef,
    load: impl FnOnce() -> Result<T, crate::formats::LoadError>,
) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(load)) {
        Ok(Ok(loaded)) => Ok(loaded),
        Ok(Err(e)) => Err(e.to_string()),
        Err(panic) => {
            let what = vitrine_core::crash::payload_text(&*panic)
                .unwrap_or_else(|| "unknown panic".into());
            Err(format!(
                "{}: internal error: the loader crashed ({what}); please report this file",
                path.file_name()
            ))
        }
    }
}

/// The event model being shown instead of the base model.
#[derive(Debug, Clone)]
pub struct ShownEvent {
    /// Index into the base model's `events`.
    pub index: usize,
    /// The base model, back in [`Document::model`] when the event is deselected.
    pub base: Model,
    /// The base model's playback, restored with it.
    pub base_playback: Playback,
}

impl Document {
    /// The model the file itself holds (not an event model shown in its place).
    pub fn base_model(&self) -> &Model {
        self.event.as_ref().map_or(&self.model, |e| &e.base)
    }

    /// Index of the event shown in place of the base model, if any.
    pub fn shown_event(&self) -> Option<usize> {
        self.event.as_ref().map(|e| e.index)
    }

    /// Samples [`Document::pose`] at the playback's time, with team colour `team` for
    /// legacy team-colour texture frames.
    pub fn resample(&mut self, team: usize) {
        let time = self.playback.sample_time(&self.model);
        self.pose = Pose::sample(&self.model, self.playback.clip, time, team);
    }
}

/// A document intent.
#[derive(Debug, Clone, PartialEq)]
pub enum DocumentCommand {
    /// Open this model file (drop, recent list, command line, dialog result): a loose
    /// file or an archive entry.
    Open(FileRef),
    /// Load this model file (not a folder or a design) in the background, for this
    /// purpose.
    Load {
        /// The file.
        file: FileRef,
        /// What the result is for.
        purpose: Purpose,
    },
    /// Load the open file again from disk (F5), keeping clip, time and camera.
    Reload,
    /// Hide the load-error banner.
    DismissError,
    /// Cancel the job running on this lane (the progress line's Cancel).
    CancelJob(JobKind),
    /// Show the Open dialog.
    OpenDialog,
    /// Show a folder dialog; the folder opens as a gallery (File ▸ Open Folder…).
    OpenFolderDialog,
    /// Use these PMF transform rules (reloads an open PMF, keeping the camera).
    SetPmfOptions(crate::formats::pmf::PmfOptions),
    /// Draw PIE models with this tileset's pages (saved; reloads an open PIE).
    SetTileset(crate::formats::pie::Tileset),
    /// Read PET ANIM rotations this way (saved; reloads an open PET).
    SetPetRotations(crate::formats::pet::PetRotations),
    /// Draw Warzone 2100 maps' terrain this way (saved; reloads an open map).
    SetMapTerrain(crate::map::scene::TerrainMode),
    /// Run the open script-generated map's `game.js` again with this seed (reloads it,
    /// keeping the camera; the file keeps the seed until another opens).
    RunMapSeed(u32),
    /// Show a dialog to add a data root (a folder, or an archive).
    PickDataRoot {
        /// An archive (`.wz`, `.zip`) rather than a folder.
        archive: bool,
    },
    /// Replace the data roots (Settings ▸ Data roots: add, remove, reorder); reloads.
    SetDataRoots(Vec<PathBuf>),
    /// Show this PIE event model in place of the model (`None`: the model itself).
    ShowEvent(Option<usize>),
}

/// Why a model file is being loaded: what to do with the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The user opened it (recent files, last folder).
    Open,
    /// F5 or a changed loader setting: the camera is kept if the user moved it.
    Reload,
    /// It changed on disk: the camera is kept exactly; a failure says the next change is
    /// tried again.
    LiveReload,
    /// Gallery tile `i` was clicked: on failure the tile turns red instead of a banner.
    Tile(usize),
}

#[cfg(test)]
mod tests {
    use super::Framing;
    use glam::Vec3;

    /// The points are made once per model, clip and team: the same key gives the kept
    /// points without posing again; another model (generation), clip or team makes them
    /// anew (a view framed on the last model's points would frame the wrong thing).
    #[test]
    fn framing_points_are_kept_per_model_clip_and_team() {
        let framing = Framing::default();
        let made = std::cell::Cell::new(0);
        let make = |x: f32| {
            made.set(made.get() + 1);
            vec![Vec3::splat(x)]
        };
        assert_eq!(
            *framing.points((1, None, 0), || make(1.0)),
            [Vec3::splat(1.0)]
        );
        assert_eq!(
            *framing.points((1, None, 0), || make(9.0)),
            [Vec3::splat(1.0)]
        );
        assert_eq!(made.get(), 1);
        for (key, x) in [
            ((2, None, 0), 2.0),
            ((2, Some(0), 0), 3.0),
            ((2, Some(0), 1), 4.0),
        ] {
            assert_eq!(*framing.points(key, || make(x)), [Vec3::splat(x)]);
        }
        assert_eq!(made.get(), 4);
    }
}
