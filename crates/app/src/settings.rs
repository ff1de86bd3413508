//! Settings that persist between runs, as one JSON text the front-end keeps
//! ([`super::host::Host::save_settings`]: the desktop's `settings.json`, the browser's
//! storage). Priority of values: built-in defaults, then the stored text, then the
//! command line. Unknown keys are ignored and missing keys take their defaults
//! ([`Settings::from_json`]), so older and newer versions of the viewer can share one
//! file; values out of range are brought back into it.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use web_time::{Duration, Instant};

/// Most recent files remembered.
pub const MAX_RECENT: usize = 10;
/// Smallest window size accepted from the file, in points.
pub const MIN_WINDOW: f32 = 320.0;
/// Largest window size accepted from the file, in points.
pub const MAX_WINDOW: f32 = 16384.0;

/// Everything the viewer remembers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Team colour index into [`crate::render::TEAM_COLOURS`].
    pub team: usize,
    /// Background of the 3D view, sRGB bytes.
    pub background: [u8; 3],
    /// Inner size of the window in points.
    pub window_size: [f32; 2],
    /// Position of the window's outer top-left corner on the desktop, in points (`None`:
    /// where the system places it).
    pub window_pos: Option<[f32; 2]>,
    /// Whether the window was maximised.
    pub maximized: bool,
    /// Folder the Open dialog starts in.
    pub last_folder: Option<PathBuf>,
    /// Most recently opened files, newest first, at most [`MAX_RECENT`].
    pub recent_files: Vec<PathBuf>,
    /// Where screenshots go (`None`: `default_screenshot_folder`).
    pub screenshot_folder: Option<PathBuf>,
    /// Overlays shown in the view.
    pub overlays: crate::render::Overlays,
    /// Shadows on a ground plane.
    pub shadows: bool,
    /// The light (View ▸ Lighting).
    pub lighting: crate::render::Lighting,
    /// Data roots searched after the model's own folder, in order: folders or archives
    /// (a Warzone 2100 mod over `mp.wz` over `base.wz`, a Trespasser data root, a PangYa
    /// texture folder). Archive entries are written as `a.wz!/folder`.
    pub data_roots: Vec<PathBuf>,
    /// The single "texture folder" of earlier versions; read once and moved to the front
    /// of [`Settings::data_roots`].
    #[serde(skip_serializing)]
    pub texture_folder: Option<PathBuf>,
    /// PMF transform rules the format leaves unstated (units, Euler order, root mode).
    pub pmf: crate::formats::pmf::PmfOptions,
    /// The design last shown in the Assemble panel.
    pub assembly: Option<crate::wz::Design>,
    /// Turret yaw / pitch and moving / still of the Assemble panel.
    pub assembly_pose: crate::wz::TurretPose,
    /// The Export animation dialog's settings.
    pub animation: super::dialogs::export_animation::state::AnimationOptions,
    /// The Warzone 2100 tileset PIE models are drawn for.
    pub tileset: crate::formats::pie::Tileset,
    /// How PET ANIM rotation keys are read.
    pub pet_rotations: crate::formats::pet::PetRotations,
    /// How a Warzone 2100 map's terrain is drawn (the map panel's *Classic tiles*).
    pub map_terrain: crate::map::scene::TerrainMode,
    /// Draw a Warzone 2100 map's fog and its tileset's sky (the map panel's *Fog and
    /// sky*; `vitrine render --fog`). Off by default: the game's fog distances grow with
    /// its camera's distance, which the game keeps within a few thousand units; a whole
    /// map framed in the window is far beyond that, and the fog would cover most of it.
    pub map_fog: bool,
    /// Draw the shadows a Warzone 2100 map's structures, features and droids cast, as the
    /// game does with its setting *shadows* on (the map panel's *Shadows*; `vitrine
    /// render --shadows`). On by default, as in the game.
    pub map_shadows: bool,
    /// Move a map's water and turn its sky while the window shows it (the map panel's
    /// *Moving water and sky*); off, the window draws them still and asks for no frames.
    pub map_animate: bool,
    /// Side panel sections the user opened or closed, by title (absent: the section's
    /// default).
    pub open_sections: std::collections::BTreeMap<String, bool>,
    /// Reload the open model when its files change on disk (View ▸ Watch files).
    pub watch_files: bool,
    /// Mods published as web sites (Settings ▸ Published sites), for Share ▸ Copy web
    /// link.
    pub published_sites: Vec<crate::published::PublishedSite>,
}

impl Default for Settings {
    fn default() -> Self {
        let bg = crate::render::ViewSettings::default().background;
        Settings {
            team: 0,
            background: [bg[0], bg[1], bg[2]],
            window_size: [1280.0, 800.0],
            window_pos: None,
            maximized: false,
            last_folder: None,
            recent_files: Vec::new(),
            screenshot_folder: None,
            overlays: crate::render::Overlays::NONE,
            shadows: false,
            lighting: crate::render::Lighting::DEFAULT,
            data_roots: Vec::new(),
            texture_folder: None,
            pmf: crate::formats::pmf::PmfOptions::default(),
            assembly: None,
            assembly_pose: crate::wz::TurretPose::default(),
            animation: Default::default(),
            tileset: Default::default(),
            pet_rotations: Default::default(),
            map_terrain: Default::default(),
            map_fog: false,
            map_shadows: true,
            map_animate: true,
            open_sections: Default::default(),
            watch_files: true,
            published_sites: Vec::new(),
        }
    }
}

impl Settings {
    /// Puts `path` at the front of the recent files (once), keeping [`MAX_RECENT`].
    pub fn add_recent(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_path_buf());
        self.recent_files.truncate(MAX_RECENT);
    }

    /// The loader options these settings ask for (data roots, PMF rules), the data roots
    /// read against `files`.
    pub fn load_options(&self, files: &crate::files::Files) -> crate::formats::LoadOptions {
        crate::formats::LoadOptions {
            data_roots: self.data_roots.iter().map(|p| files.parse(p)).collect(),
            pmf: self.pmf,
            tileset: self.tileset,
            pet_rotations: self.pet_rotations,
            map_terrain: self.map_terrain,
            map_seed: None,
        }
    }

    /// The settings in `json` (stored by an earlier run), brought into range; the
    /// message to show when it does not parse.
    pub fn from_json(json: &[u8]) -> Result<Settings, String> {
        serde_json::from_slice::<Settings>(json)
            .map(Settings::sanitised)
            .map_err(|e| e.to_string())
    }

    /// The folder screenshots are written to: the chosen one, else the front-end's
    /// (`None`: they are downloaded).
    pub fn screenshot_folder(&self, host: &dyn super::host::Host) -> Option<PathBuf> {
        self.screenshot_folder
            .clone()
            .or_else(|| host.default_screenshot_folder())
    }

    /// Brings values read from a file into range (a hand-edited file may hold anything).
    fn sanitised(mut self) -> Settings {
        if let Some(old) = self.texture_folder.take()
            && !self.data_roots.contains(&old)
        {
            self.data_roots.insert(0, old);
        }
        if self.team >= crate::render::TEAM_COLOURS.len() {
            self.team = 0;
        }
        for v in &mut self.window_size {
            *v = if v.is_finite() {
                v.clamp(MIN_WINDOW, MAX_WINDOW)
            } else {
                MIN_WINDOW
            };
        }
        self.recent_files.truncate(MAX_RECENT);
        let pose = &mut self.assembly_pose;
        for v in [&mut pose.yaw_deg, &mut pose.pitch_deg] {
            if !v.is_finite() {
                *v = 0.0;
            }
        }
        pose.yaw_deg = pose.yaw_deg.clamp(-180.0, 180.0);
        pose.pitch_deg = pose.pitch_deg.clamp(-90.0, 90.0);
        if self
            .window_pos
            .is_some_and(|p| !p.iter().all(|v| v.is_finite() && v.abs() <= MAX_WINDOW))
        {
            self.window_pos = None;
        }
        let len = &mut self.overlays.normal_length;
        if !len.is_finite() {
            *len = crate::render::Overlays::NONE.normal_length;
        }
        let range = super::inspect::state::NORMAL_LENGTH_RANGE;
        *len = len.clamp(*range.start(), *range.end());
        self.animation = self.animation.sanitised();
        self.lighting = self.lighting.sanitised();
        self
    }
}

/// How long a change to the settings waits before it is written: changes made within it
/// (every frame of a slider or colour drag) are written once.
pub const SAVE_DELAY: Duration = Duration::from_secs(1);

/// The settings' one owner: the values (read and changed through `Deref`), the host that
/// keeps them, and when to save. Nothing writes the file per change: the window calls
/// [`SettingsStore::save_due`] every frame, which writes what changed once it has been
/// [`SAVE_DELAY`] since the first unsaved change, and [`SettingsStore::flush`] when it
/// closes.
#[derive(Debug)]
pub struct SettingsStore {
    current: Settings,
    /// What the file holds (as far as this run knows).
    saved: Settings,
    host: std::sync::Arc<dyn super::host::Host>,
    /// When a difference between `current` and `saved` was first seen.
    changed_at: Option<Instant>,
    writes: u64,
}

impl SettingsStore {
    /// `settings` as `host` kept them.
    pub fn new(settings: Settings, host: std::sync::Arc<dyn super::host::Host>) -> Self {
        SettingsStore {
            saved: settings.clone(),
            current: settings,
            host,
            changed_at: None,
            writes: 0,
        }
    }

    /// How many times the file was written (a slider drag must not write per frame).
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Whether there are changes not yet written.
    pub fn unsaved(&self) -> bool {
        self.current != self.saved
    }

    /// Writes the changes once [`SAVE_DELAY`] has passed since the first one was seen
    /// (`now` is the window's clock); `Err` is the message to show when writing failed.
    pub fn save_due(&mut self, now: Instant) -> Result<(), String> {
        if !self.unsaved() {
            self.changed_at = None;
            return Ok(());
        }
        let since = *self.changed_at.get_or_insert(now);
        if now.saturating_duration_since(since) < SAVE_DELAY {
            return Ok(());
        }
        self.flush()
    }

    /// Writes the changes now (the window closes; tests).
    pub fn flush(&mut self) -> Result<(), String> {
        self.changed_at = None;
        if !self.unsaved() {
            return Ok(());
        }
        // Not tried again until the next change: one message per failure.
        self.saved = self.current.clone();
        self.writes += 1;
        let json = serde_json::to_string_pretty(&self.current).map_err(|e| e.to_string())?;
        self.host.save_settings(&json)
    }
}

impl std::ops::Deref for SettingsStore {
    type Target = Settings;
    fn deref(&self) -> &Settings {
        &self.current
    }
}

impl std::ops::DerefMut for SettingsStore {
    fn deref_mut(&mut self) -> &mut Settings {
        &mut self.current
    }
}

/// A change to the settings alone (the view and the document draw with them next frame).
#[derive(Debug, Clone, PartialEq)]
pub enum SettingsCommand {
    /// Forget the recent files.
    ClearRecent,
    /// Use team colour `n` (index into [`crate::render::TEAM_COLOURS`]).
    SetTeam(usize),
    /// Background colour of the view, sRGB.
    SetBackground([u8; 3]),
    /// Remember that the side panel section `key` is open (`true`) or closed.
    SetSectionOpen(String, bool),
    /// Reload the open model when its files change on disk (View ▸ Watch files).
    SetWatchFiles(bool),
    /// Replace the published sites (Settings ▸ Published sites: add, edit, remove).
    SetPublishedSites(Vec<crate::published::PublishedSite>),
    /// Use this folder for screenshots.
    SetScreenshotFolder(PathBuf),
    /// Draw maps' fog and sky (or not).
    SetMapFog(bool),
    /// Draw maps' shadows (or not).
    SetMapShadows(bool),
    /// Move maps' water and sky (or draw them still).
    SetMapAnimate(bool),
}

/// Applies `cmd` to `settings` (saved within a second by the store); a change worth
/// saying goes to `toasts`.
pub fn apply(
    settings: &mut SettingsStore,
    toasts: &mut crate::toasts::Toasts,
    cmd: SettingsCommand,
) {
    match cmd {
        SettingsCommand::ClearRecent => settings.recent_files.clear(),
        SettingsCommand::SetTeam(team) => {
            if team < crate::render::TEAM_COLOURS.len() && team != settings.team {
                settings.team = team;
            }
        }
        SettingsCommand::SetBackground(rgb) => {
            if rgb != settings.background {
                settings.background = rgb;
            }
        }
        SettingsCommand::SetSectionOpen(key, open) => {
            if settings.open_sections.get(&key) != Some(&open) {
                settings.open_sections.insert(key, open);
            }
        }
        SettingsCommand::SetWatchFiles(on) => settings.watch_files = on,
        SettingsCommand::SetMapFog(on) => settings.map_fog = on,
        SettingsCommand::SetMapShadows(on) => settings.map_shadows = on,
        SettingsCommand::SetMapAnimate(on) => settings.map_animate = on,
        SettingsCommand::SetPublishedSites(sites) => settings.published_sites = sites,
        SettingsCommand::SetScreenshotFolder(dir) => {
            toasts.info(format!("Screenshots will be saved in {}", dir.display()));
            settings.screenshot_folder = Some(dir);
        }
    }
}
