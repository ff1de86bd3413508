//! JSON objects (`struct.json`, `feature.json`, `droid.json`; `loadJson*Init` and
//! `jsonGetBaseMapObjectInfo` in `lib/wzmaplib/src/map.cpp`).
//!
//! Version 1 has no `"version"` key: the root is an object keyed `structure_N`, each with
//! `position` [x, y, z] (z ignored) and `rotation` [direction, 0, 0]. Version 2 is
//! `{"version": 2, "structures": [...]}` with `position` [x, y] and `rotation` a number or
//! [n]. Names are `name` (`template` for droids); the owner is `startpos` or `player` (a
//! number, or a string starting with `scavenger`); structures may add `modules` (0–255).
//! As the game does, an entry it cannot use is skipped with a note naming its key.

use super::{MapObject, ObjectKind, Owner};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;
use serde_json::{Map, Value};

/// The objects of one JSON file, its version (1 or 2) and notes on skipped entries.
pub(crate) fn read_json_objects(
    bytes: &[u8],
    kind: ObjectKind,
) -> Result<(Vec<MapObject>, u32, Vec<String>), LoadError> {
    let root: Value = serde_json::from_slice(bytes).map_err(|e| {
        LoadError::new(
            ErrorKind::Syntax,
            Location::Line(e.line() as u32),
            format!("invalid JSON (column {}): {e}", e.column()),
        )
    })?;
    let Value::Object(root) = root else {
        return Err(bad_root("the root is not a JSON object"));
    };
    let (version, entries): (u32, Vec<(String, &Value)>) = match root.get("version") {
        None => (
            1,
            root.iter().map(|(k, v)| (k.clone(), v)).collect::<Vec<_>>(),
        ),
        Some(v) if v.as_u64() == Some(2) => {
            let list = match kind {
                ObjectKind::Structure => "structures",
                ObjectKind::Feature => "features",
                ObjectKind::Droid => "droids",
            };
            let Some(Value::Array(items)) = root.get(list) else {
                return Err(bad_root(&format!("version 2 without a \"{list}\" list")));
            };
            let keyed = items
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("{list}[{i}]"), v))
                .collect();
            (2, keyed)
        }
        Some(v) => return Err(bad_root(&format!("version {v}; the game reads 1 and 2"))),
    };
    let mut objects = Vec::with_capacity(entries.len());
    let mut notes = Vec::new();
    for (key, value) in entries {
        let Value::Object(obj) = value else {
            continue;
        };
        match entry(obj, kind, version, &key) {
            Ok(o) => objects.push(o),
            Err(why) => notes.push(format!("{key}: {why}; skipped, as the game skips it")),
        }
    }
    Ok((objects, version, notes))
}

fn bad_root(what: &str) -> LoadError {
    LoadError::new(ErrorKind::Invalid, Location::File, what.to_string())
}

fn entry(
    obj: &Map<String, Value>,
    kind: ObjectKind,
    version: u32,
    key: &str,
) -> Result<MapObject, String> {
    let name_key = if kind == ObjectKind::Droid {
        "template"
    } else {
        "name"
    };
    let stats_id = obj
        .get(name_key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("no \"{name_key}\" string"))?
        .to_string();
    let position = number_list(obj.get("position"), false).ok_or("no \"position\" list")?;
    let need = if version == 1 { 3 } else { 2 };
    if position.len() < need {
        return Err(format!("\"position\" has fewer than {need} numbers"));
    }
    let direction = match number_list(obj.get("rotation"), version >= 2) {
        Some(r) if !r.is_empty() => r[0],
        Some(_) => return Err("\"rotation\" is empty".into()),
        None if obj.contains_key("rotation") => return Err("\"rotation\" is not numbers".into()),
        None => 0,
    };
    let owner = match kind {
        ObjectKind::Feature => Owner::None,
        _ => owner(obj).ok_or("no \"player\" or \"startpos\"")?,
    };
    let modules = match obj.get("modules") {
        None => 0,
        Some(v) => v
            .as_u64()
            .filter(|&m| m <= 255)
            .ok_or("\"modules\" is not a number from 0 to 255")? as u32,
    };
    let id = obj
        .get("id")
        .and_then(Value::as_u64)
        .and_then(|v| u32::try_from(v).ok());
    Ok(MapObject {
        kind,
        stats_id,
        owner,
        x: clamp_i32(position[0]),
        y: clamp_i32(position[1]),
        direction: direction.clamp(0, 65535) as u16,
        id,
        modules,
        key: key.to_string(),
    })
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A list of numbers (or, when `single` allows, one number), truncated to integers.
fn number_list(v: Option<&Value>, single: bool) -> Option<Vec<i64>> {
    let num = |v: &Value| {
        v.as_i64()
            .or_else(|| v.as_f64().filter(|f| f.is_finite()).map(|f| f as i64))
    };
    match v? {
        Value::Array(a) if a.len() <= 16 => a.iter().map(num).collect(),
        n @ Value::Number(_) if single => num(n).map(|n| vec![n]),
        _ => None,
    }
}

/// `jsonGetPlayerFromObj`: `startpos` (skirmish), else `player` — a number, or a string
/// starting with `scavenger`.
fn owner(obj: &Map<String, Value>) -> Option<Owner> {
    if let Some(n) = obj.get("startpos").and_then(Value::as_u64) {
        return u32::try_from(n).ok().map(Owner::Player);
    }
    match obj.get("player")? {
        Value::String(s) if s.starts_with("scavenger") => Some(Owner::Scavenger),
        Value::String(s) => s.trim().parse().ok().map(Owner::Player),
        v => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Owner::Player),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_versions() {
        let v1 = br#"{"structure_1": {"name": "A0LightFactory", "position": [2624, 2368, 242],
            "rotation": [16384, 0, 0], "startpos": 0}}"#;
        let (o, version, notes) = read_json_objects(v1, ObjectKind::Structure).unwrap();
        assert_eq!((version, o.len(), notes.len()), (1, 1, 0));
        assert_eq!((o[0].x, o[0].y, o[0].direction), (2624, 2368, 16384));
        assert_eq!(o[0].owner, Owner::Player(0));
        let v2 = br#"{"version": 2, "droids": [{"template": "ConstructorDroid", "id": 9,
            "position": [100, 200], "rotation": 8192, "player": "scavenger"},
            {"template": "X", "position": [1]}]}"#;
        let (o, version, notes) = read_json_objects(v2, ObjectKind::Droid).unwrap();
        assert_eq!((version, o.len(), notes.len()), (2, 1, 1));
        assert_eq!(o[0].owner, Owner::Scavenger);
        assert_eq!(o[0].id, Some(9));
        assert_eq!(o[0].degrees(), 45.0);
    }

    #[test]
    fn bad_json_names_the_line() {
        let e = read_json_objects(b"{\n\"a\": [1,\n}", ObjectKind::Feature).unwrap_err();
        assert_eq!(e.location, Location::Line(3));
        let e = read_json_objects(br#"{"version": 3}"#, ObjectKind::Feature).unwrap_err();
        assert!(e.message.contains("version 3"), "{e}");
    }
}
