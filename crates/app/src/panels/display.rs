//! Loader settings that reload the open model: the PMF transform rules, the tileset, the
//! PET rotations, the data roots ([`crate::opening::apply`] calls these).
//!
//! Changing a loader setting loads the open file again with the new options and keeps
//! the camera, so the user sees what the setting does from the same viewpoint.

use crate::formats::pmf::PmfOptions;
use crate::model::Format;
use crate::opening::context::DocumentContext;
use std::path::PathBuf;

/// Uses `options` for PMF files from now on (saved); reloads the open model if it is a
/// PMF.
pub fn set_pmf_options(ctx: &mut DocumentContext<'_>, options: PmfOptions) {
    let unchanged = options == ctx.services.settings.pmf;
    set_load_setting(ctx, Format::Pmf, unchanged, |c| {
        c.services.settings.pmf = options
    });
}

/// Draws PIE models with `tileset`'s texture pages from now on (saved); reloads the open
/// model if it is a PIE.
pub fn set_tileset(ctx: &mut DocumentContext<'_>, tileset: crate::formats::pie::Tileset) {
    let unchanged = tileset == ctx.services.settings.tileset;
    set_load_setting(ctx, Format::Pie, unchanged, |c| {
        c.services.settings.tileset = tileset
    });
}

/// Reads PET ANIM rotations with `rotations` from now on (saved); reloads the open model
/// if it is a PET.
pub fn set_pet_rotations(
    ctx: &mut DocumentContext<'_>,
    rotations: crate::formats::pet::PetRotations,
) {
    let unchanged = rotations == ctx.services.settings.pet_rotations;
    set_load_setting(ctx, Format::Pet, unchanged, |c| {
        c.services.settings.pet_rotations = rotations
    });
}

/// Draws maps' terrain as `terrain` says from now on (saved); reloads the open model if
/// it is a map (a map's scene is a PIE-format model: a PIE reloads too, unchanged).
pub fn set_map_terrain(ctx: &mut DocumentContext<'_>, terrain: crate::map::scene::TerrainMode) {
    let unchanged = terrain == ctx.services.settings.map_terrain;
    set_load_setting(ctx, Format::Pie, unchanged, |c| {
        c.services.settings.map_terrain = terrain
    });
}

/// Runs the open script map's `game.js` again with `seed`: the file keeps the seed
/// (F5, a terrain change) until another file is opened.
pub fn run_map_seed(ctx: &mut DocumentContext<'_>, seed: u32) {
    let Some(path) = ctx.document.open.as_ref().map(|d| d.path.clone()) else {
        return;
    };
    ctx.services.map_seed = Some((path, seed));
    reload(ctx);
}

/// A loader setting changed by the user: `apply` stores it in the settings (the load
/// options are the settings'), and the open model is reloaded when it is of `format`
/// (the only one the setting affects). Nothing happens when it is `unchanged`.
fn set_load_setting(
    ctx: &mut DocumentContext<'_>,
    format: Format,
    unchanged: bool,
    apply: impl FnOnce(&mut DocumentContext<'_>),
) {
    if unchanged {
        return;
    }
    apply(ctx);
    if ctx
        .document
        .open
        .as_ref()
        .is_some_and(|d| d.model.format == format)
    {
        reload(ctx);
    }
}

/// Uses `roots` as the data roots (in order); saved, and the open model is reloaded so
/// its textures and event models are looked up again.
pub fn set_data_roots(ctx: &mut DocumentContext<'_>, roots: Vec<PathBuf>) {
    if roots == ctx.services.settings.data_roots {
        return;
    }
    ctx.services.toasts.info(match roots.len() {
        0 => "No data roots: files are looked for beside the model only".to_string(),
        1 => "1 data root".to_string(),
        n => format!("{n} data roots, searched in order"),
    });
    ctx.services.settings.data_roots = roots;
    // The Assemble panel reads the Warzone 2100 stats through the same roots.
    crate::panels::assemble::sync_roots(ctx.services, ctx.assemble);
    if ctx.document.open.is_some() {
        reload(ctx);
    }
}

/// Loads the open file again with the current options in the background, keeping the
/// camera. On failure the model on screen stays and the error banner says why.
pub fn reload(ctx: &mut DocumentContext<'_>) {
    let Some(path) = ctx.document.open.as_ref().map(|d| d.path.clone()) else {
        return;
    };
    if let Some(design) = crate::panels::assemble::state::design_of(&path) {
        ctx.assemble.forget_parts(&ctx.services.files);
        crate::panels::assemble::build_document(ctx.services, ctx.assemble, &design, false);
        return;
    }
    crate::loading::load(ctx.services, path, crate::document::Purpose::Reload);
}
