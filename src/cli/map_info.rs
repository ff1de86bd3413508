//! `vitrine info MAP`: a Warzone 2100 map's facts and every object as the game places it
//! when it loads the map (text, or one JSON object per map with `--json`; `--heights`
//! adds every tile corner's height after flattening).
//!
//! MAP is a map package (`.wz`/`.zip`), a map folder, a `game.map`, a `.gam`, or a map
//! inside an archive: `mp.wz!/multiplay/maps/4c-rush`, or `mp.wz --level Sk-Rush`.

use crate::files::{FileRef, printable_text};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use vitrine_core::files::EntryKind;
use vitrine_core::map::{self, Map, ObjectKind, Owner, Placement};
use vitrine_core::wz::Stats;

/// Whether `file` (a command-line input) is a map rather than models: a `game.map`,
/// `game.js` or `.gam` file; a folder holding `game.map` or `game.js`; or, with
/// `--level`, anything holding levels; or a package root with a `.lev` or `level.json`
/// (at its root, or a 4.x package's `multiplay/maps/NAME/level.json`) and no model folders.
pub fn is_map_input(file: &FileRef, level: Option<&str>) -> bool {
    let files = crate::files::disk();
    let name = file.file_name().to_ascii_lowercase();
    match files.kind(file) {
        Some(EntryKind::File) => name == "game.map" || name == "game.js" || name.ends_with(".gam"),
        Some(EntryKind::Dir) => {
            let Ok(list) = files.list(file) else {
                return false;
            };
            let has = |f: &dyn Fn(&str, EntryKind) -> bool| {
                list.iter().any(|(n, _, k)| f(&n.to_ascii_lowercase(), *k))
            };
            if has(&|n, k| k == EntryKind::File && (n == "game.map" || n == "game.js")) {
                return true;
            }
            if level.is_some() {
                return true;
            }
            let levels = map::defines_levels(files, file);
            let models = has(&|n, k| {
                k == EntryKind::Dir
                    && ["components", "structs", "features", "texpages"].contains(&n)
                    || k == EntryKind::File && crate::formats::is_model_name(n)
            });
            if levels || models {
                return levels && !models;
            }
            is_package_collection(file)
        }
        None => false,
    }
}

/// Whether `file` is a folder of map packages (a downloaded collection of `.wz` files, or
/// of package folders) rather than a package itself: a gallery of maps. Decided on the
/// folder's own entries: none of them makes it one map or a folder of models, and one is a
/// package.
pub fn is_package_collection(file: &FileRef) -> bool {
    let files = crate::files::disk();
    if !matches!(file, FileRef::Disk(_)) || files.kind(file) != Some(EntryKind::Dir) {
        return false;
    }
    let Ok(list) = files.list(file) else {
        return false;
    };
    let own = list.iter().any(|(n, _, k)| {
        let n = n.to_ascii_lowercase();
        *k == EntryKind::File
            && (n == "game.map" || n == "game.js" || n.ends_with(".lev") || n == "level.json")
            || crate::formats::is_model_name(&n)
            || *k == EntryKind::Dir
                && ["components", "structs", "features", "texpages"].contains(&n.as_str())
    });
    !own && list
        .iter()
        .any(|(n, child, k)| is_package(files, n, child, *k))
}

/// The package archives (`.wz`, `.zip`) of a folder of map packages
/// ([`is_package_collection`]), sorted by name; `None` for any other input or where it
/// holds none.
pub fn collection_archives(dir: &FileRef) -> Option<Vec<PathBuf>> {
    let FileRef::Disk(path) = dir else {
        return None;
    };
    if !is_package_collection(dir) {
        return None;
    }
    let mut list: Vec<PathBuf> = std::fs::read_dir(path)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("wz") || e.eq_ignore_ascii_case("zip"))
        })
        .collect();
    list.sort();
    (!list.is_empty()).then_some(list)
}

/// Whether the entry `name` (`child`, of `kind`) is a map package: an archive on disk or a
/// folder with a `.lev`, `level.json`, `game.map` or `game.js` at its root.
fn is_package(
    files: &vitrine_core::files::Files,
    name: &str,
    child: &FileRef,
    kind: EntryKind,
) -> bool {
    let lower = name.to_ascii_lowercase();
    let package = match (kind, child.as_disk()) {
        (EntryKind::File, Some(p)) if lower.ends_with(".wz") || lower.ends_with(".zip") => {
            FileRef::archive_root(p)
        }
        (EntryKind::Dir, _) => child.clone(),
        _ => return false,
    };
    files.list(&package).is_ok_and(|inner| {
        inner.iter().any(|(m, _, _)| {
            let m = m.to_ascii_lowercase();
            m == "game.map" || m == "game.js"
        })
    }) || map::defines_levels(files, &package)
}

/// The data roots a map's stats and models come from: `--data`, else `mp.wz` and
/// `base.wz` beside an `mp.wz` the map is in, else the detected Warzone 2100 install.
pub(crate) fn roots_for(file: &FileRef, data: &[PathBuf]) -> Vec<FileRef> {
    if !data.is_empty() {
        return data.iter().map(|p| crate::files::parse(p)).collect();
    }
    if let FileRef::Entry { archive, .. } = file
        && archive
            .file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case("mp.wz"))
        && let Some(base) = archive
            .parent()
            .map(|d| d.join("base.wz"))
            .filter(|b| b.exists())
    {
        return vec![FileRef::archive_root(archive), FileRef::archive_root(&base)];
    }
    crate::files::folders::find_warzone2100()
        .unwrap_or_default()
        .iter()
        .map(|p| crate::files::parse(p))
        .collect()
}

/// Runs `info` on one map input: each of its maps (the one `level` names, else all of
/// them: a package of several maps, a folder of packages), as text or one JSON object a
/// line; and the error of each map that failed (its line for standard error; with
/// `as_json`, its JSON object is among the lines too). An error where no map opens at all.
pub fn map_info(
    file: &FileRef,
    level: Option<&str>,
    seed: Option<u32>,
    data: &[PathBuf],
    heights: bool,
    as_json: bool,
) -> Result<(String, Vec<String>), String> {
    let files = crate::files::disk();
    let survey = map::survey(files, file).map_err(|e| e.to_string())?;
    let levels = match level {
        Some(_) => vec![map::open_source(files, file, level).map_err(|e| e.to_string())?],
        None if survey.maps.is_empty() => {
            return Err(map::find_maps(files, file)
                .err()
                .map_or_else(|| "no map here".to_string(), |e| e.to_string()));
        }
        None => survey.maps.clone(),
    };
    let problems: Vec<String> = survey.problems.iter().map(ToString::to_string).collect();
    let roots = roots_for(file, data);
    let (stats, _warnings) = Stats::load(files, &roots);
    let mut out = String::new();
    let mut errors = Vec::new();
    for mut source in levels {
        source.ask_seed(seed);
        let one = crate::cli::catch_per_file(&source.folder, || {
            one_map_info(file, &source, &stats, &roots, &problems, heights, as_json)
        });
        match one {
            Ok(text) => out.push_str(&text),
            Err(e) => {
                if as_json {
                    let v = json!({"path": file.to_string(), "map": source.name,
                        "level": source.levels.taken, "error": e});
                    out.push_str(&format!("{v}\n"));
                }
                errors.push(
                    printable_text(&format!("{file}: map {}: error: {e}", source.name))
                        .into_owned(),
                );
            }
        }
    }
    Ok((out, errors))
}

/// `info` of one map of `file`, `problems` being its package's (text, or one JSON line).
fn one_map_info(
    file: &FileRef,
    source: &map::Level,
    stats: &Stats,
    roots: &[FileRef],
    problems: &[String],
    heights: bool,
    as_json: bool,
) -> Result<String, String> {
    let files = crate::files::disk();
    let map = map::open(files, source).map_err(|e| e.to_string())?;
    let placed = map::place(&map, stats, files, roots);
    let mut notes = map.notes.clone();
    if roots.is_empty() {
        notes.push(
            "no Warzone 2100 data found (use --data mp.wz --data base.wz): footprints, \
             removals and defence heights are not the game's"
                .into(),
        );
    }
    notes.extend(nothing_placed(&map, &placed).iter().map(|(kind, n)| {
        format!(
            "none of the {n} {kind}s in the files is on the loaded map: the game starts it \
             without {kind}s"
        )
    }));
    let starts = map::start_positions(&placed, stats);
    if as_json {
        let mut v = map_json(file, &map, &placed, &notes, heights);
        v["start_positions"] = json!(starts);
        v["problems"] = json!(problems);
        return Ok(format!("{v}\n"));
    }
    let mut text = map_text(file, &map, &placed, &notes, &starts);
    for p in problems {
        text.push_str(&printable_text(&format!("  problem: {p}\n")));
    }
    Ok(text)
}

/// What `info` says of the level taken: `NTW-T1, the one of NTW-T1, NTW-T2, NTW-T3 the
/// skirmish list shows`.
fn level_taken(l: &map::Level) -> Option<String> {
    match l.levels.all.len() {
        0 => None,
        1 if l.levels.taken == l.name => None,
        1 => Some(l.levels.taken.clone()),
        _ if l.levels.asked => Some(format!(
            "{}, as asked, of {} (the game's skirmish list shows the one of type 14)",
            l.levels.taken,
            l.levels.all.join(", ")
        )),
        _ => Some(format!(
            "{}, the one of {} the game's skirmish list shows (type 14, tech level 1)",
            l.levels.taken,
            l.levels.all.join(", ")
        )),
    }
}

/// Each kind the files hold entries of (with their count) that the game places none of,
/// having refused some (`map/nothing-placed`).
fn nothing_placed(map: &Map, placed: &Placement) -> Vec<(&'static str, usize)> {
    let refused = |k: ObjectKind| {
        placed.removed.iter().any(|r| {
            matches!(r.why, map::Removal::Refused { .. }) && map.objects[r.index].kind == k
        })
    };
    ObjectKind::ALL
        .iter()
        .map(|&k| (k, map.of_kind(k).count()))
        .filter(|&(k, n)| n > 0 && refused(k) && !placed.objects.iter().any(|p| p.object.kind == k))
        .map(|(k, n)| (k.name(), n))
        .collect()
}

fn scavenger_slot(map: &Map) -> u32 {
    map.level.players.unwrap_or(0).max(7)
}

fn player(map: &Map, owner: Owner) -> (Value, bool) {
    match owner {
        Owner::Player(p) => (json!(p), false),
        Owner::Scavenger => (json!(scavenger_slot(map)), true),
        Owner::None => (Value::Null, false),
    }
}

fn owner_label(owner: Owner) -> String {
    match owner {
        Owner::Player(p) => format!("player {p}"),
        Owner::Scavenger => "scavengers".into(),
        Owner::None => "features".into(),
    }
}

fn map_json(
    file: &FileRef,
    map: &Map,
    placed: &Placement,
    notes: &[String],
    heights: bool,
) -> Value {
    let objects: Vec<Value> = placed
        .objects
        .iter()
        .map(|p| {
            let o = &p.object;
            let (pl, scav) = player(map, o.owner);
            let mut v = json!({
                "kind": o.kind.name(), "stats_id": o.stats_id, "player": pl,
                "x": o.x, "y": o.y, "z": p.z, "direction": o.degrees(),
                "key": o.key,
            });
            if scav {
                v["scavenger"] = json!(true);
            }
            if o.kind == ObjectKind::Structure {
                v["modules"] = json!(o.modules);
            }
            if let Some(id) = o.id {
                v["id"] = json!(id);
            }
            v
        })
        .collect();
    let removed: Vec<Value> = placed
        .removed
        .iter()
        .map(|r| {
            let o = &map.objects[r.index];
            let mut v = json!({"kind": o.kind.name(), "stats_id": o.stats_id, "key": o.key,
                "x": o.x, "y": o.y, "why": r.why.tag()});
            if let map::Removal::Refused { rule, message } = &r.why {
                v["message"] = json!(message);
                v["rule"] = json!(rule);
            }
            v
        })
        .collect();
    let mut v = json!({
        "path": file.to_string(),
        "map": map.level.name,
        "level": map.level.levels.taken,
        "levels": map.level.levels.all,
        "shape": map.level.shape,
        "folder": map.level.folder.to_string(),
        "players": map.level.players,
        "scavenger_player": scavenger_slot(map),
        "tileset": map.level.tileset,
        "tileset_from": map.level.tileset_from,
        "width": map.terrain.width,
        "height": map.terrain.height,
        "files": map.files.iter().map(|f| json!({"name": f.name, "format": f.format,
            "version": f.version, "records": f.records, "used": f.used})).collect::<Vec<_>>(),
        "broken_files": map.files.iter().filter_map(|f| f.broken.as_ref().map(|e| json!({
            "name": f.name, "error": e.to_string()}))).collect::<Vec<_>>(),
        "counts": counts_json(map, placed),
        "file_counts": ObjectKind::ALL.iter().map(|k| (k.name(), map.of_kind(*k).count()))
            .collect::<BTreeMap<_, _>>(),
        "objects": objects,
        "removed": removed,
        "nothing_placed": nothing_placed(map, placed).iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        "logged": placed.logged.iter().map(|(i, l)| {
            let o = &map.objects[*i];
            json!({"kind": o.kind.name(), "stats_id": o.stats_id, "key": o.key,
                "rule": l.rule, "message": l.message})
        }).collect::<Vec<_>>(),
        "unknown_stats": placed.unknown,
        "notes": notes,
    });
    if heights {
        let w = placed.terrain.width as usize;
        let rows: Vec<&[i32]> = placed.terrain.heights.chunks(w.max(1)).collect();
        v["heights"] = json!(rows);
    }
    v
}

/// Objects kept by kind and owner (`player 0`, `scavengers`, `features`).
fn counts(placed: &Placement) -> BTreeMap<ObjectKind, BTreeMap<String, usize>> {
    let mut c: BTreeMap<ObjectKind, BTreeMap<String, usize>> = BTreeMap::new();
    for p in &placed.objects {
        *c.entry(p.object.kind)
            .or_default()
            .entry(owner_label(p.object.owner))
            .or_default() += 1;
    }
    c
}

fn counts_json(_map: &Map, placed: &Placement) -> Value {
    let c = counts(placed);
    let mut out = serde_json::Map::new();
    for k in ObjectKind::ALL {
        let by = c.get(&k).cloned().unwrap_or_default();
        let total: usize = by.values().sum();
        out.insert(k.name().into(), json!({"total": total, "by_owner": by}));
    }
    Value::Object(out)
}

fn map_text(
    file: &FileRef,
    map: &Map,
    placed: &Placement,
    notes: &[String],
    starts: &[map::StartPosition],
) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let l = &map.level;
    let _ = writeln!(s, "{file}: Warzone 2100 map {}", l.name);
    if let Some(taken) = level_taken(l) {
        let _ = writeln!(s, "  level: {taken}");
    }
    let _ = writeln!(
        s,
        "  size: {}×{} tiles",
        map.terrain.width, map.terrain.height
    );
    let _ = writeln!(s, "  tileset: {} ({})", l.tileset, l.tileset_from);
    let players = l.players.map_or("not stated".into(), |p| p.to_string());
    let _ = writeln!(s, "  players: {players}");
    let _ = writeln!(s, "  shape: {:?}, folder {}", l.shape, l.folder);
    for f in &map.files {
        if f.broken.is_some() {
            let _ = writeln!(s, "  file {}: broken, not read (see its note)", f.name);
            continue;
        }
        let used = if f.used {
            ""
        } else {
            " (not read by the game)"
        };
        let records = if f.records == 1 { "record" } else { "records" };
        let _ = writeln!(
            s,
            "  file {}: {:?} version {}, {} {records}{used}",
            f.name, f.format, f.version, f.records
        );
    }
    let counts = counts(placed);
    let mut kinds = ObjectKind::ALL;
    kinds.sort();
    for kind in kinds {
        let in_files = map.of_kind(kind).count();
        let Some(by) = counts.get(&kind) else {
            if in_files > 0 {
                let _ = writeln!(s, "  {}s: 0 placed of {in_files} in the files", kind.name());
            }
            continue;
        };
        let total: usize = by.values().sum();
        let parts: Vec<String> = by.iter().map(|(o, n)| format!("{o}: {n}")).collect();
        let _ = writeln!(
            s,
            "  {}s: {total} placed of {in_files} in the files ({})",
            kind.name(),
            parts.join(", ")
        );
    }
    if !starts.is_empty() {
        let list: Vec<String> = starts
            .iter()
            .map(|p| format!("player {} at {}, {}", p.player, p.x, p.y))
            .collect();
        let _ = writeln!(s, "  start positions: {}", list.join("; "));
    }
    let mut why: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &placed.removed {
        *why.entry(r.why.tag()).or_default() += 1;
    }
    for (w, n) in why {
        let _ = writeln!(s, "  not on the loaded map: {n} {w}");
    }
    for n in notes {
        let _ = writeln!(s, "  note: {n}");
    }
    printable_text(&s).into_owned()
}
