//! The resume file: what the user sees, saved by a window whose GPU device was lost and
//! put back by the process that replaces it ([`super`]).
//!
//! One small JSON file in the config folder, `resume-<pid>.json`, written through
//! [`crate::files::atomic`] and deleted by the reader as soon as it is read. What lives in
//! the settings file (team colour, overlays, shadows, lighting, background, data roots,
//! loader rules, window size and place) is not repeated here: the window saves its
//! settings before relaunching. A file of another version, or older than [`MAX_AGE`]
//! (left by a relaunch that never started), is ignored with a warning; so is one that does
//! not parse.

use crate::app::commands::AppCommand;

use crate::app::dispatch::apply;
use crate::app::gallery::TileKind;
use crate::app::state::AppState;
use crate::app::timeline::playback::Playback;
use crate::files::FileRef;
use crate::render::{Camera, ColourMode};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The resume file's format; a file of another version is ignored.
pub const VERSION: u32 = 1;

/// A resume file older than this when read is stale: ignored with a warning.
pub const MAX_AGE: Duration = Duration::from_secs(120);

/// What a window that lost its device hands to the process that replaces it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resume {
    /// [`VERSION`] when written.
    pub version: u32,
    /// When the device was lost, milliseconds since the Unix epoch: the new process does
    /// not relaunch again if it loses its own device soon after ([`super::LOOP_GUARD`]).
    pub lost_at_ms: u64,
    /// wgpu's reason, as the device-lost callback gave it.
    pub why: String,
    /// The open file as written on the command line (`a.wz!/x.pie`, `template:ID` too);
    /// the relaunch also passes it as the argument, so it opens even without this file.
    pub file: Option<String>,
    /// The camera.
    pub camera: Camera,
    /// Whether the user had moved the camera (else the model is framed again).
    pub camera_moved: bool,
    /// The PIE event model shown in place of the file's model.
    pub event: Option<usize>,
    /// Clip, time, play state of what is shown (indices into the same file's clips;
    /// checked against the model when put back).
    pub playback: Option<Playback>,
    /// The selected node.
    pub selected: Option<usize>,
    /// Nodes the user hid (eye toggles).
    pub hidden: Vec<bool>,
    /// Isolate the selection.
    pub isolate: bool,
    /// View ▸ Colour mode.
    pub colour_mode: ColourMode,
    /// The gallery of a folder or archive, if one was open.
    pub gallery: Option<SavedGallery>,
}

/// Whether a camera read back from a resume file is usable: finite numbers, a positive
/// distance, radius and field of view (under π) and a pitch inside (−π/2, π/2) — a
/// hand-edited file may hold anything.
fn sane_camera(c: &Camera) -> bool {
    let numbers = [c.yaw, c.pitch, c.distance, c.fov_y, c.radius];
    numbers.iter().all(|v| v.is_finite())
        && c.target.is_finite()
        && c.distance > 0.0
        && c.radius > 0.0
        && c.fov_y > 0.0
        && c.fov_y < std::f32::consts::PI
        && c.pitch.abs() < std::f32::consts::FRAC_PI_2
}

/// The gallery as saved: its source is listed again, the rest put back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedGallery {
    /// The folder or archive (`a.wz!/folder`).
    pub source: String,
    /// Whether the gallery (not the viewer) was on screen.
    pub shown: bool,
    /// The grid's scroll offset, points.
    pub scroll: f32,
    /// Filter text.
    pub filter: String,
    /// Format filter.
    pub format: Option<crate::model::Format>,
    /// The filter shows maps only (`format` is then `None`).
    #[serde(default)]
    pub maps: bool,
    /// Grouped by sub-folder.
    pub group: bool,
    /// Tile width, points.
    pub tile_size: f32,
    /// The focused tile, by file (indices follow the listing).
    pub selected: Option<String>,
}

/// Milliseconds since the Unix epoch (0 before it).
pub fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Resume {
    /// What `state` shows, the device having been lost at `lost_at` for `why`.
    pub fn capture(state: &AppState, why: &str, lost_at: SystemTime) -> Resume {
        let doc = state.document.open.as_ref();
        // A file that failed to load comes back as the same error banner.
        let file = doc.map(|d| d.path.to_string()).or_else(|| {
            state
                .document
                .load_error
                .as_ref()
                .map(|e| e.path.to_string())
        });
        let gallery = state.panels.gallery.as_ref().and_then(|g| {
            Some(SavedGallery {
                source: g.source.as_ref()?.to_string(),
                shown: g.shown,
                scroll: g.scroll,
                filter: g.filter.clone(),
                format: match g.format {
                    Some(TileKind::Model(f)) => Some(f),
                    _ => None,
                },
                maps: g.format == Some(TileKind::Map),
                group: g.group,
                tile_size: g.tile_size,
                selected: g
                    .selected
                    .and_then(|i| g.tiles.get(i))
                    .map(|t| t.file.to_string()),
            })
        });
        Resume {
            version: VERSION,
            lost_at_ms: unix_ms(lost_at),
            why: why.to_string(),
            file,
            camera: state.view.camera,
            camera_moved: state.view.camera_moved,
            event: doc.and_then(|d| d.shown_event()),
            playback: doc.map(|d| d.playback.clone()),
            selected: state.document.inspect.selected,
            hidden: state.document.inspect.hidden.clone(),
            isolate: state.document.inspect.isolate,
            colour_mode: state.view.colour_mode,
            gallery,
        }
    }

    /// When the device was lost.
    pub fn lost_at(&self) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_millis(self.lost_at_ms)
    }

    /// Puts the view back on `state`, whose document is already [`Resume::file`] (opened
    /// from the command line). What no longer fits the model (a clip or node index the
    /// file no longer has) is left as a fresh open leaves it.
    pub fn restore(&self, state: &mut AppState) {
        if let Some(g) = &self.gallery {
            restore_gallery(state, g);
        }
        let same_file = match (&state.document.open, &self.file) {
            (Some(d), Some(f)) => d.path.to_string() == *f,
            _ => false,
        };
        if !same_file {
            return;
        }
        state.view.colour_mode = self.colour_mode;
        if let Some(i) = self.event {
            // Loaded by a job, inline before the first frame: taken in at once.
            crate::app::timeline::event_models::show_event(&mut state.document_context(), Some(i));
            crate::app::dispatch::poll_jobs(state);
        }
        let team = state.view_settings().team;
        if let (Some(doc), Some(p)) = (&mut state.document.open, &self.playback) {
            let clip_ok = p.clip.is_none_or(|c| c < doc.model.clips.len());
            let motion_ok = match (p.clip, p.motion) {
                (Some(c), Some(m)) => m < doc.model.clips[c].motions.len(),
                (_, m) => m.is_none(),
            };
            if clip_ok && motion_ok && p.time.is_finite() && p.speed.is_finite() {
                let b = &mut doc.playback;
                (b.clip, b.motion, b.playing, b.mode, b.backwards) =
                    (p.clip, p.motion, p.playing, p.mode, p.backwards);
                b.speed = p.speed.clamp(
                    crate::app::timeline::playback::MIN_SPEED,
                    crate::app::timeline::playback::MAX_SPEED,
                );
                b.time = match b.span(&doc.model) {
                    Some(s) => p.time.clamp(s.start, s.start + s.period),
                    None => 0.0,
                };
                doc.resample(team);
            }
        }
        let nodes = state.document.inspect.hidden.len();
        if self.hidden.len() == nodes {
            state.document.inspect.hidden = self.hidden.clone();
            state.document.inspect.selected = self.selected.filter(|&s| s < nodes);
            state.document.inspect.isolate =
                self.isolate && state.document.inspect.selected.is_some();
        }
        if self.camera_moved && sane_camera(&self.camera) {
            state.view.camera = self.camera;
            state.view.camera_moved = true;
        }
    }

    /// Writes the file for process `pid` into `dir` (the config folder); returns its path.
    pub fn write(&self, dir: &Path, pid: u32) -> std::io::Result<PathBuf> {
        let path = dir.join(format!("resume-{pid}.json"));
        let json = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        crate::files::atomic::write(&path, &json)?;
        Ok(path)
    }

    /// Reads the resume file at `path` and deletes it. `Err` is the warning to show when
    /// it cannot be used: unreadable, not a resume file, another version, or written more
    /// than [`MAX_AGE`] before `now` (or after it: a clock that jumped).
    pub fn take(path: &Path, now: SystemTime) -> Result<Resume, String> {
        let read = crate::files::read(&FileRef::Disk(path.to_path_buf()));
        if let Err(e) = crate::files::atomic::remove(path) {
            log::warn!("could not delete the resume file: {e}");
        }
        let bytes = read.map_err(|e| format!("Could not read the resume file: {e}"))?;
        let resume: Resume = serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "Ignored the resume file {} (not a resume file: {e})",
                path.display()
            )
        })?;
        if resume.version != VERSION {
            return Err(format!(
                "Ignored the resume file {} (version {}, this Vitrine reads {VERSION})",
                path.display(),
                resume.version
            ));
        }
        let age = unix_ms(now) as i128 - resume.lost_at_ms as i128;
        if !(0..=MAX_AGE.as_millis() as i128).contains(&age) {
            return Err(format!(
                "Ignored the resume file {} (stale: written {} s from now)",
                path.display(),
                -age / 1000
            ));
        }
        Ok(resume)
    }
}

fn restore_gallery(state: &mut AppState, g: &SavedGallery) {
    // Already open when the gallery was what the command line named.
    let open = |s: &AppState| {
        s.panels
            .gallery
            .as_ref()
            .and_then(|g| g.source.as_ref())
            .is_some_and(|s| s.to_string() == g.source)
    };
    if !open(state) {
        let source = crate::files::parse(Path::new(&g.source));
        let gallery = crate::app::gallery::GalleryCommand::OpenSource(source);
        let _ = apply(state, AppCommand::Gallery(gallery));
    }
    let Some(shown) = &mut state.panels.gallery else {
        return;
    };
    shown.shown = g.shown;
    shown.scroll = if g.scroll.is_finite() { g.scroll } else { 0.0 };
    shown.restore_scroll = true;
    shown.filter = g.filter.clone();
    shown.format = match (g.maps, g.format) {
        (true, _) => Some(TileKind::Map),
        (false, f) => f.map(TileKind::Model),
    };
    shown.group = g.group;
    if g.tile_size.is_finite() {
        let sizes = crate::app::gallery::TILE_SIZES;
        shown.tile_size = g.tile_size.clamp(*sizes.start(), *sizes.end());
    }
    shown.selected = g
        .selected
        .as_ref()
        .and_then(|f| shown.index_of(&crate::files::parse(Path::new(f))));
}
