//! A map's level: its name, player count and tileset, from a `.lev` file
//! (`map_levparse.cpp`: `level`, `players`, `dataset`, `game`) or a `level.json`
//! (`loadLevelDetails_JSON` in `map_package.cpp`), and the tileset the game picks from
//! them (`convertLevMapTilesetType`: `MULTI_CAM_n`, `MULTI_Tt_Cn` and `CAM_n` → n = 1
//! Arizona, 2 Urban, 3 Rockies).

use crate::files::FileRef;
pub use crate::formats::pie::Tileset;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// How a map package keeps its map (notes §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A `.lev` names `multiplay/maps/NAME.gam`; the files are in `multiplay/maps/NAME/`
    /// (`mp.wz`'s skirmish maps, FlaME packages, `base.wz`'s campaign).
    Classic,
    /// A `level.json` beside `game.map` and the JSON objects (the 4.x map database).
    LevelJson,
    /// `level.json` + `game.js`: the terrain and objects come from a script.
    Script,
    /// A folder (or a bare `game.map`) that no level names.
    Folder,
}

/// One level of a package: what it is called, how many players, which tileset, and the
/// folder its files are in.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// The level's name (`Sk-Rush`), or the folder's name where nothing names it.
    pub name: String,
    /// Player slots (`players` in the `.lev`, `level.json`'s `players`, else the `Nc-`
    /// prefix of the folder's name); `None` where nothing says.
    pub players: Option<u32>,
    /// The tileset as the game picks it.
    pub tileset: Tileset,
    /// Where the tileset came from (`dataset MULTI_CAM_1 in addon.lev`).
    pub tileset_from: String,
    /// The dataset or tileset name the level states that the game does not know (it
    /// falls back to Arizona), if any.
    pub tileset_unknown: Option<String>,
    /// The folder holding `game.map` (or `game.js`).
    pub folder: FileRef,
    /// The `.gam` beside it, if any.
    pub gam: Option<FileRef>,
    /// The file that names the level (`.lev`, `level.json`), if any.
    pub defined_in: Option<FileRef>,
    /// The package's shape.
    pub shape: Shape,
    /// The seed a script-generated map's `gameRand` starts from
    /// ([`super::script::DEFAULT_SEED`] unless set; the game draws a new one per game).
    pub seed: u32,
}

impl Level {
    /// Runs a script-generated map with `seed` where one is asked for (`--seed`, the map
    /// panel's *Run again*); `None` keeps the level's own.
    pub fn ask_seed(&mut self, seed: Option<u32>) {
        if let Some(seed) = seed {
            self.seed = seed;
        }
    }
}

/// One `level` entry of a `.lev` file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LevEntry {
    pub name: String,
    pub players: Option<u32>,
    pub dataset: Option<String>,
    pub game: Option<String>,
}

/// The keywords that start a level: skirmish `level`, and the campaign's kinds
/// (`camstart`, `expand`, `miss_keep`, … in `base.wz`'s `gamedesc.lev`).
const LEVEL_KEYWORDS: &[&str] = &[
    "level",
    "camstart",
    "camchange",
    "expand",
    "expand_limbo",
    "between",
    "miss_keep",
    "miss_keep_limbo",
    "miss_clear",
];

/// The level entries of a `.lev` file (comments `/* */` and `//` skipped; `campaign`
/// blocks and their `data` lines ignored).
pub(crate) fn parse_lev(text: &str) -> Result<Vec<LevEntry>, LoadError> {
    let mut out: Vec<LevEntry> = Vec::new();
    let mut in_comment = false;
    let mut in_level = false;
    for (i, raw) in text.lines().enumerate() {
        let mut line = String::new();
        let mut rest = raw;
        while !rest.is_empty() {
            if in_comment {
                match rest.find("*/") {
                    Some(e) => {
                        rest = &rest[e + 2..];
                        in_comment = false;
                    }
                    None => rest = "",
                }
            } else if let Some(s) = rest.find("/*") {
                line.push_str(&rest[..s]);
                rest = &rest[s + 2..];
                in_comment = true;
            } else {
                line.push_str(rest);
                rest = "";
            }
        }
        let line = line.split("//").next().unwrap_or("").trim();
        let mut words = line.splitn(2, char::is_whitespace);
        let (Some(key), value) = (
            words.next(),
            words.next().map(|v| v.trim().trim_matches('"')),
        ) else {
            continue;
        };
        let at = || Location::Line(i as u32 + 1);
        match (key, value) {
            (k, Some(name)) if LEVEL_KEYWORDS.contains(&k) => {
                in_level = true;
                out.push(LevEntry {
                    name: name.to_string(),
                    players: None,
                    dataset: None,
                    game: None,
                });
            }
            ("campaign", _) => in_level = false,
            ("players", Some(v)) if in_level => {
                let n = v.parse().map_err(|_| {
                    LoadError::new(ErrorKind::BadValue, at(), format!("players {v:?}"))
                })?;
                if let Some(l) = out.last_mut() {
                    l.players = Some(n);
                }
            }
            ("dataset", Some(v)) if in_level => {
                if let Some(l) = out.last_mut() {
                    l.dataset = Some(v.to_string());
                }
            }
            ("game", Some(v)) if in_level => {
                if let Some(l) = out.last_mut() {
                    l.game = Some(v.to_string());
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The tileset a `.lev` dataset names (`MULTI_CAM_2` → Urban); unknown → Arizona, the
/// game's fallback.
pub(crate) fn dataset_tileset(dataset: &str) -> Option<Tileset> {
    let digit = dataset.trim().chars().last()?.to_digit(10)?;
    let upper = dataset.to_ascii_uppercase();
    if !(upper.contains("CAM_") || upper.contains("_C")) {
        return None;
    }
    Tileset::from_slot(digit.checked_sub(1)? as usize)
}

/// `level.json`'s facts, each where stated.
pub(crate) struct LevelJson {
    pub name: Option<String>,
    pub players: Option<u32>,
    pub tileset: Option<Tileset>,
    /// The `tileset` string when it names none of the three (the game then uses Arizona).
    pub tileset_unknown: Option<String>,
}

/// `level.json`'s facts: name, players, tileset.
pub(crate) fn parse_level_json(bytes: &[u8]) -> Result<LevelJson, LoadError> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        LoadError::new(
            ErrorKind::Syntax,
            Location::Line(e.line() as u32),
            format!("invalid JSON (column {}): {e}", e.column()),
        )
    })?;
    let name = v.get("name").and_then(|n| n.as_str()).map(str::to_string);
    let players = v
        .get("players")
        .and_then(|n| n.as_u64())
        .and_then(|n| u32::try_from(n).ok());
    let stated = v.get("tileset").and_then(|t| t.as_str());
    let tileset = stated.map(|t| match t.to_ascii_lowercase().as_str() {
        "urban" => Tileset::Urban,
        "rockies" | "rockie" => Tileset::Rockies,
        _ => Tileset::Arizona,
    });
    let known = ["arizona", "urban", "rockies", "rockie"];
    let tileset_unknown = stated
        .filter(|t| !known.contains(&t.to_ascii_lowercase().as_str()))
        .map(str::to_string);
    Ok(LevelJson {
        name,
        players,
        tileset,
        tileset_unknown,
    })
}

/// Players from a folder name's `Nc-` prefix (`4c-rush` → 4).
pub(crate) fn players_from_name(name: &str) -> Option<u32> {
    let (n, rest) = name.split_once('c')?;
    (rest.starts_with('-') && !n.is_empty())
        .then(|| n.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lev_entries_and_tilesets() {
        let text = "/* a\n comment */\ncampaign MULTI_CAM_1\ndata \"wrf/vidmem.wrf\"\n\
                    level Sk-Rush // four\nplayers 4\ntype 14\ndataset MULTI_CAM_1\n\
                    game \"multiplay/maps/4c-rush.gam\"\nlevel X\nplayers 2\ndataset MULTI_T2_C3\n";
        let e = parse_lev(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].name, "Sk-Rush");
        assert_eq!(e[0].players, Some(4));
        assert_eq!(e[0].game.as_deref(), Some("multiplay/maps/4c-rush.gam"));
        let cases = [
            ("MULTI_CAM_1", Some(Tileset::Arizona)),
            ("MULTI_CAM_2", Some(Tileset::Urban)),
            ("MULTI_T2_C3", Some(Tileset::Rockies)),
            ("CAM_3", Some(Tileset::Rockies)),
            ("WHATEVER", None),
        ];
        for (d, want) in cases {
            assert_eq!(dataset_tileset(d), want, "{d}");
        }
        assert!(parse_lev("level A\nplayers many\n").is_err());
        assert_eq!(players_from_name("10c-WaterLoop"), Some(10));
        assert_eq!(players_from_name("rush"), None);
    }
}
