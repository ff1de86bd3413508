//! What any part of the app may use, and no part owns: the front-end ([`Host`]), the
//! files read through it, the persisted settings, the toasts in the corner and the
//! background work. A part reaches these through its narrow context (its own state plus
//! `&mut Services` or the one service it needs), never through the whole
//! [`crate::state::AppState`].

use crate::files::Files;
use crate::formats::LoadOptions;
use crate::host::Host;
use crate::settings::{Settings, SettingsStore};
use crate::toasts::Toasts;
use std::path::PathBuf;
use std::sync::Arc;

/// The services shared by the app's parts.
#[derive(Debug)]
pub struct Services {
    /// The front-end: where files come from and what is made goes.
    pub host: Arc<dyn Host>,
    /// What every read of the app goes through (the host's).
    pub files: Files,
    /// Persisted settings (team colour, background, recent files…) and their saving.
    pub settings: SettingsStore,
    /// Short messages in the corner.
    pub toasts: Toasts,
    /// Loads, assemblies and listings running in the background.
    pub work: crate::work::Work,
    /// A Warzone 2100 installation found on this machine (`mp` over `base`), offered in
    /// Settings ▸ Data roots.
    pub detected_warzone: Option<Vec<PathBuf>>,
    /// The seed a script-generated map runs with, and its file (the map panel's *Run
    /// again*); every other map runs with the default seed.
    pub map_seed: Option<(crate::files::FileRef, u32)>,
}

impl Services {
    /// The services of `host`, with `settings`.
    pub fn new(settings: Settings, host: Arc<dyn Host>) -> Services {
        let mut work = crate::work::Work::default();
        // Reading jobs wait for what the host fetches (the page's remote archives).
        if let Some(refetch) = host.refetch() {
            work.set_refetch(refetch);
        }
        Services {
            files: host.files(),
            detected_warzone: host.detected_warzone(),
            settings: SettingsStore::new(settings, host.clone()),
            host,
            toasts: Toasts::default(),
            work,
            map_seed: None,
        }
    }

    /// The loader options (data roots, PMF rules, tileset, PET rotations): the
    /// settings' own.
    pub fn load_options(&self) -> LoadOptions {
        self.settings.load_options(&self.files)
    }

    /// The loader options for a Warzone 2100 map: the settings' own, or with no data
    /// roots set, the installation found on this machine (a map holds no models or tile
    /// images of its own; `vitrine render MAP` does the same).
    pub fn map_load_options(&self) -> LoadOptions {
        let mut options = self.load_options();
        if options.data_roots.is_empty()
            && let Some(found) = &self.detected_warzone
        {
            options.data_roots = found.iter().map(|p| self.files.parse(p)).collect();
        }
        options
    }

    /// The loader options for `file`: [`Services::map_load_options`] for a map's
    /// `game.map` or `game.js` (with the seed [`Services::map_seed`] keeps for it), else
    /// [`Services::load_options`].
    pub fn load_options_for(&self, file: &crate::files::FileRef) -> LoadOptions {
        if crate::gallery::maps::is_map_name(&file.file_name()) {
            let mut options = self.map_load_options();
            options.map_seed = self
                .map_seed
                .as_ref()
                .filter(|(f, _)| f == file)
                .map(|(_, seed)| *seed);
            options
        } else {
            self.load_options()
        }
    }

    /// The team colour drawn: an index into [`crate::render::TEAM_COLOURS`].
    pub fn team(&self) -> usize {
        self.settings
            .team
            .min(crate::render::TEAM_COLOURS.len() - 1)
    }
}
