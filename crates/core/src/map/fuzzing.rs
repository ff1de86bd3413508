//! The map readers on untrusted bytes, with their promises checked: what the `map` fuzz
//! target and the replay of its committed inputs share. The first byte picks the reader
//! (`game.map`, `ttypes.ttp`, JSON, BJO or INI objects of each kind, a `.lev`,
//! `level.json`; 0xFF: a map script, `game.js`, run with its bounds); a `game.map` that
//! reads is also placed with a few objects on it.
//!
//! Checked: no panic; a refusal names its place (an offset or a line, or the whole file
//! for JSON roots); a map read holds `width × height` heights within 0–510 and textures;
//! placement keeps every object on the map and every height within the stored range.

use super::{MapObject, ObjectKind, Owner};
use crate::files::{FileRef, Files, MemorySource};
use crate::formats::LoadError;
use crate::formats::fuzzing::Outcome;
use crate::model::Location;

fn refused(e: &LoadError, outcome: &mut Outcome) -> Result<(), String> {
    if e.message.is_empty() {
        return Err(format!("a refusal without a message: {e:?}"));
    }
    outcome.rejected += 1;
    Ok(())
}

/// The `script` target: the whole input is a `game.js`, run in Boa with its budget (as
/// the page runs it); the same promises as the `map` target's selector 0xFF.
///
/// # Errors
/// A broken promise, named.
pub fn run_script(data: &[u8]) -> Result<Outcome, String> {
    script(data, Outcome::default())
}

/// Runs the reader the first byte picks on the rest; `Err` names a broken promise.
pub fn run(data: &[u8]) -> Result<Outcome, String> {
    let mut outcome = Outcome::default();
    let Some((&first, bytes)) = data.split_first() else {
        return Ok(outcome);
    };
    let kinds = [
        ObjectKind::Structure,
        ObjectKind::Feature,
        ObjectKind::Droid,
    ];
    let kind = kinds[usize::from(first / 16) % 3];
    if first == 0xFF {
        return script(bytes, outcome);
    }
    let result: Result<(), LoadError> = match first % 8 {
        0 => return game_map(bytes, outcome),
        1 => super::read_terrain_types(bytes).map(|_| ()),
        2 => super::json::read_json_objects(bytes, kind).map(|_| ()),
        3 => super::bjo::read_bjo(bytes, kind, 4).map(|_| ()),
        4 => super::ini::read_ini_objects(bytes, kind).map(|_| ()),
        5 => match super::level::parse_lev(&String::from_utf8_lossy(bytes)) {
            (_, Some(too_many)) => Err(too_many),
            (entries, None) => entries
                .into_iter()
                .find_map(|e| e.refused)
                .map_or(Ok(()), Err),
        },
        6 => super::level::parse_level_json(bytes).map(|_| ()),
        _ => super::read::read_gam(bytes).map(|_| ()),
    };
    match result {
        Ok(()) => outcome.loaded += 1,
        Err(e) => refused(&e, &mut outcome)?,
    }
    Ok(outcome)
}

/// A map script: no panic; a refusal names `game.js`'s line or the whole file; a map
/// given holds `width × height` tiles within the game's limits.
fn script(bytes: &[u8], mut outcome: Outcome) -> Result<Outcome, String> {
    match super::script::run_script(bytes, super::script::DEFAULT_SEED, 4) {
        Ok(m) => {
            let area = m.width as usize * m.height as usize;
            if m.heights.len() != area
                || m.textures.len() != area
                || m.width > 256
                || m.height > 256
            {
                return Err(format!(
                    "script map {}×{} with {} heights",
                    m.width,
                    m.height,
                    m.heights.len()
                ));
            }
            if m.heights
                .iter()
                .any(|h| !(0..=super::MAX_HEIGHT).contains(h))
            {
                return Err("a script height outside 0–510".into());
            }
            outcome.loaded += 1;
        }
        Err(e) => {
            if matches!(e.location, Location::Offset(_)) {
                return Err(format!("a script refusal at a byte offset: {e}"));
            }
            refused(&e, &mut outcome)?;
        }
    }
    Ok(outcome)
}

fn game_map(bytes: &[u8], mut outcome: Outcome) -> Result<Outcome, String> {
    let (terrain, _) = match super::read_game_map(bytes) {
        Ok(t) => t,
        Err(e) => {
            if matches!(e.location, Location::File | Location::Line(_)) {
                return Err(format!("a game.map refusal without an offset: {e}"));
            }
            refused(&e, &mut outcome)?;
            return Ok(outcome);
        }
    };
    let area = terrain.width as usize * terrain.height as usize;
    if terrain.heights.len() != area || terrain.textures.len() != area {
        return Err(format!(
            "{area} tiles declared, {} read",
            terrain.heights.len()
        ));
    }
    if terrain
        .heights
        .iter()
        .any(|h| !(0..=super::MAX_HEIGHT).contains(h))
    {
        return Err("a height outside 0–510".into());
    }
    // Objects at corners, the centre and off the map, placed without stats.
    let (w, h) = (terrain.width as i32 * 128, terrain.height as i32 * 128);
    let spots = [
        (0, 0),
        (w / 2, h / 2),
        (w - 1, h - 1),
        (w + 500, -300),
        (w / 3, h / 4),
    ];
    let mut objects = Vec::new();
    for (i, &(x, y)) in spots.iter().enumerate() {
        for kind in ObjectKind::ALL {
            objects.push(MapObject {
                kind,
                stats_id: format!("S{i}"),
                owner: if kind == ObjectKind::Feature {
                    Owner::None
                } else {
                    Owner::Player(0)
                },
                x,
                y,
                direction: (i as u16).wrapping_mul(12345),
                id: None,
                modules: i as u32,
                key: String::new(),
                refused: None,
                logged: Vec::new(),
            });
        }
    }
    let map = super::Map {
        level: super::Level {
            name: "fuzz".into(),
            players: Some(4),
            tileset: Default::default(),
            tileset_from: String::new(),
            folder: FileRef::Disk("fuzz".into()),
            gam: None,
            defined_in: None,
            tileset_unknown: None,
            shape: super::level::Shape::Folder,
            seed: super::script::DEFAULT_SEED,
            levels: Default::default(),
        },
        terrain,
        terrain_types: Vec::new(),
        objects,
        files: Vec::new(),
        notes: Vec::new(),
        scroll_limits: None,
    };
    let stats = crate::wz::Stats::default();
    let placed = super::place(&map, &stats, &Files::new(MemorySource::new()), &[]);
    if placed.objects.len() + placed.removed.len() != map.objects.len() {
        return Err("placement lost or invented objects".into());
    }
    let (lo, hi) = map
        .terrain
        .heights
        .iter()
        .fold((i32::MAX, i32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    if placed.terrain.heights.iter().any(|v| *v < lo || *v > hi) {
        return Err("flattening left the stored height range".into());
    }
    outcome.loaded += 1;
    Ok(outcome)
}
