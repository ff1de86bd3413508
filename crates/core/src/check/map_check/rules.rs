//! The rules of `vitrine check MAP`: what Warzone 2100 (4.x) refuses, drops or logs when it
//! loads a map, each with the game function that does it.

use super::super::Level::{Error as E, Note as N, Warning as W};
use super::super::rules::{Rule, r};

const WZMAPLIB: &str = "Warzone 2100 lib/wzmaplib/src/map.cpp";
const GAME_CPP: &str = "Warzone 2100 src/game.cpp";

/// The map rules, in the registry's order.
pub(crate) const RULES: &[Rule] = &[
    r(
        "map/game-map-version",
        E,
        "game.map version outside 10–40",
        "loadMapData_Internal reads game.map versions 10 to 39 (the old tile record: u16 texture, u8 height) and 40 (u16 height); a version of 9 or less, or above 40, is refused and the map does not load. Save the map again with a current editor.",
        WZMAPLIB,
    ),
    r(
        "map/size",
        E,
        "map width or height of 1 or less, or more than 65,536 tiles",
        "loadMapData_Internal refuses a map whose width or height is not above 1, or whose width × height is above MAP_MAXAREA (256 × 256 = 65,536 tiles); the map does not load.",
        WZMAPLIB,
    ),
    r(
        "map/tile-count",
        E,
        "game.map holds fewer tile records than width × height",
        "game.map stores one record per tile, width × height of them, before the gateways; loadMapData_Internal stops at a file that ends first and the map does not load. The header's size and the heights and textures written do not match: the file was cut short or its size was edited.",
        WZMAPLIB,
    ),
    r(
        "map/ttypes-version",
        E,
        "ttypes.ttp version outside 7–39",
        "loadTerrainTypes reads ttypes.ttp versions 7 to 39 (writers use 8 or 39); another version is refused and the map does not load.",
        "Warzone 2100 lib/wzmaplib/src/map_terrain_types.cpp (loadTerrainTypes)",
    ),
    r(
        "map/tileset-unknown",
        W,
        "the level names a tileset the game does not know",
        "A .lev `dataset` picks the tileset by its last digit (MULTI_CAM_n, MULTI_Tt_Cn, CAM_n: 1 Arizona, 2 Urban, 3 Rockies) and level.json's `tileset` names arizona, urban or rockies; for anything else the game loads the Arizona tileset, so the map is drawn with other ground, tiles and decals than its author chose.",
        "Warzone 2100 lib/wzmaplib/src/map_levparse.cpp (convertLevMapTilesetType), map_package.cpp (loadLevelDetails_JSON), src/map.cpp (mapLoadGroundTypes)",
    ),
    r(
        "map/level-refused",
        E,
        "a level of the package that does not open",
        "A level of a .lev whose `players` or `type` is not a number is given up by wzmaplib (loadLevelDetails_LEV); a level whose `game` names a map the package does not hold (multiplay/maps/NAME/ with no game.map or game.js: a map of another package, or a misspelt name) or a path that leaves the package (`../`) has no map to load; a .lev with more than 1,024 levels is no map package, the rest are left out. The package's other maps still open.",
        "Warzone 2100 lib/wzmaplib/src/map_package.cpp (loadLevelDetails_LEV, MapPackage::loadPackage)",
    ),
    r(
        "map/level-json",
        E,
        "level.json is not an object, or a key the game requires is missing or of the wrong type",
        "loadLevelDetails_JSON reads `name`, `type` (\"skirmish\"), `players` (0 to 255) and `tileset` as a string, a string, a number and a string, and gives the whole level up when one is missing or of another type: the map is not in the game's list. Vitrine still opens it (the folder's name, no player count, Arizona in place of what is missing).",
        "Warzone 2100 lib/wzmaplib/src/map_package.cpp (loadLevelDetails_JSON)",
    ),
    r(
        "map/gam-missing",
        N,
        "the .gam a level names is not in the package",
        "A classic level's `game` names multiplay/maps/NAME.gam, which holds the scroll limits; where it is missing Vitrine draws the whole map. What the game does then is not checked here.",
        "Warzone 2100 lib/wzmaplib/src/map_package.cpp (loadGamFile_OldBinary)",
    ),
    r(
        "map/structure-near-edge",
        E,
        "a structure on or off the map's edge (within 3 tiles)",
        "loadWzMapStructure skips every structure whose tile is less than TOO_NEAR_EDGE (3) tiles from the left or top edge or more than width − 3 / height − 3 (\"coord too near the edge of the map\", logged as an error); that covers structures placed off the map. Move it inwards.",
        "Warzone 2100 src/game.cpp (loadWzMapStructure)",
    ),
    r(
        "map/feature-off-map",
        E,
        "a feature whose footprint leaves the map",
        "buildFeature gives a feature up when a tile of its footprint is outside the map (\"coord bigger than map width\"); loadWzMapFeature then logs \"Unable to create feature\" and the feature is not on the loaded map.",
        "Warzone 2100 src/feature.cpp (buildFeature), src/game.cpp (loadWzMapFeature)",
    ),
    r(
        "map/feature-stacked",
        E,
        "a feature on another feature's tile (the older one is removed)",
        "buildFeature, placing a feature on a tile another feature already holds, logs an error (\"already placed … - removing it\") and removes the feature that was there first; only the later one (in file order) is on the loaded map.",
        "Warzone 2100 src/feature.cpp (buildFeature), src/game.cpp (loadWzMapFeature)",
    ),
    r(
        "map/droid-off-map",
        W,
        "a droid placed off the map",
        "reallyBuildDroid asserts in multiplayer that a droid's position is on the map (\"the build locations are not on the map\", logged) and builds it anyway, outside the area units can move in.",
        "Warzone 2100 src/droid.cpp (reallyBuildDroid), src/game.cpp (loadWzMapDroidInit)",
    ),
    r(
        "map/structure-stacked",
        E,
        "a structure on another structure's footprint",
        "buildStructureDir refuses a structure whose footprint covers a tile another structure already holds (a defence or gate may replace a wall); the game keeps the first in file order and logs \"couldn't be built (probably on top of another structure)\" for the rest.",
        "Warzone 2100 src/structure.cpp (buildStructureDir), src/game.cpp (loadWzMapStructure)",
    ),
    r(
        "map/module-record",
        N,
        "a module stored as its own structure record",
        "Older editors (FlaME, BJO files) write each factory, research or power module as a separate structure on its building's tile; loadWzMapStructure builds it onto that building, so the game holds one structure fewer per module record. Nothing is lost; JSON maps write `modules` on the building instead.",
        GAME_CPP,
    ),
    r(
        "map/module-orphan",
        E,
        "a module record with no building it fits on its tile",
        "loadWzMapStructure skips a module whose tile holds no structure (\"No owning structure for module\", logged as an error); a module on a building it does not fit (a power module on a factory) is not built either.",
        "Warzone 2100 src/game.cpp (loadWzMapStructure), src/structure.cpp (buildStructureDir)",
    ),
    r(
        "map/oil-under-derrick",
        N,
        "an oil resource under a derrick (removed by the game)",
        "A derrick is built on an oil resource: when the map places one, buildStructureDir removes the oil resource feature on its tile, so the game holds one feature fewer. This is how maps give players their starting derricks; it is listed so the counts add up.",
        "Warzone 2100 src/structure.cpp (buildStructureDir)",
    ),
    r(
        "map/unknown-stats",
        E,
        "a structure, feature or droid template the data does not define",
        "Each object names its stats: loadWzMapStructure skips a structure whose name is not in structure.json (\"Structure type unknown\"), loadWzMapFeature a feature not in features.json (\"Feature type unknown\"), loadWzMapDroidInit a droid whose template is not in templates.json (\"Unable to find template\"); each is logged as an error and the object is not on the map. Checked against the data roots (--data, else mp.wz and base.wz beside a map in mp.wz, else the installed game).",
        GAME_CPP,
    ),
    r(
        "map/stats-unchecked",
        N,
        "stats ids not checked: no game data",
        "Whether the map's structures, features and droid templates exist is decided by the game's stats (the data roots); with no data roots and no detected Warzone 2100 installation the check was skipped. Pass --data mp.wz --data base.wz.",
        "vitrine",
    ),
    r(
        "map/player-beyond-count",
        E,
        "an object owned by a player slot beyond the level's players",
        "A structure or droid whose `startpos`/`player` is not below the level's player count belongs to no player of the game; the real game (4.3.3, run as the judge) drops it without a log line. Give it a slot the level has, or raise the level's player count.",
        "Warzone 2100 src/game.cpp (RemapWzMapPlayerNumber) and the game-as-judge run (../shared/tools/wz_game_map.md)",
    ),
    r(
        "map/start-position-missing",
        W,
        "a player of the level with neither an HQ nor a construction droid, so no start position",
        "The game sets a player's start position from the first construction droid (truck) of theirs it loads (loadWzMapDroidInit calls scriptSetStartPos), then from each HQ of theirs, over the truck's; the lobby, the starting camera and the rules' startPositions read it. A player slot the level has but neither an HQ nor a truck of leaves it unset at (0, 0), the map's top-left corner. Give each player an HQ or a truck where their base is.",
        "Warzone 2100 src/game.cpp (loadWzMapDroidInit, scriptSetStartPos for REF_HQ)",
    ),
    r(
        "map/script-refused",
        E,
        "a script-generated map's game.js fails",
        "The map's terrain and objects come from running its game.js, which must call setMapData(width, height, texture, height, structures, droids, features) with the game's shapes and limits (each side 2 to 256 tiles, width·height values per array, at most 65535 objects of each kind). A syntax error, an uncaught throw, a misused or missing setMapData, or a script that runs past Vitrine's bounds (work, recursion, memory) leaves the game without a map. The message gives game.js's line where the engine reports one.",
        "Warzone 2100 lib/wzmaplib/src/map_script.cpp (runMapScript, runMap_setMapData)",
    ),
];
