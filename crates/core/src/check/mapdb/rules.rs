//! The rules of the map database (maps.wz2100.net): what `validate_map_info` refuses or
//! warns about in the JSON `maptools package info` gives of a submitted map. Each rule
//! keeps the database's own level in its summary: an **error** refuses the map (Vitrine's
//! error), a **non-fatal error** is listed but the map is taken, a **warning** is listed
//! (both Vitrine's warning).

use super::super::Level::{Error as E, Warning as W};
use super::super::rules::{Rule, r};

/// Where every rule comes from.
pub(crate) const SOURCE: &str = "map database (public repository Warzone2100/maps-database), \
     scripts/funcs/map_funcs.py (validate_map_info), on the JSON of maptools package info";

/// The map database's rules, in the order `validate_map_info` checks them.
pub(crate) const RULES: &[Rule] = &[
    r(
        "mapdb/package-refused",
        E,
        "database error: maptools cannot read the package",
        "The database runs `maptools package info --map-seed=0` on a submitted package first; where that fails (no level.json or .lev, a level.json missing `name`, `type`, `players` or `tileset`, a map that does not load, several maps in one package) the map is refused before any other rule. The message says why.",
        SOURCE,
    ),
    r(
        "mapdb/name-short",
        W,
        "database warning: the map's name is under 6 characters",
        "The database suggests a name of at least 6 characters, so that players can tell maps apart in the lobby and on maps.wz2100.net.",
        SOURCE,
    ),
    r(
        "mapdb/name-long",
        W,
        "database warning: the map's name is over 30 characters",
        "Names longer than 30 characters may be cut short where the game and the site show them; the database suggests a shorter one.",
        SOURCE,
    ),
    r(
        "mapdb/name-too-long",
        E,
        "database error: the map's name is over 60 characters",
        "The database refuses a name longer than 60 characters. Shorten the level's `name`.",
        SOURCE,
    ),
    r(
        "mapdb/name-characters",
        E,
        "database error: the map's name has characters other than A–Z, a–z, 0–9, '-', '_'",
        "For compatibility with old game versions (a map's name was a file name and a 20-byte field of the .gam), the database takes only ASCII letters, digits, '-' and '_' in a name: no spaces, no accents.",
        SOURCE,
    ),
    r(
        "mapdb/type",
        E,
        "database error: the level's type is not `skirmish`",
        "The database holds skirmish (multiplayer) maps only: level.json's `type` must be `skirmish` (a .lev level's `type` 14, 18 or 19).",
        SOURCE,
    ),
    r(
        "mapdb/players",
        E,
        "database error: the map is not for 2 to 10 players",
        "A skirmish map in the database is for 2 to 10 players (level.json's `players`); the database's repositories are per player count (maps-2p … maps-10p).",
        SOURCE,
    ),
    r(
        "mapdb/tileset",
        E,
        "database error: the tileset is none of arizona, urban, rockies",
        "level.json's `tileset` must be `arizona`, `urban` or `rockies`, written so (lower case); wzmaplib refuses anything else, and the game falls back to Arizona.",
        SOURCE,
    ),
    r(
        "mapdb/license-missing",
        E,
        "database error: no licence",
        "The database requires a licence (level.json's `spdx-license-id`; FlaME's `// License:` comment in a .lev), one of: CC0-1.0, GPL-2.0-or-later, CC-BY-3.0 OR GPL-2.0-or-later, CC-BY-SA-3.0 OR GPL-2.0-or-later, CC-BY-4.0 OR GPL-2.0-or-later, CC-BY-SA-4.0 OR GPL-2.0-or-later.",
        SOURCE,
    ),
    r(
        "mapdb/license",
        E,
        "database error: the licence is not an SPDX expression from the database's list",
        "The licence must parse as an SPDX licence expression and be equivalent to one of the six the database takes (CC0-1.0, GPL-2.0-or-later, or CC-BY-3.0 / CC-BY-SA-3.0 / CC-BY-4.0 / CC-BY-SA-4.0 OR GPL-2.0-or-later; the order of an OR does not matter). A licence outside the list, or text that is not an SPDX expression, is refused.",
        SOURCE,
    ),
    r(
        "mapdb/author",
        E,
        "database error: no author, or an author name over 60 characters",
        "The database requires an author (level.json's `author: {\"name\": …}`) unless the map has a valid licence, when a missing author is only a non-fatal error (mapdb/author-missing); additional authors without an author, or a name longer than 60 characters, are refused.",
        SOURCE,
    ),
    r(
        "mapdb/author-missing",
        W,
        "database non-fatal error: no author (the map has a valid licence)",
        "The database lists a map with a valid licence but no author as a non-fatal error: the map is taken, but should name its author (level.json's `author: {\"name\": …}`).",
        SOURCE,
    ),
    r(
        "mapdb/author-empty",
        W,
        "database warning: the author's name is empty",
        "level.json's `author` has an empty `name`; give the author's name.",
        SOURCE,
    ),
    r(
        "mapdb/created",
        E,
        "database error: the created date is not YYYY-MM-DD, not a day, in the future or before 1999",
        "level.json's `created-date` (FlaME's `// Date:` comment) must start with a date written YYYY-MM-DD (a time may follow) that is a real day, no later than tomorrow and not before the game's creation (1999).",
        SOURCE,
    ),
    r(
        "mapdb/created-missing",
        W,
        "database warning: no created date",
        "The database asks for the date the map was made (level.json's `created-date`, YYYY-MM-DD).",
        SOURCE,
    ),
    r(
        "mapdb/map-size",
        E,
        "database error: the map's width or height is outside 1–256 tiles",
        "The database takes maps of 1 to 256 tiles a side.",
        SOURCE,
    ),
    r(
        "mapdb/oil",
        W,
        "database warning: no oil resource, and a player starts without a derrick",
        "The map has no oil well (an oil resource or a derrick) and at least one player starts without a derrick: did you forget the oil? Without oil nobody earns power.",
        SOURCE,
    ),
    r(
        "mapdb/hq",
        W,
        "database warning: a player from slot 2 on has no HQ",
        "The database warns about each player without a command centre (HQ) — from player 2 on: its check starts at slot 2, so players 0 and 1 (and every player of a 2-player map) are never warned about. Vitrine reports what the database reports; `map/start-position-missing` covers every slot for the game.",
        SOURCE,
    ),
    r(
        "mapdb/power-generator",
        W,
        "database warning: a player starts without a power generator",
        "At least one player has no power generator at the start; the database suggests giving every player one.",
        SOURCE,
    ),
    r(
        "mapdb/factory",
        W,
        "database warning: a player starts without a factory of any kind",
        "No factory, cyborg factory or VTOL factory is given to every player (the smallest count of each is 0); the database suggests giving every player one.",
        SOURCE,
    ),
    r(
        "mapdb/research",
        W,
        "database warning: a player starts without a research facility",
        "At least one player has no research facility at the start; the database suggests giving every player one.",
        SOURCE,
    ),
    r(
        "mapdb/map-mod",
        E,
        "database error: a map-mod with both game models and datasets, which cannot be stripped",
        "The package changes game files beside its map (a map-mod) including both models (components/, features/, structs/, misc/) and datasets (wrf/): the database cannot turn it into a plain map. Ship the map alone.",
        SOURCE,
    ),
    r(
        "mapdb/map-mod-textures",
        W,
        "database warning: a map-mod with texture overrides",
        "The package overrides texture pages (texpages/); the database will not keep them.",
        SOURCE,
    ),
    r(
        "mapdb/map-mod-strip",
        W,
        "database warning: the database strips the map-mod's changes",
        "The package changes game files beside its map; the database keeps only the map and strips the rest (listed in the message). Review that the map works without them.",
        SOURCE,
    ),
    r(
        "mapdb/map-mod-types",
        W,
        "database warning: a map-mod whose changes are of no known kind",
        "The package has folders beside its map that are none of the kinds the database knows (models, stats, textures, scripts, …); review them.",
        SOURCE,
    ),
    r(
        "mapdb/level-format",
        E,
        "database error: the level is a .lev, not level.json",
        "The database takes the 4.x level format only: a `level.json` (maptools package convert writes one).",
        SOURCE,
    ),
    r(
        "mapdb/map-format",
        E,
        "database error: the objects are not JSON v2 (nor a script)",
        "The database takes maps whose structures, features and droids are JSON v2 files (`\"version\": 2`) or built by a script (game.js); BJO, JSON v1 and mixed formats are refused (maptools package convert --format jsonv2 rewrites them).",
        SOURCE,
    ),
    r(
        "mapdb/flat-package",
        E,
        "database error: not a flat package (level.json and the map at the archive's root)",
        "The database takes \"flat\" packages: level.json, game.map and the object files at the root of the .wz, not under multiplay/maps/.",
        SOURCE,
    ),
];
