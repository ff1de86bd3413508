//! Opening a `game.map` as a scene: the level found, the map read, the stats of the data
//! roots read and the objects placed once ([`open_placed`]), then the scene made of them
//! ([`load`], what [`crate::formats::load`] gives for a `game.map`). What is opened here
//! is what `vitrine check MAP` looks at too: the window makes the scene and the map's
//! findings of one [`Opened`] (`crate::check::map_check::load_checked`), so a map is read
//! and placed once per open.

use super::super::{Level, Map, MapError, Placement};
use super::{SceneOptions, scene};
use crate::files::{FileRef, Files};
use crate::model::{Location, Model};
use crate::wz::Stats;

/// A map read and placed: its level, its files' contents, the stats its objects were
/// placed with and the placement.
#[derive(Debug)]
pub struct Opened {
    /// The level the map was found as.
    pub level: Level,
    /// The map's files as read.
    pub map: Map,
    /// The stats of the data roots (empty without roots).
    pub stats: Stats,
    /// Where the game puts each object, and the ground after flattening.
    pub placed: Placement,
}

/// Opens the map whose `game.map` (or `game.js`) is `file` (its level found as `vitrine
/// info` finds it; a script-generated one run with `seed`, else the level's default) and
/// places its objects with the stats of the data roots `roots`.
///
/// # Errors
/// The map's own: a file of it that cannot be read, naming the file and offset.
pub fn open_placed(
    files: &Files,
    file: &FileRef,
    roots: &[FileRef],
    seed: Option<u32>,
) -> Result<Opened, MapError> {
    let mut level = super::super::open_source(files, file, None)?;
    level.ask_seed(seed);
    let map = super::super::open(files, &level)?;
    let (stats, _) = Stats::load(files, roots);
    let placed = super::super::place(&map, &stats, files, roots);
    Ok(Opened {
        level,
        map,
        stats,
        placed,
    })
}

impl Opened {
    /// The scene of the opened map (see [`scene`]) with the terrain `options` asks for,
    /// checked as every loader's model is.
    ///
    /// # Errors
    /// An invalid scene (an internal fault), in the file `file`.
    pub fn scene(
        &self,
        files: &Files,
        file: &FileRef,
        options: &crate::formats::LoadOptions,
    ) -> Result<Model, MapError> {
        let scene_options = SceneOptions {
            terrain: options.map_terrain,
            ..SceneOptions::default()
        };
        let roots = &options.data_roots;
        let model = scene(
            &self.map,
            &self.placed,
            &self.stats,
            files,
            roots,
            &scene_options,
        );
        model.validate().map_err(|msg| {
            crate::formats::LoadError::new(
                crate::formats::ErrorKind::Invalid,
                Location::File,
                format!("internal: the map's scene is invalid: {msg}"),
            )
            .in_file(&file.file_name())
        })?;
        Ok(model)
    }
}

/// Opens the map whose `game.map` is `file` (its level found as `vitrine info` finds
/// it), places its objects with the stats of `options`' data roots and returns its
/// scene: what [`crate::formats::load`] gives for a `game.map`, so every front-end opens
/// a map the way it opens a model. Without data roots the scene is the plain one (see
/// the module's documentation), with a warning naming the data to add.
///
/// # Errors
/// The map's own: a file of it that cannot be read, naming the file and offset.
pub fn load(
    files: &Files,
    file: &FileRef,
    options: &crate::formats::LoadOptions,
) -> Result<Model, MapError> {
    open_placed(files, file, &options.data_roots, options.map_seed)?.scene(files, file, options)
}
