//! Loader settings that reload the open model: the PMF transform rules, the tileset, the
//! PET rotations, the data roots ([`crate::opening::apply`] calls these).
//!
//! Changing a loader setting loads the open file again with the new options and keeps
//! the camera, so the user sees what the setting does from the same viewpoint.

use crate::formats::pmf::PmfOptions;
use crate::model::Format;
use crate::state::AppState;
use std::path::PathBuf;

/// Uses `options` for PMF files from now on (saved); reloads the open model if it is a
/// PMF.
pub fn set_pmf_options(state: &mut AppState, options: PmfOptions) {
    let unchanged = options == state.services.settings.pmf;
    set_load_setting(state, Format::Pmf, unchanged, |s| {
        s.services.settings.pmf = options
    });
}

/// Draws PIE models with `tileset`'s texture pages from now on (saved); reloads the open
/// model if it is a PIE.
pub fn set_tileset(state: &mut AppState, tileset: crate::formats::pie::Tileset) {
    let unchanged = tileset == state.services.settings.tileset;
    set_load_setting(state, Format::Pie, unchanged, |s| {
        s.services.settings.tileset = tileset
    });
}

/// Reads PET ANIM rotations with `rotations` from now on (saved); reloads the open model
/// if it is a PET.
pub fn set_pet_rotations(state: &mut AppState, rotations: crate::formats::pet::PetRotations) {
    let unchanged = rotations == state.services.settings.pet_rotations;
    set_load_setting(state, Format::Pet, unchanged, |s| {
        s.services.settings.pet_rotations = rotations
    });
}

/// A loader setting changed by the user: `apply` stores it in the settings (the load
/// options are the settings'), and the open model is reloaded when it is of `format`
/// (the only one the setting affects). Nothing happens when it is `unchanged`.
fn set_load_setting(
    state: &mut AppState,
    format: Format,
    unchanged: bool,
    apply: impl FnOnce(&mut AppState),
) {
    if unchanged {
        return;
    }
    apply(state);
    if state
        .document
        .open
        .as_ref()
        .is_some_and(|d| d.model.format == format)
    {
        reload(state);
    }
}

/// Uses `roots` as the data roots (in order); saved, and the open model is reloaded so
/// its textures and event models are looked up again.
pub fn set_data_roots(state: &mut AppState, roots: Vec<PathBuf>) {
    if roots == state.services.settings.data_roots {
        return;
    }
    state.services.toasts.info(match roots.len() {
        0 => "No data roots: files are looked for beside the model only".to_string(),
        1 => "1 data root".to_string(),
        n => format!("{n} data roots, searched in order"),
    });
    state.services.settings.data_roots = roots;
    // The Assemble panel reads the Warzone 2100 stats through the same roots.
    crate::panels::assemble::sync_roots(state);
    if state.document.open.is_some() {
        reload(state);
    }
}

/// Loads the open file again with the current options in the background, keeping the
/// camera. On failure the model on screen stays and the error banner says why.
pub fn reload(state: &mut AppState) {
    let Some(path) = state.document.open.as_ref().map(|d| d.path.clone()) else {
        return;
    };
    if let Some(design) = crate::panels::assemble::state::design_of(&path) {
        state.panels.assemble.forget_parts(&state.services.files);
        crate::panels::assemble::build_document(state, &design, false);
        return;
    }
    crate::loading::load(state, path, crate::loading::Purpose::Reload);
}
