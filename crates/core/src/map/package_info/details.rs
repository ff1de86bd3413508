//! A level's details as `maptools package info` reports them: name, type, players,
//! tileset, author(s), licence, created date and generator — from `level.json`
//! (`loadLevelDetails_JSON` in wzmaplib's `map_package.cpp`: `author.name`,
//! `spdx-license-id`, `created-date`, `generator`, `additional-authors[].name`) or from a
//! classic `.lev` and the comments FlaME writes into it (`// Made with FlaME …`,
//! `// Date: YYYY/MM/DD …`, `// Author: …`, `// License: …`, read by
//! `loadLevelDetails_LEV`).

use crate::files::{FileRef, Files};
use crate::formats::{ErrorKind, LoadError};
use crate::map::Level;
use crate::model::Location;

/// The level's details, as maptools reports them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Details {
    pub name: String,
    /// `skirmish`, or what the level states when it is not one.
    pub kind: String,
    pub players: u32,
    pub tileset: String,
    /// Empty where none is stated.
    pub author: String,
    pub additional_authors: Vec<String>,
    pub license: String,
    pub created: String,
    pub generator: Option<String>,
}

fn refused(file: &FileRef, message: impl Into<String>) -> LoadError {
    LoadError::new(ErrorKind::BadValue, Location::File, message).in_file(&file.to_string())
}

/// The details of `level`, read from the file that names it.
///
/// # Errors
/// A level no `level.json` or `.lev` names (maptools finds no level in such a package),
/// an unreadable or invalid `level.json`, or one whose `name`, `type`, `players` or
/// `tileset` is missing or of the wrong type (wzmaplib refuses those).
pub(super) fn details(files: &Files, level: &Level) -> Result<Details, LoadError> {
    let Some(file) = &level.defined_in else {
        return Err(refused(
            &level.folder,
            "no level.json or .lev names this map: maptools finds no level in the package",
        ));
    };
    let bytes = files.read(file).map_err(|e| {
        LoadError::new(ErrorKind::Io, Location::File, format!("cannot read: {e}"))
            .in_file(&file.to_string())
    })?;
    if file.file_name().eq_ignore_ascii_case("level.json") {
        from_level_json(&bytes).map_err(|e| e.in_file(&file.to_string()))
    } else {
        Ok(from_lev(&String::from_utf8_lossy(&bytes), level))
    }
}

/// A string key of `v`, where it is one.
fn string(v: &serde_json::Value, key: &str) -> Option<String> {
    v.get(key).and_then(|s| s.as_str()).map(str::to_string)
}

/// `level.json`'s details. The four keys wzmaplib requires must be there with their
/// types; `type` and `tileset` are kept as stated (the database's rules judge them).
pub(super) fn from_level_json(bytes: &[u8]) -> Result<Details, LoadError> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        LoadError::new(
            ErrorKind::Syntax,
            Location::Line(e.line() as u32),
            format!("invalid JSON (column {}): {e}", e.column()),
        )
    })?;
    let required = |key: &str| {
        LoadError::new(
            ErrorKind::BadValue,
            Location::File,
            format!("level.json: {key:?} is missing or not a string (wzmaplib requires it)"),
        )
    };
    let name = string(&v, "name").ok_or_else(|| required("name"))?;
    let kind = string(&v, "type").ok_or_else(|| required("type"))?;
    let tileset = string(&v, "tileset").ok_or_else(|| required("tileset"))?;
    let players = v
        .get("players")
        .and_then(serde_json::Value::as_u64)
        .filter(|p| *p <= u64::from(u8::MAX))
        .ok_or_else(|| {
            LoadError::new(
                ErrorKind::BadValue,
                Location::File,
                "level.json: \"players\" is missing or not a whole number 0–255 (wzmaplib \
                 requires it)",
            )
        })? as u32;
    let author = v
        .get("author")
        .and_then(|a| string(a, "name"))
        .unwrap_or_default();
    let additional_authors = v
        .get("additional-authors")
        .and_then(|a| a.as_array())
        .map(|list| list.iter().filter_map(|a| string(a, "name")).collect())
        .unwrap_or_default();
    Ok(Details {
        name,
        kind,
        players,
        tileset,
        author,
        additional_authors,
        license: string(&v, "spdx-license-id").unwrap_or_default(),
        created: string(&v, "created-date").unwrap_or_default(),
        generator: string(&v, "generator"),
    })
}

/// The licences FlaME offers, as the SPDX expressions wzmaplib maps them to.
const FLAME_LICENSES: &[(&str, &str)] = &[
    ("CC BY-SA 3.0 + GPL v2+", "CC-BY-SA-3.0 OR GPL-2.0-or-later"),
    ("CC BY 3.0 + GPL v2+", "CC-BY-3.0 OR GPL-2.0-or-later"),
    ("GPL 2+", "GPL-2.0-or-later"),
    ("CC0", "CC0-1.0"),
];

/// The skirmish level types of a `.lev` (`type 14`, and the tech levels' 18, 19).
const SKIRMISH_TYPES: &[&str] = &["14", "18", "19"];

/// A `.lev`'s details for `level` (already found by [`crate::map::find_maps`]): its
/// type from the level's `type` line, the author, licence and date from the comments,
/// the tech-level suffix (`-T1`) cut from the name as wzmaplib cuts it.
pub(super) fn from_lev(text: &str, level: &Level) -> Details {
    let mut d = Details {
        name: trim_tech_level(&level.name).to_string(),
        players: level.players.unwrap_or(0),
        tileset: level
            .tileset_unknown
            .clone()
            .unwrap_or_else(|| level.tileset.name().to_ascii_lowercase()),
        ..Details::default()
    };
    let mut flame = false;
    let mut in_level = false;
    for line in text.lines() {
        let (code, comment) = match line.split_once("//") {
            Some((c, m)) => (c.trim(), Some(m.trim())),
            None => (line.trim(), None),
        };
        if let Some(comment) = comment {
            lev_comment(&mut d, &mut flame, comment);
        }
        let mut words = code.split_whitespace();
        match (words.next(), words.next()) {
            (Some("level"), Some(name)) => in_level = name.trim_matches('"') == level.name,
            (Some("type"), Some(t)) if in_level && d.kind.is_empty() => {
                d.kind = if SKIRMISH_TYPES.contains(&t) {
                    "skirmish".into()
                } else {
                    t.to_string()
                };
            }
            _ => {}
        }
    }
    if d.kind.is_empty() {
        d.kind = "skirmish".into();
    }
    d
}

/// One `//` comment of a `.lev`: the generator, then (FlaME's) `Date:`, and `Author:`,
/// `License:` — the first of each counts.
fn lev_comment(d: &mut Details, flame: &mut bool, comment: &str) {
    if comment.to_ascii_lowercase().starts_with("made with flame") {
        if !*flame && d.generator.is_none() {
            *flame = true;
            d.generator = comment.get(10..).map(str::to_string);
        }
        return;
    }
    if comment.starts_with("Generated by map database at ") {
        return;
    }
    if let Some(date) = comment.strip_prefix("Date: ")
        && *flame
        && d.created.is_empty()
    {
        let mut date = date.trim().to_string();
        if date.len() >= 10 && date.as_bytes()[4] == b'/' && date.as_bytes()[7] == b'/' {
            date.replace_range(4..5, "-");
            date.replace_range(7..8, "-");
        }
        d.created = date;
    } else if let Some(author) = comment.strip_prefix("Author: ")
        && d.author.is_empty()
    {
        d.author = author.trim().to_string();
    } else if let Some(license) = comment.strip_prefix("License: ")
        && d.license.is_empty()
        && let Some((_, spdx)) = FLAME_LICENSES.iter().find(|(l, _)| *l == license.trim())
    {
        d.license = (*spdx).to_string();
    }
}

/// `Name-T1` → `Name` (`trimTechLevelFromMapName`: a `-T` and one digit at the end).
fn trim_tech_level(name: &str) -> &str {
    let b = name.as_bytes();
    if b.len() > 2
        && b[b.len() - 3] == b'-'
        && b[b.len() - 2] == b'T'
        && b[b.len() - 1].is_ascii_digit()
    {
        &name[..name.len() - 3]
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_json_keys_as_wzmaplib_reads_them() {
        let d = from_level_json(
            br#"{"name": "Duel", "type": "skirmish", "players": 2, "tileset": "Urban",
                 "author": {"name": "Ann"}, "spdx-license-id": "CC0-1.0",
                 "created-date": "2020-01-02", "generator": "FlaME 1.29",
                 "additional-authors": [{"name": "Bo"}, 3, {"name": 4}]}"#,
        )
        .unwrap();
        assert_eq!(d.name, "Duel");
        assert_eq!(d.tileset, "Urban", "kept as stated");
        assert_eq!(d.author, "Ann");
        assert_eq!(d.additional_authors, ["Bo"]);
        assert_eq!(d.license, "CC0-1.0");
        assert_eq!(d.created, "2020-01-02");
        assert_eq!(d.generator.as_deref(), Some("FlaME 1.29"));
        let missing = from_level_json(br#"{"name": "A", "type": "skirmish", "tileset": "x"}"#);
        assert!(missing.unwrap_err().to_string().contains("players"));
        let bad = from_level_json(b"{\n\"name\": }").unwrap_err();
        assert_eq!(bad.location, Location::Line(2));
    }

    #[test]
    fn flame_lev_comments_and_tech_levels() {
        let lev = "// Made with FlaME 1.29 Windows\n// Date: 2013/08/11 20:31:02\n\
                   // Author: NoQ\n// License: CC BY 3.0 + GPL v2+\n\n\
                   level Rush-T1\nplayers 4\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/4c-Rush.gam\"\n\
                   level Rush-T2\nplayers 4\ntype 18\n";
        let level = Level {
            name: "Rush-T1".into(),
            players: Some(4),
            tileset: crate::map::Tileset::Arizona,
            tileset_from: String::new(),
            tileset_unknown: None,
            folder: FileRef::archive_root(std::path::Path::new("x.wz")),
            gam: None,
            defined_in: None,
            shape: crate::map::Shape::Classic,
            seed: 0,
            levels: Default::default(),
        };
        let d = from_lev(lev, &level);
        assert_eq!(d.name, "Rush");
        assert_eq!(d.kind, "skirmish");
        assert_eq!(d.players, 4);
        assert_eq!(d.tileset, "arizona");
        assert_eq!(d.author, "NoQ");
        assert_eq!(d.license, "CC-BY-3.0 OR GPL-2.0-or-later");
        assert_eq!(d.created, "2013-08-11 20:31:02");
        assert_eq!(d.generator.as_deref(), Some("FlaME 1.29 Windows"));
        // Without FlaME's comment, no date is taken; an unknown licence is none.
        let d = from_lev(
            "// Date: 2013/08/11\n// License: MIT\nlevel Rush-T1\ntype 7\n",
            &level,
        );
        assert_eq!((d.created.as_str(), d.license.as_str()), ("", ""));
        assert_eq!(d.kind, "7");
        assert_eq!(trim_tech_level("A-T3"), "A");
        assert_eq!(trim_tech_level("A-Tx"), "A-Tx");
    }
}
