//! Finding the maps of a package, a folder or an archive, and opening one.
//!
//! Where the game looks (`MapPackage::loadPackage`, `map_levparse.cpp`): a `.lev` at the
//! package root names each level and its `multiplay/maps/NAME.gam`, the map's files being
//! in `multiplay/maps/NAME/`; a 4.x package has a `level.json` at the root (or in
//! `multiplay/maps/NAME/`) beside `game.map` or, for a script-generated map, `game.js`
//! (which the game prefers when both are there).
//! Objects: JSON is tried first, then BJO (`Map::mapStructures`); 4.x never reads INI.

use super::bjo::read_bjo;
use super::ini::read_ini_objects;
use super::json::read_json_objects;
use super::level::{self, Level, Shape};
use super::read::{read_gam, read_game_map, read_terrain_types};
use super::script::{DEFAULT_SEED, run_script};
use super::terrain::Terrain;
use super::{FileFormat, Map, MapFile, MapObject, ObjectKind};
use crate::files::{EntryKind, FileRef, Files, Lookup};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// A map found in a package: its level, ready for [`open`].
pub type MapSource = Level;

fn error(file: &FileRef, kind: ErrorKind, message: impl Into<String>) -> LoadError {
    LoadError::new(kind, Location::File, message).in_file(&file.to_string())
}

fn read(files: &Files, file: &FileRef) -> Result<Vec<u8>, LoadError> {
    files
        .read(file)
        .map_err(|e| error(file, ErrorKind::Io, format!("cannot read: {e}")))
}

/// Every map `at` holds: a `game.map` file, a `.gam`, a map folder, or a package (an
/// archive's root or a folder with `.lev` / `level.json` files) — one [`Level`] each.
pub fn find_maps(files: &Files, at: &FileRef) -> Result<Vec<Level>, LoadError> {
    let mut lookup = Lookup::new(files);
    let folder = match files.kind(at) {
        Some(EntryKind::File) => {
            let name = at.file_name().to_ascii_lowercase();
            if name == "game.map" || name == "game.js" {
                at.parent()
                    .ok_or_else(|| error(at, ErrorKind::Missing, "no folder"))?
            } else if let Some(stem) = name.strip_suffix(".gam") {
                let stem = &at.file_name()[..stem.len()];
                at.parent()
                    .map(|p| p.join(stem))
                    .ok_or_else(|| error(at, ErrorKind::Missing, "no folder"))?
            } else {
                return Err(error(at, ErrorKind::Unsupported, "not a map"));
            }
        }
        Some(EntryKind::Dir) => at.clone(),
        None => return Err(error(at, ErrorKind::Io, "no such file or folder")),
    };
    if is_map_folder(&mut lookup, &folder) {
        let root = package_root(&folder);
        let mut levels = levels_in(&mut lookup, &root)?;
        levels.retain(|l| l.folder == folder);
        if levels.is_empty() {
            levels.push(bare_level(&mut lookup, &folder));
        }
        return Ok(levels);
    }
    let levels = levels_in(&mut lookup, &folder)?;
    if levels.is_empty() {
        return Err(error(
            at,
            ErrorKind::Missing,
            "no map here: no game.map, game.js, .lev or level.json",
        ));
    }
    Ok(levels)
}

/// Whether `dir` holds a map's own files.
fn is_map_folder(lookup: &mut Lookup, dir: &FileRef) -> bool {
    ["game.map", "game.js"]
        .iter()
        .any(|n| matches!(lookup.child(dir, n), Some((_, EntryKind::File))))
}

/// The root a `multiplay/maps/NAME` folder's `.lev` would be at: two folders up, or the
/// folder itself.
fn package_root(folder: &FileRef) -> FileRef {
    let up = |f: &FileRef| f.parent();
    let maps = up(folder);
    match (&maps, maps.as_ref().and_then(up)) {
        (Some(m), Some(mp))
            if m.file_name().eq_ignore_ascii_case("maps")
                && mp.file_name().eq_ignore_ascii_case("multiplay") =>
        {
            mp.parent().unwrap_or(mp)
        }
        _ => folder.clone(),
    }
}

/// The levels a package root defines: each `.lev` level with a `game`, then a root
/// `level.json`, then each `multiplay/maps/*/level.json`.
fn levels_in(lookup: &mut Lookup, root: &FileRef) -> Result<Vec<Level>, LoadError> {
    let mut out = Vec::new();
    let listing: Vec<(String, FileRef, EntryKind)> = lookup.listing(root).to_vec();
    for (name, file, kind) in &listing {
        if *kind == EntryKind::File && name.ends_with(".lev") {
            out.extend(lev_levels(lookup, root, file)?);
        }
    }
    if let Some((file, EntryKind::File)) = lookup.child(root, "level.json") {
        out.push(json_level(lookup, root.clone(), &file)?);
    }
    let maps = lookup.walk(root, &["multiplay", "maps"]).or_else(|| {
        let m = root.join("multiplay").join("maps");
        (lookup.files().kind(&m) == Some(EntryKind::Dir)).then_some(m)
    });
    if let Some(maps) = maps {
        let dirs: Vec<FileRef> = lookup
            .listing(&maps)
            .iter()
            .filter(|(_, _, k)| *k == EntryKind::Dir)
            .map(|(_, r, _)| r.clone())
            .collect();
        for dir in dirs {
            if out.iter().any(|l: &Level| l.folder == dir) {
                continue;
            }
            if let Some((file, EntryKind::File)) = lookup.child(&dir, "level.json") {
                out.push(json_level(lookup, dir, &file)?);
            }
        }
    }
    Ok(out)
}

fn lev_levels(lookup: &mut Lookup, root: &FileRef, lev: &FileRef) -> Result<Vec<Level>, LoadError> {
    let bytes = read(lookup.files(), lev)?;
    let text = String::from_utf8_lossy(&bytes);
    let entries = level::parse_lev(&text).map_err(|e| e.in_file(&lev.to_string()))?;
    let mut out = Vec::new();
    for e in entries {
        let Some(game) = e.game.as_deref() else {
            continue;
        };
        let parts: Vec<&str> = game.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
        let Some((last, dirs)) = parts.split_last() else {
            continue;
        };
        let stem = last.strip_suffix(".gam").unwrap_or(last);
        let mut folder = root.clone();
        for d in dirs {
            folder = lookup
                .child(&folder, d)
                .map_or_else(|| folder.join(d), |(r, _)| r);
        }
        let gam = lookup.child(&folder, last).map(|(r, _)| r);
        let folder = lookup
            .child(&folder, stem)
            .map_or_else(|| folder.join(stem), |(r, _)| r);
        let tileset = e.dataset.as_deref().and_then(level::dataset_tileset);
        let shape = if matches!(lookup.child(&folder, "game.js"), Some((_, EntryKind::File))) {
            Shape::Script
        } else {
            Shape::Classic
        };
        out.push(Level {
            name: e.name,
            players: e.players,
            tileset: tileset.unwrap_or_default(),
            tileset_from: match (&e.dataset, tileset) {
                (Some(d), Some(_)) => format!("dataset {d} in {}", lev.file_name()),
                (Some(d), None) => format!("unknown dataset {d}: Arizona, the game's fallback"),
                (None, _) => "no dataset: Arizona, the game's fallback".into(),
            },
            tileset_unknown: match (&e.dataset, tileset) {
                (Some(d), None) => Some(d.clone()),
                _ => None,
            },
            folder,
            gam,
            defined_in: Some(lev.clone()),
            shape,
            seed: DEFAULT_SEED,
        });
    }
    Ok(out)
}

fn json_level(lookup: &mut Lookup, folder: FileRef, file: &FileRef) -> Result<Level, LoadError> {
    let bytes = read(lookup.files(), file)?;
    let level::LevelJson {
        name,
        players,
        tileset,
        tileset_unknown,
    } = level::parse_level_json(&bytes).map_err(|e| e.in_file(&file.to_string()))?;
    let script = matches!(lookup.child(&folder, "game.js"), Some((_, EntryKind::File)));
    Ok(Level {
        name: name.unwrap_or_else(|| folder.file_name()),
        players,
        tileset: tileset.unwrap_or_default(),
        tileset_from: match tileset {
            Some(t) => format!("\"tileset\": \"{t}\" in level.json"),
            None => "no tileset in level.json: Arizona, the game's fallback".into(),
        },
        tileset_unknown,
        folder,
        gam: None,
        defined_in: Some(file.clone()),
        shape: if script {
            Shape::Script
        } else {
            Shape::LevelJson
        },
        seed: DEFAULT_SEED,
    })
}

fn bare_level(lookup: &mut Lookup, folder: &FileRef) -> Level {
    let name = folder.file_name();
    let gam = folder
        .parent()
        .and_then(|p| lookup.child(&p, &format!("{name}.gam")).map(|(r, _)| r));
    Level {
        players: level::players_from_name(&name),
        name,
        tileset: Default::default(),
        tileset_from: "no .lev or level.json names this map: Arizona, the game's fallback".into(),
        tileset_unknown: None,
        folder: folder.clone(),
        gam,
        defined_in: None,
        shape: Shape::Folder,
        seed: DEFAULT_SEED,
    }
}

/// Finds the one map at `at` (see [`find_maps`]), or the one named `level` among several.
pub fn open_source(files: &Files, at: &FileRef, level: Option<&str>) -> Result<Level, LoadError> {
    let mut levels = find_maps(files, at)?;
    if let Some(want) = level {
        let names: Vec<String> = levels.iter().map(|l| l.name.clone()).collect();
        return levels
            .into_iter()
            .find(|l| {
                l.name.eq_ignore_ascii_case(want) || l.folder.file_name().eq_ignore_ascii_case(want)
            })
            .ok_or_else(|| {
                error(
                    at,
                    ErrorKind::Missing,
                    format!("no level {want:?}; it has: {}", names.join(", ")),
                )
            });
    }
    match levels.len() {
        1 => Ok(levels.remove(0)),
        n => Err(error(
            at,
            ErrorKind::Invalid,
            format!(
                "{n} maps here; name one (e.g. {}): {}",
                levels.first().map_or(String::new(), |l| l.name.clone()),
                levels
                    .iter()
                    .map(|l| l.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// Reads the map of `level`: `game.map` (or, for a script-generated map, what running
/// `game.js` with `level.seed` gives), `ttypes.ttp`, the `.gam` and the objects the game
/// reads (JSON, else BJO; INI only listed).
pub fn open(files: &Files, level: &Level) -> Result<Map, LoadError> {
    let mut lookup = Lookup::new(files);
    let folder = &level.folder;
    // The game tries `game.js` first (`Map::loadFromPath`).
    let mut map = match lookup.child(folder, "game.js") {
        Some((js, EntryKind::File)) => script_map(files, level, &js)?,
        _ => match lookup.child(folder, "game.map") {
            Some((map_file, _)) => binary_map(files, level, &map_file)?,
            None => {
                return Err(error(
                    folder,
                    ErrorKind::Missing,
                    "no game.map or game.js in the map's folder",
                ));
            }
        },
    };
    if let Some((ttp, _)) = lookup.child(folder, "ttypes.ttp") {
        let bytes = read(files, &ttp)?;
        let (types, version) =
            read_terrain_types(&bytes).map_err(|e| e.in_file(&ttp.to_string()))?;
        map.files.push(MapFile {
            name: "ttypes.ttp".into(),
            format: FileFormat::TerrainTypes,
            version,
            records: types.len(),
            used: true,
        });
        map.terrain_types = types;
    }
    if let Some(gam) = &level.gam {
        let bytes = read(files, gam)?;
        let (limits, version) = read_gam(&bytes).map_err(|e| e.in_file(&gam.to_string()))?;
        map.scroll_limits = Some(limits);
        map.files.push(MapFile {
            name: gam.file_name(),
            format: FileFormat::Gam,
            version,
            records: 1,
            used: true,
        });
    }
    if !map.files.iter().any(|f| f.format == FileFormat::Script) {
        for kind in ObjectKind::ALL {
            read_objects(&mut lookup, &mut map, kind)?;
        }
    }
    Ok(map)
}

/// The map of `game.map`, objects still to read.
fn binary_map(files: &Files, level: &Level, map_file: &FileRef) -> Result<Map, LoadError> {
    let bytes = read(files, map_file)?;
    let (terrain, trailing) =
        read_game_map(&bytes).map_err(|e| e.in_file(&map_file.to_string()))?;
    let mut map = Map {
        level: level.clone(),
        files: vec![MapFile {
            name: "game.map".into(),
            format: FileFormat::GameMap,
            version: terrain.version,
            records: terrain.heights.len(),
            used: true,
        }],
        terrain,
        terrain_types: Vec::new(),
        objects: Vec::new(),
        notes: Vec::new(),
        scroll_limits: None,
    };
    if trailing > 0 {
        map.notes.push(format!(
            "game.map: {trailing} bytes after the gateways (old zone data), ignored as the game ignores them"
        ));
    }
    Ok(map)
}

/// The map `game.js` builds: terrain and objects from `setMapData` (the game reads no
/// object files beside a script).
fn script_map(files: &Files, level: &Level, js: &FileRef) -> Result<Map, LoadError> {
    let bytes = read(files, js)?;
    let out = run_script(&bytes, level.seed, level.players.unwrap_or(0))
        .map_err(|e| e.with_rule("map/script-refused").in_file(&js.to_string()))?;
    let mut notes = vec![format!("game.js run with seed {}", level.seed)];
    notes.extend(out.notes);
    Ok(Map {
        level: level.clone(),
        files: vec![MapFile {
            name: "game.js".into(),
            format: FileFormat::Script,
            version: 0,
            records: out.objects.len(),
            used: true,
        }],
        terrain: Terrain {
            width: out.width,
            height: out.height,
            heights: out.heights,
            textures: out.textures,
            gateways: Vec::new(),
            version: 0,
        },
        terrain_types: Vec::new(),
        objects: out.objects,
        notes,
        scroll_limits: None,
    })
}

/// The file names of one kind's objects: JSON, BJO, INI.
fn object_files(kind: ObjectKind) -> [&'static str; 3] {
    match kind {
        ObjectKind::Structure => ["struct.json", "struct.bjo", "struct.ini"],
        ObjectKind::Feature => ["feature.json", "feat.bjo", "feature.ini"],
        ObjectKind::Droid => ["droid.json", "dinit.bjo", "droid.ini"],
    }
}

fn read_objects(lookup: &mut Lookup, map: &mut Map, kind: ObjectKind) -> Result<(), LoadError> {
    let folder = map.level.folder.clone();
    let max_players = map.level.players.unwrap_or(0);
    let mut used = false;
    for (i, name) in object_files(kind).iter().enumerate() {
        let Some((file, EntryKind::File)) = lookup.child(&folder, name) else {
            continue;
        };
        let bytes = read(lookup.files(), &file)?;
        let shown = file.to_string();
        let (objects, format, version): (Vec<MapObject>, FileFormat, u32) = match i {
            0 => {
                let (o, v) = read_json_objects(&bytes, kind).map_err(|e| e.in_file(&shown))?;
                let f = if v == 2 {
                    FileFormat::JsonV2
                } else {
                    FileFormat::JsonV1
                };
                (o, f, v)
            }
            1 => {
                let (o, v) = read_bjo(&bytes, kind, max_players).map_err(|e| e.in_file(&shown))?;
                (o, FileFormat::Bjo, v)
            }
            _ => {
                let o = read_ini_objects(&bytes, kind).map_err(|e| e.in_file(&shown))?;
                (o, FileFormat::Ini, 0)
            }
        };
        let use_it = !used && i < 2;
        if i == 2 {
            map.notes.push(format!(
                "{name}: INI objects are not read by the game (4.x reads {}, then {})",
                object_files(kind)[0],
                object_files(kind)[1]
            ));
        } else if !use_it {
            map.notes.push(format!(
                "{name}: not used; the game reads {} first",
                object_files(kind)[0]
            ));
        }
        map.files.push(MapFile {
            name: name.to_string(),
            format,
            version,
            records: objects.len(),
            used: use_it,
        });
        if use_it {
            map.objects.extend(objects);
            used = true;
        }
    }
    Ok(())
}
