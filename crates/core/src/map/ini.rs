//! INI objects (`struct.ini`, `feature.ini`, `droid.ini`): the 3.x text format FlaME
//! writes beside the BJO files. One `[section]` per object with `key = value` lines:
//! `name` (`template` for droids), `position = x, y, z`, `rotation = d, 0, 0` (1/65536
//! of a turn), `player` or `startpos`, `modules`.
//!
//! Warzone 2100 4.x never reads these (`Map::mapStructures` tries JSON, then BJO): they
//! are read so that `vitrine info` can list and count them, and so that a package that
//! holds only INI files can be shown, with a note that the game will not load it.

use super::{MAX_OBJECTS, MapObject, ObjectKind, Owner};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// Longest INI file line the reader accepts (FlaME's are under 100 bytes).
const MAX_LINE: usize = 4096;

/// A section: its name, its line, its `key = value` pairs.
type Section = (String, u32, Vec<(String, String)>);

/// The objects of one INI file.
pub(crate) fn read_ini_objects(
    bytes: &[u8],
    kind: ObjectKind,
) -> Result<Vec<MapObject>, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        LoadError::new(
            ErrorKind::Encoding,
            Location::Line(line as u32),
            "not UTF-8 text",
        )
    })?;
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = (i + 1) as u32;
        let at = Location::Line(n);
        if raw.len() > MAX_LINE {
            return Err(LoadError::new(ErrorKind::Invalid, at, "line too long"));
        }
        let line = raw.trim();
        if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[') {
            let name = name
                .strip_suffix(']')
                .ok_or_else(|| LoadError::new(ErrorKind::Syntax, at, "section without ']'"))?;
            if sections.len() == MAX_OBJECTS {
                return Err(super::json::over_limit(kind, at, &format!("[{name}]")));
            }
            sections.push((name.to_string(), n, Vec::new()));
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| LoadError::new(ErrorKind::Syntax, at, "expected key = value"))?;
        let section = sections
            .last_mut()
            .ok_or_else(|| LoadError::new(ErrorKind::Syntax, at, "key before any [section]"))?;
        section
            .2
            .push((k.trim().to_string(), v.trim().trim_matches('"').to_string()));
    }
    sections
        .into_iter()
        .map(|(name, line, keys)| object(&name, line, &keys, kind))
        .collect()
}

fn object(
    section: &str,
    line: u32,
    keys: &[(String, String)],
    kind: ObjectKind,
) -> Result<MapObject, LoadError> {
    let get = |k: &str| {
        keys.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let err = |what: String| {
        LoadError::new(
            ErrorKind::Missing,
            Location::Line(line),
            format!("[{section}]: {what}"),
        )
    };
    let name_key = if kind == ObjectKind::Droid {
        "template"
    } else {
        "name"
    };
    let stats_id = get(name_key).ok_or_else(|| err(format!("no {name_key}")))?;
    let numbers = |k: &str| -> Option<Vec<i64>> {
        get(k)?
            .split(',')
            .take(16)
            .map(|p| {
                p.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .map(|f| f as i64)
            })
            .collect()
    };
    let position = numbers("position")
        .filter(|p| p.len() >= 2)
        .ok_or_else(|| err("no position x, y".into()))?;
    let direction = numbers("rotation")
        .and_then(|r| r.first().copied())
        .unwrap_or(0);
    let owner = match kind {
        ObjectKind::Feature => Owner::None,
        _ => match (get("startpos"), get("player")) {
            (Some(s), _) => s.parse().map(Owner::Player).ok(),
            (None, Some(p)) if p.starts_with("scavenger") => Some(Owner::Scavenger),
            (None, Some(p)) => p.parse().map(Owner::Player).ok(),
            _ => None,
        }
        .ok_or_else(|| err("no player or startpos number".into()))?,
    };
    let clamp = |v: i64| v.clamp(0, i64::from(i32::MAX)) as i32;
    Ok(MapObject {
        kind,
        stats_id: stats_id.to_string(),
        owner,
        x: clamp(position[0]),
        y: clamp(position[1]),
        direction: direction.clamp(0, 65535) as u16,
        id: get("id").and_then(|v| v.parse().ok()),
        modules: get("modules")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
            .min(255),
        key: format!("[{section}]"),
        refused: None,
        logged: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sections_and_names_bad_lines() {
        let text = b"[structure_0]\nid = 5\nposition = 1088, 3136, 0\nrotation = 16384, 0, 0\n\
                     name = A0LightFactory\nplayer = 1\nmodules = 2\n\n[structure_1]\n\
                     position = 64, 64, 0\nname = WallTower01\nplayer = scavenger\n";
        let o = read_ini_objects(text, ObjectKind::Structure).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(
            (o[0].x, o[0].y, o[0].direction, o[0].modules),
            (1088, 3136, 16384, 2)
        );
        assert_eq!(o[1].owner, Owner::Scavenger);
        let e = read_ini_objects(b"[a]\nname = x\nposition 1\n", ObjectKind::Feature).unwrap_err();
        assert_eq!(e.location, Location::Line(3));
        let e = read_ini_objects(b"[a]\nname = x\n", ObjectKind::Feature).unwrap_err();
        assert_eq!(e.location, Location::Line(1));
        // One section past the limit: refused at its line.
        let text = "[f]\nname = Tree\nposition = 64, 64, 0\n".repeat(MAX_OBJECTS + 1);
        let e = read_ini_objects(text.as_bytes(), ObjectKind::Feature).unwrap_err();
        assert_eq!(e.location, Location::Line(3 * MAX_OBJECTS as u32 + 1));
        assert_eq!(e.rule, Some("map/object-limit"));
    }
}
