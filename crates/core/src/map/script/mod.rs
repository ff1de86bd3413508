//! Script-generated maps (WZ 4.0+): a `game.js` that computes the terrain and the objects
//! and hands them to `setMapData`, run here in Boa (a JavaScript engine in pure Rust) as
//! the game runs it in QuickJS (`runMapScript` in `lib/wzmaplib/src/map_script.cpp`).
//!
//! What the script sees (the game's map-script API, `api.rs`): `gameRand([mod])` (the
//! game's `std::mt19937` seeded with the map's seed: `rand_mt`), `log(value)`,
//! `setMapData(width, height, texture, height, structures, droids, features)` with the
//! game's checks, and the constants `preview`, `XFLIP`, `YFLIP`, `ROTMASK`, `ROTSHIFT`,
//! `TRIFLIP`. The game's context has no `Date`, `eval`, `RegExp`, `JSON`, `Proxy`,
//! `Promise`, `BigInt`, `WeakRef` or typed arrays; they are removed here too, so the
//! core reads no clock. `Math.random` (which no shipped map calls, and which differs on
//! every run in the game) draws from a generator of its own with the same seed, so a
//! Vitrine run is repeatable.
//!
//! The seed: the game draws a new one for every game it starts (`mapSeed = gameRandU32()`
//! in `src/game.cpp`, logged as "Loaded script-generated map … with random seed: N"), so
//! the same map differs from game to game. [`crate::map::Level::seed`] chooses it;
//! [`DEFAULT_SEED`] unless the caller says.
//!
//! Bounds, each a refusal naming `game.js` and the line where Boa gives one. Before
//! anything runs (`screen`): the file's size ([`MAX_SOURCE_BYTES`], checked before it is
//! read), its brackets' nesting ([`MAX_NESTING`]: Boa's parser recurses per level), and
//! the syntax the game's context lacks (regular expressions, BigInt literals, `async` and
//! `await`: engine work no instruction count sees); the `String` methods that build a
//! regular expression from a string are removed. While it runs, in every engine: Boa's
//! loop limit ([`LOOP_ITERATIONS`] per call frame, callbacks from natives included),
//! recursion limit ([`RECURSION`]) and value stack ([`STACK_VALUES`]); `setMapData`'s
//! objects added up over its calls (at most 65535 of a kind, names of at most
//! [`MAX_NAME_BYTES`]); the wrapped natives' lengths (below).
//!
//! Then time and memory, bounded from outside the engine, for everything it does on the
//! script's behalf ([`run_script_watched`]: Boa at full speed, the line it was last seen
//! on kept for the host):
//! - **the program** (window, CLI, thumbnailer, `publish`) runs the script in a child
//!   process of its own (`vitrine::script_sandbox`): every allocation charged to
//!   [`MEMORY_CAP`] by its allocator (`vitrine_memory_cap`), [`TIME_LIMIT_SECONDS`] of
//!   processor time;
//! - **the page** runs it in a Web Worker, in a script module of its own
//!   (`web/engines/script`) whose allocator charges the same cap, ended by the page after
//!   its wall-clock limit (`web/src/engines.rs`).
//!
//! Without an installed engine ([`run_script`] in one process: the tests, the fuzz
//! target), deterministic, no clock, no thread: the script runs in slices of
//! [`SLICE_COST`] of Boa's instruction costs (`Script::evaluate_async_with_budget`, polled
//! here with no executor, about five times slower than a plain run) and is stopped after
//! [`MAX_SLICES`]. Memory: natives whose work grows with a length (`Array.from`; the
//! `Array.prototype` methods that walk `this`: `fill`, `map`, `join`, `slice`, `concat`,
//! `forEach`, `indexOf`, …; `String.prototype.repeat`, `padStart`, `padEnd`) are wrapped
//! before the script runs, in every engine: each refuses a length over [`MAX_LENGTH`], and
//! those that build charge the length to a budget of [`MAX_ELEMENTS`] for the whole run.
//! That bound is coarse (string concatenation and other builtins are not charged), so one
//! process cannot hold a hostile script to a memory figure; a host that runs it apart can.
//!
//! Not here: `generateFractalValueNoise` (a newer API than 4.3.3's; no shipped map calls
//! it): a script calling it stops with a `ReferenceError`.

#[cfg(feature = "script")]
mod api;
#[cfg(feature = "script")]
mod run;
mod screen;
pub use screen::{screen_text, script_too_large};
#[cfg(all(test, feature = "script"))]
mod tests;
pub mod wire;

use crate::formats::LoadError;
use crate::map::MapObject;

/// Runs `source` (the bytes of `game.js`) with `seed`; `players` is the level's player
/// count (a player number equal to `max(players, 7)` is the scavengers, as in BJO files).
/// In the engine the host installed ([`crate::engines::install_script`]: the program's
/// sandbox, a child process that runs [`run_script_watched`] under a memory cap and a
/// clock; the page's, a Web Worker that does the same) where there is one; else in Boa, in this
/// process, within the work budget, where the core's `script` feature builds it in.
///
/// # Errors
/// A file over [`MAX_SOURCE_BYTES`] or nested over [`MAX_NESTING`], a construct the
/// game's context lacks (a regular expression, BigInt, `async`), a syntax error, an
/// uncaught throw, a budget exceeded, `setMapData` never called or given the wrong
/// shapes: each a [`LoadError`] at the script's line where there is one; without an
/// engine, a refusal saying so.
pub fn run_script(source: &[u8], seed: u32, players: u32) -> Result<ScriptMap, LoadError> {
    if let Some(run) = crate::engines::installed_script() {
        return run(source, seed, players);
    }
    #[cfg(feature = "script")]
    {
        run::run_script(source, seed, players)
    }
    #[cfg(not(feature = "script"))]
    {
        crate::engines::run_installed_script(source, seed, players)
    }
}

/// [`run_script`] in Boa at the engine's full speed, without the work budget (whose
/// per-instruction count makes Boa about five times slower): for a host that bounds the
/// run itself, in a process of its own with a memory cap and a clock (the program's
/// sandbox). `line` is kept at the line of `game.js` the script was last seen on (each
/// call into the game's API and each wrapped native sets it), so that a host that stops
/// the script can say where it was.
///
/// # Errors
/// As [`run_script`], but for the work budget.
#[cfg(feature = "script")]
pub fn run_script_watched(
    source: &[u8],
    seed: u32,
    players: u32,
    line: &'static std::sync::atomic::AtomicU32,
) -> Result<ScriptMap, LoadError> {
    run::run_watched(source, seed, players, line)
}

/// The memory a script may use where its host runs it apart (the program's child
/// process, the page's Web Worker): every allocation the engine makes for it, live at
/// once. The shipped scripts add at most 6 MB to the engine's own few megabytes.
pub const MEMORY_CAP: usize = 256 << 20;
/// The time a script may take where its host runs it apart, seconds unless the host is
/// told otherwise: 6c-Entropy's, the heaviest shipped script, takes 1.7 s of processor
/// time in the program (the next, 10c-WaterLoop's, 0.7 s; the community's under 0.1 s).
pub const TIME_LIMIT_SECONDS: u64 = 4;

/// A host stopped the script at its memory cap ([`MEMORY_CAP`]); `line` is the one it was
/// last seen on, where known.
pub fn stopped_at_memory(line: Option<u32>) -> LoadError {
    stopped(
        &format!(
            "the script used more than the {} MiB of memory map scripts may use",
            MEMORY_CAP >> 20
        ),
        line,
    )
}

/// A host could not run the script to its end (its engine crashed or failed to start):
/// `why`, as the host saw it.
pub fn could_not_run(why: &str) -> LoadError {
    LoadError::new(
        crate::formats::ErrorKind::Invalid,
        crate::model::Location::File,
        format!("the script could not be run: {why}"),
    )
}

/// A host stopped the script: `what` it ran past, and the line it was last seen on,
/// where known.
pub fn stopped(what: &str, line: Option<u32>) -> LoadError {
    let line = line.filter(|&n| n > 0);
    let place = match line {
        Some(n) => format!(" (last seen at line {n})"),
        None => String::new(),
    };
    LoadError::new(
        crate::formats::ErrorKind::Invalid,
        line.map_or(crate::model::Location::File, crate::model::Location::Line),
        format!("{what}{place}: stopped"),
    )
}

/// What a script gave to `setMapData`, as the game keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptMap {
    /// Tiles east.
    pub width: u32,
    /// Tiles south.
    pub height: u32,
    /// Tile textures, row-major.
    pub textures: Vec<u16>,
    /// Corner heights in world units (over 510 capped, as the game does).
    pub heights: Vec<i32>,
    /// Droids, then features, then structures: the game's load order.
    pub objects: Vec<MapObject>,
    /// The script's `log` lines and the game's non-fatal complaints (capped heights).
    pub notes: Vec<String>,
    /// The work the script took: slices of [`SLICE_COST`] instruction costs begun.
    pub slices: u64,
    /// Elements and string units the wrapped natives built (of [`MAX_ELEMENTS`]).
    pub elements: u64,
}

/// The seed a script map is run with unless the caller chooses one: `std::mt19937`'s own
/// default seed. The game picks a new seed for every game.
pub const DEFAULT_SEED: u32 = 5489;

/// Boa instruction cost per slice.
pub const SLICE_COST: u32 = 100_000;
/// Slices a script may run: ten times what the longest shipped map needs (6c-Entropy,
/// about 2,000). An endless script stops after about 2·10⁹ instruction costs: seconds
/// in an optimised build, minutes in an unoptimised one.
pub const MAX_SLICES: u64 = 20_000;
/// Loop iterations per call frame, all its loops together (Boa's `RuntimeLimits`): the
/// shipped scripts run within a fifth of it (each within 200,000), and an endless loop
/// stops at its line in a fraction of a second.
pub const LOOP_ITERATIONS: u64 = 1_000_000;
/// Nested calls (Boa's `RuntimeLimits`).
pub const RECURSION: usize = 1024;
/// Values on Boa's stack.
pub const STACK_VALUES: usize = 1 << 16;
/// The longest array or string a wrapped native may walk or build.
pub const MAX_LENGTH: u64 = 1 << 20;
/// Array elements and string units the wrapped natives that build may build in one run.
pub const MAX_ELEMENTS: u64 = 1 << 24;
/// The largest `game.js` run (the largest shipped one, NTW_Snow_1v1's, is 37 KB).
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;
/// The deepest nesting of brackets (`(`, `[`, `{`, `${`) in a `game.js` (the shipped
/// ones nest at most 10 deep): Boa's parser recurses once per level, and a few hundred
/// levels overflow a thread's stack.
pub const MAX_NESTING: u32 = 32;
/// The longest object name `setMapData` takes, bytes (the game's stats ids are under
/// 40): a script cannot hand back 65,535 copies of one huge name.
pub const MAX_NAME_BYTES: usize = 128;
