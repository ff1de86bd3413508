//! `vitrine check MAP`: what Warzone 2100 refuses, drops or complains about when it loads
//! a map, as findings of the `map/…` rules of [`crate::check::RULES`].
//!
//! The facts come from the map readers and the game's placement ([`crate::map`]): a file
//! the game refuses is one finding (the reader's refusal, tagged with its rule and byte
//! offset), and every object the game does not keep as the file has it is one finding —
//! at its file, its record's byte offset (BJO) or its key's line (JSON v1), and its index
//! in [`crate::map::Map::objects`] ([`Element::Object`]).
//!
//! Not checked: script-generated maps (their `game.js` is not run: one note says so);
//! `ttypes.ttp`'s count against the tileset's tiles (the game neither refuses nor logs a
//! difference: `loadTerrainTypeMap` cuts an over-long table and the three tilesets' table
//! is then replaced from `tileset/tileTypes.json`); objects outside the `.gam` scroll
//! limits (not checked at load).

mod objects;
mod rules;

pub(crate) use rules::RULES;

use super::{Element, Finding};
use crate::files::{FileRef, Files};
use crate::formats::LoadError;
use crate::map::{self, Level, Map};
use crate::model::Location;
use crate::wz::Stats;

/// What `vitrine check` found on the maps of one input.
#[derive(Debug, Clone, Default)]
pub struct MapReport {
    /// Every finding, map after map.
    pub findings: Vec<Finding>,
    /// The maps (levels) looked at.
    pub maps: usize,
}

/// Checks every map `at` holds (a package, a map folder, a `game.map`, a `.gam`), or the
/// one named `level`, against the game's rules. `roots` are the data roots the stats come
/// from (the map's structures, features and droid templates); with none, the stats check
/// is skipped with a note. A script-generated map's `game.js` runs with `seed` (`None`:
/// the default, [`map::script::DEFAULT_SEED`]).
pub fn check_maps(
    files: &Files,
    at: &FileRef,
    level: Option<&str>,
    roots: &[FileRef],
    seed: Option<u32>,
) -> MapReport {
    // The package's levels that do not open are findings; its other maps are checked.
    let survey = map::survey(files, at);
    let whole = survey.as_ref().map_or(&[][..], |s| &s.maps[..]).to_vec();
    let (levels, problems) = match survey {
        Ok(s) => match level {
            Some(name) => match s.maps.iter().find(|l| map::answers_to(l, name)) {
                Some(l) => (vec![l.clone()], s.problems),
                None => (
                    Vec::new(),
                    vec![map::open_source(files, at, Some(name)).err()]
                        .into_iter()
                        .flatten()
                        .chain(s.problems)
                        .collect(),
                ),
            },
            None => (s.maps, s.problems),
        },
        Err(e) => (Vec::new(), vec![e]),
    };
    let several = several_maps(&whole, &levels);
    let levels: Vec<Level> = levels
        .into_iter()
        .map(|mut l| {
            l.ask_seed(seed);
            l
        })
        .collect();
    let mut report = MapReport {
        findings: problems
            .into_iter()
            .map(|e| refusal(e, &at.to_string()))
            .chain(several)
            .collect(),
        maps: 0,
    };
    if levels.is_empty() {
        return report;
    }
    let (stats, _warnings) = Stats::load(files, roots);
    for level in &levels {
        report.maps += 1;
        report
            .findings
            .extend(check_level(files, level, &stats, roots));
    }
    report
}

/// `map/package-several-maps`: per map package among `levels`' (their package root) that
/// holds more than one map (`whole`: every map surveyed, whichever `--level` was
/// asked), one error. A package is what the game reads from its maps folder: levels defined by a
/// `NAME.xplayers.lev`, a `NAME.addon.lev` or a `level.json`; the game's data archives
/// (`mp.wz`, whose levels are in `addon.lev`) are not.
fn several_maps(whole: &[Level], levels: &[Level]) -> Vec<Finding> {
    let asked: std::collections::BTreeSet<FileRef> =
        levels.iter().map(map::package_info::package_root).collect();
    let mut per_root: std::collections::BTreeMap<FileRef, Vec<&Level>> = Default::default();
    for level in whole.iter().filter(|l| in_a_package(l)) {
        per_root
            .entry(map::package_info::package_root(level))
            .or_default()
            .push(level);
    }
    per_root
        .into_iter()
        .filter(|(root, maps)| maps.len() > 1 && (levels.is_empty() || asked.contains(root)))
        .map(|(root, maps)| {
            let names: Vec<&str> = maps.iter().map(|l| l.name.as_str()).collect();
            // An archive's root is the archive (`Pack.wz`, not `Pack.wz!/`).
            let file = root.to_string();
            Finding::new(
                "map/package-several-maps",
                file.strip_suffix("!/").unwrap_or(&file),
                Location::File,
                Element::File,
                format!(
                    "{} maps in one package ({}): Warzone 2100 4.3.3 lists none of them; \
                     put each map in a package of its own",
                    maps.len(),
                    names.join(", ")
                ),
            )
        })
        .collect()
}

/// Whether `level` is defined the way a map package defines its levels (see
/// [`several_maps`]).
fn in_a_package(level: &Level) -> bool {
    let Some(file) = &level.defined_in else {
        return false;
    };
    let name = file.file_name().to_ascii_lowercase();
    name == "level.json"
        || name.ends_with(".xplayers.lev")
        || (name.ends_with(".addon.lev") && name != "addon.lev")
}

/// The findings of one level, with `stats` from `roots`.
pub fn check_level(files: &Files, level: &Level, stats: &Stats, roots: &[FileRef]) -> Vec<Finding> {
    let map = match map::open(files, level) {
        Ok(m) => m,
        Err(e) => {
            let mut out: Vec<Finding> = tileset_unknown(level).into_iter().collect();
            out.push(refusal(e, &level.folder.to_string()));
            return out;
        }
    };
    let placed = map::place(&map, stats, files, roots);
    check_placed(files, level, &map, &placed, stats, roots)
}

/// The findings of one level already read (`map`) and placed (`placed`) with `stats`
/// from `roots`: what [`check_level`] gives once the map opens.
pub fn check_placed(
    files: &Files,
    level: &Level,
    map: &Map,
    placed: &map::Placement,
    stats: &Stats,
    roots: &[FileRef],
) -> Vec<Finding> {
    let mut out: Vec<Finding> = tileset_unknown(level).into_iter().collect();
    if let Some(why) = unchecked_stats(stats, roots) {
        out.push(Finding::new(
            "map/stats-unchecked",
            &level_file(level),
            Location::File,
            Element::File,
            format!("{}: {why}", level.name),
        ));
    }
    out.extend(broken_object_files(map));
    out.extend(objects::findings(files, map, placed));
    out.extend(missing_starts(map, placed, stats, &level_file(level)));
    out.extend(no_constructor(map, placed, stats, &level_file(level)));
    out.extend(gateways(map));
    out
}

/// `map/objects-json-broken` and `map/objects-file-unread`: the object files that could
/// not be read, the JSON the game tried and the files it never reads.
fn broken_object_files(map: &Map) -> Vec<Finding> {
    map.files
        .iter()
        .filter_map(|f| {
            let e = f.broken.as_ref()?;
            let rule = if f.format == crate::map::FileFormat::JsonV1 {
                "map/objects-json-broken"
            } else {
                "map/objects-file-unread"
            };
            let file = e
                .file
                .clone()
                .unwrap_or_else(|| map.level.folder.join(&f.name).to_string());
            Some(Finding::new(
                rule,
                &file,
                e.location,
                Element::File,
                e.message.clone(),
            ))
        })
        .collect()
}

/// `map/player-no-constructor`: each player slot of the level that the map gives no
/// construction droid (checked where the level states its players and the data has the
/// templates).
fn no_constructor(map: &Map, placed: &map::Placement, stats: &Stats, file: &str) -> Vec<Finding> {
    let Some(players) = map.level.players else {
        return Vec::new();
    };
    if stats.templates.source.is_none() {
        return Vec::new();
    }
    // A player with neither an HQ nor a truck has `map/start-position-missing` already.
    let starts = map::start_positions(placed, stats);
    let builders: std::collections::HashSet<u32> = placed
        .objects
        .iter()
        .filter(|p| p.object.kind == map::ObjectKind::Droid)
        .filter(|p| {
            crate::wz::assemble::is_construct_template(stats, &p.object.stats_id) == Some(true)
        })
        .filter_map(|p| match p.object.owner {
            map::Owner::Player(n) => Some(n),
            _ => None,
        })
        .collect();
    (0..players)
        .filter(|p| !builders.contains(p) && starts.iter().any(|s| s.player == *p))
        .map(|p| {
            Finding::new(
                "map/player-no-constructor",
                file,
                Location::File,
                Element::File,
                format!(
                    "{}: player {p} of {players} starts with no construction droid (truck or \
                     combat engineer); with the lobby's \"No bases\" the rules script removes \
                     every structure it has, leaving it nothing to build with",
                    map.level.name
                ),
            )
        })
        .collect()
}

/// `map/gateway-invalid`: a gateway that is neither a row nor a column of tiles, or leaves
/// the map; the game drops it (`gwNewGateway`).
fn gateways(map: &Map) -> Vec<Finding> {
    let (w, h) = (map.terrain.width, map.terrain.height);
    let file = map.level.folder.join("game.map").to_string();
    map.terrain
        .gateways
        .iter()
        .enumerate()
        .filter(|(_, g)| {
            let (x1, y1, x2, y2) = (
                u32::from(g.from.0),
                u32::from(g.from.1),
                u32::from(g.to.0),
                u32::from(g.to.1),
            );
            (x1 != x2 && y1 != y2) || x1.max(x2) >= w || y1.max(y2) >= h
        })
        .map(|(i, g)| {
            // The header (16 bytes), the tiles, the gateway version and count.
            let record = if map.terrain.version >= 40 { 4 } else { 3 };
            let at = 16 + u64::from(w) * u64::from(h) * record + 8 + i as u64 * 4;
            Finding::new(
                "map/gateway-invalid",
                &file,
                Location::Offset(at),
                Element::File,
                format!(
                    "gateway {i} ({}, {}) to ({}, {}): {}; the game drops it (\"Unable to add \
                     gateway {i} - dropping it\")",
                    g.from.0,
                    g.from.1,
                    g.to.0,
                    g.to.1,
                    if g.from.0 != g.to.0 && g.from.1 != g.to.1 {
                        "diagonal, neither a row nor a column of tiles"
                    } else {
                        "off the map"
                    }
                ),
            )
        })
        .collect()
}

/// Opens the map whose `game.map` is `file` once ([`map::scene::open_placed`]) and gives
/// both its scene (what [`crate::formats::load`] gives for it) and its findings (what
/// [`check_maps`] gives for its level): the window's open of a map, which would otherwise
/// read, place and look up the stats twice.
///
/// Where files arrive as they are read (the page's remote archives,
/// [`Files::wanting`]), a step that asked for bytes not there yet ends the run: its
/// result would be dropped, and the run that follows the fetch does it again (placing a
/// dense map's objects without their stats, building its scene without their models,
/// took most of a page's time to the first frame).
///
/// # Errors
/// The map's own, as [`map::scene::load`] gives them; a step still waiting for bytes
/// ([`crate::formats::ErrorKind::Io`], saying which).
pub fn load_checked(
    files: &Files,
    file: &FileRef,
    options: &crate::formats::LoadOptions,
) -> Result<(crate::model::Model, Vec<Finding>), LoadError> {
    load_checked_resuming(files, file, options, &mut Resume::default())
}

/// What a run of [`load_checked_resuming`] finished while its files were still arriving:
/// the map read and placed, kept for the next run (a page's map takes several rounds of
/// fetches for its objects' models, and reading the map, its stats and the placement
/// again in each took a few hundred milliseconds of its first frame).
#[derive(Debug, Default)]
pub struct Resume(Option<map::scene::Opened>);

/// [`load_checked`] in runs: a run ended by bytes still to come keeps in `resume` what it
/// read whole (the map, its stats, the placement), and the next run with the same
/// `resume`, after the fetch, starts from there.
///
/// # Errors
/// As [`load_checked`].
pub fn load_checked_resuming(
    files: &Files,
    file: &FileRef,
    options: &crate::formats::LoadOptions,
    resume: &mut Resume,
) -> Result<(crate::model::Model, Vec<Finding>), LoadError> {
    let _processing = crate::crash::processing(file);
    let opened = match resume.0.take() {
        Some(opened) => opened,
        None => map::scene::open_placed(files, file, &options.data_roots, options.map_seed)?,
    };
    // Read whole (nothing asked for is still to come): kept if the scene must wait.
    let whole = !files.wanting();
    // With bytes still to come the scene only asks for what it reads (its tables, its
    // objects' models) and stops: those come in the same fetch as the stats or models
    // the placement is waiting for, not in the rounds after it.
    let model = opened.scene(files, file, options)?;
    if let Err(e) = waiting(files, file, "its stats, models and images") {
        if whole {
            resume.0 = Some(opened);
        }
        return Err(e);
    }
    let findings = check_placed(
        files,
        &opened.level,
        &opened.map,
        &opened.placed,
        &opened.stats,
        &options.data_roots,
    );
    Ok((model, findings))
}

/// An error when a read of `files` asked for bytes that have not arrived: the map's
/// `what` are still being fetched.
fn waiting(files: &Files, file: &FileRef, what: &str) -> Result<(), LoadError> {
    if !files.wanting() {
        return Ok(());
    }
    Err(LoadError::new(
        crate::formats::ErrorKind::Io,
        Location::File,
        format!("{what} have not all arrived yet"),
    )
    .in_file(&file.file_name()))
}

/// The file a level's own findings name: its `.lev`/`level.json`, else its `game.map`.
fn level_file(level: &Level) -> String {
    level
        .defined_in
        .clone()
        .unwrap_or_else(|| level.folder.join("game.map"))
        .to_string()
}

/// `map/tileset-unknown`: the level names a tileset the game does not know.
fn tileset_unknown(level: &Level) -> Option<Finding> {
    let name = level.tileset_unknown.as_ref()?;
    Some(Finding::new(
        "map/tileset-unknown",
        &level_file(level),
        Location::File,
        Element::File,
        format!(
            "{}: tileset {name:?} is none of arizona, urban, rockies; the game loads Arizona",
            level.name
        ),
    ))
}

/// `map/start-position-missing`: each player slot of the level without a start position
/// (checked only where the level states its players and the data has the templates).
fn missing_starts(map: &Map, placed: &map::Placement, stats: &Stats, file: &str) -> Vec<Finding> {
    let Some(players) = map.level.players else {
        return Vec::new();
    };
    if stats.templates.source.is_none() {
        return Vec::new();
    }
    let starts = map::start_positions(placed, stats);
    (0..players)
        .filter(|p| !starts.iter().any(|s| s.player == *p))
        .map(|p| {
            Finding::new(
                "map/start-position-missing",
                file,
                Location::File,
                Element::File,
                format!(
                    "{}: player {p} of {players} has neither an HQ nor a construction droid \
                     (truck), so the game sets no start position for it: it starts at (0, 0), \
                     the map's corner",
                    map.level.name
                ),
            )
        })
        .collect()
}

/// Why the stats ids could not be checked, if they could not: which tables are missing.
fn unchecked_stats(stats: &Stats, roots: &[FileRef]) -> Option<String> {
    if roots.is_empty() {
        return Some(
            "stats ids not checked: no data roots (--data) and no Warzone 2100 installation found"
                .into(),
        );
    }
    let missing: Vec<&str> = [
        ("structure.json", stats.structures.source.is_none()),
        ("features.json", stats.features.source.is_none()),
        ("templates.json", stats.templates.source.is_none()),
    ]
    .into_iter()
    .filter_map(|(name, none)| none.then_some(name))
    .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "stats ids not checked against {}: no data root has stats/{}",
            missing.join(", "),
            missing.join(", stats/")
        )
    })
}

/// A file the game refuses (or that cannot be read): one finding of the reader's rule,
/// at its place, else `load/refused`.
fn refusal(e: LoadError, fallback_file: &str) -> Finding {
    let rule = e.rule.unwrap_or(match e.kind {
        crate::formats::ErrorKind::Io => "load/unreadable",
        _ => "load/refused",
    });
    let file = e.file.clone().unwrap_or_else(|| fallback_file.to_string());
    Finding::new(rule, &file, e.location, Element::File, e.message)
}
