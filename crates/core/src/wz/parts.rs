//! Finding and loading the part files the stats name.
//!
//! The game's `modelGet()` (imd.cpp) lower-cases a model name and tries these folders in
//! order, each through the whole search path (a mod before `mp` before `base`): folder
//! first, then layer. The same order is used here, matching case-insensitively.

use crate::files::{FileRef, Files, Lookup};
use crate::formats::{self, LoadError, LoadOptions};
use crate::model::Model;
use std::collections::HashMap;
use std::sync::Arc;

/// Where Warzone 2100 keeps models, in the order the game searches them (one list, shared
/// with the loader's event-model lookup).
pub(crate) use crate::formats::resolve::WZ_MODEL_DIRS as MODEL_DIRS;

/// Finds model files by name through a stack of data roots, caching folder listings.
#[derive(Debug)]
pub struct PartFinder {
    roots: Vec<FileRef>,
    lookup: Lookup,
    tileset: crate::formats::pie::Tileset,
    loaded: HashMap<String, Result<(FileRef, Arc<Model>), String>>,
}

impl PartFinder {
    /// A finder over `roots` (first wins), reading from `files`.
    pub fn new(files: &Files, roots: &[FileRef]) -> Self {
        PartFinder {
            roots: roots.to_vec(),
            lookup: Lookup::new(files),
            tileset: crate::formats::pie::Tileset::default(),
            loaded: HashMap::new(),
        }
    }

    /// The same finder drawing parts for `tileset` (their PIE 4 `TEXTURE` lines and the
    /// pages the game's rules script swaps), as a map of that tileset shows them.
    pub fn with_tileset(mut self, tileset: crate::formats::pie::Tileset) -> Self {
        self.tileset = tileset;
        self.loaded.clear();
        self
    }

    /// The data roots searched.
    pub fn roots(&self) -> &[FileRef] {
        &self.roots
    }

    /// The file named `name` (any case; any folder part of `name` is ignored, as the game
    /// does), or `None`.
    pub fn find(&mut self, name: &str) -> Option<FileRef> {
        let bare = name.rsplit(['/', '\\']).next()?.trim();
        if bare.is_empty() {
            return None;
        }
        for dir in MODEL_DIRS {
            let mut components: Vec<&str> = dir.split('/').collect();
            components.push(bare);
            for root in &self.roots {
                if let Some(f) = self.lookup.walk(root, &components) {
                    return Some(f);
                }
            }
        }
        None
    }

    /// Whether a read asked for bytes that have not arrived yet (a remote archive read a
    /// piece at a time): what was loaded meanwhile is not the whole story.
    pub fn pending(&self) -> bool {
        self.lookup.files().wanting()
    }

    /// Finds and loads the part `name` once (later calls share the loaded model); the
    /// error says whether the file is missing or what is wrong in it.
    pub fn load(&mut self, name: &str) -> Result<(FileRef, Arc<Model>), String> {
        let key = name.to_ascii_lowercase();
        if let Some(r) = self.loaded.get(&key) {
            return r.clone();
        }
        let r = match self.find(name) {
            None => Err(format!(
                "{name} not found in the data roots ({})",
                MODEL_DIRS.join(", ")
            )),
            Some(f) => load_part(self.lookup.files(), &f, &self.roots, self.tileset)
                .map(|m| (f, Arc::new(m)))
                .map_err(|e| e.to_string()),
        };
        // A part whose bytes are on their way (a remote archive) is read again next time.
        if r.is_ok() || !self.lookup.files().wanting() {
            self.loaded.insert(key, r.clone());
        }
        r
    }
}

/// Loads one part file; its textures and event models resolve against the data roots
/// (so a part inside `mp.wz` finds its texture pages in `base`).
pub(crate) fn load_part(
    files: &Files,
    file: &FileRef,
    roots: &[FileRef],
    tileset: crate::formats::pie::Tileset,
) -> Result<Model, LoadError> {
    let options = LoadOptions {
        data_roots: roots.to_vec(),
        tileset,
        ..LoadOptions::default()
    };
    formats::load(files, file, &options)
}
