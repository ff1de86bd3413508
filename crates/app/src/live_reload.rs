//! Live reload: while View ▸ Watch files is on (the default), the open model's file, its
//! sibling parts (PangYa) and its texture files are watched (the host's
//! [`super::host::Watch`]; on the desktop `notify`; none in a browser);
//! when one changes the model is loaded again keeping the camera, clip, time, selection
//! and visibility, and changed textures are decoded afresh (the renderer's texture cache
//! is keyed by each file's [`crate::files::Stamp`]). A model inside an archive reloads
//! when the archive changes.
//!
//! A file caught half-written (the exporter still writing) fails to load: the error is
//! shown, the previous model stays, and the next change tries again. The gallery's tiles
//! whose files change are thumbnailed again.
//!
//! Models added to or removed from a gallery's folder (or its archive rewritten) list the
//! gallery again, keeping the filter, scroll position, selection and the pictures of the
//! tiles still there ([`super::gallery::Gallery::relist`]).
//!
//! Not here: tiles whose texture pages change (they are redrawn on the next opening: the
//! thumbnail cache checks texture stamps).

use super::state::AppState;
use crate::files::FileRef;
use std::path::PathBuf;

pub use super::watching::LiveReload;

/// The files the open document depends on: itself (or its archive), its PangYa sibling
/// parts, its texture files.
fn document_files(state: &AppState) -> Vec<FileRef> {
    let Some(doc) = &state.document.open else {
        return Vec::new();
    };
    if super::panels::assemble::state::design_of(&doc.path).is_some() {
        return Vec::new();
    }
    let mut files = vec![doc.path.clone()];
    if crate::formats::pet::assemble::is_part(&doc.path) {
        files.extend(crate::formats::pet::assemble::siblings(
            &state.services.files,
            &doc.path,
        ));
    }
    files.extend(doc.model.textures.iter().filter_map(|t| t.resolved.clone()));
    files.sort();
    files.dedup();
    files
}

/// Once a frame: keeps the watcher on what is open, and reloads what changed. `wake` is
/// called from the watcher's thread when a change is ready (request a repaint).
pub fn sync(state: &mut AppState, live: &mut LiveReload, wake: impl Fn() + Send + 'static) {
    if !state.services.settings.watch_files {
        *live = LiveReload::default();
        return;
    }
    if live.watcher.is_none() && !live.failed {
        match state.services.host.watcher(Box::new(wake)) {
            Some(Ok(w)) => live.watcher = Some(w),
            // Nothing to watch with (a browser): View ▸ Watch files says so.
            None => live.failed = true,
            Some(Err(e)) => {
                live.failed = true;
                state
                    .services
                    .toasts
                    .error(format!("Live reload is off: {e}"));
            }
        }
    }
    let Some(watcher) = &mut live.watcher else {
        return;
    };
    let key = (
        state.document.open.as_ref().map(|d| d.generation),
        state
            .panels
            .gallery
            .as_ref()
            .map(|g| format!("{} {}", g.title, g.tiles.len())),
    );
    if live.watching.as_ref() != Some(&key) {
        live.document_files = document_files(state);
        let mut files = live.document_files.clone();
        let mut trees: Vec<PathBuf> = Vec::new();
        if let Some(g) = &state.panels.gallery {
            match &g.source {
                Some(FileRef::Disk(dir)) => trees.push(dir.clone()),
                _ => files.extend(g.tiles.iter().map(|t| t.file.clone())),
            }
        }
        for (dir, e) in watcher.set(&files, &trees) {
            log::warn!("cannot watch {}: {e}", dir.display());
        }
        live.watching = Some(key);
    }
    let changed = watcher.changes();
    if changed.is_empty() {
        return;
    }
    if live
        .document_files
        .iter()
        .any(|f| watcher.touches(&changed, f))
    {
        reload(state);
    }
    if let Some(g) = &state.panels.gallery
        && g.listing_changed(&state.services.files, &**watcher, &changed)
    {
        // Listed again as a job; the gallery takes it in when it is done, drawing the
        // tiles whose files changed again.
        let redo = g
            .tiles
            .iter()
            .filter(|t| watcher.touches(&changed, &t.file))
            .map(|t| t.file.clone())
            .collect();
        super::loading::relist(state, redo);
        return;
    }
    if let Some(g) = &mut state.panels.gallery {
        let touched: Vec<usize> = (0..g.tiles.len())
            .filter(|&i| watcher.touches(&changed, &g.tiles[i].file))
            .collect();
        if let Some(t) = &mut g.thumbs
            && !touched.is_empty()
        {
            t.request(&g.tiles, touched);
        }
    }
}

/// Loads the open document again in the background after a change on disk, keeping
/// the camera exactly; on failure the previous model stays and the error is shown.
fn reload(state: &mut AppState) {
    let Some(path) = state.document.open.as_ref().map(|d| d.path.clone()) else {
        return;
    };
    super::loading::load(state, path, super::loading::Purpose::LiveReload);
}
