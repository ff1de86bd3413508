//! The gallery: every model of a folder, an archive or a set of dropped files as a grid of
//! thumbnails; click or Enter opens one in the viewer, Esc (or the mouse's back button)
//! comes back at the same scroll position, and in the viewer Page Up / Page Down step
//! through the gallery's models in the order it shows them.
//!
//! [`Gallery`] is plain state (the tiles, the filter, the scroll position); [`apply`]
//! carries out [`GalleryCommand`]s; [`ui`] draws the grid; [`thumbs`] renders thumbnails
//! on worker threads through [`crate::render::batch`] and keeps them in the disk
//! [`cache`]. Without a GPU (the kittests) tiles show their name and format only.

pub mod cache;
pub mod command;
pub mod maps;
mod sliced;
pub mod thumbs;
pub mod ui;

pub use command::GalleryCommand;

use super::commands::{AppCommand, DocumentCommand};
use crate::document::{Document, Purpose};
use crate::files::{FileRef, Files};
use crate::model::Format;
use crate::services::Services;

/// Thumbnails are rendered at this many pixels a side (the size slider scales the
/// tiles; 1,000 tiles of 128² RGBA are 64 MB).
pub const THUMB_PX: u32 = 128;
/// Tile sizes the slider offers, points.
pub const TILE_SIZES: std::ops::RangeInclusive<f32> = 64.0..=192.0;

/// What a tile shows: a model of a format, or a Warzone 2100 map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileKind {
    /// A model file, its format by extension.
    Model(Format),
    /// A Warzone 2100 map (its `game.map`): opens as a map document.
    Map,
}

impl TileKind {
    /// Every kind, in the order the format menu lists them.
    pub fn all() -> impl Iterator<Item = TileKind> {
        Format::ALL
            .into_iter()
            .map(TileKind::Model)
            .chain([TileKind::Map])
    }

    /// The kind as the tiles and the format menu name it: the format's label, or `Map`.
    pub fn label(self) -> &'static str {
        match self {
            TileKind::Model(f) => f.label(),
            TileKind::Map => "Map",
        }
    }
}

/// One model or map of the gallery.
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    /// The model file, or the map's `game.map`.
    pub file: FileRef,
    /// Its file name, or the map's level name.
    pub name: String,
    /// A model's format, or a map.
    pub kind: TileKind,
    /// The sub-folder it is in, relative to the gallery's source (`""` at the top).
    pub folder: String,
    /// Why it has no thumbnail (the loader's message), once known.
    pub error: Option<String>,
}

/// What the gallery shows: the tiles of a folder, an archive or dropped files.
#[derive(Debug)]
pub struct Gallery {
    /// The folder or archive shown; `None` for a set of dropped files.
    pub source: Option<FileRef>,
    /// Title line (the folder's or archive's name, or "N dropped files").
    pub title: String,
    /// Every model found, in walk order.
    pub tiles: Vec<Tile>,
    /// Entries that could not be read while listing (path, message).
    pub listing_errors: Vec<(String, String)>,
    /// Archive entries that are not read though nothing failed (path, message): a
    /// duplicate name, an ignored non-model name.
    pub listing_warnings: Vec<(String, String)>,
    /// Filter text: tiles whose relative path contains it (any case).
    pub filter: String,
    /// Only this format (or only maps), if set.
    pub format: Option<TileKind>,
    /// Group the tiles under a heading per sub-folder.
    pub group: bool,
    /// Tile width, points.
    pub tile_size: f32,
    /// Whether the gallery is on screen (else the viewer is, with the gallery kept for
    /// Page Up / Page Down and for coming back).
    pub shown: bool,
    /// The tile with the keyboard focus (index into `tiles`).
    pub selected: Option<usize>,
    /// The grid's scroll offset, points (kept while the viewer is shown).
    pub scroll: f32,
    /// Set on coming back: the next frame scrolls to `scroll`.
    pub restore_scroll: bool,
    /// Thumbnails: the worker, the textures, the progress (the window attaches it).
    pub thumbs: Option<thumbs::Thumbnails>,
    /// After a re-listing ([`Gallery::relist`]): the pictures of the tiles that are
    /// still there, for the next batch to start from.
    pub carried: Option<Carried>,
}

/// Thumbnails kept across a re-listing (files added to or removed from the gallery's
/// folder or archive while it is open).
#[derive(Default)]
pub struct Carried {
    /// The pictures of tiles still listed, by file: shown at once, not drawn again
    /// unless in `redo`.
    pub textures: std::collections::HashMap<FileRef, egui::TextureHandle>,
    /// Files to draw again even though a picture is carried (they changed too).
    pub redo: std::collections::HashSet<FileRef>,
}

impl std::fmt::Debug for Carried {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Carried")
            .field("textures", &self.textures.len())
            .field("redo", &self.redo.len())
            .finish()
    }
}

impl Gallery {
    /// A gallery of the model files and maps `walk` found under `source` (`maps`: each
    /// map's level name by its `game.map`, [`maps::level_names`]).
    fn new(
        source: Option<FileRef>,
        title: String,
        walk: crate::host::Found,
        maps: &std::collections::HashMap<FileRef, String>,
    ) -> Self {
        let tiles = walk
            .files
            .into_iter()
            .filter_map(|file| {
                let name = file.file_name();
                let (kind, name) = match maps.get(&file) {
                    Some(level) => (TileKind::Map, level.clone()),
                    None => (
                        TileKind::Model(crate::formats::format_for_name(&name)?),
                        name,
                    ),
                };
                let relative = source.as_ref().and_then(|s| file.relative_to(s));
                let folder = match (kind, relative) {
                    (TileKind::Map, Some(r)) => maps::tile_folder(&r),
                    (_, Some(r)) => r
                        .rsplit_once('/')
                        .map(|(d, _)| d.to_string())
                        .unwrap_or_default(),
                    (_, None) => match source {
                        Some(_) => String::new(),
                        None => file.parent().map(|p| p.to_string()).unwrap_or_default(),
                    },
                };
                Some(Tile {
                    file,
                    name,
                    kind,
                    folder,
                    error: None,
                })
            })
            .collect();
        Gallery {
            source,
            title,
            tiles,
            listing_errors: walk.errors,
            listing_warnings: walk.warnings,
            filter: String::new(),
            format: None,
            group: true,
            tile_size: 112.0,
            shown: true,
            selected: None,
            scroll: 0.0,
            restore_scroll: false,
            thumbs: None,
            carried: None,
        }
    }

    /// Whether the changes on disk `changed` (canonical paths, from the host's `watch`)
    /// add models to or remove models from this gallery's folder or archive: a model file
    /// that is not a tile appeared, a tile's file is gone, or the archive itself changed.
    pub fn listing_changed(
        &self,
        files: &crate::files::Files,
        watch: &dyn crate::host::Watch,
        changed: &[std::path::PathBuf],
    ) -> bool {
        let Some(source) = &self.source else {
            return false;
        };
        match source {
            // Tiles are model files: only a changed model file can add or remove one, and
            // it does when being listed and being a file on disk disagree.
            FileRef::Disk(dir) if !crate::files::is_archive_path(dir) => changed.iter().any(|p| {
                let model = p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(maps::is_listed_name);
                model && {
                    let listed = self
                        .tiles
                        .iter()
                        .any(|t| watch.touches(std::slice::from_ref(p), &t.file));
                    listed != files.is_file(&FileRef::Disk(p.clone()))
                }
            }),
            // An archive (or a folder inside one): any change to the archive file.
            _ => watch.touches(changed, source),
        }
    }

    /// Takes in a new listing of the folder or archive (`found`: models were added or
    /// removed on disk), keeping what the user set: the filter, grouping, tile size,
    /// scroll position and the selected tile (by file). The pictures of tiles still
    /// listed are carried over; those in `redo` (or every one, when the source is an
    /// archive) are drawn again. Returns false when the listing is the same.
    pub fn relist(
        &mut self,
        found: crate::host::Found,
        maps: &std::collections::HashMap<FileRef, String>,
        redo: &std::collections::HashSet<FileRef>,
    ) -> bool {
        let Some(source) = self.source.clone() else {
            return false;
        };
        let title = self.title.clone();
        let mut fresh = Gallery::new(Some(source.clone()), title, found, maps);
        if fresh
            .tiles
            .iter()
            .map(|t| &t.file)
            .eq(self.tiles.iter().map(|t| &t.file))
        {
            return false;
        }
        let redo_all = !matches!(&source, FileRef::Disk(d) if !crate::files::is_archive_path(d));
        let mut carried = Carried::default();
        let mut textures = self
            .thumbs
            .take()
            .map(|mut t| t.take_textures())
            .unwrap_or_default();
        for (i, tile) in self.tiles.iter().enumerate() {
            if let Some(tex) = textures.remove(&i) {
                carried.textures.insert(tile.file.clone(), tex);
            }
            if redo_all || redo.contains(&tile.file) {
                carried.redo.insert(tile.file.clone());
            }
        }
        let selected = self
            .selected
            .and_then(|i| self.tiles.get(i))
            .map(|t| t.file.clone());
        let old_errors: std::collections::HashMap<FileRef, String> = self
            .tiles
            .iter()
            .filter_map(|t| Some((t.file.clone(), t.error.clone()?)))
            .collect();
        for t in &mut fresh.tiles {
            if !carried.redo.contains(&t.file) {
                t.error = old_errors.get(&t.file).cloned();
            }
        }
        self.selected = selected.and_then(|f| fresh.index_of(&f));
        self.tiles = fresh.tiles;
        self.listing_errors = fresh.listing_errors;
        self.listing_warnings = fresh.listing_warnings;
        self.carried = Some(carried);
        true
    }

    /// The gallery of a folder or an archive (or a folder inside one), listed by `host`.
    pub fn of_source(host: &dyn crate::host::Host, source: FileRef) -> Self {
        let mut found = host.walk(std::slice::from_ref(&source), &maps::is_listed_name);
        maps::add_packages(&host.files(), std::slice::from_ref(&source), &mut found);
        let names = maps::level_names(&host.files(), &mut found);
        let title = source.file_name();
        Gallery::new(Some(source), title, found, &names)
    }

    /// The path shown and filtered on: relative to the source.
    pub fn label(&self, tile: &Tile) -> String {
        if tile.folder.is_empty() || self.source.is_none() {
            tile.name.clone()
        } else {
            format!("{}/{}", tile.folder, tile.name)
        }
    }

    /// Indices of the tiles that pass the filter, in the order shown (by sub-folder when
    /// grouped, keeping the walk order inside each).
    pub fn visible(&self) -> Vec<usize> {
        let needle = self.filter.trim().to_lowercase();
        let mut v: Vec<usize> = (0..self.tiles.len())
            .filter(|&i| {
                let t = &self.tiles[i];
                self.format.is_none_or(|f| f == t.kind)
                    && (needle.is_empty() || self.label(t).to_lowercase().contains(&needle))
            })
            .collect();
        if self.group {
            v.sort_by(|&a, &b| self.tiles[a].folder.cmp(&self.tiles[b].folder));
        }
        v
    }

    /// The tile showing `file`, if any.
    pub fn index_of(&self, file: &FileRef) -> Option<usize> {
        self.tiles.iter().position(|t| t.file == *file)
    }

    /// How many tiles of each format, and maps (for the format filter).
    pub fn format_counts(&self) -> Vec<(TileKind, usize)> {
        TileKind::all()
            .map(|f| (f, self.tiles.iter().filter(|t| t.kind == f).count()))
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}

/// What a gallery command reaches: the gallery, the services (listings run as jobs; the
/// toasts) and the open document (Page Up / Page Down step from it).
#[derive(Debug)]
pub struct GalleryContext<'a> {
    /// The gallery, while open.
    pub gallery: &'a mut Option<Gallery>,
    /// Files, settings, toasts and the background work.
    pub services: &'a mut Services,
    /// The open document, if any.
    pub document: Option<&'a Document>,
}

/// Carries out a gallery command; returns the follow-up commands (opening a tile or the
/// next model is the viewer's business). Listings run in the background
/// ([`crate::loading::list`]) and come back through [`listed`].
pub fn apply(ctx: GalleryContext<'_>, cmd: GalleryCommand) -> Vec<AppCommand> {
    let GalleryContext {
        gallery,
        services,
        document,
    } = ctx;
    match cmd {
        GalleryCommand::OpenSource(source) => {
            let source = super::opening::absolute(&services.files, source);
            super::loading::list(services, Some(source), Vec::new());
        }
        GalleryCommand::OpenFiles(files) => {
            let files: Vec<FileRef> = files
                .into_iter()
                .map(|f| super::opening::absolute(&services.files, f))
                .collect();
            super::loading::list(services, None, files);
        }
        GalleryCommand::OpenTile(i) => {
            let Some(g) = gallery else {
                return Vec::new();
            };
            let Some(file) = g.tiles.get(i).map(|t| t.file.clone()) else {
                return Vec::new();
            };
            g.selected = Some(i);
            return vec![AppCommand::Document(DocumentCommand::Load {
                file,
                purpose: Purpose::Tile(i),
            })];
        }
        GalleryCommand::TileOpened(i) => {
            if let Some(g) = gallery {
                g.selected = Some(i);
                g.shown = false;
            }
        }
        GalleryCommand::TileFailed(i, e) => {
            if let Some(t) = gallery.as_mut().and_then(|g| g.tiles.get_mut(i)) {
                t.error = Some(e.message.clone());
            }
            services.toasts.error(format!(
                "Could not open {}: {}",
                e.path.file_name(),
                e.message
            ));
        }
        GalleryCommand::Back => {
            if let Some(g) = gallery
                && !g.shown
            {
                g.shown = true;
                g.restore_scroll = true;
            }
        }
        GalleryCommand::Close => {
            services.work.gallery.cancel();
            *gallery = None;
        }
        GalleryCommand::Step(by) => return step(gallery, services, document, by),
        GalleryCommand::Select(i) => {
            if let Some(g) = gallery
                && i < g.tiles.len()
            {
                g.selected = Some(i);
            }
        }
    }
    Vec::new()
}

/// A listing finished: the gallery of what it found, shown (a toast when it found no
/// model). A package of one map and no model opens its map too (the gallery stays
/// behind it, for Esc): the commands that do.
pub fn listed(
    gallery: &mut Option<Gallery>,
    services: &mut Services,
    listing: crate::work::Listing,
) -> Vec<AppCommand> {
    if let Some(redo) = &listing.relist {
        // Models added or removed on disk: the open gallery takes in the new listing.
        if let Some(g) = gallery
            && g.source == listing.source
        {
            g.relist(listing.walk, &listing.maps, redo);
        }
        return Vec::new();
    }
    let g = match listing.source {
        Some(source) => {
            let title = source.file_name();
            Gallery::new(Some(source), title, listing.walk, &listing.maps)
        }
        None => {
            let title = format!("{} dropped files", listing.files.len());
            Gallery::new(None, title, listing.walk, &listing.maps)
        }
    };
    let one_map = matches!(g.tiles.as_slice(), [t] if t.kind == TileKind::Map);
    show(gallery, services, g);
    if one_map && gallery.is_some() {
        return vec![AppCommand::Gallery(GalleryCommand::OpenTile(0))];
    }
    Vec::new()
}

fn show(gallery: &mut Option<Gallery>, services: &mut Services, g: Gallery) {
    if g.tiles.is_empty() {
        let what = g.source.as_ref().map_or(g.title.clone(), |s| s.to_string());
        services
            .toasts
            .error(format!("No model files or maps found in {what}"));
        return;
    }
    if let Some(source) = &g.source
        && let Some(dir) = source.disk_file().parent()
    {
        services.settings.last_folder = Some(dir.to_path_buf());
    }
    *gallery = Some(g);
}

/// The models Page Up / Page Down step through from the open document: the gallery's, in
/// the order shown, when the document is one of them; else the model files of the
/// document's folder (or archive folder, read through `files`).
pub fn browse_list(
    gallery: Option<&Gallery>,
    document: Option<&Document>,
    files: &Files,
) -> Vec<FileRef> {
    let Some(doc) = document else {
        return Vec::new();
    };
    if let Some(g) = gallery
        && g.index_of(&doc.path).is_some()
    {
        let visible = g.visible();
        let list: Vec<FileRef> = visible.iter().map(|&i| g.tiles[i].file.clone()).collect();
        if list.contains(&doc.path) {
            return list;
        }
        return g.tiles.iter().map(|t| t.file.clone()).collect();
    }
    let Some(dir) = doc.path.parent() else {
        return Vec::new();
    };
    files
        .list(&dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|(name, _, kind)| {
            *kind == crate::files::EntryKind::File && crate::formats::is_model_name(name)
        })
        .map(|(_, f, _)| f)
        .collect()
}

fn step(
    gallery: &mut Option<Gallery>,
    services: &mut Services,
    document: Option<&Document>,
    by: i32,
) -> Vec<AppCommand> {
    let list = browse_list(gallery.as_ref(), document, &services.files);
    let Some(doc) = document else {
        return Vec::new();
    };
    let Some(at) = list.iter().position(|f| *f == doc.path) else {
        return Vec::new();
    };
    let next = at as i64 + by as i64;
    let Some(file) = usize::try_from(next)
        .ok()
        .and_then(|n| list.get(n))
        .cloned()
    else {
        services.toasts.info(if by > 0 {
            "Last model of the list"
        } else {
            "First model of the list"
        });
        return Vec::new();
    };
    if let Some(g) = gallery
        && let Some(i) = g.index_of(&file)
    {
        g.selected = Some(i);
    }
    vec![AppCommand::Document(DocumentCommand::Open(file))]
}
