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
    /// The levels the package defines over this map, and the one taken.
    pub levels: Levels,
}

/// The levels a package defines over one map (FlaME writes three, one per old tech
/// level), and the one Vitrine took: the one the 4.x skirmish list shows
/// (`super::find`'s `lobby_pick`).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Levels {
    /// The level taken, as the package names it (`NTW_Water_4v4-T1`); empty where no
    /// level file names the map.
    pub taken: String,
    /// Every level over the map, in the order the package defines them.
    pub all: Vec<String>,
    /// Whether `taken` was asked for by name (`--level NAME-T3`), not the lobby's pick.
    pub asked: bool,
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
    /// The `type` (14 skirmish at tech level 1, 18, 19, 20 the later tech levels).
    pub kind: Option<u32>,
    pub dataset: Option<String>,
    pub game: Option<String>,
    /// The line of its `level` keyword (1-based).
    pub line: u32,
    /// The line of its `game` keyword.
    pub game_line: u32,
    /// Why the game ignores the level (wzmaplib's `loadLevelDetails_LEV` gives such a
    /// level up and takes the package's next one): a `players` or `type` that is not a
    /// number, at its line.
    pub refused: Option<LoadError>,
}

/// Levels one `.lev` file may define. The game's own `addon.lev` defines 44, `base.wz`'s
/// `gamedesc.lev` fewer than 100, FlaME 3 per map: a file with more is not a map
/// package, and the levels after these are left out with a problem naming the line.
pub const MAX_LEV_LEVELS: usize = 1024;

/// Most players a `.lev` level may state: wzmaplib's `loadLevelDetails_LEV` gives a
/// level with more up (`players` is a `uint8_t`), as `loadLevelDetails_JSON` does a
/// `level.json`'s. The game has 10 player slots (`MAX_PLAYERS_IN_GUI`, `MAX_PLAYERS` 11
/// with the scavengers); what reads the players (start positions, the slots `check`
/// lists) is bounded by this.
pub const MAX_LEV_PLAYERS: u32 = 255;

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

/// The text of a `.lev` file line by line, comments (`/* */`, `//`) removed: `(line
/// number, text)`.
fn lev_lines(text: &str) -> impl Iterator<Item = (u32, String)> + '_ {
    let mut in_comment = false;
    text.lines().enumerate().map(move |(i, raw)| {
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
        let line = line.split("//").next().unwrap_or("").trim().to_string();
        (u32::try_from(i + 1).unwrap_or(u32::MAX), line)
    })
}

/// The level entries of a `.lev` file (`campaign` blocks and their `data` lines
/// ignored), at most [`MAX_LEV_LEVELS`]; and the problem of a file with more (at the
/// line of the first left out). A level whose `players` or `type` is not a number is
/// kept with [`LevEntry::refused`] set: the rest of the file still counts.
pub(crate) fn parse_lev(text: &str) -> (Vec<LevEntry>, Option<LoadError>) {
    let mut out: Vec<LevEntry> = Vec::new();
    let mut in_level = false;
    for (line_no, line) in lev_lines(text) {
        let mut words = line.splitn(2, char::is_whitespace);
        let (Some(key), value) = (
            words.next(),
            words.next().map(|v| v.trim().trim_matches('"')),
        ) else {
            continue;
        };
        let at = Location::Line(line_no);
        match (key, value) {
            (k, Some(name)) if LEVEL_KEYWORDS.contains(&k) => {
                if out.len() == MAX_LEV_LEVELS {
                    let e = LoadError::new(
                        ErrorKind::Invalid,
                        at,
                        format!(
                            "more than {MAX_LEV_LEVELS} levels: level {name:?} and those after \
                             it are left out"
                        ),
                    )
                    .with_rule("map/level-refused");
                    return (out, Some(e));
                }
                in_level = true;
                out.push(LevEntry {
                    name: name.to_string(),
                    players: None,
                    kind: None,
                    dataset: None,
                    game: None,
                    line: line_no,
                    game_line: line_no,
                    refused: None,
                });
            }
            ("campaign", _) => in_level = false,
            (key @ ("players" | "type"), Some(v)) if in_level => {
                let Some(l) = out.last_mut() else { continue };
                match v.parse::<u32>() {
                    Ok(n) if key == "players" && n > MAX_LEV_PLAYERS => {
                        let why = format!(
                            "level {:?}: players {n} is over {MAX_LEV_PLAYERS}; the game \
                             ignores the level (wzmaplib's loadLevelDetails_LEV; the lobby \
                             offers 2 to 10 players)",
                            l.name
                        );
                        l.refused.get_or_insert(
                            LoadError::new(ErrorKind::BadValue, at, why)
                                .with_rule("map/level-refused"),
                        );
                    }
                    Ok(n) if key == "players" => l.players = Some(n),
                    Ok(n) => l.kind = Some(n),
                    Err(_) => {
                        let why = format!(
                            "level {:?}: {key} {v:?} is not a number; the game ignores the level",
                            l.name
                        );
                        l.refused.get_or_insert(
                            LoadError::new(ErrorKind::BadValue, at, why)
                                .with_rule("map/level-refused"),
                        );
                    }
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
                    l.game_line = line_no;
                }
            }
            _ => {}
        }
    }
    (out, None)
}

/// The name the skirmish list shows for a level: its name without a tech-level suffix
/// `-T1` … `-T9` (`mapNameWithoutTechlevel` in the game's `src/levels.cpp`, wzmaplib's
/// `trimTechLevelFromMapName`: `NTW_Water_4v4-T1` → `NTW_Water_4v4`).
pub fn map_name(level: &str) -> &str {
    let b = level.as_bytes();
    match b {
        [.., b'-', b'T', d] if d.is_ascii_digit() => &level[..level.len() - 3],
        _ => level,
    }
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

/// The 1-based line of the first `"key"` in `bytes` (line 1 where it is not there: the
/// object's start).
fn key_line(bytes: &[u8], key: &str) -> u32 {
    let quoted = format!("\"{key}\"");
    let at = bytes
        .windows(quoted.len().max(1))
        .position(|w| w == quoted.as_bytes())
        .unwrap_or(0);
    let newlines = bytes[..at].iter().filter(|&&b| b == b'\n').count();
    u32::try_from(newlines + 1).unwrap_or(u32::MAX)
}

/// `level.json`'s facts (name, players, tileset), and a problem for each key the game
/// requires that is missing or of the wrong type (`loadLevelDetails_JSON` in wzmaplib's
/// `map_package.cpp` reads `name`, `type` ("skirmish"), `players` (0–255) and `tileset`
/// as strings and a number, and gives the whole level up on any of them): Vitrine still
/// opens the map, with the folder's name, no player count or Arizona in its place.
///
/// # Errors
/// Text that is not a JSON object (the line and column of the fault).
pub(crate) fn parse_level_json(bytes: &[u8]) -> Result<(LevelJson, Vec<LoadError>), LoadError> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        LoadError::new(
            ErrorKind::Syntax,
            Location::Line(e.line() as u32),
            format!("invalid JSON (column {}): {e}", e.column()),
        )
        .with_rule("map/level-json")
    })?;
    let Some(object) = v.as_object() else {
        return Err(LoadError::new(
            ErrorKind::Invalid,
            Location::Line(1),
            "not a JSON object: the game reads no level from it",
        )
        .with_rule("map/level-json"));
    };
    let mut problems = Vec::new();
    let mut problem = |key: &str, why: String| {
        problems.push(
            LoadError::new(
                ErrorKind::BadValue,
                Location::Line(key_line(bytes, key)),
                format!("{why}: the game refuses this level (loadLevelDetails_JSON)"),
            )
            .with_rule("map/level-json"),
        );
    };
    let shown = |v: &serde_json::Value| {
        let s = v.to_string();
        if s.chars().count() > 40 {
            format!("{}…", s.chars().take(40).collect::<String>())
        } else {
            s
        }
    };
    let mut string = |key: &str| match object.get(key) {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(other) => {
            problem(key, format!("\"{key}\" is {}, not a string", shown(other)));
            None
        }
        None => {
            problem(key, format!("no \"{key}\""));
            None
        }
    };
    let name = string("name");
    let kind = string("type");
    let stated = string("tileset");
    if let Some(k) = kind.filter(|k| k != "skirmish") {
        problem(
            "type",
            format!("\"type\" is {k:?}; the game knows only \"skirmish\""),
        );
    }
    let players = match object.get("players") {
        Some(n) => match n.as_u64().and_then(|n| u8::try_from(n).ok()) {
            Some(p) => Some(u32::from(p)),
            None => {
                problem(
                    "players",
                    format!("\"players\" is {}, not a number from 0 to 255", shown(n)),
                );
                None
            }
        },
        None => {
            problem("players", "no \"players\"".into());
            None
        }
    };
    let tileset = stated
        .as_deref()
        .map(|t| match t.to_ascii_lowercase().as_str() {
            "urban" => Tileset::Urban,
            "rockies" | "rockie" => Tileset::Rockies,
            _ => Tileset::Arizona,
        });
    let known = ["arizona", "urban", "rockies", "rockie"];
    let tileset_unknown = stated.filter(|t| !known.contains(&t.to_ascii_lowercase().as_str()));
    Ok((
        LevelJson {
            name,
            players,
            tileset,
            tileset_unknown,
        },
        problems,
    ))
}

/// Players from a folder name's `Nc-` prefix (`4c-rush` → 4).
pub(crate) fn players_from_name(name: &str) -> Option<u32> {
    let (n, rest) = name.split_once('c')?;
    (rest.starts_with('-') && !n.is_empty())
        .then(|| n.parse().ok())
        .flatten()
        .filter(|&n| n <= MAX_LEV_PLAYERS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lev_entries_and_tilesets() {
        let text = "/* a\n comment */\ncampaign MULTI_CAM_1\ndata \"wrf/vidmem.wrf\"\n\
                    level Sk-Rush // four\nplayers 4\ntype 14\ndataset MULTI_CAM_1\n\
                    game \"multiplay/maps/4c-rush.gam\"\nlevel X\nplayers 2\ndataset MULTI_T2_C3\n";
        let (e, too_many) = parse_lev(text);
        assert!(too_many.is_none());
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
        // More players than wzmaplib's byte holds: the level given up, at its line.
        let (e, _) = parse_lev("level A\ntype 14\nplayers 4294967295\n");
        let refused = e[0].refused.as_ref().expect("players over 255");
        assert_eq!(refused.location, Location::Line(3));
        assert!(refused.message.contains("over 255"), "{refused}");
        assert_eq!(e[0].players, None);
        let (e, _) = parse_lev("level A\nplayers many\ntype 14\n");
        let refused = e[0].refused.as_ref().expect("a players that is no number");
        assert_eq!(refused.location, Location::Line(2));
        assert_eq!(e[0].kind, Some(14));
        assert_eq!(map_name("NTW_Water_4v4-T1"), "NTW_Water_4v4");
        assert_eq!(map_name("Sk-Rush"), "Sk-Rush");
        assert_eq!(map_name("X-t1"), "X-t1");
        assert_eq!(map_name("-T2"), "");
        assert_eq!(players_from_name("10c-WaterLoop"), Some(10));
        assert_eq!(players_from_name("rush"), None);
        assert_eq!(players_from_name("4294967295c-x"), None);
    }
}
