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
use super::script::{DEFAULT_SEED, run_script, script_too_large};
use super::terrain::Terrain;
use super::{FileFormat, Map, MapFile, MapObject, ObjectKind};
use crate::files::{EntryKind, FileRef, Files, Lookup};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// A map found in a package: its level, ready for [`open`].
pub type MapSource = Level;

/// The `type` of a skirmish level at tech level 1 (`SKIRMISH`), the lobby's default
/// (`game.techLevel = 1`).
const SKIRMISH_T1: u32 = 14;

/// How deep [`survey`] looks for map packages below a folder that is none itself (a
/// downloaded collection: `maps/*.wz`, `maps-2p/maps/NAME/`).
const COLLECTION_DEPTH: usize = 2;

fn error(file: &FileRef, kind: ErrorKind, message: impl Into<String>) -> LoadError {
    LoadError::new(kind, Location::File, message).in_file(&file.to_string())
}

fn read(files: &Files, file: &FileRef) -> Result<Vec<u8>, LoadError> {
    files
        .read(file)
        .map_err(|e| error(file, ErrorKind::Io, format!("cannot read: {e}")))
}

/// What a package, folder or archive holds: each map once, and why a level it defines
/// could not be taken.
#[derive(Debug, Clone, Default)]
pub struct Survey {
    /// The maps, in the order the package (or the collection's sorted listing) gives
    /// them; a map several levels name is one map, its level the one the skirmish list
    /// shows ([`Level::levels`]).
    pub maps: Vec<Level>,
    /// Each level or package that was left out or is odd (a `.lev` line naming a map
    /// the package does not hold or a path that leaves it, a `level.json` key missing or
    /// of the wrong type, a package that does not open), naming its file and line, with
    /// its `vitrine check` rule. The other maps are unaffected.
    pub problems: Vec<LoadError>,
}

/// Every map `at` holds, each once ([`survey`]); an error where it holds none (the first
/// problem found, or "no map here").
pub fn find_maps(files: &Files, at: &FileRef) -> Result<Vec<Level>, LoadError> {
    find_maps_taking(files, at, None)
}

/// [`find_maps`], taking of the levels over one map the one named `level` where one is
/// (`NTW_Water_4v4-T3`: its `.gam` and dataset), else the one the lobby shows.
fn find_maps_taking(
    files: &Files,
    at: &FileRef,
    level: Option<&str>,
) -> Result<Vec<Level>, LoadError> {
    let mut s = Survey::default();
    survey_into(files, at, COLLECTION_DEPTH, level, &mut s)?;
    match (s.maps.is_empty(), s.problems.into_iter().find(is_refusal)) {
        (false, _) => Ok(s.maps),
        (true, Some(p)) => Err(p),
        (true, None) => Err(no_map(at)),
    }
}

/// Whether a problem leaves something out (not a note).
fn is_refusal(p: &LoadError) -> bool {
    p.rule != Some("map/gam-missing")
}

fn no_map(at: &FileRef) -> LoadError {
    error(
        at,
        ErrorKind::Missing,
        "no map here: no game.map, game.js, .lev or level.json, nor map packages in it",
    )
}

/// The maps `at` holds: a `game.map` or `game.js` file, a `.gam`, a map folder, a package
/// (an archive's root or a folder with `.lev` / `level.json` files), or a folder of
/// packages (`.wz`/`.zip` archives and package folders, `COLLECTION_DEPTH` deep).
///
/// # Errors
/// `at` does not exist or is a file that is no map; a folder that holds no map and no
/// problem either.
pub fn survey(files: &Files, at: &FileRef) -> Result<Survey, LoadError> {
    let mut out = Survey::default();
    survey_into(files, at, COLLECTION_DEPTH, None, &mut out)?;
    if out.maps.is_empty() && out.problems.is_empty() {
        return Err(no_map(at));
    }
    Ok(out)
}

fn survey_into(
    files: &Files,
    at: &FileRef,
    depth: usize,
    want: Option<&str>,
    out: &mut Survey,
) -> Result<(), LoadError> {
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
            } else if let (Some(path), true) = (at.as_disk(), is_archive_name(&name)) {
                return survey_into(files, &FileRef::archive_root(path), depth, want, out);
            } else {
                return Err(error(at, ErrorKind::Unsupported, "not a map"));
            }
        }
        Some(EntryKind::Dir) => at.clone(),
        None => return Err(error(at, ErrorKind::Io, "no such file or folder")),
    };
    if is_map_folder(&mut lookup, &folder) {
        let root = package_root(&folder);
        let mut found = levels_in(&mut lookup, &root, &mut out.problems);
        found.retain(|c| c.level.folder == folder);
        if found.is_empty() {
            out.maps.push(bare_level(&mut lookup, &folder));
        } else {
            out.maps.extend(one_per_map(found, want));
        }
        return Ok(());
    }
    let found = levels_in(&mut lookup, &folder, &mut out.problems);
    if !found.is_empty() {
        out.maps.extend(one_per_map(found, want));
        return Ok(());
    }
    if depth > 0 {
        collection(files, &folder, depth - 1, want, out);
    }
    Ok(())
}

fn is_archive_name(lower: &str) -> bool {
    lower.ends_with(".wz") || lower.ends_with(".zip")
}

/// The maps of the packages in `dir`, a folder of them: each archive on disk, each
/// sub-folder (a package, or another level of the collection); an archive that does not
/// open is a problem, never the end of the others; a folder or archive with no map in it
/// is not one of the collection's.
fn collection(files: &Files, dir: &FileRef, depth: usize, want: Option<&str>, out: &mut Survey) {
    let Ok(listing) = files.list(dir) else {
        return;
    };
    for (name, child, kind) in listing {
        let at = match (kind, child.as_disk()) {
            (EntryKind::File, Some(p)) if is_archive_name(&name.to_ascii_lowercase()) => {
                if let Err(e) = files.archive(p) {
                    out.problems.push(
                        error(
                            &child,
                            ErrorKind::Io,
                            format!("not a readable archive: {e}"),
                        )
                        .with_rule("map/level-refused"),
                    );
                    continue;
                }
                FileRef::archive_root(p)
            }
            (EntryKind::Dir, _) => child,
            _ => continue,
        };
        let _no_map_in_it = survey_into(files, &at, depth, want, out);
    }
}

/// Whether `dir` defines levels as a package root does: a `.lev` or `level.json` at its
/// root, or a 4.x map folder's `multiplay/maps/NAME/level.json` (any case): where
/// [`survey`] reads levels from.
pub fn defines_levels(files: &Files, dir: &FileRef) -> bool {
    let mut lookup = Lookup::new(files);
    let at_root = lookup.listing(dir).iter().any(|(n, _, k)| {
        let n = n.to_ascii_lowercase();
        *k == EntryKind::File && (n.ends_with(".lev") || n == "level.json")
    });
    if at_root {
        return true;
    }
    let Some(maps) = maps_folder(&mut lookup, dir) else {
        return false;
    };
    let folders: Vec<FileRef> = lookup
        .listing(&maps)
        .iter()
        .filter(|(_, _, k)| *k == EntryKind::Dir)
        .map(|(_, f, _)| f.clone())
        .collect();
    folders
        .iter()
        .any(|f| matches!(lookup.child(f, "level.json"), Some((_, EntryKind::File))))
}

/// The `multiplay/maps` folder of a package root (any case).
fn maps_folder(lookup: &mut Lookup, root: &FileRef) -> Option<FileRef> {
    let Some((multiplay, EntryKind::Dir)) = lookup.child(root, "multiplay") else {
        return None;
    };
    match lookup.child(&multiplay, "maps") {
        Some((maps, EntryKind::Dir)) => Some(maps),
        _ => None,
    }
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

/// A level a package defines, before the levels over one map become one.
struct Candidate {
    level: Level,
    /// The `.lev` `type`; a `level.json` level is a skirmish level at tech level 1.
    kind: Option<u32>,
}

/// One [`Level`] per map folder, in the order of each folder's first level: of the
/// levels over one map, the one the 4.x skirmish list shows (see [`lobby_pick`]), named
/// as the list names it, with every level's name in [`Level::levels`]; the level named
/// `want` (any case) where a group holds it.
fn one_per_map(found: Vec<Candidate>, want: Option<&str>) -> Vec<Level> {
    let mut groups: Vec<Vec<Candidate>> = Vec::new();
    for c in found {
        match groups
            .iter_mut()
            .find(|g| g[0].level.folder == c.level.folder)
        {
            Some(g) => g.push(c),
            None => groups.push(vec![c]),
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let all: Vec<String> = g.iter().map(|c| c.level.name.clone()).collect();
            let asked =
                want.and_then(|w| g.iter().position(|c| c.level.name.eq_ignore_ascii_case(w)));
            let pick = asked.unwrap_or_else(|| lobby_pick(&g));
            let mut level = g
                .into_iter()
                .nth(pick)
                .map(|c| c.level)
                .unwrap_or_else(|| unreachable!("a group has at least one level"));
            let taken = std::mem::take(&mut level.name);
            level.name = level::map_name(&taken).to_string();
            if level.name.is_empty() {
                level.name = taken.clone();
            }
            level.levels = level::Levels {
                taken,
                all,
                asked: asked.is_some(),
            };
            level
        })
        .collect()
}

/// Which of the levels over one map the 4.x skirmish list shows: the first of
/// `type` 14 (a skirmish level at tech level 1, the lobby's default `game.techLevel`),
/// else the first. `enumerateMultiMaps` (the game's `src/levels.cpp`) lists the levels
/// whose type matches the tech level, then adds each other level only where no level
/// of the same name without its `-Tn` suffix (`mapNameWithoutTechlevel`) is listed; the
/// list shows that name. wzmaplib's `loadLevelDetails_LEV` (`MapPackage::loadPackage`,
/// what later games and `maptools` read a package with) takes the first valid level of
/// a `.lev` whose levels all name one map, its name trimmed the same way; FlaME writes
/// that one first, with type 14, so both take the same level.
fn lobby_pick(levels: &[Candidate]) -> usize {
    levels
        .iter()
        .position(|c| c.kind == Some(SKIRMISH_T1))
        .unwrap_or(0)
}

/// The levels a package root defines: each `.lev` level with a `game`, then a root
/// `level.json`, then each `multiplay/maps/*/level.json`; what cannot be taken goes to
/// `problems`.
fn levels_in(lookup: &mut Lookup, root: &FileRef, problems: &mut Vec<LoadError>) -> Vec<Candidate> {
    let mut out = Vec::new();
    let listing: Vec<(String, FileRef, EntryKind)> = lookup.listing(root).to_vec();
    for (name, file, kind) in &listing {
        if *kind == EntryKind::File && name.to_ascii_lowercase().ends_with(".lev") {
            out.extend(lev_levels(lookup, root, file, problems));
        }
    }
    if let Some((file, EntryKind::File)) = lookup.child(root, "level.json") {
        out.extend(json_level(lookup, root.clone(), &file, problems));
    }
    if let Some(maps) = maps_folder(lookup, root) {
        let dirs: Vec<FileRef> = lookup
            .listing(&maps)
            .iter()
            .filter(|(_, _, k)| *k == EntryKind::Dir)
            .map(|(_, r, _)| r.clone())
            .collect();
        for dir in dirs {
            if out.iter().any(|c: &Candidate| c.level.folder == dir) {
                continue;
            }
            if let Some((file, EntryKind::File)) = lookup.child(&dir, "level.json") {
                out.extend(json_level(lookup, dir, &file, problems));
            }
        }
    }
    out
}

/// The levels of one `.lev` file that name a map the package holds; every other level
/// with a `game` is a problem at its line.
fn lev_levels(
    lookup: &mut Lookup,
    root: &FileRef,
    lev: &FileRef,
    problems: &mut Vec<LoadError>,
) -> Vec<Candidate> {
    let shown = lev.to_string();
    let bytes = match read(lookup.files(), lev) {
        Ok(b) => b,
        Err(e) => {
            problems.push(e.with_rule("map/level-refused"));
            return Vec::new();
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let (entries, too_many) = level::parse_lev(&text);
    problems.extend(too_many.map(|e| e.in_file(&shown)));
    let mut out = Vec::new();
    for e in entries {
        let Some(game) = e.game.as_deref() else {
            continue;
        };
        if let Some(why) = e.refused {
            problems.push(why.in_file(&shown));
            continue;
        }
        let refuse = |why: String| {
            LoadError::new(ErrorKind::Invalid, Location::Line(e.game_line), why)
                .with_rule("map/level-refused")
                .in_file(&shown)
        };
        let parts: Vec<&str> = game
            .split(['/', '\\'])
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        if parts.iter().any(|p| *p == ".." || p.contains(':')) {
            problems.push(refuse(format!(
                "level {:?}: game {game:?} leaves the package; refused (a level reads only \
                 its own package's files)",
                e.name
            )));
            continue;
        }
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
        if !is_map_folder(lookup, &folder) {
            let in_package = folder
                .relative_to(root)
                .unwrap_or_else(|| folder.to_string());
            problems.push(refuse(format!(
                "level {:?}: game {game:?} names a map this package does not hold (no \
                 {in_package}/game.map or game.js; a map of another package?); left out",
                e.name
            )));
            continue;
        }
        if gam.is_none() {
            problems.push(
                LoadError::new(
                    ErrorKind::Missing,
                    Location::Line(e.game_line),
                    format!(
                        "level {:?}: {game:?} is not in the package; the map opens without \
                         its scroll limits (the whole map)",
                        e.name
                    ),
                )
                .with_rule("map/gam-missing")
                .in_file(&shown),
            );
        }
        let tileset = e.dataset.as_deref().and_then(level::dataset_tileset);
        let shape = if matches!(lookup.child(&folder, "game.js"), Some((_, EntryKind::File))) {
            Shape::Script
        } else {
            Shape::Classic
        };
        out.push(Candidate {
            kind: e.kind,
            level: Level {
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
                levels: Default::default(),
            },
        });
    }
    out
}

/// The level a `level.json` defines (its problems, each at its key's line, go to
/// `problems`); none where it is not a JSON object or its folder holds no map.
fn json_level(
    lookup: &mut Lookup,
    folder: FileRef,
    file: &FileRef,
    problems: &mut Vec<LoadError>,
) -> Option<Candidate> {
    let shown = file.to_string();
    let parsed = read(lookup.files(), file)
        .and_then(|bytes| level::parse_level_json(&bytes).map_err(|e| e.in_file(&shown)));
    let (json, found) = match parsed {
        Ok(p) => p,
        Err(e) => {
            problems.push(e);
            return None;
        }
    };
    problems.extend(found.into_iter().map(|e| e.in_file(&shown)));
    if !is_map_folder(lookup, &folder) {
        problems.push(
            LoadError::new(
                ErrorKind::Missing,
                Location::File,
                format!(
                    "no game.map or game.js beside it in {}; left out",
                    folder.file_name()
                ),
            )
            .with_rule("map/level-refused")
            .in_file(&shown),
        );
        return None;
    }
    let level::LevelJson {
        name,
        players,
        tileset,
        tileset_unknown,
    } = json;
    let script = matches!(lookup.child(&folder, "game.js"), Some((_, EntryKind::File)));
    Some(Candidate {
        kind: Some(SKIRMISH_T1),
        level: Level {
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
            levels: Default::default(),
        },
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
        levels: Default::default(),
    }
}

/// Whether `level` answers to `want` (any case): the map's name, one of its levels'
/// names, or its folder's name.
pub fn answers_to(level: &Level, want: &str) -> bool {
    level.name.eq_ignore_ascii_case(want)
        || level
            .levels
            .all
            .iter()
            .any(|l| l.eq_ignore_ascii_case(want))
        || level.folder.file_name().eq_ignore_ascii_case(want)
}

/// The maps of `maps` as a list for a message: `A (levels A-T1, A-T2, A-T3), B`.
pub fn list_maps(maps: &[Level]) -> String {
    maps.iter()
        .map(|l| {
            if l.levels.all.len() > 1 {
                format!("{} (levels {})", l.name, l.levels.all.join(", "))
            } else {
                l.name.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Finds the one map at `at` (see [`survey`]), or the one named `level` (a map's name or
/// any of its levels' names, any case) among several.
///
/// # Errors
/// No map there; no map answers to `level` (the maps are listed); several maps and no
/// `level` (they are listed).
pub fn open_source(files: &Files, at: &FileRef, level: Option<&str>) -> Result<Level, LoadError> {
    let mut maps = find_maps_taking(files, at, level)?;
    if let Some(want) = level {
        let listed = list_maps(&maps);
        return maps
            .into_iter()
            .find(|l| answers_to(l, want))
            .ok_or_else(|| {
                error(
                    at,
                    ErrorKind::Missing,
                    format!("no map or level {want:?} here; its maps: {listed}"),
                )
            });
    }
    match maps.len() {
        1 => Ok(maps.remove(0)),
        n => Err(error(
            at,
            ErrorKind::Invalid,
            format!(
                "{n} maps here; name one with --level (e.g. {}), or draw them all with \
                 `vitrine render --all-maps`: {}",
                maps.first().map_or(String::new(), |l| l.name.clone()),
                list_maps(&maps)
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
            broken: None,
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
            broken: None,
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
            broken: None,
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
    // A script too large to run is not read (its bytes could be most of the package).
    if let Some(e) = files.size(js).ok().and_then(script_too_large) {
        return Err(e.with_rule("map/script-refused").in_file(&js.to_string()));
    }
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
            broken: None,
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

/// Past this many bytes, an object file the game never opens (a BJO beside a JSON it
/// reads, any INI) is listed without being read: a hostile package's 150 MB `struct.ini`
/// cost 15 s and 1.4 GB to parse for a note, and the game does not even open it. The
/// largest real object files are far smaller (8c-concreteplayground's `struct.json`: 142 KB).
pub(super) const UNREAD_LOOK_BYTES: u64 = 4 << 20;

/// One kind's objects as the game reads them (`Map::mapStructures` in wzmaplib): the JSON
/// file, else (missing, unreadable or broken) the BJO; the INI (3.x) never. A file the
/// game does not open cannot make the map fail: it is listed, looked into where it is
/// small ([`UNREAD_LOOK_BYTES`]), and a note says what it is. The error of the file used,
/// or of the JSON where no file could be used.
fn read_objects(lookup: &mut Lookup, map: &mut Map, kind: ObjectKind) -> Result<(), LoadError> {
    let folder = map.level.folder.clone();
    let max_players = map.level.players.unwrap_or(0);
    let names = object_files(kind);
    let mut used = false;
    let mut first_error: Option<LoadError> = None;
    for (i, name) in names.iter().enumerate() {
        let Some((file, EntryKind::File)) = lookup.child(&folder, name) else {
            continue;
        };
        let tried = !used && i < 2;
        let read = if tried {
            Some(read_object_file(
                lookup.files(),
                &file,
                i,
                kind,
                max_players,
            ))
        } else {
            look_into_unread(lookup.files(), &file, i, kind, max_players)
        };
        let not_looked_into = read.is_none();
        let (objects, mut entry) = match read {
            Some(Ok((objects, format, version))) => {
                let entry = map_file(name, format, version, objects.len(), None);
                (objects, entry)
            }
            Some(Err(e)) => (Vec::new(), map_file(name, OBJECT_FORMATS[i], 0, 0, Some(e))),
            None => (Vec::new(), map_file(name, OBJECT_FORMATS[i], 0, 0, None)),
        };
        map.notes
            .extend(object_file_note(&names, i, tried, not_looked_into, &entry));
        if tried && let Some(e) = &entry.broken {
            first_error.get_or_insert_with(|| e.clone());
        }
        entry.used = tried && entry.broken.is_none();
        if entry.used {
            map.objects.extend(objects);
            used = true;
        }
        map.files.push(entry);
    }
    match first_error {
        Some(e) if !used => Err(e),
        _ => Ok(()),
    }
}

/// The format of each of [`object_files`] before it is read (a JSON's version is in it).
const OBJECT_FORMATS: [FileFormat; 3] = [FileFormat::JsonV1, FileFormat::Bjo, FileFormat::Ini];

fn map_file(
    name: &str,
    format: FileFormat,
    version: u32,
    records: usize,
    broken: Option<LoadError>,
) -> MapFile {
    MapFile {
        name: name.to_string(),
        format,
        version,
        records,
        used: false,
        broken,
    }
}

/// An object file's objects, format and version.
type ObjectsRead = (Vec<MapObject>, FileFormat, u32);

/// Object file `i` read and parsed; a file that cannot be read is broken as one that
/// does not parse (the game's `loadFullFile` fails, and it goes on as for a bad file).
fn read_object_file(
    files: &Files,
    file: &FileRef,
    i: usize,
    kind: ObjectKind,
    max_players: u32,
) -> Result<ObjectsRead, LoadError> {
    let bytes = read(files, file)?;
    parse_objects(i, &bytes, kind, max_players).map_err(|e| e.in_file(&file.to_string()))
}

/// An object file the game never opens, read as [`read_object_file`] where it is at most
/// [`UNREAD_LOOK_BYTES`] (so that a broken one gets its note); `None` where it is larger,
/// or its size cannot be told without reading it.
fn look_into_unread(
    files: &Files,
    file: &FileRef,
    i: usize,
    kind: ObjectKind,
    max_players: u32,
) -> Option<Result<ObjectsRead, LoadError>> {
    let size = match file {
        // The disk's stamp is the file's metadata: its length, without opening it (a FIFO
        // would block an open).
        FileRef::Disk(_) => files.stamp(file).ok()?.len,
        _ => files.size(file).ok()?,
    };
    (size <= UNREAD_LOOK_BYTES).then(|| read_object_file(files, file, i, kind, max_players))
}

/// What `info` notes of object file `i` of `names` (`entry`, as read or not): why it was
/// not read or used; nothing for the file the game reads.
fn object_file_note(
    names: &[&str; 3],
    i: usize,
    tried: bool,
    not_looked_into: bool,
    entry: &MapFile,
) -> Option<String> {
    let name = &entry.name;
    match (&entry.broken, i, tried) {
        (Some(e), 0, _) => Some(format!(
            "{name}: not read ({e}); the game reads {} instead, where there is one",
            names[1]
        )),
        (Some(e), 1, true) => Some(format!("{name}: not read ({e})")),
        (Some(e), _, _) => Some(format!("{name}: not read by the game, and broken: {e}")),
        (None, _, false) if not_looked_into => Some(format!(
            "{name}: not read by the game (4.x reads {}, then {}); over {} MiB, not looked into",
            names[0],
            names[1],
            UNREAD_LOOK_BYTES >> 20
        )),
        (None, 2, _) => Some(format!(
            "{name}: INI objects are not read by the game (4.x reads {}, then {})",
            names[0], names[1]
        )),
        (None, _, false) => Some(format!(
            "{name}: not used; the game reads {} first",
            names[0]
        )),
        (None, _, true) => None,
    }
}

/// Object file `i` of [`object_files`] read: its objects, format and version.
fn parse_objects(
    i: usize,
    bytes: &[u8],
    kind: ObjectKind,
    max_players: u32,
) -> Result<ObjectsRead, LoadError> {
    Ok(match i {
        0 => {
            let (o, v) = read_json_objects(bytes, kind)?;
            let f = if v == 2 {
                FileFormat::JsonV2
            } else {
                FileFormat::JsonV1
            };
            (o, f, v)
        }
        1 => {
            let (o, v) = read_bjo(bytes, kind, max_players)?;
            (o, FileFormat::Bjo, v)
        }
        _ => (read_ini_objects(bytes, kind)?, FileFormat::Ini, 0),
    })
}
